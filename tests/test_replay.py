"""Replays: recording, JSON round trips, exact re-runs, corrupt files, GIFs, the CLI."""

from __future__ import annotations

import io
import json

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

import inselflucht_env  # noqa: F401  (registers Inselflucht-v0)
from inselflucht_env.cli.replay import main
from inselflucht_env.replay import (
    Replay,
    ReplayMismatchError,
    ReplayRecorder,
    record_episode,
    replay,
    write_gif,
)

OPTIONS = {
    "layout": ["? 7C KC 7S ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"],
    "column_deck": (3, 1, 2, 4, 5),
    "row_deck": [2, 1, 5, 4, 3],
}


class RandomStandIn:
    """A tiny random agent with the agents' interface: act(state, rng) -> legal action."""

    def act(self, state, rng):
        return int(rng.choice(state.legal_actions()))


def _play(env, seed=None, options=None, steps=None, rng_seed=0):
    """Random legal play on a Gymnasium env; returns the last info."""
    _, info = env.reset(seed=seed, options=options)
    rng = np.random.default_rng(rng_seed)
    k = 0
    while steps is None or k < steps:
        mask = info["action_mask"]
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        k += 1
        if term or trunc:
            break
    return info


def test_recorder_round_trip(tmp_path):
    env = ReplayRecorder(gym.make("Inselflucht-v0", players=3, taucher=True, meter="leicht"))
    info = _play(env, seed=21)
    rep = env.replay
    assert rep.seed == 21 and rep.outcome == info["outcome"] and rep.outcome is not None
    assert rep.env_kwargs["players"] == 3 and rep.env_kwargs["taucher"] is True
    assert rep.env_kwargs["meter"] == [1, 1, 1, 2, 2, 3, 3, 4, 4, 5]
    path = rep.save(tmp_path / "game.json")
    loaded = Replay.load(path)
    assert loaded == rep
    result = replay(loaded)
    assert result.outcome == rep.outcome and result.steps == len(rep.actions)
    assert result.final == env.unwrapped.describe()  # the very same end state
    assert env.replays[-1] == rep and env.episode_count == 1


def test_short_game_and_scenario_options_round_trip(tmp_path):
    env = ReplayRecorder(gym.make("Inselflucht-v0", players=2, short_game=True, reward="shaped"))
    _play(env, seed=4, options=OPTIONS, steps=15)
    rep = env.replay
    assert rep.outcome is None  # unfinished episodes are kept too
    assert rep.options == {
        "layout": OPTIONS["layout"],
        "column_deck": [3, 1, 2, 4, 5],
        "row_deck": [2, 1, 5, 4, 3],
    }
    json.loads(rep.to_json())  # plain JSON
    loaded = Replay.load(rep.save(tmp_path / "s.json"))
    result = replay(loaded)
    assert result.outcome is None and result.final == env.unwrapped.describe()


def test_unseeded_resets_get_a_recorded_seed():
    env = ReplayRecorder(gym.make("Inselflucht-v0", players=2))
    env.reset(seed=8)
    finals = []
    for _ in range(2):
        info = _play(env)  # reset() without a seed: the recorder draws one
        rep = env.replay
        assert isinstance(rep.seed, int)
        assert replay(rep).final == env.unwrapped.describe()
        finals.append((rep.seed, info["outcome"]))
    again = ReplayRecorder(gym.make("Inselflucht-v0", players=2))
    again.reset(seed=8)
    assert [(_play(again) and again.replay.seed) for _ in range(2)] == [s for s, _ in finals]


def test_record_episode_with_agents(tmp_path):
    rep = record_episode(RandomStandIn(), seed=5, players=4, meta={"who": "test"})
    assert rep.outcome is not None and rep.meta == {"who": "test"}
    assert replay(rep).outcome == rep.outcome
    per_figure = record_episode([RandomStandIn()] * 2, seed=5, players=2)
    assert replay(Replay.load(per_figure.save(tmp_path / "p.json"))).outcome == per_figure.outcome


def test_recorder_saves_each_finished_episode(tmp_path):
    env = ReplayRecorder(
        gym.make("Inselflucht-v0", players=2), directory=tmp_path / "eps", meta={"run": 1}
    )
    for seed in (1, 2):
        _play(env, seed=seed)
    files = sorted((tmp_path / "eps").glob("episode-*.json"))
    assert [f.name for f in files] == ["episode-1.json", "episode-2.json"]
    assert Replay.load(files[1]).seed == 2 and Replay.load(files[1]).meta == {"run": 1}


