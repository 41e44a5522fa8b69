"""Every first use from an EMPTY tables folder: the wait a new user sees.

Each case runs as a fresh process (the CLI, the coach in a pseudo-terminal,
the page's Practice API) with ``YATZY_TABLES`` a new empty folder and
Numba's cache as it is (run each command once beforehand for a warm cache);
prints the command, what it announced (``about ...``), the real wall time
and the load average before and after.

    python benchmarks/first_use.py [CASE ...]      # default: every case
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
YATZY = [PY, "-m", "solver"]

CLI = {
    "target-8-open": ["advise", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                      "one_pair=10", "--dice", "66612", "--rerolls", "2", "--target", "250"],
    "explain-8-open": ["advise", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                       "one_pair=10", "--dice", "66612", "--rerolls", "2", "--explain"],
    "opponent-6-open": ["advise", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                        "one_pair=10,two_pairs=14,three_of_a_kind=15", "--dice", "66612",
                        "--rerolls", "2", "--opponent",
                        "ones=2,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,"
                        "two_pairs=14"],
    "explain-13-open": ["advise", "--card", "ones=3,sixes=24", "--dice", "66612", "--rerolls",
                        "2", "--explain"],
    "win-docs-example": ["advise", "--card", "ones=3,sixes=24", "--dice", "66612", "--rerolls",
                         "2", "--top", "3", "--opponent", "twos=8,chance=25", "--opponent",
                         "fours=16"],
    "distribution": ["distribution"],
    "simulate-10M": ["simulate", "--games", "10000000"],
    "ev-target-300": ["ev", "--target", "300", "--yes"],
    "train": ["train", "--count", "1", "--seed", "1", "--yes"],
}


def load() -> float:
    return os.getloadavg()[0]


def announced(text: str) -> list[str]:
    return re.findall(r"(?:building|compiling)[^\n]*?about ([0-9.]+ (?:s|min|h))", text)


def run_cli(args: list[str], tables: Path) -> tuple[float, str]:
    env = {**os.environ, "YATZY_TABLES": str(tables), "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run(YATZY + args, env=env, cwd=tables, capture_output=True, text=True,
                          input="" if args[0] != "train" else "1\n" * 3)
    return time.perf_counter() - start, done.stdout + done.stderr


def run_play(tables: Path) -> tuple[float, str]:
    """Until the coach's first prompt (``NAME>``) is on the screen."""
    import pexpect
    env = {**os.environ, "YATZY_TABLES": str(tables), "PYTHONPATH": str(ROOT),
           "YATZY_DATA": str(tables / "data"), "TERM": "xterm"}
    start = time.perf_counter()
    child = pexpect.spawn(PY, ["-m", "solver", "play", "--screen", "plain"], cwd=str(tables),
                          env=env, encoding="utf-8", timeout=900, dimensions=(50, 120))
    child.expect(r"\w+> ")
    seconds = time.perf_counter() - start
    text = child.before
    child.terminate(force=True)
    return seconds, text


def run_practice(tables: Path) -> tuple[float, str]:
    """``yatzy serve``, then GET /api/puzzles until it answers 200 (the
    page's first Practice open)."""
    import httpx
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "YATZY_TABLES": str(tables), "PYTHONPATH": str(ROOT),
           "YATZY_DATA": str(tables / "data")}
    server = subprocess.Popen(YATZY + ["serve", "--port", str(port), "--db",
                                       str(tables / "shared.sqlite")],
                              env=env, cwd=tables, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        while True:                                   # the server up (not counted)
            try:
                httpx.get(url + "/", timeout=5)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        start = time.perf_counter()
        seen = []
        while True:
            r = httpx.get(url + "/api/puzzles?count=1&seed=1", timeout=600)
            if r.status_code == 200:
                break
            body = r.json()
            seen.append(json.dumps(body.get("progress", body))[:200])
            time.sleep(1)
        return time.perf_counter() - start, "\n".join(seen[-2:])
    finally:
        server.terminate()
        server.wait()


def main(cases: list[str]) -> None:
    every = [*CLI, "play", "practice"]
    for case in cases or every:
        tables = Path(tempfile.mkdtemp(prefix="yatzy-first-"))
        before = load()
        try:
            if case == "play":
                seconds, text = run_play(tables)
            elif case == "practice":
                seconds, text = run_practice(tables)
            else:
                seconds, text = run_cli(CLI[case], tables)
        finally:
            shutil.rmtree(tables, ignore_errors=True)
        print(f"{case:<18} announced {', '.join(announced(text)) or '-':<22} real {seconds:6.1f} s"
              f"  load {before:.1f} -> {load():.1f}", flush=True)
        for line in text.splitlines():
            if "warning" in line or "about" in line:
                print("    " + line[:300], flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
