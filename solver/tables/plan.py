"""Size before work: what a table build will take, known before it starts.

Every build of a stored table (the value table of a rule set, its tables
for a risk parameter θ, the target and futures tables, the layered tables
with saved rolls) is first described by a ``Plan``: what it builds, how many
values, its size on disk and in memory, and about how long it takes on this
kind of machine (from its state count and rates measured on the reference
machine, ``RATES``).  ``check(plan)`` then, before any work:

* refuses (``InputError``, one line naming the sizes) a build whose file does
  not fit in the free disk of its folder (``shutil.disk_usage``) or whose
  solve does not fit in the memory available (``MemAvailable``);
* announces a build that takes a while (``TableWarning``: what, how big,
  about how long; this module prints nothing).  The time is the reference
  machine's, calibrated on this one as it runs: a short busy loop first
  measures the share of a core this process gets now (``cpu_share``: 1 on
  a quiet machine, 0.25 where four processes compete for each core), and
  the reference time is divided by it.  The bar of the build then shows the
  live rate (``yatzy.cli.options.BarProgress``);
* for a big build (over ``BIG_BYTES`` on disk or in memory, or over
  ``BIG_SECONDS``), asks the confirmation function set by ``set_confirm``
  (the CLI: ``--yes``, else a y/N question on a terminal) and refuses it when
  there is none or the answer is no.  Without ``set_confirm`` (the library
  used from Python) big builds that fit go ahead.

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
import warnings
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from math import prod
from pathlib import Path
from typing import Callable

from yatzy.errors import InputError
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space

BIG_BYTES = 2 << 30          # above this on disk or in memory: confirm first
BIG_SECONDS = 300.0          # above this: confirm first
ANNOUNCE_SECONDS = 2.0       # builds expected to take longer are announced (what, how big, how long)
ANNOUNCE_BYTES = 256 << 20   # and so are larger ones

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


def _turn_cost(rules: Rules) -> int:
    """Work units of one turn-start state: dice multisets times rolls."""
    return rules.dice_space.n_multisets * rules.rolls


def value_plan(rules: Rules, path: Path | None = None, theta: float = 0.0,
               measure=None) -> Plan:
    """The build of the value table of ``rules`` (for ``theta``); ``measure``:
    its time measured on this machine (``Plan.measure``), used with saved
    rolls and for builds over ``CALIBRATE_SECONDS`` on the reference
    machine without (the five-dice presets' 1.5 s are not timed first:
    their bar shows how they go)."""
    from yatzy.tables.store import CHECKPOINT_BYTES, FLOAT32_BYTES, HEADER_ROOM

    what = f"value table of {rules.spec}" + (f" (theta {theta:g})" if theta else "")
    sp = state_space(rules)
    if not rules.saved_rolls:
        values = sp.n_masks * (rules.cap + 1)
        disk = 8 * values + 4096
        memory = 8 * values if 8 * values <= CHECKPOINT_BYTES else min(8 * values, 1 << 30)
        seconds = values * _turn_cost(rules) * RATES["value"]
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
    from yatzy.tables.target import table_size
    return table_size(rules)


def target_plan(rules: Rules, path: Path | None = None, measure=None) -> Plan:
    """The build of the target table of ``rules`` (a memory-mapped file as
    large as the table, filled in place)."""
    values = _need_values(rules)
    return Plan(f"target table of {rules.spec}", path, values, 8 * values + 4096, 8 * values,
                values * _turn_cost(rules) * RATES["target"], measure=measure, kind="target")


def futures_plan(rules: Rules, path: Path | None = None, measure=None) -> Plan:
    """The build of the futures table of ``rules`` (held in memory, with the
    value table it is solved from)."""
    values = _need_values(rules)
    dense = 8 * state_space(rules).n_masks * (rules.cap + 1)
    return Plan(f"futures table of {rules.spec}", path, values, 8 * values + 4096,
                8 * values + dense, values * _turn_cost(rules) * RATES["futures"],
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
                8 * values + 2 * dense, states * _turn_cost(rules) * RATES["parts"],
                measure=measure, kind="explanations")


def subgame_plan(rules: Rules, kind: str, values: int, measure=None) -> Plan:
    """The build of one position's sub-game of the ``kind`` table (target,
    futures, parts), ``values`` values, in memory only; ``measure``: its
    time measured on this machine (``Plan.measure``)."""
    words = {"target": "target", "futures": "futures", "parts": "explanations"}[kind]
    per_value = _turn_cost(rules) * RATES[kind]
    if kind == "parts":                 # the parts' rate is per state, not per value
        per_value /= rules.n_boxes + 2
    return Plan(f"{words} values of this position's sub-game of {rules.spec}", None, values,
                0, 8 * values, values * per_value, measure=measure, kind=words)


# Seconds per unit of the exact distribution's forward pass on the reference
# machine (2 cores, quiet): a unit is a turn-start state times dice multisets
# times rolls, as for the value table; measured on nordic, the pass alone
# (2,097,152 states x 462 x 3): ``compare`` of two policies took 4.2 s from
# its announcement to its end at load 2.2 (the 3.8-4.4 s measured before
# were the whole command: start-up and the value table too).
DISTRIBUTION_RATE = 0.69e-9
DISTRIBUTION_START = 1.0        # seconds a process's first pass spends before it (its kernels
                                # loaded from Numba's cache): nordic's first 3.1 s, a second 2.0 s
DISTRIBUTION_BYTES = 320        # bytes of memory per state at the peak (nordic: 956 MB
                                # as a command, the process's own 320 MiB aside)


def distribution_plan(rules: Rules, mask: int = 0) -> Plan:
    """The exact distribution's forward pass from a card whose filled boxes
    are ``mask`` as a build (``Plan``): the states of the boxes still open,
    nothing stored, its memory and its time on the reference machine.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> p = distribution_plan(parse_rules("nordic"))
    >>> p.values, p.path, round(p.seconds, 1)
    (2097152, None, 2.0)
    """
    sp = state_space(rules)
    filled = int(sp.filled_count(mask))
    values = (sp.n_masks >> filled) * (rules.cap + 1)
    units = values * _turn_cost(rules)
    what = (f"exact distribution of {rules.spec} "
            + ("over the whole game" if not filled else f"over the {rules.n_boxes - filled} "
               "open boxes' game"))
    return Plan(what, None, values, 0, DISTRIBUTION_BYTES * values, units * DISTRIBUTION_RATE)


def busy_share() -> float:
    """The share of the machine's cores free for this process now: its
    cores over the load average plus this process (or over the processes
    running now, where more), at most 1.  A build that runs on every core
    (the exact distribution's forward pass) is slowed by a busy second core
    though this process's own share of a core (``cpu_share``) stays high
    (at load 4.6 on 2 cores: a core's share 0.85, the pass 2.1 times as long)."""
    try:
        busy = os.getloadavg()[0] + 1
    except OSError:
        return 1.0
    try:                            # the processes running now (this one too): the load
        with open("/proc/loadavg") as f:    # average lags a minute behind a new load
            busy = max(busy, int(f.read().split()[3].split("/")[0]))
    except (OSError, ValueError, IndexError):
        pass
    return min(1.0, (os.cpu_count() or 1) / busy)


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


def check(plan: Plan, seconds: float | None = None) -> None:
    """Refuse (``InputError``) a build that cannot fit, or a big one not
    confirmed; announce (``TableWarning``) one that takes a while
    (``seconds``: its ``estimate``, where measured already, its kernels'
    first compile said before: ``subgame.Pieces.ask``)."""
    if seconds is None:
        compiling(plan)
    fits(plan)
    announce(plan, estimate(plan) if seconds is None else seconds, stacklevel=4)


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


def announce(plan: Plan, seconds: float, stacklevel: int = 3) -> bool:
    """Announce (``TableWarning``) the build of ``plan`` where it takes a
    while (over ``ANNOUNCE_SECONDS`` on this machine now, ``seconds``, or
    over ``ANNOUNCE_BYTES`` on disk or in memory): a whole-game table's in
    the user's language (``announcement``), any other's in English;
    returns whether it was announced."""
    from yatzy.tables.store import TableWarning

    if not (seconds > ANNOUNCE_SECONDS or plan.disk_bytes > ANNOUNCE_BYTES
            or plan.memory_bytes > ANNOUNCE_BYTES):
        return False
    if plan.kind and plan.path is not None:
        warnings.warn(TableWarning(announcement(plan, seconds),
                                   say=lambda lang: announcement(plan, seconds, lang)),
                      stacklevel=stacklevel)
        return True
    busy = (f" (measured on this machine now: {seconds / plan.seconds:.1f} times "
            f"the reference machine's quiet time)" if seconds > 1.5 * plan.seconds else "")
    warnings.warn(TableWarning(f"building the {replace(plan, seconds=seconds)}{busy}"),
                  stacklevel=stacklevel)
    return True


def check_all(builds: list[tuple[Plan, float]], compile_after: str = "") -> None:
    """``check`` of builds that run one after another, all before the
    first starts (``builds``: each ``Plan`` and its ``estimate``, their
    kernels' compiles said already): refuse (``InputError``) where a
    folder's free disk cannot hold their files together, where one does
    not fit in memory (they run one at a time) or a big one is not
    confirmed; then announce each (``announce``) and, where more than one
    build follows and any was announced, one line with their time
    together (``together``).  ``compile_after``: a ``KERNELS`` kind whose
    first compile follows the builds (the win chances' kernels, which run
    on what they build): where it is not in Numba's cache and a build was
    announced, its time is counted in that line, which says so.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     check_all([(Plan("a", None, 1, 0, 8, 40.0), 50.0),
    ...                (Plan("b", None, 1, 0, 8, 70.0), 70.0)])
    >>> [str(w.message) for w in seen][2]
    '2 builds one after another, about 2.0 min in all'
    >>> seen[2].message.said("sv")
    '2 byggen efter varandra, ungefär 2,0 min sammanlagt'
    """
    from yatzy.tables.store import TableWarning

    folders: dict[Path, list[Plan]] = {}
    for plan, _ in builds:
        if plan.path is not None:
            folders.setdefault(plan.path.parent, []).append(plan)
    for folder, plans in folders.items():
        need, free = sum(p.disk_bytes for p in plans), free_disk(folder)
        if len(plans) > 1 and need > free:
            raise InputError(f"the {' and the '.join(p.what for p in plans)} need "
                             f"{describe_bytes(need)} on disk together; {folder} has "
                             f"{describe_bytes(free)} free")
    for plan, _ in builds:
        fits(plan)
    said = [announce(plan, seconds, stacklevel=4) for plan, seconds in builds]
    if not any(said):
        return
    after = compile_seconds(compile_after, kernels_of(compile_after)) if compile_after else 0.0
    seconds = sum(s for _, s in builds)
    if after > ANNOUNCE_SECONDS:
        def say(lang: str) -> str:
            return compile_together(compile_after, after, seconds + after, lang)
    elif len(builds) > 1:
        def say(lang: str) -> str:
            return together(len(builds), seconds, lang)
    else:
        return
    warnings.warn(TableWarning(say("en"), say=say), stacklevel=3)


def compile_together(kind: str, compile: float, seconds: float, lang: str = "en") -> str:
    """The line that follows the announcements of builds after which the
    kernels of ``kind`` compile (``compile`` seconds): about how long the
    builds and the compile take together (``seconds``), in ``lang`` (the
    catalogue's ``build_then_compile``).

    >>> compile_together("win", 28.0, 150.0, "nb")
    'så kompileres kjernene til vinnersjansene (omtrent 28 s): omtrent 2,5 min i alt'
    """
    from yatzy.rules.words import decimal_mark, message
    return message("build_then_compile", lang, what=message(f"compiled_{kind}", lang),
                   compile=decimal_mark(describe_seconds(compile), lang),
                   about=decimal_mark(describe_seconds(seconds), lang))


def together(count: int, seconds: float, lang: str = "en") -> str:
    """The line that follows the announcements of ``count`` builds that run
    one after another: about how long they take together on this machine
    now (``seconds``), in ``lang`` (the catalogue's ``build_total``).

    >>> together(3, 250.0, "nb")
    '3 bygg etter hverandre, omtrent 4,2 min i alt'
    """
    from yatzy.rules.words import decimal_mark, message
    return message("build_total", lang, count=count,
                   about=decimal_mark(describe_seconds(seconds), lang))


TABLE_KINDS = ("value", "target", "futures", "explanations", "decisions")

_BUILDING: ContextVar[str] = ContextVar("building", default="")


@contextmanager
def building(kind: str):
    """While the whole table of ``kind`` (``TABLE_KINDS``) is built in this
    thread: ``building_now()`` names it, so that the progress of the build
    can say which table it is.

    >>> with building("target"):
    ...     building_now()
    'target'
    >>> building_now()
    ''
    """
    token = _BUILDING.set(kind)
    try:
        yield
    finally:
        _BUILDING.reset(token)


def building_now() -> str:
    """The kind of whole table being built in this thread (``building``), else ``""``."""
    return _BUILDING.get()


UNITS = ("values", "decisions")     # what a plan counts: stored numbers, or actions (a byte each)

# the kernel a table of each kind is built by (its module, its name), where
# its compile is not said elsewhere (the value table's: ``store._compile``)
KERNELS = {"target": ("yatzy.kernels.target", "solve_masks"),
           "futures": ("yatzy.kernels.futures", "pull_futures"),
           "explanations": ("yatzy.kernels.explain", "pull_parts"),
           # not a table: a win question's chances, in one compiled call (``players.win``)
           "win": ("yatzy.kernels.win.turns", "position_chances"),
           # ... nor is the ``win`` seat's whole games (``research.win_seat``, ``yatzy match``)
           "win_games": ("yatzy.kernels.win_seat", "play_win_games")}
COMPILE_SECONDS = 20.0      # a first compile of a table's kernels on the reference machine
COMPILE_SECONDS_OF = {"win": 42.0,         # ... of the win chances' (38-44 s quiet, 2-core EPYC)
                      "win_games": 15.0,   # ... of the win seat's games (8 s of CPU alone)
                      "distribution": 15.0,    # ... of the exact distribution's (``api``)
                      "simulation": 15.0,      # ... of a simulation's (``api``)
                      "solver": 15.0,          # ... of the value table's solve (``store``: 11-14 s quiet)
                      "player": 15.0}          # ... of the coach's computer players
COMPILE_FIXED = 0.12        # the share of a compile that any kernel left to compile costs (the
                            # cached ones loaded, LLVM started): after a ``yatzy simulate``, 13 %
                            # of the distribution's bytecode compiled in 25 % of its time


def compiling(plan: Plan | str) -> None:
    """Say (``compile_notice``) that the build of ``plan`` (or the work of a
    ``KERNELS`` kind) compiles its kernels first, once after an install or
    an update, where Numba's cache does not hold them (the compile happens
    while the build's time is measured, before the build's own
    announcement)."""
    kind = plan if isinstance(plan, str) else plan.kind
    if kind in KERNELS:
        compile_notice(kind, kernels_of(kind), stacklevel=5)


def kernels_of(kind: str) -> tuple:
    """The dispatchers of a ``KERNELS`` kind (imported: Numba is loaded)."""
    import importlib
    module, name = KERNELS[kind]
    return (getattr(importlib.import_module(module), name),)


def compile_seconds(kind: str, kernels) -> float:
    """About how long the first call of ``kernels`` (dispatchers: the work
    of ``kind``) spends compiling on this machine now: the kind's reference
    time (``COMPILE_SECONDS_OF``, else ``COMPILE_SECONDS``: everything
    compiled from nothing) times the share of that compile left
    (``kernels.cache.uncompiled_share``: an earlier command may have
    compiled some of the kernels they call; at least ``COMPILE_FIXED``),
    over the share of a core this process gets; 0 when Numba's cache holds
    them all."""
    from yatzy.kernels.cache import uncompiled_share
    left = uncompiled_share(kernels)
    if left == 0.0:
        return 0.0
    share = COMPILE_FIXED + (1.0 - COMPILE_FIXED) * left
    return calibrated_seconds(COMPILE_SECONDS_OF.get(kind, COMPILE_SECONDS) * share, cpu_share())


def compile_notice(kind: str, kernels, stacklevel: int = 4) -> float:
    """Warn (``TableWarning``, in the user's language) that the kernels of
    ``kind`` (a table's, ``TABLE_KINDS``, else the catalogue's
    ``compiled_<kind>``) compile first, once after an install or an update,
    and about how long that takes on this machine now (``compile_seconds``
    of ``kernels``), where that is over ``ANNOUNCE_SECONDS``; returns those
    seconds (0 when Numba's cache holds every kernel)."""
    from yatzy.rules.words import message
    from yatzy.tables.store import TableWarning
    seconds = compile_seconds(kind, kernels)
    if seconds <= ANNOUNCE_SECONDS:
        return seconds

    def say(lang: str) -> str:
        what = (message("compiled_table", lang, table=message(f"table_{kind}", lang))
                if kind in TABLE_KINDS else message(f"compiled_{kind}", lang))
        return message("compiling", lang, what=what, seconds=f"{seconds:.0f}")
    english = (f"the {kind} kernels" if kind in TABLE_KINDS
               else message(f"compiled_{kind}", "en"))
    warnings.warn(TableWarning(f"compiling {english} (once after an install "
                               f"or an update, about {describe_seconds(seconds)})", say=say),
                  stacklevel=stacklevel)
    return seconds


def announcement(plan: Plan, seconds: float, lang: str = "en") -> str:
    """The announcement of a whole-game table's build (``plan.kind``), in
    ``lang`` (the catalogue's ``build_whole``): which table of which rules,
    its values, its size on disk (and the free space it needs while it
    builds), its memory, about how long on this machine now (``seconds``;
    how many times the reference machine's quiet time, where over 1.5), and
    that it is built once and stored in its folder for every later question.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> p = target_plan(parse_rules("nordic"), Path("/t/nordic.target"))
    >>> print(announcement(p, 200.0))
    building the target table of nordic: 229,326,336 values, 1.7 GiB on disk, 1.7 GiB in \
memory, about 3.3 min (measured on this machine now: 2.2 times the reference machine's \
quiet time); a whole-game table, built once and stored in /t for every later question
    >>> print(announcement(p, 40.0, "nb"))
    bygger måltabellen for nordic: 229 326 336 verdier, 1,7 GiB på disk, 1,7 GiB i minnet, \
omtrent 40 s; en tabell for hele spillet, bygd én gang og lagret i /t til alle senere spørsmål
    """
    from yatzy.rules.words import decimal_mark, message

    def size(n: int) -> str:
        return decimal_mark(describe_bytes(n), lang)

    disk = message("build_at_most" if plan.file_at_most else "build_size", lang,
                   size=size(plan.file_size))
    if plan.file_size < plan.disk_bytes:
        disk = message("build_disk_free", lang, disk=disk, free=size(plan.disk_bytes))
    else:
        disk = message("build_disk", lang, disk=disk)
    busy = (" " + message("build_busy", lang,
                          times=decimal_mark(f"{seconds / plan.seconds:.1f}", lang))
            if seconds > 1.5 * plan.seconds else "")
    count = f"{plan.values:,}" if lang == "en" else f"{plan.values:,}".replace(",", " ")
    return message("build_whole", lang, table=message(f"table_{plan.kind}", lang),
                   rules=_rules_of(plan), values=message(f"build_{plan.unit}", lang, count=count),
                   disk=disk, memory=size(plan.memory_bytes),
                   about=decimal_mark(describe_seconds(seconds), lang), busy=busy,
                   folder=str(plan.path.parent))


def _rules_of(plan: Plan) -> str:
    """The rule set a plan's ``what`` names (``... of SPEC``, a theta after it)."""
    return plan.what.split(" of ", 1)[1]


__all__ = ["BIG_BYTES", "BIG_SECONDS", "Plan", "announce", "building", "building_now",
           "busy_share", "calibrated_seconds",
           "check", "check_all", "compile_together", "fits", "kernels_of", "together",
           "cpu_share", "distribution_plan", "estimate", "announcement", "compiling", "TABLE_KINDS",
           "describe_bytes", "describe_seconds",
           "free_disk", "free_memory", "futures_plan", "parts_plan", "set_confirm",
           "subgame_plan", "target_plan", "value_plan"]
