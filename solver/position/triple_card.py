"""A Trippel-Yatzy card: one ``Scorecard`` per column.

Text form (``--card`` under ``--rules triple``): comma-separated
``BOX@COLUMN=POINTS`` with the points as written in that column, before the
column's multiplier, e.g. ``ones@1=3,yatzy@3=50,chance@2=23``; box names as
for one card (English, Norwegian, Swedish).  Each column is a full card of
``rules.column_rules`` (its own bonus and fill order); column ``c`` counts
``c`` times (``Rules.column_weights``).

    >>> from solver.rules.ruleset import parse_rules
    >>> card = TripleCard.parse("ones@1=3,yatzy@3=50,sjanse@2=23", parse_rules("triple"))
    >>> str(card), card.score, card.turn
    ('ones@1=3,chance@2=23,yatzy@3=50', 199, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import InputError
from solver.position.scorecard import Scorecard
from solver.rules.ruleset import Rules


@dataclass(frozen=True)
class TripleCard:
    """The columns' cards, column 1 first (``cards[c - 1]``)."""

    rules: Rules
    cards: tuple[Scorecard, ...]

    @classmethod
    def empty(cls, rules: Rules) -> "TripleCard":
        return cls(rules, (Scorecard.empty(rules.column_rules),) * rules.columns)

    @classmethod
    def parse(cls, text: str | None, rules: Rules) -> "TripleCard":
        """Parse ``BOX@COLUMN=POINTS,...``; each column is then checked as a
        card of its own (points, fill order)."""
        one = rules.column_rules
        items: list[list[str]] = [[] for _ in range(rules.columns)]
        seen: set[tuple[int, int]] = set()
        for item in filter(None, (p.strip() for p in (text or "").split(","))):
            name, eq, raw = item.partition("=")
            box, at, col = name.partition("@")
            if not eq:
                raise InputError(f"card entry {item!r}: expected BOX@COLUMN=POINTS")
            if not at:
                raise InputError(f"card entry {item!r}: name the column, e.g. "
                                 f"{box.strip()}@1={raw.strip()} (columns 1..{rules.columns})")
            try:
                c = int(col.strip())
            except ValueError:
                c = 0
            if not 1 <= c <= rules.columns:
                raise InputError(f"card entry {item!r}: column must be 1..{rules.columns}")
            b = one.box_index(box)
            if (c, b) in seen:
                raise InputError(f"card: box {one.boxes[b].name} given twice in column {c}")
            seen.add((c, b))
            items[c - 1].append(f"{box}={raw}")
        cards = []
        for c, entries in enumerate(items, 1):
            try:
                cards.append(Scorecard.parse(",".join(entries), one))
            except InputError as e:
                raise InputError(f"column {c}: {e}") from None
        return cls(rules, tuple(cards))

    def __str__(self) -> str:
        return ",".join(f"{b.name}@{c}={p}" for c, card in enumerate(self.cards, 1)
                        for b, p in zip(card.rules.boxes, card.points) if p is not None)

    # ------------------------------------------------------------ state
    @property
    def score(self) -> int:
        """Points so far, each column's (bonus included) times its weight."""
        return sum(w * card.score for w, card in zip(self.rules.column_weights, self.cards))

    @property
    def turn(self) -> int:
        """Boxes filled so far, all columns together."""
        return sum(card.turn for card in self.cards)

    @property
    def is_full(self) -> bool:
        return all(card.is_full for card in self.cards)

    @property
    def bank(self) -> int:
        return 0

    @property
    def upper_total(self) -> tuple[int, ...]:
        """Each column's upper total."""
        return tuple(card.upper_total for card in self.cards)

    @property
    def max_rerolls(self) -> int:
        return self.rules.rolls - 1

    def fill(self, column: int, box: int, points: int) -> "TripleCard":
        """The card after writing ``points`` in ``box`` of ``column`` (from 1)."""
        cards = list(self.cards)
        cards[column - 1] = cards[column - 1].fill(box, points)
        return TripleCard(self.rules, tuple(cards))
