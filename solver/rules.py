"""A parametric description of a game, its presets and the ``--rules`` syntax.

``Rules`` holds everything that changes the optimal strategy: the dice, the
rolls per turn, the boxes with their scoring, the upper-section bonus and the
order in which boxes may be filled.  Everything the engine needs is derived
from it here as numpy arrays (scores per roll and box, which boxes may be
filled in each state, which states can be reached).

A rules spec is ``PRESET[:key=value[,key=value...]]``, e.g.
``nordic:rolls=4`` or ``forced:bonus_threshold=63``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from math import comb

import numpy as np

from .boxes import MAXI, YAHTZEE, Box, nordic_boxes
from .dice import DiceSpace, dice_space
from .errors import InputError

ORDERS = ("free", "forced", "upper_first")
JOKERS = ("none", "forced", "free")


@dataclass(frozen=True)
class Rules:
    """One game variant.  Build it with ``Rules.parse(spec)`` or directly."""

    name: str
    boxes: tuple[Box, ...]
    dice: int = 5
    faces: int = 6
    rolls: int = 3
    bonus_threshold: int = 63
    bonus_points: int = 50
    order: str = "free"
    yahtzee_bonus: int = 0
    joker: str = "none"
    saved_rolls: bool = False
    bank_cap: int = 0
    settings: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def __post_init__(self):
        if self.order not in ORDERS:
            raise InputError(f"order {self.order!r}: expected one of {', '.join(ORDERS)}")
        if not 1 <= self.rolls <= 9:
            raise InputError(f"rolls={self.rolls}: expected 1..9 rolls per turn")
        if self.bonus_threshold < 0:
            raise InputError(f"bonus_threshold={self.bonus_threshold}: must be >= 0")
        if not 1 <= len(self.boxes) <= 24:
            raise InputError(f"{len(self.boxes)} boxes: expected 1..24")
        if any(b.is_upper and not 1 <= b.face <= self.faces for b in self.boxes):
            raise InputError("an upper box counts a face the dice do not have")
        if len({b.name for b in self.boxes}) != len(self.boxes):
            raise InputError("two boxes share a name")
        if self.joker not in JOKERS:
            raise InputError(f"joker {self.joker!r}: expected one of {', '.join(JOKERS)}")
        if not 0 <= self.bank_cap <= 60:
            raise InputError(f"bank_cap={self.bank_cap}: expected 0 (no limit) or 1..60")
        if self.saved_rolls and self.yahtzee_bonus:
            raise InputError("saved rolls and a yahtzee bonus cannot be combined")
        if (self.yahtzee_bonus or self.joker != "none") and self.yatzy_box < 0:
            raise InputError("a yahtzee bonus or joker needs a box for all dice equal")

    # ----------------------------------------------------------- naming
    @classmethod
    def parse(cls, spec: str) -> "Rules":
        return parse_rules(spec)

    @property
    def spec(self) -> str:
        """The spec that rebuilds these rules, e.g. ``nordic:rolls=4``."""
        if not self.settings:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.settings)

    def __str__(self) -> str:
        return self.spec

    def __hash__(self) -> int:
        # equal rules have equal fingerprints; hashing every box on each
        # cache lookup (kernel data, keep orders) would cost more than the lookup
        return hash(self.fingerprint)

    @cached_property
    def fingerprint(self) -> str:
        """Hash of everything that changes the values (not the names)."""
        desc = {
            "dice": self.dice, "faces": self.faces, "rolls": self.rolls,
            "bonus": [self.bonus_threshold, self.bonus_points], "order": self.order,
            "yahtzee_bonus": self.yahtzee_bonus, "joker": self.joker,
            "saved_rolls": self.saved_rolls, "bank_cap": self.bank_cap,
            "boxes": [{k: v for k, v in asdict(b).items() if k not in ("name", "aliases")}
                      for b in self.boxes],
        }
        text = json.dumps(desc, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # ----------------------------------------------------- derived data
    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    @property
    def full_mask(self) -> int:
        return (1 << self.n_boxes) - 1

    @cached_property
    def yatzy_box(self) -> int:
        """Index of the box for all dice equal (fixed points), or -1."""
        for i, b in enumerate(self.boxes):
            if b.kind == "groups" and b.groups == (self.dice,) and b.points:
                return i
        return -1

    @property
    def flag_bit(self) -> int:
        """State bit set once the yatzy box holds its points (0 when the rules
        need no such bit: it only matters for the yahtzee bonus)."""
        return 1 << self.n_boxes if self.yahtzee_bonus else 0

    def bank_limit(self, filled: int) -> int:
        """Most rolls banked at a turn start with ``filled`` boxes filled.

        Every turn rolls at least once, so it can add at most ``rolls - 1``
        to the bank: after ``filled`` turns the bank holds at most
        ``(rolls - 1) * filled``.  Tracking that many is exact, with no cap.
        """
        if not self.saved_rolls:
            return 0
        most = (self.rolls - 1) * filled
        return min(most, self.bank_cap) if self.bank_cap else most

    def layer_shape(self, filled: int) -> tuple[int, int, int]:
        """Shape of the values of one layer with saved rolls,
        ``[bank, rank of the mask among those with `filled` boxes, u]``."""
        return (self.bank_limit(filled) + 1, comb(self.n_boxes, filled), self.cap + 1)

    def mask_rank(self, masks: np.ndarray | int) -> np.ndarray:
        """Index of each mask among the masks with as many boxes filled, in
        increasing order (the combinatorial number system: the ``j``-th filled
        box from the lowest, ``c_j``, adds ``C(c_j, j)``)."""
        masks = np.asarray(masks, dtype=np.int64)
        rank = np.zeros(masks.shape, dtype=np.int64)
        seen = np.zeros(masks.shape, dtype=np.int64)
        binom = self._binomials
        for b in range(self.n_boxes):
            bit = masks >> b & 1
            seen += bit
            rank += bit * binom[b, seen]
        return rank

    @cached_property
    def _binomials(self) -> np.ndarray:
        """``_binomials[c, j] = C(c, j)``."""
        return np.array([[comb(c, j) for j in range(self.n_boxes + 1)]
                         for c in range(self.n_boxes)], dtype=np.int64)

    @cached_property
    def rows(self) -> np.ndarray:
        """``rows[mask]``: the row of a mask in stored values: its rank among
        the masks with as many boxes filled (values by layer, saved rolls),
        else the mask itself (see ``solver.values``)."""
        masks = np.arange(self.n_masks)
        return self.mask_rank(masks) if self.saved_rolls else masks

    def filled_count(self, masks: np.ndarray | int) -> np.ndarray:
        """Number of filled boxes of each mask (flag bit excluded)."""
        masks = np.asarray(masks, dtype=np.int64)
        return sum(masks >> b & 1 for b in range(self.n_boxes))

    @property
    def n_masks(self) -> int:
        """Size of the mask axis: box bits plus the flag bit if any."""
        return (1 << self.n_boxes) * (2 if self.flag_bit else 1)

    def child_mask(self, mask: int, box: int, points: int) -> int:
        """The mask after writing ``points`` in ``box``."""
        flag = self.flag_bit if box == self.yatzy_box and points > 0 else 0
        return mask | 1 << box | flag

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

    def box_index(self, name: str) -> int:
        """Index of the box called ``name`` (English name or an alias)."""
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        for i, b in enumerate(self.boxes):
            if key == b.name or key in b.aliases:
                return i
        raise InputError(f"unknown box {name!r} (boxes: {', '.join(b.name for b in self.boxes)})")

    def allowed(self, masks: np.ndarray) -> np.ndarray:
        """Bitmask of the boxes that may be filled next, for each filled-box mask."""
        masks = np.asarray(masks, dtype=np.int64) & self.full_mask
        open_ = ~masks & self.full_mask
        if self.order == "free":
            return open_
        if self.order == "forced":
            return open_ & (masks + 1)          # the lowest open box
        open_upper = open_ & self.upper_bits
        return np.where(open_upper != 0, open_upper, open_)

    @cached_property
    def allowed_table(self) -> np.ndarray:
        """``allowed_table[mask]``: ``allowed`` for every mask."""
        return self.allowed(np.arange(self.n_masks))

    @cached_property
    def _reachable(self) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        """Which masks can be reached from the empty card, and the reachable
        masks grouped (ascending) by the number of filled boxes."""
        masks = np.arange(self.n_masks)
        filled = self.filled_count(masks)
        order = np.argsort(filled, kind="stable")
        bounds = np.searchsorted(filled[order], np.arange(self.n_boxes + 2))
        reach = np.zeros(self.n_masks, dtype=bool)
        reach[0] = True
        allowed = self.allowed_table
        layers = []
        for p in range(self.n_boxes + 1):
            layer = order[bounds[p]:bounds[p + 1]]
            layer = layer[reach[layer]]
            layers.append(layer)
            for b in range(self.n_boxes):
                parents = layer[allowed[layer] >> b & 1 == 1]
                reach[parents | 1 << b] = True
                if b == self.yatzy_box and self.flag_bit:
                    reach[parents | 1 << b | self.flag_bit] = True
        return reach, tuple(layers)

    @property
    def layers(self) -> tuple[np.ndarray, ...]:
        """Reachable masks grouped by how many boxes are filled (ascending)."""
        return self._reachable[1]

    def is_reachable(self, mask: int) -> bool:
        """Whether some order of play fills exactly ``mask`` (a search back
        through the boxes that may have been filled last; no whole-game table)."""
        if not 0 <= mask < self.n_masks:
            return False
        seen: dict[int, bool] = {}

        def parent(m: int, b: int) -> int:
            """The mask before box ``b`` was filled (the flag goes with the yatzy box)."""
            return m & ~(1 << b) & ~(m & self.flag_bit if b == self.yatzy_box else 0)

        def back(m: int) -> bool:
            if m == 0:
                return True
            if m & self.flag_bit and not m >> self.yatzy_box & 1:
                return False                   # a flag without its box
            if m not in seen:
                seen[m] = any(m >> b & 1 and int(self.allowed(parent(m, b))) >> b & 1
                              and back(parent(m, b)) for b in range(self.n_boxes))
            return seen[m]

        return back(mask)

    @cached_property
    def upper_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per mask: the most the filled upper boxes can hold, and the most
        the open ones can still add (upper totals below ``cap`` minus the
        latter can no longer reach the bonus)."""
        best = self.scores.max(axis=0)
        masks = np.arange(self.n_masks)
        held = np.zeros(len(masks), dtype=np.int64)
        still = np.zeros(len(masks), dtype=np.int64)
        for b in range(self.n_boxes):
            if self.boxes[b].is_upper:
                filled = masks >> b & 1 == 1
                held += np.where(filled, best[b], 0)
                still += np.where(filled, 0, best[b])
        return held, still

    @cached_property
    def upper_lanes(self) -> np.ndarray:
        """``upper_lanes[mask]``: 1 + the largest tracked upper total reachable
        with these boxes filled (upper totals 0..lanes-1 are solved)."""
        return np.minimum(self.upper_bounds[0], self.cap) + 1

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

    @cached_property
    def joker_boxes(self) -> np.ndarray:
        """``jokers`` of every mask."""
        return self.jokers(np.arange(self.n_masks))

    def jokers(self, masks: np.ndarray | int) -> np.ndarray:
        """``jokers(masks)[i, f]``: boxes a roll of all ``f + 1`` may go in as
        a joker (bitmask), or 0 where the usual rules apply (no joker, the
        yatzy box still open, or a free joker whose upper box is open).

        Forced joker (official): the matching upper box if open, else a lower
        box at joker value, else any upper box (for 0).  Free choice joker
        (Verhoeff's reading): with the matching upper box open the usual rules
        apply; otherwise any open box, lower boxes at joker value."""
        masks = np.atleast_1d(np.asarray(masks, dtype=np.int64))
        out = np.zeros((len(masks), self.faces), dtype=np.int64)
        if self.joker == "none":
            return out
        active = masks >> self.yatzy_box & 1 == 1
        open_ = self.allowed(masks)
        upper = self.upper_bits
        lower = self.full_mask & ~upper
        for f in range(self.faces):
            match = open_ & sum(1 << b for b, box in enumerate(self.boxes)
                                if box.is_upper and box.face == f + 1)
            if self.joker == "forced":
                filled = np.where(open_ & lower, open_ & lower, open_ & upper)
                out[:, f] = np.where(active, np.where(match != 0, match, filled), 0)
            else:                   # 0 where the usual rules apply
                out[:, f] = np.where(active & (match == 0), open_, 0)
        return out

    @cached_property
    def lane_start(self) -> np.ndarray:
        """``lane_start[mask]``: the lowest upper total that needs solving.

        Below ``T - (most the open upper boxes can still add)`` the bonus is
        out of reach, so the upper total no longer matters: the engine solves
        one such total (this one) and copies its value to the ones below."""
        still = self.upper_bounds[1]
        return np.minimum(np.maximum(self.cap - still - 1, 0), self.upper_lanes - 1)

    def describe(self) -> str:
        lines = [f"rules       {self.spec}  (fingerprint {self.fingerprint})",
                 f"dice        {self.dice} dice with {self.faces} faces, "
                 f"{self.rolls} rolls per turn",
                 f"bonus       {self.bonus_points} when the upper total reaches "
                 f"{self.bonus_threshold}",
                 f"order       {self.order}"]
        if self.yatzy_box >= 0 and (self.yahtzee_bonus or self.joker != "none"):
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
NORDIC_LIKE = ("nordic", "forced", "upper_first")

