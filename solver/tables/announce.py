"""The one voice of the package about work that takes a while: what a
build will take, and that kernels compile first.  It prints nothing; each
notice is a ``TableWarning`` (English, and ``said(lang)`` in the user's
language), and the CLI, the coach and the server show it.

* ``check(plan)``: a table build (``yatzy.tables.plan.Plan``) that fits
  (``plan.fits``), announced where it takes a while (``announce``: over
  ``ANNOUNCE_SECONDS`` on this machine now, or over ``ANNOUNCE_BYTES`` on
  disk or in memory); ``check_all``: builds that run one after another,
  with one line of their time together.
* ``compile_notice(kind, kernels)``: the first compile of a kind of work's
  kernels, once after an install or an update, with its time on this
  machine now (``compile_seconds``: the reference machine's,
  ``COMPILE_SECONDS_OF``, over the share of that compile Numba's cache
  does not hold); ``compiling(kind)`` for the kinds of ``KERNELS``.
* ``distribution_plan``: the exact distribution's forward pass, work that
  is no table, sized as one (``busy_share``: it runs on every core).
* ``building(kind)``: the whole table being built in this thread, so that
  its progress can name it.
"""

from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path
from typing import Callable

from yatzy.errors import InputError
from yatzy.rules.ruleset import Rules
from yatzy.rules.words import decimal_mark, message
from yatzy.space import state_space
from yatzy.tables import plan as plans
from yatzy.tables.plan import Plan

ANNOUNCE_SECONDS = 2.0       # builds expected to take longer are announced (what, how big, how long)
ANNOUNCE_BYTES = 256 << 20   # and so are larger ones


class TableWarning(UserWarning):
    """A notice about a stored table: a bad file recomputed, a solve resumed
    or waiting for another process, a whole-game table built.  Its text is
    English; ``said(lang)`` is the notice in ``lang`` where it was given a
    way to say it (``say(lang)``; else the English text).

    >>> TableWarning("x").said("nb"), TableWarning("x", say=lambda lang: lang).said("sv")
    ('x', 'sv')
    """

    def __init__(self, text: str, say: Callable[[str], str] | None = None):
        super().__init__(text)
        self.say = say

    def said(self, lang: str = "en") -> str:
        return self.say(lang) if self.say is not None and lang != "en" else str(self)


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
    units = values * plans.turn_cost(rules)
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


def check(plan: Plan, seconds: float | None = None) -> None:
    """Refuse (``InputError``) a build that cannot fit, or a big one not
    confirmed; announce (``TableWarning``) one that takes a while
    (``seconds``: its ``estimate``, where measured already, its kernels'
    first compile said before: ``subgame.Pieces.ask``)."""
    if seconds is None:
        compiling(plan)
    plans.fits(plan)
    announce(plan, plans.estimate(plan) if seconds is None else seconds, stacklevel=4)


def announce(plan: Plan, seconds: float, stacklevel: int = 3) -> bool:
    """Announce (``TableWarning``) the build of ``plan`` where it takes a
    while (over ``ANNOUNCE_SECONDS`` on this machine now, ``seconds``, or
    over ``ANNOUNCE_BYTES`` on disk or in memory): a whole-game table's in
    the user's language (``announcement``), any other's in English;
    returns whether it was announced."""
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
    folders: dict[Path, list[Plan]] = {}
    for plan, _ in builds:
        if plan.path is not None:
            folders.setdefault(plan.path.parent, []).append(plan)
    for folder, group in folders.items():
        need, free = sum(p.disk_bytes for p in group), plans.free_disk(folder)
        if len(group) > 1 and need > free:
            raise InputError(f"the {' and the '.join(p.what for p in group)} need "
                             f"{plans.describe_bytes(need)} on disk together; {folder} has "
                             f"{plans.describe_bytes(free)} free")
    for plan, _ in builds:
        plans.fits(plan)
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
    return message("build_then_compile", lang, what=message(f"compiled_{kind}", lang),
                   compile=decimal_mark(plans.describe_seconds(compile), lang),
                   about=decimal_mark(plans.describe_seconds(seconds), lang))


def together(count: int, seconds: float, lang: str = "en") -> str:
    """The line that follows the announcements of ``count`` builds that run
    one after another: about how long they take together on this machine
    now (``seconds``), in ``lang`` (the catalogue's ``build_total``).

    >>> together(3, 250.0, "nb")
    '3 bygg etter hverandre, omtrent 4,2 min i alt'
    """
    return message("build_total", lang, count=count,
                   about=decimal_mark(plans.describe_seconds(seconds), lang))


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

