"""The configuration of expert iteration (``train.expert_iteration``), validated up front.

Its own sections, read and checked by ``train.config.Schema`` like the PPO config: every
key is known and typed, an unknown key or a bad value is an error naming it before
anything runs, and ``--set section.key=value`` overrides parse as YAML (the section may be
left out where only one section has the key).

``schedule.changes`` changes keys from a given iteration on: ``[{from: 6, set:
{train.learning_rate: 3e-4}}, ...]`` (``at_iteration``). ``--resume RUN --set key=value``
of such a key records a change from the next iteration on in the run's ``config.yaml``
(``resumed``), so a run's config always holds its whole recipe, and a config with that
schedule reproduces the resumed run.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from train.config import (
    Config,
    ConfigError,
    Key,
    Schema,
    choice,
    folder_name,
    fraction,
    meter,
    net_arch,
    non_negative,
    ordered_entries,
    positive,
    positive_finite,
    seed_range,
    with_overrides,
)

__all__ = [
    "SCHEMA",
    "SCHEDULABLE",
    "ConfigError",
    "Key",
    "apply_overrides",
    "at_iteration",
    "defaults",
    "load",
    "resumed",
    "validate",
]

# What a schedule may change: not the game, the network, the seed, the processes or the
# run's length and folder, which one run keeps from start to end, nor the warm start's own
# keys (iteration 0, before any change).
FIXED = {
    "env": "*",
    "network": "*",
    "output": "*",
    "schedule": "*",
    "warm_start": ("init", "games", "epochs"),
    "self_play": ("workers",),
    "train": ("iterations", "seed", "torch_threads"),
}
_CHANGE = "{from: iteration >= 1, set: {section.key: value, ...}}"


def _change_problem(i: int, change: Any, previous: int) -> str | None:
    """What is wrong with the shape of change ``i`` (its values are checked later)."""
    if not isinstance(change, dict) or set(change) != {"from", "set"}:
        return f"has a bad change {i} ({change!r}): each change must be {_CHANGE}"
    start, values = change["from"], change["set"]
    if isinstance(start, bool) or not isinstance(start, int) or start <= previous:
        return (
            f"has a bad change {i}: 'from'={start!r} must be a whole iteration number "
            f"greater than {previous} (changes run in order; iteration 0 is the config itself)"
        )
    if not isinstance(values, dict) or not values:
        return f"has a bad change {i}: 'set' must be a non-empty mapping, {_CHANGE}"
    for path in values:
        if path not in SCHEDULABLE:
            return (
                f"has a bad change {i}: {path!r} cannot be scheduled; schedulable keys: "
                f"{sorted(SCHEDULABLE)}"
            )
    return None


_changes = ordered_entries("changes", _CHANGE, "from", _change_problem)

SCHEMA: dict[str, dict[str, Key]] = {
    "env": {
        "players": Key((int,), 4, "players 1-4 (1 = solo with two figures)", choice(1, 2, 3, 4)),
        "taucher": Key((bool,), False, "variant Taucher: swimming costs 1 action (R7.1)"),
        "short_game": Key((bool,), False, "variant Kurzes Spiel (R7.2)"),
        "meter": Key((str, list), "normal", "meter preset or list of levels (R7.3)", meter),
    },
    "network": {
        "features": Key(
            (str,),
            "centred_cnn",
            "centred_cnn (conv over the grid centred on "
            "the deciding figure), board_cnn (over the 5x5 grid) or mlp",
            choice("centred_cnn", "board_cnn", "mlp"),
        ),
        "cnn_channels": Key((int,), 32, "channels of the board convolutions", positive),
        "cnn_layers": Key(
            (int,), 2, "board convolutions (each 3x3: one more cell of sight)", positive
        ),
        "features_dim": Key((int,), 128, "size of the extracted features", positive),
        "net_arch": Key((list,), [128, 128], "hidden layers of policy and value heads", net_arch),
        "way_planes": Key(
            (bool,),
            False,
            "add the decider's cheapest ways over the island as input planes "
            "(inselflucht_env.learned.ways; not with features mlp)",
        ),
    },
    "search": {
        "simulations": Key((int,), 100, "simulations per self-play decision", positive),
        "c_puct": Key((float, int), 1.0, "PUCT exploration constant", positive_finite),
        "batch": Key((int,), 8, "simulations per batched forward pass (virtual visits)", positive),
        "dirichlet_alpha": Key(
            (float, int), 0.3, "root Dirichlet noise in self-play (0 = off)", non_negative
        ),
        "noise_fraction": Key((float, int), 0.25, "share of the noise in the root prior", fraction),
        "sample_decisions": Key(
            (int,),
            30,
            "decisions per game (counted from the start) "
            "played by sampling the visit counts; later ones take the most "
            "visited action",
            non_negative,
        ),
        "heuristic_prior": Key(
            (float, int),
            0.0,
            "share of the heuristic's choice in every node's prior (netsearch)",
            fraction,
        ),
        "rollout_depth": Key(
            (int,),
            0,
            "heuristic decisions played on from a leaf before the "
            "value head judges it (0: the value head at the leaf; 300: a "
            "rollout to the end of the game, the outcome judges it)",
            non_negative,
        ),
    },
    "self_play": {
        "games": Key((int,), 200, "self-play games per iteration", positive),
        "expert": Key(
            (str,),
            "netsearch",
            "who labels the decisions: netsearch (the search guided by the last "
            "network: visit counts), heuristic or search (that agent's choice, one-hot, "
            "the plain search with search.simulations rollouts and no clock), or "
            "anchored_search (the network's own choice, one-hot, unless that search "
            "beats it on its paired test: then the better candidate)",
            choice("netsearch", "heuristic", "search", "anchored_search"),
        ),
        "workers": Key((int,), 2, "processes playing games (one torch thread each)", positive),
        "network_moves": Key(
            (float, int),
            0.0,
            "share of decisions where the raw network's "
            "choice is played instead of the search's (still labelled by the "
            "search, as in DAgger: the network learns on its own states)",
            fraction,
        ),
    },
    "warm_start": {
        "init": Key(
            (str,),
            "",
            "checkpoint folder whose weights the network starts from (its network must be "
            "the network section's; e.g. a 2-player network for a 4-player run); empty: "
            "random weights",
        ),
        "games": Key(
            (int,), 2000, "teacher games cloned before the first iteration (0 = off)", non_negative
        ),
        "teacher": Key(
            (str,), "heuristic", "agent whose choices are cloned", choice("heuristic", "search")
        ),
        "epochs": Key((int,), 4, "passes over the teacher data", positive),
        "dagger_iterations": Key(
            (int,),
            0,
            "the first self-play iterations after it are DAgger rounds: the raw network "
            "plays every decision and the teacher labels it (then self_play.expert takes over)",
            non_negative,
        ),
        "dagger_games": Key((int,), 2000, "games per DAgger round", positive),
    },
    "train": {
        "iterations": Key(
            (int,),
            20,
            "last iteration to run (0 = the warm start only; a resumed run continues up to it)",
            non_negative,
        ),
        "steps": Key((int,), 500, "gradient steps per iteration", positive),
        "batch_size": Key((int,), 256, "minibatch size", positive),
        "learning_rate": Key((float, int), 1e-3, "Adam step size", positive_finite),
        "weight_decay": Key((float, int), 1e-4, "AdamW weight decay", non_negative),
        "value_coef": Key((float, int), 1.0, "weight of the value loss", non_negative),
        "value_mix": Key(
            (float, int),
            0.25,
            "value target: (1 - mix) * outcome + mix * the search's root value",
            fraction,
        ),
        "max_grad_norm": Key((float, int), 1.0, "gradient clipping", positive_finite),
        "replay_samples": Key(
            (int,), 200_000, "replay window: the newest decisions kept", positive
        ),
        "seed": Key((int,), 0, "seed of network, training batches and search", seed_range),
        "torch_threads": Key(
            (int,),
            1,
            "torch threads of the training process (more are "
            "slower on a shared 2-core machine: 327 vs 19 ms a step)",
            positive,
        ),
    },
    "eval": {
        "network_games": Key(
            (int,),
            200,
            "games of the raw network per iteration (fixed evaluation seeds)",
            non_negative,
        ),
        "search_games": Key((int,), 40, "games of the guided search per iteration", non_negative),
        "search_simulations": Key((int,), 100, "simulations per decision of that search", positive),
    },
    "output": {
        "run_dir": Key((str,), "runs", "folder that receives one sub-folder per run"),
        "name": Key((str,), "exit_4p_normal", "run name prefix: a plain folder name", folder_name),
    },
    "schedule": {
        "changes": Key(
            (list,),
            [],
            "keys changed from an iteration on, in order: [{from: 6, set: "
            "{train.learning_rate: 3e-4, train.steps: 5000}}, ...]",
            _changes,
        ),
    },
}
SCHEDULABLE = frozenset(
    f"{section}.{name}"
    for section, keys in SCHEMA.items()
    for name in keys
    if FIXED.get(section) != "*" and name not in FIXED.get(section, ())
)


_SCHEMA = Schema(
    SCHEMA,
    file_example="train: {iterations: 20}",
    set_example="iterations=3 or train.learning_rate=1e-4",
)
defaults = _SCHEMA.defaults
apply_overrides = _SCHEMA.apply_overrides


def _checked_schedule(conf: Config, source: str) -> Config:
    """``conf`` with every scheduled value checked (and converted) as that key's own."""
    conf["schedule"]["changes"] = copy.deepcopy(conf["schedule"]["changes"])  # not the caller's
    for i, change in enumerate(conf["schedule"]["changes"]):
        where = f"{source}: schedule change {i} (from iteration {change['from']})"
        for path, value in change["set"].items():
            section, name = path.split(".")
            change["set"][path] = _SCHEMA.check_value(section, name, value, where)
    return conf


