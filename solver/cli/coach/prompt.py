"""Reading a line from the player.

On a terminal the prompt goes to ``input`` itself, so that readline (line
editing and history, loaded by ``yatzy play``) knows how wide it is and a
line longer than the terminal wraps without losing what was typed; click's
own prompt writes the prompt apart and gives readline a one-space prompt.
Piped input goes through ``click.prompt`` (the line typed is echoed where
the input is not a terminal).
"""

from __future__ import annotations

import re
import sys

import click

from yatzy.cli.coach.signals import waiting

ANSI = re.compile(r"(\x1b\[[0-9;]*m)")


def for_readline(prompt: str) -> str:
    """``prompt`` with each colour code between readline's markers of
    characters that take no room (``\\x01`` .. ``\\x02``).

    >>> for_readline("\\x1b[1mAnn\\x1b[0m> ")
    '\\x01\\x1b[1m\\x02Ann\\x01\\x1b[0m\\x02> '
    """
    return ANSI.sub("\x01\\1\x02", prompt)


def read_line(prompt: str) -> str:
    """One line, stripped; raises ``EOFError`` or ``click.Abort`` when input
    ends.  A signal that comes while it waits stops it (``signals.stopping``)."""
    with waiting():
        if sys.stdin.isatty() and sys.stdout.isatty():
            return input(for_readline(prompt)).strip()
        return click.prompt(prompt, default="", show_default=False, prompt_suffix="").strip()
