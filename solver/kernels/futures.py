"""The futures table's kernel: the distribution of the points still to come
under expected-score play, pulled back one layer at a time.

``pull_futures`` combines each state's turn outcomes (``kernels.policy.Outcomes``)
with the distributions of the states they lead to (``kernels.target.Layout``
order); ``yatzy.players.futures`` drives it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from yatzy.kernels.outcomes import child_mask, state_outcomes
from yatzy.kernels.scoring import upper_after


@njit(cache=True, nogil=True)
def pull_futures(g, lay, masks, out, values, t, n_threads):
    """``values`` of the states of masks ``masks[i]``, ``i = t, t +
    n_threads, ...`` (one layer), from their turn outcomes ``out``
    (``policy.Outcomes``) and the layer after (already in ``values``)."""
    d = g.turn
    cs = np.empty(len(g.out_box), dtype=np.int64)
    ps = np.empty(len(g.out_box))
    for i in range(t, len(masks), n_threads):
        mask = masks[i]
        w = lay.width[mask]
        for u in range(lay.start[mask], d.lanes[mask]):
            base = lay.off[mask] + (u - lay.start[mask]) * w
            for k in range(w):
                values[base + k] = 0.0
            for j in range(state_outcomes(g, out, i, u, mask, cs, ps)):
                c, prob = cs[j], ps[j]
                child = child_mask(g, mask, c)
                pts = g.out_pts[c]
                u2, bonus = upper_after(d, g.out_box[c], u, pts)
                gain = pts + bonus + g.out_extra[c]
                cw = lay.width[child]
                cbase = lay.off[child] + (max(u2, lay.start[child]) - lay.start[child]) * cw
                for k in range(min(cw, w - gain)):
                    values[base + gain + k] += prob * values[cbase + k]
