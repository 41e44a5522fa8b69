"""Errors the user can cause: each carries a one-line message."""


class InputError(ValueError):
    """Bad dice, scorecard, rules or file given by the user (exit status 2)."""


class TableError(RuntimeError):
    """A stored table is missing, truncated, corrupt or for other rules."""


def missing_extra(what: str, extra: str, module: str) -> InputError:
    """The one form of "install the optional part": ``what`` needs ``module``,
    which the extra ``extra`` of the package installs.

        >>> print(missing_extra("plotting", "plot", "matplotlib"))
        plotting needs matplotlib: pip install -e '.[plot]' (the plot extra, from a checkout)
    """
    return InputError(f"{what} needs {module}: pip install -e '.[{extra}]' "
                      f"(the {extra} extra, from a checkout)")
