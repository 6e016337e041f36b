"""Baseline agents for Inselflucht, behind one interface (``base.Agent``).

``make_agent(spec)`` builds one from a name or a checkpoint path:

* ``"random"``: uniform over the legal actions (``random_agent.py``);
* ``"heuristic"``: the hand-written expert team policy (``heuristic.py``);
* ``"novice"``: the heuristic with a slip of a random legal action at 20% of decisions, a
  stand-in for a beginner team;
* ``"search"``: determinized Monte Carlo with the heuristic as rollout policy (``search.py``);
* anything else is taken as a checkpoint path for ``train.checkpoint.load_policy``.

Every agent acts for ``state.decider`` from public facts only (R9): ``knowledge.py`` is
the one module that reads face-up cards, and ``determinize.py`` samples the hidden rest.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine import State
from .base import Agent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .search import SearchAgent

AGENT_NAMES = ("random", "heuristic", "novice", "search")
NOVICE_EPSILON = 0.2


class CheckpointAgent:
    """A trained MaskablePPO policy (``train/``) as a harness agent.

    Loads lazily on the first decision, so building one per worker process is cheap; torch
    is limited to ``threads`` threads per process (the harness runs one process per core). The
    policy sees ``observation.encode_observation(state)`` (public facts only), plus the
    heuristic's advice if it was trained with it (``advice.py``), and the legal-action mask;
    ``deterministic`` picks the most likely legal action.
    """

    def __init__(self, path: str, deterministic: bool = True, device: str = "cpu",
                 threads: int | None = 1):
        self.path = str(path)
        self.threads = threads
        self.name = f"checkpoint:{self.path}"
        self.deterministic = deterministic
        self.device = device
        self._policy = None

    def _load(self):
        from train.checkpoint import load_policy  # optional dependency (torch, sb3)
        if self.threads:
            try:  # one thread per harness worker: no oversubscription of the cores
                import torch
                torch.set_num_threads(self.threads)
            except ImportError:
                pass
        self._policy = load_policy(self.path, device=self.device)
        return self._policy

    def act(self, state: State, rng: np.random.Generator) -> int:
        policy = self._policy or self._load()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        action = int(policy.act(state, deterministic=self.deterministic))
        if action not in legal:
            raise ValueError(f"checkpoint {self.path} chose illegal action {action} "
                             f"(legal: {legal})")
        return action


def make_agent(spec: str, **kwargs: Any) -> Agent:
    """An agent from a name (``random``, ``heuristic``, ``search``) or a checkpoint path.

    Keyword arguments go to the agent's constructor (e.g. ``simulations=200`` for search,
    heuristic weights or ``epsilon`` for heuristic and novice); ``None`` values are dropped.
    """
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if spec == "random":
        return RandomAgent()
    if spec == "heuristic":
        return HeuristicAgent(**kwargs)
    if spec == "novice":
        return HeuristicAgent(**{"epsilon": NOVICE_EPSILON, **kwargs})
    if spec == "search":
        return SearchAgent(**kwargs)
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"agent spec {spec!r}: expected one of {AGENT_NAMES} or a checkpoint path")
    return CheckpointAgent(spec, **kwargs)


__all__ = ["AGENT_NAMES", "Agent", "CheckpointAgent", "HeuristicAgent", "RandomAgent",
           "SearchAgent", "make_agent"]
