"""What every command-line tool does with a user's mistake: one line, no traceback.

Bad input (a missing or corrupt checkpoint, an unknown agent, a bad config or flag) raises an
``errors.InputError`` somewhere below the command; ``run`` prints its message as
``error: ...`` on stderr and exits with status 2, as argparse does for a bad flag. A file
that cannot be read or written (``OSError``) is reported the same way. Anything else is a
bug and keeps its traceback; ``INSELFLUCHT_DEBUG=1`` shows the traceback of input errors too.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TypeVar

from .errors import InputError

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
