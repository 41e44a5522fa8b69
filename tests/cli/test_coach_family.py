"""The coach at a family's table: a computer seat that cannot play the
rules is refused before the game starts (and on ``--resume``), in the
player's language; a new game's file never takes another game's name, and
two coaches cannot play one file at once; a line that is almost right
points at the right word (points are whole numbers; 0 in a box is a strike)."""

import json
import time

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.cli.play import holding, new_name
from yatzy.errors import InputError
from yatzy.game import GAME_VERSION
from yatzy.rules.grammar import GrammarError, parse
from yatzy.rules.ruleset import parse_rules


@pytest.fixture(autouse=True)
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))
    return tmp_path


def play(*args, input=""):
    result = CliRunner().invoke(main, ["play", "--no-record", *args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


@pytest.mark.parametrize("kind", ["greedy", "simple"])
@pytest.mark.parametrize("lang, said", [("nb", "en datamaskin kan ikke spille"),
                                        ("sv", "en dator kan inte spela")])
def test_a_computer_seat_that_cannot_play_the_rules_is_refused_at_the_start(here, kind, lang, said):
    got = play("--lang", lang, "--rules", "maxi:saved_rolls=false", "--player", "Kari",
               "--player", f"Bot={kind}", "--screen", "plain")
    assert got.exit_code == 2, got.output
    assert said in got.output and kind in got.output
    assert "Kari>" not in got.output                      # no turn was begun
    assert list(here.glob("yatzy-game-*.json")) == []      # nothing saved


def test_a_saved_game_with_such_a_seat_is_refused_on_resume(here):
    doc = {"yatzy_game": GAME_VERSION, "rules": "maxi:saved_rolls=false", "seed": 1,
           "players": [{"name": "Kari", "kind": "human"}, {"name": "Bot", "kind": "greedy"}],
           "moves": [], "played": 0, "drawn": [], "settings": {"lang": "nb"}}
    (here / "g.json").write_text(json.dumps(doc))
    got = play("--lang", "nb", "--resume", "g.json", "--screen", "plain")
    assert got.exit_code == 2 and "greedy" in got.output, got.output
    assert json.loads((here / "g.json").read_text()) == doc   # left as it was


def test_two_new_games_in_one_second_get_two_files(here, monkeypatch):
    monkeypatch.setattr(time, "strftime", lambda fmt, *a: "yatzy-game-20261207-151553")
    names = [new_name("nb") for _ in range(3)]
    assert names == ["yatzy-game-20261207-151553.json", "yatzy-game-20261207-151553-2.json",
                     "yatzy-game-20261207-151553-3.json"]
    assert all((here / n).exists() for n in names)


@pytest.mark.parametrize("lang, said", [("nb", "en annen yatzy play har g.json åpen"),
                                        ("sv", "ett annat yatzy play har g.json öppen")])
def test_a_second_coach_of_one_file_is_refused(here, lang, said):
    (here / "g.json").write_text("{}")
    with holding("g.json", lang):
        with pytest.raises(InputError, match=said):
            with holding("g.json", lang):
                pass
        assert (here / "g.json.lock").exists()
    assert not (here / "g.json.lock").exists()             # released, and the lock file gone
    with holding("g.json", lang):                          # free again
        pass


def test_a_second_play_of_a_file_in_use_stops_with_one_line(here):
    import subprocess
    import sys
    assert play("--lang", "sv", "--player", "Jonas", "--autosave", "g.json", "--screen",
                "plain").exit_code == 0                   # a game saved, then resumed twice
    first = subprocess.Popen([sys.executable, "-m", "yatzy", "play", "--no-record", "--lang", "sv",
                              "--resume", "g.json", "--screen", "plain"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    try:
        for _ in range(600):
            if (here / "g.json.lock").exists():
                break
            time.sleep(0.05)
        got = play("--lang", "sv", "--resume", "g.json", "--screen", "plain")
        assert got.exit_code == 2, got.output
        assert "ett annat yatzy play har g.json öppen" in got.output
    finally:
        out, _ = first.communicate("", timeout=120)
    assert first.returncode == 0, out
    assert json.loads((here / "g.json").read_text())["players"][0]["name"] == "Jonas"


@pytest.mark.parametrize("lang, line, said", [
    ("nb", "sjanse 23,5", "'23,5': poeng er hele tall"),
    ("sv", "chans 23,5", "'23,5': poäng är heltal"),
    ("nb", "skriv 0 på yatzy", "skriv «stryk yatzy»"),
    ("nb", "null på yatzy", "skriv «stryk yatzy»"),
    ("sv", "noll på yatzy", "skriv ”stryk yatzy”"),
    ("en", "write 0 on yatzy", "type 'strike yatzy'"),
])
def test_an_almost_right_line_points_at_the_right_word(lang, line, said):
    with pytest.raises(GrammarError) as e:
        parse(line, parse_rules("nordic"), lang, dice=(1, 2, 3, 4, 5))
    assert said in str(e.value)
    assert "ukjent boks" not in str(e.value) and "okänd ruta" not in str(e.value)


@pytest.mark.parametrize("spec, roll, said", [
    ("nordic", "roll 66661", "Kari trenger 39 til bonus (6 foran tre av hver)"),
    ("forced", "roll 11123", "(1 foran 2 av hver)"),
    ("maxi:saved_rolls=false", "roll 111234", "(1 bak 4 av hver)"),
])
def test_the_bonus_pace_is_said_in_the_measure_of_the_rules(spec, roll, said):
    """Nordic's bonus is three of each, forced order's (42) two, Maxi's (84) four."""
    from yatzy.cli.coach.standing import bonus_text
    from yatzy.game import Game
    from yatzy.session import Session
    game = Game(spec, ["Kari"], seed=1)
    game.play(roll)
    game.play("score sixes" if spec == "nordic" else "score ones")
    assert said in bonus_text(Session(game), "nb")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["nb", "sv"])
def test_an_undone_choice_takes_its_verdict_off_the_screen(nordic, tables_dir, tmp_path, lang,
                                                           size):
    """Check mode on the steady screen (tmux): a choice's verdict and the
    running loss beside the card go with the undo that takes the choice back
    (free undo: under the fair rule Ola's roll, seen, keeps Kari's choice)."""
    import shutil as tools
    if tools.which("tmux") is None:
        pytest.skip("tmux is not installed")
    from tests.cli.test_pad_terminal import Terminal
    from yatzy.rules.words import message

    class Sized(Terminal):
        def __init__(self, name, command):
            self.name = name
            self.tmux("new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]),
                      command, check=True)

    term = Sized(f"yatzy-undo-{time.monotonic_ns()}", term_command(tmp_path, tables_dir, lang))
    chance = {"nb": "skriv sjanse", "sv": "skriv chans"}[lang]
    verdicts = (message("best", lang), message("cost", lang, loss="X", best="Y").split("X")[0],
                message("tally", lang, name="Kari", loss="X").split("X")[0].strip())
    try:
        term.wait_for("Kari>", seconds=60)
        term.type(chance)
        shown = term.wait_for("Ola>", seconds=240)
        assert any(v in shown for v in verdicts), shown
        term.type("angre" if lang == "nb" else "ångra")
        shown = term.wait_for(message("undone", lang, move="").strip(), "Kari>", seconds=60)
    finally:
        term.close()
    assert not any(v in shown for v in verdicts), shown
    assert all(len(line) <= size[0] for line in shown.splitlines())


def term_command(tmp_path, tables_dir, lang):
    import sys
    from pathlib import Path

    import yatzy
    root = Path(yatzy.__file__).parents[1]
    return (f"cd {tmp_path} && TERM=xterm-256color YATZY_DATA={tmp_path}/data "
            f"PYTHONPATH={root} {sys.executable} -m yatzy play --tables {tables_dir} "
            f"--lang {lang} --hints check --seed 5 --player Kari --player Ola --no-record "
            "--undo free; "
            "sleep 60")