def test_mismatch_is_detected():
    env = ReplayRecorder(gym.make("Inselflucht-v0", players=2))
    _play(env, seed=3, steps=12)
    rep = env.replay
    bad = Replay(**{**rep.__dict__, "actions": rep.actions + ["take_off"]})
    with pytest.raises(ReplayMismatchError, match="step 13 'take_off' is not legal"):
        replay(bad)
    wrong = Replay(**{**rep.__dict__, "outcome": "win"})
    with pytest.raises(ReplayMismatchError, match="recorded outcome 'win'"):
        replay(wrong)
    assert replay(wrong, verify=False).outcome is None


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "not valid JSON"),
        (
            b'{"format": "inselflucht-replay", "format_version": 1, "env": {}, "seed": 1, '
            b'"actions": ["move:up", "fly"]}',
            r"'actions'\[1\] = 'fly' is not an action name",
        ),
        (b"[1, 2]", "expected a JSON object"),
        (b'{"format": "other"}', "not an Inselflucht replay"),
        (b'{"format": "inselflucht-replay", "format_version": 9}', "unsupported format_version"),
        (
            b'{"format": "inselflucht-replay", "format_version": 1, "env": {}, "actions": []}',
            "missing field 'seed'",
        ),
        (
            b'{"format": "inselflucht-replay", "format_version": 1, "env": {"players": 7}, '
            b'"seed": 1, "actions": []}',
            "players=7",
        ),
        (
            b'{"format": "inselflucht-replay", "format_version": 1, "env": {"wind": 1}, '
            b'"seed": 1, "actions": []}',
            "unknown argument",
        ),
        (
            b'{"format": "inselflucht-replay", "format_version": 1, "env": {}, "seed": -4, '
            b'"actions": []}',
            "'seed' must be",
        ),
        (
            b'{"format": "inselflucht-replay", "format_version": 1, "env": {}, "seed": 1, '
            b'"options": {"layout": 5}, "actions": []}',
            "'options'",
        ),
        (
            b'{"format": "inselflucht-replay", "format_version": 1, "env": {}, "seed": 1, '
            b'"actions": [], "outcome": "draw"}',
            "'outcome'",
        ),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
    ],
)
def test_corrupt_files_raise_clear_value_errors(tmp_path, content, message):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as err:
        Replay.load(path)
    assert "broken.json" in str(err.value)


def test_truncated_file(tmp_path):
    rep = record_episode(RandomStandIn(), seed=2, players=2)
    text = rep.to_json()
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2])
    with pytest.raises(ValueError, match="not valid JSON"):
        Replay.load(path)


def test_gif_of_a_game(tmp_path):
    env = ReplayRecorder(gym.make("Inselflucht-v0", players=2))
    _play(env, seed=6, steps=8)
    result = replay(env.replay, render_mode="rgb_array")
    assert len(result.frames) == 9
    path = write_gif(result.frames, tmp_path / "game.gif", fps=4)
    with Image.open(path) as img:
        assert img.format == "GIF" and img.is_animated and img.n_frames >= 2
        h, w, _ = result.frames[0].shape
        assert img.size == (w, h)
        assert img.info.get("duration") == 250


def test_write_gif_rejects_bad_frames(tmp_path):
    with pytest.raises(ValueError, match="at least one frame"):
        write_gif([], tmp_path / "x.gif")
    with pytest.raises(ValueError, match="frame 0 must be a uint8"):
        write_gif([np.zeros((4, 4), np.uint8)], tmp_path / "x.gif")
    with pytest.raises(ValueError, match="frame 1 has shape"):
        write_gif(
            [np.zeros((4, 4, 3), np.uint8), np.zeros((5, 4, 3), np.uint8)], tmp_path / "x.gif"
        )
    frames = [np.full((6, 8, 3), v, np.uint8) for v in (0, 120, 250)]
    with Image.open(write_gif(frames, tmp_path / "ok.gif", fps=2)) as img:
        assert img.n_frames == 3


def test_ansi_frames():
    rep = record_episode(RandomStandIn(), seed=9, players=2, max_steps=5)
    frames = replay(rep, render_mode="ansi").frames
    assert len(frames) == 6 and all("INSELFLUCHT" in f for f in frames)


def test_cli(tmp_path, capsys):
    env = ReplayRecorder(gym.make("Inselflucht-v0", players=2))
    _play(env, seed=7, steps=6)
    path = env.replay.save(tmp_path / "g.json")
    out = io.StringIO()
    assert main([str(path), "--ansi", "--gif", str(tmp_path / "g.gif")], stdout=out) == 0
    text = out.getvalue()
    assert "replayed exactly" in text and "--- step 6: figure" in text
    assert "\x1b[" not in text and "wrote" in text
    with Image.open(tmp_path / "g.gif") as img:
        assert img.n_frames >= 2
    (tmp_path / "bad.json").write_text("{oops")
    assert main([str(tmp_path / "bad.json")], stdout=io.StringIO()) == 1
    assert "error:" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json")], stdout=io.StringIO()) == 1


def test_engine_game_as_played_by_a_harness(tmp_path):
    from inselflucht_env.games.inselflucht.rules.config import GameConfig
    from inselflucht_env.games.inselflucht.rules.engine import State
    from inselflucht_env.games.inselflucht.rules.public import describe

    config = GameConfig.make(players=2, short_game=True)
    rng = np.random.default_rng(17)  # the harness's deal generator, as train/evaluate.py
    state = State.new(config, rng)
    agent_rng = np.random.default_rng(0)
    played = []
    while not state.is_terminal:
        action = RandomStandIn().act(state, agent_rng)
        played.append(action)
        state.apply(action, rng)
    rep = Replay.from_engine_game(
        config, 17, played, outcome=state.outcome, meta={"source": "evaluate"}
    )
    result = replay(Replay.load(rep.save(tmp_path / "h.json")))
    assert result.outcome == state.outcome
    assert result.final["places"] == describe(state)["places"]
