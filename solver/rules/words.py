"""Every text a person reads, in English, Norwegian (bokmål) and Swedish:
one catalogue that Python uses and the page loads.

The catalogue is kept as one JSON document per language,
``solver/rules/catalogue/{en,nb,sv}.json``, each with the same sections:

- ``boxes``: box names as the source texts print them;
- ``messages``: the rows of the scorecard ("protokoll") and the messages of
  ``yatzy play``, ``yatzy train`` and the command line (``message``);
- ``explain`` and ``groups``: the sentences of an explanation
  (``yatzy.players.explain``);
- ``train``: the words of ``yatzy train``;
- ``page``: the words of the web page (``solver/web/static/*.js``).

Python reads the documents here (``catalogue``); the web server sends them
to the page as ``GET /words.json`` (every language, with an ETag, cached by
the page's service worker) and the page's ``words.js`` formats them exactly
as ``message`` does: ``{field}`` placeholders, and where a text depends on
a count, an object of plural forms ``{"one": ..., "other": ...}`` chosen by
the field ``n`` (English, Norwegian and Swedish share the rule: ``one`` for
exactly 1).  Every key is in every language with the same placeholders
(``tests/rules/test_catalogue.py``).  Numbers in nb and sv use a decimal
comma (``number``).

Box names typed by a player are accepted in any of the languages
(``box_index``): the rules' own names and aliases first, then the names
printed here, so ``tre like`` finds ``three_of_a_kind`` under American rules
too.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from yatzy.errors import InputError
from yatzy.rules.ruleset import Rules

LANGS = ("en", "nb", "sv")
CATALOGUE = Path(__file__).parent / "catalogue"
SECTIONS = ("boxes", "messages", "explain", "groups", "train", "page")


@functools.cache
def catalogue(lang: str) -> dict[str, dict]:
    """The catalogue of ``lang``: its sections (``SECTIONS``), each a dict of
    key to text (or to plural forms).

    >>> catalogue("sv")["boxes"]["full_house"]
    'kåk'
    """
    if lang not in LANGS:
        raise InputError(f"unknown language {lang!r} (languages: {', '.join(LANGS)})")
    return json.loads((CATALOGUE / f"{lang}.json").read_text(encoding="utf-8"))


def section(name: str) -> dict[str, dict]:
    """One section of the catalogue in every language: ``{lang: {key: text}}``."""
    return {lang: catalogue(lang)[name] for lang in LANGS}


BOXES: dict[str, dict[str, str]] = section("boxes")
MESSAGES: dict[str, dict] = section("messages")


def plural(text: str | dict, n: object) -> str:
    """The form of ``text`` for the count ``n``: ``text`` itself, or of
    plural forms ``{"one": ..., "other": ...}`` the ``one`` form for exactly 1.

    >>> forms = {"one": "{n} reroll", "other": "{n} rerolls"}
    >>> plural(forms, 1), plural(forms, 2), plural("as is", 3)
    ('{n} reroll', '{n} rerolls', 'as is')
    """
    if isinstance(text, str):
        return text
    return text["one"] if n == 1 and "one" in text else text["other"]


def fill(text: str | dict, /, **kw) -> str:
    """``text`` (its plural form for ``kw["n"]``) with its fields filled."""
    return plural(text, kw.get("n")).format(**kw)


def box_name(name: str, lang: str = "en") -> str:
    """The printed name of the box called ``name`` (its English name) in ``lang``."""
    return BOXES.get(lang, {}).get(name, name.replace("_", " "))


def message(key: str, lang: str = "en", **kw) -> str:
    """The message ``key`` in ``lang``, its fields filled from ``kw`` (a
    count in ``n`` chooses the plural form).

    >>> message("left", "en", n=1), message("left", "en", n=2)
    ('1 reroll', '2 rerolls')
    """
    return fill(MESSAGES[lang][key], **kw)


def rules_name(spec: str, lang: str = "en") -> str:
    """A rule set as a person reads it in ``lang``: a preset by its name
    (the one the page shows), any other spec as written.

    >>> rules_name("forced", "nb"), rules_name("maxi", "en"), rules_name("nordic:rolls=4", "sv")
    ('Nordisk, fast rekkefølge', 'Maxi Yatzy', 'nordic:rolls=4')
    """
    return catalogue(lang)["page"].get(f"name_{spec}", spec)


def number(x: float, digits: int, lang: str = "en") -> str:
    """``x`` with ``digits`` decimals, a decimal comma in nb and sv.

    >>> number(2.5, 2, "nb"), number(-0.125, 1, "en")
    ('2,50', '-0.1')
    """
    return decimal_mark(f"{x:.{digits}f}", lang)


def decimal_mark(text: str, lang: str = "en") -> str:
    """A text of numbers written with decimal points (``139.9 MiB``) with
    the language's decimal mark: a comma in nb and sv.

    >>> decimal_mark("139.9 MiB", "sv"), decimal_mark("2.5 min", "en")
    ('139,9 MiB', '2.5 min')
    """
    return text if lang == "en" else text.replace(".", ",")


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


# The sentences of an explanation (yatzy.players.explain), per language;
# numbers come formatted (words.number: a decimal comma in nb and sv)
EXPLAIN = section("explain")

# The groups of boxes an explanation names
GROUP_WORDS = section("groups")


def page_words() -> dict[str, dict]:
    """What the page loads (``GET /words.json``): every language's catalogue."""
    return {lang: catalogue(lang) for lang in LANGS}
