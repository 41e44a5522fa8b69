"""What the coach prints: lines, the steady screen, the card."""

from __future__ import annotations

import sys

import click

from yatzy.cli.coach.card import protokoll
from yatzy.cli.coach.prompt import read_line
from yatzy.cli.coach.signals import WAITING
from yatzy.cli.coach.standing import bonus_text, lead_text, standing_line
from yatzy.cli.coach.steady import fit
from yatzy.cli.coach.texts import terminal_size
from yatzy.errors import InputError
from yatzy.game import Move
from yatzy.position.actions import Action
from yatzy.rules.words import BOXES, box_name, message, number
from yatzy.tables.announce import ANNOUNCE_SECONDS, compile_seconds, kernels_of

EVENTS = 200                           # recent events kept for beside the card: a
                                       # person's verdict outlasts five computers' turns
EVENTS_ROOM = 24                       # columns the steady screen keeps for them at least
GAP = 3                                # columns between the card and the events
PIPS = "⚀⚁⚂⚃⚄⚅"


class Screen:
    """Mixin of the coach: its output."""

    asking: str | None = None              # the prompt waiting for a line, if one is

    def read(self, prompt: str) -> str:
        """A line typed after ``prompt`` (``prompt.read_line``)."""
        self.asking = prompt
        try:
            return read_line(prompt)
        finally:
            self.asking = None

    def resized(self, signum: int = 0, frame: object = None) -> None:
        """The terminal's new size (SIGWINCH): while a prompt waits on the
        steady screen, the screen drawn again at once in that size, the
        prompt and what is typed so far under it (else the next drawing
        takes the size)."""
        if not self.steady or self.asking is None or not WAITING.is_set():
            return
        self.draw()
        line = sys.modules.get("readline")
        try:
            sys.stdout.write(self.asking + (line.get_line_buffer() if line else ""))
            sys.stdout.flush()
        except OSError:
            pass

    # ---------------------------------------------------------- output
    def echo(self, text: str = "", tag: str = "event") -> None:
        """Print a line (on the steady screen: keep it, tagged turn, hint or
        event, for the next drawing, ``steady.fit``)."""
        if self.steady:
            self.events.extend((tag, line) for line in (text.splitlines() or [""]))
            return
        try:
            click.echo(text, color=self.color)
        except OSError:                   # the terminal is gone (hang-up): keep playing safe
            pass

    def beside(self) -> list[tuple[str, str]]:
        """The events beside the card, the line of who leads and the bonus
        after the latest turn's line."""
        events = list(self.events)
        standing = [t for t in (lead_text(self.session, self.lang),
                                bonus_text(self.session, self.lang)) if t]
        turns = [i for i, (k, _) in enumerate(events) if k == "turn"]
        if turns and not self.game.is_over:   # a line each: no "·" hanging where one wraps
            events[turns[-1] + 1:turns[-1] + 1] = [("turn", t) for t in standing]
        return events

    def draw(self) -> None:
        """The steady screen: the card (the player to move in colour) beside
        the last events that fit (``steady.fit``), the dice drawn under them."""
        if not self.steady:
            return
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text
        size = terminal_size()
        console = Console(highlight=False, width=size.columns, height=size.lines)
        card = self.card(highlight=True)
        width, room = self.widths(card, console.width)
        height = len(card.splitlines())
        dice = self.dice_line()
        # no row left under the card, the dice and the prompt for the line an
        # Enter adds: the dice go beside the card, so that its header stays
        side = bool(dice) and height + 2 >= console.height
        lines = fit(self.beside(), height - side, room, BOXES.get(self.lang, {}).values(),
                    (self.words("score"), self.words("keep")))
        if side:
            lines += [""] * (height - 1 - len(lines)) + [self.dice_line(pips=False)]
        grid = Table.grid(padding=0)
        grid.add_column(no_wrap=True, width=width)
        grid.add_column(no_wrap=True, width=GAP)
        grid.add_column(no_wrap=True, overflow="crop", width=room)
        grid.add_row(Text.from_ansi(card), Text(" " * GAP), Text.from_ansi("\n".join(lines)))
        try:
            console.clear()
            console.print(grid)
            if dice and not side:
                console.print(Text(dice, style="bold"), crop=True, overflow="ellipsis")
        except OSError:
            pass

    def dice_line(self, pips: bool = True) -> str:
        """The dice under the card: the roll's (as pips and digits) and the
        rerolls left, or the dice kept and how many are to be rolled
        (``pips`` False: digits only, for beside the card)."""
        game = self.game
        if game.dice is None or game.is_over:
            return ""
        kept = game.kept
        shown = game.dice if kept is None else kept
        lead = " ".join(PIPS[d - 1] if d <= len(PIPS) else str(d) for d in shown) + "   " \
            if pips else ""
        if kept is not None:
            return lead + self.words("status_kept", dice=" ".join(map(str, kept)) or "-",
                                     n=game.rules.dice - len(kept))
        return (f"{lead}{' '.join(map(str, game.dice))} · "
                + message("left", self.lang, n=game.rerolls))

    @staticmethod
    def widths(card: str, columns: int) -> tuple[int, int]:
        """The steady screen's columns: the card's width and the events' room."""
        width = max(len(click.unstyle(line)) for line in card.splitlines())
        return width, max(columns - width - GAP, EVENTS_ROOM)

    def room(self) -> int:
        """Characters a line of the coach has: beside the card on the
        steady screen, else the terminal's width (80 when piped)."""
        return self.events_room() if self.steady else terminal_size().columns

    def events_room(self) -> int:
        """Characters an event line has beside the card on the steady screen."""
        return self.widths(self.card(), terminal_size().columns)[1]

    def card(self, highlight: bool = False) -> str:
        """The card for the screen: as wide as the terminal allows (the
        steady screen keeps ``EVENTS_ROOM`` beside it, and rows for the
        prompt and an Enter under it); any size when piped."""
        width = height = None
        if sys.stdout.isatty():
            size = terminal_size()
            width = size.columns - (EVENTS_ROOM + GAP if self.steady else 0)
            if self.steady:                 # the prompt, and the line an Enter adds
                height = size.lines - 2
        return protokoll(self.game, self.lang, highlight, width, height)

    def say(self, key: str, tag: str = "event", **kw) -> None:
        self.echo(message(key, self.lang, **kw), tag)

    def unsay(self, key: str) -> None:
        """The lines of message ``key`` taken off the steady screen (said
        while something lasted that has ended)."""
        said = self.words(key)
        kept = [(k, line) for k, line in self.events if line != said]
        self.events.clear()
        self.events.extend(kept)

    def words(self, key: str, **kw) -> str:
        return message(key, self.lang, **kw)

    def say_compile(self, kind: str) -> None:
        """Say, in the language, that a computer seat's policy compiles its
        kernels first, and about how long (once, where Numba's cache does
        not hold them: ``tables.announce.compile_seconds``)."""
        if kind in ("greedy", "simple"):
            seconds = compile_seconds("player", kernels_of("player"))
            if seconds > ANNOUNCE_SECONDS:
                self.say("compiling", what=self.words("compiled_player"),
                         seconds=f"{seconds:.0f}")

    def num(self, x: float, digits: int) -> str:
        return number(x, digits, self.lang)

    def fail(self, key: str, **kw) -> InputError:
        return InputError(self.words(key, **kw))

    def action_text(self, action: Action | str, compact: int = 0) -> str:
        """An action in the game's language (``behold 5 6``, ``skriv kåk (25)``),
        shorter as ``compact`` grows, each as it may be typed: 1, a keep's dice
        without spaces and a box without the verb (``behold 56``, ``kåk (25)``);
        2, a box without its points too."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except InputError:
                return action
        if action.kind == "score":
            column = f"@{action.column}" if action.column else ""
            points = "" if action.points is None or compact > 1 else f" ({action.points})"
            verb = "" if compact else f"{self.words('score')} "
            return f"{verb}{box_name(action.box, self.lang)}{column}{points}"
        if not action.dice:
            return self.words("reroll_all")
        return f"{self.words('keep')} {('' if compact else ' ').join(map(str, action.dice))}"

    def say_turn(self) -> None:
        """Whose turn it is; Swedish names ending in s, x or z take no
        genitive s ("Nils tur")."""
        game = self.game
        name = game.player.name
        genitive = name if name[-1:].lower() in ("s", "x", "z") else name + "s"
        self.say("turn", "turn", name=click.style(name, bold=True),
                 genitive=click.style(genitive, bold=True),
                 n=game.card.turn + 1, of=game.turns_per_player)
        standing = standing_line(self.session, self.lang)
        if standing and not self.steady:          # the steady screen draws it beside the card
            self.echo(standing)

    def show_roll(self, move: Move) -> None:
        game = self.game
        self.say("rolled", name=game.players[move.player].name,
                 dice=" ".join(map(str, game.dice)),
                 left=message("left", self.lang, n=game.rerolls))

    def error(self, text: str) -> None:
        self.echo(click.style(self.words("error", text=text), fg="red"))

    def move_text(self, move: Move) -> str:
        """A move for a message: its dice for a roll, else the action."""
        if move.is_roll:
            return move.text[len("roll "):]
        return self.action_text(move.text)

