"""A player's scorecard: which boxes are filled and with how many points.

Text form (the ``--card`` option): comma-separated ``box=points``, e.g.
``ones=3,two_pairs=18,yatzy=0``; empty means a fresh game.  Box names are the
English snake_case names or their Norwegian/Swedish aliases.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .errors import InputError
from .rules import Rules


@dataclass(frozen=True)
class Scorecard:
    """Points per box (``None`` = open), in the rules' box order."""

    rules: Rules
    points: tuple[int | None, ...]

    @classmethod
    def empty(cls, rules: Rules) -> "Scorecard":
        return cls(rules, (None,) * rules.n_boxes)

    @classmethod
    def parse(cls, text: str | None, rules: Rules) -> "Scorecard":
        """Parse ``box=points,...``; checks names, repeats, points and fill order."""
        points: list[int | None] = [None] * rules.n_boxes
        for item in filter(None, (p.strip() for p in (text or "").split(","))):
            name, eq, raw = item.partition("=")
            if not eq:
                raise InputError(f"card entry {item!r}: expected box=points")
            b = rules.box_index(name)
            if points[b] is not None:
                raise InputError(f"card: box {rules.boxes[b].name} given twice")
            try:
                value = int(raw.strip())
            except ValueError:
                raise InputError(f"card entry {item!r}: points must be a whole number") from None
            if value not in rules.box_points[b]:
                raise InputError(f"card: {rules.boxes[b].name}={value} is impossible "
                                 f"({rules.boxes[b].describe()})")
            points[b] = value
        card = cls(rules, tuple(points))
        if not rules.is_reachable(card.mask):
            raise InputError(f"card: these boxes cannot all be filled under {rules.order} "
                             f"order ({_order_hint(rules)})")
        return card

    def __str__(self) -> str:
        return ",".join(f"{b.name}={p}" for b, p in zip(self.rules.boxes, self.points)
                        if p is not None)

    # ------------------------------------------------------------ state
    @cached_property
    def mask(self) -> int:
        """Bitmask of the filled boxes (bit ``b`` = box ``b``)."""
        return sum(1 << b for b, p in enumerate(self.points) if p is not None)

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
        """Points on the card so far, bonus included."""
        return sum(p for p in self.points if p is not None) + self.bonus

    @property
    def is_full(self) -> bool:
        return all(p is not None for p in self.points)

    @property
    def turn(self) -> int:
        """Number of boxes filled so far."""
        return sum(p is not None for p in self.points)

    def allowed_boxes(self) -> list[int]:
        """Boxes that may be filled this turn (open, and allowed by the order)."""
        bits = int(self.rules.allowed_table[self.mask])
        return [b for b in range(self.rules.n_boxes) if bits >> b & 1]

    def fill(self, box: int, points: int) -> "Scorecard":
        if self.points[box] is not None:
            raise InputError(f"box {self.rules.boxes[box].name} is already filled")
        new = list(self.points)
        new[box] = points
        return Scorecard(self.rules, tuple(new))


def _order_hint(rules: Rules) -> str:
    if rules.order == "forced":
        return "boxes are filled top to bottom: " + ", ".join(b.name for b in rules.boxes)
    if rules.order == "upper_first":
        return "every upper box must be filled before any lower box"
    return "free"
