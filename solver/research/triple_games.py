"""Trippel-Yatzy games played whole, compiled (the strategy of
``solver.players.triple``).

At each turn start ``scoring_layer`` builds the scoring layer :math:`X_0` as
the maximum over the columns of each column's best box (``turn.fill_candidates``
and ``best_boxes`` of that column, weighted and offset; only the column the
last turn changed is recomputed, and with a coupling term those whose
offsets ``column_offsets`` moved), then ``keep_levels`` the keep values
of every reroll level with ``turn.best_keeps`` and ``turn.average_keeps``,
for ``LANES`` games side by side (those two helpers do not depend on the
state, so the games' values fill the vector lanes the solve uses for upper
totals); at each roll every (column, box) and every keep is
valued and chosen by ``turn.pick`` (the tie rule of ``solver.rules.ties``, codes as
in ``solver.players.triple.advise``), so the choices are the advice's.  Whole games
run in one compiled call per piece of games, on every thread.

Game ``i`` draws its dice from the splitmix64 stream of ``solver.research.simulate``
seeded by ``(seed, i)``, as every other player does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numba import njit

from solver.errors import InputError
from solver.research.games import play_tables
from solver.research.review import turn_line
from solver.rules.ruleset import Rules
from solver.research.simulate import roll_dice, seed_states
from solver.kernels.threads import run_pieces
from solver.rules.ties import tolerance
from solver.players.triple import POLICIES, coupling_of, lower_bound, no_coupling
from solver.rules.scorecard import Scorecard
from solver.kernels.turn import NEG, average_keeps, best_keeps, fill_candidates, pick, score_rolls, turn_data
from solver.tables.values import StateValues

CHUNK = 1 << 15                      # games per compiled call (their box figures in memory)
EV_GAMES = 4_000                     # games behind the estimate `yatzy ev` prints


LANES = 8          # games whose keep values are averaged side by side (vector lanes)


@njit(cache=True, nogil=True)
def column_offsets(masks, w, coupling, shift, moved):
    """``shift[c, b]`` = :math:`(f(s') - f(s)) / w_c` of filling open box
    ``b`` of column ``c``, for the coupling term
    :math:`f(s) = \\sum_b \\kappa[b, P_b]`, ``P_b`` the set of columns (bit
    ``c``) in which box ``b`` is open; ``moved[c]``: whether a ``shift[c]``
    changed."""
    moved[:] = False
    for b in range(coupling.shape[0]):
        p = 0
        for c in range(len(masks)):
            if (masks[c] >> b) & 1 == 0:
                p |= 1 << c
        for c in range(len(masks)):
            v = (coupling[b, p & ~(1 << c)] - coupling[b, p]) / w[c] if (p >> c) & 1 else 0.0
            if v != shift[c, b]:
                moved[c] = True
                shift[c, b] = v


@njit(cache=True, nogil=True)
def shift_candidates(d, mask, shift, cand, scratch, shifted, szero):
    """One column's candidates (``cand``, from ``fill_candidates``) plus
    ``shift[b]`` of their box into ``shifted``; ``szero[0]``: the best
    scratch (0 points, ``scratch[b]``) plus its box's ``shift[b]``."""
    allowed = d.allowed[mask]
    szero[0] = NEG
    for b in range(len(d.is_upper)):
        if (allowed >> b) & 1:
            szero[0] = max(szero[0], scratch[b] + shift[b])
    for k in range(len(d.cand_box)):
        b = d.cand_box[k]
        if (allowed >> b) & 1:
            shifted[k, 0] = cand[k, 0] + shift[b]


@njit(cache=True, nogil=True)
def best_boxes(d, box_cand, mask, cand, zero, best):
    """``best[r, 0]``: ``score_rolls`` for one upper total, box by box over
    all rolls (``box_cand[b, r]``: the candidate of roll ``r`` in box ``b``,
    -1 for 0 points, which ``zero`` covers; ``box_candidates``).  The same
    maximum, so the same values."""
    allowed = d.allowed[mask]
    n = box_cand.shape[1]
    for r in range(n):
        best[r, 0] = zero[0]
    for b in range(box_cand.shape[0]):
        if (allowed >> b) & 1:
            for r in range(n):
                k = box_cand[b, r]
                if k >= 0:
                    best[r, 0] = max(best[r, 0], cand[k, 0])


