"""Advice for one position: the value of every action, from a solved table.

A position is a scorecard, the dice on the table and the rerolls left (2 just
after the first roll of a three-roll turn, then 1, then 0; with saved rolls,
own and banked together: stopping banks what is left).  The actions are:
keep a sub-multiset of the dice and reroll the rest (when rerolls are left;
keeping all five is the same as stopping, so it is not listed), or score the
dice in an allowed open box.

The within-turn values are recomputed here for the one state (numpy, no
Numba) from the stored turn-start values, with the recursion of
``yatzy.tables.build``.

This is the one-card game (``exact_advice``); the advice of any rule set,
one card or several columns, is ``yatzy.players.strategy.advise``.

Ties follow the one rule of ``yatzy.rules.ties``.  This module is written
without the compiled kernels (numpy only, so ``yatzy advise`` starts without
Numba) and is the tests' independent check of them.
"""

from __future__ import annotations

import numpy as np

from yatzy.errors import InputError
from yatzy.position.actions import Action, ActionKind, Advice
from yatzy.position.scorecard import Scorecard
from yatzy.position.scoring import bank_after, upper_after
from yatzy.rules.ruleset import Rules
from yatzy.rules.ties import keep_ranks, ranking, tolerance
from yatzy.space import state_space
from yatzy.tables.values import StateValues


def expected_final_score(table: StateValues, card: Scorecard) -> float:
    """Expected final score from the start of the next turn (with the card's
    banked rolls)."""
    return card.score + table.value(card.mask, card.upper_state, card.bank)


def scoring_values(table: StateValues, card: Scorecard,
                   bank: int = 0) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The boxes that may be filled now, ``points[r, i]`` of roll ``r`` in box
    ``boxes[i]`` and ``value[r, i]``: points plus bonuses plus the future with
    ``bank`` rolls banked (excluding the card's current score; -inf where a
    joker may not go)."""
    scoring = Scoring(table, card)
    return scoring.boxes, scoring.points, scoring.values(bank)


class Scoring:
    """The ways to end the turn at ``card``: what does not depend on the bank
    is worked out once."""

    def __init__(self, table: StateValues, card: Scorecard, target=None, need: int = 0):
        rules = table.rules
        self.boxes = card.allowed_boxes()
        cols = np.array(self.boxes, dtype=np.int64)
        u = card.upper_state
        points = rules.scores[:, cols]                           # [roll, i]
        allowed = np.ones(points.shape, dtype=bool)
        face = rules.yahtzee_face
        joker = state_space(rules).jokers(card.mask)[0]                       # per face: boxes, or 0
        for r in np.flatnonzero((face >= 0) & (joker[np.maximum(face, 0)] != 0)):
            points[r] = rules.joker_points[face[r], cols]
            allowed[r] = joker[face[r]] >> cols & 1 == 1
        # the upper total each way leads to and the bonus it earns (the one rule)
        reached, bonus = upper_after(rules, np.broadcast_to(cols, points.shape), u, points)
        if card.mask & state_space(rules).flag_bit:
            bonus = bonus + np.where(face >= 0, rules.yahtzee_bonus, 0)[:, None]
        child = card.mask | 1 << cols
        if state_space(rules).flag_bit:
            child = np.where((cols == rules.yatzy_box) & (points > 0), child | state_space(rules).flag_bit,
                             child)
        self.points = points
        self.now = np.where(allowed, points + bonus, -np.inf)    # points and bonuses
        self.future = table.finder(child, reached)
        self.theta, self.allowed, self.target = table.theta, allowed, target
        if self.theta:                   # expected utilities: V(x + now) = V(x) e^(-theta now)
            self.mul = np.exp(-self.theta * (points + bonus))
        if target is not None:           # the chance to reach the need (solver.target)
            self.chance = np.where(allowed, target.lookup(child, reached, need - points - bonus),
                                   -np.inf)

    def values(self, bank: int) -> np.ndarray:
        """``value[r, i]`` with ``bank`` rolls banked after the turn."""
        if self.target is not None:
            return self.chance
        if self.theta:
            return np.where(self.allowed, self.future(bank) * self.mul, -np.inf)
        return self.now + self.future(bank)


class TurnValues:
    """The values of one turn's rolls, ``X_t[r]`` for ``t`` rerolls left,
    each level computed once, when first needed (excluding the card's
    current score): a player deciding several times in a turn reuses them.
    With a ``target`` table (``yatzy.tables.target``), the values are the largest
    probabilities of the points still to come reaching ``need``."""

    def __init__(self, table: StateValues, card: Scorecard, target=None, need: int = 0):
        self.table, self.card = table, card
        self.scoring = Scoring(table, card, target, need)
        self.levels: list[np.ndarray] = []

    def rolls(self, rerolls: int) -> np.ndarray:
        """``X[r]``: value of roll ``r`` with ``rerolls`` rerolls left."""
        rules = self.table.rules
        ds = rules.dice_space
        while len(self.levels) <= rerolls:
            t = len(self.levels)
            if t == 0 or rules.saved_rolls:                          # stopping banks t rolls
                now = self.scoring.values(bank_after(rules, t)).max(axis=1)
            best = now if t == 0 else _best_keep(ds, ds.reroll @ self.levels[-1])
            if t > 0 and rules.saved_rolls:
                best = np.maximum(best, now)
            self.levels.append(best)
        return self.levels[rerolls]

    def keeps(self, rerolls: int, keeps: np.ndarray | None = None) -> np.ndarray:
        """``W[m]``: value of keeping multiset ``m`` (each of ``keeps``,
        default all) with ``rerolls`` >= 1 rerolls left."""
        ds = self.table.rules.dice_space
        reroll = ds.reroll if keeps is None else ds.reroll[keeps]
        return reroll @ self.rolls(rerolls - 1)


def keep_values(table: StateValues, card: Scorecard, rerolls: int,
                keeps: np.ndarray | None = None) -> np.ndarray:
    """``W[m]``: value of keeping multiset ``m`` (each of ``keeps``, default
    all) with ``rerolls`` >= 1 rerolls left, excluding the current score."""
    return TurnValues(table, card).keeps(rerolls, keeps)


def _best_keep(ds, keep: np.ndarray) -> np.ndarray:
    """``X[r] = max over multisets m contained in roll r of keep[m]``, built
    size by size: best(m) = max(keep[m], best(m minus one die))."""
    best = keep.copy()
    for lo, hi, smaller in ds.size_subs:
        np.maximum(best[lo:hi], best[smaller].max(axis=1), out=best[lo:hi])
    return best[ds.first_roll:]


def exact_advice(table: StateValues, card: Scorecard, dice: tuple[int, ...], rerolls: int,
                 turn: TurnValues) -> Advice:
    """``advise`` of a checked one-card position from its turn's values:
    values within ``tolerance`` points are tied."""
    moves, codes, values = action_values(turn, dice, rerolls)
    loss = losses(table, values)
    return ranked_advice(card, dice, rerolls, moves, ranking(values, codes, tolerance(table)),
                         values, loss)


def check_position(card: Scorecard, rerolls: int) -> None:
    """A one-column position there is something to decide in."""
    if card.is_full:
        raise InputError("the card is full: there is nothing left to decide")
    check_rerolls(card.rules, rerolls, card.bank)


def losses(table: StateValues, values: list[float]) -> list[float]:
    """Each value's loss against the best (0 within ``tolerance``)."""
    tol = tolerance(table)
    best = max(values)
    return [0.0 if best - v <= tol else best - v for v in values]


