"""``yatzy play``: a coach in the terminal for a whole game at the table.

Everything the game does is ``solver.game.Game``; this module reads lines,
prints the scorecard ("protokoll") and the hints, and keeps the game safe:
it is written (atomically) to its file after every move, at game over and
on hang-up, SIGTERM or Ctrl-C, with the coach's own settings (table mode,
hints, language, the undo rule) in the document's ``settings``.

Undo is fair by default with two or more people: a choice may be taken
back only until new dice are seen (a reroll drawn after it); the box
written may still be changed while the next player has only rolled,
since those dice do not depend on the choice.  ``--undo free`` (the
default for one person) undoes anything, and a game that used it says so.

Every word is in the chosen language (en, nb, sv; English commands are
accepted in all).  Colour goes through ``click.style`` and is dropped when
the output is not a terminal or ``NO_COLOR`` is set.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from collections import deque
from pathlib import Path

import click

from solver.cli.options import SEED, Choice, rules_option, tables_option
from solver.errors import InputError, TableError
from solver.files import check_name, check_writable
from solver.game import Game, GameError, Move
from solver.position.actions import LOWER_BOUND, Action
from solver.rules.grammar import GrammarError, Typed, parse
from solver.rules.ruleset import Order, Rules, parse_rules
from solver.session import EVERYONE, Session, SessionError, bonus_pace
from solver.rules.words import (
    LANGS,
    box_name,
    message,
    number,
)

HINTS = ("off", "check", "top3", "full")
UNDO = ("fair", "free")
FULL_HINT = 10                         # actions shown by `hint` and --hints full
CUT = 40                               # characters of typed text repeated in a message
EVENTS = 40                            # recent events kept for beside the card
EVENTS_ROOM = 24                       # columns the steady screen keeps for them at least
GAP = 3                                # columns between the card and the events
PIPS = "⚀⚁⚂⚃⚄⚅"
STOP_NOTE_SECONDS = 2.0      # solves expected to take longer say that Ctrl-C stops them
FASTER = 2.0                 # other rules are suggested when they solve this many times faster


def cut(text: str, n: int = CUT) -> str:
    """``text`` cut to ``n`` characters for repeating in a message.

    >>> cut("x" * 50)[-3:], cut("abc")
    ('xx…', 'abc')
    """
    return text if len(text) <= n else text[:n - 1] + "…"


def game_error(error: InputError, lang: str = "en") -> str:
    """An error of ``Game`` in ``lang``: each ``GameError`` kind has its own
    message (box names in the language, typed text cut); any other error as
    it is.

    >>> from solver.game import Game
    >>> try:
    ...     Game("nordic", ["Ann", "ann"])
    ... except GameError as e:
    ...     print(game_error(e, "nb"), "|", game_error(e, "sv"))
    to spillere har samme navn | två spelare har samma namn
    """
    if isinstance(error, GrammarError):
        return error.say(lang)
    if isinstance(error, GameError) and isinstance(error.__cause__, GrammarError):
        return error.__cause__.say(lang)                   # a move the grammar could not read
    if not isinstance(error, GameError):
        return str(error)
    fields = {k: cut(v) if isinstance(v, str) else v for k, v in error.fields.items()}
    if "box" in fields:
        fields["box"] = (box_name(error.fields["box"], lang)
                         + (f"@{fields['column']}" if fields.get("column") else ""))
    key = "game_" + error.kind + ("_kept" if error.kind == "roll_count" and fields.get("kept")
                                  else "")
    return message(key, lang, **fields)


def faster_rules(rules: Rules) -> Rules | None:
    """The rules without saved rolls where ``rules`` have them (a much
    smaller table: ``maxi`` → ``maxi:saved_rolls=false``), else None.

    >>> faster_rules(parse_rules("maxi")).spec, faster_rules(parse_rules("nordic"))
    ('maxi:saved_rolls=false', None)
    """
    if not rules.saved_rolls:
        return None
    preset, _, rest = rules.spec.partition(":")
    keep = [item for item in rest.split(",")
            if item and not item.startswith(("saved_rolls=", "bank_cap="))]
    return parse_rules(f"{preset}:{','.join([*keep, 'saved_rolls=false'])}")


# ------------------------------------------------------------------ the card
def protokoll(game: Game, lang: str = "en", highlight: bool = False,
              width: int | None = None) -> str:
    """The scorecard as the source texts print it: box rows in card order,
    Sum and Bonus after the upper boxes, Total last; one column per player
    (with several columns per player, a second header line numbers them
    ``x1 x2 x3`` and a last row gives each column's total times its
    weight), the player to move marked ``*``; ``-`` is an open box.  While
    the bonus is undecided its row shows the upper section's pace
    (``+3`` ahead, ``-4`` behind); under forced order the box due is
    marked ``>``.  ``highlight``: the columns of the player to move in bold.

    ``width``: the most characters a line may have.  A card wider than that
    shows, with several columns, only the player to move's columns and
    their weighted sum Σ, the other players' scores in a line under them;
    otherwise (or at game over) the players in groups that fit, one under
    another."""
    mark = None if game.is_over else game.turn_player
    rules, cols = game.rules, game.rules.columns
    names = [("*" if i == mark else "") + p.name for i, p in enumerate(game.players)]
    table = game.protokoll()
    columns = [c for card in game.cards for c in card.columns]
    due = None
    if mark is not None and rules.order == Order.FORCED and cols == 1:
        allowed = game.card.allowed_boxes()
        due = rules.boxes[allowed[0]].name if len(allowed) == 1 else None
    rows = []
    for row in table:
        cells = ["-" if v is None else str(v) for v in row["cells"]]
        if row["key"] == "bonus":
            for j, v in enumerate(row["cells"]):
                par = bonus_pace(columns[j])
                if v is None and par is not None:
                    cells[j] = f"{round(par):+d}".replace("-", "−")
        label = (box_name(row["key"], lang) if row["kind"] == "box"
                 else message(row["key"], lang))
        if due is not None and row["key"] == due:
            label = "> " + label
        rows.append((label, cells))
    label = max(len(r[0]) for r in rows) + 2
    everyone = list(range(len(game.players)))

    def render(seats: list[int], compact: bool = False) -> list[str]:
        if cols == 1:
            widths = [max(len(names[i]), 3) + 2 for i in seats]
            head = [" " * label + "".join(f"{names[i]:>{w}}" for i, w in zip(seats, widths))]
            body = [[cells[i] for i in seats] for _, cells in rows]
            hot = [i == mark for i in seats]
        elif not compact:
            idx = [i * cols + c for i in seats for c in range(cols)]
            cell = max(max(len(cells[j]) for _, cells in rows for j in idx), 3) + 2
            group = [max(cell * cols, len(names[i]) + 2) // cols for i in seats]
            widths = [w for w in group for _ in range(cols)]
            head = [" " * label + "".join(f"{names[i]:>{w * cols}}" for i, w in zip(seats, group)),
                    " " * label + "".join(f"{'x' + str(c):>{w}}" for w in group
                                          for c in rules.column_weights)]
            body = [[cells[j] for j in idx] for _, cells in rows]
            hot = [i == mark for i in seats for _ in range(cols)]
        else:                   # the player to move's columns and Σ (the others: a line)
            own = range(mark * cols, mark * cols + cols)
            body = [[cells[j] for j in own]
                    + ([str(game.scores()[mark])] if r == len(rows) - 1 else [""])
                    for r, (_, cells) in enumerate(rows)]
            cell = max(max(len(v) for row in body for v in row), 3) + 2
            w = max(cell, -(-(len(names[mark]) + 2) // (cols + 1)))
            widths = [w] * (cols + 1)
            head = [" " * label + f"{names[mark]:>{w * (cols + 1)}}",
                    " " * label + "".join(f"{'x' + str(c):>{w}}" for c in rules.column_weights)
                    + f"{'Σ':>{w}}"]
            hot = [True] * (cols + 1)

        def cell_text(v: str, w: int, h: bool) -> str:
            text = f"{v:>{w}}"
            return click.style(text, bold=True, fg="cyan") if h and highlight else text

        return [line.rstrip() for line in head] + [
            (f"{name:<{label}}" + "".join(cell_text(v, w, h) for v, w, h in zip(row, widths, hot))
             ).rstrip() for (name, _), row in zip(rows, body)]

    def wide(lines: list[str]) -> int:
        return max(len(click.unstyle(line)) for line in lines)

    lines = render(everyone)
    if width is None or wide(lines) <= width:
        return "\n".join(lines)
    if cols > 1 and mark is not None:
        scores = game.scores()
        others = "  ".join(f"{cut(game.players[i].name, 12)} {scores[i]}"
                           for i in everyone if i != mark)
        return "\n".join(render(everyone, compact=True)
                         + textwrap.wrap(others, max(width, 20)))
    parts, group = [], []                      # players in groups that fit, one under another
    for i in everyone:
        if group and wide(render(group + [i])) > width:
            parts.append("\n".join(render(group)))
            group = []
        group.append(i)
    parts.append("\n".join(render(group)))
    return "\n\n".join(parts)


# ------------------------------------------------------------------- the coach
class Quit(Exception):
    """The player asked to stop."""


class Stopped(Exception):
    """A signal asked the program to stop (hang-up, SIGTERM, Ctrl-C)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class Coach:
    """One game at the prompt: reads moves and commands, prints the game,
    writes it to ``path`` after every move.  The settings (``table_mode``,
    ``hints``, ``lang``, ``undo``) are ``game.settings``."""

    def __init__(self, game: Game, path: str, color: bool = False, steady: bool = False,
                 db: str | None = None):
        self.game, self.path, self.color, self.steady = game, path, color, steady
        self.db = db                      # the ratings database the review goes to (None: none)
        self.events: deque[str] = deque(maxlen=EVENTS)   # the steady screen's last lines
        s = game.settings
        self.table_mode, self.hints = bool(s["table_mode"]), s["hints"]
        self.lang, self.undo_rule = s["lang"], s["undo"]
        self.announced: tuple[int, int] | None = None     # (finished turns, seat) last shown
        self.shown_hint: int | None = None                # moves played when hints were shown
        self.confirmed = False
        self.session = Session(game, self.undo_rule)     # rights, undo rule, the loss ledger

    # ---------------------------------------------------------- output
    def echo(self, text: str = "") -> None:
        if self.steady:                   # kept for the next drawing of the screen
            self.events.extend(text.splitlines() or [""])
            return
        try:
            click.echo(text, color=self.color)
        except OSError:                   # the terminal is gone (hang-up): keep playing safe
            pass

    def draw(self) -> None:
        """The steady screen: the card (the player to move in colour) beside
        the last events, the dice drawn under them."""
        if not self.steady:
            return
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text
        game = self.game
        console = Console(highlight=False)
        card = self.card(highlight=True)
        height = len(card.splitlines())
        width, room = self.widths(card, console.width)
        lines: list[str] = []                 # the last events that fit beside the card
        for event in reversed(self.events):
            plain = click.unstyle(event)      # a long event is wrapped here, without colour
            rows = [event] if len(plain) <= room else textwrap.wrap(plain, room) or [""]
            if len(lines) + len(rows) > height:
                break
            lines[:0] = rows
        grid = Table.grid(padding=0)
        grid.add_column(no_wrap=True, width=width)
        grid.add_column(no_wrap=True, width=GAP)
        grid.add_column(no_wrap=True, overflow="crop", width=room)
        grid.add_row(Text.from_ansi(card), Text(" " * GAP), Text.from_ansi("\n".join(lines)))
        try:
            console.clear()
            console.print(grid)
            if game.dice is not None and not game.is_over:
                pips = " ".join(PIPS[d - 1] if d <= len(PIPS) else str(d) for d in game.dice)
                kept = game.kept
                line = (self.words("status_kept", dice=" ".join(map(str, kept)) or "-",
                                   n=game.rules.dice - len(kept)) if kept is not None else
                        f"{' '.join(map(str, game.dice))} · "
                        + message("left", self.lang, n=game.rerolls))
                console.print(Text(f"{pips}   {line}", style="bold"))
        except OSError:
            pass

    @staticmethod
    def widths(card: str, columns: int) -> tuple[int, int]:
        """The steady screen's columns: the card's width and the events' room."""
        width = max(len(click.unstyle(line)) for line in card.splitlines())
        return width, max(columns - width - GAP, EVENTS_ROOM)

    def events_room(self) -> int:
        """Characters an event line has beside the card on the steady screen."""
        return self.widths(self.card(), shutil.get_terminal_size().columns)[1]

    def card(self, highlight: bool = False) -> str:
        """The card for the screen: as wide as the terminal allows (the
        steady screen keeps ``EVENTS_ROOM`` beside it); any width when piped."""
        width = None
        if sys.stdout.isatty():
            width = shutil.get_terminal_size().columns - (EVENTS_ROOM + GAP if self.steady else 0)
        return protokoll(self.game, self.lang, highlight, width)

    def say(self, key: str, **kw) -> None:
        self.echo(message(key, self.lang, **kw))

    def words(self, key: str, **kw) -> str:
        return message(key, self.lang, **kw)

    def say_compile(self, kind: str) -> None:
        """Say, in the language, that a computer seat's policy compiles its
        kernels first (once, when Numba's cache does not hold them)."""
        from solver.api import COMPILE_SECONDS
        from solver.kernels.cache import compiled
        from solver.kernels.policy import batch
        if kind in ("greedy", "simple") and not compiled(batch):
            self.say("compiling", what=self.words("compiled_player"), seconds=COMPILE_SECONDS)

    def num(self, x: float, digits: int) -> str:
        return number(x, digits, self.lang)

    def fail(self, key: str, **kw) -> InputError:
        return InputError(self.words(key, **kw))

    def action_text(self, action: Action | str) -> str:
        """An action in the game's language (``behold 5 6``, ``skriv kåk (25)``)."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except InputError:
                return action
        if action.kind == "score":
            column = f"@{action.column}" if action.column else ""
            points = "" if action.points is None else f" ({action.points})"
            return f"{self.words('score')} {box_name(action.box, self.lang)}{column}{points}"
        if not action.dice:
            return self.words("reroll_all")
        return f"{self.words('keep')} {' '.join(map(str, action.dice))}"

    def save(self) -> None:
        """Write the game and the coach's settings to the game's file."""
        self.game.settings.update(table_mode=self.table_mode, hints=self.hints,
                                  lang=self.lang, undo=self.undo_rule)
        self.game.save(self.path)

    def typed(self, move: Move) -> bool:
        """Whether a person typed this move (not a drawn roll, not a computer's choice)."""
        return self.session.typed(move)

    # ------------------------------------------------------------- the loop
    def run(self, resumed: bool = False) -> None:
        game = self.game
        if resumed and game.moves:
            self.status()
        while True:
            self.save()
            if game.is_over:
                if self.confirmed or not self.undoable():
                    break
                self.confirm()
                continue
            self.announce()
            if game.needs_roll and not self.table_mode:
                self.show_roll(game.play("roll"))
            elif not game.needs_roll and not game.player.is_human:
                seat = game.turn_player
                self.need_table()
                self.say_compile(game.player.kind)
                game.play(game.computer_move())
                player = game.players[seat]
                self.say("computer", name=player.name, kind=self.words("kind_" + player.kind),
                         action=self.action_text(game.moves[-1].text))
                self.after_score()
            else:
                self.ask()
        if self.steady:
            self.draw()
            self.steady = False
            self.events.clear()
        self.echo(self.card())
        self.finish()
        self.save()

    def confirm(self) -> None:
        """At game over: Enter (or end of input) ends the game, undo takes
        the last score back."""
        self.draw()
        try:
            line = click.prompt(self.words("confirm"), default="", show_default=False,
                                prompt_suffix="").strip()
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

    def say_turn(self) -> None:
        """Whose turn it is; Swedish names ending in s, x or z take no
        genitive s ("Nils tur")."""
        game = self.game
        name = game.player.name
        genitive = name if name[-1:].lower() in ("s", "x", "z") else name + "s"
        self.say("turn", name=click.style(name, bold=True),
                 genitive=click.style(genitive, bold=True),
                 n=game.card.turn + 1, of=game.turns_per_player)

    def show_roll(self, move: Move) -> None:
        game = self.game
        self.say("rolled", name=game.players[move.player].name,
                 dice=" ".join(map(str, game.dice)),
                 left=message("left", self.lang, n=game.rerolls))

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
        elif game.kept is not None:
            self.say("status_kept", dice=" ".join(map(str, game.kept)) or "-",
                     n=game.rules.dice - len(game.kept))
        else:
            self.show_roll(game.moves[-1])

    def say_ledger(self) -> None:
        """In check mode: each person's running loss so far (the session's
        ledger: what the review will say), where it is over 0."""
        if self.hints != "check" or not any(self.typed(m) for m in self.game.moves):
            return
        self.need_table()
        for seat, loss in self.session.ledger().items():
            if loss > 0:
                self.say("tally", name=self.game.players[seat].name, loss=self.num(loss, 2))

    def show_position(self) -> None:
        """After undo or redo: the dice on the table, if any."""
        game = self.game
        if game.dice is not None and not game.needs_roll:
            self.show_roll(game.moves[-1])

    def after_score(self) -> None:
        game = self.game
        last = self.session.last_move()
        if last is not None and last.points is not None:
            t = game.turns[-1]
            box = box_name(game.rules.boxes[t.box].name, self.lang)
            self.say("scored", name=last.name, points=last.points,
                     box=box + (f"@{t.column}" if game.rules.columns > 1 else ""))

    def error(self, text: str) -> None:
        self.echo(click.style(self.words("error", text=text), fg="red"))

    def ask(self) -> None:
        game = self.game
        name = game.player.name
        if game.needs_roll:
            kept = game.kept
            prompt = (message("reroll_prompt", self.lang, name=name,
                              n=game.rules.dice - len(kept)) if kept is not None
                      else message("dice_prompt", self.lang, name=name))
        else:
            prompt = message("decide", self.lang, name=name)
            if self.hints in ("top3", "full") and self.shown_hint != len(game.moves):
                self.shown_hint = len(game.moves)
                self.hint(3 if self.hints == "top3" else FULL_HINT)
        self.draw()
        line = click.prompt(prompt, default="", show_default=False, prompt_suffix="").strip()
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
        """Run the session command ``typed`` (``solver.rules.grammar``)."""
        game = self.game
        word = typed.kind
        if word == "help":
            self.say("help")
            if game.rules.columns > 1:
                self.say("help_columns")
        elif word == "card":
            if not self.steady:
                self.echo(self.card(highlight=self.color))
        elif word == "status":
            self.status()
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

    def move_text(self, move: Move) -> str:
        """A move for a message: its dice for a roll, else the action."""
        if move.is_roll:
            return move.text[len("roll "):]
        return self.action_text(move.text)

    # ---------------------------------------------------------------- undo
    def undoable(self) -> bool:
        """Whether ``undo`` would take something back now (nothing changes)."""
        return self.session.can_undo(EVERYONE)

    def undo(self, n: int) -> None:
        """Take back ``n`` times the last move a person typed (the session's
        rule: the terminal holds every seat; the undo rule is the game's)."""
        for _ in range(n):
            try:
                move = self.session.undo(EVERYONE)[-1]
            except SessionError as e:
                raise self.fail(e.kind) from None
            self.say("undone", move=self.move_text(move))
        self.announced = None
        self.confirmed = False
        self.show_position()

    def redo(self) -> None:
        """Play again what the last undo took back."""
        try:
            move = self.session.redo(EVERYONE)[0]
        except SessionError as e:
            raise self.fail(e.kind) from None
        self.say("redone", move=self.move_text(move))
        self.show_position()

    # ---------------------------------------------------------------- moves
    def move(self, typed: Typed, line: str) -> None:
        """Play the move ``typed`` (``solver.rules.grammar``), as typed in ``line``."""
        game = self.game
        if game.needs_roll:
            if typed.kind != "roll" or typed.dice is None:
                raise self.fail("dice_count", n=game.rules.dice - len(game.kept or ()))
            try:
                self.show_roll(game.play(typed.text))
            except InputError as e:
                raise self.translated(e) from None
            return
        action = self.action(typed, line)
        before = self.advice() if self.hints == "check" else None
        try:
            game.play(str(action))
        except InputError as e:
            raise self.translated(e) from None
        if before is not None:
            self.checked(before)
        self.after_score()

    def checked(self, before) -> None:
        """Check mode, after a person's decision: its loss (the session's
        ledger, as the review values it) and why, then their running loss."""
        game = self.game
        move, loss = game.moves[-1], self.session.losses()[-1]
        if not loss:
            self.say("best")
        else:
            self.say("cost", loss=self.num(loss, 2), best=self.action_text(before.best))
            chosen = next((a for a in before.actions if str(a) == move.text), None)
            if chosen is not None:
                self.why(before, chosen)
            self.say("tally", name=game.players[move.player].name,
                     loss=self.num(self.session.loss(move.player), 2))

    def translated(self, error: InputError) -> InputError:
        """A move's error from ``Game`` in the game's language (``game_error``)."""
        return InputError(game_error(error, self.lang))

    def action(self, typed: Typed, line: str) -> Action:
        """The keep or score of ``typed``, checked against the dice and the card."""
        if typed.kind == "roll":
            raise self.fail("bad_move", text=cut(line))
        return self.keep(typed.dice) if typed.kind == "keep" else self.score(typed)

    def keep(self, kept: tuple[int, ...]) -> Action:
        """The keep of ``kept`` (empty: reroll all), checked against the dice."""
        game = self.game
        dice = game.dice
        if game.rerolls == 0:
            raise self.fail("no_rerolls", dice=" ".join(map(str, dice)))
        rest_dice = list(dice)
        for d in kept:
            if d not in rest_dice:
                raise self.fail("not_among", dice=" ".join(map(str, kept)),
                                roll=" ".join(map(str, dice)))
            rest_dice.remove(d)
        return Action.keep(kept)

    def score(self, typed: Typed) -> Action:
        """The score of ``typed``, checked against the card (a strike says 0
        points: refused where the dice score more)."""
        game, rules = self.game, self.game.rules
        box = rules.box_index(typed.box)
        shown = box_name(rules.boxes[box].name, self.lang)
        if rules.columns > 1:
            if not typed.column:
                raise self.fail("name_column", box=shown, n=rules.columns)
            column = typed.column
        else:
            column = 1
        options = {(c, b): p for c, b, p in game.score_options(game.card, game.dice)}
        where = shown + (f"@{column}" if rules.columns > 1 else "")
        if (column, box) not in options:
            if game.card.column(column).points[box] is not None:
                raise self.fail("box_filled", box=where)
            due = [b for c, b in options if c == column]
            if rules.order == Order.FORCED and len(due) == 1:
                raise self.fail("forced_box", box=box_name(rules.boxes[due[0]].name, self.lang))
            raise self.fail("box_not_now", box=where, dice=" ".join(map(str, game.dice)))
        points = options[column, box]
        if typed.points is not None and typed.points != points:
            raise self.fail("game_wrong_points", box=where, points=points, said=typed.points)
        return Action.score(rules.boxes[box].name, points, column if rules.columns > 1 else 0)

    # ---------------------------------------------------------------- hints
    def why(self, advice, chosen) -> None:
        """Why a choice cost what it did, where the rules have explanations
        (``Solver.explain``): the sentence, then every part of the loss as
        one sum, as the library gives them."""
        from solver.players.explain import check_explain_rules
        try:
            check_explain_rules(self.game.rules)
            if self.game.solver.theta:
                return
            self.need_table(parts=True)
            why = self.game.solver.explain(advice.card, advice.dice, advice.rerolls)
        except InputError:
            return
        explained = next(e for e in why if e.action == chosen)
        self.echo(explained.sentence(self.lang))
        self.echo("  " + explained.sum_text(self.lang))

    def need_table(self, parts: bool = False) -> None:
        """Before the strategy's table (and with ``parts`` the explanations'
        table) is first used: if it must be solved, say what, how big and
        about how long (and the faster rules where there are any), ask for a
        big one as ``--yes`` would, then solve it in a child process
        (``solve_in_child``), its progress bar on the terminal, which Ctrl-C
        and the other signals stop within a moment, the game saved."""
        from solver.players.explain import parts_path
        from solver.tables.plan import calibrated_seconds, parts_plan, value_plan
        solver = self.game.solver
        rules = solver.rules
        values = getattr(solver, "_table", None) is None and not solver.path.exists()
        explain = parts and getattr(solver, "_parts", None) is None \
            and not parts_path(rules, solver.tables).exists()
        if not (values or explain):
            return
        plan = value_plan(rules.column_rules, solver.path, solver.theta)
        parts_seconds = calibrated_seconds(parts_plan(rules).seconds) if explain else 0.0
        seconds = parts_seconds
        if values:
            build = calibrated_seconds(plan.seconds)        # on this machine, as busy as it is now
            seconds += build
            self.say("solving", rules=rules.spec, about=self.about(build),
                     size=self.size(plan.file_size))
            faster = faster_rules(rules)
            if faster is not None:
                quick = value_plan(faster).seconds
                if quick * FASTER < plan.seconds:
                    self.say("faster", rules=faster.spec, about=self.about(quick))
        if explain:
            self.say("solving_parts", rules=rules.spec, about=self.about(parts_seconds))
        if seconds > STOP_NOTE_SECONDS:
            self.say("stoppable")
        self.draw()
        if values:
            self.confirm_build(plan)
        bar = self.words("bar", rules=rules.spec) if sys.stderr.isatty() else None
        compiling = self.words("compiling", what=self.words("compiled_solver"), seconds=20)
        code = solve_in_child(rules.spec, solver.tables, solver.theta, explain, bar, compiling,
                              self.lang)
        if code:
            raise self.fail("solve_failed", rules=rules.spec)

    def confirm_build(self, plan) -> None:
        """``tables.plan.check`` of the build, before the child starts: it
        fits, and a big build is confirmed (``--yes``, or a question in the
        language on a terminal), else one InputError in the language."""
        from solver.cli.options import ask_to_build
        from solver.tables import plan as plans
        from solver.tables.store import TableWarning
        before = plans.set_confirm(None)
        declined = []

        def ask(p) -> bool:
            if before is not ask_to_build:          # --yes, or the library's default
                return True if before is None else before(p)
            ok = sys.stdin.isatty() and sys.stderr.isatty() and click.prompt(
                self.words("build_question", about=self.about(p.seconds)), default="",
                show_default=False, prompt_suffix="", err=True
            ).strip().lower() in (self.words("yes"), "y", "yes")
            if not ok:
                declined.append(p)
            return ok

        if plan.path is not None and plan.disk_bytes > plans.free_disk(plan.path.parent):
            raise self.fail("no_disk", rules=self.game.rules.spec,
                            size=self.size(plan.disk_bytes),
                            free=self.size(plans.free_disk(plan.path.parent)))
        if plan.memory_bytes > plans.free_memory():
            raise self.fail("no_memory", rules=self.game.rules.spec,
                            size=self.size(plan.memory_bytes),
                            free=self.size(plans.free_memory()))
        plans.set_confirm(ask)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", TableWarning)    # announced above
                plans.check(plan)
        except InputError:
            if declined:
                raise self.fail("not_built", rules=self.game.rules.spec,
                                about=self.about(plan.seconds)) from None
            raise
        finally:
            plans.set_confirm(before)

    def size(self, n: int) -> str:
        """``n`` bytes in KiB .. TiB, a decimal comma in nb and sv."""
        from solver.tables.plan import describe_bytes
        return describe_bytes(n) if self.lang == "en" else describe_bytes(n).replace(".", ",")

    def about(self, seconds: float) -> str:
        """About how long ``seconds`` are, in the language."""
        if seconds < 90:
            t = f"{max(seconds, 1):.0f} s"
        elif seconds < 5400:
            t = f"{self.num(seconds / 60, 1)} min"
        else:
            t = f"{self.num(seconds / 3600, 1)} {self.words('hours')}"
        return self.words("about", t=t)

    def advice(self):
        """The advice now (solving the table first if need be)."""
        self.need_table()
        return self.game.advice()

    def what_if(self, typed: Typed, line: str) -> None:
        """``hint keep 5 5``, ``tips før sjanse``: that action's loss and why."""
        game = self.game
        if game.needs_roll:
            raise self.fail("roll_first")
        action = self.action(typed, line)
        advice = self.advice()
        chosen = advice.find(action)
        loss = (self.words("best") if chosen.loss == 0 else
                self.words("loss_of", loss=self.num(chosen.loss, 2),
                           best=self.action_text(advice.best)))
        self.say("what_if", action=self.action_text(chosen), loss=loss)
        if chosen.loss > 0:
            self.why(advice, chosen)

    def hint(self, top: int) -> None:
        game = self.game
        bound = game.values == LOWER_BOUND
        if game.needs_roll:
            self.need_table()
            ev = self.num(game.expected_score(), 1)
            self.say("expected_bound" if bound else "expected", ev=ev)
            return
        advice = self.advice()
        if top == 3:
            best = sorted(self.action_text(a) for a in advice.actions[:3])
            self.say("top3", choices=", ".join(best))
            return
        head = self.words("col_bound" if bound else "col_expected")
        shown = advice.actions[:top]
        wide = max(len(self.words("col_action")), *(len(self.action_text(a)) for a in shown))
        values = not self.steady or wide + 21 <= self.events_room()   # else: no room for them
        self.echo(f"{'':>2} {self.words('col_action'):<{wide}}"
                  + (f" {head:>9}" if values else "") + f" {self.words('col_loss'):>7}")
        for i, a in enumerate(shown, 1):
            loss = (self.words("word_best") if i == 1 else
                    self.words("word_tie") if a.loss == 0 else "-" + self.num(a.loss, 2))
            cost = click.style(f"{loss:>7}", fg="red" if a.loss >= 5 else
                               "yellow" if a.loss >= 1 else None)
            value = f" {self.num(a.expected_final_score, 2):>9}" if values else ""
            self.echo(f"{i:>2} {self.action_text(a):<{wide}}{value} {cost}")
        if bound:
            self.say("bound_note")

    # ------------------------------------------------------------- the end
    def finish(self) -> None:
        game = self.game
        reviewing = any(p.is_human for p in game.players)
        if reviewing:
            try:
                self.need_table()              # for the review
            except InputError as e:            # not solved: no review
                self.error(str(e))
                reviewing = False
        self.say("over")
        standings = self.session.standings()
        for s in standings:
            self.say("place", place=s.place, name=s.name, score=s.score)
        top = [s.name for s in standings if s.place == 1]
        if len(game.players) > 1:
            if len(top) > 1:
                self.say("tie", names=", ".join(top))
            else:
                self.say("winner", name=top[0])
        if game.settings.get("free_undo_used"):
            self.say("free_undo")
        reviews = self.session.reviews() if reviewing else {}
        for seat, review in reviews.items():
            player = game.players[seat]
            if review is None:
                continue
            self.say("review", name=player.name, total=self.num(review.total_loss, 2),
                     mean=self.num(review.mean_loss, 3), n=len(review.decisions))
            for d in review.costliest():
                if d.loss > 0:
                    text = self.words("costly", turn=d.turn, roll=d.roll,
                                      dice=" ".join(map(str, d.dice)),
                                      chosen=self.action_text(d.chosen),
                                      best=self.action_text(d.best), loss=self.num(d.loss, 2))
                    if sys.stdout.isatty():           # wrapped to the terminal, indented
                        text = textwrap.fill(text.strip(), shutil.get_terminal_size().columns,
                                             initial_indent="  ", subsequent_indent="    ")
                    self.echo(text)
        if self.db is not None and reviews and not game.settings.get("recorded"):
            self.record(reviews)

    def record(self, reviews: dict) -> None:
        """Every reviewed decision of the people at the table in the ratings
        database (``solver.research.ratings``): its position as a puzzle key
        (so a wrong one comes back in ``yatzy train``), kind, choice, best
        action, loss and the player's name; once per game."""
        from solver.research.puzzles import KINDS
        from solver.research.ratings import Answer, Ratings
        game = self.game
        answers = []
        for seat, review in reviews.items():
            if review is None:
                continue
            cards = game.turn_cards(seat)
            for d in review.decisions:
                kind = KINDS[2] if d.rerolls == 0 else KINDS[0] if d.roll == 1 else KINDS[1]
                key = f"{cards[d.turn - 1]}|{''.join(map(str, d.dice))}|{d.rerolls}"
                answers.append(Answer(game.rules.spec, key, kind, d.chosen, d.best, d.loss,
                                      "game", player=game.players[seat].name))
        try:
            with Ratings(self.db) as db:
                for a in answers:
                    db.record(a)
        except InputError:
            self.error(self.words("cannot_record", path=self.db))
            return
        game.settings["recorded"] = True
        self.say("recorded", n=len(answers), path=self.db)


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


CHILD = "import sys; from solver.cli.play import solve_child; sys.exit(solve_child(sys.argv[1]))"


def solve_in_child(spec: str, tables, theta: float, parts: bool, bar: str | None,
                   compiling: str = "", lang: str = "en") -> int:
    """Solve and store the value table of ``spec`` (and with ``parts`` its
    explanations' table) in a child process, and wait for it; its exit
    status.  Numba's kernels do not look at signals, so the solve runs
    apart: this process waits in short sleeps, in which a signal's handler
    (``_stop``) raises, and then the child is killed at once.  Tables are
    written atomically (temporary files of a killed write are removed on
    the next open), so killing is safe.  The child has its own session (a
    Ctrl-C at the terminal reaches only this process) and dies with this
    process (``PR_SET_PDEATHSIG``).  ``bar``: the progress bar's label
    (None: no bar); ``lang``: the language of its time left and errors."""
    import solver
    root = str(Path(solver.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    job = json.dumps({"rules": spec, "tables": None if tables is None else str(tables),
                      "theta": theta, "parts": parts, "bar": bar, "parent": os.getpid(),
                      "compiling": compiling, "lang": lang})
    child = subprocess.Popen([sys.executable, "-c", CHILD, job], stdin=subprocess.DEVNULL,
                             start_new_session=True, env=env)
    try:
        while child.poll() is None:
            time.sleep(0.05)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode


def solve_child(job: str) -> int:
    """The child of ``solve_in_child``: solve, store, exit 0 (2 and one line
    ``error: ...`` on stderr if the rules or the tables' folder are bad)."""
    from solver.api import Solver
    from solver.cli.options import BarProgress
    from solver.tables.store import TableWarning
    args = json.loads(job)
    try:                                    # die with the parent (Linux)
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)          # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != args["parent"]:      # the parent is gone already
        return 1

    def show(text, category, filename, lineno, file=None, line=None):
        if str(text).startswith("compiling") and args.get("compiling"):
            click.echo(args["compiling"], err=True)      # in the game's language
        else:
            click.echo(message("warning", args.get("lang", "en"), text=text), err=True)

    warnings.showwarning = show
    warnings.filterwarnings("ignore", message="building the", category=TableWarning)
    try:
        rules = parse_rules(args["rules"])
        bar = BarProgress(args["bar"], args.get("lang", "en")) if args["bar"] else None
        solver = Solver(rules, theta=args["theta"], tables=args["tables"], progress=bar)
        solver.solve()
        if args["parts"]:
            solver.parts()
    except (InputError, TableError) as e:
        click.echo(message("error", args.get("lang", "en"), text=e), err=True)
        return 2
    return 0


def _stop(signum, frame) -> None:
    raise Stopped(signum)


# ----------------------------------------------------------------- the command
@click.command()
@rules_option
@tables_option
@click.option("--player", "players", multiple=True, metavar="NAME[=KIND]",
              help="A seat, in playing order (repeat, up to 6): NAME for a person, "
                   "NAME=optimal|greedy|simple for a computer (several columns: "
                   "NAME=optimal|step) [default: one person].")
@click.option("--seed", type=SEED, default=None, metavar="S",
              help="Seed of the dice the program rolls [default: random].")
@click.option("--dice-from-table", "table_mode", is_flag=True, default=None,
              help="Roll real dice and type them (else the program rolls).")
@click.option("--hints", type=Choice(HINTS), default=None, metavar="MODE",
              help="off | check (after each choice: its cost) | top3 (the three best, "
                   "unranked) | full (the ranked list) [default: off].")
@click.option("--lang", type=Choice(LANGS), default=None, metavar="LANG",
              help="Box names and messages: en | nb | sv [default: en].")
@click.option("--undo", "undo_rule", type=Choice(UNDO), default=None, metavar="RULE",
              help="fair (a choice may be undone only before new dice are seen) | free "
                   "(anything) [default: fair with two or more people, else free].")
@click.option("--screen", type=Choice(("steady", "plain")), default=None, metavar="KIND",
              help="steady (the card beside the last events, redrawn; a terminal only) | "
                   "plain (a scrolling log) [default: steady in a terminal with colour].")
@click.option("--resume", metavar="FILE",
              help="Continue a saved game (its settings too, unless given here).")
@click.option("--autosave", metavar="FILE",
              help="The game's file, written after every move "
                   "[default: the --resume file, else yatzy-game-TIME.json here].")
@click.option("--db", "db_path", metavar="FILE",
              help="The ratings database the end-of-game review is recorded in, as yatzy "
                   "train's (every decision's loss, by kind, with the player's name) "
                   "[default: ratings.sqlite in $YATZY_DATA, else $XDG_DATA_HOME/yatzy, else "
                   "~/.local/share/yatzy].")
@click.option("--no-record", "no_record", is_flag=True,
              help="Do not record the review in the ratings database.")
def play(rules_spec: str, tables_dir: str | None, players: tuple[str, ...], seed: int | None,
         table_mode: bool | None, hints: str | None, lang: str | None, undo_rule: str | None,
         screen: str | None, resume: str | None, autosave: str | None, db_path: str | None,
         no_record: bool) -> None:
    """Play a game at the table, with a coach: yatzy play --player Ann --player Bob=optimal."""
    lang_now = lang or "en"
    try:
        if resume:
            game = Game.load(resume, tables=tables_dir)
        else:
            game = Game(rules_spec, players or (message("player", lang_now),), seed=seed,
                        tables=tables_dir)
    except GameError as e:
        raise InputError(game_error(e, lang or "en")) from None
    s = game.settings
    people = sum(p.is_human for p in game.players)
    s["table_mode"] = bool(table_mode if table_mode is not None else s.get("table_mode", False))
    s["hints"] = hints or (s.get("hints") if s.get("hints") in HINTS else "off")
    s["lang"] = lang or (s.get("lang") if s.get("lang") in LANGS else "en")
    s["undo"] = undo_rule or (s.get("undo") if s.get("undo") in UNDO else
                              "fair" if people > 1 else "free")
    path = check_path(autosave or resume or time.strftime("yatzy-game-%Y%m%d-%H%M%S.json"),
                      s["lang"])
    db = None
    if not no_record:
        from solver.research.ratings import Ratings, default_path
        db = db_path or str(default_path())
        try:
            Ratings(db).close()            # a bad database stops the game now, not at the end
        except InputError:
            raise InputError(message("cannot_record", s["lang"], path=db)) from None
    elif db_path:
        raise InputError("--db and --no-record do not go together")
    color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    coach = Coach(game, path, color, steady=color and screen != "plain", db=db)
    if color and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for the prompt)
        except ImportError:
            pass
    old = {sig: signal.signal(sig, _stop)
           for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)}
    code, failure = 0, None
    try:
        coach.run(resumed=bool(resume))
    except InputError as e:                 # a table that cannot or may not be solved
        code, failure = 2, e
    except KeyboardInterrupt:
        code = 130
    except Stopped as e:
        code = 128 + e.signum               # 129 hang-up, 130 Ctrl-C, 143 SIGTERM
    except (click.Abort, EOFError, Quit):   # click.prompt's end of input is Abort
        pass
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    coach.save()
    coach.steady = False
    coach.echo("")
    coach.say("saved", path=coach.path)
    if failure is not None:
        raise failure
    if code:
        sys.exit(code)


COMMANDS = (play,)
