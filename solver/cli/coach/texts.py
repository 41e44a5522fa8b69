"""Moves, actions and the game's errors as words in the game's language."""

from __future__ import annotations

import os
import shutil
import sys

from yatzy.errors import InputError
from yatzy.game import GameError
from yatzy.rules.grammar import GrammarError
from yatzy.rules.words import box_name, message

CUT = 40                               # characters of typed text repeated in a message


def terminal_size() -> os.terminal_size:
    """The terminal's size now, as the terminal says it (readline writes
    ``COLUMNS`` and ``LINES`` into the environment, where they outlive a
    resize); else ``shutil``'s (80×24 when piped)."""
    try:
        return os.get_terminal_size(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size()


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

    >>> from yatzy.game import Game
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

