"""Expert iteration (``train.expert_iteration``): config checks, a smoke run that writes
loadable safe checkpoints, and an exact resume."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml
from conftest import midgame
from safetensors.numpy import load_file

from inselflucht_env.agents import make_agent
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE, encode_observation
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State
from inselflucht_env.learned import load_policy, read_metadata
from inselflucht_env.learned.checkpoint import load_network
from inselflucht_env.learned.network import policy_value
from train import exit_config
from train.expert_iteration import (
    OBS_SCALE,
    held_out_losses,
    load_replay,
    main,
    network_spec,
    self_play,
)

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
SMOKE = str(CONFIGS / "exit_smoke.yaml")


def test_exit_configs_validate_and_fit_the_size_limit():
    from inselflucht_env.learned import build_policy

    for path in CONFIGS.rglob("exit_*.yaml"):
        conf = exit_config.load(path)
        assert set(conf) == set(exit_config.SCHEMA)
        network = build_policy(network_spec(conf["network"]))
        assert 4 * sum(p.numel() for p in network.parameters()) <= 5e6, path


@pytest.mark.parametrize(
    "text, message",
    [
        ("search: {simulatons: 10}", "unknown key search.simulatons"),
        ("optimizer: {}", "unknown section 'optimizer'"),
        ("train: {value_mix: 2}", "train.value_mix=2 must be within"),
        ("self_play: {games: 1.5}", "self_play.games=1.5 must be a whole number"),
        ("env: {players: 5}", "env.players=5"),
        ("warm_start: {teacher: oracle}", "warm_start.teacher"),
        ("schedule: {changes: [{from: 0, set: {train.steps: 2}}]}", "'from'=0 must be"),
        ("schedule: {changes: [{from: 2}]}", "each change must be"),
        ("schedule: {changes: [{from: 2, set: {env.players: 4}}]}", "'env.players' cannot be"),
        ("schedule: {changes: [{from: 2, set: {train.seed: 4}}]}", "'train.seed' cannot be"),
        ("schedule: {changes: [{from: 2, set: {warm_start.init: x}}]}", "'warm_start.init' cannot"),
        (
            "schedule: {changes: [{from: 3, set: {train.steps: 2}}, {from: 2, set: {steps: 3}}]}",
            "greater than 3",
        ),
        (
            "schedule: {changes: [{from: 2, set: {train.learning_rate: -1}}]}",
            r"schedule change 0 \(from iteration 2\): train.learning_rate=-1",
        ),
    ],
)
def test_bad_config_is_a_config_error(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(exit_config.ConfigError, match=message):
        exit_config.load(path)


def test_bad_override_is_a_config_error():
    with pytest.raises(exit_config.ConfigError, match="unknown key"):
        exit_config.load(SMOKE, ["train.itrations=3"])
    with pytest.raises(exit_config.ConfigError, match="batch_size"):
        exit_config.load(SMOKE, ["train.batch_size=0"])
    assert exit_config.load(SMOKE, ["iterations=3", "learning_rate=1e-4"])["train"] == {
        **exit_config.load(SMOKE)["train"],
        "iterations": 3,
        "learning_rate": 1e-4,
    }


def test_the_network_section_names_the_number_of_convolutions():
    """``network.cnn_layers``: 2 unless set (the runs before the key had two)."""
    assert network_spec(exit_config.validate({})["network"]).cnn_layers == 2
    conf = exit_config.validate({"network": {"features": "centred_cnn", "cnn_layers": 4}})
    assert network_spec(conf["network"]).cnn_layers == 4
    with pytest.raises(exit_config.ConfigError, match="cnn_layers"):
        exit_config.validate({"network": {"cnn_layers": 0}})


def test_a_schedule_changes_keys_from_its_iteration_on():
    conf = exit_config.validate(
        {
            "schedule": {
                "changes": [
                    {"from": 2, "set": {"train.learning_rate": 3e-4, "train.steps": 1e3}},
                    {"from": 5, "set": {"train.learning_rate": 1e-4}},
                ]
            }
        }
    )
    rates = [exit_config.at_iteration(conf, i)["train"]["learning_rate"] for i in range(7)]
    assert rates == [1e-3, 1e-3, 3e-4, 3e-4, 3e-4, 1e-4, 1e-4]
    assert exit_config.at_iteration(conf, 6)["train"]["steps"] == 1000  # a whole 1e3 is an int
    assert conf["train"]["learning_rate"] == 1e-3  # the config itself stays as written


def test_a_set_on_resume_becomes_a_change_from_the_next_iteration():
    stored = exit_config.load(CONFIGS / "exit_2p_normal.yaml")
    conf = exit_config.resumed(stored, ["learning_rate=5e-5", "iterations=30"], 19, "run")
    assert conf["train"]["iterations"] == 30  # not schedulable: the stored key changes
    changes = {c["from"]: c["set"] for c in conf["schedule"]["changes"]}
    assert changes[19] == {"train.learning_rate": 5e-5}
    rates = [exit_config.at_iteration(conf, i)["train"]["learning_rate"] for i in (11, 12, 19, 40)]
    assert rates == [3e-4, 1e-4, 5e-5, 5e-5]  # it wins over the earlier change of that key

    conf = exit_config.resumed(stored, ["train.steps=7"], 6, "run")  # joins the change at 6
    assert [c["from"] for c in conf["schedule"]["changes"]] == [4, 6, 12, 30, 47]
    later = exit_config.at_iteration(conf, 12)["train"]
    assert (later["steps"], later["learning_rate"]) == (7, 1e-4)  # the change at 12 still applies
    with pytest.raises(exit_config.ConfigError, match="rewrite the run's past"):
        exit_config.resumed(stored, ["schedule.changes=[]"], 3, "run")


def _weights(folder: Path) -> dict[str, np.ndarray]:
    return load_file(str(folder / "weights.safetensors"))


def test_smoke_run_then_resume_continues_exactly(tmp_path):
    out = f"output.run_dir={tmp_path}"
    run = main(["--config", SMOKE, "--set", out])
    progress = json.loads((run / "progress.json").read_text())
    assert progress["iteration"] == 1 and len(progress["history"]) == 2
    warm, first = progress["history"]
    assert "held_out/policy_loss" not in warm and 0 <= first["held_out/agreement"] <= 1
    for name in ("iterations/iter_0000", "iterations/iter_0001", "best"):
        _, meta = read_metadata(run / name)
        assert meta["network"]["value"] == "win_probability"
        assert (run / name / "weights.safetensors").stat().st_size <= 5e6
    policy = load_policy(run / "iterations" / "iter_0001")
    assert "network" in read_metadata(run / "iterations" / "iter_0001")[1]["evaluation"]
    assert policy.spec.value == "win_probability"
    replay = load_replay(run / progress["state"] / "replay.npz")
    assert replay["obs"].dtype == np.uint8 and len(replay["obs"]) == len(replay["outcome"])
    assert list((run / "tb").iterdir())

    resumed = main(["--resume", str(run), "--set", "train.iterations=2"])
    assert resumed == run
    progress = json.loads((run / "progress.json").read_text())
    assert progress["iteration"] == 2 and [h["iteration"] for h in progress["history"]] == [0, 1, 2]
    assert not (run / "state-0001").exists() and (run / "state-0002").is_dir()

    straight = main(
        [
            "--config",
            SMOKE,
            "--set",
            out,
            "--set",
            "train.iterations=2",
            "--set",
            "output.name=straight",
        ]
    )
    a, b = _weights(run / "iterations/iter_0002"), _weights(straight / "iterations/iter_0002")
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_a_schedule_reproduces_a_resume_with_the_same_overrides(tmp_path):
    """The recipe "iterations 0-1; resume with 5 steps for 2; resume with a smaller step
    size for 3" and one run whose config schedules those changes train the same network,
    bit for bit."""
    out = f"output.run_dir={tmp_path}"
    resumed = main(["--config", SMOKE, "--set", out])
    main(["--resume", str(resumed), *("--set", "iterations=2"), *("--set", "steps=5")])
    main(["--resume", str(resumed), *("--set", "iterations=3"), *("--set", "learning_rate=3e-4")])
    changes = "[{from: 2, set: {train.steps: 5}}, {from: 3, set: {train.learning_rate: 3e-4}}]"
    scheduled = main(
        [
            *("--config", SMOKE, "--set", out, "--set", "output.name=scheduled"),
            *("--set", "train.iterations=3", "--set", f"schedule.changes={changes}"),
        ]
    )
    recorded = yaml.safe_load((resumed / "config.yaml").read_text())["schedule"]["changes"]
    assert recorded == [
        {"from": 2, "set": {"train.steps": 5}},
        {"from": 3, "set": {"train.learning_rate": 3e-4}},
    ]  # the resumed run's config holds its recipe
    history = json.loads((scheduled / "progress.json").read_text())["history"]
    assert [h["iteration"] for h in history] == [0, 1, 2, 3]
    for i in (1, 2, 3):
        a = _weights(resumed / f"iterations/iter_000{i}")
        b = _weights(scheduled / f"iterations/iter_000{i}")
        assert all(np.array_equal(a[k], b[k]) for k in a), i


def test_resume_needs_a_run_folder(tmp_path):
    with pytest.raises(exit_config.ConfigError, match="progress.json"):
        main(["--resume", str(tmp_path)])


def test_an_anchored_search_keeps_the_networks_choice_it_cannot_beat(tmp_path):
    """``self_play.expert: anchored_search``: the label is the network's own choice unless
    the search beats it; with one rollout (after the probe, none left to compare with)
    every label is the network's choice, with more some decisions are overruled."""
    run = main(["--config", SMOKE, "--set", f"output.run_dir={tmp_path}", "--set", "iterations=0"])
    folder = str(run / "iterations" / "iter_0000")
    game = {"players": 2, "meter": "schwer"}
    policy = load_policy(folder)
    agreed = []
    for simulations in (1, 100):
        job = (folder, game, "anchored_search", {"simulations": simulations}, 0, 1.0, 0, [7, 8])
        out = self_play(job)
        samples = out["samples"]
        obs = samples["obs"].astype(np.float32) / OBS_SCALE
        own = [policy.predict_action(o, m) for o, m in zip(obs, samples["mask"], strict=True)]
        labels = samples["target"].argmax(1)
        assert samples["mask"][np.arange(len(labels)), labels].all()
        agreed.append(np.mean(labels == np.array(own)))
        assert out["overruled"] == np.sum(labels != np.array(own))  # counted as it labels
    assert agreed[0] == 1.0 and agreed[1] < 1.0


