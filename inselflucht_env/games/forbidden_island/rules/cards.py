"""The two decks (FR2): 28 treasure-deck cards and 24 flood cards, one per tile.

Treasure-deck cards are kinds: the four treasures (0-3), Helicopter Lift, Sandbags and
Waters Rise!. Hands hold counts per kind, since cards of one kind are interchangeable.
"""

from __future__ import annotations

TREASURE_NAMES = ("earth", "wind", "fire", "ocean")
TREASURE_TITLES = (
    "the Earth Stone",
    "the Statue of the Wind",
    "the Crystal of Fire",
    "the Ocean's Chalice",
)
HELICOPTER, SANDBAG, WATERS_RISE = 4, 5, 6
HAND_KINDS = 6  # what a hand can hold: the treasures, Helicopter Lift, Sandbags
CARD_NAMES = (*TREASURE_NAMES, "helicopter", "sandbag", "waters_rise")
CARDS_PER_TREASURE = 5
TREASURE_DECK: tuple[int, ...] = (
    *(t for t in range(4) for _ in range(CARDS_PER_TREASURE)),
    HELICOPTER,
    HELICOPTER,
    HELICOPTER,
    SANDBAG,
    SANDBAG,
    WATERS_RISE,
    WATERS_RISE,
    WATERS_RISE,
)  # FR2.1: 28 cards
N_TREASURE_CARDS = len(TREASURE_DECK)
CAPTURE_CARDS = 4  # FR4.5
HAND_LIMIT = 5  # FR5.3