def box_candidates(d, pt) -> np.ndarray:
    """``box_cand[b, r]`` of ``best_boxes`` (``pt.cand_of`` transposed), or
    an empty array where ``score_rolls`` is needed (rules with jokers or a
    yahtzee bonus)."""
    if d.joker_boxes.any() or d.yahtzee_bonus != 0.0:
        return np.zeros((0, 0), dtype=np.int64)
    return np.ascontiguousarray(pt.cand_of.T)


@njit(cache=True, nogil=True)
def scoring_layer(d, box_cand, masks, us, w, values, coupling, fresh, cand, zero, scratch,
                  shifted, szero, shift, moved, best, now, work, j):
    """:math:`X_0` of one game's turn at the columns ``(masks[c], us[c])``
    into ``work[first_roll + r, j]``: the best over the columns of
    ``w_c best[c, r] + H - w_c now[c]``; returns ``H`` (:math:`\\sum_c w_c V_c`).

    ``now[c]``: column ``c``'s ``V``; ``cand[c]``, ``zero[c]``: its
    candidates (``fill_candidates``), ``scratch[c, b]`` the value of
    filling its open box ``b`` with 0 points, and ``best[c, r]`` its best
    box for roll ``r`` (``score_rolls``), recomputed only for the columns
    with ``fresh[c]`` (the others are as the game's last turn left them).
    With a coupling term (``coupling`` not empty) the candidates are first
    shifted by ``shift[c, b]`` (``column_offsets``) into ``shifted[c]``,
    ``szero[c]``, and ``best`` is recomputed for the columns whose ``shift``
    moved too.  ``best_boxes`` stands for ``score_rolls`` where ``box_cand``
    is not empty.
    """
    first = d.first_roll
    n_rolls = len(d.roll_prob)
    coupled = coupling.shape[0] > 0
    total = 0.0
    for c in range(len(masks)):
        now[c] = values[d.rows[masks[c]], us[c]]
        total += w[c] * now[c]
    if coupled:
        column_offsets(masks, w, coupling, shift, moved)
    for r in range(n_rolls):
        work[first + r, j] = NEG
    for c in range(len(masks)):
        if d.allowed[masks[c]] == 0:
            continue
        if fresh[c]:
            fill_candidates(d, masks[c], us[c], 1, values, cand[c], zero[c])
            allowed = d.allowed[masks[c]]
            for b in range(len(d.is_upper)):
                if (allowed >> b) & 1:
                    scratch[c, b] = values[d.rows[masks[c] | (1 << b)], us[c]]
        if coupled and (fresh[c] or moved[c]):
            shift_candidates(d, masks[c], shift[c], cand[c], scratch[c], shifted[c], szero[c])
        if fresh[c] or (coupled and moved[c]):
            src, z = (shifted[c], szero[c]) if coupled else (cand[c], zero[c])
            if box_cand.shape[0] > 0:
                best_boxes(d, box_cand, masks[c], src, z, best[c])
            else:
                score_rolls(d, masks[c], 1, 0, src, z, best[c])
        off = total - w[c] * now[c]
        for r in range(n_rolls):
            work[first + r, j] = max(work[first + r, j], w[c] * best[c, r, 0] + off)
    return total


@njit(cache=True, nogil=True)
def keep_levels(d, L, rerolls, work, out):
    """``out[t - 1, m, j]`` = :math:`W_t(m)` for ``t = 1 .. rerolls`` of the
    games in lanes ``j < L``, from :math:`X_0` in ``work`` (overwritten)."""
    M = out.shape[1]
    for t in range(rerolls):
        if t > 0:                           # X_t from W_t (rolls: X_{t-1})
            best_keeps(d, L, work)
        average_keeps(d, L, work)
        for m in range(M):
            for j in range(L):
                out[t, m, j] = work[m, j]


