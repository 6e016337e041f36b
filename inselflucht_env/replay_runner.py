"""Re-running a record: ``replay(rep)`` plays it again, checks every step and the outcome,
and collects frames for rendering."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import ACTION_NAMES, action_index
from .replay_record import Replay


class ReplayMismatchError(ValueError):
    """Re-running a replay did not give the recorded game (illegal step or other outcome)."""


@dataclass
class ReplayResult:
    """What re-running a record gave: the outcome, steps, frames and the final public state.

    ``frames``: one per state (after reset, after every step) for ``render_mode``
    ``"ansi"`` (text) or ``"rgb_array"`` (images); empty otherwise. ``deciders``: the
    figure that chose each action.
    """

    outcome: str | None
    steps: int
    frames: list[Any]
    final: dict[str, Any]
    deciders: list[int]


def replay(rep: Replay, render_mode: str | None = None, verify: bool = True) -> ReplayResult:
    """Re-run a record exactly; with ``verify`` raise ``ReplayMismatchError`` on any difference.

    Checked: every action is playable at its step (an illegal one only as the recorded
    last step of an ``"illegal"`` outcome), no actions follow the end, and the outcome
    is the recorded one (``None``: the game must still be running).
    """
    env = rep.make_env(render_mode)
    frames: list[Any] = []
    deciders: list[int] = []
    collect = render_mode in ("ansi", "rgb_array")
    env.reset(seed=rep.seed, options=rep.options)
    if collect:
        frames.append(env.render())
    outcome = None
    for i, name in enumerate(rep.actions):
        if outcome is not None:
            raise ReplayMismatchError(
                f"replay: the game ended ({outcome}) after step {i}, but "
                f"{len(rep.actions) - i} more action(s) are recorded"
            )
        index = action_index(name)
        state = env.game_state
        if (
            verify
            and index not in state.legal_actions()
            and not (rep.outcome == "illegal" and i == len(rep.actions) - 1)
        ):
            legal = ", ".join(ACTION_NAMES[a] for a in state.legal_actions())
            raise ReplayMismatchError(
                f"replay: step {i + 1} {name!r} is not legal in the replayed game "
                f"(legal: {legal}); the file does not match this version of the rules"
            )
        deciders.append(state.decider)
        try:
            _, _, terminated, truncated, info = env.step(index)
        except ValueError as err:  # illegal_action="raise" in the record
            raise ReplayMismatchError(f"replay: step {i + 1} {name!r}: {err}") from None
        if collect:
            frames.append(env.render())
        if terminated or truncated:
            outcome = info.get("outcome")
    if verify and outcome != rep.outcome:
        raise ReplayMismatchError(
            f"replay: recorded outcome {rep.outcome!r} but the replayed game gave {outcome!r}"
        )
    final = env.describe()
    env.close()
    return ReplayResult(
        outcome=outcome, steps=len(rep.actions), frames=frames, final=final, deciders=deciders
    )
