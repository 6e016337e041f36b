"""The observation of ``ForbiddenIsland-v0``: public facts only, from the decider's seat.

Hands, tiles, roles and both discard piles are open (FR2.4); the draw order of the two decks
is hidden, except which tiles lie in the flood deck's top group that Waters Rise! put back
(FR5.2). Seats are relative: seat ``+0`` is the decider, ``+k`` the player k seats after.

Layout (``describe_observation()`` lists every slice): 15 planes over the 6 x 6 grid
(entries 0-539, reshape to (15, 6, 6); cells off the island are 0 in every plane but none
is on the ``slot`` plane), then a vector of 105 public facts. Everything lies in [0, 1].
"""

from __future__ import annotations

import numpy as np

from inselflucht_env.games.forbidden_island.rules.board import (
    FOOLS_LANDING,
    GRID,
    SLOT_CELL,
    treasure_tiles,
)
from inselflucht_env.games.forbidden_island.rules.cards import CARDS_PER_TREASURE, HAND_KINDS
from inselflucht_env.games.forbidden_island.rules.config import FLOODS_AT_LEVEL, SKULL
from inselflucht_env.games.forbidden_island.rules.engine import (
    Discard,
    Engineer,
    Guide,
    Lift,
    Sandbag,
    State,
    Swim,
    Window,
)
from inselflucht_env.games.forbidden_island.rules.public import known_flood_top

CELLS = GRID * GRID
PLANES = (
    ("slot", "1 on the 24 island slots (a constant: the shape of the island, FR1.1)"),
    ("dry", "a dry tile"),
    ("flooded", "a flooded tile (FR1.4)"),
    ("sunk", "a sunk tile: water (FR8.2)"),
    ("fools_landing", "Fools' Landing (FR1.3)"),
    ("treasure_earth", "a tile of the Earth Stone (FR1.2)"),
    ("treasure_wind", "a tile of the Statue of the Wind"),
    ("treasure_fire", "a tile of the Crystal of Fire"),
    ("treasure_ocean", "a tile of the Ocean's Chalice"),
    ("pawn_+0", "the decider's pawn"),
    ("pawn_+1", "the pawn of the player 1 seat after the decider"),
    ("pawn_+2", "the pawn 2 seats after"),
    ("pawn_+3", "the pawn 3 seats after"),
    ("flood_discard", "its flood card is in the flood discard (FR2.4)"),
    ("flood_known_top", "its flood card is in the flood deck's known top group (FR5.2)"),
)
PENDING_KINDS = (None, Guide, Lift, Sandbag, Engineer, Discard, Window, Swim)
VECTOR = (
    ("level", 10, "water level 1-10, one-hot (FR2.3)"),
    ("floods_per_turn", 1, "flood cards at this level / 5"),
    ("captured", 4, "treasures captured: earth, wind, fire, ocean (FR4.5)"),
    (
        "hands",
        4 * HAND_KINDS,
        "per relative seat, cards per kind / 5 (earth, wind, fire, ocean, helicopter, sandbag)",
    ),
    (
        "roles",
        4 * 6,
        "per relative seat, role one-hot (diver, engineer, explorer, messenger, "
        "navigator, pilot); all 0 for an empty seat",
    ),
    ("players", 3, "2, 3 or 4 players, one-hot"),
    ("active_seat", 4, "the active player's relative seat, one-hot"),
    ("actions_left", 4, "the active player's actions left 0-3, one-hot (FR4)"),
    ("flew", 1, "the Pilot has flown this turn (FR3.6)"),
    ("phase", 3, "actions, window, flood; one-hot"),
    (
        "pending",
        8,
        "the sub-decision: none, guide, lift, sandbag, engineer, discard, window, swim; one-hot",
    ),
    ("guide_target", 4, "the pawn a Navigator moves, relative seat one-hot (FR3.5)"),
    ("lift_group", 4, "the pawns a Helicopter Lift carries so far, by relative seat (FR6.1)"),
    ("treasure_deck", 1, "cards left in the treasure deck / 28"),
    (
        "treasure_discard",
        7,
        "the treasure discard per kind / 5 (the treasures, helicopter, sandbag, waters rise)",
    ),
    ("flood_counts", 3, "flood deck, flood discard, known top group sizes / 24"),
)


