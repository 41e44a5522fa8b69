"""The coach's parts (solver/cli/coach): small modules and functions, and
what a score pad gives at the terminal: who leads (Trippel: the weighted
totals during the game), the bonus in words, each open box's points for the
dice, the card's column header as a move names a column, errors that say
what is wrong, click's own errors in the user's language."""

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner

import yatzy
from yatzy.cli import main
from yatzy.cli.coach.card import protokoll
from yatzy.cli.coach.standing import bonus_text, lead_text, points_line, standing_line
from yatzy.cli.coach.steady import fit
from yatzy.game import Game
from yatzy.rules.words import BOXES, LANGS, message, number
from yatzy.session import Session

CLI = Path(yatzy.__file__).parent / "cli"
PARTS = sorted((CLI / "coach").glob("*.py")) + [CLI / "play.py", CLI / "train.py"]


def sizes(kind):
    for path in PARTS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, kind):
                yield f"{path.name}:{node.name}", node.end_lineno - node.lineno + 1


def test_no_class_of_the_coach_over_300_lines_and_no_function_over_60():
    assert [n for n, size in sizes(ast.ClassDef) if size > 300] == []
    assert [n for n, size in sizes((ast.FunctionDef, ast.AsyncFunctionDef)) if size > 60] == []
    assert len(list(sizes(ast.ClassDef))) >= 6                 # the check sees the parts


def test_trippel_shows_who_leads_by_the_weighted_totals_during_the_game():
    game = Game("triple", ["Kari", "Ola"], seed=1)
    for move in ("roll 66666", "score yatzy@3", "roll 66655", "score full house@1"):
        game.play(move)
    session = Session(game)
    assert game.scores() == (150, 28)
    assert lead_text(session, "nb") == "Kari leder med 122"
    assert lead_text(session, "sv") == "Kari leder med 122"
    assert lead_text(session, "en") == "Kari leads by 122"
    game.play("roll 55544")
    game.play("score full house@3")                     # Kari's: 23 x 3 = 69
    assert lead_text(Session(game), "en") == "Kari leads by 191"


def test_a_level_game_and_one_player_say_no_leader():
    game = Game("nordic", ["Kari", "Ola"], seed=1)
    assert lead_text(Session(game), "nb") == ""          # nobody has points yet
    for move in ("roll 66666", "score yatzy", "roll 66666", "score yatzy"):
        game.play(move)
    assert lead_text(Session(game), "nb") == "likt i toppen: Kari, Ola"
    alone = Game("nordic", ["Kari"], seed=1)
    alone.play("roll 66666")
    alone.play("score yatzy")
    assert lead_text(Session(alone), "nb") == ""


def test_the_bonus_in_words():
    game = Game("nordic", ["Kari"], seed=1)
    assert bonus_text(Session(game), "nb") == ""         # nothing towards it yet
    game.play("roll 66661")
    game.play("score sixes")
    assert bonus_text(Session(game), "nb") == "Kari trenger 39 til bonus (6 foran tre av hver)"
    assert bonus_text(Session(game), "sv") == "Kari behöver 39 till bonus (6 före tre av varje)"
    assert bonus_text(Session(game), "en") == \
        "Kari needs 39 more for the bonus (6 ahead of three of each)"
    game.play("roll 11234")
    game.play("score ones")                              # 2: par is 3, on pace 6 - 1 = 5
    assert bonus_text(Session(game), "nb") == "Kari trenger 37 til bonus (5 foran tre av hver)"
    triple = Game("triple", ["Kari"], seed=1)
    triple.play("roll 66612")
    triple.play("score sixes@2")
    assert bonus_text(Session(triple), "nb") == "Kari trenger til bonus: 45 i @2"
    assert standing_line(Session(triple), "en") == "Kari needs for the bonus: 45 in @2"


