"""The island: 24 named tiles dealt onto 24 slots of a 6 x 6 grid (FR1).

The standard layout is a 4 x 4 square with two tiles on each side: rows of 2, 4, 6, 6, 4
and 2 slots. Slots are numbered 0-23 in reading order; ``SLOT_CELL[s]`` is the grid cell
(row, column). Neighbourhoods are precomputed per slot, so the engine only looks them up.
"""

from __future__ import annotations

ROW_SPANS = ((2, 4), (1, 5), (0, 6), (0, 6), (1, 5), (2, 4))  # [first, last) column per row
SLOT_CELL: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r, (lo, hi) in enumerate(ROW_SPANS) for c in range(lo, hi)
)
N_SLOTS = len(SLOT_CELL)  # 24
GRID = 6
CELL_SLOT: dict[tuple[int, int], int] = {cell: s for s, cell in enumerate(SLOT_CELL)}

TILE_NAMES: tuple[str, ...] = (
    "Fools' Landing",  # 0: the helicopter pad, the Pilot's start (FR1.3)
    "Temple of the Moon",  # 1, 2: the Earth Stone
    "Temple of the Sun",
    "Whispering Garden",  # 3, 4: the Statue of the Wind
    "Howling Garden",
    "Cave of Embers",  # 5, 6: the Crystal of Fire
    "Cave of Shadows",
    "Coral Palace",  # 7, 8: the Ocean's Chalice
    "Tidal Palace",
    "Bronze Gate",  # 9-13: the other roles' starts (FR3.1)
    "Copper Gate",
    "Gold Gate",
    "Iron Gate",
    "Silver Gate",
    "Breakers Bridge",  # 14-23: plain tiles
    "Cliffs of Abandon",
    "Crimson Forest",
    "Dunes of Deception",
    "Lost Lagoon",
    "Misty Marsh",
    "Observatory",
    "Phantom Rock",
    "Twilight Hollow",
    "Watchtower",
)
N_TILES = len(TILE_NAMES)
FOOLS_LANDING = 0


def treasure_tiles(treasure: int) -> tuple[int, int]:
    """The two tiles where ``treasure`` (0-3) can be captured (FR1.2)."""
    return (1 + 2 * treasure, 2 + 2 * treasure)


def tile_treasure(tile: int) -> int:
    """The treasure captured on ``tile``, or -1 for a tile without one."""
    return (tile - 1) // 2 if 1 <= tile <= 8 else -1


def _around(slot: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    r, c = SLOT_CELL[slot]
    return tuple(
        sorted(CELL_SLOT[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in CELL_SLOT)
    )


_ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
# Per slot: the slots one orthogonal step away (FR4.1), and those one diagonal step away (the
# Explorer's extra reach, FR3.3).
ORTHOGONAL: tuple[tuple[int, ...], ...] = tuple(_around(s, _ORTHOGONAL) for s in range(N_SLOTS))
DIAGONAL: tuple[tuple[int, ...], ...] = tuple(_around(s, _DIAGONAL) for s in range(N_SLOTS))


def grid_distance(a: int, b: int) -> int:
    """Orthogonal grid steps between two slots (the Diver's "nearest tile", FR7.3)."""
    (ra, ca), (rb, cb) = SLOT_CELL[a], SLOT_CELL[b]
    return abs(ra - rb) + abs(ca - cb)
