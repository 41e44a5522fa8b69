"""Exact optimal strategy for Nordic Yatzy and its variants.

    >>> import solver
    >>> rules = solver.parse_rules("nordic")
    >>> table = solver.open_table(rules)              # solves once, then memory-maps
    >>> card = solver.Scorecard.parse("ones=3,two_pairs=18", rules)
    >>> solver.advise(table, card, (1, 1, 2, 5, 6), rerolls=2).best

The solver kernels (``solver.engine``) are imported only when a table has to
be solved, so advice starts without Numba.
"""

from .errors import InputError, TableError
from .query import Action, Advice, advise, expected_final_score
from .rules import Rules, parse_rules
from .scorecard import Scorecard
from .tables import Table, open_table

__all__ = ["Action", "Advice", "InputError", "Rules", "Scorecard", "Table", "TableError",
           "advise", "expected_final_score", "open_table", "parse_rules"]
