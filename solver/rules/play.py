"""How a rule set is played, as data: one card, solved exactly, or several
columns (Trippel-Yatzy), played by a strategy over the exact one-column
table (``yatzy.players.triple``).  The choice is made once, here
(``play_of``, read as ``Rules.play``); what differs between the two is a
field of ``Play``, and the behaviour that goes with it is the strategy of
``yatzy.players.strategy``.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> nordic, triple = parse_rules("nordic").play, parse_rules("triple").play
    >>> nordic.name, nordic.values, triple.name, triple.values
    ('one card', 'exact', 'columns', 'lower_bound')
    >>> triple.refuse("risk"), nordic.refuse("risk")
    ('it needs one column', None)
    >>> nordic.tag(1), triple.tag(3), nordic.label(1), triple.label(3)
    ('', '@3', 0, 3)

A card of ``C`` columns is ``C`` column cards of ``Rules.column_rules``
(one column: the card is its own only column); what one column leaves out
is the column's name in the text (``ones=3``, ``score chance``: the column
is 1, and an action's ``column`` is 0, "not named").
"""

from __future__ import annotations

from dataclasses import dataclass

# What the values of advice and ``ev`` are (``Advice.values``).
EXACT = "exact"                # the optimal strategy's expectation, from the solved table
LOWER_BOUND = "lower_bound"    # several columns: exact if the columns are played one by
                               # one after this turn; the strategy itself scores more

ONE_COLUMN = "it needs one column"


@dataclass(frozen=True)
class Play:
    """What follows from playing one card or several columns.

    * ``name``: ``one card`` or ``columns``
    * ``values``: what advice values are (``EXACT``; ``LOWER_BOUND``: the
      columns played one by one after the turn, the order and the losses
      the strategy's own)
    * ``exact``: the strategy is the exact optimum of the solved table (so
      its final-score distribution can be computed; otherwise it is
      measured from played games)
    * ``names_columns``: a score and a card entry name their column
      (``score yatzy@3``, ``yatzy@3=50``); with one card they never do
      (``@1`` is accepted where a player types a move)
    * ``refusals``: ``(what, why)`` of everything these rules cannot do:
      ``risk`` (a risk parameter), ``simple`` (the simple policy),
      ``step`` (the improvement-step policy), ``greedy seat`` (a greedy
      computer seat at the table), ``target tables`` (a target, playing to
      win), ``theta seat`` (a match's seats beyond the policies), ``puzzles``,
      ``explanations`` (the parts table), ``one table`` (what reads the table of one card: strategy rows, the
      export)
    """

    name: str
    values: str
    exact: bool
    names_columns: bool
    refusals: tuple[tuple[str, str], ...] = ()

    def refuse(self, what: str) -> str | None:
        """Why these rules cannot do ``what``, or None."""
        return dict(self.refusals).get(what)

    def tag(self, column: int) -> str:
        """How a text names ``column`` (from 1): ``@3``, or nothing with one card."""
        return f"@{column}" if self.names_columns else ""

    def label(self, column: int) -> int:
        """``column`` (from 1) as an action or a log names it: itself, or 0
        (not named) with one card."""
        return column if self.names_columns else 0

    def of_column(self, column: int) -> str:
        """`` of column 3`` after a box's name, or nothing with one card."""
        return f" of column {column}" if self.names_columns else ""


ONE_CARD = Play("one card", EXACT, exact=True, names_columns=False,
                refusals=(("step", "step needs several columns"),))
COLUMNS = Play("columns", LOWER_BOUND, exact=False, names_columns=True, refusals=(
    ("risk", ONE_COLUMN),
    ("simple", ONE_COLUMN),
    ("greedy seat", "a computer seat of several columns plays optimal or step"),
    ("target tables", "target tables do not support several columns"),
    ("theta seat", "the win seat and theta need one column"),
    ("puzzles", ONE_COLUMN),
    ("explanations", "explanations cover one column"),
    ("one table", "it covers one column"),
))


def play_of(columns: int) -> Play:
    """How rules of ``columns`` columns are played: the one place the column
    count decides it (``Rules.play``)."""
    return COLUMNS if columns > 1 else ONE_CARD
