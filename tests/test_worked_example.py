"""R8: the rulebook's worked example ("Ein ausführliches Beispiel"), replayed move by move.

Normal game, two players: Anna is figure 0, Ben figure 1. The layout holds the island cards
the example reveals (``?`` for the rest) and the flood decks the floods it names.
After every turn the whole public view is compared with the state the text describes.

Grid notation below: ``.`` hidden, ``7C`` dry, ``7C~`` flooded, ``~`` sea.
"""

from __future__ import annotations

from conftest import Game

from inselflucht_env.games.inselflucht.rules.cards import code

LAYOUT = ["? 7C KC 7S ?", "? 10C 8H 6D 10H", "9S ? JK ? KH", "? 9D 7H ? ?", "? ? ? ? 6S"]
COLUMNS = [3, 2, 5, 1, 4]  # 3 of spades, 2, 5, ace, 4
ROWS = [1, 4, 5, 3, 2]  # ace of hearts, 4, 5, 3, 2
FULL_METER = [1, 1, 2, 2, 3, 3, 4, 4, 5]


def grid(*rows: str) -> list[list[dict]]:
    out = []
    for line in rows:
        row = []
        for token in line.split():
            if token == ".":
                row.append({"state": "hidden", "card": None})
            elif token == "~":
                row.append({"state": "sea", "card": None})
            elif token.endswith("~"):
                row.append({"state": "flooded", "card": token[:-1]})
            else:
                row.append({"state": "dry", "card": token})
        assert len(row) == 5
        out.append(row)
    assert len(out) == 5
    return out


def expected(
    turn, places, figures, salvage=([], []), lifted_c=False, meter=FULL_METER, cols=(), rows=()
):
    return {
        "turn": turn,
        "active_figure": (turn - 1) % 2,
        "actions_left": 4,
        "water_level": meter[0],
        "meter": list(meter),
        "places": places,
        "figures": [list(f) for f in figures],
        "salvage": [list(h) for h in salvage],
        "lifted": {"C": lifted_c, "D": False, "H": False, "S": False},
        "flood_discards": {"columns": list(cols), "rows": list(rows)},
        "outcome": None,
        "pending": None,
    }


def revealed(g: Game, c: int, r: int) -> str:
    return g.d["places"][r - 1][c - 1]["card"]


