"""The objectives as objects: each is what the options ask for, built in one
place; ``Solver.advise``/``ev`` answer under it what the tables say; and
chances (of reaching a target) are ranked as chances: tied only when they
agree relatively, so a chance of 1e-10 is never tied with 0 (the 1e-9
tolerance of points would tie them and prefer the earlier box)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from yatzy.api import Solver
from yatzy.errors import InputError
from yatzy.players.advice import expected_final_score
from yatzy.players.objectives import Risk, Score, Target, Win, objective_from
from yatzy.players.strategy import advise
from yatzy.rules.boxes import NORDIC, Box, BoxKind, groups
from yatzy.rules.ruleset import Rules
from yatzy.rules.ties import RELATIVE, TIE, ranking

# Five dice, the six upper boxes, four alike, chance and a yatzy: all the
# most points come with a chance far below 1e-9.
FIVE = Rules("five", NORDIC[:6] + (NORDIC[9], Box("chance", BoxKind.CHANCE),
                                   groups("yatzy", (5,), points=50)), dice=5)


@pytest.fixture(scope="module")
def five(tables_dir):
    return Solver(FIVE, tables=tables_dir)


def test_five_sixes_at_the_top_target_ranks_the_chances_not_the_box_order():
    """``advise --target 374 --card sixes=30 --dice 66666 --rerolls 0``
    (nordic): ones 0, chance 2.4e-10, yatzy 1.4e-10, in the boxes' order
    of preference.  Within 1e-9 all three were tied and ones came first."""
    chances, codes = [0.0, 2.4e-10, 1.4e-10], [0, 13, 14]
    assert ranking(chances, codes, TIE) == [0, 1, 2]            # the old rule
    assert ranking(chances, codes, 0.0, RELATIVE) == [1, 2, 0]


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=12), st.data())
def test_relative_ties_order_chances_by_size_and_only_near_equal_ones_by_preference(ps, data):
    codes = data.draw(st.permutations(range(len(ps))))
    order = ranking(ps, codes, 0.0, RELATIVE)
    assert sorted(order) == list(range(len(ps)))
    shown = [ps[i] for i in order]
    for a, b in zip(shown, shown[1:]):
        assert b <= a * (1 + 2 * RELATIVE)                    # never a larger one after
    assert shown[0] >= max(ps) * (1 - RELATIVE)
    for i in order:                                          # a positive chance beats 0
        if ps[i] == 0.0:
            assert all(ps[j] == 0.0 for j in order[order.index(i):])


def test_the_five_dice_game_has_chances_below_the_old_tolerance(five):
    table = five.target()
    table.need(0, 0)                          # the empty card's sub-game: every state
    chances = table.values
    assert ((chances > 0) & (chances < TIE)).any()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(filled=st.sets(st.sampled_from(range(6)), max_size=4),
       dice=st.lists(st.integers(1, 6), min_size=5, max_size=5), alike=st.booleans(),
       rerolls=st.integers(0, 2), slack=st.integers(0, 30))
@example(filled={5}, dice=[6] * 5, alike=True, rerolls=0, slack=0)
def test_target_advice_ranks_every_positive_chance_above_every_zero(five, filled, dice, alike,
                                                                   rerolls, slack):
    """Playing for nearly the most a card can still make: the best action
    attains the largest chance, chances never rise down the list, and no
    action without a chance comes before one with a chance."""
    sc = five.card(",".join(f"{FIVE.boxes[b].name}={(b + 1) * 5}" for b in sorted(filled)))
    dice = [dice[0]] * 5 if alike else dice
    advice = five.advise(sc, dice, rerolls, Target(top_target(five, sc) - slack))
    ps = [a.p_at_least for a in advice.actions]
    assert ps[0] >= max(ps) * (1 - RELATIVE)           # the largest, or tied with it
    assert all(b <= a * (1 + 2 * RELATIVE) for a, b in zip(ps, ps[1:]))
    zeros = [i for i, p in enumerate(ps) if p == 0.0]
    if zeros and zeros[0] > 0:
        assert min(zeros) > max(i for i, p in enumerate(ps) if p > 0)


def top_target(solver, card) -> int:
    """The largest final score ``card`` can still reach."""
    t = card.rules.max_score
    while solver.ev(card, Target(t)) == 0.0:
        t -= 1
    return t


def test_five_dice_at_the_most_the_card_can_make_prefer_the_tiny_chance(five):
    """sixes=30 and five sixes with no reroll, playing for the most the card
    can make: scoring them as chance or yatzy keeps a chance below 1e-9,
    scoring them in ones (preferred in the box order) keeps none."""
    sc = five.card("sixes=30")
    advice = five.advise(sc, "66666", 0, Target(top_target(five, sc)))
    best = advice.best
    assert 0.0 < best.p_at_least < TIE
    assert best.box in ("chance", "yatzy")
    assert advice.find("score ones").p_at_least == 0.0


# ------------------------------------------------------------ the objects
def test_the_options_build_one_objective_or_one_line():
    assert objective_from() == Score()
    assert objective_from(theta=0.05) == Risk(0.05)
    assert objective_from(target=200) == Target(200)
    assert objective_from(opponents=["ones=3"]) == Win(["ones=3"])
    for bad in ({"theta": 0.1, "target": 200}, {"target": 200, "opponents": ["x"]},
                {"theta": 0.1, "done": ["ones=3"]}):
        with pytest.raises(InputError, match="do not go together"):
            objective_from(**bad)


def test_each_objective_answers_with_its_own_table(five):
    card = five.card("sixes=30,ones=5")
    assert five.ev(card, Score()) == five.ev(card) == expected_final_score(five.table, card)
    assert five.advise(card, "11256", 2, Score()) == advise(five.table, card, (1, 1, 2, 5, 6), 2)
    assert five.ev(card, Target(120)) == five.target().probability(card, 120) == \
        five.chance(card, 120)
    risky = Solver(FIVE, theta=0.05, tables=five.tables)
    assert five.ev(card, Risk(0.05)) == risky.ev(card)
    assert five.advise(card, "11256", 2, Risk(0.05)) == risky.advise(card, "11256", 2)
    assert five.advise(card, "11256", 2, Score()) != risky.advise(card, "11256", 2)


@pytest.mark.parametrize("objective, match", [
    (Target(10**6), "must be between 0 and"),
    (Risk(5.0), "theta must be between"),
    (Win([]), "expected 1 to 5 opponents"),
    (Win(["ones=9"]), "opponent card 'ones=9'"),
    ("target 200", "expected Score\\(\\), Risk\\(theta\\), Target\\(points\\) or Win"),
])
def test_a_bad_objective_is_one_line(five, objective, match):
    with pytest.raises(InputError, match=match) as e:
        five.advise("", "11256", 2, objective)
    assert "\n" not in str(e.value)


def test_each_objective_says_how_ev_reports_it(five):
    """``yatzy ev`` asks the objective (no type checks in the command): the
    expected-score objective whose value it prints, and what it adds."""
    card = five.card("")
    assert Score().ev_basis == Score() and Risk(0.05).ev_basis == Risk(0.05)
    assert Target(100).ev_basis == Score()
    assert Score().ev_fields(five, card) == {} and Score().ev_lines(card, {}) == []
    fields = Target(100).ev_fields(five, card)
    assert fields == {"target": 100, "p_at_least": five.ev(card, Target(100))}
    line, = Target(100).ev_lines(card, fields)
    assert line.startswith("P(final >= 100)") and f"{fields['p_at_least']:.6f}" in line
    with pytest.raises(InputError):
        Target(10 ** 6).ev_fields(five, card)           # checked for the rules first
