"""Playing for a target: the largest chance to finish with at least
``points`` (the target table, ``yatzy.tables.target``).  Chances are tied
only when they agree to ``yatzy.rules.ties.CHANCE_BITS`` significant bits
(relative): a chance of 2e-10 is never tied with 0."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yatzy import bounds
from yatzy.players.advice import (
    TurnValues,
    action_values,
    check_position,
    losses,
    ranked_advice,
)
from yatzy.players.objectives.base import Objective, Tables
from yatzy.players.objectives.score import Score
from yatzy.rules.objectives import target_tables_refusal
from yatzy.rules.ties import RELATIVE, ranking

if TYPE_CHECKING:
    from yatzy.position.actions import Advice
    from yatzy.position.scorecard import Scorecard
    from yatzy.rules.ruleset import Rules
    from yatzy.tables.target import TargetTable
    from yatzy.tables.values import StateValues


class Target(Objective):
    """The largest chance to finish with at least ``points``.

    >>> Target(200)
    Target(200)
    """

    name = "target"
    summary = "the largest chance to reach a final score"
    parameter = "--target"
    table = "target"

    def __init__(self, points: int):
        self.points = points

    def __repr__(self) -> str:
        return f"Target({self.points!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Target) and other.points == self.points

    def __hash__(self) -> int:
        return hash((Target, self.points))

    @classmethod
    def refuse(cls, rules: Rules) -> str | None:
        return target_tables_refusal(rules)

    def check(self, rules: Rules) -> Target:
        goal = bounds.check_target(self.points, rules.max_score)
        super().check(rules)
        return Target(goal)

    def advise(self, tables: Tables, card: Scorecard, dice: tuple[int, ...],
               rerolls: int) -> Advice:
        """Every action ranked by its largest chance to finish at or above
        the target (``Action.p_at_least``), each with its expected final
        score and loss too."""
        target = tables.target()
        target.need(card.mask, card.upper_state)    # the position's sub-game, if not solved yet
        return advise_target(tables.value_table(), target, card, dice, rerolls, self.points)

    @property
    def ev_basis(self) -> Score:
        """``yatzy ev`` reports the expected score beside the chance."""
        return Score()

    def value(self, tables: Tables, card: Scorecard) -> float:
        """The largest chance to finish at or above the target (1 when the
        card holds it already)."""
        return tables.target().probability(card, self.points)

    def describe(self, advice) -> str:
        return (f", target {self.points}: ranked by the largest chance to reach it"
                + self.note(advice.card, advice.best.p_at_least))

    def note(self, card: Scorecard, chance: float) -> str:
        """Why a chance is 1 or 0, when it is."""
        if card.score >= self.points:
            return "  (reached: the card already holds it)"
        if chance == 0.0:
            return "  (out of reach: the open boxes cannot make it)"
        return ""

    def as_dict(self) -> dict:
        return {"target": self.points}

    def ev_fields(self, tables: Tables, card: Scorecard) -> dict:
        """The target and the largest chance to reach it from ``card``
        (the target checked for the rules first)."""
        goal = self.check(tables.rules)
        return {"target": goal.points, "p_at_least": goal.value(tables, card)}

    def ev_lines(self, card: Scorecard, fields: dict) -> list[str]:
        goal, chance = Target(fields["target"]), fields["p_at_least"]
        return [f"{f'P(final >= {goal.points})':<22}{chance:.6f}" + goal.note(card, chance)]


def advise_target(table: StateValues, target: TargetTable, card: Scorecard,
                  dice: tuple[int, ...], rerolls: int, goal: int) -> Advice:
    """The advice of ``Target(goal)`` from the value table and the target
    table: ranked by chance (ties relative), then by preference."""
    check_position(card, rerolls)
    moves, codes, values = action_values(TurnValues(table, card), dice, rerolls)
    _, _, chances = action_values(TurnValues(table, card, target, goal - card.score),
                                  dice, rerolls)
    chances = [min(p, 1.0) for p in chances]
    return ranked_advice(card, dice, rerolls, moves, ranking(chances, codes, 0.0, RELATIVE),
                         values, losses(table, values), chances)
