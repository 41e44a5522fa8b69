"""Words of the game in English, Norwegian (bokmål) and Swedish: box names
as the source texts print them, the rows of the scorecard ("protokoll") and
the messages of ``yatzy play``.

Box names typed by a player are accepted in any of the languages
(``box_index``): the rules' own names and aliases first, then the names
printed here, so ``tre like`` finds ``three_of_a_kind`` under American rules
too.  Boxes without a translation (Maxi's in Swedish) print their English
name.
"""

from __future__ import annotations

from solver.errors import InputError
from solver.rules.ruleset import Rules

LANGS = ("en", "nb", "sv")

BOXES: dict[str, dict[str, str]] = {
    "nb": {"ones": "enere", "twos": "toere", "threes": "treere", "fours": "firere",
           "fives": "femmere", "sixes": "seksere", "one_pair": "ett par", "two_pairs": "to par",
           "three_of_a_kind": "tre like", "four_of_a_kind": "fire like",
           "small_straight": "liten straight", "large_straight": "stor straight",
           "full_house": "hus", "chance": "sjanse", "yatzy": "yatzy", "yahtzee": "yatzy",
           # Maxi Yatzy (RULES.md §3)
           "three_pairs": "tre par", "five_of_a_kind": "fem like", "full_straight": "full straight",
           "hut": "hytte", "house": "hus", "tower": "tårn", "maxi_yatzy": "maxi yatzy"},
    "sv": {"ones": "ettor", "twos": "tvåor", "threes": "treor", "fours": "fyror",
           "fives": "femmor", "sixes": "sexor", "one_pair": "par", "two_pairs": "två par",
           "three_of_a_kind": "tretal", "four_of_a_kind": "fyrtal",
           "small_straight": "liten stege", "large_straight": "stor stege",
           "full_house": "kåk", "chance": "chans", "yatzy": "yatzy", "yahtzee": "yatzy"},
}

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "sum": "Sum", "bonus": "Bonus", "total": "Total", "yahtzee_bonus": "Yahtzee bonus",
        "bank": "Bank",
        "turn": "{name}'s turn ({n} of {of})",
        "rolled": "{name} rolls {dice}, {left} left",
        "left": "{n} reroll(s)",
        "decide": "{name}> ",
        "dice_prompt": "{name}, type the dice> ",
        "reroll_prompt": "{name}, type the {n} new dice> ",
        "computer": "{name} ({kind}): {action}",
        "scored": "{name} scores {points} in {box}",
        "best": "best choice",
        "cost": "that cost {loss:.2f} points; best was {best}",
        "top3": "three good choices: {choices}",
        "saved": "game saved to {path}",
        "undone": "undone: {move}",
        "redone": "redone: {move}",
        "nothing_undo": "nothing to undo",
        "nothing_redo": "nothing to redo",
        "over": "game over",
        "place": "{place}. {name} {score}",
        "tie": "tie between {names}",
        "winner": "{name} wins",
        "review": "review of {name}: total loss {total:.2f}, mean loss {mean:.3f} "
                  "per decision ({n} decisions)",
        "costly": "  turn {turn} roll {roll}, dice {dice}: {chosen}, best {best} "
                  "(loss {loss:.2f})",
        "expected": "expected final score {ev:.1f}",
        "weighted": "× column",
        "expected_bound": "final score {ev:.1f} if the columns are played one by one "
                          "from here (a lower bound: the strategy scores more)",
        "bound_note": "bound: exact final score if the columns are played one by one after "
                      "this turn (a lower bound); order and loss: the strategy's",
        "help_columns": "score BOX@C (or just BOX@C) writes in column C, e.g. score chance@3",
        "help": "commands: keep 5 6 | 56 | score BOX | BOX | reroll all | hint | card | "
                "undo | redo | save FILE | quit",
    },
    "nb": {
        "sum": "Sum", "bonus": "Bonus", "total": "Totalt", "yahtzee_bonus": "Yatzybonus",
        "bank": "Spart",
        "turn": "{name} sin tur ({n} av {of})",
        "rolled": "{name} kaster {dice}, {left} igjen",
        "left": "{n} kast",
        "decide": "{name}> ",
        "dice_prompt": "{name}, skriv terningene> ",
        "reroll_prompt": "{name}, skriv de {n} nye terningene> ",
        "computer": "{name} ({kind}): {action}",
        "scored": "{name} fører {points} på {box}",
        "best": "beste valg",
        "cost": "det kostet {loss:.2f} poeng; best var {best}",
        "top3": "tre gode valg: {choices}",
        "saved": "spillet er lagret i {path}",
        "undone": "angret: {move}",
        "redone": "gjort igjen: {move}",
        "nothing_undo": "ingenting å angre",
        "nothing_redo": "ingenting å gjøre igjen",
        "over": "spillet er slutt",
        "place": "{place}. {name} {score}",
        "tie": "uavgjort mellom {names}",
        "winner": "{name} vinner",
        "review": "gjennomgang for {name}: tap {total:.2f}, {mean:.3f} per valg ({n} valg)",
        "costly": "  tur {turn} kast {roll}, terninger {dice}: {chosen}, best {best} "
                  "(tap {loss:.2f})",
        "expected": "forventet sluttsum {ev:.1f}",
        "weighted": "× kolonne",
        "expected_bound": "sluttsum {ev:.1f} om kolonnene spilles én etter én herfra "
                          "(en nedre grense: strategien får mer)",
        "bound_note": "grense: eksakt sluttsum om kolonnene spilles én etter én etter "
                      "denne runden (en nedre grense); rekkefølge og tap: strategiens",
        "help_columns": "score BOKS@K (eller bare BOKS@K) skriver i kolonne K, f.eks. score sjanse@3",
        "help": "kommandoer: keep 5 6 | 56 | score BOKS | BOKS | reroll all | hint | card | "
                "undo | redo | save FIL | quit",
    },
    "sv": {
        "sum": "Summa", "bonus": "Bonus", "total": "Totalt", "yahtzee_bonus": "Yatzybonus",
        "bank": "Sparade",
        "turn": "{name}s tur ({n} av {of})",
        "rolled": "{name} slår {dice}, {left} kvar",
        "left": "{n} slag",
        "decide": "{name}> ",
        "dice_prompt": "{name}, skriv tärningarna> ",
        "reroll_prompt": "{name}, skriv de {n} nya tärningarna> ",
        "computer": "{name} ({kind}): {action}",
        "scored": "{name} skriver {points} på {box}",
        "best": "bästa valet",
        "cost": "det kostade {loss:.2f} poäng; bäst var {best}",
        "top3": "tre bra val: {choices}",
        "saved": "spelet sparat i {path}",
        "undone": "ångrat: {move}",
        "redone": "gjort om: {move}",
        "nothing_undo": "inget att ångra",
        "nothing_redo": "inget att göra om",
        "over": "spelet är slut",
        "place": "{place}. {name} {score}",
        "tie": "oavgjort mellan {names}",
        "winner": "{name} vinner",
        "review": "genomgång för {name}: förlust {total:.2f}, {mean:.3f} per val ({n} val)",
        "costly": "  tur {turn} slag {roll}, tärningar {dice}: {chosen}, bäst {best} "
                  "(förlust {loss:.2f})",
        "expected": "förväntad slutsumma {ev:.1f}",
        "weighted": "× kolumn",
        "expected_bound": "slutsumma {ev:.1f} om kolumnerna spelas en i taget härifrån "
                          "(en nedre gräns: strategin får mer)",
        "bound_note": "gräns: exakt slutsumma om kolumnerna spelas en i taget efter "
                      "denna runda (en nedre gräns); ordning och förlust: strategins",
        "help_columns": "score RUTA@K (eller bara RUTA@K) skriver i kolumn K, t.ex. score chans@3",
        "help": "kommandon: keep 5 6 | 56 | score RUTA | RUTA | reroll all | hint | card | "
                "undo | redo | save FIL | quit",
    },
}


def box_name(name: str, lang: str = "en") -> str:
    """The printed name of the box called ``name`` (its English name) in ``lang``."""
    return BOXES.get(lang, {}).get(name, name.replace("_", " "))


def message(key: str, lang: str = "en", **kw) -> str:
    return MESSAGES[lang][key].format(**kw)


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def box_index(rules: Rules, name: str) -> int:
    """Index of the box called ``name`` in any language: the rules' names
    and aliases, else a printed name of ``BOXES``."""
    try:
        return rules.box_index(name)
    except InputError as e:
        error = e
    key = _key(name)
    for words in BOXES.values():
        for english, local in words.items():
            if _key(local) == key:
                try:
                    return rules.box_index(english)
                except InputError:
                    pass
    raise error
