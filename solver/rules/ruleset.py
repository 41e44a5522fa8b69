"""The game's description: dice, rolls, boxes, order, bonus, jokers, bank.

``Rules`` holds everything that changes the optimal strategy, and nothing
derived: the state space the engine works on (masks, layers, rows, upper
totals) is ``yatzy.space.state_space(rules)``.  What one roll scores in each
box is derived here (``scores``), since it belongs to the game, not to its
states.

A rules spec is ``PRESET[:key=value[,key=value...]]``, e.g.
``nordic:rolls=4`` or ``forced:bonus_threshold=63``.  Presets and keys are
declared once, below: each key knows its type, the presets that take it, how
to read its value from a rule set (its default is the preset's value) and how
to set it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Callable

import numpy as np

from yatzy.bounds import MAX_DIGITS, brief, check_text, check_whole, shown, whole_text
from yatzy.errors import InputError
from yatzy.rules.boxes import HOUSE_RULES, MAXI, YAHTZEE, Box, BoxKind, nordic_boxes
from yatzy.rules.dice import DiceSpace, dice_space
from yatzy.rules.play import Play, play_of

MAX_FIELD = 1 << 20     # no number of a rule set is larger (the tables are sized before a solve)


class Order(StrEnum):
    """Which open boxes may be filled (docs/rules.md, "The order of the boxes")."""

    FREE = "free"
    FORCED = "forced"                  # top to bottom in scorecard order
    UPPER_FIRST = "upper_first"        # the upper boxes first, in any order


class Joker(StrEnum):
    """Where a further roll of all dice alike may go under American rules."""

    NONE = "none"
    FORCED = "forced"                  # official: upper box, else lower, else upper for 0
    FREE = "free"                      # Verhoeff's free choice


def _enum(kind: type[StrEnum], name: str, value: object) -> StrEnum:
    try:
        return kind(value)
    except ValueError:
        raise InputError(f"{name} {brief(value)}: expected one of "
                         f"{', '.join(m.value for m in kind)}") from None


@dataclass(frozen=True)
class Rules:
    """One game variant.  Build it with ``Rules.parse(spec)`` or directly
    (``order`` and ``joker`` also take their names as strings)."""

    name: str
    boxes: tuple[Box, ...]
    dice: int = 5
    faces: int = 6
    rolls: int = 3
    bonus_threshold: int = 63
    bonus_points: int = 50
    order: Order = Order.FREE
    yahtzee_bonus: int = 0
    joker: Joker = Joker.NONE
    saved_rolls: bool = False
    bank_cap: int = 0
    columns: int = 1                   # full cards per player; column c counts c times
    settings: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def __post_init__(self):
        object.__setattr__(self, "order", _enum(Order, "order", self.order))
        object.__setattr__(self, "joker", _enum(Joker, "joker", self.joker))
        if not 1 <= self.rolls <= 9:
            raise InputError(f"rolls={self.rolls}: expected 1..9 rolls per turn")
        for name in ("dice", "faces", "rolls", "bonus_threshold", "bonus_points",
                     "yahtzee_bonus", "bank_cap", "columns"):
            check_whole(getattr(self, name), name, None, MAX_FIELD)
        if self.bonus_threshold < 0:
            raise InputError(f"bonus_threshold={self.bonus_threshold}: must be >= 0")
        if not 1 <= len(self.boxes) <= 24:
            raise InputError(f"{len(self.boxes)} boxes: expected 1..24")
        if any(b.is_upper and not 1 <= b.face <= self.faces for b in self.boxes):
            raise InputError("an upper box counts a face the dice do not have")
        if len({b.name for b in self.boxes}) != len(self.boxes):
            raise InputError("two boxes share a name")
        if not 0 <= self.bank_cap <= 60:
            raise InputError(f"bank_cap={self.bank_cap}: expected 0 (no limit) or 1..60")
        if self.saved_rolls and self.yahtzee_bonus:
            raise InputError("saved rolls and a yahtzee bonus cannot be combined")
        if (self.yahtzee_bonus or self.joker is not Joker.NONE) and self.yatzy_box < 0:
            raise InputError("a yahtzee bonus or joker needs a box for all dice equal")
        if not 1 <= self.columns <= 9:
            raise InputError(f"columns={self.columns}: expected 1..9 columns")
        if self.columns > 1 and (self.saved_rolls or self.yahtzee_bonus
                                 or self.joker is not Joker.NONE):
            raise InputError("several columns cannot be combined with saved rolls, "
                             "a yahtzee bonus or jokers")

    # ----------------------------------------------------------- naming
    @classmethod
    def parse(cls, spec: str) -> "Rules":
        """``Rules.parse("nordic:rolls=4")``; ``str(rules)`` gives the spec back."""
        return parse_rules(spec)

    @property
    def spec(self) -> str:
        """The spec that rebuilds these rules, e.g. ``nordic:rolls=4``."""
        if not self.settings:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.settings)

    def __str__(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"Rules.parse({self.spec!r})"

    def __hash__(self) -> int:
        # equal rules have equal fingerprints; hashing every box on each
        # cache lookup (kernel data, keep orders) would cost more than the lookup
        return hash(self.fingerprint)

    @cached_property
    def fingerprint(self) -> str:
        """Hash of every field of the description that changes the values:
        all fields but the names (``name``, ``settings``, box names and
        aliases), read from the dataclass itself, so that a new field always
        changes it."""
        def plain(v: Any) -> Any:
            if isinstance(v, Box):
                return {f.name: plain(getattr(v, f.name)) for f in fields(v)
                        if f.name not in ("name", "aliases")}
            if isinstance(v, tuple):
                return [plain(x) for x in v]
            return v.value if isinstance(v, StrEnum) else v

        desc = {f.name: plain(getattr(self, f.name)) for f in fields(self)
                if f.name not in ("name", "settings")
                and not (f.name == "columns" and self.columns == 1)}   # one-column tables keep theirs
        text = json.dumps(desc, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # ----------------------------------------------------- derived from the game
    @property
    def n_boxes(self) -> int:
        """Boxes of one column (card)."""
        return len(self.boxes)

    @cached_property
    def play(self) -> Play:
        """How these rules are played (``yatzy.rules.play``): one card,
        solved exactly, or several columns by the Trippel strategy."""
        return play_of(self.columns)

    @cached_property
    def column_rules(self) -> "Rules":
        """The rules of one column played alone (``columns = 1``): its exact
        table is what a several-column strategy reads (``yatzy.players.triple``).
        ``triple:order=forced`` gives ``nordic:order=forced``."""
        if self.columns == 1:
            return self
        return replace(self, name="nordic" if self.name == "triple" else f"{self.name}_column",
                       columns=1)

    @property
    def column_weights(self) -> tuple[int, ...]:
        """What each column's points count: column ``c`` (from 1) ``c`` times."""
        return tuple(range(1, self.columns + 1))

    @cached_property
    def yatzy_box(self) -> int:
        """Index of the box for all dice equal (fixed points), or -1."""
        for i, b in enumerate(self.boxes):
            if b.kind is BoxKind.GROUPS and b.groups == (self.dice,) and b.points:
                return i
        return -1

    @property
    def cap(self) -> int:
        """Upper totals are tracked up to this value (the bonus threshold)."""
        return self.bonus_threshold if self.bonus_points else 0

    @cached_property
    def dice_space(self) -> DiceSpace:
        return dice_space(self.dice, self.faces)

    @cached_property
    def upper_bits(self) -> int:
        return sum(1 << i for i, b in enumerate(self.boxes) if b.is_upper)

    @cached_property
    def is_upper(self) -> np.ndarray:
        return np.array([b.is_upper for b in self.boxes], dtype=np.bool_)

    @cached_property
    def scores(self) -> np.ndarray:
        """``scores[r, b]``: points of roll ``r`` in box ``b``."""
        rolls = self.dice_space.roll_counts()
        out = np.array([[b.score(tuple(c)) for b in self.boxes] for c in rolls], dtype=np.int64)
        out.setflags(write=False)
        return out

    @cached_property
    def box_points(self) -> tuple[frozenset[int], ...]:
        """The points each box can hold (0 included: any box may be scratched)."""
        return tuple(frozenset(self.scores[:, b].tolist()) | {0} for b in range(self.n_boxes))

    @cached_property
    def box_best(self) -> np.ndarray:
        """``box_best[b]``: the most points box ``b`` can hold (as a joker too)."""
        best = self.scores.max(axis=0)
        if self.joker is not Joker.NONE:
            best = np.maximum(best, self.joker_points.max(axis=0))
        return best

    @cached_property
    def max_score(self) -> int:
        """The most points a game can score: every box at its best (as a
        joker too), the bonus, and a yahtzee bonus in every turn but one."""
        return (int(self.box_best.sum()) + (self.bonus_points if self.cap > 0 else 0)
                + self.yahtzee_bonus * (self.n_boxes - 1))

    def box_index(self, name: str) -> int:
        """Index of the box called ``name`` (English name or an alias)."""
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        for i, b in enumerate(self.boxes):
            if key == b.name or key in b.aliases:
                return i
        raise InputError(f"unknown box {brief(name)} "
                         f"(boxes: {', '.join(b.name for b in self.boxes)})")

    def box(self, name: str) -> Box:
        """The box called ``name`` (English name or an alias)."""
        return self.boxes[self.box_index(name)]

    @cached_property
    def yahtzee_face(self) -> np.ndarray:
        """``yahtzee_face[r]``: face index (0-based) if roll ``r`` has all dice
        equal, else -1."""
        counts = self.dice_space.roll_counts()
        return np.where(counts.max(axis=1) == self.dice, counts.argmax(axis=1), -1)

    @cached_property
    def joker_points(self) -> np.ndarray:
        """``joker_points[f, b]``: points of all dice showing ``f + 1`` in box
        ``b`` played as a joker."""
        out = np.zeros((self.faces, self.n_boxes), dtype=np.int64)
        for f in range(self.faces):
            counts = tuple(self.dice if g == f else 0 for g in range(self.faces))
            out[f] = [b.joker_score(counts) for b in self.boxes]
        return out

    def describe(self) -> str:
        lines = [f"rules       {self.spec}  (fingerprint {self.fingerprint})",
                 f"dice        {self.dice} dice with {self.faces} faces, "
                 f"{self.rolls} rolls per turn",
                 f"bonus       {self.bonus_points} when the upper total reaches "
                 f"{self.bonus_threshold}",
                 f"order       {self.order}"]
        if self.play.names_columns:
            lines.insert(1, f"columns     {self.columns} full cards, each turn fills one open box "
                            "in any column; column c counts c times (its bonus too); order "
                            "and bonus apply within each column; cards name boxes BOX@COLUMN")
        if self.yatzy_box >= 0 and (self.yahtzee_bonus or self.joker is not Joker.NONE):
            lines.append(f"yahtzee     bonus {self.yahtzee_bonus or 'none'} per further "
                         f"yahtzee, joker {self.joker}")
        if self.saved_rolls:
            cap = (f"at most {self.bank_cap}" if self.bank_cap else
                   f"no limit; at most {self.rolls - 1} more per turn")
            lines.append(f"saved rolls unused rolls are banked for later turns ({cap})")
        lines.append("boxes")
        for b in self.boxes:
            lines.append(f"  {b.name:<16} {b.describe()}")
        return "\n".join(lines)


