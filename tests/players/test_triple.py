"""Trippel-Yatzy (``--rules triple``, ``Rules.columns``): the card, its
scoring and multipliers, the strategy against an exact brute force of a
reduced coupled game, simulated logs replayed by the review, the commands."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from functools import lru_cache

import numpy as np
import pytest
from bruteforce import dice_outcomes, turn_value

from yatzy import Solver
from yatzy.errors import InputError
from yatzy.players.triple import (
    Valuation,
    TripleTurn,
    advise,
    lower_bound,
    no_coupling,
    offsets,
    slack_plan,
    slack_values,
    strategy_of,
)
from yatzy.position.scorecard import Scorecard
from yatzy.research.triple_bound import column_value, upper_bound
from yatzy.research.triple_games import fit_coupling, run_games
from yatzy.rules.boxes import Box, BoxKind, upper
from yatzy.rules.ruleset import Rules, parse_rules

TRIPLE = parse_rules("triple")
# Two columns of three boxes, two three-faced dice, two rolls, bonus 5 at an
# upper total of 4.
DUO = Rules("duo", (upper("ones", 1), upper("twos", 2), Box("chance", BoxKind.CHANCE)),
            dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=5, columns=2)


# ------------------------------------------------------------ rules and cards
def test_triple_preset_is_three_nordic_columns():
    assert TRIPLE.columns == 3 and TRIPLE.column_weights == (1, 2, 3)
    assert TRIPLE.column_rules == parse_rules("nordic")
    assert parse_rules("triple:order=forced").column_rules == parse_rules("nordic:order=forced")
    # one-column rule sets keep their fingerprint (their stored tables)
    assert parse_rules("nordic").fingerprint == parse_rules("nordic").column_rules.fingerprint
    assert TRIPLE.fingerprint != parse_rules("nordic").fingerprint
    with pytest.raises(InputError, match="does not apply"):
        parse_rules("triple:joker=free")


def test_a_columns_points_and_bonus_count_column_times():
    upper63 = "ones@2=3,twos@2=6,threes@2=9,fours@2=12,fives@2=15,sixes@2=18"
    card = Scorecard.parse(upper63 + ",chance@3=20,yatzy@1=50", TRIPLE)
    assert card.columns[1].bonus == 50
    assert card.score == 50 + 2 * (63 + 50) + 3 * 20
    assert card.turn == 8 and card.upper_total == (0, 63, 0)


def test_card_text_round_trips_with_aliases():
    card = Scorecard.parse("enere@2=3, sjanse@1=23, chans@3=20, yatzy@3=50", TRIPLE)
    assert str(card) == "chance@1=23,ones@2=3,chance@3=20,yatzy@3=50"
    assert Scorecard.parse(str(card), TRIPLE) == card
    assert str(card.fill(14, 0, column=2)) == \
        "chance@1=23,ones@2=3,yatzy@2=0,chance@3=20,yatzy@3=50"


@pytest.mark.parametrize("text, message", [
    ("ones=3", "name the column"),
    ("ones@4=3", "column must be 1..3"),
    ("ones@0=3", "column must be 1..3"),
    ("ones@x=3", "column must be 1..3"),
    ("ones@1=3,enere@1=2", "given twice in column 1"),
    ("ones@1", "expected BOX@COLUMN=POINTS"),
    ("ones@1=7", "column 1: card: ones=7 is impossible"),
    ("nope@1=3", "unknown box"),
])
def test_bad_cards_are_one_line_errors(text, message):
    with pytest.raises(InputError, match=message) as e:
        Scorecard.parse(text, TRIPLE)
    assert "\n" not in str(e.value)


def test_forced_order_applies_within_each_column():
    forced = parse_rules("triple:order=forced")
    Scorecard.parse("ones@1=3,ones@3=2", forced)
    with pytest.raises(InputError, match="column 2: .*top to bottom"):
        Scorecard.parse("twos@2=4", forced)


# ------------------------------------------------------------ the strategy
@pytest.fixture(scope="module")
def duo(tables_dir):
    return Solver(DUO, tables=tables_dir)


@pytest.fixture(scope="module")
def optimum():
    """The exact optimum of the reduced game (``_exact_optimum``), once for the module."""
    return _exact_optimum(DUO)


@pytest.fixture(scope="module")
def step(duo):
    """The exact value of the improvement step with no coupling term
    (``_policy_value``), once for the module."""
    return _policy_value(duo, DUO, np.zeros((0, 4)))


def _score(box: Box, dice) -> int:
    if box.kind is BoxKind.CHANCE:
        return sum(dice)
    return box.face * dice.count(box.face)


def _after(rules, col, box, dice):
    """Points gained (bonus included, not weighted) and the column state
    ``(filled, upper)`` after scoring ``dice`` in ``box``."""
    filled, u = col
    p = _score(rules.boxes[box], dice)
    gain = p
    if rules.boxes[box].is_upper:
        if u < rules.bonus_threshold <= u + p:
            gain += rules.bonus_points
        u = min(u + p, rules.bonus_threshold)
    return gain, (filled | 1 << box, u)


def _exact_optimum(rules):
    """The optimal expected score of the coupled game, by brute force over
    every state of all columns at once."""
    w = rules.column_weights
    outcomes = dice_outcomes(rules.dice, rules.faces)
    full = (1 << rules.n_boxes) - 1

    @lru_cache(maxsize=None)
    def value(state):
        if all(f == full for f, _ in state):
            return 0.0

        def end(dice):
            best = -math.inf
            for c, col in enumerate(state):
                for b in range(rules.n_boxes):
                    if not col[0] >> b & 1:
                        gain, new = _after(rules, col, b, dice)
                        nxt = state[:c] + (new,) + state[c + 1:]
                        best = max(best, w[c] * gain + value(nxt))
            return best
        return turn_value(outcomes, rules.dice, rules.rolls, end)
    return value(((0, 0),) * rules.columns)


def _policy_value(solver, rules, coupling=None):
    """The exact expected score of the strategy's play (``triple.advise``,
    with the coupling term or ``Valuation`` ``coupling``), by recursion over
    the whole game tree."""
    w = rules.column_weights
    one = rules.column_rules
    outcomes = dice_outcomes(rules.dice, rules.faces)

    def card_of(state):
        text = ",".join(f"{one.boxes[b].name}@{c + 1}={p}" for c, col in enumerate(state)
                        for b, p in enumerate(col) if p is not None)
        return Scorecard.parse(text, rules)

    @lru_cache(maxsize=None)
    def value(state):            # state: per column, the points of each box (None: open)
        if all(p is not None for col in state for p in col):
            return 0.0
        card = card_of(state)
        turn = TripleTurn(solver.table, card, coupling)

        @lru_cache(maxsize=None)
        def run_games(dice, t):
            best = advise(solver.table, card, dice, t, turn).best
            if best.kind == "score":
                c, b = best.column - 1, one.box_index(best.box)
                col = list(state[c])
                col[b] = best.points
                nxt = state[:c] + (tuple(col),) + state[c + 1:]
                return w[c] * (card_of(nxt).columns[c].score - card.columns[c].score) + value(nxt)
            rest = rules.dice - len(best.dice)
            return sum(p * run_games(tuple(sorted(best.dice + r)), t - 1) for r, p in outcomes[rest])
        return sum(p * run_games(d, rules.rolls - 1) for d, p in outcomes[rules.dice])
    return value(((None,) * rules.n_boxes,) * rules.columns)


def test_strategy_between_column_by_column_and_the_exact_optimum(duo, optimum):
    """The improvement step never loses against playing the columns one
    after another, and cannot beat the optimum of the coupled game."""
    bound = duo.ev()
    assert bound == pytest.approx(sum(DUO.column_weights) * duo.table.expected_score)
    strategy = _policy_value(duo, DUO)
    assert bound - 1e-9 <= strategy <= optimum + 1e-9
    gap = optimum - bound
    print(f"duo: columns one by one {bound:.4f}, strategy {strategy:.4f}, "
          f"optimum {optimum:.4f}: the strategy closes "
          f"{100 * (strategy - bound) / gap:.1f}% of the gap")
    assert strategy - bound > 0.5 * gap
    # the compiled player plays the same strategy: its mean agrees
    sim = duo.simulate(20_000, seed=3)
    assert abs(sim.mean - strategy) < 4 * sim.sd / math.sqrt(sim.games)


def test_coupled_strategy_on_the_reduced_game(duo, optimum, step):
    """The coupling term fitted to the reduced game's played games: its
    strategy valued exactly, and the compiled player plays that strategy."""
    bound = duo.ev()
    coupling = fit_coupling(duo.table, DUO, 20_000, seed=11)
    assert coupling.shape == (3, 4) and not coupling[:, 0].any() and coupling.any()
    coupled = _policy_value(duo, DUO, coupling)
    print(f"duo: columns one by one {bound:.4f}, improvement step {step:.4f}, "
          f"with the fitted coupling {coupled:.4f}, optimum {optimum:.4f}")
    assert bound - 1e-9 <= coupled <= optimum + 1e-9
    sim = run_games(duo.table, DUO, 20_000, 3, coupling=coupling)
    mean = (np.arange(len(sim.hist)) * sim.hist).sum() / sim.games
    sd = math.sqrt((np.arange(len(sim.hist)) ** 2 * sim.hist).sum() / sim.games - mean ** 2)
    assert abs(mean - coupled) < 4 * sd / math.sqrt(sim.games)


def test_slack_values_are_the_relaxed_column_with_spare_turns(duo):
    """``slack[k]`` from the empty card is the relaxed column of the upper
    bound (``triple_bound.column_value``, checked there by brute force) over
    ``n + k`` turns with no prices, and ``slack[0]`` is the one-column table."""
    one = DUO.column_rules
    slack = slack_values(DUO, 3)
    assert slack.shape == (4, 1 << one.n_boxes, one.cap + 1)
    table = np.asarray(duo.table.dense)[0]
    known = ~np.isnan(table)
    assert np.array_equal(slack[0][known], table[known])
    for k in range(4):
        assert slack[k, 0, 0] == pytest.approx(column_value(DUO, 1, np.zeros(one.n_boxes + k)),
                                               abs=1e-12)
    assert np.all(np.diff(slack[:, 0, 0]) > 0)       # a spare turn is worth something


# a coupling term for the reduced game (box b, columns P open; 0 for none)
KAPPA = np.array([[0.0, 0.4, -0.3, 0.9], [0.0, -0.2, 0.5, 0.3], [0.0, 0.6, 0.1, -0.4]])


@pytest.mark.parametrize("cap, rate, look, kappa", [
    (1, 0.5, (0, 0.0), False), (2, 1.0, (0, 0.0), False), (1, 0.5, (3, 20.0), False),
    (1, 0.5, (6, 100.0), False), (1, 0.5, (3, 20.0, 1.0), False), (1, 0.5, (3, 20.0), True)])
def test_slack_strategy_on_the_reduced_game(duo, optimum, step, cap, rate, look, kappa):
    """The slack strategy (with the look-ahead at the write ``look``, and
    with a coupling term where ``kappa``) valued exactly over the whole
    game tree lies below the exact optimum, which lies below the proven
    upper bound; the compiled player plays that strategy (its mean agrees:
    with a coupling term and a look-ahead its next-turn lanes hold the
    offsets too)."""
    plan = slack_plan(DUO, cap, rate)
    strategy = Valuation(KAPPA if kappa else no_coupling(DUO), plan, slack_values(DUO, cap), look)
    bound = duo.ev()
    slacked = _policy_value(duo, DUO, strategy)
    ub = upper_bound(DUO, np.zeros(6))
    print(f"duo: columns one by one {bound:.4f}, improvement step {step:.4f}, "
          f"slack (cap {cap}, rate {rate}, look {look}) {slacked:.4f}, optimum {optimum:.4f}, "
          f"upper bound {ub:.4f}")
    assert bound - 1e-9 <= slacked <= optimum + 1e-9 <= ub + 2e-9
    assert slacked != step                           # the plan changes the play
    if look[0]:
        plain = _policy_value(duo, DUO, strategy._replace(look=(0, 0.0)))
        assert slacked != plain                      # the look-ahead changes the play
    sim = run_games(duo.table, DUO, 20_000, 3, coupling=strategy)
    mean = (np.arange(len(sim.hist)) * sim.hist).sum() / sim.games
    sd = math.sqrt((np.arange(len(sim.hist)) ** 2 * sim.hist).sum() / sim.games - mean ** 2)
    assert abs(mean - slacked) < 4 * sd / math.sqrt(sim.games)


def test_fed_offsets_are_the_next_turn_less_the_slack_values(duo):
    """The look-ahead fed to the keeps (``Valuation.look = (m, delta, 1)``):
    each open box's offset is the value of the next turn after writing it
    (upper boxes with their par points) less the slack value ``S`` of that
    position, the numpy ``next_turn`` and the slack table giving the same."""
    from yatzy.kernels import triple as kernel
    from yatzy.kernels.player import play_tables
    from yatzy.kernels.turn import turn_data
    from yatzy.players.triple import fed_offsets, next_turn, par_points

    one = DUO.column_rules
    d, pt = turn_data(one), play_tables(one)
    plan = slack_plan(DUO, 1, 0.5)
    slack = slack_values(DUO, 1)
    strategy = Valuation(no_coupling(DUO), plan, slack, (3, 20.0))
    w = np.array(DUO.column_weights, dtype=np.float64)
    tt = kernel.TripleTables(kernel.box_candidates(d, pt), np.asarray(duo.table.dense)[0], w,
                             no_coupling(DUO), slack, plan, np.array((3, 20.0, 1.0)), 1)
    tt0 = tt._replace(look=np.array((3, 20.0)))
    card = Scorecard.parse("ones@2=1", DUO)
    C, nb = DUO.columns, one.n_boxes
    lanes = kernel.lane_set(d, C, nb, True)
    for c, sc in enumerate(card.columns):
        lanes.masks[0, c], lanes.us[0, c] = sc.mask, sc.upper_state
    ahead = kernel.lane_set(d, C, nb, False, C * nb)
    work2 = np.zeros((d.adds.shape[0] + 1, C * nb))
    rep = kernel.par_points(d)
    assert rep.tolist() == [1, 2, 0] == par_points(one)   # bonus 5 at 4: one die a face
    kernel.fed_offsets(d, tt, tt0, lanes, 1, ahead, work2, rep)
    left = sum(one.n_boxes - bin(sc.mask).count("1") for sc in card.columns) - 1
    checked = 0
    for c, sc in enumerate(card.columns):
        for b in range(nb):
            if sc.points[b] is not None:
                continue
            after = card.fill(b, int(rep[b]), column=c + 1)
            s_after = 0.0
            for c2, sc2 in enumerate(after.columns):
                n_c = one.n_boxes - bin(sc2.mask).count("1")
                k = min(plan[c2, left], left - n_c)
                s_after += w[c2] * slack[k, sc2.mask, sc2.upper_state]
            want = next_turn(duo.table, after, strategy) - s_after
            assert lanes.shift[0, c, b] * w[c] == pytest.approx(want, abs=1e-9)
            checked += 1
    assert checked == 5 and np.any(np.abs(lanes.shift[0]) > 1e-6)
    numpy = fed_offsets(duo.table, card, strategy._replace(look=(3, 20.0, 1.0)))
    assert numpy == pytest.approx(lanes.shift[0] * w[:, None], abs=1e-9)   # the advice's, the same


def test_slack_values_are_saved_in_the_tables_folder(tmp_path, monkeypatch):
    from yatzy.players.triple import stored_slack
    monkeypatch.setenv("YATZY_TABLES", str(tmp_path))
    first = stored_slack(DUO, 2)
    saved = list(tmp_path.glob("duo-*-slack2.npy"))
    assert len(saved) == 1 and np.array_equal(np.load(saved[0]), first, equal_nan=True)
    assert np.array_equal(first, slack_values(DUO, 2), equal_nan=True)


def test_the_strategy_saves_its_slack_values_where_its_table_was_opened(tmp_path, monkeypatch):
    """Not in the default tables folder (a checkout's tables/): in the
    folder the one-column table came from."""
    from yatzy.players import triple
    from yatzy.tables.store import open_table
    monkeypatch.setenv("YATZY_TABLES", str(tmp_path / "default"))
    monkeypatch.setitem(triple.SLACK, DUO.fingerprint, (2, 0.25))
    monkeypatch.setattr(triple, "_SLACK_CACHE", {})
    table = open_table(DUO.column_rules, tmp_path / "mine", progress=False)
    strategy = triple.as_strategy(DUO, None, table)
    assert strategy.slack.shape[0] == 3
    assert [p.name for p in (tmp_path / "mine").glob("*-slack*.npy")] == \
        [f"duo-{DUO.fingerprint}-slack2.npy"]
    assert not (tmp_path / "default").exists()


def test_triple_stores_a_slack_plan():
    plan = slack_plan(TRIPLE, 4, 0.25)
    assert plan.shape == (3, 46) and plan[:, 45].tolist() == [4, 4, 4] and plan[:, 0].sum() == 0
    from yatzy.players import triple
    assert triple.SLACK[TRIPLE.fingerprint] == (4, 0.25)
    assert strategy_of(DUO).plan.shape == (0, 0)     # none stored: the step (or coupling)


def test_offsets_are_the_change_of_the_coupling_term():
    coupling = np.arange(15 * 8, dtype=float).reshape(15, 8) % 7
    card = Scorecard.parse("ones@1=3,ones@3=2,yatzy@2=0", TRIPLE)
    delta = offsets(coupling, card)

    def f(c):
        return sum(coupling[b, sum(1 << k for k, sc in enumerate(c.columns)
                                   if sc.points[b] is None)] for b in range(15))
    for c, b in [(1, 0), (0, 14), (2, 14), (1, 5)]:
        assert delta[c, b] == pytest.approx(f(card.fill(b, 0, column=c + 1)) - f(card))
    assert delta[0, 0] == delta[2, 0] == 0.0          # filled there


def test_lower_bound_is_six_nordic_values(nordic, tables_dir):
    triple = Solver("triple", tables=tables_dir)
    assert triple.ev() == pytest.approx(6 * 248.4399894, abs=1e-6)
    card = Scorecard.parse("ones@1=3,yatzy@3=50", TRIPLE)
    one = [nordic.value(c.mask, c.upper_state) for c in card.columns]
    assert lower_bound(nordic, card) == pytest.approx(3 + 150 + one[0] + 2 * one[1] + 3 * one[2])


def test_advice_names_box_and_column(nordic, tables_dir):
    triple = Solver("triple", tables=tables_dir)
    adv = triple.advise("ones@1=3,yatzy@3=50,chance@2=23", "66666", 0)
    best = adv.best.as_dict()
    assert list(best)[:4] == ["action", "box", "column", "points"]
    # the slack strategy's choice (H + the coupling term chose sixes@3 = 30):
    # a second yatzy box that column 2 may fill later is worth less than 100 now
    assert (best["box"], best["column"], best["points"]) == ("yatzy", 2, 50)
    assert ("sixes", 3, 30) in [(a.as_dict()["box"], a.as_dict()["column"], a.as_dict()["points"])
                                for a in adv.actions[:3]]
    # a yatzy scored where it counts most beats the same in column 1
    first = triple.advise("", "66666", 0)
    assert [a.as_dict()["column"] for a in first.actions[:1]] == [3]
    keep = triple.advise("", "11256", 2).best
    assert keep.kind == "keep" and str(keep).startswith("keep")


def test_simulated_logs_replay_with_no_illegal_move_and_no_loss(nordic, tables_dir, tmp_path):
    triple = Solver("triple", tables=tables_dir)
    log = tmp_path / "games.jsonl"
    sim = triple.simulate(3, seed=5, log=log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert len(lines) == 1 + 3 * 45 and all("column" in x for x in lines[1:])
    result = triple.review(log)
    assert len(result.scores) == 3 and result.total_loss == 0.0
    assert np.mean(result.scores) == pytest.approx(sim.mean)
    greedy = tmp_path / "greedy.jsonl"
    triple.simulate(2, seed=5, policy="greedy", log=greedy)
    assert triple.review(greedy).total_loss > 0


def test_review_rejects_a_box_filled_twice_in_a_column(nordic, tables_dir, tmp_path):
    turn = {"rolls": [[1, 1, 2, 5, 6]], "kept": [], "box": "ones", "column": 2}
    log = tmp_path / "bad.jsonl"
    log.write_text(json.dumps(turn) + "\n" + json.dumps(turn) + "\n")
    with pytest.raises(InputError, match="ones of column 2 is already filled"):
        Solver("triple", tables=tables_dir).review(log)
    log.write_text(json.dumps({**turn, "column": 4}) + "\n")
    with pytest.raises(InputError, match="column must be 1..3"):
        Solver("triple", tables=tables_dir).review(log)


# ------------------------------------------------------------ the commands
def _yatzy(*args, tables):
    return subprocess.run([sys.executable, "-m", "yatzy", *args, "--tables", str(tables)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("args, message", [
    (("ev", "--rules", "triple", "--card", "ones=3"), "name the column"),
    (("ev", "--rules", "triple", "--card", "ones@4=3"), "column must be 1..3"),
    (("ev", "--rules", "triple", "--card", "ones@1=1,ones@1=2"), "given twice in column 1"),
    (("advise", "--rules", "triple", "--dice", "11256", "--rerolls", "3"), "rerolls=3"),
    (("advise", "--rules", "triple", "--dice", "11256", "--rerolls", "1", "--theta", "0.01"),
     "theta is not available"),
    (("distribution", "--rules", "triple", "--policy", "simple"), "optimal, greedy, step"),
    (("simulate", "--rules", "nordic", "--policy", "step", "--games", "5"), "step needs several columns"),
    (("export", "--rules", "triple", "--format", "csv"), "covers one column"),
])
def test_cli_bad_input_is_one_line_exit_2(nordic, tables_dir, args, message):
    r = _yatzy(*args, tables=tables_dir)
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_step_is_the_plain_improvement_step(nordic, tables_dir):
    """Policy ``step`` plays without the coupling term."""
    from yatzy.research.triple_games import run_games
    got = Solver(TRIPLE, tables=tables_dir).simulate(300, seed=4, policy="step")
    want = run_games(nordic, TRIPLE, 300, 4, "optimal", coupling=no_coupling(TRIPLE))
    coupled = run_games(nordic, TRIPLE, 300, 4, "optimal")
    assert np.array_equal(got.hist, want.hist) and not np.array_equal(got.hist, coupled.hist)


def test_cli_advise_ev_simulate_review(nordic, tables_dir, tmp_path):
    r = _yatzy("advise", "--rules", "triple", "--card", "sixes@3=24", "--dice", "66666",
               "--rerolls", "0", "--top", "1", "--json", tables=tables_dir)
    action = json.loads(r.stdout)["actions"][0]
    assert (action["action"], action["box"], action["column"], action["points"]) == \
        ("score", "yatzy", 3, 50)
    r = _yatzy("ev", "--rules", "triple", "--json", tables=tables_dir)
    ev = json.loads(r.stdout)
    assert ev["exact"] is False and ev["lower_bound"] == pytest.approx(6 * 248.4399894)
    assert ev["ci95"][0] > ev["lower_bound"]
    log = tmp_path / "log.jsonl"
    r = _yatzy("simulate", "--rules", "triple", "--games", "2", "--log", str(log), tables=tables_dir)
    assert r.returncode == 0, r.stderr
    r = _yatzy("review", str(log), tables=tables_dir)
    assert r.returncode == 0 and "total loss    0.0000" in r.stdout, r.stdout + r.stderr
