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

and the script prints every round and the median per figure and tree.
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
import json, statistics, sys, time
from solver.rules.ruleset import parse_rules
from solver.position.scorecard import Scorecard
from solver.tables.build import solve
from solver.research.distribution import distribution
from solver.research.simulate import simulate
from solver.research.games import play
from solver.tables.store import open_table

def table(spec):
    try:
        return open_table(parse_rules(spec), sys.argv[1], progress=False)
    except TypeError:
        return open_table(parse_rules(spec), sys.argv[1])

nordic, yahtzee = table("nordic"), table("yahtzee")
rules = nordic.rules
solve(rules)
out = {"solve": statistics.median(solve(rules).seconds for _ in range(3))}
card = Scorecard.empty(rules)
distribution(rules, card, nordic.values)
out["distribution"] = distribution(rules, card, nordic.values).seconds
simulate(rules, nordic.values, 1000, 1)
out["simulate"] = simulate(rules, nordic.values, 200_000, 2).seconds
play(yahtzee, 100, 1)
out["play"] = play(yahtzee, 3000, 2).seconds
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
                print(f"round {i + 1} {name}: " + ", ".join(f"{k} {v:.3f} s"
                                                           for k, v in res.items()), flush=True)
    print(f"medians of {rounds} rounds (seconds; old = {trees['old']}, new = {trees['new']})")
    for key in results["old"][0]:
        a = statistics.median(r[key] for r in results["old"])
        b = statistics.median(r[key] for r in results["new"])
        print(f"  {key:<13} old {a:7.3f}  new {b:7.3f}  new/old {b / a:5.2f}")


if __name__ == "__main__":
    main()
