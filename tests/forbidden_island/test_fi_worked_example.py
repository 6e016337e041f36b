"""The worked example game of ``docs/rules_forbidden_island.md`` ("Worked example"), replayed
move by move: two players (Engineer, Pilot) at Novice on the identity layout (tile t on slot
t) with scripted decks, from the set-up to a loss by Fools' Landing sinking in turn 2.

Every step names the rule it shows. The only shuffle is the flood discard's at Waters Rise!
(FR5.2); with ``SEED`` it puts Fools' Landing second from the top.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from inselflucht_env.games.forbidden_island.rules.cards import TREASURE_DECK
from inselflucht_env.games.forbidden_island.rules.config import GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import DRY, FLOODED, SUNK, State
from tests.forbidden_island.fi_scenarios import (
    EARTH,
    FIRE,
    HELI,
    SAND,
    WIND,
    WR,
    act,
    flood_top,
    hand,
    names,
)

ENGINEER, PILOT = 0, 1  # seats
SEED = 2
SETUP_FLOODS = [0, 14, 15, 16, 18, 19]  # Fools' Landing and five plain tiles (FR2.2)
FLOOD_DECK = [*SETUP_FLOODS, 20, 21, 17, 22, 23, *range(1, 14)]  # first drawn first
# Dealt: Engineer earth, earth; Pilot Waters Rise! (set aside, FR2.2), wind, Helicopter
# Lift; then the Engineer's draws earth, fire and the Pilot's Sandbags, Waters Rise!.
DRAWS = [EARTH, EARTH, WR, WIND, HELI, EARTH, FIRE, SAND, WR]


def _treasure_deck() -> list[int]:
    rest = Counter(TREASURE_DECK)
    rest.subtract(DRAWS)
    return DRAWS + [k for k in sorted(rest) for _ in range(rest[k])]


def _setup() -> State:
    return State.new(
        GameConfig.make(2, "novice", ["engineer", "pilot"]),
        np.random.default_rng(SEED),
        layout=list(range(24)),
        treasure_deck=_treasure_deck(),
        flood_deck=FLOOD_DECK,
    )


def _play(s: State, name: str, rng: np.random.Generator) -> None:
    assert name in names(s), f"{name} is not legal; legal: {sorted(names(s))}"
    s.apply(act(name), rng)


def test_worked_example_engineer_and_pilot_lose_fools_landing_in_turn_two():
    rng = np.random.default_rng(SEED)
    s = _setup()

    # Set-up (FR2.2, FR2.3): six tiles flood, two cards each, Waters Rise! set aside and
    # replaced (to the bottom of a scripted deck), level 1, the Engineer (seat 0) begins.
    assert [x for x in range(24) if s.status[x] == FLOODED] == sorted(SETUP_FLOODS)
    assert s.flood_discard == SETUP_FLOODS
    assert s.hands == [hand(EARTH, EARTH), hand(WIND, HELI)]
    assert s.treasure_deck[0] == WR and s.level == 1
    assert s.pos == [9, 0]  # Bronze Gate, Fools' Landing (FR3.1)
    assert (s.active, s.decider, s.actions_left) == (ENGINEER, ENGINEER, 3)

    # Turn 1, the Engineer. Action 1: move down onto the flooded slot 15 (FR4.1, FR1.4).
    _play(s, "move:15", rng)
    assert s.pos[ENGINEER] == 15 and s.actions_left == 2
    # Action 2: shore up 14; the second shore-up is a sub-decision (FR3.2): 15 or 16, or done.
    _play(s, "shore:14", rng)
    assert s.status[14] == DRY
    assert names(s) == {"done", "shore:15", "shore:16"}
    _play(s, "shore:16", rng)
    assert s.status[16] == DRY and s.actions_left == 1
    # Action 3: shore up its own tile; nothing flooded is left in reach, so no second choice.
    _play(s, "shore:15", rng)
    # Draw earth and fire (FR5.1): four cards, under the limit (FR5.3).
    assert s.hands[ENGINEER] == hand(EARTH, EARTH, EARTH, FIRE)
    # The window after the draw (FR6.3): the Pilot holds a Helicopter Lift, so it decides.
    assert s.decider == PILOT
    assert names(s) == {"done", "lift:+0", "lift:+1"}
    _play(s, "done", rng)
    # Flood phase at level 1: two cards (FR8.1), 20 and 21 flood (FR8.2); the Pilot's turn.
    assert s.status[20] == s.status[21] == FLOODED
    assert s.flood_discard == [*SETUP_FLOODS, 20, 21]
    assert (s.active, s.turn, s.actions_left, s.flew) == (PILOT, 2, 3, False)

    # Turn 2, the Pilot. Action 1: fly from Fools' Landing to the Engineer (FR3.6).
    assert 15 not in s.walk_targets(PILOT)
    _play(s, "move:15", rng)
    assert s.pos[PILOT] == 15 and s.flew
    assert "move:9" in names(s) and "move:13" not in names(s)  # walking only, now
    # Action 2: give the wind card to the Engineer on the same tile (FR4.4).
    _play(s, "give:wind:+1", rng)
    assert s.hands == [hand(EARTH, EARTH, EARTH, FIRE, WIND), hand(HELI)]
    # Action 3: shore up slot 20 below (FR4.3).
    _play(s, "shore:20", rng)
    assert s.status[20] == DRY
    # Draw Sandbags and Waters Rise! (FR5.2): level 2, the flood discard shuffled on top.
    assert s.hands[PILOT] == hand(HELI, SAND)
    assert s.level == 2 and s.treasure_discard == [WR]
    assert s.flood_discard == [] and s.flood_known == 8
    assert sorted(flood_top(s, 8)) == sorted([*SETUP_FLOODS, 20, 21])
    assert flood_top(s, 2) == [14, 0]  # this shuffle: 14 (dry) then Fools' Landing (flooded)
    # The window: the Pilot could save Fools' Landing with the Sandbags now (FR6.2) ...
    assert {"sandbag", "done"} <= names(s)
    saved = s.clone()
    _play(saved, "sandbag", rng)
    _play(saved, "shore:0", np.random.default_rng(0))
    assert saved.status[0] == DRY
    # ... but passes. Flood phase at level 2: two cards (FR2.3); 14 floods again and the
    # flooded Fools' Landing sinks (FR8.2): the team loses at once (FR10.2, L2).
    _play(s, "done", rng)
    assert s.status[14] == FLOODED
    assert s.status[0] == SUNK and s.flood_out == [0]
    assert s.outcome == "L2" and s.legal_actions() == []
    assert s.card_count() == 28
    # The saved line survives that flood: a dry Fools' Landing only floods (FR8.2).
    _play(saved, "done", np.random.default_rng(SEED))
    assert saved.status[0] == FLOODED and saved.outcome is None
