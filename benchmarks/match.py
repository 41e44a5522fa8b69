"""The ``win`` policy against 1, 3 and 5 expected-score opponents, and the
latency of one position's win advice (``yatzy.players.win``).

    python benchmarks/match.py [--rules nordic] [--games 2000] [--seed 1] [--workers 0]
                               [--tables DIR] [--opponents 1,3,5]

Prints, per number of opponents, the win seat's and each opponent's win
rate with its 95 % interval, the ties, the mean scores and the games per
second; the compiled win seat's CPU time per game on one thread (median of
three runs); then the median and largest time of ``Solver.advise_win`` over
50 positions early in a game and 50 with two boxes open (the exact solve),
tables opened first (their solve is not timed).
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
    from yatzy.api import Solver
    from yatzy.research.match import parse_players, run
    from yatzy.rules.ruleset import parse_rules
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
    seat_cpu(rules, solver, [int(x) for x in opponents.split(",")])
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
    late_advice(rules, solver)


def seat_cpu(rules, solver, opponents: list[int], games: int = 400) -> None:
    """CPU seconds per game of the compiled win seat on one thread."""
    import numba

    from yatzy.research.match import logged_games
    from yatzy.research.win_seat import play_win_seat
    table, target, futures = solver.table, solver.target(), solver.futures()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        for k in opponents:
            others = [(o, *logged_games(rules, None, "optimal", 0.0, games, 100 + o)[1:])
                      for o in range(1, k + 1)]
            play_win_seat(table, target, futures, 2, 9, 0, 0, others)   # compiled
            runs = []
            for _ in range(3):
                start = time.process_time()
                play_win_seat(table, target, futures, games, 9, 0, 0, others)
                runs.append((time.process_time() - start) / games)
            print(f"win seat vs {k}: {statistics.median(runs) * 1000:.2f} ms CPU per game "
                  f"on one thread (median of 3 x {games} games)")
    finally:
        numba.set_num_threads(threads)


def late_advice(rules, solver) -> None:
    """``advise_win`` with two boxes open (the exact solve), 50 positions."""
    import numpy as np

    from yatzy.position.scorecard import Scorecard
    ds = rules.dice_space
    rng = np.random.default_rng(5)
    times = []
    for i in range(50):
        card = Scorecard.empty(rules)
        for b in rng.permutation(rules.n_boxes)[:rules.n_boxes - 2]:
            card = card.fill(int(b), int(rules.scores[rng.integers(ds.n_rolls), b]))
        opponent = Scorecard.empty(rules).fill(0, 3).fill(1, 6)
        start = time.perf_counter()
        solver.advise_win(card, ds.dice_tuples[ds.first_roll + i], 2, [opponent] * 3)
        times.append(time.perf_counter() - start)
    print(f"advise_win, two boxes open: median {statistics.median(times) * 1000:.1f} ms, "
          f"largest {max(times) * 1000:.1f} ms (50 positions, 3 opponents)")


if __name__ == "__main__":
    main()