def _layout() -> dict[str, tuple[int, int, str]]:
    out: dict[str, tuple[int, int, str]] = {}
    at = 0
    for name, text in PLANES:
        out[name] = (at, at + CELLS, text)
        at += CELLS
    for name, size, text in VECTOR:
        out[name] = (at, at + size, text)
        at += size
    return out


OBSERVATION_LAYOUT = _layout()
OBSERVATION_SIZE = max(stop for _, stop, _ in OBSERVATION_LAYOUT.values())
_AT = {name: start for name, (start, _, _) in OBSERVATION_LAYOUT.items()}
_CELL = np.array([r * GRID + c for r, c in SLOT_CELL])  # slot -> grid cell
_TREASURE_TILES = tuple(treasure_tiles(t) for t in range(4))


def describe_observation() -> list[dict[str, object]]:
    """Slice table: name, start, stop and meaning of every part of the observation."""
    return [
        {"name": n, "start": a, "stop": b, "description": t}
        for n, (a, b, t) in OBSERVATION_LAYOUT.items()
    ]


def encode_observation(state: State, seat: int | None = None) -> np.ndarray:
    """The observation for ``seat`` (default: the decider), float32 of ``OBSERVATION_SIZE``."""
    me = state.decider if seat is None else seat
    n = state.config.players
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    obs[_AT["slot"] + _CELL] = 1.0
    status = np.asarray(state.status)
    obs[_AT["dry"] + _CELL] = status == 0
    obs[_AT["flooded"] + _CELL] = status == 1
    obs[_AT["sunk"] + _CELL] = status == 2
    cell_of_tile = _CELL[state.slot_of]
    obs[_AT["fools_landing"] + cell_of_tile[FOOLS_LANDING]] = 1.0
    for t, tiles in enumerate(_TREASURE_TILES):
        obs[_AT["treasure_earth"] + CELLS * t + cell_of_tile[list(tiles)]] = 1.0
    for k in range(n):
        q = (me + k) % n
        obs[_AT["pawn_+0"] + CELLS * k + _CELL[state.pos[q]]] = 1.0
        obs[_AT["hands"] + HAND_KINDS * k : _AT["hands"] + HAND_KINDS * (k + 1)] = (
            np.asarray(state.hands[q]) / CARDS_PER_TREASURE
        )
        obs[_AT["roles"] + 6 * k + state.roles[q]] = 1.0
    if state.flood_discard:
        obs[_AT["flood_discard"] + cell_of_tile[state.flood_discard]] = 1.0
    known = known_flood_top(state)
    if known:
        obs[_AT["flood_known_top"] + cell_of_tile[known]] = 1.0
    level = min(state.level, SKULL)
    obs[_AT["level"] + level - 1] = 1.0
    obs[_AT["floods_per_turn"]] = FLOODS_AT_LEVEL[level % SKULL] / 5
    obs[_AT["captured"] : _AT["captured"] + 4] = state.captured
    obs[_AT["players"] + n - 2] = 1.0
    obs[_AT["active_seat"] + (state.active - me) % n] = 1.0
    obs[_AT["actions_left"] + state.actions_left] = 1.0
    obs[_AT["flew"]] = state.flew
    obs[_AT["phase"] + state.phase] = 1.0
    top = state.pending[-1] if state.pending else None
    obs[_AT["pending"] + PENDING_KINDS.index(type(top) if top is not None else None)] = 1.0
    if isinstance(top, Guide):
        obs[_AT["guide_target"] + (top.target - me) % n] = 1.0
    elif isinstance(top, Lift):
        for q in range(n):
            if top.group >> q & 1:
                obs[_AT["lift_group"] + (q - me) % n] = 1.0
    obs[_AT["treasure_deck"]] = len(state.treasure_deck) / 28
    discard = np.bincount(np.asarray(state.treasure_discard, dtype=np.int64), minlength=7)
    obs[_AT["treasure_discard"] : _AT["treasure_discard"] + 7] = discard / 5
    at = _AT["flood_counts"]
    obs[at : at + 3] = (
        len(state.flood_deck) / 24,
        len(state.flood_discard) / 24,
        state.flood_known / 24,
    )
    return obs
