"""What a player does in a position, and the advice on it.

An ``Action`` is a move: keep some dice and reroll the rest, or score the
dice in a box.  It prints and parses as text::

    >>> from yatzy.position.actions import Action
    >>> Action.parse("keep 5 6")
    Action.parse('keep 5 6')
    >>> str(Action.parse("score chance (23)"))
    'score chance (23)'
    >>> Action.parse("keep 56") == Action.parse("keep 5,6")
    True

Under rules with several columns (``triple``) a score names its column
(from 1): ``score yatzy@3 (50)``; with one column the column is 0 and not
printed.

Keeping nothing prints as ``reroll all``.  A scored action carries its
points when known (``score chance (23)``); they do not take part in
comparisons, which are about the move.  Actions from advice also carry the
expected final score after them and their loss against the best action
(also left out of comparisons).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from yatzy.bounds import check_text, shown, whole_text
from yatzy.errors import InputError
from yatzy.rules.dice import parse_dice
from yatzy.rules.play import EXACT, LOWER_BOUND

if TYPE_CHECKING:
    from yatzy.position.scorecard import Scorecard
    from yatzy.rules.ruleset import Rules


class ActionKind(StrEnum):
    KEEP = "keep"          # keep ``dice``, reroll the others
    SCORE = "score"        # write the dice in ``box``


@dataclass(frozen=True)
class Action:
    """Keep ``dice`` and reroll the rest, or score ``points`` in ``box``."""

    kind: ActionKind
    dice: tuple[int, ...] = ()      # dice kept (keep)
    box: str = ""                   # box name (score)
    column: int = 0                 # the column scored in, from 1 (several columns); else 0
    points: int | None = field(default=None, compare=False)     # written (score), bonus excluded
    expected_final_score: float = field(default=math.nan, compare=False)
    loss: float = field(default=math.nan, compare=False)          # best value minus this one
    p_at_least: float | None = field(default=None, compare=False)  # chance to reach a target

    def __post_init__(self):
        if type(self.kind) is not ActionKind:
            object.__setattr__(self, "kind", ActionKind(self.kind))

    @classmethod
    def keep(cls, dice: tuple[int, ...]) -> "Action":
        return cls(ActionKind.KEEP, dice=tuple(sorted(dice)))

    @classmethod
    def score(cls, box: str, points: int | None = None, column: int = 0) -> "Action":
        return cls(ActionKind.SCORE, box=box, points=points, column=column)

    @classmethod
    def parse(cls, text: str, rules: Rules | None = None) -> "Action":
        """``keep 5 6`` (or ``keep 56``, ``keep 5,6``), ``reroll all``,
        ``score chance`` or ``score chance (23)``; ``score chance@3`` in
        column 3.  With ``rules``, box names may be aliases (``sjanse``),
        dice are checked against the game's dice, and a score must name a
        column exactly when the rules have several.  Text that is not a
        ``str`` raises ``yatzy.bounds.WrongType`` (a TypeError)."""
        words = check_text(text, "action").strip().lower()
        faces, most = (rules.faces, rules.dice - 1) if rules is not None else (9, None)
        if words in ("reroll all", "reroll", "keep", "keep none"):
            return cls.keep(())
        if words.startswith("keep "):
            dice = parse_dice(words[5:], None, faces, most)
            if rules is not None and len(dice) >= rules.dice:
                raise InputError(f"action {shown(text, 40)}: keeping all {rules.dice} dice is "
                                 "stopping; score them instead")
            return cls.keep(dice)
        m = re.fullmatch(r"score\s+([^\s(@]+)\s*(?:@\s*(\d+))?\s*"
                         r"(?:\(\s*(\d+)\s*\)|(\d+))?", words)
        if m:
            box, column = m.group(1), int(m.group(2) or 0)
            if rules is not None:
                box = rules.boxes[rules.box_index(box)].name
                column = check_column(rules, column, text.strip())
            points = m.group(3) or m.group(4)
            return cls.score(box, None if points is None else whole_text(points, "points"),
                             column)
        raise InputError(f"action {shown(text, 40)}: expected 'keep 5 6', 'reroll all' or "
                         "'score BOX'")

    def __str__(self) -> str:
        if self.kind is ActionKind.SCORE:
            return (f"score {self.box}" + (f"@{self.column}" if self.column else "")
                    + ("" if self.points is None else f" ({self.points})"))
        return "reroll all" if not self.dice else "keep " + " ".join(map(str, self.dice))

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def with_value(self, expected_final_score: float, loss: float = math.nan) -> "Action":
        return replace(self, expected_final_score=expected_final_score, loss=loss)

    def as_dict(self) -> dict:
        out: dict = {"action": self.kind.value}
        if self.kind is ActionKind.KEEP:
            out["dice"] = list(self.dice)
        else:
            out["box"] = self.box
            if self.column:
                out["column"] = self.column
            out["points"] = self.points
        if not math.isnan(self.expected_final_score):
            out["expected_final_score"] = self.expected_final_score
        if not math.isnan(self.loss):
            out["loss"] = self.loss
        if self.p_at_least is not None:
            out["p_at_least"] = self.p_at_least
        return out


def check_column(rules: Rules, column: int, what: str) -> int:
    """The column of a score under ``rules`` as an action names it
    (``Play.label``): 1..columns where the rules name columns (0, not
    named, is an error), 0 with one card (``@1`` accepted)."""
    if column == 0 and rules.play.names_columns:
        raise InputError(f"{what}: name the column, e.g. 'score chance@{rules.columns}' "
                         f"(columns 1..{rules.columns})")
    if column > rules.columns and not rules.play.names_columns:
        raise InputError(f"{what}: rules {rules.spec} have one column")
    if not 0 <= column <= rules.columns:
        raise InputError(f"{what}: column {column} does not exist (columns 1..{rules.columns})")
    return rules.play.label(column)


@dataclass(frozen=True)
class Advice:
    """Every distinct action in a position, best first, with values and
    losses.  ``values`` says what the values are: ``EXACT`` (one column),
    or ``LOWER_BOUND`` with several columns -- then each action's
    ``expected_final_score`` is the exact expectation of taking it, playing
    the rest of the turn as the strategy does, then the columns one after
    another (a lower bound of what the strategy scores; ``yatzy ev``
    estimates that from played games), while the order and the ``loss``
    are the strategy's own (its values include the coupling term between
    the columns, ``yatzy.players.triple``)."""

    card: Scorecard
    dice: tuple[int, ...]
    rerolls: int
    actions: tuple[Action, ...]     # best first; ties in the order of preference
    values: str = EXACT

    @property
    def best(self) -> Action:
        return self.actions[0]

    def ties(self) -> tuple[Action, ...]:
        """The actions tied with the best."""
        return tuple(a for a in self.actions if a.loss == 0.0)

    def find(self, action: Action | str) -> Action:
        """This advice's entry for ``action`` (an Action or its text);
        InputError if the action is not possible here."""
        rules = self.card.rules
        want = Action.parse(action, rules) if isinstance(action, str) else action
        for a in self.actions:
            if a == want:
                return a
        raise InputError(f"{want} is not possible with dice "
                         f"{' '.join(map(str, self.dice))} here")

    def __str__(self) -> str:
        chance = bool(self.actions) and self.actions[0].p_at_least is not None
        head = "expected" if self.values == EXACT else "bound"
        lines = [f"{'':>3} {'action':<28}" + (f" {'P(>=T)':>9}" if chance else "")
                 + f" {head:>10} {'loss':>8}"]
        for i, (a, loss) in enumerate(zip(self.actions, loss_cells(self.actions)), 1):
            lines.append(f"{i:>3} {str(a):<28}" + (f" {chance_text(a.p_at_least):>9}" if chance else "")
                         + f" {a.expected_final_score:>10.3f} {loss:>8}")
        if self.values == LOWER_BOUND:
            lines.append(LOWER_BOUND_NOTE)
        return "\n".join(lines)


def chance_text(p: float) -> str:
    """A chance as a table shows it: five decimals, or below 1e-4 (not 0)
    its significant digits, so that small chances are not shown as ties.

    >>> chance_text(0.914281), chance_text(2.3703878e-10), chance_text(0.0)
    ('0.91428', '2.37e-10', '0.00000')
    """
    return f"{p:.5f}" if p == 0 or p >= 1e-4 else f"{p:.2e}"


def loss_cells(actions) -> list[str]:
    """The loss column of a table of ``actions``: the expected points each
    gives up against the best, as ``Action.loss`` and the JSON have it (a
    positive number, no sign); ``best`` for the first action that gives up
    nothing, ``tie`` for a later one exactly as good.  The same in every
    ranking (by expected score, by the chance of a target, by the chance to
    win): the column is always in expected points.

    >>> from types import SimpleNamespace as A
    >>> loss_cells([A(loss=0.0), A(loss=0.0), A(loss=0.0341)])
    ['best', 'tie', '0.034']
    >>> loss_cells([A(loss=1.5), A(loss=0.0)])      # ranked by a chance, not by points
    ['1.500', 'best']
    """
    cells, seen = [], False
    for a in actions:
        if a.loss == 0:
            cells.append("tie" if seen else "best")
            seen = True
        else:
            cells.append(f"{a.loss:.3f}")
    return cells


LOWER_BOUND_NOTE = ("bound: exact final score expected if the columns are played one by one "
                    "after this turn (a lower bound); order and loss: the strategy's")
