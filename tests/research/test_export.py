"""yatzy.research.export: every reachable state as CSV, JSON or Parquet, and the
printable strategy table (the advice for every roll)."""

import json
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from small_games import SMALL, card

from yatzy.cli import main
from yatzy.players.strategy import advise
from yatzy.research.export import states
from yatzy.space import state_space


def _export(tables_dir, *args):
    r = CliRunner().invoke(main, ["export", "--rules", "forced", "--tables", str(tables_dir),
                                  *args])
    return r


def test_export_lists_every_reachable_state(small, tables_dir, tmp_path):
    r = _export(tables_dir, "--format", "csv", "--out", str(tmp_path / "s.csv"))
    assert r.exit_code == 0, r.output
    rows = (tmp_path / "s.csv").read_text().splitlines()
    head = rows[0].split(",")
    assert head[:2] == ["filled", "ones"] and head[-4:] == [
        "upper_total", "bonus", "expected_remaining", "expected_final"]
    first = dict(zip(head, rows[1].split(",")))
    assert first["filled"] == "" and first["upper_total"] == "0"
    cols = states(small)
    # every (mask, upper total) the filled upper boxes can make, nothing else
    want = 0
    for layer in state_space(SMALL).layers[:-1]:
        for mask in layer.tolist():
            totals = {0}
            for name in ("ones", "twos", "threes"):
                if mask >> SMALL.box_index(name) & 1:
                    face = SMALL.box(name).face
                    totals = {min(t + n * face, SMALL.bonus_threshold) for t in totals
                              for n in range(SMALL.dice + 1)}
            want += len(totals)
    assert len(cols["upper_total"]) == want
    assert np.all(cols["expected_final"] == cols["upper_total"] + cols["bonus"]
                  + cols["expected_remaining"])


def test_a_big_export_says_its_size_first(tables_dir, tmp_path, monkeypatch):
    """forced, as csv: the rows it writes, exactly, and their size within
    a quarter, said on stderr before the work (here with a low bar)."""
    from yatzy.cli import research
    from yatzy.research.export import estimated_size
    from yatzy.rules.ruleset import parse_rules
    out = tmp_path / "s.csv"
    monkeypatch.setattr(research, "BIG_EXPORT", 1000)
    r = CliRunner().invoke(main, ["export", "--rules", "forced", "--tables", str(tables_dir),
                                  "--format", "csv", "--out", str(out)])
    assert r.exit_code == 0, r.output
    rows, size = estimated_size(parse_rules("forced"), "csv")
    assert rows == len(out.read_text().splitlines()) - 1
    assert 0.75 < size / out.stat().st_size < 1.25
    said = r.stderr.splitlines()
    assert said[0].startswith(f"exporting {rows:,} states as csv: about ")
    assert said[-1] == f"{rows} states written to {out}"


def test_export_json_and_missing_pyarrow(tables_dir, tmp_path, monkeypatch):
    r = _export(tables_dir, "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["columns"][-1] == "expected_final" and len(d["rows"]) > 100
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    r = _export(tables_dir, "--format", "parquet", "--out", str(tmp_path / "x"))
    assert r.exit_code == 2 and "needs pyarrow" in r.output and not (tmp_path / "x").exists()


def test_parquet_export(tables_dir, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "s.parquet"
    r = _export(tables_dir, "--format", "parquet", "--out", str(out))
    assert r.exit_code == 0, r.output
    t = pq.read_table(out)
    assert t.column_names[-1] == "expected_final" and t.num_rows > 100


def test_strategy_table_is_the_advice_for_every_roll(nordic, tables_dir, tmp_path):
    out = tmp_path / "strategy.csv"
    r = CliRunner().invoke(main, ["strategy", "--card", "yatzy=0,chance=20", "--out", str(out),
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    rows = out.read_text().splitlines()
    assert len(rows) == 1 + 3 * 252
    sc = card(nordic, "yatzy=0,chance=20")
    for line in (rows[1], rows[300], rows[-1]):
        f = dict(zip(rows[0].split(","), line.split(",")))
        best = advise(nordic, sc, tuple(int(c) for c in f["dice"]), int(f["rerolls"])).best
        assert f["action"] == str(best)
        assert float(f["expected_final_score"]) == pytest.approx(best.expected_final_score, abs=1e-9)
