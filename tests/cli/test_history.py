"""The history of finished games at the terminal: `yatzy play` keeps each
finished game in the shared tables' file (the one `yatzy serve` keeps,
yatzy.history) and says the table's best scores and each player's
personal best; `yatzy history` shows them later; a file that cannot be
used is one line and the game goes on."""

import json
import sqlite3

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.history import MIGRATIONS, default_path, open_history

ONES = ["enere", "toere", "treere", "firere", "femmere", "seksere", "ett par", "to par",
        "tre like", "fire like", "liten straight", "stor straight", "hus", "sjanse", "yatzy"]


def pad_game(points: dict[str, int]) -> str:
    """One player's whole pad game: every box struck but those given."""
    return "".join(f"{box} {points[box]}\n" if box in points else
                   f"{box} 5\n" if box == "sjanse" else f"stryk {box}\n" for box in ONES)


@pytest.fixture
def play(tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))

    def go(*args, input=""):
        result = CliRunner().invoke(main, ["play", "--tables", str(tables_dir), "--pad",
                                           "--lang", "nb", "--player", "Kari", *args],
                                    input=input)
        assert "Traceback" not in result.output, result.output
        return result
    return go


def test_each_game_is_kept_with_the_tables_bests_and_a_new_personal_best(play, tmp_path):
    first = play(input=pad_game({"hus": 18})).output
    assert "Kari: første spill i historikken, 23" in first          # 18 + a chance of 5
    second = play(input=pad_game({"hus": 28, "yatzy": 50})).output
    assert "beste ved dette bordet (Nordisk): Kari 83\n" in second      # each player once
    assert "Kari: ny personlig rekord, 83!" in second
    third = play(input=pad_game({})).output
    assert "Kari: personlig rekord 83 (3 spill)" in third
    assert default_path() == tmp_path / "data" / "tables.sqlite"     # the server's file
    rows = sqlite3.connect(default_path()).execute(
        "SELECT name, score, place, loss, family FROM results ORDER BY id").fetchall()
    assert rows == [("Kari", 23, 1, None, "names:kari"), ("Kari", 83, 1, None, "names:kari"),
                    ("Kari", 5, 1, None, "names:kari")]


def test_yatzy_history_shows_them_later(play, tmp_path):
    runner = CliRunner()
    empty = runner.invoke(main, ["history", "--lang", "nb"])
    assert empty.exit_code == 0 and "ingen ferdige spill" in empty.output
    assert not default_path().exists()                              # reading makes no file
    play(input=pad_game({"hus": 18}))
    play("--player", "Ola", input="".join(
        a + b for a, b in zip(pad_game({"yatzy": 50}).splitlines(True),
                              pad_game({"hus": 28}).splitlines(True))))
    out = runner.invoke(main, ["history", "--lang", "nb"]).output
    assert out.splitlines()[:3] == ["nordic: 2 spill", "  beste resultater:",
                                    out.splitlines()[2]]
    assert out.splitlines()[2].startswith("    1. Kari 55  20")            # with its day
    assert "    Kari 55 (2 spill)" in out and "    Ola 33 (1 spill)" in out
    found = json.loads(runner.invoke(main, ["history", "--json", "--player", "ola"]).output)
    assert [p["name"] for p in found["rules"][0]["players"]] == ["Ola"]
    assert [t["score"] for t in found["rules"][0]["top"]] == [55, 33, 23]
    none = runner.invoke(main, ["history", "--rules", "yahtzee", "--lang", "sv"]).output
    assert "inga avslutade spel" in none


@pytest.mark.parametrize("make", ["garbage", "newer", "folder"])
def test_a_file_that_cannot_be_used_is_one_line_and_the_game_goes_on(play, tmp_path, make):
    path = tmp_path / "h.sqlite"
    if make == "garbage":
        path.write_text("not a database at all " * 100)
    elif make == "newer":
        db = open_history(path)
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        db.close()
    else:
        path.mkdir()
    result = play("--history", str(path), "--autosave", "g.json", input=pad_game({"hus": 18}))
    assert result.exit_code == 0
    assert f"feil: spillet ble ikke lagret i historikken: kan ikke bruke {path}" in result.output
    assert "1. Kari 23" in result.output
    assert json.loads((tmp_path / "g.json").read_text())["moves"][-1] == "score yatzy (0)"
    read = CliRunner().invoke(main, ["history", "--file", str(path), "--lang", "sv"])
    assert read.exit_code == 2 and read.output.strip() == f"fel: kan inte läsa historiken i {path}"


def test_a_locked_file_is_one_line(play, tmp_path, monkeypatch):
    import yatzy.database
    monkeypatch.setattr(yatzy.database, "BUSY_SECONDS", 0.2)
    path = tmp_path / "h.sqlite"
    open_history(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        out = play("--history", str(path), input=pad_game({})).output
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "kan ikke bruke" in out and "1. Kari 5" in out


def test_no_record_keeps_nothing(play, tmp_path):
    play("--no-record", input=pad_game({}))
    assert not default_path().exists()
    both = play("--no-record", "--history", "x.sqlite", input="")
    assert both.exit_code == 2 and "--history" in both.output
