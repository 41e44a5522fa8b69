"""`yatzy compare`: rule sets and policies side by side, with each line's
head-to-head chances against the first (Distribution.versus: test_distribution.py)."""

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.rules.ruleset import parse_rules
from solver.tables.store import open_table


def test_compare_rules_and_policies_on_the_command_line(nordic, tables_dir):
    forced = open_table(parse_rules("forced"), tables_dir, progress=False)
    args = ["compare", "--rules", "forced", "--rules", "nordic", "--policy", "optimal",
            "--policy", "simple", "--at-least", "200", "--tables", str(tables_dir)]
    r = CliRunner().invoke(main, args + ["--json"])
    assert r.exit_code == 0, r.output
    items = json.loads(r.stdout)["items"]
    assert [(i["rules"], i["policy"]) for i in items] == [
        ("forced", "optimal"), ("forced", "simple"), ("nordic", "optimal"), ("nordic", "simple")]
    assert all(i["exact"] for i in items)
    assert items[2]["mean"] == pytest.approx(nordic.expected_score, abs=1e-9)
    assert items[0]["mean"] == pytest.approx(forced.expected_score, abs=1e-9)
    assert items[0]["table_value"] == pytest.approx(forced.expected_score, abs=1e-9)
    assert items[1]["mean"] < items[0]["mean"] and items[3]["mean"] < items[2]["mean"]
    assert items[2]["at_least"]["200"] > items[0]["at_least"]["200"]
    first = items[0]["versus_first"]
    assert first["win"] == pytest.approx(first["loss"], abs=1e-12)
    assert items[2]["versus_first"]["win"] > 0.9      # nordic optimal against forced optimal
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["rules", "policy", "mean", "sd", "P5", "P50", "P95", "bonus",
                                "vs", "1st", ">=200"]
    assert lines[3].split()[:3] == ["nordic", "optimal", f"{items[2]['mean']:.2f}"]