def test_a_teacher_expert_labels_its_own_choice_one_hot(tmp_path):
    """``self_play.expert: heuristic`` is DAgger with the heuristic as the teacher: every
    sample's target is the heuristic's choice on that very state, and with no search value
    the game's outcome is the value target."""
    run = main(["--config", SMOKE, "--set", f"output.run_dir={tmp_path}", "--set", "iterations=0"])
    folder = str(run / "iterations" / "iter_0000")
    game = {"players": 2, "meter": "schwer"}
    search_kw = {"simulations": 4}
    out = self_play((folder, game, "heuristic", search_kw, 0, 1.0, 0, [7, 8]))
    samples = out["samples"]
    assert out["games"] == 2 and out["searched"] == len(samples["outcome"]) > 0
    targets = samples["target"].astype(np.float32)
    assert np.array_equal(targets.sum(1), np.ones(len(targets))) and set(targets.ravel()) == {0, 1}
    assert np.array_equal(samples["root_value"], samples["outcome"])
    assert samples["mask"][np.arange(len(targets)), targets.argmax(1)].all()

    # the labels are the heuristic's choices: replay the network's moves and ask it again
    heuristic = make_agent("heuristic")
    policy = load_policy(folder)
    config, k = GameConfig.make(**game), 0
    for seed in (7, 8):
        deal_rng, rng = np.random.default_rng(seed), np.random.default_rng(0)
        state = State.new(config, deal_rng)
        while state.outcome is None:
            legal = state.legal_actions()
            if len(legal) > 1:
                obs = np.asarray(encode_observation(state), dtype=np.float32)
                assert np.array_equal(samples["obs"][k], np.rint(obs * OBS_SCALE))
                assert targets[k].argmax() == heuristic.act(state, rng)
                action = policy.predict_action(obs, np.asarray(state.legal_mask()))
                k += 1
            else:
                action = legal[0]
            state.apply(action, deal_rng)
    assert k == len(targets) and samples["obs"].shape[1] == OBSERVATION_SIZE


