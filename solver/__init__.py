"""Exact optimal strategy for Nordic Yatzy and its variants.

    >>> import yatzy
    >>> rules = yatzy.parse_rules("nordic")
    >>> nordic = yatzy.Solver(rules)       # opens the table (solves it once), memory-mapped
    >>> card = yatzy.Scorecard.parse("ones=3,two_pairs=18", rules)
    >>> advice = nordic.advise(card, "11256", rerolls=2)
    >>> advice.best
    Action.parse('keep 6')
    >>> advice.best == yatzy.Action.parse("keep 6")
    True
    >>> round(advice.best.expected_final_score, 3)
    232.955

``Solver`` (``yatzy.api``) answers every question about one rule set;
``Game`` (``yatzy.game``) keeps a game at the table; ``open_table`` gives
the stored table itself.  The names below are imported on first use, so
``import yatzy`` is fast, and the solver kernels (``yatzy.tables.build``)
are imported only when a table has to be solved or a research method needs
them, so advice starts without Numba.
"""

from importlib import import_module

from yatzy.version import __version__

# public name -> the module that defines it
_WHERE = {
    "InputError": "yatzy.errors", "TableError": "yatzy.errors",
    "Rules": "yatzy.rules.ruleset", "parse_rules": "yatzy.rules.ruleset",
    "Scorecard": "yatzy.position.scorecard",
    "Action": "yatzy.position.actions", "ActionKind": "yatzy.position.actions",
    "Advice": "yatzy.position.actions",
    "Table": "yatzy.tables.store", "TableWarning": "yatzy.tables.announce",
    "open_table": "yatzy.tables.store",
    "advise": "yatzy.players.strategy", "expected_final_score": "yatzy.players.advice",
    "WinAdvice": "yatzy.players.win",
    "Score": "yatzy.players.objectives", "Risk": "yatzy.players.objectives",
    "Target": "yatzy.players.objectives", "Win": "yatzy.players.objectives",
    "Distribution": "yatzy.research.distribution", "Simulation": "yatzy.research.simulate",
    "Review": "yatzy.research.review",
    "Versus": "yatzy.research.stats", "Paired": "yatzy.research.stats",
    "paired": "yatzy.research.stats", "Mean": "yatzy.research.study",
    "match": "yatzy.research.match", "Match": "yatzy.research.match",
    "Solver": "yatzy.api", "Comparison": "yatzy.api", "compare": "yatzy.api",
    "Game": "yatzy.game",
}
__all__ = sorted(_WHERE)   # and __version__: the release, "1.0.0" (yatzy.version)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'yatzy' has no attribute {name!r}")
    value = getattr(import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
