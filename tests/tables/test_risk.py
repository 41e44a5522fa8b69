"""Risk-sensitive play: the expected utility -exp(-theta x)/theta of the final
score, solved by the engine's own kernels (``theta`` is data).

Checked against a brute force over the whole game tree written here (the
optimal expected utility, by plain recursion over ordered dice, boxes scored
by the independent oracle), against the exact final-score distribution of
the policy the advice follows (tests/small_games.py), and at theta -> 0
against the expected-score tables.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache

import numpy as np
import pytest
import scoring_oracle as oracle
from bruteforce import dice_outcomes, turn_value
from click.testing import CliRunner
from small_games import SMALL, TINY, final_scores, optimal

from yatzy.api import Solver, check_theta
from yatzy.cli import main
from yatzy.errors import InputError
from yatzy.position.scorecard import Scorecard
from yatzy.research.distribution import distribution
from yatzy.tables.build import solve
from yatzy.tables.store import open_table


def u(theta, x):
    return x if theta == 0 else -math.exp(-theta * x) / theta


class RiskBruteForce:
    """The largest expected utility of the points still to come, by plain
    recursion over every dice outcome (free order)."""

    def __init__(self, rules, theta):
        self.r, self.theta = rules, theta
        self.all = frozenset(range(rules.n_boxes))
        self.outcomes = dice_outcomes(rules.dice, rules.faces)
        self.value = lru_cache(maxsize=None)(self._value)

    def _value(self, filled, raw):
        """max E[u(points to come)] from a turn start (raw: uncapped upper total)."""
        r, theta = self.r, self.theta
        if filled == self.all:
            return u(theta, 0.0)

        def stop(roll):
            best = -math.inf
            for b in self.all - filled:
                s = oracle.points(r.boxes[b], roll)
                got, raw2 = s, raw
                if r.boxes[b].is_upper:
                    raw2 = raw + s
                    if r.bonus_points and raw < r.bonus_threshold <= raw2:
                        got += r.bonus_points
                # u(got + X) = exp(-theta got) u(X) for theta != 0, got + X for 0
                later = self.value(filled | {b}, raw2)
                v = later + got if theta == 0 else math.exp(-theta * got) * later
                best = max(best, v)
            return best

        return turn_value(self.outcomes, r.dice, r.rolls, stop)


@pytest.mark.parametrize("rules", [TINY, SMALL], ids=["tiny", "small"])
@pytest.mark.parametrize("theta", [0.3, -0.3, 0.05])
def test_utility_tables_match_a_brute_force_at_every_state(rules, theta):
    sol = solve(rules, theta=theta)
    bf = RiskBruteForce(rules, theta)
    values = sol.values
    checked = 0
    for mask in range(1 << rules.n_boxes):
        filled = frozenset(b for b in range(rules.n_boxes) if mask >> b & 1)
        for u_ in np.flatnonzero(~np.isnan(values[mask])):
            want = bf.value(filled, int(u_))
            assert values[mask, u_] == pytest.approx(want, rel=1e-12, abs=1e-300)
            checked += 1
    assert checked > 20
    start = bf.value(frozenset(), 0)
    assert sol.expected_score == pytest.approx(-math.log(-theta * start) / theta, abs=1e-9)


def test_theta_to_zero_reproduces_the_expected_score(nordic):
    """CE = mean - theta Var / 2 + O(theta^2): at theta = 1e-6 within 1e-3."""
    for theta in (1e-6, -1e-6):
        sol = solve(nordic.rules, theta=theta)
        var = 38.496 ** 2
        assert sol.expected_score == pytest.approx(nordic.expected_score - theta * var / 2,
                                                   abs=1e-5)


@pytest.mark.parametrize("theta", [0.2, -0.2])
def test_the_compiled_policy_is_the_advice_and_attains_the_table(tmp_path, theta):
    """The exact distribution under theta (compiled policy kernels) equals the
    brute-force distribution of the advice's choices (numpy query), and its
    expected utility is the table's value at the start."""
    table = open_table(TINY, tmp_path, progress=False, theta=theta)
    pmf, bonus = final_scores(TINY, lambda sc, d, k: optimal(table, sc, d, k))
    d = distribution(TINY, Scorecard.empty(TINY), table.values, theta=theta)
    for s, p in pmf.items():
        assert d.pmf[s] == pytest.approx(p, abs=1e-12)
    assert d.bonus_probability == pytest.approx(bonus, abs=1e-12)
    utility = sum(p * u(theta, s) for s, p in pmf.items())
    assert utility == pytest.approx(table.values[0, 0], rel=1e-10)
    assert d.table_value is None and d.theta == theta


