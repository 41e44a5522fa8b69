r"""Opponents' futures: the distribution of the points still to come under
expected-score play, for every turn-start state, in one backward pass.

Notation.  At a turn start in state ``(mask, u)``, ``F(mask, u)[k]`` is the
probability that a player maximising the expected final score (the optimal
policy of ``yatzy.players.policy``, its tie rule included) gains exactly ``k`` more
points (bonus included) before the card is full.  With ``O(c | mask, u)``
the probability that the turn ends with outcome ``c = (box, points)``
(``policy.batch``'s turn outcomes) and ``g`` the points it gains (plus the
bonus when the upper total crosses the threshold):

.. math::  F(mask, u)[k] = \sum_c O(c \mid mask, u)\, F(mask | box, u')[k - g]

and ``F(full card)[0] = 1``.  An opponent's final-score distribution from a
card is ``F`` at the card's state shifted by the card's score: a lookup, not
a forward pass (``yatzy.research.distribution``) per query.

Layout: the target table's (``yatzy.tables.target.layout``): per reachable mask,
upper totals ``start .. lanes-1`` (lower totals play and score alike), points
``0 .. width-1``; ``values[off[mask] + (u - start) * width[mask] + k]``.
Same rules covered as the target tables (no saved rolls, no yahtzee bonus).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from yatzy.errors import InputError
from yatzy.kernels.futures import pull_futures
from yatzy.kernels.target import layout, table_size
from yatzy.players.policy import pull_back
from yatzy.position.scorecard import Scorecard
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.plan import futures_plan
from yatzy.tables.store import (
    load_array,
    open_or_solve,
    open_table,
    Progress,
    store_derived,
)
from yatzy.tables.subgame import Pieced, measure, open_pieces
from yatzy.tables.target import check_target_rules, part_values as values_from, target_path


def solve(rules: Rules, values: np.ndarray, progress: Progress | None = None) -> np.ndarray:
    """The futures table of ``rules`` (flat, ``target.layout``) under the
    expected-score policy of the value table ``values`` (dense ``[mask, u]``)."""
    check_target_rules(rules)
    return solve_part(rules, values, state_space(rules).layers, np.zeros(table_size(rules)),
                      progress)


def solve_part(rules: Rules, values: np.ndarray, todo, out: np.ndarray,
               progress: Progress | None = None) -> np.ndarray:
    """The futures of the masks ``todo`` (by layer, closed under the states
    after: ``yatzy.tables.subgame``), every upper total, into ``out`` (the
    whole table's layout): the whole solve's values bit for bit."""
    lay = layout(rules)
    sp = state_space(rules)
    for mask in todo[-1]:                  # a full card: nothing more to come
        size = (sp.upper_lanes[mask] - lay.start[mask]) * lay.width[mask]
        out[lay.off[mask]:lay.off[mask] + size:lay.width[mask]] = 1.0
    return pull_back(rules, values, pull_futures, lay, out, progress, layers=todo)


@dataclass
class FuturesTable(Pieced):
    """The futures table of ``rules``: ``remaining(mask, u)`` and
    ``final(card)`` (the final-score pmf from a card).  ``pieces``: None for
    the whole table, else each state's sub-game is solved when first asked
    (``need``, as ``yatzy.tables.target.TargetTable``)."""

    rules: Rules
    values: np.ndarray
    path: Path | None = None
    header: dict | None = None
    pieces: object = None

    def remaining(self, mask: int, upper: int) -> np.ndarray:
        """``F(mask, upper)``: ``pmf[k]`` of the points still to come."""
        lay = layout(self.rules)
        if lay.off[mask] < 0:
            raise InputError("that state cannot be reached under these rules")
        self.need(mask, upper)
        w, start = int(lay.width[mask]), int(lay.start[mask])
        at = int(lay.off[mask]) + (max(upper, start) - start) * w
        return self.values[at:at + w]

    def final(self, card: Scorecard) -> np.ndarray:
        """``pmf[s]``: probability of final score ``s`` from the start of the
        next turn at ``card`` under expected-score play (a point mass at the
        card's score when it is full)."""
        rest = np.array([1.0]) if card.is_full else self.remaining(card.mask, card.upper_state)
        return np.concatenate([np.zeros(card.score), rest])


def futures_path(rules: Rules, directory: Path | str | None = None) -> Path:
    """Next to the target table: ``<name>-<fingerprint>-futures.tbl``."""
    path = target_path(rules, directory)
    return path.with_name(path.name.replace("-target.tbl", "-futures.tbl"))


def solve_and_store(rules: Rules, path: Path, directory: Path | str | None = None,
                    progress: Progress | None = None) -> float:
    """Solve the futures table (the value table opened, or solved, first) and
    store it; returns the seconds the solve took."""
    return store_derived(rules, path, "futures", solve, directory, progress)


def part_values(rules: Rules, todo) -> int:
    """The values of the masks ``todo`` (by layer, every upper total)."""
    return values_from(rules, todo, 0)


def piece_solver(rules: Rules, directory: Path | str | None,
                 progress: Progress | None = None):
    """``solve(todo, lo, out, progress)``: ``solve_part`` under the value
    table of ``rules`` (opened at the first call)."""
    opened: list = []

    def solve(todo, lo, out, step):
        if not opened:
            opened.append(open_table(rules, directory, progress=progress).values)
        solve_part(rules, opened[0], todo, out, step)
    return solve


def open_whole(rules: Rules, directory: Path | str | None = None, *,
               force: bool = False, progress: Progress | None = None,
               checked: bool = False) -> FuturesTable:
    """The whole futures table of ``rules``, solved and stored first if
    needed (its build checked and announced first, ``announce.check``, unless
    ``checked``: already, ``subgame.need_together``)."""
    check_target_rules(rules)
    path = futures_path(rules, directory)

    def load() -> FuturesTable:
        values, header = load_array(rules, path, "futures", (table_size(rules),))
        return FuturesTable(rules, values, path, header)

    return open_or_solve(path, load,
                         lambda: solve_and_store(rules, path, directory, progress), force=force,
                         plan=None if checked else lambda: whole_plan(rules, directory),
                         kind="futures")


def whole_plan(rules: Rules, directory: Path | str | None = None):
    """The build of the whole futures table of ``rules`` (``plan.futures_plan``),
    its time measured on a sample of its own work (``subgame.measure``,
    under the value table: opened, or solved, first)."""
    return futures_plan(rules, futures_path(rules, directory), measure=lambda reference: measure(
        rules, table_size(rules), lambda todo, lo: part_values(rules, todo),
        piece_solver(rules, directory), state_space(rules).layers, 0, reference))


def open_futures(rules: Rules, directory: Path | str | None = None, *,
                 force: bool = False, progress: Progress | None = None) -> FuturesTable:
    """The futures table of ``rules``: the whole one where it is stored (or
    ``force``), else one that solves each state's sub-game when first asked
    (in memory; the whole table, stored, for a state that needs most of it)."""
    check_target_rules(rules)
    path = futures_path(rules, directory)
    if force or path.exists():
        return open_whole(rules, directory, force=force, progress=progress)
    return open_pieces(FuturesTable, rules, "futures", table_size(rules), path, (
                           lambda todo, lo: part_values(rules, todo),
                           piece_solver(rules, directory, progress),
                           lambda checked=False: open_whole(rules, directory, progress=progress,
                                                            checked=checked),
                           lambda: whole_plan(rules, directory)),
                       uppers=False, progress=progress)