PRESETS = {
    "nordic": ("Nordic Yatzy, free order",
               lambda: Rules("nordic", nordic_boxes())),
    "forced": ("Nordic Yatzy, top-to-bottom order, bonus at 42",
               lambda: Rules("forced", nordic_boxes(), order="forced", bonus_threshold=42)),
    "upper_first": ("Nordic Yatzy, upper boxes first (any order), then the lower",
                    lambda: Rules("upper_first", nordic_boxes(), order="upper_first")),
    "yahtzee": ("American Yahtzee: 13 boxes, bonus 35 at 63, yahtzee bonus 100, forced joker",
                lambda: Rules("yahtzee", YAHTZEE, bonus_points=35, yahtzee_bonus=100,
                              joker="forced")),
    "maxi": ("Maxi Yatzy: six dice, 20 boxes, four rolls, bonus 100 at 84, saved rolls",
             lambda: Rules("maxi", MAXI, dice=6, rolls=4, bonus_threshold=84, bonus_points=100,
                           saved_rolls=True)),
}

# key -> (type, presets it applies to, description)
KEYS = {
    "order": (str, NORDIC_LIKE, "free | forced | upper_first"),
    "bonus_threshold": (int, tuple(PRESETS), "upper total that earns the bonus"),
    "rolls": (int, tuple(PRESETS), "rolls per turn"),
    "five_alike_is_full_house": (bool, NORDIC_LIKE, "five equal dice also count as a full house"),
    "four_alike_is_two_pairs": (bool, NORDIC_LIKE, "four equal dice also count as two pairs"),
    "joker": (str, ("yahtzee",), "forced | free | none: where a further yahtzee may go"),
    "yahtzee_bonus": (bool, ("yahtzee",), "100 for each further yahtzee after a scored 50"),
    "saved_rolls": (bool, ("maxi",), "rolls a turn leaves unused are banked for later turns"),
    "bank_cap": (int, ("maxi",), "most rolls the bank may hold, 0 = no limit (the rule); "
                                 "rolls beyond the cap are lost"),
}


