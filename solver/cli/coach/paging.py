"""Text longer than the steady screen has room for beside the card, in
pages of the whole terminal: the help, the status and the end of the game.

A page holds as many rows as the terminal less one, for the prompt that
turns it (``Enter: more``); the help and the status end with ``Enter:
back to the game``, after which the game's screen is drawn again.  The
end of the game shows the card with the places and the winner beside it
first, then the reviews and the history in pages, the last one left on
the screen (the line that says where the game is saved comes under it).
Off the steady screen (a plain log, piped) the lines are printed as they
come.
"""

from __future__ import annotations

import contextlib
import textwrap
from typing import Iterator

import click

from yatzy.cli.coach.prompt import read_line
from yatzy.cli.coach.texts import terminal_size

END_ROWS = 2                 # under the end's last page: a blank line and where the game is saved


def rows(lines: list[str], width: int) -> list[str]:
    """``lines`` wrapped to ``width`` (an indented line's rows under its text).

    >>> rows(["kommandoer: behold 5 6 | 56 | skriv BOKS", "  tur 3 kast 1, terninger 1 1"], 20)
    ['kommandoer: behold 5', '6 | 56 | skriv BOKS', '  tur 3 kast 1,', '    terninger 1 1']
    """
    out = []
    for line in lines:
        plain = click.unstyle(line)
        if len(plain) <= width:
            out.append(line)
            continue
        lead = plain[:len(plain) - len(plain.lstrip())]
        out += textwrap.wrap(plain.strip(), width, initial_indent=lead,
                             subsequent_indent=lead + ("  " if lead else ""))
    return out


def pages(lines: list[str], height: int, last_room: int = 1) -> list[list[str]]:
    """``lines`` in pages of ``height - 1`` rows (a row for the prompt), the
    last one of ``height - last_room`` rows at most.

    >>> [len(p) for p in pages([str(i) for i in range(10)], 5)]
    [4, 4, 2]
    >>> [len(p) for p in pages([str(i) for i in range(8)], 5, 2)]
    [4, 3, 1]
    """
    out: list[list[str]] = []
    rest = list(lines)
    while len(rest) > height - last_room:
        n = min(height - 1, len(rest) - 1)            # something is left for the last page
        out.append(rest[:n])
        rest = rest[n:]
    return out + [rest]


class Pages:
    """Mixin of the coach: pages of the whole terminal."""

    @contextlib.contextmanager
    def gathered(self) -> Iterator[list[tuple[str, str]]]:
        """What the block says (tagged as ``screen.echo`` tags it),
        gathered on the steady screen instead of drawn beside the card;
        printed as it comes otherwise."""
        if not self.steady:
            yield []
            return
        before = list(self.events)
        self.events.clear()
        said: list[tuple[str, str]] = []
        try:
            yield said
        finally:
            said += self.events
            self.events.clear()
            self.events.extend(before)

    def turn_pages(self, lines: list[str], back: bool, last_room: int = 1) -> None:
        """``lines`` in pages of the terminal (``pages``), each but the last
        turned with Enter; ``back``: the last too, and the game's screen
        drawn again after it."""
        size = terminal_size()
        chunks = pages(rows(lines, size.columns), size.lines, last_room)
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            click.clear()
            click.echo("\n".join(chunk), color=self.color)
            if last and not back:
                return
            try:
                read_line(self.words("page_back" if last else "page_more") + " ")
            except (click.Abort, EOFError):
                return

    def paged(self, said: list[tuple[str, str]]) -> None:
        """The help or the status: beside the card, in place of the events,
        where they fit whole; else in pages of their own, then the game
        again."""
        if not said:
            return
        room, height = self.events_room(), len(self.card().splitlines())
        if sum(len(rows([line], room)) for _, line in said) <= height - 1:
            self.events.clear()
            self.events.extend(said)
            return
        self.turn_pages([line for _, line in said], back=True)
