"""A player's scorecard: which boxes are filled and with how many points,
in one column or several (``Rules.columns``, Trippel-Yatzy's three).

Text form (the ``--card`` option): comma-separated ``box=points``, e.g.
``ones=3,two_pairs=18,yatzy=0``; empty means a fresh game.  Box names are the
English snake_case names or their Norwegian/Swedish aliases.  Under rules with
a yahtzee bonus, ``yahtzee_bonus=N`` gives the bonus points earned so far;
with saved rolls, ``bank=N`` the rolls banked.

With several columns each entry names its column, ``BOX@COLUMN=POINTS``,
with the points as written in that column (before its multiplier)::

    >>> from yatzy.rules.ruleset import parse_rules
    >>> card = Scorecard.parse("ones@1=3,yatzy@3=50,sjanse@2=23", parse_rules("triple"))
    >>> str(card), card.score, card.turn
    ('ones@1=3,chance@2=23,yatzy@3=50', 199, 3)
    >>> [column.score for column in card.columns]
    [3, 23, 50]

Each column is a card of ``rules.column_rules`` (its own upper bonus and
fill order); column ``c`` counts ``c`` times (``Rules.column_weights``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from yatzy.bounds import WrongType, check_text, shown, whole_text
from yatzy.errors import InputError
from yatzy.position.scoring import bank_after, upper_bonus
from yatzy.rules.grammar import box_named, cut, names_lang
from yatzy.rules.ruleset import Joker, Order, Rules
from yatzy.rules.words import box_name, message
from yatzy.space import state_space


@dataclass(frozen=True)
class Scorecard:
    """Points per box (``None`` = open), in the rules' box order; with
    several columns column 1's boxes first, then column 2's, ...
    (``columns`` gives each column as a card of its own)."""

    rules: Rules
    points: tuple[int | None, ...]
    yahtzee_bonus: int = 0          # yahtzee bonus points earned so far
    bank: int = 0                   # rolls saved for later turns (saved-rolls rules)

    @classmethod
    def empty(cls, rules: Rules) -> "Scorecard":
        return cls(rules, (None,) * (rules.n_boxes * rules.columns))

    @classmethod
    def parse(cls, text: str | None, rules: Rules) -> "Scorecard":
        """Parse ``box=points,...`` (``BOX@COLUMN=POINTS,...`` where the
        rules name columns, ``Rules.play``); each column is then checked as
        a card of ``rules.column_rules`` (names, repeats, points, fill order)."""
        if not isinstance(rules, Rules):
            raise WrongType(f"rules must be a Rules, not {type(rules).__name__}")
        play = rules.play
        form = "BOX@COLUMN=POINTS" if play.names_columns else "box=points"
        items: list[list[str]] = [[] for _ in range(rules.columns)]
        seen: set[tuple[int, str]] = set()
        entries = list(filter(None, (p.strip() for p in check_text(text, "card", optional=True)
                                     .split(","))))
        lang = card_lang(entries, rules)
        for item in entries:
            name, eq, raw = item.partition("=")
            if not eq:
                raise InputError(f"card entry {shown(item, 40)}: expected {form}")
            box, at, col = name.partition("@") if play.names_columns else (name, "", "")
            if not at:
                if play.names_columns:
                    raise InputError(f"card entry {shown(item, 40)}: name the column, e.g. "
                                     f"{box.strip()}@1={raw.strip()} (columns 1..{rules.columns})")
                col = "1"
            c = _column_number(col)
            if not 1 <= c <= rules.columns:
                raise InputError(f"card entry {shown(item, 40)}: column must be "
                                 f"1..{rules.columns}")
            if play.names_columns:
                one = rules.column_rules
                b = box_index(one, box, lang)
                if (c, one.boxes[b].name) in seen:
                    raise InputError(f"card: box {one.boxes[b].name} given twice in column {c}")
                seen.add((c, one.boxes[b].name))
            items[c - 1].append(item if not at else f"{box}={raw}")
        parts = []
        for c, entries in enumerate(items, 1):
            try:
                parts.append(_parse_column(entries, rules.column_rules, lang))
            except InputError as e:
                raise InputError(f"column {c}: {e}" if play.names_columns else str(e)) from None
        return cls(rules, sum((p.points for p in parts), ()),
                   sum(p.yahtzee_bonus for p in parts), sum(p.bank for p in parts))

    def __str__(self) -> str:
        tag = self.rules.play.tag
        items = [f"{b.name}{tag(c)}={p}" for c, card in enumerate(self.columns, 1)
                 for b, p in zip(card.rules.boxes, card.points) if p is not None]
        if self.yahtzee_bonus:
            items.append(f"yahtzee_bonus={self.yahtzee_bonus}")
        if self.bank:
            items.append(f"bank={self.bank}")
        return ",".join(items)

    # ------------------------------------------------------------ columns
    @cached_property
    def columns(self) -> tuple["Scorecard", ...]:
        """Each column as a card of ``rules.column_rules``, column 1 first
        (one column: a card equal to this one)."""
        rules = self.rules
        nb = rules.n_boxes
        return tuple(Scorecard(rules.column_rules, self.points[c * nb:(c + 1) * nb],
                               self.yahtzee_bonus, self.bank)
                     for c in range(rules.columns))

    def column(self, c: int) -> "Scorecard":
        """Column ``c`` (from 1) as a card of its own."""
        return self.columns[c - 1]

    def _one_column(self, what: str) -> None:
        if len(self.columns) > 1:
            raise ValueError(f"a card of {self.rules.columns} columns has no single {what}: "
                             "ask card.columns[c] (or card.column(c))")

    # ------------------------------------------------------------ state
    @cached_property
    def mask(self) -> int:
        """Bitmask of the filled boxes (bit ``b`` = box ``b``), plus the rules'
        flag bit once the yatzy box holds its points (one column only)."""
        self._one_column("mask")
        mask = sum(1 << b for b, p in enumerate(self.points) if p is not None)
        y = self.rules.yatzy_box
        return mask | (state_space(self.rules).flag_bit if y >= 0 and self.points[y] else 0)

    @cached_property
    def upper_totals(self) -> tuple[int, ...]:
        """The points in the upper boxes of each column, column 1 first."""
        boxes = self.rules.boxes
        return tuple(sum(p for b, p in zip(boxes, card.points) if p is not None and b.is_upper)
                     for card in self.columns)

    @property
    def upper_total(self) -> int | tuple[int, ...]:
        """The points in the upper boxes (where the rules name columns:
        each column's, ``upper_totals``)."""
        return self.upper_totals if self.rules.play.names_columns else self.upper_totals[0]

    @property
    def upper_state(self) -> int:
        """The upper total as the engine tracks it (capped at the threshold;
        one column only)."""
        self._one_column("upper state")
        return min(self.upper_totals[0], self.rules.cap)

    @property
    def bonus(self) -> int:
        """Bonus points already earned: each column's upper bonus times its
        weight (the engine's rule, ``position.scoring``)."""
        return sum(w * upper_bonus(self.rules, u)
                   for w, u in zip(self.rules.column_weights, self.upper_totals))

    @property
    def score(self) -> int:
        """Points on the card so far, bonuses included: each column's points
        (its bonus included) times its weight."""
        nb = self.rules.n_boxes
        points = (sum(p for p in self.points[c * nb:(c + 1) * nb] if p is not None)
                  for c in range(self.rules.columns))
        return (sum(w * p for w, p in zip(self.rules.column_weights, points)) + self.bonus
                + self.yahtzee_bonus)

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
        """Boxes that may be filled this turn (open, and allowed by the order;
        one column only: ``allowed`` names the column too)."""
        self._one_column("list of allowed boxes")
        bits = int(state_space(self.rules).allowed(self.mask))
        return [b for b in range(self.rules.n_boxes) if bits >> b & 1]

    def allowed(self) -> list[tuple[int, int]]:
        """``(column, box)`` of every box that may be filled this turn, the
        column from 1, column 1's boxes first."""
        return [(c, b) for c, card in enumerate(self.columns, 1) for b in card.allowed_boxes()]

    def fill(self, box: int, points: int, yahtzee_bonus: int = 0,
             bank: int | None = None, *, column: int = 1) -> "Scorecard":
        """The card after writing ``points`` in ``box`` of ``column`` (from
        1; and earning a yahtzee bonus; with saved rolls, ``bank`` is the
        bank the turn leaves)."""
        if not 1 <= column <= self.rules.columns:
            raise InputError(f"column {column}: expected 1..{self.rules.columns}")
        at = (column - 1) * self.rules.n_boxes + box
        if self.points[at] is not None:
            raise InputError(f"box {self.rules.boxes[box].name}{self.rules.play.of_column(column)} "
                             "is already filled")
        new = list(self.points)
        new[at] = points
        return Scorecard(self.rules, tuple(new), self.yahtzee_bonus + yahtzee_bonus,
                         self.bank if bank is None else bank)


def card_lang(entries: list[str], rules: Rules) -> str:
    """The language of a card's box names (``grammar.names_lang``): the one
    its unknown names are answered in."""
    return names_lang([e.partition("=")[0].partition("@")[0] for e in entries], rules)


def box_index(rules: Rules, name: str, lang: str = "en") -> int:
    """The box of ``rules`` a card calls ``name``: its English name or an
    alias (``Rules.box_index``), or any of its names in any language, as a
    score pad takes them (``2 par``, ``kåk``); else one line naming the
    boxes in ``lang``.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> nordic = parse_rules("nordic")
    >>> box_index(nordic, "2 par"), box_index(nordic, "two_pairs")
    (7, 7)
    >>> box_index(nordic, "sju", "nb")
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: ukjent boks 'sju' (bokser: enere, toere, treere, firere, ...
    """
    try:
        return rules.box_index(name)
    except InputError:
        found = box_named(name, rules)
        if found is not None:
            return found
        if lang == "en":
            raise
    names = ", ".join(box_name(b.name, lang) for b in rules.boxes)
    raise InputError(f"{message('unknown_box', lang, name=cut(name.strip()))} "
                     f"({message('box_names', lang, names=names)})")


def _parse_column(entries: list[str], rules: Rules, lang: str = "en") -> Scorecard:
    """The card of one column from its ``box=points`` entries (and, under
    rules that have them, ``yahtzee_bonus=N`` and ``bank=N``); an unknown
    box is answered in ``lang``."""
    points: list[int | None] = [None] * rules.n_boxes
    extra = None
    bank = None
    for item in entries:
        name, _, raw = item.partition("=")
        try:
            value = whole_text(raw, "points")
        except InputError:
            raise InputError(f"card entry {shown(item, 40)}: points must be a whole number "
                             "of at most 18 digits") from None
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
        b = box_index(rules, name, lang)
        if points[b] is not None:
            raise InputError(f"card: box {rules.boxes[b].name} given twice")
        if value not in rules.box_points[b]:
            raise InputError(f"card: {rules.boxes[b].name}={value} is impossible "
                             f"({rules.boxes[b].describe()})")
        points[b] = value
    if extra:
        per, held = rules.yahtzee_bonus, points[rules.yatzy_box]
        if extra < 0 or extra % per or not held or extra // per > bonus_places(rules, points):
            raise InputError(f"card: yahtzee_bonus={extra} is impossible (multiples of "
                             f"{per}, one per further yahtzee after a scored "
                             f"{rules.boxes[rules.yatzy_box].name}, each written in a "
                             f"box as five alike: this card has "
                             f"{bonus_places(rules, points)} such box(es))")
    card = Scorecard(rules, tuple(points), extra or 0, bank or 0)
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


def bonus_places(rules: Rules, points: tuple[int | None, ...] | list[int | None]) -> int:
    """How many filled boxes of a one-column card could hold a further
    yahtzee: boxes the order lets be filled after the yatzy box, holding
    points that all dice alike make there (as they are, or as a joker).

    >>> from yatzy.rules.ruleset import parse_rules
    >>> yahtzee = parse_rules("yahtzee")
    >>> bonus_places(yahtzee, Scorecard.parse("yahtzee=50,chance=29", yahtzee).points)
    0
    >>> bonus_places(yahtzee, Scorecard.parse("yahtzee=50,chance=30,fours=0", yahtzee).points)
    2
    """
    y = rules.yatzy_box
    alike = rules.yahtzee_face >= 0
    lower_yatzy = not rules.boxes[y].is_upper
    places = 0
    for b, p in enumerate(points):
        if p is None or b == y:
            continue
        if rules.order is Order.FORCED and b < y:
            continue                     # filled before the yatzy box
        if rules.order is Order.UPPER_FIRST and lower_yatzy and rules.boxes[b].is_upper:
            continue
        made = set(rules.scores[alike, b].tolist())
        if rules.joker is not Joker.NONE:
            made |= set(rules.joker_points[:, b].tolist())
        places += p in made
    return places


def _column_number(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        return 0


def _order_hint(rules: Rules) -> str:
    if rules.order is Order.FORCED:
        return "boxes are filled top to bottom: " + ", ".join(b.name for b in rules.boxes)
    if rules.order is Order.UPPER_FIRST:
        return "every upper box must be filled before any lower box"
    return "free"


def end_turn(card: Scorecard, box: int, points: int, dice: tuple[int, ...],
             rerolls: int, column: int = 1) -> Scorecard:
    """The card after scoring ``dice`` as ``points`` in ``box`` (of
    ``column``, from 1) with ``rerolls`` left: a yahtzee bonus if all dice
    are alike after a scored yahtzee, and (saved rolls) the rerolls left
    banked.  (Rules of several columns have neither.)"""
    rules = card.rules
    own = card.column(column)
    alike = own.mask & state_space(own.rules).flag_bit and len(set(dice)) == 1
    return card.fill(box, points, rules.yahtzee_bonus if alike else 0,
                     bank_after(rules, rerolls), column=column)
