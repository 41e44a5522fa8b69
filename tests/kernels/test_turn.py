"""The turn kernels' functions (``yatzy.kernels.turn``): scratch rows laid
out for the vector loops (``lane_rows``), and each roll's candidates listed
once per mask (``roll_lists``, ``score_listed``) scoring exactly what the
one-call ``score_rolls`` scores, jokers and the yahtzee bonus included."""

from __future__ import annotations

import numpy as np
import pytest

from yatzy.kernels.turn import (
    NEG,
    lane_rows,
    roll_lists,
    roll_lists_for,
    score_listed,
    score_rolls,
    turn_data,
)
from yatzy.rules.ruleset import parse_rules
from yatzy.space import state_space


@pytest.mark.parametrize("rows, width", [(1, 1), (3, 16), (463, 85), (925, 512)])
def test_lane_rows_start_on_cache_lines_and_are_not_4k_apart(rows, width):
    a = lane_rows(rows, width)
    assert a.shape[0] == rows and a.shape[1] >= width and a.flags.c_contiguous
    assert not a.any()
    assert all(a[i].ctypes.data % 64 == 0 for i in range(rows))
    assert rows == 1 or (a.strides[0] % 4096 != 0)


def plain_scores(rules, mask, cand, zero):
    """Every roll's best way to end the turn, written out from the rules'
    tables: the allowed candidates and the scratch, or, for a roll that
    must be a joker, its joker boxes only; the yahtzee bonus on top."""
    d = turn_data(rules)
    sp = state_space(rules)
    allowed = int(d.allowed[mask])
    out = np.empty((len(d.roll_prob), cand.shape[1]))
    for r in range(len(d.roll_prob)):
        f = int(d.yahtzee_face[r])
        jokers = int(sp.joker_boxes[mask, f]) if f >= 0 else 0
        if jokers:
            rows = [cand[d.joker_cand[f, b]] for b in range(rules.n_boxes) if jokers >> b & 1]
        else:
            rows = [zero] + [cand[k] for k in d.roll_cand[d.roll_cand_start[r]:d.roll_cand_start[r + 1]]
                             if allowed >> int(d.cand_box[k]) & 1]
        best = np.max(rows, axis=0) if rows else np.full(cand.shape[1], NEG)
        if f >= 0 and mask & d.flag_bit and d.yahtzee_bonus:
            best = best * d.ybonus_mul + d.ybonus_add
        out[r] = best
    return out


@pytest.mark.parametrize("spec", ["nordic", "yahtzee", "yahtzee:joker=free", "maxi:rolls=3"])
def test_listed_scores_are_the_one_call_scores(spec):
    rules = parse_rules(spec)
    d, sp = turn_data(rules), state_space(rules)
    rng = np.random.default_rng(7)
    L = 13
    lists = roll_lists_for(d)
    masks = [m for layer in sp.layers[:-1] for m in layer[:3]]
    masks += [int(m) for m in rng.choice(np.concatenate(sp.layers[:-1]), 40)]
    for mask in masks:
        cand = lane_rows(len(d.cand_box), L)
        cand[:] = rng.random(cand.shape) * 100
        zero = rng.random(L) * 30
        want = plain_scores(rules, mask, cand[:, :L], zero)
        one = lane_rows(len(d.roll_prob), L)
        score_rolls(d, mask, L, 0, cand, zero, one)
        assert np.array_equal(one[:, :L], want), (spec, mask)

        roll_lists(d, mask, lists)
        rolls = slice(d.first_roll, d.first_roll + len(d.roll_prob))
        listed = lane_rows(d.adds.shape[0] + 1, L)
        score_listed(d, L, cand, zero, listed, lists, False, listed)
        assert np.array_equal(listed[rolls, :L], want), (spec, mask)

        before = rng.random((len(d.roll_prob), L)) * 100   # with into: the larger of the two
        into = lane_rows(d.adds.shape[0] + 1, L)
        into[rolls, :L] = before
        spare = lane_rows(len(d.roll_prob), L)
        score_listed(d, L, cand, zero, into, lists, True, spare)
        assert np.array_equal(into[rolls, :L], np.maximum(before, want)), (spec, mask)
