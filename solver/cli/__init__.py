"""The ``yatzy`` command line: parses options, calls the library
(``yatzy.api``) and prints.

``options`` holds what the commands share (the group whose errors are one
line, option types, progress on stderr); ``core`` the commands solve, ev,
advise and rules; ``research`` distribution, compare, simulate, review,
export, strategy and bounds; ``play`` the coach for a game at the table;
``train`` puzzles and the rating; ``tables`` the stored tables; ``where``
every place the program writes; ``history`` the finished games' best scores.

A command's module is imported when that command runs (or the help lists
it), so ``yatzy solve`` does not load the coach, the trainer or the server.
"""

from __future__ import annotations

import importlib

import click

from yatzy.cli.options import Group
from yatzy.version import __version__

COMMAND_MODULES = {
    **dict.fromkeys(("solve", "ev", "advise", "rules"), "core"),
    **dict.fromkeys(("distribution", "compare", "simulate", "review", "export", "strategy",
                     "bounds"),
                    "research"),
    "play": "play", "train": "train", "serve": "serve", "match": "match",
    "tables": "tables", "where": "where", "history": "history",
}
"""Each command's module in ``yatzy.cli`` (its ``COMMANDS``)."""


class LazyGroup(Group):
    """``Group`` whose commands are imported from ``COMMAND_MODULES`` when needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMAND_MODULES, *self.commands})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMAND_MODULES:
            module = importlib.import_module(f"yatzy.cli.{COMMAND_MODULES[name]}")
            for command in module.COMMANDS:
                self.add_command(command)
        return self.commands.get(name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", message="yatzy %(version)s")
def main() -> None:
    """Exact optimal strategy for Nordic Yatzy and its variants."""


__all__ = ["main"]
