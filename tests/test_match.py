"""Head-to-head studies (solver.match): reproducible for a seed, the same
for any number of Dask workers, wins and ties counted per RULES.md §6, and
bad input on the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from small_games import SMALL, TINY
from solver.cli import main
from solver.match import chunk_seed, parse_players, play_chunk, run
from solver.simulate import simulate
from solver.tables import open_table


def _key(m):
    return m.tally


def test_a_seat_plays_the_fast_simulators_games(tables_dir):
    """Seat scores are those of solver.simulate with the chunk's seed."""
    players = parse_players("optimal,greedy", TINY)
    r = play_chunk(TINY, str(tables_dir), players, 5, 0, 300)
    values = open_table(TINY, tables_dir, progress=False).values
    for seat, policy in enumerate(("optimal", "greedy")):
        sim = simulate(TINY, values if policy == "optimal" else None, 300,
                       chunk_seed(5, seat, 0), policy)
        assert r.tally.score_sum[seat] == int(np.dot(np.arange(len(sim.hist)), sim.hist))
    assert sum(r.tally.wins) + r.tally.ties == 300


def test_same_seed_same_result_and_chunks_add_up(tables_dir):
    players = parse_players("optimal,theta=0.05,simple", SMALL)
    a = run(SMALL, players, 3000, 7, tables=tables_dir, workers=0, chunk_size=1000)
    b = run(SMALL, players, 3000, 7, tables=tables_dir, workers=0, chunk_size=1000)
    c = run(SMALL, players, 3000, 8, tables=tables_dir, workers=0, chunk_size=1000)
    assert _key(a) == _key(b) != _key(c)
    assert sum(a.wins) + a.ties == 3000
    seats = a.as_dict()["seats"]
    assert [s["policy"] for s in seats] == ["optimal", "theta=0.05", "simple"]
    assert all(s["ci95"][0] < s["win_rate"] < s["ci95"][1] for s in seats)


def test_results_are_identical_across_worker_counts(tables_dir):
    """Two worker processes of a LocalCluster give the single process's result,
    a win seat included."""
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster
    players = parse_players("win,optimal,greedy", TINY)
    alone = run(TINY, players, 60, 3, tables=tables_dir, workers=0, chunk_size=15)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        spread = run(TINY, players, 60, 3, tables=tables_dir, scheduler=cluster.scheduler_address,
                     chunk_size=15)
        with Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
    assert _key(spread) == _key(alone)


def test_the_win_seat_beats_expected_score_play_in_a_small_game(tables_dir):
    """Not a proof, a smoke test: playing to win does not lose to the
    expected-score player it is designed against (TINY, 400 games)."""
    players = parse_players("win,optimal", TINY)
    m = run(TINY, players, 400, 11, tables=tables_dir, workers=0, chunk_size=400)
    assert sum(m.wins) + m.ties == 400
    assert m.wins[0] >= m.wins[1] - 40


@pytest.mark.parametrize("players,message", [
    ("optimal,bogus", "unknown policy 'bogus'"),
    ("optimal," * 6 + "optimal", "2 to 6 policies, not 7"),
    ("optimal", "2 to 6 policies, not 1"),
    ("optimal,theta=x", "theta must be a number"),
    ("optimal,theta=5", "theta must be between"),
    ("win,win,optimal", "at most one win seat"),
])
def test_bad_players_are_one_line_and_exit_2(players, message, tmp_path):
    out = CliRunner().invoke(main, ["match", "--rules", "forced", "--tables", str(tmp_path),
                                    "--players", players, "--games", "10"])
    assert out.exit_code == 2, out.output
    assert message in out.output and out.output.count("\n") == 1, out.output


def test_rules_a_match_cannot_play_are_one_line(tmp_path):
    out = CliRunner().invoke(main, ["match", "--rules", "yahtzee", "--tables", str(tmp_path),
                                    "--players", "optimal,greedy", "--games", "10"])
    assert out.exit_code == 2 and "yahtzee bonus" in out.output, out.output


def test_match_command_json(tables_dir):
    out = CliRunner().invoke(main, ["match", "--rules", "forced", "--tables", str(tables_dir),
                                    "--players", "optimal,simple", "--games", "2000",
                                    "--seed", "3", "--workers", "0", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.splitlines()[-1])
    assert data["games"] == 2000 and set(data) >= {"ties", "seats"}
    assert [s["policy"] for s in data["seats"]] == ["optimal", "simple"]
    assert data["seats"][0]["wins"] > data["seats"][1]["wins"]
