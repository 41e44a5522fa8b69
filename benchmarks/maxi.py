"""The full Maxi Yatzy solves (never run in CI) and Maxi advice speed.

    python benchmarks/maxi.py [--spec maxi ...] [--tables DIR] [--advice-only]
                              [--reference DIR] [--rounds 4]

For each variant (default: all four) this runs `yatzy solve --rules SPEC
--force` in a child process and prints the expected score, the wall time
and the peak resident memory of that process, and the table size; then the
time of one position's advice in process (median of 20 positions) and of
`yatzy advise` end to end, both with the table present, and for the saved-
rolls variants what a banked roll is worth at a few turn starts.

``--reference`` is a source checkout of the code to compare with (``git
worktree add /tmp/ref COMMIT``): the solve's kernels of both trees then solve
the same 300 masks of each of the three costliest layers, from the same
random layer after them, in child processes that alternate (which goes
first alternating too), ``--rounds`` times; the script prints the medians,
the ratio per layer and weighted by the layers' work, and whether the two
trees' values agree bit for bit.  (A whole second solve would take as long
again.)
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time

import click

from yatzy.space import state_space

SPECS = ["maxi:saved_rolls=false,rolls=3", "maxi:saved_rolls=false", "maxi:rolls=3", "maxi"]

LAYER_SAMPLE = r"""
import hashlib, json, sys, time
import numpy as np
from yatzy.rules.ruleset import parse_rules
from yatzy.space import state_space
from yatzy.kernels.turn import turn_data
from yatzy.kernels.solve import solve_masks
spec, p, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = parse_rules(spec); sp = state_space(rules); d = turn_data(rules)
rng = np.random.default_rng(5)
if rules.saved_rolls:
    nxt = rng.random(sp.layer_shape(p + 1)) * 100
    cur = np.full(sp.layer_shape(p), np.nan)
else:
    nxt = rng.random((1, sp.n_masks, rules.cap + 1)) * 100
    cur = nxt.copy()