def parse_rules(spec: str) -> Rules:
    """Build rules from ``PRESET[:key=value,...]``; raises InputError."""
    preset, _, rest = spec.strip().partition(":")
    preset = preset.strip().lower()
    if preset not in PRESETS:
        raise InputError(f"unknown rules preset {preset!r}: expected one of {', '.join(PRESETS)}")
    rules = PRESETS[preset][1]()
    settings: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = item.partition("=")
        key, raw = key.strip().lower(), raw.strip()
        if not eq or not raw:
            raise InputError(f"rules {spec!r}: {item!r} is not key=value")
        if key not in KEYS:
            raise InputError(f"rules {spec!r}: unknown key {key!r}")
        kind, presets, _ = KEYS[key]
        if preset not in presets:
            raise InputError(f"rules {spec!r}: key {key!r} does not apply to {preset}")
        if key in settings:
            raise InputError(f"rules {spec!r}: key {key!r} given twice")
        settings[key] = _convert(spec, key, kind, raw)
    kw = {k: settings[k] for k in ("order", "bonus_threshold", "rolls", "joker", "saved_rolls",
                                   "bank_cap") if k in settings}
    if preset in NORDIC_LIKE:
        kw["boxes"] = nordic_boxes(bool(settings.get("five_alike_is_full_house", False)),
                                   bool(settings.get("four_alike_is_two_pairs", False)))
    if "yahtzee_bonus" in settings:
        kw["yahtzee_bonus"] = 100 if settings["yahtzee_bonus"] else 0
    canonical = tuple((k, _fmt(settings[k])) for k in KEYS if k in settings)
    try:
        return replace(rules, settings=canonical, **kw)
    except InputError as e:
        raise InputError(f"rules {spec!r}: {e}") from None


def key_default(preset: str, key: str) -> str:
    """The value ``key`` has in ``preset`` when not given."""
    rules = PRESETS[preset][1]()
    if key in ("saved_rolls", "bank_cap"):
        return _fmt(getattr(rules, key))
    switched = {"five_alike_is_full_house": "full_house", "four_alike_is_two_pairs": "two_pairs"}
    if key in switched:
        return _fmt(not rules.boxes[rules.box_index(switched[key])].distinct)
    if key == "yahtzee_bonus":
        return _fmt(bool(rules.yahtzee_bonus))
    return _fmt(getattr(rules, key))


def _convert(spec: str, key: str, kind: type, raw: str) -> object:
    if kind is bool:
        if raw.lower() in ("true", "yes", "1", "on"):
            return True
        if raw.lower() in ("false", "no", "0", "off"):
            return False
        raise InputError(f"rules {spec!r}: {key} must be true or false, not {raw!r}")
    if kind is int:
        try:
            return int(raw)
        except ValueError:
            raise InputError(f"rules {spec!r}: {key} must be a whole number, not {raw!r}") from None
    return raw.lower()


def _fmt(v: object) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)
