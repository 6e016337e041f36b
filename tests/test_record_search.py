"""train.tools.record_search: a guided search's paired result against the plain search, checked
and stored in the shipped network's metadata (issue 11: "plus the guided search's figures")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import tiny_win_network_spec

from inselflucht_env.errors import InputError
from inselflucht_env.learned import build_policy, save_checkpoint
from inselflucht_env.learned.checkpoint import (
    METADATA_FILE,
    WEIGHTS_FILE,
    load_network,
    read_metadata,
    record_result,
)
from train.tools import record_search

GAME = {"players": 2, "meter": "schwer", "taucher": False, "short_game": False}


@pytest.fixture
def net(tmp_path: Path) -> Path:
    spec = tiny_win_network_spec()
    folder = tmp_path / "net"
    save_checkpoint(build_policy(spec), folder, spec, {"config": {"env": dict(GAME)}})
    return folder


def summary(agent: str, outcomes: str, first_seed: int = 0, **kwargs) -> dict:
    """A ``train.evaluate --json --details`` summary: ``outcomes`` is one letter per seed
    (``w`` a win, ``6`` an L6 loss), every game 10 decisions."""
    return {
        "agent": agent,
        **GAME,
        "agent_kwargs": {"simulations": 100, "seconds": 1000.0, **kwargs},
        "per_episode": [
            {
                "seed": first_seed + i,
                "outcome": "win" if o == "w" else f"L{o}",
                "decisions": 10,
                "agent_seconds": 1.0 if agent == "search" else 0.5,
            }
            for i, o in enumerate(outcomes)
        ],
    }


def test_the_record_pairs_the_two_searches_on_their_shared_seeds(net: Path) -> None:
    guided = summary(f"netflat:{net}", "wwww6", rollout_depth=20)
    plain = summary("search", "w66w6w")  # seed 5 was not played by the guided search
    record = record_search.record_guided_search(net, guided, plain)
    paired = record["paired_vs_plain_search"]
    assert (paired["seeds"], paired["only_a"], paired["only_b"]) == (5, 2, 0)
    assert record["guided"]["wins"] == 4 and record["plain_search"]["wins"] == 2
    assert record["plain_search"]["episodes"] == 5
    assert record["guided"]["agent_seconds_per_decision"] == pytest.approx(0.05)
    assert record["plain_search"]["agent_seconds_per_decision"] == pytest.approx(0.1)
    assert record["guided"]["command"] == (
        f"python -m train.evaluate --agent netflat:{net} --players 2 --meter schwer "
        "--rollout-depth 20 --seconds 1000.0 --simulations 100 --episodes 5 --seed 0 "
        "--json --details"
    )
    _, meta = read_metadata(net)
    assert meta["guided_search"]["netflat"] == json.loads(json.dumps(record))


def test_records_of_other_guided_searches_are_kept_and_the_same_kind_is_replaced(
    net: Path,
) -> None:
    plain = summary("search", "w6w6")
    record_search.record_guided_search(net, summary(f"netsearch:{net}", "ww66"), plain)
    record_search.record_guided_search(net, summary(f"netflat:{net}", "w666"), plain)
    record_search.record_guided_search(net, summary(f"netflat:{net}", "wwww"), plain)
    records = read_metadata(net)[1]["guided_search"]
    assert sorted(records) == ["netflat", "netsearch"]
    assert records["netflat"]["guided"]["wins"] == 4


def test_recording_leaves_the_weights_and_the_network_loadable(net: Path) -> None:
    weights = (net / WEIGHTS_FILE).read_bytes()
    record_search.record_guided_search(
        net, summary(f"netflat:{net}", "w6"), summary("search", "66")
    )
    assert (net / WEIGHTS_FILE).read_bytes() == weights
    assert sorted(p.name for p in net.iterdir()) == [METADATA_FILE, WEIGHTS_FILE]
    load_network(net)


@pytest.mark.parametrize(
    ("guided_agent", "plain", "message"),
    [
        ("netflat:exit_2p_normal", summary("search", "ww"), "searched with exit_2p_normal,"),
        ("netflat:elsewhere", summary("search", "ww"), "no checkpoint .elsewhere."),
        ("heuristic", summary("search", "ww"), "not a search guided by a network"),
        (None, summary("heuristic", "ww"), "not the plain search"),
        (None, summary("search", "ww", simulations=50), "same --simulations budget"),
        (None, {**summary("search", "ww"), "meter": "normal"}, "search played meter=.normal."),
        (None, summary("search", "ww", first_seed=2), "share no seeds"),
    ],
)
def test_a_mismatched_pair_is_refused_and_nothing_is_written(
    net: Path, guided_agent: str | None, plain: dict, message: str
) -> None:
    before = (net / METADATA_FILE).read_text()
    guided = summary(guided_agent or f"netflat:{net}", "ww")
    with pytest.raises(InputError, match=message):
        record_search.record_guided_search(net, guided, plain)
    assert (net / METADATA_FILE).read_text() == before


def test_both_sides_must_have_played_the_networks_game(net: Path) -> None:
    guided = {**summary(f"netflat:{net}", "ww"), "players": 4}
    plain = {**summary("search", "ww"), "players": 4}
    with pytest.raises(InputError, match="trained for players=2"):
        record_search.record_guided_search(net, guided, plain)


def test_a_checkpoint_whose_metadata_names_no_game_is_refused(tmp_path: Path) -> None:
    spec = tiny_win_network_spec()
    bare = save_checkpoint(build_policy(spec), tmp_path / "bare", spec, {})
    with pytest.raises(InputError, match="names no game"):
        record_search.record_guided_search(
            bare, summary(f"netflat:{bare}", "w"), summary("search", "w")
        )


def test_shared_seeds_with_gaps_are_refused(net: Path) -> None:
    guided = summary(f"netflat:{net}", "ww6w")
    plain = summary("search", "w6ww")
    plain["per_episode"] = [e for e in plain["per_episode"] if e["seed"] != 1]
    with pytest.raises(InputError, match="have gaps"):
        record_search.record_guided_search(net, guided, plain)


def test_the_formats_own_keys_cannot_be_overwritten(net: Path) -> None:
    with pytest.raises(ValueError, match="belongs to the checkpoint format"):
        record_result(net, "signature", {})


def test_the_command_line_joins_sittings_and_reports_the_time_per_decision(
    net: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "g1": summary(f"netflat:{net}", "ww", rollout_depth=20),
        "g2": summary(f"netflat:{net}", "w6", first_seed=2, rollout_depth=20),
        "s": summary("search", "w6w6"),
    }
    for name, data in files.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    record_search.main(
        [str(net), f"{tmp_path / 'g1.json'}+{tmp_path / 'g2.json'}", str(tmp_path / "s.json")]
    )
    out = capsys.readouterr().out
    assert "on 4 shared seeds (0..3)" in out
    assert "50 ms per decision" in out and "100 ms per decision" in out
    assert read_metadata(net)[1]["guided_search"]["netflat"]["guided"]["wins"] == 3


def test_the_command_line_names_a_file_that_is_not_json(net: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(SystemExit) as exit_info:
        record_search.main([str(net), str(bad), str(bad)])
    assert exit_info.value.code == 2
