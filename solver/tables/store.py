"""Solved tables on disk: one file per resolved rule set, checked, memory-mapped.

File layout::

    b"YATZYTBL"                    8 bytes, magic
    header length                  uint32, little endian
    header                         JSON: rules, fingerprint, engine version,
                                   layout, dtype, shapes, sha256 of the data, ...
    padding to a 64-byte boundary (64 KiB with saved rolls)
    data                           dense: values[0, mask, u] (float64), C order;
                                   layers: values[k, rank, u] of each layer,
                                   p = 0 .. n_boxes, one after the other

(see ``yatzy.tables.values`` for the two layouts).  Tables with saved rolls are
solved and written one layer at a time, each layer written (and
checkpointed) by a second thread while the next one is solved; above
``FLOAT32_BYTES`` they are stored as float32, and the header records the
largest rounding error.

``open_table(rules)`` returns a ``Table`` backed by read-only memory maps.  A
missing, truncated, corrupt or foreign file is reported (a ``TableWarning``)
and (unless asked otherwise) solved again; writes are atomic
(``yatzy.files``), so an interrupted solve never leaves a half-written
table.  Large solves keep a checkpoint per layer and resume after an
interruption.  Processes that need the same missing table solve it once: a
solve holds an exclusive lock on ``<table>.lock`` (``fcntl.flock``), and a
process that waited for it uses the table the first one stored.

This module prints nothing.  Progress of a solve goes to a callback
``progress(done, total)`` (work units of ``yatzy.tables.build``: called once with
the work already done, 0 or what a resumed solve finds finished, before any
new work, then after each piece, last with ``done == total``); notices go
through ``warnings.warn`` as ``TableWarning``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, TypeVar

import numpy as np

from yatzy.errors import InputError, TableError
from yatzy.files import atomic_bytes, process_alive, remove_orphans, write_text
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.announce import TableWarning, building, check, compile_notice
from yatzy.tables.plan import value_plan
from yatzy.tables.sizes import CHECKPOINT_BYTES, FLOAT32_BYTES, HEADER_ROOM
from yatzy.tables.values import StateValues, certainty
from yatzy.version import ENGINE_VERSION, TABLE_FORMAT

MAGIC = b"YATZYTBL"
ALIGN = 64

Progress = Callable[[int, int], None]     # progress(done, total): see the module docstring
T = TypeVar("T")


def _warn(message: str) -> None:
    warnings.warn(TableWarning(message), stacklevel=3)


@dataclass
class Table(StateValues):
    """The stored turn-start values of ``rules`` (``StateValues``), read-only
    views of the memory-mapped file at ``path``."""

    path: Path | None = None
    header: dict = field(default_factory=dict)
    folder: Path | None = None
    """The tables folder it was opened for, where what is computed from it
    is saved (``path``'s folder, but for a table the package carries)."""

    @property
    def expected_score(self) -> float:
        """Expected final score of a new game (from the solve, in float64
        even where the stored values are float32)."""
        return float(self.header.get("expected_score", self.value(0, 0, 0)))


def default_directory() -> Path:
    """``$YATZY_TABLES``, else ``tables/`` of the source checkout this code
    runs from (an editable install), else ``tables`` in the user's cache
    folder (``cache_folder``: a ``pip install .``)."""
    env = os.environ.get("YATZY_TABLES")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[2]      # solver/tables/store.py
    repo = checkout / "tables"
    if (checkout / "pyproject.toml").is_file() and repo.is_dir() and os.access(repo, os.W_OK):
        return repo                             # a source checkout, not site-packages
    return cache_folder() / "tables"


SHIPPED = Path(__file__).resolve().parent / "shipped"
"""Where a built wheel carries the default rules' value table (solved when
the wheel is built, ``setup.py``): ``open_table`` reads it, checked like
every table, where the tables folder has no table of those rules."""


def cache_folder(platform: str | None = None, environ: dict | None = None,
                 home: Path | None = None) -> Path:
    """The user's cache folder for yatzy: ``$XDG_CACHE_HOME/yatzy`` or
    ``~/.cache/yatzy`` on Linux and other Unix systems,
    ``~/Library/Caches/yatzy`` on macOS, ``%LOCALAPPDATA%\\yatzy\\Cache``
    on Windows.

    >>> cache_folder("linux", {}, Path("/home/ann")).as_posix()
    '/home/ann/.cache/yatzy'
    >>> cache_folder("linux", {"XDG_CACHE_HOME": "/tmp/c"}, Path("/home/ann")).as_posix()
    '/tmp/c/yatzy'
    >>> cache_folder("darwin", {}, Path("/Users/ann")).as_posix()
    '/Users/ann/Library/Caches/yatzy'
    >>> cache_folder("win32", {"LOCALAPPDATA": "C:/Users/ann/AppData/Local"},
    ...              Path("C:/Users/ann")).as_posix()
    'C:/Users/ann/AppData/Local/yatzy/Cache'
    """
    import sys

    platform = sys.platform if platform is None else platform
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    if platform == "win32":
        base = environ.get("LOCALAPPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / "yatzy" / "Cache"
    if platform == "darwin":
        return home / "Library" / "Caches" / "yatzy"
    base = environ.get("XDG_CACHE_HOME")
    return (Path(base) if base and Path(base).is_absolute() else home / ".cache") / "yatzy"


def table_path(rules: Rules, directory: Path | str | None = None, theta: float = 0.0) -> Path:
    """The file of the table of ``rules`` (for the objective ``theta``, see
    ``yatzy.tables.values.utility``)."""
    directory = Path(directory) if directory else default_directory()
    objective = f"-theta{float(theta)!r}" if theta else ""
    return directory / f"{rules.name}-{rules.fingerprint}{objective}.tbl"


def _header_digest(header: dict) -> str:
    """sha256 of the header without its own ``header_sha256`` (canonical JSON)."""
    rest = {k: v for k, v in header.items() if k != "header_sha256"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


def _header_bytes(header: dict, room: int | None = None) -> bytes:
    header = {**header, "header_sha256": _header_digest(header)}
    head = json.dumps(header, sort_keys=True).encode()
    if room is not None:
        if len(head) > room - len(MAGIC) - 4:
            raise ValueError("table header too long")
        head = head.ljust(room - len(MAGIC) - 4)        # JSON allows trailing spaces
    return MAGIC + struct.pack("<I", len(head)) + head


def _base_header(rules: Rules) -> dict:
    return {"format": TABLE_FORMAT, "engine": ENGINE_VERSION, "rules": rules.spec,
            "fingerprint": rules.fingerprint}


def save(values: np.ndarray, rules: Rules, path: Path, extra: dict | None = None) -> None:
    """Write a dense table atomically (``yatzy.files``)."""
    save_array(values, rules, path, "dense", extra)


def store_derived(rules: Rules, path: Path, kind: str,
                  solve: Callable[[Rules, np.ndarray, Progress | None], np.ndarray],
                  directory: Path | str | None = None,
                  progress: Progress | None = None) -> float:
    """Build a table derived from the value table (the value table opened, or
    solved, first): ``solve(rules, values, progress)``, stored at ``path`` as
    ``kind`` (``save_array``); returns the seconds the solve took."""
    values = open_table(rules, directory, progress=progress).values
    start = time.perf_counter()
    derived = solve(rules, values, progress)
    seconds = time.perf_counter() - start
    try:
        save_array(derived, rules, path, kind, {"solve_seconds": seconds})
    except OSError as e:
        raise TableError(f"{path}: cannot write the table ({e.strerror or e})") from None
    return seconds


def save_array(values: np.ndarray, rules: Rules, path: Path, layout: str,
               extra: dict | None = None, dtype: str = "float64") -> None:
    """Write one array (as ``dtype``: float64, or uint8 for tables of
    bytes) as a table file of ``layout`` atomically (``yatzy.files``):
    header (with its shape and sha256), then the data."""
    values = np.ascontiguousarray(values, dtype=np.dtype(dtype))
    header = {**_base_header(rules), "layout": layout, "dtype": np.dtype(dtype).name,
              "shape": list(values.shape), "sha256": hashlib.sha256(values.data).hexdigest(),
              **(extra or {})}
    start = _header_bytes(header)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_bytes(path) as f:
        f.write(start)
        f.write(b"\0" * (_data_offset(len(start) - len(MAGIC) - 4) - f.tell()))
        f.write(values.data)


def _read_header(path: Path) -> tuple[dict, int, int]:
    """The header of a table file, its length and the file's size."""
    try:
        with open(path, "rb") as f:
            start = f.read(len(MAGIC) + 4)
            if len(start) < len(MAGIC) + 4 or start[:len(MAGIC)] != MAGIC:
                raise TableError(f"{path}: not a yatzy table")
            (n,) = struct.unpack("<I", start[len(MAGIC):])
            if n > HEADER_ROOM:
                raise TableError(f"{path}: header of {n} bytes (corrupt table)")
            header = json.loads(f.read(n))
        size = path.stat().st_size
    except FileNotFoundError:
        raise TableError(f"{path}: no table yet") from None
    except (OSError, ValueError, UnicodeDecodeError, RecursionError) as e:
        raise TableError(f"{path}: unreadable header ({str(e)[:80]})") from None
    if not isinstance(header, dict):
        raise TableError(f"{path}: the header is not a JSON object (corrupt table)")
    digest = header.get("header_sha256")
    if digest is None:
        raise TableError(f"{path}: the header has no checksum (an older table)")
    if digest != _header_digest(header):
        raise TableError(f"{path}: header checksum mismatch (corrupt table)")
    return header, n, size


def _well_formed(read: Callable[..., T]) -> Callable[..., T]:
    """``read``, with a header whose fields have the wrong shape (a list for
    a number, ...) reported as a corrupt table (TableError)."""
    def checked(rules: Rules, path: Path, *args, **kwargs) -> T:
        try:
            return read(rules, path, *args, **kwargs)
        except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as e:
            raise TableError(f"{path}: malformed header ({type(e).__name__}: "
                             f"{str(e)[:60]}; corrupt table)") from None
    checked.__doc__, checked.__name__ = read.__doc__, read.__name__
    checked.__wrapped__ = read
    return checked


@_well_formed
def load_array(rules: Rules, path: Path, layout: str, shape: tuple[int, ...],
               verify: bool = True, dtype: str = "float64") -> tuple[np.ndarray, dict]:
    """Open a table file written by ``save_array``: its read-only memory-mapped
    array and header; raises TableError naming the problem.  A length of
    -1 in ``shape`` is any length (the header's)."""
    header, n, size = _read_header(path)
    stored = header.get("shape")
    if (isinstance(stored, list) and len(stored) == len(shape)
            and all(isinstance(x, int) and x >= 0 for x in stored)):
        shape = tuple(x if want == -1 else want for x, want in zip(stored, shape))
    expect = {"format": TABLE_FORMAT, "engine": ENGINE_VERSION,
              "fingerprint": rules.fingerprint, "layout": layout,
              "dtype": np.dtype(dtype).name, "shape": list(shape)}
    for key, want in expect.items():
        if header.get(key) != want:
            raise TableError(f"{path}: {key} is {header.get(key)!r}, expected {want!r}")
    offset = _data_offset(n)
    item = np.dtype(dtype).itemsize
    if size != offset + item * int(np.prod(shape)):
        raise TableError(f"{path}: truncated or padded ({size} bytes)")
    data = np.memmap(path, dtype=np.dtype(dtype), mode="r", offset=offset, shape=shape)
    if verify and not _verified_before(path, header):
        if _sha256(path, offset, data.nbytes) != header.get("sha256"):
            raise TableError(f"{path}: checksum mismatch (corrupt table)")
        _remember_verified(path, header)
    return data.view(np.ndarray), header


@_well_formed
def load(rules: Rules, path: Path, verify: bool = True, theta: float = 0.0) -> Table:
    """Open a stored table for ``rules`` (and the objective ``theta``);
    raises TableError naming the problem."""
    header, n, size = _read_header(path)
    layout = "layers" if rules.saved_rolls else "dense"
    expect = {"format": TABLE_FORMAT, "engine": ENGINE_VERSION,
              "fingerprint": rules.fingerprint, "layout": layout}
    header.setdefault("layout", "dense")        # tables written before layers existed
    header.setdefault("theta", 0.0)             # tables of the expected score
    for key, want in {**expect, "theta": float(theta)}.items():
        if header.get(key) != want:
            raise TableError(f"{path}: {key} is {header.get(key)!r}, expected {want!r}")
    dtype = header.get("dtype")
    if dtype not in ("float64", "float32") or (layout == "dense" and dtype != "float64"):
        raise TableError(f"{path}: dtype {dtype!r} is not supported")
    if layout == "dense":
        shapes = [(1, state_space(rules).n_masks, rules.cap + 1)]
        stored, sums = [header.get("shape")], [header.get("sha256")]
    else:
        shapes = [state_space(rules).layer_shape(p) for p in range(rules.n_boxes + 1)]
        stored, sums = header.get("shapes"), header.get("sha256")
    if not isinstance(stored, list) or [tuple(x or ()) for x in stored] != shapes:
        raise TableError(f"{path}: shape {stored} does not match the rules {shapes}")
    if not isinstance(sums, list) or len(sums) != len(shapes):
        raise TableError(f"{path}: no checksum for every part")
    offset = _data_offset(n)
    item = np.dtype(dtype).itemsize
    if size != offset + item * sum(int(np.prod(s)) for s in shapes):
        raise TableError(f"{path}: truncated or padded ({size} bytes)")
    parts, starts = [], []
    for shape in shapes:
        mapped = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)
        parts.append(mapped.view(np.ndarray))       # plain array view: cheaper to index
        starts.append(offset)
        offset += item * int(np.prod(shape))
    if verify and not _verified_before(path, header):
        for part, start, digest in zip(parts, starts, sums):
            if _sha256(path, start, part.nbytes) != digest:
                raise TableError(f"{path}: checksum mismatch (corrupt table)")
        _remember_verified(path, header)
    if layout == "dense":
        return Table(rules, dense=parts[0], theta=float(theta), path=path, header=header)
    return Table(rules, layers=tuple(parts), theta=float(theta), path=path, header=header)


def _sha256(path: Path, offset: int, size: int) -> str:
    """Checksum of ``size`` bytes of a file from ``offset``, read in slices
    (not through the memory map, which would count the whole table as
    resident memory)."""
    h = hashlib.sha256()
    step = 1 << 24
    with open(path, "rb") as f:
        f.seek(offset)
        while size > 0:
            chunk = f.read(min(step, size))
            if not chunk:
                break
            h.update(chunk)
            size -= len(chunk)
    return h.hexdigest()


STAMP_BYTES = 64 << 20     # tables larger than this remember a passed checksum


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _file_id(path: Path, header: dict) -> dict:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino,
            "sha256": header.get("sha256")}


def _verified_before(path: Path, header: dict) -> bool:
    """True if this very file (same size, time, inode) passed its checksum
    before: hashing a large table on every open would cost seconds."""
    if path.stat().st_size <= STAMP_BYTES:
        return False
    try:
        return json.loads(_stamp(path).read_text()) == _file_id(path, header)
    except (OSError, ValueError):
        return False


def _remember_verified(path: Path, header: dict) -> None:
    if path.stat().st_size <= STAMP_BYTES:
        return
    try:
        write_text(_stamp(path), json.dumps(_file_id(path, header)))
    except (OSError, InputError):
        pass                   # read-only directory: verify again next time


def open_table(rules: Rules, directory: Path | str | None = None, *, force: bool = False,
               solve_missing: bool = True, progress: Progress | None = None,
               theta: float = 0.0) -> Table:
    """The table for ``rules``, solving and storing it first if needed
    (``force``: solve again even if a valid table exists).

    A bad file is reported (``TableWarning``) and recomputed, never used;
    with ``solve_missing=False`` the ``TableError`` is raised instead.
    ``progress(done, total)`` follows a solve (see the module docstring;
    ``None`` or ``False``: no progress).  Where the tables folder has no
    table and the package carries one (``SHIPPED``: the Nordic table of a
    wheel), that one is opened.  While one process solves a table,
    another that needs it waits for it and then uses its result.  ``theta``:
    the table of that objective (``yatzy.tables.values.utility``; 0: the expected
    score).
    """
    path = table_path(rules, directory, theta)
    shipped = SHIPPED / path.name
    if not force and not path.exists() and shipped.is_file():
        try:
            table = load(rules, shipped, theta=theta)
            table.folder = path.parent
            return table
        except TableError as e:
            _warn(f"{e}; solving the table in {path.parent}")
    table = open_or_solve(path, lambda: load(rules, path, theta=theta),
                          lambda: solve_and_store(rules, path, progress, theta),
                          force=force, solve_missing=solve_missing,
                          plan=lambda: value_plan(rules, path, theta,
                                                  measure=value_measure(rules, theta)))
    table.folder = path.parent
    return table


def value_measure(rules: Rules, theta: float = 0.0):
    """``measure(reference seconds)`` of the value table's build
    (``Plan.measure``): timed on a sample of its own work
    (``yatzy.tables.build.measure_solve``)."""
    def measure(reference: float) -> float:
        from yatzy.tables import build as engine   # Numba only when something is solved
        return engine.measure_solve(rules, reference, theta)
    return measure


def open_or_solve(path: Path, load: Callable[[], T], solve: Callable[[], object], *,
                  force: bool = False, solve_missing: bool = True,
                  plan: Callable[[], object] | None = None, kind: str = "value") -> T:
    """``load()`` the table at ``path``; if that fails (or ``force``), take
    the solve lock, ``solve()`` unless another process stored the table
    meanwhile, and load it.  A bad file is reported (``TableWarning``) and
    solved again; with ``solve_missing=False`` the ``TableError`` is raised.
    ``plan()``: the build's ``yatzy.tables.plan.Plan``, checked
    (``announce.check``: it fits, it is confirmed if big) before ``solve()``,
    which runs as the build of a table of ``kind`` (``announce.building``: its
    progress names it).
    Temporary files of writes killed before they finished are removed first
    (``yatzy.files.remove_orphans``)."""
    remove_orphans(path)
    if not force:
        try:
            return load()
        except TableError:
            if not solve_missing:
                raise
    before = _identity(path)
    with _solve_lock(path):
        if not force or _identity(path) != before:     # stored while this process waited
            try:
                return load()
            except TableError as e:
                if path.exists():
                    _warn(f"{e}; recomputing")
        if plan is not None:
            check(plan())
        with building(kind):
            solve()
    return load()


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


@contextmanager
def _solve_lock(path: Path) -> Iterator[None]:
    """Hold the exclusive right to solve the table at ``path``: an
    ``fcntl.flock`` on ``<table>.lock`` (released when the process ends, even
    by a crash), waited for if another process holds it.  The lock file
    stays (removing it would let a third process lock a new file while a
    second waits on the old one)."""
    try:
        import fcntl
    except ImportError:                  # no flock (Windows): solve without a lock
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(_lock_path(path), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as e:
        raise TableError(f"{path}: cannot write the table ({e.strerror or e})") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _warn(f"{path.name}: another process is solving these rules; waiting for it")
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)                     # releases the lock


def solve_and_store(rules: Rules, path: Path, progress: Progress | None = None,
                    theta: float = 0.0) -> float:
    """Solve ``rules`` and store the table (``progress(done, total)``: see the
    module docstring).  Returns the seconds the solve took.

    A large dense solve writes its values into ``<table>.partial``
    (memory-mapped) and records each finished layer in
    ``<table>.partial.json``; a solve with saved rolls always works that way
    (see ``LayerWriter``).  If it is interrupted, the next solve of the same
    rules resumes after the last finished layer.
    """
    from yatzy.tables import build as engine     # Numba only when something is solved

    counter = None
    if progress:
        counter = _Counter(progress, sum(engine.work_units(rules, p)
                                         for p in range(rules.n_boxes)))
    seconds = _solve(rules, path, engine, counter, float(theta))
    if counter is not None:
        counter.finish()
    return seconds


class _Counter:
    """The engine's progress (units done since the last call) as calls of
    ``progress(done, total)``."""

    def __init__(self, progress: Progress, total: int):
        self.progress, self.total, self.done, self.started = progress, total, 0, False

    def start(self, done_before: int = 0) -> None:
        """The solve begins, with ``done_before`` units finished by an earlier one."""
        self.done, self.started = done_before, True
        self.progress(self.done, self.total)

    def __call__(self, n: int) -> None:
        if not self.started:
            self.start()
        self.done += n
        self.progress(self.done, self.total)

    def finish(self) -> None:
        if self.done < self.total:
            self.done = self.total
            self.progress(self.done, self.total)


def _solve(rules: Rules, path: Path, engine, counter: _Counter | None, theta: float) -> float:
    try:
        if rules.saved_rolls:
            return _solve_layered(rules, path, engine, counter, theta)
        return _solve_dense(rules, path, engine, counter, theta)
    except OSError as e:
        raise TableError(f"{path}: cannot write the table ({e.strerror or e})") from None


def _compile(engine, rules: Rules) -> float:
    """Compile the solve's kernels (or load them), saying so first where it
    is a real compile (``announce.compile_notice``); returns the seconds it took."""
    compile_notice("solver", engine.KERNELS, stacklevel=3)
    return engine.compile_kernels(rules)


def _solve_dense(rules: Rules, path: Path, engine, counter: _Counter | None,
                 theta: float) -> float:
    shape = (1, state_space(rules).n_masks, rules.cap + 1)
    out, resume, checkpoint = None, 0, None
    if 8 * int(np.prod(shape)) > CHECKPOINT_BYTES:
        out, resume, checkpoint = checkpoint_array(rules, path, shape)
        if resume:
            _warn(f"resuming {path.name} after layer {resume}")
    compile_seconds = _compile(engine, rules)    # before the clock of the progress starts
    if counter is not None:
        counter.start(sum(engine.work_units(rules, rules.n_boxes - 1 - i) for i in range(resume)))
    solution = engine.solve(rules, progress=counter, out=out, resume=resume,
                            checkpoint=checkpoint, theta=theta)
    save(solution.dense, rules, path,
         {"expected_score": solution.expected_score, "solve_seconds": solution.seconds,
          "compile_seconds": compile_seconds, "theta": theta})
    if out is not None:
        for leftover in (partial_path(path), partial_path(path, ".json")):
            leftover.unlink(missing_ok=True)
    return solution.seconds


def _solve_layered(rules: Rules, path: Path, engine, counter: _Counter | None,
                   theta: float) -> float:
    writer = LayerWriter(rules, path)
    resume = writer.resume()
    if resume is not None:
        _warn(f"resuming {path.name}: layers {resume[0]}..{rules.n_boxes} are solved")
    compile_seconds = _compile(engine, rules)
    if counter is not None:
        counter.start(0 if resume is None else
                      sum(engine.work_units(rules, p) for p in range(resume[0], rules.n_boxes)))
    start = time.perf_counter()
    expected = float(resume[1][0, 0, 0]) if resume is not None and resume[0] == 0 else None
    layers = engine.solve_layers(rules, counter, resume, theta)
    del resume                             # the solve frees each layer once it is used
    with ThreadPoolExecutor(1, thread_name_prefix="layer-writer") as pool:
        writing = None                     # layer p is written while p - 1 is solved
        for p, values in layers:
            if writing is not None:
                writing.result()           # one layer at a time; its errors raise here
            writing = pool.submit(writer.write, p, values)
            if p == 0:
                expected = float(values[0, 0, 0])
            del values                     # held by the write until it is done
        if writing is not None:
            writing.result()
    seconds = writer.seconds_before + time.perf_counter() - start
    writer.finish({"expected_score": float(certainty(theta, expected)), "theta": theta,
                   "solve_seconds": seconds,
                   "compile_seconds": compile_seconds})
    return seconds

class LayerWriter:
    """Writes a layered table as its layers are solved (last layer first).

    ``<table>.partial``        the file being built: header room, then every
                               layer at its final place
    ``<table>.partial.json``   the layers finished, their checksums, ...
    ``<table>.partial.npy``    the last finished layer in float64: what the
                               next layer is solved from after a restart
    ``finish`` writes the header and renames the file into place.
    """

    def __init__(self, rules: Rules, path: Path):
        self.rules, self.path = rules, path
        self.shapes = [state_space(rules).layer_shape(p) for p in range(rules.n_boxes + 1)]
        cells = [int(np.prod(s)) for s in self.shapes]
        self.dtype = np.dtype(np.float32 if 8 * sum(cells) > FLOAT32_BYTES else np.float64)
        self.offsets = np.concatenate([[HEADER_ROOM],
                                       HEADER_ROOM + np.cumsum(cells) * self.dtype.itemsize])
        self.data, self.marker, self.last = (partial_path(path), partial_path(path, ".json"),
                                             partial_path(path, ".npy"))
        self.state = {"fingerprint": rules.fingerprint, "engine": ENGINE_VERSION,
                      "dtype": self.dtype.name, "done": None, "sha256": {},
                      "max_rounding_error": 0.0, "seconds": 0.0}
        self.seconds_before = 0.0
        self.started = time.perf_counter()

    def resume(self) -> tuple[int, np.ndarray] | None:
        """The last finished layer and its values, if an earlier solve of the
        same rules left a usable checkpoint; else start a new file."""
        try:
            state = json.loads(self.marker.read_text())
            ok = (all(state.get(k) == self.state[k] for k in ("fingerprint", "engine", "dtype"))
                  and self.data.stat().st_size == self.offsets[-1])
            if ok:
                done = int(state["done"])
                last = np.load(self.last, mmap_mode=None)
                if last.shape == self.shapes[done] and last.dtype == np.float64:
                    self.state = state
                    self.seconds_before = float(state["seconds"])
                    return done, last
        except (OSError, ValueError, KeyError, TypeError):
            pass
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.data, "wb") as f:
            f.truncate(int(self.offsets[-1]))
        return None

    def write(self, p: int, values: np.ndarray) -> None:
        """Store finished layer ``p`` in the file and checkpoint it."""
        h, worst = hashlib.sha256(), 0.0
        with open(self.data, "r+b") as f:
            f.seek(int(self.offsets[p]))
            for k in range(values.shape[0]):         # one bank at a time: small buffers
                part = values[k].astype(self.dtype)
                if self.dtype != np.float64:
                    err = part.astype(np.float64)        # one temporary: the error in place
                    np.subtract(err, values[k], out=err)
                    np.abs(err, out=err)
                    worst = max(worst, float(np.nanmax(err, initial=0.0)))
                    del err
                h.update(part.data)
                f.write(part.data)
            f.flush()
            os.fsync(f.fileno())
        with atomic_bytes(self.last) as f:
            np.save(f, values)
        self.state["sha256"][str(p)] = h.hexdigest()
        self.state["max_rounding_error"] = max(self.state["max_rounding_error"], worst)
        self.state["done"] = p
        self.state["seconds"] = self.seconds_before + time.perf_counter() - self.started
        write_text(self.marker, json.dumps(self.state))

    def finish(self, extra: dict) -> None:
        """Write the header and move the finished file into place."""
        header = {**_base_header(self.rules), "layout": "layers", "dtype": self.dtype.name,
                  "shapes": [list(s) for s in self.shapes],
                  "sha256": [self.state["sha256"][str(p)] for p in range(len(self.shapes))],
                  "max_rounding_error": self.state["max_rounding_error"], **extra}
        with open(self.data, "r+b") as f:
            f.write(_header_bytes(header, HEADER_ROOM))
            f.flush()
            os.fsync(f.fileno())
        os.replace(self.data, self.path)
        for leftover in (self.marker, self.last):
            leftover.unlink(missing_ok=True)


