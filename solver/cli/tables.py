"""``yatzy tables``: the stored tables (rule set, kind, size, age, where),
removed by rule set or kind, and the leftovers of stopped builds cleaned.

The files themselves are read and removed by ``yatzy.tables.store``
(``stored_files``, ``remove_stored``); this module picks and prints.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from yatzy.cli.options import Choice, fail, json_option
from yatzy.rules.ruleset import parse_rules
from yatzy.tables.plan import describe_bytes
from yatzy.tables.store import (
    KINDS,
    StoredFile,
    default_directory,
    remove_stored,
    stale,
    stored_files,
)


def _tables_dir(f):
    return click.option("--tables", "tables_dir", envvar="YATZY_TABLES", default=None,
                        metavar="DIR", help="The tables folder [env YATZY_TABLES; default: "
                        "`yatzy where` names it].")(f)


def _sub_tables_dir(f):
    return click.option("--tables", "tables_dir", default=None, metavar="DIR",
                        help="The tables folder (as `yatzy tables --tables DIR`).")(f)


def _folder(group_folder: Path, tables_dir: str | None) -> Path:
    """The folder a subcommand works in: its own ``--tables``, else the
    group's (``yatzy tables --tables DIR remove ...``, the environment or
    the default)."""
    return Path(tables_dir) if tables_dir else group_folder


def age(seconds: float) -> str:
    """``5 min``, ``3 h``, ``2 days`` (how long ago a file was written).

    >>> age(30), age(600), age(7200), age(3 * 86400)
    ('now', '10 min', '2 h', '3 days')
    """
    if seconds < 60:
        return "now"
    if seconds < 3600:
        return f"{seconds // 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds // 3600:.0f} h"
    return f"{seconds // 86400:.0f} days"


def rule_set(f: StoredFile) -> str:
    """The rule set a file is for: its spec from the table's header, else
    the preset name of the file name."""
    spec = f.rules or f.name
    return spec + (f" θ={f.theta:g}" if f.theta else "")


def as_dict(f: StoredFile) -> dict:
    return {"path": str(f.path), "rules": f.rules or None, "name": f.name,
            "fingerprint": f.fingerprint, "theta": f.theta, "kind": f.kind,
            "bytes": f.size, "modified": f.modified, "leftover": f.leftover}


def show(files: list[StoredFile], folder: Path, verb: str = "") -> None:
    now = time.time()
    for f in files:
        click.echo(f"{verb}{rule_set(f):<28} {f.kind:<10} {describe_bytes(f.size):>10} "
                   f"{age(now - f.modified):>8}  {f.path.name}")
    total = sum(f.size for f in files)
    click.echo(f"{len(files)} file{'s' if len(files) != 1 else ''}, {describe_bytes(total)}"
               f" in {folder}")


@click.group(invoke_without_command=True)
@_tables_dir
@json_option
@click.pass_context
def tables(ctx: click.Context, tables_dir: str | None, as_json: bool) -> None:
    """List the stored tables: rule set, kind, size, age, file (`tables
    remove` and `tables clean` free the space)."""
    ctx.obj = Path(tables_dir) if tables_dir else default_directory()
    if ctx.invoked_subcommand is not None:
        return
    files = stored_files(ctx.obj)
    if as_json:
        click.echo(json.dumps({"folder": str(ctx.obj), "bytes": sum(f.size for f in files),
                               "files": [as_dict(f) for f in files]}))
        return
    click.echo(f"{'rule set':<28} {'kind':<10} {'size':>10} {'age':>8}  file")
    show(files, ctx.obj)


@tables.command()
@click.option("--rules", "rules_specs", multiple=True, metavar="SPEC",
              help="The tables of these rules (every kind and θ); may be repeated.")
@click.option("--kind", "kinds", type=Choice(KINDS), multiple=True, metavar="KIND",
              help=f"The tables of this kind ({' | '.join(KINDS)}); may be repeated.")
@click.option("--all", "everything", is_flag=True,
              help="Everything in the tables folder: every table, saved file and leftover.")
@_sub_tables_dir
@click.pass_obj
def remove(folder: Path, rules_specs: tuple[str, ...], kinds: tuple[str, ...],
           everything: bool, tables_dir: str | None) -> None:
    """Remove stored tables (with their leftovers): those of --rules and
    --kind (both given: those of both), or --all.  A table is solved again
    when it is next needed."""
    if not (rules_specs or kinds or everything):
        fail("name what to remove: --rules SPEC, --kind KIND or --all")
    folder = _folder(folder, tables_dir)
    prints = {parse_rules(spec).fingerprint for spec in rules_specs}
    chosen = [f for f in stored_files(folder)
              if everything or ((not prints or f.fingerprint in prints)
                                and (not kinds or f.table_kind in kinds))]
    removed, kept = remove_stored(chosen)
    show(removed, folder, "removed ")
    for f in kept:
        click.echo(f"kept {f.path.name}: a build of it is running", err=True)


@tables.command()
@_sub_tables_dir
@click.pass_obj
def clean(folder: Path, tables_dir: str | None) -> None:
    """Remove what stopped builds left: unfinished tables (.partial), solve
    locks no build holds (.lock), temporary files of killed writes, stamps
    of removed tables; a build that is running keeps its files."""
    folder = _folder(folder, tables_dir)
    removed, _ = remove_stored([f for f in stored_files(folder) if stale(f)])
    show(removed, folder, "removed ")


COMMANDS = [tables]