def ranked_advice(card: Scorecard, dice: tuple[int, ...], rerolls: int, moves: list[tuple],
                  order: list[int], values: list[float], loss: list[float],
                  chances: list[float] | None = None) -> Advice:
    """The ``Advice`` of the actions ``moves`` (``action_values``) in
    ``order``, each with its expected final score, loss and (playing for
    a target) chance."""
    chances = chances or [None] * len(values)
    ranked = tuple(Action(ActionKind.SCORE, box=move, points=pts, expected_final_score=values[i],
                          loss=loss[i], p_at_least=chances[i]) if pts is not None else
                   Action(ActionKind.KEEP, dice=move, expected_final_score=values[i],
                          loss=loss[i], p_at_least=chances[i])
                   for i in order for move, pts in (moves[i],))
    return Advice(card, dice, rerolls, ranked)


def action_values(turn: TurnValues, dice: tuple[int, ...], rerolls: int
                   ) -> tuple[list[tuple], list[int], list[float]]:
    """Every distinct action as ``(box name, points)`` or ``(kept dice,
    None)``, its preference code and its value: the final score expected
    (certainty equivalent under a risk parameter), or the chance to reach
    the need of a target ``turn``."""
    table, card = turn.table, turn.card
    rules = table.rules
    ds = rules.dice_space
    r = ds.roll_index(dice)
    scoring = turn.scoring
    chance = scoring.target is not None
    base = 0.0 if chance else card.score
    value = scoring.values(bank_after(rules, rerolls))[r]
    if not chance:
        value = table.points(value)      # under theta: certainty equivalents
    ok = np.isfinite(value)
    moves = [(rules.boxes[b].name, int(scoring.points[r, i]))
             for i, b in enumerate(scoring.boxes) if ok[i]]
    codes = [b for i, b in enumerate(scoring.boxes) if ok[i]]      # ties.preference of a box
    values = (base + value[ok]).tolist()
    if rerolls:
        keeps = ds.keeps[r]
        kv = turn.keeps(rerolls, keeps)
        if not chance:
            kv = table.points(kv)
        moves += [(ds.dice_tuples[m], None) for m in keeps.tolist()]
        codes += (rules.n_boxes + keep_ranks(rules)[keeps]).tolist()
        values += (base + kv).tolist()
    return moves, codes, values


def check_rerolls(rules: Rules, rerolls: int, bank: int = 0) -> None:
    """Rerolls left must be 0 .. own rerolls + the rolls banked (card ``bank``)."""
    top = rules.rolls - 1 + bank          # Scorecard.max_rerolls
    if not 0 <= rerolls <= top:
        what = (f"{rules.rolls - 1} own and {bank} banked" if rules.saved_rolls
                else f"{rules.rolls} rolls per turn")
        raise InputError(f"rerolls={rerolls}: expected 0..{top} ({what})")