# ------------------------------------------------------------------ presets
@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    build: Callable[[], Rules]


PRESETS = {p.name: p for p in (
    Preset("nordic", "Nordic Yatzy, free order",
           lambda: Rules("nordic", nordic_boxes())),
    Preset("forced", "Nordic Yatzy, top-to-bottom order, bonus at 42",
           lambda: Rules("forced", nordic_boxes(), order=Order.FORCED, bonus_threshold=42)),
    Preset("upper_first", "Nordic Yatzy, upper boxes first (any order), then the lower",
           lambda: Rules("upper_first", nordic_boxes(), order=Order.UPPER_FIRST)),
    Preset("yahtzee", "American Yahtzee: 13 boxes, bonus 35 at 63, yahtzee bonus 100, "
                      "forced joker",
           lambda: Rules("yahtzee", YAHTZEE, bonus_points=35, yahtzee_bonus=100,
                         joker=Joker.FORCED)),
    Preset("maxi", "Maxi Yatzy: six dice, 20 boxes, four rolls, bonus 100 at 84, saved rolls",
           lambda: Rules("maxi", MAXI, dice=6, rolls=4, bonus_threshold=84, bonus_points=100,
                         saved_rolls=True)),
    Preset("triple", "Trippel-Yatzy: three Nordic columns, column c counts c times, 45 turns",
           lambda: Rules("triple", nordic_boxes(), columns=3)),
)}
NORDIC_LIKE = ("nordic", "forced", "upper_first", "triple")


