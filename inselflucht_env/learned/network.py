"""The policy-value network every learned Inselflucht policy uses, rebuilt from plain data.

One architecture serves MaskablePPO (``train.train``) and expert iteration
(``train.expert_iteration``): sb3-contrib's ``MaskableActorCriticPolicy`` (a masked policy
over the 36 actions and a value head) over an optional ``BoardCNN`` feature extractor
(``features``: ``mlp``, ``board_cnn`` over the grid as it lies, or ``centred_cnn`` over the
grid re-centred on the deciding figure), optionally with the way planes of ``learned.ways``
among its inputs. A checkpoint stores only a ``NetworkSpec`` (JSON) and the weights
(safetensors), never a pickled class, so loading one can run no code from the file.
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

from inselflucht_env.games.inselflucht.observation import BOARD_SIZE, N_PLANES, OBSERVATION_LAYOUT
from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS
from inselflucht_env.games.inselflucht.rules.board import N_PLACES, SIZE
from inselflucht_env.learned.ways import N_WAY_PLANES, way_planes

FEATURES = ("mlp", "board_cnn", "centred_cnn")
_DECIDER_PLANE = OBSERVATION_LAYOUT["figure_seat0"][0] // N_PLACES
_CANVAS = 2 * SIZE - 1  # a 9 x 9 canvas holds the 5 x 5 grid wherever the decider stands


def _centring_index() -> torch.Tensor:
    """``index[p, k]``: the grid place shown at canvas cell k when the decider stands on p,
    or ``N_PLACES`` (an always-empty pad cell) where the canvas lies off the grid."""
    index = torch.full((N_PLACES, _CANVAS * _CANVAS), N_PLACES, dtype=torch.long)
    for p in range(N_PLACES):
        row, col = divmod(p, SIZE)
        for k in range(_CANVAS * _CANVAS):
            r, c = row + k // _CANVAS - (SIZE - 1), col + k % _CANVAS - (SIZE - 1)
            if 0 <= r < SIZE and 0 <= c < SIZE:
                index[p, k] = r * SIZE + c
    return index


VALUE_KINDS = ("return", "win_probability")


def _centred(planes: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """Planes over the grid (n, k, 25) moved onto the canvas (n, k, 81) by a centring index."""
    padded = torch.nn.functional.pad(planes, (0, 1))  # the pad cell N_PLACES is 0
    return torch.gather(padded, 2, index[:, None, :].expand(-1, planes.shape[1], -1))


class BoardCNN(BaseFeaturesExtractor):
    """3x3 convolutions (two by default) over the board planes, then the vector part.

    The observation (``games.inselflucht.observation``) is flat; its first ``BOARD_SIZE`` entries
    are ``N_PLANES`` planes over the grid. Convolutions see neighbourhoods (adjacent
    floods, reachable places) that a plain MLP has to learn from scratch.

    ``centred``: the planes are first moved onto a 9 x 9 canvas whose centre is the deciding
    figure's place (``figure_seat0``), plus one plane marking the cells off the grid. The
    moves, swims, shore-ups and salvages of the decider (R4.2-R4.5) then always concern the
    same cells next to the centre, wherever it stands: the absolute grid makes the network
    learn that for each of the 25 places apart. No parameters: the weights keep their names.

    ``ways``: the ``learned.ways`` planes (the decider's cheapest ways over the island) are
    added after the others, so a network grown from one without them
    (``train.grow.grown``) only gains input channels.
    """

    def __init__(
        self,
        observation_space: gym.spaces.Box,
        features_dim: int = 256,
        cnn_channels: int = 32,
        centred: bool = False,
        cnn_layers: int = 2,
        ways: bool = False,
    ):
        super().__init__(observation_space, features_dim)
        vector_size = observation_space.shape[0] - BOARD_SIZE
        self.centred, self.ways = centred, ways
        planes, cells = (N_PLANES + 1, _CANVAS * _CANVAS) if centred else (N_PLANES, N_PLACES)
        planes += N_WAY_PLANES if ways else 0
        if centred:
            self.register_buffer("centring", _centring_index(), persistent=False)
        layers: list[nn.Module] = []
        for i in range(cnn_layers):
            layers += [nn.Conv2d(planes if i == 0 else cnn_channels, cnn_channels, 3, padding=1)]
            layers += [nn.ReLU()]
        self.board = nn.Sequential(*layers, nn.Flatten())
        self.head = nn.Sequential(
            nn.Linear(cnn_channels * cells + vector_size, features_dim), nn.ReLU()
        )

    def grid(self, observations: torch.Tensor) -> torch.Tensor:
        """The board planes as the convolutions see them: (n, planes, rows, columns)."""
        board = observations[:, :BOARD_SIZE].reshape(-1, N_PLANES, N_PLACES)
        extra = [way_planes(observations)] if self.ways else []
        if not self.centred:
            grid = torch.cat([board, *extra], 1) if extra else board  # no copy on the hot path
            return grid.reshape(observations.shape[0], -1, SIZE, SIZE)
        # a registered buffer, which torch types as Tensor | Module
        centring: torch.Tensor = self.centring  # type: ignore[assignment]
        index = centring[board[:, _DECIDER_PLANE].argmax(1)]  # (n, 81)
        off_grid = (index == N_PLACES).to(board.dtype)[:, None, :]
        planes = [_centred(board, index), off_grid, *(_centred(e, index) for e in extra)]
        return torch.cat(planes, 1).reshape(observations.shape[0], -1, _CANVAS, _CANVAS)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        vector = observations[:, BOARD_SIZE:]
        return self.head(torch.cat([self.board(self.grid(observations)), vector], dim=1))


MAX_WIDTH = 16_384  # sane bounds on a declared network, checked before anything is built
MAX_LAYERS = 32


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
    cnn_layers: int = 2  # these last three: older checkpoints' metadata has no such keys
    way_planes: bool = False
    n_actions: int = N_ACTIONS  # the game's action count (Forbidden Island: 77)

    def __post_init__(self) -> None:
        if self.features not in FEATURES:
            raise ValueError(f"network features {self.features!r}: expected one of {FEATURES}")
        if self.value not in VALUE_KINDS:
            raise ValueError(f"network value {self.value!r}: expected one of {VALUE_KINDS}")
        if not isinstance(self.way_planes, bool):
            raise ValueError(f"network way_planes must be true or false, not {self.way_planes!r}")
        if self.way_planes and self.features == "mlp":
            raise ValueError("network way_planes need a convolutional extractor, not features mlp")
        sizes = (
            self.observation_size,
            self.n_actions,
            self.cnn_channels,
            self.cnn_layers,
            self.features_dim,
            *self.net_arch,
        )
        if not self.net_arch or any(
            not isinstance(s, int) or isinstance(s, bool) or s <= 0 for s in sizes
        ):
            raise ValueError(f"network sizes must be positive integers: {self}")
        if len(self.net_arch) > MAX_LAYERS or self.cnn_layers > MAX_LAYERS:
            raise ValueError(
                f"network has {max(len(self.net_arch), self.cnn_layers)} layers, "
                f"at most {MAX_LAYERS} are accepted"
            )
        if max(sizes) > MAX_WIDTH:
            raise ValueError(f"network size {max(sizes)} is over the bound of {MAX_WIDTH}: {self}")

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
    if spec.features != "mlp":
        kwargs.update(
            features_extractor_class=BoardCNN,
            features_extractor_kwargs={
                "features_dim": spec.features_dim,
                "cnn_channels": spec.cnn_channels,
                "cnn_layers": spec.cnn_layers,
                "centred": spec.features == "centred_cnn",
                "ways": spec.way_planes,
            },
        )
    return kwargs


def observation_space(size: int) -> gym.spaces.Box:
    return gym.spaces.Box(0.0, 1.0, (size,), np.float32)


def policy_value(
    network: MaskableActorCriticPolicy, observations: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The unmasked action logits ``(n, 36)`` and value-head outputs ``(n,)`` of a batch.

    One forward pass through the shared extractor; differentiable, so training
    (``train.expert_iteration``) and playing (``policy.Policy.evaluate``) use the same path.
    """
    if not network.share_features_extractor:
        raise ValueError("networks with separate extractors are not supported")
    features = network.extract_features(observations, network.pi_features_extractor)
    latent_pi, latent_vf = network.mlp_extractor(features)
    return network.action_net(latent_pi), network.value_net(latent_vf).squeeze(-1)


def build_policy(
    spec: NetworkSpec, policy_class: type[MaskableActorCriticPolicy] = MaskableActorCriticPolicy
) -> MaskableActorCriticPolicy:
    """A freshly initialised network for ``spec`` (in evaluation mode, on the CPU)."""
    policy = policy_class(
        observation_space(spec.observation_size),
        gym.spaces.Discrete(spec.n_actions),
        _constant_schedule,
        **policy_kwargs(spec),
    )
    policy.set_training_mode(False)
    return policy


class _SizingPolicy(MaskableActorCriticPolicy):
    """The same modules on PyTorch's ``meta`` device: shapes without memory (SB3 moves its
    MLP to ``self.device``, which must therefore say ``meta`` too)."""

    @property
    def device(self) -> torch.device:
        return torch.device("meta")


def parameter_shapes(spec: NetworkSpec) -> list[tuple[list[str], list[int]]]:
    """Each tensor of ``spec``'s network as (its names, its shape), allocating nothing; a
    tensor two modules share (the actor's and critic's features) has two names."""
    with torch.device("meta"):
        tensors = build_policy(spec, _SizingPolicy).state_dict(keep_vars=True)
    names: dict[int, list[str]] = {}
    for name, tensor in tensors.items():
        names.setdefault(id(tensor), []).append(name)
    return [(group, list(tensors[group[0]].shape)) for group in names.values()]
