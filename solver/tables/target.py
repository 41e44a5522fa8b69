r"""Playing for a target: the largest probability of finishing with at least
``T`` points, exact, for every turn-start state and every need at once.

Notation.  At a turn start in state ``(mask, u)``, ``P(mask, u, n)`` is the
largest probability, over all strategies, that the points still to come
reach ``n`` (the *need*: the target minus the points on the card).
``P = 1`` for ``n <= 0`` and ``P = 0`` beyond the most the open boxes can
still give.  Each need has its own best strategy: the maxima are taken per
need.  Within a turn, with ``t`` rerolls left after roll ``R``:

* scoring ``s`` points in box ``b`` (plus the bonus ``beta`` when the upper
  total crosses the threshold) leads to ``P(mask | b, u', n - s - beta)``;
  ``X_0(R, n)`` is the best of them;
* keeping and rerolling averages and maximises exactly as for the expected
  score: :math:`W_t(K, n) = E[X_{t-1}(K + \text{fresh dice}, n)]`,
  :math:`X_t(R, n) = \max_{K \subseteq R} W_t(K, n)`;
* :math:`P(mask, u, n) = \sum_R P(R) X_{rolls-1}(R, n)`.

So the turn is the engine's turn with the need axis as the vector axis: the
averaging, best keeps and per-roll maxima are ``yatzy.kernels.turn``'s kernels, and
only the candidates differ (a shift along the need axis instead of an
added score).  One solve covers every target.

Layout: the masks the fill order can reach, each with its upper totals
``start .. lanes-1`` (``StateSpace.lane_start``: below ``start`` the bonus is
out of reach and the total no longer matters) and needs ``0 .. M`` (``M``:
the most the open boxes and the bonus can still give);
``values[off[mask] + (u - start) * width[mask] + n]`` with ``width = M + 1``.
For ``nordic``: 229 million values, 1.7 GiB (float64).

Not covered: saved rolls and the yahtzee bonus (the bonus would have to be a
shift along the need axis inside the turn kernels).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.target import layout, solve_masks, table_size
from yatzy.kernels.threads import run_pieces
from yatzy.kernels.turn import turn_data
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.plan import target_plan
from yatzy.tables.subgame import Pieced, lane_counts, measure, open_pieces
from yatzy.tables.store import (
    Progress,
    TableError,
    checkpoint_array,
    default_directory,
    load_array,
    open_or_solve,
    partial_path,
    save_array,
)

SERIAL_BELOW = 8        # layers with fewer masks are solved on one thread


def check_target_rules(rules: Rules) -> None:
    """InputError for rules whose target tables this module cannot solve."""
    if rules.saved_rolls:
        raise InputError(f"rules {rules.spec}: target tables do not support saved rolls")
    if why := rules.play.refuse("target tables"):
        raise InputError(f"rules {rules.spec}: {why}")
    if rules.yahtzee_bonus:
        raise InputError(f"rules {rules.spec}: target tables do not support the yahtzee "
                         "bonus (try yahtzee:yahtzee_bonus=false)")


# ------------------------------------------------------------------ kernels


# ------------------------------------------------------------------ solving
def solve_layer(d, lay, layer: np.ndarray, values: np.ndarray, lo: int = 0) -> None:
    """Solve the masks ``layer`` (of one layer) into ``values`` from the
    totals ``lo`` on (``kernels.target.solve_masks``), on every thread when
    there are enough of them."""
    if len(layer) < SERIAL_BELOW:
        solve_masks(d, lay, layer, values, lo, 0, 1)
    else:
        run_pieces(solve_masks, d, lay, layer, values, lo)


def solve_part(rules: Rules, todo: tuple[np.ndarray, ...], lo: int, values: np.ndarray,
               progress=None) -> None:
    """Solve the masks ``todo`` (by layer, closed under the states after:
    ``yatzy.tables.subgame``) from the upper total ``lo`` on into ``values``
    (the whole table's layout), by the kernels of the whole solve: the same
    values bit for bit.  ``progress(done, total)``: values solved, after each
    layer."""
    d, lay, sp = turn_data(rules), layout(rules), state_space(rules)
    done, total = 0, part_values(rules, todo, lo)
    for mask in todo[-1]:                 # nothing left to score: only need 0 is met
        values[lay.off[mask]:lay.off[mask] + (sp.upper_lanes[mask]
                                              - lay.start[mask]) * lay.width[mask]] = 1.0
    for layer in reversed(todo[:-1]):
        if len(layer):
            solve_layer(d, lay, layer, values, lo)
            done += part_values(rules, (layer, layer[:0]), lo)
            if progress is not None:
                progress(done, total)


def part_values(rules: Rules, todo: tuple[np.ndarray, ...], lo: int = 0) -> int:
    """How many values solving the masks ``todo`` from the total ``lo`` on
    computes (the states of full cards cost nothing)."""
    lay = layout(rules)
    return int(sum((lane_counts(rules, x, lo) * lay.width[x]).sum() for x in todo[:-1]))


def work_units(rules: Rules, filled: int) -> int:
    """Relative cost of the layer of masks with ``filled`` boxes filled."""
    lay = layout(rules)
    masks = state_space(rules).layers[filled]
    return int(((state_space(rules).upper_lanes[masks] - lay.start[masks]) * lay.width[masks]).sum())


def solve(rules: Rules, progress=None, *, out: np.ndarray | None = None, resume: int = 0,
          checkpoint=None) -> np.ndarray:
    """The target table of ``rules`` (flat, see ``layout``), solved from the
    full card down; ``out``, ``resume``, ``checkpoint`` and ``progress`` as
    for ``engine.solve``."""
    check_target_rules(rules)
    d, lay = turn_data(rules), layout(rules)
    values = np.empty(table_size(rules)) if out is None else out
    full = state_space(rules).layers[-1]
    for mask in full:                    # nothing left to score: only need 0 is met
        values[lay.off[mask]:lay.off[mask] + (state_space(rules).upper_lanes[mask]
                                              - lay.start[mask]) * lay.width[mask]] = 1.0
    for i, layer in enumerate(reversed(state_space(rules).layers[:-1])):
        if i >= resume:
            solve_layer(d, lay, layer, values)
            if checkpoint is not None:
                checkpoint(i + 1)
        if progress is not None:
            progress(work_units(rules, rules.n_boxes - 1 - i))
    return values


# ------------------------------------------------------------------ the table
@dataclass
class TargetTable(Pieced):
    """The target table of ``rules``: ``probability(card, target)``.

    ``pieces``: None for the whole table (stored, or solved whole); else a
    ``yatzy.tables.subgame.Pieces`` that solves each position's sub-game
    when a question first reaches it (``need``; ``state``, ``lookup`` and
    ``probability`` call it), in memory, or opens the whole table when the
    position needs most of it."""

    rules: Rules
    values: np.ndarray
    path: Path | None = None
    header: dict | None = None
    pieces: object = None

    def state(self, mask: int, upper: int, need: int) -> float:
        """``P(mask, upper, need)`` (1 for needs met, 0 beyond reach)."""
        if need <= 0:
            return 1.0
        lay = layout(self.rules)
        w = int(lay.width[mask])
        if lay.off[mask] < 0:
            raise InputError("that state cannot be reached under these rules")
        if need >= w:
            return 0.0
        self.need(mask, upper)
        start = int(lay.start[mask])
        return float(self.values[lay.off[mask] + (max(upper, start) - start) * w + need])

    def lookup(self, masks: np.ndarray, uppers: np.ndarray, needs: np.ndarray) -> np.ndarray:
        """``P`` at (``masks``, ``uppers``, ``needs``) (arrays of any matching shapes)."""
        masks, uppers, needs = np.broadcast_arrays(np.asarray(masks), np.asarray(uppers),
                                                   np.asarray(needs))
        if self.pieces is not None and not self.pieces.cover.holds_all(masks, uppers):
            for m, u in sorted(set(zip(masks.ravel().tolist(), uppers.ravel().tolist()))):
                self.need(m, u)
        lay = layout(self.rules)
        w, start = lay.width[masks], lay.start[masks]
        inside = (needs > 0) & (needs < w)
        at = lay.off[masks] + (np.maximum(uppers, start) - start) * w + np.clip(needs, 0, w - 1)
        return np.where(needs <= 0, 1.0, np.where(inside, self.values[np.where(inside, at, 0)],
                                                  0.0))

    def probability(self, card, target: int) -> float:
        """The largest probability of finishing at or above ``target`` from
        the start of the next turn at ``card``."""
        return self.state(card.mask, card.upper_state, target - card.score)


def target_path(rules: Rules, directory: Path | str | None = None) -> Path:
    directory = Path(directory) if directory else default_directory()
    return directory / f"{rules.name}-{rules.fingerprint}-target.tbl"


def load(rules: Rules, path: Path) -> TargetTable:
    values, header = load_array(rules, path, "target", (table_size(rules),))
    return TargetTable(rules, values, path, header)


def solve_and_store(rules: Rules, path: Path, progress: Progress | None = None) -> float:
    """Solve the target table of ``rules`` into ``<table>.partial`` (a
    checkpoint per layer: an interrupted solve resumes) and store it;
    returns the seconds the solve took."""
    total = sum(work_units(rules, p) for p in range(rules.n_boxes))
    done = 0
    out, resume, checkpoint = checkpoint_array(rules, path, (table_size(rules),))
    if progress:
        done = sum(work_units(rules, rules.n_boxes - 1 - i) for i in range(resume))
        progress(done, total)

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress(min(done, total), total)

    start = time.perf_counter()
    try:
        solve(rules, step, out=out, resume=resume, checkpoint=checkpoint)
        seconds = time.perf_counter() - start
        save_array(out, rules, path, "target", {"solve_seconds": seconds})
    except OSError as e:
        raise TableError(f"{path}: cannot write the table ({e.strerror or e})") from None
    del out
    for leftover in (partial_path(path), partial_path(path, ".json")):
        leftover.unlink(missing_ok=True)
    return seconds


def open_whole(rules: Rules, directory: Path | str | None = None, *,
               progress: Progress | None = None, force: bool = False,
               checked: bool = False) -> TargetTable:
    """The whole target table of ``rules``, solved and stored first if
    needed (one process solves it; others wait and use its result; its
    build checked and announced first, ``announce.check``, unless ``checked``:
    already, with the builds it follows, ``subgame.need_together``)."""
    check_target_rules(rules)
    path = target_path(rules, directory)
    return open_or_solve(path, lambda: load(rules, path),
                         lambda: solve_and_store(rules, path, progress), force=force,
                         plan=None if checked else lambda: whole_plan(rules, directory),
                         kind="target")


def whole_plan(rules: Rules, directory: Path | str | None = None):
    """The build of the whole target table of ``rules`` (``plan.target_plan``),
    its time measured on a sample of its own work (``whole_measure``)."""
    return target_plan(rules, target_path(rules, directory), measure=whole_measure(rules))


def whole_measure(rules: Rules):
    """``Plan.measure`` of the whole table's build: a sample of its states
    solved and timed (``yatzy.tables.subgame.measure``)."""
    return lambda reference: measure(
        rules, table_size(rules), lambda todo, lo: part_values(rules, todo, lo),
        lambda todo, lo, values, step: solve_part(rules, todo, lo, values, step),
        state_space(rules).layers, 0, reference)


def open_target(rules: Rules, directory: Path | str | None = None, *,
                progress: Progress | None = None, force: bool = False) -> TargetTable:
    """The target table of ``rules``: the whole one where it is stored (or
    ``force``: solved again), else one that solves each position's sub-game
    when a question first needs it and the whole table (stored, announced)
    only for a position that needs most of it (``TargetTable.need``)."""
    check_target_rules(rules)
    path = target_path(rules, directory)
    if force or path.exists():
        return open_whole(rules, directory, progress=progress, force=force)
    return open_pieces(TargetTable, rules, "target", table_size(rules), path, (
                           lambda todo, lo: part_values(rules, todo, lo),
                           lambda todo, lo, values, step: solve_part(rules, todo, lo, values, step),
                           lambda checked=False: open_whole(rules, directory, progress=progress,
                                                            checked=checked),
                           lambda: whole_plan(rules, directory)),
                       progress=progress)
