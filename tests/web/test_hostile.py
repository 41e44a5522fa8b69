"""The server on a busy, hostile network, over real sockets of 127.0.0.1:
what one connection, one header, one body or one guest may cost the
others.  A second client is a socket bound to another loopback address
(127.0.0.2 ...) connecting to 127.0.0.1, so per-address limits are seen as
on a real network."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("uvicorn", reason="uvicorn is not installed (the web extra)")

from .servers import served  # noqa: E402
from yatzy.web import connections  # noqa: E402
from yatzy.web.app import create_app  # noqa: E402
from yatzy.web.limits import SERVER_LIMITS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIMITS = {k: v for k, v in SERVER_LIMITS.items() if k != "log_level"}


def connect(port: int, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def ask(port: int, raw: bytes, source: str = "127.0.0.1", timeout: float = 20
        ) -> tuple[int, dict | str]:
    """Send ``raw`` and read the whole answer: its status and JSON body."""
    status, _, body = exchange(port, raw, source, timeout)
    return status, body


def exchange(port: int, raw: bytes, source: str = "127.0.0.1", timeout: float = 20
             ) -> tuple[int, dict[str, str], dict | str]:
    """Send ``raw`` and read the whole answer: status, headers (lower-case
    names) and JSON body."""
    with connect(port, source, timeout) as s:
        s.sendall(raw)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionError:
                break
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            m = re.search(rb"content-length: *(\d+)", head, re.I)
            if m and len(body) >= int(m.group(1)):
                break
    return parsed(data)


def parsed(data: bytes) -> tuple[int, dict[str, str], dict | str]:
    """An HTTP answer's status, headers and JSON body (text if not JSON)."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if head else 0
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":")
                                                            for line in lines[1:])}
    try:
        return status, headers, json.loads(body)
    except ValueError:
        return status, headers, body.decode("latin-1")


def post(port: int, path: str, obj, source: str = "127.0.0.1", headers: str = "",
         method: str = "POST") -> tuple[int, dict | str]:
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return ask(port, f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                     f"{headers}\r\n".encode() + body, source)


def get(port: int, path: str, source: str = "127.0.0.1", headers: str = ""):
    return ask(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     f"{headers}\r\n".encode(), source)


@pytest.fixture(scope="module")
def port(nordic, tables_dir, tmp_path_factory):
    db = tmp_path_factory.mktemp("hostile") / "tables.sqlite"
    app = create_app("nordic", tables_dir, db, hosts=["127.0.0.1", "localhost", "::1"])
    with served(app, **{**LIMITS, "limit_concurrency": 150}) as running:
        yield int(running.url.rsplit(":", 1)[1])


