"""Games played one decision at a time, for every rule set, compiled.

This player handles every rule set the engine does (jokers, the yahtzee
bonus, saved rolls).  At the start of each turn the turn kernels value every
keep at every number of rerolls left for the one state
(``turn.keep_values``) and, at each roll, every way to end the turn
(``turn.fill_candidates``).  Each choice is made by ``turn.pick``, the
compiled form of the tie rule of ``solver.rules.ties`` that the policies use too:
boxes in scorecard order, keeps in order of preference, scoring against the
best keep; so the choices are those of ``yatzy advise``.  Whole games run in
one compiled call, on every thread.

``solver.research.simulate`` plays the rule sets without saved rolls faster still,
deciding whole layers of states at once; ``Solver.simulate`` uses this
player for the others (saved rolls, Maxi), and estimates their
distributions with it.  Only the optimal policy.

Game ``i`` draws its dice from the splitmix64 stream of ``solver.research.simulate``
seeded by ``(seed, i)``.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Callable, NamedTuple

import numpy as np
from numba import njit

from solver.research.distribution import Distribution
from solver.errors import InputError
from solver.rules.ties import keep_ranks, tolerance
from solver.research.review import turn_line
from solver.rules.ruleset import Rules
from solver.rules.scorecard import Scorecard
from solver.research.simulate import Simulation, roll_dice, seed_states
from solver.tables.store import Table
from solver.kernels.threads import run_pieces
from solver.kernels.turn import NEG, fill_candidates, keep_values, pick, turn_data

CHUNK = 4096        # games per call when their turns are logged


class PlayTables(NamedTuple):
    """The player's own tables (``play_tables(rules)``):

    * ``cand_of[r, b]``  the candidate (``TurnData``) of roll ``r`` in box
      ``b``, -1 for 0 points
    * ``korder[kstart[r]:kstart[r + 1]]``  the keeps of roll ``r`` (proper
      sub-multisets), most preferred first; ``kcode[m]`` the preference code
      of keep ``m`` (``solver.rules.ties``), ``by_code[kcode[m] - n_boxes] = m``
    * ``size[m]``  number of dice in multiset ``m``
    """

    cand_of: np.ndarray
    korder: np.ndarray
    kstart: np.ndarray
    kcode: np.ndarray
    by_code: np.ndarray
    size: np.ndarray


@njit(cache=True, nogil=True)
def _play(d, pt, first, seed, start, layers, tol, score, upper_end, box_points,
          log_rolls, log_keeps, log_box, t, n_threads):
    """Play games ``first + i`` for ``i = t, t + n_threads, ...`` below
    ``len(score)``, from the turn-start state ``start = (turn, mask, u, bank,
    score)`` (``turn``: the boxes filled so far).

    ``layers[p][k, rows[mask], u]``: turn-start values of the states with
    ``p`` boxes filled and ``k`` rolls banked.  Outputs per game:
    ``score[i]`` (bonuses included), ``upper_end[i]`` (capped upper total),
    ``box_points[i, b]``; with logging (``log_rolls.shape[0] > 0``)
    ``log_rolls[i, turn, n]``, ``log_keeps[i, turn, n]`` (multiset indices,
    -1 unused) and ``log_box[i, turn]``.
    """
    nb = len(d.is_upper)
    n_dice = pt.size[-1]
    cap = d.cap
    logging = log_rolls.shape[0] > 0
    cand = np.empty((len(d.cand_box), 1))
    zero = np.empty(1)
    value = np.empty(nb)          # each box's value for the roll on the table
    for i in range(t, len(score), n_threads):
        st = seed_states(seed, first + i, 1)[0]
        first_turn, mask, u, bank, total = start
        for turn in range(first_turn, nb):
            nxt = layers[turn + 1]
            allowed = d.allowed[mask]
            roll_bonus = d.yahtzee_bonus if mask & d.flag_bit else 0.0
            rerolls = d.rolls - 1 + bank
            keep = cand[:1]               # keep[k - 1, m]: W_k(m), every level at once
            if rerolls:
                keep = keep_values(d, mask, u, rerolls, 0, nxt)
            r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice, st, 0)
            n = 0
            while True:
                if logging:
                    log_rolls[i, turn, n] = r
                # every box's value (points, bonuses, future) with the rerolls left banked
                later = nxt[min(rerolls, nxt.shape[0] - 1)]
                fill_candidates(d, mask, u, 1, later, cand, zero)
                f = d.yahtzee_face[r]
                jokers = d.joker_boxes[mask, f] if f >= 0 else 0
                stop = NEG
                code = nb
                for b in range(nb):
                    value[b] = NEG
                    if jokers != 0:
                        if (jokers >> b) & 1:
                            value[b] = cand[d.joker_cand[f, b], 0]
                    elif (allowed >> b) & 1:
                        c = pt.cand_of[r, b]
                        value[b] = cand[c, 0] if c >= 0 else later[d.rows[mask | (1 << b)], u]
                    if f >= 0 and roll_bonus != 0.0 and value[b] > NEG:    # a yahtzee bonus
                        value[b] = value[b] * d.ybonus_mul + d.ybonus_add
                    if value[b] > NEG:
                        code = pick(value[b], stop, b, code, tol)
                        stop = max(stop, value[b])
                box = code
                if rerolls:
                    best = NEG
                    kcode = nb
                    for j in range(pt.kstart[r], pt.kstart[r + 1]):
                        m = pt.korder[j]
                        kcode = pick(keep[rerolls - 1, m], best, pt.kcode[m], kcode, tol)
                        best = max(best, keep[rerolls - 1, m])
                    code = pick(best, stop, kcode, code, tol)     # scoring wins ties
                if code < nb:
                    break
                m = pt.by_code[code - nb]
                if logging:
                    log_keeps[i, turn, n] = m
                r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice - pt.size[m], st, m)
                rerolls -= 1
                n += 1
            c = d.joker_cand[f, box] if jokers != 0 else pt.cand_of[r, box]
            points = d.cand_score[c] if c >= 0 else 0
            mask |= d.cand_bits[c] if c >= 0 else 1 << box
            if d.is_upper[box] and cap > 0:
                if u < cap <= u + points:
                    total += np.int64(d.bonus)
                u = min(u + points, cap)
            if f >= 0 and roll_bonus != 0.0:
                total += np.int64(roll_bonus)
            total += points
            box_points[i, box] = points
            bank = min(rerolls, nxt.shape[0] - 1)
            if logging:
                log_box[i, turn] = box
        score[i] = total
        upper_end[i] = u


@lru_cache(maxsize=16)
def play_tables(rules: Rules) -> PlayTables:
    """The ``PlayTables`` of ``rules`` (cached per rule set)."""
    d = turn_data(rules)
    ds = rules.dice_space
    cand_of = np.full((ds.n_rolls, rules.n_boxes), -1, dtype=np.int64)
    for r in range(ds.n_rolls):
        for k in d.roll_cand[d.roll_cand_start[r]:d.roll_cand_start[r + 1]]:
            cand_of[r, d.cand_box[k]] = k
    rank = keep_ranks(rules)
    order = [sorted(set(ds.subsets[r].tolist()) - {ds.first_roll + r}, key=rank.__getitem__)
             for r in range(ds.n_rolls)]
    kstart = np.cumsum([0] + [len(o) for o in order]).astype(np.int64)
    korder = np.array([m for o in order for m in o], dtype=np.int64)
    return PlayTables(cand_of, korder, kstart, (rules.n_boxes + rank).astype(np.int64),
                      np.argsort(rank), ds.size)


def play(table: Table, games: int, seed: int = 0,
         on_line: Callable[[str], None] | None = None,
         card: Scorecard | None = None) -> Simulation:
    """Play ``games`` games optimally (from ``card``, default a new game);
    ``on_line`` receives each turn's log line (the format of
    ``solver.research.review``).  Box figures count the card's filled boxes as they
    stand."""
    rules = table.rules
    card = card or Scorecard.empty(rules)
    state = (card.turn, card.mask, card.upper_state, card.bank, card.score)
    ds = rules.dice_space
    if table.dense is not None:
        layers = (np.asarray(table.dense),) * (rules.n_boxes + 1)
    else:
        layers = tuple(np.asarray(layer) for layer in table.layers)
    start = time.perf_counter()
    hist = np.zeros(1, dtype=np.int64)
    bonus_games = 0
    box_sum = np.zeros(rules.n_boxes, dtype=np.int64)
    box_nonzero = np.zeros(rules.n_boxes, dtype=np.int64)
    step = CHUNK if on_line else games
    steps = rules.rolls + rules.space.bank_limit(rules.n_boxes - 1)   # most rolls in a turn
    for first in range(0, games, step):
        n = min(step, games - first)
        score = np.zeros(n, dtype=np.int64)
        upper_end = np.zeros(n, dtype=np.int64)
        box_points = np.zeros((n, rules.n_boxes), dtype=np.int64)
        box_points[:] = [p or 0 for p in card.points]
        shape = (n, rules.n_boxes, steps) if on_line else (0, 1, 1)
        log_rolls = np.full(shape, -1, dtype=np.int64)
        log_keeps = np.full(shape, -1, dtype=np.int64)
        log_box = np.full(shape[:2], -1, dtype=np.int64)
        run_pieces(_play, turn_data(rules, table.theta), play_tables(rules), first, seed, state,
                   layers, tolerance(table) if table.theta == 0 else 0.0, score, upper_end, box_points, log_rolls, log_keeps, log_box)
        counts = np.bincount(score)
        hist = np.pad(hist, (0, max(len(counts) - len(hist), 0)))
        hist[:len(counts)] += counts
        bonus_games += int((upper_end >= rules.cap).sum()) if rules.cap > 0 else 0
        box_nonzero += (box_points > 0).sum(axis=0)
        box_sum += box_points.sum(axis=0)
        if on_line:
            for i in range(n):
                for turn in range(card.turn, rules.n_boxes):
                    rolls = [ds.dice_of(ds.first_roll + int(r))
                             for r in log_rolls[i, turn] if r >= 0]
                    kept = [ds.dice_of(int(m)) for m in log_keeps[i, turn] if m >= 0]
                    box = int(log_box[i, turn])
                    on_line(turn_line(rules, first + i + 1, turn + 1, rolls, kept, box,
                                      int(box_points[i, box])))
    return Simulation(rules, "optimal", games, seed, hist, int(bonus_games), box_sum,
                      box_nonzero, time.perf_counter() - start, table.theta)


def estimate(table: Table, card: Scorecard, games: int, seed: int = 0) -> Distribution:
    """The final-score distribution from ``card`` under optimal play,
    estimated from ``games`` played games (for rules whose exact
    distribution ``solver.research.distribution`` does not compute)."""
    if card.is_full:
        raise InputError("the card is full: its final score is already known")
    sim = play(table, games, seed, card=card)
    expected = card.score + table.value(card.mask, card.upper_state, card.bank)
    return Distribution(table.rules, card, "optimal", sim.hist / games,
                        sim.bonus_games / games, sim.box_sum / games, sim.box_nonzero / games,
                        None if table.theta else expected, sim.seconds, games,
                        theta=table.theta)
