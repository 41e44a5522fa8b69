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
and removed by ``remove_orphans``, which every write runs first (a killed
export or autosave leaves its ``.tmp`` only until the next write).

Every path a user names goes through ``check_name`` first (a part of the
name over ``MAX_NAME_BYTES`` bytes, the whole over ``MAX_PATH_BYTES``, a NUL
character: one line, before the system is asked), and a file read whole
through ``read_text``: only a regular file (not ``/dev/zero``, a pipe or a
folder), its size checked before a byte is read.  A write never replaces
something that is not a regular file (``/dev/null`` stays a device).

    >>> check_name("a" * 300)
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: 'aaaaaaaaaaaaaaaaaaaa...' (300 characters): a file name may have at most 255 bytes in each part
    >>> read_text("/dev/zero")
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: /dev/zero: not a regular file
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from yatzy.errors import InputError

FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)
LEGACY_ORPHAN_SECONDS = 24 * 3600   # temporary files without a writer id: removed after a day
MAX_NAME_BYTES = 255                # bytes of one part of a path (the usual file systems' limit)
MAX_PATH_BYTES = 4096               # bytes of a whole path
MAX_READ = 64 << 20                 # bytes of a file read whole (a game, a log)


def _shown(text: str, most: int = 20) -> str:
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}"[:-1] + f"...' ({len(text)} characters)"


def check_name(path: str | Path) -> Path:
    """``path`` as a ``Path`` if the system could take its name: no NUL, each
    part at most ``MAX_NAME_BYTES`` bytes, the whole at most
    ``MAX_PATH_BYTES``; else one InputError (asked before any ``stat``, which
    would raise ``OSError`` for such a name)."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "\0" in text:
        raise InputError(f"{_shown(text)}: a file name may not hold a NUL character")
    try:
        raw = os.fsencode(text)
    except UnicodeError:
        raise InputError(f"{_shown(text)}: not a file name this system can write") from None
    if len(raw) > MAX_PATH_BYTES:
        raise InputError(f"{_shown(text)}: a path may have at most {MAX_PATH_BYTES} bytes")
    if any(len(part) > MAX_NAME_BYTES for part in raw.split(os.sep.encode())):
        raise InputError(f"{_shown(text)}: a file name may have at most {MAX_NAME_BYTES} "
                         "bytes in each part")
    return Path(text)


def check_regular(path: str | Path, most: int = MAX_READ) -> int:
    """The size of the regular file at ``path``: InputError if the name is
    bad, it is missing, a folder, a device (``/dev/zero``), a pipe, or over
    ``most`` bytes."""
    path = check_name(path)
    try:
        st = path.stat()
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: not a regular file")
    if st.st_size > most:
        raise InputError(f"{path}: larger than {most >> 20} MiB ({st.st_size:,} bytes)")
    return st.st_size


def read_text(path: str | Path, most: int = MAX_READ) -> str:
    """The text (UTF-8) of the regular file at ``path``, at most ``most``
    bytes; any problem is one InputError naming the file."""
    check_regular(path, most)
    try:
        with open(path, "rb") as f:
            data = f.read(most + 1)              # a file that grew since: still bounded
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    if len(data) > most:
        raise InputError(f"{path}: larger than {most >> 20} MiB")
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file") from None


def _check_target(path: Path) -> None:
    """A path to be written: a good name, and not something other than a
    regular file (a device, a pipe) that a rename would replace."""
    check_name(path)
    try:
        st = path.stat()
    except OSError:
        return                                    # missing (or unreadable): the write will say
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: not a regular file; name a file to write")


def _temp_beside(path: Path) -> Path:
    """A new empty temporary file in ``path``'s folder (InputError if it
    cannot be made there, or if ``path`` is a folder)."""
    _check_target(path)
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
    path = check_name(path)
    remove_orphans(path)                      # those of a writer killed before
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