# ------------------------------------------------------------------ keys
def _switch_box(name: str) -> tuple[Callable[[Rules], bool], Callable[[Rules, bool], Rules]]:
    """Read and set the house-rule switch ``name`` (``boxes.HOUSE_RULES``)."""
    switch = HOUSE_RULES[name]
    return (lambda rules: switch.read(rules.boxes),
            lambda rules, on: replace(rules, boxes=switch.write(rules.boxes, on)))


def _field(name: str) -> tuple[Callable[[Rules], Any], Callable[[Rules, Any], Rules]]:
    return (lambda rules: getattr(rules, name)), (lambda rules, v: replace(rules, **{name: v}))


@dataclass(frozen=True)
class Key:
    """One ``key=value`` of a rules spec: its type, the presets that take it,
    what it means, and how to read it from and write it into a rule set (the
    default is the preset's own value)."""

    name: str
    type: type
    presets: tuple[str, ...]
    help: str
    read: Callable[[Rules], Any]
    write: Callable[[Rules, Any], Rules]

    def default(self, preset: str) -> str:
        return _fmt(self.read(PRESETS[preset].build()))

    @property
    def type_name(self) -> str:
        if issubclass(self.type, StrEnum):
            return " | ".join(m.value for m in self.type)
        return self.type.__name__

    def convert(self, spec: str, raw: str) -> Any:
        """The value of ``raw`` as this key's type; InputError if it is not one."""
        if self.type is bool:
            if raw.lower() in ("true", "yes", "1", "on"):
                return True
            if raw.lower() in ("false", "no", "0", "off"):
                return False
            raise InputError(f"rules {brief(spec, 60)}: {self.name} must be true or false, "
                             f"not {brief(raw)}")
        if self.type is int:
            try:
                return whole_text(raw, self.name)
            except InputError:
                raise InputError(f"rules {shown(spec, 60)}: {self.name} must be a whole "
                                 f"number of at most {MAX_DIGITS} digits, not {shown(raw)}"
                                 ) from None
        try:
            return self.type(raw.lower())
        except ValueError:
            raise InputError(f"rules {brief(spec, 60)}: {self.name} must be one of "
                             f"{self.type_name}, not {brief(raw)}") from None


