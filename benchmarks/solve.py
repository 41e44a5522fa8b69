"""Speed and memory of the core: solve, one position's advice, `yatzy advise`.

Prints figures (medians of several runs) for the README:

    python benchmarks/solve.py [--rules nordic] [--runs 5] [--no-compile]

* reference the float64 C solver of ``benchmarks/reference/nordic.c``
            (compiled here with gcc -O3 -march=native -fopenmp, both cores),
            run interleaved with the next two: its value must agree with
            ours to 1e-6; ratios ours / reference (``nordic`` only), on
            both cores (wall) and on one thread (CPU time: steadier when
            other work shares the machine)
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

from yatzy.space import state_space

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference", "nordic.c")


def _child(code: str, env: dict | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, check=True)
    return out.stdout.strip()


def build_reference(directory: str) -> str | None:
    """Compile the C reference into ``directory``; its path, or None
    without gcc."""
    exe = os.path.join(directory, "nordic")
    try:
        subprocess.run(["gcc", "-O3", "-march=native", "-fopenmp", REFERENCE, "-o", exe, "-lm"],
                       check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return exe


def run_reference(exe: str, threads: int | None = None) -> tuple[float, float, float, float]:
    """The reference's value, its solve seconds, its whole process's wall
    seconds and CPU seconds (``threads``: OpenMP's thread count)."""
    env = {**os.environ, **({"OMP_NUM_THREADS": str(threads)} if threads else {})}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([exe], check=True, capture_output=True, text=True, env=env).stdout.split()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    fields = dict(zip(out[::2], out[1::2]))
    return float(fields["ev"]), float(fields["seconds"]), wall, cpu


def _wall(cmd: list[str], env: dict | None = None) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one command."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(cmd, check=True, capture_output=True, env={**os.environ, **(env or {})})
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return time.perf_counter() - start, max(peak, before) // 1024


@click.command()
@click.option("--rules", "spec", default="nordic", show_default=True)
@click.option("--runs", default=5, show_default=True, type=click.IntRange(1, 50))
@click.option("--compile/--no-compile", "cold", default=True, show_default=True,
              help="Measure a compile with an empty Numba cache (about 20 s).")
def main(spec: str, runs: int, cold: bool) -> None:
    import numba

    from yatzy.rules.ruleset import parse_rules

    rules = parse_rules(spec)
    print(f"machine: {os.cpu_count()} cores, numba {numba.__version__}, "
          f"{numba.get_num_threads()} threads; rules {rules.spec}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    compare(rules, runs)
    if cold:
        _compile_figure(spec)
    with tempfile.TemporaryDirectory() as tables:
        cmd = [sys.executable, "-m", "yatzy", "solve", "--rules", spec, "--force",
               "--tables", tables]
        _wall(cmd)                                            # warm the compile cache
        walls, peaks = zip(*(_wall(cmd) for _ in range(runs)))
        print(f"`yatzy solve --force` wall: median {statistics.median(walls):.3f} s; "
              f"peak memory {max(peaks)} MB")
        _advice_figures(rules, tables, runs)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def compare(rules, runs: int) -> None:
    """The C reference, the in-process solve and `yatzy solve --force`,
    interleaved, ``runs`` rounds; medians and ratios."""
    import numba

    from yatzy.tables.build import solve

    threads = numba.get_num_threads()
    solve(rules)                                              # load the kernels
    ours, procs, refs, ref_walls = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_reference(tmp) if rules.spec == "nordic" else None
        if exe is None:
            print("reference: not run (" + ("gcc not found" if rules.spec == "nordic"
                                            else "it solves nordic only") + ")")
        cmd = [sys.executable, "-m", "yatzy", "solve", "--rules", rules.spec, "--force",
               "--tables", tmp]
        _wall(cmd)                                            # the table folder, the cache
        one, ref_one = [], []                                 # one thread, CPU seconds
        for _ in range(runs):
            if exe is not None:
                value, seconds, wall, _ = run_reference(exe)
                refs.append(seconds)
                ref_walls.append(wall)
            solution = solve(rules)
            ours.append(solution.seconds)
            procs.append(_wall(cmd)[0])
            if exe is not None:
                ref_one.append(run_reference(exe, threads=1)[3])
                numba.set_num_threads(1)
                start = time.process_time()
                solve(rules)
                one.append(time.process_time() - start)
                numba.set_num_threads(threads)
    med = statistics.median
    print(f"solve in process (engine.solve): median {med(ours):.3f} s "
          f"(min {min(ours):.3f}, max {max(ours):.3f}, {runs} runs)")
    print(f"`yatzy solve --force` as a whole process: median {med(procs):.3f} s "
          f"(min {min(procs):.3f}, max {max(procs):.3f})")
    if refs:
        diff = abs(value - solution.expected_score)
        print(f"reference (C, float64, OpenMP, {os.cpu_count()} cores): solve median "
              f"{med(refs):.3f} s (min {min(refs):.3f}, max {max(refs):.3f}), whole process "
              f"median {med(ref_walls):.3f} s; value {value:.9f}, ours "
              f"{solution.expected_score:.9f} (differ by {diff:.1e}"
              f"{'' if diff <= 1e-6 else ': MORE THAN 1e-6'})")
        print(f"ratio in process / reference solve: {med(ours) / med(refs):.2f} "
              f"(round by round: {', '.join(f'{a / b:.2f}' for a, b in zip(ours, refs))})")
        print(f"one thread, CPU time: ours median {med(one):.3f} s, reference (OMP_NUM_THREADS=1, "
              f"whole process) {med(ref_one):.3f} s, ratio {med(one) / med(ref_one):.2f} "
              f"(round by round: {', '.join(f'{a / b:.2f}' for a, b in zip(one, ref_one))})")
        print(f"ratio `yatzy solve --force` / reference process: "
              f"{med(procs) / med(ref_walls):.2f} (round by round: "
              f"{', '.join(f'{a / b:.2f}' for a, b in zip(procs, ref_walls))})")


def _compile_figure(spec: str) -> None:
    with tempfile.TemporaryDirectory() as cache:
        code = ("import time; from yatzy.rules.ruleset import parse_rules; from yatzy.tables.build import solve;"
                f"r = parse_rules({spec!r}); r.scores; t = time.perf_counter(); solve(r);"
                "a = time.perf_counter() - t; t = time.perf_counter(); solve(r);"
                "print(a, time.perf_counter() - t)")
        cold, warm = map(float, _child(code, {"NUMBA_CACHE_DIR": cache}).split())
    print(f"compile (cold cache, once): {cold - warm:.2f} s")


def _advice_figures(rules, tables: str, runs: int) -> None:
    from yatzy.players.strategy import advise
    from yatzy.position.scorecard import Scorecard
    from yatzy.tables.build import compiled_keep_values as keep_values
    from yatzy.tables.store import open_table

    spec = rules.spec
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

    cmd = [sys.executable, "-m", "yatzy", "advise", "--rules", spec, "--dice",
           ",".join(map(str, hands[3])), "--rerolls", str(rules.rolls - 1), "--tables", tables]
    walls = [_wall(cmd)[0] for _ in range(runs)]
    print(f"`yatzy advise` end to end: median {statistics.median(walls):.3f} s")


if __name__ == "__main__":
    main()
