"""Soak test of ``yatzy serve`` on a hostile network: four families play at
shared tables (two phones each, event streams open, each family from an
address of its own) first alone (the quiet run), then while attackers run
every class of abuse the server bounds (the attack run); the script prints
the families' move times (p50, p99) and failed requests in each run.

    python benchmarks/soak.py                     # 40 s quiet, 80 s under attack
    python benchmarks/soak.py --quiet 20 --attack 40

The attackers: a connection flood with slow bodies, headers of a MiB,
distributions of distinct cards (heavy work), 8 KB game posts, finished
games posted to the history, short codes guessed from many addresses, event
streams opened past the limit, and made-up seeds and proposals.  Each
family and attacker is a client bound to its own loopback address
(127.0.0.2 ...), the server listens on 127.0.0.1 only; the script targets
nothing else and stops by itself (``--quiet`` + ``--attack`` seconds, at
most 600).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = 4
THINK = 0.3                 # seconds a family's phone waits between two moves


def start_server(data: str) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "PYTHONPATH": ROOT, "YATZY_DATA": data}
    tables = os.environ.get("YATZY_TABLES") or os.path.join(data, "tables")
    proc = subprocess.Popen([sys.executable, "-m", "yatzy", "serve", "--port", "0",
                             "--tables", tables, "--db", os.path.join(data, "tables.sqlite")],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
    for _ in range(3000):                   # the nordic table opened (or solved: a minute)
        try:
            status = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=5).json()
            if status["tables"].get("nordic", {}).get("state") == "ready":
                break
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.1)
    return proc, port


def client(source: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=60)


class Family:
    """Two phones at one table: one moves (roll, then the optimal move),
    both follow the table's event stream."""

    def __init__(self, port: int, n: int):
        self.url, self.source = f"http://127.0.0.1:{port}", f"127.0.0.{2 + n}"
        self.times: list[float] = []
        self.errors: list[str] = []
        self.http = client(self.source)

    def new_table(self) -> str:
        r = self.http.post(f"{self.url}/api/table", json={"players": ["Kari", "Ola"]})
        r.raise_for_status()
        return r.json()["code"]

    def follow(self, code: str, stop: threading.Event) -> None:
        with client(self.source) as c:
            try:
                with c.stream("GET", f"{self.url}/api/table/{code}/events") as events:
                    for _ in events.iter_lines():
                        if stop.is_set():
                            return
            except httpx.HTTPError:
                pass

    def play(self, stop: threading.Event) -> None:
        while not stop.is_set():
            code = self.new_table()
            streams = threading.Event()
            followers = [threading.Thread(target=self.follow, args=(code, streams), daemon=True)
                         for _ in range(2)]
            for f in followers:
                f.start()
            state = self.http.get(f"{self.url}/api/table/{code}").json()
            while not stop.is_set() and not state["finished"]:
                move = "roll" if state["view"]["needs_roll"] else "auto"
                start = time.perf_counter()
                r = self.http.post(f"{self.url}/api/table/{code}/move",
                                   json={"move": move, "after": state["moves"]})
                self.times.append(time.perf_counter() - start)
                if r.status_code != 200:
                    self.errors.append(f"{r.status_code} {r.text[:80]}")
                    state = self.http.get(f"{self.url}/api/table/{code}").json()
                else:
                    state = r.json()
                time.sleep(THINK)
            streams.set()