def partial_path(path: Path, suffix: str = "") -> Path:
    """Where an unfinished solve of the table ``path`` keeps its work
    (``<table>.partial`` plus ``suffix``)."""
    return path.with_name(path.name + ".partial" + suffix)


def checkpoint_array(rules: Rules, path: Path, shape: tuple[int, ...]):
    """The on-disk values array of an unfinished solve of the table at
    ``path`` (``<table>.partial``), the layers it has finished, and a
    function that records a finished layer (``<table>.partial.json``)."""
    data, marker = partial_path(path), partial_path(path, ".json")
    resume = 0
    try:
        state = json.loads(marker.read_text())
        if (state.get("fingerprint") == rules.fingerprint and state.get("engine") == ENGINE_VERSION
                and data.stat().st_size == 8 * int(np.prod(shape))):
            resume = int(state["layers_done"])
    except (OSError, ValueError, KeyError, TypeError):
        resume = 0
    path.parent.mkdir(parents=True, exist_ok=True)
    out = np.memmap(data, dtype=np.float64, mode="r+" if resume else "w+", shape=shape)

    def checkpoint(done: int) -> None:
        out.flush()
        write_text(marker, json.dumps({"fingerprint": rules.fingerprint,
                                       "engine": ENGINE_VERSION, "layers_done": done}))

    return out, resume, checkpoint


