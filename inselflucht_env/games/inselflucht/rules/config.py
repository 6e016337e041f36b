"""Static facts of one game: players, variants and the water meter (R2.4, R7).

Kept apart from the changing state, as OpenSpiel keeps ``GameInfo`` apart from ``State``;
every state of a game shares one ``GameConfig``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# R7.3 presets, top card first. The last card plays the role of 5 of clubs (R5.4).
METER_PRESETS: dict[str, tuple[int, ...]] = {
    "normal": (1, 1, 2, 2, 3, 3, 4, 4, 5),
    "leicht": (1, 1, 1, 2, 2, 3, 3, 4, 4, 5),
    "schwer": (1, 2, 2, 3, 3, 4, 4, 5),
}
FLOODS_PER_PASS = 5
ACTIONS_PER_TURN = 4  # R4.1


def resolve_meter(meter: str | Sequence[int], short_game: bool) -> tuple[int, ...]:
    """The meter a game starts with, top first.

    R7.2: the short game removes the first card of the ``normal`` and ``leicht`` presets;
    ``schwer`` has no ace of clubs to remove and a custom meter is taken as given.
    """
    if isinstance(meter, str):
        if meter not in METER_PRESETS:
            raise ValueError(
                f"meter={meter!r} is not a preset: expected one of {sorted(METER_PRESETS)} "
                "or a non-empty list of levels 1-5"
            )
        levels = METER_PRESETS[meter]
        if short_game and meter in ("normal", "leicht"):
            levels = levels[1:]
        return levels
    try:
        levels = tuple(meter)
    except TypeError:
        raise ValueError(f"meter={meter!r} must be a preset name or a list of levels 1-5") from None
    if not levels or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 5 for v in levels
    ):
        raise ValueError(f"meter={list(levels)!r} must be a non-empty list of integer levels 1-5")
    return levels


@dataclass(frozen=True)
class GameConfig:
    """Players and variants of a game.

    players: 1-4; with 1 player (solo) the player runs two figures (R2.4).
    taucher: swimming costs 1 action instead of 2 (R7.1).
    short_game: a treasure needs 1 card instead of 2 (R7.2), meter as ``resolve_meter``.
    meter: the starting meter, top first (already resolved).
    """

    players: int = 2
    taucher: bool = False
    short_game: bool = False
    meter: tuple[int, ...] = METER_PRESETS["normal"]

    @classmethod
    def make(
        cls,
        players: int = 2,
        taucher: bool = False,
        short_game: bool = False,
        meter: str | Sequence[int] = "normal",
    ) -> GameConfig:
        """Validated config; a bad argument raises ``ValueError`` naming it."""
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise ValueError(f"players={players!r} is not allowed: expected an integer 1-4")
        for name, value in (("taucher", taucher), ("short_game", short_game)):
            if not isinstance(value, bool):
                raise ValueError(f"{name}={value!r} is not allowed: expected True or False")
        return cls(players, taucher, short_game, resolve_meter(meter, short_game))

    @property
    def figures(self) -> int:
        """Number of figures: solo runs two (R2.4)."""
        return 2 if self.players == 1 else self.players

    @property
    def cards_per_treasure(self) -> int:
        """*n* of R4.7: 2, or 1 in the short game."""
        return 1 if self.short_game else 2

    @property
    def swim_cost(self) -> int:
        return 1 if self.taucher else 2

    @property
    def total_floods(self) -> int:
        """Floods the island takes before L6 (R5.4): five per meter card."""
        return FLOODS_PER_PASS * len(self.meter)
