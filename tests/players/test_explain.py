"""Exact explanations (yatzy.players.explain): the parts of every action
add up to its loss, the parts table agrees with the exact forward
distribution (bonus share, each box's mean) and sums to the value table;
what surfaces show (``Explanation.shares``, ``sum_text``, ``sentence``) is
every part of the loss, the rest named as one part, adding up to the loss
exactly and, as printed in en/nb/sv, to the printed loss."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from small_games import SMALL, TINY, joker_game

from yatzy.api import Solver
from yatzy.errors import InputError
from yatzy.players.explain import (
    BONUS,
    GROUPS,
    NAMED,
    OTHER,
    SMALLEST,
    TurnParts,
    apportion,
    explain,
    open_parts,
    outlook,
    parts_path,
)
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard, end_turn
from yatzy.research.distribution import distribution
from yatzy.rules.ruleset import parse_rules
from yatzy.rules.ties import tolerance
from yatzy.tables.store import open_table

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
    from yatzy.kernels.explain import part_layout
    from yatzy.space import state_space
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


SIGNED = re.compile(r"([+\u2212])(\d+)[.,](\d\d)")


def printed(text: str) -> list[int]:
    """The signed numbers of a printed sum, in hundredths (either decimal mark)."""
    return [(1 if s == "+" else -1) * (100 * int(a) + int(b)) for s, a, b in SIGNED.findall(text)]


def check_shares(e, tol: float) -> None:
    """What a surface shows of ``e`` adds up: the shares to the loss (1e-9),
    every part in exactly one share, the rest (if any) last and named,
    the named ones largest first, each shown to the cent of its value, the
    shown ones and the printed sum in every language to the printed loss, a
    gain printed with a plus and a cost with a minus."""
    loss = e.action.loss
    slack = 1e-9 + (tol if loss == 0 else 0.0)
    shares = e.shares
    assert abs(math.fsum(s.points for s in shares) - loss) <= slack
    assert abs(math.fsum(s.points for s in shares) - e.loss) <= 1e-12
    held = [n for s in shares for n in s.parts]
    names = {p.name for p in e.parts} | {p.name for p in e.grouped}
    assert len(held) == len(set(held)) and set(held) <= names
    assert set(held) in ({p.name for p in e.parts}, {p.name for p in e.grouped})
    named = [s for s in shares if s.name != OTHER]
    assert [s.name for s in shares].count(OTHER) <= 1 and OTHER not in [s.name for s in named]
    if len(named) < len(shares):
        assert shares[-1].name == OTHER and shares[-1].parts
    exact = {(p.name, p.points) for p in e.parts + e.grouped}
    assert all((s.name, s.points) in exact for s in named)
    assert all(abs(s.points) >= SMALLEST for s in named) and len(named) <= NAMED
    assert [abs(s.points) for s in named] == sorted((abs(s.points) for s in named), reverse=True)
    cents = round(float(f"{loss:.2f}") * 100)
    assert sum(round(s.shown * 100) for s in shares) == (cents if shares else 0)
    assert all(abs(s.shown - s.points) < 0.01 + 1e-9 for s in shares)
    for lang in ("en", "nb", "sv"):
        text = e.sum_text(lang)
        if not shares:
            assert text == ""
            continue
        got = printed(text)
        total = got.pop() if cents else 0
        assert len(got) == len(shares) and sum(got) == total == -cents, text
        for s, n in zip(shares, got):
            assert n >= 0 if s.points < 0 else n <= 0, text     # a gain +, a cost −
            assert s.label(lang) in text
        if lang != "en":
            assert not re.search(r"\d\.\d", text + e.sentence(lang))
        sentence = e.sentence(lang)
        if loss > 0:
            assert f"{loss:.2f}".replace(".", "," if lang != "en" else ".") in sentence
            costs = [s for s in named if s.points > 0]
            if costs:                                   # the largest cost is named
                assert costs[0].said(lang) in sentence, sentence


def game_positions(table):
    """Positions met in games: a card reached by scoring drawn dice in drawn
    boxes, then drawn dice and rerolls (a hypothesis strategy)."""
    rules = table.rules

    @st.composite
    def draw(data):
        card = Scorecard.empty(rules)
        dice_st = st.lists(st.integers(1, rules.faces), min_size=rules.dice,
                           max_size=rules.dice).map(lambda d: tuple(sorted(d)))
        for _ in range(data(st.integers(0, rules.n_boxes - 1))):
            dice = data(dice_st)
            options = advise(table, card, dice, 0).actions
            pick = options[data(st.integers(0, len(options) - 1))]
            card = end_turn(card, rules.box_index(pick.box), pick.points, dice, 0)
        return card, data(dice_st), data(st.integers(0, rules.rolls - 1))
    return draw()


def check_position(table, parts, position, groups=False) -> int:
    card, dice, rerolls = position
    adv = advise(table, card, dice, rerolls)
    turn = TurnParts(table, parts, card)
    for action in adv.actions:
        check_shares(explain(turn, adv, action, groups), tolerance(table))
    return len(adv.actions)


@pytest.mark.parametrize("game", ["tiny", "small"])
def test_what_is_shown_adds_up_on_positions_of_small_games(game, request, tables_dir):
    table = request.getfixturevalue(game)
    parts = open_parts(table.rules, tables_dir)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(game_positions(table), st.booleans())
    def check(position, groups):
        check_position(table, parts, position, groups)
    check()


def test_what_is_shown_adds_up_on_nordic_positions(nordic, tables_dir):
    parts = open_parts(nordic.rules, tables_dir)
    positions = random_positions(nordic, np.random.default_rng(32), 10)
    assert sum(check_position(nordic, parts, p) for p in positions) > 30


def test_the_rest_is_named_and_a_gain_is_shown_as_a_gain(small, tables_dir):
    """Among the actions of some positions there are sums with a rest and
    with gains; each is printed as such ("other boxes", a plus)."""
    parts = open_parts(small.rules, tables_dir)
    seen = {"rest": 0, "gain": 0}
    for card, dice, rerolls in random_positions(small, np.random.default_rng(7), 12):
        adv = advise(small, card, dice, rerolls)
        turn = TurnParts(small, parts, card)
        for action in adv.actions:
            e = explain(turn, adv, action)
            if e.shares and e.shares[-1].name == OTHER:
                seen["rest"] += 1
                assert "other boxes" in e.sum_text("en") and "andre bokser" in e.sum_text("nb")
                assert "övriga rutor" in e.sum_text("sv")
                assert set(e.shares[-1].parts) == {p.name for p in e.parts} - {
                    s.name for s in e.shares[:-1]}
            for s in e.shares:
                if s.points <= -0.005:
                    seen["gain"] += 1
                    assert f"{s.label('en')} +{-s.shown:.2f}" in e.sum_text("en")
    assert seen["rest"] > 3 and seen["gain"] > 3, seen


def test_apportion_keeps_the_sum_and_rounds_each_value_down_or_up():
    rng = np.random.default_rng(5)
    for _ in range(300):
        values = list(rng.normal(0, 2, rng.integers(1, 8)))
        shown = apportion(values, math.fsum(values))
        assert sum(round(v * 100) for v in shown) == round(float(f"{math.fsum(values):.2f}") * 100)
        for v, w in zip(values, shown):
            assert math.floor(v * 100) <= round(w * 100) <= math.floor(v * 100) + 1


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


def test_several_columns_are_refused_naming_the_one_column_rules():
    from yatzy.players.explain import check_explain_rules
    from yatzy.rules.ruleset import parse_rules
    triple = parse_rules("triple")
    with pytest.raises(InputError) as e:
        check_explain_rules(triple)
    assert str(e.value) == (f"rules triple: explanations cover one column; "
                            f"use --rules {triple.column_rules.spec}")
