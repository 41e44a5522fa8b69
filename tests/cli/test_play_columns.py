"""A whole Trippel-Yatzy game in ``yatzy play``, typed in a real
pseudo-terminal (pexpect): three columns per player on the card, moves
``score BOX@C``, 45 turns, the weighted score at the end.

The test keeps its own ``Game`` with the same seed beside the coach: the
dice the coach draws depend only on the seed and the draw, so both see the
same rolls, and the test picks random legal moves from its own game."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pytest

from yatzy.game import Game

pexpect = pytest.importorskip("pexpect")

PYTHONPATH = os.environ.get("PYTHONPATH", "")       # where the yatzy script finds solver
YATZY = Path(sys.executable).with_name("yatzy")
PROMPT = "Player> "


@pytest.fixture
def coach(nordic, tables_dir, tmp_path):
    child = pexpect.spawn(str(YATZY), ["play", "--screen", "plain", "--rules", "triple",
                                       "--seed", "11",
                                       "--tables", str(tables_dir),
                                       "--autosave", str(tmp_path / "auto.json")],
                          encoding="utf-8", timeout=60, dimensions=(60, 160),
                          env={"TERM": "dumb", "PATH": str(YATZY.parent), "PYTHONPATH": PYTHONPATH,
                               "YATZY_DATA": str(tmp_path / "data")})
    yield child
    child.close(force=True)


def test_a_whole_trippel_game_at_the_prompt(coach, tables_dir):
    shadow = Game("triple", ["Player"], seed=11, tables=tables_dir)
    rng = random.Random(11)
    coach.expect("@1 +@2 +@3")                         # three columns on the card
    coach.expect(r"\(1 of 45\)")
    coach.expect_exact(PROMPT)
    coach.sendline("score chance")                      # no column named: one line, no move
    coach.expect("error: name the column: chance@1..3")
    coach.expect_exact(PROMPT)
    while not shadow.is_over:
        if shadow.needs_roll:
            shadow.play("roll")                         # the coach rolls by itself
            continue
        legal = shadow.legal_actions()
        scores = [a for a in legal if a.kind == "score"]
        action = rng.choice(scores if rng.random() < 0.6 else legal)
        if action.kind == "score":
            text = f"{action.box}@{action.column}"       # a box alone scores it
            shadow.play("score " + text)
            coach.sendline(text)
            t = shadow.turns[-1]
            if t.points == 0:                           # writing 0 is asked first
                coach.expect_exact(f"@{t.column} takes 0 points")
                coach.expect_exact("cross it out? (y/n) ")
                coach.sendline("y")
            coach.expect(re.escape(f"scores {t.points} in "))
            coach.expect(re.escape(f"@{t.column}"))
        else:
            shadow.play(str(action))
            coach.sendline(str(action))
        if not shadow.is_over:
            coach.expect_exact(PROMPT)
    total = shadow.scores()[0]
    coach.expect_exact("undo to take back the last score> ")   # the last score can be undone
    coach.sendline("")
    coach.expect("game over")
    coach.expect(rf"1\. Player {total}\b")
    coach.expect("not solved exactly: the losses below are our strategy's estimates")
    coach.expect("review of Player")
    coach.expect(pexpect.EOF)
    card = shadow.cards[0]
    assert total == sum(w * c.score for w, c in zip((1, 2, 3), card.columns))
    assert len(shadow.turns) == 45
