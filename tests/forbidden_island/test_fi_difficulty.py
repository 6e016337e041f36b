"""The Forbidden Island difficulty report: every cell of players x difficulty x roles played
on the same seeds, the search paired with the heuristic."""

import json

from train import difficulty_forbidden_island as D


def test_the_report_covers_every_cell_and_pairs_the_search(tmp_path):
    out = tmp_path / "fi.md"
    D.main(["--games", "2", "--search-games", "1", "--simulations", "4", "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    cells = len(D.PLAYERS) * len(D.DIFFICULTIES)
    assert len(data["agents"]["heuristic"]) == len(data["agents"]["novice"]) == 3 * cells
    assert set(data["agents"]["search"]) == {
        D.cell_key(p, d, "random") for p in D.PLAYERS for d in D.DIFFICULTIES
    }
    for cell in data["agents"]["heuristic"].values():
        assert cell["episodes"] == 2 and len(cell["outcomes"]) == 2
        assert set(cell["outcomes"]) <= set(D.LOSS_CODES.values())
    text = out.read_text()
    assert "## Search against the heuristic, paired deals" in text
    assert "| 2p/legendary/random | 1 |" in text
