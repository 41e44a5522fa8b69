"""A player's scorecard: which boxes are filled and with how many points.

Text form (the ``--card`` option): comma-separated ``box=points``, e.g.
``ones=3,two_pairs=18,yatzy=0``; empty means a fresh game.  Box names are the
English snake_case names or their Norwegian/Swedish aliases.  Under rules with
a yahtzee bonus, ``yahtzee_bonus=N`` gives the bonus points earned so far;
with saved rolls, ``bank=N`` the rolls banked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from solver.errors import InputError
from solver.rules.ruleset import Order, Rules
from solver.space import state_space


@dataclass(frozen=True)
class Scorecard:
    """Points per box (``None`` = open), in the rules' box order."""

    rules: Rules
    points: tuple[int | None, ...]
    yahtzee_bonus: int = 0          # yahtzee bonus points earned so far
    bank: int = 0                   # rolls saved for later turns (saved-rolls rules)

    @classmethod
    def empty(cls, rules: Rules) -> "Scorecard":
        return cls(rules, (None,) * rules.n_boxes)

    @classmethod
    def parse(cls, text: str | None, rules: Rules) -> "Scorecard":
        """Parse ``box=points,...``; checks names, repeats, points and fill order."""
        points: list[int | None] = [None] * rules.n_boxes
        extra = None
        bank = None
        for item in filter(None, (p.strip() for p in (text or "").split(","))):
            name, eq, raw = item.partition("=")
            if not eq:
                raise InputError(f"card entry {item!r}: expected box=points")
            try:
                value = int(raw.strip())
            except ValueError:
                raise InputError(f"card entry {item!r}: points must be a whole number") from None
            if name.strip().lower() == "bank" and rules.saved_rolls:
                if bank is not None:
                    raise InputError("card: bank given twice")
                bank = value
                continue
            if name.strip().lower() == "yahtzee_bonus" and rules.yahtzee_bonus:
                if extra is not None:
                    raise InputError("card: yahtzee_bonus given twice")
                extra = value
                continue
            b = rules.box_index(name)
            if points[b] is not None:
                raise InputError(f"card: box {rules.boxes[b].name} given twice")
            if value not in rules.box_points[b]:
                raise InputError(f"card: {rules.boxes[b].name}={value} is impossible "
                                 f"({rules.boxes[b].describe()})")
            points[b] = value
        if extra:
            per, held = rules.yahtzee_bonus, points[rules.yatzy_box]
            filled = sum(p is not None for p in points)
            if extra < 0 or extra % per or not held or extra // per > filled - 1:
                raise InputError(f"card: yahtzee_bonus={extra} is impossible (multiples of "
                                 f"{per}, one per further yahtzee after a scored "
                                 f"{rules.boxes[rules.yatzy_box].name})")
        card = cls(rules, tuple(points), extra or 0, bank or 0)
        most = state_space(rules).bank_limit(card.turn)
        if not 0 <= card.bank <= most:
            raise InputError(f"card: bank={card.bank} is impossible with {card.turn} boxes "
                             f"filled (0..{most}: a turn banks at most {rules.rolls - 1} rolls"
                             + (f", the bank at most {rules.bank_cap}" if rules.bank_cap else "")
                             + ")")
        if not state_space(rules).is_reachable(card.mask):
            raise InputError(f"card: these boxes cannot all be filled under {rules.order} "
                             f"order ({_order_hint(rules)})")
        return card

    def __str__(self) -> str:
        items = [f"{b.name}={p}" for b, p in zip(self.rules.boxes, self.points) if p is not None]
        if self.yahtzee_bonus:
            items.append(f"yahtzee_bonus={self.yahtzee_bonus}")
        if self.bank:
            items.append(f"bank={self.bank}")
        return ",".join(items)

    # ------------------------------------------------------------ state
    @cached_property
    def mask(self) -> int:
        """Bitmask of the filled boxes (bit ``b`` = box ``b``), plus the rules'
        flag bit once the yatzy box holds its points."""
        mask = sum(1 << b for b, p in enumerate(self.points) if p is not None)
        y = self.rules.yatzy_box
        return mask | (state_space(self.rules).flag_bit if y >= 0 and self.points[y] else 0)

    @cached_property
    def upper_total(self) -> int:
        return sum(p for b, p in zip(self.rules.boxes, self.points) if p is not None and b.is_upper)

    @property
    def upper_state(self) -> int:
        """The upper total as the engine tracks it (capped at the threshold)."""
        return min(self.upper_total, self.rules.cap)

    @property
    def bonus(self) -> int:
        """Bonus points already earned."""
        r = self.rules
        return r.bonus_points if r.bonus_points and self.upper_total >= r.bonus_threshold else 0

    @property
    def score(self) -> int:
        """Points on the card so far, bonuses included."""
        return sum(p for p in self.points if p is not None) + self.bonus + self.yahtzee_bonus

    @property
    def is_full(self) -> bool:
        return all(p is not None for p in self.points)

    @property
    def max_rerolls(self) -> int:
        """Most rerolls the turn starting at this card can have: its own
        (``rolls - 1``) plus the rolls banked."""
        return self.rules.rolls - 1 + self.bank

    @property
    def turn(self) -> int:
        """Number of boxes filled so far."""
        return sum(p is not None for p in self.points)

    def allowed_boxes(self) -> list[int]:
        """Boxes that may be filled this turn (open, and allowed by the order)."""
        bits = int(state_space(self.rules).allowed(self.mask))
        return [b for b in range(self.rules.n_boxes) if bits >> b & 1]

    def fill(self, box: int, points: int, yahtzee_bonus: int = 0,
             bank: int | None = None) -> "Scorecard":
        """The card after writing ``points`` in ``box`` (and earning a yahtzee
        bonus; with saved rolls, ``bank`` is the bank the turn leaves)."""
        if self.points[box] is not None:
            raise InputError(f"box {self.rules.boxes[box].name} is already filled")
        new = list(self.points)
        new[box] = points
        return Scorecard(self.rules, tuple(new), self.yahtzee_bonus + yahtzee_bonus,
                         self.bank if bank is None else bank)


def _order_hint(rules: Rules) -> str:
    if rules.order is Order.FORCED:
        return "boxes are filled top to bottom: " + ", ".join(b.name for b in rules.boxes)
    if rules.order is Order.UPPER_FIRST:
        return "every upper box must be filled before any lower box"
    return "free"
