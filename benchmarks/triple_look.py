"""The look-ahead at the write against the stored strategy, on paired games.

    NUMBA_NUM_THREADS=1 nice -n 19 python benchmarks/triple_look.py --games 4000 --seed 5 \\
        --look 3,20 --look 5,40
    NUMBA_NUM_THREADS=1 nice -n 19 python benchmarks/triple_look.py --games 12000 --seed 15 \\
        --against stored --look 3,20,1

Plays the same ``games`` games (seed ``seed``: the same dice) with the
slack strategy of ``--rules`` (default ``triple``; ``--against stored``: the
stored strategy, its look-ahead included) and with each look-ahead
``m,delta`` on top of it (``players.triple.Valuation.look``), and prints
each one's mean, the paired difference with its 95 % interval, and games
per second of CPU time.
"""

from __future__ import annotations

import time

import click
import numpy as np


@click.command()
@click.option("--rules", "spec", default="triple", show_default=True)
@click.option("--games", default=4000, show_default=True)
@click.option("--seed", default=5, show_default=True)
@click.option("--against", type=click.Choice(["slack", "stored"]), default="slack",
              show_default=True,
              help="pair against the slack plan alone or the stored strategy (its look-ahead too)")
@click.option("--look", "looks", multiple=True, default=(),
              help="m,delta[,feed[,alpha]]: the m best writes within delta points of the best "
                   "(feed 1: the look-ahead's residuals fed to the keeps; alpha: the "
                   "residual counted 1 + alpha times)")
@click.option("--plan", "plans", multiple=True,
              help="cap,rate,per,m,delta: a slack plan min(cap, rate L) in steps of 1/per "
                   "turn with the look-ahead m,delta")
def main(spec: str, games: int, seed: int, against: str, looks: tuple[str, ...],
         plans: tuple[str, ...]) -> None:
    from yatzy import Solver
    from yatzy.players.triple import half_steps, slack_plan, stored_slack, strategy_of
    from yatzy.research.triple_games import run_games

    solver = Solver(spec)
    table, rules = solver.table, solver.rules
    stored = strategy_of(rules)
    base = stored._replace(look=(0, 0.0))     # the slack plan alone

    def play(strategy):
        start = time.process_time()
        scores = run_games(table, rules, games, seed, coupling=strategy).scores
        return scores.astype(np.float64), games / (time.process_time() - start)

    def report(label, strategy):
        got, rate = play(strategy)
        diff = got - ref
        print(f"{label}: mean {got.mean():.2f}, paired {diff.mean():+.2f} "
              f"± {1.96 * diff.std() / games ** 0.5:.2f}, {rate:,.0f} games/s", flush=True)

    ref, rate = play(base if against == "slack" else stored)
    print(f"stored strategy: mean {ref.mean():.2f} ± {1.96 * ref.std() / games ** 0.5:.2f}, "
          f"{rate:,.0f} games/s", flush=True)
    for look in looks:
        m, delta, *feed = look.split(",")
        report(f"look {look}", base._replace(look=(int(m), float(delta), *map(float, feed))))
    for spec_ in plans:
        cap, rate, per, m, delta = (float(x) for x in spec_.split(","))
        per = int(per)
        plan = slack_plan(rules, cap, rate, per)
        slack = stored_slack(rules, int(np.ceil(cap)))
        if per == 2:
            slack = half_steps(slack)
        report(f"plan {spec_}", base._replace(plan=plan, slack=slack, per=per,
                                                look=(int(m), delta)))


if __name__ == "__main__":
    main()
