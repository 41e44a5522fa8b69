"""Puzzles (yatzy.research.puzzles): reproducible by seed and by date,
kept only where the choice matters, and the noisy player's temperature
orders its losses."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from yatzy.errors import InputError
from yatzy.players.strategy import advise
from yatzy.research import puzzles as pz
from yatzy.research.review import header_line, turn_line


def test_the_same_seed_gives_the_same_puzzles_and_another_seed_others(nordic):
    first = [p.key for p in pz.draw(nordic, 6, seed=11)]
    assert first == [p.key for p in pz.draw(nordic, 6, seed=11)]
    assert first != [p.key for p in pz.draw(nordic, 6, seed=12)]
    assert len(first) == 6


def test_daily_puzzles_depend_on_the_date_alone(nordic):
    day = dt.date(2026, 12, 1)
    seed = pz.daily_seed(day, nordic.rules)
    assert seed == pz.daily_seed(dt.date(2026, 12, 1), nordic.rules)
    assert seed != pz.daily_seed(day + dt.timedelta(days=1), nordic.rules)
    assert 0 <= seed < 2**63
    assert ([p.key for p in pz.draw(nordic, 3, seed)]
            == [p.key for p in pz.draw(nordic, 3, pz.daily_seed(day, nordic.rules))])


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_puzzle_has_its_levels_gap_between_best_and_second_best(nordic, level):
    lo, hi = pz.LEVELS[level]
    for p in pz.draw(nordic, 4, seed=level, level=level):
        advice = advise(nordic, p.card, p.dice, p.rerolls)
        assert lo <= advice.actions[1].loss < hi and advice.actions[1].loss == p.gap
        assert p.level == level
        again = pz.Puzzle.parse(p.key, nordic)
        assert (again.card, again.dice, again.rerolls) == (p.card, p.dice, p.rerolls)


def test_kinds_follow_the_rerolls_left(nordic):
    assert [pz.kind_of(nordic.rules, r) for r in (2, 1, 0)] == list(pz.KINDS)


def test_a_hotter_player_loses_more_per_decision(nordic):
    cold = pz.noisy_anchor(nordic, 0.25, 4, seed=1)
    hot = pz.noisy_anchor(nordic, 2.0, 4, seed=1)
    best = pz.noisy_anchor(nordic, 0.0, 2, seed=1)
    assert best.mean_loss == 0.0 and best.policy == "optimal"
    assert 0 < cold.mean_loss < hot.mean_loss
    assert cold.decisions >= 4 * nordic.rules.n_boxes


def test_puzzles_from_a_log_put_the_players_costliest_decision_first(nordic, tmp_path):
    rules = nordic.rules
    log = tmp_path / "game.jsonl"
    lines = [header_line(rules)]
    rng = np.random.default_rng(5)
    steps, _ = pz.play_noisy(nordic, 3.0, rng)
    turn, rolls, kept = 1, [], []
    for s in steps:
        rolls.append(s.advice.dice)
        if s.chosen.kind == "keep":
            kept.append(s.chosen.dice)
            continue
        lines.append(turn_line(rules, 1, turn, rolls, kept, rules.box_index(s.chosen.box),
                               s.chosen.points))
        turn, rolls, kept = turn + 1, [], []
    log.write_text("\n".join(lines) + "\n")
    found = pz.from_log(nordic, str(log), 3)
    worst = max((s for s in steps if pz.gap(s.advice) >= pz.LEVELS[0][0]),
                key=lambda s: s.loss)
    assert (found[0].card, found[0].dice, found[0].rerolls) == (
        worst.advice.card, worst.advice.dice, worst.advice.rerolls)


def test_bad_levels_and_rules_are_one_line_errors(nordic):
    with pytest.raises(InputError, match="level"):
        pz.draw(nordic, 1, level=7)
    with pytest.raises(InputError, match="puzzle"):
        pz.Puzzle.parse("nonsense", nordic)
