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

KEYS = ["rules", "exact", "upper_bound", "upper_bound_unrounded", "upper_is", "upper_method",
        "lower_bound", "lower_bound_unrounded", "lower_is", "lower_method", "estimate",
        "estimate_interval", "estimate_games", "estimate_method", "digits"]
# the search as it ran for `triple` (docs/triple.md): the weight-1 column's
# values at the slopes solved, and the bound they gave, unrounded
TRIPLE_UNITS = ((-0.1, 341.7027), (-0.0376, 338.1009), (-0.0188, 337.94),
                (-0.012533, 338.0083), (0.0, 338.3576), (0.1, 347.3815))
TRIPLE_BOUND = 2028.00594743339


def test_exact_rules_print_their_table_value(nordic, tables_dir):
    r = CliRunner().invoke(main, ["bounds", "--rules", "nordic", "--tables", str(tables_dir),
                                  "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert list(d)[:len(KEYS)] == KEYS and list(d)[-1] == "seconds"
    value = nordic.expected_score
    assert d["exact"] == d["lower_bound_unrounded"] == d["upper_bound_unrounded"] == \
        pytest.approx(value, abs=1e-9)
    # each side rounded outward at four decimals: 248.4399 <= exact <= 248.4400
    assert d["lower_bound"] == 248.4399 <= value <= d["upper_bound"] == 248.44
    assert d["lower_is"] == d["upper_is"] == "exact" and d["estimate"] is None


@pytest.mark.parametrize("value, digits, side, text", [
    (2028.00594743339, 4, "upper", "2028.0060"), (2028.00594743339, 4, "lower", "2028.0059"),
    (0.5563402171, 6, "upper", "0.556341"), (0.548718018, 6, "lower", "0.548718"),
    (0.548718018, 6, "upper", "0.548719"), (1490.6399365, 2, "lower", "1490.63"),
    (0.1, 1, "upper", "0.2"),           # the float 0.1 is a little above 1/10
    (0.1, 1, "lower", "0.1"), (-2.5, 0, "upper", "-2"), (-2.5, 0, "lower", "-3"),
])
def test_bounds_round_outward(value, digits, side, text):
    assert brackets.outward(value, digits, side) == text
    shown = brackets.rounded(value, digits, side)
    assert (shown >= value) if side == "upper" else (shown <= value)


def write_bound(tables_dir, units=TRIPLE_UNITS, value=TRIPLE_BOUND, slope=-0.0376):
    """A made-up cache of the bound of `triple` beside the tables (so that
    a test does not spend most of an hour solving); its path."""
    tried = ((slope, value), (0.0, 2030.1453))
    bound = Bound("triple", value, slope, tried, units, 1.0)
    path = cache_path(parse_rules("triple"), tables_dir)
    path.write_text(json.dumps({"rules": "triple", "bound": bound.as_dict()}))
    return path


def test_triple_says_which_figure_is_an_estimate(nordic, tables_dir):
    """The strategy's mean is the estimate, with its interval, and never in
    a field named a bound; both bounds proven and rounded outward; the
    search says how many slopes it tried and how far from converged it is."""
    path = write_bound(tables_dir)
    try:
        r = CliRunner().invoke(main, ["bounds", "--rules", "triple", "--tables", str(tables_dir),
                                      "--json"])
        assert r.exit_code == 0, r.output
        d = json.loads(r.stdout)
        assert list(d)[:len(KEYS)] == KEYS and d["exact"] is None
        assert d["upper_bound"] == 2028.006 >= TRIPLE_BOUND == d["upper_bound_unrounded"]
        assert d["upper_is"] == "proven" and "slope -0.0376" in d["upper_method"]
        one_by_one = 6 * nordic.expected_score
        assert d["lower_bound_unrounded"] == pytest.approx(one_by_one, abs=1e-6)
        assert d["lower_bound"] == 1490.6399 <= one_by_one and d["lower_is"] == "proven"
        lo, hi = d["estimate_interval"]
        assert lo < d["estimate"] < hi and d["estimate_games"] == 200_000
        assert d["lower_bound"] < lo and hi < d["upper_bound"]
        assert d["gap"] >= TRIPLE_BOUND - d["estimate"]
        search = d["search"]
        assert search["slopes_tried"] == 2 and search["column_solves"] == 6
        assert not search["converged"] and 0.3 < search["below_at_most"] < 0.4
        text = CliRunner().invoke(main, ["bounds", "--rules", "triple", "--tables",
                                         str(tables_dir)]).stdout
        assert "upper         2028.0060  [proven]" in text
        assert "lower         1490.6399  [proven]" in text
        assert "estimate      1714.67 (95 % interval 1714.11..1715.22)  [estimate, not a bound]" \
            in text
        assert "2 slopes tried (-0.0376, +0), 6 solves of one column; not run to convergence" \
            in text
    finally:
        path.unlink()


def test_search_converged_or_too_short_says_so(nordic, tables_dir):
    """Solves of a column worth 338 + 50 |x + 0.02| (convex, its corner
    solved): the bound at the slope -0.04 is the least of linear prices,
    so the search converged; with two solves it is too few to say."""
    unit = lambda x: 338.0 + 50 * abs(x + 0.02)                  # noqa: E731
    xs = (-0.1, -0.06, -0.04, -0.02, -0.04 / 3, -0.01, 0.0, 0.1)
    best = sum(c * unit(-0.04 / c) for c in (1, 2, 3))
    units = tuple((x, unit(x)) for x in xs)
    for given, says in ((units, "converged: no linear prices"),
                        (units[:2], "too few solves to say")):
        path = write_bound(tables_dir, given, best, -0.04)
        try:
            text = CliRunner().invoke(main, ["bounds", "--rules", "triple", "--tables",
                                             str(tables_dir)]).stdout
            assert says in text, text
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
    of the other winning under the same play, exactly, is the proven lower
    bound and lies below the clairvoyant bound; each tie convention's bound
    is in order.  (The exact two-player optimum of a reduced game:
    tests/research/test_clairvoyant.py.)"""
    solver = Solver(TINY, tables=tables_dir)
    pmf = solver.distribution().pmf
    target, empty = solver.target(), solver.card("")
    chance = lambda t: target.probability(empty, t)          # noqa: E731
    f = brackets.win_figures(TINY, pmf, chance)
    cdf = np.cumsum(pmf)
    same_play = float(sum(p * (1 - cdf[s]) for s, p in enumerate(pmf)))   # P(X > S), iid
    d = f.as_dict()
    assert d["lower_bound_unrounded"] == pytest.approx(same_play, abs=1e-12)
    assert d["lower_bound"] <= same_play < d["upper_bound_unrounded"] <= d["upper_bound"]
    assert d["upper_bound_unrounded"] < d["upper_bound_ties_half_unrounded"] \
        < d["upper_bound_ties_won_unrounded"] <= 1
    assert d["upper_bound_ties_half"] >= d["upper_bound_ties_half_unrounded"]
    # told the score in advance, the player does better than by playing for points
    assert f.upper.value > same_play + 0.01
    assert d["estimate"] is None and d["upper_is"] == d["lower_is"] == "proven"


def test_the_win_bracket_in_words(tables_dir, capsys):
    """`yatzy bounds --versus optimal` as text: each bound as a percentage
    rounded outward at four decimals, the proven lower side below."""
    from decimal import Decimal

    from yatzy.cli.research import print_bracket

    solver = Solver(TINY, tables=tables_dir)
    target, empty = solver.target(), solver.card("")
    f = brackets.win_figures(TINY, solver.distribution().pmf,
                             lambda t: target.probability(empty, t))
    print_bracket({**f.as_dict(), "seconds": 1.0}, versus=True)
    lines = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    upper = Decimal(lines["upper"].split(" %")[0])
    assert upper >= Decimal(f.upper.value) * 100 and upper - Decimal(f.upper.value) * 100 < \
        Decimal("0.0001") and upper.as_tuple().exponent == -4
    lower = Decimal(lines["lower"].split(" %")[0])
    assert lower <= Decimal(f.lower.value) * 100 and "[proven]" in lines["lower"]
    assert "counting half" in lines["upper,"] and "estimate" not in lines