# the kernel a table of each kind is built by (its module, its name), where
# its compile is not said elsewhere (the value table's: ``store._compile``)
KERNELS = {"target": ("yatzy.kernels.target", "solve_masks"),
           "futures": ("yatzy.kernels.futures", "pull_futures"),
           "explanations": ("yatzy.kernels.explain", "pull_parts"),
           # not a table: a win question's chances, in one compiled call (``players.win``)
           "win": ("yatzy.kernels.win.turns", "position_chances"),
           # ... nor is the ``win`` seat's whole games (``research.win_seat``, ``yatzy match``)
           "win_games": ("yatzy.kernels.win_seat", "play_win_games"),
           # ... nor is a computer seat's policy (the coach's greedy and simple seats)
           "player": ("yatzy.kernels.policy", "batch")}
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
    return plans.calibrated_seconds(COMPILE_SECONDS_OF.get(kind, COMPILE_SECONDS) * share,
                                    plans.cpu_share())


def compile_notice(kind: str, kernels, stacklevel: int = 4) -> float:
    """Warn (``TableWarning``, in the user's language) that the kernels of
    ``kind`` (a table's, ``TABLE_KINDS``, else the catalogue's
    ``compiled_<kind>``) compile first, once after an install or an update,
    and about how long that takes on this machine now (``compile_seconds``
    of ``kernels``), where that is over ``ANNOUNCE_SECONDS``; returns those
    seconds (0 when Numba's cache holds every kernel)."""
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
                               f"or an update, about {plans.describe_seconds(seconds)})", say=say),
                  stacklevel=stacklevel)
    return seconds


COMPILES_SAID: set[str] = set()     # the kinds of work whose compile this process has said


def compile_once(kind: str, kernels, stacklevel: int = 5) -> float:
    """``compile_notice`` of ``kind`` once a process (``COMPILES_SAID``): a
    command may say a compile before its own announcement, and the library
    call that compiles then says nothing more; 0 once said."""
    if kind in COMPILES_SAID:
        return 0.0
    COMPILES_SAID.add(kind)
    return compile_notice(kind, kernels, stacklevel)


def announcement(plan: Plan, seconds: float, lang: str = "en") -> str:
    """The announcement of a whole-game table's build (``plan.kind``), in
    ``lang`` (the catalogue's ``build_whole``): which table of which rules,
    its values, its size on disk (and the free space it needs while it
    builds), its memory, about how long on this machine now (``seconds``;
    how many times the reference machine's quiet time, where over 1.5), and
    that it is built once and stored in its folder for every later question.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> p = plans.target_plan(parse_rules("nordic"), Path("/t/nordic.target"))
    >>> print(announcement(p, 200.0))
    building the target table of nordic: 229,326,336 values, 1.7 GiB on disk, 1.7 GiB in \
memory, about 3.3 min (measured on this machine now: 2.2 times the reference machine's \
quiet time); a whole-game table, built once and stored in /t for every later question
    >>> print(announcement(p, 40.0, "nb"))
    bygger måltabellen for nordic: 229 326 336 verdier, 1,7 GiB på disk, 1,7 GiB i minnet, \
omtrent 40 s; en tabell for hele spillet, bygd én gang og lagret i /t til alle senere spørsmål
    """
    def size(n: int) -> str:
        return decimal_mark(plans.describe_bytes(n), lang)

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
                   about=decimal_mark(plans.describe_seconds(seconds), lang), busy=busy,
                   folder=str(plan.path.parent))


def _rules_of(plan: Plan) -> str:
    """The rule set a plan's ``what`` names (``... of SPEC``, a theta after it)."""
    return plan.what.split(" of ", 1)[1]


__all__ = ["ANNOUNCE_BYTES", "ANNOUNCE_SECONDS", "COMPILES_SAID", "COMPILE_SECONDS",
           "COMPILE_SECONDS_OF", "KERNELS", "TABLE_KINDS", "TableWarning", "announce",
           "announcement", "building", "building_now", "busy_share", "check", "check_all",
           "compile_notice", "compile_once", "compile_seconds", "compile_together", "compiling",
           "distribution_plan", "kernels_of", "together"]
