"""What a player types, in English, Norwegian (bokmål) and Swedish: one
line read into one command (``Typed``), the same for the coach, the
trainer, the page and ``Game.play``.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> nordic = parse_rules("nordic")
    >>> parse("spara 6 6", nordic, "sv").text           # keeps two sixes, saves nothing
    'keep 6 6'
    >>> parse("behold seksene", nordic, "nb", dice=(1, 6, 6, 3, 6)).text
    'keep 6 6 6'
    >>> parse("kåk", nordic, "sv").text, parse("3 like", nordic, "nb").text
    ('score full_house', 'score three_of_a_kind')
    >>> parse("stryk yatzy", nordic, "nb").text          # a strike writes 0
    'score yatzy (0)'
    >>> parse("toere i kolonne 3", parse_rules("triple"), "nb").text
    'score twos@3'
    >>> parse("toere 3", parse_rules("triple"), "nb").text, parse("sjanse 23", nordic, "nb").text
    ('score twos@3', 'score chance (23)')
    >>> [parse(t, parse_rules("triple"), "nb").text for t in ("toere 3 2", "toere@3 2")]
    ['score twos@3 (2)', 'score twos@3 (2)']
    >>> parse("spara spelet kväll.json", nordic, "sv").text
    'save kväll.json'
    >>> parse("t", nordic, "en")
    Traceback (most recent call last):
    ...
    yatzy.rules.grammar.GrammarError: 't' could be: twos, threes, two pairs, three of a kind

The forms (every language's words are listed in ``VERBS`` and ``BOX_WORDS``):

* dice alone (``56``, ``5 6``, ``5,6``): the dice of a roll when one is due
  (``roll_due``, table mode), else the dice kept.
* keep: ``keep 5 6``, ``hold``, ``behold 5 5``, ``behåll``, ``spara 6 6``;
  the dice may be named by their face, all of them that the roll shows
  (``keep sixes``, ``behold seksene``, ``behåll femmor och sexor``);
  ``keep none`` rerolls all.  Swedish ``spara`` followed by dice keeps
  them; saving the game is ``spara spelet FIL``, ``spara som FIL`` or
  ``lagra FIL`` (``spara FIL`` is refused, never read as a file name).
* reroll all: ``reroll all``, ``reroll``, ``kast alle``, ``kast om alle``,
  ``slå om alle``, ``slå om alla``, ``kasta om alla`` ...
* roll: ``roll`` (drawn) or ``roll 1 3 5`` (table mode), ``kast``, ``slå``,
  ``kasta``.
* score: ``score BOX``, ``write``, ``skriv``, ``før``, ``sett``, ``sätt``,
  or the box alone; a column as ``@3``, ``x3``, ``in column 3``, ``i
  kolonne 3``, ``i kolumn 3``; points may be said, ``chance (23)``, ``chance
  23``; with several columns a number alone after the box is its column
  (``toere 3``), and two are the column, then the points (``toere 3 6``,
  like ``toere@3 6`` and ``toere i kolonne 3 (6)``: a score pad's line).
* strike: ``strike BOX``, ``cross out``, ``scratch``, ``stryk``, ``stryka``:
  the box is written with 0 points, the text ``score BOX (0)``.  Decision:
  a strike is refused (``Game``'s "takes N points, not 0") where the dice
  would score more in that box, since the rules give a box what its dice
  score; a strike is for a box the dice do not fit.
* session commands, whole words only: ``help``/``?``/``hjelp``/``hjälp``,
  ``card``/``kort``/``protokoll``, ``status``, ``hint [MOVE]``/``tips``
  (``why``, ``hvorfor``, ``varför`` the same), ``points``/``poeng``/
  ``poäng`` (what each open box takes for the dice), ``undo [N]``/``angre``/
  ``ångra``, ``redo``/``omgjør``/``gjør om``/``gör om``, ``save FILE``/
  ``lagre``/``spara spelet``, ``quit``/``exit``/``avslutt``/``avsluta``,
  ``skip``/``hopp over``/``hoppa över`` (the trainer's).

A box is named by any of its names in any language (its rules' name and
aliases, its printed names, the common names of ``BOX_WORDS``); in the
player's language also by the start of a name (``ch``, ``liten s``) or a
whole later word of one (``stege``), when only one box fits.  A word that
fits several boxes or commands is refused with the candidates; a name of a
box these rules do not have is refused, never matched to another box.
Digits other than 0-9 (``٥``, ``²``) and control keys are refused in one
line.  Errors are ``GrammarError``: an ``InputError`` in the player's
language naming what was typed as typed.

``lang`` None reads every language's words (``Game.play``, the page);
``en``, ``nb`` or ``sv`` read that language's and English, the start of a
name only in that language.  ``Typed.text`` is the canonical English form
that ``Game.play`` accepts, and parses back to the same command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from yatzy.bounds import check_text
from yatzy.errors import InputError
from yatzy.rules.ruleset import Rules
from yatzy.rules.words import BOXES, box_name

LANGS = ("en", "nb", "sv")

# Words that start a line, per language: the phrase and what it means.
# ``keep_or_save`` (Swedish ``spara``) keeps the dice that follow it.
VERBS: dict[str, dict[str, str]] = {
    "en": {"keep": "keep", "hold": "keep", "keep none": "reroll", "reroll all": "reroll",
           "reroll": "reroll", "roll all": "reroll", "roll": "roll", "score": "score",
           "write": "score", "strike": "strike", "cross out": "strike", "scratch": "strike",
           "help": "help", "?": "help", "card": "card", "status": "status", "hint": "hint",
           "why": "hint", "points": "points", "undo": "undo", "redo": "redo", "save": "save",
           "quit": "quit", "exit": "quit", "skip": "skip"},
    "nb": {"behold": "keep", "hold": "keep", "behold ingen": "reroll", "kast alle": "reroll",
           "kast om alle": "reroll", "kast alle på nytt": "reroll", "kast om": "reroll",
           "kast på nytt": "reroll", "slå om alle": "reroll", "slå om": "reroll",
           "kast": "roll", "slå": "roll", "før": "score", "skriv": "score", "sett": "score",
           "stryk": "strike", "hjelp": "help", "kort": "card", "status": "status",
           "tips": "hint", "hvorfor": "hint", "poeng": "points", "angre": "undo",
           "omgjør": "redo", "gjør om": "redo", "lagre": "save", "avslutt": "quit",
           "hopp over": "skip"},
    "sv": {"behåll": "keep", "håll": "keep", "spara": "keep_or_save", "behåll inga": "reroll",
           "spara inga": "reroll", "slå om alla": "reroll", "slå om": "reroll",
           "kasta om alla": "reroll", "kasta om": "reroll", "slå": "roll", "kasta": "roll",
           "skriv": "score", "sätt": "score", "stryk": "strike", "stryka": "strike",
           "hjälp": "help", "protokoll": "card", "status": "status", "tips": "hint",
           "varför": "hint", "poäng": "points", "ångra": "undo", "gör om": "redo",
           "spara spelet": "save", "spara som": "save", "lagra": "save", "avsluta": "quit",
           "hoppa över": "skip"},
}
COMMANDS = ("help", "card", "status", "hint", "points", "undo", "redo", "save", "quit", "skip")
MOVES = ("roll", "keep", "score")
ALL_WORDS = {"en": ("all",), "nb": ("alle",), "sv": ("alla",)}       # keep all: stopping
AND_WORDS = ("and", "og", "och", "&")                                # keep 5 and sixes

# The common names of each box (by its English name) besides its rules'
# names and aliases and words.BOXES' printed names: the source texts'
# names (bokmål, nynorsk, Swedish), numbers for words, the definite forms
# (``behold seksene``) and the abbreviations people write.
BOX_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "ones": ("aces", "1s"), "twos": ("2s",), "threes": ("3s",), "fours": ("4s",),
        "fives": ("5s",), "sixes": ("6s",),
        "one_pair": ("pair", "1 pair", "a pair"),
        "two_pairs": ("two pair", "2 pairs", "2 pair"),
        "three_pairs": ("three pair", "3 pairs", "3 pair"),
        "three_of_a_kind": ("3 of a kind", "three alike", "3 alike", "3k", "trips"),
        "four_of_a_kind": ("4 of a kind", "four alike", "4 alike", "4k"),
        "five_of_a_kind": ("5 of a kind", "five alike", "5 alike"),
        "small_straight": ("sm straight", "ss", "small"),
        "large_straight": ("lg straight", "big straight", "ls", "large"),
        "full_straight": ("full straight",),
        "full_house": ("full house", "house", "fh", "full"),
        "chance": ("chance",), "yatzy": ("yatzy", "yahtzee"), "yahtzee": ("yahtzee", "yatzy"),
    },
    "nb": {
        "ones": ("enere", "enerne", "enene", "1ere", "einarar"),
        "twos": ("toere", "toerne", "toene", "2ere", "toarar"),
        "threes": ("treere", "treerne", "treene", "3ere", "trearar"),
        "fours": ("firere", "firerne", "firene", "4ere", "firarar"),
        "fives": ("femmere", "femmerne", "femmene", "femene", "5ere", "femmarar"),
        "sixes": ("seksere", "sekserne", "seksene", "6ere", "seksarar"),
        "one_pair": ("ett par", "eitt par", "1 par", "par"),
        "two_pairs": ("to par", "2 par"),
        "three_pairs": ("tre par", "3 par"),
        "three_of_a_kind": ("tre like", "3 like", "triss"),
        "four_of_a_kind": ("fire like", "4 like"),
        "five_of_a_kind": ("fem like", "5 like"),
        "small_straight": ("liten straight", "liten stright", "liten"),
        "large_straight": ("stor straight", "stor stright", "stor"),
        "full_straight": ("full straight", "hel straight"),
        "full_house": ("hus", "fullt hus", "full house"),
        "hut": ("hytte",), "house": ("hus",), "tower": ("tårn",),
        "chance": ("sjanse", "sjansen"), "yatzy": ("yatzy",), "yahtzee": ("yatzy",),
        "maxi_yatzy": ("maxi yatzy", "yatzy"),
    },
    "sv": {
        "ones": ("ettor", "ettorna", "1:or"), "twos": ("tvåor", "tvåorna", "2:or"),
        "threes": ("treor", "treorna", "3:or"), "fours": ("fyror", "fyrorna", "4:or"),
        "fives": ("femmor", "femmorna", "5:or"), "sixes": ("sexor", "sexorna", "6:or"),
        "one_pair": ("par", "ett par", "1 par"),
        "two_pairs": ("två par", "2 par"),
        "three_pairs": ("tre par", "3 par"),
        "three_of_a_kind": ("tretal", "tre lika", "3 lika", "triss"),
        "four_of_a_kind": ("fyrtal", "fyra lika", "4 lika"),
        "five_of_a_kind": ("femtal", "fem lika", "5 lika"),
        "small_straight": ("liten stege", "liten straight", "liten"),
        "large_straight": ("stor stege", "stor straight", "stor"),
        "full_straight": ("full stege", "hel stege"),
        "full_house": ("kåk", "full house", "fullt hus"),
        "hut": ("kåk",),                  # a kåk is three + two (the Swedish source)
        "house": ("hus",), "tower": ("torn",),
        "chance": ("chans", "chansen"), "yatzy": ("yatzy",), "yahtzee": ("yatzy",),
        "maxi_yatzy": ("maxi yatzy", "yatzy"),
    },
}

# A column after the box: "@3", "x3", "in column 3", "i kolonne 3", "i kolumn 3"
_COLUMN = re.compile(r"(?:\s*[@×]\s*(\S*)|\s+x\s*(\d\S*)|\s+(?:(?:in|i)\s+)?"
                     r"(?:column|col|kolonne|kolonnen|kol|kolumn|kolumnen)\s+(\S*))$")
_SAID = re.compile(r"\s*\(\s*(\d+)\s*\)$")           # points said: "chance (23)"
_BARE_POINTS = re.compile(r"\s+(\d+)$")                  # or "chance 23"
_DICE = re.compile(r"[0-9][0-9\s,]*")
_DECIMAL = re.compile(r"\s+\(?\s*(\d+[.,]\d+)\s*\)?$")     # "chance 23,5": points are whole
_ZERO_ON = re.compile(r"^(?:0|null|noll|zero|nothing|ingenting|inget)\s+(?:på|on|in|i|to)\s+(.+)$",
                      re.IGNORECASE)                    # "skriv 0 på yatzy": a strike
STRIKE = {"en": "strike", "nb": "stryk", "sv": "stryk"}

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "empty": "nothing typed",
        "control_keys": "arrow and other control keys are not input",
        "digits": "'{text}': type numbers with the digits 0-9",
        "unknown_command": "unknown command '{word}' (type help)",
        "not_move": "not a move: '{text}' (expected 'keep 5 6', 'reroll all' or 'score BOX')",
        "unknown_box": "unknown box '{name}'",
        "ambiguous": "'{word}' could be: {candidates}",
        "keep_what": "keep which dice? e.g. keep 5 6 (or reroll all)",
        "keep_or_save": "'{word}' with dice keeps them (spara 6 6); "
                        "spara spelet FILE saves the game",
        "keep_all": "keep at most {most} dice: keeping all {n} is stopping, write them in a box",
        "no_face": "no {face} among {roll}",
        "no_dice": "the dice are not rolled yet",
        "bad_dice": "'{text}': not dice (e.g. 1 3 5)",
        "bad_face": "'{text}': {face} is not a face of a {faces}-sided die",
        "too_many": "'{text}': {n} dice, at most {most} here",
        "reroll_words": "'{word}' takes no dice: keep the ones you want (keep 5 6) "
                        "or reroll all",
        "extra_words": "'{word}' takes no more words",
        "undo_count": "undo N: N is a whole number from 1",
        "save_name": "save FILE: name the file",
        "save_dice": "'{text}' is dice, not a file name: keep {text} keeps them, "
                     "save FILE saves the game",
        "score_what": "'{word}' which box? e.g. score chance",
        "bad_column": "the column after @ is 1..{n}",
        "no_column": "column {column} does not exist (columns 1..{n})",
        "one_column": "rules {spec} have one column",
        "strike_points": "'{text}': a strike writes 0 points",
        "whole_points": "'{text}': points are whole numbers (chance 23)",
        "zero_strike": "to write 0 in {box}, type '{strike} {box}'",
        "or": "or",
    },
    "nb": {
        "empty": "ingenting skrevet",
        "control_keys": "piltaster og andre kontrolltaster er ikke inndata",
        "digits": "'{text}': skriv tall med sifrene 0-9",
        "unknown_command": "ukjent kommando '{word}' (skriv hjelp)",
        "not_move": "ikke et trekk: '{text}' (skriv f.eks. 'behold 5 6', 'kast alle' "
                    "eller 'skriv BOKS')",
        "unknown_box": "ukjent boks '{name}'",
        "ambiguous": "'{word}' kan være: {candidates}",
        "keep_what": "behold hvilke terninger? f.eks. behold 5 6 (eller kast alle)",
        "keep_or_save": "'{word}' med terninger beholder dem (spara 6 6); "
                        "lagre FIL lagrer spillet",
        "keep_all": "behold høyst {most} terninger: å beholde alle {n} er å stoppe, "
                    "skriv dem på en boks",
        "no_face": "ingen {face} blant {roll}",
        "no_dice": "terningene er ikke kastet ennå",
        "bad_dice": "'{text}': ikke terninger (f.eks. 1 3 5)",
        "bad_face": "'{text}': {face} er ikke en side på en terning med {faces} sider",
        "too_many": "'{text}': {n} terninger, høyst {most} her",
        "reroll_words": "'{word}' tar ingen terninger: behold dem du vil ha (behold 5 6) "
                        "eller kast alle",
        "extra_words": "'{word}' tar ingen flere ord",
        "undo_count": "angre N: N er et helt tall fra 1",
        "save_name": "lagre FIL: oppgi filen",
        "save_dice": "'{text}' er terninger, ikke et filnavn: behold {text} beholder dem, "
                     "lagre FIL lagrer spillet",
        "score_what": "'{word}' hvilken boks? f.eks. skriv sjanse",
        "bad_column": "kolonnen etter @ er 1..{n}",
        "no_column": "kolonne {column} finnes ikke (kolonnene 1..{n})",
        "one_column": "reglene {spec} har én kolonne",
        "strike_points": "'{text}': å stryke skriver 0 poeng",
        "whole_points": "'{text}': poeng er hele tall (sjanse 23)",
        "zero_strike": "for å skrive 0 i {box}, skriv «{strike} {box}»",
        "or": "eller",
    },
    "sv": {
        "empty": "inget skrivet",
        "control_keys": "piltangenter och andra styrtangenter är inte indata",
        "digits": "'{text}': skriv tal med siffrorna 0-9",
        "unknown_command": "okänt kommando '{word}' (skriv hjälp)",
        "not_move": "inget drag: '{text}' (skriv t.ex. 'behåll 5 6', 'slå om alla' "
                    "eller 'skriv RUTA')",
        "unknown_box": "okänd ruta '{name}'",
        "ambiguous": "'{word}' kan vara: {candidates}",
        "keep_what": "behåll vilka tärningar? t.ex. behåll 5 6 (eller slå om alla)",
        "keep_or_save": "'{word}' med tärningar behåller dem (spara 6 6); "
                        "spara spelet FIL sparar spelet",
        "keep_all": "behåll högst {most} tärningar: att behålla alla {n} är att stanna, "
                    "skriv dem i en ruta",
        "no_face": "inga {face} bland {roll}",
        "no_dice": "tärningarna är inte slagna än",
        "bad_dice": "'{text}': inte tärningar (t.ex. 1 3 5)",
        "bad_face": "'{text}': {face} är ingen sida på en tärning med {faces} sidor",
        "too_many": "'{text}': {n} tärningar, högst {most} här",
        "reroll_words": "'{word}' tar inga tärningar: behåll dem du vill ha (behåll 5 6) "
                        "eller slå om alla",
        "extra_words": "'{word}' tar inga fler ord",
        "undo_count": "ångra N: N är ett heltal från 1",
        "save_name": "spara spelet FIL: ange filen",
        "save_dice": "'{text}' är tärningar, inget filnamn: spara {text} behåller dem, "
                     "spara spelet FIL sparar spelet",
        "score_what": "'{word}' vilken ruta? t.ex. skriv chans",
        "bad_column": "kolumnen efter @ är 1..{n}",
        "no_column": "kolumn {column} finns inte (kolumnerna 1..{n})",
        "one_column": "reglerna {spec} har en kolumn",
        "strike_points": "'{text}': att stryka skriver 0 poäng",
        "whole_points": "'{text}': poäng är heltal (chans 23)",
        "zero_strike": "för att skriva 0 i {box}, skriv ”{strike} {box}”",
        "or": "eller",
    },
}
CUT = 40                       # characters of typed text repeated in a message


class GrammarError(InputError):
    """A line that is not one command: ``kind`` (a key of ``MESSAGES``)
    and ``fields`` name the problem; the text is in the language the line
    was read in (English when read in every language); ``say(lang)`` gives
    it in another."""

    def __init__(self, kind: str, lang: str | None, /, **fields):
        self.kind, self.fields = kind, fields
        super().__init__(self.say(lang or "en"))

    def say(self, lang: str) -> str:
        return MESSAGES[lang][self.kind].format(**self.fields)


@dataclass(frozen=True)
class Typed:
    """One command as typed: ``kind`` is ``roll``, ``keep`` (``dice`` ()
    rerolls all) or ``score`` (``box`` its English name, ``column`` from 1,
    0 not named, ``points`` said or None; a strike says 0), or a session
    command (``COMMANDS``: ``hint`` with the ``move`` asked about or None,
    ``undo`` with its ``count``, ``save`` with its ``path``).  ``text`` is
    the canonical English form."""

    kind: str
    dice: tuple[int, ...] | None = None
    box: str | None = None
    column: int = 0
    points: int | None = None
    count: int = 1
    path: str | None = None
    move: Typed | None = None

    @property
    def is_move(self) -> bool:
        return self.kind in MOVES

    @property
    def text(self) -> str:
        """The command as ``Game.play`` and the coach read it in every language.

        >>> Typed("keep", (5, 6)).text, Typed("keep", ()).text, Typed("undo", count=2).text
        ('keep 5 6', 'reroll all', 'undo 2')
        """
        if self.kind == "roll":
            return " ".join(["roll", *map(str, self.dice or ())])
        if self.kind == "keep":
            return "keep " + " ".join(map(str, self.dice)) if self.dice else "reroll all"
        if self.kind == "score":
            return (f"score {self.box}" + (f"@{self.column}" if self.column else "")
                    + ("" if self.points is None else f" ({self.points})"))
        if self.kind == "hint" and self.move is not None:
            return f"hint {self.move.text}"
        if self.kind == "undo" and self.count != 1:
            return f"undo {self.count}"
        if self.kind == "save":
            return f"save {self.path}"
        return self.kind


def cut(text: str, n: int = CUT) -> str:
    """``text`` cut to ``n`` characters for repeating in a message.

    >>> cut("x" * 50)[-3:], cut("abc")
    ('xx…', 'abc')
    """
    return text if len(text) <= n else text[:n - 1] + "…"


def _norm(text: str) -> str:
    """A name as compared: lower case, words apart, no English "the" first."""
    words = text.lower().replace("_", " ").replace("-", " ").split()
    return " ".join(words[1:] if words[:1] == ["the"] and len(words) > 1 else words)


def _langs(lang: str | None) -> tuple[str, ...]:
    return LANGS if lang is None else tuple(dict.fromkeys(("en", lang)))


@lru_cache(maxsize=64)
def _names(boxes: tuple[str, ...], aliases: tuple[tuple[str, ...], ...]
           ) -> tuple[dict[str, set[int]], dict[str, dict[str, set[int]]]]:
    """Every name of each box: ``exact`` (any language: the rules' names and
    aliases, the printed names, ``BOX_WORDS``) and per language the names
    its start may be matched against."""
    exact: dict[str, set[int]] = {}
    own: dict[str, dict[str, set[int]]] = {lang: {} for lang in LANGS}
    for i, (name, more) in enumerate(zip(boxes, aliases)):
        for text in (name, *more):
            exact.setdefault(_norm(text), set()).add(i)
        own["en"].setdefault(_norm(name), set()).add(i)
        for lang in LANGS:
            printed = BOXES.get(lang, {}).get(name)
            for text in (*([printed] if printed else []), *BOX_WORDS[lang].get(name, ())):
                exact.setdefault(_norm(text), set()).add(i)
                own[lang].setdefault(_norm(text), set()).add(i)
    return exact, own


# every name of a box of any rules: one these rules lack is refused, not matched
_ANY_BOX = {_norm(t) for lang in LANGS for names in BOX_WORDS[lang].values() for t in names} \
    | {_norm(t) for words in BOXES.values() for t in words.values()} \
    | {_norm(name) for lang in LANGS for name in BOX_WORDS[lang]}


def _fits(typed: list[str], name: list[str]) -> bool:
    """Whether the words ``typed`` start the name's words (each a prefix), or
    are whole later words of it (``stege`` in ``liten stege``)."""
    if len(typed) <= len(name) and all(n.startswith(t) for t, n in zip(typed, name)):
        return True
    return any(name[j:j + len(typed)] == typed for j in range(1, len(name)))


class _Reader:
    """One parse: the rules, the language and the position's context."""

    def __init__(self, rules: Rules, lang: str | None, dice, roll_due: bool, commands: bool):
        if lang is not None and lang not in LANGS:
            raise InputError(f"language {lang!r}: expected one of {', '.join(LANGS)}")
        self.rules, self.lang, self.dice = rules, lang, dice
        self.roll_due, self.commands = roll_due, commands
        self.verbs, self.lengths = _verbs(lang, commands)

    def fail(self, kind: str, **fields) -> GrammarError:
        return GrammarError(kind, self.lang, **fields)

    def shown_box(self, i: int) -> str:
        return box_name(self.rules.boxes[i].name, self.lang or "en")

    # ---------------------------------------------------------------- lines
    def line(self, raw: str) -> Typed:
        low = raw.lower()
        if _DICE.fullmatch(low):
            return (Typed("roll", self.dice_of(raw)) if self.roll_due
                    else Typed("keep", self.kept(raw)))
        words, low_words = raw.split(), tuple(low.split())
        for n in self.lengths:                  # longest first: "kast om alle" before "kast"
            meaning = self.verbs.get(" ".join(low_words[:n])) if len(low_words) >= n else None
            if meaning is not None:
                return self.verb(meaning, " ".join(words[:n]), " ".join(words[n:]))
        return self.score(raw, bare=True)

    def verb(self, meaning: str, said: str, rest: str) -> Typed:
        low = rest.lower()
        if meaning in ("help", "card", "status", "points", "redo", "quit", "skip"):
            self.no_more(said, rest)
            return Typed(meaning)
        if meaning == "reroll":
            if rest:
                raise self.fail("reroll_words", word=cut(said))
            return Typed("keep", ())
        if meaning == "roll":
            if not rest:
                return Typed("roll")
            if low in ALL_WORDS["en"] + ALL_WORDS["nb"] + ALL_WORDS["sv"]:
                return Typed("keep", ())                   # roll all: reroll all
            return Typed("roll", self.dice_of(rest))
        if meaning in ("keep", "keep_or_save"):
            if not rest:
                raise self.fail("keep_or_save" if meaning == "keep_or_save" else "keep_what",
                                word=cut(said))
            try:
                return Typed("keep", self.kept(rest))
            except GrammarError as e:
                if meaning == "keep_or_save" and e.kind in ("bad_dice", "unknown_box"):
                    raise self.fail("keep_or_save", word=cut(said)) from None
                raise
        if meaning in ("score", "strike"):
            if not rest:
                raise self.fail("score_what", word=cut(said))
            typed = self.score(rest)
            if meaning == "strike":
                if typed.points not in (None, 0):
                    raise self.fail("strike_points", text=cut(f"{said} {rest}"))
                return Typed("score", box=typed.box, column=typed.column, points=0)
            return typed
        if meaning == "hint":
            if not rest:
                return Typed("hint")
            inner = _Reader(self.rules, self.lang, self.dice, False, False)
            return Typed("hint", move=inner.line(rest))
        if meaning == "undo":
            if not rest:
                return Typed("undo")
            if not (rest.isascii() and rest.isdigit() and len(rest) <= 6 and int(rest) >= 1):
                raise self.fail("undo_count")
            return Typed("undo", count=int(rest))
        if meaning == "save":
            if not rest:
                raise self.fail("save_name")
            if _DICE.fullmatch(rest):
                raise self.fail("save_dice", text=cut(rest))
            return Typed("save", path=rest)
        raise AssertionError(meaning)                        # pragma: no cover

    def no_more(self, said: str, rest: str) -> None:
        if rest:
            raise self.fail("extra_words", word=cut(said))

    # ----------------------------------------------------------------- dice
    def dice_of(self, text: str) -> tuple[int, ...]:
        """The dice written in ``text`` (``1 3 5``, ``135``, ``1,3,5``)."""
        rules = self.rules
        s = text.strip()
        if not _DICE.fullmatch(s):
            raise self.fail("bad_dice", text=cut(s))
        parts = list(s) if re.fullmatch(r"\d+", s) and rules.faces < 10 else \
            [p for p in re.split(r"[\s,]+", s) if p]
        bad = [p for p in parts if len(p) > len(str(rules.faces)) or not 1 <= int(p) <= rules.faces]
        if bad:
            raise self.fail("bad_face", text=cut(s), face=cut(bad[0], 10), faces=rules.faces)
        if len(parts) > rules.dice:
            raise self.fail("too_many", text=cut(s), n=len(parts), most=rules.dice)
        return tuple(sorted(int(p) for p in parts))

    def kept(self, text: str) -> tuple[int, ...]:
        """The dice of a keep: digits, or faces by name (all that the roll
        shows), joined by spaces, commas, ``and``/``og``/``och``."""
        rules = self.rules
        low = _norm(text.replace(",", " , "))
        if low in ("none", "ingen", "inga"):
            return ()
        if low in ALL_WORDS["en"] + ALL_WORDS["nb"] + ALL_WORDS["sv"]:
            if self.dice is None:
                raise self.fail("no_dice")
            raise self.fail("keep_all", most=rules.dice - 1, n=rules.dice)
        if _DICE.fullmatch(text.strip()):
            dice = self.dice_of(text)
        else:
            dice = self.named_dice(text)
        if len(dice) >= rules.dice:
            raise self.fail("keep_all", most=rules.dice - 1, n=rules.dice)
        return dice

    def named_dice(self, text: str) -> tuple[int, ...]:
        """``sixes``, ``femmere og seksere``, ``5 and the sixes``."""
        rules = self.rules
        exact, _ = _names(*_key(rules))
        groups = re.split(r"\s*(?:,|\s(?:%s)\s)\s*" % "|".join(AND_WORDS),
                          " " + text.strip() + " ")
        out: list[int] = []
        for group in (g.strip() for g in groups):
            if not group:
                continue
            if _DICE.fullmatch(group):
                out += self.dice_of(group)
                continue
            boxes = exact.get(_norm(group), set())
            faces = {rules.boxes[i].face for i in boxes if rules.boxes[i].is_upper}
            if len(faces) != 1:
                raise self.fail("bad_dice", text=cut(text.strip()))
            face = faces.pop()
            if self.dice is None:
                raise self.fail("no_dice")
            found = [d for d in self.dice if d == face]
            if not found:
                raise self.fail("no_face", face=cut(group),
                                roll=" ".join(map(str, self.dice)))
            out += found
        if not out:
            raise self.fail("bad_dice", text=cut(text.strip()))
        return tuple(sorted(out))

    # ---------------------------------------------------------------- boxes
    def score(self, text: str, bare: bool = False) -> Typed:
        """``BOX``, ``BOX@C``, ``BOX x3``, ``BOX i kolonne 3``, ``BOX (23)``; with
        several columns a bare number that is a column's is the column
        (``toere 3``), else a bare number is the points said (``chance 23``)."""
        rules = self.rules
        rest = text.strip()
        m = _DECIMAL.search(rest)
        if m and m.start() > 0:
            raise self.fail("whole_points", text=cut(m.group(1)))
        m = _ZERO_ON.match(rest)
        if m:
            raise self.fail("zero_strike", box=cut(m.group(1)), strike=STRIKE[self.lang or "en"])
        points = None
        m = _SAID.search(rest)
        if m and m.start() > 0:
            points, rest = int(m.group(1)[-6:]), rest[:m.start()]
        column, rest = self.column_of(rest)
        m = _BARE_POINTS.search(rest)
        if m and m.start() > 0 and points is None:
            n = int(m.group(1)[-6:])
            before = rest[:m.start()]
            named = any(f.search(before) and f.search(before).start() > 0
                        for f in (_BARE_POINTS, _COLUMN))      # "toere 3 6", "toere@3 6"
            if rules.play.names_columns and not column and 1 <= n <= rules.columns \
                    and not named:
                column = n                      # "toere 3": a column must be named anyway
            else:
                points = n
            rest = before
        if points is not None and not column:     # a column before the points: "toere 3 6"
            column, rest = self.column_of(rest, rules.play.names_columns)
        box = self.box(rest.strip(), bare and points is None and not column)
        return Typed("score", box=rules.boxes[box].name, column=column, points=points)

    def column_of(self, rest: str, bare: bool = False) -> tuple[int, str]:
        """The column named at the end of ``rest`` (``@3``, ``x3``, ``i
        kolonne 3``; with ``bare`` a number alone too), 0 when none or the
        rules have one column, and what is before it."""
        rules = self.rules
        m = _COLUMN.search(rest)
        if not (m and m.start() > 0) and bare:
            m = _BARE_POINTS.search(rest)
        if not (m and m.start() > 0):
            return 0, rest
        col = next(g for g in m.groups() if g is not None)
        if not (col.isascii() and col.isdigit() and len(col) <= 6):
            raise self.fail("bad_column", n=rules.columns)
        column = int(col)
        if not rules.play.names_columns:
            if column != 1:
                raise self.fail("one_column", spec=rules.spec)
            return 0, rest[:m.start()]
        if not 1 <= column <= rules.columns:
            raise self.fail("no_column", column=column, n=rules.columns)
        return column, rest[:m.start()]

    def command_starts(self, key: str) -> list[str]:
        """The first words of the phrases that start with ``key``, in the
        player's language (an English one only where it has none of that
        meaning)."""
        local = VERBS[self.lang] if self.lang else self.verbs
        meanings = set(local.values())
        return sorted({p.split()[0] for p, m in self.verbs.items()
                       if p != "?" and p.startswith(key) and (p in local or m not in meanings)})

    def box(self, name: str, bare: bool) -> int:
        """The box called ``name``: a name in any language, else the start
        of a name in the player's language fitting one box only."""
        exact, own = _names(*_key(self.rules))
        key = _norm(name)
        found = exact.get(key, set())
        if len(found) == 1:
            return next(iter(found))
        if not found and key and key not in _ANY_BOX:
            typed = key.split()
            found = {i for code in _langs(self.lang) for text, boxes in own[code].items()
                     if _fits(typed, text.split()) for i in boxes}
        verbs = []
        if bare and len(key.split()) == 1:          # a word alone may be a command's start
            verbs = self.command_starts(key)
        if len(found) == 1 and not verbs:
            return next(iter(found))
        if found:
            names = [self.shown_box(i) for i in sorted(found)]
            raise self.fail("ambiguous", word=cut(name),
                            candidates=", ".join(dict.fromkeys(names + verbs)))
        if bare and not self.commands:
            raise self.fail("not_move", text=cut(name))
        if bare and len(key.split()) == 1 and key not in _ANY_BOX:
            raise self.fail("unknown_command", word=cut(name))
        raise self.fail("unknown_box", name=cut(name))


