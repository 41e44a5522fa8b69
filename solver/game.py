"""A game at the table: players, their cards, whose turn it is, the dice, and
every move checked against the rules, with undo and redo.

``Game`` is to ``yatzy`` what python-chess's ``Board`` is to chess: the
coach in the terminal (``yatzy play``) and any later front end drive this
one object.  Moves are text and round-trip::

    >>> game = Game("nordic", ["Ann", "Bob=optimal"], seed=1)
    >>> game.play("roll 11256")
    Move('roll 1 1 2 5 6', player=0)
    >>> game.play("keep 5 6")
    Move('keep 5 6', player=0)
    >>> game.play("roll 566")                 # the three rerolled dice
    Move('roll 5 6 6', player=0)
    >>> game.dice, game.rerolls
    ((5, 5, 6, 6, 6), 1)
    >>> game.play("score full house")         # any language: "hus", "kåk"
    Move('score full_house (28)', player=0)
    >>> game.player.name, game.undo().text, game.player.name
    ('Bob', 'score full_house (28)', 'Ann')

A roll is given (``roll 11256``; after a keep, the rerolled dice or all of
them) or drawn from the game's seeded generator (``roll``): the dice of the
``n``-th draw depend only on the seed and ``n``.  Draws are numbered over
the whole game, undone ones included, so a roll once drawn is never drawn
again: after an undo the next roll draws fresh dice (``redo`` plays the
same dice again), and nobody learns the dice to come by undoing.

A position (``Position``) is immutable: each move pushes the position it
left on the move stack, ``undo()`` restores it and keeps the move for
``redo()``; a new move clears the moves to redo.  ``legal_actions()`` lists
the keeps and scores allowed now (none while a roll is due), ``advice()``
values them with the optimal strategy (``Solver``'s table, solved on first
use).  Under saved rolls, stopping banks the rerolls left
(``query.end_turn``); under American rules a further yahtzee earns the
yahtzee bonus and may go only where the joker rule allows.

Each player has one ``Scorecard``; under rules with several columns
(Trippel-Yatzy: three, 45 turns, column ``c`` counting ``c`` times with its
own bonus) a score names its column, and the advice is the Trippel
strategy's (``yatzy.players.triple``), its values lower bounds
(``Game.values``)::

    >>> game = Game("triple", ["Ann"], seed=3)
    >>> game.play("roll 66666")
    Move('roll 6 6 6 6 6', player=0)
    >>> game.play("score yatzy@3")
    Move('score yatzy@3 (50)', player=0)
    >>> game.score_total(0), len(game.protokoll()[0]["cells"])
    (150, 3)

``save``/``load`` write and read a small versioned JSON document (the
moves, replayed and so checked on load, and ``settings``: a front end's
own choices, such as the coach's language and undo rule; documents
without it load with none); ``log_lines()`` is the game as a
``yatzy.research.review`` log (with a ``column`` per turn where the rules
have several).
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from yatzy.api import Solver, check_seed
from yatzy.bounds import MAX_SEED, brief, parse_json, shown
from yatzy.errors import InputError
from yatzy.files import read_text, write_text
from yatzy.position.actions import Action, Advice, check_column
from yatzy.position.scorecard import Scorecard, end_turn
from yatzy.research.review import Turn, header_line, turn_line
from yatzy.rules.grammar import GrammarError, Typed, parse
from yatzy.rules.objectives import ALL_POLICY_NAMES, policy_for
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space

GAME_VERSION = 1
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

        >>> game = Game("nordic", ["Ann"])
        >>> try:
        ...     game.play("score chance")
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


def whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def draws_of(obj: dict, n: int) -> tuple[dict[int, int | None], int] | None:
    """A game document's drawn moves (of ``n``), each with its draw's
    number (None in a document that does not give them), and the draws
    made; None where they are malformed.

    >>> draws_of({"drawn": [0, 2], "draw_numbers": [0, 3], "draws_made": 5}, 3)
    ({0: 0, 2: 3}, 5)
    >>> draws_of({"drawn": [0, 7]}, 3) is None
    True
    """
    drawn, numbers, made = obj.get("drawn", []), obj.get("draw_numbers"), obj.get("draws_made", 0)
    if not isinstance(drawn, list) or not all(whole(i) and 0 <= i < n for i in drawn) \
            or not whole(made) or not 0 <= made <= 1 << 62:
        return None
    if numbers is None:
        return dict.fromkeys(drawn), made
    if not isinstance(numbers, list) or len(numbers) != len(drawn) \
            or not all(whole(k) and 0 <= k < 1 << 62 for k in numbers):
        return None
    return dict(zip(drawn, numbers)), made


def _minus(big: tuple[int, ...], small: tuple[int, ...]) -> tuple[int, ...] | None:
    """``big`` without the dice of ``small``; None if ``small`` is not in ``big``."""
    rest = list(big)
    for d in small:
        if d not in rest:
            return None
        rest.remove(d)
    return tuple(rest)


class Game:
    """A game of ``rules`` (a spec, ``Rules`` or a ``Solver``) for 1..6
    ``players`` (``Player`` objects or their text ``Ann``, ``Bob=optimal``),
    seats in the order given; ``seed`` drives the dice drawn by ``roll``
    (default: a random seed, kept with the game); ``tables``: where the
    solver's tables are stored."""

    def __init__(self, rules: Rules | str | Solver = "nordic",
                 players: Sequence[Player | str] = ("Player",), *, seed: int | None = None,
                 tables: str | Path | None = None):
        self.solver = rules if isinstance(rules, Solver) else Solver(rules, tables=tables)
        self.rules: Rules = self.solver.rules
        seats = tuple(p if isinstance(p, Player) else Player.parse(p) for p in players)
        if not 1 <= len(seats) <= MAX_PLAYERS:
            raise GameError("players", f"{len(seats)} players: a game has 1..{MAX_PLAYERS}",
                            n=len(seats), most=MAX_PLAYERS)
        names = [p.name.lower() for p in seats]
        if len(set(names)) != len(names):
            raise GameError("same_name", "two players share a name")
        for kind in sorted({p.kind for p in seats if not p.is_human}):
            try:
                policy_for(kind, self.rules, seat=True)  # one line: what a seat may play
            except InputError as e:
                raise GameError("seat_kind", str(e), kind=kind) from None
        self.players = seats
        self.seed = check_seed(secrets.randbelow(MAX_SEED) if seed is None else seed)
        empty = Scorecard.empty(self.rules)
        self._position = Position(tuple(empty for _ in seats))
        self._stack: list[tuple[Move, Position]] = []     # each move and the position before it
        self._redo: list[tuple[Move, Position]] = []      # undone moves and where they led
        self._fresh = 0         # draws made, undone ones included: the next draw's number
        self._turn: tuple[Scorecard, object] | None = None     # the card and its turn values
        self.settings: dict = {}     # a front end's own settings, kept in the document

    def __repr__(self) -> str:
        return (f"Game({self.rules.spec!r}, {[str(p) for p in self.players]!r}, "
                f"seed={self.seed})")

    # ------------------------------------------------------------ the position
    @property
    def position(self) -> Position:
        return self._position

    @property
    def turn_player(self) -> int:
        """Seat index of the player to move."""
        return self._position.player

    @property
    def player(self) -> Player:
        """The player to move."""
        return self.players[self._position.player]

    @property
    def cards(self) -> tuple[Scorecard, ...]:
        """Each seat's card (with all its columns)."""
        return self._position.cards

    @property
    def card(self) -> Scorecard:
        """The card of the player to move."""
        return self.cards[self._position.player]

    @property
    def turns_per_player(self) -> int:
        """Turns each player plays: every box of every column."""
        return self.rules.n_boxes * self.rules.columns

    @property
    def values(self) -> str:
        """What ``advice()`` and ``expected_score()`` give: ``EXACT``, or
        with several columns ``LOWER_BOUND`` (exact for the columns played
        one by one after the turn; the strategy scores more)."""
        return self.rules.play.values

    @property
    def dice(self) -> tuple[int, ...] | None:
        """The dice of the last roll this turn (None before the first)."""
        rolls = self._position.rolls
        return rolls[-1] if rolls else None

    @property
    def kept(self) -> tuple[int, ...] | None:
        """The dice kept for the roll that is due (None unless one is due
        after a keep)."""
        p = self._position
        return p.kept[-1] if p.rolls and len(p.kept) == len(p.rolls) else None

    @property
    def rerolls(self) -> int:
        """Rerolls left after the last roll (own and banked); before the
        first roll, all the turn has."""
        return self.card.max_rerolls - max(len(self._position.rolls) - 1, 0)

    @property
    def needs_roll(self) -> bool:
        """Whether the next move is a roll (turn start, or after a keep)."""
        p = self._position
        return not self.is_over and len(p.kept) == len(p.rolls)

    @property
    def is_over(self) -> bool:
        return all(c.is_full for c in self.cards)

    @property
    def turns(self) -> tuple[Played, ...]:
        """The finished turns, in the order played."""
        return self._position.turns

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played, first first."""
        return tuple(m for m, _ in self._stack)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The moves ``redo()`` would play again, next first."""
        return tuple(m for m, _ in reversed(self._redo))

    def scores(self) -> tuple[int, ...]:
        """Each seat's score (several columns: each column's times its weight)."""
        return tuple(c.score for c in self.cards)

    def score_total(self, seat: int) -> int:
        return self.cards[seat].score

    def ranking(self) -> list[tuple[int, int, int]]:
        """``(place, seat, score)`` best first; equal scores share a place."""
        order = sorted(range(len(self.players)), key=lambda i: -self.cards[i].score)
        out: list[tuple[int, int, int]] = []
        for n, i in enumerate(order):
            score = self.cards[i].score
            place = out[-1][0] if out and out[-1][2] == score else n + 1
            out.append((place, i, score))
        return out

    # ---------------------------------------------------------------- moves
    def protokoll(self) -> list[dict]:
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
        cols = [col for card in self.cards for col in card.columns]
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
            weights = rules.column_weights * len(self.cards)
            rows.append({"key": "weighted", "kind": "total",
                         "cells": [w * c.score for w, c in zip(weights, cols)]})
        return rows

    def play(self, move: str) -> Move:
        """Play ``move`` (``roll``, ``roll 11256``, ``keep 5 6``, ``reroll
        all``, ``score chance``, or any phrasing ``yatzy.rules.grammar``
        reads in English, Norwegian or Swedish: ``behold 5 5``, ``spara 6
        6``, ``skriv kåk``, ``stryk yatzy``, ``toere i kolonne 3``):
        InputError, game unchanged, if it is not legal now.  A new move
        clears the moves to redo."""
        done, after = self._apply(self._position, move)
        self._push(done, after)
        self._redo.clear()
        return done

    def _push(self, move: Move, after: Position) -> None:
        self._stack.append((move, self._position))
        self._position = after
        if move.drawn:
            self._fresh = max(self._fresh, after.draws)

    def undo(self) -> Move:
        """Take back the last move (InputError if there is none)."""
        if not self._stack:
            raise GameError("nothing_undo", "nothing to undo")
        move, before = self._stack.pop()
        self._redo.append((move, self._position))
        self._position = before
        return move

    def redo(self) -> Move:
        """Play again the last move undone (InputError if there is none)."""
        if not self._redo:
            raise GameError("nothing_redo", "nothing to redo")
        move, after = self._redo.pop()       # the same position again, its dice the same
        self._push(move, after)
        return move

    def _apply(self, pos: Position, text: str, drawn: bool = False, number: int | None = None
               ) -> tuple[Move, Position]:
        """The move ``text`` made at ``pos`` and the position it leads to;
        ``text`` is read by ``yatzy.rules.grammar`` in every language."""
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
            return self._roll(pos, typed.dice, drawn, number)
        if due:
            raise GameError("roll_first", f"{brief(text.strip())}: roll the dice first")
        if typed.kind == "score":
            return self._score(pos, typed)
        return self._keep(pos, Action.keep(typed.dice))

    @staticmethod
    def is_over_at(pos: Position) -> bool:
        return all(c.is_full for c in pos.cards)

    def _rerolls_at(self, pos: Position) -> int:
        return pos.cards[pos.player].max_rerolls - max(len(pos.rolls) - 1, 0)

    def _roll(self, pos: Position, given: tuple[int, ...] | None, drawn: bool,
              number: int | None = None) -> tuple[Move, Position]:
        """A roll at ``pos``: ``given`` dice, else the draw ``number``
        (default: the next the game has not made)."""
        rules = self.rules
        if pos.rolls and len(pos.kept) < len(pos.rolls):
            raise GameError("keep_first", "keep some dice first ('keep 5 6', 'reroll all') "
                            "or score")
        kept = pos.kept[-1] if pos.rolls else ()
        fresh = rules.dice - len(kept)
        draws = pos.draws
        if not given:
            draws = max(draws, self._fresh) if number is None else number
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
        if self._rerolls_at(pos) == 0:
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
        after = end_turn(card, box, points, dice, self._rerolls_at(pos), column)
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

    def legal_actions(self) -> tuple[Action, ...]:
        """The keeps (when rerolls are left; keeping all is not a keep) and
        scores allowed now (naming their column where the rules have
        several), keeps largest first; empty while a roll is due."""
        if self.needs_roll or self.is_over:
            return ()
        ds = self.rules.dice_space
        dice = self.dice
        label = self.rules.play.label
        out = [Action.score(self.rules.boxes[b].name, p, label(c))
               for c, b, p in self.score_options(self.card, dice)]
        if self.rerolls:
            r = ds.roll_index(dice)
            keeps = {ds.dice_of(int(m)) for m in ds.subsets[r]} - {dice}
            out += [Action.keep(k) for k in sorted(keeps, key=lambda k: (-len(k), k))]
        return tuple(out)

    # --------------------------------------------------------------- advice
    def advice(self) -> Advice:
        """Every action of the player to move, valued with the optimal
        strategy (several columns: the Trippel strategy, values labelled
        ``Advice.values``), best first (InputError while a roll is due)."""
        if self.is_over:
            raise GameError("game_over", "the game is over")
        if self.needs_roll:
            raise GameError("roll_first", "roll the dice first")
        card, strategy = self.card, self.solver.playing
        if self._turn is None or self._turn[0] != card:
            self._turn = (card, strategy.turn(self.solver.table, card))
        return strategy.advise(self.solver.table, card, self.dice, self.rerolls, self._turn[1])

    def expected_score(self, seat: int | None = None) -> float:
        """Expected final score of a player (default: the one to move) from
        the start of their next turn (several columns: of the columns
        played one by one, a lower bound; ``values``)."""
        card = self.cards[self.turn_player if seat is None else seat]
        return float(card.score) if card.is_full else self.solver.ev(card)

    # ------------------------------------------------------------ the log
    def log_lines(self) -> list[str]:
        """The finished turns as a ``yatzy.research.review`` log: a header, then one
        line per turn; each seat is a game of its own (game = seat + 1),
        its turns together."""
        out = [header_line(self.rules, players=[p.name for p in self.players], seed=self.seed)]
        label = self.rules.play.label
        for seat in range(len(self.players)):
            mine = [t for t in self.turns if t.player == seat]
            out += [turn_line(self.rules, seat + 1, n, list(t.rolls), list(t.kept), t.box,
                              t.points, label(t.column))
                    for n, t in enumerate(mine, 1)]
        return out

    def log_turns(self, seat: int) -> list[Turn]:
        """One seat's finished turns, as ``yatzy.research.review.read_log`` gives them."""
        label = self.rules.play.label
        return [Turn("game", n, seat + 1, t.rolls, t.kept, t.box, t.points, label(t.column))
                for n, t in enumerate(self.turns, 2) if t.player == seat]

    def history(self) -> tuple[tuple[Move, Position], ...]:
        """Each move played, first first, with the position it was made at."""
        return tuple(self._stack)

    def turn_cards(self, seat: int) -> list[Scorecard]:
        """The card of ``seat`` at the start of each of its finished turns, in order."""
        return [before.cards[seat] for move, before in self._stack
                if move.player == seat and move.is_score]

    def review(self, seat: int):
        """Every decision of a seat valued against the optimal strategy
        (``Solver.review``); None before the seat's first finished turn."""
        turns = self.log_turns(seat)
        return self.solver.review([turns]) if turns else None

    # ------------------------------------------------------- saving, loading
    def _line(self) -> list[tuple[Move, Position]]:
        """The moves played and those to redo, first first, each with the
        position it led to."""
        afters = [before for _, before in self._stack[1:]] + [self._position]
        return [(m, a) for (m, _), a in zip(self._stack, afters)] + self._redo[::-1]

    def to_dict(self) -> dict:
        """The document ``from_dict`` reads: ``drawn`` the moves whose dice
        the generator drew, ``draw_numbers`` each one's draw, ``draws_made``
        the draws made (undone ones included)."""
        line = self._line()
        return {"yatzy_game": GAME_VERSION, "rules": self.rules.spec, "seed": self.seed,
                "players": [{"name": p.name, "kind": p.kind} for p in self.players],
                "moves": [m.text for m, _ in line], "played": len(self._stack),
                "drawn": [i for i, (m, _) in enumerate(line) if m.drawn],
                "draw_numbers": [a.draws - 1 for m, a in line if m.drawn],
                "draws_made": self._fresh, "settings": dict(self.settings)}

    def save(self, path: str | Path) -> None:
        """Write the game to ``path`` (atomically) as JSON."""
        write_text(path, json.dumps(self.to_dict()) + "\n")

    @classmethod
    def from_dict(cls, obj: object, rules: Rules | Solver | None = None, *,
                  tables: str | Path | None = None, where: str = "game") -> "Game":
        """The game of ``to_dict``, every move replayed (and so checked);
        ``rules``: a Solver or Rules to play with (they must be the
        document's rules), else the document's spec is parsed."""
        def bad(what: str) -> GameError:
            return GameError("not_game", f"{where}: {what}", path=where)

        if not isinstance(obj, dict) or "yatzy_game" not in obj:
            raise bad("not a yatzy game (expected a JSON object with \"yatzy_game\")")
        if obj["yatzy_game"] != GAME_VERSION:
            raise bad(f"version {brief(obj['yatzy_game'])}, expected {GAME_VERSION}")
        spec, seed, players = obj.get("rules"), obj.get("seed"), obj.get("players")
        moves, played = obj.get("moves", []), obj.get("played")
        if not isinstance(spec, str):
            raise bad("rules must be a rules spec")
        if not isinstance(players, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str)
                and isinstance(p.get("kind", "human"), str) for p in players):
            raise bad("players must be a list of {\"name\": ..., \"kind\": ...}")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise bad("moves must be a list of strings")
        if not isinstance(played, int) or isinstance(played, bool) or not 0 <= played <= len(moves):
            raise bad(f"played must be a whole number 0..{len(moves)}")
        draws = draws_of(obj, len(moves))
        if draws is None:
            raise bad(f"drawn must be a list of move numbers 0..{len(moves) - 1}, "
                      "draw_numbers one whole number each, draws_made a whole number")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise bad("seed must be a whole number")
        settings = obj.get("settings", {})
        if not isinstance(settings, dict):
            raise bad("settings must be a JSON object")
        try:
            if rules is None:
                rules = spec
            elif (rules.rules if isinstance(rules, Solver) else rules).spec != spec:
                raise InputError(f"the game is for rules {shown(spec, 60)}")
            game = cls(rules, [Player.parse(f"{p['name']}={p.get('kind', 'human')}")
                               for p in players], seed=seed, tables=tables)
        except InputError as e:
            raise bad(str(e)) from None
        game._replay(moves, draws[0], played, where, draws[1])
        game.settings = dict(settings)
        return game

    def _replay(self, moves: list[str], drawn: dict[int, int | None], played: int,
                where: str, made: int = 0) -> None:
        """Play ``moves[len(self.moves):]`` (each checked; those of ``drawn``
        drawn again from the seed, by their draw's number where it is
        given), then take back all after ``played``; ``made``: the draws
        the game had made."""
        self._redo.clear()
        for i in range(len(self._stack), len(moves)):
            text = moves[i]
            try:
                done, after = self._apply(self._position, text, i in drawn)
                if i in drawn:              # the generator's roll: drawn again from the seed
                    if not done.text.startswith("roll"):
                        raise InputError("only a roll can be drawn by the generator")
                    number = drawn[i]
                    if number is not None and number < max(self._position.draws, self._fresh):
                        raise InputError(f"draw {number} was made before")
                    again, after = self._apply(self._position, "roll", True, number)
                    if again.text != done.text:
                        raise InputError(f"the generator (seed {self.seed}) rolled "
                                         f"{again.text[5:]!r} here, not {done.text[5:]!r}")
            except InputError as e:
                raise GameError("bad_saved_move", f"{where}: move {i + 1} {shown(text, 40)}: {e}",
                                path=where, n=i + 1) from None
            self._push(done, after)
        self._fresh = max(self._fresh, made)
        for _ in range(len(moves) - played):
            self.undo()

    def continue_to(self, obj: object, where: str = "game") -> bool:
        """Bring this game to the document ``obj`` (``to_dict``) where it
        continues it (the same game, its moves played so far first, none
        of them taken back), replaying only the moves after them: what
        ``from_dict(obj)`` would give.  False, the game unchanged, where
        ``obj`` does not continue it; GameError where a new move is not
        legal (the game is then left halfway: replay the document instead).

        >>> game = Game("nordic", ["Ann"], seed=1)
        >>> later = Game.from_dict(game.to_dict())
        >>> _ = later.play("roll"); _ = later.play("score chance")
        >>> game.continue_to(later.to_dict()), game.to_dict() == later.to_dict()
        (True, True)
        >>> _ = later.undo()
        >>> game.continue_to(later.to_dict())
        False
        """
        mine = self.to_dict()
        if not isinstance(obj, dict) or any(obj.get(k) != mine[k] for k in
                                            ("yatzy_game", "rules", "seed", "players")):
            return False
        moves, played, drawn = obj.get("moves"), obj.get("played"), obj.get("drawn", [])
        settings = obj.get("settings", {})
        n = len(self._stack)
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves) \
                or not isinstance(drawn, list) or not isinstance(settings, dict) \
                or not isinstance(played, int) or isinstance(played, bool) \
                or not n <= played <= len(moves) or moves[:n] != mine["moves"][:n]:
            return False
        draws = draws_of(obj, len(moves))
        if draws is None or {i for i in draws[0] if i < n} != {i for i in mine["drawn"] if i < n}:
            return False
        self._replay(moves, draws[0], played, where, draws[1])
        self.settings = dict(settings)
        return True

    @classmethod
    def load(cls, path: str | Path, rules: Rules | Solver | None = None, *,
             tables: str | Path | None = None) -> "Game":
        """The game saved at ``path``; a malformed file is one InputError."""
        try:
            text = read_text(path)           # a regular file of bounded size, not /dev/zero
        except InputError as e:
            raise GameError("cannot_read", str(e), path=str(path)) from None
        try:
            obj = parse_json(text, str(path))
        except InputError:                   # bad JSON, too deep, too long, huge numbers
            raise GameError("not_json", f"{path}: not a JSON document", path=str(path)) from None
        return cls.from_dict(obj, rules, tables=tables, where=str(path))


__all__ = ["GAME_ERRORS", "GAME_VERSION", "GameError", "KINDS", "MAX_PLAYERS", "Game", "Move",
           "Played", "Player", "Position"]
