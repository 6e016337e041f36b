"""train.agreement: the share of a teacher's decisions that a student would have made."""

from __future__ import annotations

from inselflucht_env.config import GameConfig
from train.agreement import agreement

CONFIG = GameConfig.make(players=2, short_game=True)


def test_the_heuristic_agrees_with_itself_on_every_decision():
    result = agreement("heuristic", "heuristic", CONFIG, range(2))
    assert result.decisions > 20 and result.agreed == result.decisions and result.rate == 1.0
    assert not result.disagreements


def test_random_play_disagrees_and_the_disagreements_are_counted():
    result = agreement("random", "heuristic", CONFIG, range(2))
    assert result.rate < 0.6
    assert sum(result.disagreements.values()) == result.decisions - result.agreed
    assert all(wanted != chosen for wanted, chosen in result.disagreements)
