"""Monte Carlo play of whole games under a policy, seeded and reproducible.

With a decision table (``yatzy.tables.decisions``, the optimal policy) every
action is looked up and each game is played whole (``kernels.simulate.play_games``).
Without one, all games advance together, one turn (one layer of masks) at a
time: the policy's actions are decided for the masks the games are in
(``yatzy.players.policy.decide``), then every game plays its turn
(``kernels.simulate.play_turn``).  The table's rows are the ones ``decide``
computes, so both play the same games, bit for bit.  Game ``i``
draws its dice from its own splitmix64 stream seeded by ``(seed, i)``, so a
game's dice do not depend on the number of threads, the batch size or the
other games.  Die faces come from 32-bit draws by Lemire's multiply-and-reject
method (exactly uniform).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.dice_stream import seed_states
from yatzy.kernels.policy import check_policy_rules, policy_tables
from yatzy.kernels.runs import turn_log
from yatzy.kernels.simulate import Filled, Layer, Rows, Tally, play_games, play_turn
from yatzy.kernels.threads import pieces, run_pieces
from yatzy.players.policy import decide, policy_values
from yatzy.position.scoring import upper_bonus
from yatzy.research import stats
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.decisions import DecisionTable

BATCH = 1 << 22          # games held in memory at once


@dataclass(frozen=True)
class Simulation:
    """Results of ``games`` simulated games.

    ``hist[s]``: games that ended with score ``s``; ``box_sum[b]``,
    ``box_nonzero[b]``: total points and non-zero scores of box ``b``;
    ``scores[i]``: game ``i``'s final score, where asked for
    (``simulate(..., scores=True)``; else None), e.g. to pair the games of
    two policies played with the same seed (``yatzy.research.study.paired``).
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
    scores: np.ndarray | None = None   # per game, in game order (opt-in: 8 bytes a game)

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
             policy: str = "optimal", on_log=None, theta: float = 0.0, **how) -> Simulation:
    """Play ``games`` games under ``policy`` (``values``: the value table,
    for ``optimal``, of the objective ``theta``).  ``on_log(GameLog)`` is
    called for each batch of games when given.  How they are played and
    what is kept (``how``, by keyword): ``decisions``, the decision table of
    the optimal policy (of ``values`` and ``theta``): the same games,
    played by lookup; ``scores=True``: keep every game's final score
    (``Simulation.scores``)."""
    decisions: DecisionTable | None = how.pop("decisions", None)
    scores = bool(how.pop("scores", False))
    if how:
        raise TypeError(f"simulate: unknown options {', '.join(sorted(how))}")
    check_policy_rules(rules, "the fast simulation")
    if games < 1:
        raise InputError(f"games must be at least 1, not {games}")
    if not 0 <= seed < 2**63:
        raise InputError(f"seed must be between 0 and 2**63-1, not {seed}")
    if decisions is not None:
        if policy != "optimal":
            raise ValueError("a decision table holds the optimal policy's actions only")
        return _by_lookup(rules, decisions, games, seed, on_log, theta, scores)
    start = time.perf_counter()
    g = policy_tables(rules, theta)
    values = policy_values(rules, policy, values, theta)[1]
    ds = rules.dice_space
    size = ds.size
    hist = np.zeros(rules.max_score + 1, dtype=np.int64)
    bonus_games = 0
    box_sum = np.zeros(rules.n_boxes, dtype=np.int64)
    box_nonzero = np.zeros(rules.n_boxes, dtype=np.int64)
    per_game = np.zeros(games, dtype=np.int64) if scores else None
    for first in range(0, games, BATCH):
        n = min(BATCH, games - first)
        mask = np.zeros(n, dtype=np.int64)
        upper = np.zeros(n, dtype=np.int64)
        score = np.zeros(n, dtype=np.int64)
        state = seed_states(seed, first, n)
        log = turn_log(n, rules.n_boxes, rules.rolls, np.int16, logging=bool(on_log))
        log_points = np.full(log.box.shape, -1, dtype=np.int16)
        out = Filled(np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))
        box_of, points_of = out
        gid = np.arange(n)                       # game of each position
        for turn in range(rules.n_boxes):
            dec = decide(rules, policy, values, mask, upper, theta)
            game_row = dec.lane_row[dec.position(state_space(rules).n_masks)[mask], upper]
            # games that share a state play next to each other: fewer cache misses
            order = np.argsort(game_row)
            game_row, mask, upper, score, state, gid = (
                a[order] for a in (game_row, mask, upper, score, state, gid))
            layer = Layer(dec.rows, game_row, mask, upper, score, state, gid)
            run_pieces(play_turn, g, size, layer, out, log, turn)
            del dec, game_row, order, layer
            if on_log:
                log_points[gid, turn] = points_of
            box_sum += np.bincount(box_of, weights=points_of,
                                   minlength=rules.n_boxes).astype(np.int64)
            box_nonzero += np.bincount(box_of[points_of > 0], minlength=rules.n_boxes)
        hist += np.bincount(score, minlength=len(hist))
        bonus_games += int((upper_bonus(rules, upper) > 0).sum())
        if per_game is not None:
            per_game[first + gid] = score            # the games were sorted by state
        if on_log:
            on_log(GameLog(first, log.rolls, log.keeps, log.box, log_points))
    return Simulation(rules, policy, games, seed, hist, bonus_games, box_sum, box_nonzero,
                      time.perf_counter() - start, theta, per_game)


def _by_lookup(rules: Rules, decisions: DecisionTable, games: int, seed: int, on_log,
               theta: float, scores: bool = False) -> Simulation:
    """``simulate`` of the optimal policy with its decision table: each game
    played whole, every action looked up."""
    start = time.perf_counter()
    g = policy_tables(rules, theta)
    size = rules.dice_space.size
    table = Rows(decisions.index, decisions.rows)
    hist = np.zeros(rules.max_score + 1, dtype=np.int64)
    bonus_games = 0
    box_sum = np.zeros(rules.n_boxes, dtype=np.int64)
    box_nonzero = np.zeros(rules.n_boxes, dtype=np.int64)
    per_game = np.zeros(games, dtype=np.int64) if scores else None
    for first in range(0, games, BATCH):
        n = min(BATCH, games - first)
        state = seed_states(seed, first, n)
        log = turn_log(n, rules.n_boxes, rules.rolls, np.int16, logging=bool(on_log))
        out = Tally(np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                     np.full(log.box.shape, -1, dtype=np.int16),
                     np.zeros((pieces(), rules.n_boxes), dtype=np.int64),
                     np.zeros((pieces(), rules.n_boxes), dtype=np.int64))
        run_pieces(play_games, g, size, table, state, out, log)
        hist += np.bincount(out.score, minlength=len(hist))
        if per_game is not None:
            per_game[first:first + n] = out.score
        bonus_games += int((upper_bonus(rules, out.upper) > 0).sum())
        box_sum += out.box_sum.sum(axis=0)
        box_nonzero += out.box_nonzero.sum(axis=0)
        if on_log:
            on_log(GameLog(first, log.rolls, log.keeps, log.box, out.points))
    return Simulation(rules, "optimal", games, seed, hist, bonus_games, box_sum, box_nonzero,
                      time.perf_counter() - start, theta, per_game)
