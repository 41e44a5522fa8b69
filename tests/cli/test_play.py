"""`yatzy play` driven end to end with scripted input: whole games against
the computer, table mode with typed dice, undo, save and resume, saving when
input ends, bad input at the prompt, hints, every language, and the printed
scorecard ("protokoll") to the character."""

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import yatzy
from yatzy.cli import main
from yatzy.cli.play import protokoll
from yatzy.game import Game
from yatzy.rules.words import message

BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "one pair", "two pairs",
         "three of a kind", "four of a kind", "small straight", "large straight",
         "full house", "chance", "yatzy"]


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    """The ratings database of the reviews in the test's own folder."""
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


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
Bonus                 -    -
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
    styled = protokoll(game, highlight=True).splitlines()
    assert "\x1b[7m" in styled[15] and "28" in styled[15]    # Bob's full house: just written
    assert not any("\x1b[7m" in line for i, line in enumerate(styled) if i != 15)
    names = Game("nordic", ["Kristoffer", "Margrethe", "Ann", "Bob", "Eva", "Ola"],
                 tables=tables_dir)
    cut = protokoll(names, width=56).splitlines()
    assert max(len(line) for line in cut) <= 56 and len(cut) == 19   # names cut, one group
    assert "*Kristoffer" in cut[0].split() and "Mar…" in cut[0].split()   # the mover's whole


def test_a_finished_trippel_card_of_six_fits_80_by_24_with_the_winners_columns():
    """At game over six Trippel players' columns in groups are taller than
    24 rows: the card shows the winner's columns and the others' weighted
    totals under them."""
    import random
    names = ["Kari", "Ola", "Per", "Siri", "Nils", "Anne"]
    game = Game("triple", names, seed=4)
    pick = random.Random(4)
    while not game.is_over:
        game.play("roll")
        game.play(str(pick.choice([a for a in game.legal_actions() if a.kind == "score"])))
    full = protokoll(game, "nb", width=53).splitlines()
    assert len(full) > 22                                   # the groups: too tall
    shown = protokoll(game, "nb", width=53, height=22).splitlines()
    assert len(shown) <= 22 and max(len(line) for line in shown) <= 53
    scores = list(game.scores())
    won = scores.index(max(scores))
    assert shown[0].split() == [names[won]] and shown[1].split() == ["@1", "@2", "@3", "Σ"]
    assert shown[-1] == "  ".join(f"{n} {s}" for i, (n, s) in enumerate(zip(names, scores))
                                  if i != won)
    assert shown[-2].split()[-1] == str(scores[won])        # the winner's weighted total


