"""Stored tables: header, checksum, detection of bad files, atomic writes."""

import json
import struct

import numpy as np
import pytest
from small_games import BANKED, SMALL, THREE_UPPER

from yatzy.errors import TableError
from yatzy.rules.ruleset import Rules
from yatzy.tables import build as engine
from yatzy.tables.announce import TableWarning
from yatzy.tables.store import MAGIC, load, open_table, save, table_path


@pytest.fixture
def stored(tmp_path):
    table = open_table(THREE_UPPER, tmp_path, progress=False)
    return table.path


def test_round_trip_is_memory_mapped_and_named_by_rules(stored, tmp_path):
    t = load(THREE_UPPER, stored)
    assert isinstance(t.banks.base, np.memmap)        # a view of the mapped file
    assert stored == table_path(THREE_UPPER, tmp_path)
    assert THREE_UPPER.fingerprint in stored.name
    assert t.header["rules"] == "three_upper" and t.header["dtype"] == "float64"
    fresh = engine.solve(THREE_UPPER).expected_score             # not the header's own figure
    assert t.header["expected_score"] == fresh and t.value(0, 0) == fresh


def _files(folder):
    """The files in ``folder`` but the solve lock (which stays, empty)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock"))


def test_truncated_table_is_detected_and_recomputed_with_a_warning(stored, tmp_path, capsys):
    good = load(THREE_UPPER, stored).expected_score
    data = stored.read_bytes()
    stored.write_bytes(data[:-8])
    with pytest.raises(TableError, match="truncated"):
        load(THREE_UPPER, stored)
    with pytest.warns(TableWarning, match="truncated.*; recomputing"):
        t = open_table(THREE_UPPER, tmp_path, progress=False)
    assert t.expected_score == good
    assert capsys.readouterr() == ("", "")                # the library prints nothing


def test_progress_is_reported_as_done_and_total_units(tmp_path, capsys):
    calls = []
    open_table(THREE_UPPER, tmp_path, progress=lambda done, total: calls.append((done, total)))
    total = calls[0][1]
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert all(t == total for _, t in calls) and len(calls) > 2
    calls.clear()
    open_table(THREE_UPPER, tmp_path, progress=lambda done, total: calls.append((done, total)))
    assert calls == []                                    # nothing solved, nothing reported
    assert capsys.readouterr() == ("", "")


def test_flipped_byte_is_detected_by_checksum(stored):
    data = bytearray(stored.read_bytes())
    data[-3] ^= 0x40
    stored.write_bytes(bytes(data))
    with pytest.raises(TableError, match="checksum"):
        load(THREE_UPPER, stored)


def test_table_of_other_rules_is_never_used(stored):
    other = Rules("three_upper", THREE_UPPER.boxes, dice=3, bonus_threshold=6, rolls=2)
    assert other.fingerprint != THREE_UPPER.fingerprint
    with pytest.raises(TableError, match="fingerprint"):
        load(other, stored)


def test_garbage_and_missing_files(tmp_path):
    bad = tmp_path / "x.tbl"
    bad.write_bytes(b"hello")
    with pytest.raises(TableError, match="not a yatzy table"):
        load(THREE_UPPER, bad)
    bad.write_bytes(MAGIC + struct.pack("<I", 5) + b"{oops")
    with pytest.raises(TableError, match="header"):
        load(THREE_UPPER, bad)
    with pytest.raises(TableError, match="no table"):
        load(THREE_UPPER, tmp_path / "missing.tbl")


def test_engine_version_mismatch_is_rejected(stored):
    data = stored.read_bytes()
    (n,) = struct.unpack("<I", data[8:12])
    header = json.loads(data[12:12 + n])
    header["engine"] = -1
    new = json.dumps(header, sort_keys=True).encode().ljust(n)
    stored.write_bytes(data[:12] + new + data[12 + n:])
    with pytest.raises(TableError, match="engine"):
        load(THREE_UPPER, stored)


def test_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    def interrupted(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr("yatzy.tables.store.os.fsync", interrupted)
    path = tmp_path / "t.tbl"
    with pytest.raises(KeyboardInterrupt):
        save(np.zeros((16, 7)), THREE_UPPER, path)
    assert list(tmp_path.iterdir()) == []


def test_interrupted_rewrite_keeps_the_old_table(stored, monkeypatch):
    before = stored.read_bytes()
    monkeypatch.setattr("yatzy.tables.store.os.fsync", lambda fd: (_ for _ in ()).throw(OSError("disk")))
    with pytest.raises(OSError):
        save(np.zeros((16, 7)), THREE_UPPER, stored)
    assert stored.read_bytes() == before
    assert _files(stored.parent) == [stored.name]


def test_interrupted_large_solve_resumes_after_the_last_layer(tmp_path, monkeypatch):
    import yatzy.tables.build as engine
    monkeypatch.setattr("yatzy.tables.store.CHECKPOINT_BYTES", 0)      # checkpoint even this one
    fresh = engine.solve(THREE_UPPER).banks
    real = engine.run_layer
    calls = []

    def dies_on_third_layer(masks, *args):
        calls.append(len(masks) > 0)
        if sum(calls) == 3:
            raise KeyboardInterrupt
        return real(masks, *args)
    monkeypatch.setattr(engine, "run_layer", dies_on_third_layer)
    with pytest.raises(KeyboardInterrupt):
        open_table(THREE_UPPER, tmp_path, progress=False)
    path = table_path(THREE_UPPER, tmp_path)
    assert not path.exists()
    assert json.loads((tmp_path / (path.name + ".partial.json")).read_text())["layers_done"] == 2

    monkeypatch.setattr(engine, "run_layer", real)
    with pytest.warns(TableWarning, match="resuming"):
        t = open_table(THREE_UPPER, tmp_path, progress=False)
    np.testing.assert_array_equal(np.asarray(t.banks), fresh)
    assert _files(tmp_path) == [path.name]


def test_large_table_remembers_its_checksum_until_the_file_changes(stored, monkeypatch):
    monkeypatch.setattr("yatzy.tables.store.STAMP_BYTES", 0)
    load(THREE_UPPER, stored)
    stamp = stored.with_name(stored.name + ".verified")
    assert stamp.exists()
    calls = []
    real = __import__("yatzy.tables.store", fromlist=["_sha256"])._sha256
    monkeypatch.setattr("yatzy.tables.store._sha256", lambda *a: calls.append(1) or real(*a))
    load(THREE_UPPER, stored)
    assert calls == []                      # stamp matched: the data is not hashed (the header is)
    data = bytearray(stored.read_bytes())
    data[-3] ^= 0x40
    stored.write_bytes(bytes(data))                       # a changed file is hashed again
    with pytest.raises(TableError, match="checksum"):
        load(THREE_UPPER, stored)


def test_unwritable_table_directory_is_a_one_line_error(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from yatzy.cli import main

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr("yatzy.tables.store.save", refuse)
    r = CliRunner().invoke(main, ["ev", "--rules", "forced", "--tables", str(tmp_path)])
    assert r.exit_code == 2
    assert "cannot write the table (Permission denied)" in r.output
    assert "Traceback" not in r.output


SOLVE_SMALL = """
import sys
from yatzy.rules.boxes import NORDIC
from yatzy.rules.ruleset import Rules
from yatzy.tables.store import open_table
small = Rules("three_upper", NORDIC[:3] + NORDIC[-1:], dice=3, bonus_threshold=6)
solved = []
table = open_table(small, sys.argv[1], progress=lambda done, total: solved.append(done))
print("solved" if solved else "waited", table.expected_score, flush=True)
"""


def test_processes_needing_the_same_missing_table_solve_it_once(tmp_path):
    """Two processes start while the table's lock is held (as by a solve
    under way): each waits, then one solves and the other uses its table."""
    import fcntl
    import os
    import subprocess
    import sys
    from pathlib import Path

    path = table_path(THREE_UPPER, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(tables.__file__).resolve().parents[2])}
    procs = []
    try:
        with open(path.with_name(path.name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            for _ in range(2):
                procs.append(subprocess.Popen([sys.executable, "-c", SOLVE_SMALL, str(tmp_path)],
                                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                              text=True, env=env))
            for p in procs:                   # both are blocked on the lock
                assert "waiting for it" in p.stderr.readline()
        outs = [p.communicate(timeout=600) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert all(p.returncode == 0 for p in procs), outs
    results = sorted(out.split() for out, _ in outs)
    assert [r[0] for r in results] == ["solved", "waited"], outs
    assert results[0][1] == results[1][1] == repr(load(THREE_UPPER, path).expected_score)

# ------------------------------------------------ layered tables (saved rolls)
from yatzy.space import state_space
from yatzy.tables import store as tables  # noqa: E402


@pytest.fixture(scope="module")
def banked_solution():
    return engine.solve(BANKED)


def _all_values(values):
    return np.concatenate([np.asarray(layer, dtype=np.float64).ravel()
                           for layer in values.layers])


def test_layered_table_round_trip_in_float64(tmp_path, banked_solution):
    t = open_table(BANKED, tmp_path, progress=False)
    assert t.header["layout"] == "layers" and t.header["dtype"] == "float64"
    assert [tuple(s) for s in t.header["shapes"]] == [state_space(BANKED).layer_shape(p) for p in range(6)]
    assert isinstance(t.layers[2].base, np.memmap)
    np.testing.assert_array_equal(_all_values(t), _all_values(banked_solution))
    assert t.expected_score == banked_solution.expected_score


def test_float32_tables_stay_within_a_thousandth(tmp_path, monkeypatch, banked_solution):
    """The stored float32 values against the float64 solve: the largest
    rounding error is measured while writing and kept in the header."""
    monkeypatch.setattr(tables, "FLOAT32_BYTES", 0)
    t = open_table(BANKED, tmp_path, progress=False)
    assert t.header["dtype"] == "float32" and t.layers[1].dtype == np.float32
    err = np.nanmax(np.abs(_all_values(t) - _all_values(banked_solution)))
    assert 0 < err <= t.header["max_rounding_error"] < 1e-5
    assert t.expected_score == banked_solution.expected_score    # float64, from the header
    from yatzy.rules.ties import TIE, tolerance
    assert tolerance(t) == TIE + 2 * t.header["max_rounding_error"]   # advice ties within precision


def test_interrupted_layered_solve_resumes_after_its_last_layer(tmp_path, monkeypatch,
                                                                banked_solution):
    path = table_path(BANKED, tmp_path)
    real = tables.LayerWriter.write
    written = []

    def stop_after_three(self, p, values):
        real(self, p, values)
        written.append(p)
        if len(written) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(tables.LayerWriter, "write", stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        tables.solve_and_store(BANKED, path, progress=False)
    assert not path.exists() and written == [5, 4, 3]
    assert tables.partial_path(path, ".npy").exists()
    written.clear()
    monkeypatch.setattr(tables.LayerWriter, "write",
                        lambda self, p, v: written.append(p) or real(self, p, v))
    with pytest.warns(TableWarning, match="resuming"):
        tables.solve_and_store(BANKED, path, progress=False)
    assert written == [2, 1, 0]                               # only what was left
    np.testing.assert_array_equal(_all_values(load(BANKED, path)),
                                  _all_values(banked_solution))
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_corrupt_layer_is_detected(tmp_path):
    t = open_table(BANKED, tmp_path, progress=False)
    data = bytearray(t.path.read_bytes())
    data[tables.HEADER_ROOM + 8] ^= 0x10                     # layer 0
    t.path.write_bytes(bytes(data))
    with pytest.raises(TableError, match="checksum"):
        load(BANKED, t.path)
    with pytest.raises(TableError, match="truncated"):
        t.path.write_bytes(bytes(data[:-4]))
        load(BANKED, t.path)


def test_long_solve_logs_progress_lines_when_stderr_is_not_a_terminal(tmp_path, capsys,
                                                                      monkeypatch):
    """Where the bar cannot draw (stderr not a terminal), every build kind
    says how far it is in plain lines (here one per progress call: the
    lines' spacing made zero), and how long it took."""
    from yatzy.api import Solver
    from yatzy.cli import options
    from yatzy.cli.options import solve_progress
    monkeypatch.setattr(options, "LINE_SECONDS", 0.0)
    monkeypatch.setattr(options, "LINE_SHARE", 0.0)
    monkeypatch.setattr("yatzy.tables.decisions.CHUNK_ROWS", 64)     # more than one step
    solver = Solver(BANKED, tables=tmp_path, progress=solve_progress(BANKED))
    solver.solve()
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == BANKED.n_boxes and lines[-1].startswith("solving banked: done after")
    assert all("min left" in line for line in lines[:-1])
    small = Solver(SMALL, tables=tmp_path, progress=solve_progress(SMALL))
    small.solve()
    capsys.readouterr()
    for table, build in (("target", lambda: small.target().need(0)),
                         ("futures", lambda: small.futures().need(0)),
                         ("explanations", lambda: small.parts().need(0)),
                         ("decision", lambda: small._decisions(1 << 40))):
        build()
        err = capsys.readouterr().err
        assert "% after" in err and "min left" in err, err
        assert f"solving small ({table} table): done after" in err, err   # named


def test_a_table_the_package_carries_is_read_where_the_folder_has_none(tmp_path, monkeypatch):
    """As from a wheel: the table in ``SHIPPED`` is opened (checked, not
    solved) while the tables folder has none; a corrupt one is reported and
    solved into the folder; a table in the folder comes first."""
    import shutil

    from yatzy.tables import store
    shipped, folder = tmp_path / "shipped", tmp_path / "tables"
    made = open_table(THREE_UPPER, tmp_path / "built", progress=False)
    shipped.mkdir()
    shutil.copyfile(made.path, shipped / made.path.name)
    monkeypatch.setattr(store, "SHIPPED", shipped)
    monkeypatch.setattr(engine, "solve", lambda *a, **k: pytest.fail("solved"))
    table = open_table(THREE_UPPER, folder, progress=False)
    assert table.path == shipped / made.path.name and table.folder == folder
    assert table.expected_score == made.expected_score and not folder.exists()
    monkeypatch.undo()
    monkeypatch.setattr(store, "SHIPPED", shipped)
    data = bytearray((shipped / made.path.name).read_bytes())
    data[-9] ^= 0xFF                                        # a value's byte changed
    (shipped / made.path.name).write_bytes(bytes(data))
    with pytest.warns(TableWarning, match="checksum mismatch.*solving the table in"):
        table = open_table(THREE_UPPER, folder, progress=False)
    assert table.path == table_path(THREE_UPPER, folder)
    assert table.expected_score == made.expected_score
    assert open_table(THREE_UPPER, folder, progress=False).path.parent == folder


def test_solve_names_the_table_the_package_carries(nordic, tmp_path, monkeypatch):
    import shutil

    from click.testing import CliRunner

    from yatzy.cli import core, main
    from yatzy.tables import store
    shutil.copyfile(nordic.path, tmp_path / nordic.path.name)
    for module in (store, core):
        monkeypatch.setattr(module, "SHIPPED", tmp_path)
    out = CliRunner().invoke(main, ["solve", "--tables", str(tmp_path / "empty")])
    assert out.exit_code == 0, out.output
    assert "the table that came with the package" in out.output
    assert f"table           {tmp_path / nordic.path.name}" in out.output
