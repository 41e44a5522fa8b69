"""Research commands of ``yatzy``: distribution, compare, simulate, review, export,
strategy.

Registered on the ``yatzy`` group when ``solver.cli`` imports this module.
Modules with Numba kernels are imported inside the commands.
"""

from __future__ import annotations

import contextlib
import json
import sys

import click

from .cli import card_option, friendly_errors, main, rules_option, tables_option
from .errors import InputError
from .review import check_supported
from .rules import parse_rules
from .scorecard import Scorecard
from .tables import open_table

POLICIES = ("optimal", "greedy", "simple")


def _policy_option(f):
    return click.option("--policy", default="optimal", show_default=True, metavar="NAME",
                        help="optimal | greedy (best expected points this turn) | simple "
                             "(keep the most common face, score the most points).")(f)


def _whole(text: str, option: str, low: int = 0) -> int:
    """A whole number >= ``low`` from an option value, else InputError."""
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{option} {text!r}: expected a whole number") from None
    if value < low:
        raise InputError(f"{option} {value}: expected at least {low}")
    return value


def _check_policy(policy: str) -> None:
    if policy not in POLICIES:
        raise InputError(f"--policy {policy!r}: expected one of {', '.join(POLICIES)}")


def _check_plot(path: str | None) -> None:
    """Fail now, not after the work, if a plot could not be drawn or written."""
    if path:
        from .export import check_writable
        from .plots import require
        check_writable(path)
        require()


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def _is_exact(rules, policy: str) -> bool:
    """Whether ``yatzy distribution`` computes the exact distribution for
    ``rules`` (else an estimate, offered for the optimal policy only)."""
    _check_policy(policy)
    try:
        check_supported(rules)
    except InputError as e:
        if policy != "optimal":
            raise InputError(f"{e}; an estimate from played games is available for "
                             "--policy optimal") from None
        return False
    return True


def _distribution_of(rules, card: Scorecard, policy: str, tables_dir: str | None, games: int,
                     seed: int):
    """The final-score distribution from ``card`` under ``policy``: exact, or
    estimated from ``games`` optimal games (seed ``seed``)."""
    if card.is_full:
        raise InputError("the card is full: its final score is already known")
    exact = _is_exact(rules, policy)
    table = open_table(rules, tables_dir)
    if exact:
        from .distribution import distribution as compute
        return compute(rules, card, table.values, policy)
    from .play import estimate
    return estimate(table, card, games, seed)


# ----------------------------------------------------------------- distribution
@main.command()
@rules_option
@tables_option
@card_option
@_policy_option
@click.option("--at-least", "at_least", multiple=True, metavar="T",
              help="Also print P(final score >= T); may be repeated.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", metavar="FILE.png", help="Draw the distribution (needs matplotlib).")
@click.option("--games", metavar="N", default=None,
              help="Rules without an exact distribution (saved rolls, Maxi): "
                   "estimate it from N optimal games [default: 20000].")
@click.option("--seed", default="0", show_default=True, metavar="S",
              help="Random seed of an estimate.")
