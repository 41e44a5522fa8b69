"""Studies from the public API alone (``import yatzy``): per-game scores of
a simulation, paired differences, head-to-head matches, named results, what
``ev`` is and the strategy's mean, and one-line errors for bad arguments."""

import shutil

import numpy as np
import pytest
from small_games import SMALL

import yatzy
from yatzy.research import stats


@pytest.fixture(scope="module")
def small(tables_dir):
    return yatzy.Solver(SMALL, tables=tables_dir)


@pytest.mark.parametrize("policy", ["optimal", "greedy"])
def test_per_game_scores_are_the_histogram_in_game_order(small, policy):
    sim = small.simulate(3000, seed=4, policy=policy, scores=True)
    assert sim.scores.shape == (3000,) and sim.scores.dtype == np.int64
    assert np.array_equal(np.bincount(sim.scores, minlength=len(sim.hist)), sim.hist)
    # game i's score does not depend on how many games are played
    first = small.simulate(700, seed=4, policy=policy, scores=True).scores
    assert np.array_equal(first, sim.scores[:700])
    assert small.simulate(50, seed=4, policy=policy).scores is None        # opt-in


def test_per_game_scores_of_the_lookup_player_and_the_game_by_game_player(small, tables_dir):
    from yatzy.research.games import run_games
    from yatzy.research.simulate import simulate
    from yatzy.tables.decisions import build

    table = small.table
    lookup = simulate(SMALL, table.values, 2000, 9, decisions=build(SMALL, table.values),
                      scores=True)
    layered = simulate(SMALL, table.values, 2000, 9, scores=True)
    assert np.array_equal(lookup.scores, layered.scores)        # the same games, bit for bit
    one = run_games(table, 500, 3, scores=True)
    assert np.array_equal(np.bincount(one.scores, minlength=len(one.hist)), one.hist)


def test_paired_is_the_per_game_differences(small):
    a = small.simulate(4000, seed=1, scores=True).scores
    b = small.simulate(4000, seed=1, policy="greedy", scores=True).scores
    got = yatzy.paired(a, b)
    d = (a - b).astype(float)
    half = stats.Z95 * d.std(ddof=1) / np.sqrt(len(d))
    assert got.mean == pytest.approx(d.mean(), abs=1e-12)
    assert (got.low, got.high) == pytest.approx((d.mean() - half, d.mean() + half), abs=1e-9)
    unpaired = stats.Z95 * np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / len(a))
    assert got.unpaired == pytest.approx(unpaired, abs=1e-9) and got.games == 4000
    assert str(got).startswith(f"{got.mean:+.2f} ± {got.half:.2f} points a game")
    # independent games: pairing them buys nothing, the two widths agree
    c = small.simulate(4000, seed=2, policy="greedy", scores=True).scores
    free = yatzy.paired(a, c)
    assert free.half == pytest.approx(free.unpaired, rel=0.1)


def test_a_match_from_import_yatzy_alone(small, tables_dir):
    m = yatzy.match(SMALL, "optimal,greedy", games=3000, seed=5, tables=tables_dir)
    assert isinstance(m, yatzy.Match) and sum(m.wins) + m.ties == 3000
    diff = m.difference(0, 1)
    seats = m.as_dict()["seats"]
    assert diff.mean == pytest.approx(seats[0]["mean"] - seats[1]["mean"], abs=1e-9)
    assert diff.low < diff.mean < diff.high
    back = m.difference(1, 0)
    assert back.mean == pytest.approx(-diff.mean) and back.half == pytest.approx(diff.half)
    again = yatzy.match(SMALL, ["optimal", "greedy"], games=3000, seed=5, tables=tables_dir)
    assert again.tally == m.tally


def test_results_are_named(small):
    dist = small.distribution()
    result = dist.versus(dist)
    assert isinstance(result, yatzy.Versus) and isinstance(result, tuple)
    assert result.win == pytest.approx(result.loss) and sum(result) == pytest.approx(1.0)
    win, tie, loss = result
    assert tie == pytest.approx(float(np.dot(dist.pmf, dist.pmf)))


def test_what_ev_is_and_the_strategys_mean(small, tables_dir):
    assert small.ev_is == "exact"
    mean = small.strategy_mean()
    assert mean.exact and mean.value == mean.low == mean.high == small.ev()
    measured = small.strategy_mean(games=4000, seed=3)
    assert not measured.exact and measured.low < small.ev() < measured.high
    triple = yatzy.Solver("triple", tables=tables_dir)
    assert triple.ev_is == "lower_bound"


@pytest.mark.parametrize("call, message", [
    (lambda s, d: d.at_least(250.5), "score must be a whole number, not 250.5"),
    (lambda s, d: d.at_least("250"), "score must be a whole number"),
    (lambda s, d: d.percentile(101), "percentile must be between 0 and 100"),
    (lambda s, d: d.percentile("5"), "percentile must be a number"),
    (lambda s, d: d.versus([0.5, 0.5]), "versus: expected a Distribution"),
    (lambda s, d: s.simulate(10, scores="yes"), "scores must be True or False"),
    (lambda s, d: s.strategy_mean("ones=1", games=10), "starts from a new game"),
    (lambda s, d: s.strategy_mean(games=0), "games must be"),
    (lambda s, d: yatzy.paired([1, 2], [1, 2, 3]), "the same length"),
    (lambda s, d: yatzy.paired([1.5, 2], [1, 2]), "whole numbers"),
    (lambda s, d: yatzy.paired([1], [2]), "games must be"),
    (lambda s, d: yatzy.match(SMALL, "optimal,greedy", games=10).difference(0, 0),
     "two different seats"),
    (lambda s, d: yatzy.match(SMALL, [1, 2], games=10), "policy must be text"),
    (lambda s, d: yatzy.match(SMALL, "optimal", games=10), "2 to 6 policies"),
])
def test_bad_arguments_are_input_errors(call, message, small, tables_dir, monkeypatch):
    monkeypatch.setenv("YATZY_TABLES", str(tables_dir))
    with pytest.raises(yatzy.InputError, match=message):
        call(small, small.distribution())


def test_the_slack_build_is_announced(tmp_path, monkeypatch):
    """The Trippel strategy's slack tables, built on first use, are
    announced like every other build (``tables.announce.announce``: what, how
    big, how long), once: read back, they are not (the solves themselves
    replaced by a stand-in here: the real ones take seconds to minutes)."""
    from yatzy.players import triple

    monkeypatch.setenv("YATZY_TABLES", str(tmp_path))
    monkeypatch.setattr(triple, "slack_values", lambda rules, K: np.zeros((K + 1, 2, 2)))
    said = []
    monkeypatch.setattr(triple, "announce", lambda p, seconds, stacklevel=3: said.append(
        (p, seconds)))
    rules = yatzy.parse_rules("triple")
    triple.stored_slack(rules, 4)
    (p, seconds), = said
    assert p.what.startswith("slack tables of triple (5 solves of one column")
    assert p.path.parent == tmp_path and p.path.name.endswith("-slack4.npy")
    assert p.values > 0 and seconds >= p.seconds
    again = tmp_path / "again"                   # a fresh process's view: read from the file
    again.mkdir()
    shutil.copy(p.path, again / p.path.name)
    monkeypatch.setenv("YATZY_TABLES", str(again))
    triple.stored_slack(rules, 4)
    assert len(said) == 1                        # nothing to say
