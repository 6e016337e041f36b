"""The difficulty report's strongest team per cell, and learned networks playing its grid."""

import json

import pytest

from inselflucht_env.evaluation.stats import wilson
from train import difficulty as D


def cell(wins: int, games: int) -> dict:
    lo, hi = wilson(wins, games)
    return {"win_rate": wins / games, "ci_low": lo, "ci_high": hi, "episodes": games}


def test_strongest_team_is_ranked_by_the_lower_end_of_its_interval():
    key = D.cell_key(*D.HEADLINE)
    grids = {"heuristic": {key: cell(944, 1000)}, "search": {key: cell(8, 8)}}
    assert D.strongest(grids, key)[0] == "heuristic"  # 8 of 8 is no proof
    grids["search"][key] = cell(488, 500)
    assert D.strongest(grids, key)[0] == "search"


def test_strongest_team_never_is_the_novice_and_needs_a_played_cell():
    key = D.cell_key(4, "normal", "plain")
    grids = {"novice": {key: cell(990, 1000)}, "heuristic": {key: cell(477, 1000)}}
    assert D.strongest(grids, key)[0] == "heuristic"
    assert D.strongest(grids, D.cell_key(3, "normal", "plain")) is None
    best = D.strongest_grid(grids)
    assert list(best) == [key] and best[key]["agent"] == "heuristic"


@pytest.fixture
def base_grid(tmp_path):
    js = tmp_path / "d.json"
    D.main(
        [
            *("--heuristic-games", "1", "--novice-games", "0", "--search-games", "0"),
            *("--workers", "1", "--out", str(tmp_path / "d.md"), "--plot", ""),
            *("--json-out", str(js)),
        ]
    )
    return js


def test_a_network_plays_every_cell_and_is_added_to_an_existing_grid(tmp_path, base_grid):
    md, png = tmp_path / "n.md", tmp_path / "n.png"
    D.main(
        [
            *("--from-json", str(base_grid), "--network", "exit_2p_normal"),
            *("--network-games", "1", "--workers", "1"),
            *("--out", str(md), "--plot", str(png), "--json-out", str(base_grid)),
        ]
    )
    data = json.loads(base_grid.read_text())
    grid = data["agents"]["exit_2p_normal"]
    assert len(grid) == 36 and all(c["episodes"] == 1 for c in grid.values())
    assert [n["agent"] for n in data["meta"]["networks"]] == ["exit_2p_normal"]
    text = md.read_text()
    assert "## Strongest measured team per cell" in text and "How often a strong team wins" in text
    assert "The exit_2p_normal grid (1 games per cell, 1/2/3/4 players" in text
    assert png.stat().st_size > 10_000


@pytest.mark.parametrize(
    "spec, message",
    [("heuristic", "a built-in agent"), ("/no/such/checkpoint", "/no/such/checkpoint")],
)
def test_a_bad_network_is_refused_before_any_game(tmp_path, capsys, spec, message):
    js = tmp_path / "d.json"
    with pytest.raises(SystemExit) as err:
        D.main(["--network", spec, "--json-out", str(js), "--out", str(tmp_path / "d.md")])
    assert err.value.code == 2
    assert message in capsys.readouterr().err
    assert not js.exists()


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--search-seconds", "0", "must be a finite number > 0"),
        ("--search-seconds", "nan", "must be a finite number > 0"),
        ("--search-simulations", "0", "must be >= 1"),
        ("--heuristic-games", "-1", "must be >= 0"),
        ("--workers", "0", "must be >= 1"),
    ],
)
def test_a_bad_number_is_refused_by_name_before_any_game(tmp_path, capsys, flag, value, message):
    js = tmp_path / "d.json"
    with pytest.raises(SystemExit) as err:
        D.main([flag, value, "--json-out", str(js), "--out", str(tmp_path / "d.md")])
    assert err.value.code == 2
    err_text = capsys.readouterr().err
    assert flag in err_text and message in err_text
    assert not js.exists()


def test_a_search_over_a_network_is_not_a_grid_network(tmp_path, capsys):
    with pytest.raises(SystemExit):
        D.main(["--network", "netsearch:exit_2p_normal", "--out", str(tmp_path / "d.md")])
    assert "not a network checkpoint" in capsys.readouterr().err


def test_a_bad_merge_run_is_refused_before_any_game(tmp_path, capsys):
    """A grid costs hours: a --merge-run that cannot be merged fails before it is played."""
    foreign = tmp_path / "run.json"
    foreign.write_text(
        json.dumps(
            {"agent": "search", "players": 2, "meter": "normal", "taucher": False}
            | {"short_game": False, "seed": 500, "episodes": 1, "per_episode": []}
        )
    )
    js = tmp_path / "d.json"
    for path, message in ((foreign, "seeds start at 500"), (tmp_path / "none.json", "none.json")):
        with pytest.raises(SystemExit) as err:
            D.main(["--merge-run", str(path), "--json-out", str(js), "--out", str(tmp_path / "m")])
        assert err.value.code == 2 and message in capsys.readouterr().err
    assert not js.exists()


def test_a_network_added_from_json_goes_back_into_that_file(tmp_path, base_grid):
    copy = tmp_path / "copy.json"
    copy.write_text(base_grid.read_text())
    before = base_grid.read_text()
    D.main(
        [
            *("--from-json", str(copy), "--network", "exit_2p_normal", "--network-games", "1"),
            *("--network-players", "1", "--workers", "1", "--out", str(tmp_path / "c.md")),
            *("--plot", ""),
        ]
    )
    assert list(json.loads(copy.read_text())["agents"]["exit_2p_normal"]) == [
        f"1p/{m}/{v}" for v in D.VARIANTS for m in D.METERS
    ]
    assert base_grid.read_text() == before
