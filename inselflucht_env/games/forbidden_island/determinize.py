"""Determinization: a full Forbidden Island state sampled from what the players know (FR2.4).

Hands, tiles and both discard piles are public; the order of the two draw decks is not.
A planner therefore plays its rollouts on copies in which

* the treasure deck (a publicly known multiset: 28 cards minus hands and discard) is
  shuffled afresh, and
* the flood deck is shuffled in two parts: its top ``flood_known`` cards, the group that
  Waters Rise! put back (FR5.2) and whose set is public, among themselves, and the cards
  below them among themselves.

Each part is sorted before it is shuffled, so the result depends on the true state only
through public facts and ``rng``: two states that differ only in the deck orders (within
those parts) give identical determinizations for the same generator.
"""

from __future__ import annotations

import numpy as np

from inselflucht_env.games.forbidden_island.rules.engine import State


def _shuffled(cards: list[int], rng: np.random.Generator) -> list[int]:
    ordered = sorted(cards)  # forget the true order before sampling a new one
    return [ordered[int(i)] for i in rng.permutation(len(ordered))] if ordered else []


def determinize(state: State, rng: np.random.Generator) -> State:
    """A clone whose hidden deck orders are resampled consistently with public facts."""
    world = state.clone()
    world.treasure_deck = _shuffled(state.treasure_deck, rng)
    deck = state.flood_deck
    split = len(deck) - state.flood_known  # next card last: the known group is the tail
    world.flood_deck = _shuffled(deck[:split], rng) + _shuffled(deck[split:], rng)
    return world
