"""Time, peak memory and size of a target-table solve (``solver.tables.target``).

    python benchmarks/target.py [--rules nordic] [--runs 1]

Each run is a fresh process solving into an empty folder (kernels loaded
from Numba's cache first, so compiling is not counted): the solve's seconds,
the process's peak resident memory, the table's size on disk; then the
largest chance to reach 200, 250, 300 and 350 from the start against the
chance expected-score play reaches them (its exact distribution).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile

import click

CHILD = r"""
import json, resource, sys, time
from solver.rules.ruleset import parse_rules
from solver.tables import target
rules = parse_rules(sys.argv[1])
target.solve(rules.__class__("warm", rules.boxes[:3], dice=2))    # load the kernels
start = time.perf_counter()
table = target.open_target(rules, sys.argv[2])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "bytes": table.path.stat().st_size,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


@click.command()
@click.option("--rules", "spec", default="nordic", show_default=True)
@click.option("--runs", default=1, show_default=True, type=click.IntRange(1, 10))
def main(spec: str, runs: int) -> None:
    from solver.api import Solver

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            out = subprocess.run([sys.executable, "-c", CHILD, spec, f"{tmp}/{i}"],
                                 capture_output=True, text=True, check=True)
            results.append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(f"run {i + 1}: {results[-1]}", flush=True)
        secs = statistics.median(r["seconds"] for r in results)
        print(f"{spec}: solve {secs:.1f} s (median of {runs}), peak "
              f"{max(r['peak_mb'] for r in results):.0f} MB, table "
              f"{results[-1]['bytes'] / 2**30:.2f} GiB")
        solver = Solver(spec, tables=f"{tmp}/0")
        dist = solver.distribution()
        print(f"{'target':>7} {'best chance':>12} {'expected-score play':>20}")
        for t in (200, 250, 300, 350):
            print(f"{t:>7} {solver.chance('', t):>12.6f} {dist.at_least(t):>20.6f}")


if __name__ == "__main__":
    main()
