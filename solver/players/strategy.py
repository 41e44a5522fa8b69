"""How the solver plays a rule set: one strategy object per way of playing
(``yatzy.rules.play``), chosen once from the rules (``strategy_for``).

* ``OneCard``: the exact single-card game, read from the solved table
  (``yatzy.players.advice``): values exact.
* ``Columns``: several columns (Trippel-Yatzy), the strategy of
  ``yatzy.players.triple`` over the exact one-column table: the order and
  the losses the strategy's, the values lower bounds.

Each owns what differs between the two: whether a position has something
to decide (``check_position``), the values of a turn, kept while the
turn lasts (``turn``; the ``step`` policy's too), the advice
(``advise``), the value of a card (``value``), and what a review needs
beyond the advice (``keep_all``: keeping every die).  What the rules
allow is data (``strategy.play``: ``Play.values``, ``Play.refuse``).

    >>> from yatzy.rules.ruleset import parse_rules
    >>> strategy_for(parse_rules("nordic")), strategy_for(parse_rules("triple"))
    (OneCard(), Columns())
    >>> strategy_for(parse_rules("triple")).play.values
    'lower_bound'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from yatzy.players import advice, triple
from yatzy.rules.play import COLUMNS, ONE_CARD, Play

if TYPE_CHECKING:
    from yatzy.position.actions import Action, Advice
    from yatzy.position.scorecard import Scorecard
    from yatzy.rules.ruleset import Rules
    from yatzy.tables.values import StateValues


class Strategy(ABC):
    """How the solver plays one way of playing (``play``)."""

    play: Play

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @abstractmethod
    def check_position(self, card: Scorecard, rerolls: int) -> None:
        """InputError unless there is something to decide at ``card`` with
        ``rerolls`` left."""

    @abstractmethod
    def turn(self, table: StateValues, card: Scorecard, policy: str = "optimal"):
        """The values of the turn starting at ``card`` (computed level by
        level, kept while the turn lasts) under ``policy`` (``optimal``,
        or ``step`` with several columns)."""

    def advise(self, table: StateValues, card: Scorecard, dice: tuple[int, ...], rerolls: int,
               turn=None) -> Advice:
        """Every distinct action for the position, best first (``turn``:
        the turn's values so far, ``turn``)."""
        self.check_position(card, rerolls)
        return self.ranked(table, card, dice, rerolls, turn or self.turn(table, card))

    @abstractmethod
    def ranked(self, table: StateValues, card: Scorecard, dice: tuple[int, ...], rerolls: int,
               turn) -> Advice:
        """``advise`` of a checked position with the turn's values."""

    @abstractmethod
    def value(self, table: StateValues, card: Scorecard) -> float:
        """The value of ``card`` from the start of its next turn, on the
        advice's scale (``play.values``)."""

    @abstractmethod
    def keep_all(self, turn, card: Scorecard, kept: tuple[int, ...], rerolls: int,
                 best: Action) -> tuple[float, float]:
        """Loss and value of keeping every die (the same roll with one
        reroll less; not an action of the advice), as a review counts them."""


class OneCard(Strategy):
    """The exact single-card game: the solved table's optimum."""

    play = ONE_CARD

    def check_position(self, card: Scorecard, rerolls: int) -> None:
        advice.check_position(card, rerolls)

    def turn(self, table: StateValues, card: Scorecard, policy: str = "optimal"):
        return advice.TurnValues(table, card)

    def ranked(self, table: StateValues, card: Scorecard, dice: tuple[int, ...], rerolls: int,
               turn) -> Advice:
        return advice.exact_advice(table, card, dice, rerolls, turn)

    def value(self, table: StateValues, card: Scorecard) -> float:
        return advice.expected_final_score(table, card)

    def keep_all(self, turn, card: Scorecard, kept: tuple[int, ...], rerolls: int,
                 best: Action) -> tuple[float, float]:
        m = turn.table.rules.dice_space.multiset_index(kept)
        value = card.score + float(turn.keeps(rerolls)[m])
        return best.expected_final_score - value, value


class Columns(Strategy):
    """Several columns: the Trippel strategy (``yatzy.players.triple``)."""

    play = COLUMNS

    def check_position(self, card: Scorecard, rerolls: int) -> None:
        triple.check_position(card.rules, card, rerolls)

    def turn(self, table: StateValues, card: Scorecard, policy: str = "optimal"):
        coupling = triple.no_coupling(card.rules) if policy == "step" else None
        return triple.TripleTurn(table, card, coupling)

    def ranked(self, table: StateValues, card: Scorecard, dice: tuple[int, ...], rerolls: int,
               turn) -> Advice:
        return triple.advise(table, card, dice, rerolls, turn)

    def value(self, table: StateValues, card: Scorecard) -> float:
        return triple.lower_bound(table, card)

    def keep_all(self, turn, card: Scorecard, kept: tuple[int, ...], rerolls: int,
                 best: Action) -> tuple[float, float]:
        """The loss in the strategy's own values; the value its bound."""
        ds = turn.table.rules.dice_space
        m = ds.multiset_index(kept)
        loss = float(turn.rolls(rerolls)[ds.roll_index(kept)]) - float(turn.keeps(rerolls)[m])
        return loss, card.score + float(turn.bound_keeps(rerolls)[m])


STRATEGIES: dict[str, Strategy] = {s.play.name: s for s in (OneCard(), Columns())}


def strategy_for(rules: Rules) -> Strategy:
    """The strategy that plays ``rules`` (``Rules.play``)."""
    return STRATEGIES[rules.play.name]


def turn_values(table: StateValues, card: Scorecard):
    """The values of the turn starting at ``card``, to reuse within the turn,
    as the rules' strategy keeps them (``yatzy.players.advice.TurnValues``,
    or with several columns ``yatzy.players.triple.TripleTurn``)."""
    return strategy_for(card.rules).turn(table, card)


def advise(table: StateValues, card: Scorecard, dice: tuple[int, ...], rerolls: int,
           turn=None) -> Advice:
    """Every distinct action for the position, best first, with losses
    (``turn``: the turn's values so far, ``turn_values``, to reuse within
    a turn), by the rules' strategy: one card exactly
    (``yatzy.players.advice.exact_advice``); several columns,
    ``yatzy.players.triple.advise``.  (The other objectives' advice:
    ``yatzy.players.objectives``.)"""
    return strategy_for(card.rules).advise(table, card, dice, rerolls, turn)
