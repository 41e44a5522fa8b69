"""The coach (`yatzy play`) and the trainer (`yatzy train`) read the same
phrasings in each language (yatzy.rules.grammar): a table-mode game typed
with them, and a training session answered with them."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.cli.train import parse_answer
from yatzy.position.actions import Action
from yatzy.rules.grammar import MESSAGES
from yatzy.rules.ruleset import parse_rules
from yatzy.rules.words import BOXES as PRINTED
from yatzy.rules.words import message

# per language: (the dice typed, the phrasing, ...) for six turns, and the
# moves the game records
SCRIPTS = {
    "en": ["66655", "keep sixes", "55", "full house",
           "11256", "hold 1 1", "115", "reroll all", "12345", "small straight",
           "66666", "cross out ones",
           "33345", "3 of a kind", "22334", "2 pairs", "44441", "4 of a kind"],
    "nb": ["66655", "behold seksene", "55", "fullt hus",
           "11256", "behold 1 1", "115", "kast om alle", "12345", "liten straight",
           "66666", "stryk enere",
           "33345", "3 like", "22334", "2 par", "44441", "fire like"],
    "sv": ["66655", "spara sexorna", "55", "kåk",
           "11256", "spara 1 1", "115", "kasta om alla", "12345", "liten stege",
           "66666", "stryk ettor",
           "33345", "triss", "22334", "två par", "44441", "fyra lika"],
}
BOXES = {lang: [PRINTED[lang][b] for b in ("ones", "twos", "threes", "fours", "fives",
                                            "sixes", "one_pair", "two_pairs",
                                            "three_of_a_kind", "four_of_a_kind",
                                            "small_straight", "large_straight", "full_house",
                                            "chance", "yatzy")] for lang in ("nb", "sv")}
SCORES = ["score full_house (28)", "score small_straight (15)", "score ones (0)",
          "score three_of_a_kind (9)", "score two_pairs (10)", "score four_of_a_kind (16)"]


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("lang", sorted(SCRIPTS))
def test_the_coach_reads_each_languages_phrasings(tmp_path, lang):
    """Table mode needs no table: every line is read and played."""
    result = CliRunner().invoke(main, ["play", "--dice-from-table", "--player", "Ann",
                                       "--lang", lang, "--autosave", "g.json"],
                                input="\n".join(SCRIPTS[lang]) + "\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert message("error", lang, text="") not in result.output, result.output
    moves = json.loads((tmp_path / "g.json").read_text())["moves"]
    assert [m for m in moves if m.startswith("score")] == SCORES, result.output
    assert "keep 6 6 6" in moves and "keep 1 1" in moves and "reroll all" in moves


def test_swedish_spara_6_6_keeps_and_spara_spelet_saves(tmp_path):
    result = CliRunner().invoke(main, ["play", "--dice-from-table", "--player", "Ann",
                                       "--lang", "sv", "--autosave", "g.json"],
                                input="11666\nspara 6 6\nspara spelet kväll.json\n"
                                      "spara kväll.json\n")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "6 6").exists()
    assert json.loads((tmp_path / "kväll.json").read_text())["moves"] == ["roll 1 1 6 6 6",
                                                                         "keep 6 6"]
    assert "spelet sparat i kväll.json" in result.output
    assert "fel: 'spara' med tärningar behåller dem" in result.output       # not a file name


def test_the_coach_refuses_a_word_of_several_meanings_with_the_candidates(tmp_path):
    result = CliRunner().invoke(main, ["play", "--dice-from-table", "--player", "Ann",
                                       "--lang", "nb", "--autosave", "g.json"],
                                input="11256\ntre\nst\nkast 1 3 5\nchance@²\n")
    out = result.output
    assert "feil: 'tre' kan være: treere, tre like" in out
    assert "feil: 'st' kan være: stor straight" in out
    assert "feil: ikke et lovlig trekk nå: kast 1 3 5" in out      # as typed, not 'roll 1 3 5'
    assert "feil: 'chance@²': skriv tall med sifrene 0-9" in out
    assert json.loads((tmp_path / "g.json").read_text())["moves"] == ["roll 1 1 2 5 6"]


@pytest.mark.parametrize("lang", sorted(SCRIPTS))
def test_the_trainer_reads_the_coachs_phrasings(lang):
    rules = parse_rules("nordic")
    script = SCRIPTS[lang]
    dice = (1, 5, 6, 6, 6)
    assert parse_answer(script[1], rules, lang, dice) == Action.keep((6, 6, 6))
    assert parse_answer(script[5], rules, lang, dice) == Action.keep((1, 1))
    assert parse_answer(script[7], rules, lang, dice) == Action.keep(())
    boxes = ["full_house", "small_straight", "ones", "three_of_a_kind", "two_pairs",
             "four_of_a_kind"]
    for i, box in zip((3, 9, 11, 13, 15, 17), boxes):
        assert parse_answer(script[i], rules, lang, dice) == Action.score(box)
    assert parse_answer(script[11], rules, lang, dice).points == 0      # a strike says 0


@pytest.mark.parametrize("lang, keep, reroll, box", [
    ("nb", "behold 5 5", "kast om alle", "sjanse"),
    ("sv", "spara 6 6", "kasta om alla", "chans"),
])
def test_a_training_session_is_answered_in_the_language(nordic, tables_dir, tmp_path, lang,
                                                        keep, reroll, box):
    """Every answer is read (a keep not among the dice is refused for that,
    not as an unknown word); the session records its three answers."""
    answers = "\n".join(([keep, reroll] + BOXES[lang]) * 3) + "\n"
    r = CliRunner().invoke(main, ["train", "--count", "3", "--seed", "4", "--lang", lang,
                                  "--db", str(tmp_path / "t.sqlite"), "--tables",
                                  str(tables_dir)], input=answers)
    assert r.exit_code == 0, r.output
    for key in ("unknown_box", "unknown_command", "not_move", "keep_or_save", "ambiguous"):
        assert literal(MESSAGES[lang][key]) not in r.output, r.output
    assert "error:" not in r.output
    assert r.output.count("svar>") >= 3 and "3 svar" in r.output, r.output


def literal(text: str) -> str:
    """The longest fixed part of a message."""
    return max(re.split(r"\{[^}]*\}|'", text), key=len)
