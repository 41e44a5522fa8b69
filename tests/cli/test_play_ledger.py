"""The coach's running loss ("Kari har tapt ...") is the session's ledger:
an undone choice stops counting, a resumed game goes on from the same
number, and at the end it is the review's total, in Nordic and in
Trippel-Yatzy."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from yatzy import Solver
from yatzy.cli import main
from yatzy.game import Game
from yatzy.rules.words import number
from yatzy.session import Session

BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "one pair", "two pairs",
         "three of a kind", "four of a kind", "small straight", "large straight",
         "full house", "chance", "yatzy"]
TALLY = {"Kari": re.compile(r"Kari har tapt ([\d,]+) poeng så langt"),
         "Ola": re.compile(r"Ola har tapt ([\d,]+) poeng så langt")}
REVIEW = re.compile(r"gjennomgang for (\w+): tap ([\d,]+),")


@pytest.fixture
def run(nordic, tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))

    def go(*args, input=""):
        result = CliRunner().invoke(main, ["play", "--tables", str(tables_dir), "--no-record",
                                           *args], input=input)
        assert "Traceback" not in result.output and result.exception is None or \
            isinstance(result.exception, SystemExit), result.output
        return result.output
    return go


def turn(dice: str, box: str) -> str:
    return f"{dice}\n{box}\n"


def test_undo_and_resume_keep_the_running_loss_the_review(run, tmp_path):
    start = ("--player", "Kari", "--player", "Ola", "--dice-from-table", "--hints", "check",
             "--lang", "nb", "--autosave", "g.json")
    first = turn("12345", "yatzy") + "undo\nones\n" + turn("66666", "ones")   # Kari undoes
    for i in range(1, 5):
        first += turn("12345", BOXES[i]) + turn("66666", BOXES[i])
    out = run(*start, input=first + "quit\n")
    kari = TALLY["Kari"].findall(out)
    undone = Game.load(tmp_path / "g.json")
    assert kari[0] != kari[1]               # the undone 0 in yatzy no longer counts
    session = Session(undone)
    assert kari[-1] == number(session.loss(0), 2, "nb")
    assert kari[-1] == number(undone.review(0).total_loss, 2, "nb")
    rest = "".join(turn("12345", BOXES[i]) + turn("66666", BOXES[i]) for i in range(5, 15))
    again = run("--resume", "g.json", input=rest + "\n")
    assert TALLY["Kari"].findall(again)[0] == kari[-1]       # the status on resume: the same
    reviews = dict(REVIEW.findall(again))
    for name, pattern in TALLY.items():
        assert pattern.findall(again)[-1] == reviews[name], name


def test_trippel_running_loss_is_the_review(run, tmp_path, tables_dir):
    moves = "".join(turn("12345", f"{box}@{c}") for c, box in
                    [(3, "chance"), (1, "ones"), (2, "yatzy"), (1, "twos"), (3, "sixes")])
    out = run("--rules", "triple", "--player", "Kari", "--dice-from-table", "--hints", "check",
              "--lang", "nb", "--autosave", "g.json", input=moves + "quit\n")
    shown = TALLY["Kari"].findall(out)
    game = Game.load(tmp_path / "g.json", Solver("triple", tables=tables_dir))
    assert len(game.turns) == 5 and shown
    assert shown[-1] == number(Session(game).loss(0), 2, "nb") \
        == number(game.review(0).total_loss, 2, "nb")
