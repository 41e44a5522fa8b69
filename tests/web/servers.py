"""What the page and server tests share: an app served by a real uvicorn in
a thread on a free port of 127.0.0.1, and Debian's chromium launched by
Playwright for them."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Iterator

CHROMIUM_ARGS = ["--no-proxy-server", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
STARTUP_SECONDS = 120          # a generous bound for a loaded machine; quiet, it takes < 1 s


class Served:
    """A running server: ``url``, and ``stop()`` (also done on leaving)."""

    def __init__(self, server, thread: threading.Thread, port: int):
        self.server, self.thread, self.url = server, thread, f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@contextlib.contextmanager
def served(app, log_level: str = "warning", **config) -> Iterator[Served]:
    """Serve ``app`` until the block ends (``config``: more uvicorn settings).

    The listening socket is bound and listening before uvicorn starts, so a
    connection made while a loaded machine is still starting the server
    waits in the socket's queue instead of being refused; the block begins
    once uvicorn reports it started (or its thread ended: then it fails)."""
    import uvicorn
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level=log_level, **config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    running = Served(server, thread, port)
    try:
        if not server.started:
            raise RuntimeError(f"uvicorn did not start within {STARTUP_SECONDS} s")
        yield running
    finally:
        running.stop()
        sock.close()


@contextlib.contextmanager
def chromium(executable: str):
    """Debian's chromium (``executable``) driven by Playwright."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
