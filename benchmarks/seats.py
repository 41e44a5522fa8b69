"""Games per second of the two compiled match seats, against a reference
checkout measured in the same run, interleaved.

    python benchmarks/seats.py [--reference DIR] [--runs 3] [--games 3000]
                               [--triple-games 20000] [--opponents 3] [--tables DIR]

* ``win``     the ``win`` seat of ``yatzy match`` (``yatzy.research.win_seat``)
  in ``nordic`` against ``--opponents`` expected-score players' logged
  games, on Numba's threads (wall clock) and on one thread (CPU time)
* ``triple``  Trippel-Yatzy games under the strategy (``optimal``, the
  coupling term; ``yatzy.research.triple_games``), the same two ways

``--reference`` is a source checkout of the code to compare with (``git
worktree add /tmp/ref main``); without it only this tree is measured.  Each
tree runs in a child process of its own that loads its kernels, opens the
tables and plays a few games first (nothing of that is timed), then plays
one measurement per request; the requests alternate between the trees,
which goes first alternating too.  The figures are medians over
``--runs``; the final scores of every game are compared bit for bit
between the trees (a digest of them).  The win seat reads the ``nordic``
target and futures tables (1.7 GiB each; built first if missing, minutes).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import click

CHILD = r"""
import hashlib, json, sys, time
import numba
import numpy as np
from yatzy.api import Solver
from yatzy.research.match import logged_games
from yatzy.research.triple_games import run_games
from yatzy.research.win_seat import play_win_seat

tables, n_opp, games, triple_games = sys.argv[1] or None, int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
nordic, triple = Solver("nordic", tables=tables), Solver("triple", tables=tables)
table, target, futures = nordic.table, nordic.target(), nordic.futures()
others = [(o, *logged_games(nordic.rules, tables, "optimal", 0.0, games, 100 + o)[1:])
          for o in range(1, n_opp + 1)]
threads = numba.get_num_threads()

def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.int64).tobytes()).hexdigest()[:16]

def win(n, seed):
    return play_win_seat(table, target, futures, n, seed, 0, 0, [(o, b[:n], p[:n]) for o, b, p in others])

def trip(n, seed):
    return run_games(triple.table, triple.rules, n, seed).scores

def timed(play, n, seed):
    numba.set_num_threads(threads)
    start = time.perf_counter()
    scores = play(n, seed)
    wall = time.perf_counter() - start
    numba.set_num_threads(1)
    start = time.process_time()
    play(max(n // 4, 1), seed)
    cpu = (time.process_time() - start) / max(n // 4, 1)
    numba.set_num_threads(threads)
    return {"games_s": n / wall, "cpu_games_s": 1 / cpu, "digest": digest(scores)}

win(2, 1), trip(16, 1)                     # load the kernels
win(games, 2)                              # page the tables in
import yatzy
print(json.dumps({"threads": threads, "where": yatzy.__file__}), flush=True)
for line in sys.stdin:
    what = line.strip()
    if what == "win":
        print(json.dumps(timed(win, games, 9)), flush=True)
    elif what == "triple":
        print(json.dumps(timed(trip, triple_games, 3)), flush=True)
"""


class Child:
    """One tree's measuring process."""

    def __init__(self, tree: Path, args: list[str]):
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONWARNINGS": "ignore"}
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD, *args], env=env, cwd=tree,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        first = self.read()
        self.threads = first["threads"]
        if not first["where"].startswith(str(tree)):
            raise click.ClickException(f"{tree}: the child imported {first['where']}")

    def read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise click.ClickException("a measuring process ended early (see above)")
        return json.loads(line)

    def ask(self, what: str) -> dict:
        self.proc.stdin.write(what + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


@click.command()
@click.option("--reference", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="a source checkout to compare with")
@click.option("--runs", default=3, show_default=True, type=click.IntRange(1, 50))
@click.option("--games", default=3000, show_default=True, type=click.IntRange(4))
@click.option("--triple-games", default=20000, show_default=True, type=click.IntRange(4))
@click.option("--opponents", default=3, show_default=True, type=click.IntRange(1, 9))
@click.option("--tables", default="", help="the tables folder (default: the usual one)")
def main(reference: Path | None, runs: int, games: int, triple_games: int, opponents: int,
         tables: str) -> None:
    here = Path(__file__).resolve().parent.parent
    trees = {"new": here} if reference is None else {"ref": reference.resolve(), "new": here}
    args = [tables, str(opponents), str(games), str(triple_games)]
    children = {name: Child(tree, args) for name, tree in trees.items()}
    print(f"machine: {os.cpu_count()} cores, {children['new'].threads} Numba threads; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; trees: "
          + ", ".join(f"{k} = {v}" for k, v in trees.items()))
    results = {(name, what): [] for name in trees for what in ("win", "triple")}
    for i in range(runs):
        for what in ("win", "triple"):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))
            for name in order:
                r = children[name].ask(what)
                results[name, what].append(r)
                print(f"run {i + 1} {what:<6} {name}: {r['games_s']:8,.0f} games/s, "
                      f"{r['cpu_games_s']:8,.0f} games per CPU second on one thread", flush=True)
    for child in children.values():
        child.close()
    print(f"medians of {runs} runs; load average now "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for what, label in (("win", f"win seat, nordic, {opponents} opponents, {games} games"),
                        ("triple", f"Trippel-Yatzy strategy, {triple_games} games")):
        line = f"  {label}:"
        med = {}
        for name in trees:
            rs = results[name, what]
            med[name] = (statistics.median(r["games_s"] for r in rs),
                         statistics.median(r["cpu_games_s"] for r in rs))
            line += f"  {name} {med[name][0]:,.0f} games/s ({med[name][1]:,.0f} per CPU s)"
        if "ref" in trees:
            line += (f"  new/ref {med['new'][0] / med['ref'][0]:.2f}x"
                     f" (per CPU s {med['new'][1] / med['ref'][1]:.2f}x)")
            same = ({r["digest"] for r in results["new", what]}
                    == {r["digest"] for r in results["ref", what]})
            line += "; final scores " + ("identical" if same else "DIFFER")
        print(line)


if __name__ == "__main__":
    main()