def test_held_out_losses_judge_the_network_that_played_on_its_new_samples(tmp_path):
    """``held_out/*``: before a round trains, the network that played it is scored on its
    new samples: the mean cross-entropy against the targets, the value error against the
    outcomes (``value_mix`` 0) and how often its own choice is the target's; evenly spaced
    samples when there are more than ``limit``."""
    run = main(["--config", SMOKE, "--set", f"output.run_dir={tmp_path}", "--set", "iterations=0"])
    folder = run / "iterations" / "iter_0000"
    job = (str(folder), {"players": 2}, "heuristic", {"simulations": 4}, 0, 1.0, 0, [3, 4])
    out = self_play(job)
    new, policy = out["samples"], load_policy(folder)
    tr = {"value_mix": 0.0}
    obs = new["obs"].astype(np.float32) / OBS_SCALE
    probs, values = policy.evaluate(obs, new["mask"])
    targets = new["target"].astype(np.float32).argmax(1)
    chosen = probs[np.arange(len(probs)), targets]
    losses = held_out_losses(policy.network, new, tr)
    assert losses["policy_loss"] == pytest.approx(-np.log(chosen).mean(), rel=1e-4)
    assert losses["agreement"] == pytest.approx((probs.argmax(1) == targets).mean())
    assert losses["value_loss"] == pytest.approx(((values - new["outcome"]) ** 2).mean(), rel=1e-4)

    few = held_out_losses(policy.network, new, tr, limit=3)
    spaced = np.linspace(0, len(targets) - 1, 3).astype(int)
    assert few["agreement"] == pytest.approx((probs.argmax(1) == targets)[spaced].mean())


