"""A whole score-pad game through a real terminal (tmux, 80×24, the steady
screen), as a family plays it: two people type only points; the card's
header, whose turn it is and the prompt stay on screen, no line is wider
than the terminal, a 0 without `stryk` is asked first, and the final
screen has the totals, the places and the history's lines."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import yatzy

NB = ["enere 3", "toere 6", "treere 9", "firere 12", "femmere 15", "seksere 18",
      "ett par 12", "to par 18", "tre like 15", "fire like 20", "liten straight 15",
      "stor straight 20", "hus 18", "sjanse 22", "yatzy 50"]
WIDTH, HEIGHT = 80, 24


class Terminal:
    """`yatzy play` in a tmux session of its own, on a tmux server of this
    test process's own (``-L``: the user's sessions are never touched; the
    server ends when its only tmux session does)."""

    SOCKET = f"yatzy-tests-{os.getpid()}"

    def __init__(self, name: str, command: str):
        self.name = name
        self.tmux("new-session", "-d", "-s", name, "-x", str(WIDTH), "-y", str(HEIGHT), command,
                  check=True)

    def tmux(self, *args: str, check: bool = False) -> str:
        return subprocess.run(["tmux", "-L", self.SOCKET, *args], capture_output=True, text=True,
                              check=check).stdout

    def screen(self, joined: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-J"] if joined else []), "-t", self.name)

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", line, check=True)
        self.tmux("send-keys", "-t", self.name, "Enter", check=True)

    def wait_for(self, *texts: str, seconds: float = 20) -> str:
        """The screen once it shows every one of ``texts``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            shown = self.screen()
            if all(text in shown for text in texts):
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{texts!r} not on the screen:\n{self.screen()}")

    def close(self) -> None:
        self.tmux("kill-session", "-t", self.name)


def coach(tag: str, tmp_path: Path, tables_dir: Path, args: str) -> Terminal:
    """``yatzy play ARGS`` in a terminal of its own, in ``tmp_path``."""
    root = Path(yatzy.__file__).parents[1]
    return Terminal(f"yatzy-{tag}-{time.monotonic_ns()}",
                    f"cd {tmp_path} && TERM=xterm-256color YATZY_DATA={tmp_path}/data "
                    f"PYTHONPATH={root} {sys.executable} -m yatzy play --tables {tables_dir} "
                    f"{args}; sleep 60")


SIX = " ".join(["--player Kari"] + [f"--player {n}=optimal"         # a person, five computers
                                    for n in ("Ola", "Ingrid", "Magnus", "Sofie", "Henrik")])


def moves(path: Path) -> int:
    try:
        return json.loads(path.read_text())["played"]
    except (OSError, ValueError, KeyError):
        return -1


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_whole_pad_game_at_80_by_24(tables_dir, tmp_path):
    game = tmp_path / "g.json"
    term = coach("pad", tmp_path, tables_dir,
                 "--pad --lang nb --player Kari --player Ola --autosave g.json")
    strikes = [f"stryk {line.rsplit(' ', 1)[0]}" for line in NB]
    strikes[NB.index("sjanse 22")] = "sjanse 5"
    try:
        term.wait_for("Kari, poeng eller terninger>")
        term.type("hus 0")                                  # a 0 without stryk: asked first
        term.wait_for("skrive 0 på hus (stryke den)? (j/n)")
        term.type("n")
        term.wait_for("ikke skrevet")
        for turn, (kari, ola) in enumerate(zip(NB, strikes)):
            for line in (kari, ola):
                before = moves(game)
                term.type(line)
                end = time.monotonic() + 20
                while moves(game) < before + 2 and time.monotonic() < end:
                    time.sleep(0.05)
                assert moves(game) == before + 2, term.screen()
            if turn in (3, 9):                              # mid-game: the screen as it stands
                shown = term.wait_for(f"Kari sin tur ({turn + 2} av 15)",
                                      "Kari, poeng eller terninger>")
                lines = shown.splitlines()
                assert "Kari" in lines[0] and "Ola" in lines[0]     # the card's header on top
                assert "Kari leder med" in shown                    # who leads, beside the card
                assert all(len(line) <= WIDTH for line in term.screen(joined=True).splitlines())
        term.wait_for("er spillet slutt?")
        term.type("")
        final = term.wait_for("spillet er lagret i g.json")
    finally:
        term.close()
    assert "1. Kari 303" in final and "2. Ola 5" in final and "Kari vinner" in final
    assert "trekkene blir ikke vurdert" in final
    assert "beste ved dette bordet (Nordisk): Kari 303, Ola 5" in final
    assert "Kari: første spill i historikken, 303" in final
    assert json.loads(game.read_text())["settings"]["pad"] is True


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_six_trippel_players_at_80_by_24_keep_the_header_when_a_line_is_entered(tables_dir,
                                                                               tmp_path):
    """The player to move's columns, the others' totals on one line (names
    cut), the dice beside the card: the prompt and the line its Enter
    adds fit, so the header never scrolls away."""
    names = ["Alexander", "Bernadette", "Christoffer", "Dorothea", "Evangeline", "Fredrik"]
    term = coach("six", tmp_path, tables_dir, "--rules triple --lang sv --seed 3 --autosave "
                 "g.json " + " ".join(f"--player {n}" for n in names))
    try:
        first = term.wait_for("Alexander>")
        term.type("ettor 3")
        second = term.wait_for("Bernadette>", "Bernadettes tur")
    finally:
        term.close()
    for shown, name in ((first, "*Alexander"), (second, "*Bernadette")):
        lines = shown.rstrip("\n").splitlines()
        assert name in lines[0]                              # the header on the top row
        assert len(lines) <= 23                              # a row left for the Enter
        assert "Christ… 0" in lines[-2] and " · 2 slag" in lines[-2]   # others; the dice


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_maxi_card_at_80_by_24_gives_up_derived_rows_to_keep_its_header(tables_dir,
                                                                         tmp_path):
    """Maxi Yatzy's card is 25 lines: at 24 rows it leaves out the sum, the
    bonus and the bank (said in words and in the dice line) so that the
    names stay on the top row with six players."""
    names = ["Kari", "Ola", "Per", "Siri", "Nils", "Anne"]
    term = coach("maxi", tmp_path, tables_dir, "--rules maxi --lang nb --pad --autosave g.json "
                 + " ".join(f"--player {n}" for n in names))
    try:
        term.wait_for("Kari, poeng eller terninger>")
        term.type("seksere 24")
        term.wait_for("Ola, poeng eller terninger>")
        term.type("123456")
        shown = term.wait_for("Ola>", "1 2 3 4 5 6 · 3 kast")
    finally:
        term.close()
    lines = shown.rstrip("\n").splitlines()
    assert "*Ola" in lines[0] and "Anne" in lines[0] and len(lines) <= 23
    assert lines[6].split()[:2] == ["seksere", "24"] and "Totalt" in lines[-2]


