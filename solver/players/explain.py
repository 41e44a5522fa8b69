r"""Exact explanations: why an action costs what it costs.

Notation.  Under the expected-score policy (``yatzy.players.policy``,
optimal, its tie rule included) the points still to come from a turn-start
state ``(mask, u)`` are the points each open box will hold, the upper bonus
(if it is still to be earned) and the yahtzee bonuses.  Their expectations,
the *parts* of the state,

.. math::  E_b(mask, u), \quad B(mask, u) = P(\text{bonus earned from here}),
           \quad Y(mask, u),

add up to the state's value: :math:`V = \sum_b E_b + \beta B + Y` (``beta``
the bonus points).  With ``O(c | mask, u)`` the probability that the turn
ends with outcome ``c`` (box ``b``, ``p`` points, yahtzee bonus ``e``;
``policy.batch``'s turn outcomes), one backward pass gives them all:

.. math::  E_{b'}(mask, u) = \sum_c O(c \mid mask, u)\,
           \big([b' = b]\, p + E_{b'}(mask | b, u')\big)

and likewise ``B`` (plus 1 for an outcome that crosses the threshold) and
``Y`` (plus ``e``).  The table (``yatzy.kernels.explain.part_layout``) is
stored beside the value table: ``<rules>-<fingerprint>-explain.tbl``.

Within a turn the same parts follow the optimal action of every roll: an
action's parts are the expected parts of the card it leads to, the points
written now counted in their box.  The loss of an action against the best
one is then exactly

.. math::  \text{loss} = \sum_b (E_b^{best} - E_b^{a}) + \beta (B^{best} - B^a)
           + (Y^{best} - Y^a)

(to the tie tolerance, ``yatzy.rules.ties``): each term is a *part* of the
explanation, one per box (``groups=True``: per group of boxes: upper boxes,
pairs and kinds, straights, full house, chance, yatzy).

    >>> from yatzy import Solver
    >>> nordic = Solver("nordic")
    >>> why = nordic.explain("ones=3,twos=6,threes=9,fours=12,fives=15",
    ...                      "66662", rerolls=0)
    >>> print(why[0].sentence())
    Writing 24 in sixes is the best choice (expected final score 246.4).
    >>> abs(sum(p.points for p in why[1].parts) - why[1].action.loss) < 1e-9
    True

This module prints nothing; it reads the value table and uses the compiled
kernels only to build the parts table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.explain import part_layout, part_table_size, pull_parts
from yatzy.kernels.policy import (
    check_policy_rules,
)
from yatzy.players.advice import TurnValues
from yatzy.players.policy import pull_back
from yatzy.position.actions import Action, ActionKind, Advice
from yatzy.position.scorecard import Scorecard
from yatzy.rules.boxes import BoxKind
from yatzy.rules.ruleset import Rules
from yatzy.rules.ties import keep_ranks, tolerance
from yatzy.rules.words import EXPLAIN as WORDS
from yatzy.rules.words import GROUP_WORDS, LANGS, box_name, number
from yatzy.space import state_space
from yatzy.tables.plan import parts_plan
from yatzy.tables.subgame import Pieced, measure, open_pieces
from yatzy.tables.store import (
    Table,
    load_array,
    open_or_solve,
    open_table,
    store_derived,
    table_path,
)

BONUS, YAHTZEE_BONUS = "bonus", "yahtzee_bonus"
GROUPS = ("upper", "pairs_and_kinds", "straights", "full_house", "chance", "yatzy")
SHOWN = 1e-12          # parts smaller than this are left out of an explanation
OTHER = "other"        # the share of an explanation's sum that holds the rest
NAMED = 5              # at most this many parts named one by one in the sum ...
SMALLEST = 0.01        # ... none smaller than this (points)
DIGITS = 2             # the decimals the shares are shown with


def check_explain_rules(rules: Rules) -> None:
    """InputError for rules whose parts table this module cannot build."""
    if why := rules.play.refuse("explanations"):
        raise InputError(f"rules {rules.spec}: {why}; use --rules {rules.column_rules.spec}")
    check_policy_rules(rules, "explanations")


# ------------------------------------------------------------------ the table
def solve(rules: Rules, values: np.ndarray, progress: Progress | None = None) -> np.ndarray:
    """The parts table of ``rules`` (flat, ``part_layout``) under the
    expected-score policy of the value table ``values`` (dense ``[mask, u]``)."""
    check_explain_rules(rules)
    out_values = np.zeros(part_table_size(rules))    # full cards: nothing to come
    return pull_back(rules, values, pull_parts, part_layout(rules), out_values, progress)


def part_values(rules: Rules, todo) -> int:
    """The values of the masks ``todo`` (by layer) in the parts table."""
    lay = part_layout(rules)
    return int(sum(((lay.lanes[x] - lay.start[x]) * lay.n_parts).sum() for x in todo[:-1]))


@dataclass
class PartsTable(Pieced):
    """The parts table of ``rules``: ``parts(mask, u)`` and ``lookup``.
    ``pieces``: None for the whole table (stored), else each state's
    sub-game is solved when first asked (``need``; ``lookup`` calls it), in
    memory, and the whole table only for a state that needs most of it."""

    rules: Rules
    values: np.ndarray
    path: Path | None = None
    header: dict | None = None
    pieces: object = None

    def lookup(self, masks, uppers) -> np.ndarray:
        """``out[..., k]``: the parts (``kernels.explain.PartLayout``) of the
        states (``masks``, ``uppers``), arrays of matching shapes."""
        masks, uppers = np.broadcast_arrays(np.asarray(masks, dtype=np.int64),
                                            np.asarray(uppers, dtype=np.int64))
        lay = part_layout(self.rules)
        if (lay.off[masks] < 0).any():
            raise InputError("that state cannot be reached under these rules")
        if self.pieces is not None and not self.pieces.cover.holds_all(masks, 0 * masks):
            for m in sorted(set(masks.ravel().tolist())):
                self.need(m)
        start = lay.start[masks]
        at = lay.off[masks] + (np.maximum(uppers, start) - start) * lay.n_parts
        return self.values[at[..., None] + np.arange(lay.n_parts)]

    def parts(self, mask: int, upper: int) -> np.ndarray:
        """The parts of one turn-start state."""
        return self.lookup(np.array(mask), np.array(upper))


def parts_path(rules: Rules, directory: Path | str | None = None) -> Path:
    """Next to the value table: ``<name>-<fingerprint>-explain.tbl``."""
    path = table_path(rules, directory)
    return path.with_name(path.stem + "-explain.tbl")


def solve_and_store(rules: Rules, path: Path, directory: Path | str | None = None,
                    progress: Progress | None = None) -> float:
    """Solve the parts table (the value table opened, or solved, first) and
    store it; returns the seconds the solve took."""
    return store_derived(rules, path, "explain", solve, directory, progress)


def piece_solver(rules: Rules, directory: Path | str | None,
                 progress: Progress | None = None):
    """``solve(todo, lo, out, progress)``: the parts of the masks ``todo``
    (by layer, every upper total) pulled back into ``out`` under the value
    table of ``rules`` (opened at the first call)."""
    opened: list = []

    def solve(todo, lo, out, step):
        if not opened:
            opened.append(open_table(rules, directory, progress=progress).values)
        pull_back(rules, opened[0], pull_parts, part_layout(rules), out, step, layers=todo)
    return solve


def open_whole(rules: Rules, directory: Path | str | None = None, *,
               force: bool = False, progress: Progress | None = None,
               checked: bool = False) -> PartsTable:
    """The whole parts table of ``rules``, solved and stored first if
    needed (its build checked and announced first, ``announce.check``, unless
    ``checked``: already, ``subgame.need_together``)."""
    check_explain_rules(rules)
    path = parts_path(rules, directory)

    def load() -> PartsTable:
        values, header = load_array(rules, path, "explain", (part_table_size(rules),))
        return PartsTable(rules, values, path, header)

    return open_or_solve(path, load, lambda: solve_and_store(rules, path, directory, progress),
                         force=force,
                         plan=None if checked else lambda: whole_plan(rules, directory),
                         kind="explanations")


MEASURE_KEPT = 120.0     # seconds a measured time of a whole build is used again


_measured: dict[tuple[str, str], tuple[float, float]] = {}


def whole_plan(rules: Rules, directory: Path | str | None = None):
    """The build of the whole parts table of ``rules`` (``tables.plan.parts_plan``),
    its time measured on a sample of its own work (``subgame.measure``); a
    time measured in the last ``MEASURE_KEPT`` seconds is used again (an
    announcement before the build, then the build's own check).  The
    sample's masks of every layer are pulled back as one batch on every
    thread, as a whole layer is: layer by layer, a few dozen masks each,
    its fixed costs and idle threads measured a quiet 2-core machine 1.6
    times too slow."""
    import time

    path = parts_path(rules, directory)
    key = (rules.spec, str(path))

    def timed(reference: float) -> float:
        found = _measured.get(key)
        if found is not None and time.monotonic() - found[0] < MEASURE_KEPT:
            return found[1]
        solve = piece_solver(rules, directory)

        def solve_merged(todo, lo, out, step):      # the sample's layers as one
            solve((np.concatenate(todo[:-1]), todo[-1]), lo, out, step)
        seconds = measure(rules, part_table_size(rules), lambda todo, lo: part_values(rules, todo),
                          solve_merged, state_space(rules).layers, 0, reference)
        _measured[key] = (time.monotonic(), seconds)
        return seconds
    return parts_plan(rules, path, measure=timed)


def open_parts(rules: Rules, directory: Path | str | None = None, *,
               force: bool = False, progress: Progress | None = None) -> PartsTable:
    """The parts table of ``rules``: the whole one where it is stored (or
    ``force``), else one that solves each state's sub-game when a question
    first needs it (in memory; the whole table, stored, for a state that
    needs most of it: ``PartsTable.need``)."""
    check_explain_rules(rules)
    path = parts_path(rules, directory)
    if force or path.exists():
        return open_whole(rules, directory, force=force, progress=progress)
    return open_pieces(PartsTable, rules, "parts", part_table_size(rules), path, (
                           lambda todo, lo: part_values(rules, todo),
                           piece_solver(rules, directory, progress),
                           lambda checked=False: open_whole(rules, directory, progress=progress,
                                                            checked=checked),
                           lambda: whole_plan(rules, directory)),
                       uppers=False, progress=progress)


# ------------------------------------------------------------- explanations
def group_of(rules: Rules, box: int) -> str:
    """The group of a box (``GROUPS``)."""
    b = rules.boxes[box]
    if b.kind is BoxKind.UPPER:
        return "upper"
    if b.kind is BoxKind.STRAIGHT:
        return "straights"
    if b.kind is BoxKind.CHANCE:
        return "chance"
    if box == rules.yatzy_box:
        return "yatzy"
    return "full_house" if len(set(b.groups)) > 1 else "pairs_and_kinds"


@dataclass(frozen=True)
class Part:
    """One part of a loss: ``points`` is what it costs the action against the
    best (the parts add up to the loss); ``chosen`` and ``best`` are the
    expected points of the box or group (for the bonus: its chance) after
    the action and after the best action."""

    name: str
    points: float
    chosen: float
    best: float

    def as_dict(self) -> dict:
        return {"part": self.name, "points": self.points, "chosen": self.chosen,
                "best": self.best}


@dataclass(frozen=True)
class Share:
    """One line of an explanation's sum: a box, a group of boxes, the
    bonus, the yahtzee bonuses or (``OTHER``) the remainder, the parts too
    small or too many to name one by one.  ``points`` is what it costs the
    action against the best (negative: a gain; the shares add up to the
    loss), ``shown`` the same to ``DIGITS`` decimals, rounded so that the
    shown shares add up to the loss as shown (``apportion``); ``parts``
    the names of the parts it stands for."""

    name: str
    points: float
    shown: float
    parts: tuple[str, ...]
    grouped: bool = False

    def label(self, lang: str = "en") -> str:
        """The share's name in a list (``en``, ``nb``, ``sv``)."""
        if self.name in (BONUS, YAHTZEE_BONUS, OTHER):
            return WORDS[lang]["label_" + self.name]
        if self.grouped:
            return GROUP_WORDS[lang][self.name]
        return box_name(self.name, lang)

    def said(self, lang: str = "en") -> str:
        """The share's name in a sentence ("the bonus")."""
        if self.name in (BONUS, YAHTZEE_BONUS, OTHER):
            return WORDS[lang]["said_" + self.name]
        return self.label(lang)

    def text(self, lang: str = "en") -> str:
        """The share as it is listed: its name and its signed points (a cost
        with a minus, a gain with a plus)."""
        return f"{self.label(lang)} {signed(-self.shown, -self.points, lang)}"

    def as_dict(self) -> dict:
        return {"part": self.name, "points": self.points, "shown": self.shown,
                "parts": list(self.parts), "names": {lg: self.label(lg) for lg in LANGS}}


def apportion(values: list[float], total: float, digits: int = DIGITS) -> list[float]:
    """``values`` rounded to ``digits`` decimals, each down or up, so that
    they add up to ``total`` as ``words.number`` shows it (the largest
    remainders rounded up).

    >>> apportion([1.004, 1.004, 1.004], 3.012)
    [1.01, 1.0, 1.0]
    >>> apportion([2.226, -1.002], 1.224)
    [2.22, -1.0]
    """
    unit = 10 ** digits
    want = round(float(f"{total:.{digits}f}") * unit)
    low = [math.floor(v * unit) for v in values]
    order = sorted(range(len(values)), key=lambda i: low[i] - values[i] * unit)
    out = list(low)
    short = want - sum(low)
    for k in range(abs(short)):
        i = order[k % len(order)] if short > 0 else order[-1 - k % len(order)]
        out[i] += 1 if short > 0 else -1
    return [c / unit for c in out]


def signed(shown: float, exact: float, lang: str) -> str:
    """``shown`` with its sign (that of ``exact`` where ``shown`` is 0).

    >>> signed(-2.5, -2.5, "nb"), signed(0.0, 0.001, "en")
    ('−2,50', '+0.00')
    """
    return ("+" if (shown or exact) >= 0 else "\u2212") + number(abs(shown), DIGITS, lang)


@dataclass(frozen=True)
class Explanation:
    """Why ``action`` is worth what it is against ``best``: ``parts``,
    largest cost first (gains last), adding up to ``loss``; ``bonus_chance``: the chance of the
    upper bonus after the action (1 once it is on the card).  ``shares``
    is what every surface shows: every part of the loss, as one sum."""

    rules: Rules
    action: Action
    best: Action
    loss: float
    parts: tuple[Part, ...]
    bonus_chance: float
    grouped: tuple[Part, ...] = ()     # the same loss per group of boxes (GROUPS)

    def as_dict(self) -> dict:
        return {"explanation": [p.as_dict() for p in self.parts],
                "breakdown": [s.as_dict() for s in self.shares],
                "bonus_chance": self.bonus_chance}

    @cached_property
    def shares(self) -> tuple[Share, ...]:
        """The loss as a sum: the parts, largest first (costs and gains
        alike, by size), at most ``NAMED`` of them named one by one and
        none smaller than ``SMALLEST``; the rest, if any, is the last share,
        ``OTHER``.  The shares add up to ``loss`` (their ``shown`` values to
        the shown loss exactly).  Per group of boxes where the loss is
        spread over a group's boxes (the groups' two largest parts then say
        half as much again as the boxes' two largest)."""

        def top(parts):
            return sum(sorted((abs(p.points) for p in parts), reverse=True)[:2])

        grouped = bool(self.grouped) and top(self.grouped) > 1.5 * top(self.parts)
        parts = sorted(self.grouped if grouped else self.parts, key=lambda p: -abs(p.points))
        named = [p for p in parts if abs(p.points) >= SMALLEST][:NAMED]
        rest = parts[len(named):]                  # sorted by size: the named come first
        points = [p.points for p in named]
        if rest:
            points.append(math.fsum(p.points for p in rest))
        shown = apportion(points, self.action.loss) if points else []
        shares = [Share(p.name, p.points, v, (p.name,), grouped and p.name in GROUPS)
                  for p, v in zip(named, shown)]
        if rest:
            shares.append(Share(OTHER, points[-1], shown[-1], tuple(p.name for p in rest)))
        return tuple(shares)

    def sum_text(self, lang: str = "en") -> str:
        """The shares as one sum, as every surface lists them: "three of a
        kind −2.50, bonus +0.40, …; in all −2.10" (empty for the best
        action)."""
        if not self.shares:
            return ""
        total = -float(f"{self.action.loss:.{DIGITS}f}")
        shown = signed(total, -self.action.loss, lang) if total else number(0, DIGITS, lang)
        return WORDS[lang]["in_all"].format(
            parts=", ".join(s.text(lang) for s in self.shares), total=shown)

    def sentence(self, lang: str = "en") -> str:
        """One sentence, as a person would say it, naming the largest
        shares: the largest cost, then the next cost or, if larger, the
        largest gain (``en``, ``nb``, ``sv``)."""
        if lang not in LANGS:
            raise InputError(f"language {lang!r}: expected one of {', '.join(LANGS)}")
        w = WORDS[lang]
        act = _action_words(self.action, lang)
        if self.action == self.best:
            text = w["best"].format(act=act, ev=number(self.action.expected_final_score, 1, lang))
        elif self.action.loss == 0:
            text = w["tie"].format(act=act)
        else:
            key, names = self._largest()
            text = w[key].format(act=act, loss=number(self.action.loss, DIGITS, lang),
                                 **{k: s.said(lang) for k, s in names.items()})
        return text[0].upper() + text[1:]

    def _largest(self) -> tuple[str, dict[str, Share]]:
        """The sentence of a loss (a key of ``words.EXPLAIN``) and the
        shares it names."""
        shares = self.shares
        if len(shares) == 1:
            return "all_on", {"a": shares[0]}
        named = [s for s in shares if s.name != OTHER] or list(shares)
        costs = [s for s in named if s.points > 0] or [shares[-1]]
        gains = [s for s in named if s.points < 0]
        first = costs[0]
        if gains and (len(costs) < 2 or -gains[0].points > costs[1].points):
            return "most_on_gain", {"a": first, "b": gains[0]}
        if len(costs) < 2:
            return "most_on", {"a": first}
        return "most_on_two", {"a": first, "b": costs[1]}


def _action_words(action: Action, lang: str) -> str:
    w = WORDS[lang]
    if action.kind is ActionKind.SCORE:
        return w["write"].format(points=action.points, box=box_name(action.box, lang))
    if not action.dice:
        return w["reroll"]
    return w["keep"].format(dice=" ".join(map(str, action.dice)))


class TurnParts:
    """The parts of every action of one turn at ``card`` under optimal play
    (``table``: the value table, ``parts``: its parts table), each reroll
    level worked out once, when first needed.  Parts exclude the card."""

    def __init__(self, table: Table, parts: PartsTable, card: Scorecard,
                 turn: TurnValues | None = None):
        rules = table.rules
        if table.theta:
            raise InputError("explanations are for the expected score (no risk parameter)")
        if rules.saved_rolls:
            raise InputError(f"rules {rules.spec}: explanations do not support saved rolls")
        self.rules, self.card = rules, card
        parts.need(card.mask)                  # its sub-game, if not solved yet
        self.turn = turn or TurnValues(table, card)
        self.tol = tolerance(table)
        sc = self.turn.scoring
        self.boxes = sc.boxes
        cols = np.array(sc.boxes, dtype=np.int64)
        points = sc.points
        sp = state_space(rules)
        u, cap = card.upper_state, rules.cap
        upper = rules.is_upper[cols]
        reached = np.where(upper, np.minimum(u + points, cap), u)
        crossed = upper & (u < cap) & (u + points >= cap)
        child = card.mask | 1 << cols
        if sp.flag_bit:
            child = np.where((cols == rules.yatzy_box) & (points > 0), child | sp.flag_bit, child)
        ok = np.isfinite(sc.now)                                 # a joker may not go there
        comps = parts.lookup(np.broadcast_to(child, points.shape), reached)
        nb = rules.n_boxes
        comps[:, np.arange(len(cols)), cols] += points            # the points written now
        comps[..., nb] += crossed
        if card.mask & sp.flag_bit:
            ybonus = np.where(rules.yahtzee_face >= 0, rules.yahtzee_bonus, 0)
            comps[..., nb + 1] += ybonus[:, None]
        self.score_parts = np.where(ok[..., None], comps, 0.0)     # [roll, i, part]
        self.weights = np.ones(nb + 2)
        self.weights[nb] = rules.bonus_points
        values = sc.values(0)
        first = values >= values.max(axis=1, keepdims=True) - self.tol
        self.choice0 = np.argmax(first, axis=1)                  # lowest box among ties
        self.levels = [self.score_parts[np.arange(len(values)), self.choice0]]
        ds = rules.dice_space
        width = max(len(k) for k in ds.keeps)
        self.keeps = np.full((ds.n_rolls, width), -1, dtype=np.int64)
        for r, k in enumerate(ds.keeps):
            self.keeps[r, :len(k)] = k
        self.ranks = np.where(self.keeps >= 0, keep_ranks(rules)[np.maximum(self.keeps, 0)],
                              np.iinfo(np.int64).max)

    def rolls(self, rerolls: int) -> np.ndarray:
        """``P[r, k]``: the parts of roll ``r`` with ``rerolls`` left, played
        optimally (the tie rule of ``yatzy.rules.ties``)."""
        ds = self.rules.dice_space
        while len(self.levels) <= rerolls:
            t = len(self.levels)
            keep_value = ds.reroll @ self.turn.rolls(t - 1)           # W_t per multiset
            keep_parts = ds.reroll @ self.levels[-1]
            kv = np.where(self.keeps >= 0, keep_value[np.maximum(self.keeps, 0)], -np.inf)
            top = kv.max(axis=1)
            near = kv >= top[:, None] - self.tol
            pick = np.argmin(np.where(near, self.ranks, np.iinfo(np.int64).max), axis=1)
            kept = self.keeps[np.arange(ds.n_rolls), pick]
            x0 = self.turn.rolls(0)
            score = x0 >= top - self.tol                             # scoring wins ties
            self.levels.append(np.where(score[:, None], self.levels[0], keep_parts[kept]))
        return self.levels[rerolls]

    def action_parts(self, dice: tuple[int, ...], rerolls: int, action: Action) -> np.ndarray:
        """The parts after ``action`` with ``dice`` and ``rerolls`` left."""
        ds = self.rules.dice_space
        if action.kind is ActionKind.SCORE:
            box = self.rules.box_index(action.box)
            if box not in self.boxes:
                raise InputError(f"box {action.box} may not be filled now")
            return self.score_parts[ds.roll_index(dice), self.boxes.index(box)]
        if rerolls < 1:
            raise InputError("no rerolls left: score the dice")
        return ds.reroll[ds.multiset_index(action.dice)] @ self.rolls(rerolls - 1)

    def expected(self, parts: np.ndarray) -> float:
        """The expected final score of a parts vector (the card's score added)."""
        return self.card.score + float(parts @ self.weights)


def explain(turn: TurnParts, advice: Advice, action: Action | None = None,
            groups: bool = False) -> Explanation:
    """The explanation of ``action`` (an action of ``advice``; default its
    best) against the best action of ``advice``."""
    rules, card = turn.rules, turn.card
    action = advice.best if action is None else advice.find(action)
    best = advice.best
    mine = turn.action_parts(advice.dice, advice.rerolls, action)
    top = turn.action_parts(advice.dice, advice.rerolls, best)
    by_box = _parts(card, mine, top, False)
    by_group = _parts(card, mine, top, True)
    parts = by_group if groups else by_box
    chance = 1.0 if card.bonus > 0 else float(mine[rules.n_boxes])
    return Explanation(rules, action, best, float(sum(p.points for p in parts)), parts,
                       chance, by_group)


def _parts(card: Scorecard, mine: np.ndarray, top: np.ndarray, groups: bool
           ) -> tuple[Part, ...]:
    """The parts of the loss of ``mine`` against ``top`` (parts vectors),
    per box or per group, the largest cost first."""
    rules = card.rules
    nb = rules.n_boxes
    names = [group_of(rules, b) if groups else rules.boxes[b].name for b in range(nb)]
    chosen: dict[str, float] = {}
    ideal: dict[str, float] = {}
    for b, name in enumerate(names):
        chosen[name] = chosen.get(name, 0.0) + (card.points[b] or 0) + mine[b]
        ideal[name] = ideal.get(name, 0.0) + (card.points[b] or 0) + top[b]
    has_bonus = card.bonus > 0
    chosen[BONUS], ideal[BONUS] = (1.0, 1.0) if has_bonus else (mine[nb], top[nb])
    chosen[YAHTZEE_BONUS] = card.yahtzee_bonus + mine[nb + 1]
    ideal[YAHTZEE_BONUS] = card.yahtzee_bonus + top[nb + 1]
    scale = {BONUS: float(rules.bonus_points)}
    parts = [Part(n, float(scale.get(n, 1.0) * (ideal[n] - chosen[n])), float(chosen[n]),
                  float(ideal[n])) for n in chosen]
    return tuple(sorted((p for p in parts if abs(p.points) > SHOWN),
                        key=lambda p: -p.points))           # the largest costs first


@dataclass(frozen=True)
class Outlook:
    """What a card can expect at the start of its next turn under optimal
    play: the chance of the upper bonus (1 once on the card), each open
    box's expected points and the expected yahtzee bonus points to come."""

    card: Scorecard
    bonus_chance: float
    boxes: dict[str, float]
    yahtzee_bonus: float

    def as_dict(self) -> dict:
        out = {"bonus_chance": self.bonus_chance, "box_expected": self.boxes}
        if self.card.rules.yahtzee_bonus:
            out["yahtzee_bonus_expected"] = self.yahtzee_bonus
        return out


def outlook(parts: PartsTable, card: Scorecard) -> Outlook:
    """The ``Outlook`` of ``card`` from the parts table."""
    rules = card.rules
    nb = rules.n_boxes
    if card.is_full:
        values = np.zeros(nb + 2)
    else:
        values = parts.parts(card.mask, card.upper_state)
    boxes = {rules.boxes[b].name: float(values[b]) for b in range(nb) if card.points[b] is None}
    chance = 1.0 if card.bonus > 0 else float(values[nb])
    return Outlook(card, chance, boxes, float(values[nb + 1]))
