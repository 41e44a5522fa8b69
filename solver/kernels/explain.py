"""The explanation table's kernel and layout: what each box, the upper bonus
and the yahtzee bonus are expected to bring from every turn-start state
under expected-score play, pulled back one layer at a time.

``pull_parts`` combines each state's turn outcomes (``kernels.policy.Outcomes``)
with the parts of the states they lead to; ``yatzy.players.explain`` drives
it and stores the table.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.outcomes import child_mask, state_outcomes
from yatzy.kernels.scoring import upper_after
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space


class PartLayout(NamedTuple):
    """Where each state's parts are: ``values[off[mask] + (u - start[mask])
    * n_parts + k]`` for upper totals ``start[mask] .. lanes[mask] - 1``
    (lower totals play and score like ``start``; ``off`` is -1 for masks
    the fill order cannot reach).  Parts ``k < n_boxes``: expected points
    still to come in box ``k``; ``n_boxes``: the probability that the upper
    bonus is earned from here on; ``n_boxes + 1``: the expected yahtzee
    bonus points still to come."""

    off: np.ndarray
    start: np.ndarray
    lanes: np.ndarray
    n_parts: int


@lru_cache(maxsize=8)
def part_layout(rules: Rules) -> PartLayout:
    """The ``PartLayout`` of ``rules``."""
    sp = state_space(rules)
    n_parts = rules.n_boxes + 2
    start = sp.lane_start.astype(np.int64)
    lanes = sp.upper_lanes.astype(np.int64)
    reached = np.zeros(sp.n_masks, dtype=bool)
    reached[np.concatenate(sp.layers)] = True
    size = np.where(reached, (lanes - start) * n_parts, 0)
    off = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    off[~reached] = -1
    return PartLayout(off, start, lanes, n_parts)


def part_table_size(rules: Rules) -> int:
    """Number of values in the explanation table of ``rules``."""
    lay = part_layout(rules)
    reached = lay.off >= 0
    return int(((lay.lanes - lay.start) * lay.n_parts)[reached].sum())


@njit(cache=True, nogil=True)
def pull_parts(g, lay, masks, out, values, t, n_threads):
    """``values`` (``PartLayout``) of the states of masks ``masks[i]``, ``i =
    t, t + n_threads, ...`` (one layer), from their turn outcomes ``out``
    (``policy.Outcomes``) and the layer after (already in ``values``)."""
    off, start, lanes, n_parts = lay
    d = g.turn
    nb = len(d.is_upper)
    cs = np.empty(len(g.out_box), dtype=np.int64)
    ps = np.empty(len(g.out_box))
    for i in range(t, len(masks), n_threads):
        mask = masks[i]
        for u in range(start[mask], lanes[mask]):
            base = off[mask] + (u - start[mask]) * n_parts
            for k in range(n_parts):
                values[base + k] = 0.0
            for j in range(state_outcomes(g, out, i, u, mask, cs, ps)):
                c, prob = cs[j], ps[j]
                b = g.out_box[c]
                child = child_mask(g, mask, c)
                pts = g.out_pts[c]
                values[base + b] += prob * pts
                values[base + nb + 1] += prob * g.out_extra[c]
                u2, bonus = upper_after(d, b, u, pts)
                if bonus > 0:                       # the upper bonus earned now
                    values[base + nb] += prob
                cbase = off[child] + (max(u2, start[child]) - start[child]) * n_parts
                for k in range(n_parts):
                    values[base + k] += prob * values[cbase + k]
