"""The core commands of ``yatzy``: solve, ev, advise, rules."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import click

from yatzy.cli.options import (
    Whole,
    card_option,
    json_option,
    objective_options,
    open_solver,
    rules_option,
    tables_option,
    theta_option,
    value_name,
)
from yatzy.errors import InputError
from yatzy.position.scoring import bank_after
from yatzy.players.objectives import Objective, Score, Win
from yatzy.rules.ruleset import KEYS, PRESETS, parse_rules
from yatzy.tables.store import SHIPPED


@click.command()
@rules_option
@tables_option
@click.option("--force", is_flag=True, help="Solve again even if a valid table exists.")
@theta_option
def solve(rules_spec: str, tables_dir: str | None, force: bool, theta: float) -> None:
    """Solve every game state and store the table."""
    solver = open_solver(rules_spec, tables_dir, theta)
    path = solver.path
    before = path.stat().st_mtime_ns if path.exists() else None
    start = time.perf_counter()
    table = solver.solve(force=force)
    seconds = time.perf_counter() - start
    solved = table.header.get("solve_seconds", 0.0)
    fresh = table.path == path and before != path.stat().st_mtime_ns
    path = table.path                   # the tables folder's, or the one the package carries
    click.echo(f"rules           {solver.rules.spec}")
    if theta:
        click.echo(f"theta           {theta:g} (certainty equivalent of the optimal play)")
    click.echo(f"{'certainty eq.' if theta else 'expected score'}  {table.expected_score:.7f}")
    if fresh:
        compiled = table.header.get("compile_seconds", 0.0)
        note = f"solve {solved:.2f}, compile or load kernels {compiled:.2f}, rest start-up and writing"
    else:
        note = f"table found; it took {solved:.2f} to solve"
        if path.parent == SHIPPED:
            note = f"the table that came with the package; it took {solved:.2f} to solve"
    click.echo(f"seconds         {seconds:.2f} ({note})")
    click.echo(f"table           {path}")


@click.command()
@rules_option
@tables_option
@card_option
@objective_options(with_opponents=False)
@json_option
def ev(rules_spec: str, tables_dir: str | None, card: str, objective: Objective,
       as_json: bool) -> None:
    """Expected final score at the start of the next turn (with --theta: the
    certainty equivalent of the final score under that risk; with --target:
    also the largest chance to reach the target)."""
    theta = objective.ev_basis.theta         # Score or Risk: the value table it reads
    solver = open_solver(rules_spec, tables_dir, theta)
    rules = solver.rules
    sc = solver.card(card)
    fields = objective.ev_fields(solver, sc)
    if not rules.play.exact:               # the strategy's value is measured from games
        _ev_columns(solver, sc, as_json)
        return
    value = solver.ev(sc)
    if as_json:
        key = "certainty_equivalent" if theta else "expected_final_score"
        click.echo(json.dumps({key: value, **fields, "current_score": sc.score,
                               "expected_remaining": value - sc.score,
                               "upper_total": sc.upper_total, "card": str(sc),
                               "rules": rules.spec, **({"theta": theta} if theta else {}),
                               **({"bank": sc.bank} if rules.saved_rolls else {}),
                               **_outlook(solver, sc)}))
        return
    click.echo(f"current score         {sc.score}  (upper total {sc.upper_total})")
    if rules.saved_rolls:
        click.echo(f"rolls banked          {sc.bank}")
    if theta:
        click.echo(f"theta                 {theta:g}")
    click.echo(f"{value_name(theta):<22}{value:.4f}")
    for line in objective.ev_lines(sc, fields):
        click.echo(line)


def _outlook(solver, card) -> dict:
    """``bonus_chance`` and each open box's expected points, where the rules
    have explanations (expected score, one column, no saved rolls)."""
    try:
        solver.parts()
    except InputError:
        return {}
    return solver.outlook(card).as_dict()


def _ev_columns(solver, card, as_json: bool) -> None:
    """``ev`` with several columns: the column-by-column value (a lower
    bound) and the strategy's value estimated from played games."""
    from yatzy.research.triple_games import EV_GAMES
    bound = solver.ev(card)
    dist = solver.distribution(card, games=EV_GAMES)
    lo, hi = dist.ci95
    if as_json:
        click.echo(json.dumps({"rules": solver.rules.spec, "card": str(card),
                               "current_score": card.score, "lower_bound": bound,
                               "expected_final_score": dist.mean, "ci95": [lo, hi],
                               "games": dist.games, "seed": 0, "exact": False}))
        return
    weights = ", ".join(map(str, solver.rules.column_weights))
    click.echo(f"current score         {card.score}  (columns count {weights} times)")
    click.echo(f"columns one by one    {bound:.4f}  (exact; a lower bound, the scale of "
               "advise's values)")
    click.echo(f"expected final score  {dist.mean:.4f}  (estimated from {dist.games} games "
               f"of the strategy, 95% CI {lo:.4f} .. {hi:.4f})")


@click.command()
@rules_option
@tables_option
@card_option
@click.option("--dice", required=True, metavar="DICE", help="The dice, e.g. 1,1,2,5,6 or 11256.")
@click.option("--rerolls", required=True, type=Whole(0), metavar="N",
              help="Rerolls left: 2 after the first roll, then 1, then 0 "
                   "(with saved rolls: own and banked together).")
@click.option("--top", type=Whole(1), default=None, metavar="K",
              help="Show only the K best actions.")