def test_one_client_cannot_take_every_connection(port):
    """120 connections from one address holding a slow body: past its 64 the
    address is refused (429, one JSON line), and another address is served."""
    held = []
    try:
        for _ in range(120):
            s = connect(port)
            s.sendall(b"POST /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                      b"application/json\r\nContent-Length: 100\r\n\r\n{")
            held.append(s)
        time.sleep(0.3)
        refused = 0
        for s in held[connections.PER_CLIENT:]:
            s.settimeout(5)
            answer = s.recv(4096)
            refused += answer.startswith(b"HTTP/1.1 429") and b'"connections"' in answer
        assert refused == 120 - connections.PER_CLIENT
        status, body = get(port, "/api/status", source="127.0.0.2")
        assert status == 200 and "tables" in body
    finally:
        for s in held:
            s.close()


@pytest.mark.parametrize("size, pieces", [(64 * 1024, 1), (20 * 1024, 20), (9 * 1024, 1)])
def test_headers_past_a_few_kib_are_431(port, size, pieces):
    line = b"X-Big: " + b"a" * size + b"\r\n"
    with connect(port) as s:
        s.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        step = len(line) // pieces + 1
        try:
            for i in range(0, len(line), step):
                s.sendall(line[i:i + step])
            s.sendall(b"\r\n")
        except ConnectionError:
            pass
        answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 431") and b'"code": "headers"' in answer
    assert get(port, "/api/rules")[0] == 200


def test_uvicorns_own_refusal_is_json(port):
    status, body = ask(port, b"NOT HTTP AT ALL\r\n\r\n")
    assert status == 400 and body["code"] == "bad_request"


@pytest.mark.parametrize("path, method", [("/api/table", "POST"), ("/api/history", "POST"),
                                          ("/api/table/AAAAAAAAAAAAAAAA/claim", "POST"),
                                          ("/api/table/AAAAAAAAAAAAAAAA", "DELETE"),
                                          ("/api/game/state", "POST")])
def test_every_body_has_a_deadline(port, monkeypatch, path, method):
    monkeypatch.setattr(connections, "BODY_SECONDS", 1.0)
    start = time.monotonic()
    with connect(port) as s:
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  "application/json\r\nContent-Length: 50\r\n\r\n{".encode())
        answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408") and b"body_deadline" in answer
    assert time.monotonic() - start < 5


def test_writes_are_rated_per_client(port):
    """120 writes at once from one address (12 connections at a time, so
    that a busy machine's slow answers cannot refill its bucket): past its
    burst of 60 they are refused (429 ``rate``); another address is served."""
    answers = burst(port, request("POST", "/api/game/undo", {}), "127.0.0.1")
    assert any(status == 429 and body["code"] == "rate" for status, _, body in answers)
    assert post(port, "/api/game/undo", {}, source="127.0.0.3")[0] == 400   # another is served


def burst(port: int, raw: bytes, source: str, count: int = 120, at_once: int = 12) -> list:
    """``count`` answers to ``raw`` sent from ``source``, ``at_once`` at a time."""
    answers: list = []

    def sender() -> None:
        for _ in range(count // at_once):
            answers.append(exchange(port, raw, source))
    threads = [threading.Thread(target=sender) for _ in range(at_once)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return answers


def test_no_seed_from_a_client_for_a_shared_table(port):
    for extra in ({}, {"follows": "AAAAAAAAAAAAAAAA", "admin": "x"}):
        status, body = post(port, "/api/table", {"players": ["A"], "seed": 424242, **extra},
                            source="127.0.0.4")
        assert status == 400 and body["code"] == "seed"


def test_a_one_phone_games_seed_is_sealed_until_it_is_over(port):
    status, new = post(port, "/api/game/new", {"players": ["Ann"]}, source="127.0.0.5")
    assert status == 200
    doc = new["game"]
    assert isinstance(doc["seed"], str) and doc["seed"].startswith("sealed:")
    status, rolled = post(port, "/api/game/move", {"game": doc, "move": "roll"},
                          source="127.0.0.5")
    assert status == 200 and rolled["dice"]
    forged = {**doc, "seed": doc["seed"][:-2] + ("AA" if doc["seed"][-2:] != "AA" else "BB")}
    status, body = post(port, "/api/game/state", {"game": forged}, source="127.0.0.5")
    assert status == 400 and "seal" in body["error"]


def table(port: int, source: str, **extra) -> dict:
    status, body = post(port, "/api/table", {"players": ["Ann", "Bob"], **extra}, source=source)
    assert status == 201, body
    return body


def test_a_stranger_proposes_nothing_and_an_accept_names_its_proposal(port):
    t = table(port, "127.0.0.6")
    code = t["code"]
    status, body = post(port, f"/api/table/{code}/next", {"players": ["Stranger"]},
                        source="127.0.0.7")
    assert status == 403 and body["code"] == "not_yours"
    _, ann = post(port, f"/api/table/{code}/claim", {"seat": 0}, source="127.0.0.6")
    _, bob = post(port, f"/api/table/{code}/claim", {"seat": 1}, source="127.0.0.6")
    status, state = post(port, f"/api/table/{code}/next",
                         {"players": ["Ann", "Bob"], "token": ann["token"]}, source="127.0.0.6")
    assert status == 200 and state["proposal"]["id"]
    status, body = post(port, f"/api/table/{code}/next/accept",
                        {"token": bob["token"], "id": state["proposal"]["id"] - 1},
                        source="127.0.0.6")
    assert status == 409 and body["code"] == "other_proposal"


def test_a_right_join_code_is_not_refused_for_others_misses(nordic, tables_dir, tmp_path):
    """Five addresses guess wrong codes until they are refused; a phone at
    another address, which typed one code wrong itself, is then given the
    right one at once, and so is a phone that never missed."""
    with served(create_app("nordic", tables_dir, tmp_path / "t.sqlite"), **LIMITS) as running:
        port = int(running.url.rsplit(":", 1)[1])
        short = table(port, "127.0.0.9")["short"]
        wrong = ["ABCDE" + c for c in "FGHJKMNPQR" if "ABCDE" + c != short]
        status, _ = get(port, f"/api/join/{wrong[0]}", source="127.0.0.7")    # a typo
        assert status == 404
        refused = 0
        for n in range(2, 7):                   # the guessers: 127.0.0.2 .. 127.0.0.6
            for guess in wrong:
                status, _ = get(port, f"/api/join/{guess}", source=f"127.0.0.{n}")
                assert status in (404, 429)
                refused += status == 429
            status, body = get(port, f"/api/join/{short}", source=f"127.0.0.{n}")
            assert status == 429                # a guesser past its misses learns nothing
        assert refused >= 5 * (len(wrong) - 6)
        for source in ("127.0.0.7", "127.0.0.8"):
            status, body = get(port, f"/api/join/{short}", source=source)
            assert status == 200 and body["code"], body


def test_every_429_says_when_to_ask_again(port):
    """Each limit's refusal (a table route, the writes' rate, the heavy
    queue, event streams, connections) is 429 with ``Retry-After`` and one
    JSON line with a ``code``."""
    seen: dict[str, tuple[int, dict, dict | str]] = {}
    for _ in range(8):                          # tables: 5 at once per address
        answer = exchange(port, request("POST", "/api/table", {"players": ["A"]}), "127.0.3.1")
        if answer[0] == 429:
            seen["table"] = answer
    seen["writes"] = next(a for a in burst(port, request("POST", "/api/game/undo", {}),
                                           "127.0.3.2") if a[0] == 429 and a[2]["code"] == "rate")
    heavy: list = []
    threads = [threading.Thread(target=lambda n=n: heavy.append(exchange(
        port, request("GET", f"/api/distribution?card=ones={n % 6},twos={2 * (n // 6)}"),
        "127.0.3.3", 120))) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    seen["heavy"] = next(a for a in heavy if a[0] == 429)
    code = table(port, "127.0.3.4")["code"]
    held = []
    try:
        for _ in range(guard_streams() + 1):
            s = connect(port, "127.0.3.4")
            s.sendall(request("GET", f"/api/table/{code}/events", close=False))
            held.append(s)
        seen["streams"] = parsed(held[-1].recv(4096))
        for _ in range(connections.PER_CLIENT + 1):
            s = connect(port, "127.0.3.5")
            s.sendall(b"POST /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                      b"application/json\r\nContent-Length: 100\r\n\r\n{")
            held.append(s)
        seen["connections"] = parsed(held[-1].recv(4096))
    finally:
        for s in held:
            s.close()
    assert set(seen) == {"table", "writes", "heavy", "streams", "connections"}
    for name, (status, headers, body) in seen.items():
        assert status == 429, (name, status, body)
        assert int(headers["retry-after"]) >= 1, (name, headers)
        assert isinstance(body, dict) and body["code"], (name, body)


def guard_streams() -> int:
    from yatzy.web.guard import STREAMS_PER_CLIENT
    return STREAMS_PER_CLIENT


def request(method: str, path: str, obj=None, close: bool = True) -> bytes:
    """A request as bytes: JSON ``obj`` as its body (none if None)."""
    body = b"" if obj is None else json.dumps(obj).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if close:
        head += "Connection: close\r\n"
    if obj is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + body


def test_a_missing_table_is_422_with_what_it_needs(port):
    for path, body in (("/api/table", {"players": ["A"], "rules": "maxi"}),
                       ("/api/game/new", {"players": ["A"], "rules": "maxi"})):
        status, answer = post(port, path, body, source="127.0.0.21")
        assert status == 422 and answer["code"] == "no_table", answer
        assert "GiB" in answer["error"] and answer["command"] == "yatzy solve --rules maxi"


@pytest.mark.parametrize("headers, status", [
    ("Host: 127.0.0.1\r\nHost: evil.example\r\n", 400), ("Host: [::1]evil.com\r\n", 421),
    ("Host: localhost..\r\n", 421)])
def test_hosts_that_are_not_one_of_ours_are_refused(port, headers, status):
    got, body = ask(port, f"GET /api/status HTTP/1.1\r\n{headers}Connection: close\r\n\r\n"
                    .encode())
    assert got == status and body["code"] == "host"


@pytest.mark.parametrize("body", [b"[" * 40 + b"]" * 40, b'{"after": ' + b"9" * 4000 + b"}",
                                  b'{"after": NaN, "move": "roll"}',
                                  b'{"a":' * 500 + b"1" + b"}" * 500])
def test_table_routes_refuse_deep_huge_and_nan_bodies(port, body):
    code = table(port, "127.0.0.22")["code"]
    status, answer = post(port, f"/api/table/{code}/move", body, source="127.0.0.22")
    assert status == 400 and answer["code"] == "body"


def test_a_page_game_is_the_pages_word_and_touches_no_tables_best(port, nordic, tables_dir):
    from yatzy import Solver
    from yatzy.game import Game
    from yatzy.session import Session
    game = Game(Solver("nordic", tables=tables_dir), ["Kari=optimal"])
    session = Session(game)
    while not game.is_over:
        session.play_auto()
    codes = []
    for i in range(12):
        doc = {**game.to_dict(), "players": [{"name": "Kari", "kind": "optimal"}],
               "settings": {"n": i}}
        codes.append(post(port, "/api/history", {"game": doc}, source="127.0.0.23")[0])
    assert codes[0] == 200 and 429 in codes                 # a quota per client
    t = table(port, "127.0.0.24", players=["Kari"])
    history = t.get("history")
    assert history is None                                   # unfinished: nothing shown yet


def test_a_locked_database_is_503_db_busy_with_a_retry(nordic, tables_dir, tmp_path,
                                                       monkeypatch):
    import sqlite3

    from yatzy import database
    monkeypatch.setattr(database, "BUSY_SECONDS", 1.0)
    db = tmp_path / "tables.sqlite"
    with served(create_app("nordic", tables_dir, db), **LIMITS) as running:
        port = int(running.url.rsplit(":", 1)[1])
        code = table(port, "127.0.0.1")["code"]
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")            # another program holds the file
        try:
            start = time.monotonic()
            status, body = post(port, f"/api/table/{code}/move", {"move": "roll", "after": 0})
            waited = time.monotonic() - start
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert status == 503 and body["code"] == "db_busy", body
        assert str(tmp_path) not in body["error"] and waited < 10
        status, _ = post(port, f"/api/table/{code}/move", {"move": "roll", "after": 0})
        assert status == 200


def serve(tmp_path, tables_dir, *extra, wait=True, env=None):
    env = {**os.environ, "PYTHONPATH": ROOT, "YATZY_DATA": str(tmp_path), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "yatzy", "serve", "--port", "0",
                             "--tables", str(tables_dir), *extra], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc


@pytest.mark.parametrize("case", ["tables_file", "long_db", "workers", "maxi"])
def test_bad_start_up_options_are_one_line_before_serving(nordic, tables_dir, tmp_path, case):
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    extra = {"tables_file": ["--tables", str(a_file)],
             "long_db": ["--db", str(tmp_path / ("d" * 300))],
             "workers": ["--workers", str(4 * (os.cpu_count() or 1) + 1)],
             "maxi": ["--rules", "maxi"]}[case]
    proc = serve(tmp_path, tables_dir, *extra)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, (out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert str(tmp_path) not in err


def serving(proc: subprocess.Popen) -> int:
    """The port of a ``yatzy serve`` started by ``serve``, once it answers."""
    port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
    for _ in range(600):
        try:
            if get(port, "/api/status")[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    return port


@pytest.mark.parametrize("sig, workers, compiling", [
    (signal.SIGTERM, "1", False), (signal.SIGINT, "2", False), (signal.SIGTERM, "1", True),
    (signal.SIGINT, "2", True), (signal.SIGTERM, "2", True)])
def test_a_stop_with_requests_in_flight_is_quiet_and_quick(nordic, tables_dir, tmp_path, sig,
                                                           workers, compiling):
    """Streams open, bodies cut off, distributions running (with
    ``compiling``, their kernels being compiled: no compiled kernels kept
    yet): every process is gone within 2 s of the signal, each request is
    answered (200, or 503 ``stopping``), and the server says nothing but
    one-line notices."""
    numba = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")} if compiling else {}
    proc = serve(tmp_path, tables_dir, "--db", str(tmp_path / "t.sqlite"), "--workers", workers,
                 env=numba)
    try:
        port = serving(proc)
        code = table(port, "127.0.0.1")["code"]
        streams = []
        for _ in range(4):
            s = connect(port)
            s.sendall(f"GET /api/table/{code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                      .encode())
            streams.append(s)
        for _ in range(5):                      # hang up mid-body: quiet
            with connect(port) as s:
                s.sendall(b"POST /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 90\r\n\r\n{")
        answers: list = []

        def slow(n):                            # a distribution: seconds of work
            answers.append(get(port, f"/api/distribution?card=ones={n}", f"127.0.1.{n}"))
        threads = [threading.Thread(target=slow, args=(n,)) for n in range(1, 4)]
        for t in threads:
            t.start()
        time.sleep(2.0 if compiling else 0.5)
        start = time.monotonic()
        proc.send_signal(sig)
        proc.wait(10)
        took = time.monotonic() - start
        for t in threads:
            t.join(10)
        err = proc.stderr.read()
        assert took < 2.0
        assert "Traceback" not in err and "CancelledError" not in err, err
        assert all(line.startswith("warning: ") for line in err.splitlines()), err
        assert len(answers) == 3
        for status, body in answers:
            assert status in (200, 503), body
            assert status != 503 or body["code"] == "stopping"
        children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
        assert not children
        for s in streams:
            s.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_join_limits_are_one_for_every_worker(nordic, tables_dir, tmp_path):
    """With ``--workers 2`` an address's wrong guesses, sent four at a time
    so that both workers take some, are counted once: 6 misses, then 429
    (each worker alone would allow 6); another address joins at once."""
    proc = serve(tmp_path, tables_dir, "--db", str(tmp_path / "t.sqlite"), "--workers", "2")
    try:
        port = serving(proc)
        short = table(port, "127.0.0.1")["short"]
        wrong = [a + b for a in ("ABCDE", "ABCDF") for b in "GHJKMNPQRS" if a + b != short]
        answers: list = []

        def guesser(guesses) -> None:
            for guess in guesses:
                answers.append(get(port, f"/api/join/{guess}", source="127.0.0.2")[0])
        threads = [threading.Thread(target=guesser, args=(wrong[i::4],)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert answers.count(404) <= 6 and answers.count(429) >= len(wrong) - 6, answers
        status, body = get(port, f"/api/join/{short}", source="127.0.0.3")
        assert status == 200 and body["code"]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
