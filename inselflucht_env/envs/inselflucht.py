"""The Gymnasium environment ``Inselflucht-v0``: a thin layer over the rules engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from inselflucht_env.envs.arguments import (
    MaskCache,
    action_to_index,
    check_choice,
    reject_unknown_arguments,
)
from inselflucht_env.games.inselflucht.observation import (
    OBSERVATION_SIZE,
    describe_observation,
    encode_observation,
    kings_seen,
)
from inselflucht_env.games.inselflucht.reward import (
    SHAPED_KING_SEEN,
    SHAPED_SALVAGE,
    SHAPED_TREASURE,
)
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.cards import SUIT_OF
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import IllegalActionError, State
from inselflucht_env.games.inselflucht.rules.public import describe
from inselflucht_env.games.inselflucht.rules.scenario import parse_options

REWARD_SCHEMES = ("win", "shaped")
ILLEGAL_ACTION_MODES = ("terminate", "raise")


class InselfluchtEnv(gym.Env):
    """Inselflucht: a cooperative, partly hidden, time-pressured island escape.

    ## Description
    Card-game adaptation of *Forbidden Island* (rules: ``docs/rules.md``, cited as R1-R9).
    1-4 players (solo runs two figures) explore a 5 x 5 island of face-down cards, salvage
    land cards, lift the four treasures on the kings and take off from the helicopter
    before the rising water sinks the island. The whole team shares one reward.

    ## Action Space
    ``Discrete(36)``, with stable names (``action_name(i)``, ``action_index(name)``):
    ``move:up|down|left|right`` (R4.2), ``swim:up|down|left|right`` (R4.3),
    ``shore:here|up|down|left|right`` (R4.4), ``salvage:up|down|left|right`` (R4.5),
    ``give:+1|+2|+3`` (R4.6, to the figure 1-3 seats on), ``lift`` (R4.7), ``take_off``
    (R4.8), ``end_turn`` (R4.1), ``card:clubs|diamonds|hearts|spades`` and ``done``
    (free sub-steps of a give or a short-suit lift), ``escape:<8 directions>`` (R5.5).
    ``up`` is row - 1, ``left`` column - 1. One step is one decision of the deciding
    player; a sub-decision with a single legal choice is applied automatically. The mask
    is ``action_masks()`` (bool, for sb3-contrib) and ``info["action_mask"]`` (int8).

    ## Observation Space
    ``Box(0, 1, (504,), float32)`` from the deciding figure's seat: 17 planes over the
    5 x 5 grid (entries 0-424, reshape to (17, 5, 5)) then a vector of 79 public facts.
    ``describe_observation()`` lists every named slice; nothing hidden (R9) is encoded.

    ## Starting State
    The 24 island cards dealt face down around the helicopter (R2), all figures on it,
    water level 1. ``reset(options=...)`` can fix ``layout``, ``column_deck`` and
    ``row_deck`` (see ``scenario.parse_options``).

    ## Rewards
    ``reward="win"`` (default): +1 on the step that takes off (R6.1), 0 otherwise.
    ``reward="shaped"``: +1 win, -1 loss or illegal action, +0.25 per treasure lifted,
    +0.05 per king first seen, +0.02 per land card salvaged of a suit still to lift.

    ## Episode End
    Terminated on a win, a loss (L1-L6, R6.3) or, with ``illegal_action="terminate"``,
    an illegal action. Never truncated: every game ends within the meter's floods.

    ## Information
    ``action_mask`` (int8), ``decider`` (figure to decide), ``turn``; at the end also
    ``outcome`` (``"win"``, ``"L1"``-``"L6"`` or ``"illegal"``).

    ## Arguments
    ``players`` (1-4, default 2), ``taucher`` (bool), ``short_game`` (bool), ``meter``
    (``"normal"``, ``"leicht"``, ``"schwer"`` or a list of levels 1-5), ``reward``
    (``"win"``, ``"shaped"``), ``illegal_action`` (``"terminate"``, ``"raise"``),
    ``render_mode`` (``"ansi"``, ``"rgb_array"``, ``"human"``: colour text on stdout).

    ## Version History
    * v0 (0.1.0, 2026-11-30): initial release. Within v0 the observation changed once:
      ``pending_cards`` (entry 453) was divided by 5 at first and by 20 since the review of
      2026-11-30, so that it stays within the Box for gives of many cards; checkpoints record
      the layout in their signature. ``render()`` without a render mode warns and returns
      None (Gymnasium's convention) since 0.2.0; before it returned the text.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}

    def __init__(
        self,
        players: int = 2,
        taucher: bool = False,
        short_game: bool = False,
        meter: str | Sequence[int] = "normal",
        reward: str = "win",
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        **unknown: Any,
    ):
        if unknown:  # a ValueError naming it, like every other bad argument, not a TypeError
            reject_unknown_arguments(unknown, InselfluchtEnv.__init__, "Inselflucht-v0")
        self.config = GameConfig.make(players, taucher, short_game, meter)
        check_choice("reward", reward, REWARD_SCHEMES)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.reward_scheme = reward
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(A.N_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self._state: State | None = None

    # -------------------------------------------------------------- Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        scenario = parse_options(options)  # validate before touching the current game
        super().reset(seed=seed)
        self._state = State.new(self.config, self.np_random, **scenario)
        if self.render_mode == "human":
            self.render()
        return encode_observation(self._state), self._info()

    def step(self, action):
        state = self._require_state()
        if state.outcome is not None:
            raise RuntimeError("the episode is over: call reset() before step()")
        index = action_to_index(action, A.N_ACTIONS, A.action_name)
        if index not in state.legal_actions():
            if self.illegal_action == "raise":
                state.apply(index, self.np_random)  # raises IllegalActionError, state unchanged
            state.end_by_illegal_action()
            reward = -1.0 if self.reward_scheme == "shaped" else 0.0
            return encode_observation(state), reward, True, False, self._info()
        before = self._progress() if self.reward_scheme == "shaped" else None
        state.apply(index, self.np_random)
        reward = self._reward(before)
        if self.render_mode == "human":
            self.render()
        return encode_observation(state), reward, state.outcome is not None, False, self._info()

    def render(self):
        if self.render_mode is None:  # as Gymnasium's own environments (e.g. CartPole) do
            env_id = self.spec.id if self.spec is not None else "Inselflucht-v0"
            gym.logger.warn(
                "You are calling render method without specifying any render mode. "
                "You can specify the render_mode at initialization, "
                f'e.g. gym.make("{env_id}", render_mode="ansi")'
            )
            return None
        state = self._require_state()
        if self.render_mode == "rgb_array":
            from inselflucht_env.games.inselflucht.render.image import render_rgb

            return render_rgb(state)
        from inselflucht_env.games.inselflucht.render.text import render_ansi

        if self.render_mode == "human":
            print(render_ansi(state, colour=True))
            return None
        return render_ansi(state)

    # -------------------------------------------------------------- extras
    def action_masks(self) -> np.ndarray:
        """Bool mask of the legal actions (all false once the episode is over)."""
        if self._state is None:
            return np.zeros(A.N_ACTIONS, dtype=bool)
        return _BOOL_MASKS(self._state.legal_actions())

    @staticmethod
    def action_index(name: str) -> int:
        return A.action_index(name)

    @staticmethod
    def action_name(index: int) -> str:
        return A.action_name(index)

    def legal_action_names(self) -> list[str]:
        return [A.ACTION_NAMES[i] for i in np.flatnonzero(self.action_masks())]

    def describe(self) -> dict[str, Any]:
        """The public state as a JSON-serialisable dict (see ``public.describe``)."""
        return describe(self._require_state())

    @staticmethod
    def describe_observation() -> list[dict[str, object]]:
        return describe_observation()

    def set_config(self, config: GameConfig) -> None:
        """Play ``config`` from the next ``reset`` on (e.g. a training curriculum's meter);
        a method, so that vector envs reach it through their wrappers (``env_method``)."""
        if not isinstance(config, GameConfig):
            raise TypeError(f"config must be a GameConfig, not {type(config).__name__}")
        self.config = config

    @property
    def game_state(self) -> State:
        """The engine state, hidden cards included: for tools and planners, not policies."""
        return self._require_state()

    # -------------------------------------------------------------- helpers
    def _require_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        mask = _INT8_MASKS(state.legal_actions())
        info: dict[str, Any] = {"action_mask": mask, "decider": state.decider, "turn": state.turn}
        if state.outcome is not None:
            info["outcome"] = state.outcome
        return info

    def _progress(self) -> tuple[int, int, int]:
        """Public counts that the shaped reward pays for: lifted, kings seen, useful salvage."""
        state = self._require_state()
        lifted = state.lifted
        useful = 0
        for hand in state.salvage:
            for c in hand:
                if not lifted[SUIT_OF[c]]:
                    useful += 1
        return lifted.count(True), kings_seen(state).bit_count(), useful

    def _reward(self, before: tuple[int, int, int] | None) -> float:
        outcome = self._require_state().outcome
        if self.reward_scheme == "win" or before is None:
            return 1.0 if outcome == "win" else 0.0
        lifted, kings, useful = self._progress()
        reward = (
            SHAPED_TREASURE * (lifted - before[0])
            + SHAPED_KING_SEEN * (kings - before[1])
            + SHAPED_SALVAGE * max(useful - before[2], 0)
        )
        if outcome is not None:
            reward += 1.0 if outcome == "win" else -1.0
        return float(reward)


_INT8_MASKS = MaskCache(A.N_ACTIONS, np.int8)
_BOOL_MASKS = MaskCache(A.N_ACTIONS, bool)

__all__ = ["InselfluchtEnv", "IllegalActionError"]
