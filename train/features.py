"""A small feature extractor: convolutions over the 5 x 5 board planes plus the vector.

The observation (``inselflucht_env.observation``) is flat; its first ``BOARD_SIZE`` entries
are ``N_PLANES`` planes over the grid. Convolutions see neighbourhoods (adjacent floods,
reachable places) that a plain MLP has to learn from scratch.
"""

from __future__ import annotations

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from inselflucht_env.observation import BOARD_SIZE, N_PLANES


class BoardCNN(BaseFeaturesExtractor):
    """Two 3x3 convolutions over the board planes, concatenated with the vector part."""

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
