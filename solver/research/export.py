"""Tables for people and other programs: every turn-start state, and the best
action for every roll of one state.

State table columns: ``filled`` (the filled boxes' names joined by ``+``,
empty for a new card), one 0/1 column per box, ``upper_total`` (capped at
the bonus threshold: 63 means 63 or more), ``bonus`` (points earned),
``expected_remaining`` (the value table: expected points still to come,
bonus included) and ``expected_final = upper_total + bonus +
expected_remaining``: the expected final score of a card whose filled lower
boxes hold 0 -- add their points (and upper points above the threshold) for
any other card.  Only reachable states are listed: the upper total must be
one the filled upper boxes can make.  With a yahtzee bonus, ``yahtzee_scored``
says whether the yahtzee box holds its 50; with saved rolls, ``bank`` is the
number of rolls banked (one row per bank size).

Strategy table columns (one row per roll and rerolls left): ``rerolls``,
``dice``, ``action`` (as ``yatzy advise`` prints it), ``kind``, ``keep``,
``box``, ``points``, ``expected_final_score`` of the best action and
``margin`` over the second best.
"""

from __future__ import annotations

import csv
import io
import json

import numpy as np

from yatzy.bounds import brief
from yatzy.errors import InputError, missing_extra
from yatzy.files import atomic_path, atomic_text
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.position.scoring import upper_after, upper_bonus
from yatzy.space import state_space
from yatzy.tables.store import Table

FORMATS = ("csv", "parquet", "json")


MAX_ROWS = 100_000_000      # refuse exports larger than this (unless max_bank limits them)


def states(table: Table, max_bank: int | None = None) -> dict[str, np.ndarray]:
    """The state table as named columns (see the module docstring); with
    saved rolls, one row per bank up to ``max_bank`` (default: every bank)."""
    rules = table.rules
    reachable = _upper_totals(rules)
    parts: list[tuple[np.ndarray, np.ndarray, int]] = []
    rows = 0
    for p, layer in enumerate(state_space(rules).layers[:-1]):
        banks = state_space(rules).bank_limit(p) if max_bank is None else min(max_bank, state_space(rules).bank_limit(p))
        lens = np.array([len(reachable[m & rules.upper_bits]) for m in layer.tolist()])
        rows += int(lens.sum()) * (banks + 1)
        if rows > MAX_ROWS:
            raise InputError(f"more than {MAX_ROWS:,} states: too many to export"
                             + ("; limit the rolls banked (max_bank)" if rules.saved_rolls else ""))
        mask = np.repeat(layer, lens)
        upper = np.concatenate([reachable[m & rules.upper_bits] for m in layer.tolist()])
        parts.extend((mask, upper, k) for k in range(banks + 1))
    mask = np.concatenate([m for m, _, _ in parts])
    upper = np.concatenate([u for _, u, _ in parts])
    bank = np.concatenate([np.full(len(m), k, dtype=np.int64) for m, _, k in parts])
    remaining = np.concatenate([table.lookup(k, m, u) for m, u, k in parts])
    bonus = upper_bonus(rules, upper)
    names = np.array([b.name for b in rules.boxes])
    bits = (mask[:, None] >> np.arange(rules.n_boxes)) & 1
    filled_by_mask = {m: "+".join(names[(m >> np.arange(rules.n_boxes)) & 1 == 1])
                      for m in np.unique(mask).tolist()}
    cols: dict[str, np.ndarray] = {"filled": np.array([filled_by_mask[m] for m in mask.tolist()],
                                                      dtype=object)}
    for b, name in enumerate(names):
        cols[str(name)] = bits[:, b].astype(np.int8)
    if state_space(rules).flag_bit:
        cols["yahtzee_scored"] = (mask & state_space(rules).flag_bit != 0).astype(np.int8)
    if rules.saved_rolls:
        cols["bank"] = bank
    cols["upper_total"] = upper
    cols["bonus"] = bonus
    cols["expected_remaining"] = remaining
    cols["expected_final"] = upper + bonus + remaining
    return cols


ROW_BYTES = {"csv": 144, "json": 168, "parquet": 16}
"""Bytes per exported row of a 15-box rule set (nordic: 1,430,464 rows, a
csv of 206 MB, json 241 MB, parquet 23 MB); a row grows with the boxes."""


