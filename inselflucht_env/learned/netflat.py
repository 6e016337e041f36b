"""Network-judged flat search: the plain search agent with the value head at its leaves.

``agents.search.SearchAgent`` compares candidate actions by playing each out to the end
with the heuristic, in shared determinized worlds (common random numbers, sequential
halving, a paired sign test before it leaves the heuristic's choice). This agent keeps all
of that and changes one thing: a rollout plays at most ``rollout_depth`` heuristic decisions
after the candidate, and where the game has not ended there the policy-value network's value
head (a win probability, trained by expert iteration) scores the world instead of the rest
of the rollout. The score of a world is then a probability in [0, 1], not a 0/1 outcome, so
the paired comparison between candidates is less noisy at the same budget.

Budget, probe, candidates and the one-choice shortcuts are the plain search's
(``simulations`` leaf evaluations per decision; ``seconds`` of wall time). Like the plain
search and ``netsearch`` it reads public facts only (R9): worlds come from
``agents.determinize``. Its rollouts run on the compiled core unless
``engine="reference"`` (same heuristic choices; the future's random stream differs).
"""

from __future__ import annotations

from inselflucht_env.agents.search import SearchAgent
from inselflucht_env.games.inselflucht.rules.engine import State
from inselflucht_env.learned.policy import (
    Policy,
    check_win_probability,
    load_policy_with_threads,
    win_probability,
)


class NetFlatAgent(SearchAgent):
    """The plain flat search, rollouts cut after ``rollout_depth`` decisions and judged by
    the value head of ``policy`` (a checkpoint folder, shipped name or loaded ``Policy``)."""

    def __init__(
        self,
        policy: str | Policy,
        simulations: int = 200,
        seconds: float = 1.0,
        probe: int = 8,
        max_candidates: int = 6,
        rollout_depth: int = 20,
        threads: int | None = 1,
        engine: str = "compiled",
    ):
        super().__init__(simulations, seconds, probe, max_candidates, engine=engine)
        if rollout_depth < 0:
            raise ValueError(f"rollout_depth must be >= 0, got {rollout_depth!r}")
        self._policy, self.path = check_win_probability(policy, "netflat")
        self.name = f"netflat:{self.path}"
        self.rollout_depth = rollout_depth
        self.threads = threads

    @property
    def network(self) -> Policy:
        """The network (loaded on first use, with torch limited to ``threads``)."""
        if self._policy is None:
            self._policy = load_policy_with_threads(self.path, self.threads)
        return self._policy

    def _rollout(self, world: State, action: int, seed: int) -> float:
        """Play ``action`` and up to ``rollout_depth`` heuristic decisions in a copy of
        ``world``; the outcome if the game ended, else the value head's estimate."""
        s = self._play_out(world, action, seed, self.rollout_depth)
        if s.outcome is not None:
            return 1.0 if s.outcome == "win" else 0.0
        return win_probability(self.network.evaluate_state(s)[1])
