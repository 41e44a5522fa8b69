"""Every optimum in tests/golden.toml the suite can afford, solved and
compared at the precision written there; and the file itself: each entry has
a source, each published figure agrees with our digits, and the results
page (docs/results.md) prints the same figures."""

from pathlib import Path

import pytest
from golden import DISTRIBUTIONS, GOLDEN, OPTIMA, rounds_to, run

from yatzy.rules.ruleset import parse_rules
from yatzy.tables.build import solve

RESULTS = Path(__file__).parents[2] / "docs" / "results.md"


@pytest.mark.parametrize("spec", run(OPTIMA))
def test_optimum(spec, request):
    if spec == "nordic":                       # solved once for the whole session
        value = request.getfixturevalue("nordic").expected_score
    else:
        value = solve(parse_rules(spec)).expected_score
    assert rounds_to(value, OPTIMA[spec]["value"]), (spec, value, OPTIMA[spec]["source"])


def test_every_golden_entry_names_its_source_and_published_figures_agree():
    for entry in GOLDEN["optimum"] + GOLDEN["distribution"]:
        parse_rules(entry["rules"])                              # a valid spec
        assert isinstance(entry["run"], bool)
        source = entry["source"]
        assert source.startswith(("published", "our own")), entry
        assert ("published" in entry) == source.startswith("published"), entry
    for entry in GOLDEN["optimum"]:
        if "published" in entry:
            assert rounds_to(float(entry["value"]), entry["published"]), entry
    assert set(DISTRIBUTIONS) <= set(OPTIMA)
    for spec, entry in DISTRIBUTIONS.items():                    # exact means are the optima
        if "games" not in entry:
            assert entry["mean"] == OPTIMA[spec]["value"], spec


def test_the_results_page_prints_every_golden_optimum():
    text = RESULTS.read_text(encoding="utf-8")
    for entry in GOLDEN["optimum"]:
        assert entry["value"] in text, entry["rules"]
    for entry in GOLDEN["distribution"]:
        assert entry["sd"] in text, entry["rules"]
