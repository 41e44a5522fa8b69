"""A whole game on a phone, start to end: Chromium with touch at 360 x 640,
in Norwegian with advice in check mode, every move tapped
(``tests/web/whole_game.py``); after every move no sideways scroll, the
next turn's banner and roll button in view, the verdict in view, no English
word; axe-core with no violation at the start and the end.  The checks are
shown to fail on a page that breaks them.  Every rule set at both widths:
``benchmarks/page_games.py`` (docs/web.md)."""

from __future__ import annotations

import pytest

from .test_page import browser, server  # noqa: F401  (the page tests' fixtures; skips as they do)
from .whole_game import WholeGame, english_words


def test_english_words_are_those_only_the_english_catalogue_has():
    nb, sv = english_words("nb"), english_words("sv")
    assert {"roll", "turn", "points", "advice"} <= nb & sv
    assert not {"poeng", "terninger", "kast", "poäng", "tärningar"} & (nb | sv)


@pytest.mark.slow
def test_a_whole_game_on_a_phone_in_norwegian(browser, server):
    game = WholeGame(browser, server, 360, "nordic", ["Kari"], lang="nb", mode="check", seed=3,
                     keeps=0.2)                     # mostly a roll and a box: a short game
    try:
        moves = game.play()
        assert game.page.evaluate("document.body.dataset.state") == "over"
        assert moves >= 30 and game.problems == []
        assert "Kari" in game.page.inner_text("#end")
        # the checks fail on a page that breaks them
        game.page.evaluate("""() => { const p = document.createElement('p');
            p.id = 'broken'; p.style.width = '500px'; p.textContent = 'Roll the dice';
            document.querySelector('#play').append(p); }""")
        game.check("broken")
        assert len(game.problems) == 2 and "cut off at the side: #broken" in game.problems[0]
        assert "English words: Roll, dice" in game.problems[1]
    finally:
        game.close()


@pytest.mark.slow
def test_six_people_late_in_trippel_see_the_verdict_and_the_next_turn_at_360(browser, server):
    """Six people, turn 41 of 45 in Trippel, check mode, 360 x 640: above
    the dice the lead, the bonus of three columns, the running loss and the
    weighted totals; after a box is written from the card the verdict and
    the next person's banner and roll button are all above the totals bar
    (page_games' triple-6-check found the verdict under it)."""
    import random
    from yatzy.game import Game
    names = ["Kari", "Ola", "Ingrid", "Magnus", "Sofie", "Henrik"]
    rng, g = random.Random(5), Game("triple", names, seed=5)
    while len(g.turns) < 240:                       # a careless game: bonuses out of reach, big losses
        if g.needs_roll:
            g.play("roll")
        else:
            g.play(str(rng.choice([a for a in g.legal_actions() if str(a).startswith("score")])))
    game = WholeGame(browser, server, 360, "triple", names, lang="nb", mode="check")
    try:
        p = game.page
        p.evaluate("(g) => localStorage.setItem('yatzy.game', JSON.stringify(g))", g.to_dict())
        p.reload()
        game.wait("roll")
        before = game.played()
        p.tap("#roll")
        game.settled(before)
        family = p.inner_text("#family")
        assert "Bonus for Kari: ×1, ×2, ×3: bonusen er utenfor rekkevidde" in family  # said once
        before = game.played()
        box = p.eval_on_selector("#protokoll button.cell-btn", "b => b.dataset.box")
        p.tap(f"#protokoll button.cell-btn[data-box='{box}']")
        game.settled(before)
        assert "Ola" in p.inner_text("#turn")
        game.check("after a score")
        game.check_verdict("after a score")
        game.check_next_turn("after a score")
        assert game.problems == []
    finally:
        game.close()
