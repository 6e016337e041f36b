"""Way planes: the deciding figure's cheapest ways over the island, computed inside a network.

Why: a network trained on the heuristic's choices gets most of its wrong decisions by walking
the wrong way (move right taken for down, up for right ...), and it loses on time (L6) and cut
off (L4): reachability and tempo over the whole island. The heuristic plans them with
``agents.knowledge.paths_sea``, a shortest-way search that two 3x3 convolutions cannot
compute. These planes hand the network the same facts, derived from the observation alone
(the sea plane, the decider's place and the Taucher flag), so the environment's observation
and every older checkpoint stay as they are. No parameters: a checkpoint with way planes is
still only a spec and weights.

The ways are those of R4.2 and R4.3: a move onto an orthogonally neighbouring place that is
not sea (one action), a swim straight across one sea place onto the place beyond it (two
actions, one with Taucher). For the eight first actions a (move up, down, left, right, then
swim up, down, left, right: the action order of ``actions.MOVE`` and ``actions.SWIM``),
``cost[a, q]`` is the cheapest way to place q that starts with a; the planes are

- ``first_<a>`` (8): a starts a cheapest way from the decider to q (ties: all of them);
- ``closeness`` (1): 1 / (1 + cost of the cheapest way), 1 on the decider's own place and 0
  where no way leads.
"""

from __future__ import annotations

import torch

from inselflucht_env.games.inselflucht.observation import BOARD_SIZE, N_PLANES, OBSERVATION_LAYOUT
from inselflucht_env.games.inselflucht.rules.board import BEYOND, DIRECTIONS, N_PLACES, NEIGHBOUR

WAY_PLANES = (
    *(f"first_{kind}:{d}" for kind in ("move", "swim") for d in DIRECTIONS),
    "closeness",
)
N_WAY_PLANES = len(WAY_PLANES)
_SEA = OBSERVATION_LAYOUT["sea"][0] // N_PLACES
_DECIDER = OBSERVATION_LAYOUT["figure_seat0"][0] // N_PLACES
_TAUCHER = OBSERVATION_LAYOUT["variant"][0]
_PAD = N_PLACES  # an extra cell standing for "off the grid": never land, never sea
_FAR = 1e4  # cost of no way; every real way costs at most 2 * N_PLACES


def _index(table: tuple[tuple[int, ...], ...]) -> torch.Tensor:
    """A (25, 4) neighbour table as indices, off-grid entries pointing at the pad cell."""
    return torch.tensor([[q if q >= 0 else _PAD for q in row] for row in table])


_NEXT = _index(NEIGHBOUR)  # _NEXT[p, k]: the place next to p in direction k
_BEYOND = _index(BEYOND)  # _BEYOND[p, k]: two places straight on, where a swim lands
# _SOURCES[q, e]: where the e-th way into q comes from: a move from the place next to q
# (e = k), a swim from two places away across the place next to q (e = 4 + k)
_SOURCES = torch.cat([_NEXT, _BEYOND], 1)


def way_planes(observations: torch.Tensor) -> torch.Tensor:
    """The ``N_WAY_PLANES`` planes over the 25 places of a batch of observations: (n, 9, 25)."""
    board = observations[:, :BOARD_SIZE].reshape(-1, N_PLANES, N_PLACES)
    n = board.shape[0]
    pad = torch.zeros(n, 1, dtype=torch.bool)
    sea = torch.cat([board[:, _SEA] > 0.5, pad], 1)  # (n, 26)
    land = torch.cat([board[:, _SEA] <= 0.5, pad], 1)
    swim_cost = 2.0 - observations[:, _TAUCHER, None, None]  # R4.3: one action with Taucher
    start = board[:, _DECIDER].argmax(1)

    # price[i, q, e]: what the e-th way into q costs (no way onto the sea, nor off the grid)
    onto = land[:, :N_PLACES, None]
    price = torch.cat(
        [
            torch.where(onto, 1.0, _FAR).expand(-1, -1, 4),
            torch.where(onto & sea[:, _NEXT], swim_cost, _FAR),
        ],
        2,
    )
    # cost[i, a, q]: the cheapest way to q that starts with first action a: the first step
    # (where it is a way at all), then Bellman-Ford over the 25 places.
    cost = torch.full((n, 8, N_PLACES + 1), _FAR)
    rows, firsts = torch.arange(n)[:, None], torch.arange(8)[None]
    # by the grid's symmetry, the places ways into the start come from are where its first
    # actions lead, and first action a arrives there as way a ^ 1 (up <-> down, left <-> right)
    landing = _SOURCES[start]  # (n, 8)
    cost[rows, firsts, landing] = price[rows, landing.clamp(max=N_PLACES - 1), firsts ^ 1]
    cost[:, :, _PAD] = _FAR
    for _ in range(2 * N_PLACES):
        better = torch.minimum(
            cost[:, :, :N_PLACES], (cost[:, :, _SOURCES] + price[:, None]).amin(3)
        )
        if torch.equal(better, cost[:, :, :N_PLACES]):
            break
        cost[:, :, :N_PLACES] = better
    cost = cost[:, :, :N_PLACES]

    best = cost.amin(1)  # (n, 25)
    at_start = torch.nn.functional.one_hot(start, N_PLACES).bool()
    reachable = (best < _FAR / 2) & ~at_start
    first = (cost <= best[:, None] + 1e-6) & reachable[:, None]
    closeness = torch.where(reachable, 1.0 / (1.0 + best), 0.0) + at_start.float()
    return torch.cat([first.float(), closeness[:, None]], 1)