layer = sp.layers[p]
sample = layer[::max(1, len(layer) // n)][:n]
solve_masks(d, sample[:2], nxt, cur, 0, 1)             # compiled or loaded first

def timed():
    start = time.perf_counter()
    solve_masks(d, sample, nxt, cur, 0, 1)
    return time.perf_counter() - start

best = min(timed() for _ in range(3))
rows = cur[:, d.rows[sample]] if rules.saved_rolls else cur[:, sample]
print(json.dumps({"seconds": best, "digest": hashlib.sha256(rows.tobytes()).hexdigest()[:16]}))
"""


def layer_ab(spec: str, reference: str, rounds: int) -> None:
    """The three costliest layers of ``spec``, sampled, this tree against
    ``reference``, interleaved (``LAYER_SAMPLE``)."""
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.build import work_units

    rules = parse_rules(spec)
    work = {p: work_units(rules, p) for p in range(rules.n_boxes)}
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = {"new": here, "ref": os.path.abspath(reference)}
    weighted = {"new": 0.0, "ref": 0.0}
    for p in sorted(work, key=work.get, reverse=True)[:3]:
        times, digests = {"new": [], "ref": []}, {}
        for r in range(rounds):
            for name in (["new", "ref"] if r % 2 == 0 else ["ref", "new"]):
                out = subprocess.run([sys.executable, "-c", LAYER_SAMPLE, spec, str(p), "300"],
                                     cwd=trees[name], env={**os.environ, "PYTHONPATH": trees[name]},
                                     capture_output=True, text=True, check=True)
                result = json.loads(out.stdout.strip().splitlines()[-1])
                times[name].append(result["seconds"])
                digests[name] = result["digest"]
        med = {k: statistics.median(v) for k, v in times.items()}
        for k in weighted:
            weighted[k] += med[k] * work[p]
        print(f"{'':<34} layer {p} (300 masks, one thread): new {med['new'] * 1e3:.0f} ms, "
              f"ref {med['ref'] * 1e3:.0f} ms, new/ref {med['new'] / med['ref']:.3f}; values "
              f"{'identical' if digests['new'] == digests['ref'] else 'DIFFER'}", flush=True)
    print(f"{'':<34} weighted by the layers' work: new/ref {weighted['new'] / weighted['ref']:.3f}",
          flush=True)


def _run(cmd: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one child command."""
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    return time.perf_counter() - start, peak


@click.command()
@click.option("--spec", "specs", multiple=True, help="Variants (default: all four Maxi ones).")
@click.option("--tables", "tables_dir", default=None, help="Table directory.")
@click.option("--advice-only", is_flag=True, help="Time advice on existing tables only.")
@click.option("--reference", default=None, help="A source checkout to compare the solve with.")
@click.option("--rounds", default=4, show_default=True, help="Interleaved rounds of --reference.")
def main(specs: tuple[str, ...], tables_dir: str | None, advice_only: bool,
         reference: str | None, rounds: int) -> None:
    import numpy as np

    from yatzy.players.strategy import advise
    from yatzy.position.scorecard import Scorecard
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.store import open_table

    print(f"machine: {os.cpu_count()} cores")
    where = ["--tables", tables_dir] if tables_dir else []
    for spec in specs or SPECS:
        rules = parse_rules(spec)
        if not advice_only:
            wall, peak = _run([sys.executable, "-m", "yatzy", "solve", "--rules", spec,
                               "--force", "--yes", *where])
        table = open_table(rules, tables_dir, solve_missing=False)
        size = table.path.stat().st_size / 2**30
        line = f"{spec:<34} expected {table.expected_score:.7f}  table {size:.2f} GiB"
        if not advice_only:
            line += (f"  solve {table.header['solve_seconds'] / 60:.1f} min"
                     f"  process {wall / 60:.1f} min  peak {peak / 1024:.2f} GiB")
        if table.header.get("dtype") == "float32":
            line += f"  float32 error <= {table.header['max_rounding_error']:.1e}"
        print(line, flush=True)
        if reference:
            layer_ab(spec, reference, rounds)

        rng = np.random.default_rng(1)
        seconds = []
        for _ in range(20):
            filled = rng.permutation(rules.n_boxes)[:rng.integers(0, rules.n_boxes)]
            card = Scorecard.empty(rules)
            for b in filled:
                dice = tuple(sorted(rng.integers(1, 7, rules.dice).tolist()))
                points = int(rules.scores[rules.dice_space.roll_index(dice), b])
                card = card.fill(int(b), points)
            bank = int(rng.integers(0, min(state_space(rules).bank_limit(card.turn), 6) + 1))
            card = Scorecard(rules, card.points, 0, bank)
            dice = tuple(sorted(rng.integers(1, 7, rules.dice).tolist()))
            start = time.perf_counter()
            advise(table, card, dice, rules.rolls - 1 + bank)
            seconds.append(time.perf_counter() - start)
        cmd = [sys.executable, "-m", "yatzy", "advise", "--rules", spec, "--dice", "123456",
               "--rerolls", str(rules.rolls - 1), *where]
        e2e = statistics.median(_run(cmd)[0] for _ in range(3))
        print(f"{'':<34} advice in process {statistics.median(seconds) * 1e3:.1f} ms "
              f"(median of 20 positions, all rerolls)  `yatzy advise` {e2e:.2f} s", flush=True)
        if rules.saved_rolls:
            marks = []
            for turn in (1, 5, 10, 15, 19):
                mask = state_space(rules).full_mask & ~((1 << (rules.n_boxes - turn)) - 1)   # the last boxes
                gains = [table.value(mask, 0, k + 1) - table.value(mask, 0, k)
                         for k in range(min(3, state_space(rules).bank_limit(turn)))]
                marks.append(f"turn {turn + 1}: " + " ".join(f"+{g:.2f}" for g in gains))
            print(f"{'':<34} worth of banked rolls 1, 2, 3 (upper total 0, the last "
                  f"boxes filled): {'; '.join(marks)}", flush=True)


if __name__ == "__main__":
    main()
