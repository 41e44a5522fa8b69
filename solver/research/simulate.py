"""Monte Carlo play of whole games under a policy, seeded and reproducible.

All games advance together, one turn (one layer of masks) at a time: the
policy's actions are decided for the masks the games are in
(``solver.players.policy.decide``), then every game plays its turn.  Game ``i``
draws its dice from its own splitmix64 stream seeded by ``(seed, i)``, so a
game's dice do not depend on the number of threads, the batch size or the
other games.  Die faces come from 32-bit draws by Lemire's multiply-and-reject
method (exactly uniform).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from solver.research import stats
from solver.errors import InputError
from solver.players.policy import decide, game, policy_values
from solver.research.review import check_supported
from solver.rules.ruleset import Rules
from solver.kernels.threads import run_pieces

BATCH = 1 << 22          # games held in memory at once


@njit(cache=True)
def _next(state):
    """splitmix64: the next state and its 64-bit output."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _face(state, faces):
    """A uniform face index ``0 .. faces-1`` and the new state."""
    f = np.uint64(faces)
    limit = (np.uint64(1 << 32) - f) % f
    while True:
        state, z = _next(state)
        m = (z >> np.uint64(32)) * f
        if (m & np.uint64(0xFFFFFFFF)) >= limit:
            return state, np.int64(m >> np.uint64(32))


@njit(cache=True)
def roll_dice(adds, first_roll, faces, fresh, state, keep):
    """Add ``fresh`` new dice to multiset ``keep`` (``adds[m, f]``: ``m``
    plus a die showing ``f + 1``); returns the roll index and the new state."""
    m = keep
    for _ in range(fresh):
        state, f = _face(state, faces)
        m = adds[m, f]
    return m - first_roll, state


@njit(cache=True)
def seed_states(seed, first, n):
    """The starting states of games ``first .. first + n - 1``."""
    out = np.empty(n, dtype=np.uint64)
    base = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03)
    for i in range(n):
        s, z = _next(base ^ (np.uint64(first + i) * np.uint64(0x9E3779B97F4A7C15)))
        out[i] = z
    return out


@njit(cache=True, nogil=True)
def _play_turn(g, size, n_dice, rows, game_row, mask, upper, score, state, turn,
               box_of, points_of, gid, log_rolls, log_keeps, log_box, t, n_threads):
    """Play one turn of one block of games (block ``t`` of
    ``n_threads``).

    ``mask[i], upper[i], score[i], state[i]``  game ``i``'s filled boxes
    (and flag bit), capped upper total, points (bonuses included) and dice
    stream, updated in place; ``game_row[i]``: its row of ``rows[j, k, r]``
    (action bytes); ``box_of[i], points_of[i]``: the box filled and its
    points (output; a joker scores joker points, a yahtzee bonus goes to
    ``score`` only).  With logging (``log_rolls.shape[0] > 0``),
    ``log_rolls[gid[i], turn, n]`` and ``log_keeps[gid[i], turn, n]`` get
    the roll index and the kept multiset (-1 after the turn ended),
    ``log_box[gid[i], turn]`` the box.
    """
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
        if tu.is_upper[box] and tu.cap > 0:
            u = upper[i]
            if u < tu.cap <= u + p:
                score[i] += np.int64(tu.bonus)
            upper[i] = min(u + p, tu.cap)
        score[i] += p + g.out_extra[c]


