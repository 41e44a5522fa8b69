"""SQLite files for state that must last (shared games, ratings): WAL, a
versioned schema migrated on open, one transaction per change; a change
once committed survives a killed process.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "x.sqlite"
    >>> steps = ["CREATE TABLE t (a INTEGER)", "ALTER TABLE t ADD COLUMN b TEXT"]
    >>> db = open_database(path, steps)
    >>> schema_version(db)
    2
    >>> with transaction(db):
    ...     _ = db.execute("INSERT INTO t VALUES (1, 'x')")
    >>> db.execute("SELECT a, b FROM t").fetchall()
    [(1, 'x')]
    >>> db.close()

A file written by a newer version (a schema this code does not know) is
refused with one line rather than changed.

Every state of the file is one line (``InputError``), never a traceback:
a name the system cannot take, a folder or a device (``/dev/null``), a
file that is not SQLite or is damaged (``DatabaseBroken``), one another
program holds locked longer than ``BUSY_SECONDS`` (``DatabaseBusy``), one
grown to its ceiling (``DatabaseFull``: ``max_bytes``, SQLite's
``max_page_count``) and one deleted or replaced while open (``check_same``).
Creating the schema is one ``BEGIN IMMEDIATE`` transaction that reads the
version again inside it, so two processes opening a new file at once both
succeed: the second waits, then finds the schema made.
"""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from yatzy.errors import InputError
from yatzy.files import check_name

BUSY_SECONDS = 10.0             # how long a write waits for another process's lock
MAX_BYTES = 1 << 30             # the default ceiling of a database file


class DatabaseBusy(InputError):
    """Another process holds the file locked for longer than ``BUSY_SECONDS``."""


class DatabaseFull(InputError):
    """The file has reached its ceiling (or the disk is full)."""


class DatabaseBroken(InputError):
    """The file is not a database, is damaged, or was deleted while open."""


def database_error(path: str | Path, e: sqlite3.Error, doing: str = "") -> InputError:
    """The one line for an SQLite error on the file at ``path``."""
    text = str(e)
    tail = f"; {doing}" if doing else ""
    if "locked" in text or "busy" in text:
        return DatabaseBusy(f"{path}: the database is locked by another program{tail}")
    if "full" in text:
        return DatabaseFull(f"{path}: the database is full{tail}")
    if isinstance(e, sqlite3.OperationalError) and "readonly" in text.replace(" ", ""):
        return InputError(f"{path}: the database cannot be written (read-only){tail}")
    return DatabaseBroken(f"{path}: not a usable database ({text}){tail}")


@contextmanager
def reporting(path: str | Path, doing: str = "") -> Iterator[None]:
    """SQLite's errors in the block as one ``InputError`` line naming
    ``path`` (and ``doing``: what did not happen, e.g. "the answer was not
    recorded")."""
    try:
        yield
    except sqlite3.Error as e:
        raise database_error(path, e, doing) from None


def file_id(path: str | Path) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` (None if it is gone)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def check_same(path: str | Path, opened: tuple[int, int] | None, doing: str = "") -> None:
    """``DatabaseBroken`` unless the file at ``path`` is still the one opened
    (a file deleted while open takes every later write with it, unseen)."""
    if opened is None or file_id(path) != opened:
        tail = f"; {doing}" if doing else ""
        raise DatabaseBroken(f"{path}: the database was deleted or replaced while open{tail}")


def data_folder() -> Path:
    """Where lasting state lives: ``$YATZY_DATA``, else
    ``$XDG_DATA_HOME/yatzy``, else ``~/.local/share/yatzy``."""
    if os.environ.get("YATZY_DATA"):
        return Path(os.environ["YATZY_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "yatzy"


def schema_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction (``BEGIN IMMEDIATE``: writers queue instead of
    failing halfway), committed at the end or rolled back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.in_transaction:                # SQLite may have rolled back itself (a full file)
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def wal(db: sqlite3.Connection) -> None:
    """Put the file in WAL mode.  Two processes doing so on a new file at
    once: SQLite answers the second "locked" at once, without its busy
    handler, so the switch is tried again until ``BUSY_SECONDS``."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def open_database(path: str | Path, migrations: Sequence[str], *,
                  check_same_thread: bool = True, max_bytes: int = MAX_BYTES
                  ) -> sqlite3.Connection:
    """Open (creating) the database at ``path`` and bring its schema to
    version ``len(migrations)``: step ``i`` (SQL, several statements allowed)
    takes version ``i`` to ``i + 1``, all of them in one transaction (two
    processes opening a new file: the second waits, then finds it made).
    The file grows to at most about ``max_bytes`` (then ``DatabaseFull``)."""
    path = check_name(path)
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not a database file")
    if path.exists() and not path.is_file():
        raise InputError(f"{path}: not a regular file (a device?); name a database file")
    db = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None,
                             check_same_thread=check_same_thread)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        wal(db)
        # WAL with synchronous=NORMAL: a committed change survives a killed
        # process (kill -9); only a power cut may lose the last ones
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        page = int(db.execute("PRAGMA page_size").fetchone()[0])
        db.execute(f"PRAGMA max_page_count = {max(16, max_bytes // page)}")
        version = schema_version(db)
        if version < len(migrations):
            with transaction(db):
                version = schema_version(db)        # again, now that no one else writes
                for step in range(version, len(migrations)):
                    for statement in migrations[step].split(";"):
                        if statement.strip():
                            db.execute(statement)
                if version < len(migrations):
                    db.execute(f"PRAGMA user_version = {len(migrations)}")
    except sqlite3.Error as e:
        if db is not None:
            db.close()
        raise database_error(path, e) from None
    except OSError as e:
        if db is not None:
            db.close()
        raise InputError(f"{path}: cannot open ({e.strerror})") from None
    if version > len(migrations):
        db.close()
        raise InputError(f"{path}: schema version {version} is newer than this yatzy knows "
                         f"({len(migrations)}); upgrade yatzy")
    return db
