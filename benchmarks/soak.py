"""Soak test of ``yatzy serve`` on a hostile network: four families play at
shared tables (two phones each, event streams open, each family from an
address of its own) for the whole run, while quiet windows and attack
windows alternate (the attackers run every class of abuse the server
bounds); each move is counted to the window it started in, so the quiet
and the attacked moves are measured in one run, side by side, on a
machine whose other load changes meanwhile.  The script prints each
window, then the families' move times (p50, p99) and failed requests,
quiet and under attack, the ratio of the p99s, and the load average.

    python benchmarks/soak.py                     # 2 minutes, windows of 20 s, after 10 s
                                                  # of attack not counted (the warm-up)
    python benchmarks/soak.py --minutes 10        # the long run (docs/security.md)
    python benchmarks/soak.py --minutes 3 --window 30 --workers 2 --attackers-nice 10

The attackers: a connection flood with slow bodies, headers of a MiB,
distributions of distinct cards (heavy work), 8 KB game posts, finished
games posted to the history, short codes guessed from many addresses, event
streams opened past the limit, and made-up seeds and proposals.  Each
family and attacker is a client bound to its own loopback address
(127.0.0.2 ...), the server listens on 127.0.0.1 only; the script targets
nothing else and stops by itself (``--minutes``, at most 30).
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


def start_server(data: str, workers: int = 1) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "PYTHONPATH": ROOT, "YATZY_DATA": data}
    tables = os.environ.get("YATZY_TABLES") or os.path.join(data, "tables")
    proc = subprocess.Popen([sys.executable, "-m", "yatzy", "serve", "--port", "0",
                             "--tables", tables, "--db", os.path.join(data, "tables.sqlite"),
                             "--workers", str(workers)],
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
    both follow the table's event stream.  ``times`` holds each move's
    start (``time.monotonic``) and seconds; ``errors`` each failed request
    with its start."""

    def __init__(self, port: int, n: int):
        self.url, self.source = f"http://127.0.0.1:{port}", f"127.0.0.{2 + n}"
        self.times: list[tuple[float, float]] = []
        self.errors: list[tuple[float, str]] = []
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
            at = time.monotonic()
            try:
                self.game(stop)
            except (httpx.HTTPError, ValueError, KeyError) as e:
                self.errors.append((at, f"{type(e).__name__}: {str(e)[:80]}"))
                time.sleep(THINK)

    def game(self, stop: threading.Event) -> None:
        code = self.new_table()
        streams = threading.Event()
        followers = [threading.Thread(target=self.follow, args=(code, streams), daemon=True)
                     for _ in range(2)]
        for f in followers:
            f.start()
        try:
            state = self.http.get(f"{self.url}/api/table/{code}").json()
            while not stop.is_set() and not state["finished"]:
                move = "roll" if state["view"]["needs_roll"] else "auto"
                at = time.monotonic()
                r = self.http.post(f"{self.url}/api/table/{code}/move",
                                   json={"move": move, "after": state["moves"]})
                self.times.append((at, time.monotonic() - at))
                if r.status_code != 200:
                    self.errors.append((at, f"{r.status_code} {r.text[:80]}"))
                    state = self.http.get(f"{self.url}/api/table/{code}").json()
                else:
                    state = r.json()
                time.sleep(THINK)
        finally:
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


def attack(port: int, seconds: float, nice: int = 0) -> None:
    """Every attacker for ``seconds`` (in a process of its own, as attackers
    on other machines share nothing with the families' phones; ``nice``
    lowers its CPU priority, so that on one machine the attackers' own
    work takes less of the CPU the server and the families need)."""
    if nice:
        os.nice(nice)
    with client("127.0.0.60") as c:
        code = c.post(f"http://127.0.0.1:{port}/api/table", json={"players": ["X"]}).json()["code"]
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


