"""The ``yatzy`` command line: parses options, calls the library
(``solver.api``) and prints.

``options`` holds what the commands share (the group whose errors are one
line, option types, progress on stderr); ``core`` the commands solve, ev,
advise and rules; ``research`` distribution, compare, simulate, review,
export and strategy; ``play`` the coach for a game at the table; ``train`` puzzles and the rating.
"""

from __future__ import annotations

import click

from solver.cli import core, match, play, research, serve, train
from solver.cli.options import Group


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="yatzy", message="yatzy %(version)s")
def main() -> None:
    """Exact optimal strategy for Nordic Yatzy and its variants."""


for command in (*core.COMMANDS, *research.COMMANDS, *play.COMMANDS, *train.COMMANDS):
    main.add_command(command)
main.add_command(serve.serve)
main.add_command(match.match)

__all__ = ["main"]
