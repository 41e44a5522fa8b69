"""Rules specs, presets and fill orders (the optima of the variants: test_golden.py)."""

import pytest

from yatzy.errors import InputError
from yatzy.position.scorecard import Scorecard
from yatzy.rules.ruleset import parse_rules
from yatzy.space import state_space


def test_spec_is_canonical_and_fingerprint_tracks_values():
    a = parse_rules("nordic: rolls=4 , order=free")
    b = parse_rules("nordic:order=free,rolls=4")
    assert a.spec == b.spec == "nordic:order=free,rolls=4"
    assert a.fingerprint == b.fingerprint == parse_rules("nordic:rolls=4").fingerprint
    assert parse_rules("forced").fingerprint != parse_rules("forced:bonus_threshold=63").fingerprint
    assert parse_rules("forced:bonus_threshold=42").fingerprint == parse_rules("forced").fingerprint


def test_presets():
    forced = parse_rules("forced")
    assert forced.order == "forced" and forced.bonus_threshold == 42
    assert parse_rules("upper_first").order == "upper_first"
    nordic = parse_rules("nordic")
    assert (nordic.dice, nordic.rolls, nordic.bonus_threshold, nordic.bonus_points) == (5, 3, 63, 50)
    assert [b.name for b in nordic.boxes][:7] == ["ones", "twos", "threes", "fours", "fives",
                                                  "sixes", "one_pair"]


@pytest.mark.parametrize("spec, message", [
    ("maxi_deluxe", "unknown rules preset"),
    ("nordic:speed=3", "unknown key"),
    ("nordic:rolls", "key=value"),
    ("nordic:rolls=0", "rolls"),
    ("nordic:rolls=3,rolls=4", "twice"),
    ("nordic:five_alike_is_full_house=maybe", "true or false"),
    ("nordic:bonus_threshold=-1", "bonus_threshold"),
    ("nordic:order=random", "order"),
])
def test_bad_specs_name_the_problem(spec, message):
    with pytest.raises(InputError, match=message):
        parse_rules(spec)


def test_forced_order_offers_only_the_next_box():
    rules = parse_rules("forced")
    card = Scorecard.parse("ones=2,twos=4", rules)
    assert card.allowed_boxes() == [2]
    with pytest.raises(InputError, match="top to bottom"):
        Scorecard.parse("ones=2,threes=3", rules)


def test_upper_first_rejects_a_lower_box_before_the_upper_ones():
    rules = parse_rules("upper_first")
    with pytest.raises(InputError, match="upper box"):
        Scorecard.parse("ones=2,chance=20", rules)
    card = Scorecard.parse("ones=2,twos=4,threes=9,fours=8,fives=10", rules)
    assert card.allowed_boxes() == [5]
    full_upper = Scorecard.parse("ones=2,twos=4,threes=9,fours=8,fives=10,sixes=0", rules)
    assert full_upper.allowed_boxes() == list(range(6, 15))


def test_forced_order_solves_only_a_chain_of_states():
    rules = parse_rules("forced")
    assert [len(layer) for layer in state_space(rules).layers] == [1] * 16


def test_describe_lists_every_box():
    text = parse_rules("nordic").describe()
    for name in ("ones", "two_pairs", "small_straight", "yatzy", "63"):
        assert name in text


def test_forced_order_advice_offers_only_the_box_whose_turn_it_is(tmp_path):
    from yatzy.players.strategy import advise
    from yatzy.tables.store import open_table
    rules = parse_rules("forced")
    table = open_table(rules, tmp_path, progress=False)
    card = Scorecard.parse("ones=2,twos=4,threes=9", rules)
    adv = advise(table, card, (4, 4, 4, 6, 6), 0)
    assert [a.box for a in adv.actions] == ["fours"] and adv.best.points == 12
    with_keeps = advise(table, card, (4, 4, 4, 6, 6), 2)
    assert {a.box for a in with_keeps.actions if a.kind == "score"} == {"fours"}
