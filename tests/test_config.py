"""Training config (train/config.py): scientific notation, ambiguous overrides, early refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from train import config as cfg


def load_text(tmp_path: Path, text: str, overrides: list[str] = ()) -> dict:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return cfg.load(path, overrides)


def rejects(tmp_path: Path, text: str, message: str, overrides: list[str] = ()) -> None:
    with pytest.raises(cfg.ConfigError, match=re.escape(message)):
        load_text(tmp_path, text, overrides)


# 1. Scientific notation ------------------------------------------------------------------


def test_scientific_notation_in_a_file_gives_floats(tmp_path):
    conf = load_text(tmp_path, "ppo: {learning_rate: 3e-5}\npretrain: {learning_rate: 1e-4}")
    assert conf["ppo"]["learning_rate"] == 3e-5 and conf["pretrain"]["learning_rate"] == 1e-4


def test_scientific_notation_in_an_override_gives_a_float(tmp_path):
    conf = load_text(tmp_path, "{}", ["ppo.learning_rate=1e-4"])
    assert conf["ppo"]["learning_rate"] == 1e-4


def test_whole_scientific_number_for_an_int_key_gives_an_int(tmp_path):
    conf = load_text(tmp_path, "training: {total_timesteps: 1e5}", ["n_steps=1.28e2"])
    assert conf["training"]["total_timesteps"] == 100_000
    assert type(conf["training"]["total_timesteps"]) is int
    assert conf["ppo"]["n_steps"] == 128 and type(conf["ppo"]["n_steps"]) is int


def test_whole_scientific_number_in_a_curriculum_stage_gives_an_int(tmp_path):
    conf = load_text(tmp_path, "curriculum: {stages: [{until: 1e6, meter: leicht}]}")
    assert conf["curriculum"]["stages"] == [{"until": 1_000_000, "meter": "leicht"}]
    assert type(conf["curriculum"]["stages"][0]["until"]) is int


def test_fractional_number_for_an_int_key_is_rejected(tmp_path):
    rejects(
        tmp_path,
        "training: {total_timesteps: 1.5e0}",
        "training.total_timesteps=1.5 must be a whole number",
    )
    rejects(
        tmp_path,
        "{}",
        "training.total_timesteps=1.5 must be a whole number",
        ["training.total_timesteps=1.5e0"],
    )


def test_plain_integers_and_quoted_numbers_keep_their_types(tmp_path):
    conf = load_text(tmp_path, "training: {seed: 7}\noutput: {name: '1e5'}")
    assert conf["training"]["seed"] == 7 and type(conf["training"]["seed"]) is int
    assert conf["output"]["name"] == "1e5"


# 2. Ambiguous section-less overrides -----------------------------------------------------


@pytest.mark.parametrize("key", ["learning_rate", "batch_size"])
def test_section_less_override_of_a_key_in_two_sections_is_ambiguous(tmp_path, key):
    rejects(
        tmp_path, "{}", f"--set {key} is ambiguous: use ppo.{key} or pretrain.{key}", [f"{key}=1"]
    )


def test_section_less_override_of_a_unique_key_still_works(tmp_path):
    conf = load_text(tmp_path, "{}", ["total_timesteps=1234", "dagger_rounds=2"])
    assert conf["training"]["total_timesteps"] == 1234 and conf["pretrain"]["dagger_rounds"] == 2


def test_override_with_a_section_picks_that_section(tmp_path):
    conf = load_text(tmp_path, "{}", ["pretrain.batch_size=64", "ppo.batch_size=128"])
    assert conf["pretrain"]["batch_size"] == 64 and conf["ppo"]["batch_size"] == 128


def test_bad_override_names_the_override(tmp_path):
    rejects(tmp_path, "{}", "--set n_envs=0: training.n_envs=0 must be > 0", ["n_envs=0"])
    rejects(tmp_path, "{}", "--set ppo.lr=1: unknown key ppo.lr; known keys in 'ppo'", ["ppo.lr=1"])


# 3. Refused up front ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "# only a comment\n", "null", "~\n"])
def test_empty_config_file_is_rejected(tmp_path, text):
    rejects(tmp_path, text, "the config is empty")


@pytest.mark.parametrize(
    "text, key",
    [
        ("env: {meter: [true, 2]}", "env.meter"),
        ("policy: {net_arch: [64, true]}", "policy.net_arch"),
        ("curriculum: {stages: [{until: true, meter: leicht}]}", "curriculum.stages"),
        ("curriculum: {stages: [{until: 10, meter: [1, true]}]}", "curriculum.stages"),
        ("training: {total_timesteps: true}", "training.total_timesteps"),
        ("env: {players: true}", "env.players"),
    ],
)
def test_booleans_are_not_integers(tmp_path, text, key):
    rejects(tmp_path, text, key)


@pytest.mark.parametrize("name", ["../../../tmp/x", "/tmp/x", "a/b", "a\\b", "", " ", ".", ".."])
def test_run_name_must_be_a_plain_folder_name(tmp_path, name):
    rejects(tmp_path, f"output: {{name: {name!r}}}", "output.name=")
    rejects(tmp_path, "{}", "must be a plain folder name", [f"output.name={name!r}"])


# 4. Messages name the key and what it allows ---------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "env: {reward: 1}",
            "env.reward=1 must be of type str (allowed: one of ['win', 'shaped'])",
        ),
        ("training: {n_envs: two}", "training.n_envs='two' must be of type int (allowed: > 0)"),
        ("training: {seed: -1}", "training.seed=-1 must be within [0, 2**32 - 1]"),
        ("ppo: {learning_rate: .inf}", "ppo.learning_rate=inf must be > 0 and finite"),
        ("ppo: 5", "section 'ppo' must be a mapping of its keys ['batch_size',"),
        (
            "ppo: {batch_size: 4096}",
            (
                "ppo.batch_size=4096 must not exceed the rollout size "
                "ppo.n_steps * training.n_envs = 256 * 8 = 2048"
            ),
        ),
        (
            "curriculum: {stages: [{until: 9, meter: leicht}, {until: 3, meter: schwer}]}",
            (
                "curriculum.stages=[{'until': 9, 'meter': 'leicht'}, "
                "{'until': 3, 'meter': 'schwer'}] has a bad stage 1: 'until'=3 must be greater "
                "than the previous stage's 9"
            ),
        ),
    ],
)
def test_error_names_the_key_and_what_is_allowed(tmp_path, text, message):
    rejects(tmp_path, text, message)


def test_unknown_section_less_override_lists_the_known_keys(tmp_path):
    rejects(tmp_path, "{}", "--set nonsense=1: unknown key 'nonsense'; known keys", ["nonsense=1"])


def test_unreadable_config_file_is_a_config_error(tmp_path):
    with pytest.raises(cfg.ConfigError, match="cannot be read"):
        cfg.load(tmp_path)  # a folder, not a file
