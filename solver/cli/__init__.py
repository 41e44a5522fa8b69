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

SUMMARIES = {
    "advise": "The best move in a position: each action ranked, with its loss",
    "bounds": "What is known of a rule set's value: exact, or bracketed",
    "compare": "Rule sets, policies and risks side by side (with a plot)",
    "distribution": "The exact chance of every final score (with a plot)",
    "ev": "The expected final score of a card",
    "export": "Every reachable state's value, as CSV, JSON or Parquet",
    "history": "The finished games' best scores and personal bests",
    "match": "Head-to-head games between policies: each seat's win rate",
    "play": "Play a game at the table, 1 to 6 players, with a coach",
    "review": "Every decision of a game log against the best, with its loss",
    "rules": "The presets and keys, or what a rules SPEC resolves to",
    "serve": "The page for a phone or a browser, and shared tables",
    "simulate": "Play many games under a policy (with a plot and a log)",
    "solve": "Solve every game state and store the table",
    "strategy": "The best action for every roll and rerolls left, as CSV",
    "tables": "List and remove what is stored in the tables folder",
    "train": "Puzzles from real positions, and your rating",
    "where": "Every folder and file yatzy writes, with its size",
}
"""Each command's line in ``yatzy --help`` (its docstring's first sentence
is longer, and click would cut it)."""


class LazyGroup(Group):
    """``Group`` whose commands are imported from ``COMMAND_MODULES`` when needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMAND_MODULES, *self.commands})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMAND_MODULES:
            module = importlib.import_module(f"yatzy.cli.{COMMAND_MODULES[name]}")
            for command in module.COMMANDS:
                command.short_help = command.short_help or SUMMARIES.get(command.name)
                self.add_command(command)
        return self.commands.get(name)


EXAMPLES = """\b
Examples:
  yatzy advise --dice 1,1,2,5,6 --rerolls 2     the best move on a first roll
  yatzy play --player Ann --player Bob=optimal  a game at the table
  yatzy distribution --plot nordic.png          every score's chance, plotted
  yatzy serve                                   the page for phones

Each command's options: yatzy COMMAND --help.  Every command and option:
docs/cli.md."""


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=EXAMPLES)
@click.version_option(__version__, "--version", "-V", message="yatzy %(version)s")
def main() -> None:
    """Exact optimal strategy for Nordic Yatzy and its variants: advice,
    games at the table with a coach, a page for phones, distributions,
    simulations and plots."""


__all__ = ["main"]
