"""A batch of compiled games: the arrays the kernels step, and the Python edges around them.

``Batch`` owns ``states`` (one ``layout`` row per game), one generator state per game
(``rng``), and the template row its games start from (config, meter, scripted decks). The
observation, mask and reward arrays belong to the caller (the vector env, a benchmark):
the kernels write into them, so a step allocates nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from inselflucht_env.compiled import kernels
from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.convert import check_fits, from_row, write_config
from inselflucht_env.games.inselflucht.rules.cards import NO_CARD
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State


def template_row(
    config: GameConfig,
    column_deck: Sequence[Sequence[int]] = (),
    row_deck: Sequence[Sequence[int]] = (),
) -> np.ndarray:
    """The row a game of ``config`` starts from, before its deal: config, meter, scripts
    (each scripted pass given next first, as ``State.new`` takes them)."""
    check_fits(config, max(len(column_deck), len(row_deck)))
    row = np.zeros(L.STATE_SIZE, dtype=np.int32)
    write_config(row, config)
    row[L.METER : L.METER + len(config.meter)] = config.meter
    row[L.METER_LEN] = len(config.meter)
    for at, length_at, decks in (
        (L.SCRIPT_COL, L.SCRIPT_COL_LEN, column_deck),
        (L.SCRIPT_ROW, L.SCRIPT_ROW_LEN, row_deck),
    ):
        for k, block in enumerate(decks):
            row[at + k * L.PASS : at + (k + 1) * L.PASS] = list(reversed(block))
        row[length_at] = len(decks)
    return row


def seed_states(seed: int | None, n: int) -> np.ndarray:
    """``n`` independent 64-bit generator states from one seed (NumPy's ``SeedSequence``)."""
    return np.random.SeedSequence(seed).generate_state(n, dtype=np.uint64)


class Batch:
    """``n`` games of one ``config``, stepped by the compiled kernels."""

    def __init__(self, n: int, config: GameConfig, seed: int | None = None):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"num_envs={n!r} must be a positive integer")
        self.n = n
        self.config = config
        self.template = template_row(config)
        self.layout = np.full(25, NO_CARD, dtype=np.int32)
        self.states = np.zeros((n, L.STATE_SIZE), dtype=np.int32)
        self.rng = seed_states(seed, n)

    def set_scenario(
        self,
        layout: Sequence[int] | None = None,
        column_deck: Sequence[Sequence[int]] = (),
        row_deck: Sequence[Sequence[int]] = (),
    ) -> None:
        """Deal every later game from this scenario (validated by ``scenario.parse_options``)."""
        self.template = template_row(self.config, column_deck, row_deck)
        self.layout = np.asarray([NO_CARD] * 25 if layout is None else list(layout), dtype=np.int32)

    def seed(self, seed: int | None) -> None:
        self.rng = seed_states(seed, self.n)

    def reset(
        self, which: np.ndarray, obs: np.ndarray, masks: np.ndarray, deciding: np.ndarray
    ) -> None:
        """New deals for the games in ``which``; every game's observation, mask and deciding
        figure written."""
        kernels.reset_games(
            self.states, which, self.template, self.layout, self.rng, obs, masks, deciding
        )

    def state(self, i: int) -> State:
        """Game i as a reference ``State`` (hidden cards included): for renderers and tools."""
        return from_row(self.states[i], self.config)
