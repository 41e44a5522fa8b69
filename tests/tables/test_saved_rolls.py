"""Saved rolls (Maxi Yatzy's bank): brute force on reduced games, monotonicity,
the bank cap, and advice that counts banked rerolls."""

import itertools
from functools import lru_cache

import numpy as np
import pytest
import scoring_oracle as oracle

from yatzy.errors import InputError
from yatzy.players.advice import keep_values
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.rules.boxes import MAXI, groups, straight, upper
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.space import state_space
from yatzy.tables import build as engine
from yatzy.tables.store import open_table

BOXES = (upper("ones", 1), upper("twos", 2), groups("pair", (2,)),
         straight("run", ((1, 2, 3),), 10))


def brute_force(boxes, dice, faces, rolls, cap, threshold, bonus):
    """Expected score with saved rolls by plain recursion: a turn rolls once,
    may reroll while rerolls (own + banked) remain, and banks those it leaves
    (at most ``cap``).  Boxes score with the independent oracle."""
    n = len(boxes)
    outcomes = {k: list(itertools.product(range(1, faces + 1), repeat=k)) for k in range(dice + 1)}

    @lru_cache(maxsize=None)
    def start(filled, up, bank):
        if len(filled) == n:
            return 0.0
        left = bank + rolls - 1
        return sum(after_roll(filled, up, tuple(sorted(d)), left)
                   for d in outcomes[dice]) / faces**dice

    @lru_cache(maxsize=None)
    def after_roll(filled, up, d, left):
        best = -1e18
        for b in range(n):                                   # stop and score
            if b in filled:
                continue
            pts = oracle.points(boxes[b], d)
            up2 = up + pts if boxes[b].is_upper else up
            got = pts + (bonus if up < threshold <= up2 else 0)
            best = max(best, got + start(filled | {b}, min(up2, threshold), min(left, cap)))
        if left:
            for k in range(dice + 1):                        # keep some, reroll the rest
                for keep in set(itertools.combinations(d, k)):
                    outs = outcomes[dice - k]
                    v = sum(after_roll(filled, up, tuple(sorted(keep + o)), left - 1)
                            for o in outs) / len(outs)
                    best = max(best, v)
        return best

    return start, after_roll


@pytest.mark.parametrize("boxes, dice, faces, rolls, cap", [
    (BOXES[:3], 2, 3, 2, 2),          # cap = most that can ever be banked: exact
    (BOXES[:3], 2, 3, 3, 4),          # likewise
    (BOXES, 2, 3, 2, 1),              # capped below the most possible
    (BOXES[1:], 3, 3, 2, 2),
    (BOXES, 2, 3, 2, 0),              # no cap: the bank grows by up to 1 a turn
    (BOXES, 2, 3, 3, 0),              # ... by up to 2
    (BOXES[1:], 3, 3, 3, 0),
])
def test_engine_matches_brute_force_with_a_bank(boxes, dice, faces, rolls, cap):
    rules = Rules("bank", boxes, dice=dice, faces=faces, rolls=rolls, bonus_threshold=3,
                  bonus_points=7, saved_rolls=True, bank_cap=cap)
    start, _ = brute_force(boxes, dice, faces, rolls, cap or 10**6, 3, 7)
    solution = engine.solve(rules)
    checked = 0
    for p, layer in enumerate(state_space(rules).layers[:-1]):
        most = (rolls - 1) * p if not cap else min(cap, (rolls - 1) * p)
        assert state_space(rules).bank_limit(p) == most
        for mask in layer:
            filled = frozenset(b for b in range(len(boxes)) if mask >> b & 1)
            for up in range(state_space(rules).upper_lanes[mask]):
                for k in range(most + 1):
                    assert solution.value(mask, up, k) == pytest.approx(start(filled, up, k),
                                                                        abs=1e-9)
                    checked += 1
    assert checked > 20


def test_no_cap_equals_a_cap_no_bank_can_reach():
    """Without a cap the bank after p turns is at most (rolls - 1) p, so a cap
    at that bound over the whole game changes nothing."""
    base = dict(dice=2, faces=3, rolls=3, bonus_threshold=3, bonus_points=7, saved_rolls=True)
    free = engine.solve(Rules("b", BOXES, **base))
    capped = engine.solve(Rules("b", BOXES, bank_cap=2 * (len(BOXES) - 1), **base))
    assert free.expected_score == pytest.approx(capped.expected_score, abs=1e-12)
    assert engine.solve(Rules("b", BOXES, bank_cap=2, **base)).expected_score \
        < free.expected_score - 1e-6