@njit(cache=True, nogil=True)
def play_games(d, box_cand, pt, values, w, coupling, start, first_game, seed, tol, score,
               bonuses, box_points, log_rolls, log_keeps, log_box, log_col, t, n_threads):
    """Play games ``first_game + i`` for ``i`` in piece ``t`` of
    ``n_threads`` (consecutive runs of ``len(score)``), ``LANES`` at a time,
    from ``start[c] = (mask, u, points)`` of each column (points as
    written, bonus included): ``score[i]`` (weighted, bonuses included),
    ``bonuses[i]`` (columns with the bonus), ``box_points[i, c, b]``; with
    logging (``log_rolls.shape[0] > 0``) each turn's rolls, keeps (multiset
    indices, -1 unused), box and column (0-based)."""
    nb = len(d.is_upper)
    C = len(w)
    n_dice = pt.size[-1]
    M = d.adds.shape[0]
    n_rolls = len(d.roll_prob)
    logging = log_rolls.shape[0] > 0
    coupled = coupling.shape[0] > 0
    cand = np.empty((LANES, C, len(d.cand_box), 1))
    zero = np.empty((LANES, C, 1))
    shifted = np.empty((LANES, C, len(d.cand_box), 1) if coupled else (1, 1, 1, 1))
    szero = np.empty((LANES, C, 1) if coupled else (1, 1, 1))
    shift = np.zeros((LANES, C, nb))
    scratch = np.empty((LANES, C, nb))
    moved = np.zeros((LANES, C), dtype=np.bool_)
    src = shifted if coupled else cand
    best_box = np.empty((LANES, C, n_rolls, 1))
    fresh = np.ones((LANES, C), dtype=np.bool_)
    work = np.zeros((M + 1, LANES))
    now = np.empty((LANES, C))
    h = np.empty(LANES)
    out = np.empty((max(d.rolls - 1, 1), M, LANES))
    masks = np.zeros((LANES, C), dtype=np.int64)
    us = np.zeros((LANES, C), dtype=np.int64)
    total = np.zeros(LANES, dtype=np.int64)
    states = np.zeros(LANES, dtype=np.uint64)
    turns = 0
    for c in range(C):
        for b in range(nb):
            turns += (start[c, 0] >> b) & 1
    lo, hi = t * len(score) // n_threads, (t + 1) * len(score) // n_threads
    for i0 in range(lo, hi, LANES):
        L = min(LANES, hi - i0)
        states[:L] = seed_states(seed, first_game + i0, L)
        for j in range(L):
            fresh[j, :] = True
            total[j] = 0
            for c in range(C):
                masks[j, c], us[j, c] = start[c, 0], start[c, 1]
                total[j] += np.int64(w[c]) * start[c, 2]
        for turn in range(turns, C * nb):
            for j in range(L):
                h[j] = scoring_layer(d, box_cand, masks[j], us[j], w, values, coupling,
                                     fresh[j], cand[j], zero[j], scratch[j],
                                     shifted[min(j, len(shifted) - 1)],
                                     szero[min(j, len(szero) - 1)], shift[j], moved[j],
                                     best_box[j], now[j], work, j)
            keep_levels(d, L, d.rolls - 1, work, out)
            for j in range(L):
                i = i0 + j
                st = states[j]
                rerolls = d.rolls - 1
                r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice, st, 0)
                n = 0
                while True:
                    if logging:
                        log_rolls[i, turn, n] = r
                    stop = NEG
                    code = C * nb + M
                    for c in range(C):
                        allowed = d.allowed[masks[j, c]]
                        off = h[j] - w[c] * now[j, c]
                        for b in range(nb):
                            if (allowed >> b) & 1:
                                k = pt.cand_of[r, b]
                                v = (src[j, c, k, 0] if k >= 0
                                     else scratch[j, c, b] + shift[j, c, b])
                                v = w[c] * v + off
                                code = pick(v, stop, c * nb + b, code, tol)
                                stop = max(stop, v)
                    if rerolls:
                        best = NEG
                        kcode = C * nb + M
                        for q in range(pt.kstart[r], pt.kstart[r + 1]):
                            m = pt.korder[q]
                            v = out[rerolls - 1, m, j]
                            kcode = pick(v, best, pt.kcode[m] + (C - 1) * nb, kcode, tol)
                            best = max(best, v)
                        code = pick(best, stop, kcode, code, tol)     # scoring wins ties
                    if code < C * nb:
                        break
                    m = pt.by_code[code - C * nb]
                    if logging:
                        log_keeps[i, turn, n] = m
                    r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice - pt.size[m], st, m)
                    rerolls -= 1
                    n += 1
                states[j] = st
                c, b = code // nb, code % nb
                fresh[j, :] = False
                fresh[j, c] = True
                k = pt.cand_of[r, b]
                points = d.cand_score[k] if k >= 0 else 0
                masks[j, c] |= d.cand_bits[k] if k >= 0 else 1 << b
                gain = points
                if d.is_upper[b] and d.cap > 0:
                    if us[j, c] < d.cap <= us[j, c] + points:
                        gain += np.int64(d.bonus)
                        bonuses[i] += 1
                    us[j, c] = min(us[j, c] + points, d.cap)
                total[j] += np.int64(w[c]) * gain
                box_points[i, c, b] = points
                if logging:
                    log_box[i, turn] = b
                    log_col[i, turn] = c
        for j in range(L):
            score[i0 + j] = total[j]


