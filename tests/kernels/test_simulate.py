"""yatzy.kernels.simulate: ``play_games`` (whole games by lookup, in lockstep
groups) plays the dice of ``dice_stream.roll_dice`` and the table's actions,
rejected draws and groups cut short included."""

import numpy as np
import pytest
from small_games import SMALL

from yatzy.kernels.dice_stream import roll_dice, seed_states
from yatzy.kernels.policy import policy_tables
from yatzy.kernels.runs import turn_log
from yatzy.kernels.simulate import GROUP, Rows, Tally, play_games
from yatzy.tables.decisions import build

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def unshift(x, s):
    """The inverse of ``x ^ (x >> s)`` on 64 bits."""
    y = x
    for _ in range(64 // s + 1):
        y = x ^ (y >> s)
    return y


def state_before(output, draws_before):
    """A splitmix64 state whose ``draws_before + 1``-th draw gives ``output``."""
    z = unshift(output, 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & M64, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & M64, 30)
    return (z - GAMMA * (draws_before + 1)) & M64


def test_state_before_inverts_the_stream():
    s = state_before(0x0000000012345678, 2)
    st = np.uint64(s)
    for _ in range(3):
        st = np.uint64((int(st) + GAMMA) & M64)
    z = int(st)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    assert z ^ (z >> 31) == 0x0000000012345678


def play(rules, decisions, state):
    """``play_games`` on the dice streams ``state``, logged."""
    n = len(state)
    log = turn_log(n, rules.n_boxes, rules.rolls, np.int16)
    out = Tally(np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                 np.full(log.box.shape, -1, dtype=np.int16),
                 np.zeros((1, rules.n_boxes), dtype=np.int64),
                 np.zeros((1, rules.n_boxes), dtype=np.int64))
    play_games(policy_tables(rules), rules.dice_space.size, Rows(decisions.index, decisions.rows),
               state, out, log, 0, 1)
    return out, log


@pytest.mark.parametrize("n", [1, GROUP - 1, GROUP + 5])
def test_games_replay_with_the_reference_dice_and_the_tables_actions(small, n):
    """Rejected draws (a 32-bit draw that Lemire's method refuses, about one
    in a billion) are planted at several places of the first turns."""
    rules = SMALL
    ds = rules.dice_space
    g = policy_tables(rules)
    decisions = build(rules, small.values)
    state = seed_states(8, 0, n)
    planted = [0, 2, 4, 5, 7][:n]             # the draw that is rejected, per game
    for i, before in enumerate(planted):
        state[i] = state_before(0x00000000DEADBEEF, before)      # top 32 bits 0: rejected
    out, log = play(rules, decisions, state.copy())
    nb = rules.n_boxes
    for i in range(n):
        st, mask, upper, total = state[i], 0, 0, 0
        for turn in range(nb):
            keep = 0
            for step in range(rules.rolls):
                r, st = roll_dice(g.turn.adds, ds.first_roll, ds.faces, ds.n - ds.size[keep], st,
                                  keep)
                st = np.uint64(st)         # Numba hands a uint64 back as a Python int
                assert log.rolls[i, turn, step] == r
                a = decisions.action(mask, upper, rules.rolls - 1 - step, r)
                if a < nb:
                    assert log.box[i, turn] == a and log.keeps[i, turn, step] == -1
                    break
                keep = g.by_rank[a - nb]
                assert log.keeps[i, turn, step] == keep
            points = int(out.points[i, turn])
            assert points == rules.scores[r, a]      # no jokers in SMALL
            mask |= 1 << a
            if rules.boxes[a].is_upper:
                total += rules.bonus_points if upper < rules.cap <= upper + points else 0
                upper = min(upper + points, rules.cap)
            total += points
        assert out.score[i] == total and out.upper[i] == upper
    assert out.box_sum.sum() == out.points.astype(np.int64).sum()
    assert out.box_nonzero.sum() == (out.points > 0).sum()


def test_the_first_draw_rejected_changes_the_game(small):
    """The planted state is really rejected: its game differs from the game
    whose stream skips the rejected draw by nothing but that draw."""
    decisions = build(SMALL, small.values)
    s = state_before(0x00000000DEADBEEF, 0)
    a = play(SMALL, decisions, np.array([s], dtype=np.uint64))[1]
    b = play(SMALL, decisions, np.array([(s + GAMMA) & M64], dtype=np.uint64))[1]
    assert np.array_equal(a.rolls, b.rolls)       # the rejected draw is skipped, not used