def test_ship_takes_an_expert_iteration_run(tmp_path):
    """``train.ship`` picks among an expert-iteration run's best network, its last iteration
    and the iterations named with ``--iterations``, and ships the choice, reported beside the
    heuristic on the report seeds."""
    from train.ship import main as ship

    run = main(["--config", SMOKE, "--set", f"output.run_dir={tmp_path}"])
    args = ["--name", "exit_smoke", "--episodes", "2", "--select-episodes", "2", "--workers", "1"]
    meta = ship([str(run), *args, "--iterations", "0", "--out", str(tmp_path / "shipped")])
    assert set(meta["evaluation"]["selection"]) == {"best", "iter_0000", "iter_0001"}
    assert meta["evaluation"]["command"].endswith("--iterations 0")
    assert meta["evaluation"]["heuristic_same_seeds"]["episodes"] == 2
    shipped = load_policy(tmp_path / "shipped" / "exit_smoke")
    assert (
        shipped.spec.value == "win_probability"
        and shipped.metadata["trainer"] == "expert_iteration"
    )
    assert not (tmp_path / "shipped" / "exit_smoke" / "optimizer.safetensors").exists()


def test_ship_refuses_a_folder_without_a_run(tmp_path):
    from train.ship import main as ship

    with pytest.raises(SystemExit) as err:
        ship([str(tmp_path), "--name", "x", "--episodes", "1", "--select-episodes", "1"])
    assert err.value.code == 2


def test_ship_refuses_an_iteration_the_run_does_not_have(tmp_path, capsys):
    from train.ship import main as ship

    run = main(["--config", SMOKE, "--set", f"output.run_dir={tmp_path}", "--set", "iterations=0"])
    with pytest.raises(SystemExit) as err:
        ship([str(run), "--name", "x", "--iterations", "7", "--out", str(tmp_path / "shipped")])
    assert err.value.code == 2 and "no iteration 7" in capsys.readouterr().err
    assert not (tmp_path / "shipped").exists()


def test_the_plain_search_as_expert_labels_legal_one_hot_choices(tmp_path):
    run = main(["--config", SMOKE, "--set", f"output.run_dir={tmp_path}", "--set", "iterations=0"])
    folder = str(run / "iterations" / "iter_0000")
    job = (folder, {"players": 2, "meter": "schwer"}, "search", {"simulations": 4}, 0, 0.5, 0, [3])
    samples = self_play(job)["samples"]
    targets = samples["target"].astype(np.float32)
    assert len(targets) > 0 and np.array_equal(targets.sum(1), np.ones(len(targets)))
    assert samples["mask"][np.arange(len(targets)), targets.argmax(1)].all()
    assert np.array_equal(samples["root_value"], samples["outcome"])


def test_warm_start_init_starts_from_that_checkpoints_weights(tmp_path):
    """``warm_start.init`` (e.g. a 2-player network for a 4-player run): iteration 0
    begins from the checkpoint's weights, not from the seed's random ones."""
    out = f"output.run_dir={tmp_path}"
    source = main(["--config", SMOKE, "--set", out, "--set", "iterations=0"])
    init = str(source / "iterations" / "iter_0000")
    run = main(
        [
            *("--config", SMOKE, "--set", out, "--set", "output.name=init"),
            *("--set", "iterations=0", "--set", "warm_start.games=0", "--set", "train.seed=5"),
            *("--set", f"warm_start.init={init}", "--set", "env.players=4"),
        ]
    )
    a, b = _weights(Path(init)), _weights(run / "iterations/iter_0000")
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert exit_config.load(run / "config.yaml")["warm_start"]["init"] == init