def test_R8_worked_example_replays_exactly():
    """R8: an engine set up with the example's layout and flood order replays it exactly,
    state by state."""
    g = Game(LAYOUT, COLUMNS, ROWS, fill=False)
    assert g.d == expected(
        1, grid(". . . . .", ". . . . .", ". . JK . .", ". . . . .", ". . . . ."), [(3, 3), (3, 3)]
    )

    # Anna: up onto 8H, up onto KC, left onto 7C, down onto 10C.
    # Flood 3 of spades and ace of hearts: column 3, row 1, KC is flooded.
    g.do("move:up")
    assert revealed(g, 3, 2) == "8H"
    g.do("move:up")
    assert revealed(g, 3, 1) == "KC"
    g.do("move:left")
    assert revealed(g, 2, 1) == "7C"
    g.do("move:down")
    assert g.d == expected(
        2,
        grid(". 7C KC~ . .", ". 10C 8H . .", ". . JK . .", ". . . . .", ". . . . ."),
        [(2, 2), (3, 3)],
        cols=[3],
        rows=[1],
    )

    # Ben: up onto 8H, up onto KC, shores it up, right onto 7S.
    # Flood 2 and 4: column 2, row 4 is hidden: revealed (9D) and flooded.
    g.do("move:up", "move:up", "shore:here")
    assert g.d["places"][0][2] == {"state": "dry", "card": "KC"}
    g.do("move:right")
    assert g.d == expected(
        3,
        grid(". 7C KC 7S .", ". 10C 8H . .", ". . JK . .", ". 9D~ . . .", ". . . . ."),
        [(2, 2), (4, 1)],
        cols=[3, 2],
        rows=[1, 4],
    )

    # Anna: salvages 7C above her, moves right onto 8H, salvages 10C she came from,
    # moves up onto KC. Flood 5 and 5: the bottom right corner (6S) is flooded.
    g.do("salvage:up")
    assert g.salvage(0) == ["7C"] and g.status(2, 1) == "sea"
    g.do("move:right", "salvage:left")
    assert g.salvage(0) == ["7C", "10C"] and g.status(2, 2) == "sea"
    g.do("move:up")
    assert g.d == expected(
        4,
        grid(". ~ KC 7S .", ". ~ 8H . .", ". . JK . .", ". 9D~ . . .", ". . . . 6S~"),
        [(3, 1), (4, 1)],
        salvage=(["7C", "10C"], []),
        cols=[3, 2, 5],
        rows=[1, 4, 5],
    )

    # Ben: down onto 6D, right onto 10H, down onto KH; salvages 10H above him.
    # Flood ace and 3: column 1, row 3 is flooded (9S).
    g.do("move:down")
    assert revealed(g, 4, 2) == "6D"
    g.do("move:right")
    assert revealed(g, 5, 2) == "10H"
    g.do("move:down")
    assert revealed(g, 5, 3) == "KH"
    g.do("salvage:up")
    assert g.d == expected(
        5,
        grid(". ~ KC 7S .", ". ~ 8H 6D ~", "9S~ . JK . KH", ". 9D~ . . .", ". . . . 6S~"),
        [(3, 1), (5, 3)],
        salvage=(["7C", "10C"], ["10H"]),
        cols=[3, 2, 5, 1],
        rows=[1, 4, 5, 3],
    )

    # Anna lifts the clubs treasure with 7C and 10C, goes over 8H back to the helicopter and
    # on to 7H. Flood 4 and 2: 6D is flooded. That was the fifth flood: both decks are
    # reshuffled and the first ace leaves the meter: still level 1.
    g.do("lift")
    assert g.s.lifted[0] and [code(c) for c in g.s.under_king[0]] == ["7C", "10C"]
    g.do("move:down", "move:down", "move:down")
    assert g.d == expected(
        6,
        grid(". ~ KC 7S .", ". ~ 8H 6D~ ~", "9S~ . JK . KH", ". 9D~ 7H . .", ". . . . 6S~"),
        [(3, 4), (5, 3)],
        salvage=([], ["10H"]),
        lifted_c=True,
        meter=FULL_METER[1:],
    )
    assert sorted(g.s.col_deck) == sorted(g.s.row_deck) == [1, 2, 3, 4, 5]
    assert [code(c) for c in g.s.box] == [] and g.s.remaining == [3, 5, 5, 5]


def test_R8_worked_example_water_rises_to_2_after_five_more_floods():
    """R8: "... weiter Wasserstand 1, aber nach fünf weiteren Fluten steigt das Wasser auf 2"
    (the second pass is a harmless one chosen here; the rulebook does not name it)."""
    g = Game(LAYOUT, COLUMNS + [1, 2, 3, 4, 5], ROWS + [1, 5, 2, 3, 4], fill=False)
    g.do("move:up", "move:up", "move:left", "move:down")
    g.do("move:up", "move:up", "shore:here", "move:right")
    g.do("salvage:up", "move:right", "salvage:left", "move:up")
    g.do("move:down", "move:right", "move:down", "salvage:up")
    g.do("lift", "move:down", "move:down", "move:down")
    assert g.s.water_level == 1 and g.s.meter == FULL_METER[1:]
    for k in range(4):
        g.do("end_turn")
        assert g.s.water_level == 1 and len(g.d["flood_discards"]["columns"]) == k + 1
    g.do("end_turn")
    assert g.s.meter == FULL_METER[2:] and g.s.water_level == 2 and g.s.outcome is None
    assert g.s.turn == 11
