"""The configuration of expert iteration (``train.expert_iteration``), validated up front.

Its own sections, read and checked by ``train.config.Schema`` like the PPO config: every
key is known and typed, an unknown key or a bad value is an error naming it before
anything runs, and ``--set section.key=value`` overrides parse as YAML (the section may be
left out where only one section has the key).
"""

from __future__ import annotations

from train.config import (
    ConfigError,
    Key,
    Schema,
    choice,
    folder_name,
    fraction,
    meter,
    net_arch,
    non_negative,
    positive,
    positive_finite,
    seed_range,
)

__all__ = ["SCHEMA", "ConfigError", "Key", "apply_overrides", "defaults", "load", "validate"]

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
        "features_dim": Key((int,), 128, "size of the extracted features", positive),
        "net_arch": Key((list,), [128, 128], "hidden layers of policy and value heads", net_arch),
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
            "the plain search with search.simulations rollouts and no clock)",
            choice("netsearch", "heuristic", "search"),
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
}


_SCHEMA = Schema(
    SCHEMA,
    file_example="train: {iterations: 20}",
    set_example="iterations=3 or train.learning_rate=1e-4",
)
defaults = _SCHEMA.defaults
validate = _SCHEMA.validate
apply_overrides = _SCHEMA.apply_overrides
load = _SCHEMA.load
