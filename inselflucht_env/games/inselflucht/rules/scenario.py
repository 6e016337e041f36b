"""Scenario options for ``reset(options=...)``: a chosen layout and flood-deck order (R8).

Turns the user's text into engine arguments and rejects anything malformed with a
``ValueError`` that says what and where, before any state is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from inselflucht_env.games.inselflucht.rules.board import CENTRE, N_PLACES, SIZE, column_row
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, NO_CARD, code, parse
from inselflucht_env.games.inselflucht.rules.config import FLOODS_PER_PASS

OPTION_KEYS = ("layout", "column_deck", "row_deck")


def parse_layout(layout: Any) -> list[int]:
    """25 card ids, row 1 first, ``NO_CARD`` where the layout says ``?``."""
    if isinstance(layout, str) or not isinstance(layout, (list, tuple)) or len(layout) != SIZE:
        raise ValueError(
            f"options['layout'] must be a list of {SIZE} strings (row 1 first), got {layout!r}"
        )
    cards: list[int] = []
    for r, line in enumerate(layout, start=1):
        if not isinstance(line, str):
            raise ValueError(f"options['layout'] row {r} must be a string, got {line!r}")
        tokens = line.split()
        if len(tokens) != SIZE:
            raise ValueError(
                f"options['layout'] row {r} must have {SIZE} space-separated card "
                f"codes, got {len(tokens)}: {line!r}"
            )
        for c, token in enumerate(tokens, start=1):
            if token == "?":
                cards.append(NO_CARD)
                continue
            try:
                if token != token.upper():
                    raise ValueError(f"card codes are upper-case, got {token!r}")
                cards.append(parse(token))
            except ValueError as err:
                raise ValueError(f"options['layout'] row {r} column {c}: {err}") from None
    for p, card in enumerate(cards):
        c, r = column_row(p)
        if card == HELICOPTER and p != CENTRE:
            raise ValueError(
                f"options['layout'] row {r} column {c}: "
                "'JK' (the helicopter) must be in the centre (R2.1)"
            )
        if card != NO_CARD and cards.index(card) != p:
            c1, r1 = column_row(cards.index(card))
            raise ValueError(
                f"options['layout'] names {code(card)!r} twice: row {r1} "
                f"column {c1} and row {r} column {c}"
            )
    if cards[CENTRE] != HELICOPTER:
        got = "?" if cards[CENTRE] == NO_CARD else code(cards[CENTRE])
        raise ValueError(
            f"options['layout'] row 3 column 3 must be 'JK' (the helicopter, R2.1), got {got!r}"
        )
    assert len(cards) == N_PLACES
    return cards


def parse_deck(name: str, deck: Any) -> list[list[int]]:
    """Blocks of five draws, each a permutation of 1-5: the first passes' draw order."""
    if not isinstance(deck, (list, tuple, np.ndarray)):
        raise ValueError(f"options[{name!r}] must be a list of numbers 1-5, got {deck!r}")
    values = list(deck)
    n = FLOODS_PER_PASS  # R5.3: both decks run out together after five floods
    if len(values) % n:
        raise ValueError(
            f"options[{name!r}] must hold 5*k numbers (one permutation of 1-5 per "
            f"pass), got {len(values)}"
        )
    blocks = []
    for k in range(0, len(values), n):
        block = values[k : k + n]
        if any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in block
        ) or sorted(block) != list(range(1, n + 1)):
            raise ValueError(
                f"options[{name!r}] pass {k // n + 1} (positions {k + 1}-{k + n}) "
                f"must be a permutation of 1-5, got {block!r}"
            )
        blocks.append([int(v) for v in block])
    return blocks


def parse_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Engine keyword arguments from ``reset`` options; unknown keys are an error."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a dict with keys {OPTION_KEYS}, got {options!r}")
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise ValueError(f"unknown reset option(s) {unknown}: allowed keys are {list(OPTION_KEYS)}")
    out: dict[str, Any] = {}
    if options.get("layout") is not None:
        out["layout"] = parse_layout(options["layout"])
    for key in ("column_deck", "row_deck"):
        if options.get(key) is not None:
            out[key] = parse_deck(key, options[key])
    return out
