"""The terms of ``Inselflucht-v0``'s ``reward="shaped"`` scheme, shared by every env.

Kept in the game's layer, below the envs, so that the Gymnasium env and the compiled
vector env pay exactly the same amounts (the env's docstring documents the scheme).
"""

SHAPED_TREASURE = 0.25  # per treasure lifted
SHAPED_KING_SEEN = 0.05  # per king first seen
SHAPED_SALVAGE = 0.02  # per land card salvaged of a suit still to lift
