"""The Solver front object: each method against the lower-level function it
wraps, the choices it makes (exact or estimated, how games are played), and
its errors, which speak of the problem, not of command-line options."""

import io
import json
import subprocess
import sys

import numpy as np
import pytest
from small_games import BANKED, THREE_UPPER

from yatzy import InputError, Scorecard, Solver, compare
from yatzy.tables.store import open_table


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("api")


@pytest.fixture(scope="module")
def small(folder):
    return Solver(THREE_UPPER, tables=folder)


@pytest.fixture(scope="module")
def banked(folder):
    return Solver(BANKED, tables=folder)


def test_the_table_is_opened_on_first_use(tmp_path):
    s = Solver(THREE_UPPER, tables=tmp_path)
    assert repr(s) == "Solver('three_upper')" and not s.path.exists()
    with pytest.raises(InputError, match="impossible"):
        s.ev("ones=7")                        # bad input: nothing is solved
    assert not s.path.exists()
    calls = []
    s = Solver(THREE_UPPER, tables=tmp_path, progress=lambda done, total: calls.append(done))
    assert s.solve() is s.table and s.path.exists() and calls
    assert Solver("forced", tables=tmp_path).rules.spec == "forced"


def test_ev_and_advise_are_the_query_layer(small, folder):
    from yatzy.players.advice import expected_final_score
    from yatzy.players.strategy import advise

    table = open_table(THREE_UPPER, folder)
    card = Scorecard.parse("ones=2", THREE_UPPER)
    assert small.ev("ones=2") == small.ev(card) == expected_final_score(table, card)
    got = small.advise("ones=2", "136", 1)
    assert got == small.advise(card, (6, 3, 1), 1) == advise(table, card, (1, 3, 6), 1)
    assert str(got.best) in {str(a) for a in got.actions}


@pytest.mark.parametrize("call, message", [
    (lambda s: s.advise("", "1234", 1), "4 dice given"),
    (lambda s: s.advise("", "127", 1), "7 is not a face"),
    (lambda s: s.advise("", "123", 3), "rerolls=3"),
    (lambda s: s.advise("", "123", -1), "rerolls must be at least 0"),
    (lambda s: s.advise("ones=1,twos=2,threes=3,yatzy=0", "123", 0), "the card is full"),
    (lambda s: s.advise(Scorecard.parse("", BANKED), "123", 0), "the card is for rules banked"),
    (lambda s: s.distribution(games=10), "have an exact distribution"),
    (lambda s: s.distribution(policy="lucky"), "policy 'lucky': expected one of"),
    (lambda s: s.simulate(0), "games must be at least 1"),
    (lambda s: s.simulate(1.5), "games must be a whole number"),
    (lambda s: s.simulate(5, seed=-1), "seed must be between 0 and 2**63-1"),
    (lambda s: s.simulate(5, seed=2**63), "seed must be between 0 and 2**63-1"),
    (lambda s: s.export("xml", io.StringIO()), "format 'xml'"),
    (lambda s: s.export("csv", io.StringIO(), max_bank=-1), "max_bank must be at least 0"),
    (lambda s: s.strategy("ones=1,twos=2,threes=3,yatzy=0"), "the card is full"),
])
def test_errors_name_the_problem_not_an_option(small, call, message):
    with pytest.raises(InputError) as e:
        call(small)
    assert message in str(e.value) and "--" not in str(e.value)


def test_exact_distribution_is_solver_distribution(small, folder):
    from yatzy.research.distribution import distribution

    table = open_table(THREE_UPPER, folder)
    for policy in ("optimal", "greedy"):
        got = small.distribution("ones=1", policy)
        want = distribution(THREE_UPPER, Scorecard.parse("ones=1", THREE_UPPER), table.values, policy)
        assert small.is_exact(policy) and not got.games
        np.testing.assert_array_equal(got.pmf, want.pmf)


