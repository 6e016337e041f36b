"""Card identities and their text codes (R1).

Island cards are small integers so that the engine can keep places in plain lists:
land cards 6-10 are ``suit * 5 + (rank - 6)`` (0-19), the kings are ``20 + suit``
(20-23) and the joker, the helicopter, is 24. Suits are ordered clubs, diamonds,
hearts, spades, the order of the ``card:*`` actions.
"""

from __future__ import annotations

SUITS = ("C", "D", "H", "S")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")

N_LAND = 20
KING = 20  # first king id; KING + suit
HELICOPTER = 24
ISLAND_CARDS = tuple(range(24))  # R1.2: 20 land cards and 4 kings, face down at setup
NO_CARD = -1


def is_land(card: int) -> bool:
    return 0 <= card < N_LAND


def is_king(card: int) -> bool:
    return KING <= card < HELICOPTER


def suit_of(card: int) -> int:
    """Suit index of a land card or a king (R1.5: only the suit matters for play)."""
    return card // 5 if card < N_LAND else card - KING


# ``suit_of`` as a table, for per-step loops (the observation encoder): a lookup costs a
# fraction of a call. ``SUIT_OF[card] == suit_of(card)`` for every island card.
SUIT_OF: tuple[int, ...] = tuple(suit_of(c) for c in ISLAND_CARDS)


def code(card: int) -> str:
    """Text code of a card: ``10H``, ``KC``, ``JK``."""
    if card == HELICOPTER:
        return "JK"
    if is_king(card):
        return "K" + SUITS[suit_of(card)]
    if is_land(card):
        return f"{card % 5 + 6}{SUITS[suit_of(card)]}"  # rank 6-10 (R1.2)
    raise ValueError(f"no card has id {card!r}")


def symbol(card: int) -> str:
    """Code with a suit symbol for renderings: ``10\u2665``, ``K\u2663``, ``JK``."""
    if card == HELICOPTER:
        return "JK"
    text = code(card)
    return text[:-1] + SUIT_SYMBOLS[suit_of(card)]


_CODES = {code(c): c for c in range(HELICOPTER + 1)}


def parse(text: str) -> int:
    """Card id of a code such as ``10H``, ``KC`` or ``JK`` (case-insensitive)."""
    card = _CODES.get(text.strip().upper())
    if card is None:
        raise ValueError(
            f"unknown card code {text!r}: expected rank 6-10 or K with suit C, D, H, S "
            "(e.g. '10H', 'KC') or 'JK' for the helicopter"
        )
    return card
