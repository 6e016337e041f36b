"""How often an agent picks what a teacher picks, on the teacher's own games.

    python -m train.tools.agreement --agent runs/<run>/iterations/iter_0000 --players 4 --games 5
    python -m train.tools.agreement --agent runs/<run>/iterations/iter_0004 --players 4 --on agent

The teacher (default: the heuristic) plays games on seeds ``--seed`` onwards; at every
decision with more than one legal action the agent is asked too, without its choice being
played. The share of equal choices is the imitation quality of a cloned network: a win
rate alone does not say whether a student loses by a few wrong choices or by many. With
``--on agent`` the agent's own games are played and the teacher is asked instead: the
agreement on the states the student itself reaches, which is what DAgger trains on. Prints
the agreement, the most frequent (teacher, agent) disagreements and how many of the moves
played (R4.2) step straight back to where the figure came from: a memoryless student
torn between two goals walks in circles and loses on time (L6). It also counts the
decisions whose plain observation came before and, among them, those where the teacher
chose otherwise than the first time: none means the observation holds all the teacher
reads, so an exact imitation from it exists.
"""

from __future__ import annotations

import argparse
import collections
from dataclasses import dataclass

import numpy as np

from inselflucht_env.agents import make_agent
from inselflucht_env.cli.args import natural_int, positive_int, run
from inselflucht_env.evaluation import AGENT_STREAM
from inselflucht_env.games.inselflucht.observation import encode_observation
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS, GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State


@dataclass
class Agreement:
    """Decisions compared, how many agreed, and the disagreements by (teacher, agent)."""

    decisions: int
    agreed: int
    disagreements: collections.Counter[tuple[int, int]]
    moves: int = 0
    reversals: int = 0
    repeated: int = 0
    ambiguous: int = 0

    @property
    def rate(self) -> float:
        return self.agreed / self.decisions if self.decisions else 0.0


def _is_move(action: int | None) -> bool:
    return action is not None and A.MOVE <= action < A.MOVE + 4


def _reverses(action: int, previous: int | None) -> bool:
    """Whether ``action`` is a move straight back against the figure's previous move
    (``board.DIRECTIONS`` pairs opposites: up/down, left/right, so index ^ 1)."""
    if previous is None or not (_is_move(action) and _is_move(previous)):
        return False
    return action - A.MOVE == (previous - A.MOVE) ^ 1


def agreement(
    agent_spec: str, teacher_spec: str, config: GameConfig, seeds: range, on: str = "teacher"
) -> Agreement:
    """Compare ``agent_spec``'s choices with ``teacher_spec``'s along the games of ``on``
    (``"teacher"`` or ``"agent"``: whose choices are played)."""
    if on not in ("teacher", "agent"):
        raise ValueError(f"on={on!r}: expected 'teacher' or 'agent'")
    agent, teacher = make_agent(agent_spec), make_agent(teacher_spec)
    result = Agreement(0, 0, collections.Counter())
    first_choice: dict[bytes, int] = {}  # the teacher's choice where an observation first came
    for seed in seeds:
        deal_rng = np.random.default_rng(seed)
        rng = np.random.default_rng([seed, AGENT_STREAM])
        state = State.new(config, deal_rng)
        previous: dict[int, int | None] = {}
        while state.outcome is None:
            wanted = teacher.act(state, rng)
            asked = len(state.legal_actions()) > 1  # a forced move is no decision
            choice = agent.act(state, rng) if asked else wanted
            if asked:
                observation = encode_observation(state).tobytes()
                if observation in first_choice:
                    result.repeated += 1
                    result.ambiguous += first_choice[observation] != wanted
                else:
                    first_choice[observation] = wanted
                result.decisions += 1
                result.agreed += choice == wanted
                if choice != wanted:
                    result.disagreements[(wanted, choice)] += 1
            action = wanted if on == "teacher" else choice
            figure = state.active
            if _is_move(action):
                result.moves += 1
                result.reversals += _reverses(action, previous.get(figure))
            if action != A.END_TURN:
                previous[figure] = action
            state.apply(action, deal_rng)
    return result


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m train.tools.agreement", description=__doc__.split("\n")[0]
    )
    p.add_argument("--agent", required=True, help="the student: any make_agent spec")
    p.add_argument("--teacher", default="heuristic", help="the agent the student is compared with")
    p.add_argument(
        "--on",
        default="teacher",
        choices=("teacher", "agent"),
        help="whose choices are played: the teacher's (default) or the agent's own",
    )
    p.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    p.add_argument("--meter", default="normal", choices=sorted(METER_PRESETS))
    p.add_argument("--games", type=positive_int, default=5)
    p.add_argument("--seed", type=natural_int, default=0, help="game i uses seed + i")
    args = p.parse_args(argv)

    def report() -> None:
        config = GameConfig.make(players=args.players, meter=args.meter)
        seeds = range(args.seed, args.seed + args.games)
        result = agreement(args.agent, args.teacher, config, seeds, args.on)
        print(
            f"{args.agent} agrees with {args.teacher} on {result.agreed}/{result.decisions} "
            f"decisions ({100 * result.rate:.1f}%), {args.players} player(s), meter "
            f"{args.meter}, seeds {args.seed}..{args.seed + args.games - 1}, on the "
            f"{args.on}'s games; {result.reversals}/{result.moves} moves step straight back; "
            f"{result.repeated} repeated observations, {result.ambiguous} of them with another "
            f"{args.teacher} choice than where the observation first came"
        )
        for (wanted, chosen), n in result.disagreements.most_common(8):
            print(f"  {n:5d}  {args.teacher} {ACTION_NAMES[wanted]}, agent {ACTION_NAMES[chosen]}")

    run(report)


if __name__ == "__main__":
    main()