@dataclass(frozen=True)
class Simulation:
    """Results of ``games`` simulated games.

    ``hist[s]``: games that ended with score ``s``; ``box_sum[b]``,
    ``box_nonzero[b]``: total points and non-zero scores of box ``b``.
    """

    rules: Rules
    policy: str
    games: int
    seed: int
    hist: np.ndarray
    bonus_games: int
    box_sum: np.ndarray
    box_nonzero: np.ndarray
    seconds: float
    theta: float = 0.0              # the optimal policy's risk parameter (values.utility)

    @property
    def mean(self) -> float:
        return stats.mean(self.hist)

    @property
    def sd(self) -> float:
        """Sample standard deviation of the scores."""
        return stats.sd(self.hist, sample=True)

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of the mean (normal approximation)."""
        return stats.mean_ci95(self.mean, self.sd, self.games)

    def percentile(self, q: float) -> int:
        return stats.percentile(self.hist, q)

    def as_dict(self) -> dict:
        lo, hi = self.ci95
        return {
            "rules": self.rules.spec, "policy": self.policy, "theta": self.theta,
            "games": self.games,
            "seed": self.seed, "mean": self.mean, "ci95": [lo, hi], "sd": self.sd,
            "percentiles": {str(q): self.percentile(q) for q in stats.PERCENTILES},
            "bonus_rate": self.bonus_games / self.games,
            "boxes": {b.name: {"mean": float(self.box_sum[i]) / self.games,
                               "nonzero": float(self.box_nonzero[i]) / self.games}
                      for i, b in enumerate(self.rules.boxes)},
            "games_per_second": self.games / self.seconds if self.seconds else None,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class GameLog:
    """Every roll, keep and box of some games (multiset indices; -1 unused).

    ``rolls[i, t, n]``: roll ``n`` of turn ``t`` of game ``first + i``;
    ``keeps[i, t, n]``: what was kept from it; ``boxes[i, t]``: the box,
    ``points[i, t]`` its points.
    """

    first: int
    rolls: np.ndarray
    keeps: np.ndarray
    boxes: np.ndarray
    points: np.ndarray


def simulate(rules: Rules, values: np.ndarray | None, games: int, seed: int = 0,
             policy: str = "optimal", on_log=None, theta: float = 0.0) -> Simulation:
    """Play ``games`` games under ``policy`` (``values``: the value table,
    for ``optimal``, of the objective ``theta``).  ``on_log(GameLog)`` is
    called for each batch of games when given."""
    check_supported(rules, "the fast simulation")
    if games < 1:
        raise InputError(f"games must be at least 1, not {games}")
    if not 0 <= seed < 2**63:
        raise InputError(f"seed must be between 0 and 2**63-1, not {seed}")
    start = time.perf_counter()
    g = game(rules, theta)
    values = policy_values(rules, policy, values, theta)[1]
    ds = rules.dice_space
    size = ds.size
    hist = np.zeros(rules.max_score + 1, dtype=np.int64)
    bonus_games = 0
    box_sum = np.zeros(rules.n_boxes, dtype=np.int64)
    box_nonzero = np.zeros(rules.n_boxes, dtype=np.int64)
    for first in range(0, games, BATCH):
        n = min(BATCH, games - first)
        mask = np.zeros(n, dtype=np.int64)
        upper = np.zeros(n, dtype=np.int64)
        score = np.zeros(n, dtype=np.int64)
        state = seed_states(seed, first, n)
        shape = (n, rules.n_boxes, rules.rolls) if on_log else (0, 1, 1)
        log_rolls = np.full(shape, -1, dtype=np.int16)
        log_keeps = np.full(shape, -1, dtype=np.int16)
        log_box = np.full(shape[:2], -1, dtype=np.int16)
        log_points = np.full(shape[:2], -1, dtype=np.int16)
        box_of = np.empty(n, dtype=np.int64)
        points_of = np.empty(n, dtype=np.int64)
        gid = np.arange(n)                       # game of each position
        for turn in range(rules.n_boxes):
            dec = decide(rules, policy, values, mask, upper, theta)
            game_row = dec.lane_row[dec.position(rules.space.n_masks)[mask], upper]
            # games that share a state play next to each other: fewer cache misses
            order = np.argsort(game_row)
            game_row, mask, upper, score, state, gid = (
                a[order] for a in (game_row, mask, upper, score, state, gid))
            run_pieces(_play_turn, g, size, ds.n, dec.rows, game_row, mask, upper, score, state,
                       turn, box_of, points_of, gid, log_rolls, log_keeps, log_box)
            del dec, game_row, order
            if on_log:
                log_points[gid, turn] = points_of
            box_sum += np.bincount(box_of, weights=points_of,
                                   minlength=rules.n_boxes).astype(np.int64)
            box_nonzero += np.bincount(box_of[points_of > 0], minlength=rules.n_boxes)
        hist += np.bincount(score, minlength=len(hist))
        bonus_games += int((upper >= rules.cap).sum()) if rules.cap > 0 else 0
        if on_log:
            on_log(GameLog(first, log_rolls, log_keeps, log_box, log_points))
    return Simulation(rules, policy, games, seed, hist, bonus_games, box_sum, box_nonzero,
                      time.perf_counter() - start, theta)
