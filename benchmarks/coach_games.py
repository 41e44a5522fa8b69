"""Whole games in the coach (``yatzy play``) at 80x24 in tmux, as a family
at one terminal plays them: Maxi Yatzy (six dice, saved rolls) with six
players and the ranked hints, and Trippel-Yatzy with six players in check
mode (every choice judged), most seats the computer's.  The people's moves
are typed as a person types them (``behold 6 6``, ``skriv hus``), chosen by
a plain rule of thumb from the game's file (keep the most common face,
write the box that takes the most points); the computers play themselves.

At every person's prompt, and at the end, the screen is checked: no line
is wider than 80 columns (``capture-pane -J`` joins what wrapped), the
card's header is on the top row with the player to move marked (``*Kari``),
the prompt names the player to move, the ranked hints are in view with
their best row (``--hints full``), the verdict of the last choice is in
view (check mode), and no word only the English catalogue has shows in an
nb game (``tests.web.whole_game.english_words``).

    python benchmarks/coach_games.py                       # both games
    python benchmarks/coach_games.py --case maxi-nb --save docs/screenshots

Maxi is played against its real table (``yatzy solve --rules maxi``, 10 GiB
with saved rolls), which must be in ``$YATZY_TABLES`` (or ``--tables``).
It prints each problem when found and one line per game (moves, seconds,
problems); ``--save DIR`` writes the screen mid-game, at game over (the
question: end or undo) and at the end as ``coach-CASE-mid-80x24.txt``,
``-over-`` and ``-end-``.  The exit status is 1
when any problem was found.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from yatzy.game import Game  # noqa: E402
from yatzy.rules.words import box_name, message  # noqa: E402
from tests.web.whole_game import WORD, english_words  # noqa: E402

WIDTH, HEIGHT = 80, 24
TWO_AND_FOUR = ["Kari", "Ola", "Per=optimal", "Siri=optimal", "Nils=optimal", "Anne=optimal"]


def case(rules: str, lang: str, hints: str, players: list[str] = TWO_AND_FOUR) -> dict:
    """A game of six at one terminal (two people and four computers unless
    ``players`` says otherwise), seed 7."""
    return dict(rules=rules, lang=lang, hints=hints, seed=7, players=players)


CASES = {
    "maxi-nb": case("maxi", "nb", "full"),
    "triple-nb": case("triple", "nb", "check", ["Kari", "Ola=optimal", "Per=step", "Siri=optimal",
                                                "Nils=step", "Anne=optimal"]),
    "nordic-sv": case("nordic", "sv", "check", ["Karin", "Olle", "Per=optimal", "Sara=greedy",
                                                "Nils=optimal", "Anna=optimal"]),
    "forced-nb": case("forced", "nb", "full"),
    "upper-first-nb": case("upper_first", "nb", "check"),
    "yahtzee-en": case("yahtzee", "en", "full", ["Kari", "Ola", "Per=optimal", "Siri=greedy",
                                                 "Nils=optimal", "Anne=optimal"]),
}
HINT_BEST = re.compile(r"\s1 \S.*\s(beste|best|bäst)\s*$")    # beside the card


class Screen:
    """``yatzy play`` in a tmux session on a server of its own (``-L``)."""

    def __init__(self, socket: str, command: str):
        self.socket, self.name = socket, "game"
        self.tmux("new-session", "-d", "-s", self.name, "-x", str(WIDTH), "-y", str(HEIGHT),
                  command)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, check=False).stdout

    def text(self, joined: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-J"] if joined else []), "-t", self.name)

    def type(self, line: str) -> None:
        if line:
            self.tmux("send-keys", "-t", self.name, "-l", line)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def close(self) -> None:
        self.tmux("kill-server")


def played(path: Path) -> int:
    try:
        return json.loads(path.read_text())["played"]
    except (OSError, ValueError, KeyError):
        return -1


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].rstrip() if lines else ""


def chosen(game: Game, lang: str) -> str:
    """A person's move as typed: keep the most common face while rerolls
    are left and it is not already a full house of it, else write the
    open box that takes the most points (a column's tag where the rules
    have several)."""
    dice = game.dice
    if game.rerolls:
        face, n = max(Counter(dice).items(), key=lambda kv: (kv[1], kv[0]))
        if n < len(dice):
            return f"{message('keep', lang)} {' '.join([str(face)] * n)}"
    options = game.score_options(game.card, dice)
    column, box, _ = max(options, key=lambda o: (o[2], -o[1], -o[0]))
    tag = game.rules.play.tag(column) if game.rules.play.names_columns else ""
    return f"{message('score', lang)} {box_name(game.rules.boxes[box].name, lang)}{tag}"


class Run:
    """One whole game of a case, its problems and its screens."""

    def __init__(self, case: str, tables: str, save: Path | None):
        self.case, self.spec = case, CASES[case]
        self.tables, self.save = tables, save
        self.lang = self.spec["lang"]
        self.english = english_words(self.lang) if self.lang != "en" else set()
        self.names = [p.split("=")[0] for p in self.spec["players"]]
        self.problems: list[str] = []
        self.moves = 0

    def problem(self, where: str, what: str, screen: str) -> None:
        self.problems.append(f"{where}: {what}")
        print(f"{self.case} {where}: {what}\n{screen}", flush=True)

    def check(self, where: str, screen: str, joined: str, game: Game,
              final: bool = False) -> None:
        """The screen at a prompt (``final``: the last one, a scrolling log)."""
        lines = screen.splitlines()
        wide = [line for line in joined.splitlines() if len(line) > WIDTH]
        if wide:
            self.problem(where, f"{len(wide)} line(s) wider than {WIDTH}: {wide[0][:100]}",
                         screen)
        top = lines[0] if lines else ""
        if final:
            pass
        elif not any(n[:4] in top for n in self.names):
            self.problem(where, "the card's header is not on the top row", screen)
        missing = [n for n in self.names if n[:4] not in screen]
        if missing and not final:                  # the others: in the header or on the strip of totals
            self.problem(where, "players not on screen: " + ", ".join(missing), screen)
        if not game.is_over:
            name = game.player.name
            if "*" + name[:4] not in top:
                self.problem(where, f"{name} is not marked on the header", screen)
            if not last_line(screen).startswith(name):
                self.problem(where, f"the prompt does not name {name}", screen)
            if self.spec["hints"] == "full" and not game.needs_roll \
                    and not any(HINT_BEST.search(line) for line in lines):
                self.problem(where, "the best move's hint row is not in view", screen)
        names = {w.lower() for n in self.names for w in WORD.findall(n)}
        words = WORD.findall(re.sub(r"\S*/\S*", " ", screen))           # paths aside
        found = sorted({w for w in words if w.lower() in self.english
                        and w.lower() not in names})
        if found:
            self.problem(where, "English words: " + ", ".join(found[:8]), screen)

    def verdict(self, where: str, screen: str) -> None:
        """Check mode: the last choice's verdict in view."""
        best = message("best", self.lang)
        cost = message("cost", self.lang, loss="X", best="Y").split("X")[0]
        if best not in screen and cost not in screen:
            self.problem(where, "no verdict in view after the choice", screen)

    def wait(self, screen: Screen, path: Path, after: int, seconds: float = 600,
             question: bool = True) -> str:
        """The screen once the game waits for a person (a prompt ending in
        ``>`` or, with ``question``, a yes/no question) and has played past
        move ``after``; or once the game has ended (saved, no question)."""
        end = time.monotonic() + seconds
        last = ""
        while time.monotonic() < end:
            text = screen.text()
            tail = last_line(text)
            asked = question and tail.endswith("/n)")
            ended = self.saved in text
            if text == last and (ended or asked or tail.endswith(">") and played(path) > after):
                return text
            last = text
            time.sleep(0.3)
        raise TimeoutError(f"{self.case}: no prompt after move {after}:\n{screen.text()}")

    def play(self) -> None:
        spec = self.spec
        work = Path(tempfile.mkdtemp(prefix="yatzy-game-"))
        path = work / "g.json"
        seats = " ".join(f"--player {p}" for p in spec["players"])
        command = (f"cd {work} && TERM=xterm-256color YATZY_DATA={work}/data "
                   f"PYTHONPATH={ROOT} {sys.executable} -m yatzy play --tables {self.tables} "
                   f"--rules {spec['rules']} --lang {self.lang} --hints {spec['hints']} "
                   f"--seed {spec['seed']} --no-record --autosave {path} {seats}; sleep 3600")
        self.saved = message("saved", self.lang, path=str(path))
        screen = Screen(f"coach-games-{os.getpid()}-{self.case}", command)   # a server per game
        start, mid, over = time.monotonic(), None, None
        try:
            text = self.wait(screen, path, -2)
            while self.saved not in text:      # (a game no undo may go back in ends at once)
                game = Game.load(path, tables=self.tables)
                where = f"move {played(path)}"
                self.check(where, text, screen.text(joined=True), game)
                if game.is_over:
                    over = text                       # the question: end, or undo the last
                    screen.type("")                   # Enter: the game is over
                    break
                if mid is None and game.card.turn >= game.turns_per_player // 2:
                    mid = text
                line = chosen(game, self.lang)
                before = played(path)
                screen.type(line)
                self.moves += 1
                text = self.wait(screen, path, before)
                if last_line(text).endswith("/n)"):          # a 0 written: say yes
                    screen.type(message("yes", self.lang))
                    text = self.wait(screen, path, before, question=False)
                if spec["hints"] == "check" and line.startswith(message("score", self.lang)) \
                        and self.saved not in text:      # at the end the review stands for it
                    self.verdict(where, text)
            end = time.monotonic() + 60
            while self.saved not in screen.text() and time.monotonic() < end:
                time.sleep(0.3)
            final = screen.text()
            self.check("end", final, screen.text(joined=True),
                       Game.load(path, tables=self.tables), final=True)
        finally:
            screen.close()
        seconds = time.monotonic() - start
        print(f"{self.case}: {played(path)} moves ({self.moves} typed), {seconds:.0f} s, "
              f"{len(self.problems)} problems", flush=True)
        if self.save is not None:
            self.save.mkdir(parents=True, exist_ok=True)
            for tag, shown in (("mid", mid), ("over", over), ("end", final)):
                if shown is not None:
                    (self.save / f"coach-{self.case}-{tag}-80x24.txt").write_text(shown)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--tables", default=os.environ.get("YATZY_TABLES", str(ROOT / "tables")))
    parser.add_argument("--save", type=Path, help="write the screens mid-game and at the end")
    args = parser.parse_args()
    failed = False
    for case in args.case or sorted(CASES):
        run = Run(case, args.tables, args.save)
        run.play()
        failed |= bool(run.problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
