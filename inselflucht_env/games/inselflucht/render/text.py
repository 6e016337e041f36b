"""Text rendering of a state (Gymnasium ``render_mode="ansi"``).

Only public information is used (R9): the status of each place, face-up cards, positions,
salvage, the cards under kings, the box, the meter and the current pass's flood discards.
A hidden card shows as ``??`` and the undrawn flood decks are never read.

Example (plain text)::

         1         2         3         4         5
     +---------+---------+---------+---------+---------+
   1 |   ??    |   7♣    |   K♣    |  ≈ 7♠ ≈ |   ??    |
     |         |         |         |         |         |
     +---------+---------+---------+---------+---------+

``≈ x ≈`` is flooded, ``~~~`` sea, ``*`` after a king marks its lifted treasure, and the
figures stand under the card: ``>1`` is the active figure, ``!0`` a figure that must decide
while another is active (an escape, R5.5).
"""

from __future__ import annotations

from inselflucht_env.games.inselflucht.rules.board import SIZE, column_row, place
from inselflucht_env.games.inselflucht.rules.cards import (
    HELICOPTER,
    SUIT_SYMBOLS,
    is_king,
    suit_of,
    symbol,
)
from inselflucht_env.games.inselflucht.rules.engine import DRY, HIDDEN, SEA, Escape, Give, State
from inselflucht_env.games.inselflucht.rules.public import floods_to_go

CELL = 9  # inner width of a grid cell
WIDTH = 80  # no line is longer

OUTCOME_TEXT = {
    "win": "WON: all four treasures lifted and the team took off",
    "L1": "LOST (L1): the king of an unlifted treasure sank",
    "L2": "LOST (L2): the helicopter sank",
    "L3": "LOST (L3): a figure could not swim to safety",
    "L4": "LOST (L4): cut off from an unlifted king or the helicopter",
    "L5": "LOST (L5): too few land cards left for the unlifted treasures",
    "L6": "LOST (L6): the water rose past the last meter card",
    "illegal": "ENDED: an illegal action was played",
}

# SGR codes (colour=True only).
_RESET = "\x1b[0m"
_RED = "31"
_HIDDEN = "2"
_SEA = "34"
_FLOOD_BG = "44;97"
_FLOOD_RED = "44;91"
_FIGURE = "1;33"
_ACTIVE = "1;30;43"
_LIFTED = "1;32"
_TITLE = "1"
_WIN = "1;32"
_LOSS = "1;31"
_PENDING = "1;35"

Seg = tuple[str, str]  # (plain text, SGR code or "")


def _paint(segs: list[Seg], colour: bool) -> str:
    if not colour:
        return "".join(t for t, _ in segs)
    merged: list[list[str]] = []
    for t, c in segs:
        if not t:
            continue
        if merged and merged[-1][1] == c:
            merged[-1][0] += t
        else:
            merged.append([t, c])
    return "".join(f"\x1b[{c}m{t}{_RESET}" if c else t for t, c in merged)


def _width(segs: list[Seg]) -> int:
    return sum(len(t) for t, _ in segs)


def _centre(segs: list[Seg], width: int, fill: str = " ", fill_code: str = "") -> list[Seg]:
    spare = max(0, width - _width(segs))
    left = spare // 2
    return [(fill * left, fill_code), *segs, (fill * (spare - left), fill_code)]


def _card_code(card: int) -> str:
    """Colour of a card's text: red for hearts and diamonds."""
    if card == HELICOPTER:
        return "1"
    return _RED if suit_of(card) in (1, 2) else ""


def _card_text(state: State, card: int) -> str:
    text = symbol(card)
    if is_king(card) and state.lifted[suit_of(card)]:
        text += "*"
    return text


def _place_segs(state: State, p: int) -> tuple[list[Seg], list[Seg]]:
    """The two inner lines of a cell, each exactly CELL wide."""
    st = state.status[p]
    figs: list[Seg] = []
    decider = state.decider if state.outcome is None else -1
    for f, q in enumerate(state.pos):
        if q != p:
            continue
        if figs:
            figs.append((" ", ""))
        if f == state.active and state.outcome is None:
            figs.append((f">{f}", _ACTIVE))
        elif f == decider:
            figs.append((f"!{f}", _ACTIVE))
        else:
            figs.append((str(f), _FIGURE))
    if st == SEA:
        top = [("~" * CELL, _SEA)]
        bottom = _centre(figs, CELL, "~", _SEA) if figs else [("~" * CELL, _SEA)]
        return top, bottom
    if st == HIDDEN:
        return _centre([("??", _HIDDEN)], CELL), _centre(figs, CELL)
    card = state.card[p]
    text = _card_text(state, card)
    if st == DRY:
        code = _LIFTED if text.endswith("*") else _card_code(card)
        return _centre([(text, code)], CELL), _centre(figs, CELL)
    # flooded: blue background over the whole cell
    code = _FLOOD_RED if _card_code(card) else _FLOOD_BG
    top = _centre(
        [("\u2248 ", _FLOOD_BG), (text, code), (" \u2248", _FLOOD_BG)], CELL, " ", _FLOOD_BG
    )
    figs = [(t, _FLOOD_BG if not c else c if c == _ACTIVE else c + ";44") for t, c in figs]
    bottom = _centre(figs, CELL, " ", _FLOOD_BG)
    return top, bottom


def _wrap(head: str, items: list[list[Seg]], colour: bool, indent: int = 2) -> list[str]:
    """``head`` followed by the items separated by spaces, wrapped at WIDTH."""
    lines: list[str] = []
    line: list[Seg] = [(head, "")]
    first = True
    for item in items:
        if not first and _width(line) + 1 + _width(item) > WIDTH:
            lines.append(_paint(line, colour))
            line, first = [(" " * indent, "")], True
        if not first:
            line.append((" ", ""))
        line.extend(item)
        first = False
    lines.append(_paint(line, colour))
    return lines


