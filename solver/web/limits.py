"""What the server bounds for each connection, as uvicorn settings.

* ``limit_concurrency``: connections served at once (more are answered
  503): 1,024, fewer where the process may open fewer files (``connections``);
* ``timeout_keep_alive``: seconds an idle kept-alive connection stays open;
* ``HEADER_SECONDS``: seconds a connection has, from its opening or from the
  first byte of each request, to send the request line and its headers
  (``HeaderDeadline``); then it is closed.  A request body has its own
  deadline in ``yatzy.web.app`` (408 after 10 s).
* ``timeout_graceful_shutdown``: ``STOP_SECONDS``, how long Ctrl-C or
  SIGTERM waits for requests still running before it cancels them (event
  streams end at once: ``yatzy.web.guard``), so the server stops within
  2 s even with phones connected;
* ``proxy_headers``: off, so ``X-Forwarded-For`` is ignored (a client
  cannot pose as another to the rate limits); ``yatzy serve --proxy``
  turns it on for a reverse proxy on this machine.

uvicorn has no deadline for request headers of its own, so a client that
sends its headers a byte at a time would hold a connection for as long as it
liked; ``HeaderDeadline`` is uvicorn's httptools protocol with that deadline.
"""

from __future__ import annotations

import asyncio
import resource

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_SECONDS = 10.0
STOP_SECONDS = 1.0


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


def connections(most: int = 1024) -> int:
    """Connections served at once: ``most``, fewer where the process may open
    fewer files (every phone at a shared table holds one for its event
    stream besides the one it moves with: 50 tables of 4 phones are 400)."""
    try:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (OSError, ValueError):
        return 256
    return most if files == resource.RLIM_INFINITY else max(64, min(most, files - 64))


SERVER_LIMITS = {"log_level": "warning", "access_log": False, "limit_concurrency": connections(),
                 "timeout_keep_alive": 5, "http": HeaderDeadline,
                 "timeout_graceful_shutdown": STOP_SECONDS, "proxy_headers": False}