@lru_cache(maxsize=16)
def _verbs(lang: str | None, commands: bool) -> tuple[dict[str, str], tuple[int, ...]]:
    """The phrases that start a line in ``lang`` (and English), each with
    its meaning (session commands only with ``commands``), and their
    lengths in words, longest first."""
    verbs: dict[str, str] = {}
    for code in _langs(lang):
        verbs.update(VERBS[code])
    verbs = {p: m for p, m in verbs.items() if commands or m not in COMMANDS}
    return verbs, tuple(sorted({len(p.split()) for p in verbs}, reverse=True))


def _key(rules: Rules) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    return tuple(b.name for b in rules.boxes), tuple(b.aliases for b in rules.boxes)


def box_named(name: str, rules: Rules) -> int | None:
    """The box of ``rules`` that ``name`` names exactly, in any language (its
    names and aliases, the printed names, ``BOX_WORDS``: what a score pad
    and a card take), or None.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> nordic = parse_rules("nordic")
    >>> [box_named(n, nordic) for n in ("2 par", "kåk", "Two Pairs", "to")]
    [7, 12, 7, None]
    """
    exact, _ = _names(*_key(rules))
    found = exact.get(_norm(name), set())
    return next(iter(found)) if len(found) == 1 else None


def names_lang(names: list[str], rules: Rules) -> str:
    """The language of the box names ``names``: ``nb`` or ``sv`` where one
    of them is a name of that language alone, else ``en``.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> nordic = parse_rules("nordic")
    >>> names_lang(["enere", "x"], nordic), names_lang(["kåk"], nordic), names_lang(["x"], nordic)
    ('nb', 'sv', 'en')
    """
    _, own = _names(*_key(rules))
    for name in map(_norm, names):
        langs = [lang for lang in LANGS if name in own[lang]]
        if len(langs) == 1 and langs[0] != "en":
            return langs[0]
    return "en"