@friendly_errors
def distribution(rules_spec: str, tables_dir: str | None, card: str, policy: str,
                 at_least: tuple[str, ...], as_json: bool, plot: str | None,
                 games: str | None, seed: str) -> None:
    """Exact probability of every final score under a policy (default optimal);
    estimated from played games where the exact one is out of reach."""
    from .stats import PERCENTILES

    rules = parse_rules(rules_spec)
    if games is not None and _is_exact(rules, policy):
        raise InputError(f"--games: rules {rules.spec} have an exact distribution; "
                         "use yatzy simulate to play games")
    n = _whole(games or "20000", "--games", 1)
    s = _whole(seed, "--seed")
    sc = Scorecard.parse(card, rules)
    thresholds = tuple(_whole(t, "--at-least") for t in at_least)
    _check_plot(plot)
    dist = _distribution_of(rules, sc, policy, tables_dir, n, s)
    if plot:
        from .plots import plot_distribution
        plot_distribution(dist, plot)
    if as_json:
        click.echo(json.dumps(dist.as_dict(thresholds)))
        return
    click.echo(f"rules         {rules.spec}, policy {policy}, card {str(sc) or '(new game)'}")
    if dist.games:
        lo, hi = dist.ci95
        click.echo(f"estimated     from {dist.games} games (seed {s}); the exact distribution "
                   "is not computed for these rules")
        click.echo(f"mean          {dist.mean:.4f}  (95% CI {lo:.4f} .. {hi:.4f}; "
                   f"table {dist.table_value:.6f})")
    else:
        line = f"mean          {dist.mean:.6f}"
        if dist.table_value is not None:
            line += (f"  (table {dist.table_value:.6f}, "
                     f"difference {dist.mean - dist.table_value:.1e})")
        click.echo(line)
    click.echo(f"sd            {dist.sd:.3f}")
    click.echo("percentiles   " + "  ".join(f"{q}%:{dist.percentile(q)}" for q in PERCENTILES))
    click.echo(f"bonus         {_pct(dist.bonus_probability)}")
    if rules.yahtzee_bonus:
        click.echo(f"yahtzee bonus {dist.yahtzee_bonus_mean:.3f} points on average")
    for t in thresholds:
        click.echo(f"P(>= {t:<3})     {dist.at_least(t):.6f}")
    click.echo(f"{'box':<18}{'mean':>8}{'non-zero':>10}")
    for i, b in enumerate(rules.boxes):
        click.echo(f"{b.name:<18}{dist.box_mean[i]:>8.3f}{_pct(dist.box_nonzero[i]):>10}")
    click.echo(f"seconds       {dist.seconds:.2f}")
    if plot:
        click.echo(f"plot          {plot}")


# -------------------------------------------------------------------- compare
@main.command()
@click.option("--rules", "specs", multiple=True, metavar="SPEC",
              help="Rules to compare (repeat the option) [default: nordic].")
@click.option("--policy", "policies", multiple=True, metavar="NAME",
              help="Policies to compare (repeat the option): optimal | greedy | simple "
                   "[default: optimal].")
@tables_option
@card_option
@click.option("--at-least", "at_least", multiple=True, metavar="T",
              help="Also compare P(final score >= T); may be repeated.")
@click.option("--games", default="20000", show_default=True, metavar="N",
              help="Games an estimated distribution is played from (saved rolls, Maxi).")
@click.option("--seed", default="0", show_default=True, metavar="S",
              help="Random seed of an estimate.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", metavar="FILE.png", help="Draw the distributions together "
                                                 "(needs matplotlib).")
