"""Shared helpers for the rulebook tests: build small situations and play them by name.

Situations come from the scenario options (a chosen layout and flood-deck order, R8);
where one is too long to reach by play, the helpers below edit a fresh state directly
(``put``, ``set_status``, ``sink``, ``hand``, ``lift``), always keeping every card
accounted for (island, salvage, under kings, set aside or box) and the public counts of
R6.2 right. They never check for losses: the engine does that after the next action or flood.

Places are written ``(column, row)`` as in the rules; ``P(c, r)`` is the engine index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pytest

from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import column_row, place
from inselflucht_env.games.inselflucht.rules.cards import (
    HELICOPTER,
    ISLAND_CARDS,
    N_LAND,
    NO_CARD,
    code,
    parse,
    suit_of,
)
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import (
    DRY,
    FLOODED,
    HIDDEN,
    SEA,
    IllegalActionError,
    State,
)
from inselflucht_env.games.inselflucht.rules.public import describe
from inselflucht_env.games.inselflucht.rules.scenario import parse_options

STATUS = {"hidden": HIDDEN, "dry": DRY, "flooded": FLOODED, "sea": SEA}

# One pass of flood cards hits one place per column and per row. These two passes never
# hit the centre or a king of ``STANDARD`` and share no place, so they sink nothing.
QUIET_COLS = [1, 2, 3, 4, 5]
QUIET_ROWS = [5, 4, 2, 1, 3]  # hits (1,5), (2,4), (3,2), (4,1), (5,3)
QUIET2_ROWS = [2, 5, 4, 3, 1]  # with QUIET_COLS: (1,2), (2,5), (3,4), (4,3), (5,1)

# A fully known island (row 1 first) for tests that need every card in a known place.
STANDARD = [
    "6C 7C KC 8C 9C",
    "10C 6D 7D 8D 9D",
    "10D KD JK 6H 7H",
    "8H 9H 10H KH 6S",
    "7S 8S 9S 10S KS",
]


# Reset options for the env-level escape tests (PettingZoo, terminal play).
# A full layout (kings in row 5) and flood decks for two passes. Pass 1 floods (3,2),
# (1,1), (2,5), (4,4), (5,3); pass 2 floods (1,1) again (it sinks) and then (3,2) again
# at the end of turn 7, figure 0's turn: figure 1 waits there and must escape.
ESCAPE_OPTIONS = {
    "layout": [
        "6C 7C 8C 9C 10C",
        "6D 7D 8D 9D 10D",
        "6H 7H JK 8H 9H",
        "10H 6S 7S 8S 9S",
        "10S KC KD KH KS",
    ],
    "column_deck": [3, 1, 2, 4, 5, 1, 3, 2, 4, 5],
    "row_deck": [2, 1, 5, 4, 3, 1, 2, 3, 4, 5],
}


def P(column: int, row: int) -> int:
    """Engine place index of (column, row), both 1-5 (R2.1)."""
    return place(column, row)


def layout_rows(cards: Sequence[int]) -> list[str]:
    """The 5 layout rows (row 1 first) naming all 25 card ids of ``cards``, in place order:
    a whole deal as reset options (R8)."""
    return [" ".join(code(cards[place(c, r)]) for c in range(1, 6)) for r in range(1, 6)]


def fill_layout(rows: Sequence[str]) -> list[str]:
    """A full layout from 5 rows of codes with ``?``: the unnamed land cards fill the ``?``
    in reading order, then the unnamed kings. Deterministic, so tests know every card."""
    named = {parse(t) for line in rows for t in line.split() if t != "?"}
    named.add(HELICOPTER)
    free = [c for c in ISLAND_CARDS if c not in named]  # land cards (0-19) before kings
    out = []
    for line in rows:
        tokens = line.split()
        assert len(tokens) == 5, line
        out.append(" ".join(t if t != "?" else code(free.pop(0)) for t in tokens))
    assert not free
    return out


class Game:
    """A state plus its generator, played by action names.

    ``layout``: 5 rows of codes; with ``fill`` its ``?`` are filled by ``fill_layout`` (every
    card known), without it the engine deals them from the seed. ``cols``/``rows``: flood
    draw order, 5 per pass; later passes are shuffled from the seed.
    """

    def __init__(
        self,
        layout: Sequence[str] | None = None,
        cols: Sequence[int] | None = None,
        rows: Sequence[int] | None = None,
        *,
        players: int = 2,
        taucher: bool = False,
        short_game: bool = False,
        meter="normal",
        seed: int = 0,
        fill: bool = True,
    ):
        opts = {}
        if layout is not None:
            opts["layout"] = fill_layout(layout) if fill else list(layout)
        if cols is not None:
            opts["column_deck"] = list(cols)
        if rows is not None:
            opts["row_deck"] = list(rows)
        self.config = GameConfig.make(
            players=players, taucher=taucher, short_game=short_game, meter=meter
        )
        self.rng = np.random.default_rng(seed)
        self.s = State.new(self.config, self.rng, **parse_options(opts))

    # -- playing
    def do(self, *names: str) -> Game:
        for name in names:
            self.s.apply(A.action_index(name), self.rng)
        return self

    def legal(self) -> set[str]:
        return {A.ACTION_NAMES[a] for a in self.s.legal_actions()}

    def is_legal(self, name: str) -> bool:
        return A.action_index(name) in self.s.legal_actions()

    def refuse(self, name: str) -> None:
        """Assert the action is illegal: it raises and leaves the state unchanged."""
        before = snapshot(self.s)
        with pytest.raises(IllegalActionError):
            self.s.apply(A.action_index(name), self.rng)
        assert snapshot(self.s) == before

    # -- reading
    @property
    def d(self) -> dict:
        return describe(self.s)

    def status(self, c: int, r: int) -> str:
        return ("hidden", "dry", "flooded", "sea")[self.s.status[P(c, r)]]

    def card(self, c: int, r: int) -> str | None:
        k = self.s.card[P(c, r)]
        return None if k == NO_CARD else code(k)

    def at(self, f: int) -> tuple[int, int]:
        return column_row(self.s.pos[f])

    def salvage(self, f: int) -> list[str]:
        return [code(c) for c in self.s.salvage[f]]

    # -- editing (test set-up only)
    def put(self, f: int, c: int, r: int) -> Game:
        put(self.s, f, P(c, r))
        return self

    def set_status(self, spec: dict[tuple[int, int], str]) -> Game:
        set_status(self.s, {P(c, r): st for (c, r), st in spec.items()})
        return self

    def sink(self, *places: tuple[int, int]) -> Game:
        for c, r in places:
            sink(self.s, P(c, r))
        return self

    def sink_cards(self, *codes: str) -> Game:
        for text in codes:
            sink(self.s, self.s.card.index(parse(text)))
        return self

    def hand(self, f: int, *codes: str) -> Game:
        hand(self.s, f, codes)
        return self

    def lifted(self, king: str, *codes: str) -> Game:
        lift(self.s, king, codes)
        return self


def put(s: State, f: int, p: int) -> None:
    """Stand figure f on place p (a field), revealing it as a move would (R3.3)."""
    assert s.status[p] != SEA
    s.pos[f] = p
    if s.status[p] == HIDDEN:
        s.status[p] = DRY
    s._legal = None


def set_status(s: State, spec: dict[int, str]) -> None:
    """Set hidden/dry/flooded on fields (never sea: use ``sink``)."""
    for p, st in spec.items():
        assert s.status[p] != SEA and st != "sea"
        s.status[p] = STATUS[st]
    s._legal = None


def sink(s: State, p: int) -> None:
    """Remove the card at p as a sinking would, with no loss check (land or lifted king)."""
    c = s.card[p]
    assert c != NO_CARD and c != HELICOPTER and not any(q == p for q in s.pos)
    s.status[p] = SEA
    s.card[p] = NO_CARD
    if c < N_LAND:
        s.box.append(c)
        s.remaining[suit_of(c)] -= 1
    else:
        assert s.lifted[suit_of(c)]
        s.set_aside.append(c)
    s._legal = None


def hand(s: State, f: int, codes: Iterable[str]) -> None:
    """Give figure f the named land cards as if salvaged: their places become sea."""
    for text in codes:
        c = parse(text)
        assert c < N_LAND
        p = s.card.index(c)
        assert p not in s.pos
        s.card[p] = NO_CARD
        s.status[p] = SEA
        s.salvage[f].append(c)
    s._legal = None


def lift(s: State, king: str, codes: Iterable[str]) -> None:
    """Lift the treasure of ``king`` (e.g. "KC") with the named land cards, taken from the
    island (their places become sea), as a figure that salvaged them would (R4.7)."""
    suit = suit_of(parse(king))
    assert not s.lifted[suit]
    for text in codes:
        c = parse(text)
        p = s.card.index(c)
        assert p not in s.pos
        s.card[p] = NO_CARD
        s.status[p] = SEA
        s.under_king[suit].append(c)
        s.remaining[suit_of(c)] -= 1
    s.lifted[suit] = True
    s._legal = None


def snapshot(s: State) -> tuple:
    """Every field of a state, for "unchanged" comparisons."""
    return (
        describe(s),
        s.status[:],
        s.card[:],
        s.pos[:],
        [h[:] for h in s.salvage],
        [h[:] for h in s.under_king],
        s.lifted[:],
        s.set_aside[:],
        s.box[:],
        s.meter[:],
        s.col_deck[:],
        s.row_deck[:],
        s.col_discard[:],
        s.row_discard[:],
        [b[:] for b in s.script_col],
        [b[:] for b in s.script_row],
        s.active,
        s.actions_left,
        s.turn,
        s.floods_left,
        s.in_flood,
        s.flood_open,
        s.escapes[:],
        s.pending,
        s.outcome,
        s.remaining[:],
    )


def twin(state: State, rng: np.random.Generator) -> State:
    """The same public facts, other hidden facts (R9): the cards of the hidden places and the
    undrawn flood cards permuted, scripted later passes reshuffled (``State.with_hidden``)."""
    cards = [state.card[p] for p in range(len(state.card)) if state.status[p] == HIDDEN]
    t = state.with_hidden(
        [int(c) for c in rng.permutation(cards)] if cards else [],
        [int(v) for v in rng.permutation(state.col_deck)],
        [int(v) for v in rng.permutation(state.row_deck)],
        [[int(v) for v in rng.permutation(b)] for b in state.script_col],
        [[int(v) for v in rng.permutation(b)] for b in state.script_row],
    )
    assert describe(t) == describe(state)
    return t


def island_cards(s: State) -> list[int]:
    """Every island card and the joker wherever it is, for conservation checks."""
    out = [c for c in s.card if c != NO_CARD]
    out += [c for h in s.salvage for c in h]
    out += [c for h in s.under_king for c in h]
    out += s.set_aside + s.box
    return out


def play_agent(agent, config: GameConfig, seed: int, check=None) -> State:
    """Play a game of ``config`` (deal ``seed``) with ``agent`` deciding for every figure,
    checking that each action is legal and that deciding leaves the state untouched;
    ``check(state)`` runs before every action."""
    rng = np.random.default_rng(seed)
    arng = np.random.default_rng(seed + 1)
    s = State.new(config, rng)
    while s.outcome is None:
        before = describe(s)
        a = agent.act(s, arng)
        assert describe(s) == before, "an agent must not modify the state"
        assert a in s.legal_actions(), (
            A.action_name(a),
            [A.action_name(x) for x in s.legal_actions()],
        )
        if check:
            check(s)
        s.apply(a, rng)
    return s


def midgame(seed: int = 3, decisions: int = 12, players: int = 2) -> State:
    """A state some heuristic decisions into a game: places revealed, floods drawn."""
    rng = np.random.default_rng(seed)
    state = State.new(GameConfig.make(players=players), rng)
    heuristic = HeuristicAgent()
    for _ in range(decisions):
        state.apply(heuristic.act(state, rng), rng)
    assert state.outcome is None
    return state


def tiny_win_network_spec():
    """The spec of a tiny policy-value network whose value head is a win probability (the
    kind the network searches read); imports torch only when a learned test asks for it."""
    from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
    from inselflucht_env.learned import NetworkSpec

    return NetworkSpec(
        OBSERVATION_SIZE, "mlp", features_dim=16, net_arch=(16,), value="win_probability"
    )


@pytest.fixture(scope="session")
def win_net(tmp_path_factory) -> str:
    """The folder of an untrained ``tiny_win_network_spec`` network."""
    from inselflucht_env.learned import build_policy, save_checkpoint

    spec = tiny_win_network_spec()
    folder = tmp_path_factory.mktemp("net") / "tiny"
    save_checkpoint(build_policy(spec), folder, spec, {})
    return str(folder)
