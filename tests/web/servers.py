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


class Served:
    """A running server: ``url``, and ``stop()`` (also done on leaving)."""

    def __init__(self, server, thread: threading.Thread, port: int):
        self.server, self.thread, self.url = server, thread, f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@contextlib.contextmanager
def served(app, log_level: str = "warning", **config) -> Iterator[Served]:
    """Serve ``app`` until the block ends (``config``: more uvicorn settings)."""
    import uvicorn
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level=log_level, **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.05)
    running = Served(server, thread, port)
    try:
        yield running
    finally:
        running.stop()


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
