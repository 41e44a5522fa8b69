"""`yatzy bounds`: what is known of a rule set's value, each figure with its
method (yatzy.research.brackets; the bound itself: tests/research/test_triple_bound.py)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from small_games import TINY

from yatzy import Solver
from yatzy.cli import main
from yatzy.research import brackets
from yatzy.research.triple_bound import Bound, cache_path
from yatzy.rules.ruleset import parse_rules

KEYS = ["rules", "lower_bound", "lower_method", "upper_bound", "upper_method", "exact", "seconds"]


def test_exact_rules_print_their_table_value(nordic, tables_dir):
    r = CliRunner().invoke(main, ["bounds", "--rules", "nordic", "--tables", str(tables_dir),
                                  "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert list(d)[:7] == KEYS
    assert d["exact"] == d["lower_bound"] == d["upper_bound"] == pytest.approx(
        nordic.expected_score, abs=1e-9)
    assert d["lower_is"] == d["upper_is"] == "exact"


def test_triple_says_which_side_is_an_estimate(nordic, tables_dir):
    """The strategy's mean is labelled an estimate with its interval, the
    bound proven; the bound comes from the cache beside the tables (here a
    made-up one, so that the test does not spend minutes solving)."""
    triple = parse_rules("triple")
    made_up = Bound("triple", 2000.5, -0.1, ((-0.1, 2000.5), (0.0, 2030.0)),
                    ((0.0, 338.0),), 1.0)
    path = cache_path(triple, tables_dir)
    path.write_text(json.dumps({"rules": "triple", "bound": made_up.as_dict()}))
    try:
        r = CliRunner().invoke(main, ["bounds", "--rules", "triple", "--tables", str(tables_dir),
                                      "--json"])
        assert r.exit_code == 0, r.output
        d = json.loads(r.stdout)
        assert list(d)[:7] == KEYS and d["exact"] is None
        assert d["upper_bound"] == 2000.5 and d["upper_is"] == "proven"
        assert "slope -0.1" in d["upper_method"]
        assert d["lower_is"] == "estimate" and d["lower_method"].startswith("estimate, not a bound")
        lo, hi = d["lower_interval"]
        assert lo < d["lower_bound"] < hi
        assert d["gap"] == pytest.approx(2000.5 - d["lower_bound"])
        assert d["proven_lower_bound"] == pytest.approx(6 * nordic.expected_score, abs=1e-6)
        text = CliRunner().invoke(main, ["bounds", "--rules", "triple", "--tables",
                                         str(tables_dir)]).stdout
        assert "[estimate] estimate, not a bound" in text and "[proven]" in text
        assert "proven lower  1490.6399" in text
        assert f"gap           {2000.5 - d['lower_bound']:.2f}" in text
    finally:
        path.unlink()


@pytest.mark.parametrize("args, message", [
    (["--rules", "triple", "--versus", "optimal"], "for one-column rules"),
    (["--rules", "nordic", "--games", "10"], "--games measures the strategy"),
    (["--rules", "nordic", "--versus", "nobody"], "nobody"),
])
def test_bad_options_are_one_line(args, message, nordic, tables_dir):
    r = CliRunner().invoke(main, ["bounds", "--tables", str(tables_dir), *args])
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1


def test_clairvoyant_bound_holds_on_a_small_game(tables_dir):
    """Two players of TINY, one playing for the expected score: the chance
    of the other winning under the same play, exactly, lies below the
    clairvoyant bound, and each tie convention's bound is in order."""
    solver = Solver(TINY, tables=tables_dir)
    pmf = solver.distribution().pmf
    target, empty = solver.target(), solver.card("")
    chance = lambda t: target.probability(empty, t)          # noqa: E731
    f = brackets.win_figures(TINY, pmf, chance, 0.0)
    cdf = np.cumsum(pmf)
    same_play = float(sum(p * (1 - cdf[s]) for s, p in enumerate(pmf)))   # P(X > S), iid
    assert same_play < f.upper_bound < f.notes["upper_bound_ties_half"] \
        < f.notes["upper_bound_ties_won"] <= 1
    # told the score in advance, the player does better than by playing for points
    assert f.upper_bound > same_play + 0.01
    assert f.lower_bound is None and f.upper_method.startswith("proven")
