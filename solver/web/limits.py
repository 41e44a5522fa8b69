"""What the server bounds for each connection, as uvicorn settings.

* ``limit_concurrency``: connections served at once (more are answered
  503): 1,024, fewer where the process may open fewer files (``connections``);
* ``timeout_keep_alive``: seconds an idle kept-alive connection stays open;
* ``HEADER_SECONDS``: seconds a connection has, from its opening or from the
  first byte of each request, to send the request line and its headers
  (``HeaderDeadline``); then it is closed.  A request body has its own
  deadline (``yatzy.web.connections.WholeBody``: 408 after 10 s).
* ``timeout_graceful_shutdown``: ``STOP_SECONDS``, how long Ctrl-C or
  SIGTERM waits for requests still running before it cancels them (event
  streams end at once: ``yatzy.web.guard``), so the server stops within
  2 s even with phones connected;
* ``proxy_headers``: off, so ``X-Forwarded-For`` is ignored (a client
  cannot pose as another to the rate limits); ``yatzy serve --proxy``
  turns it on for a reverse proxy on this machine.

* ``http``: ``yatzy.web.connections.Connection``, uvicorn's httptools
  protocol with a deadline for the request headers (uvicorn has none: a
  client sending its headers a byte at a time would hold a connection for
  as long as it liked), a cap on their size, and on each client's
  connections.
"""

from __future__ import annotations

import os
import resource
import signal
import time

from uvicorn.supervisors import Multiprocess

from yatzy.web.connections import HEADER_SECONDS, Connection, HeaderDeadline

STOP_SECONDS = 1.0
WORKERS_SECONDS = 1.4


def connections(most: int = 1024) -> int:
    """Connections served at once: ``most``, fewer where the process may open
    fewer files (every phone at a shared table holds one for its event
    stream besides the one it moves with: 50 tables of 4 phones are 400)."""
    try:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (OSError, ValueError):
        return 256
    return most if files == resource.RLIM_INFINITY else max(64, min(most, files - 64))


class Workers(Multiprocess):
    """uvicorn's supervisor of ``--workers N``, stopping at once: SIGINT or
    SIGTERM tells every worker to stop (SIGTERM) in the signal's own
    handler, not at the supervisor's next look (uvicorn looks each half
    second, and first asks every worker whether it is alive, which waits
    for a worker busy compiling); the workers have ``WORKERS_SECONDS`` from
    the signal, then those left are killed, so that no worker outlives the
    server's 2 s stop (every change is committed already: SQLite)."""

    def __init__(self, config, sockets) -> None:
        super().__init__(config, sockets)
        self.stop_by: float | None = None
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self.stop_now)

    def stop_now(self, sig, frame) -> None:
        if self.stop_by is None:
            self.stop_by = time.monotonic() + WORKERS_SECONDS
            self.should_exit.set()
            self.terminate_all()

    def keep_subprocess_alive(self) -> None:
        if self.stop_by is None:
            super().keep_subprocess_alive()

    def terminate_all(self) -> None:
        for worker in self.processes:
            if worker.process.exitcode is None and worker.process.pid is not None:
                try:
                    os.kill(worker.process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass

    def join_all(self) -> None:
        deadline = self.stop_by or time.monotonic() + WORKERS_SECONDS
        for worker in self.processes:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in self.processes:
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join(0.2)


SERVER_LIMITS = {"log_level": "warning", "access_log": False, "limit_concurrency": connections(),
                 "timeout_keep_alive": 5, "http": Connection,
                 "timeout_graceful_shutdown": STOP_SECONDS, "proxy_headers": False}


__all__ = ["HEADER_SECONDS", "HeaderDeadline", "SERVER_LIMITS", "STOP_SECONDS", "connections"]
