"""The coach's steady screen in a real terminal (tmux) at 80×24 and 60×20,
in nb and sv: a resize redraws it at once with the player to move's column
whole; help, status and the end fit; nothing stale stays on it."""

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import yatzy
from tests.cli.test_pad_terminal import Terminal
from yatzy.rules.words import message

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

SIZES = [(80, 24), (60, 20)]
LANGS = ["nb", "sv"]


class Sized(Terminal):
    """A tmux terminal of ``size`` columns and rows, which ``resize`` changes."""

    def __init__(self, name: str, command: str, size: tuple[int, int]):
        self.name, self.size = name, size
        for attempt in range(3):            # (a server still closing its last session)
            try:
                self.tmux("new-session", "-d", "-s", name, "-x", str(size[0]), "-y",
                          str(size[1]), command, check=True)
                return
            except subprocess.CalledProcessError:
                if attempt == 2:
                    raise
                time.sleep(0.5)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.tmux("resize-window", "-t", self.name, "-x", str(size[0]), "-y", str(size[1]),
                  check=True)

    def keys(self, text: str) -> None:
        """Typed, without Enter."""
        self.tmux("send-keys", "-t", self.name, "-l", text, check=True)


def started(tmp_path: Path, tables_dir: Path, size, args: str) -> Sized:
    root = Path(yatzy.__file__).parents[1]
    return Sized(f"yatzy-screen-{time.monotonic_ns()}",
                 f"cd {tmp_path} && TERM=xterm-256color YATZY_DATA={tmp_path}/data "
                 f"PYTHONPATH={root} {sys.executable} -m yatzy play --tables {tables_dir} "
                 f"{args}; sleep 60", size)


# the person Kari in the middle of five computers with long names
ORDER = ["Mormor", "Morfar", "Bjørnar", "Kari", "Ingrid", "Ola"]
MIDDLE = " ".join([f"--player {n}=optimal" for n in ("Mormor", "Morfar", "Bjørnar")]
                  + ["--player Kari"] + [f"--player {n}=optimal" for n in ("Ingrid", "Ola")])


def within(shown: str, size) -> list[str]:
    """The screen's rows, asserted no more and no wider than the terminal's."""
    lines = shown.rstrip("\n").splitlines()
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines), shown
    return lines


def header_names(head: str) -> list[str]:
    """The names over the card's columns (the first row, up to the gap
    before the events: the names have two spaces between them)."""
    return head.strip().split("   ")[0].split()


def card_width(head: str) -> int:
    """How wide the card is (its header row without the events)."""
    return len(head) - len(head.lstrip()) + len(head.strip().split("   ")[0])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("sizes", [(SIZES[0], SIZES[1]), (SIZES[1], SIZES[0])],
                         ids=["80x24-to-60x20", "60x20-to-80x24"])
