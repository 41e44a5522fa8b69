"""Scorecard boxes and how each one scores a set of dice.

A box is data: a kind plus parameters.  ``Box.score(counts)`` takes the dice
as face counts (``counts[f - 1]`` = number of dice showing ``f``) and returns
the points the box gives, taking the most valuable way to read the dice.

Kinds:

* ``upper``    -- ``face`` times the number of dice showing ``face``.
* ``groups``   -- groups of equal dice of the sizes in ``groups`` (of
  *different* faces unless ``distinct`` is false); scores the dice in the
  groups, or all dice (``sum_all``), or a fixed number of ``points``.
  One pair, two pairs, three of a kind, full house, yatzy are all groups.
* ``straight`` -- any one of the face runs in ``runs`` present; fixed points.
* ``chance``   -- the sum of all dice.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from enum import StrEnum

Counts = tuple[int, ...]


class BoxKind(StrEnum):
    """How a box reads the dice (see the module docstring)."""

    UPPER = "upper"
    GROUPS = "groups"
    STRAIGHT = "straight"
    CHANCE = "chance"


@dataclass(frozen=True)
class Box:
    name: str
    kind: BoxKind
    face: int = 0
    groups: tuple[int, ...] = ()
    distinct: bool = True
    sum_all: bool = False
    runs: tuple[tuple[int, ...], ...] = ()
    points: int = 0
    aliases: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "kind", BoxKind(self.kind))   # "upper" works too

    @property
    def is_upper(self) -> bool:
        return self.kind is BoxKind.UPPER

    def score(self, counts: Counts) -> int:
        """Points for dice given as face counts; 0 if the dice do not fit."""
        if self.kind is BoxKind.UPPER:
            return self.face * counts[self.face - 1]
        if self.kind is BoxKind.CHANCE:
            return _dice_sum(counts)
        if self.kind is BoxKind.STRAIGHT:
            ok = any(all(counts[f - 1] > 0 for f in run) for run in self.runs)
            return self.points if ok else 0
        return self._score_groups(counts)

    def joker_score(self, counts: Counts) -> int:
        """Points as a joker (American Yahtzee): the box counts as made, so
        fixed-point boxes give their points and the others the sum of the dice;
        upper boxes score as usual."""
        if self.kind is BoxKind.UPPER:
            return self.score(counts)
        if self.points:
            return self.points
        if self.kind is BoxKind.GROUPS and not self.sum_all:
            return self.score(counts)
        return _dice_sum(counts)

    def _score_groups(self, counts: Counts) -> int:
        best = -1
        options = [[f for f in range(1, len(counts) + 1) if counts[f - 1] >= size]
                   for size in self.groups]
        for assign in itertools.product(*options):
            if self.distinct and len(set(assign)) < len(assign):
                continue
            need = [0] * len(counts)
            for size, face in zip(self.groups, assign):
                need[face - 1] += size
            if any(n > c for n, c in zip(need, counts)):
                continue
            if self.points:
                return self.points
            if self.sum_all:
                return _dice_sum(counts)
            best = max(best, sum(size * face for size, face in zip(self.groups, assign)))
        return max(best, 0)

    def describe(self) -> str:
        """One line saying what the box needs and what it scores."""
        if self.kind is BoxKind.UPPER:
            return f"sum of dice showing {self.face}"
        if self.kind is BoxKind.CHANCE:
            return "sum of all dice"
        if self.kind is BoxKind.STRAIGHT:
            runs = " or ".join("-".join(map(str, r)) for r in self.runs)
            return f"{runs}: {self.points}"
        need = " + ".join(str(g) for g in self.groups) + " equal"
        if len(self.groups) > 1:
            need += " (different faces)" if self.distinct else " (faces may repeat)"
        what = (f"{self.points}" if self.points
                else "sum of all dice" if self.sum_all else "sum of those dice")
        return f"{need}: {what}"


def _dice_sum(counts: Counts) -> int:
    return sum((f + 1) * c for f, c in enumerate(counts))


def upper(name: str, face: int, *aliases: str) -> Box:
    return Box(name, BoxKind.UPPER, face=face, aliases=aliases)


def groups(name: str, sizes: tuple[int, ...], *aliases: str, **kw) -> Box:
    return Box(name, BoxKind.GROUPS, groups=sizes, aliases=aliases, **kw)


def straight(name: str, runs: tuple[tuple[int, ...], ...], points: int, *aliases: str) -> Box:
    return Box(name, BoxKind.STRAIGHT, runs=runs, points=points, aliases=aliases)


UPPER = (
    upper("ones", 1, "enere", "ettor", "aces"),
    upper("twos", 2, "toere", "tvaor", "tvåor"),
    upper("threes", 3, "treere", "treor"),
    upper("fours", 4, "firere", "fyror"),
    upper("fives", 5, "femmere", "femmor"),
    upper("sixes", 6, "seksere", "sexor"),
)

NORDIC = UPPER + (
    groups("one_pair", (2,), "ett_par", "par", "pair"),
    groups("two_pairs", (2, 2), "to_par", "tva_par", "två_par"),
    groups("three_of_a_kind", (3,), "tre_like", "tretal", "three_alike"),
    groups("four_of_a_kind", (4,), "fire_like", "fyrtal", "four_alike"),
    straight("small_straight", ((1, 2, 3, 4, 5),), 15, "liten_straight", "liten_stege"),
    straight("large_straight", ((2, 3, 4, 5, 6),), 20, "stor_straight", "stor_stege"),
    groups("full_house", (3, 2), "hus", "kåk", "kak"),
    Box("chance", BoxKind.CHANCE, aliases=("sjanse", "chans", "sjangse")),
    groups("yatzy", (5,), "yahtzee", points=50),
)


@dataclass(frozen=True)
class HouseRule:
    """A house-rule switch of docs/rules.md, "Nordic Yatzy": when on, the groups of box
    ``box`` may share a face (``Box.distinct`` false)."""

    name: str
    box: str
    help: str

    def read(self, boxes: tuple[Box, ...]) -> bool:
        """Whether the switch is on in ``boxes``."""
        return not next(b for b in boxes if b.name == self.box).distinct

    def write(self, boxes: tuple[Box, ...], on: bool) -> tuple[Box, ...]:
        """``boxes`` with the switch on or off."""
        return tuple(replace(b, distinct=not on) if b.name == self.box else b for b in boxes)


HOUSE_RULES = {h.name: h for h in (
    HouseRule("five_alike_is_full_house", "full_house",
              "five equal dice also count as a full house"),
    HouseRule("four_alike_is_two_pairs", "two_pairs", "four equal dice also count as two pairs"),
)}
"""The house-rule switches, declared once: ``nordic_boxes`` takes them as
keywords and the rules spec as keys (``yatzy.rules.ruleset.KEYS``)."""


def nordic_boxes(*flags: bool, **switches: bool) -> tuple[Box, ...]:
    """The 15 Nordic boxes, with the house-rule switches of docs/rules.md, "Nordic Yatzy"
    (``HOUSE_RULES``, in their order or as keywords), e.g.
    ``nordic_boxes(five_alike_is_full_house=True)``."""
    if len(flags) > len(HOUSE_RULES):
        raise TypeError(f"nordic_boxes: at most {len(HOUSE_RULES)} switches")
    boxes = NORDIC
    for name, on in [*zip(HOUSE_RULES, flags), *switches.items()]:
        if name not in HOUSE_RULES:
            raise TypeError(f"nordic_boxes: unknown house rule {name!r}")
        boxes = HOUSE_RULES[name].write(boxes, on)
    return boxes


YAHTZEE = UPPER + (
    groups("three_of_a_kind", (3,), "3k", sum_all=True),
    groups("four_of_a_kind", (4,), "4k", sum_all=True),
    groups("full_house", (3, 2), points=25),
    straight("small_straight", ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)), 30),
    straight("large_straight", ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)), 40),
    groups("yahtzee", (5,), "yatzy", points=50),
    Box("chance", BoxKind.CHANCE),
)
"""American Yahtzee's 13 boxes in scorecard order."""


MAXI = UPPER + (
    groups("one_pair", (2,), "ett_par", "par", "pair"),
    groups("two_pairs", (2, 2), "to_par", "tva_par", "två_par"),
    groups("three_pairs", (2, 2, 2), "tre_par"),
    groups("three_of_a_kind", (3,), "tre_like", "tretal"),
    groups("four_of_a_kind", (4,), "fire_like", "fyrtal"),
    groups("five_of_a_kind", (5,), "fem_like", "femtal"),
    straight("small_straight", ((1, 2, 3, 4, 5),), 15, "liten_straight"),
    straight("large_straight", ((2, 3, 4, 5, 6),), 20, "stor_straight"),
    straight("full_straight", ((1, 2, 3, 4, 5, 6),), 21, "full_straight", "hel_straight"),
    groups("hut", (3, 2), "hytte"),
    groups("house", (3, 3), "hus"),
    groups("tower", (4, 2), "tårn", "tarn"),
    Box("chance", BoxKind.CHANCE, aliases=("sjanse", "chans")),
    groups("maxi_yatzy", (6,), "yatzy", "maxi_yahtzee", points=100),
)
"""Maxi Yatzy's 20 boxes (six dice), in scorecard order."""
