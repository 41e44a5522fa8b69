"""Atomic file writes: a file appears complete at its path, or not at all.

Every write goes to a temporary file in the target's folder, is synced, and
is renamed onto the target; a failure or interruption removes the temporary
file and leaves any old file as it was.  Used by the tables, exports, plots
and game logs.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from solver.errors import InputError


def _temp_beside(path: Path) -> Path:
    """A new empty temporary file in ``path``'s folder (InputError if it
    cannot be made there)."""
    try:
        fd, name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp",
                                    dir=path.parent if str(path.parent) else ".")
    except OSError as e:
        raise InputError(f"{path}: cannot write ({e.strerror})") from None
    os.close(fd)
    return Path(name)


def check_writable(path: str | Path) -> None:
    """Raise InputError now if ``path`` could not be written (its folder is
    missing or read-only), before any long work."""
    _temp_beside(Path(path)).unlink()


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary file next to ``path``, synced and renamed onto ``path``
    when the block succeeds, removed when it fails."""
    path = Path(path)
    tmp = _temp_beside(path)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)             # as open() would create it
    try:
        yield tmp
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_text(path: str | Path) -> Iterator[IO[str]]:
    """A text file that appears at ``path`` only once completely written."""
    with atomic_path(path) as tmp, open(tmp, "w") as f:
        yield f


@contextmanager
def atomic_bytes(path: str | Path) -> Iterator[IO[bytes]]:
    """A binary file that appears at ``path`` only once completely written."""
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        yield f


def write_text(path: str | Path, text: str) -> None:
    """Replace the file at ``path`` by ``text``, atomically."""
    with atomic_text(path) as f:
        f.write(text)
