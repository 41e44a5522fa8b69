"""What writing a turn's dice in a box does: the one description of a turn's
end, for every rule set.

``score_turn(rules, state, box, dice)`` gives the points written (a joker's
points when the roll must be one), the upper bonus the turn earns, the
yahtzee bonus of a further yahtzee, the rolls banked after the turn and the
state the turn leads to.  ``upper_after`` and ``upper_bonus`` are its upper
bonus rule on arrays, for code that rebuilds many cards at once (logs,
exports).  The compiled kernels share one twin of this module,
``yatzy.kernels.scoring`` (``tests/position/test_scoring.py`` checks the two
against each other and against an oracle written from the rules text).

A state is ``CardState(mask, upper, bank)``, the turn-start state of
``yatzy.space``: ``mask`` the filled boxes (bit ``b``) plus the flag bit
once the yatzy box holds its points under a yahtzee bonus, ``upper`` the
upper total capped at the bonus threshold (``Rules.cap``), ``bank`` the rolls
banked (saved rolls).  With several columns, ``state`` is one column's card
and ``column`` (from 0) says which: that column's points count
``column + 1`` times (``Scored.weight``).

>>> from yatzy.rules.ruleset import parse_rules
>>> nordic = parse_rules("nordic")
>>> s = score_turn(nordic, CardState(0b11110, 52), nordic.box_index("ones"), (1, 1, 1, 5, 6))
>>> s.points, s.upper_bonus, s.gain, s.after
(3, 0, 3, CardState(mask=31, upper=55, bank=0))
>>> s = score_turn(nordic, CardState(0b11110, 60), 0, (1, 1, 1, 5, 6))
>>> s.upper_bonus, s.gain, s.after.upper
(50, 53, 63)
>>> yahtzee = parse_rules("yahtzee")
>>> flag = 1 << yahtzee.n_boxes          # the yahtzee box holds its 50
>>> s = score_turn(yahtzee, CardState(1 << 11 | flag | 0b100000, 0),
...                yahtzee.box_index("large_straight"), (6, 6, 6, 6, 6))
>>> s.joker, s.points, s.yahtzee_bonus, s.gain
(True, 40, 100, 140)
>>> score_turn(nordic, CardState(1, 0), 0, (1, 2, 3, 4, 5))
Traceback (most recent call last):
    ...
yatzy.errors.InputError: box ones is already filled
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from yatzy.errors import InputError
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space


class CardState(NamedTuple):
    """A turn-start state (the module docstring): filled boxes and flag bit,
    capped upper total, rolls banked."""

    mask: int
    upper: int
    bank: int = 0


class Scored(NamedTuple):
    """What scoring a turn does (``score_turn``).

    * ``points``         written in the box (a joker's points as a joker)
    * ``upper_bonus``    the upper bonus this turn earns: ``bonus_points``
      when the upper total reaches the threshold now, else 0
    * ``yahtzee_bonus``  the bonus of a further yahtzee (0 if none)
    * ``joker``          whether the roll had to be played as a joker
    * ``after``          the state the turn leads to (``CardState``)
    * ``weight``         what the column's points count (1 with one column)
    """

    points: int
    upper_bonus: int
    yahtzee_bonus: int
    joker: bool
    after: CardState
    weight: int = 1

    @property
    def gain(self) -> int:
        """The points the turn adds to its column: box, upper bonus, yahtzee bonus."""
        return self.points + self.upper_bonus + self.yahtzee_bonus

    @property
    def weighted(self) -> int:
        """``gain`` as it counts in the final score (times the column's weight)."""
        return self.weight * self.gain


def upper_after(rules: Rules, box, upper, points):
    """``(upper total after, upper bonus earned)`` of writing ``points`` in
    ``box`` at capped upper total ``upper`` (scalars or arrays alike): an
    upper box adds its points, capped at the threshold, and earns the bonus
    when the total reaches it now; other boxes change neither.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> r = parse_rules("nordic")
    >>> upper_after(r, np.array([5, 5, 6]), np.array([58, 63, 58]), np.array([10, 10, 10]))
    (array([63, 63, 58]), array([50,  0,  0]))
    """
    box, upper, points = np.asarray(box), np.asarray(upper), np.asarray(points)
    up = rules.is_upper[box] & (rules.cap > 0)
    new = np.where(up, np.minimum(upper + points, rules.cap), upper)
    bonus = np.where(up & (upper < rules.cap) & (upper + points >= rules.cap),
                     rules.bonus_points, 0)
    if new.ndim == 0:
        return int(new), int(bonus)
    return new, bonus


def upper_bonus(rules: Rules, upper):
    """The upper bonus of a card whose upper boxes hold ``upper`` points in
    all (capped or not; scalars or arrays alike).

    >>> from yatzy.rules.ruleset import parse_rules
    >>> upper_bonus(parse_rules("forced"), np.array([41, 42, 70]))
    array([ 0, 50, 50])
    """
    out = np.where((rules.cap > 0) & (np.asarray(upper) >= rules.cap), rules.bonus_points, 0)
    return int(out) if out.ndim == 0 else out


def score_turn(rules: Rules, state: CardState, box: int, dice: Sequence[int] | None = None, *,
               points: int | None = None, rerolls_left: int = 0, column: int = 0) -> Scored:
    """Write the turn's ``dice`` (values, any order) in ``box`` (its index)
    at ``state``; ``rerolls_left``: the rerolls the turn did not use (saved
    rolls bank them).  With ``points`` instead of dice (a logged game) the
    roll is taken as not all alike: no joker, no yahtzee bonus.  Raises
    InputError for a box that may not be filled, dice that are not a roll,
    or points the box cannot hold."""
    one = rules.column_rules
    if not 0 <= column < rules.columns:
        raise InputError(f"column {column + 1}: expected 1..{rules.columns}")
    sp = state_space(one)
    if not 0 <= box < one.n_boxes:
        raise InputError(f"box {box}: expected 0..{one.n_boxes - 1}")
    name = one.boxes[box].name
    mask = int(state.mask)
    if mask >> box & 1:
        raise InputError(f"box {name} is already filled")
    if not int(sp.allowed(mask)) >> box & 1:
        raise InputError(f"box {name} may not be filled now (order {one.order})")
    joker = False
    bonus = 0
    if dice is not None:
        ds = one.dice_space
        if len(dice) != ds.n or any(not 1 <= int(d) <= ds.faces for d in dice):
            raise InputError(f"dice {tuple(dice)}: expected {ds.n} dice showing 1..{ds.faces}")
        r = ds.roll_index(tuple(int(d) for d in dice))
        face = int(one.yahtzee_face[r])
        jokers = int(sp.jokers(mask)[0, face]) if face >= 0 else 0
        if jokers:
            if not jokers >> box & 1:
                where = ", ".join(one.boxes[b].name for b in range(one.n_boxes) if jokers >> b & 1)
                raise InputError(f"a further yahtzee goes in {where} (joker), not {name}")
            joker = True
            points = int(one.joker_points[face, box])
        else:
            points = int(one.scores[r, box])
        if face >= 0 and mask & sp.flag_bit:
            bonus = one.yahtzee_bonus
    elif points is None:
        raise InputError("score_turn needs the dice or the points")
    elif int(points) not in one.box_points[box]:
        raise InputError(f"{points} points cannot be written in box {name}")
    points = int(points)
    filled = bin(mask & sp.full_mask).count("1")
    if not 0 <= rerolls_left <= state.bank + one.rolls - 1:
        raise InputError(f"rerolls left {rerolls_left}: expected 0..{state.bank + one.rolls - 1}")
    bank = min(rerolls_left, sp.bank_limit(filled + 1))
    upper, earned = upper_after(one, box, int(state.upper), points)
    return Scored(points, earned, bonus, joker,
                  CardState(sp.child_mask(mask, box, points), upper, bank), column + 1)


def bank_after(rules: Rules, rerolls: int) -> int:
    """Rolls banked when the turn stops with ``rerolls`` left."""
    if not rules.saved_rolls:
        return 0
    return min(rerolls, rules.bank_cap) if rules.bank_cap else rerolls
