"""Speed and memory of the core: solve, one position's advice, `yatzy advise`.

Prints figures (medians of several runs) for the README:

    python benchmarks/solve.py [--rules nordic] [--runs 5]

* compile   first solve in a fresh process with an empty Numba cache
            (compile + solve) minus a warm solve
* solve     engine.solve in a process whose kernels are already loaded
* process   `yatzy solve --force` wall time with a warm compile cache
            (interpreter start, imports, cache load, solve, write)
* memory    peak resident set of that process
* values    all option values for one position, in process: the compiled
            one-state kernel (build.compiled_keep_values) and the numpy query layer
            with its Action objects (query.advise)
* advise    `yatzy advise` end to end with the table present
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import click

from solver.space import state_space


def _child(code: str, env: dict | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, check=True)
    return out.stdout.strip()


def _wall(cmd: list[str], env: dict | None = None) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one command."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(cmd, check=True, capture_output=True, env={**os.environ, **(env or {})})
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return time.perf_counter() - start, max(peak, before) // 1024


@click.command()
@click.option("--rules", "spec", default="nordic", show_default=True)
@click.option("--runs", default=5, show_default=True)
def main(spec: str, runs: int) -> None:
    import numba

    from solver.players.advice import advise
    from solver.position.scorecard import Scorecard
    from solver.rules.ruleset import parse_rules
    from solver.tables.build import compiled_keep_values as keep_values
    from solver.tables.build import solve
    from solver.tables.store import open_table

    rules = parse_rules(spec)
    print(f"machine: {os.cpu_count()} cores, numba {numba.__version__}, "
          f"{numba.get_num_threads()} threads; rules {rules.spec}")

    with tempfile.TemporaryDirectory() as cache:
        code = ("import time; from solver.rules.ruleset import parse_rules; from solver.tables.build import solve;"
                f"r = parse_rules({spec!r}); r.scores; t = time.perf_counter(); solve(r);"
                "a = time.perf_counter() - t; t = time.perf_counter(); solve(r);"
                "print(a, time.perf_counter() - t)")
        cold, warm = map(float, _child(code, {"NUMBA_CACHE_DIR": cache}).split())
    print(f"compile (cold cache, once): {cold - warm:.2f} s")

    solve(rules)                                              # load kernels
    times = [solve(rules).seconds for _ in range(runs)]
    print(f"solve in process: median {statistics.median(times):.3f} s "
          f"(min {min(times):.3f}, max {max(times):.3f}, {runs} runs)")

    with tempfile.TemporaryDirectory() as tables:
        cmd = [sys.executable, "-m", "solver", "solve", "--rules", spec, "--force",
               "--tables", tables]
        _wall(cmd)                                            # warm the compile cache
        walls, peaks = zip(*(_wall(cmd) for _ in range(runs)))
        print(f"`yatzy solve --force` wall: median {statistics.median(walls):.3f} s; "
              f"peak memory {max(peaks)} MB")

        table = open_table(rules, tables, progress=False)
        card = Scorecard.parse("", rules)
        ds = rules.dice_space
        hands = [ds.dice_of(ds.first_roll + r) for r in range(0, ds.n_rolls, 7)]
        states = [(int(m), int(u)) for m in state_space(rules).layers[5][:50] for u in (0,)]
        keep_values(rules, table, 0, 0, rules.rolls - 1)      # load the kernel
        fast, slow = [], []
        for _ in range(runs):
            t = time.perf_counter()
            for m, u in states:
                keep_values(rules, table, m, u, rules.rolls - 1)
            fast.append((time.perf_counter() - t) / len(states))
            t = time.perf_counter()
            for h in hands:
                advise(table, card, h, rules.rolls - 1)
            slow.append((time.perf_counter() - t) / len(hands))
        print(f"all option values for one position (rerolls {rules.rolls - 1}), in process: "
              f"compiled median {statistics.median(fast) * 1e6:.0f} us; "
              f"numpy query with actions median {statistics.median(slow) * 1e6:.0f} us")

        cmd = [sys.executable, "-m", "solver", "advise", "--rules", spec, "--dice",
               ",".join(map(str, hands[3])), "--rerolls", str(rules.rolls - 1), "--tables", tables]
        walls = [_wall(cmd)[0] for _ in range(runs)]
        print(f"`yatzy advise` end to end: median {statistics.median(walls):.3f} s")


if __name__ == "__main__":
    main()
