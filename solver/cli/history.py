"""``yatzy history``: the games finished at this computer's tables, kept in
the shared tables' file (``yatzy.history``: ``yatzy play`` and ``yatzy
serve`` both write it): each rule set's best scores and every player's
personal best, in the chosen language or as JSON."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from yatzy.cli.options import Choice, json_option
from yatzy.database import reporting
from yatzy.errors import InputError
from yatzy.history import default_path, open_history, overview
from yatzy.rules.ruleset import parse_rules
from yatzy.rules.words import LANGS, message


def read(path: Path, rules: str | None, players: tuple[str, ...]) -> list[dict]:
    """``yatzy.history.overview`` of the file at ``path`` ([] when there is
    none yet: reading makes no file)."""
    if not path.exists():
        return []
    db = open_history(path)
    try:
        with reporting(path):
            return overview(db, rules, list(players) or None)
    finally:
        db.close()


def lines(found: list[dict], lang: str) -> list[str]:
    """The overview as lines of text in ``lang``."""
    out = []
    for r in found:
        out.append(message("history_rules", lang, rules=r["rules"], n=r["games"]))
        out.append("  " + message("history_top_title", lang))
        for place, t in enumerate(r["top"], 1):
            day = time.strftime("%Y-%m-%d", time.localtime(t["at"]))
            out.append(f"    {place}. {t['name']} {t['score']}  {day}")
        if r["players"]:
            out.append("  " + message("history_players_title", lang))
            out += [f"    {p['name']} {p['best']} ("
                    + message("history_games", lang, n=p["games"]) + ")" for p in r["players"]]
    return out


@click.command("history")
@click.option("--rules", "rules_spec", default=None, metavar="SPEC",
              help="Only these rules (PRESET[:key=value,...]) [default: every rule set played].")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="Only this player's best (repeat for several) [default: everyone's].")
@click.option("--file", "path", metavar="FILE", default=None,
              help="The history file [default: tables.sqlite in the data folder, the file "
                   "yatzy serve and yatzy play keep: yatzy where].")
@click.option("--lang", type=Choice(LANGS), default="en", metavar="LANG",
              help="en | nb | sv [default: en].")
@json_option
def history(rules_spec: str | None, players: tuple[str, ...], path: str | None, lang: str,
            as_json: bool) -> None:
    """The finished games' best scores and each player's personal best:
    yatzy history --rules nordic --lang nb."""
    spec = parse_rules(rules_spec).spec if rules_spec else None
    file = Path(path) if path else default_path()
    try:
        found = read(file, spec, players)
    except InputError:
        raise InputError(message("history_unreadable", lang, path=file)) from None
    if as_json:
        click.echo(json.dumps({"file": str(file), "rules": found}))
        return
    if not found:
        click.echo(message("history_none", lang, path=file))
        return
    click.echo("\n".join(lines(found, lang)))


COMMANDS = [history]
