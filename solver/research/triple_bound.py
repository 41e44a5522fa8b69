r"""A proven upper bound on the optimal expected score of a game of several
columns (``Rules.columns > 1``, Trippel-Yatzy): the Lagrangian relaxation of
"each turn writes in exactly one column" (the argument: docs/triple.md).

With a price :math:`\lambda_g` for every turn ``g = 1..T`` (``T`` = columns
× boxes),

.. math:: UB(\lambda) = \sum_g \lambda_g + \sum_c V_c(\lambda)

where ``V_c`` is the optimal value of the relaxed game of column ``c``
alone (``yatzy.kernels.relaxed``): it rolls every turn, and writes a box
(``c`` times its points, minus :math:`\lambda_g`) or nothing.  Every
:math:`\lambda` gives a valid bound; ``minimise`` looks for a small one
among prices that are linear in the turn (a constant price changes nothing:
each column writes exactly as many boxes as it has, whenever it writes
them).

    >>> from yatzy.rules.boxes import upper
    >>> from yatzy.rules.ruleset import Rules
    >>> one = Rules("one", (upper("ones", 1), upper("twos", 2)), dice=2, faces=2, rolls=1,
    ...             bonus_threshold=0)
    >>> column_value(one, 1, np.zeros(2))        # one column: the game itself
    3.75
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from yatzy.errors import InputError
from yatzy.files import write_text
from yatzy.kernels.relaxed import relaxed_turn
from yatzy.kernels.turn import turn_data
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.store import table_path


def check_columns(rules: Rules) -> None:
    """The relaxation covers rule sets whose columns are plain cards (no
    saved rolls, joker or yahtzee bonus: ``Rules`` refuses those for
    several columns anyway)."""
    one = rules.column_rules
    if one.saved_rolls or one.yahtzee_bonus or state_space(one).flag_bit:
        raise InputError(f"{rules.name}: the bound needs columns without saved rolls "
                         "or yahtzee bonus")


def turns(rules: Rules) -> int:
    """``T``, the turns of a game: one box a turn."""
    return rules.columns * rules.column_rules.n_boxes


def column_data(rules: Rules, weight: float):
    """The ``TurnData`` of one column alone with its points (and bonus)
    counted ``weight`` times."""
    d = turn_data(rules.column_rules)
    return d._replace(gain_add=weight * d.gain_add, bonus_add=weight * d.bonus_add)


def turn_masks(rules: Rules, n_turns: int) -> list[np.ndarray]:
    """``out[g - 1]``: the masks of turn ``g`` that can be reached and still
    be filled in time: ``f`` boxes filled with ``f <= g - 1`` and
    ``n - f <= T - g + 1``."""
    one = rules.column_rules
    n = one.n_boxes
    layers = state_space(one).layers
    return [np.concatenate([layers[f] for f in range(n + 1) if f <= g - 1 and n - f <= n_turns - g + 1])
            .astype(np.int64) for g in range(1, n_turns + 1)]


def column_value(rules: Rules, weight: float, prices: np.ndarray,
                 progress: Callable[[int], None] | None = None) -> float:
    """``V_c``: the optimal value of the relaxed game of one column of
    ``weight`` over ``len(prices)`` turns, price ``prices[g - 1]`` at turn
    ``g``, from the empty card (``progress(g)`` after each turn solved)."""
    one = rules.column_rules
    n_turns = len(prices)
    if n_turns < one.n_boxes:
        raise InputError(f"{n_turns} turns cannot fill {one.n_boxes} boxes")
    d = column_data(rules, weight)
    sp = state_space(one)
    width = one.cap + 1
    nxt = np.full((sp.n_masks, width), -1e300)
    nxt[sp.full_mask] = 0.0
    cur = np.empty_like(nxt)
    for g, masks in reversed(list(enumerate(turn_masks(rules, n_turns), start=1))):
        relaxed_turn(d, masks, float(prices[g - 1]), nxt, cur)
        nxt, cur = cur, nxt
        if progress:
            progress(g)
    return float(nxt[0, 0])


def upper_bound(rules: Rules, prices: np.ndarray,
                progress: Callable[[int], None] | None = None) -> float:
    """``UB(prices) = sum(prices) + sum_c V_c(prices)``: a bound on the
    optimal expected score of ``rules`` (several columns) for any prices."""
    check_columns(rules)
    prices = np.asarray(prices, dtype=np.float64)
    if len(prices) != turns(rules):
        raise InputError(f"expected {turns(rules)} prices, not {len(prices)}")
    return float(prices.sum()) + sum(column_value(rules, w, prices, progress)
                                     for w in rules.column_weights)


def linear_prices(n_turns: int, slope: float) -> np.ndarray:
    """Prices ``slope * (g - (T + 1) / 2)`` for ``g = 1..T``: they add up to 0."""
    return slope * (np.arange(1, n_turns + 1) - (n_turns + 1) / 2)


def linear_bound(rules: Rules, slope: float, unit: Callable[[float], float]) -> float:
    """``UB`` of the linear prices of ``slope``, from ``unit(x)``, the value
    of the relaxed game of a column of weight 1 under the linear prices of
    ``x``: a column of weight ``c`` earns ``c`` times what a column of
    weight 1 earns under prices divided by ``c``, so
    ``UB(slope) = sum_c c * unit(slope / c)`` (the prices add up to 0)."""
    return sum(c * unit(slope / c) for c in rules.column_weights)


@dataclass(frozen=True)
class Bound:
    """The best bound found: ``value = UB`` of the linear prices of
    ``slope``; ``tried``: every ``(slope, UB)`` evaluated; ``units``: the
    weight-1 column values they were made of, ``(x, value)``."""

    rules: str
    value: float
    slope: float
    tried: tuple[tuple[float, float], ...]
    units: tuple[tuple[float, float], ...]
    seconds: float

    def as_dict(self) -> dict:
        return asdict(self)


def minimise(rules: Rules, step: float = 0.1, evaluations: int = 6,
             known: dict[float, float] | None = None,
             progress: Callable[[str, dict[float, float]], None] | None = None,
             turn_progress: Callable[[str], None] | None = None) -> Bound:
    """Look for a small ``UB`` among linear prices, with at most
    ``evaluations`` new solves of the weight-1 column (``known``: values
    already solved, ``x -> unit(x)``, added to as it goes; ``progress(line,
    known)`` after each solve, e.g. to save them; ``turn_progress(line)``
    every nine turns of a solve).

    ``UB`` is convex in the prices (a maximum over policies of functions
    linear in them), so along the line of slopes too.  The search solves
    the weight-1 column at the slopes ``0`` and ``±step``, fits a parabola
    ``unit(x) ~ u0 + u1 x + u2 x^2 / 2`` through them, and takes the slope
    where the parabola's ``UB``, ``sum_c c * unit(s / c)``, is least:
    ``s = -n u1 / (u2 sum_c 1/c)`` (``n`` columns; at most ``4 step``
    away; one step downhill if the parabola is not convex), a Newton step;
    then it doubles the slope while ``UB`` falls, or halves it while ``UB``
    is above ``UB(0)``.  Every ``UB`` it computes is computed in full
    and is a valid bound; the smallest is kept.  It stops where the budget
    of solves is spent (with three columns the default six go to the
    parabola and the Newton step), so ``Bound.tried`` may hold two slopes
    only: ``converged_within`` says how far from the least bound of linear
    prices it stopped.
    """
    check_columns(rules)
    start = time.perf_counter()
    n_turns = turns(rules)
    units = known if known is not None else {}
    spent = 0

    class OutOfTime(Exception):
        pass

    def unit(x: float) -> float:
        nonlocal spent
        x = round(x, 12)
        if x not in units:
            if spent >= evaluations:
                raise OutOfTime
            spent += 1

            def turn_done(g: int) -> None:
                if turn_progress and g % 9 == 1 and g > 1:
                    turn_progress(f"solve {spent} (of at most {evaluations}), slope {x:+g}: "
                                  f"turns {g}..{n_turns} of {n_turns} done")
            units[x] = column_value(rules, 1, linear_prices(n_turns, x), turn_done)
            if progress:
                progress(f"weight-1 column, slope {x:+.6f}: {units[x]:.6f}", units)
        return units[x]

    tried: dict[float, float] = {}
    try:
        tried[0.0] = linear_bound(rules, 0.0, unit)
        u0, up, down = unit(0.0), unit(step), unit(-step)
        u1, u2 = (up - down) / (2 * step), (up + down - 2 * u0) / step ** 2
        weights = rules.column_weights
        if u2 > 0:                              # the parabola's least UB
            slope = -len(weights) * u1 / (u2 * sum(1 / c for c in weights))
            slope = round(float(np.clip(slope, -4 * step, 4 * step)), 4)
        else:                                   # flat: downhill by one step
            slope = step if up < down else -step
        best = 0.0
        while slope and len(tried) < 8:
            tried[slope] = linear_bound(rules, slope, unit)
            if tried[slope] < tried[best]:      # better: go on twice as far
                best, slope = slope, round(2 * slope, 6)
            elif best == 0.0:                   # worse than no prices: half as far
                slope = round(slope / 2, 6)
            else:
                break
    except OutOfTime:
        pass
    best = min(tried, key=tried.get)
    return Bound(rules.spec, tried[best], best, tuple(sorted(tried.items())),
                 tuple(sorted(units.items())), time.perf_counter() - start)


def convex_floor(points) -> Callable[[float], float]:
    """A lower bound of a convex function known at ``points`` (``(x,
    f(x))``, two or more): at ``x``, the largest of the secants through
    two neighbouring points whose interval does not hold ``x`` inside it
    (a convex function lies above each secant outside its interval);
    ``-inf`` where there is none."""
    pts = sorted(points)
    lines = [(x0, x1, y0, (y1 - y0) / (x1 - x0)) for (x0, y0), (x1, y1) in zip(pts, pts[1:])]

    def floor(x: float) -> float:
        below = [y0 + k * (x - x0) for x0, x1, y0, k in lines if not x0 < x < x1]
        return max(below, default=-np.inf)
    return floor


def converged_within(rules: Rules, bound: Bound) -> float:
    """How much lower than ``bound.value`` the least ``UB`` over linear
    prices can be, from what the search solved: ``UB(s) = sum_c c *
    unit(s / c)`` with ``unit`` convex, so ``sum_c c * floor(s / c)``
    (``convex_floor`` of the solves ``bound.units``) lies below it for
    every slope; this floor is linear between its corners (the points
    solved and where two secants cross), so its least value is at one of
    them.  0: converged; ``inf``: too few solves to say."""
    units = list(bound.units)
    if len(units) < 3:
        return float("inf")
    floor = convex_floor(units)
    xs = {x for x, _ in units}
    lines = sorted(units)
    secants = [(x0, y0, (y1 - y0) / (x1 - x0)) for (x0, y0), (x1, y1) in zip(lines, lines[1:])]
    for (a0, b0, k0), (a1, b1, k1) in itertools.combinations(secants, 2):
        if k0 != k1:                        # where two secants cross
            xs.add((b1 - b0 + k0 * a0 - k1 * a1) / (k0 - k1))
    weights = rules.column_weights

    def least(s: float) -> float:
        return sum(c * floor(s / c) for c in weights)
    corners = [c * x for c in weights for x in xs]
    far = max(abs(x) for x in corners) * 10 + 1
    if least(-far) < least(min(corners)) or least(far) < least(max(corners)):
        return float("inf")                 # the floor falls without end
    return max(bound.value - min(least(s) for s in corners), 0.0)


def cache_path(rules: Rules, directory: str | Path | None = None) -> Path:
    """Where the bound of ``rules`` is cached, beside its tables
    (``<name>-<fingerprint>-bound.json``)."""
    path = table_path(rules, directory)
    return path.with_name(path.stem + "-bound.json")


def cached_bound(rules: Rules, directory: str | Path | None = None,
                 progress: Callable[[str], None] | None = None, **search) -> Bound:
    """The bound of ``rules`` from its cache, else searched (``minimise``)
    and cached; each column solved is saved as it comes, so an interrupted
    search goes on where it stopped."""
    path = cache_path(rules, directory)
    saved = json.loads(path.read_text()) if path.is_file() else {}
    if saved.get("bound"):
        b = saved["bound"]
        return Bound(b["rules"], b["value"], b["slope"], tuple(map(tuple, b["tried"])),
                     tuple(map(tuple, b["units"])), b["seconds"])
    known = {float(x): v for x, v in saved.get("units", {}).items()}

    def save(line: str, units: dict[float, float]) -> None:
        write_text(path, json.dumps({"rules": rules.spec, "units": {repr(x): v for x, v in
                                                                    sorted(units.items())}}))
        if progress:
            progress(line)

    bound = minimise(rules, known=known, progress=save, turn_progress=progress, **search)
    write_text(path, json.dumps({"rules": rules.spec, "units": {repr(x): v for x, v in bound.units},
                                 "bound": bound.as_dict()}, indent=1))
    return bound
