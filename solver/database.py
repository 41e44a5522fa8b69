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
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from solver.errors import InputError


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
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def open_database(path: str | Path, migrations: Sequence[str], *,
                  check_same_thread: bool = True) -> sqlite3.Connection:
    """Open (creating) the database at ``path`` and bring its schema to
    version ``len(migrations)``: step ``i`` (SQL, several statements allowed)
    takes version ``i`` to ``i + 1``, each in its own transaction."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not a database file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=10.0, isolation_level=None,
                             check_same_thread=check_same_thread)
        db.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL: a committed change survives a killed
        # process (kill -9); only a power cut may lose the last ones
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        version = schema_version(db)
    except sqlite3.DatabaseError as e:
        raise InputError(f"{path}: not a usable database ({e})") from None
    except OSError as e:
        raise InputError(f"{path}: cannot open ({e.strerror})") from None
    if version > len(migrations):
        db.close()
        raise InputError(f"{path}: schema version {version} is newer than this yatzy knows "
                         f"({len(migrations)}); upgrade yatzy")
    for step in range(version, len(migrations)):
        with transaction(db):
            if schema_version(db) > step:       # another process took it this far meanwhile
                continue
            for statement in migrations[step].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {step + 1}")
    return db
