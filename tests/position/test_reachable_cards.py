"""A card is accepted exactly when a game could reach it, for every preset:
every card of randomly played games (all dice alike often, so that further
yahtzees, jokers and their bonuses occur) reads back as itself, and the
cards no game reaches -- points a box cannot hold, a yahtzee bonus without
a scored yahtzee or without a box holding the further yahtzee, boxes the
order cannot have filled, a bank no turn leaves -- are refused in one line."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yatzy.errors import InputError
from yatzy.position.scorecard import Scorecard
from yatzy.position.scoring import CardState, score_turn
from yatzy.rules.ruleset import PRESETS, parse_rules


def rolls(rules):
    """Dice of ``rules``: all alike a third of the time, else any."""
    faces = st.integers(1, rules.faces)
    return st.one_of(faces.map(lambda f: (f,) * rules.dice),
                     st.lists(faces, min_size=rules.dice, max_size=rules.dice).map(tuple),
                     st.lists(faces, min_size=rules.dice, max_size=rules.dice).map(tuple))


def play(rules, data) -> list[Scorecard]:
    """The cards of one game played with drawn dice, boxes and rerolls left."""
    card, cards = Scorecard.empty(rules), []
    while not card.is_full:
        dice = data.draw(rolls(rules))
        column, box = data.draw(st.sampled_from(card.allowed()))
        one = card.column(column)
        left = data.draw(st.integers(0, one.max_rerolls))
        try:
            done = score_turn(rules, CardState(one.mask, one.upper_state, one.bank), box, dice,
                              rerolls_left=left, column=column - 1)
        except InputError:               # a further yahtzee that must go elsewhere (joker)
            continue
        card = card.fill(box, done.points, done.yahtzee_bonus,
                         done.after.bank if rules.columns == 1 else None, column=column)
        cards.append(card)
    return cards


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_card_a_game_reaches_reads_back_as_itself(preset, data):
    rules = parse_rules(preset)
    for card in play(rules, data):
        assert Scorecard.parse(str(card), rules) == card


def refused(text: str, spec: str, match: str) -> None:
    with pytest.raises(InputError, match=match) as e:
        Scorecard.parse(text, parse_rules(spec))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("text, match", [
    ("yahtzee=50,chance=29,yahtzee_bonus=100", "yahtzee_bonus=100 is impossible"),
    ("yahtzee=0,chance=30,yahtzee_bonus=100", "yahtzee_bonus=100 is impossible"),
    ("yahtzee=50,yahtzee_bonus=100", "yahtzee_bonus=100 is impossible"),
    ("yahtzee=50,chance=30,yahtzee_bonus=200", "yahtzee_bonus=200 is impossible"),
    ("yahtzee=50,full_house=25,sixes=30,chance=29,yahtzee_bonus=300",
     "yahtzee_bonus=300 is impossible"),
    ("yahtzee=50,threes=9,yahtzee_bonus=100", "yahtzee_bonus=100 is impossible"),
    ("yahtzee=50,chance=30,yahtzee_bonus=50", "yahtzee_bonus=50 is impossible"),
])
def test_a_yahtzee_bonus_needs_a_scored_yahtzee_and_a_box_holding_each_further_one(text, match):
    refused(text, "yahtzee", match)


@pytest.mark.parametrize("text, bonus", [
    ("yahtzee=50,chance=30,yahtzee_bonus=100", 100),
    ("yahtzee=50,threes=15,full_house=25,yahtzee_bonus=200", 200),
    ("yahtzee=50,ones=0,large_straight=40,chance=5,yahtzee_bonus=300", 300),
])
def test_cards_with_reachable_bonuses_are_accepted(text, bonus):
    assert Scorecard.parse(text, parse_rules("yahtzee")).yahtzee_bonus == bonus


@pytest.mark.parametrize("preset", list(PRESETS))
def test_points_no_roll_makes_in_a_box_are_refused_for_every_preset(preset):
    rules = parse_rules(preset)
    one = rules.column_rules
    at = "@1" if rules.columns > 1 else ""
    for b, box in enumerate(one.boxes):
        held = one.box_points[b]
        for bad in (max(held) + 1, -1, *sorted(set(range(max(held))) - held)[:3]):
            refused(f"{box.name}{at}={bad}", preset, "impossible|whole number")


def test_boxes_the_order_cannot_have_filled_and_a_bank_no_turn_leaves_are_refused():
    refused("sixes=18", "forced", "cannot all be filled under forced order")
    refused("chance=20", "upper_first", "cannot all be filled under upper_first order")
    refused("ones=3,bank=9", "maxi", "bank=9 is impossible")
    refused("sixes@2=18", "triple:order=forced", "column 2: card: these boxes cannot")
