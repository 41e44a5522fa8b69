"""Trippel-Yatzy games played whole, compiled (the strategy of
``yatzy.players.triple``).

At each turn start ``scoring_layer`` builds the scoring layer :math:`X_0` as
the maximum over the columns of each column's best box (``turn.fill_candidates``
and ``best_boxes`` of that column, weighted and offset; only the column the
last turn changed is recomputed, and with a coupling term those whose
offsets ``column_offsets`` moved), then ``keep_levels`` the keep values
of every reroll level with ``turn.best_keeps`` and ``turn.average_keeps``,
for ``LANES`` games side by side (those two helpers do not depend on the
state, so the games' values fill the vector lanes the solve uses for upper
totals); at each roll every (column, box) and every keep is
valued and chosen by ``turn.pick`` (the tie rule of ``yatzy.rules.ties``, codes as
in ``yatzy.players.triple.advise``), so the choices are the advice's.  Whole games
run in one compiled call per piece of games, on every thread.

Game ``i`` draws its dice from the splitmix64 stream of ``yatzy.research.simulate``
seeded by ``(seed, i)``, as every other player does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.player import play_tables
from yatzy.kernels.runs import Games, turn_log
from yatzy.kernels.threads import run_pieces
from yatzy.kernels.triple import TripleOut, TripleTables, box_candidates, play_games
from yatzy.kernels.turn import turn_data
from yatzy.players.triple import Valuation, as_strategy, lower_bound, no_coupling
from yatzy.position.scorecard import Scorecard
from yatzy.position.scoring import upper_after
from yatzy.research.distribution import Distribution
from yatzy.research.review import turn_line
from yatzy.research.simulate import Simulation
from yatzy.rules.objectives import policy_for
from yatzy.rules.ruleset import Rules
from yatzy.rules.ties import tolerance
from yatzy.space import state_space
from yatzy.tables.values import StateValues

CHUNK = 1 << 15                      # games per compiled call (their box figures in memory)
EV_GAMES = 4_000                     # games behind the estimate `yatzy ev` prints


@dataclass(frozen=True)
class TripleGames:
    """Results of played Trippel-Yatzy games: ``hist[s]`` games with final
    score ``s``; ``bonus_columns``: columns that earned the bonus, all games
    together; ``box_sum[c, b]``, ``box_nonzero[c, b]``: points and non-zero
    scores of box ``b`` in column ``c`` (as written, before the weight);
    ``scores[i]``: game ``i``'s final score."""

    rules: Rules
    policy: str
    games: int
    seed: int
    hist: np.ndarray
    bonus_columns: int
    box_sum: np.ndarray
    box_nonzero: np.ndarray
    seconds: float
    scores: np.ndarray | None = None

    def simulation(self, scores: bool = False):
        """As a ``yatzy.research.simulate.Simulation`` (box figures: the mean per
        column; bonus: the share of columns with the bonus; ``scores``: with
        every game's final score)."""
        cols = self.rules.columns
        return Simulation(self.rules, self.policy, self.games, self.seed, self.hist,
                          self.bonus_columns / cols, self.box_sum.sum(axis=0) / cols,
                          self.box_nonzero.sum(axis=0) / cols, self.seconds,
                          scores=self.scores if scores else None)


def _values(table: StateValues, policy: str) -> np.ndarray:
    values = np.asarray(table.dense)[0]
    return np.zeros_like(values) if policy == "greedy" else values


