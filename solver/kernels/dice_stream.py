"""The dice streams: every game draws its dice from its own splitmix64
stream seeded by ``(seed, game)``, so its dice do not depend on threads,
batches or other games.  Faces come from 32-bit draws by Lemire's
multiply-and-reject method (exactly uniform).

``seed_states`` starts the streams of games ``first .. first+n-1``;
``roll_dice`` rolls the dice not kept.  Every simulation and player uses
these two, so the same seed gives the same dice everywhere.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def next_draw(state):
    """splitmix64: the next state and its 64-bit output."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def face(state, faces):
    """A uniform face index ``0 .. faces-1`` and the new state."""
    f = np.uint64(faces)
    limit = (np.uint64(1 << 32) - f) % f
    while True:
        state, z = next_draw(state)
        m = (z >> np.uint64(32)) * f
        if (m & np.uint64(0xFFFFFFFF)) >= limit:
            return state, np.int64(m >> np.uint64(32))


@njit(cache=True)
def roll_dice(adds, first_roll, faces, fresh, state, keep):
    """Add ``fresh`` new dice to multiset ``keep`` (``adds[m, f]``: ``m``
    plus a die showing ``f + 1``); returns the roll index and the new state."""
    m = keep
    for _ in range(fresh):
        state, f = face(state, faces)
        m = adds[m, f]
    return m - first_roll, state


@njit(cache=True)
def seed_states(seed, first, n):
    """The starting states of games ``first .. first + n - 1``."""
    out = np.empty(n, dtype=np.uint64)
    base = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03)
    for i in range(n):
        s, z = next_draw(base ^ (np.uint64(first + i) * np.uint64(0x9E3779B97F4A7C15)))
        out[i] = z
    return out
