"""Research commands of ``yatzy``: distribution, compare, simulate, review,
export, strategy, bounds.  The choices (exact or estimated, how games are played)
are the library's (``yatzy.api``); modules with Numba kernels are imported
only there, when needed."""

from __future__ import annotations

import json
import sys
from dataclasses import replace

import click

from yatzy.studies import DEFAULT_GAMES, POLICIES, announce_distribution_compile
from yatzy.api import compare as compare_all
from yatzy.cli.options import (
    GAMES,
    THETA,
    Choice,
    Whole,
    at_least_option,
    card_option,
    check_plot,
    json_option,
    open_solver,
    out_option,
    pct,
    plot_option,
    policy_option,
    rules_option,
    seed_option,
    tables_option,
    theta_option,
)
from yatzy.position.actions import EXACT, LOWER_BOUND_NOTE
from yatzy.research.export import (
    FORMATS, MAX_ROWS, check_format, estimated_size, write_strategy,
)
from yatzy.research.plots import plot_comparison, plot_distribution, plot_simulation
from yatzy.research.review import read_log
from yatzy.research.stats import PERCENTILES
from yatzy.rules.words import message
from yatzy.tables import announce
from yatzy.tables.plan import describe_bytes, describe_seconds, estimate


# ----------------------------------------------------------------- distribution
def distribution_seconds(solver, card, policy: str, games: int | None, start: bool = True):
    """The exact distribution's forward pass from ``card`` as a plan
    (``tables.announce.distribution_plan``) and its seconds on this machine now
    (the geometric mean of the reference time over this process's share of
    a core and over the machine's free cores; ``start``: with the time a
    process's first pass spends before it, ``DISTRIBUTION_START``);
    ``(None, 0.0)`` where there is no pass (an estimate from games, rules
    or a policy without one, a full card)."""
    if games is not None or not solver.rules.play.exact or not solver.is_exact(policy):
        return None, 0.0
    card = solver.card(card)
    if card.is_full:
        return None, 0.0
    plan = announce.distribution_plan(solver.rules, card.mask)
    # between the two: a core's share alone said 2.1 times too little at load 4.6
    # beside un-niced work; the machine's free cores alone 2-3 times too much at
    # load 4-8 of niced work (docs/speed.md)
    if start:
        plan = replace(plan, seconds=plan.seconds + announce.DISTRIBUTION_START)
    return plan, (estimate(plan) * plan.seconds / announce.busy_share()) ** 0.5


def announce_distribution(solver, card, policy: str, games: int | None) -> None:
    """Say (one line ``warning: computing the ...`` on stderr) what the exact
    distribution computes, in how much memory and about how long on this
    machine now (``distribution_seconds``), when that is over
    ``tables.announce.ANNOUNCE_SECONDS``."""
    plan, seconds = distribution_seconds(solver, card, policy, games)
    if plan is not None:
        solver.solve()                       # the value table first (said as it comes)
        announce_distribution_compile()      # then the compile: in the order they come
    if seconds > announce.ANNOUNCE_SECONDS:
        click.echo(message("warning", "en", text=f"computing the "
                           f"{replace(plan, seconds=seconds)}"), err=True)


def announce_comparison(solvers, policies: tuple[str, ...], card: str,
                        thetas: tuple[float, ...]) -> None:
    """Say (one line ``warning: computing ...``) how many exact
    distributions ``compare`` computes and about how long they take
    together on this machine now, when that is over
    ``tables.announce.ANNOUNCE_SECONDS`` (each as ``distribution_seconds``,
    the process's start counted once; a risk parameter's pass as the
    optimal one's)."""
    pairs = [(s, p) for s in solvers
             for p in (*(policies or ("optimal",)), *("optimal" for _ in thetas))]
    passes = [distribution_seconds(s, card, p, None, start=i == 0)
              for i, (s, p) in enumerate(pairs)]
    passes = [(p, t) for p, t in passes if p is not None]
    if passes:
        for s in solvers:
            s.solve()                        # the value tables first (said as they come)
        announce_distribution_compile()      # then the compile: in the order they come
    seconds = sum(t for _, t in passes)
    if seconds > announce.ANNOUNCE_SECONDS:
        what = ", ".join(sorted({p.what.split(" over ")[0].split(" of ")[1] for p, _ in passes}))
        click.echo(message("warning", "en", text=f"computing {len(passes)} exact "
                           f"distributions ({what}), nothing stored, about "
                           f"{describe_seconds(seconds)}"), err=True)


