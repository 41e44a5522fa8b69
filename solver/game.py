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

A position (``Position``) is immutable and a move is applied to it by the
rules alone (``yatzy.position.board.Board.apply``); each move pushes the
position it left on the move stack, ``undo()`` restores it and keeps the move for
``redo()``; a new move clears the moves to redo.  ``legal_actions()`` lists
the keeps and scores allowed now (none while a roll is due), ``advice()``
values them with the optimal strategy (``Solver``'s table, solved on first
use).  Under saved rolls, stopping banks the rerolls left
(``yatzy.position.scorecard.end_turn``); under American rules a further yahtzee earns the
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

The record (``yatzy.record``): ``save``/``load`` write and read a small
versioned JSON document (the moves, replayed and so checked on load, and ``settings``: a front end's
own choices, such as the coach's language and undo rule; documents
without it load with none); ``log_lines()`` is the game as a
``yatzy.research.review`` log (with a ``column`` per turn where the rules
have several).
"""
from __future__ import annotations

import secrets
from pathlib import Path
from typing import Sequence

from yatzy.api import Solver, check_seed
from yatzy.bounds import MAX_SEED
from yatzy.errors import InputError
from yatzy.position.actions import Action, Advice
from yatzy.position.board import (
    GAME_ERRORS,
    KINDS,
    MAX_PLAYERS,
    Board,
    GameError,
    Move,
    Played,
    Player,
    Position,
)
from yatzy.position.scorecard import Scorecard
from yatzy.record import GAME_VERSION, Record
from yatzy.rules.objectives import policy_for
from yatzy.rules.ruleset import Rules


class Game(Record):
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
        self.board = Board(self.rules, self.seed)
        empty = Scorecard.empty(self.rules)
        self._position = Position(tuple(empty for _ in seats))
        self._stack: list[tuple[Move, Position]] = []     # each move and the position before it
        self._redo: list[tuple[Move, Position]] = []      # undone moves and where they led
        self._fresh = 0         # draws made, undone ones included: the next draw's number
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

    def protokoll(self) -> list[dict]:
        """The scorecard as rows (``Board.protokoll``): each box, Sum, Bonus
        and the totals, one cell per player and column."""
        return self.board.protokoll(self.cards)

    def play(self, move: str) -> Move:
        """Play ``move`` (``roll``, ``roll 11256``, ``keep 5 6``, ``reroll
        all``, ``score chance``, or any phrasing ``yatzy.rules.grammar``
        reads in English, Norwegian or Swedish: ``behold 5 5``, ``spara 6
        6``, ``skriv kåk``, ``stryk yatzy``, ``toere i kolonne 3``):
        InputError, game unchanged, if it is not legal now.  A new move
        clears the moves to redo."""
        done, after = self.board.apply(self._position, move, fresh=self._fresh)
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
               for c, b, p in self.board.score_options(self.card, dice)]
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
        return self.solver.advise(self.card, self.dice, self.rerolls)

    def expected_score(self, seat: int | None = None) -> float:
        """Expected final score of a player (default: the one to move) from
        the start of their next turn (several columns: of the columns
        played one by one, a lower bound; ``values``)."""
        card = self.cards[self.turn_player if seat is None else seat]
        return float(card.score) if card.is_full else self.solver.ev(card)


__all__ = ["GAME_ERRORS", "GAME_VERSION", "GameError", "KINDS", "MAX_PLAYERS", "Game", "Move",
           "Played", "Player", "Position"]
