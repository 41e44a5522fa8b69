"""Solved tables on disk: one file per resolved rule set, checked, memory-mapped.

File layout::

    b"YATZYTBL"                    8 bytes, magic
    header length                  uint32, little endian
    header                         JSON: rules, fingerprint, engine version,
                                   dtype, shape, sha256 of the data, ...
    padding to a 64-byte boundary
    data                           banks[k, mask, u], C order

``open_table(rules)`` returns a ``Table`` backed by a read-only memory map.  A
missing, truncated, corrupt or foreign file is reported and (unless asked
otherwise) solved again; writes go to a temporary file that is renamed into
place, so an interrupted solve never leaves a half-written table.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .errors import TableError
from .rules import Rules
from .version import ENGINE_VERSION, TABLE_FORMAT

MAGIC = b"YATZYTBL"
ALIGN = 64


@dataclass
class Table:
    """Expected score to come, ``banks[k, mask, u]``, for every turn-start
    state: filled-box mask, upper total ``u`` (capped) and ``k`` rolls banked
    (always 0 without saved rolls)."""

    rules: Rules
    banks: np.ndarray
    path: Path
    header: dict

    @property
    def values(self) -> np.ndarray:
        """``values[mask, u]``: turn-start values with no rolls banked."""
        return self.banks[0]

    @property
    def expected_score(self) -> float:
        """Expected final score of a new game under optimal play."""
        return float(self.banks[0, 0, 0])

    def value(self, mask: int, upper: int, bank: int = 0) -> float:
        """Expected score still to come from a turn start."""
        return float(self.banks[bank, mask, upper])


def default_directory() -> Path:
    """``$YATZY_TABLES``, else ``tables/`` of a source checkout, else a user cache."""
    env = os.environ.get("YATZY_TABLES")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parent.parent
    repo = checkout / "tables"
    if (checkout / "pyproject.toml").is_file() and repo.is_dir() and os.access(repo, os.W_OK):
        return repo                             # a source checkout, not site-packages
    return Path.home() / ".cache" / "yatzy" / "tables"


def table_path(rules: Rules, directory: Path | str | None = None) -> Path:
    directory = Path(directory) if directory else default_directory()
    return directory / f"{rules.name}-{rules.fingerprint}.tbl"


def save(values: np.ndarray, rules: Rules, path: Path, extra: dict | None = None) -> None:
    """Write a table atomically (temporary file, fsync, rename)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    header = {
        "format": TABLE_FORMAT, "engine": ENGINE_VERSION, "rules": rules.spec,
        "fingerprint": rules.fingerprint, "dtype": "float64", "shape": list(values.shape),
        "sha256": hashlib.sha256(values.data).hexdigest(), **(extra or {}),
    }
    head = json.dumps(header, sort_keys=True).encode()
    offset = _data_offset(len(head))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + struct.pack("<I", len(head)) + head)
            f.write(b"\0" * (offset - f.tell()))
            f.write(values.data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(rules: Rules, path: Path, verify: bool = True) -> Table:
    """Open a stored table for ``rules``; raises TableError naming the problem."""
    try:
        with open(path, "rb") as f:
            start = f.read(len(MAGIC) + 4)
            if len(start) < len(MAGIC) + 4 or start[:len(MAGIC)] != MAGIC:
                raise TableError(f"{path}: not a yatzy table")
            (n,) = struct.unpack("<I", start[len(MAGIC):])
            header = json.loads(f.read(n))
        size = path.stat().st_size
    except FileNotFoundError:
        raise TableError(f"{path}: no table yet") from None
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise TableError(f"{path}: unreadable header ({e})") from None
    expect = {"format": TABLE_FORMAT, "engine": ENGINE_VERSION,
              "fingerprint": rules.fingerprint, "dtype": "float64"}
    for key, want in expect.items():
        if header.get(key) != want:
            raise TableError(f"{path}: {key} is {header.get(key)!r}, expected {want!r}")
    shape = (rules.banks, rules.n_masks, rules.cap + 1)
    if tuple(header.get("shape", ())) != shape:
        raise TableError(f"{path}: shape {header.get('shape')} does not match the rules {shape}")
    offset = _data_offset(n)
    if size != offset + 8 * int(np.prod(shape)):
        raise TableError(f"{path}: truncated or padded ({size} bytes)")
    mapped = np.memmap(path, dtype=np.float64, mode="r", offset=offset, shape=shape)
    banks = mapped.view(np.ndarray)             # plain array view: cheaper to index
    if verify and not _verified_before(path, header):
        if hashlib.sha256(banks.data).hexdigest() != header.get("sha256"):
            raise TableError(f"{path}: checksum mismatch (corrupt table)")
        _remember_verified(path, header)
    return Table(rules, banks, path, header)


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
        tmp = _stamp(path).with_suffix(".tmp")
        tmp.write_text(json.dumps(_file_id(path, header)))
        os.replace(tmp, _stamp(path))
    except OSError:
        pass                   # read-only directory: verify again next time


def open_table(rules: Rules, directory: Path | str | None = None, *, force: bool = False,
               solve_missing: bool = True, progress: bool = True) -> Table:
    """The table for ``rules``, solving and storing it first if needed.

    A bad file is reported on stderr and recomputed, never used.
    """
    path = table_path(rules, directory)
    if not force:
        try:
            return load(rules, path)
        except TableError as e:
            if not solve_missing:
                raise
            if path.exists():
                print(f"warning: {e}; recomputing", file=sys.stderr)
    solve_and_store(rules, path, progress=progress)
    return load(rules, path)


CHECKPOINT_BYTES = 256 << 20     # larger solves work in a file on disk, resumable


def solve_and_store(rules: Rules, path: Path, progress: bool = True) -> float:
    """Solve ``rules`` (with a progress bar and ETA on stderr) and store the
    table.  Returns the seconds the solve took.

    A large solve writes its values into ``<table>.partial`` (memory-mapped)
    and records each finished layer in ``<table>.partial.json``; if it is
    interrupted, the next solve of the same rules resumes after the last
    finished layer.
    """
    from . import engine   # Numba is only imported when something is solved

    shape = (rules.banks, rules.n_masks, rules.cap + 1)
    out, resume, checkpoint = None, 0, None
    if 8 * int(np.prod(shape)) > CHECKPOINT_BYTES:
        try:
            out, resume, checkpoint = _checkpoint(rules, path, shape)
        except OSError as e:
            raise TableError(f"{path}: cannot write the table ({e.strerror or e})") from None
        if resume:
            print(f"resuming {path.name} after layer {resume}", file=sys.stderr)
    layers = rules.layers[:-1]
    if progress:
        import click
        with click.progressbar(length=sum(len(layer) for layer in layers),
                               label=f"solving {rules.spec}", file=sys.stderr) as bar:
            solution = engine.solve(rules, progress=bar.update, out=out, resume=resume,
                                    checkpoint=checkpoint)
    else:
        solution = engine.solve(rules, out=out, resume=resume, checkpoint=checkpoint)
    try:
        save(solution.banks, rules, path,
             {"expected_score": solution.expected_score, "solve_seconds": solution.seconds,
              "compile_seconds": solution.compile_seconds})
    except OSError as e:
        raise TableError(f"{path}: cannot write the table ({e.strerror or e})") from None
    if out is not None:
        for leftover in (_partial(path), _partial(path, ".json")):
            leftover.unlink(missing_ok=True)
    return solution.seconds


def _partial(path: Path, suffix: str = "") -> Path:
    return path.with_name(path.name + ".partial" + suffix)


def _checkpoint(rules: Rules, path: Path, shape: tuple[int, ...]):
    """The on-disk values array of an unfinished solve, the layers it has
    finished, and a function that records a finished layer."""
    data, marker = _partial(path), _partial(path, ".json")
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
        tmp = marker.with_name(marker.name + ".tmp")
        tmp.write_text(json.dumps({"fingerprint": rules.fingerprint, "engine": ENGINE_VERSION,
                                   "layers_done": done}))
        os.replace(tmp, marker)

    return out, resume, checkpoint


def _data_offset(header_len: int) -> int:
    end = len(MAGIC) + 4 + header_len
    return -(-end // ALIGN) * ALIGN