def test_saved_rolls_distribution_is_estimated_from_optimal_games(banked, folder):
    from yatzy.research.games import estimate

    assert not banked.is_exact()
    got = banked.distribution(games=500, seed=2)
    want = estimate(open_table(BANKED, folder), Scorecard.empty(BANKED), 500, 2)
    assert got.games == 500
    np.testing.assert_array_equal(got.pmf, want.pmf)
    with pytest.raises(InputError, match="for the optimal policy only"):
        banked.distribution(policy="simple")
    with pytest.raises(InputError, match="games must be at least 1"):
        banked.distribution(games=0)


def test_simulation_is_layer_at_a_time_where_it_can_be(small, folder, tmp_path):
    from yatzy.research.simulate import simulate

    sim = small.simulate(300, seed=4, log=tmp_path / "a.jsonl")
    want = simulate(THREE_UPPER, open_table(THREE_UPPER, folder).values, 300, 4)
    np.testing.assert_array_equal(sim.hist, want.hist)
    stream = io.StringIO()
    small.simulate(300, seed=4, log=stream)
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert lines == stream.getvalue().splitlines() and len(lines) == 1 + 300 * THREE_UPPER.n_boxes
    assert json.loads(lines[0])["seed"] == 4
    review = small.review(tmp_path / "a.jsonl")
    assert review.total_loss == 0 and len(review.scores) == 300
    assert small.simulate(50, seed=1, policy="simple").policy == "simple"


def test_simulation_with_saved_rolls_plays_game_by_game(banked, folder, tmp_path):
    from yatzy.research.games import run_games

    sim = banked.simulate(200, seed=3, log=tmp_path / "b.jsonl")
    np.testing.assert_array_equal(sim.hist, run_games(open_table(BANKED, folder), 200, 3).hist)
    assert banked.review(tmp_path / "b.jsonl").total_loss == 0
    with pytest.raises(InputError, match="only the optimal policy"):
        banked.simulate(5, policy="greedy")
    with pytest.raises(InputError, match="cannot write"):
        banked.simulate(5, log=tmp_path / "no" / "such.jsonl")


def test_review_of_a_log_for_other_rules_is_refused(tmp_path, folder):
    log = tmp_path / "f.jsonl"
    forced = Solver("forced", tables=folder)
    forced.simulate(2, seed=1, log=log)
    assert forced.review(log).total_loss == 0
    with pytest.raises(InputError, match="the log is for rules forced, not nordic"):
        Solver("nordic", tables=folder).review(log)


def test_export_and_strategy_are_the_export_module(small, folder, tmp_path):
    from yatzy.research.export import states, strategy

    table = open_table(THREE_UPPER, folder)
    out = io.StringIO()
    n = small.export("csv", out)
    assert n == len(states(table)["upper_total"]) == len(out.getvalue().splitlines()) - 1
    assert small.export("json", tmp_path / "s.json") == n
    assert json.loads((tmp_path / "s.json").read_text())["rules"] == "three_upper"
    rows = small.strategy("ones=1")
    assert rows == strategy(table, Scorecard.parse("ones=1", THREE_UPPER))


def test_compare_checks_every_pair_first_and_ranks_against_the_first(small, banked):
    with pytest.raises(InputError, match="for the optimal policy only"):
        compare([small, banked], ["optimal", "greedy"])
    result = compare([small], ["optimal", "simple"], "ones=1")
    assert [d.policy for d in result.items] == ["optimal", "simple"]
    np.testing.assert_array_equal(result.items[1].pmf,
                                  small.distribution("ones=1", "simple").pmf)
    win, tie, loss = result.versus[0]
    assert win == pytest.approx(loss) and win + tie + loss == pytest.approx(1)
    assert result.as_dict()["items"][1]["versus_first"]["win"] == result.versus[1][0]


def test_the_library_and_the_command_line_start_without_numba():
    code = "import sys, yatzy.api, yatzy.cli; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr
