"""Size before work: what a table build will take, known before it starts.

Every build of a stored table (the value table of a rule set, its tables
for a risk parameter θ, the target and futures tables, the layered tables
with saved rolls) is first described by a ``Plan``: what it builds, how many
values, its size on disk and in memory, and about how long it takes on this
kind of machine (from its state count and rates measured on the reference
machine, ``RATES``).  Before any work, ``fits(plan)`` refuses
(``InputError``, one line naming the sizes) a build whose file does not fit
in the free disk of its folder (``shutil.disk_usage``) or whose solve does
not fit in the memory available (``MemAvailable``), and for a big build
(over ``BIG_BYTES`` on disk or in memory, or over ``BIG_SECONDS``) asks the
confirmation function set by ``set_confirm`` (the CLI: ``--yes``, else a
y/N question on a terminal), refusing it when there is none or the answer
is no.  Without ``set_confirm`` (the library used from Python) big builds
that fit go ahead.

``estimate(plan)`` is its time on this machine now: the reference machine's,
calibrated as it runs (a short busy loop measures the share of a core this
process gets now, ``cpu_share``: 1 on a quiet machine, 0.25 where four
processes compete for each core), or measured on a sample of its own work.
What is said about a build, and about a compile, is
``yatzy.tables.announce``'s.  The sizes of the files are
``yatzy.tables.sizes``'s.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> p = value_plan(parse_rules("nordic"))
    >>> p.values, p.disk_bytes > 16 << 20, p.big
    (2097152, True, False)
    >>> describe_bytes(112_796_237_824)
    '105.0 GiB'
"""
from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from math import prod
from pathlib import Path
from typing import Callable

from yatzy.errors import InputError
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.sizes import CHECKPOINT_BYTES, FLOAT32_BYTES, HEADER_ROOM

BIG_BYTES = 2 << 30          # above this on disk or in memory: confirm first
BIG_SECONDS = 300.0          # above this: confirm first

# Seconds per unit of work on the reference machine (2 cores, 2026): every
# stored value (a state, or a state and a need) costs (dice multisets x
# rolls) units; measured on maxi:saved_rolls=false (3.0 min) for the value
# tables, on nordic for the target (1.5 min) and futures (30 s) tables (quiet,
# 2026-12-03; an earlier measurement gave 52 s and 23 s); the
# explanations' parts table costs (dice multisets x rolls) units per
# turn-start state (nordic: 35 s at load 16, about 10 s quiet).
RATES = {"value": 5e-10, "target": 2.85e-10, "futures": 9.4e-11, "parts": 7e-9}
# With saved rolls a mask's turn runs (bank + rolls) levels, each over every
# dice multiset and upper total, and scores at every level: a unit of these
# costs 1.6-1.7 of the dense solve's (CPU time per unit, the same machine,
# maxi:rolls=2,bank_cap=2 and maxi against maxi:saved_rolls=false)
SAVED_ROLLS_FACTOR = 1.7
PROCESS_BYTES = 320 << 20    # the interpreter, numpy, Numba and the compiled kernels

Confirm = Callable[["Plan"], bool]
_confirm: Confirm | None = None


@dataclass(frozen=True)
class Plan:
    """One table build: ``what`` it is, where it goes, its ``values``, the
    free disk it needs while it builds (``disk_bytes``), the memory, and
    the seconds it takes on the reference machine, roughly; ``file_bytes``:
    the size of the finished file where it is less than ``disk_bytes``
    (a build that keeps a checkpoint beside it), ``file_at_most``: that
    size is an upper bound (rows shared by equal states are only found
    while building).

    >>> print(Plan("t", None, 10, 3 << 30, 1 << 30, 30.0, file_bytes=2 << 30))
    t: 10 values, 2.0 GiB on disk (3.0 GiB free while it builds), 1.0 GiB in memory, about 30 s
    >>> print(Plan("d", None, 10, 785 << 20, 1 << 30, 13.0, file_at_most=True))
    d: 10 values, at most 785.0 MiB on disk, 1.0 GiB in memory, about 13 s
    >>> print(Plan("a sub-game", None, 10, 0, 80, 13.0))
    a sub-game: 10 values, nothing stored, 80 bytes in memory, about 13 s
    """

    what: str
    path: Path | None
    values: int
    disk_bytes: int
    memory_bytes: int
    seconds: float
    file_bytes: int | None = None
    file_at_most: bool = False
    measure: Callable[[float], float] | None = field(default=None, compare=False, repr=False)
    kind: str = ""          # the kind of table it builds (``TABLE_KINDS``): with a path, whole
    unit: str = "values"    # what ``values`` counts (``UNITS``)

    @property
    def big(self) -> bool:
        """Whether the build needs a confirmation (``BIG_BYTES``, ``BIG_SECONDS``,
        on the reference machine: the same answer quiet or loaded)."""
        return (max(self.disk_bytes, self.memory_bytes) > BIG_BYTES
                or self.seconds > BIG_SECONDS)

    @property
    def file_size(self) -> int:
        """Bytes of the finished file (or its upper bound, ``file_at_most``)."""
        return self.disk_bytes if self.file_bytes is None else self.file_bytes

    def __str__(self) -> str:
        disk = ("at most " if self.file_at_most else "") + describe_bytes(self.file_size)
        if not self.disk_bytes and self.path is None:
            disk = "nothing stored"
        elif self.file_size < self.disk_bytes:
            disk += f" on disk ({describe_bytes(self.disk_bytes)} free while it builds)"
        else:
            disk += " on disk"
        return (f"{self.what}: {self.values:,} {self.unit}, {disk}, "
                f"{describe_bytes(self.memory_bytes)} in memory, "
                f"about {describe_seconds(self.seconds)}")


def describe_bytes(n: int) -> str:
    """``n`` bytes in KiB, MiB, GiB or TiB, one decimal."""
    size, unit = float(n), "bytes"
    for u in ("KiB", "MiB", "GiB", "TiB"):
        if size < 1024:
            break
        size, unit = size / 1024, u
    return f"{n} bytes" if unit == "bytes" else f"{size:.1f} {unit}"


def describe_seconds(s: float) -> str:
    """``s`` seconds as ``12 s``, ``4.4 min`` or ``3.1 h``."""
    if s < 90:
        return f"{max(s, 1):.0f} s"
    if s < 5400:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.1f} h"


def turn_cost(rules: Rules) -> int:
    """Work units of one turn-start state: dice multisets times rolls."""
    return rules.dice_space.n_multisets * rules.rolls


def value_plan(rules: Rules, path: Path | None = None, theta: float = 0.0,
               measure=None) -> Plan:
    """The build of the value table of ``rules`` (for ``theta``); ``measure``:
    its time measured on this machine (``Plan.measure``), used with saved
    rolls and for builds over ``CALIBRATE_SECONDS`` on the reference
    machine without (the five-dice presets' 1.5 s are not timed first:
    their bar shows how they go)."""
    what = f"value table of {rules.spec}" + (f" (theta {theta:g})" if theta else "")
    sp = state_space(rules)
    if not rules.saved_rolls:
        values = sp.n_masks * (rules.cap + 1)
        disk = 8 * values + 4096
        memory = 8 * values if 8 * values <= CHECKPOINT_BYTES else min(8 * values, 1 << 30)
        seconds = values * turn_cost(rules) * RATES["value"]
        return Plan(what, path, values, disk, memory, seconds,
                    measure=measure if seconds > CALIBRATE_SECONDS else None, kind="value")
    cells = [prod(sp.layer_shape(p)) for p in range(rules.n_boxes + 1)]
    values = sum(cells)
    item = 4 if 8 * values > FLOAT32_BYTES else 8
    pairs = [a + b for a, b in zip(cells, cells[1:])]
    disk = HEADER_ROOM + item * values + 8 * max(pairs)       # the table, old and new checkpoint
    bank = max(c // sp.layer_shape(p)[0] for p, c in enumerate(cells))
    # two layers in float64, one bank of a layer being converted, the process itself
    memory = 8 * max(pairs) + 12 * bank + PROCESS_BYTES
    levels = sum(len(layer) * (sp.bank_limit(p) + rules.rolls)
                 for p, layer in enumerate(sp.layers[:-1]))
    seconds = (levels * rules.dice_space.n_multisets * (rules.cap + 1)
               * RATES["value"] * SAVED_ROLLS_FACTOR)
    # timed on a real unit of its own solve (``build.measure_layered``)
    return Plan(what, path, values, disk, memory, seconds, file_bytes=HEADER_ROOM + item * values,
                measure=measure, kind="value")


def _need_values(rules: Rules) -> int:
    """Values of the target (and futures) layout, from its widths alone."""
    from yatzy.kernels.target import table_size     # (Numba: only for the target tables)
    return table_size(rules)


def target_plan(rules: Rules, path: Path | None = None, measure=None) -> Plan:
    """The build of the target table of ``rules`` (a memory-mapped file as
    large as the table, filled in place)."""
    values = _need_values(rules)
    return Plan(f"target table of {rules.spec}", path, values, 8 * values + 4096, 8 * values,
                values * turn_cost(rules) * RATES["target"], measure=measure, kind="target")


def futures_plan(rules: Rules, path: Path | None = None, measure=None) -> Plan:
    """The build of the futures table of ``rules`` (held in memory, with the
    value table it is solved from)."""
    values = _need_values(rules)
    dense = 8 * state_space(rules).n_masks * (rules.cap + 1)
    return Plan(f"futures table of {rules.spec}", path, values, 8 * values + 4096,
                8 * values + dense, values * turn_cost(rules) * RATES["futures"],
                measure=measure, kind="futures")


def parts_plan(rules: Rules, path: Path | None = None, measure=None) -> Plan:
    """The build of the explanations' parts table of ``rules`` (held in
    memory, with the value table it is solved from and one layer's turn
    outcomes)."""
    from yatzy.kernels.explain import part_table_size

    sp = state_space(rules)
    values = part_table_size(rules)
    states = sum(int((sp.upper_lanes[layer] - sp.lane_start[layer]).sum())
                 for layer in sp.layers)
    dense = 8 * sp.n_masks * (rules.cap + 1)
    return Plan(f"explanations table of {rules.spec}", path, values, 8 * values + 4096,
                8 * values + 2 * dense, states * turn_cost(rules) * RATES["parts"],
                measure=measure, kind="explanations")


def subgame_plan(rules: Rules, kind: str, values: int, measure=None) -> Plan:
    """The build of one position's sub-game of the ``kind`` table (target,
    futures, parts), ``values`` values, in memory only; ``measure``: its
    time measured on this machine (``Plan.measure``)."""
    words = {"target": "target", "futures": "futures", "parts": "explanations"}[kind]
    per_value = turn_cost(rules) * RATES[kind]
    if kind == "parts":                 # the parts' rate is per state, not per value
        per_value /= rules.n_boxes + 2
    return Plan(f"{words} values of this position's sub-game of {rules.spec}", None, values,
                0, 8 * values, values * per_value, measure=measure, kind=words)


def set_confirm(confirm: Confirm | None) -> Confirm | None:
    """Set the function that approves a big build (``None``: big builds
    that fit go ahead); returns the one set before."""
    global _confirm
    before, _confirm = _confirm, confirm
    return before


def free_disk(folder: Path) -> int:
    """Bytes free in ``folder`` (or its nearest existing parent)."""
    folder = Path(folder).absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 1 << 62                  # cannot tell: do not refuse for it


def free_memory() -> int:
    """Bytes of memory available (``MemAvailable`` of /proc/meminfo, else
    the physical memory)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


CALIBRATE_SECONDS = 2.0     # builds longer than this (reference) are calibrated first;
                            # the value tables of the five-dice presets (1.5 s) are not:
                            # their bar shows how they go
PROBE_SECONDS = 0.2         # how long the busy loop of ``cpu_share`` runs


def cpu_share(seconds: float = PROBE_SECONDS) -> float:
    """The share of a core this process gets now: the CPU time of a short
    busy loop over its wall time (1 on a quiet machine; about 2 / (n + 2)
    where n other processes keep the two cores of a 2-core machine busy).

    >>> 0.0 < cpu_share(0.05) <= 1.0
    True
    """
    wall, cpu = time.perf_counter(), time.process_time()
    x = 0
    while time.perf_counter() - wall < seconds:
        for i in range(1000):
            x += i
    spent_cpu, spent_wall = time.process_time() - cpu, time.perf_counter() - wall
    return min(max(spent_cpu / spent_wall, 0.02), 1.0)


def calibrated_seconds(seconds: float, share: float | None = None) -> float:
    """``seconds`` on the reference machine (2 cores, quiet), on this one
    now: divided by the share of a core this process gets (``cpu_share``,
    measured unless given).  A machine with more cores is taken as the
    reference one (the estimate errs long there)."""
    if share is None:
        share = cpu_share() if seconds > CALIBRATE_SECONDS else 1.0
    return seconds / share


MEASURE_ABOVE = 1.0     # builds longer than this (reference) with a ``measure`` are timed
                        # on a sample of their own work first


def estimate(plan: Plan) -> float:
    """The seconds ``plan`` takes on this machine now: measured on a sample
    of its own work where it can be (``Plan.measure``: the kernels it will
    run, on as many threads, as busy as the machine is), else the reference
    time over the share of a core this process gets (``calibrated_seconds``)."""
    if plan.measure is not None and plan.seconds > MEASURE_ABOVE:
        return plan.measure(plan.seconds)
    return calibrated_seconds(plan.seconds)


def fits(plan: Plan) -> None:
    """Refuse (``InputError``) a build whose file does not fit in the free
    disk of its folder or whose solve does not fit in the memory
    available, or a big one not confirmed (``set_confirm``)."""
    if plan.path is not None:
        free = free_disk(plan.path.parent)
        if plan.disk_bytes > free:
            raise InputError(f"{plan.what} needs {describe_bytes(plan.disk_bytes)} on disk; "
                             f"{plan.path.parent} has {describe_bytes(free)} free")
    memory = free_memory()
    if plan.memory_bytes > memory:
        raise InputError(f"{plan.what} needs {describe_bytes(plan.memory_bytes)} of memory; "
                         f"{describe_bytes(memory)} are available")
    if plan.big and _confirm is not None and not _confirm(plan):
        raise InputError(f"{plan}: not built (a big build; run again with --yes to build it)")


UNITS = ("values", "decisions")     # what a plan counts: stored numbers, or actions (a byte each)


__all__ = ["BIG_BYTES", "BIG_SECONDS", "Plan", "UNITS", "calibrated_seconds", "cpu_share",
           "describe_bytes", "describe_seconds", "estimate", "fits", "free_disk",
           "free_memory", "futures_plan", "parts_plan", "set_confirm", "subgame_plan",
           "target_plan", "value_plan"]
