"""Dice as multisets: enumeration, indices, probabilities and transitions.

Order of dice never matters, so a hand of ``k`` dice is a multiset, stored as
its face counts.  ``DiceSpace(n, faces)`` enumerates every multiset of 0..n
dice, smallest first, so that the full rolls (size ``n``) are the last
``n_rolls`` indices.  For five six-sided dice there are 462 multisets of
which 252 are rolls; for six dice, 924 and 462.
"""

from __future__ import annotations

import itertools
import math
import re
from functools import cache, cached_property

import numpy as np

from yatzy.bounds import check_text, shown
from yatzy.errors import InputError


class DiceSpace:
    """Every multiset of up to ``n`` dice with ``faces`` faces.

    Arrays (``M`` multisets, ``F`` faces, ``NR`` rolls):

    * ``counts[m, f]``  number of dice showing face ``f + 1`` in multiset ``m``
    * ``size[m]``       number of dice in ``m``
    * ``add[m, f]``     index of ``m`` plus one die showing ``f + 1`` (-1 if full)
    * ``sub[m, f]``     index of ``m`` minus one die showing ``f + 1`` (-1 if none)
    * ``roll_prob[r]``  probability of roll ``r`` (multiset ``first_roll + r``)
    * ``reroll[m, r]``  probability that keeping ``m`` and rerolling the rest
      gives roll ``r``
    * ``subsets[r, j]`` the multisets contained in roll ``r`` (row padded by
      repeating the roll itself)
    * ``size_subs``     per size, the multisets one die smaller (see below)
    """

    def __init__(self, n: int, faces: int = 6):
        self.n = n
        self.faces = faces
        hands = [c for k in range(n + 1) for c in _compositions(k, faces)]
        self.index = {c: i for i, c in enumerate(hands)}
        self.counts = np.array(hands, dtype=np.int64).reshape(len(hands), faces)
        self.size = self.counts.sum(axis=1)
        m = len(hands)
        self.n_multisets = m
        self.first_roll = int(np.searchsorted(self.size, n))
        self.n_rolls = m - self.first_roll
        self.add = np.full((m, faces), -1, dtype=np.int64)
        self.sub = np.full((m, faces), -1, dtype=np.int64)
        for c, i in self.index.items():
            for f in range(faces):
                up = c[:f] + (c[f] + 1,) + c[f + 1:]
                if up in self.index:
                    self.add[i, f] = self.index[up]
                if c[f] > 0:
                    self.sub[i, f] = self.index[c[:f] + (c[f] - 1,) + c[f + 1:]]
        self.roll_prob = np.array(
            [_multinomial(c) / faces**n for c in hands[self.first_roll:]])
        self.reroll = self._reroll_matrix()
        self.subsets = self._subsets()
        self.size_subs = self._size_subs()

    def _reroll_matrix(self) -> np.ndarray:
        m, first = self.n_multisets, self.first_roll
        p = np.zeros((m, self.n_rolls))
        p[first:, :] = np.eye(self.n_rolls)
        for i in range(first - 1, -1, -1):       # larger multisets first
            for f in range(self.faces):
                p[i] += p[self.add[i, f]] / self.faces
        return p

    def _subsets(self) -> np.ndarray:
        rows = []
        for r in range(self.n_rolls):
            c = self.counts[self.first_roll + r]
            subs = [self.index[s] for s in itertools.product(*(range(k + 1) for k in c))]
            rows.append(subs)
        width = max(len(s) for s in rows)
        out = np.empty((self.n_rolls, width), dtype=np.int64)
        for r, subs in enumerate(rows):
            out[r] = subs + [self.first_roll + r] * (width - len(subs))
        return out

    def _size_subs(self) -> list[tuple[int, int, np.ndarray]]:
        """Per size k >= 1: the index range of the multisets of size k and, for
        each, the multisets one die smaller (rows padded by repetition)."""
        out = []
        for k in range(1, self.n + 1):
            lo, hi = (int(i) for i in np.searchsorted(self.size, [k, k + 1]))
            rows = self.sub[lo:hi]
            first = rows.max(axis=1, keepdims=True)
            out.append((lo, hi, np.where(rows >= 0, rows, first)))
        return out

    def roll_counts(self) -> np.ndarray:
        """Face counts of every roll, shape (n_rolls, faces)."""
        return self.counts[self.first_roll:]

    def roll_index(self, dice: tuple[int, ...]) -> int:
        """Index (0..n_rolls-1) of a full roll given as dice values."""
        return self.multiset_index(dice) - self.first_roll

    def multiset_index(self, dice: tuple[int, ...]) -> int:
        return self.index[self.to_counts(dice)]

    def to_counts(self, dice: tuple[int, ...]) -> tuple[int, ...]:
        c = [0] * self.faces
        for d in dice:
            c[d - 1] += 1
        return tuple(c)

    def dice_of(self, m: int) -> tuple[int, ...]:
        """Dice values (sorted) of multiset ``m``."""
        return self.dice_tuples[m]

    @cached_property
    def dice_tuples(self) -> tuple[tuple[int, ...], ...]:
        """``dice_tuples[m]``: the dice values (sorted) of multiset ``m``."""
        return tuple(tuple(f + 1 for f in range(self.faces) for _ in range(self.counts[m, f]))
                     for m in range(self.n_multisets))

    @cached_property
    def keeps(self) -> tuple[np.ndarray, ...]:
        """``keeps[r]``: the proper sub-multisets of roll ``r`` (what can be
        kept before a reroll), ascending."""
        return tuple(np.array(sorted(set(self.subsets[r].tolist()) - {self.first_roll + r}),
                              dtype=np.int64) for r in range(self.n_rolls))

    def parse(self, text: str) -> tuple[int, ...]:
        """Parse ``1,1,2,5,6`` or ``11256`` into exactly ``n`` sorted dice."""
        return parse_dice(text, self.n, self.faces)


