"""A position's sub-game: the turn-start states a game can still reach from
it, and which of them a table built piece by piece already holds.

From a turn start at ``(mask, u)`` every later turn starts at a mask that
holds ``mask`` (a box once filled stays filled) and, the upper total never
falling, at a total of at least ``u``.  A table whose values at a state
depend only on the states after it (the target, futures and explanation
tables) can therefore answer a question about one position from these
states alone, solved by the same kernels as the whole table, with the same
values bit for bit.  Late positions have small sub-games: with five boxes
of Nordic's fifteen left, a few thousandths of the whole game.

``layers(rules, mask)``: the masks reachable from ``mask`` (the fill order
respected), grouped by filled boxes like ``StateSpace.layers``; ``Cover``:
which of them a table has solved so far (the solved states are always
closed under "the states after", so one state's check is the whole check).

    >>> from yatzy.rules.ruleset import parse_rules
    >>> nordic = parse_rules("nordic")
    >>> [len(x) for x in layers(nordic, (1 << 15) - 1 - 0b111)][12:]
    [1, 3, 3, 1]
    >>> cover = Cover(nordic)
    >>> cover.holds(0, 0)
    False
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from yatzy.errors import InputError, TableError
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.announce import check, check_all, compiling
from yatzy.tables.plan import Plan, estimate, subgame_plan


def layers(rules: Rules, mask: int) -> tuple[np.ndarray, ...]:
    """``out[p]``: the masks with ``p`` boxes filled that play from ``mask``
    can reach (``mask`` itself at its own count; none below), ascending."""
    sp = state_space(rules)
    nb = rules.n_boxes
    filled = int(sp.filled_count(mask))
    empty = np.zeros(0, dtype=np.int64)
    out = [empty] * (nb + 1)
    layer = np.array([mask], dtype=np.int64)
    out[filled] = layer
    allowed = sp.allowed_table
    for p in range(filled, nb):
        nxt = []
        for b in range(nb):
            parents = layer[allowed[layer] >> b & 1 == 1]
            nxt.append(parents | 1 << b)
            if b == rules.yatzy_box and sp.flag_bit:
                nxt.append(parents | 1 << b | sp.flag_bit)
        layer = np.unique(np.concatenate(nxt)).astype(np.int64)
        out[p + 1] = layer
    return tuple(out)


class Cover:
    """The states of a table built piece by piece that are solved:
    ``low[mask]`` the lowest upper total solved at ``mask`` (every total
    from there to the mask's last is; ``NONE``: none is)."""

    NONE = np.iinfo(np.int64).max

    def __init__(self, rules: Rules):
        self.rules = rules
        self.low = np.full(state_space(rules).n_masks, self.NONE, dtype=np.int64)

    def first(self, masks, upper: int = 0) -> np.ndarray:
        """The lowest total a sub-game from ``upper`` needs at each mask
        (``lane_start``: below it every total plays alike)."""
        return np.maximum(state_space(self.rules).lane_start[masks], upper)

    def holds(self, mask: int, upper: int = 0) -> bool:
        """Whether the state ``(mask, upper)`` (and so its sub-game) is solved."""
        return bool(self.low[mask] <= self.first(mask, upper))

    def holds_all(self, masks, uppers) -> bool:
        """``holds`` for every state of the arrays ``masks``, ``uppers``."""
        masks = np.asarray(masks, dtype=np.int64)
        return bool((self.low[masks] <= self.first(masks, np.asarray(uppers))).all())

    def missing(self, mask: int, upper: int = 0) -> tuple[np.ndarray, ...]:
        """The sub-game of ``(mask, upper)``'s masks not yet solved down to
        the totals it needs, by layer."""
        return tuple(x[self.low[x] > self.first(x, upper)] for x in layers(self.rules, mask))

    def mark(self, todo: tuple[np.ndarray, ...], upper: int = 0) -> None:
        """Record the masks ``todo`` solved from the totals ``upper`` needs."""
        for x in todo:
            self.low[x] = np.minimum(self.low[x], self.first(x, upper))


def lane_counts(rules: Rules, masks: np.ndarray, upper: int = 0) -> np.ndarray:
    """How many upper totals of each mask a sub-game from ``upper`` solves."""
    sp = state_space(rules)
    return np.maximum(sp.upper_lanes[masks] - np.maximum(sp.lane_start[masks], upper), 0)


def lazy_zeros(n: int) -> np.ndarray:
    """``n`` float64 zeros laid out as a whole table, whose pages take memory
    only once written: an anonymous map of small pages (``np.zeros`` of
    that size asks for huge pages, and a sub-game's few states, scattered
    over the whole table's layout, would each make the kernel find and
    clear 2 MiB first: seconds instead of milliseconds).

    >>> z = lazy_zeros(3); z[1] = 2.0; z.tolist()
    [0.0, 2.0, 0.0]
    """
    import mmap
    if n <= 0:
        return np.zeros(0)
    return np.frombuffer(mmap.mmap(-1, 8 * n), dtype=np.float64)


WHOLE_SHARE = 0.5     # a sub-game over this share of the whole table: build the whole one
SUBGAME_LIMIT = 10.0  # ... or measured to take longer than this (seconds, on this machine now)
SHOWN_SECONDS = 2.0   # a sub-game's build expected to take longer shows its progress


class Work(NamedTuple):
    """How a table's pieces are made (``Pieces``)."""

    count: Callable
    solve: Callable
    whole: Callable
    whole_plan: Callable
    plan: Callable


class Pieces:
    """A table built piece by piece, one position's sub-game at a time, in
    memory, until a question needs the whole table: then that one is opened
    (solved and stored first if missing, announced).  Nothing of the pieces
    is stored.

    * ``size``: the whole table's values; ``values``: the table so far, laid
      out as the whole table (pages never written take no memory)
    * ``work``: how its pieces are made (``Work``)
    * ``count(todo, lo)``, ``solve(todo, lo, values, progress)``: the values
      of the masks ``todo`` (by layer) from upper total ``lo`` on, and their
      solve (``progress(done, total)`` or None)
    * ``whole(checked=False)``: the whole table (opened, or solved and
      stored; ``checked``: its build checked and announced already, with
      the builds it follows); ``whole_plan()``: the ``Plan`` of its build;
      ``path``: where it is stored; ``plan(n, measure)``: the ``Plan`` of a
      piece of ``n`` values, its time measured by ``measure(reference seconds)``
    * ``uppers``: the kernels solve a mask from a given total on (else every
      total of a mask, ``lo`` = 0)
    """

    def __init__(self, rules: Rules, size: int, work: Work, path, uppers: bool = True,
                 progress=None):
        self.rules, self.size, self.path, self.uppers = rules, size, path, uppers
        self.count, self.solve, self.whole, self.whole_plan, self.plan = work
        self.progress = progress
        self.cover = Cover(rules)
        self._values: np.ndarray | None = None
        self._asked: tuple | None = None

    @property
    def values(self) -> np.ndarray:
        """The table so far, laid out as the whole table: mapped when the
        first piece is solved (after its plan is checked), not before."""
        if self._values is None:
            try:
                self._values = lazy_zeros(self.size)
            except (OSError, MemoryError) as e:
                raise InputError(f"cannot map {self.size * 8 / 2 ** 30:.1f} GiB for the "
                                 f"sub-games of rules {self.rules.spec}: {e}") from None
        return self._values

    def holds(self, mask: int, upper: int = 0) -> bool:
        return self.cover.holds(mask, upper if self.uppers else 0)

    def ask(self, todo: tuple[np.ndarray, ...], lo: int) -> tuple:
        """``(plan, seconds)`` of solving the masks ``todo`` from ``lo``:
        its ``Plan`` and its time on this machine now (``estimate``, the
        kernels' first compile said first); ``plan`` None where the whole
        table is to be built instead: the piece is over ``WHOLE_SHARE`` of
        it, or measured over ``SUBGAME_LIMIT`` seconds.  The last answer is
        kept (``builds_whole`` then ``need`` measure once)."""
        key = (lo, tuple(len(x) for x in todo), tuple(int(x.sum()) for x in todo))
        if self._asked is not None and self._asked[0] == key:
            return self._asked[1]
        n = self.count(todo, lo)
        if n > WHOLE_SHARE * self.size:
            found = (None, None)
        else:
            plan = self.plan(n, lambda reference: measure(self.rules, self.size, self.count,
                                                          self.solve, todo, lo, reference))
            compiling(plan)
            seconds = estimate(plan)
            found = (None if seconds > SUBGAME_LIMIT else plan, seconds)
        self._asked = (key, found)
        return found

    def builds_whole(self, mask: int, upper: int = 0) -> bool:
        """Whether ``need(mask, upper)`` would solve and store the whole
        table (no whole table stored, and the sub-game over ``WHOLE_SHARE``
        or measured over ``SUBGAME_LIMIT`` seconds)."""
        lo = upper if self.uppers else 0
        if self.cover.holds(mask, lo) or (self.path is not None and self.path.exists()):
            return False
        return self.ask(self.cover.missing(mask, lo), lo)[0] is None

    def need(self, mask: int, upper: int = 0):
        """Solve the sub-game of ``(mask, upper)`` where it is missing;
        returns the whole table instead when one is stored already or the
        sub-game is over ``WHOLE_SHARE`` of it or over ``SUBGAME_LIMIT``
        seconds (``ask``), else None."""
        lo = upper if self.uppers else 0
        if self.cover.holds(mask, lo):
            return None
        if self.path is not None and self.path.exists():
            try:
                return self.whole()
            except TableError:
                pass
        todo = self.cover.missing(mask, lo)
        plan, seconds = self.ask(todo, lo)
        if plan is None:
            return self.whole()
        check(plan, seconds)
        self.make(todo, lo, plan)
        return None

    def make(self, todo: tuple[np.ndarray, ...], lo: int, plan) -> None:
        """Solve the masks ``todo`` from ``lo`` (``plan`` checked), into ``values``."""
        shown = self.progress if plan.seconds > SHOWN_SECONDS else None
        self.solve(todo, lo, self.values, shown)
        self.cover.mark(todo, lo)
        self._asked = None


class Pieced:
    """What a table built by ``Pieces`` answers (a mixin of the target,
    futures and parts tables, whose fields ``values``, ``path``, ``header``
    and ``pieces`` it reads; ``pieces`` None: the whole table)."""

    def need(self, mask: int, upper: int = 0) -> None:
        """Make the sub-game of the turn-start state ``(mask, upper)`` ready
        (or, where it takes most of the table, open the whole one)."""
        if self.pieces is None:
            return
        whole = self.pieces.need(int(mask), int(upper))
        if whole is not None:
            self.values, self.path, self.header = whole.values, whole.path, whole.header
            self.pieces = None
        else:
            self.values = self.pieces.values

    def take_whole(self, checked: bool = False) -> None:
        """Open the whole table (solved and stored first if missing,
        announced; ``checked``: its build announced already)."""
        whole = self.pieces.whole(checked=checked)
        self.values, self.path, self.header = whole.values, whole.path, whole.header
        self.pieces = None

    def builds_whole(self, mask: int, upper: int = 0) -> bool:
        """Whether ``need(mask, upper)`` would solve and store the whole table."""
        return self.pieces is not None and self.pieces.builds_whole(int(mask), int(upper))


def need_together(asks, compile_after: str = "") -> None:
    """Make the sub-games of several turn-start states ready at once, in
    one or more of the tables built piece by piece (``asks``: ``(table,
    mask, upper)``, ``table`` a ``Pieced``; a win question asks the target
    table for its own position and the futures table for each opponent's).
    What is missing of each table is gathered first (the states shared by
    two positions, e.g. two opponents, solved once), then announced as one
    build: one figure for the question's whole wait, each table's part
    measured by its own kernels.  A table whose missing part is over
    ``WHOLE_SHARE`` of it, the positions' sub-games together (or whose
    whole table is stored), opens its whole table instead, as
    ``Pieced.need`` does for one position; and while the sub-games
    together are measured over ``SUBGAME_LIMIT`` seconds, the table whose
    part takes longest is built whole instead.  Every build is measured,
    checked and announced before the first starts (``announce.check_all``:
    each whole table by name, the sub-games left as one, and where more
    than one build follows their time together; the disk for all of them),
    then they run in turn, the whole tables first.  The values are those
    of ``need`` one state after another, bit for bit.  ``compile_after``:
    the kind of kernels that compile once the builds are done, counted in
    the time said for them all (``announce.check_all``)."""
    groups: dict[int, tuple] = {}
    for table, mask, upper in asks:
        pieces = table.pieces
        if pieces is None or pieces.holds(int(mask), int(upper)):
            continue
        groups.setdefault(id(pieces), (table, []))[1].append((int(mask), int(upper)))
    work, whole = [], []
    for table, states in groups.values():
        pieces = table.pieces
        if pieces.path is not None and pieces.path.exists():
            for m, u in states:             # the whole table, opened
                table.need(m, u)
            continue
        lo = min(u for _, u in states) if pieces.uppers else 0
        wanted = [pieces.cover.missing(m, u if pieces.uppers else 0) for m, u in states]
        todo = tuple(np.unique(np.concatenate(x)).astype(np.int64) for x in zip(*wanted))
        plan, seconds = pieces.ask(todo, lo)
        if plan is None:                    # most of it, or too long: the whole one
            whole.append(table)
        else:
            work.append((table, todo, lo, plan, seconds))
    while sum(w[4] for w in work) > SUBGAME_LIMIT:      # together too long
        longest = max(work, key=lambda w: w[4])
        work.remove(longest)
        whole.append(longest[0])
    builds = []
    for table in whole:                     # each measured (its compile said first)
        plan = table.pieces.whole_plan()
        compiling(plan)
        builds.append((plan, estimate(plan)))
    if len(work) == 1:
        builds.append(work[0][3:5])
    elif work:
        plans = [w[3] for w in work]
        rules = work[0][0].pieces.rules
        parts = ", ".join(f"{p.what.split(' values of')[0]} {p.values:,}" for p in plans)
        builds.append((Plan(f"values of this question's sub-games of {rules.spec} ({parts})",
                            None, sum(p.values for p in plans), 0,
                            sum(p.memory_bytes for p in plans), sum(p.seconds for p in plans)),
                       sum(w[4] for w in work)))
    if not builds:
        return
    check_all(builds, compile_after)        # all said, and the disk for all, before any
    for table in whole:                     # built and stored, in turn
        table.take_whole(checked=True)
    for table, todo, lo, plan, _ in work:
        table.pieces.make(todo, lo, plan)
        table.values = table.pieces.values


def open_pieces(make: Callable, rules: Rules, kind: str, size: int, path,
                made: tuple[Callable, Callable, Callable, Callable], *, uppers: bool = True,
                progress=None):
    """``make(rules, values, path, header, pieces)``: the ``kind`` table
    (``target``, ``futures``, ``parts``) of ``rules`` built piece by piece
    (``Pieces``; ``made``: ``count``, ``solve``, ``whole``, ``whole_plan``
    as in ``Work``),
    holding no values until its first piece is solved."""
    work = Work(*made, lambda n, measure: subgame_plan(rules, kind, n, measure))
    pieces = Pieces(rules, size, work, path, uppers=uppers, progress=progress)
    return make(rules, np.zeros(0), None, None, pieces)


def sample(rules: Rules, todo: tuple[np.ndarray, ...], share: float) -> tuple[np.ndarray, ...]:
    """About ``share`` of the masks of ``todo`` (every k-th of them all, the
    full cards left out), by layer: what a build's estimate is measured on.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> nordic = parse_rules("nordic")
    >>> sum(len(x) for x in sample(nordic, layers(nordic, 0), 0.01))
    328
    """
    masks = np.concatenate(todo[:-1]) if len(todo) > 1 else np.zeros(0, dtype=np.int64)
    step = max(1, int(round(1 / max(share, 1e-9))))
    picked = masks[step // 2::step]
    filled = state_space(rules).filled_count(picked)
    return tuple(picked[filled == p] for p in range(len(todo) - 1)) + (todo[-1][:0],)


PROBE_SECONDS = 0.45  # the sample a build's time is measured on: this long on the reference machine
PROBES = 3            # ... in this many parts, timed one by one (the median rate counts)


def timed(run) -> float:
    """Seconds ``run()`` takes on the wall clock."""
    import time
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(rules: Rules, size: int, count, solve, todo: tuple[np.ndarray, ...], lo: int,
            reference: float) -> float:
    """The seconds ``solve(todo, lo, values, None)`` takes on this machine
    as busy as it is now, measured: a sample of its masks (about
    ``PROBE_SECONDS`` of the ``reference`` seconds, ``sample``), cut in
    ``PROBES`` interleaved parts, each solved into a scratch table of
    ``size`` values and timed on the wall clock; the median rate (seconds
    per value, ``count``) times the values of ``todo``.  The kernels are
    loaded first by solving one mask untimed.  The median keeps a moment
    when other work took the cores from deciding the figure."""
    part = sample(rules, todo, min(1.0, PROBE_SECONDS / max(reference, 1e-9)))
    if not count(part, lo):
        return reference
    scratch = lazy_zeros(size)
    first = next(p for p in range(len(part) - 2, -1, -1) if len(part[p]))
    solve(tuple(x[:1] if p == first else x[:0] for p, x in enumerate(part)), lo, scratch, None)
    rates = []
    for i in range(PROBES):
        piece = tuple(x[i::PROBES] for x in part)
        k = count(piece, lo)
        if k:
            rates.append(timed(lambda: solve(piece, lo, scratch, None)) / k)
    return float(np.median(rates)) * count(todo, lo)


__all__ = ["Cover", "Pieced", "Pieces", "SUBGAME_LIMIT", "WHOLE_SHARE", "Work", "lane_counts", "open_pieces", "layers", "lazy_zeros",
           "measure", "need_together", "sample", "timed"]
