"""``yatzy match``: head-to-head studies of 2 to 6 policies
(``yatzy.research.match``), in process, on a local Dask cluster or on a running one."""

from __future__ import annotations

import json

import click

from yatzy.bounds import MAX_WORKERS
from yatzy.cli.options import (
    GAMES,
    Whole,
    json_option,
    rules_option,
    seed_option,
    tables_option,
)
from yatzy.rules.ruleset import parse_rules


@click.command()
@rules_option
@tables_option
@click.option("--players", required=True, metavar="P1,P2[,...]",
              help="2 to 6 seats' policies: optimal, win, theta=X, greedy, simple.")
@click.option("--games", type=GAMES, required=True, metavar="N", help="Games to play.")
@seed_option("Random seed (same seed, same result, for any number of workers).")
@click.option("--scheduler", metavar="ADDRESS",
              help="A running dask.distributed scheduler (tcp://host:8786) to send the work to.")
@click.option("--workers", type=Whole(0, MAX_WORKERS), default=None, metavar="N",
              help="Play on a local Dask cluster of N processes [default: in this process; "
                   "needs the cluster extra].")
@json_option
def match(rules_spec: str, tables_dir: str | None, players: str, games: int, seed: int,
          scheduler: str | None, workers: int | None, as_json: bool) -> None:
    """Play N games between the seats and print each seat's win rate (95 %
    interval), the ties and the mean scores; seats rotate who moves first."""
    from yatzy.research.match import check_rules, parse_players, run     # (Numba)
    rules = parse_rules(rules_spec)
    check_rules(rules)
    seats = parse_players(players, rules)
    result = run(rules, seats, games, seed, tables=tables_dir, scheduler=scheduler,
                 workers=workers)
    data = result.as_dict()
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(f"rules {rules.spec}, {games} games, seed {seed}, ties {data['ties']} "
               f"({data['ties'] / games:.4%})")
    click.echo(f"{'seat':>4} {'policy':<12} {'wins':>9} {'win rate':>9} {'95% interval':>21} "
               f"{'mean':>9}")
    for i, s in enumerate(data["seats"], 1):
        lo, hi = s["ci95"]
        click.echo(f"{i:>4} {s['policy']:<12} {s['wins']:>9} {s['win_rate']:>9.4%} "
                   f"[{lo:>8.4%}, {hi:>8.4%}] {s['mean']:>9.3f}")


COMMANDS = (match,)