def test_warm_start_init_takes_a_ppo_network_whose_value_is_a_win_probability(tmp_path):
    """A PPO network of the win reward with gamma 1 (``ppo_4p_normal_from_best``) estimates
    the win probability: expert iteration starts from it. One of another reward does not."""
    ppo = CONFIGS.parent / "checkpoints" / "ppo_4p_normal_from_best"
    network = ("features=centred_cnn", "cnn_channels=16", "features_dim=256", "net_arch=[256,256]")
    args = [
        *("--config", SMOKE, "--set", f"output.run_dir={tmp_path}", "--set", "iterations=0"),
        *("--set", "warm_start.games=0", "--set", "env.players=4", "--set", "eval.network_games=0"),
        *(arg for key in network for arg in ("--set", f"network.{key}")),
    ]
    run = main([*args, "--set", f"warm_start.init={ppo}"])
    a, b = _weights(ppo), _weights(run / "iterations/iter_0000")
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert load_network(run / "iterations/iter_0000")[1].value == "win_probability"

    shaped = tmp_path / "shaped"
    shaped.mkdir()
    (shaped / "weights.safetensors").write_bytes((ppo / "weights.safetensors").read_bytes())
    meta = json.loads((ppo / "metadata.json").read_text())
    meta["config"]["env"]["reward"] = "shaped"
    (shaped / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(exit_config.ConfigError, match="estimates 'return' .env.reward 'shaped'"):
        main([*args, "--set", f"warm_start.init={shaped}", "--set", "output.name=refused"])


def test_warm_start_init_grows_a_smaller_network_into_the_configs(tmp_path):
    """A config asking for more than the checkpoint holds (wider layers, way planes) starts
    from that checkpoint grown (``train.grow``): the same choices and values at first."""
    out = f"output.run_dir={tmp_path}"
    cnn = ("--set", "network.features=centred_cnn", "--set", "network.cnn_channels=4")
    source = main(["--config", SMOKE, "--set", out, "--set", "iterations=0", *cnn])
    init = source / "iterations" / "iter_0000"
    run = main(
        [
            *("--config", SMOKE, "--set", out, "--set", "output.name=grown", *cnn),
            *("--set", "iterations=0", "--set", "warm_start.games=0"),
            *("--set", f"warm_start.init={init}", "--set", "network.net_arch=[24]"),
            *("--set", "network.way_planes=true"),
        ]
    )
    before, spec, _ = load_network(init)
    after, grown_spec, _ = load_network(run / "iterations/iter_0000")
    assert grown_spec == replace(spec, net_arch=(24,), way_planes=True)
    obs = torch.as_tensor(np.stack([encode_observation(midgame(seed)) for seed in range(5)]))
    with torch.no_grad():
        for a, b in zip(policy_value(before, obs), policy_value(after, obs), strict=True):
            assert torch.allclose(a, b, atol=1e-5)


@pytest.mark.parametrize(
    "override, message",
    [
        ("network.features_dim=8", "holds a different network"),
        ("warm_start.init=/nonexistent/net", "warm_start.init: checkpoint '/nonexistent/net'"),
    ],
)
def test_a_bad_warm_start_init_is_refused_before_a_run_folder_exists(tmp_path, override, message):
    out = f"output.run_dir={tmp_path}"
    source = main(["--config", SMOKE, "--set", out, "--set", "iterations=0"])
    init = f"warm_start.init={source / 'iterations' / 'iter_0000'}"
    runs = tmp_path / "refused"
    args = ["--config", SMOKE, "--set", f"output.run_dir={runs}", "--set", init]
    with pytest.raises(exit_config.ConfigError, match=message):
        main([*args, "--set", override])
    assert not runs.exists()


def test_way_planes_without_convolutions_are_refused_before_a_run_folder_exists(tmp_path):
    runs = tmp_path / "refused"
    args = [
        "--config",
        SMOKE,
        "--set",
        f"output.run_dir={runs}",
        "--set",
        "network.way_planes=true",
    ]
    with pytest.raises(exit_config.ConfigError, match="way_planes need a convolutional extractor"):
        main(args)  # the smoke config's network is an mlp
    assert not runs.exists()