def test_bold_play_spreads_and_cautious_play_narrows_the_scores(tmp_path):
    sds = {}
    for theta in (-0.2, 0.0, 0.2):
        table = open_table(SMALL, tmp_path, progress=False, theta=theta)
        d = distribution(SMALL, Scorecard.empty(SMALL), table.values, theta=theta)
        sds[theta] = d.sd
        if theta == 0:
            assert d.mean == pytest.approx(table.expected_score, abs=1e-9)
        else:                                       # the optimum for theta = 0 is the mean
            assert d.mean < open_table(SMALL, tmp_path, progress=False).expected_score
    assert sds[-0.2] > sds[0.0] > sds[0.2]


def test_simulated_games_follow_the_theta_policy(tmp_path):
    from small_games import agrees
    solver = Solver(SMALL, theta=0.2, tables=tmp_path)
    exact = solver.distribution()
    sim = solver.simulate(20000, seed=4)
    agrees(exact, sim.hist, sim.games)
    assert sim.theta == 0.2


def test_theta_limits_and_policies():
    check_theta(SMALL, 1.0)
    with pytest.raises(InputError, match="between -1 and 1"):
        Solver("nordic", theta=1.5)
    with pytest.raises(InputError, match="must be a number"):
        Solver("nordic", theta="x")
    with pytest.raises(InputError, match="at most 0.444"):
        Solver("yahtzee", theta=0.5)
    with pytest.raises(InputError, match="no risk parameter"):
        Solver(SMALL, theta=0.1).distribution(policy="greedy")


def test_theta_on_the_command_line(tables_dir):
    def run(*args):
        return CliRunner().invoke(main, [*args, "--tables", str(tables_dir)])
    card = "ones=3,twos=6,threes=6"
    r = run("ev", "--rules", "forced", "--theta", "0.05", "--card", card)
    assert r.exit_code == 0 and "certainty equivalent" in r.output
    value = float(r.stdout.split()[-1])
    want = Solver("forced", theta=0.05, tables=tables_dir).ev(card)
    assert value == pytest.approx(want, abs=1e-4)
    assert value < Solver("forced", tables=tables_dir).ev(card)      # caution costs mean
    r = run("advise", "--rules", "forced", "--dice", "11256", "--rerolls", "2", "--theta",
            "0.05", "--json")
    out = json.loads(r.stdout)
    assert out["theta"] == 0.05 and out["values"] == "certainty_equivalent"
    assert out["actions"][0]["action"] == "keep"
    r = run("compare", "--rules", "forced", "--theta", "0.05", "--theta", "-0.05",
            "--at-least", "150")
    lines = r.stdout.splitlines()
    assert r.exit_code == 0 and lines[0].split()[:2] == ["rules", "policy"]
    assert [line.split()[1] for line in lines[1:4]] == ["optimal", "theta=0.05", "theta=-0.05"]
    r = run("ev", "--theta", "2")
    assert r.exit_code == 2 and r.output.count("\n") == 1
    r = run("ev", "--rules", "yahtzee", "--theta", "0.9")
    assert r.exit_code == 2 and "at most 0.444" in r.output and r.output.count("\n") == 1
    r = run("simulate", "--games", "10", "--theta", "0.1", "--policy", "simple")
    assert r.exit_code == 2 and "no risk parameter" in r.output
