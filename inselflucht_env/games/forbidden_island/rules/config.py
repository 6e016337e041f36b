"""Static facts of one game: players, roles and the water meter's start (FR2.3, FR3).

Kept apart from the changing state, as OpenSpiel keeps ``GameInfo`` apart from ``State``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ROLE_NAMES = ("diver", "engineer", "explorer", "messenger", "navigator", "pilot")
DIVER, ENGINEER, EXPLORER, MESSENGER, NAVIGATOR, PILOT = range(6)
START_TILE = (
    12,
    9,
    10,
    13,
    11,
    0,
)  # FR3.1: Iron, Bronze, Copper, Silver, Gold Gate, Fools' Landing

DIFFICULTIES = {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}  # FR2.3: start level
SKULL = 10  # FR10.4: the level that loses
FLOODS_AT_LEVEL = (0, 2, 2, 3, 3, 3, 4, 4, 5, 5)  # FR2.3: flood cards drawn at levels 1-9
ACTIONS_PER_TURN = 3  # FR4
SETUP_FLOODS = 6  # FR2.2
SETUP_CARDS = 2  # FR2.2: treasure cards dealt to each player


@dataclass(frozen=True)
class GameConfig:
    """Players, their roles and the difficulty of a game.

    players: 2-4. difficulty: the water meter's start (``DIFFICULTIES``). roles: one role
    index per seat, or None to deal distinct roles at random at set-up (FR2.2).
    """

    players: int = 2
    difficulty: str = "novice"
    roles: tuple[int, ...] | None = None

    @classmethod
    def make(
        cls,
        players: int = 2,
        difficulty: str = "novice",
        roles: Sequence[str] | None = None,
    ) -> GameConfig:
        """Validated config; a bad argument raises ``ValueError`` naming it."""
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"players={players!r} is not allowed: expected an integer 2-4")
        if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
            raise ValueError(
                f"difficulty={difficulty!r} is not allowed: expected one of {list(DIFFICULTIES)}"
            )
        if roles is None:
            return cls(players, difficulty, None)
        if isinstance(roles, str) or not isinstance(roles, Sequence):
            raise ValueError(f"roles={roles!r} must be None or a list of {players} role names")
        names = list(roles)
        if (
            len(names) != players
            or any(not isinstance(r, str) or r not in ROLE_NAMES for r in names)
            or len(set(names)) != len(names)
        ):
            raise ValueError(
                f"roles={names!r} is not allowed: expected {players} distinct names "
                f"from {list(ROLE_NAMES)}"
            )
        return cls(players, difficulty, tuple(ROLE_NAMES.index(r) for r in names))

    @property
    def start_level(self) -> int:
        return DIFFICULTIES[self.difficulty]