def _data_offset(header_len: int) -> int:
    end = len(MAGIC) + 4 + header_len
    return -(-end // ALIGN) * ALIGN


# ------------------------------------------------------------ what is stored
TABLE_KINDS = ("values", "target", "futures", "decisions", "explain")
"""The kinds of stored table, by the file name's ending: ``<rules>-<fp>.tbl``
(the value table, ``-theta<θ>`` for a risk parameter), ``-target.tbl``,
``-futures.tbl``, ``-decisions.tbl``, ``-explain.tbl``."""

KINDS = (*TABLE_KINDS, "slack", "bound")
"""Every kind of file kept in the tables folder: the tables, and what is
saved beside them: ``-slack<K>.npy`` (the Trippel-Yatzy strategy's slack
values, ``yatzy.players.triple``) and ``-bound.json`` (a proven bound and
its search so far, ``yatzy.research.triple_bound``)."""

LEFTOVERS = ("partial", "lock", "temporary", "stamp")
"""What a build leaves beside a table: ``.partial*`` (an unfinished build, or
its checkpoint), ``.lock`` (the solve lock), ``*.tmp`` (a write that was
killed), ``.verified`` (a passed checksum)."""

_NAME = re.compile(r"(?P<name>[\w.]+)-(?P<fp>[0-9a-f]{16})(?:-theta(?P<theta>-?[0-9.e+-]+?))?"
                   r"(?:(?:-(?P<kind>target|futures|decisions|explain))?\.tbl"
                   r"|-(?P<saved>slack)[0-9]+\.npy|-(?P<json>bound)\.json)(?P<rest>\..*)?")


@dataclass(frozen=True)
class StoredFile:
    """One file of the tables folder: a ``kind`` of table (``KINDS``) or a
    leftover of a build (``LEFTOVERS``), of the rule set named ``name``
    (``rules``: its spec where the header says it) with ``fingerprint``."""

    path: Path
    kind: str
    name: str
    fingerprint: str
    theta: float
    size: int
    modified: float
    rules: str = ""

    @property
    def leftover(self) -> bool:
        return self.kind in LEFTOVERS

    @property
    def table(self) -> Path:
        """The table (or saved file) this file belongs to (itself for one)."""
        m = _NAME.fullmatch(self.path.name)
        return self.path.with_name(self.path.name[:m.start("rest")]) if m and m.group("rest") \
            else self.path

    @property
    def table_kind(self) -> str:
        """The kind of the table this file belongs to (``KINDS``; a
        leftover's too)."""
        m = _NAME.fullmatch(self.path.name)
        return (m.group("kind") or m.group("saved") or m.group("json") or "values") if m \
            else self.kind


def stored_file(path: Path) -> StoredFile | None:
    """What ``path`` is, from its name (and a table's header for its rule
    spec), or ``None`` for a file that is not the program's.

    >>> f = stored_file(Path("/t/forced-4eaaf462cf9c740d-target.tbl.partial.json"))
    >>> f.kind, f.name, f.fingerprint, f.leftover, f.table.name
    ('partial', 'forced', '4eaaf462cf9c740d', True, 'forced-4eaaf462cf9c740d-target.tbl')
    >>> stored_file(Path("/t/nordic-451c46ac6d77f163-theta-0.05.tbl.lock")).theta
    -0.05
    >>> stored_file(Path("/t/README.md")) is None
    True
    >>> f = stored_file(Path("/t/triple-9f3cf2c0fe3a6a1d-slack4.npy.123.x1y2.tmp"))
    >>> f.kind, f.table_kind, f.table.name
    ('temporary', 'slack', 'triple-9f3cf2c0fe3a6a1d-slack4.npy')
    """
    m = _NAME.fullmatch(path.name)
    if not m:
        return None
    rest = m.group("rest") or ""
    if not rest:
        kind = m.group("kind") or m.group("saved") or m.group("json") or "values"
    elif rest.startswith(".partial"):
        kind = "partial"
    elif rest == ".lock":
        kind = "lock"
    elif rest == ".verified":
        kind = "stamp"
    elif rest.endswith(".tmp"):
        kind = "temporary"
    else:
        return None
    try:
        theta = float(m.group("theta") or 0.0)
    except ValueError:
        return None
    try:
        st = path.stat()
    except OSError:
        st = None
    rules = ""
    if kind in TABLE_KINDS:
        try:
            rules = str(_read_header(path)[0].get("rules", ""))
        except TableError:
            rules = ""
    return StoredFile(path, kind, m.group("name"), m.group("fp"), theta,
                      st.st_size if st else 0, st.st_mtime if st else 0.0, rules)


def stored_files(directory: Path | str | None = None) -> list[StoredFile]:
    """Every table and build leftover in the tables folder (default:
    ``default_directory()``), sorted by name."""
    folder = Path(directory) if directory else default_directory()
    try:
        paths = sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:
        return []
    return [f for f in map(stored_file, paths) if f is not None]


def in_use(table: Path) -> bool:
    """Whether a process holds the solve lock of ``table`` now (it is being
    built, or another process waits to build it)."""
    try:
        import fcntl
    except ImportError:                  # no flock (Windows): no build is locked
        return False
    try:
        fd = os.open(_lock_path(table), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)                     # closing releases a lock taken here
    return False


def stale(f: StoredFile) -> bool:
    """Whether the leftover ``f`` is left by a build that is over: its
    table is not being built, a temporary file's writer is gone, a stamp's
    table is gone."""
    if not f.leftover:
        return False
    if f.kind == "temporary":
        m = re.search(r"\.(\d+)\.[^.]+\.tmp$", f.path.name)
        return not (m and process_alive(int(m.group(1))))
    if f.kind == "stamp":
        return not f.table.exists()
    return not in_use(f.table)


def remove_stored(files: list[StoredFile]) -> tuple[list[StoredFile], list[StoredFile]]:
    """Remove ``files``: tables (with their checksum stamps and idle locks)
    and leftovers; a table being built now, or a leftover of a build that
    is running, is kept.  Returns what was removed and what was kept."""
    removed, kept = [], []
    for f in files:
        busy = not stale(f) if f.kind == "temporary" else in_use(f.table)
        if busy:
            kept.append(f)
            continue
        companions = [_stamp(f.path), _lock_path(f.path)] if f.kind in TABLE_KINDS else []
        for path in [f.path, *companions]:
            try:
                path.unlink()
            except FileNotFoundError:
                continue
            except OSError:
                if path == f.path:
                    kept.append(f)
                continue
            if path == f.path:
                removed.append(f)
    return removed, kept
