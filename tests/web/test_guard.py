"""The stranger on the family's network (docs/security.md): ``yatzy serve``
run as a real process, attacked over sockets with a foreign ``Host``, a
cross-origin ``text/plain`` POST, ``X-Forwarded-For``, other rules, deep
JSON, an oversized body and many event streams, then stopped with the
streams open."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from yatzy.web.guard import STREAMS_PER_CLIENT, hosts_served  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def request(port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None,
            host: str | None = None, timeout: float = 60) -> tuple[int, dict, bytes]:
    """One HTTP/1.1 request over a socket: (status, headers, body)."""
    head = {"Host": f"127.0.0.1:{port}" if host is None else host, "Connection": "close",
            "Content-Length": str(len(body)), **(headers or {})}
    raw = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items())
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(raw.encode("latin-1") + b"\r\n" + body)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    top, _, rest = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    got = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    return int(lines[0].split()[1]), got, rest


def post(port: int, path: str, obj, headers: dict | None = None, **kw):
    return request(port, "POST", path, json.dumps(obj).encode(),
                   {"Content-Type": "application/json", **(headers or {})}, **kw)


def one_line(status: int, body: bytes) -> str:
    assert 400 <= status < 500, (status, body[:300])
    error = json.loads(body)["error"]
    assert isinstance(error, str) and "\n" not in error
    return error


class Serving:
    """``yatzy serve`` in a child process on a free port of 127.0.0.1."""

    def __init__(self, tables_dir: Path, data: Path, *extra: str):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "YATZY_DATA": str(data)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yatzy", "serve", "--port", "0", "--tables", str(tables_dir),
             "--db", str(data / "tables.sqlite"), *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r":(\d+)/", line)
        assert m, (line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.port = int(m.group(1))
        for _ in range(600):
            try:
                if request(self.port, "GET", "/api/status", timeout=5)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture(scope="module")
def server(nordic, tables_dir, tmp_path_factory):
    running = Serving(tables_dir, tmp_path_factory.mktemp("data"))
    running.codes = [new_table(running.port) for _ in range(3)]    # before the rate limit is spent
    yield running
    running.stop()


def new_table(port: int) -> str:
    status, _, body = post(port, "/api/table", {"players": ["Ann", "Bob"]})
    assert status == 201, body[:300]
    return json.loads(body)["code"]


def test_a_foreign_host_is_refused_and_the_server_own_names_are_served(server):
    for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example", "", "[::2]"):
        status, _, body = request(server.port, "GET", "/api/status", host=host)
        assert status == 421 and "host" in one_line(status, body)
    for host in ("127.0.0.1", f"localhost:{server.port}", f"[::1]:{server.port}"):
        assert request(server.port, "GET", "/api/status", host=host)[0] == 200
    status, _, body = request(server.port, "GET", f"/api/table/{server.codes[0]}/qr.svg",
                              host=f"localhost:{server.port}")
    assert status == 200                        # the table's link names the accepted host


def test_serve_names_the_hosts_it_prints():
    names = hosts_served("0.0.0.0", ["192.168.1.20"])
    assert {"192.168.1.20", "127.0.0.1", "localhost", "::1"} <= names
    assert "evil.example" not in names
    assert hosts_served("10.0.0.5") == {"10.0.0.5", "127.0.0.1", "localhost", "::1"}


def test_a_cross_origin_text_plain_post_fails(server):
    code = server.codes[0]
    for path, obj in [("/api/table", {"players": ["Mallory"]}),
                      ("/api/puzzle/answer", {"puzzle": "x", "answer": "score chance",
                                              "player": "Ann"}),
                      (f"/api/table/{code}/move", {"move": "roll", "after": 0}),
                      ("/api/game/new", {"players": ["Ann"]})]:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            status, _, body = request(server.port, "POST", path, json.dumps(obj).encode(),
                                      {"Content-Type": kind, "Origin": "http://evil.example"})
            assert status == 415, (path, kind, status)
            one_line(status, body)
    # nothing was played at the table
    assert json.loads(request(server.port, "GET", f"/api/table/{code}")[2])["moves"] == 0


def test_json_from_another_origin_or_site_is_refused(server):
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": f"http://127.0.0.1:{server.port + 1}"},
                    {"Sec-Fetch-Site": "cross-site"}):
        status, _, body = post(server.port, "/api/table", {"players": ["Ann"]}, headers)
        assert status == 403, headers
        one_line(status, body)
    status, _, _ = post(server.port, "/api/table", {"players": ["Ann"]},
                        {"Origin": f"http://127.0.0.1:{server.port}",
                         "Sec-Fetch-Site": "same-origin"})
    assert status == 201


def test_another_sites_page_makes_no_get_work(server):
    for site in ("cross-site", "same-site"):
        status, _, body = request(server.port, "GET", "/api/distribution?card=ones=3",
                                  headers={"Sec-Fetch-Site": site, "Sec-Fetch-Dest": "image"})
        assert status == 403 and "another site" in one_line(status, body)
    assert request(server.port, "GET", "/", headers={"Sec-Fetch-Site": "cross-site"})[0] == 200
    assert request(server.port, "GET", "/api/status",
                   headers={"Sec-Fetch-Site": "same-origin"})[0] == 200


def test_x_forwarded_for_does_not_reset_the_rate_limit(server):
    statuses = [post(server.port, "/api/table", {"players": ["Ann"]},
                     {"X-Forwarded-For": f"10.9.{i}.1"})[0] for i in range(12)]
    assert 429 in statuses, statuses           # 5 at once per client, whatever it claims


def test_a_get_of_other_rules_writes_nothing(server, tables_dir):
    before = sorted(p.name for p in Path(tables_dir).iterdir())
    for path in ("/api/puzzles?rules=nordic:bonus_threshold=61&count=1",
                 "/api/ev?rules=nordic:bonus_threshold=62",
                 "/api/practice/scale?rules=yahtzee:bonus_threshold=60"):
        status, _, body = request(server.port, "GET", path)
        assert status == 403, (path, status, body[:200])
        assert "allow-rules" in one_line(status, body)
    status, _, body = post(server.port, "/api/table", {"players": ["A"],
                                                       "rules": "nordic:bonus_threshold=63"})
    assert 400 <= status < 500
    assert sorted(p.name for p in Path(tables_dir).iterdir()) == before


def test_deep_json_and_huge_numbers_are_one_line(server):
    for raw in (b'{"players": ' + b"[" * 5000 + b"]" * 5000 + b"}",
                b'{"players": ' + b"[" * 60 + b"]" * 60 + b"}",
                b'{"seed": 1' + b"0" * 5000 + b"}",
                b'{"seed": NaN}', b'{"players": ["Ann"', b"\xff\xfe"):
        for path in ("/api/game/new", "/api/game/state", "/api/puzzle/answer"):
            status, _, body = request(server.port, "POST", path, raw,
                                      {"Content-Type": "application/json"})
            assert status == 400, (path, raw[:30], status, body[:200])
            one_line(status, body)


def test_an_oversized_body_is_answered_413_not_reset(server):
    code = server.codes[1]
    big = b"x" * (2 << 20)
    for method, path in (("DELETE", f"/api/table/{code}"), ("POST", "/api/game/move"),
                         ("POST", f"/api/table/{code}/move")):
        status, _, body = request(server.port, method, path, big,
                                  {"Content-Type": "application/json"})
        assert status == 413, (method, path, status)
        one_line(status, body)
    assert request(server.port, "GET", f"/api/table/{code}")[0] == 200     # not deleted


def open_stream(port: int, code: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(f"GET /api/table/{code}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return s


def test_event_streams_are_limited_per_client_and_in_all(server):
    code = server.codes[2]
    streams = [open_stream(server.port, code) for _ in range(STREAMS_PER_CLIENT)]
    try:
        for s in streams:
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
        status, _, body = request(server.port, "GET", f"/api/table/{code}/events")
        assert status == 429 and "streams" in json.loads(body)["code"]
        assert request(server.port, "GET", "/api/status")[0] == 200   # the rest is served
    finally:
        for s in streams:
            s.close()
    time.sleep(0.5)
    with open_stream(server.port, code) as s:          # closed streams are counted out
        assert s.recv(4096).startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("sig, workers", [(signal.SIGINT, "1"), (signal.SIGTERM, "1"),
                                          (signal.SIGINT, "2")])
def test_serve_stops_within_2_s_with_streams_open(nordic, tables_dir, tmp_path, sig, workers):
    running = Serving(tables_dir, tmp_path, "--workers", workers)
    try:
        code = new_table(running.port)
        streams = [open_stream(running.port, code) for _ in range(STREAMS_PER_CLIENT)]
        for s in streams:
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
        start = time.monotonic()
        running.proc.send_signal(sig)
        running.proc.wait(10)
        assert time.monotonic() - start < 2.0
        for s in streams:
            s.close()
    finally:
        running.stop()


def stream_scope(client: str) -> dict:
    return {"type": "http", "method": "GET", "path": "/api/table/AAAAAAAAAAAAAAAA/events",
            "headers": [(b"host", b"127.0.0.1:8000")], "client": (client, 40000)}


def test_streams_in_all_are_limited_and_closing_ends_them():
    """Guard alone, as ASGI: a stream route that lasts until its client
    leaves; the third stream of a server allowing two is 503, and
    ``closing`` ends the others, each with its last body message."""
    from yatzy.web.guard import Guard

    async def stream_route(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        while (await receive())["type"] != "http.disconnect":
            pass

    async def main():
        guard = Guard(stream_route, ["127.0.0.1"], streams_per_client=5, streams_total=2)
        sent: dict[int, list] = {i: [] for i in range(3)}

        async def never():
            await asyncio.sleep(3600)

        def sender(i):
            async def send(message):
                sent[i].append(message)
            return send
        tasks = [asyncio.create_task(guard(stream_scope(f"10.0.0.{i}"), never, sender(i)))
                 for i in range(3)]
        await asyncio.sleep(0.2)
        statuses = [sent[i][0]["status"] for i in range(3)]
        guard.closing.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 2)
        return statuses, sent, guard.streams

    statuses, sent, left = asyncio.run(main())
    assert sorted(statuses) == [200, 200, 503]
    for messages in sent.values():
        assert messages[-1]["type"] == "http.response.body" and not messages[-1].get("more_body")
    assert left == {}


def test_a_refused_body_sent_in_pieces_gets_its_answer_not_a_reset(server):
    """A refusal (foreign host, no JSON) reads the body before it answers:
    closing with unread bytes would make the client's kernel reset the
    connection and lose the answer."""
    code = server.codes[1]
    piece = b"x" * 10_000
    for path, extra, status in ((f"/api/table/{code}/move", "Host: evil.example\r\n", 421),
                                ("/api/game/move", "Content-Type: text/plain\r\n", 415)):
        head = (f"POST {path} HTTP/1.1\r\n" + ("" if extra.startswith("Host")
                                                 else f"Host: 127.0.0.1:{server.port}\r\n")
                + extra + f"Content-Length: {6 * len(piece)}\r\nConnection: close\r\n\r\n")
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as s:
            s.sendall(head.encode())
            time.sleep(0.2)                    # the answer is ready before the body is sent
            for _ in range(6):
                s.sendall(piece)
                time.sleep(0.02)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        assert data.startswith(f"HTTP/1.1 {status}".encode()), data[:100]
        one_line(status, data.partition(b"\r\n\r\n")[2])