@friendly_errors
def compare(specs: tuple[str, ...], policies: tuple[str, ...], tables_dir: str | None,
            card: str, at_least: tuple[str, ...], games: str, seed: str, as_json: bool,
            plot: str | None) -> None:
    """Final-score distributions of rule sets and policies side by side."""
    rules_list = [parse_rules(spec) for spec in specs or ("nordic",)]
    policies = policies or ("optimal",)
    cards = [Scorecard.parse(card, rules) for rules in rules_list]
    thresholds = tuple(_whole(t, "--at-least") for t in at_least)
    n = _whole(games, "--games", 1)
    s = _whole(seed, "--seed")
    _check_plot(plot)
    for rules in rules_list:                 # every pair is possible before any work
        for policy in policies:
            _is_exact(rules, policy)
    dists = [_distribution_of(rules, sc, policy, tables_dir, n, s)
             for rules, sc in zip(rules_list, cards) for policy in policies]
    if plot:
        from .plots import plot_comparison
        plot_comparison(dists, plot)
    duels = [d.versus(dists[0]) for d in dists]     # each against the first, head to head
    if as_json:
        items = [{**d.as_dict(thresholds), "versus_first": dict(zip(("win", "tie", "loss"), v))}
                 for d, v in zip(dists, duels)]
        click.echo(json.dumps({"card": card, "items": items}))
        return
    width = max(len(d.rules.spec) for d in dists) + 2
    head = (f"{'rules':<{width}}{'policy':<9}{'mean':>10}{'sd':>8}{'P5':>6}{'P50':>6}"
            f"{'P95':>6}{'bonus':>9}{'vs 1st':>9}"
            + "".join(f"{'>=' + str(t):>10}" for t in thresholds))
    click.echo(head)
    for d, (win, tie, _) in zip(dists, duels):
        mean = f"{d.mean:.2f}" + ("*" if d.games else "")
        click.echo(f"{d.rules.spec:<{width}}{d.policy:<9}{mean:>10}{d.sd:>8.2f}"
                   f"{d.percentile(5):>6}{d.percentile(50):>6}{d.percentile(95):>6}"
                   f"{_pct(d.bonus_probability):>9}{_pct(win + tie / 2):>9}"
                   + "".join(f"{d.at_least(t):>10.4f}" for t in thresholds))
    click.echo("vs 1st: the chance to outscore the first line's play in a head-to-head game "
               "(independent dice; a tie counts half)")
    if any(d.games for d in dists):
        click.echo(f"* estimated from {n} optimal games (seed {s}); the others are exact")
    if plot:
        click.echo(f"plot: {plot}")


# ------------------------------------------------------------------- simulate
@main.command()
@rules_option
@tables_option
@click.option("--games", required=True, metavar="N", help="Number of games to play.")
@click.option("--seed", default="0", show_default=True, metavar="S", help="Random seed.")
@_policy_option
@click.option("--log", "log_path", metavar="FILE", help="Write every turn as JSON lines.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", metavar="FILE.png",
              help="Histogram over the exact distribution (needs matplotlib).")
@friendly_errors
def simulate(rules_spec: str, tables_dir: str | None, games: str, seed: str, policy: str,
             log_path: str | None, as_json: bool, plot: str | None) -> None:
    """Play games by Monte Carlo under a policy; seeded and reproducible."""
    from .stats import PERCENTILES
    from .export import atomic_text
    from .review import header_line, log_lines
    from .simulate import simulate as play

    rules = parse_rules(rules_spec)
    n = _whole(games, "--games", 1)
    s = _whole(seed, "--seed")
    _check_policy(policy)
    _check_plot(plot)
    try:
        check_supported(rules, "the fast simulation")
        fast = True
    except InputError:
        fast = False                 # played one game at a time by solver.play
        if policy != "optimal":
            raise InputError(f"rules {rules.spec}: only --policy optimal is available "
                             "for these rules") from None
    with (atomic_text(log_path) if log_path else contextlib.nullcontext()) as f:
        if f is not None:            # a bad log path fails before any solve
            f.write(header_line(rules, policy=policy, seed=s) + "\n")
        table = open_table(rules, tables_dir) if policy == "optimal" else None
        values = table.values if fast and table is not None else None

        def write(log) -> None:
            for line in log_lines(rules, log.first, log.rolls, log.keeps, log.boxes,
                                  log.points):
                f.write(line + "\n")
        if not fast:
            from .play import play as play_each
            sim = play_each(table, n, s, (lambda line: f.write(line + "\n")) if f else None)
        else:
            sim = play(rules, values, n, s, policy, on_log=write if f else None)
    if plot:                         # over the exact distribution where there is one
        from .distribution import distribution as compute
        from .plots import plot_simulation
        exact = compute(rules, Scorecard.empty(rules), values, policy) if fast else None
        plot_simulation(sim, exact, plot)
    if as_json:
        click.echo(json.dumps(sim.as_dict()))
        return
    lo, hi = sim.ci95
    click.echo(f"rules         {rules.spec}, policy {policy}, seed {s}")
    click.echo(f"games         {n}")
    click.echo(f"mean          {sim.mean:.4f}  (95% CI {lo:.4f} .. {hi:.4f})")
    click.echo(f"sd            {sim.sd:.3f}")
    click.echo("percentiles   " + "  ".join(f"{q}%:{sim.percentile(q)}" for q in PERCENTILES))
    click.echo(f"bonus         {_pct(sim.bonus_games / n)}")
    click.echo(f"seconds       {sim.seconds:.2f}  ({n / sim.seconds:,.0f} games/s)")
    if log_path:
        click.echo(f"log           {log_path}")
    if plot:
        click.echo(f"plot          {plot}")


