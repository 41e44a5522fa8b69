"""`yatzy play` on the steady screen through a real terminal (tmux, 80×24)
with computer seats: what a person at the table must still see when their
next prompt comes, after the computers' turns in between."""

import shutil

import pytest

from solver.rules.words import message
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
    from solver.cli.coach.steady import VERDICT, fit
    events = [("turn", "Kari's turn"), ("hint", "   move  loss"), ("hint", " 1 keep 5 5  best"),
              ("hint", " 2 keep 5  -0.4"), ("event", "Kari rolls 5 5 5 2 1"),
              (VERDICT, "cost 2.10; best was full house"), (VERDICT, "Kari writes 15 in fives")]
    events += [("event", f"Ola rolls {i}") for i in range(8)] + [("turn", "Kari's turn")]
    shown = fit(events, 5, 40)
    assert shown == ["cost 2.10; best was full house", "Kari writes 15 in fives",
                     "Ola rolls 6", "Ola rolls 7", "Kari's turn"]
    assert not any("keep" in row for row in fit(events, 30, 40))
