"""Errors the user can cause: each carries a one-line message."""


class InputError(ValueError):
    """Bad dice, scorecard, rules or file given by the user (exit status 2)."""


class TableError(RuntimeError):
    """A stored table is missing, truncated, corrupt or for other rules."""