def test_each_open_box_points_for_the_dice():
    game = Game("nordic", ["Kari"], seed=1)
    game.play("roll 22345")
    text = points_line(game, "nb")
    assert text.startswith("poeng for 2 2 3 4 5: enere 0, toere 4, treere 3")
    assert "liten straight 0" in text and "ett par 4" in text and "sjanse 16" in text
    game.play("score chance")
    game.play("roll 22345")
    assert "sjanse" not in points_line(game, "nb")       # written: not open


def test_the_card_numbers_columns_as_a_move_names_them():
    game = Game("triple", ["Kari", "Ola"], seed=1)
    head = protokoll(game, "nb").splitlines()[1].split()
    assert head == ["@1", "@2", "@3", "@1", "@2", "@3"]
    assert protokoll(game, "nb").splitlines()[-1].split() == ["Σ", "0", "0"]
    compact = protokoll(game, "nb", width=40).splitlines()
    assert compact[1].split() == ["@1", "@2", "@3", "Σ"] and compact[-1] == "Ola 0"


def test_the_steady_screen_keeps_the_turn_and_the_first_hints_when_short():
    events = [("event", "older")] + [("turn", "Kari's turn"), ("turn", "Ola leads by 3")] \
        + [("hint", f"{i:>2} move {i}") for i in range(1, 11)] \
        + [("event", "keep 6: the best choice"), ("event", "why: ...")]
    shown = fit(events, 8, 40)
    assert shown[:2] == ["Kari's turn", "Ola leads by 3"]
    assert shown[2:6] == [" 1 move 1", " 2 move 2", " 3 move 3", " 4 move 4"]
    assert shown[-2:] == ["keep 6: the best choice", "why: ..."]
    assert "older" not in shown and len(shown) == 8



@pytest.mark.parametrize("lang", LANGS)
def test_events_beside_the_card_wrap_between_phrases_a_box_and_the_dice_whole(lang):
    """Beside six players' card at 80x24 an event has 24 to 30 columns: it
    is wrapped between its phrases, a box's name with its points and the
    dice never broken (it read "skriv to / par", "kaster 4 4 5 6 6, 2 /
    kast igjen"); nothing is lost."""
    dice, left = "1 2 4 5 6", message("left", lang, n=2)
    for box in BOXES[lang].values():
        chosen = f"{message('score', lang)} {box} (10)"
        events = [("event", message("computer", lang, name="Anne", kind="optimal", action=chosen)),
                  ("verdict", message("cost", lang, loss=number(11.123, 2, lang), best=chosen)),
                  ("event", message("rolled", lang, name="Kari", dice=dice, left=left))]
        for room in range(24, 41):
            rows = fit(events, 99, room, BOXES[lang].values(), [message("score", lang)])
            assert all(len(row) <= room for row in rows), (room, rows)
            assert " ".join(rows).split() == " ".join(t for _, t in events).split()
            assert sum(f"{box} (10)" in row for row in rows) == 2, (room, rows)
            if len(chosen) <= room:                            # with its verb: "skriv to par (10)"
                assert sum(chosen in row for row in rows) == 2, (room, rows)
            assert sum(dice in row for row in rows) == 1, (room, rows)
            after = events[2][1].split(", ", 1)[1]             # "2 kast igjen": a phrase
            assert any(row.endswith(after) for row in rows), (room, rows)

@pytest.fixture
def run(nordic, tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))

    def go(*args, input=""):
        result = CliRunner().invoke(main, ["play", "--tables", str(tables_dir), *args],
                                    input=input)
        assert "Traceback" not in result.output, result.output
        return result
    return go


def test_the_first_screen_says_how_to_type_a_move_and_points_lists_the_boxes(run):
    out = run("--lang", "nb", "--seed", "1", "--no-record", input="poeng\nkort\n").output
    assert out.splitlines()[0] == message("how_to_type", "nb")
    assert "poeng for " in out and "sjanse " in out
    table = run("--lang", "sv", "--dice-from-table", "--no-record", input="").output
    assert message("how_to_type_table", "sv") in table
    assert message("how_to_type_columns", "sv") not in table
    triple = run("--rules", "triple", "--lang", "sv", "--no-record", input="").output
    assert triple.splitlines()[1] == message("how_to_type_columns", "sv")   # a column named


