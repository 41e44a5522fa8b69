"""``yatzy play``: a coach in the terminal for a whole game at the table.

Everything the game does is ``yatzy.game.Game``; this module reads lines,
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

import contextlib
import itertools
import os
import signal
import sys
import time
from typing import Iterator

import click

from yatzy.cli.coach.card import protokoll
from yatzy.cli.coach.loop import Coach, Quit, check_path
from yatzy.cli.coach.signals import stopping
from yatzy.cli.coach.solving import Stopped, solve_child, stop
from yatzy.cli.coach.texts import game_error
from yatzy.cli.options import SEED, Choice, rules_option, tables_option
from yatzy.errors import InputError
from yatzy.game import Game, GameError
from yatzy.history import default_path as default_history
from yatzy.research.ratings import Ratings
from yatzy.research.ratings import default_path as default_ratings
from yatzy.rules.words import LANGS, message

HINTS = ("off", "check", "top3", "full")
UNDO = ("fair", "free")

__all__ = ["play", "protokoll", "game_error", "check_path", "solve_child", "COMMANDS"]


def open_game(rules_spec: str, tables_dir: str | None, players: tuple[str, ...],
              seed: int | None, resume: str | None, lang: str | None) -> Game:
    """The game to play: the ``resume`` file's, else a new one (one person
    named in the language when no seat is given)."""
    try:
        if resume:
            return Game.load(resume, tables=tables_dir)
        return Game(rules_spec, players or (message("player", lang or "en"),), seed=seed,
                    tables=tables_dir)
    except GameError as e:
        raise InputError(game_error(e, lang or "en")) from None


def history_path(path: str | None, no_record: bool, lang: str) -> str | None:
    """The file of finished games (``yatzy.history``: the shared tables'
    file ``yatzy serve`` keeps) the game goes to; None with ``--no-record``.
    It is opened at the game's end: a file that cannot be used then is one
    line, and the game is saved all the same."""
    if no_record:
        if path:
            raise InputError(message("opt_not_together", lang, a="--history", b="--no-record"))
        return None
    return path or str(default_history())


def ratings_path(db_path: str | None, no_record: bool, lang: str) -> str | None:
    """The ratings database the review goes to (None with ``--no-record``),
    opened once now so that a bad one stops the game before it starts."""
    if no_record:
        if db_path:
            raise InputError(message("opt_not_together", lang, a="--db", b="--no-record"))
        return None
    db = db_path or str(default_ratings())
    try:
        Ratings(db).close()
    except InputError:
        raise InputError(message("cannot_record", lang, path=db)) from None
    return db


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
@click.option("--pad", is_flag=True, default=None,
              help="Score-pad mode: roll real dice and type only the points, as on a paper "
                   "pad (full house 18, two pairs 18); dice may still be typed for advice.")
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
@click.option("--history", "history", metavar="FILE",
              help="The file the finished game is kept in, with the table's best scores and "
                   "each player's personal best (yatzy history) [default: tables.sqlite in "
                   "the data folder, the file yatzy serve keeps: yatzy where].")
@click.option("--no-record", "no_record", is_flag=True,
              help="Record nothing: neither the review in the ratings database nor the game "
                   "in the history.")
def play(rules_spec: str, tables_dir: str | None, players: tuple[str, ...], seed: int | None,
         table_mode: bool | None, pad: bool | None, hints: str | None, lang: str | None,
         undo_rule: str | None, screen: str | None, resume: str | None, autosave: str | None,
         db_path: str | None, history: str | None, no_record: bool) -> None:
    """Play a game at the table, with a coach: yatzy play --player Ann --player Bob=optimal
    (with real dice and a paper pad's habit: yatzy play --pad --player Kari --player Ola)."""
    game = open_game(rules_spec, tables_dir, players, seed, resume, lang)
    s = game.settings
    people = sum(p.is_human for p in game.players)
    if pad is not None or s.get("pad"):
        s["pad"] = bool(pad if pad is not None else s.get("pad"))
    s["table_mode"] = bool(s.get("pad")) or bool(table_mode if table_mode is not None
                                                  else s.get("table_mode", False))
    s["hints"] = hints or (s.get("hints") if s.get("hints") in HINTS else "off")
    s["lang"] = lang or (s.get("lang") if s.get("lang") in LANGS else "en")
    s["undo"] = undo_rule or (s.get("undo") if s.get("undo") in UNDO else
                              "fair" if people > 1 else "free")
    db = ratings_path(db_path, no_record, s["lang"])
    kept = history_path(history, no_record, s["lang"])
    path = check_path(autosave or resume or new_name(s["lang"]), s["lang"])
    with holding(path, s["lang"]):
        coach_game(game, path, screen, db, kept, resumed=bool(resume))


def coach_game(game: Game, path: str, screen: str | None, db: str | None, kept: str | None,
               resumed: bool) -> None:
    """The coach's game at the table, saved to ``path`` however it ends."""
    color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    coach = Coach(game, path, color, steady=color and screen != "plain", db=db, history=kept)
    if coach.steady:                        # before readline, whose own handler calls it on
        signal.signal(signal.SIGWINCH, coach.resized)
    if color and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for the prompt)
        except ImportError:
            pass
    code, failure = 0, None
    try:
        with stopping(stop):
            coach.run(resumed=resumed)
    except InputError as e:                 # a table that cannot or may not be solved
        code, failure = 2, e
    except KeyboardInterrupt:
        code = 130
    except Stopped as e:
        code = 128 + e.signum               # 129 hang-up, 130 Ctrl-C, 143 SIGTERM
    except (click.Abort, EOFError, Quit):   # click.prompt's end of input is Abort
        pass
    coach.save()
    coach.steady = False
    coach.echo("")
    coach.say("saved", path=coach.path)
    if failure is not None:
        raise failure
    if code:
        sys.exit(code)


def new_name(lang: str) -> str:
    """A new game's file here: ``yatzy-game-TIME.json``, or ``-2``, ``-3``
    ... after TIME where that name is taken (two games started in the same
    second); made at once, so that no other game takes the name."""
    stem = time.strftime("yatzy-game-%Y%m%d-%H%M%S")
    for n in itertools.count(1):
        name = stem + (f"-{n}" if n > 1 else "") + ".json"
        try:
            os.close(os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        except OSError:
            raise InputError(message("cannot_write", lang, path=name)) from None
        return name
    raise AssertionError("unreachable")


@contextlib.contextmanager
def holding(path: str, lang: str) -> Iterator[None]:
    """The game's file held by this coach alone while the block runs: an
    exclusive ``fcntl.flock`` on ``<file>.lock``; a second coach of the same
    file is one line in ``lang`` (it would overwrite the first one's moves).
    Where the system has no flock, or the lock file cannot be made, the
    game goes on unlocked."""
    try:
        import fcntl
        fd = os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o644)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise InputError(message("game_open", lang, path=path)) from None
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path + ".lock")
        os.close(fd)


COMMANDS = (play,)
