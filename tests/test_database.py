"""The SQLite files (``yatzy.database``, the ratings of ``yatzy.research.ratings``)
in every state a user's disk can put them in: each is one line (``InputError``),
an answer is either kept or said not to be, and two processes that create a
new file at the same moment both succeed."""

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from yatzy import database
from yatzy.database import DatabaseBroken, DatabaseBusy, DatabaseFull, open_database
from yatzy.errors import InputError
from yatzy.research.ratings import Answer, Ratings

ROOT = Path(__file__).resolve().parents[1]
ANSWER = Answer("nordic", "|11111|0", "score", "score ones", "score ones", 0.5)

# each child waits for the file "go" so that they open the new database together
RACER = textwrap.dedent("""
    import sys, time, pathlib
    from yatzy.database import open_database
    from yatzy.research.ratings import MIGRATIONS as RATINGS
    from yatzy.web.shared import MIGRATIONS as TABLES
    go = pathlib.Path(sys.argv[2])
    while not go.exists():
        time.sleep(0.0005)
    db = open_database(sys.argv[1], RATINGS if sys.argv[3] == "ratings" else TABLES)
    print(db.execute("PRAGMA user_version").fetchone()[0])
""")


@pytest.mark.parametrize("kind", ["ratings", "tables"])
def test_two_processes_creating_a_new_database_at_once_both_succeed(tmp_path, kind):
    for attempt in range(4):
        path, go = tmp_path / f"{attempt}.sqlite", tmp_path / f"go{attempt}"
        procs = [subprocess.Popen([sys.executable, "-c", RACER, str(path), str(go), kind],
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin"})
                 for _ in range(3)]
        go.touch()
        outs = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], [e for _, e in outs]
        versions = {o.strip() for o, _ in outs}
        assert len(versions) == 1 and int(versions.pop()) >= 1


def test_a_locked_database_is_one_line_and_the_answer_said_not_recorded(tmp_path, monkeypatch):
    monkeypatch.setattr(database, "BUSY_SECONDS", 0.2)
    path = tmp_path / "r.sqlite"
    with Ratings(path) as db:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")            # another program writing, for a long time
        with pytest.raises(DatabaseBusy, match="locked.*not recorded"):
            db.record(ANSWER)
        other.execute("ROLLBACK")
        db.record(ANSWER)                           # the lock gone: recorded
        assert db.count() == 1
        other.close()


def test_a_database_deleted_while_open_says_the_answer_was_not_recorded(tmp_path):
    path = tmp_path / "r.sqlite"
    with Ratings(path) as db:
        db.record(ANSWER)
        path.unlink()
        with pytest.raises(DatabaseBroken, match="deleted or replaced.*not recorded"):
            db.record(ANSWER)


def test_a_full_database_is_one_line(tmp_path):
    with Ratings(tmp_path / "r.sqlite", max_bytes=64 * 1024) as db:
        with pytest.raises(DatabaseFull, match="full.*not recorded"):
            for i in range(10_000):
                db.record(Answer("nordic", f"{'x' * 200}{i}", "score", "a", "b", 1.0))
        assert db.count() > 10                   # what was recorded is still there


@pytest.mark.parametrize("make", [
    lambda p: p.write_bytes(b"SQLite format 3\0" + b"\xff" * 5000),     # damaged
    lambda p: p.write_text("not a database at all " * 200),
    lambda p: p.mkdir(),
])
def test_a_damaged_file_or_a_folder_is_one_line(tmp_path, make):
    path = tmp_path / "r.sqlite"
    make(path)
    with pytest.raises(InputError) as e:
        with Ratings(path) as db:
            db.record(ANSWER)
    assert "\n" not in str(e.value) and str(path) in str(e.value)


@pytest.mark.parametrize("path", ["/dev/null", "/dev/zero", "x" * 300, "a/" + "b" * 256])
def test_a_device_or_a_name_too_long_is_refused_unchanged(path):
    with pytest.raises(InputError) as e:
        open_database(path, ["CREATE TABLE t (a)"])
    assert "\n" not in str(e.value)
    if path.startswith("/dev/"):
        assert Path(path).is_char_device()          # still the device


def test_a_newer_schema_is_refused_and_not_changed(tmp_path):
    path = tmp_path / "r.sqlite"
    open_database(path, ["CREATE TABLE t (a)", "CREATE TABLE u (b)"]).close()
    with pytest.raises(InputError, match="newer than this yatzy knows"):
        open_database(path, ["CREATE TABLE t (a)"])
    assert open_database(path, ["CREATE TABLE t (a)", "CREATE TABLE u (b)"]).execute(
        "PRAGMA user_version").fetchone()[0] == 2
