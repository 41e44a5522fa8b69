"""The simulation's kernels.

* ``play_turn``: the layer-at-a-time simulation -- every game in one layer
  plays one turn with the policy's decided actions (``yatzy.research.simulate``
  decides the actions of the masks the games are in, ``players.policy.decide``,
  and runs it);
* ``play_games``: whole games, every action looked up in the decision table
  (``yatzy.tables.decisions``), games side by side in groups so that their
  table reads overlap.

Both roll the dice of ``kernels.dice_stream`` and take the same actions from
the same rows: the same seed plays the same games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from yatzy.kernels.dice_stream import next_draw, roll_dice
from yatzy.kernels.scoring import upper_after


class Layer(NamedTuple):
    """The games of one layer as ``play_turn`` plays them (game ``i``, in
    the order of their action rows):

    * ``rows[j, k, r]``  the action byte of row ``j`` with ``k`` rerolls
      left after roll ``r`` (``kernels.policy.ActionRows``)
    * ``row[i]``         game ``i``'s row
    * ``mask[i], upper[i], score[i], state[i]``  its filled boxes (and flag
      bit), capped upper total, points (bonuses included) and dice stream,
      updated in place
    * ``gid[i]``         its index in the batch (its row of the log)
    """

    rows: np.ndarray
    row: np.ndarray
    mask: np.ndarray
    upper: np.ndarray
    score: np.ndarray
    state: np.ndarray
    gid: np.ndarray


class Filled(NamedTuple):
    """What ``play_turn`` writes per game ``i``: ``box[i]`` the box filled,
    ``points[i]`` its points (a joker scores joker points; a yahtzee bonus
    goes to ``Layer.score`` only)."""

    box: np.ndarray
    points: np.ndarray


@njit(cache=True, nogil=True)
def play_turn(g, size, games, out, log, turn, t, n_threads):
    """Play turn ``turn`` of one block of games (block ``t`` of
    ``n_threads``): ``games`` a ``Layer`` (updated in place), ``out`` a
    ``Filled``, ``size[m]`` the dice in multiset ``m``.  With logging
    (``log.rolls.shape[0] > 0``, a ``kernels.runs.TurnLog``),
    ``log.rolls[gid[i], turn, n]`` and ``log.keeps[gid[i], turn, n]`` get
    the roll index and the kept multiset (-1 after the turn ended),
    ``log.box[gid[i], turn]`` the box.
    """
    rows, game_row, mask, upper, score, state, gid = games
    box_of, points_of = out
    log_rolls, log_keeps, log_box = log.rolls, log.keeps, log.box
    n_dice = size[-1]
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    nb = len(tu.is_upper)
    adds = tu.adds
    by_rank = g.by_rank
    logging = log_rolls.shape[0] > 0
    for i in range(t * len(mask) // n_threads, (t + 1) * len(mask) // n_threads):
        row = rows[game_row[i]]
        st = state[i]
        r, st = roll_dice(adds, tu.first_roll, tu.faces, n_dice, st, 0)
        box = 0
        for n in range(tu.rolls):
            d = row[tu.rolls - 1 - n, r]
            if logging:
                log_rolls[gid[i], turn, n] = r
            if d < nb:
                box = np.int64(d)
                break
            keep = by_rank[d - nb]
            if logging:
                log_keeps[gid[i], turn, n] = keep
            r, st = roll_dice(adds, tu.first_roll, tu.faces, n_dice - size[keep], st, keep)
        state[i] = st
        m = mask[i]
        f = g.yface[r]
        c = g.cidx[r, box]                  # the outcome: box, points, yahtzee bonus
        if f >= 0:
            c = g.yidx[f, box, 1 if tu.joker_boxes[m, f] != 0 else 0, 1 if m & tu.flag_bit else 0]
        p = g.out_pts[c]
        box_of[i] = box
        points_of[i] = p
        mask[i] = m | (1 << box) | (tu.flag_bit if g.out_flag[c] else 0)
        if logging:
            log_box[gid[i], turn] = box
        u, bonus = upper_after(tu, box, upper[i], p)
        upper[i] = u
        score[i] += p + bonus + g.out_extra[c]



class Rows(NamedTuple):
    """A decision table as ``play_games`` reads it (``tables.decisions``):
    ``index[mask, u]`` the row of state ``(mask, u)``, ``rows[j, k, r]`` the
    action byte of row ``j`` with ``k`` rerolls left after roll ``r``."""

    index: np.ndarray
    rows: np.ndarray


class Tally(NamedTuple):
    """What ``play_games`` writes: per game ``i`` its final ``score[i]``
    (bonuses included) and capped ``upper[i]`` total, ``points[i, turn]``
    the points of each turn's box (when ``points`` is not empty); per piece
    ``t`` of the work ``box_sum[t, b]`` and ``box_nonzero[t, b]``: the
    points of box ``b`` and how many of its games scored in it."""

    score: np.ndarray
    upper: np.ndarray
    points: np.ndarray
    box_sum: np.ndarray
    box_nonzero: np.ndarray



GROUP = 128      # games played side by side, in lockstep, by ``play_games``


@intrinsic
def prefetch(typingctx, arr, i):
    """Ask the processor to bring ``arr.reshape(-1)[i]`` into the cache,
    without waiting for it (LLVM's ``prefetch``; a C-contiguous array)."""
    def codegen(context, builder, signature, args):
        ty = signature.args[0]
        ary = context.make_array(ty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, ty, ary, [args[1]], wraparound=False)
        byte = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        name = "llvm.prefetch.p0" if llvm_version_info[0] >= 15 else "llvm.prefetch.p0i8"
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]), name)
        builder.call(fn, [builder.bitcast(ptr, byte), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(arr, i), codegen


@njit(cache=True, inline="always")
def roll_one(adds, n_faces, faces, n_dice, fresh, state, hand):
    """``dice_stream.roll_dice`` without branches: ``n_dice`` draws are made
    and the first ``fresh`` kept (``(state, hand, rejected)``: the stream,
    the multiset held after the roll, and whether Lemire's method rejected
    a kept draw, four times in 2**32 for six faces: the caller then rolls
    again with ``roll_dice``).  ``adds``: ``TurnData.adds`` flattened, rows
    of ``n_faces``."""
    f = np.uint64(faces)
    limit = (np.uint64(1 << 32) - f) % f
    bad = False
    for s in range(n_dice):
        nxt, z = next_draw(state)
        x = (z >> np.uint64(32)) * f
        take = s < fresh
        bad |= take & ((x & np.uint64(0xFFFFFFFF)) < limit)
        state = nxt if take else state
        grown = adds[hand * n_faces + np.int64(x >> np.uint64(32))]
        hand = grown if take else hand
    return state, hand, bad


@njit(cache=True, inline="always")
def score_box(g, box, roll, mask, upper):
    """``play_turn``'s scoring of ``roll`` in ``box`` at ``(mask, upper)``:
    ``(points, the mask after, the upper total after, points with the
    bonuses)``."""
    tu = g.turn
    f = g.yface[roll]
    c = g.cidx[roll, box]
    if f >= 0:
        c = g.yidx[f, box, 1 if tu.joker_boxes[mask, f] != 0 else 0,
                   1 if mask & tu.flag_bit else 0]
    p = g.out_pts[c]
    after = mask | (1 << box) | (tu.flag_bit if g.out_flag[c] else 0)
    u, bonus = upper_after(tu, box, upper, p)
    return p, after, u, p + bonus + g.out_extra[c]


@njit(cache=True, nogil=True)
def play_games(g, size, table, state, out, log, t, n_threads):
    """Play whole games, every action looked up in ``table`` (``Rows``):
    game ``i`` of block ``t`` of ``n_threads`` starts at the empty card with
    the dice stream ``state[i]`` and plays every turn; results go to ``out``
    (``Tally``), the turns to ``log`` as ``play_turn`` writes them.  The
    dice and the actions are ``play_turn``'s with the same rows, so the games
    are the layer-at-a-time simulation's, bit for bit.

    ``GROUP`` games are played side by side, one step of a turn for all of
    them before the next: each game's table reads (a row of the index and
    up to three bytes of a row per turn, most of them cache misses) are
    prefetched as soon as their place is known and arrive while the other
    games roll their dice.
    """
    index = table.index
    flat_index = index.reshape(-1)
    width = index.shape[1]
    flat = table.rows.reshape(-1)
    tu = g.turn
    nb = len(tu.is_upper)
    n_rolls = len(tu.roll_prob)
    row_bytes = tu.rolls * n_rolls
    n_dice = size[-1]
    first = tu.first_roll
    by_rank = g.by_rank
    adds = tu.adds.reshape(-1)
    n_faces = tu.adds.shape[1]
    logging = log.rolls.shape[0] > 0
    with_points = out.points.shape[0] > 0
    box_sum = np.zeros(nb, dtype=np.int64)       # this piece's, added to out at the end
    box_nonzero = np.zeros(nb, dtype=np.int64)
    mask = np.zeros(GROUP, dtype=np.int64)      # the games of the group, side by side
    upper = np.zeros(GROUP, dtype=np.int64)
    total = np.zeros(GROUP, dtype=np.int64)
    st = np.zeros(GROUP, dtype=np.uint64)
    at = np.zeros(GROUP, dtype=np.int64)        # where the row of the turn starts
    hand = np.zeros(GROUP, dtype=np.int64)      # the dice held: a multiset
    fresh = np.zeros(GROUP, dtype=np.int64)     # the dice to roll
    box = np.zeros(GROUP, dtype=np.int64)
    lo, hi = t * len(state) // n_threads, (t + 1) * len(state) // n_threads
    for i0 in range(lo, hi, GROUP):
        w = min(GROUP, hi - i0)
        for j in range(w):
            st[j] = state[i0 + j]
            mask[j] = 0
            upper[j] = 0
            total[j] = 0
        for turn in range(nb):
            for j in range(w):
                at[j] = np.int64(index[mask[j], upper[j]]) * row_bytes
                hand[j] = 0
                fresh[j] = n_dice
            for n in range(tu.rolls):
                k = tu.rolls - 1 - n
                for j in range(w):            # the roll: fresh dice added to the hand
                    s, h, bad = roll_one(adds, n_faces, tu.faces, n_dice, fresh[j], st[j],
                                         hand[j])
                    if bad:
                        r, s = roll_dice(tu.adds, first, tu.faces, fresh[j], st[j], hand[j])
                        h = r + first
                    st[j] = s
                    hand[j] = h
                    prefetch(flat, at[j] + k * n_rolls + h - first)
                    if logging and fresh[j] > 0:
                        log.rolls[i0 + j, turn, n] = h - first
                for j in range(w):            # the action: a box ends the turn
                    live = fresh[j] > 0
                    d = np.int64(flat[at[j] + k * n_rolls + hand[j] - first]) if live else 0
                    keeps = live and d >= nb
                    box[j] = d if live and d < nb else box[j]
                    keep = by_rank[max(d - nb, 0)]
                    hand[j] = keep if keeps else hand[j]
                    fresh[j] = n_dice - size[keep] if keeps else 0
                    if logging and keeps:
                        log.keeps[i0 + j, turn, n] = keep
            for j in range(w):
                p, mask[j], upper[j], gain = score_box(g, box[j], hand[j] - first, mask[j],
                                                       upper[j])
                total[j] += gain
                prefetch(flat_index, mask[j] * width + upper[j])
                box_sum[box[j]] += p
                box_nonzero[box[j]] += 1 if p > 0 else 0
                if logging:
                    log.box[i0 + j, turn] = box[j]
                if with_points:
                    out.points[i0 + j, turn] = p
        for j in range(w):
            out.score[i0 + j] = total[j]
            out.upper[i0 + j] = upper[j]
    out.box_sum[t] += box_sum
    out.box_nonzero[t] += box_nonzero
