"""The grammar of what a player types (yatzy.rules.grammar): every
phrasing people use at the table in en/nb/sv read to the one command it
means, words that fit several boxes or commands refused with the
candidates, odd digits refused in one line, errors that repeat what was
typed, the canonical text round-tripping, and Game.play reading the same."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yatzy.errors import InputError
from yatzy.game import Game, GameError
from yatzy.rules.grammar import BOX_WORDS, LANGS, MESSAGES, VERBS, GrammarError, Typed, parse
from yatzy.rules.ruleset import PRESETS, parse_rules
from yatzy.rules.words import BOXES

NORDIC = parse_rules("nordic")
TRIPLE = parse_rules("triple")
MAXI = parse_rules("maxi")
YAHTZEE = parse_rules("yahtzee")
ROLL = (1, 5, 5, 6, 6)             # the dice on the table where a line needs them

# (language, rules, typed, the canonical command); dice ROLL on the table
PHRASINGS = [
    # keep
    ("en", NORDIC, "keep 5 6", "keep 5 6"), ("en", NORDIC, "hold 5 5", "keep 5 5"),
    ("en", NORDIC, "56", "keep 5 6"), ("en", NORDIC, "5,6", "keep 5 6"),
    ("en", NORDIC, "keep sixes", "keep 6 6"), ("en", NORDIC, "keep the fives", "keep 5 5"),
    ("en", NORDIC, "keep 1 and sixes", "keep 1 6 6"),
    ("nb", NORDIC, "behold 5 5", "keep 5 5"), ("nb", NORDIC, "behold seksene", "keep 6 6"),
    ("nb", NORDIC, "behold sekserne", "keep 6 6"),
    ("nb", NORDIC, "behold femmere og seksere", "keep 5 5 6 6"),
    ("nb", NORDIC, "Behold 5 6", "keep 5 6"), ("nb", NORDIC, "hold 6", "keep 6"),
    ("sv", NORDIC, "behåll 6 6", "keep 6 6"), ("sv", NORDIC, "spara 6 6", "keep 6 6"),
    ("sv", NORDIC, "spara sexorna", "keep 6 6"), ("sv", NORDIC, "håll 5", "keep 5"),
    ("sv", NORDIC, "behåll femmor och sexor", "keep 5 5 6 6"),
    # reroll all
    ("en", NORDIC, "reroll all", "reroll all"), ("en", NORDIC, "reroll", "reroll all"),
    ("en", NORDIC, "keep none", "reroll all"), ("en", NORDIC, "roll all", "reroll all"),
    ("nb", NORDIC, "kast alle", "reroll all"), ("nb", NORDIC, "kast om alle", "reroll all"),
    ("nb", NORDIC, "slå om alle", "reroll all"), ("nb", NORDIC, "kast alle på nytt", "reroll all"),
    ("nb", NORDIC, "kast om", "reroll all"),
    ("sv", NORDIC, "kasta om alla", "reroll all"), ("sv", NORDIC, "slå om alla", "reroll all"),
    ("sv", NORDIC, "slå om", "reroll all"), ("sv", NORDIC, "slå alla", "reroll all"),
    # roll (table mode types the dice; a bare roll is drawn)
    ("en", NORDIC, "roll 1 3 5", "roll 1 3 5"), ("en", NORDIC, "roll", "roll"),
    ("nb", NORDIC, "kast 1 3 5", "roll 1 3 5"), ("sv", NORDIC, "slå 135", "roll 1 3 5"),
    ("sv", NORDIC, "kasta 1,3,5", "roll 1 3 5"),
    # score, by every common name
    ("en", NORDIC, "score chance", "score chance"), ("en", NORDIC, "write chance", "score chance"),
    ("en", NORDIC, "chance", "score chance"), ("en", NORDIC, "full house", "score full_house"),
    ("en", NORDIC, "score full_house (28)", "score full_house (28)"),
    ("en", NORDIC, "chance (23)", "score chance (23)"),
    ("en", NORDIC, "score chance 23", "score chance (23)"),
    ("en", NORDIC, "3 of a kind", "score three_of_a_kind"),
    ("en", NORDIC, "2 pairs", "score two_pairs"), ("en", NORDIC, "pair", "score one_pair"),
    ("en", NORDIC, "ch", "score chance"), ("en", NORDIC, "sm", "score small_straight"),
    ("nb", NORDIC, "skriv hus", "score full_house"), ("nb", NORDIC, "før sjanse", "score chance"),
    ("nb", NORDIC, "sett sjanse", "score chance"),
    ("nb", NORDIC, "fullt hus", "score full_house"), ("nb", NORDIC, "hus", "score full_house"),
    ("nb", NORDIC, "3 like", "score three_of_a_kind"),
    ("nb", NORDIC, "tre like", "score three_of_a_kind"),
    ("nb", NORDIC, "triss", "score three_of_a_kind"),
    ("nb", NORDIC, "fire like", "score four_of_a_kind"),
    ("nb", NORDIC, "4 like", "score four_of_a_kind"),
    ("nb", NORDIC, "2 par", "score two_pairs"), ("nb", NORDIC, "to par", "score two_pairs"),
    ("nb", NORDIC, "ett par", "score one_pair"), ("nb", NORDIC, "par", "score one_pair"),
    ("nb", NORDIC, "liten straight", "score small_straight"),
    ("nb", NORDIC, "stor straight", "score large_straight"),
    ("nb", NORDIC, "liten", "score small_straight"), ("nb", NORDIC, "stor", "score large_straight"),
    ("nb", NORDIC, "seksere", "score sixes"), ("nb", NORDIC, "toarar", "score twos"),
    ("nb", NORDIC, "sjanse", "score chance"), ("nb", NORDIC, "ch", "score chance"),
    ("sv", NORDIC, "kåk", "score full_house"), ("sv", NORDIC, "skriv kåk", "score full_house"),
    ("sv", NORDIC, "sätt chans", "score chance"),
    ("sv", NORDIC, "triss", "score three_of_a_kind"),
    ("sv", NORDIC, "tretal", "score three_of_a_kind"),
    ("sv", NORDIC, "tre lika", "score three_of_a_kind"),
    ("sv", NORDIC, "fyra lika", "score four_of_a_kind"),
    ("sv", NORDIC, "fyrtal", "score four_of_a_kind"),
    ("sv", NORDIC, "två par", "score two_pairs"), ("sv", NORDIC, "2 par", "score two_pairs"),
    ("sv", NORDIC, "liten stege", "score small_straight"),
    ("sv", NORDIC, "stor stege", "score large_straight"),
    ("sv", NORDIC, "liten straight", "score small_straight"),
    ("sv", NORDIC, "sexor", "score sixes"), ("sv", NORDIC, "chans", "score chance"),
    # a box named in another language than the one played
    ("sv", NORDIC, "hus", "score full_house"), ("nb", NORDIC, "kåk", "score full_house"),
    ("en", NORDIC, "tre like", "score three_of_a_kind"),
    # strike: write 0
    ("nb", NORDIC, "stryk yatzy", "score yatzy (0)"), ("sv", NORDIC, "stryk yatzy", "score yatzy (0)"),
    ("sv", NORDIC, "stryka yatzy", "score yatzy (0)"),
    ("en", NORDIC, "strike yatzy", "score yatzy (0)"),
    ("en", NORDIC, "cross out yatzy", "score yatzy (0)"),
    ("en", NORDIC, "scratch ones", "score ones (0)"),
    # columns
    ("en", TRIPLE, "chance@3", "score chance@3"), ("en", TRIPLE, "chance @ 3", "score chance@3"),
    ("en", TRIPLE, "chance x3", "score chance@3"), ("en", TRIPLE, "chance×2", "score chance@2"),
    ("en", TRIPLE, "score chance in column 2", "score chance@2"),
    ("en", TRIPLE, "score chance@3 (23)", "score chance@3 (23)"),
    ("nb", TRIPLE, "toere i kolonne 3", "score twos@3"),
    ("nb", TRIPLE, "toere 3", "score twos@3"), ("nb", TRIPLE, "skriv toere 2", "score twos@2"),
    ("sv", TRIPLE, "tvåor 3", "score twos@3"), ("en", TRIPLE, "chance 23", "score chance (23)"),
    ("nb", NORDIC, "poeng", "points"), ("sv", NORDIC, "poäng", "points"),
    ("nb", TRIPLE, "før hus i kolonne 1", "score full_house@1"),
    ("nb", TRIPLE, "stryk yatzy x2", "score yatzy@2 (0)"),
    ("sv", TRIPLE, "tvåor i kolumn 2", "score twos@2"),
    ("sv", TRIPLE, "skriv kåk @1", "score full_house@1"),
    ("en", NORDIC, "chance@1", "score chance"),
    # other rules' boxes
    ("nb", MAXI, "hus", "score house"), ("nb", MAXI, "hytte", "score hut"),
    ("nb", MAXI, "tårn", "score tower"), ("sv", MAXI, "kåk", "score hut"),
    ("nb", MAXI, "tre par", "score three_pairs"), ("nb", MAXI, "yatzy", "score maxi_yatzy"),
    ("sv", YAHTZEE, "yatzy", "score yahtzee"), ("en", YAHTZEE, "3k", "score three_of_a_kind"),
    # session commands
    ("en", NORDIC, "help", "help"), ("en", NORDIC, "?", "help"), ("nb", NORDIC, "hjelp", "help"),
    ("sv", NORDIC, "hjälp", "help"), ("nb", NORDIC, "kort", "card"),
    ("sv", NORDIC, "protokoll", "card"), ("sv", NORDIC, "status", "status"),
    ("en", NORDIC, "hint", "hint"), ("nb", NORDIC, "tips", "hint"),
    ("nb", NORDIC, "tips før sjanse", "hint score chance"),
    ("sv", NORDIC, "tips skriv chans", "hint score chance"),
    ("en", NORDIC, "why keep 5 5", "hint keep 5 5"), ("nb", NORDIC, "hvorfor 56", "hint keep 5 6"),
    ("sv", NORDIC, "varför behåll sexorna", "hint keep 6 6"),
    ("en", NORDIC, "undo", "undo"), ("en", NORDIC, "undo 3", "undo 3"),
    ("nb", NORDIC, "angre 2", "undo 2"), ("sv", NORDIC, "ångra", "undo"),
    ("en", NORDIC, "redo", "redo"), ("nb", NORDIC, "omgjør", "redo"),
    ("nb", NORDIC, "gjør om", "redo"), ("sv", NORDIC, "gör om", "redo"),
    ("en", NORDIC, "save g.json", "save g.json"), ("nb", NORDIC, "lagre Kveld.json", "save Kveld.json"),
    ("sv", NORDIC, "spara spelet kväll.json", "save kväll.json"),
    ("sv", NORDIC, "spara som a b.json", "save a b.json"), ("sv", NORDIC, "lagra x", "save x"),
    ("en", NORDIC, "quit", "quit"), ("en", NORDIC, "exit", "quit"),
    ("nb", NORDIC, "avslutt", "quit"), ("sv", NORDIC, "avsluta", "quit"),
    ("en", NORDIC, "skip", "skip"), ("nb", NORDIC, "hopp over", "skip"),
    ("sv", NORDIC, "hoppa över", "skip"),
]


@pytest.mark.parametrize("lang, rules, line, text", PHRASINGS)
def test_every_phrasing_reads_as_its_command_and_round_trips(lang, rules, line, text):
    typed = parse(line, rules, lang, dice=ROLL)
    assert typed.text == text
    for reader in (lang, None, "en"):          # the canonical text: in every language
        assert parse(typed.text, rules, reader, dice=ROLL) == typed
    if typed.is_move:                          # Game.play reads every language's words
        assert parse(line, rules, dice=ROLL, commands=False) == typed


@pytest.mark.parametrize("line, text", [("11256", "roll 1 1 2 5 6"), ("1 3 5", "roll 1 3 5"),
                                        ("roll 11256", "roll 1 1 2 5 6")])
def test_dice_alone_are_a_roll_when_one_is_due_else_a_keep(line, text):
    assert parse(line, NORDIC, "en", roll_due=True).text == text
    if len(text.split()) < 6 and not line.startswith("roll"):
        assert parse(line, NORDIC, "en", dice=(1, 1, 2, 3, 5, 6)[:5]).kind == "keep"


def test_spara_with_dice_keeps_them_and_never_saves():
    assert parse("spara 6 6", NORDIC, "sv", dice=ROLL) == Typed("keep", (6, 6))
    assert parse("spara 66", NORDIC, "sv", dice=ROLL) == Typed("keep", (6, 6))
    for line in ("spara g.json", "spara", "spara 6 6 nu"):
        with pytest.raises(GrammarError) as e:
            parse(line, NORDIC, "sv", dice=ROLL)
        assert e.value.kind in ("keep_or_save", "bad_dice") and "spara spelet" in str(e.value)
    for line, lang in (("save 6 6", "en"), ("lagre 6 6", "nb"), ("spara spelet 6 6", "sv")):
        with pytest.raises(GrammarError) as e:
            parse(line, NORDIC, lang)
        assert e.value.kind == "save_dice"


@pytest.mark.parametrize("lang, rules, line, candidates", [
    ("en", NORDIC, "s", ["sixes", "small straight", "score", "save", "status"]),
    ("en", NORDIC, "t", ["twos", "threes", "two pairs", "three of a kind"]),
    ("en", NORDIC, "three", ["threes", "three of a kind"]),
    ("en", NORDIC, "straight", ["small straight", "large straight"]),
    ("nb", NORDIC, "tre", ["treere", "tre like"]),
    ("nb", NORDIC, "fire", ["firere", "fire like"]),
    ("nb", NORDIC, "like", ["tre like", "fire like"]),
    ("nb", NORDIC, "st", ["stor straight", "status", "stryk"]),
    ("nb", NORDIC, "før t", ["toere", "treere", "to par", "tre like"]),
    ("sv", NORDIC, "stege", ["liten stege", "stor stege"]),
    ("sv", NORDIC, "s", ["sexor", "skriv", "spara", "status", "stryk"]),
    ("sv", NORDIC, "f", ["fyror", "femmor", "fyrtal"]),
    ("nb", MAXI, "like", ["tre like", "fire like", "fem like"]),
])
def test_a_word_that_fits_several_is_refused_with_the_candidates(lang, rules, line, candidates):
    with pytest.raises(GrammarError) as e:
        parse(line, rules, lang, dice=ROLL)
    assert e.value.kind == "ambiguous", str(e.value)
    text = str(e.value)
    assert text.startswith(f"'{line.split()[-1] if line.startswith('før') else line}' ")
    shown = text.split(": ", 1)[1].split(", ")
    assert all(c in shown for c in candidates), text
    assert "\n" not in text


@pytest.mark.parametrize("rules, line", [(MAXI, "full house"), (MAXI, "full"),
                                         (YAHTZEE, "par"), (YAHTZEE, "to par"),
                                         (NORDIC, "hytte"), (NORDIC, "tårn")])
def test_a_box_these_rules_lack_is_refused_not_matched_to_another(rules, line):
    with pytest.raises(GrammarError) as e:
        parse(line, rules, "nb", dice=ROLL)
    assert e.value.kind == "unknown_box"


@pytest.mark.parametrize("line", ["chance@²", "score chance@³", "keep ５ ６", "٥", "١١٢٥٦",
                                  "undo ²", "behold ½", "1 1 2 5 ⁶"])
@pytest.mark.parametrize("lang", LANGS)
def test_other_digits_are_refused_in_one_line(line, lang):
    with pytest.raises(GrammarError) as e:
        parse(line, TRIPLE, lang, dice=ROLL, roll_due="1 1" in line)
    assert e.value.kind == "digits" and "\n" not in str(e.value)
    assert str(e.value) == MESSAGES[lang]["digits"].format(text=line)


@pytest.mark.parametrize("line", ["\x1b[A", "keep\t5", "chance\x00"])
def test_control_keys_are_refused(line):
    with pytest.raises(GrammarError, match="control"):
        parse(line, NORDIC, "en", dice=ROLL)


@pytest.mark.parametrize("lang, line, said, english", [
    ("nb", "før nonsens", "ukjent boks 'nonsens'", "score"),
    ("nb", "frobnicate", "ukjent kommando 'frobnicate'", "unknown"),
    ("nb", "avslutt nå", "'avslutt' tar ingen flere ord", "quit"),
    ("sv", "avsluta nu", "'avsluta' tar inga fler ord", "quit"),
    ("nb", "behold", "behold hvilke terninger", "keep"),
    ("sv", "behåll alla", "behåll högst 4", "keep"),
    ("nb", "behold seksere og enere", "", "keep"),
    ("sv", "behåll ettor", "inga ettor bland 2 5 5 6 6", "keep"),
    ("nb", "behold enere", "ingen enere blant 2 5 5 6 6", "keep"),
    ("nb", "angre 0", "angre N", "undo"),
    ("sv", "kast alla 5", "", "reroll"),
    ("nb", "kast om alle 5 6", "'kast om alle' tar ingen terninger", "reroll"),
    ("nb", "kast 1 3 7", "'1 3 7': 7 er ikke en side", "roll"),
    ("sv", "skriv", "'skriv' vilken ruta", "score"),
])
def test_errors_name_what_was_typed_in_the_players_language(lang, line, said, english):
    dice = (2, 5, 5, 6, 6) if "enere" in line or "ettor" in line else (1, 5, 5, 6, 6)
    try:
        typed = parse(line, TRIPLE if "kolonne" in line else NORDIC, lang, dice=dice)
    except GrammarError as e:
        assert said in str(e) and english not in str(e).split(), str(e)
        assert "\n" not in str(e)
        return
    assert not said, typed                     # a line that reads: no error expected


def test_every_message_is_in_every_language_with_the_same_fields():
    import string
    keys = set(MESSAGES["en"])
    for lang in LANGS:
        assert set(MESSAGES[lang]) == keys
        for key in keys:
            fields = {f for _, f, _, _ in string.Formatter().parse(MESSAGES[lang][key]) if f}
            en = {f for _, f, _, _ in string.Formatter().parse(MESSAGES["en"][key]) if f}
            assert fields == en, (lang, key)


@pytest.mark.parametrize("spec", sorted(PRESETS))
def test_no_name_means_two_boxes_of_one_rule_set(spec):
    rules = parse_rules(spec)
    names = {b.name for b in rules.boxes}
    for lang in LANGS:
        for name in names:
            words = [*BOX_WORDS[lang].get(name, ()), BOXES.get(lang, {}).get(name, name)]
            for word in words:
                assert parse(word, rules, lang).box == name, (lang, word)


def test_session_words_are_not_move_words():
    """No phrase means a move in one language and a command in another."""
    meanings: dict[str, set[str]] = {}
    for lang in LANGS:
        for phrase, meaning in VERBS[lang].items():
            meanings.setdefault(phrase, set()).add(meaning)
    assert {p: m for p, m in meanings.items() if len(m) > 1} == {}


COLUMN_FORMS = ["{box}@{c}", "{box} @{c}", "{box} x{c}", "{box} x {c}", "{box} i kolonne {c}",
                "{box} in column {c}", "{box} i kolumn {c}", "{box} kolonne {c}",
                "{verb} {box}@{c}", "{verb} {box} i kolonne {c}"]
VERB = {"en": ("score", "write"), "nb": ("før", "skriv", "sett"), "sv": ("skriv", "sätt")}


@st.composite
def named_boxes(draw):
    spec = draw(st.sampled_from(sorted(PRESETS)))
    rules = parse_rules(spec)
    lang = draw(st.sampled_from(LANGS))
    box = draw(st.sampled_from([b.name for b in rules.boxes]))
    names = [*BOX_WORDS[lang].get(box, ()), BOXES.get(lang, {}).get(box, box.replace("_", " ")),
             box, *(a.replace("_", " ") for a in rules.box(box).aliases)]
    name = draw(st.sampled_from(names))
    name = draw(st.sampled_from([name, name.upper(), name.title(), f"  {name} "]))
    column = draw(st.integers(1, rules.columns))
    form = draw(st.sampled_from(COLUMN_FORMS if rules.columns > 1 or column == 1 else [""]))
    verb = draw(st.sampled_from(VERB[lang]))
    line = form.format(box=name, c=column, verb=verb) if form else name
    return rules, lang, box, column, line


@settings(max_examples=400, deadline=None)
@given(named_boxes(), st.booleans())
def test_any_box_of_any_rules_in_any_language_and_column_form_parses_back(case, every):
    rules, lang, box, column, line = case
    typed = parse(line, rules, None if every else lang, dice=ROLL)
    assert typed.kind == "score" and typed.box == box
    assert typed.column == (column if rules.columns > 1 else 0)
    assert parse(typed.text, rules, dice=ROLL) == typed


def test_game_play_reads_the_same_phrasings():
    game = Game("nordic", ["Ann"], seed=1)
    game.play("11256")                                     # dice alone: a roll
    assert game.play("behold 5 6").text == "keep 5 6"
    game.play("kast 5 6 6")
    assert game.dice == (5, 5, 6, 6, 6)
    assert game.play("spara sexorna").text == "keep 6 6 6"
    game.play("roll 5 5")
    assert game.play("kåk").text == "score full_house (28)"
    game.play("roll 12345")
    with pytest.raises(InputError, match="takes 15 points, not 0|scores 15 in small_straight"):
        game.play("stryk liten straight")                 # the dice fit: a strike is refused
    assert game.play("stryk yatzy").text == "score yatzy (0)"
    game.play("roll 11111")
    with pytest.raises(GameError, match="could be") as e:
        game.play("t")
    assert e.value.kind == "bad_move" and e.value.__cause__.kind == "ambiguous"
    with pytest.raises(GameError, match="not a move") as e:
        game.play("lagre g.json")                          # a session command is not a move
    assert e.value.__cause__.say("nb") == "ikke et trekk: 'lagre g.json' (skriv f.eks. " \
                                          "'behold 5 6', 'kast alle' eller 'skriv BOKS')"
    triple = Game("triple", ["Ann"], seed=1)
    triple.play("roll 22345")
    assert triple.play("toere i kolonne 3").text == "score twos@3 (4)"
