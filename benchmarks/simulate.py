"""Speed of the simulation by lookup against the layer simulation, and its limits.

    python benchmarks/simulate.py [--rules nordic --rules yahtzee] [--runs 3]
                                  [--games 1000000] [--reference-games 1000000]
                                  [--command-games 10000000]

For each rule set, in one process whose kernels are compiled and whose tables
are stored (built first if missing, the build timed):

* lookup     games/s of ``simulate(..., decisions=...)``: every action looked
             up in the decision table (``yatzy.tables.decisions``), whole games
             played in lockstep groups (``kernels.simulate.play_games``)
* reference  games/s of the layer simulation (actions decided layer by layer,
             ``players.policy.decide``), the code the lookup replaces; the two
             are run interleaved, run for run, and their ratio printed
* same       the reference's games replayed by lookup (same seeds): histogram,
             box sums, bonus count compared bit for bit; and the table's rows
             against ``decide``'s on random states (every roll, every rerolls left)
* limits     random numbers per game and the cost of one (splitmix64), table
             reads per game (cache lines and the bytes in them)

then the whole command ``yatzy simulate --games N`` (nordic, stored tables) as
a fresh process, wall and CPU seconds.  Medians of ``--runs``; wall figures
use every thread Numba has, CPU figures are games per CPU second of the
process (all threads).  The load average is printed beside them: on a shared
machine wall figures mean little without it.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

import click
import numpy as np


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(run):
    """``(result, wall seconds, CPU seconds)`` of ``run()``."""
    w, c = time.perf_counter(), time.process_time()
    out = run()
    return out, time.perf_counter() - w, time.process_time() - c


def same(a, b) -> bool:
    return (np.array_equal(a.hist, b.hist) and np.array_equal(a.box_sum, b.box_sum)
            and np.array_equal(a.box_nonzero, b.box_nonzero) and a.bonus_games == b.bonus_games)


def limits(rules, values, decisions) -> dict:
    """Random numbers and table reads per game, from 20,000 logged games."""
    from yatzy.kernels.dice_stream import seed_states
    from yatzy.research.simulate import simulate

    ds = rules.dice_space
    logs = []
    simulate(rules, values, 20_000, seed=99, decisions=decisions, on_log=logs.append)
    log = logs[0]
    kept = np.where(log.keeps >= 0, ds.size[np.maximum(log.keeps, 0)], 0)
    steps = (log.rolls >= 0)
    fresh = ds.n - np.concatenate([np.zeros(kept.shape[:2] + (1,), dtype=np.int64),
                                   kept[:, :, :-1]], axis=2)
    dice = int((fresh * steps).sum()) / len(log.rolls)
    seed_states(0, 0, 1000)
    n = 5_000_000
    _, _, cpu = timed(lambda: seed_states(0, 0, n))          # one draw a game
    reads = int(steps.sum()) / len(log.rolls)
    return {"draws": dice, "ns_per_draw": cpu / n * 1e9, "steps": reads,
            "turns": rules.n_boxes, "row_bytes": rules.rolls * ds.n_rolls}


def compare_rows(rules, values, decisions, n_masks: int, seed: int = 1) -> tuple[int, int]:
    """Positions compared and positions that differ: the table's rows against
    ``decide``'s for ``n_masks`` random masks a game can reach, every upper
    total they have."""
    from yatzy.players.policy import decide
    from yatzy.tables.decisions import playable

    rng = np.random.default_rng(seed)
    masks = playable(rules)
    masks = rng.choice(masks, min(n_masks, len(masks)), replace=False)
    dec = decide(rules, "optimal", values, masks)
    pos, bad = 0, 0
    for i, m in enumerate(dec.masks):
        ok = dec.lane_row[i] >= 0
        ours = decisions.rows[decisions.index[m][ok]]
        theirs = dec.rows[dec.lane_row[i][ok]]
        pos += ours.size
        bad += int((ours != theirs).sum())
    return pos, bad


def bench(spec: str, runs: int, games: int, ref_games: int, check_masks: int) -> float:
    from yatzy.research.simulate import simulate
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.decisions import decisions_path, open_decisions
    from yatzy.tables.store import open_table

    rules = parse_rules(spec)
    table = open_table(rules, progress=False)
    built = not decisions_path(rules).exists()
    decisions, build_wall, build_cpu = timed(lambda: open_decisions(rules, values=table))
    size = decisions.nbytes / 2**20
    how = (f"built in {build_wall:.1f} s ({build_cpu:.1f} CPU s)" if built else
           f"opened in {build_wall:.2f} s")
    print(f"\n{spec}: decision table {size:.0f} MiB, {len(decisions.rows):,} rows, {how}")
    values = table.values
    simulate(rules, values, 1000, decisions=decisions)          # compile or load the kernels
    simulate(rules, values, 1000)
    new_w, new_c, ref_w, ref_c, identical = [], [], [], [], True
    for i in range(runs):
        ref, w, c = timed(lambda: simulate(rules, values, ref_games, seed=i))
        ref_w.append(ref_games / w)
        ref_c.append(ref_games / c)
        new, w, c = timed(lambda: simulate(rules, values, games, seed=i, decisions=decisions))
        new_w.append(games / w)
        new_c.append(games / c)
        if ref_games != games:
            new = simulate(rules, values, ref_games, seed=i, decisions=decisions)
        identical &= same(ref, new)
    med = statistics.median
    print(f"  lookup     {med(new_w):>12,.0f} games/s wall  {med(new_c):>12,.0f} per CPU s"
          f"   ({games:,} games, {load()})")
    print(f"  reference  {med(ref_w):>12,.0f} games/s wall  {med(ref_c):>12,.0f} per CPU s"
          f"   ({ref_games:,} games, layer by layer)")
    print(f"  ratio      {med(new_w) / med(ref_w):>12.1f}x wall          "
          f"{med(new_c) / med(ref_c):>8.1f}x CPU")
    print(f"  same games {identical} ({runs} seeds x {ref_games:,} games, bit for bit)")
    pos, bad = compare_rows(rules, values, decisions, check_masks)
    print(f"  same rows  {bad == 0} ({pos:,} positions against decide, {bad} differ)")
    lim = limits(rules, values, decisions)
    rng_floor = 1e9 / (lim["draws"] * lim["ns_per_draw"])
    lines = lim["turns"] + lim["steps"]
    print(f"  limits     {lim['draws']:.1f} random numbers a game at {lim['ns_per_draw']:.2f} ns "
          f"(alone: {rng_floor:,.0f} games/s a core); table reads a game: {lim['turns']} index "
          f"entries + {lim['steps']:.1f} action bytes = {lines:.0f} cache lines "
          f"({lines * 64 / 1024:.1f} KiB moved, {4 * lim['turns'] + lim['steps']:.0f} bytes used)"
          f" from a {lim['row_bytes']}-byte row a turn")
    return med(new_w)


def whole_command(games: int, runs: int) -> None:
    """``yatzy simulate --games N`` as fresh processes, one after another
    (the first one also compiles the kernels if Numba's cache lacks them)."""
    print(f"\nyatzy simulate --games {games:,} (nordic, stored tables, a fresh process each)")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "yatzy", "simulate", "--games", str(games)],
                             capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if out.returncode:
            print(f"  failed: {out.stderr.strip()[-300:]}")
            return
        inner = [line.split(None, 1)[1] for line in out.stdout.splitlines()
                 if line.startswith("seconds")]
        print(f"  {wall:5.1f} s wall, {cpu:5.1f} CPU s; simulation {inner[0] if inner else '?'}"
              f"; {load()}")


@click.command()
@click.option("--rules", "specs", multiple=True, default=("nordic", "yahtzee"), show_default=True)
@click.option("--runs", default=3, show_default=True)
@click.option("--games", default=1_000_000, show_default=True, help="Games of a lookup run.")
@click.option("--reference-games", default=1_000_000, show_default=True,
              help="Games of a reference run (and of the bit-for-bit check).")
@click.option("--check-masks", default=2000, show_default=True,
              help="Random masks whose rows are compared with decide's.")
@click.option("--command-games", default=10_000_000, show_default=True,
              help="Games of the whole-command run (0: skip it).")
def main(specs, runs, games, reference_games, check_masks, command_games) -> None:
    import numba

    from yatzy.version import ENGINE_VERSION
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"simulation benchmark: engine {ENGINE_VERSION}, commit {commit or '?'}, "
          f"{os.cpu_count()} CPUs, {numba.get_num_threads()} Numba threads, {load()}")
    for spec in specs:
        bench(spec, runs, games, reference_games, check_masks)
    if command_games:
        whole_command(command_games, runs)


if __name__ == "__main__":
    main()
