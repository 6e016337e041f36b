"""The Gymnasium environment ``ForbiddenIsland-v0``: a thin layer over its rules engine."""

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
from inselflucht_env.games.forbidden_island.observation import (
    OBSERVATION_SIZE,
    describe_observation,
    encode_observation,
)
from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.config import GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import IllegalActionError, State
from inselflucht_env.games.forbidden_island.rules.public import describe

REWARD_SCHEMES = ("win", "shaped")
ILLEGAL_ACTION_MODES = ("terminate", "raise")
SCENARIO_OPTIONS = ("layout", "treasure_deck", "flood_deck")
SHAPED_CAPTURE = 0.25


class ForbiddenIslandEnv(gym.Env):
    """Forbidden Island: capture four treasures and fly off before the island sinks.

    ## Description
    The cooperative board game (Matt Leacock, 2010; rules: ``docs/rules_forbidden_island.md``,
    cited as FR1-FR10). 2-4 players with distinct roles move over 24 island tiles, shore up
    flooded ones, trade treasure cards, capture the four treasures and escape by helicopter
    from Fools' Landing while flood cards sink the island and Waters Rise! speeds it up. The
    whole team shares one reward.

    ## Action Space
    ``Discrete(77)``, with stable names (``action_name(i)``, ``action_index(name)``):
    ``move:0``-``move:23`` (a slot: walk FR4.1, the Pilot's flight FR3.6, and the
    destination of a guide, a Helicopter Lift or a swim), ``shore:0``-``shore:23`` (FR4.3,
    Sandbags FR6.2, the Engineer's second tile FR3.2), ``give:<earth|wind|fire|ocean>:+k``
    (FR4.4, to the player k = 1-3 seats on), ``capture`` (FR4.5), ``guide:+k`` (the
    Navigator, FR3.5), ``sandbag``, ``lift:+k`` (a Helicopter Lift for the pawn k = 0-3
    seats after the card's holder, FR6.1), ``escape`` (FR9.1), ``discard:<kind>`` (FR5.3)
    and ``done``. One step is one decision of the deciding player; a sub-decision with a
    single legal choice is applied automatically. The mask is ``action_masks()`` (bool, for
    sb3-contrib) and ``info["action_mask"]`` (int8).

    ## Observation Space
    ``Box(0, 1, (645,), float32)`` from the deciding player's seat: 15 planes over the
    6 x 6 grid (entries 0-539, reshape to (15, 6, 6)) then a vector of 105 public facts.
    ``describe_observation()`` lists every named slice; the draw orders are never encoded.

    ## Starting State
    The 24 tiles dealt at random in the standard shape, 6 of them flooded, distinct roles on
    their start tiles, 2 treasure cards each, the water level of ``difficulty`` (FR2).
    ``reset(options=...)`` can fix ``layout`` (the tile of each slot) and the draw orders
    ``treasure_deck`` and ``flood_deck`` (first drawn first).

    ## Rewards
    ``reward="win"`` (default): +1 on the step that escapes (FR9.1), 0 otherwise.
    ``reward="shaped"``: +1 win, -1 loss or illegal action, +0.25 per treasure captured.

    ## Episode End
    Terminated on a win, a loss (L1-L4, FR10) or, with ``illegal_action="terminate"``, an
    illegal action. Never truncated: the water level rises with every pass through the
    treasure deck, so every game ends.

    ## Information
    ``action_mask`` (int8), ``decider`` (the seat to decide), ``turn``; at the end also
    ``outcome`` (``"win"``, ``"L1"``-``"L4"`` or ``"illegal"``).

    ## Arguments
    ``players`` (2-4, default 2), ``difficulty`` (``"novice"``, ``"normal"``, ``"elite"``,
    ``"legendary"``), ``roles`` (None for random distinct roles, or one name per seat from
    ``diver``, ``engineer``, ``explorer``, ``messenger``, ``navigator``, ``pilot``),
    ``reward`` (``"win"``, ``"shaped"``), ``illegal_action`` (``"terminate"``, ``"raise"``),
    ``render_mode`` (``"ansi"``, ``"rgb_array"``).

    ## Version History
    * v0 (0.3.0, 2026-12-06): initial release.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        players: int = 2,
        difficulty: str = "novice",
        roles: Sequence[str] | None = None,
        reward: str = "win",
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        **unknown: Any,
    ):
        if unknown:
            reject_unknown_arguments(unknown, ForbiddenIslandEnv.__init__, "ForbiddenIsland-v0")
        self.config = GameConfig.make(players, difficulty, roles)
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
        scenario = _scenario(options)
        if scenario:  # validate before touching the generator or the current game
            State.new(self.config, np.random.default_rng(0), **scenario)
        super().reset(seed=seed)
        self._state = State.new(self.config, self.np_random, **scenario)
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
        captured = sum(state.captured)
        state.apply(index, self.np_random)
        return (
            encode_observation(state),
            self._reward(captured),
            state.outcome is not None,
            False,
            self._info(),
        )

    def render(self):
        if self.render_mode is None:  # as Gymnasium's own environments do
            gym.logger.warn(
                "You are calling render method without specifying any render mode. "
                "You can specify the render_mode at initialization, e.g. "
                'gym.make("ForbiddenIsland-v0", render_mode="ansi")'
            )
            return None
        state = self._require_state()
        if self.render_mode == "rgb_array":
            from inselflucht_env.games.forbidden_island.render.image import render_rgb

            return render_rgb(state)
        from inselflucht_env.games.forbidden_island.render.text import render_text

        return render_text(state)

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

    @property
    def game_state(self) -> State:
        """The engine state, deck orders included: for tools and planners, not policies."""
        return self._require_state()

    # -------------------------------------------------------------- helpers
    def _require_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        info: dict[str, Any] = {
            "action_mask": _INT8_MASKS(state.legal_actions()),
            "decider": state.decider,
            "turn": state.turn,
        }
        if state.outcome is not None:
            info["outcome"] = state.outcome
        return info

    def _reward(self, captured_before: int) -> float:
        state = self._require_state()
        win = 1.0 if state.outcome == "win" else 0.0
        if self.reward_scheme == "win":
            return win
        reward = SHAPED_CAPTURE * (sum(state.captured) - captured_before)
        if state.outcome is not None:
            reward += 1.0 if win else -1.0
        return float(reward)


def _scenario(options: dict[str, Any] | None) -> dict[str, Any]:
    """The scenario options of ``reset`` (validated by ``State.new``); unknown keys fail."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict, got {type(options).__name__}")
    unknown = sorted(set(options) - set(SCENARIO_OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown reset option(s) {unknown} for ForbiddenIsland-v0: "
            f"expected any of {list(SCENARIO_OPTIONS)}"
        )
    return {k: options[k] for k in SCENARIO_OPTIONS if options.get(k) is not None}


_INT8_MASKS = MaskCache(A.N_ACTIONS, np.int8)
_BOOL_MASKS = MaskCache(A.N_ACTIONS, bool)

__all__ = ["ForbiddenIslandEnv", "IllegalActionError"]
