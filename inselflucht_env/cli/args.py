"""What every command-line tool does with a user's mistake: one line, no traceback.

Bad input (a missing or corrupt checkpoint, an unknown agent, a bad config or flag) raises an
``errors.InputError`` somewhere below the command; ``run`` prints its message as
``error: ...`` on stderr and exits with status 2, as argparse does for a bad flag. A file
that cannot be read or written (``OSError``) is reported the same way. Anything else is a
bug and keeps its traceback; ``INSELFLUCHT_DEBUG=1`` shows the traceback of input errors too.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import TypeVar

from inselflucht_env.errors import InputError

T = TypeVar("T")


def run(main: Callable[[], T]) -> T:
    """Call ``main()``; an ``InputError`` or ``OSError`` becomes one line and exit 2."""
    try:
        return main()
    except (InputError, OSError) as err:
        if os.environ.get("INSELFLUCHT_DEBUG"):
            raise
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


def _int_at_least(text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, not {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be >= {low}, not {value}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: an integer >= 1 (``--workers``, ``--episodes``); argparse names the
    flag in its error."""
    return _int_at_least(text, 1)


def natural_int(text: str) -> int:
    """An argparse type: an integer >= 0 (``--seed``)."""
    return _int_at_least(text, 0)


def _float_where(text: str, ok: Callable[[float], bool], what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not ok(value):
        raise argparse.ArgumentTypeError(f"must be {what}, not {text}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0 (``--seconds``, ``--c-puct``)."""
    return _float_where(text, lambda v: 0 < v < math.inf, "a finite number > 0")


def unit_fraction(text: str) -> float:
    """An argparse type: a number within [0, 1] (``--heuristic-prior``)."""
    return _float_where(text, lambda v: 0 <= v <= 1, "within [0, 1]")
