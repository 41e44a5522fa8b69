"""What README.md promises about the commands and CI holds.

* CI (`.ci/run`) runs the README's install line and test command as printed,
  read from the README's "Start" section by `.ci/readme_commands.py`.
* "Every command that solves or plays takes `--rules SPEC`": the commands
  without it are the few that neither solve nor play, named here.
"""

import importlib.util
import tomllib
from pathlib import Path

import click

from yatzy.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
CI = (ROOT / ".ci" / "run").read_text()

spec = importlib.util.spec_from_file_location("readme_commands",
                                              ROOT / ".ci" / "readme_commands.py")
readme_commands = importlib.util.module_from_spec(spec)
spec.loader.exec_module(readme_commands)


def test_ci_runs_the_readmes_commands_as_printed():
    install = readme_commands.command("install", README)
    test = readme_commands.command("test", README)
    assert install.startswith("python3 -m venv .venv && .venv/bin/pip install ")
    assert test.startswith(".venv/bin/") and "pytest" in test
    lines = [line.strip() for line in CI.splitlines()]
    assert install in lines and test in lines          # the very lines, each run as it stands
    assert lines.index(install) < lines.index(test)
    assert "readme_commands.py check .ci/run" in CI     # and CI checks that before it runs them


def test_ci_runs_the_slow_tests_the_readmes_command_leaves_out():
    ini = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "not slow" in ini["addopts"]                 # the README's command leaves them out
    assert any(m.startswith("slow:") for m in ini["markers"])
    test = readme_commands.command("test", README)
    pytests = [line.strip() for line in CI.splitlines() if "-m pytest" in line]
    assert pytests[:2] == [test, test + " -m slow"]     # CI runs them right after it
    assert "-m slow" in README and "-m 'not fuzz'" in README    # the README says how


def test_the_readmes_extras_exist_and_ci_adds_the_rest():
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
                 ["optional-dependencies"])
    named = set(readme_commands.extras(README))
    assert "test" in named and named <= extras
    assert "optional-dependencies" in CI       # the full run reads every extra from pyproject


def test_the_reader_finds_exactly_one_of_each():
    text = "# x\n\n## Start\n\n    pip install a\n\n    pytest\n\n## Next\n\n    pytest -x\n"
    assert readme_commands.command("test", text) == "pytest"
    try:
        readme_commands.command("test", text.replace("pip install a", "pytest -q"))
    except SystemExit as e:
        assert "2 test commands" in str(e)
    else:
        raise AssertionError("two test commands were accepted")


NEITHER_SOLVE_NOR_PLAY = {("rules",), ("tables",), ("tables", "clean"), ("where",)}


def leaves(group=main, path=()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from leaves(command, path + (name,))


def test_every_command_that_solves_or_plays_takes_rules():
    assert "Every command that solves or plays takes `--rules SPEC`" in " ".join(README.split())
    without = {path for path, command in leaves()
               if not any("--rules" in p.opts for p in command.params)}
    assert without == NEITHER_SOLVE_NOR_PLAY
    for path, command in leaves():
        if any("--yes" in p.opts for p in command.params):      # it may build a table
            assert path not in NEITHER_SOLVE_NOR_PLAY
