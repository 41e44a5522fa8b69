r"""Policies: the action taken in every position, decided for whole masks.

A position is a turn-start state ``(mask, u)`` (filled boxes, upper total
capped at the bonus threshold), the rerolls left ``k`` and the roll ``r``.
An action is one byte ``d``, its preference code (``yatzy.rules.ties``):

* ``d < n_boxes``: score the roll in box ``d``;
* ``d >= n_boxes``: keep the multiset ``by_rank[d - n_boxes]`` (a proper
  sub-multiset of the roll) and reroll the other dice; only when ``k > 0``.

Kinds (``KINDS``):

* ``optimal`` -- maximises the expected final score.  The within-turn values
  of ``yatzy.tables.build`` are recomputed from the value table ``V``: scoring
  :math:`S_b(r)` (points, bonus and ``V`` of the next state),
  :math:`X_0(r) = \max_b S_b(r)`, keeping
  :math:`W_k(K) = E[X_{k-1}(K + \text{fresh dice})]` and
  :math:`X_k(r) = \max(X_0(r), \max_{K \subsetneq r} W_k(K))`.
* ``greedy`` -- maximises the expected points of the turn being played
  (bonus included): the same recursion with ``V = 0``.
* ``simple`` -- keeps the dice of its most common face (the higher face on a
  tie), stops on all dice alike, and scores the box giving the most points
  (the first in scorecard order on a tie).

A roll of all dice alike that must go in as a joker (``StateSpace.jokers``) may
only be scored in the joker boxes, at joker points; with the flag bit set
(50 in the yatzy box) it earns the yahtzee bonus on top.

Ties follow the one rule of ``yatzy.rules.ties``.  The kernels carry, next to
each running maximum, the preference code of the action chosen so far, and
every choice (box, keep, scoring against keeping) is one step of
``turn.pick``, the rule's compiled form, which the game-by-game player
(``yatzy.research.games``) uses too.

Upper totals from which the bonus can no longer be reached play alike, so
only the highest of them is decided ("lanes" ``u0 .. L-1`` of a mask; every
total below ``u0`` shares ``u0``'s actions).

One kernel, ``batch``, decides a batch of masks and, for the exact
distribution, also pushes the probability of every roll through the actions
(the turn outcomes): one compiled kernel keeps the first-use compile time
down.  It works on ``BLOCK`` columns at a time, the upper totals of as many
masks as fit side by side, so that the loops over columns stay long (a mask
has 16 totals to decide on average).  The kernels release the GIL;
``threads.run_pieces`` runs them on Numba's thread count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.policy import (
    KINDS,
    NO_OUTCOMES,
    NO_ROWS,
    ActionRows,
    Job,
    Outcomes,
    batch,
    policy_tables,
)
from yatzy.kernels.threads import pieces, run_pieces
from yatzy.players.strategy import strategy_for
from yatzy.position.actions import Action
from yatzy.position.scorecard import Scorecard
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.store import Progress

# ------------------------------------------------------------ index tables


# ------------------------------------------------------------------ kernels


# ------------------------------------------------------------- the driver
@dataclass(frozen=True)
class Decisions:
    """The actions of every position of some masks.

    * ``masks``           the masks decided, sorted
    * ``lane_row[i, u]``  the row of state ``(masks[i], u)`` (-1 beyond the
      upper totals the mask can have; rows no state names are not filled)
    * ``rows[j, k, r]``   action byte of row ``j``, ``k`` rerolls left, roll ``r``
    """

    masks: np.ndarray
    lane_row: np.ndarray
    rows: np.ndarray

    def position(self, n_masks: int) -> np.ndarray:
        """``out[mask]``: index of ``mask`` in ``masks`` (-1 if absent), for
        masks below ``n_masks`` (``StateSpace.n_masks``)."""
        out = np.full(n_masks, -1, dtype=np.int64)
        out[self.masks] = np.arange(len(self.masks))
        return out


def policy_values(rules: Rules, kind: str, values: np.ndarray | None,
                  theta: float = 0.0) -> tuple[int, np.ndarray]:
    """``(kind index, the values its decisions maximise)``: the value table
    (a writable C array, so that every call has the kernels' types) for
    ``optimal``, zeros otherwise.  A risk parameter ``theta`` (the table's
    objective) is for ``optimal`` only."""
    if kind not in KINDS:
        raise InputError(f"policy {kind!r}: expected one of {', '.join(KINDS)}")
    if theta and kind != "optimal":
        raise InputError(f"policy {kind!r} has no risk parameter; theta is for the optimal "
                         "policy")
    if kind == "optimal":
        if values is None:
            raise ValueError("the optimal policy needs the value table")
        return 0, np.require(values, np.float64, ["C", "W"])
    return KINDS.index(kind), np.zeros((state_space(rules).n_masks, rules.cap + 1))


def decide(rules: Rules, kind: str, values: np.ndarray | None, masks: np.ndarray,
           upper: np.ndarray | None = None, theta: float = 0.0) -> Decisions:
    """Decide every position of ``masks`` under policy ``kind``; ``values``
    is the value table (used by ``optimal`` only) of the objective
    ``theta``.  With ``upper`` (the upper totals of states ``(masks[i],
    upper[i])``), only the span of totals those states cover is decided for
    each mask."""
    g = policy_tables(rules, theta)
    k, vals = policy_values(rules, kind, values, theta)
    masks, inverse = np.unique(np.asarray(masks, dtype=np.int64), return_inverse=True)
    width = rules.cap + 1
    reach = np.empty((0, 0))
    if upper is not None:
        reach = np.bincount(inverse * width + np.asarray(upper), minlength=len(masks) * width)
        reach = reach.reshape(len(masks), width).astype(np.float64)
    span = state_space(rules).upper_lanes[masks] - state_space(rules).lane_start[masks]       # the most groups
    row_base = np.concatenate([[0], np.cumsum(span)[:-1]]).astype(np.int64)
    rows = np.empty((int(span.sum()), rules.rolls, rules.dice_space.n_rolls), dtype=np.uint8)
    lane_row = np.full((len(masks), width), -1, dtype=np.int64)
    run_pieces(batch, g, Job(vals, k, masks, reach), ActionRows(rows, lane_row, row_base),
               NO_OUTCOMES)
    return Decisions(masks, lane_row, rows)


def pull_back(rules: Rules, values: np.ndarray, pull, lay, out: np.ndarray,
              progress: Progress | None = None, layers=None) -> np.ndarray:
    """One backward pass through the turn outcomes of the expected-score
    policy of the value table ``values``: for every layer from the last but
    one to the first, the layer's outcomes (``kernels.policy.Outcomes``, every
    upper total) and then the compiled ``pull(g, lay, masks, outcomes, out)``,
    which fills the layer's states of ``out`` from the layers after it (the
    futures table, the explanations' parts).  ``progress(done, total)``
    follows it in turn-start states (once before the first layer, then after
    each).  ``layers``: the masks to pull back, by layer (default: every
    reachable one; a position's sub-game, ``yatzy.tables.subgame``).
    Returns ``out``."""
    g = policy_tables(rules)
    kind, vals = policy_values(rules, "optimal", values)
    sp = state_space(rules)
    layers = sp.layers if layers is None else layers
    width = rules.cap + 1
    allowed_bits = np.arange(rules.n_boxes)
    work = [int((sp.upper_lanes[layer] - g.turn.start[layer]).sum()) for layer in layers[:-1]]
    done, total = 0, sum(work)
    if progress:
        progress(done, total)
    for p in reversed(range(len(layers) - 1)):
        layer = layers[p]
        if not len(layer):
            continue
        masks = np.asarray(layer, dtype=np.int64)
        allowed = (sp.allowed_table[masks][:, None] >> allowed_bits) & 1
        stride = (sp.upper_lanes[masks] - g.turn.start[masks]).astype(np.int64)
        size = (allowed @ np.diff(g.out_start)) * stride
        base = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
        outcomes = Outcomes(base, stride, np.zeros((len(masks), width), dtype=np.int64),
                            np.empty(int(size.sum())), np.zeros((pieces(), len(g.out_box))))
        reach = np.ones((len(masks), width))           # every upper total wanted
        run_pieces(batch, g, Job(vals, kind, masks, reach), NO_ROWS, outcomes)
        run_pieces(pull, g, lay, masks, outcomes, out)
        done += work[p]
        if progress:
            progress(done, total)
    return out


def seat_move(table, kind: str, card: Scorecard, dice: tuple[int, ...], rerolls: int,
              turn=None) -> Action:
    """The action a computer seat playing ``kind`` takes with ``dice`` on
    the table and ``rerolls`` left at ``card``: ``optimal`` the strategy's
    best (``turn``: the turn's values, if kept), ``step`` (several
    columns) the strategy without the coupling term, ``greedy`` and
    ``simple`` decided as for whole masks (``decide``)."""
    rules = card.rules
    strategy = strategy_for(rules)
    if kind in ("optimal", "step"):
        if kind == "step" or turn is None:
            turn = strategy.turn(table, card, kind)
        return strategy.advise(table, card, dice, rerolls, turn).best
    u = card.upper_state
    d = decide(rules, kind, None, np.array([card.mask]), np.array([u]))
    byte = int(d.rows[d.lane_row[0, u], rerolls, rules.dice_space.roll_index(dice)])
    if byte < rules.n_boxes:
        return Action.score(rules.boxes[byte].name)
    return Action.keep(rules.dice_space.dice_of(int(policy_tables(rules).by_rank[
        byte - rules.n_boxes])))