def _cards(cards: list[int]) -> list[list[Seg]]:
    return [[(symbol(c), _card_code(c))] for c in cards]


def render_ansi(state: State, colour: bool = False) -> str:
    """The public state as text: the island grid and the facts below it.

    ``colour=True`` adds ANSI colours (red hearts and diamonds, blue water, highlighted
    figures); ``colour=False`` is plain text without escape codes. No line is longer than
    80 characters (counted without escape codes).
    """
    out: list[str] = []
    n_fig = len(state.pos)

    # ---------------------------------------------------------------- header
    if state.outcome is not None:
        status = "game over"
    elif isinstance(state.pending, Escape):
        status = f"figure {state.decider} must escape"
    elif state.in_flood:
        status = f"flood phase, {state.floods_left} flood(s) still to draw"
    else:
        status = f"figure {state.active} to act, {state.actions_left} action(s) left"
    out.append(_paint([("INSELFLUCHT", _TITLE), (f"   turn {state.turn}   {status}", "")], colour))

    # ---------------------------------------------------------------- grid
    sep = "    " + ("+" + "-" * CELL) * SIZE + "+"
    out.append("    " + "".join(str(c).center(CELL + 1) for c in range(1, SIZE + 1)))
    out.append(sep)
    for r in range(SIZE):
        cells = [_place_segs(state, place(c, r + 1)) for c in range(1, SIZE + 1)]
        for k, label in ((0, f"{r + 1:>3} "), (1, "    ")):
            segs: list[Seg] = [(label, "")]
            for cell in cells:
                segs.append(("|", ""))
                segs.extend(cell[k])
            segs.append(("|", ""))
            out.append(_paint(segs, colour))
        out.append(sep)

    # ---------------------------------------------------------------- water
    rest = " ".join(str(v) for v in state.meter[1:]) or "none (last card)"
    out.append(
        _paint(
            [
                ("Water level ", ""),
                (str(state.water_level), _SEA + ";1"),
                (f"   meter still to come: {rest}", ""),
            ],
            colour,
        )
    )
    out.append(f"  floods left before the island drowns (L6): {floods_to_go(state)}")

    # ---------------------------------------------------------------- flood discards
    cols, rows = state.col_discard, state.row_discard
    hits = [[(f"({c},{r})", "")] for c, r in zip(cols, rows)] or [[("none yet", "")]]
    out.extend(_wrap("Floods this pass (column,row): ", hits, colour))
    due_c = " ".join(str(v) for v in range(1, 6) if v not in cols) or "-"
    due_r = " ".join(str(v) for v in range(1, 6) if v not in rows) or "-"
    hit_c = " ".join(str(v) for v in cols) or "-"
    hit_r = " ".join(str(v) for v in rows) or "-"
    out.append(f"  columns hit: {hit_c:<9} due: {due_c:<9}   rows hit: {hit_r:<9} due: {due_r}")

    # ---------------------------------------------------------------- salvage
    out.append("Salvage:")
    for f in range(n_fig):
        mark = ">" if f == state.active and state.outcome is None else " "
        head = f" {mark}figure {f}: "
        hand = state.salvage[f]
        out.extend(_wrap(head, _cards(hand) if hand else [[("-", "")]], colour, indent=12))

    # ---------------------------------------------------------------- treasures
    n = state.config.cards_per_treasure
    items: list[list[Seg]] = []
    for s in range(4):
        king = SUIT_SYMBOLS[s]  # the suit only: "K♥" would look like a card on the board
        code = _RED if s in (1, 2) else ""
        if state.lifted[s]:
            under = " ".join(symbol(c) for c in state.under_king[s])
            items.append([(king, code), (f" lifted ({under})", _LIFTED)])
        else:
            short = " SHORT" if state.remaining[s] < n else ""
            items.append([(king, code), (f" open, {state.remaining[s]} left{short}", "")])
        if s < 3:
            items[-1].append((";", ""))
    out.extend(_wrap("Treasures: ", items, colour, indent=11))

    sunk = state.box + state.set_aside
    if sunk:
        sunk_items = [
            [(symbol(c) + ("(safe)" if c in state.set_aside else ""), _card_code(c))] for c in sunk
        ]
        out.extend(_wrap("Sunk: ", sunk_items, colour, indent=6))

    # ---------------------------------------------------------------- pending / outcome
    pend = state.pending
    if pend is not None and state.outcome is None:
        if isinstance(pend, Escape):
            c, r = column_row(pend.place)
            text = (
                f"figure {pend.figure} must swim from column {c} row {r} "
                "to a neighbouring field (diagonals allowed)"
            )
        elif isinstance(pend, Give):
            text = (
                f"figure {pend.figure} gives to figure {pend.receiver}: {pend.given} "
                "card(s) given; choose a suit or done"
            )
        else:
            text = (
                f"figure {pend.figure} lifts the {SUIT_SYMBOLS[pend.suit]} treasure "
                f"(short suit): {pend.chosen} of {n + 1} cards chosen"
            )
        out.extend(_wrap("Pending: ", [[(w, _PENDING)] for w in text.split(" ")], colour, 9))
    if state.outcome is not None:
        text = OUTCOME_TEXT.get(state.outcome, f"ENDED: {state.outcome}")
        out.append(
            _paint([("Outcome: ", ""), (text, _WIN if state.outcome == "win" else _LOSS)], colour)
        )

    out.append(
        "Key: \u2248x\u2248 flooded  ?? hidden  ~~ sea  K* treasure lifted  >n active  !n decides"
    )
    return "\n".join(line.rstrip() for line in out)
