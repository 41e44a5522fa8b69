"""One turn-start state's turn outcomes, read from ``kernels.policy.Outcomes``:
the walk shared by the kernels that pull a table back through the policy's
turn outcomes (``kernels.futures``, ``kernels.explain``)."""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def state_outcomes(g, out, i, u, mask, cs, ps):
    """The outcomes of positive probability of the state ``(mask, u)``, the
    ``i``-th mask of a layer (``g`` the policy tables, ``out`` the layer's
    ``Outcomes``), in the order of ``g.out_box``: ``cs[j]`` the outcome (an
    index into ``g.out_*``), ``ps[j]`` its probability, for ``j < n``;
    returns ``n``.  ``cs`` and ``ps`` hold ``len(g.out_box)`` each."""
    obase, ostride, ogroup, outs, _ = out
    allowed = g.turn.allowed[mask]
    col = obase[i] + ogroup[i, u]
    a = 0
    n = 0
    for c in range(len(g.out_box)):
        if (allowed >> g.out_box[c]) & 1 == 0:
            continue
        prob = outs[col + a * ostride[i]]
        a += 1
        if prob != 0.0:
            cs[n] = c
            ps[n] = prob
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def child_mask(g, mask, c):
    """The mask after outcome ``c`` at ``mask``: its box filled, and the
    flag bit set where the outcome sets it."""
    return mask | (1 << g.out_box[c]) | (g.turn.flag_bit if g.out_flag[c] else 0)
