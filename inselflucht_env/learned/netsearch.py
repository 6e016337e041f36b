"""Network-guided search: determinized PUCT over a policy-value network (expert iteration's
expert).

One tree per decision, over *action sequences* from the current state, shared by every
simulation (single-observer information-set MCTS, Cowling et al. 2012):

1. each simulation samples a fresh determinization of the state (``agents.determinize``:
   hidden island cards and the undrawn flood order resampled from public facts, R9), so
   the search never reads what the players cannot see;
2. it descends the tree in that world by PUCT (AlphaZero's rule, Silver et al. 2017)::

       a* = argmax_a  Q(a) + c_puct * P(a) * sqrt(N) / (1 + N(a))

   over the actions legal *in this world* (``P``: the network's masked policy, stored
   when the node was first reached; an action that was not legal then gets the prior
   ``1 / #legal``; ``Q`` of an unvisited action: the node's mean value). Chance -- a
   revealed hidden card, the flood draws after a turn, a reshuffle (R4.2, R5.2, R5.3) --
   happens inside the world's own ``State.apply`` with the agent's generator, so a node
   stands for an action sequence, not for one state (open loop);
3. at a node reached for the first time it evaluates the network once (prior and value
   head); at the end of the game the value is 1 for a win and 0 for a loss. Optionally
   (``rollout_depth > 0``) the heuristic first plays up to that many decisions on from the
   leaf and the value head judges where it stops (the outcome, if the game ended);
4. it adds that value to every edge on its path. The game is cooperative: every seat
   maximises the same win probability, so no sign ever flips.

``batch`` simulations descend before one batched forward pass; each counts as a visit on
the way down already (a virtual loss: a pending visit looks like a loss), which spreads
the batch over different paths. The decision is the most visited root action (ties: the
higher prior); ``search`` also returns the visit counts, the policy target of
``train.expert_iteration``, and the root value. For self-play, ``dirichlet_alpha > 0``
mixes Dirichlet noise into the root prior (``noise_fraction``). ``heuristic_prior`` mixes
the heuristic's choice into every node's prior, ``(1 - h) * P + h * onehot``: the expert
may use any agent that reads public facts only (R9), while the network still reads the
plain observation.

Budget: ``simulations`` descents per decision, and ``seconds`` of wall time if given
(checked between batches; default: no clock, so results do not depend on the machine's
load). A decision with one legal action is returned at once, without the network.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from inselflucht_env.agents.base import check_engine
from inselflucht_env.games.inselflucht.determinize import determinize
from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent
from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS
from inselflucht_env.games.inselflucht.rules.engine import State
from inselflucht_env.learned.policy import (
    Policy,
    check_win_probability,
    load_policy_with_threads,
    win_probability,
)


class Node:
    """Statistics of one action sequence: its prior, and visits and values per action.

    ``visits`` counts the simulations through the node (its own first evaluation
    included) and ``total`` their values; ``n[a]`` and ``w[a]`` those through action a.
    """

    __slots__ = ("prior", "n", "w", "visits", "total", "children")

    def __init__(self) -> None:
        self.prior: list[float] | None = None  # set by the first evaluation
        self.n = [0] * N_ACTIONS
        self.w = [0.0] * N_ACTIONS
        self.visits = 0
        self.total = 0.0
        self.children: dict[int, Node] = {}


def puct_select(node: Node, legal: list[int], c_puct: float) -> int:
    """The legal action that maximises the PUCT score at ``node`` (first one on ties)."""
    prior = node.prior
    assert prior is not None, "a node is descended into only once evaluated"
    floor = 1.0 / len(legal)
    scale = c_puct * math.sqrt(node.visits)
    fpu = node.total / node.visits if node.visits else 0.5
    n, w = node.n, node.w
    best, best_score = legal[0], -math.inf
    for a in legal:
        na = n[a]
        p = prior[a] or floor
        score = (w[a] / na if na else fpu) + scale * p / (1 + na)
        if score > best_score:
            best, best_score = a, score
    return best


@dataclass
class SearchResult:
    """One decision's search: root visit counts per action (36), the root's mean value
    (the team's estimated win probability), its prior, and the simulations run."""

    visits: np.ndarray
    value: float
    prior: np.ndarray
    simulations: int

    def best(self) -> int:
        """The most visited action; ties go to the higher prior."""
        return int(np.lexsort((self.prior, self.visits))[-1])


class NetSearchAgent:
    """Determinized PUCT guided by a policy-value checkpoint (see the module docstring).

    ``policy``: a checkpoint folder or shipped name (checked at once, loaded on the first
    decision) or a loaded ``Policy``; its value head must be a win probability
    (``NetworkSpec.value == "win_probability"``). ``threads``: torch threads per process.
    ``stats`` counts decisions, searched decisions, simulations and search seconds.
    """

    def __init__(
        self,
        policy: str | Policy,
        simulations: int = 100,
        seconds: float | None = None,
        c_puct: float = 1.0,
        batch: int = 8,
        dirichlet_alpha: float = 0.0,
        noise_fraction: float = 0.25,
        rollout_depth: int = 0,
        heuristic_prior: float = 0.0,
        threads: int | None = 1,
        engine: str = "compiled",
    ):
        if simulations < 1 or batch < 1 or rollout_depth < 0:
            raise ValueError("simulations and batch must be >= 1, rollout_depth >= 0")
        if not 0 <= heuristic_prior <= 1:
            raise ValueError(f"heuristic_prior must be within [0, 1], got {heuristic_prior!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be > 0 or None, got {seconds!r}")
        if c_puct <= 0 or dirichlet_alpha < 0 or not 0 <= noise_fraction <= 1:
            raise ValueError("c_puct must be > 0, dirichlet_alpha >= 0, noise_fraction in [0, 1]")
        self._policy, self.path = check_win_probability(policy, "netsearch")
        self.name = f"netsearch:{self.path}"
        self.simulations = simulations
        self.seconds = seconds
        self.c_puct = c_puct
        self.batch = batch
        self.dirichlet_alpha = dirichlet_alpha
        self.noise_fraction = noise_fraction
        self.rollout_depth = rollout_depth
        self.heuristic_prior = heuristic_prior
        # the heuristic's choices (prior, rollouts): the compiled twin decides the same
        self.heuristic = _heuristic(check_engine(engine))
        self.threads = threads
        self.stats = {"decisions": 0, "searched": 0, "simulations": 0, "seconds": 0.0}

    @property
    def policy(self) -> Policy:
        """The network (loaded on first use, with torch limited to ``threads``)."""
        if self._policy is None:
            self._policy = load_policy_with_threads(self.path, self.threads)
        return self._policy

    # ------------------------------------------------------------------ entry points
    def act(self, state: State, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        self.stats["decisions"] += 1
        if len(legal) == 1:
            return legal[0]
        return self.search(state, rng).best()

    def search(self, state: State, rng: np.random.Generator) -> SearchResult:
        """Search the decision of ``state`` (which must have a legal action)."""
        started = time.perf_counter()
        deadline = None if self.seconds is None else started + self.seconds
        policy = self.policy
        root = Node()
        probs, value = policy.evaluate_state(state)
        prior = self._mix(probs, state)
        if self.dirichlet_alpha > 0:
            legal = state.legal_actions()
            noise = rng.dirichlet([self.dirichlet_alpha] * len(legal))
            prior = prior * (1 - self.noise_fraction)
            prior[legal] += self.noise_fraction * noise
        root.prior = prior.tolist()
        root.visits, root.total = 1, win_probability(value)
        done = 0
        while done < self.simulations:
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            wave = min(self.batch, self.simulations - done)
            self._wave(root, state, rng, wave)
            done += wave
        self.stats["searched"] += 1
        self.stats["simulations"] += done
        self.stats["seconds"] += time.perf_counter() - started
        return SearchResult(
            np.asarray(root.n, dtype=np.int64),
            root.total / root.visits,
            np.asarray(root.prior),
            done,
        )

    # ------------------------------------------------------------------ simulations
    def _wave(self, root: Node, state: State, rng: np.random.Generator, count: int) -> None:
        """``count`` descents with virtual visits, one forward pass, then the backups."""
        c_puct = self.c_puct
        pending: list[tuple[list[tuple[Node, int]], Node, State]] = []
        for _ in range(count):
            world = determinize(state, rng)
            node, path = root, []
            while True:
                a = puct_select(node, world.legal_actions(), c_puct)
                node.visits += 1
                node.n[a] += 1
                path.append((node, a))
                world.apply(a, rng)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = Node()
                child.visits += 1
                if world.outcome is not None:
                    _backup(path, child, 1.0 if world.outcome == "win" else 0.0)
                    break
                if child.prior is None:
                    pending.append((path, child, world))
                    break
                node = child
        if not pending:
            return
        policy = self.policy
        obs = [policy.observe(world) for _, _, world in pending]
        masks = [world.legal_mask() for _, _, world in pending]
        heuristic = [
            self.heuristic.act(world) if self.heuristic_prior else -1 for _, _, world in pending
        ]
        outcomes: list[float | None] = []  # per leaf: the rollout's outcome, if it ended
        ends: list[int] = []  # per leaf: the row whose value head judges it
        for _, _, world in pending:
            if self.rollout_depth:
                for _ in range(self.rollout_depth):
                    if world.outcome is not None:
                        break
                    world.apply(self.heuristic.act(world, rng), rng)
                if world.outcome is None:
                    ends.append(len(obs))
                    obs.append(policy.observe(world))
                    masks.append(world.legal_mask())
                    outcomes.append(None)
                else:
                    ends.append(-1)
                    outcomes.append(1.0 if world.outcome == "win" else 0.0)
            else:
                ends.append(len(ends))
                outcomes.append(None)
        probs, values = policy.evaluate(np.stack(obs), np.array(masks, dtype=bool))
        for k, (path, leaf, _) in enumerate(pending):
            if leaf.prior is None:
                leaf.prior = self._mix(probs[k], None, heuristic[k]).tolist()
            value = outcomes[k]
            _backup(path, leaf, win_probability(values[ends[k]]) if value is None else value)

    def _mix(self, prior: np.ndarray, state: State | None, choice: int = -1) -> np.ndarray:
        """The network's prior with ``heuristic_prior`` of the heuristic's choice mixed in
        (``choice``, or the heuristic's action in ``state``)."""
        if not self.heuristic_prior:
            return prior
        if state is not None:
            choice = self.heuristic.act(state)
        prior = prior * (1 - self.heuristic_prior)
        prior[choice] += self.heuristic_prior
        return prior


def _heuristic(engine: str) -> HeuristicAgent:
    """The heuristic on ``engine``; the compiled twin makes the same choices, faster."""
    if engine == "reference":
        return HeuristicAgent()
    from inselflucht_env.compiled.heuristic import CompiledHeuristicAgent

    return CompiledHeuristicAgent()


def _backup(path: list[tuple[Node, int]], leaf: Node, value: float) -> None:
    """Add ``value`` along ``path``; the visits were counted on the way down."""
    leaf.total += value
    for node, a in path:
        node.total += value
        node.w[a] += value
