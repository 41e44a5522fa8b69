"""Errors the user can cause: each carries a one-line message."""


class InputError(ValueError):
    """Bad dice, scorecard, rules or file given by the user (exit status 2)."""


class TableError(RuntimeError):
    """A stored table is missing, truncated, corrupt or for other rules."""


def missing_extra(what: str, extra: str, module: str,
                  editable: bool | None = None) -> InputError:
    """The one form of "install the optional part": ``what`` needs ``module``,
    which the extra ``extra`` of the package installs, said the way this
    copy was installed (``editable``: from a checkout with ``pip install
    -e``, default: as ``installed_editable()`` finds; else from a wheel).

        >>> print(missing_extra("plotting", "plot", "matplotlib", editable=True))
        plotting needs matplotlib: pip install -e '.[plot]' (the plot extra, in the checkout)
        >>> print(missing_extra("yatzy serve", "web", "starlette", editable=False))
        yatzy serve needs starlette: pip install 'yatzy[web]' (the web extra)
    """
    if editable is None:
        editable = installed_editable()
    if editable:
        return InputError(f"{what} needs {module}: pip install -e '.[{extra}]' "
                          f"(the {extra} extra, in the checkout)")
    return InputError(f"{what} needs {module}: pip install 'yatzy[{extra}]' (the {extra} extra)")


def installed_editable() -> bool:
    """Whether this copy of yatzy runs from a source checkout (an editable
    install, or none), not from a wheel: the folder above the package holds
    the project's ``pyproject.toml``."""
    from pathlib import Path
    return (Path(__file__).resolve().parents[1] / "pyproject.toml").is_file()
