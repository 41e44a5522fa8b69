"""What every route of the server shares: the request's checked input (a
query value, a whole number, the JSON body within its size and time) and
the JSON answers (``reply``; ``ApiError``: one line with its ``code``,
the kind of error, so the page can say it in the reader's language).
"""

from __future__ import annotations

import json
import time
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import Response

from yatzy.api import check_whole
from yatzy.position.actions import Action, Advice
from yatzy.rules.ruleset import Rules
from yatzy.rules.words import LANGS, box_name, message
from yatzy.web.bodies import BodyError, json_body
from yatzy.web.connections import no_paths
from yatzy.web.guard import retry_after

MAX_BODY = 64 * 1024          # bytes of a request body
MAX_QUERY = 2048              # bytes of a query string
MAX_TEXT = 200                # characters of one query value or a move
BODY_SECONDS = 10.0           # a request body must arrive within this


class ApiError(Exception):
    """An answer other than 200: ``status``, a one-line message and ``code``,
    the kind of error (the page words it in the reader's language)."""

    def __init__(self, status: int, message: str, code: str = "input", *,
                 retry: float | None = None, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.extra, self.retry = status, code, extra, retry


def reply(obj: object, status: int = 200, headers: dict | None = None) -> Response:
    return Response(json.dumps(obj, separators=(",", ":"), allow_nan=False), status,
                    headers, media_type="application/json")


def error_reply(status: int, text: str, code: str = "input", retry: float | None = None,
                **extra: Any) -> Response:
    """One JSON line with ``code``; a 429 says when to ask again
    (``Retry-After``: ``retry`` seconds, else 1)."""
    line = no_paths(" ".join(str(text).split())) or "error"     # no server paths shown
    headers = {"Retry-After": retry_after(retry)} if status == 429 or retry else None
    return reply({"error": line, "code": code, **extra}, status, headers)


# ------------------------------------------------------------------ input
def arg(request: Request, name: str, default: str | None = None) -> str:
    value = request.query_params.get(name)
    if value is None:
        if default is None:
            raise ApiError(400, f"the query parameter {name} is missing")
        return default
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{name} is longer than {MAX_TEXT} characters")
    return value


def whole_arg(request: Request, name: str, low: int, high: int, required: bool = True
              ) -> int | None:
    """A whole number ``low .. high``; None if it is not required and not given."""
    text = arg(request, name, None if required else "").strip()
    if not text and not required:
        return None
    digits = text[1:] if text.startswith("-") else text
    if not text.isascii() or not digits.isdigit() or len(text) > 6:
        raise ApiError(400, f"{name} must be a whole number, not {text[:20]!r}")
    return check_whole(int(text), name, low, high)


async def body(request: Request) -> dict:
    """The request's JSON object, at most ``MAX_BODY`` bytes."""
    size = request.headers.get("content-length", "0")
    if not size.isdigit():
        raise ApiError(400, "bad Content-Length", "body")
    if int(size) > MAX_BODY:
        raise ApiError(413, f"the body is larger than {MAX_BODY} bytes", "body")
    data = bytearray()
    try:
        with anyio.fail_after(BODY_SECONDS):           # a body that trickles in is cut off
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_BODY:
                    raise ApiError(413, f"the body is larger than {MAX_BODY} bytes", "body")
    except TimeoutError:
        raise ApiError(408, f"the body took longer than {BODY_SECONDS:g} s to arrive",
                       "body") from None
    try:
        obj = json_body(bytes(data))     # bounded: depth, digits (one 400 line otherwise)
    except BodyError as e:
        raise ApiError(400, str(e), "body") from None
    if not isinstance(obj, dict):
        raise ApiError(400, "the body must be a JSON object", "body")
    return obj


def text_field(obj: dict, name: str, default: str | None = None) -> str:
    value = obj.get(name, default)
    if not isinstance(value, str):
        raise ApiError(400, f"{name} must be a string" + ("" if default is not None
                                                            else " (it is required)"))
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{name} is longer than {MAX_TEXT} characters")
    return value


def build_times(clock: dict, done: int, total: int) -> dict:
    """A build's progress for ``/api/status`` and a 503: ``done``, ``total``
    (work units), ``seconds`` since the build's first report and
    ``seconds_left`` at the speed since then (``None`` until 3 % of the work
    is done); ``clock`` keeps the build's start (a new build, a smaller
    ``done`` or another ``total``, starts it again)."""
    now = time.monotonic()
    if not clock or done < clock["done"] or total != clock["total"]:
        clock.update(since=now, first=done)
    clock.update(done=done, total=total)
    spent = now - clock["since"]
    work = done - clock["first"]
    left = spent * (total - done) / work if work >= 0.03 * total and total else None
    return {"done": done, "total": total, "seconds": round(spent, 1),
            "seconds_left": None if left is None else round(left, 1)}


# --------------------------------------------------------------- answers
def action_json(action: Action) -> dict:
    return {"text": str(action), **action.as_dict()}


def advice_json(advice: Advice, top: int | None = None) -> list[dict]:
    return [action_json(a) for a in advice.actions[:top]]


def labels(rules: Rules) -> dict:
    """Box names and the scorecard's other rows in every language.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> labels(parse_rules("nordic"))["nb"]["boxes"]["full_house"]
    'hus'
    """
    rows = ("sum", "bonus", "total", "yahtzee_bonus", "bank", "weighted")
    return {lang: {"boxes": {b.name: box_name(b.name, lang) for b in rules.boxes},
                   **{key: message(key, lang) for key in rows}} for lang in LANGS}
