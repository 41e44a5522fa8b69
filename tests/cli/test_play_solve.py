"""`yatzy play` around long work and plain errors: a solve that Ctrl-C stops
at once (in a real pseudo-terminal), a big solve announced with the faster
rules, every kind of ``GameError`` in nb and sv, the narrow Trippel card,
and the end-of-game review recorded in the ratings database."""

from __future__ import annotations

import os
import io
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.cli.play import game_error, protokoll
from yatzy.game import GAME_ERRORS, Game, GameError
from yatzy.rules.words import message
from .test_play import BOXES, english_words

pexpect = pytest.importorskip("pexpect")
PYTHONPATH = os.environ.get("PYTHONPATH", "")       # where the yatzy script finds solver
YATZY = Path(sys.executable).with_name("yatzy")
SLOW = "nordic:rolls=9"        # a value table of some seconds (about 10 s on 2 busy cores)


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))


def spawn(tmp_path, *args):
    child = pexpect.spawn(str(YATZY), ["play", "--screen", "plain", *args], cwd=str(tmp_path),
                          encoding="utf-8", timeout=60, dimensions=(40, 100),
                          env={"TERM": "xterm", "PATH": str(YATZY.parent), "NO_COLOR": "1",
                               "PYTHONPATH": PYTHONPATH, "YATZY_DATA": str(tmp_path / "data")})
    child.logfile_read = io.StringIO()
    return child


# ------------------------------------------------------------ a long solve
@pytest.mark.parametrize("who", ["hint", "computer"])
def test_ctrl_c_stops_a_solve_at_once_and_the_game_is_saved(tmp_path, who):
    tables = tmp_path / "tables"              # nothing solved yet
    seats = ["--player", "Ann"] if who == "hint" else ["--player", "Cid=optimal",
                                                       "--player", "Ann"]
    child = spawn(tmp_path, "--rules", SLOW, "--tables", str(tables), "--seed", "5",
                  "--autosave", "g.json", *seats)
    if who == "hint":
        child.expect(r"Ann rolls ([1-6 ]+), 8 rerolls left")
        dice = child.match.group(1)
        child.expect_exact("Ann> ")
        child.sendline("hint")
    child.expect_exact(f"solving the optimal strategy for {SLOW} once")
    child.expect_exact("Ctrl-C stops it (the game is saved)")
    time.sleep(0.3)
    start = time.monotonic()
    child.sendintr()
    child.expect(pexpect.EOF)
    took = time.monotonic() - start
    child.close()
    assert child.exitstatus == 130 and took < 1.0, (took, child.logfile_read.getvalue())
    assert "game saved to g.json" in child.logfile_read.getvalue()
    time.sleep(0.5)
    assert not list(tables.glob("*.tbl"))     # stopped before the table was done, child gone
    game = Game.load(tmp_path / "g.json")
    assert game.moves and game.moves[0].is_roll and not game.turns
    if who == "hint":
        again = spawn(tmp_path, "--resume", "g.json", "--tables", str(tables))
        again.expect_exact(f"Ann rolls {dice}, 8 rerolls left")
        again.expect_exact("Ann> ")
        again.sendline("quit")
        again.expect(pexpect.EOF)