def test_more_banked_rolls_never_lower_a_value():
    rules = Rules("bank", BOXES, dice=2, faces=3, rolls=2, bonus_threshold=3, bonus_points=7,
                  saved_rolls=True)
    solution = engine.solve(rules)
    for p, layer in enumerate(solution.layers[:-1]):
        finite = np.isfinite(layer[0])
        assert state_space(rules).bank_limit(p) == p and layer.shape[0] == p + 1
        for k in range(1, p + 1):
            assert (layer[k][finite] >= layer[k - 1][finite] - 1e-12).all()


def test_saving_rolls_and_an_extra_roll_never_lower_the_start_value():
    base = dict(dice=2, faces=3, bonus_threshold=3, bonus_points=7)
    plain = engine.solve(Rules("b", BOXES, rolls=2, **base)).expected_score
    saved = engine.solve(Rules("b", BOXES, rolls=2, saved_rolls=True, **base)).expected_score
    more = engine.solve(Rules("b", BOXES, rolls=3, **base)).expected_score
    more_saved = engine.solve(Rules("b", BOXES, rolls=3, saved_rolls=True,
                                    **base)).expected_score
    assert saved > plain and more > plain and more_saved > max(saved, more)


def test_bank_values_converge_as_the_cap_grows():
    """The value of the start shrinks its changes as the cap is raised, up to
    the uncapped value."""
    values = [engine.solve(Rules("b", BOXES, dice=2, faces=3, rolls=2, bonus_threshold=3,
                                 bonus_points=7, saved_rolls=True, bank_cap=c)).expected_score
              for c in (1, 2, 3, 0)]
    steps = np.diff(values)
    assert (steps >= -1e-12).all()
    assert steps[-1] <= steps[0]


@pytest.fixture(scope="module")
def bank_table(tmp_path_factory):
    rules = Rules("bank", BOXES, dice=2, faces=3, rolls=2, bonus_threshold=3, bonus_points=7,
                  saved_rolls=True)
    return open_table(rules, tmp_path_factory.mktemp("b"), progress=False)


def test_advice_counts_banked_rerolls(bank_table):
    rules = bank_table.rules
    _, after_roll = brute_force(BOXES, 2, 3, 2, 10**6, 3, 7)
    card = Scorecard.parse("ones=1,run=0,bank=2", rules)
    assert card.bank == 2
    for rerolls in range(0, 4):
        adv = advise(bank_table, card, (1, 3), rerolls)
        expect = after_roll(frozenset({0, 3}), 1, (1, 3), rerolls)
        assert adv.best.expected_final_score == pytest.approx(card.score + expect, abs=1e-9)
    with pytest.raises(InputError, match="1 own and 2 banked"):
        advise(bank_table, card, (1, 3), 4)


def test_numpy_and_compiled_keep_values_agree_with_a_bank(bank_table):
    rules = bank_table.rules
    for text in ["", "ones=1,bank=1", "pair=4,twos=2,bank=2"]:
        card = Scorecard.parse(text, rules)
        for rerolls in range(1, rules.rolls + card.bank):
            fast = engine.compiled_keep_values(rules, bank_table, card.mask, card.upper_state, rerolls)
            assert np.abs(fast - keep_values(bank_table, card, rerolls)).max() < 1e-9


def test_card_bank_entry():
    rules = Rules("bank", BOXES, dice=2, faces=3, saved_rolls=True)
    assert str(Scorecard.parse("bank=4,ones=1,twos=2", rules)) == "ones=1,twos=2,bank=4"
    with pytest.raises(InputError, match="bank=5 is impossible with 2 boxes filled"):
        Scorecard.parse("bank=5,ones=1,twos=2", rules)
    with pytest.raises(InputError, match="bank"):
        Scorecard.parse("bank=1", rules)                     # nothing banked before turn 1
    capped = Rules("bank", BOXES, dice=2, faces=3, saved_rolls=True, bank_cap=3)
    with pytest.raises(InputError, match="at most 3"):
        Scorecard.parse("bank=4,ones=1,twos=2", capped)
    with pytest.raises(InputError, match="unknown box"):
        Scorecard.parse("bank=1", Rules("plain", BOXES, dice=2, faces=3))


