r"""Playing to win: advice ranked by the chance to finish strictly above
every opponent (RULES.md §6), ties reported separately.

The opponents play for the expected score from their cards, independently
of each other and of us; opponent ``j``'s final score has the pmf of
``solver.futures`` (a point mass at the card's score when that game is
over), so their best score ``M`` has :math:`P(M \le t) = \prod_j P(S_j \le t)`.
With our final score ``x`` the reward is ``[x > M]`` (a win) and the ties
``[x = M]`` are followed alongside.

Values of the ways to end this turn, scoring ``g`` points (bonus included)
from score ``s`` into the state ``(child, u')`` (``P*``: the target table,
``solver.target``, the largest chance that the points to come reach a need):

.. math::

   \mathrm{win} = \sum_t P(M = t)\, P^*(child, u', t + 1 - s - g), \quad
   \mathrm{tie} = \sum_t P(M = t)\, P^*(child, u', t - s - g) - \mathrm{win}

Within the turn, rolls are averaged and the action with the larger ``win``
taken (its ``tie`` carried along), exactly as ``solver.query`` does for one
target.

* **exact** with at most ``EXACT_OPEN`` (2) boxes open: the states after
  this turn are valued by their own best response, down to the last turn
  (full cards: ``P*`` is 0 or 1, ``win = P(M < s + g)``, ``tie = P(M = s +
  g)``).  It is the best response to the opponents' final-score
  distribution as known now (their progress meanwhile is not modelled; the
  next turn's advice sees it).  ``win`` is exact too when every opponent is
  done (``M`` is known: one target); ``tie`` is then an upper bound (the tie
  chance if the ``>= M`` and ``> M`` chances were each maximised).
* **approximation** otherwise: the target table mixed over the opponents'
  distribution.  A single strategy cannot maximise every target's chance at
  once, so later turns' values are optimistic; the ranking is a heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .actions import Action, ActionKind
from .errors import InputError
from .query import Scoring, TurnValues, advise, bank_after
from .scorecard import Scorecard
from .target import TargetTable, layout
from .values import StateValues

MAX_OPPONENTS = 5
EXACT_OPEN = 2           # the exact best response is solved with this many open boxes or fewer


@dataclass(frozen=True)
class Opponent:
    """An opponent's card; ``done``: the game is over (the score is final)."""

    card: Scorecard
    done: bool = False

    @property
    def finished(self) -> bool:
        return self.done or self.card.is_full


def opponents_best(futures, opponents: list[Opponent] | tuple[Opponent, ...]) -> np.ndarray:
    """``pmf[t]``: the probability that the best opponent's final score is
    ``t`` (``futures``: the ``solver.futures.FuturesTable``)."""
    if not 1 <= len(opponents) <= MAX_OPPONENTS:
        raise InputError(f"expected 1 to {MAX_OPPONENTS} opponents, not {len(opponents)}")
    pmfs = [np.concatenate([np.zeros(o.card.score), [1.0]]) if o.finished
            else futures.final(o.card) for o in opponents]
    n = max(len(p) for p in pmfs)
    cdf = np.ones(n)
    for p in pmfs:
        cdf *= np.minimum(np.cumsum(np.pad(p, (0, n - len(p)))), 1.0)
    return np.diff(np.concatenate([[0.0], cdf]))


def open_boxes(card: Scorecard) -> int:
    return card.rules.n_boxes - card.turn


class _Solved:
    """``lookup`` like ``_Chances``, exact: each state after this turn is
    valued by its own turn's best response (``WinTurn``, recursively down to
    the last turn, whose values are exact); for at most ``EXACT_OPEN`` open
    boxes (the number of states grows fast)."""

    def __init__(self, turn: WinTurn, target: TargetTable, futures):
        self.turn, self.target, self.futures = turn, target, futures
        self.tie = None

    def lookup(self, masks, uppers, needs) -> np.ndarray:
        turn = self.turn
        card, rules = turn.card, turn.table.rules
        masks, uppers, needs = np.broadcast_arrays(masks, uppers, needs)
        key = np.stack([masks.ravel(), uppers.ravel(), -needs.ravel()])
        triples, inverse = np.unique(key, axis=1, return_inverse=True)
        win, tie = np.empty(triples.shape[1]), np.empty(triples.shape[1])
        for j, (mask, upper, gain) in enumerate(triples.T.tolist()):
            box = ((mask ^ card.mask) & rules.space.full_mask).bit_length() - 1
            u = card.upper_state
            bonus = (rules.bonus_points if rules.is_upper[box] and rules.cap > 0
                     and u < rules.cap <= upper else 0)
            after = card.fill(box, gain - bonus)
            win[j], tie[j] = WinTurn(turn.table, self.target, self.futures, after,
                                     turn.opponents, turn.best).start()
        self.tie = tie[inverse.ravel()].reshape(masks.shape)
        return win[inverse.ravel()].reshape(masks.shape)