def test_keep_errors_say_what_is_wrong(run):
    """Five dice kept is stopping; a face the roll does not show, or more of
    it than it shows, is named; with dice kept in table mode the new dice
    are asked for."""
    out = run("--lang", "nb", "--dice-from-table", "--no-record",
              input="13566\nbehold 1 3 5 6 6\nbehold 2\nbehold 6 6 6\nbehold 6 6\n"
                    "behold 5 6\n").output
    assert "behold høyst 4 terninger" in out
    assert "2: finnes ikke blant 1 3 5 6 6" in out
    assert "6 6 6: behold bare terninger som ligger på bordet: 1 3 5 6 6" in out
    assert message("already_kept", "nb", kept="6 6", n=3) in out
    assert "1 3 5 6 6: finnes ikke blant 1 3 5 6 6" not in out


def test_toere_3_is_the_column_in_trippel(run):
    out = run("--rules", "triple", "--lang", "nb", "--dice-from-table", "--no-record",
              input="22345\ntoere 3\n22345\ntoere i kolonne 2\n").output
    assert "skriver 4 på toere@3" in out and "skriver 4 på toere@2" in out


@pytest.mark.parametrize("args, line", [
    (("--lang", "nb", "--frobnicate"), "feil: ukjent valg: --frobnicate"),
    (("--lang", "sv", "--hints", "mycket"),
     "fel: --hints 'mycket': välj ett av off, check, top3, full"),
    (("--lang", "nb", "--seed", "-1"), "feil: --seed -1: må være mellom 0 og 2**63-1"),
    (("--lang", "nb", "--seed", "ti"), "feil: --seed 'ti': må være et helt tall"),
    (("--lang", "sv", "--db", "x.sqlite", "--no-record"),
     "fel: --db och --no-record kan inte användas tillsammans"),
    (("--lang", "nb", "--seed"), "feil: valget --seed trenger en verdi"),
    (("--lang", "en", "--hints", "lots"), "error: --hints 'lots': expected one of off, check, "
                                          "top3, full"),
])
def test_option_errors_are_one_line_in_the_users_language(tmp_path, monkeypatch, args, line):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", *args], input="")
    assert result.exit_code == 2 and result.output.strip() == line, result.output


@pytest.mark.parametrize("lang", ["en", "nb", "sv"])
def test_the_trippel_help_lines_give_forms_the_grammar_reads(lang):
    """Every example of Trippel's help (a column named) and of the pad's
    (a column, then the points) is read as that column, and those points."""
    import re

    from yatzy.rules.grammar import parse
    from yatzy.rules.ruleset import parse_rules
    triple = parse_rules("triple")
    text = message("help_columns", lang)
    shown = re.split(r"e\.g\.|f\.eks\.|t\.ex\.", text)[1]
    forms = [f.strip() for f in re.split(r"\s(?:or|eller)\s", shown)]
    assert len(forms) == 2
    assert [parse(f, triple, lang).column for f in forms] == [3, 3]
    pad = re.findall(r"\w+ 3 6|\w+@3 6", message("how_to_type_pad_columns", lang))
    assert len(pad) == 2
    assert {(parse(f, triple, lang).column, parse(f, triple, lang).points) for f in pad} == \
        {(3, 6)}


def test_help_in_trippel_pad_mode_says_the_columns_and_the_pad(run):
    out = run("--rules", "triple", "--lang", "sv", "--pad", "--no-record",
              input="hjälp\n").output
    for key in ("help", "help_columns", "help_pad", "how_to_type_pad_columns"):
        assert message(key, "sv") in out