def validate(raw: Any, source: str = "config") -> Config:
    """A complete config (defaults filled in) or ``ConfigError`` naming the bad key."""
    return _checked_schedule(_SCHEMA.validate(raw, source), source)


def load(path: str | Path, overrides: Sequence[str] = ()) -> Config:
    """Read, override and validate a YAML config file; errors in the file name it."""
    return _checked_schedule(_SCHEMA.load(path, overrides), with_overrides(path, overrides))


def resumed(stored: Any, overrides: Sequence[str], iteration: int, source: str) -> Config:
    """The config of a run resumed at ``iteration`` (the next one to run), ``--set``
    ``overrides`` applied: a schedulable key's becomes a change from ``iteration`` on (it
    wins over earlier changes of that key, later ones still apply), the others
    (``train.iterations``, ...) replace the stored value. ``stored``: the run's config."""
    parsed = apply_overrides({}, overrides)  # each checked here, errors name the --set
    if "changes" in parsed.get("schedule", {}):
        raise ConfigError(
            "--set schedule.changes on --resume would rewrite the run's past; --set the "
            "keys themselves: they change from the next iteration on"
        )
    conf = validate(stored, source)
    change: dict[str, Any] = {}
    for section, values in parsed.items():
        for name, value in values.items():
            if f"{section}.{name}" in SCHEDULABLE:
                change[f"{section}.{name}"] = value
            else:
                conf[section][name] = value
    if change:
        sets = {c["from"]: c["set"] for c in conf["schedule"]["changes"]}
        sets[iteration] = {**sets.get(iteration, {}), **change}
        conf["schedule"]["changes"] = [{"from": i, "set": sets[i]} for i in sorted(sets)]
    return validate(conf, with_overrides(source, overrides))


def at_iteration(conf: dict[str, Any], iteration: int) -> dict[str, Any]:
    """The config that ``iteration`` runs with: every change from it or earlier applied.
    Also reads an old run's raw ``config.yaml`` (sections or the schedule missing)."""
    out = copy.deepcopy(conf)
    for change in (conf.get("schedule") or {}).get("changes") or []:
        if change["from"] <= iteration:
            for path, value in change["set"].items():
                section, name = path.split(".")
                out.setdefault(section, {})[name] = value
    return out
