"""The ratings database (yatzy.research.ratings): answers recorded and
read back, the rating with its interval, spaced repetition, schema
migrations, and a kill in the middle of writes leaves a valid file."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from yatzy.errors import InputError
from yatzy.research.puzzles import Anchor
from yatzy.research.ratings import (
    MIGRATIONS,
    RETRY,
    SCHEMA_VERSION,
    Answer,
    Ratings,
    check_database,
    default_path,
)

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.timezone.utc)


def answer(loss, kind="box choice", puzzle="|11256|0", at=T0):
    return Answer("nordic", puzzle, kind, "score chance", "score ones", loss, at=at)


def test_answers_are_read_back_with_mean_and_interval_by_kind_and_day(tmp_path):
    path = tmp_path / "r.sqlite"
    with Ratings(path) as db:
        for i, loss in enumerate([0.0, 1.0, 2.0]):
            db.record(answer(loss, "first keep", f"a|11256|{i}"))
        db.record(answer(4.0, "box choice", at=T0 + dt.timedelta(days=1)))
    with Ratings(path) as db:                     # reopened: nothing lost
        s = db.stats("nordic", now=T0)
        assert db.version == SCHEMA_VERSION
    assert s.overall.n == 4 and s.overall.mean == pytest.approx(7 / 4)
    first = next(r for r in s.by_kind if r.label == "first keep")
    assert first.mean == pytest.approx(1.0)
    assert first.ci95[0] == pytest.approx(max(0.0, 1 - 1.959963984540054 / 3 ** 0.5))
    assert [d.label for d in s.by_day] == ["2026-12-01", "2026-12-02"]
    assert db.path == path


def test_a_wrong_answer_comes_back_later_and_leaves_after_right_answers(tmp_path):
    with Ratings(tmp_path / "r.sqlite") as db:
        db.record(answer(3.0))
        assert db.due("nordic", T0) == []
        assert db.due("nordic", T0 + RETRY) == ["|11256|0"]
        at = T0 + RETRY
        for days in (1, 3, 9, 27):
            db.record(answer(0.0, at=at))
            assert db.due("nordic", at + dt.timedelta(days=days) - dt.timedelta(seconds=1)) == []
            at = at + dt.timedelta(days=days)
            assert db.due("nordic", at) == ["|11256|0"]
        db.record(answer(0.0, at=at))              # right at 27 days: learnt
        assert db.due("nordic", at + dt.timedelta(days=999)) == []
        db.record(answer(0.5, at=at))              # wrong again: back in the list
        assert db.due("nordic", at + RETRY) == ["|11256|0"]


def test_a_version_1_file_is_migrated_and_keeps_its_answers(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    for statement in MIGRATIONS[0].split(";"):
        old.execute(statement)
    old.execute("INSERT INTO answers (at, rules, puzzle, kind, answer, best, loss, source) "
                "VALUES ('2026-11-30T10:00:00+00:00', 'nordic', 'x', 'box choice', 'a', 'b', "
                "1.5, 'train')")
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    with Ratings(path) as db:
        assert db.version == SCHEMA_VERSION
        assert db.stats("nordic").overall.mean == 1.5
        anchors = [Anchor("greedy", 1.0, (0.9, 1.1), 100, 200.7, 10, True)]
        db.store_anchors("nordic", "f", 10, 0, anchors)
        assert db.anchors("nordic", "f", 10, 0) == anchors
        assert db.anchors("nordic", "f", 11, 0) is None
        journal = db.db.execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"


def test_a_newer_file_or_not_a_database_is_a_one_line_error(tmp_path):
    newer = tmp_path / "new.sqlite"
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(InputError, match="newer"):
        Ratings(newer)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(InputError, match="not a usable database"):
        Ratings(junk)


def test_the_default_file_is_under_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("YATZY_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "yatzy" / "ratings.sqlite"


WRITER = textwrap.dedent("""
    import sys
    from yatzy.research.ratings import Answer, Ratings
    db = Ratings(sys.argv[1])
    print("ready", flush=True)
    i = 0
    while True:
        db.record(Answer("nordic", f"p{i % 50}", "box choice", "a", "b", (i % 7) * 0.5))
        i += 1
""")


def test_killing_the_process_mid_write_leaves_the_database_valid(tmp_path):
    path = tmp_path / "r.sqlite"
    for round_ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.3 + 0.2 * round_)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        check_database(path)
        with Ratings(path) as db:
            n = db.count("nordic")
            assert n > 0
            assert db.stats("nordic").overall.n == n