def parse(line: str, rules: Rules, lang: str | None = None, *,
          dice: tuple[int, ...] | None = None, roll_due: bool = False,
          commands: bool = True) -> Typed:
    """The command typed in ``line`` under ``rules``, read in ``lang``
    (None: every language); ``dice``: the roll on the table (for ``keep
    sixes``); ``roll_due``: whether dice alone are a roll (table mode);
    ``commands``: whether session commands are read (``Game.play`` reads
    moves only).  ``GrammarError`` (an ``InputError``) in ``lang`` when it
    is not one command."""
    text = check_text(line, "move")
    if any(ord(ch) < 32 or ch == "\x7f" for ch in text.strip()):
        raise GrammarError("control_keys", lang)
    odd = [ch for ch in text if ch.isnumeric() and not ch.isascii()]
    if odd:
        raise GrammarError("digits", lang, text=cut(" ".join(text.split())))
    raw = " ".join(text.split())
    if not raw:
        raise GrammarError("empty", lang)
    reader = _Reader(rules, lang, tuple(dice) if dice is not None else None, roll_due, commands)
    typed = reader.line(raw)
    if not commands and not typed.is_move:
        raise GrammarError("not_move", lang, text=cut(raw))
    return typed


__all__ = ["BOX_WORDS", "COMMANDS", "LANGS", "MESSAGES", "MOVES", "VERBS", "GrammarError",
           "Typed", "box_named", "cut", "names_lang", "parse"]
