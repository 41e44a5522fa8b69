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

import numpy as np

from .boxes import Box, nordic_boxes
from .dice import DiceSpace, dice_space
from .errors import InputError

ORDERS = ("free", "forced", "upper_first")


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

    @cached_property
    def fingerprint(self) -> str:
        """Hash of everything that changes the values (not the names)."""
        desc = {
            "dice": self.dice, "faces": self.faces, "rolls": self.rolls,
            "bonus": [self.bonus_threshold, self.bonus_points], "order": self.order,
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
        masks = np.asarray(masks, dtype=np.int64)
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
        return self.allowed(np.arange(1 << self.n_boxes))

    @cached_property
    def layers(self) -> tuple[np.ndarray, ...]:
        """Reachable filled-box masks grouped by how many boxes are filled."""
        layer = np.array([0], dtype=np.int64)
        out = [layer]
        allowed = self.allowed_table
        for _ in range(self.n_boxes):
            cand = np.concatenate([np.where(allowed[layer] >> b & 1 == 1, layer | (1 << b), -1)
                                   for b in range(self.n_boxes)])
            layer = np.unique(cand[cand >= 0])
            out.append(layer)
        return tuple(out)

    def is_reachable(self, mask: int) -> bool:
        layer = self.layers[bin(mask).count("1")]
        i = np.searchsorted(layer, mask)
        return bool(i < len(layer) and layer[i] == mask)

    @cached_property
    def upper_lanes(self) -> np.ndarray:
        """``upper_lanes[mask]``: 1 + the largest tracked upper total reachable
        with these boxes filled (upper totals 0..lanes-1 are solved)."""
        best = self.scores.max(axis=0)
        masks = np.arange(1 << self.n_boxes)
        top = np.zeros(len(masks), dtype=np.int64)
        for b in range(self.n_boxes):
            if self.boxes[b].is_upper:
                top += np.where(masks >> b & 1 == 1, best[b], 0)
        return np.minimum(top, self.cap) + 1

    def describe(self) -> str:
        lines = [f"rules       {self.spec}  (fingerprint {self.fingerprint})",
                 f"dice        {self.dice} dice with {self.faces} faces, "
                 f"{self.rolls} rolls per turn",
                 f"bonus       {self.bonus_points} when the upper total reaches "
                 f"{self.bonus_threshold}",
                 f"order       {self.order}",
                 "boxes"]
        for b in self.boxes:
            lines.append(f"  {b.name:<16} {b.describe()}")
        return "\n".join(lines)


# ------------------------------------------------------------------ presets
def _nordic(**kw) -> Rules:
    return Rules("nordic", nordic_boxes(), **kw)


PRESETS = {
    "nordic": ("Nordic Yatzy, free order", lambda: _nordic()),
    "forced": ("Nordic Yatzy, top-to-bottom order, bonus at 42",
               lambda: replace(_nordic(order="forced", bonus_threshold=42), name="forced")),
    "upper_first": ("Nordic Yatzy, upper boxes first (any order), then the lower",
                    lambda: replace(_nordic(order="upper_first"), name="upper_first")),
}

# key -> (type, applies to presets, description)
KEYS = {
    "order": (str, ("nordic", "forced", "upper_first"), "free | forced | upper_first"),
    "bonus_threshold": (int, ("nordic", "forced", "upper_first"), "upper total that earns the bonus"),
    "rolls": (int, ("nordic", "forced", "upper_first"), "rolls per turn"),
    "five_alike_is_full_house": (bool, ("nordic", "forced", "upper_first"),
                                 "five equal dice also count as a full house"),
    "four_alike_is_two_pairs": (bool, ("nordic", "forced", "upper_first"),
                                "four equal dice also count as two pairs"),
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
    boxes = nordic_boxes(bool(settings.get("five_alike_is_full_house", False)),
                         bool(settings.get("four_alike_is_two_pairs", False)))
    kw = {k: settings[k] for k in ("order", "bonus_threshold", "rolls") if k in settings}
    if kw.get("order", rules.order) not in ORDERS:
        raise InputError(f"rules {spec!r}: order must be one of {', '.join(ORDERS)}")
    canonical = tuple((k, _fmt(settings[k])) for k in KEYS if k in settings)
    return replace(rules, boxes=boxes, settings=canonical, **kw)


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
