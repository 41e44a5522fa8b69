"""Whole games on the page, every rule set, on phones: Playwright driving
Debian's chromium with touch at 360 x 640 and 390 x 844 plays each game to
its end (``tests/web/whole_game.py``: every person's move tapped, computer
seats left to the page) and checks after every move that the page does not
scroll sideways, the next turn's banner and roll button are in view, the
verdict is in view in check mode, no English word shows on an nb or sv
page, and axe-core finds no violation at the start and the end.  The
end of each game is pictured in docs/screenshots/ (``nordic-nb-360-end.png``).

    python benchmarks/page_games.py                    # every case, both widths
    python benchmarks/page_games.py --case nordic-nb --width 360
    python benchmarks/page_games.py --maxi maxi:saved_rolls=false

The server runs in this process with the tables of ``$YATZY_TABLES`` (or
``--tables``); Maxi is played against its real table, which must be stored
there (``yatzy solve --rules maxi``; ``--maxi`` names another Maxi rule
set, e.g. without saved rolls).  It prints each problem when found and
one line per game (moves, seconds, problems); the exit status is 1 when
any was found.  On a busy two-core machine a Nordic, Yahtzee or Maxi game
took 1/2-2 minutes, Trippel with one player 1-2, with three 4-16 (by the
load), with six longer (the computers' moves are played on the page too),
six people in check mode 10 (956 moves; five other jobs on the two
cores): ``--case``, ``--width``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from yatzy.web.app import create_app  # noqa: E402
from tests.web.servers import chromium, served  # noqa: E402
from tests.web.whole_game import WholeGame  # noqa: E402

SHOTS = ROOT / "docs" / "screenshots"
NAMES = ["Kari", "Ola", "Ingrid", "Magnus", "Sofie", "Henrik"]
# case: rules, players, language, advice mode
CASES = {
    "nordic-nb": ("nordic", ["Kari", "Ola"], "nb", "check"),
    "nordic-sv": ("nordic", ["Karin", "Olle=optimal"], "sv", "full"),
    "yahtzee-en": ("yahtzee", ["Kari", "Ola=optimal"], "en", "check"),
    "forced": ("nordic:order=forced", ["Kari", "Ola=optimal"], "nb", "full"),
    "forced-preset": ("forced", ["Kari", "Ola=optimal"], "nb", "check"),     # bonus at 42
    "upper-first": ("upper_first", ["Kari", "Ola=optimal"], "sv", "check"),
    "triple-1": ("triple", ["Kari"], "nb", "full"),
    "triple-3": ("triple", ["Kari", "Ola=optimal", "Ingrid=optimal"], "nb", "check"),
    "triple-6": ("triple", ["Kari"] + [f"{n}=optimal" for n in NAMES[1:]], "sv", "full"),
    # six people around one phone, every decision judged
    "triple-6-check": ("triple", NAMES, "nb", "check"),
    "maxi": ("maxi", ["Kari", "Ola=optimal"], "nb", "full"),
    "maxi-check": ("maxi", ["Karin", "Olle"], "sv", "check"),     # two people, saved rolls judged
}


def shot_name(case: str, rules: str) -> str:
    """The pictures' name of ``case`` played with ``rules``: the case's own,
    or with another rule set (``--maxi``) the case and its settings
    (``maxi:saved_rolls=false`` -> ``maxi-saved-rolls-false``)."""
    own = CASES[case][0]
    if rules == own:
        return case
    return case + "-" + re.sub(r"[^a-z0-9]+", "-", rules.partition(":")[2].lower()).strip("-")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", action="append", choices=sorted(CASES),
                    help="a case to play (several allowed; default: all)")
    ap.add_argument("--width", action="append", type=int, choices=[360, 390],
                    help="a phone width (default: both)")
    ap.add_argument("--tables", default=os.environ.get("YATZY_TABLES"),
                    help="the tables folder [env YATZY_TABLES]")
    ap.add_argument("--maxi", default="maxi", help="the Maxi rule set played (default: maxi)")
    ap.add_argument("--no-shots", action="store_true", help="save no pictures")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        print("Debian's chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    cases = args.case or list(CASES)
    widths = args.width or [360, 390]
    found = 0
    # a database of its own: the games' history stays out of the user's
    with tempfile.TemporaryDirectory() as db, \
            served(create_app("nordic", args.tables, Path(db) / "tables.sqlite",
                              allow_rules=True)) as server, chromium(exe) as browser:
        for case in cases:
            rules, players, lang, mode = CASES[case]
            rules = args.maxi if rules == "maxi" else rules
            for width in widths:
                began = time.time()
                print(f"{case} {width}px ...", flush=True)
                game = WholeGame(browser, server.url, width, rules, players, lang, mode,
                                 seed=args.seed, echo=True)
                try:
                    moves = game.play()
                    if not args.no_shots:
                        game.shot(SHOTS / f"{shot_name(case, rules)}-{width}-end.png")
                except Exception as e:              # a game that did not reach its end
                    game.problem("stopped", str(e).splitlines()[0])
                    moves = game.played()
                finally:
                    game.close()
                print(f"{case:14} {width}px  {moves:4} moves  {time.time() - began:6.1f} s  "
                      f"{len(game.problems)} problems", flush=True)
                found += len(game.problems)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