def test_a_whole_seeded_game_against_the_computer(run):
    result = run("--player", "Ann", "--player", "Bob=optimal", "--seed", "3",
                 input="\n".join(BOXES) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert out.count("Bob (optimal): score") == 15 and out.count("Ann scores") == 15
    assert "game over" in out and "1. Bob" in out and "Bob wins" in out
    assert "review of Ann: total loss" in out and "(15 decisions)" in out
    assert "estimates" not in out                      # an exact game's losses are exact
    assert out.count("  turn ") == 3                     # the three costliest decisions


def test_computers_play_alone_and_the_same_seed_plays_the_same_game(run):
    seats = ("--player", "A=optimal", "--player", "B=simple", "--seed", "5", "--autosave", "g.json")
    first = run(*seats)
    assert first.exit_code == 0 and "game over" in first.output
    assert "review of" not in first.output               # no human to review
    assert "game saved to g.json" in first.output        # a finished game is kept too
    assert Game.load("g.json").is_over
    again = run(*seats)

    def played(output: str) -> list[str]:           # the one-time compile notice aside
        return [line for line in output.splitlines() if not line.startswith("compiling")]
    assert played(again.output) == played(first.output)


def test_table_mode_takes_typed_dice_and_input_end_saves(run, tmp_path):
    script = ["11256", "keep 5 6", "566", "56", "5 6 6", "score chance",  # a whole turn
              "12345"]                                                     # then input ends
    result = run("--dice-from-table", "--player", "Ann", "--autosave", "g.json",
                 input="\n".join(script) + "\n")
    assert result.exit_code == 0
    assert "Ann rolls 5 5 6 6 6, 1 reroll left" in result.output
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
    ("full", [" 1 ", " best"]),
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
    root = Path(yatzy.__file__).parents[1]
    command = (f"cd {tmp_path} && YATZY_DATA={tmp_path}/data PYTHONPATH={root} "
               f"{sys.executable} -m yatzy play "
               f"--tables {tables_dir} "
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
    loss = re.search(r"that cost ([\d.]+) points", result.output).group(1)
    assert f"Ann has lost {loss} points so far" in result.output          # the running tally


# ------------------------------------------------- in a real pseudo-terminal (pexpect)
pexpect = pytest.importorskip("pexpect")
YATZY = Path(sys.executable).with_name("yatzy")
NB_BOXES = ["enere", "toere", "treere", "firere", "femmere", "seksere", "ett par", "to par",
            "tre like", "fire like", "liten straight", "stor straight", "hus", "sjanse", "yatzy"]
SV_BOXES = ["ettor", "tvåor", "treor", "fyror", "femmor", "sexor", "par", "två par", "tretal",
            "fyrtal", "liten stege", "stor stege", "kåk", "chans", "yatzy"]
# the English words of the coach's screens, none of which a nb or sv screen may show
ENGLISH = {"keep", "reroll", "score", "scores", "roll", "rolls", "left", "turn", "error",
           "unknown", "command", "commands", "box", "best", "choice", "loss", "review", "game",
           "over", "wins", "saved", "undone", "redone", "nothing", "expected", "dice", "cost",
           "costs", "points", "player", "type", "the", "of", "and", "quit", "undo", "redo",
           "save", "help", "card", "hint", "tie", "between", "decisions", "mean", "total",
           "already", "filled", "writing", "instead", "falls", "chance", "ones", "twos",
           "sixes", "pair", "pairs", "kind", "greedy", "simple", "all", "seen", "new", "only",
           "enter", "finish", "take", "back", "last", "folder", "file", "cannot", "not", "now"}


# select, pselect6, poll, ppoll on x86_64; pselect6, ppoll on arm64
WAITING_SYSCALLS = {"23", "270", "7", "271", "72", "73"}


def spawn(tmp_path, tables_dir, *args, env=None, screen="plain"):
    """``yatzy play`` in a pseudo-terminal (the plain screen unless ``screen``)."""
    child = pexpect.spawn(str(YATZY), ["play", "--tables", str(tables_dir), "--screen", screen,
                                       *args],
                          cwd=str(tmp_path), encoding="utf-8", timeout=60,
                          dimensions=(50, 120),
                          env={"TERM": "xterm", "PATH": str(YATZY.parent),
                               "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
                               "YATZY_DATA": str(tmp_path / "data"), **(env or {})})
    child.logfile_read = io.StringIO()
    return child


def reading(child, seconds: float = 120) -> None:
    """Wait until ``child`` waits for a key (asleep in select or poll), where a
    signal reaches its handler: one sent while readline is still drawing the
    prompt can be lost, and the program would wait on for input (seen at
    load 4-10: about one signal in fifteen).  Without /proc: at once."""
    wchan, syscall = Path(f"/proc/{child.pid}/wchan"), Path(f"/proc/{child.pid}/syscall")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            where = wchan.read_text()
            number = syscall.read_text().split()[0]
        except (OSError, IndexError):
            return
        if "poll" in where or "select" in where or number in WAITING_SYSCALLS:
            return
        time.sleep(0.02)
    raise AssertionError(f"yatzy play did not wait for input within {seconds} s")


def transcript(child) -> str:
    return child.logfile_read.getvalue()


def play_out(child, plan: dict[str, list[str]], confirm: str) -> None:
    """Answer each person's prompts from their plan until the game ends (a
    box written with 0 points is confirmed: yes)."""
    names = "|".join(plan)
    while True:
        i = child.expect([rf"\b({names})> ", re.escape(confirm), r"\? \((j|y)/n\) ",
                          pexpect.EOF])
        if i == 0:
            child.sendline(plan[child.match.group(1)].pop(0))
        elif i == 1:
            child.sendline("")
        elif i == 2:
            child.sendline(child.match.group(1))
        else:
            return


def english_words(text: str) -> set[str]:
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
    text = re.sub(r"--[a-z-]+", "", text)                  # option names (--undo) are not words
    text = re.sub(r"/\S+", "", text)                       # nor are the test's paths
    return {w for w in re.findall(r"[a-zåäöæø]+", text.lower()) if w in ENGLISH}


@pytest.mark.parametrize("lang, boxes, plan_words", [
    ("nb", NB_BOXES, ["hjelp", "behold", "angre 0", "tips", "kort", "status", "kast alle",
                      "tips før sjanse", "frobnicate", "avslutt nå", "kast alle", "angre"]),
    ("sv", SV_BOXES, ["hjälp", "behåll", "ångra 0", "tips", "protokoll", "status",
                      "slå om alla", "tips skriv chans", "frobnicate", "avsluta nu",
                      "slå om alla", "ångra"]),
])
def test_nb_and_sv_games_show_no_english(nordic, tables_dir, tmp_path, lang, boxes, plan_words):
    """Two people and a computer; commands, hints, errors, fair undo, the review."""
    child = spawn(tmp_path, tables_dir, "--player", "Ann", "--player", "Bob",
                  "--player", "Cid=greedy", "--seed", "7", "--lang", lang, "--hints", "check",
                  "--autosave", "g.json")
    ann = plan_words + boxes                      # the last two: undo after new dice
    bob = ["٥", "１１", "x" * 300] + boxes[::-1]
    play_out(child, {"Ann": ann, "Bob": bob}, message("confirm", lang))
    out = transcript(child)
    assert english_words(out) == set(), out[-3000:]
    assert message("fair_undo", lang) in out and message("over", lang) in out
    errors = [line for line in out.splitlines() if "x" * 30 in line and "'" in line]
    assert errors and all("x" * 60 not in line for line in errors)    # long input cut
    assert "Traceback" not in out and Game.load(tmp_path / "g.json").is_over
    doc = json.loads((tmp_path / "g.json").read_text())
    assert doc["settings"] == {"table_mode": False, "hints": "check", "lang": lang,
                               "undo": "fair", "recorded": True}


def test_hang_up_mid_turn_then_resume_shows_the_same_position(nordic, tables_dir, tmp_path):
    child = spawn(tmp_path, tables_dir, "--player", "Ann", "--player", "Bob", "--seed", "11",
                  "--autosave", "g.json")
    child.expect_exact("Ann> ")
    child.sendline("keep 1")
    child.expect(r"Ann rolls ([1-6 ]+), 1 reroll left")
    dice = child.match.group(1)
    child.expect_exact("Ann> ")
    reading(child)
    child.kill(signal.SIGHUP)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 129
    game = Game.load(tmp_path / "g.json")
    assert " ".join(map(str, game.dice)) == dice and game.rerolls == 1
    again = spawn(tmp_path, tables_dir, "--resume", "g.json", env={"NO_COLOR": "1"})
    again.expect_exact("*Ann")
    for line in protokoll(game).splitlines()[1:]:
        again.expect_exact(line)
    again.expect_exact("Ann's turn (1 of 15)")
    again.expect_exact(f"Ann rolls {dice}, 1 reroll left")
    again.expect_exact("Ann> ")
    again.sendline("quit")
    again.expect(pexpect.EOF)


def test_table_mode_resumes_in_table_mode_with_the_kept_dice(nordic, tables_dir, tmp_path):
    child = spawn(tmp_path, tables_dir, "--player", "Ann", "--dice-from-table", "--lang", "sv",
                  "--autosave", "g.json")
    child.expect_exact("tärningarna> ")
    child.sendline("11256")
    child.sendline("behåll 5 6")
    child.expect_exact("de 3 nya tärningarna> ")
    reading(child)
    child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 143
    again = spawn(tmp_path, tables_dir, "--resume", "g.json")
    again.expect_exact("behöll 5 6, 3 tärningar att slå")           # Swedish and table mode kept
    again.expect_exact("Ann, skriv de 3 nya tärningarna> ")
    again.sendline("666")
    again.expect_exact("Ann slår 5 6 6 6 6, 1 slag kvar")
    reading(again)
    again.sendintr()
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 130                                    # Ctrl-C, after saving
    assert Game.load(tmp_path / "g.json").dice == (5, 6, 6, 6, 6)


def test_fair_undo_refuses_to_show_dice_and_free_undo_says_so(nordic, tables_dir, tmp_path):
    child = spawn(tmp_path, tables_dir, "--player", "Ann", "--player", "Bob", "--seed", "11",
                  "--autosave", "g.json")
    child.expect_exact("Ann> ")
    child.sendline("reroll all")
    child.expect(r"Ann rolls ([1-6 ]+), 1 reroll")
    child.expect_exact("Ann> ")
    child.sendline("undo")
    child.expect_exact("error: the dice are seen")
    child.sendline("chance")
    child.expect(r"Bob rolls [1-6 ]+, 2 reroll")
    child.expect_exact("Bob> ")
    child.sendline("undo")                  # Bob's dice are seen: Ann may not change her box
    child.expect_exact("error: the dice are seen")
    child.expect_exact("Bob> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert len(Game.load(tmp_path / "g.json").moves) == 5
    free = spawn(tmp_path, tables_dir, "--player", "Ann", "--player", "Bob", "--seed", "11",
                 "--undo", "free", "--autosave", "f.json")
    free.expect_exact("Ann> ")
    free.sendline("reroll all")
    free.expect(r"Ann rolls ([1-6 ]+), 1 reroll")
    seen = free.match.group(1)
    free.expect_exact("Ann> ")
    free.sendline("undo")
    free.expect_exact("undone: reroll all")
    free.expect_exact("Ann> ")
    free.sendline("reroll all")             # the dice seen are never drawn again: fresh ones
    free.expect(r"Ann rolls ([1-6 ]+), 1 reroll")
    assert free.match.group(1) != seen
    free.expect_exact("Ann> ")
    free.sendline("quit")
    free.expect(pexpect.EOF)
    doc = json.loads((tmp_path / "f.json").read_text())
    assert doc["settings"]["undo"] == "free" and doc["settings"]["free_undo_used"] is True


def test_three_players_with_a_computer_and_the_last_score_undone(nordic, tables_dir, tmp_path):
    child = spawn(tmp_path, tables_dir, "--player", "Ann", "--player", "Bob",
                  "--player", "Cid=optimal", "--seed", "3", "--autosave", "g.json",
                  env={"NO_COLOR": "1"})
    ann, bob = list(BOXES), BOXES[::-1]
    play_out(child, {"Ann": ann, "Bob": bob}, message("confirm"))
    out = transcript(child)
    assert "\x1b[" not in out                                        # NO_COLOR: plain text
    assert out.count("Cid (optimal): score") == 15 and "game over" in out
    assert "review of Ann" in out and "review of Bob" in out and "review of Cid" not in out
    game = Game.load(tmp_path / "g.json")
    assert game.is_over and len(game.turns) == 45


def test_the_last_score_can_be_undone_until_the_game_is_confirmed(nordic, tables_dir, tmp_path):
    """A box written with 0 points is asked first (no: not written, the same
    prompt again; yes: written); at game over undo takes the last score back."""
    child = spawn(tmp_path, tables_dir, "--seed", "2", "--autosave", "g.json")
    plan, declined = list(BOXES), False
    prompts = ["Player> ", "? (y/n) ", message("confirm")]
    child.expect_exact("Player> ")
    while plan:
        child.sendline(plan[0])
        if child.expect_exact(prompts) == 1:            # 0 points: asked first
            if not declined:
                child.sendline("n")
                child.expect_exact(message("zero_declined"))
                declined = True
                child.expect_exact("Player> ")
                continue                                 # not written: the same box again
            child.sendline("y")
            child.expect_exact([prompts[0], prompts[2]])
        plan.pop(0)
    assert declined
    child.sendline("undo")
    child.expect_exact("undone: score yatzy")
    child.expect_exact("Player> ")
    child.sendline("chance")
    child.expect_exact("error: chance is already filled")
    child.sendline("yatzy")
    if child.expect_exact([message("confirm"), "? (y/n) "]) == 1:
        child.sendline("y")
        child.expect_exact(message("confirm"))
    child.sendline("")
    child.expect_exact("game over")
    child.expect(pexpect.EOF)
    assert Game.load(tmp_path / "g.json").is_over


def test_piped_output_has_no_escape_codes_and_a_bad_path_stops_at_once(run, tmp_path):
    root = Path(yatzy.__file__).parents[1]
    done = subprocess.run([str(YATZY), "play", "--seed", "1", "--autosave", "p.json"],
                          input="card\nones\nfrobnicate\n", capture_output=True, text=True,
                          cwd=tmp_path, env={"PATH": str(YATZY.parent), "PYTHONPATH": str(root),
                                               "YATZY_DATA": str(tmp_path / "data")})
    assert done.returncode == 0 and "\x1b" not in done.stdout and "Player scores" in done.stdout
    (tmp_path / "dir").mkdir()
    bad = run("--autosave", "dir")
    assert bad.exit_code == 2 and bad.output.strip() == "error: dir is a folder, not a file"
    bad = run("--autosave", "missing/g.json")
    assert bad.exit_code == 2
    assert bad.output.strip() == "error: cannot write the game to missing/g.json"


def test_the_steady_screen_keeps_the_card_beside_the_last_events(nordic, tables_dir, tmp_path):
    child = spawn(tmp_path, tables_dir, "--player", "Ann", "--player", "Bob=optimal",
                  "--seed", "5", "--autosave", "g.json", screen="steady")
    child.expect_exact("Ann> ")
    child.sendline("hint")
    child.expect_exact("Ann> ")
    child.sendline("ones")
    child.expect_exact("Ann> ")
    screen = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", child.before)
    beside = [line for line in screen.splitlines()
              if line.startswith(tuple(BOXES)) and ("Ann" in line or "Bob" in line)]
    assert beside                                                # events beside the card rows
    assert "\x1b[2J" in transcript(child) or "\x1b[H" in transcript(child)  # redrawn, not scrolled
    assert any(p in screen for p in "⚀⚁⚂⚃⚄⚅")                         # the dice drawn
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_game_without_undo_is_not_marked_free(run, tmp_path):
    result = run("--seed", "4", "--autosave", "g.json", input="\n".join(BOXES) + "\n\n")
    assert result.exit_code == 0 and "free undo" not in result.output
    assert "free_undo_used" not in json.loads((tmp_path / "g.json").read_text())["settings"]


@pytest.mark.parametrize("lang, words", [("en", "compiling the computer players first"),
                                         ("nb", "kompilerer datamaskinspillerne først"),
                                         ("sv", "kompilerar datorspelarna först")])
def test_a_computer_seats_first_compile_is_said_in_the_language(run, monkeypatch, lang, words):
    from yatzy.kernels import cache
    monkeypatch.setattr(cache, "compiled", lambda kernel: False)   # as after an install
    r = run("--player", "Cid=greedy", "--player", "Ann", "--seed", "3", "--lang", lang,
            input="quit\n")
    assert words in r.output
