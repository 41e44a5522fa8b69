"""What one connection may cost the server: the connection itself, its
headers and its body.

uvicorn bounds the connections of a process (``limit_concurrency``, 503)
and the idle time of a kept-alive one (``timeout_keep_alive``), but not
the connections of one client, the size of a request's headers under
httptools, or the time a body takes; and its own refusals are plain text.
``Connection`` is uvicorn's httptools protocol (with the header deadline of
``yatzy.web.limits.HeaderDeadline``) that adds:

* at most ``PER_CLIENT`` connections open at once from one client address
  (event streams included): one more is answered 429 ``connections`` and
  closed at once, so one client cannot reach the process's limit and every
  other client is still served;
* request line and headers of at most ``MAX_HEAD`` bytes: more is answered
  431 ``headers`` and the connection closed, before the rest is read;
* uvicorn's own refusals as one line of JSON with a ``code``: a request it
  cannot parse (400 ``bad_request``), one past ``limit_concurrency`` (503
  ``busy``).

``WholeBody`` (ASGI middleware) reads every request body before any route
runs, within ``BODY_SECONDS`` (else 408 ``body_deadline``, the connection
closed) and ``MAX_BODY`` bytes (413); a client that hangs up meanwhile is
one debug line, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from yatzy.web.guard import retry_after

HEADER_SECONDS = 10.0        # seconds to send a request line and its headers
PER_CLIENT = 64              # connections open at once from one address
MAX_HEAD = 8 * 1024          # bytes of a request line and its headers
BODY_SECONDS = 10.0          # a request body must have arrived within this
MAX_BODY = 64 * 1024         # bytes of the largest body any route takes

LOG = logging.getLogger("yatzy.web")
REASONS = {400: b"Bad Request", 408: b"Request Timeout", 413: b"Content Too Large",
           429: b"Too Many Requests", 431: b"Request Header Fields Too Large",
           503: b"Service Unavailable"}


def json_line(status: int, text: str, code: str, retry: float | None = None) -> bytes:
    """A whole HTTP/1.1 answer: one line of JSON, and the connection closed;
    a 429 or 503 says when to ask again (``Retry-After``, ``retry`` seconds).

    >>> json_line(431, "headers too large", "headers").split(b"\\r\\n")[0]
    b'HTTP/1.1 431 Request Header Fields Too Large'
    >>> b"retry-after: 1\\r\\n" in json_line(429, "too many", "connections")
    True
    """
    body = json.dumps({"error": text, "code": code}).encode()
    retry_line = b""
    if status in (429, 503) or retry is not None:
        retry_line = b"retry-after: %s\r\n" % retry_after(retry).encode()
    return (b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"%sconnection: close\r\n\r\n" % (status, REASONS.get(status, b"Error"), len(body),
                                              retry_line) + body)


def busy_app(text: str, code: str):
    """An ASGI app answering 503 ``code`` as one JSON line (uvicorn's own
    refusal past ``limit_concurrency``, in the server's words)."""
    body = json.dumps({"error": text, "code": code}).encode()

    async def app(scope, receive, send) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"), (b"retry-after", b"1")]})
        await send({"type": "http.response.body", "body": body})
    return app


BUSY = busy_app("this server has all the connections it serves at once; try again in a "
                "moment", "busy")


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request line
    and headers have not all arrived ``HEADER_SECONDS`` after it opened (or
    after the first byte of a later request on it)."""

    deadline_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self.header_timer = self.loop.call_later(self.deadline_seconds, self._cut)

    def _disarm(self) -> None:
        timer = getattr(self, "header_timer", None)
        if timer is not None:
            timer.cancel()
            self.header_timer = None

    def _cut(self) -> None:
        self.header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


class Connection(HeaderDeadline):
    """uvicorn's HTTP/1.1 protocol with the bounds of this module.  The
    count of each client's connections is kept per server (its
    ``server_state``), so several servers in one process count apart."""

    per_client = PER_CLIENT
    max_head = MAX_HEAD
    counts: dict[tuple[int, str], int] = {}

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.head_bytes, self.in_head, self.counted = 0, True, None
        key = (id(self.server_state), self.client[0] if self.client else "?")
        if self.counts.get(key, 0) >= self.per_client:
            self.transport.write(json_line(
                429, f"at most {self.per_client} connections from one address", "connections",
                retry=1.0))
            self.transport.close()
            return
        self.counts[key] = self.counts.get(key, 0) + 1
        self.counted = key

    def connection_lost(self, exc: Exception | None) -> None:
        key, self.counted = getattr(self, "counted", None), None
        if key is not None:
            left = self.counts.get(key, 1) - 1
            if left > 0:
                self.counts[key] = left
            else:
                self.counts.pop(key, None)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self.in_head:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.in_head and self.head_bytes > self.max_head and not self.transport.is_closing():
            self.refuse_head()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.in_head = True

    def on_headers_complete(self) -> None:
        self.in_head = False
        size = len(self.url) + sum(len(k) + len(v) + 4 for k, v in self.headers)
        if size > self.max_head:
            self.refuse_head()
            return
        self.head_bytes = 0
        limit = self.limit_concurrency
        if limit is not None and (len(self.connections) >= limit or len(self.tasks) >= limit):
            app, self.app, self.limit_concurrency = self.app, BUSY, None
            try:
                super().on_headers_complete()
            finally:
                self.app, self.limit_concurrency = app, limit
            return
        super().on_headers_complete()

    def refuse_head(self) -> None:
        self.in_head = False
        self.transport.write(json_line(
            431, f"the request line and headers are longer than {self.max_head} bytes",
            "headers"))
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        self.transport.write(json_line(400, "the request is not HTTP/1.1 this server reads",
                                       "bad_request"))
        self.transport.close()


class WholeBody:
    """ASGI middleware: a request's body read whole before the routes run,
    within ``seconds`` and ``most`` bytes (408, 413: one JSON line, the
    connection closed); a client that leaves meanwhile ends the request
    quietly.  A request without a body (no ``Content-Length`` above 0, no
    ``Transfer-Encoding``) passes as it is (an event stream's ``receive``
    waits for the client to leave)."""

    def __init__(self, app, seconds: float | None = None, most: int = MAX_BODY):
        self.app, self.given, self.most = app, seconds, most

    @property
    def seconds(self) -> float:
        """The deadline: as given, else ``BODY_SECONDS`` as it is now."""
        return BODY_SECONDS if self.given is None else self.given

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not has_body(scope["headers"]):
            return await self.app(scope, receive, send)
        chunks, size = [], 0
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        LOG.debug("a client left before its body was read: %s %s",
                                  scope.get("method"), scope.get("path"))
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.most:
                        return await answer(send, 413, f"the body is larger than {self.most} "
                                                       "bytes", "body")
                    chunks.append(chunk)
                    if not message.get("more_body"):
                        break
        except TimeoutError:
            return await answer(send, 408, f"the body took longer than {self.seconds:g} s to "
                                           "arrive", "body_deadline")
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        given = False

        async def replay():
            nonlocal given
            if not given:
                given = True
                return whole
            return await receive()
        return await self.app(scope, replay, send)


PATH = re.compile(r"(?<![\w:/.])(?:/[^\s/'\"]+)+/([^\s/'\"]+)")


def no_paths(text: str) -> str:
    """``text`` with each absolute path shortened to its last part (an error
    line tells no client where the server keeps its files).

    >>> no_paths("cannot open /home/kari/.local/share/yatzy/tables.sqlite: locked")
    'cannot open tables.sqlite: locked'
    >>> no_paths("rules nordic: 3 of 5 moves; see http://x/y")
    'rules nordic: 3 of 5 moves; see http://x/y'
    """
    return PATH.sub(r"\1", text)


def has_body(headers) -> bool:
    """Whether a request's headers announce a body."""
    for name, value in headers:
        if name == b"transfer-encoding" or (name == b"content-length"
                                            and value.strip() not in (b"", b"0")):
            return True
    return False


async def answer(send, status: int, text: str, code: str) -> None:
    """One JSON line, the connection closed after it."""
    body = json.dumps({"error": text, "code": code}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BODY_SECONDS", "Connection", "HeaderDeadline", "MAX_HEAD", "PER_CLIENT", "WholeBody",
           "json_line", "no_paths"]