def estimated_size(rules, fmt: str, max_bank: int | None = None) -> tuple[int, int]:
    """The rows an export of ``rules`` writes and about how many bytes they
    take as ``fmt`` (said before a big export starts)."""
    reachable = _upper_totals(rules)
    space = state_space(rules)
    rows = 0
    for p, layer in enumerate(space.layers[:-1]):
        banks = space.bank_limit(p) if max_bank is None else min(max_bank, space.bank_limit(p))
        rows += sum(len(reachable[m & rules.upper_bits]) for m in layer.tolist()) * (banks + 1)
    return rows, int(rows * ROW_BYTES[fmt] * (rules.n_boxes + 3) / 18)


def _upper_totals(rules) -> dict[int, np.ndarray]:
    """Upper totals (capped) the filled upper boxes can make, per upper mask."""
    upper_boxes = [b for b in range(rules.n_boxes) if rules.is_upper[b]]
    out: dict[int, np.ndarray] = {}
    for sub in range(1 << len(upper_boxes)):
        totals = np.zeros(1, dtype=np.int64)
        mask = 0
        for i, b in enumerate(upper_boxes):
            if sub >> i & 1:
                mask |= 1 << b
                points = np.array(sorted(rules.box_points[b]), dtype=np.int64)
                totals = np.unique(upper_after(rules, b, totals[:, None], points[None, :])[0])
        out[mask] = totals
    return out


def check_format(fmt: str, out: str | None) -> None:
    """Raise InputError unless states can be written as ``fmt`` to ``out``."""
    if fmt not in FORMATS:
        raise InputError(f"format {brief(fmt)}: expected one of {', '.join(FORMATS)}")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise missing_extra("parquet export", "parquet", "pyarrow") from None
        if not out:
            raise InputError("parquet export needs a file to write to, not standard output")


def write_states(table: Table, fmt: str, out: str | None, stdout,
                 max_bank: int | None = None) -> int:
    """Write the state table as ``fmt`` to ``out`` (atomically) or ``stdout``;
    returns the number of rows."""
    check_format(fmt, out)
    cols = states(table, max_bank)
    n = len(cols["upper_total"])
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq
        with atomic_path(out) as tmp:
            pq.write_table(pa.table({k: (v.astype(bool) if v.dtype == np.int8 else v)
                                     for k, v in cols.items()}), str(tmp))
        return n
    if out:
        with atomic_text(out) as f:
            _write_text(cols, fmt, table, f)
    else:
        _write_text(cols, fmt, table, stdout)
    return n


def _write_text(cols: dict[str, np.ndarray], fmt: str, table: Table, f) -> None:
    names = list(cols)
    formatted = [cols[k].tolist() if cols[k].dtype != np.float64
                 else [float(x) for x in cols[k]] for k in names]
    rows = zip(*formatted)
    if fmt == "csv":
        w = csv.writer(f, lineterminator="\n")
        w.writerow(names)
        w.writerows(rows)
        return
    f.write(json.dumps({"rules": table.rules.spec, "columns": names})[:-1] + ', "rows": [\n')
    first = True
    buf = io.StringIO()
    for row in rows:
        buf.write(("" if first else ",\n") + json.dumps(row))
        first = False
        if buf.tell() > 1 << 20:
            f.write(buf.getvalue())
            buf = io.StringIO()
    f.write(buf.getvalue() + "\n]}\n")


STRATEGY_COLUMNS = ("rerolls", "dice", "action", "kind", "keep", "box", "points",
                    "expected_final_score", "margin")


def strategy(table: Table, card: Scorecard) -> list[dict]:
    """The best action (``yatzy.players.advice`` ties rule) for every roll and every
    number of rerolls left at ``card``'s turn start, as rows."""
    rules = table.rules
    if card.is_full:
        raise InputError("the card is full: there is nothing left to decide")
    ds = rules.dice_space
    rows = []
    for rerolls in range(card.max_rerolls + 1):
        for r in range(ds.n_rolls):
            dice = ds.dice_of(ds.first_roll + r)
            adv = advise(table, card, dice, rerolls)
            best = adv.best
            second = adv.actions[1].expected_final_score if len(adv.actions) > 1 else None
            rows.append({
                "rerolls": rerolls, "dice": "".join(map(str, dice)), "action": str(best),
                "kind": best.kind,
                "keep": "".join(map(str, best.dice)) if best.kind == "keep" else "",
                "box": best.box, "points": best.points if best.kind == "score" else "",
                "expected_final_score": best.expected_final_score,
                "margin": "" if second is None else best.expected_final_score - second})
    return rows


def write_strategy(rows: list[dict], out: str | None, stdout) -> None:
    """Strategy rows as CSV to ``out`` (atomically) or ``stdout``."""
    def write(f) -> None:
        w = csv.DictWriter(f, STRATEGY_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    if out:
        with atomic_text(out) as f:
            write(f)
    else:
        write(stdout)
