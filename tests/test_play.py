"""Human play in the terminal, driven through its input streams."""

from __future__ import annotations

import io
import re

import pytest
from conftest import ESCAPE_OPTIONS

from inselflucht_env.cli import play as P
from inselflucht_env.games.inselflucht.rules.actions import action_index
from inselflucht_env.replay import Replay, replay


class RandomStandIn:
    def act(self, state, rng):
        return int(rng.choice(state.legal_actions()))


class EndTurn:
    def act(self, state, rng):
        return action_index("end_turn")


@pytest.fixture
def stand_in(monkeypatch):
    """Teammates without the real agents: main() builds random stand-ins."""
    made = []

    def fake(spec, figures):
        made.append((spec, list(figures)))
        return {f: RandomStandIn() for f in figures}

    monkeypatch.setattr(P, "_make_agents", fake)
    return made


def run_main(argv, lines, **kw):
    out = io.StringIO()
    code = P.main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out, **kw)
    return code, out.getvalue()


def test_bad_input_gets_a_hint_and_the_state_stays(stand_in, tmp_path):
    path = tmp_path / "r.json"
    code, text = run_main(
        ["--players", "2", "--seed", "3", "--no-colour", "--save-replay", str(path)],
        ["", "xyz", "99", "-1", "swim:up", "move", "take", "?", "board", "quit"],
    )
    assert code == 0
    assert stand_in == [("heuristic", [1])]
    assert "Nothing typed" in text
    assert "Unknown action 'xyz'" in text
    assert "There is no action 99" in text and "There is no action -1" in text
    assert "'swim:up' is not legal now" in text
    assert "'move' could be move:up, move:down, move:left, move:right" in text
    assert "No 'take' action is legal now" in text
    assert "Legal actions:" in text and " 22  end_turn" in text
    assert text.count("INSELFLUCHT   turn 1") == 2  # the board, then 'board' again
    assert "Game stopped (you quit). The deal was seed 3." in text
    assert "\x1b[" not in text
    rep = Replay.load(path)
    assert rep.actions == [] and rep.seed == 3 and rep.outcome is None  # nothing was played


def test_actions_by_number_name_prefix_and_spaces(stand_in):
    code, text = run_main(["--seed", "3", "--no-colour"], ["1", "move up", "END", "quit"])
    assert code == 0
    moves = re.findall(r"You \(figure 0\): (\S+)", text)
    assert moves == ["move:down", "move:up", "end_turn"]
    assert re.search(r"Figure 1 \(heuristic\): \S+", text)  # teammate moves by name
    assert "--- turn 2: figure 1 (heuristic) plays" in text


def test_end_of_input_exits_cleanly(stand_in, tmp_path):
    code, text = run_main(
        ["--seed", "5", "--no-colour", "--save-replay", str(tmp_path / "e.json")], ["0"]
    )
    assert code == 0 and "Game stopped (end of input)" in text
    rep = Replay.load(tmp_path / "e.json")
    assert rep.actions[0] == "move:up" and replay(rep).outcome is None


def test_a_whole_game_to_its_end_and_its_replay(stand_in, tmp_path):
    path = tmp_path / "full.json"
    code, text = run_main(
        ["--players", "3", "--seed", "11", "--no-colour", "--save-replay", str(path)], ["end"] * 200
    )
    assert code == 0
    rep = Replay.load(path)
    assert rep.outcome is not None and rep.outcome != "win"
    assert "LOST" in text and "seed 11)" in text
    assert replay(rep).outcome == rep.outcome
    assert rep.meta["source"] == "play" and rep.meta["humans"] == [0]


def test_same_seed_same_game(stand_in):
    lines = ["move:up", "end", "end", "end", "quit"]
    _, a = run_main(["--seed", "42", "--no-colour"], lines)
    _, b = run_main(["--seed", "42", "--no-colour"], lines)
    assert a == b
    _, c = run_main(["--seed", "43", "--no-colour"], lines)
    assert c != a


def test_colour_output_and_random_seed_is_printed(stand_in):
    _, text = run_main([], ["quit"])
    assert "\x1b[" in text  # colour by default
    seed = int(re.search(r"Replay this deal with --seed (\d+)", text).group(1))
    _, again = run_main(["--seed", str(seed)], ["quit"])
    assert again == text


