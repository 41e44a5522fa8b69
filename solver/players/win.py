r"""Playing to win: advice ranked by the chance to finish strictly above
every opponent (docs/rules.md, "Several players"), ties reported separately.

The opponents play for the expected score from their cards, independently
of each other and of us; opponent ``j``'s final score has the pmf of
``yatzy.players.futures`` (a point mass at the card's score when that game is
over), so their best score ``M`` has :math:`P(M \le t) = \prod_j P(S_j \le t)`.
With our final score ``x`` the reward is ``[x > M]`` (a win) and the ties
``[x = M]`` are followed alongside.

Values of the ways to end this turn, scoring ``g`` points (bonus included)
from score ``s`` into the state ``(child, u')`` (``P*``: the target table,
``yatzy.tables.target``, the largest chance that the points to come reach a need):

.. math::

   \mathrm{win} = \sum_t P(M = t)\, P^*(child, u', t + 1 - s - g), \quad
   \mathrm{tie} = \sum_t P(M = t)\, P^*(child, u', t - s - g) - \mathrm{win}

Within the turn, rolls are averaged and the action with the larger ``win``
taken, then the larger ``tie`` (the chances compared to 40 bits), as
``yatzy.players.advice`` does for one target; the compiled kernels are in
``yatzy.kernels.win``, and the ``win`` seat of a match (``yatzy.research.win_seat``)
plays the first action of this advice.

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

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.player import play_tables
from yatzy.kernels.target import layout
from yatzy.kernels.turn import turn_data
from yatzy.kernels.win.data import EXACT_OPEN, WinData, py_key, win_tables
from yatzy.kernels.win.odds import new_odds, opponents_best
from yatzy.kernels.win.turns import position_chances
from yatzy.players.advice import TurnValues
from yatzy.players.strategy import advise
from yatzy.position.actions import Action, ActionKind, loss_cells
from yatzy.position.scorecard import Scorecard
from yatzy.tables.announce import compiling
from yatzy.tables.subgame import need_together
from yatzy.tables.target import TargetTable
from yatzy.tables.values import StateValues

MAX_OPPONENTS = 5


@dataclass(frozen=True)
class Opponent:
    """An opponent's card; ``done``: the game is over (the score is final)."""

    card: Scorecard
    done: bool = False

    @property
    def finished(self) -> bool:
        return self.done or self.card.is_full


def best_opponent_pmf(futures, opponents: list[Opponent] | tuple[Opponent, ...]) -> np.ndarray:
    """``pmf[t]``: the probability that the best opponent's final score is
    ``t`` (``futures``: the ``yatzy.players.futures.FuturesTable``)."""
    less, eq = best_score(futures, opponents)
    return eq[:futures.rules.max_score + 1].copy()


def best_score(futures, opponents) -> tuple[np.ndarray, np.ndarray]:
    """``(less, eq)`` of ``yatzy.kernels.win``: ``P(M < k)`` and ``P(M = k)``."""
    rules = futures.rules
    need_futures(futures, opponents)
    lay = layout(rules)
    odds = new_odds(rules.max_score + 3)
    opponents_best(futures.values, lay, opponent_states(opponents), len(opponents), odds)
    return odds.less, odds.eq


def need_futures(futures, opponents, target=None, card=None, compile_after: str = "") -> None:
    """Make the futures of the opponents still playing ready (their
    sub-games, where the table is built piece by piece), and with
    ``target`` and ``card`` the target table's sub-game of ``card`` too:
    all of them announced as one build (``tables.subgame.need_together``;
    ``compile_after``: the kernels that compile after them, counted in
    its time)."""
    asks = [] if target is None else [(target, card.mask, card.upper_state)]
    asks += [(futures, o.card.mask, o.card.upper_state) for o in opponents if not o.finished]
    need_together(asks, compile_after)


def opponent_states(opponents) -> np.ndarray:
    """``states[j] = (mask, u, score, done)`` of ``kernels.win.odds.opponents_best``."""
    if not 1 <= len(opponents) <= MAX_OPPONENTS:
        raise InputError(f"expected 1 to {MAX_OPPONENTS} opponents, not {len(opponents)}")
    return np.array([(o.card.mask, o.card.upper_state, o.card.score, o.finished)
                     for o in opponents], dtype=np.int64)


