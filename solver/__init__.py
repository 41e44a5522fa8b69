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
``open_table`` gives the stored table itself.  The solver kernels
(``solver.tables.build``) are imported only when a table has to be solved or a
research method needs them, so advice starts without Numba.
"""

from solver.api import Comparison, Solver, compare
from solver.errors import InputError, TableError
from solver.players.advice import advise, expected_final_score
from solver.position.actions import Action, ActionKind, Advice
from solver.position.scorecard import Scorecard
from solver.rules.ruleset import Rules, parse_rules
from solver.tables.store import Table, TableWarning, open_table

__all__ = ["Action", "ActionKind", "Advice", "Comparison", "InputError", "Rules", "Scorecard",
           "Solver", "Table", "TableError", "TableWarning", "advise", "compare",
           "expected_final_score", "open_table", "parse_rules"]
