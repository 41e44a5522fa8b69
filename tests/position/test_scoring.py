"""A turn's end scored three ways, which must agree: ``yatzy.position.scoring``
(numpy), its compiled twin ``yatzy.kernels.scoring`` (the kernels' one
scoring) and the oracle of tests/scoring_oracle.py (written from the rules
text), for every preset over every roll, every box a roll may go in and a
sample of states (mask, upper total, flag bit, bank)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
import scoring_oracle as oracle

from yatzy.errors import InputError
from yatzy.kernels.scoring import bonus_lanes, end_turn
from yatzy.kernels.scoring import upper_after as compiled_upper_after
from yatzy.kernels.turn import turn_data
from yatzy.position.scoring import CardState, score_turn, upper_after, upper_bonus
from yatzy.rules.ruleset import parse_rules
from yatzy.space import state_space

SPECS = ["nordic", "forced", "upper_first", "yahtzee", "yahtzee:joker=free", "maxi",
         "maxi:bank_cap=2", "triple", "nordic:five_alike_is_full_house=true"]


def scorer_of(rules):
    """The oracle's boxes for ``rules`` (one column's)."""
    if rules.name == "yahtzee":
        return oracle.YAHTZEE
    if rules.name == "maxi":
        return oracle.MAXI
    on = {k: v == "true" for k, v in rules.settings}
    return oracle.nordic(on.get("five_alike_is_full_house", False),
                         on.get("four_alike_is_two_pairs", False))


def sample_states(rules, n, seed):
    """``n`` reachable turn-start states of one column from every layer but
    the last, some with the flag bit, upper totals anywhere up to the
    threshold (every other one near it), banks up to the limit."""
    rng = np.random.default_rng(seed)
    sp = state_space(rules)
    out = []
    layers = [layer for layer in sp.layers[:-1] if len(layer)]
    for i in range(n):
        layer = layers[i % len(layers)]
        mask = int(rng.choice(layer))
        near = rules.cap - int(rng.integers(0, 13))           # every other one near the threshold
        upper = max(near, 0) if i % 2 else int(rng.integers(0, rules.cap + 1))
        filled = bin(mask & sp.full_mask).count("1")
        out.append(CardState(mask, upper, int(rng.integers(0, sp.bank_limit(filled) + 1))))
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_numpy_compiled_and_oracle_agree_for_every_roll(spec):
    rules = parse_rules(spec)
    one = rules.column_rules
    d, sp, ds = turn_data(one), state_space(one), one.dice_space
    scorer = scorer_of(one)
    names = [b.name for b in one.boxes]
    yatzy = names[one.yatzy_box] if one.yatzy_box >= 0 else None
    checked = {"joker": 0, "upper bonus": 0, "yahtzee bonus": 0, "bank": 0, "refused": 0}
    for state in sample_states(one, 10 if one.dice == 6 else 14, zlib.crc32(spec.encode())):
        filled = {names[b] for b in range(one.n_boxes) if state.mask >> b & 1}
        flag = bool(state.mask & sp.flag_bit)
        allowed = int(sp.allowed(state.mask))
        column = (state.mask + state.upper) % rules.columns
        for r in range(ds.n_rolls):
            dice = ds.dice_of(ds.first_roll + r)
            rerolls = (r + state.upper) % (state.bank + one.rolls)
            for b in range(one.n_boxes):
                want = oracle.turn_end(
                    scorer, dice, names[b], filled, state.upper, threshold=one.bonus_threshold,
                    bonus=one.bonus_points, yahtzee_bonus=one.yahtzee_bonus, joker=one.joker.value,
                    scored_fifty=flag, yahtzee_name=yatzy, rerolls_left=rerolls,
                    bank_cap=one.bank_cap, saved_rolls=one.saved_rolls)
                if not allowed >> b & 1 or want is None:
                    with pytest.raises(InputError):
                        score_turn(rules, state, b, dice, rerolls_left=rerolls, column=column)
                    checked["refused"] += 1
                    continue
                got = score_turn(rules, state, b, dice, rerolls_left=rerolls, column=column)
                points, earned, extra, upper, bank = want
                assert (got.points, got.upper_bonus, got.yahtzee_bonus, got.after.upper,
                        got.after.bank) == (points, earned, extra, upper, bank), (state, dice, b)
                assert got.after.mask == sp.child_mask(state.mask, b, points)
                assert got.weight == column + 1 and got.weighted == (column + 1) * got.gain
                room = sp.bank_limit(len(filled) + 1)
                twin = end_turn(d, state.mask, state.upper, b, r, rerolls, room)
                assert tuple(twin) == (got.points, got.upper_bonus, got.yahtzee_bonus,
                                       got.after.mask, got.after.upper, got.after.bank)
                checked["joker"] += got.joker
                checked["upper bonus"] += got.upper_bonus > 0
                checked["yahtzee bonus"] += got.yahtzee_bonus > 0
                checked["bank"] += got.after.bank > 0
    assert checked["upper bonus"] and checked["refused"]          # the sample reached them
    if one.joker.value != "none":
        assert checked["joker"] and checked["yahtzee bonus"]
    if one.saved_rolls:
        assert checked["bank"]


@pytest.mark.parametrize("spec", ["nordic", "forced", "yahtzee", "maxi",
                                  "nordic:bonus_threshold=0"])
def test_the_lane_form_and_the_arrays_follow_the_one_rule(spec):
    """``bonus_lanes`` (the solve's form) and ``upper_after`` on arrays give
    the compiled ``upper_after`` lane by lane, for every box, points and run."""
    rules = parse_rules(spec)
    d = turn_data(rules)
    for b in range(rules.n_boxes):
        for points in sorted(rules.box_points[b]):
            us = np.arange(rules.cap + 1)
            after, bonus = upper_after(rules, np.full(len(us), b), us, np.full(len(us), points))
            for u in us:
                assert compiled_upper_after(d, b, u, points) == (after[u], bonus[u])
                assert upper_after(rules, b, int(u), points) == (after[u], bonus[u])
            for u0 in range(0, rules.cap + 1, 7):
                L = rules.cap + 1 - u0
                below, reach = bonus_lanes(d, b, points, u0, L)
                for j in range(L):
                    u = u0 + j
                    want_u, want_bonus = compiled_upper_after(d, b, u, points)
                    if j < below:
                        assert (want_u, want_bonus) == (u + points, 0)
                    elif j < reach:
                        assert want_u == rules.cap and want_bonus == rules.bonus_points > 0
                    else:
                        assert (want_u, want_bonus) == (u, 0)


def test_upper_bonus_of_final_totals():
    nordic, yahtzee = parse_rules("nordic"), parse_rules("yahtzee")
    assert list(upper_bonus(nordic, np.array([0, 62, 63, 105]))) == [0, 0, 50, 50]
    assert upper_bonus(yahtzee, 63) == 35
    assert upper_bonus(parse_rules("nordic:bonus_threshold=0"), 0) == 0      # threshold 0: no bonus


@pytest.mark.parametrize("kwargs, message", [
    ({"box": 15, "dice": (1, 2, 3, 4, 5)}, "box 15"),
    ({"box": 0, "dice": (1, 2, 3, 4)}, "expected 5 dice"),
    ({"box": 0, "dice": (1, 2, 3, 4, 7)}, "expected 5 dice"),
    ({"box": 0, "points": 7}, "cannot be written"),
    ({"box": 0}, "needs the dice or the points"),
    ({"box": 0, "dice": (1, 2, 3, 4, 5), "rerolls_left": 3}, "rerolls left"),
])
def test_bad_input_is_one_line(kwargs, message):
    rules = parse_rules("nordic")
    box = kwargs.pop("box")
    with pytest.raises(InputError, match=message):
        score_turn(rules, CardState(0, 0), box, kwargs.pop("dice", None), **kwargs)


def test_points_instead_of_dice_and_the_columns():
    triple = parse_rules("triple")
    s = score_turn(triple, CardState(0b111110, 60), 0, points=3, column=2)
    assert (s.points, s.upper_bonus, s.gain, s.weight, s.weighted) == (3, 50, 53, 3, 159)
    with pytest.raises(InputError, match="column 4"):
        score_turn(triple, CardState(0, 0), 0, points=3, column=3)
    forced = parse_rules("forced")
    with pytest.raises(InputError, match="may not be filled now"):
        score_turn(forced, CardState(0, 0), 1, (2, 2, 3, 4, 5))
