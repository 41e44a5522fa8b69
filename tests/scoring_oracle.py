"""Box scoring written from docs/rules.md, independently of solver/boxes.py.

The brute-force checks of the engine score with these functions, so that a
mistake in ``yatzy.rules.boxes`` cannot hide in both the engine and its oracle.
Dice are plain values in any order, e.g. ``(5, 5, 4, 4, 2)``.

Two forms:

* ``NORDIC``, ``MAXI``, ``YAHTZEE`` (and ``nordic(...)`` for the house-rule
  switches): one plain function per box name, each a line of the rules text;
  ``YAHTZEE_JOKER``: a further yahtzee played as a joker (docs/rules.md, "American Yahtzee").
* ``points(box, dice)`` / ``joker_points(box, dice)``: any box described by
  its parameters (kind, face, group sizes, runs, points), the way the small
  test games build theirs; group boxes are read by trying every ordering of
  the dice and cutting it into groups of the given sizes, a definition rather
  than an algorithm.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations

from yatzy.rules.boxes import BoxKind


# ------------------------------------------------------------ small functions
def _faces_with(dice, at_least):
    """Faces shown by at least ``at_least`` dice, highest first."""
    return sorted((f for f, n in Counter(dice).items() if n >= at_least), reverse=True)


def _alike(dice, k):
    """k times the highest face shown by at least k dice; 0 if none."""
    faces = _faces_with(dice, k)
    return k * faces[0] if faces else 0


def _all_alike(dice):
    return len(set(dice)) == 1


def _upper(face):
    return lambda dice: face * sum(1 for d in dice if d == face)


UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")
UPPER = {name: _upper(face) for face, name in enumerate(UPPER_NAMES, start=1)}


# ------------------------------------------------------------ Nordic (§1)
def _two_different_pairs(dice):
    """The two highest pairs of different values, summed; 0 if there are not two."""
    pairs = _faces_with(dice, 2)
    return 2 * pairs[0] + 2 * pairs[1] if len(pairs) >= 2 else 0


def _three_and_two(dice):
    """Three equal and two equal of a different value (five dice)."""
    return sorted(Counter(dice).values()) == [2, 3]


def nordic(five_alike_is_full_house=False, four_alike_is_two_pairs=False):
    """The 15 Nordic boxes by name, with the house-rule switches of §1."""

    def two_pairs(dice):
        best = _two_different_pairs(dice)
        if four_alike_is_two_pairs:              # four equal dice also count as two pairs
            best = max(best, _alike(dice, 4))
        return best

    def full_house(dice):
        if _three_and_two(dice) or (five_alike_is_full_house and _all_alike(dice)):
            return sum(dice)
        return 0

    return {
        **UPPER,
        "one_pair": lambda d: _alike(d, 2),
        "two_pairs": two_pairs,
        "three_of_a_kind": lambda d: _alike(d, 3),
        "four_of_a_kind": lambda d: _alike(d, 4),
        "small_straight": lambda d: 15 if sorted(d) == [1, 2, 3, 4, 5] else 0,
        "large_straight": lambda d: 20 if sorted(d) == [2, 3, 4, 5, 6] else 0,
        "full_house": full_house,
        "chance": sum,
        "yatzy": lambda d: 50 if len(d) == 5 and _all_alike(d) else 0,
    }


NORDIC = nordic()


# ------------------------------------------------------------ Maxi (§3)
def _hut(dice):
    """Three equal + two equal of another value: the most those five dice make."""
    c = Counter(dice)
    return max((3 * a + 2 * b for a in c for b in c if a != b and c[a] >= 3 and c[b] >= 2),
               default=0)


def _house(dice):
    """Three equal + three equal of another value: all six dice."""
    return sum(dice) if len(_faces_with(dice, 3)) >= 2 else 0


def _tower(dice):
    """Four equal + two equal of another value: all six dice."""
    c = Counter(dice)
    ok = any(a != b and c[a] >= 4 and c[b] >= 2 for a in c for b in c)
    return sum(dice) if ok else 0


def _among(run, points):
    return lambda dice: points if set(run) <= set(dice) else 0


MAXI = {
    **UPPER,
    "one_pair": lambda d: _alike(d, 2),
    "two_pairs": _two_different_pairs,
    "three_pairs": lambda d: sum(d) if len(_faces_with(d, 2)) >= 3 else 0,
    "three_of_a_kind": lambda d: _alike(d, 3),
    "four_of_a_kind": lambda d: _alike(d, 4),
    "five_of_a_kind": lambda d: _alike(d, 5),
    "small_straight": _among((1, 2, 3, 4, 5), 15),
    "large_straight": _among((2, 3, 4, 5, 6), 20),
    "full_straight": _among((1, 2, 3, 4, 5, 6), 21),
    "hut": _hut,
    "house": _house,
    "tower": _tower,
    "chance": sum,
    "maxi_yatzy": lambda d: 100 if len(d) == 6 and _all_alike(d) else 0,
}


# ------------------------------------------------------------ Yahtzee (§5)
def _any_run(runs, points):
    return lambda dice: points if any(set(r) <= set(dice) for r in runs) else 0


YAHTZEE = {
    **UPPER,
    "three_of_a_kind": lambda d: sum(d) if _faces_with(d, 3) else 0,     # sum of ALL five
    "four_of_a_kind": lambda d: sum(d) if _faces_with(d, 4) else 0,
    "full_house": lambda d: 25 if _three_and_two(d) else 0,
    "small_straight": _any_run(((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)), 30),
    "large_straight": _any_run(((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)), 40),
    "yahtzee": lambda d: 50 if len(d) == 5 and _all_alike(d) else 0,
    "chance": sum,
}

# A further yahtzee played as a joker: a lower box at full value, an upper box
# as usual (the matching one gets its points, the others 0).
YAHTZEE_JOKER = {
    **UPPER,
    "three_of_a_kind": sum,
    "four_of_a_kind": sum,
    "full_house": lambda d: 25,
    "small_straight": lambda d: 30,
    "large_straight": lambda d: 40,
    "yahtzee": lambda d: 50,
    "chance": sum,
}


# ------------------------------------------------------------ any box by its parameters
@lru_cache(maxsize=None)
def points(box, dice: tuple[int, ...]) -> int:
    """Points of ``dice`` in ``box`` (a ``yatzy.rules.boxes.Box``), read from its
    parameters only: upper = face times count; chance = sum; straight = its
    points when any of its runs is among the dice; groups = the best way to
    cut some ordering of the dice into groups of equal dice of the given sizes
    (of different faces unless ``distinct`` is false), scoring the dice in the
    groups, all dice (``sum_all``) or the fixed ``points``."""
    dice = tuple(sorted(dice))
    if box.kind is BoxKind.UPPER:
        return _upper(box.face)(dice)
    if box.kind is BoxKind.CHANCE:
        return sum(dice)
    if box.kind is BoxKind.STRAIGHT:
        return _any_run(box.runs, box.points)(dice)
    assert box.kind is BoxKind.GROUPS, box
    best = 0
    for order in set(permutations(dice)):
        cut, faces, ok = 0, [], True
        for size in box.groups:
            group = order[cut:cut + size]
            cut += size
            if len(group) < size or len(set(group)) != 1:
                ok = False
                break
            faces.append(group[0])
        if not ok or (box.distinct and len(set(faces)) < len(faces)):
            continue
        if box.points:
            return box.points
        best = max(best, sum(dice) if box.sum_all else sum(order[:cut]))
    return best


def joker_points(box, dice: tuple[int, ...]) -> int:
    """Points of all-alike ``dice`` in ``box`` played as a joker: the box
    counts as made (docs/rules.md, "American Yahtzee", "at full value"): fixed points, or the sum
    of the dice; an upper box scores as usual."""
    assert _all_alike(dice)
    if box.kind is BoxKind.UPPER:
        return points(box, dice)
    if box.points:
        return box.points
    if box.kind is BoxKind.CHANCE or box.sum_all:
        return sum(dice)
    raise NotImplementedError(f"the rules say nothing of {box.name} as a joker")


def counts(dice, faces=6):
    """Face counts of dice given as values: counts[f - 1] = dice showing f."""
    out = [0] * faces
    for d in dice:
        out[d - 1] += 1
    return tuple(out)


def sorted_rolls(dice, faces=6):
    """Every roll of ``dice`` dice as a sorted tuple (252 for 5 of 6 faces)."""
    from itertools import combinations_with_replacement
    return list(combinations_with_replacement(range(1, faces + 1), dice))


# ------------------------------------------------------------ a turn's end (§1, §3, §5)
def turn_end(scorer, dice, box, filled, upper, *, threshold, bonus, yahtzee_bonus=0,
             joker="none", scored_fifty=False, yahtzee_name="yahtzee", rerolls_left=0,
             bank_cap=0, saved_rolls=False):
    """What writing ``dice`` in the box named ``box`` does, from the rules
    text alone: ``(points, upper bonus, yahtzee bonus, upper total after)``
    plus the rolls banked, or None when the rules do not let the dice go
    there.  ``scorer``: the boxes by name (``NORDIC``, ``MAXI``,
    ``YAHTZEE``); ``filled``: the names of the filled boxes; ``upper``: the
    upper total so far, counted up to the threshold (only that matters);
    ``scored_fifty``: the yahtzee box holds 50.

    * the upper bonus comes the moment the upper total reaches the threshold
      (docs/rules.md, "Nordic Yatzy"): once, on the turn that reaches it;
    * a further yahtzee after a scored 50 earns the yahtzee bonus, and with
      the yahtzee box filled (50 or 0) it is a joker (§5): forced, the
      matching upper box if open, else any open lower box at full value,
      else any open upper box for 0; free (Verhoeff), the usual rules with
      the matching upper box open, else any open box, lower boxes at full
      value;
    * with saved rolls the rerolls left go to the bank (§3; ``bank_cap``: at
      most that many, 0 = no limit).
    """
    alike = _all_alike(dice)
    points = scorer[box](dice)
    if joker != "none" and alike and yahtzee_name in filled:
        match = UPPER_NAMES[dice[0] - 1]
        open_ = [name for name in scorer if name not in filled]
        lower = [name for name in open_ if name not in UPPER_NAMES]
        if joker == "forced":
            allowed = [match] if match in open_ else (lower or open_)
            if box not in allowed:
                return None
            points = YAHTZEE_JOKER[box](dice) if box not in UPPER_NAMES else points
        elif match not in open_:                              # free joker
            points = YAHTZEE_JOKER[box](dice) if box not in UPPER_NAMES else points
    extra = yahtzee_bonus if alike and scored_fifty else 0
    earned = 0
    if box in UPPER_NAMES and bonus:
        if upper < threshold <= upper + points:
            earned = bonus
        upper = min(upper + points, threshold)
    bank = (min(rerolls_left, bank_cap) if bank_cap else rerolls_left) if saved_rolls else 0
    return points, earned, extra, upper, bank
