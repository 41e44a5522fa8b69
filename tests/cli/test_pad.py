"""Score-pad mode in `yatzy play` (--pad): a family with real dice types
only the points; each line is checked against what the box may take, the
pad's undo and redo take a box back to its turn's start, the game resumes
in pad mode, and a pad game is not rated (it says so).  No table is
needed: nothing here solves one."""

import json

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.cli.coach.pad import struck, values_text
from yatzy.rules.words import message

NB = ["enere 3", "toere 6", "treere 9", "firere 12", "femmere 15", "seksere 18",
      "ett par 12", "to par 18", "tre like 15", "fire like 20", "liten straight 15",
      "stor straight 20", "hus 18", "sjanse 22", "yatzy 50"]


@pytest.fixture
def play(tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))

    def go(*args, input=""):
        result = CliRunner().invoke(main, ["play", "--tables", str(tables_dir),
                                           "--autosave", "g.json", *args], input=input)
        assert "Traceback" not in result.output, result.output
        return result
    return go


def saved(tmp_path) -> dict:
    return json.loads((tmp_path / "g.json").read_text())


def test_a_whole_pad_game_in_norwegian(play, tmp_path):
    strikes = [f"stryk {line.rsplit(' ', 1)[0]}" for line in NB]
    strikes[NB.index("sjanse 22")] = "sjanse 5"            # a chance is never 0
    lines = [x for pair in zip(NB, strikes) for x in pair]
    result = play("--pad", "--lang", "nb", "--player", "Kari", "--player", "Ola",
                  input="\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert out.splitlines()[0] == message("how_to_type_pad", "nb")
    assert "Kari, poeng eller terninger>" in out and "feil" not in out
    assert "Kari skriver 18 på hus" in out and "Ola skriver 0 på yatzy" in out
    assert "1. Kari 303" in out and "2. Ola 5" in out     # 253 + 50 bonus
    assert message("pad_not_rated", "nb") in out
    assert "gjennomgang for" not in out                     # no review of made-up dice
    assert "beste ved dette bordet (Nordisk): Kari 303, Ola 5" in out
    assert "Kari: første spill i historikken, 303" in out
    doc = saved(tmp_path)
    assert doc["settings"]["pad"] and doc["settings"]["scorepad"]
    assert len(doc["moves"]) == 60                          # a roll and a score a turn


@pytest.mark.parametrize("line, said", [
    ("to par 19", "to par kan ikke få 19 (den kan få 0, 6, 8, …, 22)"),
    ("hus", "hus: hvor mange poeng? f.eks. hus 28"),
    ("sjanse 4", "sjanse kan ikke få 4 (den kan få 5, 6, 7, …, 30)"),
    ("enere 6", "enere kan ikke få 6 (den kan få 0, 1, 2, 3, 4, 5)"),
])
def test_only_points_the_box_can_take(play, tmp_path, line, said):
    out = play("--pad", "--lang", "nb", "--player", "Kari", input=line + "\n").output
    assert f"feil: {said}" in out
    assert saved(tmp_path)["moves"] == []                   # the game unchanged


def test_a_filled_box_the_order_and_a_column_are_one_line_each(play, tmp_path):
    out = play("--pad", "--lang", "nb", input="hus 18\nhus 20\n").output
    assert "feil: hus er allerede fylt" in out
    forced = play("--pad", "--lang", "sv", "--rules", "nordic:order=forced",
                  input="kåk 18\nettor 3\n").output
    assert "fel: ordningen säger ettor nu" in forced and "skriver 3 på ettor" in forced
    triple = play("--pad", "--lang", "nb", "--rules", "triple",
                  input="toere 6\ntoere 3 6\ntoere@2 4\nsjanse i kolonne 1 (23)\n").output
    assert "feil: velg kolonne: toere@1..3" in triple or "toere@1..3" in triple
    doc = saved(tmp_path)
    assert doc["moves"][1::2] == ["score twos@3 (6)", "score twos@2 (4)", "score chance@1 (23)"]


def test_undo_takes_a_written_box_back_to_its_turns_start_and_redo_writes_it(play, tmp_path):
    out = play("--pad", "--lang", "en", "--player", "Ann", "--player", "Bob",
               input="full house 18\nundo\nredo\ntwos 6\nundo\n").output
    assert "undone: score full house (18)" in out and "redone: score full house (18)" in out
    assert "undone: score twos (6)" in out
    doc = saved(tmp_path)
    assert doc["moves"][:doc["played"]] == ["roll 2 2 2 6 6", "score full_house (18)"]


def test_a_pad_game_resumes_in_pad_mode_and_dice_may_still_be_typed(play, tmp_path):
    play("--pad", "--lang", "sv", input="kåk 18\n")
    out = play("--resume", "g.json", input="13566\nbehåll 6 6\n466\nsexor\ntvå par 18\n").output
    assert "Spelare, poäng eller tärningar>" in out
    assert "skriver 24 på sexor" in out and "skriver 18 på två par" in out
    assert saved(tmp_path)["settings"]["pad"] is True


def test_points_mid_turn_are_refused_and_table_mode_takes_points_at_a_turns_start(play,
                                                                                 tmp_path):
    out = play("--dice-from-table", "--lang", "en", input="13566\nchance 21\n"
               "chance (21)\nsixes 18\n").output
    assert "chance (21)" in out and "scores 21 in chance" in out
    assert "scores 18 in sixes" in out                       # the next turn, from the pad
    mid = play("--pad", "--lang", "en", input="13566\nkeep 6 6\nfull house 18\n").output
    assert message("pad_not_now", "en") in mid


def test_the_words_of_the_pad():
    assert values_text([0, 6, 8, 10, 12, 14, 16, 18, 20, 22]) == "0, 6, 8, …, 22"
    assert struck("stryk hus") and struck("scratch yatzy") and not struck("hus 0")


def test_a_computers_turn_at_a_pad_takes_the_dice_it_plays_with(play, tmp_path, nordic):
    out = play("--pad", "--lang", "nb", "--player", "Kari", "--player", "Data=optimal",
               input="hus 18\nsjanse 20\n13566\n").output
    assert "Data, skriv terningene>" in out
    assert "feil: Data spiller med terninger: skriv terningene" in out   # no points for it
    doc = saved(tmp_path)
    assert doc["moves"][2] == "roll 1 3 5 6 6" and len(doc["moves"]) > 3


def test_a_game_partly_from_the_pad_reviews_the_turns_played_with_dice(play, tmp_path):
    """Turns typed as dice at the pad prompt are rated; the pad's are named
    as not rated, and the review counts only the dice's decisions."""
    lines = NB[:14] + ["66666", "skriv yatzy"]
    out = play("--pad", "--lang", "nb", "--player", "Kari", "--no-record",
               input="\n".join(lines) + "\n").output
    assert "1. Kari 303" in out
    assert "Kari: 14 turer ført fra blokka er ikke vurdert" in out
    assert "gjennomgang for Kari: tap 0,00, 0,000 per valg (1 valg)" in out
    assert message("pad_not_rated", "nb") not in out


@pytest.mark.parametrize("lang, word, chance, house", [
    ("nb", "poeng", "sjanse", "hus"),
    ("sv", "poäng", "chans", "kåk"),
    ("en", "points", "chance", "full house"),
])
def test_points_at_a_turns_start_lists_each_open_boxs_points_in_80_columns(play, lang, word,
                                                                          chance, house):
    """Piped (80 columns): `poeng` before any dice lists what each open box
    of the player to move can take, under a line naming the player; a
    filled box is not listed."""
    out = play("--pad", "--lang", lang, "--player", "Kari", "--player", "Ola",
               input=f"{word}\n{chance} 20\n{house} 18\n{word}\n").output
    head = message("pad_values", lang, name="Kari") + "\n"
    first, second = (part.split(">")[0] for part in out.split(head)[1:])
    assert f"{chance}: 5, 6, 7, …, 30" in first and f"{house}: 0, 7, 8, …, 28" in first
    assert f"{chance}:" not in second and f"{house}: 0, 7, 8, …, 28" in second
    assert all(len(line) <= 80 for line in f"{first}\n{second}".splitlines())  # packed rows
    assert len(first.splitlines()) < 15                                 # 15 boxes
