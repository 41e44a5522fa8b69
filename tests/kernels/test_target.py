"""The target table's kernels (``yatzy.kernels.target``): the solve is, bit
for bit, the plain composition of the turn kernels it was written as (the
candidates filled in numpy, ``score_rolls``, the reroll levels, the
turn-start mean added roll by roll), and its functions keep that promise."""

from __future__ import annotations

import numpy as np
import pytest

from yatzy.kernels.scoring import upper_after
from yatzy.kernels.target import best_keeps_mean, layout, table_size
from yatzy.kernels.turn import average_keeps, best_keeps, score_rolls, turn_data
from yatzy.rules.boxes import groups, upper
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.space import state_space
from yatzy.tables import target

NORDIC = parse_rules("nordic")
# four-faced dice: fewer than six smaller multisets, the other branch of best_keeps
FOUR = Rules("four", (upper("ones", 1), upper("twos", 2), groups("pair", (2,))),
             dice=3, faces=4, rolls=3, bonus_threshold=4, bonus_points=5)


def plain_solve(rules: Rules) -> np.ndarray:
    """The target table by the plain composition, one state at a time."""
    d, lay, sp = turn_data(rules), layout(rules), state_space(rules)
    values = np.zeros(table_size(rules))
    for mask in sp.layers[-1]:
        values[lay.off[mask]:lay.off[mask] + (sp.upper_lanes[mask] - lay.start[mask])
               * lay.width[mask]] = 1.0
    c = len(d.cand_box)
    for layer in reversed(sp.layers[:-1]):
        for mask in layer:
            L = int(lay.width[mask])
            for u in range(int(lay.start[mask]), int(sp.upper_lanes[mask])):
                cand, zero = np.zeros((c, L)), np.zeros(L)
                work = np.zeros((d.adds.shape[0] + 1, L))

                def row(child, upper_total):
                    w = int(lay.width[child])
                    at = lay.off[child] + (max(upper_total, lay.start[child])
                                           - lay.start[child]) * w
                    return values[at:at + w]

                for b in range(rules.n_boxes):
                    if d.allowed[mask] >> b & 1:
                        r = row(mask | 1 << b, u)[:L]
                        zero[:len(r)] = np.maximum(zero[:len(r)], r)
                for k in range(c):
                    b = int(d.cand_box[k])
                    if not d.allowed[mask] >> b & 1:
                        continue
                    u2, bonus = upper_after(d, b, u, int(d.cand_score[k]))
                    g = int(d.cand_score[k] + bonus)
                    child = row(mask | int(d.cand_bits[k]), u2)
                    for n in range(L):
                        cand[k, n] = 1.0 if n <= g else (child[n - g] if n - g < len(child)
                                                         else 0.0)
                score_rolls(d, mask, L, d.first_roll, cand, zero, work)
                for _ in range(1, d.rolls):
                    average_keeps(d, L, work)
                    best_keeps(d, L, work)
                out = np.zeros(L)
                for r in range(len(d.roll_prob)):
                    out = out + d.roll_prob[r] * work[d.first_roll + r]
                at = lay.off[mask] + (u - lay.start[mask]) * L
                values[at:at + L] = out
    return values


@pytest.mark.parametrize("rules", [Rules("nordic4", NORDIC.boxes[5:9]), FOUR],
                         ids=lambda r: r.name)
def test_the_solve_is_the_plain_composition_bit_for_bit(rules):
    fast = target.solve(rules)
    plain = plain_solve(rules)
    assert fast.shape == plain.shape
    assert np.array_equal(fast.view(np.int64), plain.view(np.int64))


@pytest.mark.parametrize("rules", [NORDIC, FOUR], ids=lambda r: r.name)
@pytest.mark.parametrize("L", [1, 7, 8, 37])
def test_best_keeps_mean_is_best_keeps_then_the_mean(rules, L):
    d = turn_data(rules)
    rng = np.random.default_rng(L)
    work = rng.random((d.adds.shape[0] + 1, L))
    work[-1] = 0.0
    other = work.copy()
    out = np.full(L, np.nan)
    best_keeps_mean(d, L, work, out)
    best_keeps(d, L, other)
    mean = np.zeros(L)
    for r in range(len(d.roll_prob)):
        mean = mean + d.roll_prob[r] * other[d.first_roll + r]
    assert np.array_equal(out, mean)
    assert np.array_equal(work[:d.first_roll], other[:d.first_roll])   # the keeps as before
