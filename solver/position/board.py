"""The board: every seat's card, whose turn it is, the dice of this turn,
and a move applied to it (``Board.apply``), checked against the rules and
nothing else.  A position (``Position``) is immutable; applying a move
gives the move as played (``Move``) and the position it leads to, as
scalachess's ``Game.apply`` does.  The dice of a roll are given, or drawn
from the seed: the ``n``-th draw's dice depend only on the seed and ``n``.

``yatzy.game.Game`` keeps the moves played over this board (the record,
undo and redo, the document).

    >>> from yatzy.rules.ruleset import parse_rules
    >>> from yatzy.position.scorecard import Scorecard
    >>> board = Board(parse_rules("nordic"), seed=1)
    >>> start = Position((Scorecard.empty(board.rules),))
    >>> move, pos = board.apply(start, "roll 11256")
    >>> move, pos.rolls
    (Move('roll 1 1 2 5 6', player=0), ((1, 1, 2, 5, 6),))
    >>> board.apply(pos, "score chance")[0]
    Move('score chance (15)', player=0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable

import numpy as np

from yatzy.bounds import brief, shown
from yatzy.errors import InputError
from yatzy.position.actions import Action, check_column
from yatzy.position.scorecard import Scorecard, end_turn
from yatzy.rules.grammar import GrammarError, Typed, parse
from yatzy.rules.objectives import ALL_POLICY_NAMES
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space

MAX_PLAYERS = 6
MAX_NAME = 40                    # characters of a player's name
# characters a name never keeps: controls (ESC, BEL: a terminal obeys them) and
# the bidirectional overrides (a name that turns the text after it around)
UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
KINDS = ("human", *ALL_POLICY_NAMES)   # a person, or a computer playing a declared policy
# The kinds of GameError, each with the fields it carries (a front end says
# each in its own words; str() is the English line)
GAME_ERRORS = {
    "empty_name": ("text",), "long_name": ("text", "most"), "bad_kind": ("text", "kinds"), "players": ("n", "most"),
    "same_name": (), "seat_kind": ("kind",), "nothing_undo": (), "nothing_redo": (),
    "game_over": (), "roll_first": (), "keep_first": (), "roll_count": ("n", "kept"),
    "bad_dice": ("text",), "no_rerolls": ("dice",), "not_among": ("dice", "roll"),
    "bad_move": ("text",), "name_column": ("n",), "bad_column": ("n",),
    "unknown_box": ("name",), "box_filled": ("box", "column"),
    "box_not_now": ("box", "column", "dice"), "wrong_points": ("box", "column", "points", "said"),
    "cannot_read": ("path",), "not_json": ("path",), "not_game": ("path",),
    "bad_saved_move": ("path", "n"),
}


# The GameError kinds of a line the grammar (yatzy.rules.grammar) does not
# read as a move; any other of its kinds is "bad_move"
GRAMMAR_KINDS = {"bad_dice": "bad_dice", "bad_face": "bad_dice", "too_many": "bad_dice",
                 "digits": "bad_dice", "unknown_box": "unknown_box", "bad_column": "bad_column",
                 "no_column": "bad_column", "one_column": "bad_column"}


class GameError(InputError):
    """A move the rules do not allow now, or a bad game or game file:
    ``kind`` (a key of ``GAME_ERRORS``) names the problem and ``fields``
    its particulars (boxes by their English name, columns from 1, 0 with
    one column), so a front end can say it in its own language; the text is
    the English line.  A move the grammar could not read has the grammar's
    ``GrammarError`` as its ``__cause__`` (its words in every language).

        >>> from yatzy.rules.ruleset import parse_rules
        >>> board = Board(parse_rules("nordic"), seed=1)
        >>> try:
        ...     board.apply(Position((Scorecard.empty(board.rules),)), "score chance")
        ... except GameError as e:
        ...     print(e.kind, "|", e)
        roll_first | 'score chance': roll the dice first
    """

    def __init__(self, kind: str, line: str, /, **fields):
        super().__init__(line)
        self.kind, self.fields = kind, fields


@dataclass(frozen=True)
class Player:
    """A seat at the table: ``kind`` is ``human`` or the policy a computer
    plays (``optimal``, ``greedy``, ``simple``; with several columns
    ``optimal`` or ``step``)."""

    name: str
    kind: str = "human"

    @classmethod
    def parse(cls, text: str) -> "Player":
        """``Ann`` (a person) or ``Bob=optimal`` (a computer); control
        characters are dropped from the name (a terminal would obey them), and
        it has at most ``MAX_NAME`` characters.

        >>> Player.parse("\\x1b]0;pwned\\x07Ann")
        Player(name=']0;pwnedAnn', kind='human')
        """
        name, eq, kind = text.partition("=")
        name, kind = UNSHOWN.sub("", name).strip(), (kind.strip().lower() if eq else "human")
        if not name:
            raise GameError("empty_name", f"player {brief(text)}: the name is empty",
                            text=text)
        if len(name) > MAX_NAME:
            raise GameError("long_name", f"player {brief(name)}: a name has at most "
                            f"{MAX_NAME} characters", text=shown(name), most=MAX_NAME)
        if kind not in KINDS:
            raise GameError("bad_kind", f"player {brief(text)}: expected NAME or NAME=KIND "
                            f"with KIND one of {', '.join(KINDS)}", text=text,
                            kinds=", ".join(KINDS))
        return cls(name, kind)

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    def __str__(self) -> str:
        return self.name if self.is_human else f"{self.name}={self.kind}"


@dataclass(frozen=True)
class Played:
    """One finished turn: the dice after each roll, the dice kept before
    each reroll, the box written, its points (bonuses excluded) and its
    column (from 1)."""

    player: int
    rolls: tuple[tuple[int, ...], ...]
    kept: tuple[tuple[int, ...], ...]
    box: int
    points: int
    column: int = 1


@dataclass(frozen=True)
class Position:
    """Everything a move can change.  ``rolls``/``kept`` are this turn's
    so far: after a keep, ``kept`` has as many entries as ``rolls`` and a
    roll is due.  ``draws`` is the number of the next draw from the
    generator on this line of play (the game may have drawn more)."""

    cards: tuple[Scorecard, ...]
    player: int = 0
    rolls: tuple[tuple[int, ...], ...] = ()
    kept: tuple[tuple[int, ...], ...] = ()
    draws: int = 0
    turns: tuple[Played, ...] = ()


@dataclass(frozen=True)
class Move:
    """A move as played: its text (``roll 1 1 2 5 6``, ``keep 5 6``,
    ``score chance (23)``, ``score chance@3 (23)``), the seat that made it,
    and whether the dice of a roll were drawn by the game's generator."""

    text: str
    player: int
    drawn: bool = False

    @property
    def is_roll(self) -> bool:
        return self.text.startswith("roll")

    @property
    def is_score(self) -> bool:
        """Whether the move writes a box (and so ends a turn)."""
        return self.text.startswith("score")

    def __repr__(self) -> str:
        return f"Move({self.text!r}, player={self.player}" + (", drawn=True)" if self.drawn
                                                              else ")")