ALL = tuple(PRESETS)
KEYS = {k.name: k for k in (
    Key("order", Order, NORDIC_LIKE, "which open boxes may be filled", *_field("order")),
    Key("bonus_threshold", int, ALL, "upper total that earns the bonus",
        *_field("bonus_threshold")),
    Key("rolls", int, ALL, "rolls per turn", *_field("rolls")),
    *(Key(h.name, bool, NORDIC_LIKE, h.help, *_switch_box(h.name)) for h in HOUSE_RULES.values()),
    Key("joker", Joker, ("yahtzee",), "where a further yahtzee may go", *_field("joker")),
    Key("yahtzee_bonus", bool, ("yahtzee",), "100 for each further yahtzee after a scored 50",
        lambda rules: rules.yahtzee_bonus > 0,
        lambda rules, on: replace(rules, yahtzee_bonus=100 if on else 0)),
    Key("saved_rolls", bool, ("maxi",), "rolls a turn leaves unused are banked for later turns",
        *_field("saved_rolls")),
    Key("bank_cap", int, ("maxi",), "most rolls the bank may hold, 0 = no limit (the rule); "
                                    "rolls beyond the cap are lost", *_field("bank_cap")),
)}


def parse_rules(spec: str) -> Rules:
    """Build rules from ``PRESET[:key=value,...]``; raises InputError (and
    ``yatzy.bounds.WrongType``, a TypeError, for a spec that is not text).
    The bonus threshold may be at most the rules' largest score."""
    preset, _, rest = check_text(spec, "rules").strip().partition(":")
    preset = preset.strip().lower()
    if preset not in PRESETS:
        raise InputError(f"unknown rules preset {brief(preset)}: expected one of "
                         f"{', '.join(PRESETS)}")
    settings: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        name, eq, raw = item.partition("=")
        name, raw = name.strip().lower(), raw.strip()
        if not eq or not raw:
            raise InputError(f"rules {brief(spec, 60)}: {brief(item)} is not key=value")
        if name not in KEYS:
            raise InputError(f"rules {brief(spec, 60)}: unknown key {brief(name)}")
        key = KEYS[name]
        if preset not in key.presets:
            raise InputError(f"rules {brief(spec, 60)}: key {brief(name)} does not apply "
                             f"to {preset}")
        if name in settings:
            raise InputError(f"rules {brief(spec, 60)}: key {brief(name)} given twice")
        settings[name] = key.convert(spec, raw)
    rules = PRESETS[preset].build()
    try:
        for name in KEYS:                      # in declaration order: one canonical spec
            if name in settings:
                rules = KEYS[name].write(rules, settings[name])
    except InputError as e:
        raise InputError(f"rules {brief(spec, 60)}: {e}") from None
    if rules.bonus_threshold > rules.max_score:
        raise InputError(f"rules {shown(spec, 60)}: bonus_threshold={rules.bonus_threshold} is "
                         f"more than a game can score ({rules.max_score})")
    canonical = tuple((k, _fmt(settings[k])) for k in KEYS if k in settings)
    return replace(rules, settings=canonical)


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    return v.value if isinstance(v, StrEnum) else str(v)
