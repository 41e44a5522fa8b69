"""``yatzy tables`` and ``yatzy where``: run as a user would (click's
runner on the real command tree), on real tables in a folder of the test."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from small_games import THREE_UPPER, TINY

from yatzy.cli import main
from yatzy.research.ratings import default_path
from yatzy.tables.store import open_table, table_path


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "tables"
    open_table(TINY, folder, progress=False)
    open_table(THREE_UPPER, folder, progress=False)
    return folder


def run(*args, env=None):
    result = CliRunner(env=env or {}).invoke(main, list(args))
    return result


def listing(folder):
    out = run("tables", "--tables", str(folder), "--json")
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def test_the_list_names_rules_kind_size_and_file(folder):
    out = run("tables", "--tables", str(folder))
    assert out.exit_code == 0
    lines = out.output.splitlines()
    row = next(line for line in lines if line.startswith("tiny "))
    assert "values" in row and table_path(TINY, folder).name in row
    assert lines[-1].endswith(f"in {folder}")
    data = listing(folder)
    sizes = {f["path"]: f["bytes"] for f in data["files"]}
    assert sizes[str(table_path(TINY, folder))] == table_path(TINY, folder).stat().st_size
    assert data["bytes"] == sum(sizes.values())


def test_remove_by_rules_or_kind_takes_only_those(folder):
    from yatzy.rules.ruleset import parse_rules

    nordic = table_path(parse_rules("nordic"), folder)
    nordic.write_bytes(b"not a real table")         # named as nordic's value table
    tiny = table_path(TINY, folder)
    out = run("tables", "--tables", str(folder), "remove", "--rules", "forced")
    assert out.exit_code == 0 and "0 files" in out.output and nordic.exists()
    out = run("tables", "--tables", str(folder), "remove", "--rules", "nordic", "--kind", "target")
    assert out.exit_code == 0 and nordic.exists()
    out = run("tables", "--tables", str(folder), "remove", "--rules", "nordic")
    assert out.exit_code == 0 and nordic.name in out.output
    assert not nordic.exists() and tiny.exists() and table_path(THREE_UPPER, folder).exists()
    target = tiny.with_name(tiny.stem + "-target.tbl")
    target.write_bytes(b"not a real table")
    out = run("tables", "--tables", str(folder), "remove", "--kind", "target")
    assert out.exit_code == 0 and target.name in out.output
    assert not target.exists() and tiny.exists()


def test_remove_all_and_clean(folder):
    partial = folder / f"tiny-{TINY.fingerprint}-explain.tbl.partial"
    partial.write_bytes(b"x" * 1000)
    out = run("tables", "--tables", str(folder), "clean")
    assert out.exit_code == 0 and partial.name in out.output and not partial.exists()
    assert table_path(TINY, folder).exists()                  # tables stay
    out = run("tables", "--tables", str(folder), "remove", "--all")
    assert out.exit_code == 0
    assert listing(folder)["files"] == []


def test_every_file_the_program_keeps_there_is_listed_and_removed(folder):
    """The Trippel strategy's slack values and a bound's search, saved beside
    the tables, and a killed write of one: listed, and gone after --all."""
    stem = table_path(TINY, folder).stem
    saved = [folder / f"{stem}-slack4.npy", folder / f"{stem}-bound.json",
             folder / f"{stem}-slack4.npy.99999999.abcd1234.tmp"]
    for path in saved:
        path.write_bytes(b"x" * 10)
    kinds = {f["path"]: f["kind"] for f in listing(folder)["files"]}
    assert [kinds.get(str(p)) for p in saved] == ["slack", "bound", "temporary"]
    out = run("tables", "--tables", str(folder), "remove", "--kind", "slack")
    assert out.exit_code == 0, out.output
    assert not saved[0].exists() and not saved[2].exists() and saved[1].exists()
    out = run("tables", "--tables", str(folder), "remove", "--all")
    assert out.exit_code == 0 and not any(folder.iterdir())


def test_the_folder_is_taken_after_the_subcommand_too(folder, tmp_path):
    from yatzy.rules.ruleset import parse_rules

    nordic = table_path(parse_rules("nordic"), folder)
    nordic.write_bytes(b"not a real table")
    other = tmp_path / "elsewhere"
    other.mkdir()
    out = run("tables", "--tables", str(other), "remove", "--rules", "nordic", "--tables",
              str(folder))
    assert out.exit_code == 0, out.output
    assert not nordic.exists() and table_path(TINY, folder).exists()
    out = run("tables", "clean", "--tables", str(folder))
    assert out.exit_code == 0 and out.output.rstrip().endswith(f"in {folder}")


@pytest.mark.parametrize("args, message", [
    (("remove",), "name what to remove"),
    (("remove", "--kind", "tables"), "--kind 'tables': expected one of"),
    (("remove", "--rules", "nordic:rolls=99"), "rolls"),
])
def test_bad_input_is_one_line(folder, args, message):
    result = subprocess.run([sys.executable, "-m", "yatzy", "tables", "--tables", str(folder),
                             *args], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_where_names_every_place_the_program_writes(tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("YATZY_DATA", str(data))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "yatzy-game-20260101-120000.json").write_text("{}")
    out = run("where", "--tables", str(tmp_path / "t"), "--json",
              env={"YATZY_DATA": str(data)})
    assert out.exit_code == 0, out.output
    places = {p["name"]: p for p in json.loads(out.output)}
    assert places["tables"]["path"] == str(tmp_path / "t") and not places["tables"]["exists"]
    assert places["ratings.sqlite"]["path"] == str(default_path())
    assert places["autosave"]["path"] == str(tmp_path / "yatzy-game-20260101-120000.json")
    assert places["autosave"]["bytes"] == 2
    text = run("where", env={"YATZY_DATA": str(data)}).output
    assert str(data / "tables.sqlite") in text and "not yet" in text


def test_where_names_the_servers_databases_as_the_server_opens_them(tmp_path, monkeypatch):
    pytest.importorskip("starlette", reason="starlette is not installed (the web extra)")
    from yatzy.web.practice import ratings_folder
    from yatzy.web.shared import SharedGames

    monkeypatch.setenv("YATZY_DATA", str(tmp_path))
    places = {p["name"]: p["path"] for p in json.loads(run("where", "--json").output)}
    assert places["tables.sqlite"] == str(SharedGames().path)
    assert places["tables-ratings"] == str(ratings_folder(SharedGames().path))
    assert places["web-ratings"] == str(ratings_folder(None))
