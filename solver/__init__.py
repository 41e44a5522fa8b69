"""Exact optimal strategy for Nordic Yatzy and its variants.

    >>> import solver
    >>> rules = solver.parse_rules("nordic")
    >>> nordic = solver.Solver(rules)       # opens the table (solves it once), memory-mapped
    >>> card = solver.Scorecard.parse("ones=3,two_pairs=18", rules)
    >>> advice = nordic.advise(card, "11256", rerolls=2)
    >>> advice.best
    Action.parse('keep 6')
    >>> advice.best == solver.Action.parse("keep 6")
    True
    >>> round(advice.best.expected_final_score, 3)
    232.955

``Solver`` (``solver.api``) answers every question about one rule set;
``Game`` (``solver.game``) keeps a game at the table; ``open_table`` gives
the stored table itself.  The names below are imported on first use, so
``import solver`` is fast, and the solver kernels (``solver.tables.build``)
are imported only when a table has to be solved or a research method needs
them, so advice starts without Numba.
"""

from importlib import import_module

# public name -> the module that defines it
_WHERE = {
    "InputError": "solver.errors", "TableError": "solver.errors",
    "Rules": "solver.rules.ruleset", "parse_rules": "solver.rules.ruleset",
    "Scorecard": "solver.position.scorecard",
    "Action": "solver.position.actions", "ActionKind": "solver.position.actions",
    "Advice": "solver.position.actions",
    "Table": "solver.tables.store", "TableWarning": "solver.tables.store",
    "open_table": "solver.tables.store",
    "advise": "solver.players.advice", "expected_final_score": "solver.players.advice",
    "WinAdvice": "solver.players.win",
    "Score": "solver.players.objectives", "Risk": "solver.players.objectives",
    "Target": "solver.players.objectives", "Win": "solver.players.objectives",
    "Distribution": "solver.research.distribution", "Simulation": "solver.research.simulate",
    "Review": "solver.research.review",
    "Solver": "solver.api", "Comparison": "solver.api", "compare": "solver.api",
    "Game": "solver.game",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
