"""``yatzy where``: every folder and file the program writes on its own,
whether it exists yet, and its size.

    tables        the solved tables (``yatzy.tables.store.default_directory``)
    data          the folder of lasting state (``yatzy.database.data_folder``):
                  ratings.sqlite (``yatzy train``), tables.sqlite (the history of
                  finished games too: ``yatzy play``, ``yatzy history``) and
                  tables-ratings/ (``yatzy serve``'s shared tables and their
                  players' ratings), web-ratings/ (the page's Practice)
    autosaves     ``yatzy-game-*.json`` of ``yatzy play`` in the current folder
    shipped       the Nordic table a wheel carries (``SHIPPED``), read where
                  the tables folder has none
    kernels       the compiled solver (Numba's cache, ``__pycache__`` beside
                  the package's modules: removed with the package)

Files a command writes where it is told (``--out``, ``--plot``, ``--log``,
``--db``) are the user's and not listed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from yatzy.cli.options import json_option
from yatzy.database import data_folder
from yatzy.tables.plan import describe_bytes
from yatzy.tables.store import SHIPPED, default_directory

AUTOSAVES = "yatzy-game-*.json"
DATA_FILES = (("ratings.sqlite", "the ratings of yatzy train"),
              ("tables.sqlite", "yatzy serve's shared tables; the history of finished games"),
              ("tables-ratings", "the ratings of the shared tables' players"),
              ("web-ratings", "the ratings of the page's Practice"))


def size(path: Path) -> int:
    """Bytes of a file, or of every file under a folder (0 if missing)."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for root, _, names in os.walk(path):
        for name in names:
            try:
                total += (Path(root) / name).stat().st_size
            except OSError:
                pass
    return total


def places(tables_dir: str | None = None, here: Path | None = None) -> list[dict]:
    """What ``yatzy where`` lists: one entry per place, with its path,
    whether it exists, its size in bytes and what it holds."""
    import yatzy

    folder = Path(tables_dir) if tables_dir else default_directory()
    data = data_folder()
    here = Path.cwd() if here is None else here
    found = [{"name": "tables", "path": folder, "what": "the solved tables: yatzy tables"},
             {"name": "data", "path": data, "what": "lasting state: $YATZY_DATA"}]
    found += [{"name": name, "path": data / name, "what": what} for name, what in DATA_FILES]
    found += [{"name": "autosave", "path": p, "what": "a game of yatzy play"}
              for p in sorted(here.glob(AUTOSAVES))]
    package = Path(yatzy.__file__).resolve().parent
    found += [{"name": "shipped", "path": p, "what": "a table that came with the package, "
               "removed with it"} for p in sorted(SHIPPED.glob("*.tbl"))]
    found.append({"name": "kernels", "path": package / "kernels" / "__pycache__",
                  "what": "the compiled solver, removed with the package"})
    for place in found:
        place["exists"] = place["path"].exists()
        place["bytes"] = size(place["path"]) if place["exists"] else 0
    return found


@click.command()
@click.option("--tables", "tables_dir", envvar="YATZY_TABLES", default=None, metavar="DIR",
              help="The tables folder to name [env YATZY_TABLES].")
@json_option
def where(tables_dir: str | None, as_json: bool) -> None:
    """Name every folder and file yatzy writes on its own: the tables, the
    ratings and shared-table databases, the autosaves of `yatzy play` in
    this folder, the compiled solver; with their sizes."""
    found = places(tables_dir)
    if as_json:
        click.echo(json.dumps([{**p, "path": str(p["path"])} for p in found]))
        return
    for p in found:
        state = describe_bytes(p["bytes"]) if p["exists"] else "not yet"
        click.echo(f"{p['name']:<15} {state:>10}  {p['path']}  {p['what']}")
    if not any(p["name"] == "autosave" for p in found):
        click.echo(f"{'autosave':<15} {'none':>10}  {Path.cwd() / AUTOSAVES}  "
                   "games of yatzy play, in the folder it ran in")


COMMANDS = [where]
