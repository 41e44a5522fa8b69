"""Games played one decision at a time, for every rule set.

This player handles every rule set the engine does (jokers, the yahtzee
bonus, saved rolls).  Each turn, the compiled engine values every keep at
every number of rerolls left for the one state (``engine.turn_keep_values``);
each decision then picks, among the actions within ``query.tie`` of the
best, the one the tie rule of ``solver.query`` prefers, so the choices are
those of ``yatzy advise``.  ``solver.simulate`` plays the Nordic rule sets
many times faster, deciding whole layers of states at once; ``yatzy
simulate`` uses this player for the others.  Only the optimal policy.

Game ``i`` draws its dice from ``numpy.random.default_rng([seed, i])``.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Callable

import numpy as np

from .query import Scoring, bank_after, end_turn, keep_ranks, tie
from .review import turn_line
from .rules import Rules
from .scorecard import Scorecard
from .simulate import Simulation
from .tables import Table


def play(table: Table, games: int, seed: int = 0,
         on_line: Callable[[str], None] | None = None) -> Simulation:
    """Play ``games`` games optimally; ``on_line`` receives each turn's log
    line (the format of ``solver.review``)."""
    from . import engine

    rules = table.rules
    ds = rules.dice_space
    tol = tie(table)
    start = time.perf_counter()
    scores = np.zeros(games, dtype=np.int64)
    bonus_games = 0
    box_sum = np.zeros(rules.n_boxes, dtype=np.int64)
    box_nonzero = np.zeros(rules.n_boxes, dtype=np.int64)
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        card = Scorecard.empty(rules)
        for t in range(rules.n_boxes):
            rerolls = rules.rolls - 1 + card.bank
            base = card.score
            scoring = Scoring(table, card)
            keep = (engine.turn_keep_values(rules, table, card.mask, card.upper_state, rerolls)
                    if rerolls else None)                   # keep[k - 1, m]: W_k(m)
            dice = _roll(rng, rules, ())
            rolls, kept = [dice], []
            while True:
                r = ds.roll_index(dice)
                now = base + scoring.values(bank_after(rules, rerolls))[r]
                options = _keep_order(rules)[r] if rerolls else np.zeros(0, dtype=np.int64)
                later = base + keep[rerolls - 1, options] if rerolls else np.zeros(0)
                best = max(now.max(), later.max(initial=-np.inf))
                if now.max() >= best - tol:                  # scoring first, boxes in order
                    i_box = int(np.argmax(now >= best - tol))
                    break
                m = int(options[np.argmax(later >= best - tol)])   # the preferred keep
                kept.append(ds.dice_of(m))
                dice = _roll(rng, rules, kept[-1])
                rolls.append(dice)
                rerolls -= 1
            box = scoring.boxes[i_box]
            points = int(scoring.points[r, i_box])
            box_sum[box] += points
            box_nonzero[box] += points > 0
            card = end_turn(card, box, points, dice, rerolls)
            if on_line is not None:
                on_line(turn_line(rules, i + 1, t + 1, rolls, kept, box, points))
        scores[i] = card.score
        bonus_games += card.bonus > 0
    return Simulation(rules, "optimal", games, seed, np.bincount(scores), int(bonus_games),
                      box_sum, box_nonzero, time.perf_counter() - start)


@lru_cache(maxsize=None)
def _keep_order(rules: Rules) -> tuple[np.ndarray, ...]:
    """Per roll, the multisets that keep part of it, most preferred first
    (more dice, then higher dice: the order of ``solver.query``)."""
    ds = rules.dice_space
    rank = keep_ranks(rules)
    return tuple(np.array(sorted(set(ds.subsets[r].tolist()) - {ds.first_roll + r},
                                 key=rank.__getitem__), dtype=np.int64)
                 for r in range(ds.n_rolls))


def _roll(rng: np.random.Generator, rules: Rules, kept: tuple[int, ...]) -> tuple[int, ...]:
    fresh = rng.integers(1, rules.faces + 1, size=rules.dice - len(kept))
    return tuple(sorted(kept + tuple(int(d) for d in fresh)))