@click.command()
@rules_option
@tables_option
@card_option
@policy_option
@at_least_option()
@json_option
@plot_option("Draw the distribution (needs matplotlib).")
@click.option("--games", type=GAMES, default=None, metavar="N",
              help="Rules without an exact distribution (saved rolls, Maxi): "
                   f"estimate it from N optimal games [default: {DEFAULT_GAMES}].")
@seed_option("Random seed of an estimate.")
@theta_option
def distribution(rules_spec: str, tables_dir: str | None, card: str, policy: str,
                 at_least: tuple[int, ...], as_json: bool, plot: str | None,
                 games: int | None, seed: int, theta: float) -> None:
    """Exact probability of every final score under a policy (default optimal);
    estimated from played games where the exact one is out of reach."""
    solver = open_solver(rules_spec, tables_dir, theta)
    rules = solver.rules
    solver.is_exact(policy)                  # the rules and policy go together
    check_plot(plot)
    announce_distribution(solver, card, policy, games)
    dist = solver.distribution(card, policy, games, seed)
    if plot:
        plot_distribution(dist, plot)
    if as_json:
        click.echo(json.dumps(dist.as_dict(at_least)))
        return
    risk = f" (theta {theta:g})" if theta else ""
    click.echo(f"rules         {rules.spec}, policy {policy}{risk}, "
               f"card {str(dist.card) or '(new game)'}")
    if dist.games:
        lo, hi = dist.ci95
        click.echo(f"estimated     from {dist.games} games (seed {seed}); the exact distribution "
                   "is not computed for these rules")
        ref = "table" if rules.play.exact else "columns one by one"
        click.echo(f"mean          {dist.mean:.4f}  (95% CI {lo:.4f} .. {hi:.4f}; "
                   f"{ref} {dist.table_value:.6f})")
    else:
        line = f"mean          {dist.mean:.6f}"
        if dist.table_value is not None:
            line += (f"  (table {dist.table_value:.6f}, "
                     f"difference {dist.mean - dist.table_value:.1e})")
        click.echo(line)
    click.echo(f"sd            {dist.sd:.3f}")
    click.echo("percentiles   " + "  ".join(f"{q}%:{dist.percentile(q)}" for q in PERCENTILES))
    click.echo(f"bonus         {pct(dist.bonus_probability)}")
    if rules.yahtzee_bonus:
        click.echo(f"yahtzee bonus {dist.yahtzee_bonus_mean:.3f} points on average")
    for t in at_least:
        click.echo(f"P(>= {t:<3})     {dist.at_least(t):.6f}")
    click.echo(f"{'box':<18}{'mean':>8}{'non-zero':>10}")
    for i, b in enumerate(rules.boxes):
        click.echo(f"{b.name:<18}{dist.box_mean[i]:>8.3f}{pct(dist.box_nonzero[i]):>10}")
    click.echo(f"seconds       {dist.seconds:.2f}")
    if plot:
        click.echo(f"plot written to {plot}")


# -------------------------------------------------------------------- compare
@click.command()
@click.option("--rules", "specs", multiple=True, metavar="SPEC",
              help="Rules to compare (repeat the option) [default: nordic].")
@click.option("--policy", "policies", type=Choice(POLICIES),
              multiple=True, metavar="NAME",
              help="Policies to compare (repeat the option): optimal | greedy | simple "
                   "[default: optimal].")
@tables_option
@card_option
@at_least_option("Also compare P(final score >= T); may be repeated.")
@click.option("--games", type=GAMES, default=DEFAULT_GAMES, show_default=True, metavar="N",
              help="Games an estimated distribution is played from (saved rolls, Maxi).")
@seed_option("Random seed of an estimate.")
@click.option("--theta", "thetas", type=THETA, multiple=True,
              metavar="θ", help="Also play each rule set optimally for the expected utility "
                                "-exp(-θx)/θ (repeat the option; θ > 0 cautious, θ < 0 bold).")
