"""What every env of the package checks the same way: its keyword arguments, the action a
caller passes, and the action masks it hands out.

One module, so that ``Inselflucht-v0``, ``ForbiddenIsland-v0`` and the vector envs give the
same one-line ``ValueError`` for the same mistake.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np


def check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> None:
    """``ValueError`` naming ``name`` unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{name}={value!r} is not allowed: expected one of {list(allowed)}")


def reject_unknown_arguments(
    unknown: dict[str, Any], init: Callable[..., Any], env_id: str
) -> None:
    """``ValueError`` naming the unknown keyword arguments and listing ``init``'s own."""
    allowed = [
        name
        for name, p in inspect.signature(init).parameters.items()
        if name != "self" and p.kind is not p.VAR_KEYWORD
    ]
    names = ", ".join(repr(name) for name in sorted(unknown))
    raise ValueError(
        f"unknown argument{'s' if len(unknown) > 1 else ''} {names} for "
        f"{env_id}: the allowed arguments are {', '.join(allowed)}"
    )


def action_to_index(action: Any, n_actions: int, name_of: Callable[[int], str]) -> int:
    """An action from ``Discrete(n_actions)`` as an int; anything else is a ``ValueError``
    (``name_of`` checks the range with the action table's own message)."""
    if type(action) is int or isinstance(action, np.integer):  # the fast, common case
        if 0 <= action < n_actions:
            return int(action)
    try:
        index = int(action)
        if index != action or isinstance(action, bool):
            raise TypeError
    except (TypeError, ValueError):
        raise ValueError(
            f"action {action!r} is not in Discrete({n_actions}); "
            "use env.unwrapped.action_index(name) for names"
        ) from None
    name_of(index)
    return index


class MaskCache:
    """Masks by legal-action tuple: a game meets a few hundred sets, so each mask is made
    once and handed out as a copy (the caller may write to it)."""

    def __init__(self, n_actions: int, dtype: Any):
        self.n_actions, self.dtype = n_actions, dtype
        self._masks: dict[tuple[int, ...], np.ndarray] = {}

    def __call__(self, legal: list[int]) -> np.ndarray:
        key = tuple(legal)
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) > 50_000:
                self._masks.clear()
            mask = self._masks[key] = np.zeros(self.n_actions, dtype=self.dtype)
            mask[legal] = 1
            mask.flags.writeable = False
        return mask.copy()
