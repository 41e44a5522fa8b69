"""The catalogue of words (``yatzy.rules.words``) for the page:
``GET /words.json`` answers every language's catalogue, ``?lang=nb`` one of
them.  The documents change only with the program, so each answer carries
an ETag of its bytes and ``Cache-Control: no-cache``: the browser keeps a
copy and asks again cheaply (304); the page's service worker keeps it for
a reload while the server is away."""

from __future__ import annotations

import functools
import hashlib
import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from yatzy.rules.words import LANGS, catalogue, page_words


@functools.cache
def document(lang: str | None) -> tuple[bytes, str]:
    """The body of the answer for ``lang`` (None: every language) and its ETag."""
    obj = page_words() if lang is None else catalogue(lang)
    body = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


async def words(request: Request) -> Response:
    lang = request.query_params.get("lang")
    if lang is not None and lang not in LANGS:
        return JSONResponse({"error": f"unknown language '{lang[:20]}' "
                                      f"(languages: {', '.join(LANGS)})", "code": "input"},
                            status_code=400)
    body, etag = document(lang)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


ROUTES = [Route("/words.json", words)]
