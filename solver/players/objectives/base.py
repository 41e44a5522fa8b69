"""What every objective is: the table it reads, its value of a position
and of every action (its advice), and its rule for ties.

An objective is checked against a rule set once (``check``), then asked
with the tables it reads (``Tables``: the ``Solver``, which opens each on
first use)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar, Protocol

from yatzy.errors import InputError

if TYPE_CHECKING:
    from yatzy.players.futures import FuturesTable
    from yatzy.position.actions import Advice
    from yatzy.position.scorecard import Scorecard
    from yatzy.rules.ruleset import Rules
    from yatzy.tables.target import TargetTable
    from yatzy.tables.values import StateValues


class Tables(Protocol):
    """Where an objective's tables come from, each opened on first use
    (``yatzy.api.Solver`` is one)."""

    rules: Rules

    def value_table(self, theta: float = 0.0) -> StateValues: ...

    def turn(self, card: Scorecard, theta: float = 0.0): ...

    def target(self) -> TargetTable: ...

    def futures(self) -> FuturesTable: ...


class Objective(ABC):
    """What a player maximises.

    * ``name``, ``summary``; ``parameter``: the option that asks for it
      (``--theta``, ``--target``, ``--opponent``), empty for the default
    * ``table``: the table its advice reads
    * ``refuse(rules)``: why it is not available for ``rules``, or None
    * ``check(rules)``: the objective, checked for ``rules`` (one line
      ``InputError`` otherwise)
    * ``advise(tables, card, dice, rerolls)``: every action, best first,
      under the objective's own rule for ties
    * ``value(tables, card)``: its value from the start of the next turn
    * ``describe()``: the words after the advice's position line;
      ``as_dict()``: what a JSON answer says of it
    * how ``yatzy ev`` reports it: ``ev_basis`` (the expected-score objective
      whose value it prints: itself for ``Score`` and ``Risk``, else
      ``Score()``), ``ev_fields(tables, card)`` (what it adds to the JSON
      answer) and ``ev_lines(card, fields)`` (to the text)
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    parameter: ClassVar[str]
    table: ClassVar[str]

    @classmethod
    def refuse(cls, rules: Rules) -> str | None:
        return None

    def check(self, rules: Rules) -> Objective:
        why = self.refuse(rules)
        if why:
            raise InputError(f"rules {rules.spec}: {why}")
        return self

    @abstractmethod
    def advise(self, tables: Tables, card: Scorecard, dice: tuple[int, ...],
               rerolls: int) -> Advice: ...

    @abstractmethod
    def value(self, tables: Tables, card: Scorecard) -> float: ...

    def describe(self, advice) -> str:
        return ""

    def as_dict(self) -> dict:
        return {}

    @property
    @abstractmethod
    def ev_basis(self) -> Objective:
        """The expected-score objective ``yatzy ev`` reports beside this one."""

    def ev_fields(self, tables: Tables, card: Scorecard) -> dict:
        """What ``yatzy ev`` adds to its JSON answer for this objective."""
        return {}

    def ev_lines(self, card: Scorecard, fields: dict) -> list[str]:
        """What ``yatzy ev`` adds to its text for this objective
        (``fields``: ``ev_fields``'s answer)."""
        return []
