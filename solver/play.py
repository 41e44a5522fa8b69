"""Games played one decision at a time with the advice of ``solver.query``.

This player handles every rule set the query layer does (jokers, the
yahtzee bonus, saved rolls), at the cost of speed: each decision is a numpy
computation (the turn's values are shared by its decisions, ``TurnValues``).
``solver.simulate`` plays the rules its compiled kernels support thousands
of times faster; ``yatzy simulate`` uses this player for the others.  Only
the optimal policy, with the tie rule of ``solver.query``.

Game ``i`` draws its dice from ``numpy.random.default_rng([seed, i])``.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from .query import TurnValues, advise, bank_after
from .review import turn_line, yahtzee_bonus
from .scorecard import Scorecard
from .simulate import Simulation
from .tables import Table


def play(table: Table, games: int, seed: int = 0,
         on_line: Callable[[str], None] | None = None) -> Simulation:
    """Play ``games`` games optimally; ``on_line`` receives each turn's log
    line (the format of ``solver.review``)."""
    rules = table.rules
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
            turn = TurnValues(table, card)
            dice = _roll(rng, rules, ())
            rolls, kept = [dice], []
            while True:
                best = advise(table, card, dice, rerolls, turn).best
                if best.kind == "score":
                    break
                kept.append(best.dice)
                dice = _roll(rng, rules, best.dice)
                rolls.append(dice)
                rerolls -= 1
            box = rules.box_index(best.box)
            box_sum[box] += best.points
            box_nonzero[box] += best.points > 0
            card = card.fill(box, best.points, yahtzee_bonus(rules, card, dice),
                             bank_after(rules, rerolls))
            if on_line is not None:
                on_line(turn_line(rules, i + 1, t + 1, rolls, kept, box, best.points))
        scores[i] = card.score
        bonus_games += card.bonus > 0
    return Simulation(rules, "optimal", games, seed, np.bincount(scores), int(bonus_games),
                      box_sum, box_nonzero, time.perf_counter() - start)


def _roll(rng: np.random.Generator, rules, kept: tuple[int, ...]) -> tuple[int, ...]:
    fresh = rng.integers(1, rules.faces + 1, size=rules.dice - len(kept))
    return tuple(sorted(kept + tuple(int(d) for d in fresh)))