def test_a_big_solve_names_the_faster_rules_and_is_not_started_unasked(tmp_path):
    done = subprocess.run([str(YATZY), "play", "--rules", "maxi", "--player", "Cid=optimal",
                           "--tables", str(tmp_path / "t"), "--autosave", "m.json"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          cwd=tmp_path, env={"PATH": str(YATZY.parent), "PYTHONPATH": PYTHONPATH,
                                             "YATZY_DATA": str(tmp_path / "data")})
    out = done.stdout
    # the time is measured on this machine now: minutes when quiet, hours when busy
    said = re.search(r"solving the optimal strategy for Maxi Yatzy once \(about ([\d.]+ (min|h)), "
                     r"[\d.]+ GiB on disk\)", out)
    assert said, out
    assert "faster: --rules maxi:saved_rolls=false (about" in out
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("start again with --yes to solve it")
    # one estimate for the one build: the refusal says the time the announcement said
    assert f"it takes about {said.group(1)};" in done.stderr, (out, done.stderr)
    assert "game saved to m.json" in out and Game.load(tmp_path / "m.json").moves


# ------------------------------------------------------- Game's errors
def provoke(tmp_path) -> dict[str, GameError]:
    """One GameError of every kind, each from a real call."""
    found: dict[str, GameError] = {}

    def catch(f, *args, **kw):
        try:
            f(*args, **kw)
        except GameError as e:
            found.setdefault(e.kind, e)
            return e
        raise AssertionError(f"no error from {f.__name__}{args}")

    catch(Game, "nordic", [" "])
    catch(Game, "nordic", ["Ann=wizard"])
    catch(Game, "nordic", [f"P{i}" for i in range(7)])
    catch(Game, "nordic", ["Ann", "ann"])
    catch(Game, "nordic", ["Ann=step"])
    catch(Game, "nordic", ["A" * 41])                           # long_name
    game = Game("nordic", ["Ann"], seed=1)
    catch(game.undo)
    catch(game.redo)
    catch(game.play, "score chance")                          # roll_first
    catch(game.play, "roll 7")                                 # bad_dice
    catch(game.play, "roll 1 2 3")                             # roll_count
    game.play("roll 11256")
    catch(game.play, "roll")                                   # keep_first
    catch(game.play, "keep 6 6")                               # not_among
    catch(game.play, "frobnicate x")                           # bad_move
    catch(game.play, "score yahtzee bonus")                    # unknown_box
    catch(game.play, "score chance@2")                         # bad_column
    catch(game.play, "score chance (20)")                      # wrong_points
    game.play("keep 1 1")
    catch(game.play, "roll 1 5")                               # roll_count, with kept dice
    game.play("roll 1 1 1")
    game.play("keep 1 1 1 1")
    game.play("roll 1")
    catch(game.play, "keep 1")                                 # no_rerolls
    game.play("score ones")
    game.play("roll 12345")
    catch(game.play, "score ones")                             # box_filled
    triple = Game("triple", ["Ann"], seed=1)
    triple.play("roll 11256")
    catch(triple.play, "score chance")                         # name_column
    forced = Game("forced", ["Ann"], seed=1)
    forced.play("roll 11256")
    catch(forced.play, "score chance")                         # box_not_now
    catch(Game.load, tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{")
    catch(Game.load, tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"x": 1}')
    catch(Game.load, tmp_path / "other.json")
    (tmp_path / "moves.json").write_text('{"yatzy_game": 1, "rules": "nordic", "players": '
                                         '[{"name": "A"}], "moves": ["roll 7"], "played": 1}')
    catch(Game.load, tmp_path / "moves.json")
    over = Game("nordic", ["Ann"], seed=2)
    while not over.is_over:
        over.play("roll")
        over.play(str(next(a for a in over.legal_actions() if a.kind == "score")))
    catch(over.play, "roll")                                   # game_over
    return found


def test_every_game_error_kind_has_its_own_words_in_nb_and_sv(tmp_path):
    found = provoke(tmp_path)
    assert set(found) == set(GAME_ERRORS), set(GAME_ERRORS) ^ set(found)
    for kind, error in found.items():
        assert set(error.fields) <= set(GAME_ERRORS[kind]), kind
        english = game_error(error, "en")
        for lang in ("nb", "sv"):
            text = game_error(error, lang)
            assert text != english and english_words(text) == set(), (kind, lang, text)
            assert text != message("bad_move", lang, text="")      # not the generic line
    assert game_error(found["box_filled"], "sv") == "ettor är redan ifylld"
    assert game_error(found["wrong_points"], "nb") == "sjanse gir 15 poeng, ikke 20"


def test_game_errors_at_the_prompt_and_at_the_start_are_in_the_language(
        nordic, tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def run(*args, input=""):
        return CliRunner().invoke(main, ["play", "--tables", str(tables_dir), *args], input=input)

    typed = run("--dice-from-table", "--lang", "nb", "--autosave", "t.json",
                input="1 2 3\n11256\nbehold 1 1\n1 5\nquit\n")
    assert "feil: skriv 5 terninger" in typed.output
    assert "feil: skriv de 3 nye terningene (eller alle, med de beholdte 1 1)" in typed.output
    same = run("--player", "Ann", "--player", "ann", "--lang", "sv")
    assert same.exit_code == 2 and same.output.strip() == "fel: två spelare har samma namn"
    (tmp_path / "bad.json").write_text("{")
    bad = run("--resume", "bad.json", "--lang", "nb")
    assert bad.exit_code == 2 and bad.output.strip() == "feil: bad.json: ikke et JSON-dokument"


# ------------------------------------------------------- the narrow Trippel card
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_trippel_card_fits_80_columns(nordic, tables_dir, players):
    names = ["Annabelle", "Bartholomew", "Cid", "Dagny-Kristine"][:players]
    game = Game("triple", names, seed=players, tables=tables_dir)
    rng = random.Random(players)
    while len(game.turns) < 20 * players + 1:
        if game.needs_roll:
            game.play("roll")
        else:
            game.play(str(rng.choice([a for a in game.legal_actions() if a.kind == "score"])))
    for width in (80, 53):                    # a terminal, and what the steady screen leaves
        card = protokoll(game, "nb", width=width).splitlines()
        assert max(len(line) for line in card) <= width, "\n".join(card)
        mover = game.players[game.turn_player].name
        assert "*" + mover in card[0].split()
        assert card[1].split()[:3] == ["@1", "@2", "@3"]
    compact = protokoll(game, "en", width=53).splitlines()
    if len(protokoll(game, "en").splitlines()[0]) > 53:          # shortened: Σ and the others
        assert compact[1].split() == ["@1", "@2", "@3", "Σ"]
        scores = game.scores()
        rows = len(protokoll(game, "en").splitlines()) - 1      # the Σ row: a column here
        assert protokoll(game, "en").splitlines()[-1].split() == ["Σ", *map(str, scores)]
        assert compact[rows - 1].split()[-1] == str(scores[game.turn_player])
        others = " ".join(compact[rows:])                     # the lines under the card
        assert others.split()[1::2] == [str(scores[i]) for i in range(players)
                                        if i != game.turn_player], others


# ------------------------------------------------------- the review in the ratings
def test_a_played_game_is_recorded_and_train_stats_shows_it(nordic, tables_dir, tmp_path,
                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "r.sqlite"
    played = CliRunner().invoke(main, ["play", "--tables", str(tables_dir), "--seed", "4",
                                       "--player", "Ann", "--db", str(db),
                                       "--autosave", "g.json"],
                                input="\n".join(BOXES) + "\n\n")
    assert played.exit_code == 0, played.output
    n = int(re.search(r"\((\d+) decisions\)", played.output).group(1))
    assert f"{n} decisions recorded in {db}" in played.output
    import sqlite3
    rows = sqlite3.connect(db).execute(
        "SELECT kind, player, source, loss FROM answers").fetchall()
    assert len(rows) == n and {r[1] for r in rows} == {"Ann"} and {r[2] for r in rows} == {"game"}
    assert {r[0] for r in rows} <= {"first keep", "second keep", "box choice"}
    total = float(re.search(r"total loss ([\d.]+)", played.output).group(1))
    assert abs(sum(r[3] for r in rows) - total) < 0.01
    again = CliRunner().invoke(main, ["play", "--tables", str(tables_dir), "--resume", "g.json",
                                      "--db", str(db)], input="\n")
    assert again.exit_code == 0 and "recorded" not in again.output       # once per game
    stats = CliRunner().invoke(main, ["train", "--tables", str(tables_dir), "--stats",
                                      "--db", str(db), "--scale-games", "2"])
    assert stats.exit_code == 0, stats.output
    overall = re.search(r"^  all +(\d+)", stats.output, re.M)
    assert overall and int(overall.group(1)) == n, stats.output
    none = CliRunner().invoke(main, ["play", "--tables", str(tables_dir), "--seed", "4",
                                     "--no-record", "--autosave", "h.json"],
                              input="\n".join(BOXES) + "\n\n")
    assert none.exit_code == 0 and "recorded" not in none.output
    assert not (tmp_path / "data" / "ratings.sqlite").exists()      # the ratings went to --db


def test_a_big_solve_refused_says_the_time_it_announced(tmp_path, monkeypatch):
    """One estimate for one build: the time measured on this machine now
    (here made 1.6 times the reference's) is the one the announcement, the
    question and the refusal say, never the reference figure beside it."""
    from yatzy.cli.coach import solving
    measured = {}

    def busy(plan):
        measured["seconds"] = plan.seconds * 1.6
        return measured["seconds"]

    monkeypatch.setattr(solving, "estimate", busy)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["play", "--screen", "plain", "--rules", "maxi", "--player",
                                  "Cid=optimal", "--tables", str(tmp_path / "t"),
                                  "--autosave", "m.json"], input="")
    said = re.findall(r"about (\d[\d.]* (?:min|h|s))", r.output)
    assert r.exit_code == 2 and measured, r.output
    announced = re.search(r"Maxi Yatzy once \(about ([\d.]+ (?:min|h))", r.output).group(1)
    assert f"it takes about {announced};" in r.output, r.output
    faster = re.search(r"faster: --rules \S+ \(about ([\d.]+ (?:min|h|s))", r.output).group(1)
    assert set(said) == {announced, faster}, said
