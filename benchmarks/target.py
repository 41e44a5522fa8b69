"""Time, peak memory and size of a target-table solve (``yatzy.tables.target``).

    python benchmarks/target.py [--rules nordic] [--runs 1] [--reference DIR]

Each run is a fresh process solving into an empty folder (kernels loaded
from Numba's cache first, so compiling is not counted): the solve's wall
and CPU seconds (all threads), the process's peak resident memory, the
table's size on disk and the sha256 of its values; then the largest chance
to reach 200, 250, 300 and 350 from the start against the chance
expected-score play reaches them (its exact distribution).

``--reference DIR``: a checkout of other code (e.g. ``git worktree add
/tmp/target-old main``); each run then solves with it and with this tree,
alternating, so both see the same load; the ratio of the medians is
printed and the tables' sha256 must agree.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import click

CHILD = r"""
import json, os, resource, sys, time
from yatzy.rules.ruleset import parse_rules
from yatzy.tables import target
rules = parse_rules(sys.argv[1])
target.solve(rules.__class__("warm", rules.boxes[:3], dice=2))    # load the kernels
start, cpu = time.perf_counter(), time.process_time()
table = target.open_target(rules, sys.argv[2])
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"seconds": seconds, "cpu": cpu, "bytes": table.path.stat().st_size,
                  "sha256": table.header["sha256"], "load": os.getloadavg()[0],
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def solve_once(tree: Path, spec: str, folder: str) -> dict:
    """One solve in a fresh process running the code of ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", CHILD, spec, folder], capture_output=True,
                         text=True, check=True, cwd=tree, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def summary(name: str, results: list[dict]) -> str:
    wall = statistics.median(r["seconds"] for r in results)
    cpu = statistics.median(r["cpu"] for r in results)
    return (f"{name}: solve {wall:.1f} s wall, {cpu:.1f} s CPU (medians of {len(results)}), "
            f"peak {max(r['peak_mb'] for r in results):.0f} MB, table "
            f"{results[-1]['bytes'] / 2**30:.2f} GiB")


@click.command()
@click.option("--rules", "spec", default="nordic", show_default=True)
@click.option("--runs", default=1, show_default=True, type=click.IntRange(1, 10))
@click.option("--reference", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="a checkout of the code to compare with, run alternately")
def main(spec: str, runs: int, reference: Path | None) -> None:
    from yatzy.api import Solver

    here = Path(__file__).resolve().parents[1]
    trees = [("reference", reference.resolve()), ("this tree", here)] if reference else \
        [("this tree", here)]
    results: dict[str, list[dict]] = {name: [] for name, _ in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            for name, tree in trees:
                folder = f"{tmp}/{name.replace(' ', '-')}-{i}"
                results[name].append(solve_once(tree, spec, folder))
                print(f"run {i + 1} {name}: {results[name][-1]}", flush=True)
                if name == "reference" or i > 0:
                    shutil.rmtree(folder)          # keep one table only (1.7 GiB for nordic)
        for name, _ in trees:
            print(summary(f"{spec} {name}", results[name]))
        if reference:
            old, new = results["reference"], results["this tree"]
            ratio = (statistics.median(r["seconds"] for r in new)
                     / statistics.median(r["seconds"] for r in old))
            cpu = statistics.median(r["cpu"] for r in new) / statistics.median(r["cpu"] for r in old)
            same = {r["sha256"] for r in old + new}
            print(f"this tree / reference: {ratio:.3f} wall, {cpu:.3f} CPU; tables "
                  f"{'identical (sha256 ' + next(iter(same))[:16] + ')' if len(same) == 1 else 'DIFFER'}")
        print(f"load average {os.getloadavg()[0]:.2f}")
        solver = Solver(spec, tables=f"{tmp}/this-tree-0")
        dist = solver.distribution()
        print(f"{'target':>7} {'best chance':>12} {'expected-score play':>20}")
        for t in (200, 250, 300, 350):
            print(f"{t:>7} {solver.chance('', t):>12.6f} {dist.at_least(t):>20.6f}")


if __name__ == "__main__":
    main()