@json_option
@plot_option("Draw the distributions together (needs matplotlib).")
def compare(specs: tuple[str, ...], policies: tuple[str, ...], tables_dir: str | None,
            card: str, at_least: tuple[int, ...], games: int, seed: int,
            thetas: tuple[float, ...], as_json: bool, plot: str | None) -> None:
    """Final-score distributions of rule sets, policies and risk parameters
    side by side."""
    solvers = [open_solver(spec, tables_dir) for spec in specs or ("nordic",)]
    for solver in solvers:                   # a bad card fails before the plot is checked
        solver.card(card)
        for policy in policies:
            solver.is_exact(policy)          # the rules and policies go together
    check_plot(plot)
    announce_comparison(solvers, policies, card, thetas)
    result = compare_all(solvers, policies, card, thetas=thetas, games=games, seed=seed)
    dists = result.items
    if plot:
        plot_comparison(dists, plot)
    if as_json:
        click.echo(json.dumps(result.as_dict(at_least)))
        return
    width = max(len(d.rules.spec) for d in dists) + 2
    head = (f"{'rules':<{width}}{'policy':<13}{'mean':>10}{'sd':>8}{'P5':>6}{'P50':>6}"
            f"{'P95':>6}{'bonus':>9}{'vs 1st':>9}"
            + "".join(f"{'>=' + str(t):>10}" for t in at_least))
    click.echo(head)
    for d, (win, tie, _) in zip(dists, result.versus):
        mean = f"{d.mean:.2f}" + ("*" if d.games else "")
        label = f"theta={d.theta:g}" if d.theta else d.policy
        click.echo(f"{d.rules.spec:<{width}}{label:<13}{mean:>10}{d.sd:>8.2f}"
                   f"{d.percentile(5):>6}{d.percentile(50):>6}{d.percentile(95):>6}"
                   f"{pct(d.bonus_probability):>9}{pct(win + tie / 2):>9}"
                   + "".join(f"{d.at_least(t):>10.4f}" for t in at_least))
    click.echo("vs 1st: the chance to outscore the first line's play in a head-to-head game "
               "(independent dice; a tie counts half)")
    if any(d.games for d in dists):
        click.echo(f"* estimated from {games} optimal games (seed {seed}); the others are exact")
    if plot:
        click.echo(f"plot written to {plot}")


# ------------------------------------------------------------------- simulate
@click.command()
@rules_option
@tables_option
@click.option("--games", type=GAMES, required=True, metavar="N",
              help="Number of games to play.")
@seed_option()
@policy_option
@click.option("--log", "log_path", metavar="FILE", help="Write every turn as JSON lines.")
@theta_option
@json_option
@plot_option("Histogram over the exact distribution (needs matplotlib).")
def simulate(rules_spec: str, tables_dir: str | None, games: int, seed: int, policy: str,
             log_path: str | None, theta: float, as_json: bool, plot: str | None) -> None:
    """Play games by Monte Carlo under a policy; seeded and reproducible."""
    solver = open_solver(rules_spec, tables_dir, theta)
    check_plot(plot)
    sim = solver.simulate(games, seed, policy, log=log_path)
    if plot:                         # over the exact distribution where there is one
        exact = solver.distribution(policy=policy) if solver.is_exact() else None
        plot_simulation(sim, exact, plot)
    if as_json:
        click.echo(json.dumps(sim.as_dict()))
        return
    lo, hi = sim.ci95
    risk = f" (theta {theta:g})" if theta else ""
    click.echo(f"rules         {solver.rules.spec}, policy {policy}{risk}, seed {seed}")
    click.echo(f"games         {games}")
    click.echo(f"mean          {sim.mean:.4f}  (95% CI {lo:.4f} .. {hi:.4f})")
    click.echo(f"sd            {sim.sd:.3f}")
    click.echo("percentiles   " + "  ".join(f"{q}%:{sim.percentile(q)}" for q in PERCENTILES))
    click.echo(f"bonus         {pct(sim.bonus_games / games)}")
    click.echo(f"seconds       {sim.seconds:.2f}  ({games / sim.seconds:,.0f} games/s)")
    if log_path:
        click.echo(f"log           {log_path}")
    if plot:
        click.echo(f"plot written to {plot}")


# --------------------------------------------------------------------- review
@click.command()
@click.argument("log_file", metavar="FILE")
@click.option("--rules", "rules_spec", default=None, metavar="SPEC",
              help="Rules of the log when it has no header [default: nordic].")
