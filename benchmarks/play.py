"""Speed of the compiled player (``yatzy.research.games``), which simulates and
estimates distributions for the rules the layer-at-a-time kernels do not
model (saved rolls, Maxi); it plays every rule set, so yahtzee is measured
too.

    python benchmarks/play.py [--rules yahtzee --rules maxi ...] [--games 5000] [--runs 3]

Per rule set: games per second (median of ``runs`` runs, in process, tables
solved beforehand and already read once, compile excluded) and the mean score
against the table's expected score.
"""

from __future__ import annotations

import os
import statistics

import click


@click.command()
@click.option("--rules", "specs", multiple=True,
              default=("yahtzee", "maxi:saved_rolls=false", "maxi:rolls=3", "maxi"),
              show_default=True)
@click.option("--games", default=5000, show_default=True)
@click.option("--runs", default=3, show_default=True)
def main(specs: tuple[str, ...], games: int, runs: int) -> None:
    import numba

    from yatzy.research.games import run_games
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.store import open_table

    print(f"machine: {os.cpu_count()} cores, {numba.get_num_threads()} Numba threads")
    for spec in specs:
        table = open_table(parse_rules(spec), progress=False)
        run_games(table, 200, 99)                      # compile, and page the table in
        sims = [run_games(table, games, seed) for seed in range(runs)]
        rate = statistics.median(games / s.seconds for s in sims)
        each = ", ".join(f"{games / s.seconds:,.0f}" for s in sims)
        lo, hi = sims[-1].ci95
        print(f"{spec:<24} {rate:>8,.0f} games/s  ({each}); mean {sims[-1].mean:.2f} "
              f"(95% CI {lo:.2f} .. {hi:.2f}), table {table.expected_score:.4f}")


if __name__ == "__main__":
    main()