class _Chances:
    """``lookup(child, u', -g)`` for ``query.Scoring``: the ``win`` values of
    ending the turn with ``g`` points into ``(child, u')`` from ``score``;
    the matching ``tie`` values are left in ``self.tie``."""

    def __init__(self, target: TargetTable, best: np.ndarray, score: int):
        self.target, self.best, self.score = target, best, score
        self.tie = None

    def lookup(self, masks, uppers, needs) -> np.ndarray:
        rules = self.target.rules
        lay = layout(rules)
        masks, uppers, needs = np.broadcast_arrays(masks, uppers, needs)
        gains = -needs
        key = np.stack([masks.ravel(), uppers.ravel(), gains.ravel()])
        triples, inverse = np.unique(key, axis=1, return_inverse=True)
        m, u, g = triples
        w, start = lay.width[m], lay.start[m]
        top = int(w.max())
        at = lay.off[m] + (np.maximum(u, start) - start) * w
        n = np.arange(1, top)
        rows = np.where(n < w[:, None], self.target.values[np.where(
            n < w[:, None], at[:, None] + n, 0)], 0.0)              # P*(n), n >= 1
        final = self.score + g                                      # the score now reached
        pad = np.concatenate([self.best, np.zeros(top + 1)])
        cdf = np.concatenate([[0.0], np.cumsum(pad)])               # cdf[k] = P(M < k)
        ahead = pad[np.minimum(final[:, None] + n - 1, len(pad) - 1)]  # P(M = final + n - 1)
        win = cdf[np.minimum(final, len(pad))] + (rows * ahead).sum(axis=1)
        level = cdf[np.minimum(final + 1, len(pad))] + (rows * pad[np.minimum(
            final[:, None] + n, len(pad) - 1)]).sum(axis=1)
        shape = masks.shape
        self.tie = (level - win)[inverse.ravel()].reshape(shape)
        return win[inverse.ravel()].reshape(shape)


@dataclass(frozen=True)
class WinAction:
    """An action with its chances to win and to tie, and (``action``) its
    expected final score and loss from the expected-score advice."""

    action: Action
    p_win: float
    p_tie: float

    def as_dict(self) -> dict:
        return {**self.action.as_dict(), "p_win": self.p_win, "p_tie": self.p_tie}


@dataclass(frozen=True)
class WinAdvice:
    """Every action for a position ranked by the chance to win.
    ``method``: ``exact`` or ``approximation`` (of ``p_win``); ``tie_exact``:
    whether ``p_tie`` is exact too (else an approximation, or an upper bound
    when every opponent is done)."""

    card: Scorecard
    dice: tuple[int, ...]
    rerolls: int
    actions: tuple[WinAction, ...]
    method: str
    tie_exact: bool
    opponents_best: np.ndarray

    @property
    def best(self) -> WinAction:
        return self.actions[0]

    def __str__(self) -> str:
        lines = [f"{'':>3} {'action':<28} {'P(win)':>9} {'P(tie)':>9} {'expected':>10} {'loss':>8}"]
        for i, a in enumerate(self.actions, 1):
            loss = "-" if a.action.loss == 0 else f"-{a.action.loss:.3f}"
            lines.append(f"{i:>3} {str(a.action):<28} {a.p_win:>9.5f} {a.p_tie:>9.5f} "
                         f"{a.action.expected_final_score:>10.3f} {loss:>8}")
        return "\n".join(lines)


@lru_cache(maxsize=8)
def _padded_keeps(rules) -> np.ndarray:
    """``keeps[r, j]``: the keeps of roll ``r`` (``dice.keeps``), padded with
    ``n_multisets`` (a value never chosen)."""
    ds = rules.dice_space
    width = max(len(k) for k in ds.keeps)
    return np.array([np.pad(k, (0, width - len(k)), constant_values=ds.n_multisets)
                     for k in ds.keeps])


