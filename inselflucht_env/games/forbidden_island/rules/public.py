"""What every player may see (FR2.4), as plain data: the public state as a JSON dict.

Hands, tiles, roles and both discard piles are open; of the draw decks only their sizes and
the tiles in the flood deck's known top group (FR5.2) are public, never their order.
"""

from __future__ import annotations

from typing import Any

from inselflucht_env.games.forbidden_island.rules.board import TILE_NAMES
from inselflucht_env.games.forbidden_island.rules.cards import CARD_NAMES, TREASURE_NAMES
from inselflucht_env.games.forbidden_island.rules.config import ROLE_NAMES
from inselflucht_env.games.forbidden_island.rules.engine import (
    PHASE_NAMES,
    TILE_STATES,
    State,
)


def known_flood_top(state: State) -> list[int]:
    """The tiles whose flood cards lie in the known top group of the flood deck, sorted."""
    return sorted(state.flood_deck[len(state.flood_deck) - state.flood_known :])


def describe(state: State) -> dict[str, Any]:
    """The public state as JSON-serialisable data (a replay's final state, a UI's input)."""
    top = state.pending[-1] if state.pending else None
    return {
        "turn": state.turn,
        "active": state.active,
        "decider": state.decider,
        "phase": PHASE_NAMES[state.phase],
        "pending": None if top is None else {"kind": type(top).__name__.lower(), **top._asdict()},
        "actions_left": state.actions_left,
        "level": state.level,
        "captured": [t for t, c in zip(TREASURE_NAMES, state.captured) if c],
        "slots": [
            {"tile": TILE_NAMES[t], "status": TILE_STATES[state.status[s]]}
            for s, t in enumerate(state.tile)
        ],
        "players": [
            {
                "role": ROLE_NAMES[state.roles[p]],
                "slot": state.pos[p],
                "hand": {CARD_NAMES[k]: n for k, n in enumerate(state.hands[p]) if n},
            }
            for p in range(state.players)
        ],
        "treasure_deck": len(state.treasure_deck),
        "treasure_discard": [CARD_NAMES[c] for c in state.treasure_discard],
        "flood_deck": len(state.flood_deck),
        "flood_known_top": [TILE_NAMES[t] for t in known_flood_top(state)],
        "flood_discard": [TILE_NAMES[t] for t in state.flood_discard],
        "outcome": state.outcome,
    }
