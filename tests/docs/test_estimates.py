"""One figure for one build wherever it is printed: the time and size the
build's plan gives (``yatzy.tables.plan``, what the announcement says on
a quiet reference machine) are the ones in ``--help`` and in the docs."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.rules.ruleset import parse_rules
from yatzy.tables.plan import describe_bytes, describe_seconds, futures_plan, target_plan

ROOT = Path(__file__).resolve().parents[2]
NORDIC = parse_rules("nordic")


def figure(plan):
    return f"about {describe_seconds(plan.seconds)} and {describe_bytes(plan.file_size)}"


def text(page):
    return " ".join((ROOT / page).read_text().split())


@pytest.mark.parametrize("page", ["docs/cli.md", "docs/risk.md"])
def test_the_target_tables_figure_is_the_plans(page):
    assert figure(target_plan(NORDIC)) in text(page).replace("`", "").replace(
        "for nordic ", "").replace("it takes ", "")


def test_the_help_gives_the_same_figure():
    out = " ".join(CliRunner().invoke(main, ["ev", "--help"]).output.split())
    assert figure(target_plan(NORDIC)) + " for nordic" in out


def test_the_futures_tables_figure_is_the_plans():
    assert f"nordic {figure(futures_plan(NORDIC))}" in text("docs/win.md")
