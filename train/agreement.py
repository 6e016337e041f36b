"""How often an agent picks what a teacher picks, on the teacher's own games.

    python -m train.agreement --agent runs/<run>/iterations/iter_0000 --players 4 --games 5

The teacher (default: the heuristic) plays games on seeds ``--seed`` onwards; at every
decision with more than one legal action the agent is asked too, without its choice being
played. The share of equal choices is the imitation quality of a cloned network: a win
rate alone does not say whether a student loses by a few wrong choices or by many. Prints
the agreement and the most frequent (teacher, agent) disagreements.
"""

from __future__ import annotations

import argparse
import collections
from dataclasses import dataclass

import numpy as np

from inselflucht_env.actions import ACTION_NAMES
from inselflucht_env.agents import make_agent
from inselflucht_env.cli import natural_int, positive_int, run
from inselflucht_env.config import METER_PRESETS, GameConfig
from inselflucht_env.engine import State
from inselflucht_env.evaluate import AGENT_STREAM


@dataclass
class Agreement:
    """Decisions compared, how many agreed, and the disagreements by (teacher, agent)."""

    decisions: int
    agreed: int
    disagreements: collections.Counter[tuple[int, int]]

    @property
    def rate(self) -> float:
        return self.agreed / self.decisions if self.decisions else 0.0


def agreement(agent_spec: str, teacher_spec: str, config: GameConfig, seeds: range) -> Agreement:
    """Compare ``agent_spec``'s choices with ``teacher_spec``'s along the teacher's games."""
    agent, teacher = make_agent(agent_spec), make_agent(teacher_spec)
    decisions = agreed = 0
    disagreements: collections.Counter[tuple[int, int]] = collections.Counter()
    for seed in seeds:
        deal_rng = np.random.default_rng(seed)
        rng = np.random.default_rng([seed, AGENT_STREAM])
        state = State.new(config, deal_rng)
        while state.outcome is None:
            action = teacher.act(state, rng)
            if len(state.legal_actions()) > 1:
                choice = agent.act(state, rng)
                decisions += 1
                agreed += choice == action
                if choice != action:
                    disagreements[(action, choice)] += 1
            state.apply(action, deal_rng)
    return Agreement(decisions, agreed, disagreements)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m train.agreement", description=__doc__.split("\n")[0]
    )
    p.add_argument("--agent", required=True, help="the student: any make_agent spec")
    p.add_argument("--teacher", default="heuristic", help="the agent whose games are played")
    p.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    p.add_argument("--meter", default="normal", choices=sorted(METER_PRESETS))
    p.add_argument("--games", type=positive_int, default=5)
    p.add_argument("--seed", type=natural_int, default=0, help="game i uses seed + i")
    args = p.parse_args(argv)

    def report() -> None:
        config = GameConfig.make(players=args.players, meter=args.meter)
        result = agreement(
            args.agent, args.teacher, config, range(args.seed, args.seed + args.games)
        )
        print(
            f"{args.agent} agrees with {args.teacher} on {result.agreed}/{result.decisions} "
            f"decisions ({100 * result.rate:.1f}%), {args.players} player(s), meter "
            f"{args.meter}, seeds {args.seed}..{args.seed + args.games - 1}"
        )
        for (wanted, chosen), n in result.disagreements.most_common(8):
            print(f"  {n:5d}  {args.teacher} {ACTION_NAMES[wanted]}, agent {ACTION_NAMES[chosen]}")

    run(report)


if __name__ == "__main__":
    main()
