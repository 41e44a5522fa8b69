r"""Backward induction over turn-start states, each turn solved over dice multisets.

Notation.  A turn-start state is ``(mask, u)``: the set of filled boxes and the
upper total capped at the bonus threshold ``T`` (only that matters for the
future).  ``V(mask, u)`` is the expected score still to come, under optimal
play, from the start of a turn in that state; ``V(full, u) = 0``.

Inside a turn, with ``k`` rerolls left after a roll ``R``:

* scoring (``k = 0``):
  :math:`X_0(R) = \max_{b \text{ allowed}} s(R, b) + \beta(u, b, R) + V(mask \cup b, u')`
  where ``s`` is the box score, ``u' = min(T, u + s)`` for an upper box, and
  ``beta`` the bonus when ``u < T <= u + s``;
* keeping ``K`` and rerolling the rest: :math:`W_k(K) = E[X_{k-1}(K + \text{fresh dice})]`,
  computed one die at a time, :math:`W_k(K) = \frac1F \sum_f W_k(K + f)` with
  :math:`W_k(R) = X_{k-1}(R)` for full rolls;
* choosing what to keep: :math:`X_k(R) = \max_{K \subseteq R} W_k(K)`, computed
  as :math:`B(K) = \max(W_k(K), \max_{f \in K} B(K - f))` over growing ``K``;
* turn start: :math:`V(mask, u) = \sum_R P(R)\, X_{rolls-1}(R)`.

Variants are data, handled by the same recursion:

* fill order: ``StateSpace.allowed_table[mask]`` says which boxes may be filled;
* saved rolls: the state also holds the bank ``k``; a turn starting with
  ``k`` banked has ``k + rolls - 1`` rerolls after its first roll, and
  stopping with ``t`` left banks ``t``, so scoring is valued at every level:
  :math:`X_t(R) = \max(S_t(R), \max_K W_t(K))`.  After ``p`` turns the bank
  holds at most ``(rolls - 1) p`` (``StateSpace.bank_limit``), so the values are
  kept per layer, ``[k, rank of the mask, u]`` with that many banks, which is
  exact with no cap (``yatzy.tables.values``);
* American Yahtzee: a state bit records a scored 50 in the yatzy box
  (``StateSpace.flag_bit``); a roll of all dice alike may be a joker, with the
  boxes and points the rules give (``joker_boxes``, ``joker_points``), plus
  the yahtzee bonus.

The kernels solve every upper total ``u`` of one mask at once: arrays are
indexed ``[multiset, u]`` with ``u`` contiguous, so the inner loops run over
contiguous memory and vectorise.  Masks with the same number of filled boxes
depend only on masks with more, so each such layer is solved in parallel.
The within-turn quantities are the functions of ``yatzy.kernels.turn``, shared with
the policies and the player; this module runs them over every state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from yatzy.kernels.solve import solve_masks
from yatzy.kernels.threads import run_pieces
from yatzy.kernels.turn import state_keep_levels as turn_keeps
from yatzy.kernels.turn import turn_data
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.subgame import PROBES, PROBE_SECONDS, measure, sample, timed
from yatzy.tables.values import StateValues, utility

KERNELS = (solve_masks,)     # what a solve compiles (``store`` says so first where it must)

SERIAL_BELOW = 8        # layers with fewer masks are solved on one thread
SAMPLE_MASKS = 16       # a saved-rolls build's measured sample: at least this many masks
                        # of the widest layer per part (``measure_layered``),
SAMPLE_SHARE = 0.01     # ... about this share of the build's reference time (a build of
SAMPLE_SECONDS = 2.0    # minutes: a longer sample than a sub-game's), at most this long


@dataclass
class Solution(StateValues):
    """The result of a solve (``StateValues``) plus the time it took."""

    seconds: float = 0.0            # the solve, without compiling
    compile_seconds: float = 0.0    # compiling the kernels, or loading them from cache


def run_layer(d, layer: np.ndarray, nxt: np.ndarray, cur: np.ndarray) -> None:
    """Solve the masks ``layer`` (one layer) into ``cur`` from ``nxt`` (see
    ``solve_masks``), on every thread when the layer is large enough."""
    if len(layer) < SERIAL_BELOW:        # starting threads costs more than it saves
        solve_masks(d, layer, nxt, cur, 0, 1)
    else:
        run_pieces(solve_masks, d, layer, nxt, cur)


def compile_kernels(rules: Rules) -> float:
    """Compile the solve kernels (or load them from Numba's disk cache);
    returns the seconds it took."""
    start = time.perf_counter()
    none = np.zeros(0, dtype=np.int64)
    empty = np.zeros((1, 1, rules.cap + 1))
    solve_masks(turn_data(rules), none, empty, empty, 0, 1)
    return time.perf_counter() - start


def solve(rules: Rules, progress: Callable[[int], None] | None = None, *,
          out: np.ndarray | None = None, resume: int = 0,
          checkpoint: Callable[[int], None] | None = None, theta: float = 0.0) -> Solution:
    """Solve every reachable turn-start state of ``rules``, in memory, for
    the objective ``theta`` (``tables.values.utility``: 0 = the expected score).

    Layers (masks with the same number of filled boxes) are solved from the
    full card down.  ``progress(n)`` is called after each layer with its
    ``work_units``.  Without saved rolls, ``checkpoint(done)`` is called with
    the number of layers finished, ``out`` (e.g. a memory map) receives the
    values and with ``resume = n`` its first ``n`` layers are taken as already
    solved.  With saved rolls the values are kept by layer (see
    ``solve_layers`` for solves too large for memory).  Unreachable states
    are NaN.
    """
    compile_seconds = compile_kernels(rules)
    start = time.perf_counter()
    if rules.saved_rolls:
        layers = {}
        for p, values in solve_layers(rules, progress, theta=theta):
            layers[p] = values
        return Solution(rules, layers=tuple(layers[p] for p in sorted(layers)), theta=theta,
                        seconds=time.perf_counter() - start, compile_seconds=compile_seconds)
    shape = (1, state_space(rules).n_masks, rules.cap + 1)
    values = np.empty(shape) if out is None else out
    if values.shape != shape:
        raise ValueError(f"out has shape {values.shape}, expected {shape}")
    d = turn_data(rules, theta)
    if not resume:
        values[...] = np.nan
        masks = np.arange(state_space(rules).n_masks)
        values[:, masks & state_space(rules).full_mask == state_space(rules).full_mask, :] = utility(theta, 0.0)
    for i, layer in enumerate(reversed(state_space(rules).layers[:-1])):
        if i >= resume:
            run_layer(d, layer, values, values)
            if checkpoint is not None:
                checkpoint(i + 1)
        if progress is not None:
            progress(work_units(rules, rules.n_boxes - 1 - i))
    return Solution(rules, dense=values, theta=theta, seconds=time.perf_counter() - start,
                    compile_seconds=compile_seconds)


def work_units(rules: Rules, filled: int) -> int:
    """Relative cost of solving the layer of masks with ``filled`` boxes
    filled: its masks times the reroll levels of a turn."""
    return work_units_of(rules, filled, len(state_space(rules).layers[filled]))


def measure_solve(rules: Rules, reference: float, theta: float = 0.0) -> float:
    """The seconds the whole solve of ``rules`` (for ``theta``) takes on this
    machine as busy as it is now, measured as the sub-games' builds are
    (``yatzy.tables.subgame.measure``): a sample of every layer's masks,
    about ``PROBE_SECONDS`` of the ``reference`` seconds, solved by these
    kernels on as many threads into scratch tables (pages never written take
    no memory), the median rate of three parts times the whole solve's
    ``work_units``.  (The kernels load, or compile, at the first sample.)
    With saved rolls: ``measure_layered``."""
    if rules.saved_rolls:
        return measure_layered(rules, reference, theta)
    sp = state_space(rules)
    d = turn_data(rules, theta)

    def units(todo, lo) -> int:
        return sum(work_units_of(rules, p, len(x)) for p, x in enumerate(todo[:-1]))

    def solve_sample(todo, lo, out, progress) -> None:
        values = out.reshape(1, sp.n_masks, rules.cap + 1)
        for layer in todo[:-1]:
            if len(layer):
                run_layer(d, layer, values, values)

    size = sp.n_masks * (rules.cap + 1)
    return measure(rules, size, units, solve_sample, sp.layers, 0, reference)


def measure_layered(rules: Rules, reference: float, theta: float = 0.0) -> float:
    """The seconds the layered solve of saved-rolls ``rules`` takes on this
    machine as busy as it is now, measured on a real unit of it: a sample
    of every layer's masks (``SAMPLE_SHARE`` of the ``reference`` seconds,
    between ``PROBE_SECONDS`` and ``SAMPLE_SECONDS``: a sample of a few
    tenths of a second measured a build of minutes 0.45 to 1.5 times its
    real time at one load, as the others' work came and went;
    ``subgame.sample``), each layer's masks solved by
    ``run_layer`` (the same kernels, banks, rolls and threads) from the
    rows of the layer after it that they read, both held in small dense
    layers of their own (``compact_layers``: the real layers are gigabytes,
    and a sample scattered over scratch copies of them, each page faulted
    in, measured 16 times the real rate); timed in ``PROBES`` interleaved
    parts, the median rate per ``work_units`` times the whole solve's.  The
    sample holds at least ``SAMPLE_MASKS`` masks of the widest layer per
    part, each layer's run on every thread: a few masks to a layer, run one
    by one, measured a quiet machine at half its speed."""
    sp = state_space(rules)
    widest = max(len(x) for x in sp.layers)
    probe = min(max(PROBE_SECONDS, SAMPLE_SHARE * reference), SAMPLE_SECONDS)
    share = max(probe / max(reference, 1e-9), PROBES * SAMPLE_MASKS / widest)
    part = sample(rules, sp.layers, min(1.0, share))
    if not any(len(x) for x in part):
        return reference
    d, values = compact_layers(rules, part, theta)
    first = next(p for p in range(rules.n_boxes - 1, -1, -1) if len(part[p]))
    solve_masks(d, part[first][:1], values[first + 1], values[first], 0, 1)   # load the kernels

    def solve_part(piece) -> None:
        for p in range(rules.n_boxes - 1, -1, -1):
            # on every thread, as the whole layers they stand for are solved (``run_layer``)
            if len(piece[p]) > 1:
                run_pieces(solve_masks, d, piece[p], values[p + 1], values[p])
            elif len(piece[p]):
                solve_masks(d, piece[p], values[p + 1], values[p], 0, 1)

    rates = []
    for i in range(PROBES):
        piece = tuple(x[i::PROBES] for x in part)
        units = sum(work_units_of(rules, p, len(x)) for p, x in enumerate(piece[:-1]))
        if units:
            rates.append(timed(lambda: solve_part(piece)) / units)
    return float(np.median(rates)) * sum(work_units(rules, p) for p in range(rules.n_boxes))


def compact_layers(rules: Rules, part: tuple[np.ndarray, ...], theta: float = 0.0
                   ) -> tuple[object, list[np.ndarray]]:
    """The ``TurnData`` of ``rules`` and a layer of values per filled count,
    holding only the masks of ``part`` (by layer) and the masks their turns
    lead to, each at a row of its own (``rows``), filled with a pattern of
    values: what ``run_layer`` solves the masks of ``part`` from, a layer
    at a time, as the whole solve does from its gigabyte layers.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> maxi = parse_rules("maxi:rolls=2,bank_cap=2")
    >>> part = tuple(x[:2] for x in state_space(maxi).layers)
    >>> d, values = compact_layers(maxi, part)
    >>> [v.shape for v in values[18:]]     # banks, the masks held, upper totals
    [(3, 5, 85), (3, 3, 85), (3, 1, 85)]
    >>> sorted(d.rows[part[18]].tolist()) == sorted(set(d.rows[part[18]].tolist()))
    True
    """
    sp = state_space(rules)
    d = turn_data(rules, theta)
    ends = np.concatenate([d.cand_bits, np.int64(1) << np.arange(rules.n_boxes)])
    rows = np.zeros_like(d.rows)
    values = []
    pattern = np.random.default_rng(0).random(1 << 16) * 100.0
    for p in range(rules.n_boxes + 1):
        held = [part[p]] if p < len(part) else []
        if p and len(part[p - 1]):
            led = (part[p - 1][:, None] | ends[None, :]).ravel()
            led = led[led < sp.n_masks]
            held.append(led[sp.filled_count(led) == p])
        held = np.unique(np.concatenate(held)) if held else np.zeros(0, dtype=np.int64)
        rows[held] = np.arange(len(held))
        shape = (sp.bank_limit(p) + 1, max(len(held), 1), rules.cap + 1)
        values.append(np.resize(pattern, shape))
    return d._replace(rows=rows), values


def work_units_of(rules: Rules, filled: int, masks: int) -> int:
    """``work_units`` of ``masks`` masks of the layer with ``filled`` boxes filled."""
    return masks * (state_space(rules).bank_limit(filled) + rules.rolls)


def solve_layers(rules: Rules, progress: Callable[[int], None] | None = None,
                 resume: tuple[int, np.ndarray] | None = None, theta: float = 0.0
                 ) -> Iterator[tuple[int, np.ndarray]]:
    """Solve saved-rolls rules one layer at a time, from the full card back
    to the empty one, holding only two layers in memory.

    Yields ``(p, values[k, rank, u])`` (float64, shape ``StateSpace.layer_shape(p)``)
    for ``p = n_boxes, ..., 0``; ``resume = (p, values of layer p)`` continues
    after a finished layer ``p``.  ``progress`` as in ``solve``.
    """
    d = turn_data(rules, theta)
    if resume is None:
        nxt = np.full(state_space(rules).layer_shape(rules.n_boxes), utility(theta, 0.0))
        yield rules.n_boxes, nxt
        done = rules.n_boxes
    else:
        done, nxt = resume
        resume = None                      # hold the layer only as nxt: it is freed as we go
        if nxt.shape != state_space(rules).layer_shape(done):
            raise ValueError(f"layer {done} has shape {nxt.shape}, "
                             f"expected {state_space(rules).layer_shape(done)}")
    for p in range(done - 1, -1, -1):
        cur = np.empty(state_space(rules).layer_shape(p))   # the kernels write every value
        run_layer(d, state_space(rules).layers[p], nxt, cur)
        if progress is not None:
            progress(work_units(rules, p))
        yield p, cur
        nxt = cur


def compiled_keep_values(rules: Rules, values: StateValues, mask: int, upper: int,
                rerolls: int) -> np.ndarray:
    """``out[m]``: expected score to come when keeping multiset ``m`` (of
    ``rules.dice_space``) with ``rerolls`` >= 1 rerolls left (own and banked),
    at turn state (mask, upper), from solved turn-start ``values``.
    Compiled: for bulk use in process."""
    return compiled_keep_levels(rules, values, mask, upper, rerolls, rerolls - 1)[0]


def compiled_keep_levels(rules: Rules, values: StateValues, mask: int, upper: int,
                     rerolls: int, first: int = 0) -> np.ndarray:
    """``out[t - first - 1, m]``: ``compiled_keep_values`` with ``t`` rerolls left,
    for every ``t = first + 1 .. rerolls`` at once (one turn's levels)."""
    nxt, _ = values.next_layer(mask)
    return turn_keeps(turn_data(rules, values.theta), mask, upper, rerolls, first,
                      np.asarray(nxt))
