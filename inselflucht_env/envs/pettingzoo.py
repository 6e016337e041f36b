"""PettingZoo AEC environment: one agent per figure, a shared cooperative reward.

Optional dependency: ``pip install .[pettingzoo]``. Usage, as for PettingZoo classic::

    from inselflucht_env import pettingzoo as inselflucht_v0
    env = inselflucht_v0.env(players=3)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

* Agents ``figure_0`` .. ``figure_{n-1}``: one per figure (solo: two agents, R2.4).
* ``agent_selection`` is the agent of the figure that makes the next decision
  (``State.decider``): the active figure, or during an escape (R5.5) the figure on the
  sinking place, even inside another figure's flood phase.
* Observations ``{"observation": Box(0, 1, (504,), float32), "action_mask": Box(0, 1,
  (36,), int8)}``. The observation is ``encode_observation(state, figure)``: the
  ``Inselflucht-v0`` encoding from the agent's own seat (seat 0 = that figure; for the
  decider exactly what ``Inselflucht-v0`` returns). ``observation.py`` says what the
  slices mean for an agent that is not deciding. The mask is all zeros for agents not on
  turn and once the game is over.
* Rewards: the team reward of ``Inselflucht-v0`` (``reward="win"`` or ``"shaped"``) goes
  to every agent. An illegal action (not in the mask) ends the game for all, as in
  PettingZoo classic, but cooperatively: every agent gets ``illegal_reward`` (-1) and
  ``infos[a]["outcome"] == "illegal"``.
* ``state()``: the public global view for centralised critics: the observation from
  figure 0's seat, then one-hot the deciding figure (4), then one-hot the active figure (4);
  ``state_space`` describes it. Never any hidden information (R9).
* Infos: ``turn`` and ``decider`` (agent name), and ``outcome`` at the end.
* ``replay``: the episode so far as a ``replay.Replay`` (save / replay it exactly).

``env(game="forbidden_island", players=..., difficulty=..., roles=..., reward=...)`` is
Forbidden Island the same way: agents ``player_0`` .. ``player_{n-1}``, the observation of
``ForbiddenIsland-v0`` from each agent's seat, a 77-action mask, the same rewards, infos
and ``state()`` (no ``replay`` yet).

``env(**kwargs)`` adds the usual wrappers (``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper``); ``raw_env(game, **kwargs)`` is the bare ``InselfluchtAEC`` or
``ForbiddenIslandAEC``. With PettingZoo's registry (1.27+), importing this module registers
it: ``pettingzoo.make("aec", "Inselflucht-v0", players=3)`` builds ``env(players=3)``.
Inselflucht's keyword arguments:
``players``, ``taucher``, ``short_game``, ``meter``, ``reward`` (as ``Inselflucht-v0``),
``render_mode`` (``"ansi"``, ``"rgb_array"``, ``"human"``) and ``illegal_reward``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "inselflucht_env.envs.pettingzoo needs PettingZoo: "
        "pip install 'inselflucht-gym[pettingzoo]' (or pip install .[pettingzoo])"
    ) from err

from inselflucht_env.envs.forbidden_island import SCENARIO_OPTIONS as FI_SCENARIO_OPTIONS
from inselflucht_env.envs.forbidden_island import ForbiddenIslandEnv
from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.games.forbidden_island.observation import (
    OBSERVATION_SIZE as FI_OBSERVATION_SIZE,
)
from inselflucht_env.games.forbidden_island.observation import (
    encode_observation as fi_encode_observation,
)
from inselflucht_env.games.forbidden_island.rules import actions as FI_A
from inselflucht_env.games.inselflucht.observation import (
    MAX_FIGURES,
    OBSERVATION_SIZE,
    encode_observation,
)
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.engine import State
from inselflucht_env.games.inselflucht.rules.scenario import OPTION_KEYS
from inselflucht_env.replay import Replay, ReplayRecorder

STATE_SIZE = OBSERVATION_SIZE + 2 * MAX_FIGURES  # Inselflucht's


def env(game: str = "inselflucht", **kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The AEC env of ``game`` with PettingZoo classic's wrappers (out-of-bounds check,
    order enforcing); ``kwargs`` are that game's (see the module docstring).

    Illegal (masked-out) actions are handled inside the env, cooperatively (see the module
    docstring), instead of by ``TerminateIllegalWrapper``, which would reward only the
    offending agent.
    """
    e = raw_env(game, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class TeamAEC(AECEnv, EzPickle):
    """A cooperative game of this package as a PettingZoo AEC game: one agent per seat, the
    team shares a reward. Subclasses name the game's Gymnasium env and encoding."""

    metadata: dict[str, Any] = {"is_parallelizable": False, "render_fps": 4}
    agent_prefix = "player"
    n_actions = 0
    observation_size = 0
    option_keys: tuple[str, ...] = ()

    def _setup(self, game: Any, seats: int, render_mode: str | None, illegal_reward: float) -> None:
        """Spaces and agents around ``game``, the game's Gymnasium env (``illegal_action=
        "terminate"``), which ``self._env`` (it or a recorder around it) steps."""
        super().__init__()
        self._game = game
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = [f"{self.agent_prefix}_{f}" for f in range(seats)]
        self.agents = self.possible_agents[:]
        self._index = {a: f for f, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
            }
        )
        # One space object per agent (api_test: the same object on every call).
        self.observation_spaces = {
            a: obs_space if f == 0 else _copy_space(obs_space)
            for f, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(
            0.0, 1.0, (self.observation_size + 2 * MAX_FIGURES,), np.float32
        )
        self._outcome: str | None = None
        self._started = False

    def _encode(self, state: Any, seat: int) -> np.ndarray:
        raise NotImplementedError

    def _action_names(self, legal: list[int]) -> list[str]:
        raise NotImplementedError

    # -------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -------------------------------------------------------------- AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game. ``options``: the scenario options of the game's Gymnasium env; other
        keys are ignored with a warning (PettingZoo's api_test passes a dummy option)."""
        if options is not None:
            unknown = sorted(set(options) - set(self.option_keys), key=str)
            if unknown:
                warnings.warn(
                    f"{self.metadata['name']}: ignoring unknown reset option(s) {unknown}; "
                    f"known: {list(self.option_keys)}",
                    stacklevel=2,
                )
                options = {k: v for k, v in options.items() if k in self.option_keys}
        self._env.reset(seed=seed, options=options)
        self._started = True
        self._outcome = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self._decider_agent()
        self.infos = self._make_infos()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        try:
            index = int(action)
        except (TypeError, ValueError):
            index = -1
        if not 0 <= index < self.n_actions or index != action:
            raise ValueError(f"{agent}: action {action!r} is not in Discrete({self.n_actions})")
        illegal = index not in self._game.game_state.legal_actions()
        if illegal:
            EnvLogger.warn_on_illegal_move()
        _, reward, terminated, truncated, info = self._env.step(index)
        if illegal:
            reward = self.illegal_reward
        self.rewards = dict.fromkeys(self.agents, float(reward))
        if terminated or truncated:
            self._outcome = info.get("outcome")
            self.terminations = dict.fromkeys(self.agents, bool(terminated))
            self.truncations = dict.fromkeys(self.agents, bool(truncated))
        self.agent_selection = self._decider_agent()
        self.infos = self._make_infos()
        self._accumulate_rewards()
        # "human" rendering is done by the wrapped Gymnasium env on every step.

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._game.game_state
        figure = self._index[agent]
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if self._outcome is None and agent == self.agent_selection:
            mask[state.legal_actions()] = 1
        return {"observation": self._encode(state, figure), "action_mask": mask}

    def state(self) -> np.ndarray:
        """Public global view: seat 0's observation, one-hot decider, one-hot active seat."""
        state = self._game.game_state
        extra = np.zeros(2 * MAX_FIGURES, dtype=np.float32)
        extra[state.decider] = 1.0
        extra[MAX_FIGURES + state.active] = 1.0
        return np.concatenate([self._encode(state, 0), extra])

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self.render_mode == "human":
            return None  # printed by the wrapped env on reset and step
        return self._game.render()

    def close(self) -> None:
        self._env.close()

    # -------------------------------------------------------------- extras
    @property
    def game_state(self) -> Any:
        """The engine state, hidden parts included: for tools and planners, not policies."""
        return self._game.game_state

    @property
    def outcome(self) -> str | None:
        return self._outcome

    def legal_action_names(self) -> list[str]:
        if self._outcome is not None:
            return []
        return self._action_names(self._game.game_state.legal_actions())

    # -------------------------------------------------------------- helpers
    def _decider_agent(self) -> str:
        return self.possible_agents[self._game.game_state.decider]

    def _make_infos(self) -> dict[str, dict[str, Any]]:
        state = self._game.game_state
        base: dict[str, Any] = {"turn": state.turn, "decider": self.agent_selection}
        if self._outcome is not None:
            base["outcome"] = self._outcome
        return {a: dict(base) for a in self.agents}

    def __str__(self) -> str:
        return str(self.metadata["name"])


class InselfluchtAEC(TeamAEC):
    """Inselflucht as a PettingZoo AEC game: figures are agents, the team shares a reward."""

    metadata = {
        "render_modes": ["ansi", "rgb_array", "human"],
        "name": "inselflucht_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }
    agent_prefix = "figure"
    n_actions = A.N_ACTIONS
    observation_size = OBSERVATION_SIZE
    option_keys = OPTION_KEYS

    def __init__(
        self,
        players: int = 2,
        taucher: bool = False,
        short_game: bool = False,
        meter: str | Sequence[int] = "normal",
        reward: str = "win",
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ):
        EzPickle.__init__(
            self,
            players=players,
            taucher=taucher,
            short_game=short_game,
            meter=meter,
            reward=reward,
            render_mode=render_mode,
            illegal_reward=illegal_reward,
        )
        game = InselfluchtEnv(
            players=players,
            taucher=taucher,
            short_game=short_game,
            meter=meter,
            reward=reward,
            illegal_action="terminate",
            render_mode=render_mode,
        )
        self._setup(game, game.config.figures, render_mode, illegal_reward)
        self._env = ReplayRecorder(game, meta={"source": "pettingzoo"})

    def _encode(self, state: State, seat: int) -> np.ndarray:
        return encode_observation(state, seat)

    def _action_names(self, legal: list[int]) -> list[str]:
        return [A.ACTION_NAMES[i] for i in legal]

    @property
    def replay(self) -> Replay:
        """The episode so far as a replay record (seed, options, action names, outcome)."""
        return self._env.replay

    def describe(self) -> dict[str, Any]:
        return self._game.describe()


class ForbiddenIslandAEC(TeamAEC):
    """Forbidden Island as a PettingZoo AEC game: ``player_0`` .. ``player_{n-1}`` are the
    seats; observations are ``ForbiddenIsland-v0``'s from each agent's own seat."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "forbidden_island_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }
    n_actions = FI_A.N_ACTIONS
    observation_size = FI_OBSERVATION_SIZE
    option_keys = FI_SCENARIO_OPTIONS

    def __init__(
        self,
        players: int = 2,
        difficulty: str = "novice",
        roles: Sequence[str] | None = None,
        reward: str = "win",
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ):
        EzPickle.__init__(
            self,
            players=players,
            difficulty=difficulty,
            roles=roles,
            reward=reward,
            render_mode=render_mode,
            illegal_reward=illegal_reward,
        )
        game = ForbiddenIslandEnv(
            players=players,
            difficulty=difficulty,
            roles=roles,
            reward=reward,
            illegal_action="terminate",
            render_mode=render_mode,
        )
        self._setup(game, players, render_mode, illegal_reward)
        self._env = game

    def _encode(self, state: Any, seat: int) -> np.ndarray:
        return fi_encode_observation(state, seat)

    def _action_names(self, legal: list[int]) -> list[str]:
        return [FI_A.ACTION_NAMES[i] for i in legal]


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    boxes = {k: s for k, s in space.items() if isinstance(s, spaces.Box)}
    assert len(boxes) == len(space), "the AEC observation space holds Boxes only"
    return spaces.Dict(
        {k: spaces.Box(s.low, s.high, s.shape, s.dtype.type) for k, s in boxes.items()}
    )


GAME_AECS: dict[str, type[TeamAEC]] = {
    "inselflucht": InselfluchtAEC,
    "forbidden_island": ForbiddenIslandAEC,
}
REGISTRY_ID = "Inselflucht-v0"


def raw_env(game: str = "inselflucht", **kwargs: Any) -> TeamAEC:
    """The bare AEC env of ``game`` (``"inselflucht"`` or ``"forbidden_island"``)."""
    cls = GAME_AECS.get(game)
    if cls is None:
        raise ValueError(f"game={game!r} is not allowed: expected one of {list(GAME_AECS)}")
    return cls(**kwargs)


def _register() -> None:
    """PettingZoo >= 1.27 registry: ``pettingzoo.make("aec", "Inselflucht-v0", players=3)``."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # older PettingZoo: no registry, use env() / raw_env()
        return
    if REGISTRY_ID not in aec_registry:
        register("aec", REGISTRY_ID, entry_point=f"{__name__}:env")


_register()

__all__ = [
    "GAME_AECS",
    "REGISTRY_ID",
    "ForbiddenIslandAEC",
    "InselfluchtAEC",
    "STATE_SIZE",
    "TeamAEC",
    "env",
    "raw_env",
]