def test_escape_is_asked_of_the_human_in_the_teammates_flood_phase():
    out = io.StringIO()
    lines = ["move:up", "end", "end", "end", "escape:xx", "escape:down", "quit"]
    console = P.Console(io.StringIO("\n".join(lines) + "\n"), out)
    outcome = P.play_game(
        {"players": 2},
        humans=[1],
        agents={0: EndTurn()},
        seed=0,
        options=ESCAPE_OPTIONS,
        console=console,
        colour=False,
        agent_names={0: "scripted"},
    )
    text = out.getvalue()
    assert outcome is None
    assert "Figure 0 (scripted): end_turn" in text
    assert "figure 1 must escape" in text  # the board says who decides
    block = text[text.index("figure 1 must escape") :]
    assert "escape:down-right" in block and "Unknown action 'escape:xx'" in block
    assert "You (figure 1): escape:down" in block
    assert "sank" in text


def test_monkeypatched_input(monkeypatch, stand_in):
    feed = iter(["2", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(feed))
    out = io.StringIO()
    assert P.main(["--seed", "1", "--no-colour"], stdout=out) == 0
    assert "You (figure 0): move:left" in out.getvalue()


def test_solo_runs_both_figures_without_teammates(stand_in):
    code, text = run_main(["--players", "1", "--seed", "2", "--no-colour"], ["end", "end", "quit"])
    assert code == 0 and stand_in == []
    assert "figure 0: you, figure 1: you" in text
    assert "You (figure 1): end_turn" in text


def test_bad_arguments(stand_in, capsys):
    for argv in (
        ["--players", "5"],
        ["--players", "2", "--human-figure", "3"],
        ["--meter", "wet"],
        ["--human-figure", "x"],
    ):
        with pytest.raises(SystemExit) as err:
            P.main(argv, stdin=io.StringIO(), stdout=io.StringIO())
        assert err.value.code == 2
    assert "error" in capsys.readouterr().err


def test_human_figure_choice(stand_in):
    code, text = run_main(
        [
            "--players",
            "3",
            "--human-figure",
            "1",
            "--seed",
            "4",
            "--no-colour",
            "--teammate",
            "random",
        ],
        ["quit"],
    )
    assert code == 0 and stand_in == [("random", [0, 2])]
    assert "Figure 0 (random):" in text and "Figure 1, your decision" in text


def test_parse_choice_unit():
    legal = [0, 1, 3, 22]
    assert P.parse_choice("3", legal) == (3, "")
    assert P.parse_choice(" move:RIGHT ", legal)[0] == 3
    assert P.parse_choice("move  right", legal)[0] == 3
    assert P.parse_choice("end turn", legal)[0] == 22
    assert P.parse_choice("e", legal)[0] == 22
    assert P.parse_choice("move:d", legal)[0] == 1
    for text in ("2", "move:left", "move:", "36", "fly", "", "1.5"):
        action, hint = P.parse_choice(text, legal)
        assert action is None and hint, text


def test_real_teammate_agents():
    out = io.StringIO()
    code = P.main(
        ["--seed", "7", "--no-colour", "--teammate", "heuristic"],
        stdin=io.StringIO("end\nend\nquit\n"),
        stdout=out,
    )
    assert code == 0 and "Figure 1 (heuristic):" in out.getvalue()
    code = P.main(
        ["--seed", "7", "--teammate", "no-such-agent.zip"],
        stdin=io.StringIO("quit\n"),
        stdout=io.StringIO(),
    )
    assert code == 2


def test_a_failing_teammate_stops_the_game_cleanly(tmp_path):
    class Broken:
        def act(self, state, rng):
            raise RuntimeError("no policy")

    out = io.StringIO()
    path = tmp_path / "b.json"
    outcome = P.play_game(
        {"players": 2},
        humans=[0],
        agents={1: Broken()},
        seed=1,
        console=P.Console(io.StringIO("end\n"), out),
        colour=False,
        save_replay=str(path),
    )
    assert outcome is None
    assert "teammate of figure 1 failed: RuntimeError: no policy" in out.getvalue()
    assert Replay.load(path).actions == ["end_turn"]
