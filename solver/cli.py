"""The ``yatzy`` command line."""

from __future__ import annotations

import functools
import json
import sys
import time

import click

from .errors import InputError, TableError
from .rules import KEYS, PRESETS, parse_rules
from .scorecard import Scorecard
from .tables import open_table, table_path


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def friendly_errors(f):
    """Turn user errors into one line on stderr and exit status 2."""
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except (InputError, TableError) as e:
            _fail(str(e))
    return wrapper


def rules_option(f):
    return click.option("--rules", "rules_spec", default="nordic", show_default=True,
                        metavar="SPEC", help="PRESET[:key=value,...], see `yatzy rules`.")(f)


def tables_option(f):
    return click.option("--tables", "tables_dir", envvar="YATZY_TABLES", default=None,
                        metavar="DIR", help="Where tables are stored [env YATZY_TABLES; "
                        "default tables/].")(f)


def card_option(f):
    return click.option("--card", default="", metavar="CARD",
                        help="Filled boxes as box=points,... (empty: a new game); "
                             "also yahtzee_bonus=N or bank=N where the rules have them.")(f)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Exact optimal strategy for Nordic Yatzy and its variants."""


@main.command()
@rules_option
@tables_option
@click.option("--force", is_flag=True, help="Solve again even if a valid table exists.")
@friendly_errors
def solve(rules_spec: str, tables_dir: str | None, force: bool) -> None:
    """Solve every game state and store the table."""
    rules = parse_rules(rules_spec)
    path = table_path(rules, tables_dir)
    before = path.stat().st_mtime_ns if path.exists() else None
    start = time.perf_counter()
    table = open_table(rules, tables_dir, force=force)
    seconds = time.perf_counter() - start
    solved = table.header.get("solve_seconds", 0.0)
    fresh = before != path.stat().st_mtime_ns
    click.echo(f"rules           {rules.spec}")
    click.echo(f"expected score  {table.expected_score:.7f}")
    if fresh:
        compiled = table.header.get("compile_seconds", 0.0)
        note = f"solve {solved:.2f}, compile or load kernels {compiled:.2f}, rest start-up and writing"
    else:
        note = f"table found; it took {solved:.2f} to solve"
    click.echo(f"seconds         {seconds:.2f} ({note})")
    click.echo(f"table           {path}")


@main.command()
@rules_option
@tables_option
@card_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly_errors
def ev(rules_spec: str, tables_dir: str | None, card: str, as_json: bool) -> None:
    """Expected final score at the start of the next turn."""
    from .query import expected_final_score

    rules = parse_rules(rules_spec)
    sc = Scorecard.parse(card, rules)
    table = open_table(rules, tables_dir)
    value = expected_final_score(table, sc)
    if as_json:
        click.echo(json.dumps({"expected_final_score": value, "current_score": sc.score,
                               "expected_remaining": value - sc.score,
                               "upper_total": sc.upper_total, "card": str(sc),
                               "rules": rules.spec,
                               **({"bank": sc.bank} if rules.saved_rolls else {})}))
        return
    click.echo(f"current score         {sc.score}  (upper total {sc.upper_total})")
    if rules.saved_rolls:
        click.echo(f"rolls banked          {sc.bank}")
    click.echo(f"expected final score  {value:.4f}")


@main.command()
@rules_option
@tables_option
@card_option
@click.option("--dice", required=True, metavar="DICE", help="The dice, e.g. 1,1,2,5,6 or 11256.")
@click.option("--rerolls", required=True, type=int, metavar="N",
              help="Rerolls left: 2 after the first roll, then 1, then 0 "
                   "(with saved rolls: own and banked together).")
@click.option("--top", type=int, default=None, metavar="K", help="Show only the K best actions.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly_errors
def advise(rules_spec: str, tables_dir: str | None, card: str, dice: str, rerolls: int,
           top: int | None, as_json: bool) -> None:
    """Every action for a position, ranked by expected final score."""
    from .query import advise as advise_position
    from .query import bank_after, check_rerolls

    rules = parse_rules(rules_spec)
    sc = Scorecard.parse(card, rules)
    hand = rules.dice_space.parse(dice)
    check_rerolls(rules, rerolls, sc.bank)
    if sc.is_full:
        raise InputError("the card is full: there is nothing left to decide")
    if top is not None and top < 1:
        raise InputError(f"--top {top}: expected a positive number")
    advice = advise_position(open_table(rules, tables_dir), sc, hand, rerolls)
    actions = advice.actions[:top] if top else advice.actions
    if as_json:
        click.echo(json.dumps({"rules": rules.spec, "card": str(sc), "dice": list(hand),
                               "rerolls": rerolls, "current_score": sc.score,
                               "bank_after_stopping": bank_after(rules, rerolls),
                               "actions": [a.as_dict() for a in actions]}))
        return
    left = f"{rerolls} reroll{'s' * (rerolls != 1)} left"
    if rules.saved_rolls:
        left += f" (own and banked; stopping now banks {bank_after(rules, rerolls)})"
    click.echo(f"dice {' '.join(map(str, hand))}, {left}, score {sc.score}, rules {rules.spec}")
    click.echo(f"{'':>3} {'action':<28} {'expected':>10} {'loss':>8}")
    for i, a in enumerate(actions, 1):
        loss = "best" if i == 1 else ("tie" if a.loss == 0 else f"-{a.loss:.3f}")
        click.echo(f"{i:>3} {str(a):<28} {a.expected_final_score:>10.3f} {loss:>8}")


@main.command("rules")
@click.argument("spec", required=False)
@friendly_errors
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

from . import cli_research  # noqa: E402,F401  (registers distribution, simulate, review, export, strategy)
