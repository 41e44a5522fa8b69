"""The exact distribution's kernel: probabilities carried forward one
layer of turn-start states at a time.

``Spread`` holds one layer's state probabilities by points gained;
``carry`` pulls them through the policy's turn outcomes into the next layer
(piece ``t`` of ``n``).  ``yatzy.research.distribution`` drives it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.scoring import upper_after


class Spread(NamedTuple):
    """The probabilities of one layer's states, per mask ``masks[i]``:

    * ``f[off[i] + u * size[i] + x]``  probability of state ``(masks[i], u)``
      with ``x`` lower (and beyond-threshold upper) points gained
    * ``reach[i, u]``  the total of state ``(masks[i], u)``, whose non-zero
      points lie in ``lo[i, u] <= x < hi[i, u]``
    """

    masks: np.ndarray
    f: np.ndarray
    off: np.ndarray
    size: np.ndarray
    reach: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


@njit(cache=True, nogil=True)
def carry(g, pos, src, out, dst, t, n_threads):
    """Pull the layer ``src`` into the next one, ``dst`` (each of its blocks
    zeroed here first, its ``reach``, ``lo``, ``hi`` filled), for piece ``t``
    of ``n_threads`` consecutive runs of ``dst.masks`` (neighbouring masks
    share parents, whose blocks then come from the cache).

    ``pos[mask]`` is a source mask's index (-1: not in the layer); ``out``
    the turn outcomes of the source layer (``policy.Outcomes``).
    """
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    _, src_f, src_off, src_len, reach, lo, hi = src
    masks, dst_f, dst_off, dst_len, dst_reach, dst_lo, dst_hi = dst
    obase, ostride, ogroup, outs, _ = out
    nb = len(tu.is_upper)
    for i2 in range(t * len(masks) // n_threads, (t + 1) * len(masks) // n_threads):
        m2 = masks[i2]
        n2 = dst_len[i2]
        dst = dst_f[dst_off[i2]:dst_off[i2] + tu.lanes[m2] * n2]
        for x in range(len(dst)):
            dst[x] = 0.0
        for b in range(nb):
            if (m2 >> b) & 1 == 0:
                continue
            # box b filled last: with 50 in the yatzy box, the flag came with it
            sets = b == g.flag_box and m2 & tu.flag_bit != 0
            p = m2 ^ (1 << b) ^ (tu.flag_bit if sets else 0)
            if pos[p] < 0 or (tu.allowed[p] >> b) & 1 == 0:
                continue
            i = pos[p]
            base = 0                      # box b's first outcome among p's
            for b2 in range(b):
                if (tu.allowed[p] >> b2) & 1:
                    base += g.out_start[b2 + 1] - g.out_start[b2]
            n1 = src_len[i]
            for u in range(tu.lanes[p]):
                if reach[i, u] == 0.0:
                    continue
                src = src_f[src_off[i] + u * n1:src_off[i] + (u + 1) * n1]
                x0 = lo[i, u]
                src = src[x0:hi[i, u]]                # its non-zero part
                col = obase[i] + ogroup[i, u]
                for c in range(g.out_start[b], g.out_start[b + 1]):
                    prob = outs[col + (base + c - g.out_start[b]) * ostride[i]]
                    if prob == 0.0 or g.out_flag[c] != sets:
                        continue
                    pts = g.out_pts[c]
                    u2 = upper_after(tu, b, u, pts)[0]     # (its bonus: added at the end)
                    shift = pts - (u2 - u) + g.out_extra[c]  # the points u does not hold
                    row = dst[u2 * n2 + shift + x0:]
                    for x in range(len(src)):
                        row[x] += prob * src[x]
        for u in range(tu.lanes[m2]):
            row = dst[u * n2:(u + 1) * n2]
            tot = 0.0
            for x in range(n2):
                tot += row[x]
            dst_reach[i2, u] = tot
            z = n2
            while z > 0 and row[z - 1] == 0.0:
                z -= 1
            a = 0
            while a < z and row[a] == 0.0:
                a += 1
            dst_lo[i2, u] = a
            dst_hi[i2, u] = z
