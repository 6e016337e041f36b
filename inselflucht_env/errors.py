"""The one error class for bad input from a user, so tools can tell it from a bug.

A missing or tampered checkpoint, an unknown agent, a bad config key or option raises a
subclass of ``InputError`` (itself a ``ValueError``) with a message naming what was wrong;
command-line tools print that message as one line (``cli.run``), while any other exception
keeps its traceback.
"""


class InputError(ValueError):
    """Bad input (a file, an option, a name); the message says what and how to fix it."""
