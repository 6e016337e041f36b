"""The Forbidden Island rules engine: pure game logic, no framework (FR1-FR10).

``State`` (``engine``) is a game: ``State.new(config, rng)``, ``legal_actions()``,
``apply(action, rng)``. Around it: the island's 24 tiles and their grid (``board``), the
two decks (``cards``), the action numbering (``actions``) and the game's settings
(``config``). Rule numbers refer to ``docs/rules_forbidden_island.md``.
"""
