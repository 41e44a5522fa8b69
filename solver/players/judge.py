"""One decision valued against the strategy: the loss of a choice, as the
end review (``yatzy.research.review``) and the running loss of a game
(``yatzy.session``) both count it, so that the two are the same number.

    >>> from yatzy.api import Solver
    >>> solver = Solver("nordic")
    >>> card = solver.card("")
    >>> turn = solver.playing.turn(solver.table, card)
    >>> advice, chosen, loss, value, label = judge(solver.table, turn, card, (1, 1, 2, 5, 6),
    ...                                            2, Written(0))
    >>> label, loss > 0
    ('score ones (2)', True)
"""

from __future__ import annotations

from typing import NamedTuple

from yatzy.errors import InputError
from yatzy.players.strategy import strategy_for
from yatzy.position.scorecard import Scorecard
from yatzy.tables.values import StateValues


class Written(NamedTuple):
    """A decision to write the dice in ``box`` (its index) of ``column``
    (from 1; 0 with one column)."""

    box: int
    column: int = 0


def judge(table: StateValues, values_now, card: Scorecard, dice: tuple[int, ...],
          rerolls: int, choice: tuple[int, ...] | Written):
    """One decision valued as the review values it (every front end's
    running loss uses this, so that it equals the review's): ``choice`` is
    the dice kept (a tuple of dice) or the box written (``Written``);
    ``values_now`` is ``turn_values(table, card)``.  Returns the advice,
    the chosen action (None for keeping every die), its loss (a loss within
    ``tolerance(table)`` counts 0: the caller applies it, as ``review``
    does), its value and its label; InputError if the box may not take the
    dice."""
    strategy = strategy_for(card.rules)
    adv = strategy.advise(table, card, dice, rerolls, values_now)
    if isinstance(choice, Written):
        box, column = choice
        name = card.rules.boxes[box].name
        chosen = next((a for a in adv.actions if a.kind == "score" and a.box == name
                       and a.column == column), None)
        if chosen is None:
            raise InputError(f"{list(dice)} may not go in {name}")
        return adv, chosen, chosen.loss, chosen.expected_final_score, str(chosen)
    chosen = next((a for a in adv.actions if a.kind == "keep" and a.dice == choice), None)
    if chosen is None:      # kept every die: the same roll, one reroll less
        loss, value = strategy.keep_all(values_now, card, choice, rerolls, adv.best)
        return adv, None, loss, value, "keep " + " ".join(map(str, choice))
    return adv, chosen, chosen.loss, chosen.expected_final_score, str(chosen)


__all__ = ["Written", "judge"]
