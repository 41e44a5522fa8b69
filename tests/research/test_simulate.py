"""solver.research.simulate: seeded layer-at-a-time simulation agrees with the exact
distribution (chi-square), is reproducible and independent of threads."""

import numba
import numpy as np
import pytest
from click.testing import CliRunner
from small_games import SMALL, agrees, card, counts_of, joker_game

from solver.cli import main
from solver.errors import InputError
from solver.position.scorecard import Scorecard
from solver.research.distribution import distribution
from solver.research.games import estimate
from solver.research.simulate import simulate
from solver.tables.store import open_table


@pytest.mark.parametrize("policy", ["optimal", "greedy", "simple"])
def test_simulation_agrees_with_the_exact_distribution(small, policy):
    exact = distribution(SMALL, card(small), small.values, policy)
    sim = simulate(SMALL, small.values, 20000, seed=11, policy=policy)
    if policy == "optimal":
        assert exact.mean == pytest.approx(small.expected_score, abs=1e-9)
    agrees(exact, sim.hist, sim.games)
    assert abs(sim.bonus_games / sim.games - exact.bonus_probability) < 0.02


@pytest.mark.parametrize("policy", ["optimal", "greedy", "simple"])
def test_simulation_with_jokers_agrees_with_the_exact_distribution(policy, tmp_path):
    rules = joker_game("free")
    table = open_table(rules, tmp_path, progress=False)
    exact = distribution(rules, Scorecard.empty(rules), table.values, policy)
    sim = simulate(rules, table.values, 20000, seed=2, policy=policy)
    agrees(exact, sim.hist, sim.games)
    assert sim.hist[sum(max(p) for p in rules.box_points) + 5 + 1:].sum() > 0   # bonuses
    if policy == "optimal":                      # and the game-by-game player
        est = estimate(table, Scorecard.empty(rules), 20000, seed=6)
        agrees(exact, counts_of(est), est.games)


def test_simulation_is_reproducible_and_independent_of_threads(small):
    a = simulate(SMALL, small.values, 3000, seed=3)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = simulate(SMALL, small.values, 3000, seed=3)
    finally:
        numba.set_num_threads(before)
    c = simulate(SMALL, small.values, 3000, seed=4)
    assert np.array_equal(a.hist, b.hist) and np.array_equal(a.box_sum, b.box_sum)
    assert not np.array_equal(a.hist, c.hist)


def test_a_game_does_not_depend_on_how_many_are_played(tmp_path):
    def log(n):
        path = tmp_path / f"{n}.jsonl"
        r = CliRunner().invoke(main, ["simulate", "--rules", "nordic", "--games", str(n),
                                      "--seed", "9", "--log", str(path), "--policy", "simple"])
        assert r.exit_code == 0, r.output
        return path.read_text().splitlines()

    assert log(3)[:1 + 2 * 15] == log(2)


def test_no_games_is_an_input_error(small):
    with pytest.raises(InputError):
        simulate(SMALL, small.values, 0)
