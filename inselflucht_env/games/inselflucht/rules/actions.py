"""The stable action names and their indices.

One index per name, in this order; the names are a contract shared by tests, logs,
replays and users, so they never change meaning. ``up`` is row - 1, ``left`` column - 1.
"""

from __future__ import annotations

import operator

from inselflucht_env.games.inselflucht.rules.board import DIRECTIONS, ESCAPE_DIRECTIONS
from inselflucht_env.games.inselflucht.rules.cards import SUIT_NAMES

ACTION_NAMES: tuple[str, ...] = (
    *(f"move:{d}" for d in DIRECTIONS),  # R4.2
    *(f"swim:{d}" for d in DIRECTIONS),  # R4.3
    "shore:here",
    *(f"shore:{d}" for d in DIRECTIONS),  # R4.4
    *(f"salvage:{d}" for d in DIRECTIONS),  # R4.5
    "give:+1",
    "give:+2",
    "give:+3",  # R4.6, to the figure k seats after the active one
    "lift",  # R4.7
    "take_off",  # R4.8
    "end_turn",  # R4.1
    *(f"card:{s}" for s in SUIT_NAMES),  # sub-step of give and short-suit lift
    "done",  # ends a give
    *(f"escape:{d}" for d in ESCAPE_DIRECTIONS),  # R5.5
)
N_ACTIONS = len(ACTION_NAMES)
ACTION_INDEX: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}

MOVE = ACTION_INDEX["move:up"]
SWIM = ACTION_INDEX["swim:up"]
SHORE_HERE = ACTION_INDEX["shore:here"]
SHORE = ACTION_INDEX["shore:up"]
SALVAGE = ACTION_INDEX["salvage:up"]
GIVE = ACTION_INDEX["give:+1"]  # GIVE + k - 1
LIFT = ACTION_INDEX["lift"]
TAKE_OFF = ACTION_INDEX["take_off"]
END_TURN = ACTION_INDEX["end_turn"]
CARD = ACTION_INDEX["card:clubs"]  # CARD + suit
DONE = ACTION_INDEX["done"]
ESCAPE = ACTION_INDEX["escape:up"]  # ESCAPE + index into ESCAPE_DIRECTIONS


def action_index(name: str) -> int:
    """Index of an action name; ``ValueError`` listing the names for an unknown one."""
    try:
        return ACTION_INDEX[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown action name {name!r}; valid names: {', '.join(ACTION_NAMES)}"
        ) from None


def action_name(index: int) -> str:
    """Name of an action index; ``ValueError`` for one outside 0..N_ACTIONS-1."""
    try:
        i = operator.index(index)
    except TypeError:
        i = -1
    if isinstance(index, bool) or not 0 <= i < N_ACTIONS:
        raise ValueError(f"action {index!r} is not an index in 0..{N_ACTIONS - 1}")
    return ACTION_NAMES[i]
