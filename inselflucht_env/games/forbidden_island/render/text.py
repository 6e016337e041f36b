"""Text rendering of a Forbidden Island state (Gymnasium ``render_mode="ansi"``), and a
sentence for an action (``describe_action``, for replays and logs).

Only public information is used (FR2.4): tiles, pawns, hands, both discard piles and the
sizes of the draw decks. The order of the treasure deck and of the flood deck is never
read; of the flood deck only the tiles of its known top group (FR5.2) are shown, as a set.

Example (the top rows of a grid)::

                          +-----------+-----------+
                          |Lost Lagoon|~~~~~~~~~~~|
                          |     0     |~~~~ 1 ~~~~|
                          |    1D     |~~~~~~~~~~~|
              +-----------+-----------+-----------+-----------+
              | Gold Gate |Whisper Gdn|Bronze Gate|Shadow Cave|
              |≈≈≈≈ 2 ≈≈≈≈|≈≈ 3 [W] ≈≈|     4     |   5 [F]   |
              |≈≈≈≈≈≈≈≈≈≈≈|≈≈≈≈≈≈≈≈≈≈≈|           |  >0N 2P   |

Each island cell holds three lines: the tile's short name, its slot (the number that
``move:<slot>`` and ``shore:<slot>`` name, FR1.1) with its mark (``[E]`` ``[W]`` ``[F]``
``[O]`` a treasure tile, FR1.2, ``*`` once captured; ``[H]`` Fools' Landing, FR1.3), and the
pawns on it (seat number and role letter; ``>`` the active player, ``!`` a player deciding on
another's turn). A flooded tile is filled with ``≈``, a sunk one is sea, ``~`` (FR1.4).
"""

from __future__ import annotations

import textwrap

