"""``gymnasium.make_vec("Inselflucht-v0", num_envs=N, vectorization_mode="vector_entry_point")``.

A native ``gymnasium.vector.VectorEnv`` over a compiled ``Batch``: one compiled call per
step applies every env's action, pays the rewards, writes observations and masks, and
resets the envs whose episode ended on the previous step (Gymnasium 1.x next-step
autoreset, ``metadata["autoreset_mode"]``). Spaces, rewards and episode ends are those
of ``Inselflucht-v0`` (its docstring), per env:

* ``observation_space``: ``Box(0, 1, (N, 504), float32)``; ``action_space``:
  ``MultiDiscrete([36] * N)``; ``single_*`` the spaces of one env.
* ``info`` in Gymnasium's vector form, each key with its ``_key`` mask:
  ``action_mask`` (N, 36) int8, ``decider`` and ``turn`` (N,) int, and ``outcome`` (N,)
  object, set (``_outcome``) on the step that ends an env's episode.
* ``action_masks()``: the (N, 36) bool mask, for sb3-contrib.
* An illegal action ends that env's episode as ``illegal`` (``illegal_action="terminate"``)
  or raises ``IllegalActionError`` before any env is stepped (``"raise"``).
* ``reset(options=...)`` takes the scenario options of ``Inselflucht-v0`` (``layout``,
  ``column_deck``, ``row_deck``, for every env) and ``reset_mask`` (reset only those envs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from inselflucht_env.compiled import kernels
from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.batch import Batch, seed_states, template_row
from inselflucht_env.envs.arguments import check_choice
from inselflucht_env.envs.inselflucht import ILLEGAL_ACTION_MODES, REWARD_SCHEMES
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import OUTCOMES, IllegalActionError
from inselflucht_env.games.inselflucht.rules.scenario import parse_options

RENDER_MODES = ("ansi", "rgb_array")
_OUTCOME_NAMES = np.array(OUTCOMES, dtype=object)


class InselfluchtVectorEnv(VectorEnv):
    """``num_envs`` games of Inselflucht stepped together by the compiled engine."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_fps": 4,
    }

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        taucher: bool = False,
        short_game: bool = False,
        meter: str | Sequence[int] = "normal",
        reward: str = "win",
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        copy: bool = True,
        **unknown: Any,
    ):
        if unknown:
            names = ", ".join(repr(k) for k in sorted(unknown))
            raise ValueError(
                f"unknown argument(s) {names} for the Inselflucht-v0 vector env: the allowed "
                "arguments are num_envs, players, taucher, short_game, meter, reward, "
                "illegal_action, render_mode, copy"
            )
        config = GameConfig.make(players, taucher, short_game, meter)
        check_choice("reward", reward, REWARD_SCHEMES)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.batch = Batch(num_envs, config)
        self.num_envs = num_envs
        self.config = config
        self.reward_scheme = reward
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.copy = copy
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(A.N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._obs = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
        self._final_obs = np.zeros((1, OBSERVATION_SIZE), dtype=np.float32)  # SAME_STEP only
        self._masks = np.zeros((n, A.N_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._outcomes = np.full(n, -1, dtype=np.int32)
        self._needs_reset = np.zeros(n, dtype=np.bool_)
        self._deciders = np.zeros(n, dtype=np.int64)
        self._started = False

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        scenario = parse_options(options)  # validated before anything changes
        which = np.ones(self.num_envs, dtype=np.bool_)
        if reset_mask is not None:
            which = np.asarray(reset_mask)
            if which.dtype != np.bool_ or which.shape != (self.num_envs,):
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)"
                )
            if not self._started and not which.all():
                raise ValueError("the first reset must reset every env (no reset_mask)")
        if seed is not None:
            self._seed(seed, which)
        if scenario:
            self.batch.set_scenario(**scenario)
        self.batch.reset(which, self._obs, self._masks, self._deciders)
        self._needs_reset[which] = False
        self._started = True
        return self._out(self._obs), self._info(None)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = self._actions(actions)
        if self.illegal_action == "raise":
            self._refuse_illegal(actions)
        kernels.step_envs(
            self.batch.states,
            actions,
            self._needs_reset,
            self.batch.template,
            self.batch.layout,
            self.batch.rng,
            self.reward_scheme == "shaped",
            kernels.NEXT_STEP,
            self._obs,
            self._masks,
            self._rewards,
            self._terminated,
            self._outcomes,
            self._final_obs,
            self._deciders,
        )
        return (
            self._out(self._obs),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._info(self._outcomes),
        )

    def render(self) -> tuple[Any, ...] | None:
        """Each env's rendering (``Inselflucht-v0``'s ``ansi`` text or ``rgb_array``)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            from inselflucht_env.games.inselflucht.render.image import render_rgb

            return tuple(render_rgb(self.batch.state(i)) for i in range(self.num_envs))
        from inselflucht_env.games.inselflucht.render.text import render_ansi

        return tuple(render_ansi(self.batch.state(i)) for i in range(self.num_envs))

    # ------------------------------------------------------------------ extras
    def action_masks(self) -> np.ndarray:
        """(N, 36) bool: the legal actions of every env (for sb3-contrib's MaskablePPO)."""
        return self._masks.astype(bool)

    def set_config(self, config: GameConfig) -> None:
        """Play ``config`` in every env from its next reset (a curriculum's meter)."""
        if not isinstance(config, GameConfig):
            raise TypeError(f"config must be a GameConfig, not {type(config).__name__}")
        self.batch.template = template_row(config)
        self.batch.config = self.config = config

    # ------------------------------------------------------------------ helpers
    def _seed(self, seed: int | list[int | None], which: np.ndarray) -> None:
        if isinstance(seed, (list, tuple)):
            if len(seed) != self.num_envs:
                raise ValueError(f"seed list has {len(seed)} entries for {self.num_envs} envs")
            for i, one in enumerate(seed):
                if which[i]:
                    self.batch.rng[i] = seed_states(one, 1)[0]
        else:
            self.batch.seed(int(seed))

    def _actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers in 0..{A.N_ACTIONS - 1} "
                f"(shape ({self.num_envs},)), got {actions!r}"
            )
        bad = np.flatnonzero((array < 0) | (array >= A.N_ACTIONS))
        if bad.size:
            raise ValueError(
                f"action {int(array[bad[0]])} of env {bad[0]} is not in Discrete({A.N_ACTIONS})"
            )
        return array.astype(np.int64)

    def _refuse_illegal(self, actions: np.ndarray) -> None:
        live = ~self._needs_reset
        chosen = self._masks[np.arange(self.num_envs), actions]
        bad = np.flatnonzero(live & (chosen == 0))
        if bad.size:
            i = int(bad[0])
            legal = ", ".join(A.ACTION_NAMES[a] for a in np.flatnonzero(self._masks[i]))
            raise IllegalActionError(
                f"env {i}: action {A.ACTION_NAMES[actions[i]]!r} is not legal now; legal: "
                f"{legal} (no env was stepped)"
            )

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _info(self, outcomes: np.ndarray | None) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=np.bool_)
        info: dict[str, Any] = {
            "action_mask": self._masks.copy(),
            "_action_mask": every,
            "decider": self._deciders.copy(),
            "_decider": every.copy(),
            "turn": self.batch.states[:, L.TURN].astype(np.int64),
            "_turn": every.copy(),
        }
        if outcomes is not None:
            ended = outcomes >= 0
            if ended.any():
                names = np.full(self.num_envs, None, dtype=object)
                names[ended] = _OUTCOME_NAMES[outcomes[ended]]
                info["outcome"] = names
                info["_outcome"] = ended
        return info
