"""A request body as JSON, bounded: nesting at most ``MAX_DEPTH`` deep,
whole numbers of at most ``MAX_DIGITS`` digits, no ``NaN`` or
``Infinity``; anything else is one ``BodyError`` line (the routes answer
it 400).  Every route that reads a JSON body reads it through
``json_body`` (the page's game routes, the Practice view's answers).

    >>> json_body(b'{"after": 3, "move": "score chance"}')
    {'after': 3, 'move': 'score chance'}
    >>> json_body(b"[" * 40 + b"]" * 40)
    Traceback (most recent call last):
    ...
    yatzy.web.bodies.BodyError: the body is nested more than 32 deep
    >>> json_body(b'{"seed": 1' + b"0" * 5000 + b"}")
    Traceback (most recent call last):
    ...
    yatzy.web.bodies.BodyError: the body holds a number of more than 40 digits
"""

from __future__ import annotations

import json

from yatzy.errors import InputError

MAX_DEPTH = 32          # a game document nests 5 deep
MAX_DIGITS = 40         # a seed has at most 19


class BodyError(InputError):
    """A body that is not bounded JSON."""


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BodyError(f"the body holds a number of more than {MAX_DIGITS} digits")
    return int(text)


def _constant(text: str) -> float:
    raise BodyError(f"the body holds {text}, which JSON does not have")


def _depth_ok(obj: object) -> bool:
    """Whether ``obj`` nests at most ``MAX_DEPTH`` deep (no recursion)."""
    todo = [(obj, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                return False
            todo += [(v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return True


def json_body(data: bytes | str) -> object:
    """The JSON document ``data`` (UTF-8), bounded as this module says."""
    try:
        obj = json.loads(data, parse_int=_whole, parse_constant=_constant)
    except BodyError:
        raise
    except RecursionError:
        raise BodyError(f"the body is nested more than {MAX_DEPTH} deep") from None
    except (ValueError, UnicodeDecodeError):
        raise BodyError("the body is not a JSON document") from None
    if not _depth_ok(obj):
        raise BodyError(f"the body is nested more than {MAX_DEPTH} deep")
    return obj


__all__ = ["BodyError", "MAX_DEPTH", "MAX_DIGITS", "json_body"]
