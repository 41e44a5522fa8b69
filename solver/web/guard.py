"""Who may talk to ``yatzy serve``: the checks made on every request before
any route runs (``Guard``, ASGI middleware, outermost).

* **Host.**  A request whose ``Host`` names another server than this one
  is refused (421): a web page elsewhere whose name was made to point at
  the laptop (DNS rebinding) cannot read or drive the server.  The names
  served are ``hosts_served``: the address given to ``--host``, the
  addresses ``yatzy serve`` prints for the local network, the machine's
  own name, and the loopback forms (``localhost``, ``127.0.0.1``, ``::1``).
  Every link the server makes (a table's url) is built from a ``Host``
  accepted here.
* **Origin.**  A request that changes something (``POST``, ``PUT``,
  ``PATCH``, ``DELETE``) must carry a JSON body (``Content-Type:
  application/json``; else 415), and if it names an ``Origin`` (a browser
  always does for another site's request) that origin must be this
  server's own (else 403).  A form or a ``text/plain`` fetch from another
  page, which a browser sends without asking, is refused; a JSON request
  from another page needs the server's permission (CORS), never given.
  Any ``/api/`` request a browser marks as made by another site's page
  (``Sec-Fetch-Site: cross-site`` or ``same-site``), a ``GET`` by an
  ``<img>`` included, is refused (403): no other page makes the server
  work.
* **Size.**  A body announced larger than ``MAX_REQUEST`` is answered 413
  before a route runs; the body is read and dropped (up to ``DRAIN_MOST``)
  so that the client hears the answer rather than a reset connection.
* **Event streams.**  ``GET /api/table/CODE/events`` holds a connection
  open: at most ``STREAMS_PER_CLIENT`` per client address (429) and
  ``STREAMS_TOTAL`` in all (503), so one phone cannot take every
  connection.  ``closing`` (set by ``yatzy serve`` on Ctrl-C or SIGTERM)
  ends every stream at once: the stream's route is told the client left.
* **Stopping.**  Once ``closing`` is set, a request still running
  ``STOP_GRACE`` seconds later is answered 503 ``stopping`` (its route
  cancelled, quietly), and a new one at once: a phone hears that the
  server stopped, never a 500 or a reset.
* **The client.**  ``CLIENT`` holds the address of the request being
  served (``yatzy.web.budget`` charges it); behind ``yatzy serve
  --proxy`` it is the one ``X-Forwarded-For`` names, otherwise that header
  is ignored.

Every refusal is one line of JSON ``{"error": ..., "code": ...}``.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import math
import re
import socket
from typing import Iterable
from urllib.parse import urlsplit

MAX_REQUEST = 64 * 1024            # bytes of the largest body any route takes
DRAIN_MOST = 8 << 20               # bytes of an oversized body read and dropped before the 413
DRAIN_SECONDS = 10.0
STREAMS_PER_CLIENT = 8             # event streams open at once from one address
STREAMS_TOTAL = 256                # event streams open at once in all
STOP_GRACE = 0.5                   # seconds a request may still take once the server stops
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
STREAM_PATH = re.compile(r"/api/table/[^/]+/events")
PORT = re.compile(r"(:[0-9]{1,5})?")

CLIENT: contextvars.ContextVar[str] = contextvars.ContextVar("client", default="?")


def hosts_served(host: str, addresses: Iterable[str] = ()) -> frozenset[str]:
    """The host names a request may name: ``host`` (the address listened on;
    ``0.0.0.0`` or ``::`` stands for every address, so the machine's own
    name), ``addresses`` (those printed for the local network), and the
    loopback forms.

    >>> sorted(hosts_served("127.0.0.1"))
    ['127.0.0.1', '::1', 'localhost']
    >>> sorted(hosts_served("0.0.0.0", ["192.168.1.20"]) - {socket.gethostname().lower()})
    ['127.0.0.1', '192.168.1.20', '::1', 'localhost']
    """
    names = set(LOOPBACK) | {a.lower() for a in addresses}
    if host in ("0.0.0.0", "::", ""):
        name = socket.gethostname().lower()
        if name:
            names.add(name)
    else:
        names.add(host.lower().strip("[]"))
    return frozenset(names)


def host_name(value: str) -> str:
    """The name of a ``Host`` header, without its port and one final dot;
    "" for a header that is not a name and an optional port.

    >>> host_name("[::1]:8000"), host_name("Example.COM.:80"), host_name("10.0.0.2")
    ('::1', 'example.com', '10.0.0.2')
    >>> host_name("[::1]evil.com"), host_name("localhost.."), host_name("a:1:2")
    ('', '', '')
    """
    value = value.strip().lower()
    if value.startswith("["):
        name, close, rest = value[1:].partition("]")
        return name if close and PORT.fullmatch(rest) else ""
    name, colon, port = value.partition(":")
    if colon and not PORT.fullmatch(colon + port):
        return ""
    name = name[:-1] if name.endswith(".") else name
    return name if name and not name.endswith(".") and ".." not in name else ""


def retry_after(seconds: float | None) -> str:
    """A ``Retry-After`` value: whole seconds, at least 1 (unknown: 1).

    >>> retry_after(0.2), retry_after(9.01), retry_after(None)
    ('1', '10', '1')
    """
    return str(max(1, math.ceil(seconds or 0)))


def refusal(status: int, text: str, code: str, close: bool = False):
    """A one-line JSON answer as ASGI messages' sender (a 429 or 503 with
    ``Retry-After``)."""
    body = json.dumps({"error": text, "code": code}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status in (429, 503):
        headers.append((b"retry-after", retry_after(None).encode()))
    if close:
        headers.append((b"connection", b"close"))

    async def answer(send) -> None:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    return answer


class Guard:
    """ASGI middleware: the checks of this module, before any route.
    ``hosts`` None takes any ``Host`` (an app embedded elsewhere; ``yatzy
    serve`` always names them)."""

    def __init__(self, app, hosts: Iterable[str] | None = None, *,
                 streams_per_client: int = STREAMS_PER_CLIENT,
                 streams_total: int = STREAMS_TOTAL, max_request: int = MAX_REQUEST,
                 closing: asyncio.Event | None = None):
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)
        self.per_client, self.total, self.max_request = streams_per_client, streams_total, max_request
        self.streams: dict[str, int] = {}
        self.closing = closing or asyncio.Event()     # set: every event stream ends

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        client = scope["client"][0] if scope.get("client") else "?"
        problem = self.check(scope["method"], headers, scope.get("path", ""))
        if sum(k.lower() == b"host" for k, _ in scope["headers"]) > 1:
            problem = 400, "a request names one Host", "host"
        if problem is not None:
            return await self.refuse(headers, receive, send, *problem)
        CLIENT.set(client)
        if scope["method"] == "GET" and STREAM_PATH.fullmatch(scope.get("path", "")):
            return await self.stream(client, scope, receive, send)
        return await self.served(scope, receive, send)

    async def served(self, scope, receive, send) -> None:
        """The request, answered 503 ``stopping`` where the server is told to
        stop (``closing``) and the route has not answered ``STOP_GRACE``
        seconds later: the route is cancelled quietly, before uvicorn would
        cancel it (its cancel is a traceback and a 500)."""
        if self.closing.is_set():
            return await refusal(503, "this server is stopping", "stopping", close=True)(send)
        started = False

        async def sending(message) -> None:
            nonlocal started
            started = True
            await send(message)
        work = asyncio.ensure_future(self.app(scope, receive, sending))
        stop = asyncio.ensure_future(self.closing.wait())
        try:
            await asyncio.wait({work, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not work.done():
                await asyncio.wait({work}, timeout=STOP_GRACE)
        finally:
            stop.cancel()
        if work.done():
            return work.result()
        work.cancel()
        await asyncio.gather(work, return_exceptions=True)
        if not started:
            await refusal(503, "this server is stopping; try again in a moment", "stopping",
                          close=True)(send)

    def check(self, method: str, headers: dict[str, str], path: str = ""
              ) -> tuple[int, str, str] | None:
        """Why the request is refused (status, line, code), or None."""
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            shown = host[:60] if host.isprintable() else "?"
            return 421, f"this server does not serve the host {shown!r}", "host"
        if path.startswith("/api/") and headers.get("sec-fetch-site", "same-origin") not in (
                "same-origin", "none"):      # another page's <img>, fetch or form: no work for it
            return 403, "a request from another site's page is refused", "origin"
        if method not in CHANGING:
            return None
        size = headers.get("content-length", "0").strip()
        if not (size.isascii() and size.isdigit()) or len(size) > 15:
            return 400, "bad Content-Length", "body"
        if int(size) > self.max_request:
            return 413, f"the body is larger than {self.max_request} bytes", "body"
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            return 415, "a request that changes something must send JSON " \
                        "(Content-Type: application/json)", "content_type"
        origin = headers.get("origin")
        if origin is not None and not same_origin(origin, host):
            return 403, "a request from another site's page is refused", "origin"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "a request from another site's page is refused", "origin"
        return None

    async def refuse(self, headers: dict, receive, send, status: int, text: str,
                     code: str) -> None:
        """The refusal, after reading (and dropping) the request's body where
        it is not huge: a server that closes with unread bytes makes the
        client's kernel reset the connection, and the client can lose the
        answer."""
        size = headers.get("content-length", "0").strip()
        size = int(size) if size.isascii() and size.isdigit() and len(size) <= 15 else None
        close = True
        if size == 0:
            close = False
        elif (size is not None and size <= DRAIN_MOST
                and "100-continue" not in headers.get("expect", "").lower()):
            try:
                with anyio_deadline(DRAIN_SECONDS):
                    while True:
                        message = await receive()
                        if message["type"] != "http.request" or not message.get("more_body"):
                            break
                close = False
            except TimeoutError:
                pass
        await refusal(status, text, code, close=close)(send)

    async def stream(self, client: str, scope, receive, send) -> None:
        """An event stream, counted; told the client left once ``closing``."""
        if sum(self.streams.values()) >= self.total:
            return await refusal(503, f"this server has {self.total} event streams open; "
                                      "try again later", "streams")(send)
        if self.streams.get(client, 0) >= self.per_client:
            return await refusal(429, f"at most {self.per_client} event streams from one "
                                      "address", "streams")(send)
        self.streams[client] = self.streams.get(client, 0) + 1
        closing = self.closing

        async def watched():
            if closing.is_set():
                return {"type": "http.disconnect"}
            waiting = asyncio.ensure_future(closing.wait())
            got = asyncio.ensure_future(receive())
            done, _ = await asyncio.wait({waiting, got}, return_when=asyncio.FIRST_COMPLETED)
            if got in done:
                waiting.cancel()
                return got.result()
            got.cancel()
            return {"type": "http.disconnect"}

        ended = False

        async def sending(message) -> None:
            nonlocal ended
            ended = ended or (message["type"] == "http.response.body"
                              and not message.get("more_body"))
            await send(message)

        try:
            await self.app(scope, watched, sending)
            if not ended and closing.is_set():      # ended by ``closing``: the stream's last word
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            left = self.streams.get(client, 1) - 1
            if left:
                self.streams[client] = left
            else:
                self.streams.pop(client, None)


def same_origin(origin: str, host: str) -> bool:
    """Whether the ``Origin`` header names the server the request came to.

    >>> same_origin("http://192.168.1.20:8000", "192.168.1.20:8000")
    True
    >>> same_origin("http://evil.example", "192.168.1.20:8000"), same_origin("null", "x")
    (False, False)
    """
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(host) and \
        parts.netloc.lower() == host.strip().lower()


def anyio_deadline(seconds: float):
    """A cancel scope raising ``TimeoutError`` after ``seconds``."""
    import anyio
    return anyio.fail_after(seconds)


__all__ = ["CLIENT", "Guard", "MAX_REQUEST", "STREAMS_PER_CLIENT", "STREAMS_TOTAL",
           "host_name", "hosts_served", "same_origin"]
