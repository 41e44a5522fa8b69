"""Speed and memory of the research tools: exact distribution and simulation.

Prints figures (medians of several runs) for docs/research.md:

    python benchmarks/research.py [--rules nordic] [--runs 3] [--games 1000000]

* distribution  `yatzy.research.distribution.distribution` from a new game, in a
                process whose kernels are loaded and whose table is solved
* memory        peak resident set of a fresh process that loads the table
                and computes the distribution (interpreter and imports included)
* simulate      games per second of `yatzy.research.simulate.simulate` (optimal play,
                actions decided as the games go), in process
* compile       the kernels' first use with an empty Numba cache (seconds)
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import click

CHILD = """
import resource, sys
from yatzy.research.distribution import distribution
from yatzy.rules.ruleset import parse_rules
from yatzy.position.scorecard import Scorecard
from yatzy.tables.store import open_table
rules = parse_rules(sys.argv[1])
table = open_table(rules, progress=False)
d = distribution(rules, Scorecard.empty(rules), table.values)
print(d.seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""

WARM = """
from yatzy.rules.boxes import Box, groups, upper
from yatzy.research.distribution import distribution
from yatzy.tables.build import solve
from yatzy.rules.ruleset import Rules
from yatzy.position.scorecard import Scorecard
from yatzy.research.simulate import simulate
r = Rules("warm", (upper("ones", 1), groups("one_pair", (2,)), Box("chance", "chance")), dice=2)
v = solve(r).values
distribution(r, Scorecard.empty(r), v)
simulate(r, v, 10)
"""


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


def _memory_gb() -> float:
    try:
        with open("/proc/meminfo") as f:
            return int(f.readline().split()[1]) / 2**20
    except (OSError, ValueError, IndexError):
        return float("nan")


@click.command()
@click.option("--rules", "spec", default="nordic", show_default=True)
@click.option("--runs", default=3, show_default=True)
@click.option("--games", default=1_000_000, show_default=True)
def main(spec: str, runs: int, games: int) -> None:
    import numba

    from yatzy.errors import InputError
    from yatzy.position.scorecard import Scorecard
    from yatzy.research.distribution import distribution
    from yatzy.research.review import check_supported
    from yatzy.research.simulate import simulate
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.store import open_table

    rules = parse_rules(spec)
    print(f"machine       {_cpu()}, {os.cpu_count()} cores, {_memory_gb():.0f} GB, "
          f"{numba.get_num_threads()} Numba threads")
    with tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", WARM], check=True,
                       env={**os.environ, "NUMBA_CACHE_DIR": cache})
        print(f"compile       {time.perf_counter() - start:.1f} s (empty cache, engine included)")
    table = open_table(rules, progress=False)
    card = Scorecard.empty(rules)
    distribution(rules, card, table.values)                      # loads the kernels
    times = [distribution(rules, card, table.values).seconds for _ in range(runs)]
    d = distribution(rules, card, table.values)
    print(f"distribution  {statistics.median(times):.2f} s median of {runs} "
          f"({', '.join(f'{t:.2f}' for t in times)}); mean {d.mean:.7f}, sd {d.sd:.3f}")
    child = [subprocess.run([sys.executable, "-c", CHILD, spec], check=True,
                            capture_output=True, text=True).stdout.split() for _ in range(runs)]
    print(f"memory        {statistics.median(int(c[1]) for c in child)} MB peak resident "
          f"(fresh process, table and interpreter included; distribution "
          f"{statistics.median(float(c[0]) for c in child):.2f} s there)")
    try:
        check_supported(rules, "the fast simulation")
    except InputError as e:
        print(f"simulate      skipped: {e} (benchmarks/play.py measures its player)")
        return
    simulate(rules, table.values, 1000)
    rates = []
    for seed in range(runs):
        sim = simulate(rules, table.values, games, seed=seed)
        rates.append(games / sim.seconds)
    med = statistics.median(rates)
    print(f"simulate      {med:,.0f} games/s median of {runs} ({games:,} optimal games in "
          f"{games / med:.2f} s); mean {sim.mean:.3f}")


if __name__ == "__main__":
    main()