@tables_option
@json_option
def review(log_file: str, rules_spec: str | None, tables_dir: str | None,
           as_json: bool) -> None:
    """Value every decision of a game log against the optimal strategy."""
    rules, games = read_log(log_file, rules_spec)
    result = open_solver(rules, tables_dir).review(games)
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    game = None
    width = 2 * rules.dice + 1                  # the dice column
    head = "expected" if result.values == EXACT else "bound"   # several columns: lower bounds
    for d in result.decisions:
        if d.game != game:
            game = d.game
            click.echo(f"game {game}")
            click.echo(f"{'turn':>5}{'roll':>5}  {'dice':<{width}}{'chosen':<26}{head:>10}  "
                       f"{'best':<26}{head:>10}{'loss':>9}")
        dice = " ".join(map(str, d.dice))
        loss = f"{d.loss:.4f}" if d.loss else "best"
        click.echo(f"{d.turn:>5}{d.roll:>5}  {dice:<{width}}{d.chosen:<26}{d.chosen_value:>10.3f}  "
                   f"{d.best:<26}{d.best_value:>10.3f}{loss:>9}")
    click.echo(f"scores        {' '.join(map(str, result.scores))}")
    click.echo(f"decisions     {len(result.decisions)}")
    click.echo(f"total loss    {result.total_loss:.4f}")
    click.echo(f"mean loss     {result.mean_loss:.4f} per decision (below 0.2 is very good)")
    if result.values != EXACT:
        click.echo(f"values        {LOWER_BOUND_NOTE}")
    for d in result.costliest():
        if d.loss > 0:
            click.echo(f"costly        game {d.game} turn {d.turn} roll {d.roll} (line {d.line}): "
                       f"{d.chosen} instead of {d.best}, loss {d.loss:.4f}")


# --------------------------------------------------------------------- export
BIG_EXPORT = 20 << 20       # an export at least this big says its size first


@click.command()
@rules_option
@tables_option
@click.option("--format", "fmt", type=Choice(FORMATS), required=True, metavar="FORMAT",
              help=" | ".join(FORMATS))
@out_option
@click.option("--max-bank", type=Whole(0), default=None, metavar="N",
              help="With saved rolls: only states with at most N rolls banked.")
def export(rules_spec: str, tables_dir: str | None, fmt: str, out: str | None,
           max_bank: int | None) -> None:
    """Expected remaining and final score of every reachable turn-start state."""

    check_format(fmt, out)                     # a missing pyarrow: before anything is said
    solver = open_solver(rules_spec, tables_dir)
    rows, size = estimated_size(solver.rules, fmt, max_bank)
    exportable = not solver.rules.play.refuse("one table")    # else refused in one line below
    if exportable and size >= BIG_EXPORT and rows <= MAX_ROWS:
        click.echo(f"exporting {rows:,} states as {fmt}: about {describe_bytes(size)}"
                   + ("" if fmt == "parquet" else " (parquet: about "
                      f"{describe_bytes(estimated_size(solver.rules, 'parquet', max_bank)[1])})"),
                   err=True)
    n = solver.export(fmt, out or sys.stdout, max_bank)
    if out:
        click.echo(f"{n} states written to {out}", err=True)


@click.command()
@rules_option
@tables_option
@card_option
@out_option
def strategy(rules_spec: str, tables_dir: str | None, card: str, out: str | None) -> None:
    """The best action for every roll and rerolls left, as CSV."""
    write_strategy(open_solver(rules_spec, tables_dir).strategy(card), out, sys.stdout)


# --------------------------------------------------------------------- bounds
@click.command()
@rules_option
@tables_option
@click.option("--versus", type=Choice(("optimal",)), default=None, metavar="optimal",
              help="Two players: the chance of beating an expected-score opponent.")
@click.option("--games", type=GAMES, default=None, metavar="N",
              help="Several columns: measure the strategy over N games now (else the "
                   "stored run).")
@seed_option("Random seed of the games measured (--games).")
@json_option
def bounds(rules_spec: str, tables_dir: str | None, versus: str | None, games: int | None,
           seed: int, as_json: bool) -> None:
    """What is known of a rule set's value: exact, or bracketed by a proven
    lower and upper bound (each rounded outward: an upper bound up, a lower
    bound down), with a measured estimate and its interval between them."""
    import time

    start = time.perf_counter()
    solver = open_solver(rules_spec, tables_dir)
    rules = solver.rules
    if versus:
        if not rules.play.exact:
            raise click.UsageError("--versus optimal is for one-column rules")
        if games is not None:
            raise click.UsageError("--games measures the strategy of several columns")
        figures = win_bracket(solver)
    elif not rules.play.exact:
        figures = columns_bracket(solver, tables_dir, games, seed)
    else:
        if games is not None:
            raise click.UsageError("--games measures the strategy of several columns")
        from yatzy.research import brackets
        figures = brackets.exact_figures(rules, solver.ev())
    figures = replace(figures, seconds=time.perf_counter() - start)   # builds included
    if as_json:
        click.echo(json.dumps(figures.as_dict()))
    else:
        print_bracket(figures.as_dict(), bool(versus))


