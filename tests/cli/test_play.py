"""`yatzy play` driven end to end with scripted input: whole games against
the computer, table mode with typed dice, undo, save and resume, saving when
input ends, bad input at the prompt, hints, every language, and the printed
scorecard ("protokoll") to the character."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver
from solver.cli import main
from solver.cli.play import protokoll
from solver.game import Game

BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "one pair", "two pairs",
         "three of a kind", "four of a kind", "small straight", "large straight",
         "full house", "chance", "yatzy"]


@pytest.fixture
def run(nordic, tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def go(*args, input=""):
        result = CliRunner().invoke(main, ["play", "--tables", str(tables_dir), *args],
                                    input=input)
        assert "Traceback" not in result.output, result.output
        return result
    return go


def test_the_protokoll_of_a_known_card(nordic, tables_dir):
    game = Game("nordic", ["Ann", "Bob"], tables=tables_dir)
    for move in ("roll 11256", "score ones", "roll 66666", "score yatzy", "roll 33345",
                 "score threes", "roll 66655", "score full house"):
        game.play(move)
    assert protokoll(game) == """\
                   *Ann  Bob
ones                  2    -
twos                  -    -
threes                9    -
fours                 -    -
fives                 -    -
sixes                 -    -
Sum                  11    0
Bonus                −1    -
one pair              -    -
two pairs             -    -
three of a kind       -    -
four of a kind        -    -
small straight        -    -
large straight        -    -
full house            -   28
chance                -    -
yatzy                 -   50
Total                11   78"""
    assert protokoll(game, "nb").splitlines()[1:3] == ["enere                2    -",
                                                        "toere                -    -"]
    assert protokoll(game, "sv").splitlines()[-1] == "Totalt           11   78"


def test_a_whole_seeded_game_against_the_computer(run):
    result = run("--player", "Ann", "--player", "Bob=optimal", "--seed", "3",
                 input="\n".join(BOXES) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert out.count("Bob (optimal): score") == 15 and out.count("Ann scores") == 15
    assert "game over" in out and "1. Bob" in out and "Bob wins" in out
    assert "review of Ann: total loss" in out and "(15 decisions)" in out
    assert out.count("  turn ") == 3                     # the three costliest decisions


def test_computers_play_alone_and_the_same_seed_plays_the_same_game(run):
    first = run("--player", "A=optimal", "--player", "B=simple", "--seed", "5")
    assert first.exit_code == 0 and "game over" in first.output
    assert "review of" not in first.output               # no human to review
    assert run("--player", "A=optimal", "--player", "B=simple", "--seed", "5").output == \
        first.output


def test_table_mode_takes_typed_dice_and_input_end_saves(run, tmp_path):
    script = ["11256", "keep 5 6", "566", "56", "5 6 6", "score chance",  # a whole turn
              "12345"]                                                     # then input ends
    result = run("--dice-from-table", "--player", "Ann", "--autosave", "g.json",
                 input="\n".join(script) + "\n")
    assert result.exit_code == 0
    assert "Ann rolls 5 5 6 6 6, 1 reroll(s) left" in result.output
    assert "Ann scores 28 in chance" in result.output and "game saved to g.json" in result.output
    doc = json.loads((tmp_path / "g.json").read_text())
    assert doc["moves"] == ["roll 1 1 2 5 6", "keep 5 6", "roll 5 6 6", "keep 5 6",
                            "roll 5 6 6", "score chance (28)", "roll 1 2 3 4 5"]
    assert doc["drawn"] == []


def test_input_end_saves_to_a_file_named_by_the_time(run, tmp_path):
    result = run("--player", "Ann", "--seed", "1", input="")
    saved = list(tmp_path.glob("yatzy-game-*.json"))
    assert len(saved) == 1 and f"game saved to {saved[0].name}" in result.output
    assert Game.load(saved[0]).moves[0].drawn


def test_undo_save_and_resume(run, tmp_path):
    result = run("--player", "Ann", "--player", "Bob=optimal", "--seed", "2",
                 input="ones\nundo\nundo\nredo\nundo\ntwos\nsave mid.json\nquit\n")
    out = result.output
    assert "undone: score ones" in out and "nothing to undo" in out and "redone: score ones" in out
    assert "game saved to mid.json" in out
    game = Game.load(tmp_path / "mid.json")
    assert [t.box for t in game.turns][:1] == [1]         # twos, after undoing ones
    assert game.turn_player == 0 and game.cards[1].turn == 1
    again = run("--resume", "mid.json", input="threes\n")
    assert again.exit_code == 0 and "Ann scores" in again.output
    assert "game saved to mid.json" in again.output        # input end saves where it came from
    resumed = Game.load(tmp_path / "mid.json")
    assert [t.box for t in resumed.turns if t.player == 0] == [1, 2]


def test_bad_input_at_the_prompt_is_one_line_and_changes_nothing(run, tmp_path):
    result = run("--player", "Ann", "--seed", "1", "--autosave", "g.json",
                 input="keep 9\nscore nonsense\nfrobnicate\nsave\nredo\n\n")
    lines = result.output.splitlines()
    errors = [line for line in lines if "error:" in line]
    assert len(errors) == 5 and all(line.count("error:") == 1 for line in errors)
    assert "unknown command 'frobnicate'" in result.output
    assert Game.load(tmp_path / "g.json").moves[-1].text.startswith("roll")
    assert len(Game.load(tmp_path / "g.json").moves) == 1


def test_a_bad_resume_file_is_one_error_line(run, tmp_path):
    (tmp_path / "bad.json").write_text("{")
    result = run("--resume", "bad.json")
    assert result.exit_code == 2 and result.output.strip() == "error: bad.json: not a JSON document"
    assert run("--player", "A=wizard").exit_code == 2


@pytest.mark.parametrize("mode, expect", [
    ("check", ["that cost", "best was"]),
    ("top3", ["three good choices: "]),
    ("full", ["  1 ", " best"]),
])
def test_hints(run, mode, expect):
    result = run("--player", "Ann", "--seed", "1", "--hints", mode, input="ones\nhint\n")
    assert all(e in result.output for e in expect), result.output


@pytest.mark.parametrize("lang, words", [
    ("en", ["ones", "Total", "Ann's turn", "score kåk"]),
    ("nb", ["enere", "seksere", "liten straight", "sjanse", "Totalt", "Ann sin tur",
            "score hus"]),
    ("sv", ["ettor", "sexor", "liten stege", "kåk", "Summa", "Anns tur", "score kåk"]),
])
def test_every_language(run, lang, words):
    typed = words[-1]
    result = run("--player", "Ann", "--seed", "1", "--lang", lang, "--dice-from-table",
                 input=f"66655\n{typed}\n")
    assert all(w in result.output for w in words[:-1]), result.output
    assert "28" in result.output and "error" not in result.output


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_real_terminal(nordic, tables_dir, tmp_path):
    """A few moves typed into `yatzy play` running in tmux."""
    name = f"yatzy-test-{time.monotonic_ns()}"
    root = Path(solver.__file__).parents[1]
    command = (f"cd {tmp_path} && PYTHONPATH={root} {sys.executable} -m solver play --tables {tables_dir} "
               "--player Ann --dice-from-table --autosave t.json")
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "50", command],
                   check=True)
    try:
        def screen():
            return subprocess.run(["tmux", "capture-pane", "-p", "-t", name],
                                  capture_output=True, text=True).stdout

        def wait_for(text):
            for _ in range(100):
                if text in screen():
                    return
                time.sleep(0.1)
            raise AssertionError(f"{text!r} not on the screen:\n{screen()}")

        wait_for("type the dice>")
        for keys in ("11256", "keep 5 6", "566", "full house"):
            subprocess.run(["tmux", "send-keys", "-t", name, keys, "Enter"], check=True)
        wait_for("Ann scores 28 in full house")
        subprocess.run(["tmux", "send-keys", "-t", name, "C-c"], check=True)
        for _ in range(50):
            if (tmp_path / "t.json").exists():
                break
            time.sleep(0.1)
        assert json.loads((tmp_path / "t.json").read_text())["moves"][-1] == \
            "score full_house (28)"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


def test_check_mode_says_why_a_choice_cost_what_it_did(run):
    result = run("--player", "Ann", "--seed", "1", "--hints", "check", input="ones\n")
    assert "that cost" in result.output and "Writing 1 in ones costs" in result.output
