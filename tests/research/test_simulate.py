"""yatzy.research.simulate: seeded layer-at-a-time simulation agrees with the exact
distribution (chi-square), is reproducible and independent of threads."""

import numba
import numpy as np
import pytest
from click.testing import CliRunner
from small_games import SMALL, agrees, card, counts_of, joker_game

from yatzy.cli import main
from yatzy.errors import InputError
from yatzy.position.scorecard import Scorecard
from yatzy.research.distribution import distribution
from yatzy.research.games import estimate
from yatzy.research.simulate import simulate
from yatzy.tables.store import open_table


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


def logged(rules, values, games, seed, decisions=None):
    """A simulation and its logs, every array of every batch."""
    logs = []
    sim = simulate(rules, values, games, seed=seed, decisions=decisions,
                   on_log=lambda b: logs.append((b.first, b.rolls, b.keeps, b.boxes, b.points)))
    return sim, logs


@pytest.mark.parametrize("game", ["small", "jokers"])
def test_games_by_lookup_are_the_layer_simulations_bit_for_bit(game, small, tmp_path):
    from yatzy.tables.decisions import build
    if game == "small":
        rules, values = SMALL, small.values
    else:
        rules = joker_game("free")
        values = open_table(rules, tmp_path, progress=False).values
    decisions = build(rules, values)
    for seed, games in ((0, 1), (7, 3001)):
        a, log_a = logged(rules, values, games, seed, decisions)
        b, log_b = logged(rules, values, games, seed)
        assert np.array_equal(a.hist, b.hist) and a.bonus_games == b.bonus_games
        assert np.array_equal(a.box_sum, b.box_sum)
        assert np.array_equal(a.box_nonzero, b.box_nonzero)
        for x, y in zip(log_a, log_b, strict=True):
            assert x[0] == y[0] and all(np.array_equal(p, q) for p, q in zip(x[1:], y[1:]))
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = simulate(rules, values, 3001, seed=7, decisions=decisions)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.hist, a.hist) and np.array_equal(one.box_sum, a.box_sum)


def test_a_stored_decision_table_is_used_and_changes_nothing(small, tmp_path, monkeypatch):
    import shutil

    import yatzy.research.simulate as research

    from yatzy.api import Solver
    from yatzy.tables.decisions import decisions_path, open_decisions
    shutil.copy(small.path, tmp_path)
    layered = Solver(SMALL, tables=tmp_path).simulate(2000, seed=4)
    assert not decisions_path(SMALL, tmp_path).exists()       # few games: not built
    open_decisions(SMALL, tmp_path)
    calls, by_lookup = [], research._by_lookup
    monkeypatch.setattr(research, "_by_lookup", lambda *a: calls.append(1) or by_lookup(*a))
    looked_up = Solver(SMALL, tables=tmp_path).simulate(2000, seed=4)
    assert calls == [1]
    assert layered.as_dict() | {"seconds": 0, "games_per_second": 0} == (
        looked_up.as_dict() | {"seconds": 0, "games_per_second": 0})
    with pytest.raises(ValueError):
        simulate(SMALL, small.values, 10, policy="greedy",
                 decisions=open_decisions(SMALL, tmp_path))


def test_games_by_lookup_under_a_risk_parameter_are_the_layer_simulations(tmp_path):
    from yatzy.tables.decisions import build, open_decisions
    theta = 0.02
    table = open_table(SMALL, tmp_path, progress=False, theta=theta)
    a = simulate(SMALL, table.values, 3000, seed=2, theta=theta,
                 decisions=build(SMALL, table.values, theta))
    b = simulate(SMALL, table.values, 3000, seed=2, theta=theta)
    assert np.array_equal(a.hist, b.hist) and np.array_equal(a.box_sum, b.box_sum)
    stored = open_decisions(SMALL, tmp_path, theta=theta)
    assert "theta" in stored.path.name and np.array_equal(
        stored.rows, build(SMALL, table.values, theta).rows)


def test_a_decision_table_that_cannot_be_stored_is_built_for_the_run(small, tmp_path,
                                                                     monkeypatch):
    import shutil

    import yatzy.api
    import yatzy.studies
    import yatzy.tables.decisions as decisions
    from yatzy.errors import TableError
    from yatzy.tables.announce import TableWarning

    def unwritable(*args, **kwargs):
        raise TableError("tables: cannot write the table (read-only file system)")

    shutil.copy(small.path, tmp_path)
    monkeypatch.setattr(yatzy.studies, "LOOKUP_GAMES", 100)
    monkeypatch.setattr(decisions, "open_decisions", unwritable)
    with pytest.warns(TableWarning, match="built for this run only"):
        looked_up = yatzy.api.Solver(SMALL, tables=tmp_path).simulate(200, seed=1)
    layered = simulate(SMALL, small.values, 200, seed=1)
    assert np.array_equal(looked_up.hist, layered.hist)
