"""A first compile's announced time against the real one, where an earlier
command compiled some of the kernels already (or none).

Each case copies the package (``solver/`` as ``yatzy/``, modification times kept, so that
Numba's cache stamps match) to a new temporary folder, where Numba's cache
starts empty; runs the case's earlier commands there as a user would
(``yatzy simulate`` before ``yatzy distribution`` ...); then, in a fresh
process, takes what the notice would say (``announce.compile_seconds`` of the
work's kernels: the reference time times the share left to compile, over
this process's share of a core; the reference time over that share is
what it said before the share was counted), and times the work's first call and a
second one in the same process: the compile is their difference.  Prints
the machine, then per case the load, the share left, the old and the new
announcement, the real compile and the ratios (announced / real).

    python benchmarks/compile_estimates.py [--busy[=N]] [CASE ...]

``--busy``: one CPU-bound process of the same priority beside every case
(``--busy=N``: N of them).
Uses the tables in ``$YATZY_TABLES`` (the nordic value table must be there:
``yatzy solve``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable

# the work a case times, and its kernels (``api``'s, ``store``'s): python in the copy
WORK = {
    "distribution": ("from yatzy.api import Solver; s = Solver('nordic'); s.table",
                     "s.distribution()",
                     "from yatzy.kernels.forward import carry; "
                     "from yatzy.kernels.policy import batch; kernels = (carry, batch)"),
    "simulation": ("from yatzy.api import Solver; s = Solver('nordic'); s.table",
                   "s.simulate(2000, seed=1)",
                   "from yatzy.kernels.policy import batch; "
                   "from yatzy.kernels.simulate import play_turn; kernels = (batch, play_turn)"),
    "solver": ("from yatzy.tables import build; from yatzy.rules.ruleset import parse_rules; "
               "r = parse_rules('nordic')",
               "build.compile_kernels(r)",
               "kernels = build.KERNELS"),
}

# name: (the work, the commands run before it from an empty Numba cache)
CASES = {
    "distribution": ("distribution", []),
    "distribution-after-simulate": ("distribution", [["simulate", "--games", "1000"]]),
    "simulation": ("simulation", []),
    "simulation-after-distribution": ("simulation", [["distribution"]]),
    "solver": ("solver", []),
    "solver-after-distribution": ("solver", [["distribution"]]),
}

MEASURE = """
import json, time, warnings
warnings.simplefilter("ignore")
{setup}
{kernels}
from yatzy.kernels.cache import uncompiled_share
from yatzy.tables import announce, plan
left = uncompiled_share(kernels)
new = announce.compile_seconds({kind!r}, kernels)      # what the notice says
old = plan.calibrated_seconds(announce.COMPILE_SECONDS_OF.get({kind!r}, announce.COMPILE_SECONDS),
                              plan.cpu_share())        # what it said before
share = plan.cpu_share()
t = time.perf_counter(); {work}; first = time.perf_counter() - t
t = time.perf_counter(); {work}; second = time.perf_counter() - t
print(json.dumps(dict(left=left, share=share, new=new, old=old, first=first, second=second)))
"""


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def run_case(name: str) -> dict:
    kind, before = CASES[name]
    setup, work, kernels = WORK[kind]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "solver", Path(tmp) / "yatzy", copy_function=shutil.copy2,
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = dict(os.environ, PYTHONPATH=tmp)
        for command in before:
            subprocess.run([PY, "-m", "yatzy", *command], env=env, cwd=tmp, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        start = load()
        out = subprocess.run([PY, "-c", MEASURE.format(setup=setup, kernels=kernels, work=work,
                                                        kind=kind)],
                             env=env, cwd=tmp, check=True, capture_output=True, text=True)
        result = json.loads(out.stdout.strip().splitlines()[-1])
    result["load"] = f"{start}-{load()}"
    return result


def main(argv: list[str]) -> None:
    busy = max([1 if a == "--busy" else int(a.split("=")[1]) for a in argv
                if a.startswith("--busy")] or [0])
    names = [a for a in argv if not a.startswith("--")] or list(CASES)
    print(f"# {os.uname().nodename}, {os.cpu_count()} cores; python {sys.version.split()[0]}"
          f"{f'; {busy} busy loops beside' if busy else ''}")
    print("| case | load | share left | said before | said now | real compile | before / real "
          "| now / real |")
    print("|---|---|---|---|---|---|---|---|")
    loops = [subprocess.Popen([PY, "-c", "while 1: pass"]) for _ in range(busy)]
    try:
        for name in names:
            r = run_case(name)
            real = max(r["first"] - r["second"], 1e-3)
            said = f"{r['new']:.1f} s" if r["new"] > 2.0 else f"({r['new']:.1f} s, not said)"
            print(f"| {name} | {r['load']} | {r['left']:.2f} | {r['old']:.1f} s | {said} | "
                  f"{real:.1f} s | {r['old'] / real:.2f} | {r['new'] / real:.2f} |", flush=True)
    finally:
        for loop in loops:
            loop.kill()


if __name__ == "__main__":
    main(sys.argv[1:])
