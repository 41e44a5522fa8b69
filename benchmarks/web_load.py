"""Load test of ``GET /api/advise``: CLIENTS concurrent clients (default 20)
send a fixed number of requests (default 4000) to a ``yatzy serve`` on
127.0.0.1 and the script prints the latency percentiles and requests/s.

    python benchmarks/web_load.py                  # starts its own server
    python benchmarks/web_load.py --port 8000      # an already running one
    python benchmarks/web_load.py --tables 50      # shared tables (below)

Table mode (``--tables N``): N shared tables of four players, a phone per
seat, all at once; every phone follows its table's event stream and the
phone of the player to move plays (roll, then a box; ``--turns`` turns a
seat; ``--think MS``: a pause of up to MS before each move).  It prints
the percentiles of a move's answer and of the time until all four phones
have the move's event, the server's CPU time per move (its own server) and
the load average.  Its own server lifts the per-client rate limits (every
phone is 127.0.0.1 here) and otherwise runs as ``yatzy serve`` does
(``--workers N``: N processes sharing the database; a table's phones then
meet different processes, and a move made in one reaches the phones of
another through its poller).

Its own server runs in a child process (uvicorn, ``--workers`` processes) with the
tables of ``$YATZY_TABLES`` or ``tables/``.  Positions are random new-game
and mid-game positions (fixed seed), drawn from 200 cards, as phones at many
tables would ask.  Targets 127.0.0.1 only and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlencode

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(n: int, seed: int = 1) -> list[dict]:
    sys.path.insert(0, ROOT)
    from yatzy.game import Game
    from yatzy.session import Session
    rng = random.Random(seed)
    cards = []
    for i in range(200):                     # cards from games played by the optimal policy
        game = Game("nordic", ["A=optimal"], seed=i)
        session = Session(game)
        for _ in range(rng.randrange(0, 60)):
            if game.is_over:
                break
            session.play_auto()
        cards.append("" if game.is_over else str(game.card))
    out = []
    for _ in range(n):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        out.append({"card": rng.choice(cards), "dice": dice, "rerolls": rng.randint(0, 2)})
    return out


def wait_for(port: int) -> None:
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/status", trust_env=False)
            return
        except httpx.TransportError:
            time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def client(port: int, queue: list[bytes], times: list[float], errors: list[int]) -> None:
    """One keep-alive connection sending the requests of ``queue`` one after
    another (a minimal HTTP/1.1 client: httpx's own cost per request, about
    2 ms, would be measured instead of the server's on two cores)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while queue:
            request = queue.pop()
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
            times.append(time.perf_counter() - start)
            status = int(head.split(b" ", 2)[1])
            if status != 200:
                errors.append(status)
    finally:
        writer.close()


async def run(port: int, requests: int, clients: int) -> None:
    work = [(f"GET /api/advise?{urlencode(p)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").encode()
            for p in positions(requests + 200)]
    await client(port, work[:200], [], [])                      # open the table, warm up
    queue, times, errors = work[200:], [], []
    start = time.perf_counter()
    await asyncio.gather(*(client(port, queue, times, errors) for _ in range(clients)))
    wall = time.perf_counter() - start
    times.sort()

    def pct(q: float) -> float:
        return 1000 * times[min(int(q / 100 * len(times)), len(times) - 1)]
    print(f"{len(times)} requests, {clients} clients, {len(errors)} errors")
    print(f"p50 {pct(50):.1f} ms   p95 {pct(95):.1f} ms   p99 {pct(99):.1f} ms   "
          f"max {1000 * times[-1]:.1f} ms")
    print(f"{len(times) / wall:.0f} requests/s")


# ------------------------------------------------------------ shared tables
TABLE_APP = """\
import yatzy.web.shared as shared
shared.LIMITS.update(create=(1e6, 1e6), move=(1e6, 1e6))   # every phone here is 127.0.0.1
from yatzy.web.app import app_from_env as app
"""


def table_server(port: int, db: str, workers: int = 1) -> subprocess.Popen:
    """``yatzy serve``'s app with its server limits, the rate limits lifted,
    in ``workers`` processes sharing the database (as ``--workers``)."""
    folder = os.path.dirname(db)
    with open(os.path.join(folder, "web_load_app.py"), "w") as f:
        f.write(TABLE_APP)
    code = ("import sys, uvicorn\n"
            "from yatzy.web.limits import SERVER_LIMITS\n"
            "uvicorn.run('web_load_app:app', factory=True, host='127.0.0.1',\n"
            "            port=int(sys.argv[1]), workers=int(sys.argv[2]), **SERVER_LIMITS)\n")
    env = {**os.environ, "YATZY_SERVE_DB": db,
           "PYTHONPATH": os.pathsep.join([folder, ROOT, os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-c", code, str(port), str(workers)], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL)


class Connection:
    """One keep-alive HTTP/1.1 connection sending JSON, minimal (see ``client``)."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> "Connection":
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def send(self, method: str, path: str, obj: dict | None = None) -> tuple[int, dict]:
        body = json.dumps(obj).encode() if obj is not None else b""
        request = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}"
                   f"\r\n\r\n").encode() + body
        try:
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):   # closed while idle: as a browser,
            port = self.writer.get_extra_info("peername")[1]        # open another and send again
            self.writer.close()
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        data = await self.reader.readexactly(length)
        try:
            return int(head.split(b" ", 2)[1]), json.loads(data)
        except ValueError:                       # uvicorn's own 503 is plain text
            return int(head.split(b" ", 2)[1]), {"error": data.decode(errors="replace")}

    def close(self) -> None:
        self.writer.close()


async def follow(port: int, code: str, seen: list, ready: asyncio.Event, errors: list) -> None:
    """One phone's event stream: each change count that arrived, and when
    (a stream sends the table as it is: changes quicker than it skip)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/table/{code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    try:
        status = (await reader.readline()).split(b" ", 2)[1]
        if status != b"200":
            errors.append(f"events {status.decode()}")
            ready.set()
            return
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                seen.append((int(line[4:]), time.perf_counter()))
                ready.set()
    except asyncio.CancelledError:
        pass
    finally:
        writer.close()


async def play_table(port: int, turns: int, think: float, moves: list[float],
                     delays: list[float], errors: list[str]) -> None:
    phones = [await Connection.open(port) for _ in range(4)]
    status, state = await phones[0].send("POST", "/api/table",
                                         {"players": ["A", "B", "C", "D"]})
    if status != 201:
        errors.append(f"create {status}")
        return
    code, seen, sent = state["code"], [[] for _ in phones], {}
    readies = [asyncio.Event() for _ in phones]
    streams = [asyncio.create_task(follow(port, code, s, r, errors))
               for s, r in zip(seen, readies)]
    await asyncio.gather(*(r.wait() for r in readies))
    if not all(seen):
        return
    try:
        for _ in range(4 * turns * 2):
            view = state["view"]
            move = "roll" if view["needs_roll"] else next(
                a for a in view["legal"] if a.startswith("score "))
            n = state["moves"] + 1
            sent[n] = start = time.perf_counter()
            status, answer = await phones[view["turn_player"]].send(
                "POST", f"/api/table/{code}/move", {"move": move, "after": state["moves"]})
            moves.append(time.perf_counter() - start)
            if status != 200:
                errors.append(f"move {status}: {answer.get('error')}")
                return
            state = answer
            if think:
                await asyncio.sleep(think * random.random())
        deadline = time.perf_counter() + 5
        while any(not s or s[-1][0] < state["moves"] for s in seen) \
                and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        for n, at in sent.items():       # when each phone had change n (or a later one)
            got = [next((t for m, t in s if m >= n), None) for s in seen]
            if None in got:
                errors.append(f"change {n} reached {len(got) - got.count(None)} of 4 phones")
            else:
                delays.append(max(got) - at)
    finally:
        for task in streams:
            task.cancel()
        for phone in phones:
            phone.close()


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user and system) of process ``pid`` and its descendants
    (Linux's /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except (OSError, ValueError, IndexError):
        return None
    return total + sum(cpu_seconds(k) or 0 for k in kids)


async def run_tables(port: int, tables: int, turns: int, think: float,
                     server: int | None = None) -> None:
    await play_table(port, 1, 0, [], [], [])                     # warm up
    moves, delays, errors = [], [], []
    cpu = cpu_seconds(server) if server else None
    start = time.perf_counter()
    await asyncio.gather(*(play_table(port, turns, think, moves, delays, errors)
                           for _ in range(tables)))
    wall = time.perf_counter() - start
    if cpu is not None:
        cpu = cpu_seconds(server) - cpu

    def pct(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return 1000 * xs[min(int(q / 100 * len(xs)), len(xs) - 1)] if xs else float("nan")
    print(f"{tables} tables x 4 phones, {len(moves)} moves, {len(errors)} errors"
          + (f" (first: {errors[0]})" if errors else ""))
    for name, xs in (("move answered", moves), ("seen by all 4 phones", delays)):
        print(f"{name:>22}: p50 {pct(xs, 50):.1f} ms   p95 {pct(xs, 95):.1f} ms   "
              f"p99 {pct(xs, 99):.1f} ms   max {pct(xs, 100):.1f} ms")
    print(f"{len(moves) / wall:.0f} moves/s"
          + (f", server CPU {1000 * cpu / max(len(moves), 1):.2f} ms a move" if cpu else "")
          + f", load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, help="an already running server on 127.0.0.1")
    ap.add_argument("--requests", type=int, default=4000)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--workers", type=int, default=1, help="server processes of its own server")
    ap.add_argument("--tables", type=int, help="shared tables of four phones each (table mode)")
    ap.add_argument("--turns", type=int, default=2, help="turns a seat plays (table mode)")
    ap.add_argument("--think", type=float, default=0, metavar="MS",
                    help="a phone waits up to MS (uniform) before its next move (table mode)")
    args = ap.parse_args()
    child = None
    port = args.port
    if args.tables:
        scratch = tempfile.TemporaryDirectory()
        if port is None:
            port = free_port()
            child = table_server(port, os.path.join(scratch.name, "tables.sqlite"),
                                 args.workers)
            wait_for(port)
        try:
            asyncio.run(run_tables(port, args.tables, args.turns, args.think / 1000,
                                   child.pid if child is not None else None))
        finally:
            if child is not None:
                child.terminate()
                child.wait()
            scratch.cleanup()
        return
    if port is None:
        port = free_port()
        child = subprocess.Popen([sys.executable, "-m", "yatzy", "serve", "--port", str(port),
                                  "--workers", str(args.workers)],
                                 cwd=ROOT, stdout=subprocess.DEVNULL)
        wait_for(port)
    try:
        asyncio.run(run(port, args.requests, args.clients))
    finally:
        if child is not None:
            child.terminate()
            child.wait()


if __name__ == "__main__":
    main()
