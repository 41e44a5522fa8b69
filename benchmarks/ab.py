"""Old code against new, interleaved in one run (the machines here are
shared and drift by tens of percent within an hour, so only runs made side
by side compare).

    python benchmarks/ab.py OLD_TREE [NEW_TREE] [--rounds 4]

``OLD_TREE`` and ``NEW_TREE`` are source checkouts (``git worktree add
/tmp/old COMMIT``); ``NEW_TREE`` defaults to this one.  Each round runs one
child process per tree, alternating which goes first, and each child
measures, after solving its tables and loading its kernels:

* solve         ``engine.solve`` of ``nordic`` (median of 3)
* distribution  the exact ``nordic`` distribution from a new game
* simulate      200,000 optimal ``nordic`` games (layer at a time)
* play          3,000 optimal ``yahtzee`` games played one by one
* triple        2,000 Trippel-Yatzy games (the default strategy)

and digests of the results (the solved table, the distribution, each
player's histogram and box figures): old and new must agree bit for bit.
The child imports either layout (``yatzy.rules.ruleset`` and the
subpackages since 2c4edf1, the flat modules before),

so an older commit runs as it is; the script prints every round, the
median per figure and tree, and whether the digests agree.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import click

CHILD = r"""
import hashlib, json, statistics, sys, time
import numpy as np
try:                                   # the layout since 2c4edf1
    from yatzy.rules.ruleset import parse_rules
    from yatzy.position.scorecard import Scorecard
    from yatzy.tables.build import solve
    from yatzy.research.distribution import distribution
    from yatzy.research.simulate import simulate
    try:
        from yatzy.research.games import run_games as play
    except ImportError:                # before the rename of play
        from yatzy.research.games import play
    try:
        from yatzy.research.triple_games import run_games as triple_play
    except ImportError:
        from yatzy.research.triple_games import play as triple_play
    from yatzy.tables.store import open_table
except ImportError:                    # the flat modules before it
    from yatzy.rules import parse_rules
    from yatzy.scorecard import Scorecard
    from yatzy.engine import solve
    from yatzy.distribution import distribution
    from yatzy.simulate import simulate
    from yatzy.play import play
    from yatzy.triple_play import play as triple_play
    from yatzy.tables import open_table

def table(spec):
    try:
        return open_table(parse_rules(spec), sys.argv[1], progress=False)
    except TypeError:
        return open_table(parse_rules(spec), sys.argv[1])

def digest(*arrays):
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]

nordic, yahtzee = table("nordic"), table("yahtzee")
rules, triple = nordic.rules, parse_rules("triple")
solve(rules)
out = {"solve": statistics.median(solve(rules).seconds for _ in range(3))}
card = Scorecard.empty(rules)
distribution(rules, card, nordic.values)
dist = distribution(rules, card, nordic.values)
out["distribution"] = dist.seconds
simulate(rules, nordic.values, 1000, 1)
sim = simulate(rules, nordic.values, 200_000, 2)
out["simulate"] = sim.seconds
play(yahtzee, 100, 1)
games = play(yahtzee, 3000, 2)
out["play"] = games.seconds
triple_play(nordic, triple, 64, 1)
trip = triple_play(nordic, triple, 2000, 2)
out["triple"] = trip.seconds
out["digests"] = {"table": digest(np.asarray(solve(rules).dense)),
                  "distribution": digest(dist.pmf, dist.box_mean, dist.box_nonzero),
                  "simulate": digest(sim.hist, sim.box_sum, sim.box_nonzero),
                  "play": digest(games.hist, games.box_sum, games.box_nonzero),
                  "triple": digest(trip.hist, trip.box_sum, trip.box_nonzero)}
print(json.dumps(out))
"""


def run(tree: Path, tables: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", CHILD, tables], env=env, cwd=tree,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@click.command()
@click.argument("old", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("new", required=False, type=click.Path(exists=True, file_okay=False,
                                                        path_type=Path))
@click.option("--rounds", default=4, show_default=True, type=click.IntRange(1, 50))
def main(old: Path, new: Path | None, rounds: int) -> None:
    new = new or Path(__file__).resolve().parent.parent
    trees = {"old": old.resolve(), "new": new.resolve()}
    results: dict[str, list[dict]] = {k: [] for k in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))
            for name in order:
                res = run(trees[name], os.path.join(tmp, name))
                results[name].append(res)
                print(f"round {i + 1} {name}: " + ", ".join(
                    f"{k} {v:.3f} s" for k, v in res.items() if k != "digests"), flush=True)
    print(f"medians of {rounds} rounds (seconds; old = {trees['old']}, new = {trees['new']})")
    for key in (k for k in results["old"][0] if k != "digests"):
        a = statistics.median(r[key] for r in results["old"])
        b = statistics.median(r[key] for r in results["new"])
        print(f"  {key:<13} old {a:7.3f}  new {b:7.3f}  new/old {b / a:5.2f}")
    digests = {name: {json.dumps(r["digests"], sort_keys=True) for r in rs}
               for name, rs in results.items()}
    for name, ds in digests.items():
        if len(ds) > 1:
            print(f"  {name}: results differ between rounds")
    same = digests["old"] == digests["new"]
    print("  results: " + ("identical (" + ", ".join(results["old"][0]["digests"]) + ")"
                           if same else f"DIFFER: old {digests['old']} new {digests['new']}"))


if __name__ == "__main__":
    main()
