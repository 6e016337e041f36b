"""The flat state of the compiled engine: one ``int32`` row per game, field by field.

The reference engine (``rules/engine.py``) keeps a game in Python lists; the compiled one
keeps the same facts at fixed offsets of one array row, so that a batch of games is one
``(games, STATE_SIZE)`` array that Numba kernels step in parallel and a planner clones with
one copy. Lists become a fixed-size block plus a length; draw lists keep the reference's
order (the next card last); a list's entries beyond its length are left-overs that
nothing reads. Every field, in order:

======================  =====  ==============================================================
field                   size   meaning (reference attribute)
======================  =====  ==============================================================
``FIGURES``             1      number of figures, 2 in solo (``config.figures``)
``SWIM_COST``           1      actions a swim costs: 2, or 1 with Taucher (R4.3, R7.1)
``PER_TREASURE``        1      *n*: cards a treasure needs, 2 or 1 (R4.7, R7.2)
``TAUCHER``             1      the Taucher variant (observation ``variant``)
``SHORT_GAME``          1      the Kurzes Spiel variant (observation ``variant``)
``STATUS``              25     per place: HIDDEN 0, DRY 1, FLOODED 2, SEA 3 (``status``)
``CARD``                25     per place: card id, -1 on sea (``card``; hidden: R9)
``POS``                 4      per figure: its place (``pos``)
``SALVAGE``             4x20   per figure: cards in the order salvaged (``salvage``)
``SALVAGE_LEN``         4      per figure: how many
``UNDER``               4x3    per suit: the cards under its king (``under_king``)
``UNDER_LEN``           4      per suit: how many
``LIFTED``              4      per suit: treasure lifted (``lifted``)
``SET_ASIDE``           4      sunk kings of lifted treasures (``set_aside``) ...
``SET_ASIDE_LEN``       1      ... how many
``BOX``                 25     sunk cards in order (``box``) ...
``BOX_LEN``             1      ... how many
``METER``               32     the meter, top first (``meter``) ...
``METER_LEN``           1      ... how many cards
``COL_DECK``            5      undrawn column cards, next last (``col_deck``; hidden) ...
``COL_DECK_LEN``        1      ... how many; ``ROW_DECK``/``ROW_DECK_LEN`` the same for rows
``COL_DISCARD``         5      column cards drawn in this pass (``col_discard``) ...
``COL_DISCARD_LEN``     1      ... how many; ``ROW_DISCARD``/``ROW_DISCARD_LEN`` for rows
``SCRIPT_COL``          32x5   fixed column decks of later passes, each next last ...
``SCRIPT_COL_LEN``      1      ... how many (the next first); ``SCRIPT_ROW`` ... for rows
``ACTIVE``              1      the figure whose turn it is (``active``)
``ACTIONS_LEFT``        1      of the active figure's 4 (``actions_left``)
``TURN``                1      1, 2, ... (``turn``)
``FLOODS_LEFT``         1      floods still to draw in this flood phase (``floods_left``)
``IN_FLOOD``            1      the flood phase runs (``in_flood``)
``FLOOD_OPEN``          1      a flood was drawn, its escapes and checks due (``flood_open``)
``FLOOD_SANK``          1      that flood sank a place (``flood_sank``)
``ESC_FIG``, ``ESC_AT`` 4, 4   escapes still due, the next first: figure, place ...
``ESC_LEN``             1      ... how many (``escapes``)
``PENDING``             1      sub-decision: 0 none, 1 give, 2 lift, 3 escape (``pending``)
``PENDING_FIG``         1      its deciding figure
``PENDING_ARG``         1      give: receiver; lift: suit; escape: place
``PENDING_COUNT``       1      give: cards given; lift: cards chosen
``OUTCOME``             1      -1 running, else the index in ``OUTCOMES`` (``outcome``)
``REMAINING``           4      per suit: land cards on the island and in salvage
======================  =====  ==============================================================

A game's random stream is not in the row: the batch keeps one 64-bit generator state per
game beside it (``batch.Batch.rng``), so that a clone can be given a future of its own.
"""

from __future__ import annotations

from inselflucht_env.games.inselflucht.rules.engine import OUTCOMES

MAX_FIGURES = 4
MAX_SALVAGE = 20  # every land card
MAX_UNDER = 3  # n + 1 cards lift a short suit (R4.7)
MAX_METER = 32  # meter cards (and scripted passes) a compiled game holds
PASS = 5  # cards in a column or row deck (R5.2)
NO_PENDING, PENDING_GIVE, PENDING_LIFT, PENDING_ESCAPE = 0, 1, 2, 3
RUNNING = -1
OUTCOME_INDEX = {name: i for i, name in enumerate(OUTCOMES)}
WIN, ILLEGAL = OUTCOME_INDEX["win"], OUTCOME_INDEX["illegal"]

