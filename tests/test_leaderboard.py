"""The leaderboard index and the README's tables agree with the evaluation files behind them
(``python -m train.leaderboard``)."""

from __future__ import annotations

import json

import pytest

from train import leaderboard as L


def test_index_and_readme_tables_are_generated_from_the_files():
    assert L.main(["--check"]) == 0, "run python -m train.leaderboard"


def test_every_row_names_existing_files_and_a_command_per_file():
    index = json.loads(L.INDEX.read_text())
    roles = {(e["setting"], e["role"]) for e in index["rows"]}
    for name, setting in L.SETTINGS.items():
        for role in setting.roles:
            assert (name, role) in roles, f"{name}: no {role} row"
    for e in index["rows"]:
        assert len(e["files"]) == len(e["commands"]) >= 1
        for f in e["files"]:
            assert (L.ROOT / f).exists(), f


def test_a_table_figure_edited_by_hand_is_caught(tmp_path, monkeypatch):
    readme = L.README.read_text()
    first = next(e for e in json.loads(L.INDEX.read_text())["rows"] if e["wins"] > 0)
    figure = f"{100 * first['win_rate']:.1f}% ({first['wins']:,}/"
    assert figure in readme
    edited = tmp_path / "README.md"
    edited.write_text(readme.replace(figure, "99.9% (" + f"{first['wins']:,}/", 1))
    monkeypatch.setattr(L, "README", edited)
    assert L.main(["--check"]) == 1


def test_a_row_whose_files_are_for_another_setting_is_an_error():
    row = L.Row("4 players, normal", "random", ("random_2p_normal.json",))
    with pytest.raises(ValueError, match="not 4 players, normal"):
        L.row_entry(row)
