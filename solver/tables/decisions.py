"""The decision table: the optimal policy's action in every position, looked up
instead of computed.

For every turn-start state ``(mask, u)`` it holds one *row*: the action byte
``rows[j, k, r]`` (``yatzy.players.policy``'s encoding, the preference code
of ``yatzy.rules.ties``) with ``k`` rerolls left after roll ``r``.  A row is
one contiguous block of ``rolls * n_rolls`` bytes (756 for five dice and three
rolls), so a turn reads one block.  Upper totals of a mask that play alike
share a row: ``index[mask, u]`` is the row of state ``(mask, u)`` (-1 for
totals a mask cannot have, for masks no game reaches and for full cards).

The rows are those of ``kernels.policy.batch`` (the kernel behind
``players.policy.decide`` and so behind the simulations), decided for every
mask and every upper total: a lookup gives the same action, tie rule
included, as deciding the state again.

On disk the table is a derived table of bytes (``yatzy.tables.store``,
``save_array`` / ``load_array``): the index as little-endian int32, then the
rows; the header names the value table it was built from (its sha256), so a
table built from another value table is rebuilt, never used.  The file is
memory-mapped: a simulation reads only the rows its games reach.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from yatzy.errors import TableError
from yatzy.kernels.policy import NO_OUTCOMES, ActionRows, Job, batch, policy_tables
from yatzy.kernels.threads import run_pieces
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.plan import Plan
from yatzy.tables.store import (
    Progress,
    Table,
    load_array,
    open_or_solve,
    open_table,
    save_array,
    table_path,
)

CHUNK_ROWS = 1 << 16          # rows decided at a time while building (about 50 MB)
LAYOUT = "decisions"
SECONDS_PER_UNIT = 6e-9       # build time per row and multiset and roll, 2-core machine (quiet:
                              # nordic 12.8 s, yahtzee 2.1 s)


@dataclass(frozen=True)
class DecisionTable:
    """``index[mask, u]``: the row of state ``(mask, u)`` (int32, -1: none);
    ``rows[j, k, r]``: the action byte of row ``j`` with ``k`` rerolls left
    after roll ``r`` (uint8)."""

    rules: Rules
    index: np.ndarray
    rows: np.ndarray
    path: Path | None = None
    header: dict | None = None

    def action(self, mask: int, upper: int, rerolls: int, roll: int) -> int:
        """The action byte at state ``(mask, upper)``, ``rerolls`` left, roll
        index ``roll``."""
        return int(self.rows[self.index[mask, upper], rerolls, roll])

    @property
    def nbytes(self) -> int:
        return self.index.nbytes + self.rows.nbytes


def playable(rules: Rules) -> np.ndarray:
    """The masks a turn is played from: reachable (``StateSpace.layers``)
    and not full, sorted."""
    return np.sort(np.concatenate(state_space(rules).layers[:-1])).astype(np.int64)


def build(rules: Rules, values: np.ndarray, theta: float = 0.0,
          progress: Progress | None = None) -> DecisionTable:
    """The decision table of the optimal policy of the value table ``values``
    (dense ``[mask, u]``, of the objective ``theta``), built in memory;
    ``progress(done, total)`` follows it in rows (once before the first
    chunk, then after each)."""
    g = policy_tables(rules, theta)
    values = np.require(values, np.float64, ["C", "W"])
    sp = state_space(rules)
    width = rules.cap + 1
    masks = playable(rules)
    span = (sp.upper_lanes - sp.lane_start)[masks].astype(np.int64)   # most rows of a mask
    index = np.full((sp.n_masks, width), -1, dtype=np.int32)
    ends = np.cumsum(span)
    parts, done = [], 0
    first = 0
    if progress:
        progress(0, int(ends[-1]))
    while first < len(masks):
        before = ends[first - 1] if first else 0
        last = max(first + 1, int(np.searchsorted(ends, before + CHUNK_ROWS, side="right")))
        chunk = masks[first:last]
        base = np.concatenate([[0], np.cumsum(span[first:last])[:-1]]).astype(np.int64)
        rows = np.empty((int(span[first:last].sum()), rules.rolls, rules.dice_space.n_rolls),
                        dtype=np.uint8)
        lane_row = np.full((len(chunk), width), -1, dtype=np.int64)
        run_pieces(batch, g, Job(values, 0, chunk, np.empty((0, 0))),
                   ActionRows(rows, lane_row, base), NO_OUTCOMES)
        used = np.where(lane_row >= 0, lane_row - base[:, None], -1).max(axis=1) + 1
        keep = np.concatenate([np.arange(b, b + n) for b, n in zip(base, used)])
        start = done + np.concatenate([[0], np.cumsum(used)[:-1]])
        index[chunk] = np.where(lane_row >= 0, lane_row - base[:, None] + start[:, None], -1)
        parts.append(rows[keep])
        done += int(used.sum())
        first = last
        if progress:
            progress(int(ends[last - 1]), int(ends[-1]))
    return DecisionTable(rules, index, np.concatenate(parts))


def decisions_path(rules: Rules, directory: Path | str | None = None,
                   theta: float = 0.0) -> Path:
    """Beside the value table: ``<name>-<fingerprint>[-theta..]-decisions.tbl``."""
    path = table_path(rules, directory, theta)
    return path.with_name(path.stem + "-decisions.tbl")


def _flat(table: DecisionTable) -> np.ndarray:
    return np.concatenate([table.index.astype("<i4").reshape(-1).view(np.uint8),
                           table.rows.reshape(-1)])


def store(rules: Rules, path: Path, values: Table, theta: float = 0.0,
          progress: Progress | None = None) -> float:
    """Build the decision table from the value table ``values`` (of the
    objective ``theta``) and store it at ``path``; returns the seconds the
    build took (``progress``: see ``build``)."""
    start = time.perf_counter()
    table = build(rules, values.values, theta, progress)
    seconds = time.perf_counter() - start
    extra = {"theta": float(theta), "rows": int(len(table.rows)),
             "values_sha256": values.header.get("sha256"), "solve_seconds": seconds}
    try:
        save_array(_flat(table), rules, path, LAYOUT, extra, dtype="uint8")
    except OSError as e:
        raise TableError(f"{path}: cannot write the table ({e.strerror or e})") from None
    return seconds


def load(rules: Rules, path: Path, values_sha256: str | None,
         theta: float = 0.0) -> DecisionTable:
    """Open the stored decision table at ``path`` (memory-mapped); raises
    TableError naming the problem (corrupt, truncated, built from another
    value table than the one whose sha256 is ``values_sha256``)."""
    data, header = load_array(rules, path, LAYOUT, (-1,), dtype="uint8")
    sp = state_space(rules)
    width = rules.cap + 1
    row_bytes = rules.rolls * rules.dice_space.n_rolls
    n_index = 4 * sp.n_masks * width
    n_rows = header.get("rows")
    if header.get("theta") != float(theta):
        raise TableError(f"{path}: theta is {header.get('theta')!r}, expected {float(theta)!r}")
    if header.get("values_sha256") != values_sha256:
        raise TableError(f"{path}: built from another value table")
    if not isinstance(n_rows, int) or len(data) != n_index + n_rows * row_bytes:
        raise TableError(f"{path}: {len(data)} bytes do not hold {n_rows!r} rows")
    index = data[:n_index].view("<i4").reshape(sp.n_masks, width)
    rows = data[n_index:].reshape(n_rows, rules.rolls, rules.dice_space.n_rolls)
    if int(index.max()) >= n_rows or int(index.min()) < -1:
        raise TableError(f"{path}: the index names rows the table does not hold (corrupt table)")
    return DecisionTable(rules, index, rows, path, header)


def plan(rules: Rules, path: Path | None = None) -> Plan:
    """The build of the decision table of ``rules``: its decisions (an
    action byte for every state a game reaches, rerolls left and roll), at
    most one row per upper total of every mask on disk, so its size is an
    upper bound (equal rows of a mask are stored once, 604 MiB of 785 for
    ``nordic``); the value table held in memory too.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> print(plan(parse_rules("nordic")))
    decision table of nordic: 815,172,120 decisions, at most 785.4 MiB on disk, 1.5 GiB in memory, about 9 s
    """
    sp = state_space(rules)
    n_rows = int((sp.upper_lanes - sp.lane_start)[playable(rules)].sum())
    row_bytes = rules.rolls * rules.dice_space.n_rolls
    index = 4 * sp.n_masks * (rules.cap + 1)
    values = 8 * sp.n_masks * (rules.cap + 1)
    return Plan(f"decision table of {rules.spec}", path, n_rows * row_bytes,
                index + n_rows * row_bytes + 4096,
                values + 2 * (index + n_rows * row_bytes),
                n_rows * rules.dice_space.n_multisets * rules.rolls * SECONDS_PER_UNIT,
                file_at_most=True, kind="decisions", unit="decisions")  # equal rows stored once


def open_decisions(rules: Rules, directory: Path | str | None = None, *, force: bool = False,
                   theta: float = 0.0, values: Table | None = None,
                   progress: Progress | None = None) -> DecisionTable:
    """The decision table of the optimal policy of ``rules`` (and the
    objective ``theta``), built and stored first if needed (seconds), from
    the value table ``values`` (default: the stored one, opened or solved
    first); ``progress(done, total)`` follows the builds."""
    if values is None:
        values = open_table(rules, directory, theta=theta, progress=progress)
    path = decisions_path(rules, directory, theta)
    digest = values.header.get("sha256")
    return open_or_solve(path, lambda: load(rules, path, digest, theta),
                         lambda: store(rules, path, values, theta, progress), force=force,
                         plan=lambda: plan(rules, path),
                         kind="decisions")
