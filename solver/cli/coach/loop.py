"""The coach: the loop of a game at the prompt over ``yatzy.session.Session``."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import click

from yatzy.cli.coach.ending import Ending
from yatzy.cli.coach.hints import FULL_HINT, Hints
from yatzy.cli.coach.moves import Moves
from yatzy.cli.coach.pad import Pad
from yatzy.cli.coach.paging import Pages
from yatzy.cli.coach.screen import EVENTS, Screen
from yatzy.cli.coach.solving import Tables
from yatzy.cli.coach.steady import VERDICT
from yatzy.cli.coach.standing import points_rows
from yatzy.cli.coach.texts import cut
from yatzy.errors import InputError
from yatzy.files import check_name, check_writable
from yatzy.game import Game, Move
from yatzy.rules.grammar import Typed, parse
from yatzy.rules.words import box_name, message
from yatzy.scorepad import is_pad
from yatzy.session import EVERYONE, Session, SessionError


class Quit(Exception):
    """The player asked to stop."""


class Coach(Screen, Tables, Hints, Moves, Pad, Ending, Pages):
    """One game at the prompt: reads moves and commands, prints the game,
    writes it to ``path`` after every move.  The settings (``table_mode``,
    ``pad``, ``hints``, ``lang``, ``undo``) are ``game.settings``; ``history``
    is the file of finished games (``yatzy.history``; None: none)."""

    def __init__(self, game: Game, path: str, color: bool = False, steady: bool = False,
                 db: str | None = None, history: str | None = None):
        self.game, self.path, self.color, self.steady = game, path, color, steady
        self.db = db                      # the ratings database the review goes to (None: none)
        self.history = history            # the file of finished games (None: none)
        self.events: deque[tuple[str, str]] = deque(maxlen=EVENTS)   # (tag, line) to draw
        s = game.settings
        self.pad = bool(s.get("pad"))     # points typed off a score pad: the dice are real
        self.table_mode, self.hints = bool(s["table_mode"]) or self.pad, s["hints"]
        self.lang, self.undo_rule = s["lang"], s["undo"]
        self.announced: tuple[int, int] | None = None     # (finished turns, seat) last shown
        self.shown_hint: int | None = None                # moves played when hints were shown
        self.confirmed = False
        self.session = Session(game, self.undo_rule)     # rights, undo rule, the loss ledger

    def save(self) -> None:
        """Write the game and the coach's settings to the game's file."""
        s = self.game.settings
        s.update(table_mode=self.table_mode, hints=self.hints, lang=self.lang, undo=self.undo_rule)
        if self.pad:                          # kept only when on: other games' files unchanged
            s["pad"] = True
        self.game.save(self.path)

    def typed(self, move: Move) -> bool:
        """Whether a person typed this move (not a drawn roll, not a computer's choice)."""
        return self.session.typed(move)

    # ------------------------------------------------------------- the loop
    def run(self, resumed: bool = False) -> None:
        game = self.game
        if resumed and game.moves:
            self.status()
        elif any(p.is_human for p in game.players):
            self.say("how_to_type_pad" if self.pad else
                     "how_to_type_table" if self.table_mode else "how_to_type")
            if game.rules.play.names_columns:
                self.say("how_to_type_pad_columns" if self.pad else "how_to_type_columns")
        while True:
            self.save()
            if game.is_over:
                if self.confirmed or not self.undoable():
                    break
                self.confirm()
                continue
            self.announce()
            if game.needs_roll and not self.table_mode:
                self.show_roll(self.session.play("roll"))
            elif not game.needs_roll and not game.player.is_human:
                seat = game.turn_player
                self.need_table()
                self.say_compile(game.player.kind)
                self.session.play_auto()
                player = game.players[seat]
                self.say("computer", name=player.name, kind=self.words("kind_" + player.kind),
                         action=self.action_text(game.moves[-1].text))
                self.after_score()
            else:
                self.ask()
        if self.steady:
            self.end_screen()
        else:
            self.echo(self.card())
            self.finish()
        self.save()

    def confirm(self) -> None:
        """At game over: Enter (or end of input) ends the game, undo takes
        the last score back."""
        self.draw()
        try:
            line = self.read(self.words("confirm"))
        except (click.Abort, EOFError):
            line = ""
        try:
            undo = bool(line) and parse(line, self.game.rules, self.lang).kind == "undo"
        except InputError:
            undo = False
        if undo:
            try:
                self.undo(1)
            except InputError as e:
                self.error(str(e))
            return
        self.confirmed = True

    def announce(self) -> None:
        game = self.game
        key = (len(game.turns), game.turn_player)
        if game.dice is None and self.announced != key:
            self.announced = key
            if game.player.is_human and not self.steady:
                self.echo(self.card(highlight=self.color))
            self.say_turn()

    def status(self) -> None:
        """The card, whose turn, the dice, the kept dice and the rerolls left."""
        game = self.game
        if not self.steady:
            self.echo(self.card(highlight=self.color))
        if game.is_over:
            self.say("over")
            return
        self.say_ledger()
        self.say_turn()
        self.announced = (len(game.turns), game.turn_player)
        if game.dice is None:
            self.say("status_roll")
            if self.may_write():                  # real dice: what each open box takes
                self.say_values()
        elif game.kept is not None:
            self.say("status_kept", dice=" ".join(map(str, game.kept)) or "-",
                     n=game.rules.dice - len(game.kept))
        else:
            self.show_roll(game.moves[-1])
            if self.table_mode:                   # real dice: each open box's points for them
                self.say_points()

    def say_points(self) -> None:
        """Each open box's points for the dice on the table, in rows as
        wide as the screen gives."""
        for row in points_rows(self.game, self.lang, self.room()):
            self.echo(row)

    def show_position(self) -> None:
        """After undo or redo: the dice on the table, if any."""
        game = self.game
        if game.dice is not None and not game.needs_roll:
            self.show_roll(game.moves[-1])

    def after_score(self, tag: str = "event") -> None:
        """The line of the box just written, if the last move wrote one
        (``tag``: ``verdict`` after a judged choice, kept with it)."""
        game = self.game
        last = self.session.last_move()
        if last is not None and last.points is not None:
            t = game.turns[-1]
            box = box_name(game.rules.boxes[t.box].name, self.lang)
            self.say("scored", tag, name=last.name, points=last.points,
                     box=box + game.rules.play.tag(t.column))

    def ask(self) -> None:
        game = self.game
        name = game.player.name
        if game.needs_roll:
            kept = game.kept
            prompt = (message("reroll_prompt", self.lang, name=name,
                              n=game.rules.dice - len(kept)) if kept is not None
                      else message("pad_prompt", self.lang, name=name) + " "
                      if self.pad and self.may_write()
                      else message("dice_prompt", self.lang, name=name))
        else:
            prompt = message("decide", self.lang, name=name)
            if self.hints in ("top3", "full") and self.shown_hint != len(game.moves):
                self.shown_hint = len(game.moves)
                self.hint(3 if self.hints == "top3" else FULL_HINT)
        self.draw()
        line = self.read(prompt)
        if not line:
            return
        try:
            typed = parse(line, game.rules, self.lang, roll_due=game.needs_roll,
                          dice=None if game.needs_roll else game.dice)
            if typed.is_move:
                self.move(typed, line)
            else:
                self.command(typed, line)
        except InputError as e:                 # the grammar quotes what was typed
            self.error(str(e))

    def command(self, typed: Typed, line: str) -> None:
        """Run the session command ``typed`` (``yatzy.rules.grammar``)."""
        game = self.game
        word = typed.kind
        if word == "help":
            with self.gathered() as said:
                self.say("help")
                if game.rules.play.names_columns:
                    self.say("help_columns")
                if self.table_mode:
                    self.say("help_pad")
                    if game.rules.play.names_columns:
                        self.say("how_to_type_pad_columns")
            self.paged(said)
        elif word == "points":
            if self.may_write():                 # a turn's start at the pad: what each box takes
                self.say_values()
            elif game.dice is None or game.needs_roll:
                raise self.fail("roll_first")
            else:
                self.say_points()
        elif word == "card":
            if not self.steady:
                self.echo(self.card(highlight=self.color))
        elif word == "status":
            with self.gathered() as said:
                self.status()
            self.paged(said)
        elif word == "hint":
            if typed.move is not None:
                self.what_if(typed.move, line)
            else:
                self.hint(FULL_HINT)
        elif word == "undo":
            self.undo(typed.count)
        elif word == "redo":
            self.redo()
        elif word == "save":
            previous = self.path
            self.path = check_path(typed.path, self.lang)
            try:
                self.save()
            except InputError:
                self.path = previous
                raise
            self.say("saved", path=self.path)
        elif word == "quit":
            raise Quit
        else:                                    # the trainer's skip
            raise self.fail("unknown_command", word=cut(line))

    # ---------------------------------------------------------------- undo
    def undoable(self) -> bool:
        """Whether ``undo`` would take something back now (nothing changes)."""
        return self.session.can_undo(EVERYONE)

    def undo(self, n: int) -> None:
        """Take back ``n`` times the last move a person typed (the session's
        rule: the terminal holds every seat; the undo rule is the game's);
        a box written from a score pad goes back to its turn's start."""
        pad = is_pad(self.game)
        for _ in range(n):
            try:
                moves = (self.session.undo_write if pad else self.session.undo)(EVERYONE)
            except SessionError as e:
                raise self.fail(e.kind) from None
            self.say("undone", move=self.move_text(self.chosen(moves)))
        # check mode's verdicts and running losses were about moves now undone: gone from the
        # screen, and the losses said again as they are now
        self.events = deque(((k, line) for k, line in self.events if k != VERDICT), maxlen=EVENTS)
        self.say_ledger()
        self.announced = None
        self.confirmed = False
        self.show_position()

    def redo(self) -> None:
        """Play again what the last undo took back."""
        pad = is_pad(self.game)
        try:
            moves = (self.session.redo_write if pad else self.session.redo)(EVERYONE)
        except SessionError as e:
            raise self.fail(e.kind) from None
        self.say("redone", move=self.move_text(self.chosen(moves)))
        self.show_position()

    def chosen(self, moves: list[Move]) -> Move:
        """The move an undo or redo names: a person's choice among ``moves``
        (a pad's score rather than the roll written for it), else the first
        person's move, else the first."""
        typed = [m for m in moves if self.typed(m)]
        return next((m for m in typed if not m.is_roll), (typed or moves)[0])


def check_path(path: str, lang: str) -> str:
    """``path`` if a game can be written there, else one InputError in ``lang``
    (a name too long for the system, a device such as ``/dev/null``, a folder)."""
    try:
        check_name(path)
    except InputError:
        raise InputError(message("cannot_write", lang, path=path[:60] + "...")) from None
    if Path(path).is_dir():
        raise InputError(message("folder", lang, path=path))
    try:
        check_writable(path)
    except InputError:
        raise InputError(message("cannot_write", lang, path=path)) from None
    return path