def method_of(card: Scorecard, opponents) -> tuple[str, bool]:
    """``(method of p_win, whether p_tie is exact)`` for a position at ``card``."""
    if open_boxes(card) <= EXACT_OPEN:                # solved to the end
        return "exact", True
    if all(o.finished for o in opponents):
        return "exact", False
    return "approximation", False


class WinTurn:
    """One turn's win and tie values at ``card`` against ``opponents``,
    each reroll level computed once, when first needed: a player deciding
    several times in a turn reuses them."""

    def __init__(self, table: StateValues, target: TargetTable, futures, card: Scorecard,
                 opponents, best: np.ndarray | None = None):
        self.table, self.card, self.opponents = table, card, opponents
        self.best = opponents_best(futures, opponents) if best is None else best
        self._plain: TurnValues | None = None
        if open_boxes(card) <= EXACT_OPEN and open_boxes(card) > 1:
            chances = _Solved(self, target, futures)
        else:
            chances = _Chances(target, self.best, card.score)
        self.scoring = Scoring(table, card, chances, 0)
        rules = table.rules
        win0 = self.scoring.values(bank_after(rules, 0))
        ok = np.isfinite(win0)
        self.win0, self.tie0 = win0, np.where(ok, chances.tie, 0.0)
        pick = np.argmax(np.where(ok, win0, -1.0), axis=1)
        rows = np.arange(rules.dice_space.n_rolls)
        self.levels = [(win0[rows, pick], self.tie0[rows, pick])]

    @property
    def plain(self) -> TurnValues:
        """The expected-score advice's turn values (made when first needed)."""
        if self._plain is None:
            self._plain = TurnValues(self.table, self.card)
        return self._plain

    def start(self) -> tuple[float, float]:
        """``(win, tie)`` at the turn start (before the first roll)."""
        ds = self.table.rules.dice_space
        win, tie = self.level(self.table.rules.rolls - 1)
        return float(ds.reroll[0] @ win), float(ds.reroll[0] @ tie)

    def level(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """``(win, tie)`` of every roll with ``t`` rerolls left."""
        ds = self.table.rules.dice_space
        padded = _padded_keeps(self.table.rules)
        rows = np.arange(ds.n_rolls)
        while len(self.levels) <= t:
            x, tie = self.levels[-1]
            wk = np.append(ds.reroll @ x, -1.0)[padded]
            tk = np.append(ds.reroll @ tie, 0.0)[padded]
            choice = np.argmax(np.concatenate([self.levels[0][0][:, None], wk], axis=1), axis=1)
            keep = choice > 0
            self.levels.append((np.where(keep, wk[rows, choice - 1], self.levels[0][0]),
                                np.where(keep, tk[rows, choice - 1], self.levels[0][1])))
        return self.levels[t]


def advise_win(table: StateValues, target: TargetTable, futures, card: Scorecard,
               dice: tuple[int, ...], rerolls: int, opponents,
               turn: WinTurn | None = None) -> WinAdvice:
    """Every distinct action for the position ranked by the chance to finish
    strictly above every opponent (then the chance to tie, then the
    expected-score order); ``turn``: this turn's values so far, to reuse."""
    turn = turn or WinTurn(table, target, futures, card, opponents)
    plain = advise(table, card, dice, rerolls, turn.plain)
    rules = table.rules
    ds = rules.dice_space
    r = ds.roll_index(dice)
    names = [rules.boxes[b].name for b in turn.scoring.boxes]
    out = []
    for order, a in enumerate(plain.actions):
        if a.kind is ActionKind.SCORE:
            i = names.index(a.box)
            pw, pt = float(turn.win0[r, i]), float(turn.tie0[r, i])
        else:
            m = ds.multiset_index(a.dice)
            x, t = turn.level(rerolls - 1)
            pw, pt = float(ds.reroll[m] @ x), float(ds.reroll[m] @ t)
        out.append((-round(min(pw, 1.0), 12), -round(pt, 12), order,
                    WinAction(a, min(pw, 1.0), max(pt, 0.0))))
    out.sort(key=lambda e: e[:3])
    method, tie_exact = method_of(card, opponents)
    return WinAdvice(card, tuple(dice), rerolls, tuple(e[3] for e in out), method, tie_exact,
                     turn.best)
