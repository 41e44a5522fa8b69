"""A whole game on a phone, start to end: Chromium with touch at 360 x 640,
in Norwegian with advice in check mode, every move tapped
(``tests/web/whole_game.py``); after every move no sideways scroll, the
next turn's banner and roll button in view, the verdict in view, no English
word; axe-core with no violation at the start and the end.  The checks are
shown to fail on a page that breaks them.  Every rule set at both widths:
``benchmarks/page_games.py`` (docs/web.md)."""

from __future__ import annotations

from .test_page import browser, server  # noqa: F401  (the page tests' fixtures; skips as they do)
from .whole_game import WholeGame, english_words


def test_english_words_are_those_only_the_english_catalogue_has():
    nb, sv = english_words("nb"), english_words("sv")
    assert {"roll", "turn", "points", "advice"} <= nb & sv
    assert not {"poeng", "terninger", "kast", "poäng", "tärningar"} & (nb | sv)


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
