"""Load test of ``GET /api/advise``: CLIENTS concurrent clients (default 20)
send a fixed number of requests (default 4000) to a ``yatzy serve`` on
127.0.0.1 and the script prints the latency percentiles and requests/s.

    python benchmarks/web_load.py                  # starts its own server
    python benchmarks/web_load.py --port 8000      # an already running one

Its own server runs in a child process (uvicorn, ``--workers`` processes) with the
tables of ``$YATZY_TABLES`` or ``tables/``.  Positions are random new-game
and mid-game positions (fixed seed), drawn from 200 cards, as phones at many
tables would ask.  Targets 127.0.0.1 only and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from urllib.parse import urlencode

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(n: int, seed: int = 1) -> list[dict]:
    sys.path.insert(0, ROOT)
    from solver.game import Game
    rng = random.Random(seed)
    cards = []
    for i in range(200):                     # cards from games played by the optimal policy
        game = Game("nordic", ["A=optimal"], seed=i)
        for _ in range(rng.randrange(0, 60)):
            if game.is_over:
                break
            game.play(game.computer_move())
        cards.append("" if game.is_over else str(game.card))
    out = []
    for _ in range(n):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        out.append({"card": rng.choice(cards), "dice": dice, "rerolls": rng.randint(0, 2)})
    return out


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, help="an already running server on 127.0.0.1")
    ap.add_argument("--requests", type=int, default=4000)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--workers", type=int, default=1, help="server processes of its own server")
    args = ap.parse_args()
    child = None
    port = args.port
    if port is None:
        port = free_port()
        child = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port),
                                  "--workers", str(args.workers)],
                                 cwd=ROOT, stdout=subprocess.DEVNULL)
        for _ in range(600):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/status", trust_env=False)
                break
            except httpx.TransportError:
                time.sleep(0.1)
    try:
        asyncio.run(run(port, args.requests, args.clients))
    finally:
        if child is not None:
            child.terminate()
            child.wait()


if __name__ == "__main__":
    main()
