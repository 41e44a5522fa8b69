"""The server's per-connection bounds (``yatzy.web.limits``) on a real
uvicorn server over real sockets: clients that send their headers a byte at
a time, or nothing at all, are cut off after the header deadline, and the
server keeps answering others meanwhile."""

import socket
import threading
import time

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed (the web extra)")

from yatzy.web.app import create_app  # noqa: E402
from yatzy.web.limits import SERVER_LIMITS, HeaderDeadline  # noqa: E402

DEADLINE = 1.5


class QuickDeadline(HeaderDeadline):
    deadline_seconds = DEADLINE


@pytest.fixture(scope="module")
def port(tables_dir):
    limits = {**SERVER_LIMITS, "http": QuickDeadline, "limit_concurrency": 200}
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(create_app("nordic", tables_dir), **limits))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.02)
    yield sock.getsockname()[1]
    srv.should_exit = True
    thread.join(5)


def closed(conn: socket.socket) -> bool:
    """Whether the server has closed ``conn`` (reads its end of stream)."""
    try:
        conn.setblocking(False)
        return conn.recv(1024) == b""
    except BlockingIOError:
        return False
    except ConnectionError:
        return True


def response(conn: socket.socket) -> bytes:
    """One whole response read from ``conn`` (its head and its body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(1024)
    head, _, rest = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while len(rest) < length:
        rest += conn.recv(1024)
    return head


def get_status(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        c.sendall(b"GET /api/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return c.recv(64)


def test_slow_and_silent_clients_are_cut_off_at_the_deadline(port):
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(40)]
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(40)]
    start = time.monotonic()
    for c in slow:
        c.sendall(b"GET /api/status HTTP/1.1\r\n")
    cut = None
    while time.monotonic() - start < DEADLINE + 3:
        for c in slow:                  # a header line every 0.3 s, never the blank line
            try:
                c.sendall(b"X-Slow: 1\r\n")
            except OSError:
                pass
        assert get_status(port).startswith(b"HTTP/1.1 200")   # others are still served
        if all(closed(c) for c in silent + slow):
            cut = time.monotonic() - start
            break
        time.sleep(0.3)
    for c in silent + slow:
        c.close()
    assert cut is not None, "slow clients were still connected 3 s after the deadline"
    assert cut >= DEADLINE - 0.1


def test_a_kept_alive_connection_gets_the_deadline_for_each_request(port):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        c.sendall(b"GET /api/status HTTP/1.1\r\nHost: x\r\n\r\n")
        assert response(c).startswith(b"HTTP/1.1 200")
        time.sleep(DEADLINE + 0.5)      # idle, within the keep-alive time: the deadline is off
        c.sendall(b"GET /api/status HTTP/1.1\r\nHost: x\r\n\r\n")
        assert response(c).startswith(b"HTTP/1.1 200")
        c.sendall(b"GET /api/status HTTP/1.1\r\n")   # a new request that never ends
        c.settimeout(DEADLINE + 2)
        start = time.monotonic()
        while c.recv(1024):
            pass
        assert DEADLINE - 0.1 <= time.monotonic() - start <= DEADLINE + 1.5


def test_the_served_limits_use_the_deadline():
    assert issubclass(SERVER_LIMITS["http"], HeaderDeadline)
    assert HeaderDeadline.deadline_seconds == 10.0
