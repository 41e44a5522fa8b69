"""The state space a rule set implies: which turn-start states exist and how
they are laid out in memory.

A turn-start state is ``(mask, u)`` (and, with saved rolls, the bank ``k``):

* ``mask``: bit ``b`` set when box ``b`` is filled, plus ``flag_bit`` once
  the yatzy box holds its points (only under a yahtzee bonus);
* ``u``: the upper total capped at the bonus threshold (``Rules.cap``);
* ``k``: rolls banked, at most ``bank_limit(filled boxes)``.

Everything here is derived from a ``yatzy.rules.ruleset.Rules`` (the game's
description) and cached on it as ``state_space(rules)``: masks and their layers
(masks with as many boxes filled), the rows a mask's values take in stored
tables, the upper totals ("lanes") each mask can have, the boxes the fill
order allows and where a joker may go.
"""

from __future__ import annotations

import weakref
from functools import cached_property
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from yatzy.rules.ruleset import Joker, Order

if TYPE_CHECKING:
    from yatzy.rules.ruleset import Rules


class StateSpace:
    """The turn-start states of ``rules`` (see the module docstring)."""

    def __init__(self, rules: Rules):
        self.rules = rules

    # ------------------------------------------------------------ masks
    @property
    def full_mask(self) -> int:
        """Every box filled (flag bit excluded)."""
        return (1 << self.rules.n_boxes) - 1

    @property
    def flag_bit(self) -> int:
        """State bit set once the yatzy box holds its points (0 when the rules
        need no such bit: it only matters for the yahtzee bonus)."""
        return 1 << self.rules.n_boxes if self.rules.yahtzee_bonus else 0

    @property
    def n_masks(self) -> int:
        """Size of the mask axis: box bits plus the flag bit if any."""
        return (1 << self.rules.n_boxes) * (2 if self.flag_bit else 1)

    def child_mask(self, mask: int, box: int, points: int) -> int:
        """The mask after writing ``points`` in ``box``."""
        flag = self.flag_bit if box == self.rules.yatzy_box and points > 0 else 0
        return mask | 1 << box | flag

    def filled_count(self, masks: np.ndarray | int) -> np.ndarray:
        """Number of filled boxes of each mask (flag bit excluded)."""
        masks = np.asarray(masks, dtype=np.int64)
        return sum(masks >> b & 1 for b in range(self.rules.n_boxes))

    # ------------------------------------------------------------ the bank
    def bank_limit(self, filled: int) -> int:
        """Most rolls banked at a turn start with ``filled`` boxes filled.

        Every turn rolls at least once, so it can add at most ``rolls - 1``
        to the bank: after ``filled`` turns the bank holds at most
        ``(rolls - 1) * filled``.  Tracking that many is exact, with no cap.
        """
        r = self.rules
        if not r.saved_rolls:
            return 0
        most = (r.rolls - 1) * filled
        return min(most, r.bank_cap) if r.bank_cap else most

    def layer_shape(self, filled: int) -> tuple[int, int, int]:
        """Shape of the values of one layer with saved rolls,
        ``[bank, rank of the mask among those with `filled` boxes, u]``."""
        return (self.bank_limit(filled) + 1, comb(self.rules.n_boxes, filled), self.rules.cap + 1)

    # ------------------------------------------------------------ rows
    def mask_rank(self, masks: np.ndarray | int) -> np.ndarray:
        """Index of each mask among the masks with as many boxes filled, in
        increasing order (the combinatorial number system: the ``j``-th filled
        box from the lowest, ``c_j``, adds ``C(c_j, j)``)."""
        masks = np.asarray(masks, dtype=np.int64)
        rank = np.zeros(masks.shape, dtype=np.int64)
        seen = np.zeros(masks.shape, dtype=np.int64)
        for b in range(self.rules.n_boxes):
            bit = masks >> b & 1
            seen += bit
            rank += bit * self._binomials[b, seen]
        return rank

    @cached_property
    def _binomials(self) -> np.ndarray:
        """``_binomials[c, j] = C(c, j)``."""
        n = self.rules.n_boxes
        return np.array([[comb(c, j) for j in range(n + 1)] for c in range(n)], dtype=np.int64)

    @cached_property
    def rows(self) -> np.ndarray:
        """``rows[mask]``: the row of a mask in stored values: its rank among
        the masks with as many boxes filled (values by layer, saved rolls),
        else the mask itself (see ``yatzy.tables.values``)."""
        masks = np.arange(self.n_masks)
        return self.mask_rank(masks) if self.rules.saved_rolls else masks

    # ------------------------------------------------------------ fill order
    def allowed(self, masks: np.ndarray | int) -> np.ndarray:
        """Bitmask of the boxes that may be filled next, for each filled-box mask."""
        r = self.rules
        masks = np.asarray(masks, dtype=np.int64) & self.full_mask
        open_ = ~masks & self.full_mask
        if r.order is Order.FREE:
            return open_
        if r.order is Order.FORCED:
            return open_ & (masks + 1)          # the lowest open box
        open_upper = open_ & r.upper_bits
        return np.where(open_upper != 0, open_upper, open_)

    @cached_property
    def allowed_table(self) -> np.ndarray:
        """``allowed_table[mask]``: ``allowed`` for every mask."""
        return self.allowed(np.arange(self.n_masks))

    @cached_property
    def _reachable(self) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        """Which masks can be reached from the empty card, and the reachable
        masks grouped (ascending) by the number of filled boxes."""
        nb = self.rules.n_boxes
        masks = np.arange(self.n_masks)
        filled = self.filled_count(masks)
        order = np.argsort(filled, kind="stable")
        bounds = np.searchsorted(filled[order], np.arange(nb + 2))
        reach = np.zeros(self.n_masks, dtype=bool)
        reach[0] = True
        allowed = self.allowed_table
        layers = []
        for p in range(nb + 1):
            layer = order[bounds[p]:bounds[p + 1]]
            layer = layer[reach[layer]]
            layers.append(layer)
            for b in range(nb):
                parents = layer[allowed[layer] >> b & 1 == 1]
                reach[parents | 1 << b] = True
                if b == self.rules.yatzy_box and self.flag_bit:
                    reach[parents | 1 << b | self.flag_bit] = True
        return reach, tuple(layers)

    @property
    def layers(self) -> tuple[np.ndarray, ...]:
        """Reachable masks grouped by how many boxes are filled (ascending)."""
        return self._reachable[1]

    def is_reachable(self, mask: int) -> bool:
        """Whether some order of play fills exactly ``mask`` (a search back
        through the boxes that may have been filled last; no whole-game table)."""
        if not 0 <= mask < self.n_masks:
            return False
        yatzy, flag = self.rules.yatzy_box, self.flag_bit
        seen: dict[int, bool] = {}

        def parent(m: int, b: int) -> int:
            """The mask before box ``b`` was filled (the flag goes with the yatzy box)."""
            return m & ~(1 << b) & ~(m & flag if b == yatzy else 0)

        def back(m: int) -> bool:
            if m == 0:
                return True
            if m & flag and not m >> yatzy & 1:
                return False                   # a flag without its box
            if m not in seen:
                seen[m] = any(m >> b & 1 and int(self.allowed(parent(m, b))) >> b & 1
                              and back(parent(m, b)) for b in range(self.rules.n_boxes))
            return seen[m]

        return back(mask)

    # ------------------------------------------------------------ upper totals
    @cached_property
    def upper_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per mask: the most the filled upper boxes can hold, and the most
        the open ones can still add (upper totals below ``cap`` minus the
        latter can no longer reach the bonus)."""
        r = self.rules
        best = r.scores.max(axis=0)
        masks = np.arange(self.n_masks)
        held = np.zeros(len(masks), dtype=np.int64)
        still = np.zeros(len(masks), dtype=np.int64)
        for b in range(r.n_boxes):
            if r.boxes[b].is_upper:
                filled = masks >> b & 1 == 1
                held += np.where(filled, best[b], 0)
                still += np.where(filled, 0, best[b])
        return held, still

    @cached_property
    def upper_lanes(self) -> np.ndarray:
        """``upper_lanes[mask]``: 1 + the largest tracked upper total reachable
        with these boxes filled (upper totals 0..lanes-1 are solved)."""
        return np.minimum(self.upper_bounds[0], self.rules.cap) + 1

    @cached_property
    def lane_start(self) -> np.ndarray:
        """``lane_start[mask]``: the lowest upper total that needs solving.

        Below ``T - (most the open upper boxes can still add)`` the bonus is
        out of reach, so the upper total no longer matters: the engine solves
        one such total (this one) and copies its value to the ones below."""
        still = self.upper_bounds[1]
        return np.minimum(np.maximum(self.rules.cap - still - 1, 0), self.upper_lanes - 1)

    # ------------------------------------------------------------ jokers
    @cached_property
    def joker_boxes(self) -> np.ndarray:
        """``jokers`` of every mask."""
        return self.jokers(np.arange(self.n_masks))

    def jokers(self, masks: np.ndarray | int) -> np.ndarray:
        """``jokers(masks)[i, f]``: boxes a roll of all ``f + 1`` may go in as
        a joker (bitmask), or 0 where the usual rules apply (no joker, the
        yatzy box still open, or a free joker whose upper box is open).

        Forced joker (official): the matching upper box if open, else a lower
        box at joker value, else any upper box (for 0).  Free choice joker
        (Verhoeff's reading): with the matching upper box open the usual rules
        apply; otherwise any open box, lower boxes at joker value."""
        r = self.rules
        masks = np.atleast_1d(np.asarray(masks, dtype=np.int64))
        out = np.zeros((len(masks), r.faces), dtype=np.int64)
        if r.joker is Joker.NONE:
            return out
        active = masks >> r.yatzy_box & 1 == 1
        open_ = self.allowed(masks)
        upper = r.upper_bits
        lower = self.full_mask & ~upper
        for f in range(r.faces):
            match = open_ & sum(1 << b for b, box in enumerate(r.boxes)
                                if box.is_upper and box.face == f + 1)
            if r.joker is Joker.FORCED:
                filled = np.where(open_ & lower, open_ & lower, open_ & upper)
                out[:, f] = np.where(active, np.where(match != 0, match, filled), 0)
            else:                   # 0 where the usual rules apply
                out[:, f] = np.where(active & (match == 0), open_, 0)
        return out


_SPACES: "weakref.WeakKeyDictionary[Rules, StateSpace]" = weakref.WeakKeyDictionary()


def state_space(rules: Rules) -> StateSpace:
    """The ``StateSpace`` of ``rules``, built once per rule set."""
    space = _SPACES.get(rules)
    if space is None:
        space = _SPACES[rules] = StateSpace(rules)
    return space
