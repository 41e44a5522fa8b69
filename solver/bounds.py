"""The ranges every number and text a user gives must lie in, checked once
where it enters (the CLI's options, the ``Solver`` API, rules specs, dice,
actions, cards, logs and game documents; the server reads through the same
functions).

Each range keeps the work finite and the arithmetic exact:

=============  ==========================================================
text           at most ``MAX_TEXT`` characters (a log or document line
               ``MAX_LINE``) before anything is parsed, so that no
               ``int()`` meets a number of thousands of digits
whole numbers  at most ``MAX_DIGITS`` digits as text
θ (theta)      0, or ``THETA_MIN <= |θ| <= THETA_MAX`` and ``|θ| *
               max_score <= 700``: the utility ``-exp(-θx)/θ`` then
               neither underflows nor overflows and keeps about 10
               significant digits of the points (below ``THETA_MIN`` the
               float64 values of ``exp(-θx)`` no longer tell one point
               from the next; use θ = 0 for the expected score)
targets        0 .. the rule set's largest score
games          1 .. ``MAX_GAMES``
seeds          0 .. ``MAX_SEED``
workers        0 .. ``MAX_WORKERS`` (``WORKERS_PER_CORE`` for each core)
=============  ==========================================================

A value of the wrong Python type raises ``WrongType``, which is both a
``TypeError`` (for code) and an ``InputError`` (one line for the CLI and
the server); a value of the right type out of its range raises
``InputError``.

    >>> check_theta(0.05)
    0.05
    >>> check_theta(1e-20)
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: theta must be between -1 and 1, and 0 or at least 1e-06 in size, not 1e-20
    >>> whole_text("9" * 500, "points")
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: points '99999999999999999999...' (500 characters): at most 100 digits
    >>> check_text(None, "dice")
    Traceback (most recent call last):
    ...
    yatzy.bounds.WrongType: dice must be text, not None

This module imports nothing of the package but ``yatzy.errors``.
"""

from __future__ import annotations

import json
import math
import os
import numbers
import re

from yatzy.errors import InputError

MAX_TEXT = 4096              # characters of one typed value (dice, card, move, spec)
MAX_LINE = 1 << 20           # characters of one line of a log or game document
MAX_DOCUMENT = 64 << 20      # characters of a whole game document or log file
MAX_DIGITS = 100             # digits of a whole number read from text (more: refused unread)
MAX_SEED = 2**63 - 1
MAX_GAMES = 10**12
WORKERS_PER_CORE = 4
MAX_WORKERS = WORKERS_PER_CORE * (os.cpu_count() or 1)   # each worker maps its own tables
THETA_MIN = 1e-6
THETA_MAX = 1.0
EXP_LIMIT = 700.0            # exp(±700) is still a float64


class WrongType(InputError, TypeError):
    """A value of the wrong Python type: a ``TypeError`` that the CLI and the
    server, which catch ``InputError``, still report in one line."""


def shown(text: str, most: int = 20) -> str:
    """``text`` quoted, cut to ``most`` characters (a long value named in an
    error stays one short line).

    >>> shown("1" * 30)
    "'11111111111111111111...' (30 characters)"
    """
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}"[:-1] + f"...' ({len(text)} characters)"


def brief(value: object, most: int = 40) -> str:
    """``repr(value)`` cut to about ``most`` characters, for an error line.

    >>> brief("9" * 5000)
    "'999999999999999999999999999999999999999... (5002 characters)"
    """
    text = repr(value)
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def check_text(value: object, name: str, most: int = MAX_TEXT, *,
               optional: bool = False) -> str:
    """``value`` if it is a ``str`` of at most ``most`` characters (None as ""
    when ``optional``); ``WrongType`` or ``InputError`` otherwise."""
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise WrongType(f"{name} must be text, not {_kind(value)}")
    if len(value) > most:
        raise InputError(f"{name} {shown(value)}: too long (at most {most} characters)")
    return value


