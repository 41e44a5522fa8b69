"""Speed of Trippel-Yatzy (``--rules triple``): one position's advice in
process (``Solver.advise``, numpy), ``yatzy advise`` end to end (a fresh
process, table present), and the compiled whole-game player
(``yatzy.research.triple_games``, behind ``yatzy simulate``): the strategy
(``optimal``, the slack values), the coupling term on ``H`` (``H + f``), the
plain improvement step (``step``) and ``greedy``.

    python benchmarks/triple.py [--games 20000] [--runs 5]

Medians of ``runs`` runs; the player's games per second exclude compiling
(a first short run loads the kernels and pages the table in).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time

import click


@click.command()
@click.option("--games", default=20000, show_default=True)
@click.option("--runs", default=5, show_default=True)
def main(games: int, runs: int) -> None:
    import numba

    from yatzy import Solver
    from yatzy.position.scorecard import Scorecard

    print(f"machine: {os.cpu_count()} cores, {numba.get_num_threads()} Numba threads")
    solver = Solver("triple")
    table = solver.table
    # positions: the cards of a few played games, turn by turn
    rng = random.Random(1)
    one = table.rules
    positions = []
    for _ in range(4):
        card = Scorecard.empty(solver.rules)
        while not card.is_full:
            dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
            positions.append((card, dice, rng.choice((0, 1, 2))))
            c, b = rng.choice(card.allowed())
            card = card.fill(b, int(one.scores[one.dice_space.roll_index(dice), b]), column=c)
    solver.advise(*positions[0])
    times = []
    for card, dice, rerolls in positions:
        start = time.perf_counter()
        solver.advise(card, dice, rerolls)
        times.append(time.perf_counter() - start)
    print(f"advice in process      median {1e3 * statistics.median(times):.2f} ms, "
          f"90th percentile {1e3 * sorted(times)[int(0.9 * len(times))]:.2f} ms "
          f"({len(times)} positions)")
    ends = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "yatzy", "advise", "--rules", "triple", "--card",
                        "ones@1=3,yatzy@3=50,chance@2=23", "--dice", "11256", "--rerolls", "2"],
                       check=True, capture_output=True)
        ends.append(time.perf_counter() - start)
    print(f"yatzy advise           median {statistics.median(ends):.2f} s end to end "
          f"(runs: {', '.join(f'{t:.2f}' for t in ends)})")
    import numpy as np

    from yatzy.research.triple_games import run_games
    run_games(table, solver.rules, 200, 99)
    from yatzy.players.triple import coupling_of
    step = np.zeros((0, 1 << solver.rules.columns))     # no coupling term: pi_1
    for name, policy, coupling in (("optimal", "optimal", None),
                                   ("H + f", "optimal", coupling_of(solver.rules)),
                                   ("step", "optimal", step), ("greedy", "greedy", None)):
        rates = [games / run_games(table, solver.rules, games, seed, policy, coupling=coupling).seconds
                 for seed in range(runs)]
        print(f"games/s ({name:<7})     median {statistics.median(rates):,.0f} "
              f"(runs: {', '.join(f'{r:,.0f}' for r in rates)})")


if __name__ == "__main__":
    main()