def win_bracket(solver):
    """``brackets.win_figures`` of ``solver``'s rules (the exact
    distribution and the target table, each built first where missing)."""
    from yatzy.research import brackets

    dist = solver.distribution()
    target, empty = solver.target(), solver.card("")
    return brackets.win_figures(solver.rules, dist.pmf, lambda t: target.probability(empty, t))


def columns_bracket(solver, tables_dir: str | None, games: int | None, seed: int):
    """``brackets.columns_figures`` of ``solver``'s rules (several columns):
    the bound from its cache or searched now (said first), the strategy
    measured over ``games`` games now where given."""
    from yatzy.research import brackets
    from yatzy.research.triple_bound import cache_path, cached_bound, check_columns

    rules = solver.rules
    check_columns(rules)
    path = cache_path(rules, tables_dir)
    if not path.is_file() or "bound" not in path.read_text():
        click.echo(f"computing the upper bound of {rules.spec}: several solves of one "
                   f"column over {rules.columns * rules.column_rules.n_boxes} turns "
                   f"(minutes each on one core), cached in {path}", err=True)
    bound = cached_bound(rules, tables_dir, lambda line: click.echo(line, err=True))
    measured = None
    if games is not None:
        sim = solver.simulate(games, seed)
        lo, hi = sim.ci95
        measured = brackets.Run(sim.mean, lo, hi, games,
                                f"yatzy simulate --rules {rules.spec} --games {games} "
                                f"--seed {seed}", "measured now")
    return brackets.columns_figures(rules, solver.ev(), bound, measured)


def print_bracket(d: dict, versus: bool) -> None:
    """The text of ``yatzy bounds``: each figure with what it is; bounds
    as rounded outward (``brackets.outward``), estimates with their interval."""
    from yatzy.research.brackets import outward

    click.echo(f"rules         {d['rules']}")
    if d["exact"] is not None:
        click.echo(f"exact         {d['exact']:.7f}  ({d['upper_method']})")
        click.echo(f"seconds       {d['seconds']:.1f}")
        return
    from decimal import Decimal

    scale, unit = (100.0, " %") if versus else (1.0, "")

    def shown(value: float, side: str) -> str:      # a chance as a percentage
        text = outward(value, d["digits"], side)
        return (str(Decimal(text).scaleb(2)) if versus else text) + unit
    click.echo(f"upper         {shown(d['upper_bound_unrounded'], 'upper')}  "
               f"[{d['upper_is']}] {d['upper_method']}")
    if versus:
        click.echo(f"upper, ties   {shown(d['upper_bound_ties_half_unrounded'], 'upper')} "
                   f"counting half, {shown(d['upper_bound_ties_won_unrounded'], 'upper')} "
                   "counting as wins [proven]")
    if d["estimate"] is not None:
        lo, hi = d["estimate_interval"]
        places = 3 if versus else 2
        click.echo(f"estimate      {scale * d['estimate']:.{places}f}{unit} (95 % interval "
                   f"{scale * lo:.{places}f}..{scale * hi:.{places}f})  [estimate, not a "
                   f"bound] {d['estimate_method']}")
    if d["lower_bound"] is not None:
        click.echo(f"lower         {shown(d['lower_bound_unrounded'], 'lower')}  "
                   f"[{d['lower_is']}] {d['lower_method']}")
    if "gap" in d:
        click.echo(f"gap           {d['gap']:.2f}  (upper less the estimate: what a strategy "
                   "could still gain over the one measured, at most)")
    if "search" in d:
        click.echo(f"search        {search_line(d['search'])}")
    click.echo(f"seconds       {d['seconds']:.1f}  (the whole command, builds included)")


def search_line(search: dict) -> str:
    """How the bound's search went, in words."""
    slopes = ", ".join(f"{s:+g}" for s, _ in search["tried"])
    below = search["below_at_most"]
    if search["converged"]:
        end = "converged: no linear prices give a lower bound"
    elif below is None:
        end = "too few solves to say how far from the least bound of linear prices"
    else:
        end = (f"not run to convergence: linear prices may give a bound at most "
               f"{below:.4f} lower (convexity of the solves)")
    return (f"{search['slopes_tried']} slopes tried ({slopes}), {search['column_solves']} "
            f"solves of one column; {end}")


COMMANDS = (distribution, compare, simulate, review, export, strategy, bounds)
