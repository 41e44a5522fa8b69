"""Turn-start values in memory, and looking them up.

Two layouts hold ``V``, the expected score still to come from a turn start:

* dense, without saved rolls: ``dense[0, mask, u]`` for every mask;
* by layer, with saved rolls: ``layers[p][k, rank, u]`` for the masks with
  ``p`` boxes filled (``rank = StateSpace.mask_rank(mask)``) and ``k`` rolls banked,
  ``k <= StateSpace.bank_limit(p)``.  Only two layers are ever needed at once by
  the solve, and the bank axis grows with ``p``, so this is what makes the
  unlimited bank tractable.

Layers may be float32 on disk (values are read as float64).

Under a risk parameter ``theta != 0`` the stored values are expected
utilities, ``E[-exp(-theta X) / theta]`` of the points ``X`` still to come
(``utility`` below); ``value`` gives their certainty equivalents in
points, ``lookup`` the stored numbers the kernels work with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from yatzy import bounds
from yatzy.errors import InputError
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space


def utility(theta: float, x):
    """The objective's value of ``x`` points: ``x`` itself for ``theta = 0``
    (the expected score), else ``-exp(-theta x) / theta``, whose expectation
    risk-averse play (``theta > 0``) or risk-seeking play (``theta < 0``)
    maximises; both increase with ``x``."""
    if theta == 0:
        return x
    return -np.exp(-theta * np.asarray(x, dtype=np.float64)) / theta


def certainty(theta: float, value):
    """The points ``x`` with ``utility(theta, x) == value``: the certainty
    equivalent of a gamble of expected utility ``value``."""
    if theta == 0:
        return value
    return -np.log(-theta * np.asarray(value, dtype=np.float64)) / theta


@dataclass
class StateValues:
    """``V`` for every turn-start state of ``rules`` in one of the layouts."""

    rules: Rules
    dense: np.ndarray | None = None                     # [1, mask, u]
    layers: tuple[np.ndarray, ...] | None = None        # layers[p][k, rank, u]
    theta: float = 0.0                                  # the objective (utility below)

    @property
    def values(self) -> np.ndarray:
        """``values[mask, u]`` without saved rolls (dense layout only)."""
        if self.dense is None:
            raise ValueError("values by mask exist only without saved rolls; use lookup()")
        return self.dense[0]

    @property
    def banks(self) -> np.ndarray:
        """``banks[k, mask, u]`` (dense layout only: ``k`` is always 0)."""
        if self.dense is None:
            raise ValueError("the dense layout exists only without saved rolls; use lookup()")
        return self.dense

    @property
    def expected_score(self) -> float:
        """Expected final score of a new game under optimal play (under
        ``theta``: its certainty equivalent)."""
        return self.value(0, 0, 0)

    def value(self, mask: int, upper: int, bank: int = 0) -> float:
        """Expected score still to come from a turn start (under ``theta``:
        its certainty equivalent)."""
        raw = float(self.lookup(bank, np.array([mask]), np.array([upper]))[0])
        return float(self.points(raw))

    def points(self, values):
        """Stored values as points: the certainty equivalents of expected
        utilities under ``theta``, the values themselves for ``theta = 0``."""
        return certainty(self.theta, values)

    def lookup(self, bank: int, masks: np.ndarray, uppers: np.ndarray) -> np.ndarray:
        """The stored values at (``masks``, ``uppers``) with ``bank`` rolls
        banked, float64 (arrays of any matching shapes)."""
        return self.finder(masks, uppers)(bank)

    def finder(self, masks: np.ndarray, uppers: np.ndarray) -> Callable[[int], np.ndarray]:
        """``find(bank)``: ``lookup(bank, masks, uppers)``, with the states
        located once for any number of banks."""
        masks, uppers = np.broadcast_arrays(np.asarray(masks), np.asarray(uppers))
        rules = self.rules
        if self.dense is not None:
            def find_dense(bank: int) -> np.ndarray:
                if bank:
                    raise InputError(f"bank={bank}: these rules bank no rolls")
                return np.asarray(self.dense[0][masks, uppers], dtype=np.float64)
            return find_dense
        distinct, back = np.unique(masks, return_inverse=True)   # few: one per box, say
        filled = state_space(rules).filled_count(distinct)[back].reshape(masks.shape)
        rank = state_space(rules).mask_rank(distinct)[back].reshape(masks.shape)
        groups = [(int(p), filled == p) for p in np.unique(filled)]
        places = [(p, at, rank[at], uppers[at]) for p, at in groups]

        def find(bank: int) -> np.ndarray:
            out = np.empty(masks.shape)
            for p, at, rows, ups in places:
                if bank > state_space(rules).bank_limit(p):
                    raise InputError(f"bank={bank}: at most {state_space(rules).bank_limit(p)} rolls can be "
                                     f"banked with {p} boxes filled")
                out[at] = self.layers[p][bank][rows, ups]
            return out
        return find

    def next_layer(self, mask: int) -> tuple[np.ndarray, np.ndarray]:
        """What the kernels read for a turn at ``mask``: the values of the
        states it leads to, ``[k, row, u]``, and ``row`` per mask."""
        nxt = (self.dense if self.dense is not None
               else self.layers[int(state_space(self.rules).filled_count(mask)) + 1])
        return nxt, state_space(self.rules).rows


def check_theta(rules: Rules, theta: object) -> float:
    """A risk parameter for ``rules`` (``yatzy.bounds.check_theta``): 0, or
    ``1e-6 <= |theta| <= 1`` (below, float64 no longer tells one point from
    the next in ``utility``) and small enough that ``exp(|theta| max_score)``
    stays a float64."""
    return bounds.check_theta(theta, rules.max_score)
