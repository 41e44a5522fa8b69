"""Research toolkit: exact distribution, simulation, game review, export, plots.

Most tests use small games (few boxes, two or three dice) solved in a
temporary folder; a few use the full nordic table of the session fixture.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import sys
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from solver.boxes import Box, groups, straight, upper
from solver.cli import main
from solver.distribution import distribution
from solver.errors import InputError
from solver.play import estimate
from solver.policy import decide, game
from solver.query import advise
from solver.ties import TIE
from solver.review import read_log, review
from solver.rules import Rules, parse_rules
from solver.scorecard import Scorecard
from solver.simulate import simulate
from solver.tables import open_table

# Two dice, four boxes, a bonus of 10 at an upper total of 4.
TINY = Rules("tiny", (upper("ones", 1), upper("twos", 2), groups("one_pair", (2,)),
                      Box("chance", "chance")), dice=2, rolls=3, bonus_threshold=4,
             bonus_points=10)
# Three dice, six boxes (a "yatzy" of three alike), bonus 20 at 12.
SMALL = Rules("small", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                        groups("one_pair", (2,)), Box("chance", "chance"),
                        groups("yatzy", (3,), points=30)), dice=3, rolls=3,
              bonus_threshold=12, bonus_points=20)


@pytest.fixture(scope="module")
def tiny(tables_dir):
    return open_table(TINY, tables_dir, progress=False)


@pytest.fixture(scope="module")
def small(tables_dir):
    return open_table(SMALL, tables_dir, progress=False)


def card(table, text=""):
    return Scorecard.parse(text, table.rules)


# ------------------------------------------------------------- distribution
def test_distribution_sums_to_one_and_its_mean_is_the_table_value(small):
    for text in ["", "ones=2", "threes=9,chance=11", "ones=3,twos=6,threes=3"]:
        sc = card(small, text)
        d = distribution(SMALL, sc, small.values)
        assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)
        assert d.mean == pytest.approx(sc.score + small.value(sc.mask, sc.upper_state), abs=1e-9)
        assert d.table_value == pytest.approx(d.mean, abs=1e-9)


def _optimal(table, sc, dice, rerolls):
    """The action ``query.advise`` advises: ("score", box, points) or ("keep", dice)."""
    best = advise(table, sc, dice, rerolls).best
    if best.kind == "score":
        return "score", table.rules.box_index(best.box), best.points
    return "keep", best.dice


def _simple(rules, sc, dice, rerolls):
    """The ``simple`` policy, written out from its description: keep the dice
    of the most common face (the higher face on a tie) unless all dice are
    alike; score the box giving the most points (the first on a tie), a
    joker only where the rules let it go."""
    counts = {f: dice.count(f) for f in set(dice)}
    face = max(counts, key=lambda f: (counts[f], f))
    if rerolls and counts[face] < len(dice):
        return "keep", (face,) * counts[face]
    c = tuple(dice.count(f) for f in range(1, 7))
    jokers = int(rules.space.jokers(sc.mask)[0][face - 1]) if len(counts) == 1 else 0
    options = [(b, rules.boxes[b].joker_score(c) if jokers else rules.boxes[b].score(c))
               for b in range(rules.n_boxes)
               if (jokers or int(rules.space.allowed(sc.mask))) >> b & 1]
    box, points = max(options, key=lambda o: (o[1], -o[0]))
    return "score", box, points


def _brute_force(rules, choose) -> tuple[dict[int, float], float]:
    """Final-score pmf and upper-bonus probability by enumerating every dice
    outcome of every turn, acting as ``choose(card, dice, rerolls)`` says
    (a further yahtzee after a scored one earns ``rules.yahtzee_bonus``)."""
    n, faces = rules.dice, rules.faces

    def outcomes(k):                 # multisets of k fresh dice, with probabilities
        out = defaultdict(Fraction)
        for seq in itertools.product(range(1, faces + 1), repeat=k):
            out[tuple(sorted(seq))] += Fraction(1, faces ** k)
        return out

    memo = {}

    def rest(sc):                    # {(points to come, bonus earned): probability}
        if sc.is_full:
            return {(0, sc.bonus > 0): 1.0}
        key = (sc.mask, sc.upper_state)
        if key in memo:
            return memo[key]
        ends = {}

        def turn(dice, rerolls):     # {(box, points, extra): probability} from this roll on
            if (dice, rerolls) not in ends:
                action = choose(sc, dice, rerolls)
                out = defaultdict(float)
                if action[0] == "score":
                    alike = len(set(dice)) == 1 and sc.mask & rules.space.flag_bit
                    out[(*action[1:], rules.yahtzee_bonus if alike else 0)] = 1.0
                else:
                    for fresh, q in outcomes(n - len(action[1])).items():
                        dice2 = tuple(sorted(action[1] + fresh))
                        for end, p in turn(dice2, rerolls - 1).items():
                            out[end] += float(q) * p
                ends[(dice, rerolls)] = out
            return ends[(dice, rerolls)]

        out = defaultdict(float)
        for dice, p in outcomes(n).items():
            for (box, points, extra), q in turn(dice, rules.rolls - 1).items():
                nxt = sc.fill(box, points, extra)
                for (s, bonus), r in rest(nxt).items():
                    out[(nxt.score - sc.score + s, bonus)] += float(p) * q * r
        memo[key] = dict(out)
        return memo[key]

    pmf = defaultdict(float)
    bonus = 0.0
    for (s, b), p in rest(Scorecard.empty(rules)).items():
        pmf[s] += p
        bonus += p if b else 0.0
    return pmf, bonus


def _assert_same(d, pmf, bonus):
    assert set(np.flatnonzero(d.pmf)) == {s for s, p in pmf.items() if p > 0}
    for s, p in pmf.items():
        assert d.pmf[s] == pytest.approx(p, abs=1e-12)
    assert d.bonus_probability == pytest.approx(bonus, abs=1e-12)


def test_distribution_equals_brute_force_on_a_tiny_game(tiny):
    pmf, bonus = _brute_force(TINY, lambda *a: _optimal(tiny, *a))
    _assert_same(distribution(TINY, card(tiny), tiny.values), pmf, bonus)


def _joker_game(joker: str = "forced", bonus: int = 30) -> Rules:
    """Two three-faced dice, five boxes, a yahtzee of two alike worth 20."""
    return Rules("mini", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                          straight("run", ((1, 2), (2, 3)), 7), groups("yahtzee", (2,), points=20)),
                 dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=5,
                 yahtzee_bonus=bonus, joker=joker)


@pytest.mark.parametrize("joker, bonus", [("forced", 30), ("free", 30), ("none", 30),
                                          ("forced", 0)])
def test_distribution_equals_brute_force_with_jokers_and_yahtzee_bonus(joker, bonus, tmp_path):
    rules = _joker_game(joker, bonus)
    table = open_table(rules, tmp_path, progress=False)
    pmf, upper_bonus = _brute_force(rules, lambda *a: _optimal(table, *a))
    d = distribution(rules, Scorecard.empty(rules), table.values)
    _assert_same(d, pmf, upper_bonus)
    assert d.mean == pytest.approx(table.expected_score, abs=1e-9)
    if bonus:                                # a further yahtzee happens
        assert max(pmf) > sum(max(rules.box_points[b]) for b in range(rules.n_boxes)) + 5
    pmf, upper_bonus = _brute_force(rules, lambda *a: _simple(rules, *a))
    _assert_same(distribution(rules, Scorecard.empty(rules), None, "simple"), pmf, upper_bonus)


def test_box_figures_add_up(small):
    d = distribution(SMALL, card(small), small.values)
    upper_mean = d.box_mean[:3].sum()
    lower_mean = d.box_mean[3:].sum()
    bonus = SMALL.bonus_points * d.bonus_probability
    assert upper_mean + lower_mean + bonus == pytest.approx(d.mean, abs=1e-9)
    assert d.box_nonzero[4] == pytest.approx(1.0)          # chance always scores
    assert np.all((d.box_nonzero >= 0) & (d.box_nonzero <= 1 + 1e-12))


def test_nordic_distribution_matches_published_figures(nordic):
    """SD 38.496, median 249, 5th-95th percentile 179-309, bonus 89.8%."""
    d = distribution(nordic.rules, card(nordic), nordic.values)
    assert abs(d.mean - nordic.expected_score) < 1e-6
    assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert round(d.sd, 3) == 38.496
    assert (d.percentile(5), d.percentile(50), d.percentile(95)) == (179, 249, 309)
    assert round(d.bonus_probability, 3) == 0.898
    assert d.at_least(0) == pytest.approx(1.0)


def test_distribution_from_a_card_starts_at_its_score(small):
    sc = card(small, "ones=3,twos=6,threes=3,chance=15")     # bonus already earned
    d = distribution(SMALL, sc, small.values)
    assert d.bonus_probability == 1.0
    assert np.flatnonzero(d.pmf)[0] == sc.score               # pair and yatzy may be 0
    assert d.box_mean[0] == 3 and d.box_nonzero[5] < 1


# ------------------------------------------------------------------- policy
def test_policy_matches_the_advice_everywhere_it_is_asked(nordic):
    """The tie rule of solver.query, including end-game cards full of ties."""
    rules = nordic.rules
    ds = rules.dice_space
    g = game(rules)
    rng = random.Random(5)
    cards = [card(nordic), card(nordic, "ones=0,twos=0,threes=0,fours=0,fives=0,sixes=0,"
                                        "one_pair=0,two_pairs=0,three_of_a_kind=0,"
                                        "four_of_a_kind=0,small_straight=0,large_straight=0,"
                                        "full_house=0,chance=5")]
    for _ in range(8):
        boxes = rng.sample(range(rules.n_boxes), rng.randrange(1, rules.n_boxes))
        cards.append(Scorecard.parse(",".join(
            f"{rules.boxes[b].name}={rng.choice(sorted(rules.box_points[b]))}" for b in boxes),
            rules))
    dec = decide(rules, "optimal", nordic.values, [c.mask for c in cards])
    pos = dec.position(rules.space.n_masks)
    for sc in cards:
        row = dec.rows[dec.lane_row[pos[sc.mask], sc.upper_state]]
        for k in range(rules.rolls):
            for r in rng.sample(range(ds.n_rolls), 20):
                best = advise(nordic, sc, ds.dice_of(ds.first_roll + r), k).best
                a = int(row[k, r])
                if a < rules.n_boxes:
                    assert (best.kind, best.box) == ("score", rules.boxes[a].name)
                else:
                    kept = ds.dice_of(g.by_rank[a - rules.n_boxes])
                    assert (best.kind, best.dice) == ("keep", kept)


# --------------------------------------------------------------- simulation
def _chi2_upper(df: int, z: float = 3.09) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (z = 3.09:
    the 99.9% point)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("policy", ["optimal", "greedy", "simple"])
def test_simulation_agrees_with_the_exact_distribution(small, policy):
    exact = distribution(SMALL, card(small), small.values, policy)
    sim = simulate(SMALL, small.values, 20000, seed=11, policy=policy)
    if policy == "optimal":
        assert exact.mean == pytest.approx(small.expected_score, abs=1e-9)
    _agrees(exact, sim.hist, sim.games)
    assert abs(sim.bonus_games / sim.games - exact.bonus_probability) < 0.02


def _agrees(exact, hist, games):
    """Chi-square test of score counts ``hist`` against the exact pmf."""
    expected = exact.pmf * games
    observed = np.zeros(len(expected))
    observed[:len(hist)] = hist[:len(expected)]
    assert hist[len(expected):].sum() == 0
    stat, df, e_acc, o_acc = 0.0, -1, 0.0, 0.0
    for e, o in zip(expected, observed):         # pool neighbours to >= 5 expected
        e_acc, o_acc = e_acc + e, o_acc + o
        if e_acc >= 5:
            stat += (o_acc - e_acc) ** 2 / e_acc
            df += 1
            e_acc = o_acc = 0.0
    assert stat < _chi2_upper(df)
    mean = np.dot(np.arange(len(hist)), hist) / games
    assert abs(mean - exact.mean) < 4 * exact.sd / math.sqrt(games)


def test_the_game_by_game_player_agrees_with_the_exact_distribution(small):
    sc = card(small, "ones=2")
    exact = distribution(SMALL, sc, small.values)
    est = estimate(small, sc, 20000, seed=5)
    _agrees(exact, np.round(est.pmf * est.games).astype(np.int64), est.games)
    assert abs(est.bonus_probability - exact.bonus_probability) < 0.02


@pytest.mark.parametrize("policy", ["optimal", "greedy", "simple"])
def test_simulation_with_jokers_agrees_with_the_exact_distribution(policy, tmp_path):
    rules = _joker_game("free")
    table = open_table(rules, tmp_path, progress=False)
    exact = distribution(rules, Scorecard.empty(rules), table.values, policy)
    sim = simulate(rules, table.values, 20000, seed=2, policy=policy)
    _agrees(exact, sim.hist, sim.games)
    assert sim.hist[sum(max(p) for p in rules.box_points) + 5 + 1:].sum() > 0   # bonuses
    if policy == "optimal":                      # and the game-by-game player
        est = estimate(table, Scorecard.empty(rules), 20000, seed=6)
        _agrees(exact, np.round(est.pmf * est.games).astype(np.int64), est.games)


def test_simulation_is_reproducible_and_independent_of_threads(small):
    import numba

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


def test_a_game_does_not_depend_on_how_many_are_played(small, tmp_path):
    def log(n):
        path = tmp_path / f"{n}.jsonl"
        r = CliRunner().invoke(main, ["simulate", "--rules", "nordic", "--games", str(n),
                                      "--seed", "9", "--log", str(path), "--policy", "simple"])
        assert r.exit_code == 0, r.output
        return path.read_text().splitlines()

    assert log(3)[:1 + 2 * 15] == log(2)


# ------------------------------------------------------------------- review
def test_optimal_games_review_with_zero_loss(nordic, tables_dir, tmp_path):
    path = tmp_path / "games.jsonl"
    r = CliRunner().invoke(main, ["simulate", "--games", "2", "--seed", "1", "--log", str(path),
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["yatzy_log"] == 1 and len(lines) == 1 + 2 * 15
    rules, games = read_log(path, None)
    result = review(nordic, games)
    assert len(result.decisions) >= 2 * 15 and result.total_loss == 0.0
    r = CliRunner().invoke(main, ["review", str(path), "--json", "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["total_loss"] == 0 and d["scores"] == list(result.scores)


def test_a_blunder_costs_exactly_what_the_advice_says(nordic, tables_dir, tmp_path):
    """Keeping 1 1 from 1 1 2 5 6 at the start, then playing on."""
    path = tmp_path / "blunder.jsonl"
    path.write_text('{"game": 1, "turn": 1, "rolls": [[1, 1, 2, 5, 6], "11134", [1, 1, 1, 1, 2]],'
                    ' "kept": [[1, 1], [1, 1, 1]], "box": "ones", "points": 4}\n')
    sc = card(nordic)
    adv = advise(nordic, sc, (1, 1, 2, 5, 6), 2)
    keep11 = next(a for a in adv.actions if a.kind == "keep" and a.dice == (1, 1))
    loss = adv.best.expected_final_score - keep11.expected_final_score
    assert loss > 1
    result = review(nordic, read_log(path, "nordic")[1])
    first = result.decisions[0]
    assert first.loss == pytest.approx(loss, abs=1e-12)
    assert first.chosen == "keep 1 1" and first.best == str(adv.best)
    later = advise(nordic, sc, (1, 1, 1, 3, 4), 1)
    kept = next(a for a in later.actions if a.kind == "keep" and a.dice == (1, 1, 1))
    second = later.best.expected_final_score - kept.expected_final_score
    assert result.decisions[1].loss == pytest.approx(0.0 if second <= TIE else second, abs=1e-12)
    assert result.total_loss == pytest.approx(sum(d.loss for d in result.decisions))
    assert result.costliest(1)[0] is first
    r = CliRunner().invoke(main, ["review", str(path), "--tables", str(tables_dir)])
    assert r.exit_code == 0 and f"{loss:.4f}" in r.output


@pytest.mark.parametrize("text, message", [
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "ones"}\nnot json\n', ":2: not JSON"),
    ('{"rolls": [[1, 1, 2, 5, 7]], "box": "ones"}\n', ":1: roll 1: dice '1 1 2 5 7': 7 is not a face"),
    ('{"rolls": [[1, 1, 2, 5]], "box": "ones"}\n', ":1: roll 1: dice '1 1 2 5': 4 dice given"),
    ('{"rolls": [[1, 1, 2, 5, 6], [1, 3, 3, 3, 3]], "kept": [[1, 1]], "box": "ones"}\n',
     ":1: roll 2 [1, 3, 3, 3, 3] lost the kept dice"),
    ('{"rolls": [[1, 1, 2, 5, 6], [1, 1, 3, 3, 3]], "kept": [[1, 1, 1]], "box": "ones"}\n',
     ":1: keep 1 [1, 1, 1] is not among roll 1"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "ones", "points": 3}\n', ":1: points 3"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "sevens"}\n', ":1: unknown box"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "ones"}\n{"rolls": [[1, 1, 2, 5, 6]], "box": "ones"}\n',
     ":2: box ones is already filled"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "kept": [], "box": "ones", "turn": 2}\n', ":1: turn 2"),
    ('{"rolls": [], "box": "ones"}\n', ":1: rolls must be"),
    ('{"yatzy_log": 1, "rules": "nordic:rolls=x"}\n', ":1: rules"),
    ("\n", "no turns"),
])
def test_malformed_logs_are_one_line_errors_naming_the_line(nordic, tables_dir, tmp_path,
                                                            text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    r = CliRunner().invoke(main, ["review", str(path), "--tables", str(tables_dir)])
    assert r.exit_code == 2
    assert message in r.output and r.output.count("\n") == 1, r.output


# ------------------------------------------------------------ export, strategy
def test_export_lists_every_reachable_state(small, tables_dir, tmp_path):
    r = CliRunner().invoke(main, ["export", "--format", "csv", "--rules", "forced",
                                  "--tables", str(tables_dir), "--out", str(tmp_path / "s.csv")])
    assert r.exit_code == 0, r.output
    rows = (tmp_path / "s.csv").read_text().splitlines()
    head = rows[0].split(",")
    assert head[:2] == ["filled", "ones"] and head[-4:] == [
        "upper_total", "bonus", "expected_remaining", "expected_final"]
    first = dict(zip(head, rows[1].split(",")))
    assert first["filled"] == "" and first["upper_total"] == "0"
    from solver.export import states
    cols = states(small)
    # every (mask, upper total) the filled upper boxes can make, nothing else
    want = 0
    for layer in SMALL.space.layers[:-1]:
        for mask in layer.tolist():
            totals = {0}
            for b in range(3):
                if mask >> b & 1:
                    totals = {min(t + p, 12) for t in totals for p in range(0, 4 * (b + 1), b + 1)}
            want += len(totals)
    assert len(cols["upper_total"]) == want
    assert np.all(cols["expected_final"] == cols["upper_total"] + cols["bonus"]
                  + cols["expected_remaining"])


def test_export_json_and_missing_pyarrow(tables_dir, tmp_path, monkeypatch):
    r = CliRunner().invoke(main, ["export", "--format", "json", "--rules", "forced",
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["columns"][-1] == "expected_final" and len(d["rows"]) > 100
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    r = CliRunner().invoke(main, ["export", "--format", "parquet", "--rules", "forced",
                                  "--tables", str(tables_dir), "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "needs pyarrow" in r.output and not (tmp_path / "x").exists()


def test_parquet_export(tables_dir, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "s.parquet"
    r = CliRunner().invoke(main, ["export", "--format", "parquet", "--rules", "forced",
                                  "--tables", str(tables_dir), "--out", str(out)])
    assert r.exit_code == 0, r.output
    t = pq.read_table(out)
    assert t.column_names[-1] == "expected_final" and t.num_rows > 100


def test_strategy_table_is_the_advice_for_every_roll(nordic, tables_dir, tmp_path):
    out = tmp_path / "strategy.csv"
    r = CliRunner().invoke(main, ["strategy", "--card", "yatzy=0,chance=20", "--out", str(out),
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    rows = out.read_text().splitlines()
    assert len(rows) == 1 + 3 * 252
    sc = card(nordic, "yatzy=0,chance=20")
    for line in (rows[1], rows[300], rows[-1]):
        f = dict(zip(rows[0].split(","), line.split(",")))
        best = advise(nordic, sc, tuple(int(c) for c in f["dice"]), int(f["rerolls"])).best
        assert f["action"] == str(best)
        assert float(f["expected_final_score"]) == pytest.approx(best.expected_final_score)


# ------------------------------------------------------------------ compare
def test_head_to_head_chances(small):
    best = distribution(SMALL, card(small), small.values)
    simple = distribution(SMALL, card(small), None, "simple")
    win, tie, loss = simple.versus(best)
    pairs = [(a, b, p * q) for a, p in enumerate(simple.pmf) for b, q in enumerate(best.pmf)]
    assert win == pytest.approx(sum(w for a, b, w in pairs if a > b), abs=1e-12)
    assert tie == pytest.approx(sum(w for a, b, w in pairs if a == b), abs=1e-12)
    assert loss == pytest.approx(sum(w for a, b, w in pairs if a < b), abs=1e-12)
    assert 0 < win < loss
    w, t, lo = best.versus(best)
    assert w == pytest.approx(lo, abs=1e-12) and w + t + lo == pytest.approx(1.0, abs=1e-12)


def test_compare_rules_and_policies_on_the_command_line(nordic, tables_dir):
    open_table(parse_rules("forced"), tables_dir, progress=False)
    args = ["compare", "--rules", "forced", "--rules", "nordic", "--policy", "optimal",
            "--policy", "simple", "--at-least", "200", "--tables", str(tables_dir)]
    r = CliRunner().invoke(main, args + ["--json"])
    assert r.exit_code == 0, r.output
    items = json.loads(r.output)["items"]
    assert [(i["rules"], i["policy"]) for i in items] == [
        ("forced", "optimal"), ("forced", "simple"), ("nordic", "optimal"), ("nordic", "simple")]
    assert all(i["exact"] for i in items)
    assert items[2]["mean"] == pytest.approx(nordic.expected_score, abs=1e-6)
    assert items[0]["mean"] == pytest.approx(items[0]["table_value"], abs=1e-6)
    assert items[1]["mean"] < items[0]["mean"] and items[3]["mean"] < items[2]["mean"]
    assert items[2]["at_least"]["200"] > items[0]["at_least"]["200"]
    first = items[0]["versus_first"]
    assert first["win"] == pytest.approx(first["loss"], abs=1e-12)
    assert items[2]["versus_first"]["win"] > 0.9      # nordic optimal against forced optimal
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].split() == ["rules", "policy", "mean", "sd", "P5", "P50", "P95", "bonus",
                                "vs", "1st", ">=200"]
    assert lines[3].split()[:3] == ["nordic", "optimal", f"{items[2]['mean']:.2f}"]


# -------------------------------------------------------------------- plots
def test_plots_are_png_files(tables_dir, tmp_path):
    pytest.importorskip("matplotlib")
    for args, name in ((["distribution", "--rules", "forced"], "d.png"),
                       (["simulate", "--games", "200", "--rules", "forced"], "s.png"),
                       (["distribution", "--rules", "yahtzee"], "e.png"),
                       (["simulate", "--games", "200", "--rules", "yahtzee"], "y.png"),
                       (["compare", "--rules", "forced", "--policy", "optimal", "--policy",
                         "simple"], "c.png")):
        out = tmp_path / name
        r = CliRunner().invoke(main, [*args, "--plot", str(out), "--tables", str(tables_dir)])
        assert r.exit_code == 0, r.output
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------ CLI bad input
@pytest.mark.parametrize("args, message", [
    (["distribution", "--at-least", "x"], "--at-least 'x'"),
    (["distribution", "--policy", "lucky"], "--policy 'lucky'"),
    (["distribution", "--card", "ones=7"], "impossible"),
    (["distribution", "--rules", "maxi", "--policy", "greedy"], "for the optimal policy"),
    (["distribution", "--rules", "maxi", "--games", "0"], "--games 0"),
    (["distribution", "--rules", "yahtzee", "--games", "100"], "have an exact distribution"),
    (["distribution", "--games", "100"], "have an exact distribution"),
    (["compare", "--policy", "lucky"], "--policy 'lucky'"),
    (["compare", "--rules", "maxi", "--policy", "greedy"], "for the optimal policy"),
    (["compare", "--rules", "nordic", "--rules", "nope"], "unknown rules preset"),
    (["compare", "--card", "ones=7"], "impossible"),
    (["compare", "--plot", "/nonexistent/dir/c.png"], "cannot write"),
    (["simulate", "--games", "0"], "--games 0"),
    (["simulate", "--games", "ten"], "--games 'ten'"),
    (["simulate", "--games", "5", "--seed", "-1"], "--seed -1"),
    (["simulate", "--games", "5", "--log", "/nonexistent/dir/log.jsonl"], "cannot write"),
    (["export", "--format", "xml"], "--format 'xml'"),
    (["review", "/nonexistent.jsonl"], "cannot read"),
    (["simulate", "--rules", "maxi", "--games", "1", "--policy", "greedy"], "only the optimal policy"),
])
def test_bad_input_is_a_one_line_error_with_status_2(args, message, tables_dir):
    r = CliRunner().invoke(main, [*args, "--tables", str(tables_dir)])
    assert r.exit_code == 2, r.output
    assert message in r.output and r.output.count("\n") == 1, r.output


def test_plot_without_matplotlib_fails_before_any_work(monkeypatch, tables_dir):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    r = CliRunner().invoke(main, ["distribution", "--plot", "x.png", "--rules", "forced",
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 2 and "needs matplotlib" in r.output


def test_library_errors_are_input_errors(small):
    with pytest.raises(InputError):
        simulate(SMALL, small.values, 0)
    with pytest.raises(InputError):
        distribution(SMALL, card(small, "ones=1,twos=2,threes=3,one_pair=2,chance=3,yatzy=0"),
                     small.values)