@dataclass(frozen=True)
class TripleGames:
    """Results of played Trippel-Yatzy games: ``hist[s]`` games with final
    score ``s``; ``bonus_columns``: columns that earned the bonus, all games
    together; ``box_sum[c, b]``, ``box_nonzero[c, b]``: points and non-zero
    scores of box ``b`` in column ``c`` (as written, before the weight)."""

    rules: Rules
    policy: str
    games: int
    seed: int
    hist: np.ndarray
    bonus_columns: int
    box_sum: np.ndarray
    box_nonzero: np.ndarray
    seconds: float

    def simulation(self):
        """As a ``solver.research.simulate.Simulation`` (box figures: the mean per
        column; bonus: the share of columns with the bonus)."""
        from solver.research.simulate import Simulation
        cols = self.rules.columns
        return Simulation(self.rules, self.policy, self.games, self.seed, self.hist,
                          self.bonus_columns / cols, self.box_sum.sum(axis=0) / cols,
                          self.box_nonzero.sum(axis=0) / cols, self.seconds)


def _values(table: StateValues, policy: str) -> np.ndarray:
    values = np.asarray(table.dense)[0]
    return np.zeros_like(values) if policy == "greedy" else values


def play(table: StateValues, rules: Rules, games: int, seed: int = 0, policy: str = "optimal",
         on_line: Callable[[str], None] | None = None,
         card: Scorecard | None = None, coupling: np.ndarray | None = None,
         scores: np.ndarray | None = None) -> TripleGames:
    """Play ``games`` games of ``rules`` (several columns) under ``policy``
    from ``card`` (default a new game) with the one-column ``table``;
    ``on_line`` receives each turn's log line (``solver.research.review``'s format,
    with ``column``).  Box figures count the card's boxes as they stand.
    ``coupling``: the coupling term of ``optimal`` (default
    ``triple.coupling_of(rules)``; an empty ``(0, 2 ** columns)`` array plays
    the plain improvement step on ``H``, as policy ``step`` does);
    ``scores``: if given, game ``i``'s final score goes in ``scores[i]``."""
    if policy not in POLICIES:
        raise InputError(f"policy {policy!r}: expected one of {', '.join(POLICIES)} "
                         f"under rules {rules.spec}")
    one = table.rules
    ds = one.dice_space
    C, nb = rules.columns, one.n_boxes
    d, pt = turn_data(one), play_tables(one)
    values = _values(table, policy)
    card = card or Scorecard.empty(rules)
    state = np.array([(sc.mask, sc.upper_state, sc.score) for sc in card.columns], dtype=np.int64)
    w = np.array(rules.column_weights, dtype=np.float64)
    if policy in ("greedy", "step"):
        coupling = no_coupling(rules)
    coupling = coupling_of(rules) if coupling is None else np.asarray(coupling, dtype=np.float64)
    hist = np.zeros(one.max_score * sum(rules.column_weights) + 1, dtype=np.int64)
    bonus_columns = 0
    box_sum = np.zeros((C, nb), dtype=np.int64)
    box_nonzero = np.zeros((C, nb), dtype=np.int64)
    start = time.perf_counter()
    step = min(CHUNK, 4096) if on_line else CHUNK
    box_cand, tol = box_candidates(d, pt), tolerance(table)
    for first in range(0, games, step):
        n = min(step, games - first)
        score = np.zeros(n, dtype=np.int64)
        bonuses = np.zeros(n, dtype=np.int64)
        box_points = np.zeros((n, C, nb), dtype=np.int64)
        box_points[:] = [[p or 0 for p in sc.points] for sc in card.columns]
        shape = (n, C * nb, one.rolls) if on_line else (0, 1, 1)
        log_rolls = np.full(shape, -1, dtype=np.int64)
        log_keeps = np.full(shape, -1, dtype=np.int64)
        log_box = np.full(shape[:2], -1, dtype=np.int64)
        log_col = np.full(shape[:2], -1, dtype=np.int64)
        run_pieces(play_games, d, box_cand, pt, values, w, coupling, state, first, seed, tol,
                   score, bonuses, box_points, log_rolls, log_keeps, log_box, log_col)
        hist += np.bincount(score, minlength=len(hist))
        if scores is not None:
            scores[first:first + n] = score
        bonus_columns += int(bonuses.sum())
        box_sum += box_points.sum(axis=0)
        box_nonzero += (box_points > 0).sum(axis=0)
        if on_line:
            for i in range(n):
                for turn in range(card.turn, C * nb):
                    rolls = [ds.dice_of(ds.first_roll + int(r))
                             for r in log_rolls[i, turn] if r >= 0]
                    kept = [ds.dice_of(int(m)) for m in log_keeps[i, turn] if m >= 0]
                    c, b = int(log_col[i, turn]), int(log_box[i, turn])
                    on_line(turn_line(one, first + i + 1, turn + 1, rolls, kept, b,
                                      int(box_points[i, c, b]), column=c + 1))
    return TripleGames(rules, policy, games, seed, hist, bonus_columns, box_sum, box_nonzero,
                       time.perf_counter() - start)