@cache
def dice_space(n: int, faces: int = 6) -> DiceSpace:
    return DiceSpace(n, faces)


def parse_dice(text: str, n: int | None, faces: int = 6, most: int | None = None
               ) -> tuple[int, ...]:
    """Sorted dice from ``1,1,2,5,6``, ``1 1 2 5 6`` or ``11256``: exactly
    ``n`` of them, or (``n`` None) any number up to ``most``; each a face
    ``1 .. faces``.  The one parser of dice typed by people (options, logs,
    actions).  ``text`` longer than ``yatzy.bounds.MAX_TEXT`` is refused
    before it is read; a number of more digits than a face has is no face."""
    s = check_text(text, "dice").strip()
    if re.fullmatch(r"\d+", s) and faces < 10:
        parts = list(s)
    else:
        parts = [p for p in re.split(r"[\s,]+", s) if p]
    if not all(re.fullmatch(r"\d+", p) for p in parts) or (not parts and n != 0 and n is not None):
        raise InputError(f"dice {shown(text, 40)}: expected numbers like 1,1,2,5,6 or 11256")
    bad = [p for p in parts if len(p) > len(str(faces)) or not 1 <= int(p) <= faces]
    if bad:
        face = bad[0] if len(bad[0]) <= 10 else f"a number of {len(bad[0])} digits"
        raise InputError(f"dice {shown(text, 40)}: {face} is not a face of a {faces}-sided die")
    dice = [int(p) for p in parts]
    if n is not None and len(dice) != n:
        raise InputError(f"dice {shown(text, 40)}: {len(dice)} dice given, this game uses {n}")
    if most is not None and len(dice) > most:
        raise InputError(f"dice {shown(text, 40)}: {len(dice)} dice, at most {most} here")
    return tuple(sorted(dice))


def _compositions(k: int, faces: int):
    """Face-count tuples of ``k`` dice, in lexicographic order (descending)."""
    if faces == 1:
        yield (k,)
        return
    for first in range(k, -1, -1):
        for rest in _compositions(k - first, faces - 1):
            yield (first,) + rest


def _multinomial(counts: tuple[int, ...]) -> int:
    out = math.factorial(sum(counts))
    for c in counts:
        out //= math.factorial(c)
    return out
