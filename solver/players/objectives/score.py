"""Playing for the largest expected final score: the value table, and
ties within ``yatzy.rules.ties.tolerance`` points, played by the rules'
strategy (``yatzy.players.strategy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yatzy.players.objectives.base import Objective, Tables
from yatzy.players.strategy import strategy_for

if TYPE_CHECKING:
    from yatzy.position.actions import Advice
    from yatzy.position.scorecard import Scorecard


class Score(Objective):
    """The largest expected final score.

    >>> Score()
    Score()
    """

    name = "score"
    summary = "the largest expected final score"
    parameter = ""
    table = "value"
    theta = 0.0                       # the value table's risk parameter

    def __repr__(self) -> str:
        return "Score()"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.theta == self.theta

    def __hash__(self) -> int:
        return hash((type(self), self.theta))

    def advise(self, tables: Tables, card: Scorecard, dice: tuple[int, ...],
               rerolls: int) -> Advice:
        return strategy_for(card.rules).advise(tables.value_table(self.theta), card, dice,
                                               rerolls, tables.turn(card, self.theta))

    @property
    def ev_basis(self) -> Score:
        """``yatzy ev`` reports this objective's own value (``Risk``: its
        certainty equivalent)."""
        return self

    def value(self, tables: Tables, card: Scorecard) -> float:
        """The expected final score (with several columns: the value of
        playing them one after another, a lower bound of the strategy's;
        ``yatzy.players.strategy``)."""
        return strategy_for(card.rules).value(tables.value_table(self.theta), card)
