"""The command line's words come from the catalogue in the language asked
for: the progress bars of a solve, ``error:`` at start-up, the trainer's
screens (no English word in nb or sv, numbers with a decimal comma)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.cli.options import BarProgress, LineProgress, command_lang

from .test_play import ENGLISH as COACH_ENGLISH

# the English words of the trainer's screens, besides the coach's ("over" is
# Norwegian too: "hopp over", skip)
ENGLISH = COACH_ENGLISH - {"over"} | {"puzzle", "puzzles", "answer", "answers", "rules", "seed", "skip",
                           "first", "second", "easy", "medium", "hard", "level",
                           "decision", "position", "wrong", "before", "about", "solving",
                           "building", "explanation", "table", "once", "seconds",
                           "rerolls", "reroll", "write", "in", "is", "a", "after",
                           "warning"}


def english_words(text: str) -> set[str]:
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
    return {w for w in re.findall(r"[a-zåäöæø]+", text.lower()) if w in ENGLISH}


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("lang, left", [("en", "1:40, about 12:13 left"),
                                        ("nb", "1:40, omtrent 12:13 igjen"),
                                        ("sv", "1:40, ungefär 12:13 kvar")])
def test_the_progress_bar_says_the_time_left_in_the_language(monkeypatch, lang, left):
    clock = Clock()
    monkeypatch.setattr("yatzy.cli.options.time.perf_counter", clock)
    bar = BarProgress("x", lang)
    bar.start, bar.before = 0.0, 0
    clock.now = 100.0
    assert bar.times(120, 1000) == left


@pytest.mark.parametrize("lang", ["nb", "sv"])
def test_the_progress_lines_have_no_english_and_a_decimal_comma(monkeypatch, capsys, lang):
    clock = Clock()
    monkeypatch.setattr("yatzy.cli.options.time.perf_counter", clock)
    line = LineProgress("x", lang)
    line(0, 1000)
    clock.now = 90.0
    line(250, 1000)
    clock.now = 600.0
    line(1000, 1000)
    err = capsys.readouterr().err
    assert "25,0 %" in err and "1,5 min" in err and "4,5 min" in err, err
    assert "10,0 min" in err and err.count("\n") == 2, err
    assert english_words(err) == set(), err


def test_the_language_of_a_command_line():
    assert command_lang(["play", "--lang", "nb", "--player", "A"]) == "nb"
    assert command_lang(["play", "--lang"]) == "en"


@pytest.mark.parametrize("lang, word", [("nb", "feil: "), ("sv", "fel: ")])
def test_a_refused_start_says_error_in_the_language(tmp_path, monkeypatch, lang, word):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["play", "--lang", lang, "--player", "A", "--player", "A",
                                  "--tables", str(tmp_path)])
    assert r.exit_code == 2 and r.output.startswith(word) and r.output.count("\n") == 1
    assert english_words(r.output) == set(), r.output


# ------------------------------------------------------------------ the trainer
ANSWERS = {"nb": ["kast alle", "før sjanse", "behold 1", "sjanse", "hopp over"],
           "sv": ["slå om alla", "skriv chans", "behåll 1", "chans", "hoppa över"]}


@pytest.mark.parametrize("lang", ["nb", "sv"])
def test_the_trainer_shows_no_english_in_nb_and_sv(nordic, tables_dir, tmp_path, lang):
    answers = "\n".join(ANSWERS[lang] * 4) + "\n"
    r = CliRunner().invoke(main, ["train", "--lang", lang, "--count", "4", "--seed", "4",
                                  "--db", str(tmp_path / "r.sqlite"),
                                  "--tables", str(tables_dir)], input=answers)
    out = r.output
    assert r.exit_code == 0, out
    shown = "\n".join(line for line in re.sub(r"svara?> ", "\n", out).splitlines()
                      if line.strip() not in ANSWERS[lang])       # the answers echoed
    assert english_words(shown) == set(), shown
    assert {"oppgave 1 av 4", "uppgift 1 av 4"} & set(re.findall(r"\w+ 1 av 4", out)), out
    summary = out.strip().splitlines()[-1]
    assert re.search(r"\d,\d{3}", summary) and not re.search(r"\d\.\d", summary), summary
    assert "(s)" not in out and "(r)" not in out and "(er)" not in out
