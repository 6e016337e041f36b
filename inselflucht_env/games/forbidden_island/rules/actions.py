"""The stable action names and their indices (77), one fixed ``Discrete`` space.

``move:<slot>`` and ``shore:<slot>`` name a grid slot (``board.SLOT_CELL``), not a tile, so
an index means the same place in every deal. Seats in ``give``, ``guide`` and ``lift`` are
relative: ``+k`` is the player k seats after the one deciding (``lift:+0`` is the decider).
A ``move:<slot>`` is also how a sub-decision names a destination (a Navigator's guide, a
Helicopter Lift, a swim) and a ``shore:<slot>`` the tile a Sandbag or an Engineer's second
shore-up dries.
"""

from __future__ import annotations

import operator

from inselflucht_env.games.forbidden_island.rules.board import N_SLOTS
from inselflucht_env.games.forbidden_island.rules.cards import CARD_NAMES, TREASURE_NAMES

ACTION_NAMES: tuple[str, ...] = (
    *(f"move:{s}" for s in range(N_SLOTS)),  # FR4.1, FR4.2, FR6, FR7
    *(f"shore:{s}" for s in range(N_SLOTS)),  # FR4.3, FR6.2
    *(f"give:{t}:+{k}" for t in TREASURE_NAMES for k in (1, 2, 3)),  # FR4.4
    "capture",  # FR4.5
    *(f"guide:+{k}" for k in (1, 2, 3)),  # FR3.5, the Navigator
    "sandbag",  # FR6.2
    *(f"lift:+{k}" for k in (0, 1, 2, 3)),  # FR6.1
    "escape",  # FR9.1
    *(f"discard:{c}" for c in CARD_NAMES[:6]),  # FR5.3
    "done",  # ends the actions, a window, an Engineer's second shore-up (FR4, FR6.3)
)
N_ACTIONS = len(ACTION_NAMES)
ACTION_INDEX: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}

MOVE = ACTION_INDEX["move:0"]  # MOVE + slot
SHORE = ACTION_INDEX["shore:0"]  # SHORE + slot
GIVE = ACTION_INDEX["give:earth:+1"]  # GIVE + 3 * treasure + k - 1
CAPTURE = ACTION_INDEX["capture"]
GUIDE = ACTION_INDEX["guide:+1"]  # GUIDE + k - 1
SANDBAG = ACTION_INDEX["sandbag"]
LIFT = ACTION_INDEX["lift:+0"]  # LIFT + k
ESCAPE = ACTION_INDEX["escape"]
DISCARD = ACTION_INDEX["discard:earth"]  # DISCARD + kind
DONE = ACTION_INDEX["done"]


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