def visits(table: StateValues, rules: Rules, games: int, seed: int,
           coupling: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The turn starts of ``games`` games played (seed ``seed``) with the
    coupling term ``coupling``: ``masks[i, t, c]`` of column ``c`` at the start
    of turn ``t`` of game ``i``, ``uppers[i, t, c]`` its upper total, and
    ``excess[i, t]`` the points the game went on to score from there minus
    ``H`` of that position."""
    one = table.rules
    C, nb, T = rules.columns, one.n_boxes, rules.columns * one.n_boxes
    d, pt = turn_data(one), play_tables(one)
    values = _values(table, "optimal")
    w = np.array(rules.column_weights, dtype=np.float64)
    state = np.zeros((C, 3), dtype=np.int64)
    score = np.zeros(games, dtype=np.int64)
    box_points = np.zeros((games, C, nb), dtype=np.int64)
    log_rolls = np.full((games, T, one.rolls), -1, dtype=np.int64)
    log_box = np.full((games, T), -1, dtype=np.int64)
    log_col = np.full((games, T), -1, dtype=np.int64)
    run_pieces(play_games, d, box_candidates(d, pt), pt, values, w,
               np.asarray(coupling, dtype=np.float64), state, 0, seed, tolerance(table), score,
               np.zeros(games, dtype=np.int64), box_points, log_rolls, log_rolls.copy(), log_box,
               log_col)
    masks = np.zeros((games, T, C), dtype=np.int64)
    uppers = np.zeros((games, T, C), dtype=np.int64)
    written = np.zeros((games, T))
    mask = np.zeros((games, C), dtype=np.int64)
    upper = np.zeros((games, C), dtype=np.int64)
    sofar = 0.0
    i = np.arange(games)
    for t in range(T):
        masks[:, t], uppers[:, t], written[:, t] = mask, upper, sofar
        b, c = log_box[:, t], log_col[:, t]
        p = box_points[i, c, b]
        up = one.is_upper[b]
        new = np.where(up, np.minimum(upper[i, c] + p, one.cap), upper[i, c])
        bonus = np.where(up & (upper[i, c] < one.cap) & (new >= one.cap), one.bonus_points, 0)
        sofar = sofar + w[c] * (p + bonus)
        mask[i, c] |= 1 << b
        upper[i, c] = new
    h = (w * values[one.space.rows[masks], uppers]).sum(axis=2)
    return masks, uppers, score[:, None] - written - h


def fit_coupling(table: StateValues, rules: Rules, games: int, seed: int,
                 coupling: np.ndarray | None = None, ridge: float = 0.01,
                 damping: float = 0.5) -> np.ndarray:
    r"""A coupling term fitted to ``games`` games (seed ``seed``) played with
    ``coupling`` (default none: the plain improvement step): the linear
    least-squares temporal-difference (LSTD(0)) estimate of the points those
    games score beyond ``H``, on the features ``[P_b = P]`` (box ``b`` open
    in the columns ``P``), with a ridge of ``ridge`` per game, times
    ``damping``.  Shape ``(n_boxes, 2 ** columns)``; ``P = 0`` is 0.

    LSTD solves :math:`\sum_t \phi_t (\phi_t - \phi_{t+1})^T \kappa =
    \sum_t \phi_t (y_t - y_{t+1})` for the coupling term :math:`\kappa`,
    ``y_t`` the excess of ``visits`` (the turn's weighted points plus the
    change of ``H``): far less noisy than a regression on the whole
    remaining score."""
    C, nb = rules.columns, table.rules.n_boxes
    P = 1 << C
    if coupling is None:
        coupling = np.zeros((0, P))
    masks, _, excess = visits(table, rules, games, seed, coupling)
    T = masks.shape[1]
    y = np.concatenate([excess, np.zeros((games, 1))], axis=1)

    def features(t):                        # [i, b * P + P_b] = 1 at the start of turn t
        out = np.zeros((games, nb * P))
        if t < T:
            open_ = 1 - ((masks[:, t, :, None] >> np.arange(nb)) & 1)       # [i, c, b]
            pattern = (open_ << np.arange(C)[:, None]).sum(axis=1)          # [i, b]
            np.put_along_axis(out, np.arange(nb) * P + pattern, 1.0, axis=1)
        return out
    a = np.zeros((nb * P, nb * P))
    rhs = np.zeros(nb * P)
    phi = features(0)
    for t in range(T):
        nxt = features(t + 1)
        a += phi.T @ (phi - nxt)
        rhs += phi.T @ (y[:, t] - y[:, t + 1])
        phi = nxt
    live = np.flatnonzero(np.arange(nb * P) % P)                           # P = 0 stays 0
    out = np.zeros(nb * P)
    out[live] = np.linalg.solve(a[np.ix_(live, live)] + ridge * games * np.eye(len(live)),
                                rhs[live])
    return damping * out.reshape(nb, P)


def distribution(table: StateValues, card: Scorecard, policy: str, games: int, seed: int = 0):
    """The final-score distribution from ``card`` under ``policy``,
    estimated from ``games`` played games (``solver.research.distribution``'s
    ``Distribution``; ``table_value``: the column-by-column value, a lower
    bound of the optimum)."""
    from solver.research.distribution import Distribution   # its kernels compile on first use
    rules = card.rules
    if card.is_full:
        raise InputError("the card is full: its final score is already known")
    sim = play(table, rules, games, seed, policy, card=card)
    cols = rules.columns
    return Distribution(rules, card, policy, sim.hist / games, sim.bonus_columns / cols / games,
                        sim.box_sum.sum(axis=0) / cols / games,
                        sim.box_nonzero.sum(axis=0) / cols / games, lower_bound(table, card),
                        sim.seconds, games)


