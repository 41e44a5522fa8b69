"""The compiled player and reviews under jokers, yahtzee bonuses and saved
rolls: optimal play reviews with zero loss, a blunder with its exact loss,
the mean score agrees with the table, and distributions estimated from
played games start from the card given."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from small_games import SMALL, agrees, card, counts_of

from yatzy.cli import main
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.research.distribution import distribution
from yatzy.research.games import estimate, run_games
from yatzy.research.review import read_log, review
from yatzy.rules.boxes import groups, straight, upper
from yatzy.rules.ruleset import PRESETS, Preset, Rules, parse_rules
from yatzy.tables.store import open_table

JOKER = Rules("joker", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                        straight("run", ((1, 2), (2, 3)), 7), groups("yahtzee", (2,), points=20)),
              dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=5, yahtzee_bonus=30,
              joker="forced")
BANK = Rules("bank", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                      groups("pair", (2,)), straight("run", ((1, 2, 3),), 10)),
             dice=3, faces=3, rolls=2, bonus_threshold=5, bonus_points=7, saved_rolls=True)


@pytest.fixture(scope="module", params=[JOKER, BANK], ids=["joker", "bank"])
def table(request, tmp_path_factory):
    return open_table(request.param, tmp_path_factory.mktemp("t"), progress=False)


def _log(table, games, seed, path):
    lines = []
    sim = run_games(table, games, seed, lines.append)
    path.write_text(json.dumps({"yatzy_log": 1}) + "\n" + "\n".join(lines) + "\n")
    return sim, lines


def test_optimal_play_reviews_with_zero_loss(table, tmp_path):
    sim, lines = _log(table, 20, 1, tmp_path / "g.jsonl")
    parsed = _parse(table.rules, tmp_path / "g.jsonl")
    result = review(table, parsed)
    assert result.total_loss == 0
    assert sum(result.scores) == int(np.dot(np.arange(len(sim.hist)), sim.hist))
    if table.rules.saved_rolls:             # the bank was used: turns with more than 2 rolls
        assert any(len(json.loads(x)["rolls"]) > 2 for x in lines)
    else:                                   # a joker or yahtzee bonus happened
        assert any(json.loads(x)["box"] != "yahtzee" and len(set(json.loads(x)["rolls"][-1])) == 1
                   for x in lines)


def _parse(rules, path):
    return read_log(path, rules)[1]


def test_a_blunder_costs_exactly_its_loss(table, tmp_path):
    _, lines = _log(table, 1, 3, tmp_path / "g.jsonl")
    first = json.loads(lines[0])
    rules = table.rules
    card = Scorecard.empty(rules)
    dice = tuple(first["rolls"][-1])
    adv = advise(table, card, dice, rules.rolls - len(first["rolls"]))
    worst = adv.actions[-1]
    assert worst.kind == "score"        # seeded: a worst action to blunder with, never skipped
    first["box"], first["points"] = worst.box, worst.points
    lines[0] = json.dumps(first)
    (tmp_path / "b.jsonl").write_text("\n".join(lines[:1]) + "\n")
    result = review(table, _parse(rules, tmp_path / "b.jsonl"))
    assert result.total_loss == pytest.approx(worst.loss, abs=1e-9)


def test_mean_score_agrees_with_the_table(table):
    sim = run_games(table, 400, 7)
    lo, hi = sim.ci95
    width = hi - lo
    assert lo - width < table.expected_score < hi + width


def test_estimate_starts_from_the_card(table):
    rules = table.rules
    card = Scorecard.parse("ones=2,threes=3", rules)
    dist = estimate(table, card, 3000, 4)
    assert dist.games == 3000 and dist.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist.pmf[:card.score].sum() == 0.0
    assert (dist.box_mean[0], dist.box_nonzero[0], dist.box_mean[2]) == (2, 1.0, 3)
    lo, hi = dist.ci95
    assert lo - (hi - lo) < dist.table_value < hi + (hi - lo)
    again = estimate(table, card, 3000, 4)                  # seeded: the same games
    assert np.array_equal(again.pmf, dist.pmf)


def test_review_rejects_rolls_beyond_the_bank(tmp_path):
    t = open_table(BANK, tmp_path, progress=False)
    line = {"rolls": ["111", "111", "111"], "kept": ["11", "11"], "box": "ones"}
    (tmp_path / "x.jsonl").write_text(json.dumps(line) + "\n")
    with pytest.raises(Exception, match="3 rolls, but the turn has 1 \\+ 1 \\(bank 0\\)"):
        review(t, _parse(BANK, tmp_path / "x.jsonl"))


def test_yahtzee_simulate_and_review_on_the_command_line(tables_dir, tmp_path):
    open_table(parse_rules("yahtzee"), tables_dir, progress=False)
    log = tmp_path / "y.jsonl"
    r = CliRunner().invoke(main, ["simulate", "--rules", "yahtzee", "--games", "100", "--seed",
                                  "5", "--log", str(log), "--json", "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 100
    lines = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    assert any(x["box"] != "yahtzee" and len(set(x["rolls"][-1])) == 1 for x in lines)
    r = CliRunner().invoke(main, ["review", str(log), "--json", "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output                  # the points logged are checked too
    assert json.loads(r.stdout)["total_loss"] == 0
    r = CliRunner().invoke(main, ["simulate", "--rules", "yahtzee", "--games", "3",
                                  "--policy", "greedy", "--json", "--tables", str(tables_dir)])
    assert r.exit_code == 0 and json.loads(r.stdout)["policy"] == "greedy"


def test_saved_rolls_distribution_is_estimated_from_games(tmp_path, monkeypatch):
    monkeypatch.setitem(PRESETS, "bank", Preset("bank", "a small game with saved rolls",
                                                lambda: BANK))
    open_table(BANK, tmp_path, progress=False)
    args = ["distribution", "--rules", "bank", "--games", "2000", "--seed", "3", "--json",
            "--tables", str(tmp_path)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["exact"] is False and out["games"] == 2000
    pmf = {int(s): p for s, p in out["pmf"].items()}
    assert sum(pmf.values()) == pytest.approx(1.0, abs=1e-12)
    mean = sum(s * p for s, p in pmf.items())            # the interval, from the games' scores
    sd = math.sqrt(sum((s - mean) ** 2 * p for s, p in pmf.items()) * 2000 / 1999)
    half = 1.959964 * sd / math.sqrt(2000)
    assert out["mean"] == pytest.approx(mean, abs=1e-9)
    assert out["ci95"] == pytest.approx([mean - half, mean + half], abs=1e-5)
    lo, hi = out["ci95"]
    assert lo - (hi - lo) < out["table_value"] < hi + (hi - lo)
    r = CliRunner().invoke(main, args[:-3] + ["--tables", str(tmp_path)])
    assert r.exit_code == 0 and "estimated     from 2000 games (seed 3)" in r.output
    r = CliRunner().invoke(main, args[:3] + ["--policy", "greedy", "--tables", str(tmp_path)])
    assert r.exit_code == 2 and "for the optimal policy" in r.output
    r = CliRunner().invoke(main, ["compare", "--rules", "bank", "--games", "2000", "--seed", "3",
                                  "--tables", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert f"{out['mean']:.2f}*" in r.output and "* estimated from 2000" in r.output


def test_yahtzee_distribution_is_exact(tables_dir):
    table = open_table(parse_rules("yahtzee"), tables_dir, progress=False)
    r = CliRunner().invoke(main, ["distribution", "--rules", "yahtzee", "--card",
                                  "yahtzee=50,chance=20,ones=3,twos=6,threes=9", "--json",
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["exact"] is True and out["games"] is None and out["ci95"] is None
    assert sum(out["pmf"].values()) == pytest.approx(1.0, abs=1e-12)
    card = Scorecard.parse("yahtzee=50,chance=20,ones=3,twos=6,threes=9", table.rules)
    assert out["mean"] == pytest.approx(card.score + table.value(card.mask, card.upper_state),
                                        abs=1e-9)
    assert out["table_value"] == pytest.approx(out["mean"], abs=1e-9)
    parts = sum(b["mean"] for b in out["boxes"].values()) + 35 * out["bonus_probability"]
    assert parts + out["yahtzee_bonus_mean"] == pytest.approx(out["mean"], abs=1e-9)
    assert out["yahtzee_bonus_mean"] > 0
    # a further yahtzee earns 100: scores beyond the most without one (88 on
    # the card, 4s-6s 75, bonus 35, lower boxes 155)
    assert max(int(s) for s in out["pmf"]) > 88 + 75 + 35 + 155


def test_the_game_by_game_player_agrees_with_the_exact_distribution(small):
    sc = card(small, "ones=2")
    exact = distribution(SMALL, sc, small.values)
    est = estimate(small, sc, 20000, seed=5)
    agrees(exact, counts_of(est), est.games)
    assert abs(est.bonus_probability - exact.bonus_probability) < 0.02
