"""Games played one decision at a time, for every rule set, compiled.

This player handles every rule set the engine does (jokers, the yahtzee
bonus, saved rolls).  At the start of each turn the turn kernels value every
keep at every number of rerolls left for the one state
(``turn.state_keep_levels``) and, at each roll, every way to end the turn
(``turn.fill_candidates``).  Each choice is made by ``turn.pick``, the
compiled form of the tie rule of ``yatzy.rules.ties`` that the policies use too:
boxes in scorecard order, keeps in order of preference, scoring against the
best keep; so the choices are those of ``yatzy advise``.  Whole games run in
one compiled call, on every thread.

``yatzy.research.simulate`` plays the rule sets without saved rolls faster still,
deciding whole layers of states at once; ``Solver.simulate`` uses this
player for the others (saved rolls, Maxi), and estimates their
distributions with it.  Only the optimal policy.

Game ``i`` draws its dice from the splitmix64 stream of ``yatzy.research.simulate``
seeded by ``(seed, i)``.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.player import GameTotals, play_games, play_tables
from yatzy.kernels.runs import Games, turn_log
from yatzy.kernels.threads import run_pieces
from yatzy.kernels.turn import turn_data
from yatzy.position.scorecard import Scorecard
from yatzy.position.scoring import upper_bonus
from yatzy.research.distribution import Distribution
from yatzy.research.review import turn_line
from yatzy.research.simulate import Simulation
from yatzy.rules.ties import tolerance
from yatzy.space import state_space
from yatzy.tables.store import Table

CHUNK = 4096        # games per call when their turns are logged


def run_games(table: Table, games: int, seed: int = 0,
         on_line: Callable[[str], None] | None = None,
         card: Scorecard | None = None, scores: bool = False) -> Simulation:
    """Play ``games`` games optimally (from ``card``, default a new game);
    ``on_line`` receives each turn's log line (the format of
    ``yatzy.research.review``).  Box figures count the card's filled boxes as they
    stand; ``scores``: keep every game's final score (``Simulation.scores``)."""
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
    per_game = np.zeros(games, dtype=np.int64) if scores else None
    step = CHUNK if on_line else games
    steps = rules.rolls + state_space(rules).bank_limit(rules.n_boxes - 1)   # most rolls in a turn
    for first in range(0, games, step):
        n = min(step, games - first)
        out = GameTotals(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                     np.zeros((n, rules.n_boxes), dtype=np.int64))
        score, upper_end, box_points = out
        box_points[:] = [p or 0 for p in card.points]
        log = turn_log(n, rules.n_boxes, steps, logging=bool(on_line))
        run = Games(first, seed, tolerance(table) if table.theta == 0 else 0.0, state)
        run_pieces(play_games, turn_data(rules, table.theta), play_tables(rules), run, layers,
                   out, log)
        counts = np.bincount(score)
        if per_game is not None:
            per_game[first:first + n] = score
        hist = np.pad(hist, (0, max(len(counts) - len(hist), 0)))
        hist[:len(counts)] += counts
        bonus_games += int((upper_bonus(rules, upper_end) > 0).sum())
        box_nonzero += (box_points > 0).sum(axis=0)
        box_sum += box_points.sum(axis=0)
        if on_line:
            for i in range(n):
                for turn in range(card.turn, rules.n_boxes):
                    rolls = [ds.dice_of(ds.first_roll + int(r))
                             for r in log.rolls[i, turn] if r >= 0]
                    kept = [ds.dice_of(int(m)) for m in log.keeps[i, turn] if m >= 0]
                    box = int(log.box[i, turn])
                    on_line(turn_line(rules, first + i + 1, turn + 1, rolls, kept, box,
                                      int(box_points[i, box])))
    return Simulation(rules, "optimal", games, seed, hist, int(bonus_games), box_sum,
                      box_nonzero, time.perf_counter() - start, table.theta, per_game)


def estimate(table: Table, card: Scorecard, games: int, seed: int = 0) -> Distribution:
    """The final-score distribution from ``card`` under optimal play,
    estimated from ``games`` played games (for rules whose exact
    distribution ``yatzy.research.distribution`` does not compute)."""
    if card.is_full:
        raise InputError("the card is full: its final score is already known")
    sim = run_games(table, games, seed, card=card)
    expected = card.score + table.value(card.mask, card.upper_state, card.bank)
    return Distribution(table.rules, card, "optimal", sim.hist / games,
                        sim.bonus_games / games, sim.box_sum / games, sim.box_nonzero / games,
                        None if table.theta else expected, sim.seconds, games,
                        theta=table.theta)
