"""`yatzy play` on the steady screen through a real terminal (tmux, 80×24)
with computer seats: what a person at the table must still see when their
next prompt comes, after the computers' turns in between."""

import shutil
import time

import pytest

from yatzy.rules.words import message
from tests.cli.test_pad_terminal import SIX, coach


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_check_modes_verdict_stays_in_view_past_five_computers_turns(nordic, tables_dir,
                                                                    tmp_path):
    """Check mode with five computer seats: the computers play at once
    after a person's choice, so its verdict is first seen at the person's
    next prompt; it is still beside the card there, with the box written."""
    term = coach("verdict", tmp_path, tables_dir,
                 f"--lang nb --hints check --seed 5 {SIX} --no-record")
    try:
        term.wait_for("Kari>", seconds=60)
        term.type("skriv sjanse")
        shown = term.wait_for(message("turn", "nb", name="Kari", n=2, of=15), "Kari>",
                              seconds=240)           # the explanations' table built once
    finally:
        term.close()
    verdict = (message("best", "nb"), message("cost", "nb", loss="X", best="Y").split("X")[0])
    assert any(v in shown for v in verdict), shown
    assert "Kari skriver" in shown and "på sjanse" in shown, shown
    assert "Henrik (optimal)" in shown                       # the computers' latest moves too
    assert all(len(line) <= 80 for line in shown.splitlines())


def test_beside_the_card_a_verdict_outlasts_computers_turns_and_old_hints_go():
    """``steady.fit``: the last judged turn's verdict is given room before
    the computers' moves since; a hint list for earlier dice is not shown
    (its rows would read as advice for the dice now)."""
    from yatzy.cli.coach.steady import VERDICT, fit
    events = [("turn", "Kari's turn"), ("hint", "   move  loss"), ("hint", " 1 keep 5 5  best"),
              ("hint", " 2 keep 5  -0.4"), ("event", "Kari rolls 5 5 5 2 1"),
              (VERDICT, "cost 2.10; best was full house"), (VERDICT, "Kari writes 15 in fives")]
    events += [("event", f"Ola rolls {i}") for i in range(8)] + [("turn", "Kari's turn")]
    shown = fit(events, 5, 40)
    assert shown == ["cost 2.10; best was full house", "Kari writes 15 in fives",
                     "Ola rolls 6", "Ola rolls 7", "Kari's turn"]
    assert not any("keep" in row for row in fit(events, 30, 40))


def events_column(screen: str, last_name: str) -> list[str]:
    """The rows beside the card on a steady screen whose header ends with
    ``last_name`` (or its first letters, ``Hen…``): from the column after
    the card and its gap, down to the dice."""
    from yatzy.cli.coach.screen import GAP, PIPS
    lines = screen.splitlines()
    start = lines[0].index(" ", lines[0].index(last_name[:3])) + GAP
    rows = []
    for line in lines:
        if line[:1] in PIPS or line.startswith("Kari>"):
            break
        rows.append(line[start:].rstrip())
    return rows


def broken(rows: list[str], lang: str) -> list[tuple[str, str]]:
    """The pairs of rows broken inside a box's name (with its points), the
    dice, or between a number and its words after a comma (``2 / kast
    igjen``)."""
    import re
    from yatzy.cli.coach.steady import DICE
    from yatzy.rules.words import BOXES
    names = "|".join(map(re.escape, sorted(BOXES[lang].values(), key=len, reverse=True)))
    whole = re.compile(rf"(?<!\S)(?:(?:{names})(?:@\d+)?(?: \(\d+\))?|{DICE})[,:;.]?(?!\S)")
    bad = []
    for a, b in zip(rows, rows[1:]):
        cut = len(a)                                  # the space that joins them
        if a and b and (re.search(r", \d+$", a)
                        or any(m.start() < cut < m.end() for m in whole.finditer(f"{a} {b}"))):
            bad.append((a, b))
    return bad


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_six_players_events_beside_the_card_wrap_between_phrases(nordic, tables_dir, tmp_path):
    """Six players at 80x24 leave the events 27 columns: at each of Kari's
    prompts no row beside the card ends inside a box's name, the dice or
    "2 kast igjen" (it read "Anne (optimal): skriv hus / (23)", "Kari
    kaster 1 2 4 5 6, 2 / kast igjen")."""
    term = coach("phrases", tmp_path, tables_dir,
                 f"--lang nb --hints check --seed 7 {SIX} --no-record")
    screens = []
    try:
        term.wait_for("Kari>", seconds=60)
        for n, box in enumerate(("yatzy", "fire like", "stor straight"), start=2):
            term.type(f"stryk {box}")
            screens.append(term.wait_for(message("turn", "nb", name="Kari", n=n, of=15), "Kari>",
                                         seconds=240))   # the explanations' table built once
    finally:
        term.close()
    for shown in screens:
        rows = events_column(shown, "Henrik")
        assert sum(bool(r) for r in rows) >= 10, shown          # the column is read
        assert all(len(line) <= 80 for line in shown.splitlines())
        assert broken(rows, "nb") == [], shown


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_trippels_end_review_fits_the_terminal(tables_dir, tmp_path):
    """At the end of a Trippel game the line saying the review's losses are
    the strategy's estimates is wrapped to the terminal, as the review's
    lines are (coach_games' triple-nb found it 133 columns wide)."""
    from yatzy.game import Game
    from yatzy.rules.words import box_name
    g = Game("triple", ["Kari"], seed=2)

    def left():
        return sum(p is None for card in g.cards for c in card.columns for p in c.points)
    while not (not g.needs_roll and left() == 1):
        g.play("roll" if g.needs_roll else
               str([a for a in g.legal_actions() if str(a).startswith("score")][0]))
    g.save(tmp_path / "g.json")
    last = next(a for a in g.legal_actions() if str(a).startswith("score"))
    term = coach("estimates", tmp_path, tables_dir, "--resume g.json --lang nb --no-record")
    try:
        term.wait_for("Kari>", seconds=60)
        term.type(f"{message('score', 'nb')} {box_name(last.box, 'nb')}@{last.column}")
        end = time.monotonic() + 240                         # (Trippel's table built once)
        while time.monotonic() < end:
            last = (term.screen().rstrip().splitlines() or [""])[-1]
            if last.endswith(("(j/n)", "[j/N]")):            # a 0 written, a build: yes
                term.type(message("yes", "nb"))
            elif last.startswith(message("confirm", "nb").strip()[:15]):
                term.type("")                                # game over: Enter ends it
                break
            time.sleep(0.3)
        saved, more, joined = message("saved", "nb", path="g.json")[:12], "Enter: mer", ""
        end = time.monotonic() + 240
        while saved not in joined and time.monotonic() < end:    # the end's pages turned
            shown = term.screen(joined=True)
            if shown.rstrip().endswith(more.strip() + ">"):
                joined += shown
                term.type("")
            elif saved in shown:
                joined += shown
            time.sleep(0.3)
    finally:
        term.close()
    end = joined[joined.index(message("over", "nb")):]     # (the first build is said above)
    assert "Trippel-Yatzy" in end, joined
    assert [line for line in end.splitlines() if len(line) > 80] == [], joined
