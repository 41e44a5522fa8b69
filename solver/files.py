"""Atomic file writes: a file appears complete at its path, or not at all.

Every write goes to a temporary file in the target's folder, is synced, and
is renamed onto the target; a failure or interruption removes the temporary
file and leaves any old file as it was.  Used by the tables, exports, plots
and game logs.

A target that is a folder, or in a folder that is missing or read-only, is
refused (``InputError``) before the block runs, so callers that open the
file first learn of a bad path before any long work (``check_writable``
asks the same without writing).  A full disk is one ``InputError`` naming
the file, the old file intact.

A temporary file's name carries the writing process's id
(``<name>.<pid>.XXXXXXXX.tmp``): one whose writer was killed is recognised
and removed by ``remove_orphans``.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from solver.errors import InputError

FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)
LEGACY_ORPHAN_SECONDS = 24 * 3600   # temporary files without a writer id: removed after a day


def _temp_beside(path: Path) -> Path:
    """A new empty temporary file in ``path``'s folder (InputError if it
    cannot be made there, or if ``path`` is a folder)."""
    if path.is_dir() or str(path).endswith(os.sep):
        raise InputError(f"{path}: is a folder; name a file to write")
    try:
        fd, name = tempfile.mkstemp(prefix=f"{path.name}.{os.getpid()}.", suffix=".tmp",
                                    dir=path.parent if str(path.parent) else ".")
    except OSError as e:
        raise InputError(f"{path}: cannot write ({e.strerror})") from None
    os.close(fd)
    return Path(name)


def check_writable(path: str | Path) -> None:
    """Raise InputError now if ``path`` could not be written (it is a
    folder, its folder is missing or read-only), before any long work."""
    _temp_beside(Path(path)).unlink()


def _write_error(path: Path, e: OSError, existed: bool) -> InputError:
    """The one line for an OSError while writing ``path``."""
    kept = "the old file is unchanged" if existed else "nothing was written"
    what = "the disk is full" if e.errno in FULL else (e.strerror or str(e))
    return InputError(f"{path}: cannot write ({what}); {kept}")


_TEMP = re.compile(r"\.(\d+)\.[^.]+\.tmp$")


def remove_orphans(path: str | Path) -> list[Path]:
    """Remove the temporary files of ``path`` (``<name>.<pid>.XXXX.tmp``)
    whose writing process is gone (killed during a write), and those of an
    older naming without a process id once a day old.  Returns what was
    removed; files that cannot be removed are left."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    removed = []
    try:
        candidates = list(folder.glob(glob_escape(path.name) + ".*.tmp"))
    except OSError:
        return removed
    for tmp in candidates:
        m = _TEMP.search(tmp.name[len(path.name):])
        try:
            if m:
                if process_alive(int(m.group(1))):
                    continue
            elif time.time() - tmp.stat().st_mtime < LEGACY_ORPHAN_SECONDS:
                continue
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed


def glob_escape(name: str) -> str:
    """``name`` with glob's special characters taken literally."""
    return re.sub(r"([\[\]*?])", r"[\1]", name)


def process_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (on systems without signals: assumed)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError, AttributeError):
        return True
    return True


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary file next to ``path``, synced and renamed onto ``path``
    when the block succeeds, removed when it fails."""
    path = Path(path)
    tmp = _temp_beside(path)
    existed = path.exists()
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)             # as open() would create it
    try:
        try:
            yield tmp
        except OSError as e:
            if e.errno in FULL:
                raise _write_error(path, e, existed) from None
            raise
        try:
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as e:
            if e.errno is None:
                raise
            raise _write_error(path, e, existed) from None
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
