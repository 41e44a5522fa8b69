"""Fits the coupling term of Trippel-Yatzy's strategy (``yatzy.players.triple.COUPLING``)
and prints it as the Python literal stored there.

    python benchmarks/triple_fit.py [--games 100000] [--rounds 2] [--seed 1001]

Round ``k`` plays ``games`` games (seed ``seed + k``) with the term of the
round before (round 0: none, the plain improvement step on ``H``) and fits
``yatzy.research.triple_games.fit_coupling`` to them (LSTD on the features "box b
open in the columns P", ridge 0.01 per game, damped by 0.5): approximate
policy iteration.  Deterministic: the same arguments print the same table.
"""

from __future__ import annotations

import time

import click
import numpy as np


@click.command()
@click.option("--rules", "spec", default="triple", show_default=True)
@click.option("--games", default=100_000, show_default=True)
@click.option("--rounds", default=2, show_default=True)
@click.option("--seed", default=1001, show_default=True)
@click.option("--save", type=click.Path(), default=None,
              help="also save round k's table as SAVE-k.npy")
def main(spec: str, games: int, rounds: int, seed: int, save: str | None) -> None:
    from yatzy import Solver
    from yatzy.research.triple_games import fit_coupling

    solver = Solver(spec)
    coupling = np.zeros((0, 1 << solver.rules.columns))
    for k in range(rounds):
        start = time.perf_counter()
        coupling = fit_coupling(solver.table, solver.rules, games, seed + k, coupling)
        print(f"# round {k + 1}: {games:,} games, seed {seed + k}, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        if save:
            np.save(f"{save}-{k + 1}.npy", coupling)
    print(f"# {spec}: python benchmarks/triple_fit.py --rules {spec} --games {games} "
          f"--rounds {rounds} --seed {seed}")
    print(f'"{solver.rules.fingerprint}": (')
    for row in coupling:
        print("    (" + ", ".join(f"{v:.3f}" for v in row) + "),")
    print("),")


if __name__ == "__main__":
    main()