@objective_options()
@click.option("--explain", "explained", is_flag=True,
              help="Split each action's loss into exact parts (boxes, bonus) and say why.")
@json_option
def advise(rules_spec: str, tables_dir: str | None, card: str, dice: str, rerolls: int,
           top: int | None, objective: Objective, explained: bool, as_json: bool) -> None:
    """Every action for a position, ranked by expected final score (with
    --theta: by the certainty equivalent under that risk; with --target: by
    the largest chance to reach the target; with --opponent: by the chance
    to win)."""
    solver = open_solver(rules_spec, tables_dir)
    rules = solver.rules
    if explained:
        if objective != Score():
            raise InputError("--explain goes with the expected score only "
                             "(not with --target, --opponent or --theta)")
        _advise_explained(solver, card, dice, rerolls, top, as_json)
        return
    if isinstance(objective, Win):
        _advise_win(solver, card, dice, rerolls, top, objective, as_json)
        return
    advice = solver.advise(card, dice, rerolls, objective)  # the range of rerolls depends on the card
    sc = advice.card
    actions = advice.actions[:top] if top else advice.actions
    if as_json:
        click.echo(json.dumps({"rules": rules.spec, "card": str(sc), "dice": list(advice.dice),
                               "rerolls": rerolls, "current_score": sc.score,
                               **objective.as_dict(),
                               **({"values": advice.values} if not rules.play.exact else {}),
                               "bank_after_stopping": bank_after(rules, rerolls),
                               "actions": [a.as_dict() for a in actions]}))
        return
    left = f"{rerolls} reroll{'s' * (rerolls != 1)} left"
    if rules.saved_rolls:
        left += f" (own and banked; stopping now banks {bank_after(rules, rerolls)})"
    about = objective.describe(advice)
    if not rules.play.exact:
        about += (f", columns count {', '.join(map(str, rules.column_weights))} times: "
                  "ranked by the Trippel strategy, values are lower bounds (yatzy ev estimates "
                  "the strategy's)")
    click.echo(f"dice {' '.join(map(str, advice.dice))}, {left}, score {sc.score}, "
               f"rules {rules.spec}{about}")
    click.echo(str(replace(advice, actions=actions)))


def _advise_explained(solver, card: str, dice: str, rerolls: int, top: int | None,
                      as_json: bool) -> None:
    """``advise --explain``: the advice, each action's loss in exact parts."""
    why = solver.explain(card, dice, rerolls)
    why = why[:top] if top else why
    sc = solver.card(card)
    if as_json:
        click.echo(json.dumps({"rules": solver.rules.spec, "card": str(sc),
                               "dice": list(solver.dice(dice)), "rerolls": rerolls,
                               "current_score": sc.score,
                               "bank_after_stopping": bank_after(solver.rules, rerolls),
                               "actions": [{**e.action.as_dict(), **e.as_dict()} for e in why]}))
        return
    left = f"{rerolls} reroll{'s' * (rerolls != 1)} left"      # the header of plain advise
    click.echo(f"dice {' '.join(map(str, solver.dice(dice)))}, {left}, score {sc.score}, "
               f"rules {solver.rules.spec}")
    for i, e in enumerate(why, 1):
        click.echo(f"{i:>3} {str(e.action):<28} {e.action.expected_final_score:>10.3f}  "
                   f"bonus {100 * e.bonus_chance:5.1f} %  {e.sentence()}"
                   + (f"  {e.sum_text()}" if e.action.loss > 0 else ""))


def _advise_win(solver, card: str, dice: str, rerolls: int, top: int | None, objective: Win,
                as_json: bool) -> None:
    opponents, done = objective.opponents, objective.done      # as typed
    advice = solver.advise(card, dice, rerolls, objective)
    sc = advice.card
    actions = advice.actions[:top] if top else advice.actions
    if as_json:
        click.echo(json.dumps({"rules": solver.rules.spec, "card": str(sc),
                               "dice": list(advice.dice), "rerolls": rerolls,
                               "current_score": sc.score, "opponents": list(opponents),
                               "opponents_done": list(done), "method": advice.method,
                               "tie_exact": advice.tie_exact,
                               "actions": [a.as_dict() for a in actions]}))
        return
    left = f"{rerolls} reroll{'s' * (rerolls != 1)} left"
    ties = "exact" if advice.tie_exact else (
        "upper bound" if advice.method == "exact" else "approximation")
    click.echo(f"dice {' '.join(map(str, advice.dice))}, {left}, score {sc.score}, "
               f"rules {solver.rules.spec}, {len(opponents) + len(done)} opponent(s): ranked by "
               f"the chance to win ({advice.method}; P(tie): {ties})")
    click.echo(str(replace(advice, actions=actions)))


@click.command("rules")
@click.argument("spec", required=False)
def rules_cmd(spec: str | None) -> None:
    """List presets and keys, or describe the rules SPEC resolves to."""
    if spec:
        click.echo(parse_rules(spec).describe())
        return
    click.echo("presets")
    for name, preset in PRESETS.items():
        click.echo(f"  {name:<14} {preset.description}")
    click.echo("keys (PRESET:key=value,...)")
    for name, key in KEYS.items():
        defaults = ", ".join(f"{p} {key.default(p)}" for p in key.presets)
        click.echo(f"  {name:<26} {key.help} [{key.type_name}; default: {defaults}]")


COMMANDS = (solve, ev, advise, rules_cmd)