from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.board import (
    CELL_SLOT,
    FOOLS_LANDING,
    GRID,
    TILE_NAMES,
    tile_treasure,
    treasure_tiles,
)
from inselflucht_env.games.forbidden_island.rules.cards import (
    CAPTURE_CARDS,
    HAND_LIMIT,
    TREASURE_NAMES,
    TREASURE_TITLES,
)
from inselflucht_env.games.forbidden_island.rules.config import (
    ACTIONS_PER_TURN,
    FLOODS_AT_LEVEL,
    PILOT,
    ROLE_NAMES,
    SKULL,
)
from inselflucht_env.games.forbidden_island.rules.engine import (
    ACTIONS,
    DRY,
    FLOODED,
    SUNK,
    WINDOW,
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

CELL = 11  # inner width of a grid cell
WIDTH = 80  # no line is longer
FLOOD_MARK = "\u2248"  # ≈
SEA_MARK = "~"

# Names that fit a cell, in the order of board.TILE_NAMES.
SHORT_NAMES: tuple[str, ...] = (
    "Fools' Lndg",
    "Moon Temple",
    "Sun Temple",
    "Whisper Gdn",
    "Howling Gdn",
    "Ember Cave",
    "Shadow Cave",
    "Coral Pal.",
    "Tidal Pal.",
    "Bronze Gate",
    "Copper Gate",
    "Gold Gate",
    "Iron Gate",
    "Silver Gate",
    "Breakers Br",
    "Cliffs",
    "Crimson For",
    "Dunes",
    "Lost Lagoon",
    "Misty Marsh",
    "Observatory",
    "Phantom Rk",
    "Twilight H.",
    "Watchtower",
)
TREASURE_LETTERS = ("E", "W", "F", "O")  # earth, wind, fire, ocean (FR1.2)
ROLE_LETTERS = ("D", "E", "X", "M", "N", "P")  # diver ... pilot (config.ROLE_NAMES)
CARD_TITLES = ("earth", "wind", "fire", "ocean", "helicopter lift", "sandbags", "waters rise!")

OUTCOME_TEXT = {
    "win": "WON: all four treasures captured and the team flew off Fools' Landing (FR9.1)",
    "L1": "LOST (L1): both tiles of an uncaptured treasure sank (FR10.1)",
    "L2": "LOST (L2): Fools' Landing sank (FR10.2)",
    "L3": "LOST (L3): a pawn on a sinking tile could not swim to any tile (FR10.3)",
    "L4": "LOST (L4): the water level reached the skull (FR10.4)",
    "illegal": "ENDED: an illegal action was played",
}

KEY = (
    f"Key: {FLOOD_MARK} flooded  {SEA_MARK * 2} sunk  [E]arth [W]ind [F]ire [O]cean treasure "
    "tile, * captured",
    "     [H] Fools' Landing  >0 active  !0 decides  0P seat+role (X explorer)",
)


# ---------------------------------------------------------------------- small words
def role_title(state: State, seat: int) -> str:
    """The role of ``seat``, capitalised: ``"Navigator"``."""
    return ROLE_NAMES[state.roles[seat]].capitalize()


def _seat(state: State, seat: int) -> str:
    return f"seat {seat} ({role_title(state, seat)})"


def _place(state: State, slot: int) -> str:
    return f"{TILE_NAMES[state.tile[slot]]} (slot {slot})"


def _hand(state: State, seat: int) -> str:
    cards = [f"{CARD_TITLES[k]} {n}" for k, n in enumerate(state.hands[seat]) if n]
    return ", ".join(cards) if cards else "-"


def _counts(cards: list[int]) -> str:
    """A pile of card kinds as ``"earth 2, waters rise! 1"``, in kind order."""
    return ", ".join(
        f"{CARD_TITLES[k]} {cards.count(k)}" for k in range(len(CARD_TITLES)) if k in cards
    )


def _a(word: str) -> str:
    """``word`` with its indefinite article: ``"an earth"``, ``"a wind"``."""
    return ("an " if word[0] in "aeiou" else "a ") + word


def _wrap(text: str, indent: int = 2) -> list[str]:
    return textwrap.wrap(
        text,
        WIDTH,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


# ---------------------------------------------------------------------- the grid
def _pawns(state: State, slot: int) -> str:
    over = state.outcome is not None
    tokens = []
    for p, q in enumerate(state.pos):
        if q != slot:
            continue
        mark = ""
        if not over and p == state.active:
            mark = ">"
        elif not over and p == state.decider:
            mark = "!"
        tokens.append(f"{mark}{p}{ROLE_LETTERS[state.roles[p]]}")
    text = " ".join(tokens)
    return text if len(text) <= CELL else "".join(tokens)


def _mark(state: State, slot: int) -> str:
    t = state.tile[slot]
    tr = tile_treasure(t)
    if tr >= 0:
        return f"[{TREASURE_LETTERS[tr]}]" + ("*" if state.captured[tr] else "")
    return "[H]" if t == FOOLS_LANDING else ""


def _cell(state: State, slot: int) -> tuple[str, str, str]:
    """The three inner lines of an island cell, each exactly CELL wide."""
    st = state.status[slot]
    pawns = _pawns(state, slot)
    if st == SUNK:
        sea = SEA_MARK * CELL
        swimmers = f" {pawns} ".center(CELL, SEA_MARK) if pawns else sea  # FR7.1: about to swim
        return sea, f" {slot} ".center(CELL, SEA_MARK), swimmers
    name = SHORT_NAMES[state.tile[slot]].center(CELL)
    label = f"{slot} {_mark(state, slot)}".strip()
    if st == FLOODED:
        return (
            name,
            FLOOD_MARK + f" {label} ".center(CELL - 2, FLOOD_MARK) + FLOOD_MARK,
            f" {pawns} ".center(CELL, FLOOD_MARK) if pawns else FLOOD_MARK * CELL,
        )
    return name, f" {label} ".center(CELL), pawns.center(CELL)


def _grid(state: State) -> list[str]:
    def land(r: int, c: int) -> bool:
        return (r, c) in CELL_SLOT

    out: list[str] = []
    for r in range(GRID + 1):
        line = ""
        for c in range(GRID + 1):
            corner = any(land(r + dr, c + dc) for dr in (-1, 0) for dc in (-1, 0))
            line += "+" if corner else " "
            if c < GRID:
                line += ("-" if land(r - 1, c) or land(r, c) else " ") * CELL
        out.append("  " + line.rstrip())
        if r == GRID:
            break
        cells = [_cell(state, CELL_SLOT[(r, c)]) if land(r, c) else None for c in range(GRID)]
        for k in range(3):
            line = ""
            for c in range(GRID + 1):
                line += "|" if land(r, c - 1) or land(r, c) else " "
                if c < GRID:
                    cell = cells[c]
                    line += cell[k] if cell is not None else " " * CELL
            out.append("  " + line.rstrip())
    return out


# ---------------------------------------------------------------------- the facts below
def _status(state: State) -> str:
    if state.outcome is not None:
        return "game over"
    if state.pending:
        return f"{_seat(state, state.decider)} decides"
    if state.phase == ACTIONS:
        return f"{_seat(state, state.active)} to act"
    if state.phase == WINDOW:
        return "special-card window"
    return f"flood cards, {state.floods_left} to draw"


def _phase(state: State) -> str:
    if state.phase == ACTIONS:
        text = (
            f"Phase: actions (FR4) of {_seat(state, state.active)}, "
            f"{state.actions_left} of {ACTIONS_PER_TURN} left"
        )
        if state.roles[state.active] == PILOT:
            text += "; flight used (FR3.6)" if state.flew else "; flight unused (FR3.6)"
        return text
    if state.phase == WINDOW:
        return (
            f"Phase: special-card window after {_seat(state, state.active)}'s treasure draw (FR6.3)"
        )
    return f"Phase: flood cards (FR8.1), {state.floods_left} still to draw"


def pending_text(state: State) -> str | None:
    """The sub-decision on top of the pending stack as a sentence, or None."""
    if not state.pending or state.outcome is not None:
        return None
    top = state.pending[-1]
    who = _seat(state, top.player)
    if isinstance(top, Guide):
        return f"{who} guides {_seat(state, top.target)}: pick a tile up to 2 steps (FR3.5)"
    if isinstance(top, Lift):
        group = ", ".join(str(q) for q in range(state.players) if top.group >> q & 1)
        return (
            f"{who}'s Helicopter Lift carries seat(s) {group} from {_place(state, top.slot)}: "
            "add a pawn there or pick where to fly (FR6.1)"
        )
    if isinstance(top, Sandbag):
        return f"{who} plays Sandbags: pick any flooded tile (FR6.2)"
    if isinstance(top, Engineer):
        return f"{who} may shore up a second tile, or be done (FR3.2)"
    if isinstance(top, Discard):
        return (
            f"{who} holds {state.hand_size(top.player)} cards, over the limit of "
            f"{HAND_LIMIT}: discard or play a special card (FR5.3)"
        )
    if isinstance(top, Window):
        return f"{who} may play Helicopter Lift or Sandbags before the floods, or pass (FR6.3)"
    assert isinstance(top, Swim)
    return f"{who} must swim from the sunk {_place(state, state.pos[top.player])} (FR7)"


def _treasures(state: State) -> list[str]:
    """Captured treasures (FR4.5) and, per open one, its tiles still standing (FR10.1)."""
    got = [f"[{TREASURE_LETTERS[t]}] {TREASURE_TITLES[t]}" for t in range(4) if state.captured[t]]
    open_ = [
        f"[{TREASURE_LETTERS[t]}] {TREASURE_NAMES[t]} "
        f"{sum(state.status[state.slot_of[x]] != SUNK for x in treasure_tiles(t))}"
        for t in range(4)
        if not state.captured[t]
    ]
    out = _wrap(f"Captured (FR4.5): {', '.join(got) or 'none'}")
    if open_:
        out.extend(_wrap(f"Open, tiles left (FR10.1): {', '.join(open_)}"))
    return out


def render_text(state: State) -> str:
    """The public state as plain text: the island grid and the facts below it.

    No line is longer than 80 characters, and nothing hidden is read (FR2.4).
    """
    out = [f"FORBIDDEN ISLAND   turn {state.turn}   {_status(state)}"]
    out.extend(_grid(state))

    n_dry = state.status.count(DRY)
    n_flooded = state.status.count(FLOODED)
    out.append(f"Tiles (FR1.4): {n_dry} dry, {n_flooded} flooded, {state.status.count(SUNK)} sunk")
    level = state.level
    if level < SKULL:
        draws = f"{FLOODS_AT_LEVEL[level]} flood card(s) a turn"
    else:
        draws = "the skull"
    out.append(f"Water level {level} of {SKULL} (FR2.3): {draws}; {SKULL} loses (FR10.4)")
    meter = [
        f"[{v}:{FLOODS_AT_LEVEL[v]}]" if v == level else f"{v}:{FLOODS_AT_LEVEL[v]}"
        for v in range(1, SKULL)
    ]
    meter.append(f"[{SKULL}:skull]" if level >= SKULL else f"{SKULL}:skull")
    out.append("  meter (level:floods): " + " ".join(meter))
    out.extend(_treasures(state))

    out.append("Seats (hands are open, FR2.4):")
    over = state.outcome is not None
    for p in range(state.players):
        mark = (
            ">"
            if not over and p == state.active
            else "!"
            if not over and p == state.decider
            else " "
        )
        slot = state.pos[p]
        where = TILE_NAMES[state.tile[slot]] + (" (sunk)" if state.status[slot] == SUNK else "")
        head = f" {mark}{p} {role_title(state, p):<9} on {slot:>2} {where}"
        out.extend(_wrap(f"{head:<40} hand ({state.hand_size(p)}): {_hand(state, p)}", indent=41))

    if not over:
        out.extend(_wrap(_phase(state)))
    pend = pending_text(state)
    if pend is not None:
        out.extend(_wrap("Pending: " + pend, indent=9))

    discard = state.treasure_discard
    out.extend(
        _wrap(
            f"Treasure deck: {len(state.treasure_deck)} cards, order hidden (FR2.4); discard "
            f"({len(discard)}): {_counts(discard) or '-'}"
        )
    )
    flood = f"Flood deck: {len(state.flood_deck)} cards, order hidden"
    if state.flood_known:
        top = ", ".join(TILE_NAMES[t] for t in known_flood_top(state))
        flood += f"; its top {state.flood_known} are, in some order (FR5.2): {{{top}}}"
    out.extend(_wrap(flood))
    names = ", ".join(TILE_NAMES[t] for t in state.flood_discard) or "-"
    out.extend(_wrap(f"Flood discard ({len(state.flood_discard)}): {names}"))
    if state.flood_out:
        out.extend(_wrap("Sunk (FR8.2): " + ", ".join(TILE_NAMES[t] for t in state.flood_out)))

    if over:
        text = OUTCOME_TEXT.get(str(state.outcome), f"ENDED: {state.outcome}")
        out.extend(_wrap("Outcome: " + text, indent=9))
    out.extend(KEY)
    return "\n".join(line.rstrip() for line in out)


# ---------------------------------------------------------------------- actions
def describe_action(state: State, action: int) -> str:
    """A sentence for ``action`` taken by the decider of ``state``: ``"Navigator guides
    seat 1 (Diver)"``, ``"Pilot moves to Coral Palace (slot 7)"``.

    ``state`` is the state before the action. An action the rules do not allow there is
    still described, with ``" (not legal now)"`` added; an index outside the action space
    raises ``ValueError``.
    """
    A.action_name(action)  # ValueError for a bad index
    a = int(action)
    p = state.decider
    who = role_title(state, p)
    top = state.pending[-1] if state.pending and state.outcome is None else None
    text = f"{who} {_phrase(state, a, p, top)}"
    if a not in state.legal_actions():
        text += " (not legal now)"
    return text


def _phrase(state: State, a: int, p: int, top: object) -> str:
    """The verb phrase of action ``a`` by seat ``p`` under the sub-decision ``top``."""
    if a < A.SHORE:  # move:<slot>
        slot = a - A.MOVE
        where = _place(state, slot)
        if isinstance(top, Guide):
            return f"moves {_seat(state, top.target)} to {where} (FR3.5)"
        if isinstance(top, Lift):
            group = [q for q in range(state.players) if top.group >> q & 1]
            if group == [p]:
                return f"flies to {where} by Helicopter Lift (FR6.1)"
            seats = ", ".join(_seat(state, q) for q in group)
            return f"flies {seats} to {where} by Helicopter Lift (FR6.1)"
        if isinstance(top, Swim):
            verb = "flies" if state.roles[p] == PILOT else "swims"
            return f"{verb} to {where} (FR7)"
        if (
            top is None
            and state.roles[p] == PILOT
            and slot not in state.walk_targets(p)
            and slot != state.pos[p]
        ):
            return f"flies to {where} (the Pilot's flight, FR3.6)"
        return f"moves to {where}"
    if a < A.GIVE:  # shore:<slot>
        where = _place(state, a - A.SHORE)
        if isinstance(top, Sandbag):
            return f"sandbags {where} dry (FR6.2)"
        if isinstance(top, Engineer):
            return f"also shores up {where} (FR3.2)"
        return f"shores up {where} (FR4.3)"
    if a < A.CAPTURE:  # give:<treasure>:+k
        t, k = divmod(a - A.GIVE, 3)
        q = state.seat(p, k + 1)
        return f"gives {_a(TREASURE_NAMES[t])} card to {_seat(state, q)} (FR4.4)"
    if a == A.CAPTURE:
        t = tile_treasure(state.tile[state.pos[p]])
        title = TREASURE_TITLES[t] if t >= 0 else "a treasure"
        return f"captures {title} with {CAPTURE_CARDS} cards (FR4.5)"
    if a < A.SANDBAG:  # guide:+k
        return f"guides {_seat(state, state.seat(p, a - A.GUIDE + 1))} (FR3.5)"
    if a == A.SANDBAG:
        return "plays Sandbags (FR6.2)"
    if a < A.ESCAPE:  # lift:+k
        q = state.seat(p, a - A.LIFT)
        if isinstance(top, Lift):
            return f"adds {_seat(state, q)} to the Helicopter Lift (FR6.1)"
        whom = "their own pawn" if q == p else _seat(state, q)
        return f"plays a Helicopter Lift for {whom} (FR6.1)"
    if a == A.ESCAPE:
        return "plays a Helicopter Lift on Fools' Landing: the team escapes (FR9.1)"
    if a < A.DONE:  # discard:<kind>
        return f"discards {_a(CARD_TITLES[a - A.DISCARD])} card (FR5.3)"
    # done
    if isinstance(top, Window):
        return "passes: plays no special card now (FR6.3)"
    if isinstance(top, Engineer):
        return "shores up no second tile (FR3.2)"
    if top is None and state.outcome is None:
        return f"ends the actions, giving up {state.actions_left} (FR4)"
    return "is done"