def run_games(table: StateValues, rules: Rules, games: int, seed: int = 0, policy: str = "optimal",
         on_line: Callable[[str], None] | None = None,
         card: Scorecard | None = None,
         coupling: np.ndarray | Valuation | None = None) -> TripleGames:
    """Play ``games`` games of ``rules`` (several columns) under ``policy``
    from ``card`` (default a new game) with the one-column ``table``;
    ``on_line`` receives each turn's log line (``yatzy.research.review``'s format,
    with ``column``).  Box figures count the card's boxes as they stand.
    ``coupling``: what ``optimal`` values a turn's end by
    (``triple.as_strategy``): default the strategy stored for the rules
    (``triple.strategy_of``), an array that coupling term alone (an empty
    ``(0, 2 ** columns)`` one: the plain improvement step on ``H``, as
    policy ``step`` plays), or a ``triple.Valuation``.  Game
    ``i``'s final score is ``TripleGames.scores[i]``."""
    policy_for(policy, rules)                  # one line naming what these rules play
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
    coupling, plan, slack, look, per = as_strategy(rules, coupling, table)
    hist = np.zeros(one.max_score * sum(rules.column_weights) + 1, dtype=np.int64)
    bonus_columns = 0
    box_sum = np.zeros((C, nb), dtype=np.int64)
    box_nonzero = np.zeros((C, nb), dtype=np.int64)
    scores = np.zeros(games, dtype=np.int64)
    start = time.perf_counter()
    step = min(CHUNK, 4096) if on_line else CHUNK
    tt = TripleTables(box_candidates(d, pt), values, w, coupling, slack, plan,
                      np.array(look, dtype=np.float64), per)
    for first in range(0, games, step):
        n = min(step, games - first)
        out = TripleOut(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                        np.zeros((n, C, nb), dtype=np.int64))
        score, bonuses, box_points = out
        box_points[:] = [[p or 0 for p in sc.points] for sc in card.columns]
        log = turn_log(n, C * nb, one.rolls, logging=bool(on_line), columns=True)
        run_pieces(play_games, d, pt, tt, Games(first, seed, tolerance(table), state), out, log)
        hist += np.bincount(score, minlength=len(hist))
        scores[first:first + n] = score
        bonus_columns += int(bonuses.sum())
        box_sum += box_points.sum(axis=0)
        box_nonzero += (box_points > 0).sum(axis=0)
        if on_line:
            for i in range(n):
                for turn in range(card.turn, C * nb):
                    rolls = [ds.dice_of(ds.first_roll + int(r))
                             for r in log.rolls[i, turn] if r >= 0]
                    kept = [ds.dice_of(int(m)) for m in log.keeps[i, turn] if m >= 0]
                    c, b = int(log.column[i, turn]), int(log.box[i, turn])
                    on_line(turn_line(one, first + i + 1, turn + 1, rolls, kept, b,
                                      int(box_points[i, c, b]), column=c + 1))
    return TripleGames(rules, policy, games, seed, hist, bonus_columns, box_sum, box_nonzero,
                       time.perf_counter() - start, scores)


def visits(table: StateValues, rules: Rules, games: int, seed: int,
           coupling: np.ndarray | Valuation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    out = TripleOut(np.zeros(games, dtype=np.int64), np.zeros(games, dtype=np.int64),
                    np.zeros((games, C, nb), dtype=np.int64))
    score, _, box_points = out
    log = turn_log(games, T, one.rolls, columns=True)
    log_box, log_col = log.box, log.column
    coupling, plan, slack, look, per = as_strategy(rules, coupling, table)
    tt = TripleTables(box_candidates(d, pt), values, w, coupling, slack, plan,
                      np.array(look, dtype=np.float64), per)
    run_pieces(play_games, d, pt, tt, Games(0, seed, tolerance(table), state), out, log)
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
        new, bonus = upper_after(one, b, upper[i, c], p)
        sofar = sofar + w[c] * (p + bonus)
        mask[i, c] |= 1 << b
        upper[i, c] = new
    rows = state_space(one).rows[masks]
    if len(slack):
        n_open = nb - np.bitwise_count(masks) if hasattr(np, "bitwise_count") else \
            nb - ((masks[..., None] >> np.arange(nb)) & 1).sum(axis=-1)
        left = T - np.arange(T)[None, :, None]
        k = np.minimum(plan[np.arange(C)[None, None, :], left], left - n_open)
        h = (w * slack[k, rows, uppers]).sum(axis=2)
    else:
        h = (w * values[rows, uppers]).sum(axis=2)
    return masks, uppers, score[:, None] - written - h


def fit_coupling(table: StateValues, rules: Rules, games: int, seed: int,
                 coupling: np.ndarray | Valuation | None = None, ridge: float = 0.01,
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
    estimated from ``games`` played games (``yatzy.research.distribution``'s
    ``Distribution``; ``table_value``: the column-by-column value, a lower
    bound of the optimum)."""
    rules = card.rules
    if card.is_full:
        raise InputError("the card is full: its final score is already known")
    sim = run_games(table, rules, games, seed, policy, card=card)
    cols = rules.columns
    return Distribution(rules, card, policy, sim.hist / games, sim.bonus_columns / cols / games,
                        sim.box_sum.sum(axis=0) / cols / games,
                        sim.box_nonzero.sum(axis=0) / cols / games, lower_bound(table, card),
                        sim.seconds, games)