def windows(seconds: float, window: float) -> list[str]:
    """The kinds of the windows of a run: quiet and attack by turns, as many
    of each (at least one), starting quiet.

    >>> windows(120, 20)
    ['quiet', 'attack', 'quiet', 'attack', 'quiet', 'attack']
    >>> windows(30, 20)
    ['quiet', 'attack']
    """
    pairs = max(1, int(seconds // (2 * window)))
    return ["quiet", "attack"] * pairs


def run(port: int, kinds: list[str], window: float, settle: float, nice: int = 0,
        warmup: float = 0) -> dict:
    """The families play through every window; each window's moves (those
    started ``settle`` s or more after it began) are counted to its kind."""
    stop = threading.Event()
    families = [Family(port, n) for n in range(FAMILIES)]
    threads = [threading.Thread(target=f.play, args=(stop,), daemon=True) for f in families]
    for t in threads:
        t.start()
    spans = []
    if warmup:                                  # the server's first heavy work (its kernels
        attackers = multiprocessing.Process(target=attack, args=(port, warmup, nice))
        attackers.start()                       # loaded), once, before any window
        attackers.join(warmup + 1)
        if attackers.is_alive():
            attackers.kill()
            attackers.join(10)
    for kind in kinds:
        start = time.monotonic()
        if kind == "attack":
            attackers = multiprocessing.Process(target=attack, args=(port, window, nice))
            attackers.start()
            attackers.join(window + 1)
            if attackers.is_alive():             # its threads' ends are not waited for:
                attackers.kill()                 # the window ends on time
                attackers.join(10)
        else:
            time.sleep(window)
        spans.append((kind, start + settle, time.monotonic()))
        print(f"  window {len(spans)} {kind:6}: " + json.dumps(summary(
            families, [spans[-1]])), flush=True)
    stop.set()
    for t in threads:
        t.join(30)
    got = {kind: summary(families, [s for s in spans if s[0] == kind])
           for kind in ("quiet", "attack")}
    pairs = [(summary(families, [q])["p99_ms"], summary(families, [a])["p99_ms"])
             for q, a in zip(spans[::2], spans[1::2])]
    got["pair_ratios"] = [round(a / q, 2) for q, a in pairs if q and a]
    return got


def summary(families: list[Family], spans: list[tuple[str, float, float]]) -> dict:
    """The families' moves and errors that started within ``spans``."""
    def inside(at: float) -> bool:
        return any(start <= at < end for _, start, end in spans)
    times = sorted(x for f in families for at, x in f.times if inside(at))
    errors = [e for f in families for at, e in f.errors if inside(at)]
    p = (lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000) if times else None
    return {"moves": len(times), "p50_ms": p and round(p(0.50), 1),
            "p99_ms": p and round(p(0.99), 1), "max_ms": p and round(times[-1] * 1000, 1),
            "errors": len(errors), "first_errors": errors[:3]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=2, help="length of the run (at most 30)")
    ap.add_argument("--window", type=float, default=20, help="seconds of each window")
    ap.add_argument("--settle", type=float, default=2,
                    help="seconds at a window's start whose moves are not counted")
    ap.add_argument("--workers", type=int, default=1, help="yatzy serve --workers")
    ap.add_argument("--warmup", type=float, default=10,
                    help="seconds of attack before the first window, not counted (the "
                         "server's first heavy work loads its kernels once)")
    ap.add_argument("--attackers-nice", type=int, default=0, metavar="N",
                    help="the attackers' process at nice N (0: as the rest; on a real network "
                         "their CPU is another machine's)")
    args = ap.parse_args()
    if not 0 < args.minutes <= 30 or not 5 <= args.window <= 300 or \
            not 0 <= args.warmup <= 60 or not 0 <= args.settle < args.window / 2 or \
            not 1 <= args.workers <= 8:
        ap.error("--minutes: 0 to 30; --window: 5 to 300 s; --warmup: 0 to 60 s; "
                 "--settle: under half a window; --workers: 1 to 8")
    kinds = windows(args.minutes * 60, args.window)
    print(f"load average at the start: {os.getloadavg()}; {os.cpu_count()} cores; "
          f"{len(kinds)} windows of {args.window:g} s", flush=True)
    with tempfile.TemporaryDirectory() as data:
        proc, port = start_server(data, args.workers)
        try:
            got = run(port, kinds, args.window, args.settle, args.attackers_nice, args.warmup)
            print("quiet:       ", json.dumps(got["quiet"]), flush=True)
            print("under attack:", json.dumps(got["attack"]), flush=True)
            if got["quiet"]["p99_ms"] and got["attack"]["p99_ms"]:
                print(f"p99 under attack / quiet: "
                      f"{got['attack']['p99_ms'] / got['quiet']['p99_ms']:.2f} (all windows); "
                      f"each pair of windows: {got['pair_ratios']}, their median "
                      f"{statistics.median(got['pair_ratios']):.2f}")
            print(f"load average at the end: {os.getloadavg()}", flush=True)
        finally:
            proc.send_signal(2)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            tail = proc.stderr.read()
            print("server's log:", len(tail.splitlines()), "lines;",
                  "tracebacks:", tail.count("Traceback"))
            for line in tail.splitlines()[:5]:
                print("  ", line[:200])


if __name__ == "__main__":
    main()