def test_a_resize_at_the_prompt_redraws_the_screen_at_once(nordic, tables_dir, tmp_path, lang,
                                                           sizes):
    """Half a line typed, the terminal resized: at once, with no key, the
    card fits the new size with its header on top, Kari's column whole
    and marked, as many columns named as totalled, the line typed kept."""
    first, second = sizes
    term = started(tmp_path, tables_dir, first, f"--lang {lang} --seed 4 --no-record {MIDDLE}")
    typed = message("score", lang)
    try:
        term.wait_for("Kari>", seconds=120)
        term.keys(typed)
        term.wait_for(f"Kari> {typed}")
        time.sleep(0.5)
        term.resize(second)
        time.sleep(1.5)
        shown = term.screen()
    finally:
        term.close()
    lines = within(shown, second)
    names = header_names(lines[0])
    assert "*Kari" in names, shown                          # whole, never "*Ka…"
    total = next(line for line in lines if line.startswith("Totalt"))
    assert len(total[:card_width(lines[0])].split()) - 1 == len(names), shown   # a name over each
    if second == (80, 24):
        assert len(names) == 6, shown                       # the whole table again
    else:
        assert 2 <= len(names) < 6, shown                   # the columns around Kari
        seats = [next(i for i, n in enumerate(ORDER) if n.startswith(name.strip("*…")))
                 for name in names]
        assert seats == list(range(seats[0], seats[0] + len(seats))), shown   # side by side
    assert lines[-1].rstrip() == f"Kari> {typed}", shown    # the prompt, what was typed


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
def test_the_stop_note_goes_when_the_solve_has_ended(nordic, tables_dir, tmp_path, lang, size):
    """Check mode's first costly choice builds the explanations' table
    (about 10 s: "Ctrl-C stops the solve" is said); once it is built the
    note is gone from the screen, and the table is named in the language."""
    own = tmp_path / "tables"                     # the values solved, the explanations not
    own.mkdir()
    for f in tables_dir.glob("nordic-*"):
        if "explain" not in f.name and f.is_file():
            shutil.copy(f, own / f.name)
    chance = message("score", lang) + " " + {"nb": "sjanse", "sv": "chans"}[lang]
    term = started(tmp_path, own, size, f"--lang {lang} --seed 3 --hints check --no-record "
                   "--player Kari --player Ola=optimal")
    note = message("stoppable", lang)
    try:
        term.wait_for("Kari>", seconds=60)
        term.type(chance)                          # 1 2 2 2 5: a costly choice, explained
        term.wait_for(note[:10], seconds=60)       # said while the table is built
        term.wait_for("Kari>", "(2 av 15)", seconds=240)      # Kari's next turn
        time.sleep(1)
        shown = term.screen(joined=True)
    finally:
        term.close()
    assert note[:10] not in shown, shown
    assert "nordic" not in shown, shown                     # "Nordisk", not the preset's key


PEOPLE = ["Mormor", "Morfar", "Kari", "Ida", "Ola"]


def last_turn(tmp_path: Path, tables_dir: Path, lang: str) -> str:
    """A six-player game in check mode (five people, a computer) saved at
    Ola's last turn; Ola's open box, as typed in ``lang``."""
    from yatzy.game import Game
    from yatzy.rules.words import box_name
    g = Game("nordic", PEOPLE + ["Bot=optimal"], seed=5, tables=tables_dir)
    g.settings.update(table_mode=False, hints="check", lang=lang, undo="fair")

    def left():
        return sum(p is None for card in g.cards for c in card.columns for p in c.points)
    while left() > 2:
        g.play("roll" if g.needs_roll else
               str([a for a in g.legal_actions() if str(a).startswith("score")][-1]))
    g.save(tmp_path / "g.json")
    g.play("roll")
    return box_name([a for a in g.legal_actions() if str(a).startswith("score")][0].box, lang)