HINT_ROW = r"^\s*(\d{1,2}) (\S.*?)\s+(beste|likt|-\d+,\d\d)$"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_six_players_hint_rows_fit_beside_the_card_at_80_by_24(tables_dir, tmp_path):
    """Beside six players' cards a hint row does not wrap: its moves are
    written shorter, as they may be typed (``behold 2255``, ``hus (18)``),
    each row with its loss on its own line."""
    import re
    term = coach("hints", tmp_path, tables_dir,
                 f"--lang nb --hints full --seed 5 {SIX} --no-record")
    try:
        term.wait_for("Kari>", "trekk", seconds=60)
        for _ in range(2):                  # no rerolls left: every move writes a box
            term.type("kast alle")
            time.sleep(1.0)
        shown = term.wait_for("0 kast", "Kari>", seconds=30)
        right = [line[line.index("  ", 50):] if "  " in line[50:] else "" for line in
                 shown.splitlines()]
        # the hint list under its header (an event above it may begin "0 kast igjen")
        right = right[next(i for i, line in enumerate(right) if "trekk" in line):]
        rows = [m for line in right if (m := re.match(HINT_ROW, line))]
        numbered = [line for line in right if re.match(r"^\s*\d{1,2} \S", line)]
        assert len(rows) >= 5 and len(rows) == len(numbered), shown
        assert all(len(line) <= WIDTH for line in shown.splitlines())
    finally:
        term.close()


PAD_WORDS = {            # lang: (the points command, full house 18, the dice prompt's end)
    "nb": ("poeng", "hus 18"),
    "sv": ("poäng", "kåk 18"),
    "en": ("points", "full house 18"),
}


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("lang", sorted(PAD_WORDS))
def test_points_and_status_at_the_pad_list_what_each_open_box_can_take(tables_dir, tmp_path,
                                                                      lang):
    """At a turn's start (no dice on the table) `status` and `poeng` list
    each open box of the player to move with the points it can take; with
    dice on the table, each open box's points for them, in rows broken
    between boxes; nothing wider than 80 columns."""
    from yatzy.rules.words import box_name, message
    points, full_house = PAD_WORDS[lang]
    term = coach("values", tmp_path, tables_dir,
                 f"--pad --lang {lang} --player Kari --player Ola --no-record --autosave g.json")

    def after(shown: str, head: str) -> list[str]:
        """The rows beside the card from the last ``head`` on (its own row too)."""
        lines = shown.splitlines()
        start = max(i for i, line in enumerate(lines) if head in line)
        at = lines[start].rindex(head)                   # the column the events start in
        return [line[at:].rstrip() for line in lines[start:]]

    two_pairs, house = box_name("two_pairs", lang), box_name("full_house", lang)
    prompt = message("pad_prompt", lang, name="{}")
    try:
        term.wait_for(prompt.format("Kari"))
        term.type("status")
        kari = after(term.wait_for(message("pad_values", lang, name="Kari")),
                     message("pad_values", lang, name="Kari"))
        term.type(full_house)
        term.wait_for(prompt.format("Ola"))
        term.type(points)
        head = message("pad_values", lang, name="Ola")
        shown = term.wait_for(head)
        ola = after(shown, head)
        assert all(len(line) <= WIDTH for line in term.screen(joined=True).splitlines())
        term.type("13566")
        term.wait_for("Ola>")
        term.type(points)
        dice = message("points_now", lang, dice="1 3 5 6 6", list="").rstrip()
        rolled = term.wait_for(dice)
        assert all(len(line) <= WIDTH for line in term.screen(joined=True).splitlines())
    finally:
        term.close()
    assert f"{two_pairs}: 0, 6, 8, …, 22" in " · ".join(kari)
    assert f"{house}: 0, 7, 8, …, 28" in " · ".join(kari)       # Kari's house open
    assert f"{two_pairs}: 0, 6, 8, …, 22" in " · ".join(ola)
    listed = " · ".join(ola)
    assert f"{house}:" in listed                                  # Ola's house is open too
    rows = after(rolled, dice)
    small = box_name("small_straight", lang)
    assert any(f"{small} 0" in row for row in rows)             # a name never broken
    assert f"{box_name('chance', lang)} 21" in " ".join(rows)
