"""The ``win`` policy against 1, 3 and 5 expected-score opponents, and the
latency of one position's win advice (``solver.win``).

    python benchmarks/match.py [--rules nordic] [--games 2000] [--seed 1] [--workers 0]
                               [--tables DIR] [--opponents 1,3,5]

Prints, per number of opponents, the win seat's and each opponent's win
rate with its 95 % interval, the ties, the mean scores and the games per
second; then the median and largest time of ``Solver.advise_win`` over 50
positions of played games (tables opened first; their solve is not timed).
"""

from __future__ import annotations

import statistics
import time

import click


@click.command()
@click.option("--rules", "spec", default="nordic", show_default=True)
@click.option("--games", default=2000, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0))
@click.option("--workers", default=0, show_default=True, type=click.IntRange(0))
@click.option("--tables", default=None)
@click.option("--opponents", default="1,3,5", show_default=True)
def main(spec: str, games: int, seed: int, workers: int, tables: str | None,
         opponents: str) -> None:
    from solver.api import Solver
    from solver.match import parse_players, run
    from solver.rules import parse_rules
    rules = parse_rules(spec)
    solver = Solver(rules, tables=tables)
    for k in (int(x) for x in opponents.split(",")):
        players = parse_players(["win"] + ["optimal"] * k, rules)
        m = run(rules, players, games, seed, tables=tables, workers=workers, chunk_size=1000)
        d = m.as_dict()
        fair = 1 / (k + 1)
        print(f"{spec}: win against {k} expected-score opponent(s), {games} games, "
              f"{games / m.seconds:.1f} games/s, ties {d['ties'] / games:.3%}, "
              f"fair share {fair:.3%}")
        for s in d["seats"]:
            lo, hi = s["ci95"]
            print(f"  {s['policy']:<8} win rate {s['win_rate']:.3%} [{lo:.3%}, {hi:.3%}] "
                  f"(±{(hi - lo) / 2:.3%}), mean {s['mean']:.2f}")
    cards = ["", "ones=3,twos=6", "ones=2,fours=12,one_pair=10,chance=22",
             "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=14"]
    times = []
    for i in range(50):
        card = cards[i % len(cards)] if spec == "nordic" else ""
        start = time.perf_counter()
        solver.advise_win(card, rules.dice_space.dice_tuples[rules.dice_space.first_roll + i],
                          2, [cards[(i + 1) % len(cards)] if spec == "nordic" else ""] * 3)
        times.append(time.perf_counter() - start)
    print(f"advise_win: median {statistics.median(times) * 1000:.1f} ms, "
          f"largest {max(times) * 1000:.1f} ms (50 positions, 3 opponents)")


if __name__ == "__main__":
    main()