_FIELDS = (
    ("FIGURES", 1),
    ("SWIM_COST", 1),
    ("PER_TREASURE", 1),
    ("TAUCHER", 1),
    ("SHORT_GAME", 1),
    ("STATUS", 25),
    ("CARD", 25),
    ("POS", MAX_FIGURES),
    ("SALVAGE", MAX_FIGURES * MAX_SALVAGE),
    ("SALVAGE_LEN", MAX_FIGURES),
    ("UNDER", 4 * MAX_UNDER),
    ("UNDER_LEN", 4),
    ("LIFTED", 4),
    ("SET_ASIDE", 4),
    ("SET_ASIDE_LEN", 1),
    ("BOX", 25),
    ("BOX_LEN", 1),
    ("METER", MAX_METER),
    ("METER_LEN", 1),
    ("COL_DECK", PASS),
    ("COL_DECK_LEN", 1),
    ("ROW_DECK", PASS),
    ("ROW_DECK_LEN", 1),
    ("COL_DISCARD", PASS),
    ("COL_DISCARD_LEN", 1),
    ("ROW_DISCARD", PASS),
    ("ROW_DISCARD_LEN", 1),
    ("SCRIPT_COL", MAX_METER * PASS),
    ("SCRIPT_COL_LEN", 1),
    ("SCRIPT_ROW", MAX_METER * PASS),
    ("SCRIPT_ROW_LEN", 1),
    ("ACTIVE", 1),
    ("ACTIONS_LEFT", 1),
    ("TURN", 1),
    ("FLOODS_LEFT", 1),
    ("IN_FLOOD", 1),
    ("FLOOD_OPEN", 1),
    ("FLOOD_SANK", 1),
    ("ESC_FIG", MAX_FIGURES),
    ("ESC_AT", MAX_FIGURES),
    ("ESC_LEN", 1),
    ("PENDING", 1),
    ("PENDING_FIG", 1),
    ("PENDING_ARG", 1),
    ("PENDING_COUNT", 1),
    ("OUTCOME", 1),
    ("REMAINING", 4),
)


def _offsets() -> dict[str, int]:
    table, at = {}, 0
    for name, size in _FIELDS:
        table[name] = at
        at += size
    table["STATE_SIZE"] = at
    return table


OFFSET = _offsets()
STATE_SIZE = OFFSET["STATE_SIZE"]
FIGURES = OFFSET["FIGURES"]
SWIM_COST = OFFSET["SWIM_COST"]
PER_TREASURE = OFFSET["PER_TREASURE"]
TAUCHER = OFFSET["TAUCHER"]
SHORT_GAME = OFFSET["SHORT_GAME"]
STATUS = OFFSET["STATUS"]
CARD = OFFSET["CARD"]
POS = OFFSET["POS"]
SALVAGE = OFFSET["SALVAGE"]
SALVAGE_LEN = OFFSET["SALVAGE_LEN"]
UNDER = OFFSET["UNDER"]
UNDER_LEN = OFFSET["UNDER_LEN"]
LIFTED = OFFSET["LIFTED"]
SET_ASIDE = OFFSET["SET_ASIDE"]
SET_ASIDE_LEN = OFFSET["SET_ASIDE_LEN"]
BOX = OFFSET["BOX"]
BOX_LEN = OFFSET["BOX_LEN"]
METER = OFFSET["METER"]
METER_LEN = OFFSET["METER_LEN"]
COL_DECK = OFFSET["COL_DECK"]
COL_DECK_LEN = OFFSET["COL_DECK_LEN"]
ROW_DECK = OFFSET["ROW_DECK"]
ROW_DECK_LEN = OFFSET["ROW_DECK_LEN"]
COL_DISCARD = OFFSET["COL_DISCARD"]
COL_DISCARD_LEN = OFFSET["COL_DISCARD_LEN"]
ROW_DISCARD = OFFSET["ROW_DISCARD"]
ROW_DISCARD_LEN = OFFSET["ROW_DISCARD_LEN"]
SCRIPT_COL = OFFSET["SCRIPT_COL"]
SCRIPT_COL_LEN = OFFSET["SCRIPT_COL_LEN"]
SCRIPT_ROW = OFFSET["SCRIPT_ROW"]
SCRIPT_ROW_LEN = OFFSET["SCRIPT_ROW_LEN"]
ACTIVE = OFFSET["ACTIVE"]
ACTIONS_LEFT = OFFSET["ACTIONS_LEFT"]
TURN = OFFSET["TURN"]
FLOODS_LEFT = OFFSET["FLOODS_LEFT"]
IN_FLOOD = OFFSET["IN_FLOOD"]
FLOOD_OPEN = OFFSET["FLOOD_OPEN"]
FLOOD_SANK = OFFSET["FLOOD_SANK"]
ESC_FIG = OFFSET["ESC_FIG"]
ESC_AT = OFFSET["ESC_AT"]
ESC_LEN = OFFSET["ESC_LEN"]
PENDING = OFFSET["PENDING"]
PENDING_FIG = OFFSET["PENDING_FIG"]
PENDING_ARG = OFFSET["PENDING_ARG"]
PENDING_COUNT = OFFSET["PENDING_COUNT"]
OUTCOME = OFFSET["OUTCOME"]
REMAINING = OFFSET["REMAINING"]