# --------------------------------------------------------------------- review
@main.command()
@click.argument("log_file", metavar="FILE")
@click.option("--rules", "rules_spec", default=None, metavar="SPEC",
              help="Rules of the log when it has no header [default: nordic].")
@tables_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly_errors
def review(log_file: str, rules_spec: str | None, tables_dir: str | None,
           as_json: bool) -> None:
    """Value every decision of a game log against the optimal strategy."""
    from .review import read_log
    from .review import review as value_games

    rules, games = read_log(log_file, rules_spec)
    result = value_games(open_table(rules, tables_dir), games)
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    game = None
    width = 2 * rules.dice + 1                  # the dice column
    for d in result.decisions:
        if d.game != game:
            game = d.game
            click.echo(f"game {game}")
            click.echo(f"{'turn':>5}{'roll':>5}  {'dice':<{width}}{'chosen':<26}{'expected':>10}  "
                       f"{'best':<26}{'expected':>10}{'loss':>9}")
        dice = " ".join(map(str, d.dice))
        loss = f"{d.loss:.4f}" if d.loss else "-"
        click.echo(f"{d.turn:>5}{d.roll:>5}  {dice:<{width}}{d.chosen:<26}{d.chosen_value:>10.3f}  "
                   f"{d.best:<26}{d.best_value:>10.3f}{loss:>9}")
    click.echo(f"scores        {' '.join(map(str, result.scores))}")
    click.echo(f"decisions     {len(result.decisions)}")
    click.echo(f"total loss    {result.total_loss:.4f}")
    click.echo(f"mean loss     {result.mean_loss:.4f} per decision (below 0.2 is very good)")
    for d in result.costliest():
        if d.loss > 0:
            click.echo(f"costly        game {d.game} turn {d.turn} roll {d.roll} (line {d.line}): "
                       f"{d.chosen} instead of {d.best}, loss {d.loss:.4f}")


# --------------------------------------------------------------------- export
@main.command()
@rules_option
@tables_option
@click.option("--format", "fmt", required=True, metavar="FORMAT", help="csv | parquet | json")
@click.option("--out", metavar="FILE", help="Write here (atomically) instead of stdout.")
@click.option("--max-bank", metavar="N", default=None,
              help="With saved rolls: only states with at most N rolls banked.")
@friendly_errors
def export(rules_spec: str, tables_dir: str | None, fmt: str, out: str | None,
           max_bank: str | None) -> None:
    """Expected remaining and final score of every reachable turn-start state."""
    from .export import check_format, write_states

    rules = parse_rules(rules_spec)
    most = None if max_bank is None else _whole(max_bank, "--max-bank")
    check_format(fmt, out)                   # before any solve
    n = write_states(open_table(rules, tables_dir), fmt, out, sys.stdout, most)
    if out:
        click.echo(f"{n} states written to {out}", err=True)


@main.command()
@rules_option
@tables_option
@card_option
@click.option("--out", metavar="FILE", help="Write here (atomically) instead of stdout.")
@friendly_errors
def strategy(rules_spec: str, tables_dir: str | None, card: str, out: str | None) -> None:
    """The best action for every roll and rerolls left, as CSV."""
    from .export import strategy as best_actions
    from .export import write_strategy

    rules = parse_rules(rules_spec)
    sc = Scorecard.parse(card, rules)
    write_strategy(best_actions(open_table(rules, tables_dir), sc), out, sys.stdout)
