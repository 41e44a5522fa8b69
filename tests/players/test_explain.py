"""Exact explanations (solver.players.explain): the parts of every action
add up to its loss, the parts table agrees with the exact forward
distribution (bonus share, each box's mean) and sums to the value table."""

from __future__ import annotations

import re

import numpy as np
import pytest
from small_games import SMALL, TINY, joker_game

from solver.api import Solver
from solver.errors import InputError
from solver.players.advice import advise, end_turn
from solver.players.explain import (
    BONUS,
    GROUPS,
    TurnParts,
    explain,
    open_parts,
    outlook,
    parts_path,
)
from solver.position.scorecard import Scorecard
from solver.research.distribution import distribution
from solver.rules.ruleset import parse_rules
from solver.rules.ties import tolerance
from solver.tables.store import open_table

FIVE_DICE = ("nordic", "forced", "upper_first", "yahtzee")


def random_positions(table, rng, n):
    """``n`` positions (card, dice, rerolls) met in games of random legal
    choices (a random box, a random number of rerolls)."""
    rules = table.rules
    out = []
    card = Scorecard.empty(rules)
    while len(out) < n:
        if card.is_full:
            card = Scorecard.empty(rules)
        dice = tuple(sorted(rng.integers(1, rules.faces + 1, rules.dice).tolist()))
        rerolls = int(rng.integers(0, rules.rolls))
        out.append((card, dice, rerolls))
        adv = advise(table, card, dice, 0)
        pick = adv.actions[int(rng.integers(len(adv.actions)))]
        card = end_turn(card, rules.box_index(pick.box), pick.points, dice, 0)
    return out


def check_parts_add_up(table, parts, positions, groups=False):
    tol = tolerance(table)
    checked = 0
    for card, dice, rerolls in positions:
        adv = advise(table, card, dice, rerolls)
        turn = TurnParts(table, parts, card)
        for action in adv.actions:
            why = explain(turn, adv, action, groups)
            total = sum(p.points for p in why.parts)
            slack = 1e-9 + (tol if action.loss == 0 else 0.0)
            assert abs(total - action.loss) <= slack, (str(card), dice, rerolls, str(action))
            # the parts' expected final score is the advice's value
            assert turn.expected(turn.action_parts(dice, rerolls, action)) == pytest.approx(
                action.expected_final_score, abs=1e-9)
            checked += 1
    return checked


@pytest.mark.parametrize("spec", FIVE_DICE)
def test_parts_add_up_to_the_loss_on_random_positions(spec, tables_dir):
    rules = parse_rules(spec)
    table = open_table(rules, tables_dir, progress=False)
    parts = open_parts(rules, tables_dir)
    rng = np.random.default_rng(25)
    positions = random_positions(table, rng, 12)
    assert check_parts_add_up(table, parts, positions) > 3 * len(positions)
    assert check_parts_add_up(table, parts, positions[:3], groups=True) >= 3


@pytest.mark.parametrize("spec", FIVE_DICE)
def test_bonus_chance_and_box_means_from_the_start_are_the_exact_distributions(spec,
                                                                               tables_dir):
    solver = Solver(spec, tables=tables_dir)
    dist = solver.distribution()
    look = solver.outlook()
    assert look.bonus_chance == pytest.approx(dist.bonus_probability, abs=1e-12)
    means = dict(zip((b.name for b in solver.rules.boxes), dist.box_mean))
    for name, expected in look.boxes.items():
        assert expected == pytest.approx(means[name], abs=1e-9), name
    total = (sum(look.boxes.values()) + solver.rules.bonus_points * look.bonus_chance
             + look.yahtzee_bonus)
    assert total == pytest.approx(solver.ev(), abs=1e-9)
    if solver.rules.yahtzee_bonus:
        assert look.yahtzee_bonus == pytest.approx(dist.yahtzee_bonus_mean, abs=1e-9)


@pytest.mark.parametrize("rules", [TINY, SMALL, joker_game("forced"), joker_game("free")],
                         ids=["tiny", "small", "joker_forced", "joker_free"])
def test_every_state_parts_sum_to_its_value(rules, tables_dir):
    """Sum over boxes + bonus points x chance + yahtzee bonus = V(mask, u)
    for every stored state, and the bonus share from any card is the exact
    distribution's."""
    table = open_table(rules, tables_dir, progress=False)
    parts = open_parts(rules, tables_dir)
    from solver.kernels.explain import part_layout
    from solver.space import state_space
    lay, sp = part_layout(rules), state_space(rules)
    weights = np.ones(rules.n_boxes + 2)
    weights[rules.n_boxes] = rules.bonus_points
    for mask in np.concatenate(sp.layers):
        for u in range(lay.start[mask], lay.lanes[mask]):
            got = float(parts.parts(mask, u) @ weights)
            assert got == pytest.approx(float(table.values[mask, u]), abs=1e-9), (mask, u)
    rng = np.random.default_rng(3)
    for card, _, _ in random_positions(table, rng, 8):
        if card.is_full:
            continue
        dist = distribution(rules, card, table.values)
        look = outlook(parts, card)
        assert look.bonus_chance == pytest.approx(dist.bonus_probability, abs=1e-12)
    check_parts_add_up(table, parts, random_positions(table, np.random.default_rng(4), 10))


def test_sentences_name_the_largest_costs_in_three_languages(tables_dir):
    solver = Solver("nordic", tables=tables_dir)
    card = "ones=3,twos=6,threes=9,fours=12,fives=15"
    why = solver.explain(card, "66662", 0)
    assert why[0].action == why[0].best and why[0].parts == ()
    worst = max(why, key=lambda e: e.loss)
    assert worst.parts[0].points >= worst.parts[-1].points
    en, nb, sv = (worst.sentence(lang) for lang in ("en", "nb", "sv"))
    loss = f"{worst.loss:.2f}"
    assert loss in en and loss.replace(".", ",") in nb and loss.replace(".", ",") in sv
    assert not re.search(r"\d\.\d", nb + sv)          # decimal commas in nb and sv
    sixes = next(e for e in why if e.action.box == "chance")
    assert "sixes" in sixes.sentence("en") and "seksere" in sixes.sentence("nb")
    assert "sexor" in sixes.sentence("sv")
    bonus = next(p for p in sixes.parts if p.name == BONUS)
    assert bonus.best == 1.0 and 0 < bonus.chosen < 1     # 24 in sixes makes the bonus sure
    grouped = solver.explain(card, "66662", 0, groups=True)
    assert {p.name for e in grouped for p in e.parts} <= set(GROUPS) | {BONUS}
    with pytest.raises(InputError, match="language"):
        worst.sentence("de")


def test_the_table_is_stored_beside_the_value_table_and_reopened(tables_dir):
    first = open_parts(TINY, tables_dir)
    assert parts_path(TINY, tables_dir).exists()
    assert parts_path(TINY, tables_dir).name.endswith("-explain.tbl")
    again = open_parts(TINY, tables_dir)
    np.testing.assert_array_equal(first.values, again.values)


def test_unsupported_rules_and_objectives_are_one_line_errors(tables_dir):
    with pytest.raises(InputError, match="one column"):
        Solver("triple", tables=tables_dir).parts()
    with pytest.raises(InputError, match="saved rolls"):
        Solver("maxi", tables=tables_dir).parts()
    with pytest.raises(InputError, match="risk"):
        Solver("nordic", theta=0.01, tables=tables_dir).parts()
