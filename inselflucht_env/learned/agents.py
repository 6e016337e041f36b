"""A trained network as a harness agent (``make_agent("checkpoint:...")`` or a bare path)."""

from __future__ import annotations

import numpy as np

from inselflucht_env.games.inselflucht.rules.engine import State
from inselflucht_env.learned.checkpoint import CheckpointError, read_metadata
from inselflucht_env.learned.policy import Policy, load_policy
from inselflucht_env.learned.shipped import resolve


class CheckpointAgent:
    """The argmax of a network's masked policy, no search (``--agent checkpoints/NAME``);
    ``game`` is the game it is asked to play, which must be the checkpoint's.

    The checkpoint is resolved and its metadata checked when the agent is built, so a bad
    path fails at once; the tensors load lazily on the first decision, which keeps building
    one per worker process cheap. torch is limited to ``threads`` threads per process (the
    harness runs one process per core). ``deterministic=False`` samples from the policy.
    """

    def __init__(
        self,
        path: str,
        deterministic: bool = True,
        threads: int | None = 1,
        game: str = "inselflucht",
    ):
        self.path = str(resolve(path))
        _, meta = read_metadata(self.path)  # a missing, foreign or stale checkpoint fails here
        trained = meta["signature"].get("game", "inselflucht")
        if trained != game:
            raise CheckpointError(f"checkpoint {self.path!r} plays {trained}, not {game}")
        self.threads = threads
        self.name = f"checkpoint:{path}"
        self.deterministic = deterministic
        self._policy: Policy | None = None

    def policy(self) -> Policy:
        """The loaded policy (loaded on first use)."""
        if self._policy is None:
            if self.threads:
                import torch

                torch.set_num_threads(self.threads)  # one per worker: no oversubscription
            self._policy = load_policy(self.path)
        return self._policy

    def act(self, state: State, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.policy().act(state, deterministic=self.deterministic, rng=rng)