def _dice_text(dice: Iterable[int]) -> str:
    return " ".join(map(str, dice))


def _minus(big: tuple[int, ...], small: tuple[int, ...]) -> tuple[int, ...] | None:
    """``big`` without the dice of ``small``; None if ``small`` is not in ``big``."""
    rest = list(big)
    for d in small:
        if d not in rest:
            return None
        rest.remove(d)
    return tuple(rest)



@dataclass(frozen=True)
class Board:
    """The moves of ``rules`` on a position, the dice drawn from ``seed``."""

    rules: Rules
    seed: int

    def apply(self, pos: Position, text: str, drawn: bool = False, number: int | None = None,
              fresh: int = 0) -> tuple[Move, Position]:
        """The move ``text`` made at ``pos`` and the position it leads to;
        ``text`` is read by ``yatzy.rules.grammar`` in every language.  A
        roll drawn from the seed draws ``number`` (default: the next one
        on this line of play, and at least ``fresh``, the draws made)."""
        if self.is_over_at(pos):
            raise GameError("game_over", "the game is over")
        due = not pos.rolls or len(pos.kept) == len(pos.rolls)
        try:
            typed = parse(text, self.rules, dice=None if due else pos.rolls[-1], roll_due=due,
                          commands=False)
        except GrammarError as e:       # its kind here; its words, in any language, its own
            kind = GRAMMAR_KINDS.get(e.kind, "bad_move")
            fields = {"bad_move": {"text": text}, "bad_dice": {"text": text},
                      "unknown_box": {"name": e.fields.get("name")},
                      "bad_column": {"n": self.rules.columns}}[kind]
            raise GameError(kind, str(e), **fields) from e
        except InputError as e:         # not text, or too long
            raise GameError("bad_move", str(e), text=str(text)) from None
        if typed.kind == "roll":
            return self._roll(pos, typed.dice, drawn, number, fresh)
        if due:
            raise GameError("roll_first", f"{brief(text.strip())}: roll the dice first")
        if typed.kind == "score":
            return self._score(pos, typed)
        return self._keep(pos, Action.keep(typed.dice))

    @staticmethod
    def is_over_at(pos: Position) -> bool:
        return all(c.is_full for c in pos.cards)

    @staticmethod
    def rerolls_at(pos: Position) -> int:
        return pos.cards[pos.player].max_rerolls - max(len(pos.rolls) - 1, 0)

    def _roll(self, pos: Position, given: tuple[int, ...] | None, drawn: bool,
              number: int | None, made: int) -> tuple[Move, Position]:
        """A roll at ``pos``: ``given`` dice, else the draw ``number``
        (default: the next on this line, at least ``made``)."""
        rules = self.rules
        if pos.rolls and len(pos.kept) < len(pos.rolls):
            raise GameError("keep_first", "keep some dice first ('keep 5 6', 'reroll all') "
                            "or score")
        kept = pos.kept[-1] if pos.rolls else ()
        fresh = rules.dice - len(kept)
        draws = pos.draws
        if not given:
            draws = max(draws, made) if number is None else number
            rng = np.random.default_rng([self.seed, draws])
            new = tuple(int(d) for d in rng.integers(1, rules.faces + 1, fresh))
            drawn, draws = True, draws + 1
        else:
            dice = given
            rest = _minus(dice, kept) if len(dice) == rules.dice and kept else None
            if len(dice) == fresh:
                new = dice
            elif rest is not None:
                new = rest
            else:
                wanted = (f"{fresh} dice (the ones rerolled) or all {rules.dice} "
                          f"with the kept {_dice_text(kept)}" if kept else f"{rules.dice} dice")
                raise GameError("roll_count", f"roll {_dice_text(dice)}: expected {wanted}", n=fresh, kept=_dice_text(kept))
            draws += drawn
        roll = tuple(sorted(kept + new))
        move = Move(f"roll {_dice_text(sorted(new))}", pos.player, drawn)
        return move, replace(pos, rolls=pos.rolls + (roll,), draws=draws)

    def _keep(self, pos: Position, action: Action) -> tuple[Move, Position]:
        dice = pos.rolls[-1]
        if self.rerolls_at(pos) == 0:
            raise GameError("no_rerolls", f"no rerolls left: score {_dice_text(dice)} in a box",
                            dice=_dice_text(dice))
        if _minus(dice, action.dice) is None:
            raise GameError("not_among", f"{action}: those dice are not among "
                            f"{_dice_text(dice)}", dice=_dice_text(action.dice),
                            roll=_dice_text(dice))
        return Move(str(action), pos.player), replace(pos, kept=pos.kept + (action.dice,))

    def _score(self, pos: Position, typed: Typed) -> tuple[Move, Position]:
        rules = self.rules
        try:
            column = check_column(rules, typed.column, typed.text) or 1
        except InputError as e:
            raise GameError("name_column", str(e), n=rules.columns) from None
        box = rules.box_index(typed.box)
        name = rules.boxes[box].name
        card, dice = pos.cards[pos.player], pos.rolls[-1]
        scores = {(c, b): p for c, b, p in self.score_options(card, dice)}
        where = name + rules.play.tag(column)
        at_column = rules.play.label(column)
        if (column, box) not in scores:
            if card.column(column).points[box] is not None:
                raise GameError("box_filled", f"box {where} is already filled", box=name,
                                column=at_column)
            raise GameError("box_not_now", f"box {where} may not take {_dice_text(dice)} now",
                            box=name, column=at_column, dice=_dice_text(dice))
        points = scores[column, box]
        said = typed.points
        if said is not None and said != points:
            raise GameError("wrong_points", f"{_dice_text(dice)} scores {points} in {where}, "
                            f"not {said}", box=name, column=at_column,
                            points=points, said=said)
        after = end_turn(card, box, points, dice, self.rerolls_at(pos), column)
        cards = list(pos.cards)
        cards[pos.player] = after
        played = Played(pos.player, pos.rolls, pos.kept, box, points, column)
        move = Move(f"score {where} ({points})", pos.player)
        return move, replace(pos, cards=tuple(cards), player=(pos.player + 1) % len(cards),
                             rolls=(), kept=(), turns=pos.turns + (played,))

    def score_options(self, card: Scorecard, dice: tuple[int, ...]
                      ) -> list[tuple[int, int, int]]:
        """``(column, box, points)`` for every box ``dice`` may be written in
        at ``card`` (the column from 1): the open boxes the order allows,
        and for a roll that must go in as a joker only the joker boxes, at
        joker points."""
        rules = self.rules
        r = rules.dice_space.roll_index(dice)
        face = int(rules.yahtzee_face[r])
        out = []
        for c, column in enumerate(card.columns, 1):
            allowed = column.allowed_boxes()
            joker = (int(state_space(column.rules).jokers(column.mask)[0, face])
                     if face >= 0 else 0)
            if joker:
                out += [(c, b, int(rules.joker_points[face, b])) for b in allowed
                        if joker >> b & 1]
            else:
                out += [(c, b, int(rules.scores[r, b])) for b in allowed]
        return out

    def protokoll(self, cards: tuple[Scorecard, ...]) -> list[dict]:
        """The scorecard as rows, as the source texts' protokoll: each box
        (``kind`` box, ``key`` its name), Sum and Bonus after the upper
        boxes, the yahtzee bonus and the bank where the rules have them,
        Total last; one cell per player and column (player by player, its
        columns in order: one per player with one column), None for an
        open box (or a bonus still undecided).  With several columns the
        Total cells are each column's own total and a last row
        ``weighted`` (kind total) gives it times the column's weight; a
        player's score is the sum of those (``scores()``)."""
        rules = self.rules
        cols = [col for card in cards for col in card.columns]
        one = cols[0].rules
        rows: list[dict] = []
        last_upper = max((i for i, b in enumerate(one.boxes) if b.is_upper), default=-1)
        for i, box in enumerate(one.boxes):
            rows.append({"key": box.name, "kind": "box", "cells": [c.points[i] for c in cols]})
            if i == last_upper:
                rows.append({"key": "sum", "kind": "sum", "cells": [c.upper_total for c in cols]})
                if one.bonus_points:
                    done = [all(p is not None for b, p in zip(one.boxes, c.points)
                                if b.is_upper) for c in cols]
                    rows.append({"key": "bonus", "kind": "sum",
                                 "cells": [c.bonus if c.bonus or d else None
                                           for c, d in zip(cols, done)]})
        if rules.yahtzee_bonus:
            rows.append({"key": "yahtzee_bonus", "kind": "sum",
                         "cells": [c.yahtzee_bonus for c in cols]})
        if rules.saved_rolls:
            rows.append({"key": "bank", "kind": "sum", "cells": [c.bank for c in cols]})
        rows.append({"key": "total", "kind": "total", "cells": [c.score for c in cols]})
        if rules.play.names_columns:
            weights = rules.column_weights * len(cards)
            rows.append({"key": "weighted", "kind": "total",
                         "cells": [w * c.score for w, c in zip(weights, cols)]})
        return rows


__all__ = ["GAME_ERRORS", "KINDS", "MAX_PLAYERS", "Board", "GameError", "Move", "Played",
           "Player", "Position"]
