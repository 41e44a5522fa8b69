"""Speed of the Trippel-Yatzy player against an earlier commit's, interleaved.

    NUMBA_NUM_THREADS=1 python benchmarks/triple_ab.py --against COMMIT [--games 4000] [--runs 7]

Writes the Trippel player of ``COMMIT`` (``solver/research/triple_games.py``,
or ``solver/triple_play.py`` before the package was laid out by stage; an
import of the package under its old name ``solver`` read as ``yatzy``) as a
temporary module of the package (removed at the end), then plays the same ``games`` games (seed =
run) with the old player and the new one in turn, ``runs`` times, and prints
the medians of the games per second of CPU time (the process's, so one
thread is the fair comparison on a shared machine) and whether the scores
agree.  Each player is run with the plain improvement step (no coupling
term; a player from before the coupling term plays only that) and with the
default strategy of the rules; the same policy must give the same scores.
"""

from __future__ import annotations

import importlib
import inspect
import re
import statistics
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import click
import numpy as np


PLAYER_PATHS = ("solver/research/triple_games.py", "solver/triple_play.py")


def old_player(commit: str, root: Path) -> str:
    """The text of ``commit``'s Trippel player, with the package's imports
    under the name ``yatzy``."""
    for path in PLAYER_PATHS:
        shown = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=root,
                               capture_output=True, text=True)
        if shown.returncode == 0:
            return re.sub(r"\b(from|import) solver\b", r"\1 yatzy", shown.stdout)
    raise click.UsageError(f"{commit} has no Trippel player at {' or '.join(PLAYER_PATHS)}")


@click.command()
@click.option("--against", required=True, help="the commit whose player is the old one")
@click.option("--games", default=4000, show_default=True)
@click.option("--runs", default=7, show_default=True)
def main(against: str, games: int, runs: int) -> None:
    import numba

    from yatzy import Solver
    from yatzy.research import triple_games as new

    root = Path(new.__file__).parent
    name = f"_triple_ab_{against[:10]}"
    text = old_player(against, root)
    path = root / f"{name}.py"
    path.write_text(text)
    try:
        module = importlib.import_module(f"yatzy.research.{name}")
        old = SimpleNamespace(play=getattr(module, "run_games", None) or module.play)
        solver = Solver("triple")
        table, rules = solver.table, solver.rules
        step = np.zeros((0, 1 << rules.columns))
        label = f"old ({against[:10]})"
        players = {}
        params = inspect.signature(old.play).parameters
        if "coupling" in params or "theta" in params:     # the coupling term was once "theta"
            key = "coupling" if "coupling" in params else "theta"
            players[f"{label}, step"] = lambda seed: old.play(table, rules, games, seed,
                                                              **{key: step})
            players[f"{label}, default"] = lambda seed: old.play(table, rules, games, seed)
        else:
            players[f"{label}, step"] = lambda seed: old.play(table, rules, games, seed)
        players["new, step"] = lambda seed: new.run_games(table, rules, games, seed,
                                                          coupling=step)
        players["new, default"] = lambda seed: new.run_games(table, rules, games, seed)
        for play in players.values():                  # compile, page the table in
            play(99)
        rates = {k: [] for k in players}
        hists = {k: [] for k in players}
        for seed in range(runs):
            for k, play in players.items():
                start = time.process_time()
                hists[k].append(play(seed).hist)
                rates[k].append(games / (time.process_time() - start))
        print(f"{games:,} games x {runs} runs, {numba.get_num_threads()} Numba thread(s); "
              "games per second of CPU time")
        for k, r in rates.items():
            print(f"  {k:<26} median {statistics.median(r):7,.0f}  "
                  f"(runs: {', '.join(f'{x:,.0f}' for x in r)})")
        for policy in ("step", "default"):
            a, b = f"{label}, {policy}", f"new, {policy}"
            if a in hists:
                same = all(np.array_equal(x, y) for x, y in zip(hists[a], hists[b]))
                print(f"  old and new, {policy}: {'the same' if same else 'DIFFERENT'} scores")
    finally:
        path.unlink()


if __name__ == "__main__":
    main()