def raw(port: int, data: bytes, source: str, read: bool = True) -> None:
    try:
        with socket.socket() as s:
            s.settimeout(5)
            s.bind((source, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(data)
            if read:
                s.recv(4096)
    except OSError:
        pass


def flood_connections(port: int, stop: threading.Event) -> None:
    """Connections held with a body that never comes, reopened as they close."""
    held: list[socket.socket] = []
    while not stop.is_set():
        while len(held) < 300 and not stop.is_set():
            try:
                s = socket.socket()
                s.settimeout(2)
                s.bind(("127.0.0.1", 0))
                s.connect(("127.0.0.1", port))
                s.sendall(b"POST /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 1000\r\n\r\n{")
                held.append(s)
            except OSError:
                break
        time.sleep(1)
        for s in held[:100]:
            s.close()
        del held[:100]
    for s in held:
        s.close()


def big_headers(port: int, stop: threading.Event) -> None:
    line = b"X-Big: " + b"a" * (1 << 20) + b"\r\n"
    while not stop.is_set():
        raw(port, b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n" + line + b"\r\n",
            "127.0.0.30")


def heavy(port: int, stop: threading.Event, n: int) -> None:
    with client(f"127.0.0.{40 + n}") as c:
        i = 0
        while not stop.is_set():
            i += 1
            try:
                c.get(f"http://127.0.0.1:{port}/api/distribution",
                      params={"card": f"ones={(i + n) % 6},twos={(i // 6 + n) % 6 * 2}"})
            except httpx.HTTPError:
                pass


def game_posts(port: int, stop: threading.Event) -> None:
    with client("127.0.0.50") as c:
        doc = c.post(f"http://127.0.0.1:{port}/api/game/new",
                     json={"players": ["A", "B", "C", "D"]}).json().get("game")
        while not stop.is_set() and doc:
            try:
                c.post(f"http://127.0.0.1:{port}/api/game/state", json={"game": doc})
            except httpx.HTTPError:
                pass


def guests(port: int, stop: threading.Event) -> None:
    """History, seeds, proposals and join codes, as a guest would forge them."""
    n = 0
    while not stop.is_set():
        n += 1
        source = f"127.0.2.{n % 200 + 1}"
        with client(source) as c:
            url = f"http://127.0.0.1:{port}"
            try:
                c.post(f"{url}/api/table", json={"players": ["A"], "seed": 424242})
                c.get(f"{url}/api/join/ABCDE{'FGHJK'[n % 5]}")
                c.post(f"{url}/api/history", json={"game": {"rules": "nordic"}})
            except httpx.HTTPError:
                pass
        time.sleep(0.05)


def streams(port: int, stop: threading.Event, code: str) -> None:
    while not stop.is_set():
        socks = []
        for _ in range(100):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=2)
                s.sendall(f"GET /api/table/{code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                          .encode())
                socks.append(s)
            except OSError:
                break
        time.sleep(3)
        for s in socks:
            s.close()


def attack(port: int, seconds: float, code: str) -> None:
    """Every attacker for ``seconds`` (in a process of its own, as attackers
    on other machines share nothing with the families' phones)."""
    stop = threading.Event()
    threads = [threading.Thread(target=t, args=(port, stop), daemon=True)
               for t in (flood_connections, big_headers, game_posts, guests)]
    threads += [threading.Thread(target=heavy, args=(port, stop, n), daemon=True)
                for n in range(8)]
    threads.append(threading.Thread(target=streams, args=(port, stop, code), daemon=True))
    run_for(threads, stop, seconds)


def run_for(threads: list[threading.Thread], stop: threading.Event, seconds: float) -> None:
    """Start ``threads``, let them run ``seconds``, then stop them (``stop``) and wait."""
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(15)


def run(port: int, seconds: float, attacked: bool) -> dict:
    stop = threading.Event()
    families = [Family(port, n) for n in range(FAMILIES)]
    threads = [threading.Thread(target=f.play, args=(stop,), daemon=True) for f in families]
    attackers = None
    if attacked:
        attackers = multiprocessing.Process(target=attack,
                                            args=(port, seconds, families[0].new_table()))
        attackers.start()
    run_for(threads, stop, seconds)
    if attackers is not None:
        attackers.join(30)
        if attackers.is_alive():
            attackers.kill()
    times = sorted(x for f in families for x in f.times)
    errors = [e for f in families for e in f.errors]
    p = (lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000) if times else None
    return {"moves": len(times), "p50_ms": p and round(p(0.50), 1),
            "p99_ms": p and round(p(0.99), 1), "mean_ms": times and
            round(statistics.fmean(times) * 1000, 1), "errors": len(errors),
            "first_errors": errors[:3]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quiet", type=float, default=40, help="seconds of the quiet run")
    ap.add_argument("--attack", type=float, default=80, help="seconds of the attack run")
    args = ap.parse_args()
    if not 0 < args.quiet + args.attack <= 600:
        ap.error("--quiet and --attack: at most 600 s together")
    with tempfile.TemporaryDirectory() as data:
        proc, port = start_server(data)
        try:
            quiet = run(port, args.quiet, attacked=False)
            print("quiet:       ", json.dumps(quiet), flush=True)
            attacked = run(port, args.attack, attacked=True)
            print("under attack:", json.dumps(attacked), flush=True)
            if quiet["p99_ms"] and attacked["p99_ms"]:
                print(f"p99 under attack / quiet: {attacked['p99_ms'] / quiet['p99_ms']:.2f}")
        finally:
            proc.send_signal(2)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            tail = proc.stderr.read()
            print("server's log:", len(tail.splitlines()), "lines;",
                  "tracebacks:", tail.count("Traceback"))


if __name__ == "__main__":
    main()