def open_boxes(card: Scorecard) -> int:
    return card.rules.n_boxes - card.turn


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
        losses = loss_cells([a.action for a in self.actions])    # in expected points
        for i, (a, loss) in enumerate(zip(self.actions, losses), 1):
            lines.append(f"{i:>3} {str(a.action):<28} {a.p_win:>9.5f} {a.p_tie:>9.5f} "
                         f"{a.action.expected_final_score:>10.3f} {loss:>8}")
        return "\n".join(lines)


def method_of(card: Scorecard, opponents) -> tuple[str, bool]:
    """``(method of p_win, whether p_tie is exact)`` for a position at ``card``."""
    if open_boxes(card) <= EXACT_OPEN:                # solved to the end
        return "exact", True
    if all(o.finished for o in opponents):
        return "exact", False
    return "approximation", False


class WinTurn:
    """One turn's win and tie values at ``card`` against ``opponents``
    (``yatzy.kernels.win.turns.turn_chances``): ``score[r, b]`` of scoring roll
    ``r`` in box ``b`` and ``keep[t - 1, m]`` of keeping multiset ``m``
    with ``t`` rerolls left, each a ``(win, tie)`` pair of arrays; ``start``
    the pair before the first roll.  A player deciding several times in a
    turn reuses them."""

    def __init__(self, table: StateValues, target: TargetTable, futures, card: Scorecard,
                 opponents):
        rules = table.rules
        self.table, self.card, self.opponents = table, card, opponents
        need_futures(futures, opponents, target, card, "win")   # the sub-games the turn reads
        tables = win_tables(rules, target.values, futures.values, table.values)
        compiling("win")                                # said where Numba's cache lacks it
        less, eq, s, self.start = position_chances(
            WinData(turn_data(rules), play_tables(rules), tables),
            opponent_states(opponents),
            card.mask, card.upper_state, card.score, open_boxes(card) == EXACT_OPEN)
        self.best = eq[:rules.max_score + 1]
        self.score = (s.swin, s.stie)
        self.keep = (s.kwin, s.ktie)
        self._plain: TurnValues | None = None

    @property
    def plain(self) -> TurnValues:
        """The expected-score advice's turn values (made when first needed)."""
        if self._plain is None:
            self._plain = TurnValues(self.table, self.card)
        return self._plain


def advise_win(table: StateValues, target: TargetTable, futures, card: Scorecard,
               dice: tuple[int, ...], rerolls: int, opponents,
               turn: WinTurn | None = None) -> WinAdvice:
    """Every distinct action for the position ranked by the chance to finish
    strictly above every opponent, then the chance to tie (each to 40 bits,
    ``kernels.win.data.key``), then the expected-score order: the first is the
    action the compiled ``win`` seat plays.  ``turn``: this turn's values,
    to reuse."""
    turn = turn or WinTurn(table, target, futures, card, opponents)
    plain = advise(table, card, dice, rerolls, turn.plain)
    rules = table.rules
    ds = rules.dice_space
    r = ds.roll_index(dice)
    out = []
    for order, a in enumerate(plain.actions):
        if a.kind is ActionKind.SCORE:
            b = rules.box_index(a.box)
            pw, pt = float(turn.score[0][r, b]), float(turn.score[1][r, b])
        else:
            m = ds.multiset_index(a.dice)
            pw, pt = float(turn.keep[0][rerolls - 1, m]), float(turn.keep[1][rerolls - 1, m])
        out.append((-py_key(pw), -py_key(pt), order,
                    WinAction(a, min(max(pw, 0.0), 1.0), min(max(pt, 0.0), 1.0))))
    out.sort(key=lambda e: e[:3])
    method, tie_exact = method_of(card, opponents)
    return WinAdvice(card, tuple(dice), rerolls, tuple(e[3] for e in out), method, tie_exact,
                     turn.best)
