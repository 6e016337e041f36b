"""The policy-value network every learned Inselflucht policy uses, rebuilt from plain data.

One architecture serves MaskablePPO (``train.train``) and expert iteration
(``train.expert_iteration``): sb3-contrib's ``MaskableActorCriticPolicy`` (a masked policy
over the 36 actions and a value head) over an optional ``BoardCNN`` feature extractor. A
checkpoint stores only a ``NetworkSpec`` (JSON) and the weights (safetensors), never a
pickled class, so loading one can run no code from the file.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from ..actions import N_ACTIONS
from ..observation import BOARD_SIZE, N_PLANES

FEATURES = ("mlp", "board_cnn")
VALUE_KINDS = ("return", "win_probability")


class BoardCNN(BaseFeaturesExtractor):
    """Two 3x3 convolutions over the board planes, concatenated with the vector part.

    The observation (``inselflucht_env.observation``) is flat; its first ``BOARD_SIZE``
    entries are ``N_PLANES`` planes over the grid. Convolutions see neighbourhoods (adjacent
    floods, reachable places) that a plain MLP has to learn from scratch.
    """

    def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 256,
                 cnn_channels: int = 32):
        super().__init__(observation_space, features_dim)
        vector_size = observation_space.shape[0] - BOARD_SIZE
        self.board = nn.Sequential(
            nn.Conv2d(N_PLANES, cnn_channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(cnn_channels, cnn_channels, 3, padding=1), nn.ReLU(),
            nn.Flatten(),
        )
        self.head = nn.Sequential(
            nn.Linear(cnn_channels * 25 + vector_size, features_dim), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        board = observations[:, :BOARD_SIZE].reshape(-1, N_PLANES, 5, 5)
        vector = observations[:, BOARD_SIZE:]
        return self.head(torch.cat([self.board(board), vector], dim=1))


@dataclass(frozen=True)
class NetworkSpec:
    """Everything needed to rebuild a network: sizes and layer choices, no code.

    ``value`` says what the value head was trained on: ``"return"`` (PPO's discounted
    return of its training reward) or ``"win_probability"`` (expert iteration: the team's
    chance to win from the deciding seat, 0..1).
    """

    observation_size: int
    features: str = "board_cnn"
    cnn_channels: int = 32
    features_dim: int = 256
    net_arch: tuple[int, ...] = (256, 256)
    value: str = "return"

    def __post_init__(self) -> None:
        if self.features not in FEATURES:
            raise ValueError(f"network features {self.features!r}: expected one of {FEATURES}")
        if self.value not in VALUE_KINDS:
            raise ValueError(f"network value {self.value!r}: expected one of {VALUE_KINDS}")
        sizes = (self.observation_size, self.cnn_channels, self.features_dim, *self.net_arch)
        if not self.net_arch or any(not isinstance(s, int) or isinstance(s, bool) or s <= 0
                                    for s in sizes):
            raise ValueError(f"network sizes must be positive integers: {self}")

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "net_arch": list(self.net_arch)}

    @classmethod
    def from_json(cls, data: Any) -> NetworkSpec:
        """A spec from ``to_json`` output; ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"network spec must be an object, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"network spec has unknown keys {sorted(unknown)}")
        if "observation_size" not in data:
            raise ValueError("network spec has no 'observation_size'")
        arch = data.get("net_arch", cls.net_arch)
        if not isinstance(arch, (list, tuple)):
            raise ValueError(f"network net_arch must be a list, not {arch!r}")
        return cls(**{**data, "net_arch": tuple(arch)})


def _constant_schedule(_: float) -> float:
    return 0.0  # the optimiser is the trainer's business; a loaded policy only plays


def policy_kwargs(spec: NetworkSpec) -> dict[str, Any]:
    """The ``policy_kwargs`` that make SB3 build exactly ``spec``'s network."""
    kwargs: dict[str, Any] = {"net_arch": list(spec.net_arch)}
    if spec.features == "board_cnn":
        kwargs.update(features_extractor_class=BoardCNN, features_extractor_kwargs={
            "features_dim": spec.features_dim, "cnn_channels": spec.cnn_channels})
    return kwargs


def observation_space(size: int) -> gym.spaces.Box:
    return gym.spaces.Box(0.0, 1.0, (size,), np.float32)


def policy_value(network: MaskableActorCriticPolicy,
                 observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The unmasked action logits ``(n, 36)`` and value-head outputs ``(n,)`` of a batch.

    One forward pass through the shared extractor; differentiable, so training
    (``train.expert_iteration``) and playing (``policy.Policy.evaluate``) use the same path.
    """
    if not network.share_features_extractor:
        raise ValueError("networks with separate extractors are not supported")
    features = network.extract_features(observations, network.pi_features_extractor)
    latent_pi, latent_vf = network.mlp_extractor(features)
    return network.action_net(latent_pi), network.value_net(latent_vf).squeeze(-1)


def build_policy(spec: NetworkSpec) -> MaskableActorCriticPolicy:
    """A freshly initialised network for ``spec`` (in evaluation mode, on the CPU)."""
    policy = MaskableActorCriticPolicy(observation_space(spec.observation_size),
                                       gym.spaces.Discrete(N_ACTIONS), _constant_schedule,
                                       **policy_kwargs(spec))
    policy.set_training_mode(False)
    return policy
