"""The command line imports a command's module only when it is needed."""

import importlib
import subprocess
import sys

from click.testing import CliRunner

from yatzy.cli import COMMAND_MODULES, main


def test_every_command_is_mapped_to_its_module():
    modules = {name: importlib.import_module(f"yatzy.cli.{name}")
               for name in set(COMMAND_MODULES.values())}
    found = {c.name: name for name, m in modules.items() for c in m.COMMANDS}
    assert found == COMMAND_MODULES


def test_help_lists_every_command():
    out = CliRunner().invoke(main, ["--help"]).output
    assert all(f"  {name} " in out for name in COMMAND_MODULES)


def test_help_gives_every_command_a_whole_line_and_examples():
    from yatzy.cli import SUMMARIES
    assert set(SUMMARIES) == set(COMMAND_MODULES)
    out = CliRunner().invoke(main, ["--help"], terminal_width=80).output
    assert "...\n" not in out.split("\n", 1)[1] and max(map(len, out.splitlines())) <= 80
    for name, summary in SUMMARIES.items():
        assert f"  {name:<12}  {summary}\n" in out
    assert "Examples:" in out and "--plot" in out
    assert CliRunner().invoke(main, ["--version"]).output == "yatzy 1.0.0\n"


def test_solve_does_not_import_the_other_commands():
    code = ("import sys; from yatzy.cli import main; main.get_command(None, 'solve'); "
            "print(sorted(m for m in sys.modules if m.startswith('yatzy.cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert eval(out) == ["yatzy.cli.core", "yatzy.cli.options"]