def whole_text(text: str, name: str, low: int | None = None, high: int | None = None) -> int:
    """The whole number written in ``text`` (digits, an optional sign),
    refused before ``int()`` when it has more than ``MAX_DIGITS`` digits."""
    s = check_text(text, name).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", s):
        raise InputError(f"{name} {shown(s)}: must be a whole number")
    if len(s.lstrip("+-")) > MAX_DIGITS:
        raise InputError(f"{name} {shown(s)}: at most {MAX_DIGITS} digits")
    return check_whole(int(s), name, low, high)


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (``int()`` also reads
    other scripts' digits, and ``str.isdigit`` says yes to ``²``, which
    ``int()`` refuses).

    >>> is_digits("12"), is_digits("²"), is_digits("٣"), is_digits("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def whole_range(low: int | None, high: int | None = None) -> str:
    """``at least 1``, ``between 0 and 2**63-1``: the numbers ``low .. high``."""
    if high is None:
        return f"at least {low}"
    top = "2**63-1" if high == MAX_SEED else ("10**12" if high == MAX_GAMES else str(high))
    if low is None:
        return f"at most {top}"
    return f"between {low} and {top}"


def check_whole(value: object, name: str, low: int | None = 0, high: int | None = None) -> int:
    """``value`` as an int in ``low .. high``: ``WrongType`` if it is not a
    whole number (a bool is not), ``InputError`` if out of range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise WrongType(f"{name} must be a whole number, not {_kind(value)}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputError(f"{name} must be {whole_range(low, high)}, not {_number(value)}")
    return value


def check_games(games: object) -> int:
    """1 .. ``MAX_GAMES`` games."""
    return check_whole(check_whole(games, "games", 1), "games", 1, MAX_GAMES)


def check_seed(seed: object) -> int:
    """A seed, 0 .. 2**63-1."""
    return check_whole(seed, "seed", 0, MAX_SEED)


def check_workers(workers: object) -> int:
    """0 (in this process) .. ``MAX_WORKERS`` workers."""
    return check_whole(workers, "workers", 0, MAX_WORKERS)


def check_theta(theta: object, max_score: int | None = None, name: str = "theta") -> float:
    """A risk parameter: 0, or ``THETA_MIN <= |theta| <= THETA_MAX``, and
    with ``max_score`` (the rule set's most points) small enough that
    ``exp(|theta| max_score)`` is a float64."""
    if isinstance(theta, bool) or not isinstance(theta, numbers.Real):
        raise WrongType(f"{name} must be a number, not {_kind(theta)}")
    theta = float(theta)
    if theta != theta or math.isinf(theta):
        raise InputError(f"{name} must be a number, not {theta}")
    if theta == 0:
        return 0.0
    if not THETA_MIN <= abs(theta) <= THETA_MAX:
        raise InputError(f"{name} must be between -{THETA_MAX:g} and {THETA_MAX:g}, and 0 or "
                         f"at least {THETA_MIN:g} in size, not {theta:g}")
    if max_score and abs(theta) * max_score > EXP_LIMIT:
        raise InputError(f"{name} {theta:g}: with up to {max_score} points |{name}| must be "
                         f"at most {EXP_LIMIT / max_score:.3f}")
    return theta


def check_target(target: object, max_score: int, name: str = "target") -> int:
    """A target score: 0 .. ``max_score`` (the rule set's largest score)."""
    if isinstance(target, bool) or not isinstance(target, numbers.Integral):
        raise WrongType(f"{name} must be a whole number, not {_kind(target)}")
    target = int(target)
    if not 0 <= target <= max_score:
        raise InputError(f"{name} {_number(target)}: must be between 0 and {max_score}, "
                         "the most a game can score")
    return target


def parse_json(text: str, where: str) -> object:
    """``json.loads`` of a line or document of a file, every failure one
    ``InputError`` naming ``where``: bad JSON, numbers of more than 4,300
    digits, nesting too deep for the parser, text too long.

    >>> parse_json("[" * 100_000, "game.json")
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: game.json: not JSON (nested too deeply)
    """
    check_text(text, where, MAX_DOCUMENT)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{where}: not JSON ({e.msg})") from None
    except RecursionError:
        raise InputError(f"{where}: not JSON (nested too deeply)") from None
    except ValueError as e:                 # an integer of too many digits
        raise InputError(f"{where}: not JSON ({str(e).split(';')[0]})") from None


def _number(value: int) -> str:
    """A whole number for an error line: itself, or its size when huge (no
    ``str()`` of thousands of digits, which Python refuses)."""
    if abs(value) < 10**30:
        return str(value)
    return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"


def _kind(value: object) -> str:
    """What a wrongly typed value is, briefly: ``None``, ``a list``."""
    if value is None:
        return "None"
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        text = repr(value)
        return text if len(text) <= 30 else f"a {type(value).__name__}"
    return f"a {type(value).__name__}"


__all__ = ["EXP_LIMIT", "brief", "is_digits", "MAX_DIGITS", "MAX_DOCUMENT", "MAX_GAMES", "MAX_LINE", "MAX_SEED",
           "MAX_TEXT", "MAX_WORKERS", "THETA_MAX", "THETA_MIN", "WrongType", "check_games",
           "check_seed", "check_target", "check_text", "check_theta", "check_whole",
           "check_workers", "parse_json", "shown", "whole_range", "whole_text"]
