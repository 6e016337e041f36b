"""train.tools.agreement: the share of a teacher's decisions that a student would have made."""

from __future__ import annotations

from inselflucht_env.games.inselflucht.rules.config import GameConfig
from train.tools.agreement import agreement

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


def test_on_the_agents_own_games_the_agent_is_played():
    """``on="agent"``: the student's choices are played, so random play, which wanders, steps
    straight back on a share of its moves, and the heuristic compared with itself on its own
    games still agrees everywhere."""
    wander = agreement("random", "heuristic", CONFIG, range(2), on="agent")
    assert wander.moves > 0 and 0 < wander.reversals < wander.moves
    itself = agreement("heuristic", "heuristic", CONFIG, range(2), on="agent")
    assert itself.rate == 1.0 and itself.reversals < wander.reversals


def test_a_move_straight_back_is_a_reversal():
    from inselflucht_env.games.inselflucht.rules.actions import action_index
    from train.tools.agreement import _reverses

    up, down, left = (action_index(f"move:{d}") for d in ("up", "down", "left"))
    assert (
        _reverses(down, up) and _reverses(up, down) and _reverses(left, action_index("move:right"))
    )
    assert not _reverses(left, up) and not _reverses(up, up) and not _reverses(up, None)
    assert not _reverses(action_index("swim:down"), up)


def test_a_teacher_that_reads_only_the_observation_never_answers_a_repeated_one_differently():
    """The imitation ceiling: where a plain observation comes back, the heuristic's choice
    comes back with it (a student can copy it exactly); a random teacher's does not."""
    heuristic = agreement("heuristic", "heuristic", CONFIG, range(5))
    assert heuristic.repeated > 0 and heuristic.ambiguous == 0
    coin = agreement("heuristic", "random", CONFIG, range(5))
    assert 0 < coin.ambiguous <= coin.repeated