def test_maxi_preset_and_keys():
    maxi = parse_rules("maxi")
    assert (maxi.dice, maxi.rolls, maxi.bonus_threshold, maxi.bonus_points) == (6, 4, 84, 100)
    assert maxi.saved_rolls and maxi.n_boxes == 20 and maxi.dice_space.n_rolls == 462
    plain = parse_rules("maxi:saved_rolls=false,rolls=3")
    assert not plain.saved_rolls and state_space(plain).bank_limit(10) == 0 and plain.rolls == 3
    assert state_space(maxi).bank_limit(10) == 30 and state_space(maxi).layer_shape(10) == (31, 184756, 85)
    with pytest.raises(InputError, match="does not apply"):
        parse_rules("nordic:saved_rolls=true")


def c6(*dice):
    return tuple(dice.count(f) for f in range(1, 7))


@pytest.mark.parametrize("box, dice, points", [
    ("hut", (3, 4, 4, 6, 6, 6), 26),                 # three equal + two equal, those five
    ("house", (6, 6, 6, 6, 6, 6), 0),                # six equal are not a house
    ("tower", (6, 6, 6, 6, 6, 6), 0),                # ... nor a tower
    ("three_pairs", (4, 4, 4, 4, 2, 2), 0),          # 4 + 2 is not three pairs
    ("two_pairs", (4, 4, 4, 4, 2, 2), 12),           # ... but two pairs
    ("hut", (4, 4, 4, 4, 2, 2), 16),                 # ... and a hut
    ("tower", (4, 4, 4, 4, 2, 2), 20),               # ... and a tower
    ("three_pairs", (1, 1, 3, 3, 6, 6), 20),
    ("house", (2, 2, 2, 5, 5, 5), 21),
    ("five_of_a_kind", (5, 5, 5, 5, 5, 2), 25),
    ("small_straight", (1, 2, 3, 4, 5, 5), 15),
    ("large_straight", (2, 3, 4, 5, 6, 6), 20),
    ("full_straight", (1, 2, 3, 4, 5, 6), 21),
    ("full_straight", (1, 2, 3, 4, 5, 5), 0),
    ("maxi_yatzy", (2, 2, 2, 2, 2, 2), 100),
    ("one_pair", (6, 6, 5, 5, 1, 1), 12),
    ("chance", (6, 6, 5, 5, 1, 1), 24),
])
def test_maxi_scoring(box, dice, points):
    boxes = {b.name: b for b in MAXI}
    assert boxes[box].score(c6(*dice)) == points
    assert oracle.MAXI[box](dice) == points          # the oracle, worked by hand


def test_compiled_turn_levels_agree_with_the_query_layer(bank_table):
    from yatzy.players.advice import TurnValues
    rules = bank_table.rules
    card = Scorecard.parse("pair=4,twos=2,bank=2", rules)
    top = rules.rolls - 1 + card.bank
    levels = engine.compiled_keep_levels(rules, bank_table, card.mask, card.upper_state, top)
    turn = TurnValues(bank_table, card)
    assert levels.shape == (top, rules.dice_space.n_multisets)
    for t in range(1, top + 1):
        assert np.abs(levels[t - 1] - turn.keeps(t)).max() < 1e-9


def test_layers_are_nan_exactly_at_totals_out_of_reach():
    """The layers start uninitialised: the kernels write every value, NaN
    exactly at the upper totals a layer's boxes cannot reach."""
    rules = Rules("bank", BOXES, dice=3, faces=3, rolls=2, bonus_threshold=4, bonus_points=5,
                  saved_rolls=True)
    sp = state_space(rules)
    for p, values in engine.solve_layers(rules):
        lanes = sp.upper_lanes[sp.layers[p]]
        out = np.arange(values.shape[2])[None, None, :] >= lanes[None, :, None]
        assert np.array_equal(np.isnan(values), np.broadcast_to(out, values.shape)), p
