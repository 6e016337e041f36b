"""Geometry of the 5 x 5 island (R2.1, R3.4): place indices, neighbours, swims, reach.

A place is an index 0-24, ``(row - 1) * 5 + (column - 1)``; columns count from the left,
rows from the top, both 1-5. All tables are computed once at import.
"""

from __future__ import annotations

SIZE = 5
N_PLACES = SIZE * SIZE
CENTRE = 12  # column 3, row 3: the helicopter (R2.1)

# Orthogonal directions in the order of the action names: up is row - 1, left is column - 1.
DIRECTIONS = ("up", "down", "left", "right")
DIAGONALS = ("up-left", "up-right", "down-left", "down-right")
_STEPS = {
    "up": (0, -1),
    "down": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
    "up-left": (-1, -1),
    "up-right": (1, -1),
    "down-left": (-1, 1),
    "down-right": (1, 1),
}
ESCAPE_DIRECTIONS = DIRECTIONS + DIAGONALS  # R5.5: the 8 neighbours


def place(column: int, row: int) -> int:
    """The index of (column, row), both 1-5 (R2.1); its inverse is ``column_row``."""
    return (row - 1) * SIZE + (column - 1)


def column_row(p: int) -> tuple[int, int]:
    """(column, row), both 1-5, of place index p."""
    return p % SIZE + 1, p // SIZE + 1


def _offset(p: int, direction: str, times: int = 1) -> int:
    dc, dr = _STEPS[direction]
    c, r = column_row(p)
    c, r = c + dc * times, r + dr * times
    return place(c, r) if 1 <= c <= SIZE and 1 <= r <= SIZE else -1


# NEIGHBOUR[p][d]: the place one step in direction d (orthogonal order), or -1 off the grid.
NEIGHBOUR = tuple(tuple(_offset(p, d) for d in DIRECTIONS) for p in range(N_PLACES))
# BEYOND[p][d]: two steps straight, the destination of a swim (R4.3), or -1.
BEYOND = tuple(tuple(_offset(p, d, 2) for d in DIRECTIONS) for p in range(N_PLACES))
# AROUND[p][e]: the 8 neighbours in ESCAPE_DIRECTIONS order, or -1 (R5.5).
AROUND = tuple(tuple(_offset(p, d) for d in ESCAPE_DIRECTIONS) for p in range(N_PLACES))
# ORTHOGONAL[p]: the orthogonal neighbours on the grid (R3.4), without the -1 entries.
ORTHOGONAL = tuple(tuple(q for q in NEIGHBOUR[p] if q >= 0) for p in range(N_PLACES))


ALL = (1 << N_PLACES) - 1
_NOT_FIRST_COLUMN = sum(1 << p for p in range(N_PLACES) if column_row(p)[0] != 1)
_NOT_LAST_COLUMN = sum(1 << p for p in range(N_PLACES) if column_row(p)[0] != SIZE)


def _up(m: int) -> int:
    return m >> SIZE


def _down(m: int) -> int:
    return (m << SIZE) & ALL


def _left(m: int) -> int:
    return (m & _NOT_FIRST_COLUMN) >> 1


def _right(m: int) -> int:
    return (m & _NOT_LAST_COLUMN) << 1


_SHIFTS = (_up, _down, _left, _right)


def _grow(frontier: int, fields: int, sea: int) -> int:
    """Every field one move or one swim away from ``frontier`` (``_up`` .. ``_right`` and a
    second step over a sea place, written out inline: this runs in every L4 check)."""
    not_first, not_last = _NOT_FIRST_COLUMN, _NOT_LAST_COLUMN
    up = frontier >> SIZE
    down = (frontier << SIZE) & ALL
    left = (frontier & not_first) >> 1
    right = (frontier & not_last) << 1
    return (
        up
        | down
        | left
        | right
        | (up & sea) >> SIZE
        | ((down & sea) << SIZE) & ALL
        | (left & sea & not_first) >> 1
        | (right & sea & not_last) << 1
    ) & fields


def reaches_all(fields: int, starts: int, goals: int) -> bool:
    """Whether every place in ``goals`` is ``reachable(fields, starts)``; stops growing the
    frontier as soon as they are all reached."""
    sea = ALL & ~fields
    seen = frontier = starts & fields
    while seen & goals != goals:
        if not frontier:
            return False
        frontier = _grow(frontier, fields, sea) & ~seen
        seen |= frontier
    return True


def reachable(fields: int, starts: int) -> int:
    """Bit set of the places reachable from ``starts`` by moves and swims (R6.3 L4).

    ``fields`` has bit p set for every non-sea place. A move steps to an adjacent field;
    a swim crosses exactly one sea place in a straight line onto a field. The whole
    frontier grows at once with bit shifts (``_grow``).
    """
    sea = ALL & ~fields
    seen = frontier = starts & fields
    while frontier:
        frontier = _grow(frontier, fields, sea) & ~seen
        seen |= frontier
    return seen
