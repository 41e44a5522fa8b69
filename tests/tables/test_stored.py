"""What is stored in a tables folder, listed and removed (``stored_files``,
``remove_stored``): real tables solved into a folder of the test, leftovers
as a stopped build leaves them, a solve lock held by a live holder."""

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from small_games import THREE_UPPER, TINY

from yatzy.tables import store
from yatzy.tables.store import (
    open_table,
    remove_stored,
    stale,
    stored_files,
    table_path,
)


@pytest.fixture
def folder(tmp_path):
    open_table(TINY, tmp_path, progress=False)
    open_table(THREE_UPPER, tmp_path, progress=False)
    return tmp_path


def dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def leftovers(folder, rules):
    """What a stopped build of ``rules``' target table leaves, and a killed write."""
    target = table_path(rules, folder).with_name(
        table_path(rules, folder).stem + "-target.tbl")
    made = [target.with_name(target.name + ".partial"),
            target.with_name(target.name + ".partial.json"),
            target.with_name(target.name + ".lock"),
            target.with_name(f"{target.name}.{dead_pid()}.abcd1234.tmp")]
    for i, path in enumerate(made):
        path.write_bytes(b"x" * (100 * i))
    return made


def test_every_table_is_listed_with_its_rules_kind_and_size(folder):
    files = stored_files(folder)
    tables = {f.rules: f for f in files if not f.leftover}
    assert set(tables) == {"tiny", "three_upper"}
    for f in tables.values():
        assert f.kind == "values" and f.size == f.path.stat().st_size > 0
        assert f.table == f.path
    assert {f.kind for f in files if f.leftover} <= {"lock"}     # the solve locks stay
    (folder / "notes.txt").write_text("mine")                    # not the program's: not listed
    assert "notes.txt" not in {f.path.name for f in stored_files(folder)}


def test_leftovers_are_named_by_kind_and_the_table_they_belong_to(folder):
    made = leftovers(folder, TINY)
    found = {f.path: f for f in stored_files(folder)}
    assert [found[p].kind for p in made] == ["partial", "partial", "lock", "temporary"]
    assert {found[p].table.name for p in made} == {f"tiny-{TINY.fingerprint}-target.tbl"}
    assert all(stale(found[p]) for p in made)
    assert not stale(found[table_path(TINY, folder)])            # a table is no leftover


def test_a_build_that_is_running_keeps_its_files(folder):
    made = leftovers(folder, TINY)
    lock = made[2]
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)            # a build holds the lock
    try:
        files = [f for f in stored_files(folder) if f.path in made[:3]]
        assert not any(stale(f) for f in files)
        removed, kept = remove_stored(files)
        assert removed == [] and {f.path for f in kept} == set(made[:3])
        assert all(p.exists() for p in made)
    finally:
        os.close(fd)
    removed, kept = remove_stored([f for f in stored_files(folder) if stale(f)])
    assert kept == [] and not any(p.exists() for p in made)


def test_removing_a_table_takes_its_stamp_and_lock_and_leaves_the_others(folder):
    path = table_path(TINY, folder)
    stamp = path.with_name(path.name + ".verified")
    stamp.write_text(json.dumps({"size": 1}))
    removed, kept = remove_stored([f for f in stored_files(folder) if f.path == path])
    assert [f.path for f in removed] == [path] and kept == []
    assert not path.exists() and not stamp.exists()
    assert not path.with_name(path.name + ".lock").exists()
    assert table_path(THREE_UPPER, folder).exists()
    assert open_table(TINY, folder, progress=False).path == path        # solved again on use


def test_the_default_folder_of_an_installed_package_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("YATZY_TABLES", raising=False)
    monkeypatch.setattr(store, "__file__",
                        str(tmp_path / "site-packages" / "solver" / "tables" / "store.py"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    if sys.platform.startswith("linux"):
        assert store.default_directory() == tmp_path / "cache" / "yatzy" / "tables"
    assert store.default_directory() == store.cache_folder() / "tables"
    checkout = Path(__file__).resolve().parents[2]
    monkeypatch.setattr(store, "__file__", str(checkout / "solver" / "tables" / "store.py"))
    assert store.default_directory() == checkout / "tables"
