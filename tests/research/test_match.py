"""Head-to-head studies (yatzy.research.match): reproducible for a seed, the same
for any number of Dask workers, wins and ties counted per docs/rules.md, "Several players", and
bad input on the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from small_games import SMALL, TINY

from yatzy.cli import main
from yatzy.research.match import chunk_seed, parse_players, play_chunk, run
from yatzy.research.simulate import simulate
from yatzy.tables.store import open_table


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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_lost_workers_chunk_is_run_again_and_counted_once(tables_dir, tmp_path):
    """The first worker to start a chunk dies on the spot (a worker plugin,
    once: a marker file); Dask runs that chunk again on a fresh worker and
    the study's result is the single process's."""
    pytest.importorskip("distributed")
    import os

    from distributed import Client, LocalCluster
    from distributed.diagnostics.plugin import WorkerPlugin

    class DieOnce(WorkerPlugin):
        def __init__(self, marker):
            self.marker = marker

        def transition(self, key, start, finish, **kwargs):
            if finish == "executing" and not os.path.exists(self.marker):
                open(self.marker, "w").close()
                os._exit(1)

    players = parse_players("win,optimal", TINY)
    alone = run(TINY, players, 80, 4, tables=tables_dir, workers=0, chunk_size=10)
    marker = tmp_path / "died"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            before = set(client.scheduler_info()["workers"])
            client.register_plugin(DieOnce(str(marker)))
            spread = run(TINY, players, 80, 4, tables=tables_dir,
                         scheduler=cluster.scheduler_address, chunk_size=10)
            after = set(client.scheduler_info()["workers"])
    assert marker.exists()                       # a worker did die mid-chunk
    assert before - after                        # and was replaced
    assert _key(spread) == _key(alone) and spread.games == 80


def _advised_win_seat(rules, solver, games, seed, first, seat, others):
    """The final scores of a win seat that plays, at every roll, the first
    action of ``advise_win`` (in Python, one position at a time), with the
    dice of the compiled seat."""
    from yatzy.kernels.dice_stream import roll_dice, seed_states
    from yatzy.kernels.turn import turn_data
    from yatzy.players.win import Opponent, WinTurn, advise_win
    from yatzy.position.scorecard import Scorecard
    table, target, futures = solver.table, solver.target(), solver.futures()
    d = turn_data(rules)
    ds = rules.dice_space
    n_seats = len(others) + 1
    scores = []
    for i in range(games):
        lead = (first + i) % n_seats
        cards = []
        for o, boxes, points in others:
            c = [Scorecard.empty(rules)]
            for b, p in zip(boxes[i].tolist(), points[i].tolist()):
                c.append(c[-1].fill(b, p))
            cards.append((o, c))
        card, state = Scorecard.empty(rules), seed_states(seed, i, 1)[0]
        for turn in range(rules.n_boxes):
            opps = [Opponent(c[turn + ((o - lead) % n_seats < (seat - lead) % n_seats)])
                    for o, c in cards]
            roll, state = roll_dice(d.adds, d.first_roll, d.faces, ds.n, np.uint64(state), 0)
            values = WinTurn(table, target, futures, card, opps)
            for rerolls in range(rules.rolls - 1, -1, -1):
                dice = ds.dice_tuples[ds.first_roll + roll]
                best = advise_win(table, target, futures, card, dice, rerolls, opps,
                                  values).best.action
                if best.points is not None:
                    card = card.fill(rules.box_index(best.box), best.points)
                    break
                keep = ds.multiset_index(best.dice)
                roll, state = roll_dice(d.adds, d.first_roll, d.faces, ds.n - len(best.dice),
                                        np.uint64(state), keep)
        scores.append(card.score)
    return scores


@pytest.mark.parametrize("rules,n_others,games", [(SMALL, 2, 80), (SMALL, 5, 30), (TINY, 1, 60)])
def test_the_compiled_win_seat_plays_the_advice(tables_dir, rules, n_others, games):
    """Every game of the compiled win seat ends with the score of a player
    following ``advise_win`` at every roll on the same dice."""
    from yatzy.api import Solver
    from yatzy.research.match import logged_games
    from yatzy.research.win_seat import play_win_seat
    solver = Solver(rules, tables=tables_dir)
    others = [(o, *logged_games(rules, str(tables_dir), "optimal", 0.0, games, 100 + o)[1:])
              for o in range(1, n_others + 1)]
    got = play_win_seat(solver.table, solver.target(), solver.futures(), games, 9,
                        5, 0, others)
    want = _advised_win_seat(rules, solver, games, 9, 5, 0, others)
    assert got.tolist() == want


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


def test_a_match_with_several_columns_seats_their_policies(nordic, tables_dir):
    """Trippel-Yatzy seats play solver.triple_play's games with the chunk's
    seed (``step``: the plain improvement step, no coupling term)."""
    from yatzy.research.triple_games import run_games
    from yatzy.rules.ruleset import parse_rules
    triple = parse_rules("triple")
    players = parse_players("optimal,step,greedy", triple)
    r = play_chunk(triple, str(tables_dir), players, 5, 0, 200)
    for seat, (policy, coupling) in enumerate([("optimal", None), ("optimal", np.zeros((0, 8))),
                                                ("greedy", None)]):
        games = run_games(nordic, triple, 200, chunk_seed(5, seat, 0), policy, coupling=coupling)
        assert r.tally.score_sum[seat] == int(np.dot(np.arange(len(games.hist)), games.hist))
    assert r.tally.score_sum[2] < 1500 * 200 < r.tally.score_sum[1]
    out = CliRunner().invoke(main, ["match", "--rules", "triple", "--tables", str(tables_dir),
                                    "--players", "win,optimal", "--games", "10"])
    assert out.exit_code == 2 and "win seat and theta need one column" in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_match_command_json(tables_dir):
    out = CliRunner().invoke(main, ["match", "--rules", "forced", "--tables", str(tables_dir),
                                    "--players", "optimal,simple", "--games", "2000",
                                    "--seed", "3", "--workers", "0", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.splitlines()[-1])
    assert data["games"] == 2000 and set(data) >= {"ties", "seats"}
    assert [s["policy"] for s in data["seats"]] == ["optimal", "simple"]
    assert data["seats"][0]["wins"] > data["seats"][1]["wins"]


def test_the_win_seats_first_compile_is_said(tables_dir, monkeypatch):
    """The ``win`` seat's whole games (``kernels.win_seat.play_win_games``)
    compile once after an install or an update: said first, in the
    language, not a silent wait; nothing is said when Numba's cache (or
    this process) holds them."""
    from compile_notes import check_compile_said
    from yatzy.api import Solver
    from yatzy.research.match import logged_games
    from yatzy.research.win_seat import play_win_seat
    solver = Solver(TINY, tables=tables_dir)
    others = [(1, *logged_games(TINY, str(tables_dir), "optimal", 0.0, 4, 101)[1:])]

    check_compile_said(
        lambda: play_win_seat(solver.table, solver.target(), solver.futures(), 4, 9, 5, 0, others),
        "compiling the win seat's games' kernels (once", monkeypatch,
        {"nb": "kompilerer kjernene til vinn-setets spill først",
         "sv": "kompilerar kärnorna till vinstplatsens spel först"})
