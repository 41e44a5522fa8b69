"""The one catalogue of words (solver/rules/catalogue/*.json): every key in
every language with the same placeholders, plural forms where a count is
shown, and no word table left in the page's scripts."""

import re
import string
from pathlib import Path

import pytest

from yatzy.rules.words import LANGS, SECTIONS, catalogue, message, plural

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "solver" / "web" / "static"


# a field that a language's grammar uses in place of another (the callers
# give both): Swedish "Annas tur" takes the genitive of the name
IN_PLACE_OF = {"genitive": "name"}
# texts that leave out a field in nb and sv: the player kinds are English
# words (optimal, greedy, simple) that the help lists
MAY_OMIT = {("messages", "game_bad_kind")}


def fields(text) -> set[str]:
    """The placeholders of a text, or of its plural forms together."""
    forms = text.values() if isinstance(text, dict) else [text]
    return {IN_PLACE_OF.get(name, name) for form in forms
            for _, name, _, _ in string.Formatter().parse(form) if name}


def entries(lang: str):
    for name in SECTIONS:
        for key, text in catalogue(lang)[name].items():
            yield (name, key), text


def test_every_key_is_in_every_language():
    keys = {lang: {k for k, _ in entries(lang)} for lang in LANGS}
    for lang in LANGS:
        assert keys[lang] == keys["en"], (lang, keys[lang] ^ keys["en"])
    assert set(catalogue("en")) == set(SECTIONS)


def test_placeholders_agree_between_languages():
    english = dict(entries("en"))
    for lang in LANGS:
        for key, text in entries(lang):
            if key in MAY_OMIT:
                assert fields(text) <= fields(english[key]), (lang, key)
            else:
                assert fields(text) - {"n"} == fields(english[key]) - {"n"}, (lang, key)
            if isinstance(text, dict):                      # plural forms
                assert set(text) == {"one", "other"}, (lang, key)
                assert "n" in fields(text["other"]), (lang, key)
            else:
                assert isinstance(text, str) and text == text.strip() or key[1] in (
                    "review", "decide", "dice_prompt", "reroll_prompt", "build_question",
                    "confirm", "prompt", "while", "costly"), (lang, key)


def test_a_count_chooses_its_form():
    assert message("left", "en", n=1) == "1 reroll"
    assert message("left", "en", n=2) == "2 rerolls"
    assert message("status_kept", "nb", dice="6 6 6 6", n=1) == "beholdt 6 6 6 6, 1 terning å kaste"
    assert message("status_kept", "nb", dice="6", n=4) == "beholdt 6, 4 terninger å kaste"
    assert message("reroll_prompt", "nb", name="Kari", n=1) == "Kari, skriv den nye terningen> "
    assert message("reroll_prompt", "sv", name="Kim", n=3) == "Kim, skriv de 3 nya tärningarna> "
    assert plural({"one": "a", "other": "b"}, 0) == "b"


def test_no_text_names_a_command_line_flag_in_nb_or_sv_during_a_game():
    for lang in ("nb", "sv"):
        assert "--" not in message("fair_undo", lang)


# ------------------------------------------------------------------ the page
def page_keys_used() -> set[str]:
    keys = set()
    for path in STATIC.glob("*.js"):
        text = path.read_text()
        keys |= set(re.findall(r'\bt\("([A-Za-z_0-9]+)"[,)]', text))
        keys |= set(re.findall(r'dataset: \{t: "([A-Za-z_0-9]+)"\}', text))
    keys |= set(re.findall(r'data-t(?:-aria)?="([A-Za-z_0-9]+)"', (STATIC / "index.html").read_text()))
    return keys


def test_every_word_the_page_asks_for_is_in_the_catalogue():
    used = page_keys_used()
    assert len(used) > 100                        # the scan found the page's words
    assert used - set(catalogue("en")["page"]) == set()


@pytest.mark.parametrize("path", sorted(p.name for p in STATIC.glob("*.js")))
def test_no_word_table_is_left_in_the_page_scripts(path):
    text = re.sub(r"(^|\s)//[^\n]*", "", (STATIC / path).read_text())      # not the comments
    # a table of words per language: keys en/nb/sv with object or string values
    assert not re.search(r"\b(en|nb|sv)\s*:\s*[{\"]", text), path
    # no sentence of the catalogue is written in a script
    sentences = {t for lang in LANGS for t in catalogue(lang)["page"].values()
                 if isinstance(t, str) and len(t) > 12 and " " in t}
    assert not [s for s in sentences if f'"{s}"' in text], path


def test_the_page_is_modules_without_globals():
    page = (STATIC / "index.html").read_text()
    scripts = re.findall(r"<script[^>]*>", page)
    assert scripts == ['<script type="module" src="/static/main.js"></script>'[:-9]]
    for path in STATIC.glob("*.js"):
        if path.name == "sw.js":
            continue
        text = path.read_text()
        assert "window." not in text.replace("window.addEventListener", "").replace(
            "window.isSecureContext", ""), path.name
        # top-level declarations are module scope; imports name their module
        for name in re.findall(r'from "\./([a-z]+)\.js"', text):
            assert (STATIC / f"{name}.js").exists(), (path.name, name)
    worker = (STATIC / "sw.js").read_text()
    modules = re.search(r"const MODULES = \[([^\]]*)\]", worker).group(1)
    cached = {m.strip().strip('"') for m in modules.split(",")}
    assert cached == {p.stem for p in STATIC.glob("*.js")} - {"sw"}
    assert '"/words.json"' in worker


# words the languages share (names, and words the same in nb or sv)
SHARED = {"yatzy", "Yatzy", "maxi", "full", "straight", "Sum", "Bonus", "bonus", "optimal",
          "Person", "best", "GiB", "min"}


def test_a_text_left_as_in_english_has_only_shared_words():
    english = dict(entries("en"))
    for lang in ("nb", "sv"):
        for key, text in entries(lang):
            if text == english[key]:
                words = set(re.findall(r"[^\W\d_]{2,}", re.sub(r"\{\w+\}", "", str(text))))
                assert words <= SHARED, (lang, key, text)
