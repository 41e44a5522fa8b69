"""The record of a game (``yatzy.game.Game``), as python-chess's ``pgn`` is
of a ``Board``: the moves played and to redo as a small versioned JSON
document (``to_dict``, ``from_dict``, ``save``, ``load``, ``continue_to``:
the moves replayed and so checked, the dice drawn again from the seed by
their draw's number), and the finished turns as a log and a review
(``yatzy.players.ledger``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Self

from yatzy.api import Solver
from yatzy.bounds import brief, parse_json, shown
from yatzy.errors import InputError
from yatzy.files import read_text, write_text
from yatzy.players.ledger import Review, Turn, header_line, turn_line
from yatzy.position.board import GameError, Move, Player, Position
from yatzy.position.scorecard import Scorecard
from yatzy.rules.ruleset import Rules

GAME_VERSION = 1


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



class Record:
    """The record of a ``Game`` (module docstring); a mixin of ``Game``."""

    # ------------------------------------------------------------ the log
    def log_lines(self) -> list[str]:
        """The finished turns as a log (``yatzy.players.ledger``): a header, then one
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

    def review(self, seat: int) -> Review | None:
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
                  tables: str | Path | None = None, where: str = "game") -> Self:
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
        except GameError as e:
            if e.kind == "seat_kind":       # a computer seat the rules refuse: said as at a start
                raise
            raise bad(str(e)) from None
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
                done, after = self.board.apply(self._position, text, i in drawn, fresh=self._fresh)
                if i in drawn:              # the generator's roll: drawn again from the seed
                    if not done.text.startswith("roll"):
                        raise InputError("only a roll can be drawn by the generator")
                    number = drawn[i]
                    if number is not None and number < max(self._position.draws, self._fresh):
                        raise InputError(f"draw {number} was made before")
                    again, after = self.board.apply(self._position, "roll", True, number, self._fresh)
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

        >>> from yatzy.game import Game
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
             tables: str | Path | None = None) -> Self:
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


__all__ = ["GAME_VERSION", "Record", "draws_of"]