def turned(term: Sized) -> list[str]:
    """The screens of pages turned with Enter until no page is left to turn."""
    more = message("page_more", "nb").split(":")[0]              # "Enter" in every language
    seen = []
    for _ in range(20):
        time.sleep(1)
        shown = term.screen()
        seen.append(shown)
        last = [line for line in shown.splitlines() if line.strip()][-1]
        if not last.startswith(more):
            return seen
        term.type("")
    return seen


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
def test_help_status_and_the_end_of_six_players_fit(nordic, tables_dir, tmp_path, lang, size):
    """Six players: the help's whole command list, status's five loss lines
    and, at the end, the places and the winner with the card, then every
    review, each whole on one screen (beside the card, or a page of its
    own), no line wider than the terminal."""
    box = last_turn(tmp_path, tables_dir, lang)
    term = started(tmp_path, tables_dir, size, f"--resume g.json --lang {lang} --no-record")
    helped = message("help", lang)
    tally = message("tally", lang, name="X", loss="1").split("1")[0].replace("X", "").strip()
    try:
        opening = term.wait_for("Ola>", seconds=120)
        term.type({"nb": "hjelp", "sv": "hjälp"}[lang])
        helps = turned(term)
        term.wait_for("Ola>")
        term.type("status")
        statuses = turned(term)
        term.wait_for("Ola>")
        term.type(f"{message('score', lang)} {box}")
        term.wait_for(message("over", lang), seconds=240)
        ends = turned(term)
        term.wait_for(message("saved", lang, path="g.json"), seconds=60)
    finally:
        term.close()
    lead = message("leads", lang, name="Bot", n=1).split("1")[0]       # "Bot leder med "
    assert lead in opening, opening
    assert not [line for line in opening.splitlines() if line.rstrip().endswith("·")], opening
    names = header_names(opening.splitlines()[0])
    assert len(set(names)) == len(names) and "*Ola" in names, opening    # told apart
    assert len(names) == 6 or size == (60, 20), opening
    for shown in helps + statuses + ends:
        within(shown, size)
    words = " ".join(" ".join(s.split()) for s in helps)
    assert helped.split()[1] in words and helped.split()[-1] in words, helps   # first, last
    status = next(s for s in statuses if tally in s)
    assert all(re.search(rf"{name} {tally}", " ".join(status.split())) for name in PEOPLE), status
    first = ends[0]
    assert "Totalt" in first and message("winner", lang, name="Bot") in first, first
    assert all(re.search(rf"\d\. {name} \d+", first) for name in PEOPLE + ["Bot"]), first
    review = message("review", lang, name="X", total="1", mean="1", n=1).split("X")[0]
    reviewed = " ".join(ends)
    assert all(review + name in reviewed for name in PEOPLE), ends


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
def test_trippels_first_screen_keeps_how_to_type_and_the_header(tables_dir, tmp_path, lang,
                                                                 size):
    """Trippel's first screen: the card's header with Kari's name on the
    first row, every column whole (no "…" where rich cut the card), and
    the first line of how to type beside it."""
    term = started(tmp_path, tables_dir, size, f"--rules triple --lang {lang} --no-record "
                   "--player Kari --player Ola")
    try:
        term.wait_for("Kari>", seconds=60)
        time.sleep(1)
        shown = term.screen()
    finally:
        term.close()
    lines = within(shown, size)
    assert "*Kari" in lines[0].split(), shown
    assert "…" not in shown, shown
    first = message("how_to_type", lang).split(":")[0]              # "skriv et trekk"
    assert first in " ".join(" ".join(line.split()) for line in lines), shown


def beside(shown: str) -> str:
    """What the screen says beside the card (each row from the card's right
    edge on), its rows joined: words wrapped over rows read as one line."""
    lines = shown.rstrip("\n").splitlines()
    edge = card_width(lines[0])
    return " ".join(" ".join(line[edge:].split()) for line in lines[:-1])


ALMOST = {"nb": [("sjanse 23,5", "'23,5': poeng er hele tall"),
                 ("null på yatzy", "skriv «stryk yatzy»")],
          "sv": [("chans 23,5", "'23,5': poäng är heltal"),
                 ("noll på yatzy", "skriv ”stryk yatzy”")]}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
def test_an_almost_right_line_is_answered_on_the_screen_with_the_right_word(
        nordic, tables_dir, tmp_path, lang, size):
    """Points with a decimal, or a zero written instead of a strike: the
    steady screen says what was wrong and the word to type, whole, inside
    the terminal, and the prompt comes again (nothing written)."""
    term = started(tmp_path, tables_dir, size, f"--lang {lang} --seed 3 --no-record "
                   "--player Kari --player Ola")
    said = []
    try:
        term.wait_for("Kari>", seconds=60)
        for line, _ in ALMOST[lang]:
            term.type(line)
            time.sleep(1)
            said.append(term.wait_for("Kari>"))
    finally:
        term.close()
    for shown, (_, pointer) in zip(said, ALMOST[lang]):
        lines = within(shown, size)
        assert pointer in beside(shown), shown
        assert lines[-1].rstrip() == "Kari>", shown
        assert "(1 av 15)" in beside(shown), shown                 # still Kari's first turn
