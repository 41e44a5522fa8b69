"""Playing for the largest expected final score: the value table, and
ties within ``solver.rules.ties.tolerance`` points (``solver.players.advice``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.players import triple
from solver.players.advice import advise, expected_final_score
from solver.players.objectives.base import Objective, Tables

if TYPE_CHECKING:
    from solver.position.actions import Advice
    from solver.position.scorecard import Scorecard


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
        return advise(tables.value_table(self.theta), card, dice, rerolls)

    def value(self, tables: Tables, card: Scorecard) -> float:
        """The expected final score (with several columns: the value of
        playing them one after another, a lower bound of the strategy's)."""
        if card.rules.columns > 1:
            return triple.lower_bound(tables.value_table(self.theta), card)
        return expected_final_score(tables.value_table(self.theta), card)
