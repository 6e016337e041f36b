"""The Inselflucht rules engine: pure game logic, no framework (R1-R9).

``State`` (``engine``) is a game: ``State.new(config, rng)``, ``legal_actions()``,
``apply(action, rng)``. Around it: the cards (``cards``), the 5x5 grid (``board``), the
action numbering (``actions``), the game's settings (``config``), what every player sees
(``public``) and hand-built situations (``scenario``).
"""
