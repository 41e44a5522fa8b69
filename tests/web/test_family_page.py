"""What a family's score pad gives, in real browsers (Chromium with touch
at 390 and 360 px, ``yatzy serve`` as its own process): score-pad mode
(type the points and tap a box; tap a box and pick its points; a 0 asked
about first; undo takes a written box back), a second phone joining by
the table's short code, the last move and who leads on the other phone,
and the end review and history in the game-over dialog; axe-core finds
no violation on the pad and the review."""

from __future__ import annotations

import json

import pytest

from .test_page import AXE, CHROMIUM, PHONE, axe, sync_api  # noqa: F401  (skips as test_page does)
from .test_share_page import Phone, browser, server  # noqa: F401  (fixtures)

from yatzy.game import Game  # noqa: E402


def new_game(phone, players, seed, rules="nordic"):
    """A game started by the API and loaded as this phone's own."""
    doc = phone.page.evaluate("""async ([players, seed, rules]) => {
        const r = await fetch('/api/game/new', {method: 'POST', headers: {'Content-Type':
          'application/json'}, body: JSON.stringify({players, seed, rules})});
        return (await r.json()).game; }""", [players, seed, rules])
    return load(phone, doc)


def load(phone, doc):
    phone.page.evaluate("(g) => localStorage.setItem('yatzy.game', JSON.stringify(g))", doc)
    phone.page.reload()
    phone.page.wait_for_function("['roll', 'decide', 'over'].includes(document.body.dataset.state)")
    phone.page.evaluate("localStorage.setItem('yatzy.zero', 'ask')")   # the phones' default: ask
    return phone


def pad_on(phone):
    phone.page.click("#more-menu summary")
    phone.page.click("#pad-toggle")
    phone.page.wait_for_selector("#scorepad:not([hidden])")


def write_first_box(phone, last=True):
    """Tap the first open box and its highest (lowest) value; a 0 confirmed."""
    before = phone.moves()
    p = phone.page
    p.click("#pad-boxes button >> nth=0")
    p.click("#pad-values button >> nth=" + ("-1" if last else "0"))
    if p.is_visible("#zero-confirm[open]"):
        p.click("#zero-yes")
    phone.wait_moves(before + 2)


def test_a_game_on_the_score_pad(browser, server):
    phone = Phone(browser, server, "nb").open(server.url)
    new_game(phone, ["Kari", "Ola"], 11)
    pad_on(phone)
    p = phone.page
    assert p.is_hidden("#pad") and p.is_hidden("#dice")
    axe(p, "score pad")
    p.fill("#pad-points", "18")                          # typed, then one tap on the box
    p.click("#pad-boxes [data-box='two_pairs@1']")
    phone.wait_moves(2)
    assert "Kari leder med 18 poeng" in p.inner_text("#family")
    p.fill("#pad-points", "19")                          # points the box cannot take
    p.click("#pad-boxes [data-box='two_pairs@1']")
    assert "kan ikke få 19" in p.inner_text("#pad-note") and phone.moves() == 2
    p.fill("#pad-points", "")
    p.click("#pad-boxes [data-box='yatzy@1']")           # a box, then its points: 0 asks first
    assert p.eval_on_selector_all("#pad-values button", "b => b.map((x) => +x.dataset.points)") == [0, 50]
    p.click("#pad-values [data-points='0']")
    p.wait_for_selector("#zero-confirm[open]")
    assert p.inner_text("#zero-h") == "Stryke yatzy?"
    p.click("#zero-no")
    assert phone.moves() == 2
    p.click("#pad-values [data-points='0']")
    p.check("#zero-never")                               # "Don't ask again on this phone"
    p.click("#zero-yes")
    phone.wait_moves(4)
    assert p.evaluate("localStorage.getItem('yatzy.zero')") == "write"
    p.click("#undo")                                     # the whole write, back to Ola's turn start
    p.wait_for_function("document.body.dataset.moves === '2' && document.body.dataset.state === 'roll'")
    assert p.inner_text("#turn") == "Ola sin tur" and p.is_visible("#scorepad")
    while phone.data("state") != "over":
        write_first_box(phone)
    p.wait_for_selector("#end[open] #review .history-best")      # the history comes after
    text = p.inner_text("#end")
    assert "Ført som poengblokk" in text and "første spill registrert" in text
    axe(p, "the end of a score-pad game")
    assert phone.errors == []


def test_the_end_review_names_each_persons_loss(browser, server, shots):
    g = Game("nordic", ["Kari", "Ola"], seed=21)
    while not (not g.needs_roll and sum(p is None for c in g.cards for p in c.points) == 1):
        if g.needs_roll:
            g.play("roll")
        else:
            legal = [a for a in g.legal_actions() if str(a).startswith("score")]
            g.play(str(legal[0]))                          # the first box: often a waste
    phone = load(Phone(browser, server, "nb").open(server.url), g.to_dict())
    phone.page.click("#protokoll .cell-btn >> nth=0")
    if phone.page.is_visible("#zero-confirm[open]"):
        phone.page.click("#zero-yes")
    phone.page.wait_for_selector("#end[open] .review-loss")
    g = Game.from_dict(phone.page.evaluate(
        "import('/static/state.js').then((m) => m.S.view.game)"), None)
    assert g.is_over
    losses = phone.page.eval_on_selector_all("#review .review-loss",
                                             "els => els.map((e) => +e.dataset.loss)")
    assert losses == [pytest.approx(g.review(s).total_loss, abs=1e-9) for s in (0, 1)]
    review = phone.page.inner_text("#review")
    assert "Kari kunne fått" in review and "poeng mer" in review and "tur " in phone.page.inner_text("#review .review-worst")
    assert "Før" not in review and "Behold" not in review     # nb's verb, lower case mid-sentence
    phone.page.screenshot(path=str(shots / "end-review-nb.png"))
    assert phone.errors == []



def careless(rules, players, seed, left=1):
    """A game played to ``left`` open boxes by writing the first legal box
    each turn (often a waste: a review with losses)."""
    g = Game(rules, players, seed=seed)

    def open_boxes():
        return sum(p is None for card in g.cards for c in card.columns for p in c.points)
    while not (not g.needs_roll and open_boxes() == left):
        if g.needs_roll:
            g.play("roll")
        else:
            g.play(str([a for a in g.legal_actions() if str(a).startswith("score")][0]))
    return g


@pytest.mark.parametrize("width, height", [(360, 640), (390, 844)])
def test_the_end_review_is_one_tap_from_the_top_of_the_dialog_on_a_phone(browser, server, shots,
                                                                        width, height):
    """At game end on a phone the review is under the ranking and three
    buttons, below the fold: a link under the ranking, in view when the
    dialog opens (the focus still on "New game"), brings its heading and
    the first person's loss into view and moves the focus there."""
    from yatzy.rules.words import catalogue
    phone = Phone(browser, server, "nb")
    p = phone.page
    p.set_viewport_size({"width": width, "height": height})
    game = careless("nordic", ["Kari", "Ola", "Ingrid", "Magnus"], 21)
    load(phone.open(server.url), game.to_dict())
    p.click("#protokoll .cell-btn >> nth=0")
    if p.is_visible("#zero-confirm[open]"):
        p.click("#zero-yes")
    p.wait_for_selector("#end[open] .review-loss")
    p.wait_for_timeout(300)                              # the history drawn under it
    assert p.evaluate("document.activeElement.id") == "again"
    link = p.eval_on_selector("#to-review", "e => [e.textContent, e.getBoundingClientRect().top,"
                              " e.getBoundingClientRect().bottom, e.getBoundingClientRect().height]")
    assert link[0] == catalogue("nb")["page"]["toReview"]
    assert 0 <= link[1] and link[2] <= height and link[3] >= 44, link
    shown = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect(),
        d = document.querySelector('#end').getBoundingClientRect();
        return r.top >= d.top - 1 && r.bottom <= Math.min(d.bottom, innerHeight) + 1; }"""
    assert not p.evaluate(shown, "#review")              # more review than the dialog shows
    p.screenshot(path=str(shots / f"end-link-{width}-nb.png"))
    p.tap("#to-review")
    p.wait_for_function(shown, arg="#review .review-loss")
    head = p.eval_on_selector("#review h3", "e => [e.textContent, document.activeElement === e]")
    assert head == [catalogue("nb")["page"]["reviewTitle"], True]
    assert p.evaluate(shown, "#review h3")
    p.screenshot(path=str(shots / f"end-review-{width}-nb.png"))
    axe(p, f"the end review at {width} px")
    assert phone.errors == []


def test_a_game_of_one_names_its_player_not_a_winner(browser, server):
    """A game of one beats nobody: the end says what the player scored (not
    "Kari vinner", as the coach names no winner either), no ranking of one,
    and the link and heading of the review name the player, not "each"."""
    from yatzy.rules.words import catalogue
    words = catalogue("nb")["page"]
    phone = Phone(browser, server, "nb")
    p = phone.page
    p.set_viewport_size({"width": 360, "height": 640})
    load(phone.open(server.url), careless("nordic", ["Kari"], 5).to_dict())
    p.click("#protokoll .cell-btn >> nth=0")
    if p.is_visible("#zero-confirm[open]"):
        p.click("#zero-yes")
    p.wait_for_selector("#end[open] .review-loss")
    g = Game.from_dict(p.evaluate("import('/static/state.js').then((m) => m.S.view.game)"), None)
    assert g.is_over
    assert p.inner_text("#winner") == words["soloScore"].format(name="Kari", score=g.scores()[0])
    assert p.inner_text("#sub") == p.inner_text("#winner")
    assert not p.is_visible("#ranking")
    assert "vinner" not in p.inner_text("#end")
    assert p.inner_text("#to-review") == words["toReviewSolo"].format(name="Kari")
    p.tap("#to-review")
    head = p.eval_on_selector("#review h3", "e => [e.textContent, document.activeElement === e]")
    assert head == [words["reviewTitleSolo"].format(name="Kari"), True]
    axe(p, "the end of a game of one")
    assert phone.errors == []


def test_trippels_weighted_totals_are_said_once_in_the_chips(browser, server, shots):
    """Trippel's chips are the weighted totals; the line under the turn no
    longer lists them again ("Vektet sum: Kari 22 · Ola 0"): the totals
    bar is named "Vektet sum" once."""
    from yatzy.rules.words import catalogue
    g = Game("triple", ["Kari", "Ola"], seed=3)
    g.play("roll")
    g.play(str(max((a for a in g.legal_actions() if str(a).startswith("score")),
                   key=lambda a: a.points * int(a.column))))
    phone = load(Phone(browser, server, "nb").open(server.url), g.to_dict())
    p = phone.page
    p.set_viewport_size({"width": 360, "height": 640})
    p.wait_for_function("(document.querySelector('#family') || {}).textContent.includes('leder')")
    chips = p.eval_on_selector_all("#totals .chip strong", "els => els.map((e) => e.textContent)")
    assert chips == [str(s) for s in g.scores()] and g.scores()[0] > 0         # weighted: ×column
    family = p.inner_text("#family")
    assert f"Kari {g.scores()[0]}" not in family and "Vektet" not in family, family
    assert p.get_attribute("#totals", "aria-label") == catalogue("nb")["page"]["totalsWeighted"]
    p.screenshot(path=str(shots / "triple-chips-360-nb.png"))
    axe(p, "Trippel's totals")
    assert phone.errors == []

def test_trippels_review_says_its_losses_are_the_strategys_estimates(browser, server):
    """Trippel has no exact solution: the running loss and the end review
    say its losses are the strategy's estimates, not losses against best
    play (a Nordic review says "mot beste spill": the test above)."""
    from yatzy.scorepad import pad_values
    from yatzy.session import Session
    g = Game("triple", ["Kari"], seed=21)

    def left():
        return sum(p is None for card in g.cards for c in card.columns for p in c.points)
    while left() > 3:                                    # the pad's turns: quick, unrated
        (col, box), points = next(iter(pad_values(g).items()))
        Session(g).write(box, points[-1], col)
    while not (not g.needs_roll and left() == 1):        # two turns with dice: rated
        if g.needs_roll:
            g.play("roll")
        else:
            g.play(str([a for a in g.legal_actions() if str(a).startswith("score")][-1]))
    phone = load(Phone(browser, server, "nb").open(server.url), g.to_dict())
    p = phone.page
    p.wait_for_function("(document.querySelector('#family') || {}).textContent.includes('Kari')")
    family = p.inner_text("#family")
    assert "Kari kunne hatt om lag" in family and "(strategiens anslag)" in family
    assert "mot beste spill" not in family
    p.click("#protokoll .cell-btn >> nth=0")
    if p.is_visible("#zero-confirm[open]"):
        p.click("#zero-yes")
    p.wait_for_selector("#end[open] .review-loss")
    review = p.inner_text("#review")
    assert "Trippel-Yatzy regnes ikke ut nøyaktig" in p.inner_text("#review .review-estimates")
    assert "Kari kunne fått om lag" in review and "etter strategiens anslag" in review
    assert "mot beste spill" not in review and "best var" not in review
    worst = p.inner_text("#review .review-worst")
    assert "strategien valgte" in worst
    axe(p, "Trippel's end review")
    assert phone.errors == []


def test_a_phone_joins_by_the_short_code_and_sees_the_last_move(browser, server):
    a = Phone(browser, server, "nb").open(server.url)
    new_game(a, ["Kari", "Ola"], 5)
    a.page.click("#table-button")
    a.page.click("#table-make-ok")
    a.page.wait_for_selector("#table-short .short-code")
    short = a.page.inner_text("#table-short .short-code")
    b = Phone(browser, server, "nb")
    b.context.close()
    b.context = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 640}},
                                    bypass_csp=True, service_workers="block")
    b.page = b.context.new_page()
    b.page.on("pageerror", lambda e: b.errors.append(str(e)))
    b.open(server.url + "/?lang=nb")
    assert b.page.is_visible("#join-code")               # first in the panel, at 360 x 640
    b.page.fill("#join-code", "ZZZZZZ" if short != "ZZZZZZ" else "YYYYYY")
    b.page.click("#join-ok")
    b.page.wait_for_function("document.querySelector('#join-note').textContent !== ''")
    assert b.page.inner_text("#join-note") == "Ingen bord har den koden."
    b.page.fill("#join-code", short[:3].lower() + " " + short[3:])
    b.page.click("#join-ok")
    b.page.wait_for_function("document.body.dataset.table !== ''")
    a.page.click("#table-close")
    a.page.click("#seat-choices [data-seat='0']")
    b.page.click("#seat-choices [data-seat='1']")
    pad_on(a)
    write_first_box(a)
    b.page.wait_for_function("document.querySelector('.last-move') && "
                             "document.querySelector('.last-move').textContent.includes('Kari')")
    assert "Kari leder med" in b.page.inner_text("#family")
    assert a.errors == [] and b.errors == []
    assert json.loads(b.page.evaluate("JSON.stringify(document.body.dataset)"))["table"]


def write_chance(p):
    """Write Kari's or Ola's chance ×1 from the card (a click on the button:
    the layout of the card is tests/web/test_layouts.py's)."""
    p.eval_on_selector("#protokoll .cell-btn[data-box='chance@1']", "e => e.click()")


def test_trippels_pad_reads_by_column_and_a_dice_turn_after_pad_writes_is_rated(browser, server, shots):
    """Trippel's 45 boxes on the pad are three groups, one per column, at
    360 px with no sideways scroll; after pad writes a turn played with
    dice is rated, and the pad's turns are said to be unrated."""
    phone = new_game(Phone(browser, server, "nb").open(server.url), ["Kari", "Ola"], 4, "triple")
    p = phone.page
    p.set_viewport_size({"width": 360, "height": 640})
    pad_on(phone)
    groups = p.eval_on_selector_all("#pad-boxes .pad-col", """gs => gs.map((g) => [
        g.querySelector('.pad-col-h').textContent,
        [...g.querySelectorAll('button')].map((b) => b.dataset.box.split('@')[1])])""")
    assert [g[0] for g in groups] == ["Kolonne ×1", "Kolonne ×2", "Kolonne ×3"]
    assert [g[1] for g in groups] == [[str(c)] * 15 for c in (1, 2, 3)]
    assert p.get_attribute("#pad-boxes [data-box='chance@2']", "aria-label") == "sjanse ×2"
    assert p.evaluate("document.documentElement.scrollWidth") <= 360
    axe(p, "Trippel's score pad")
    p.eval_on_selector("#scorepad", "e => e.scrollIntoView()")
    p.screenshot(path=str(shots / "score-pad-triple-360-nb.png"))
    for points, moves in ((22, 2), (18, 4)):             # Kari, then Ola, from the pad
        p.fill("#pad-points", str(points))
        p.click("#pad-boxes [data-box='chance@2']")
        phone.wait_moves(moves)
    family = p.inner_text("#family")
    assert "1 tur ført fra poengblokka er ikke vurdert" in family and "kunne hatt" not in family
    p.click("#pad-off")                                  # Kari's next turn with dice
    p.click("#roll")
    p.wait_for_function("document.body.dataset.state === 'decide'")
    write_chance(p)
    phone.wait_moves(6)
    assert "Ola" in p.inner_text("#turn")
    p.click("#roll")                                     # Ola with dice too: then Kari's line
    p.wait_for_function("document.body.dataset.state === 'decide'")
    write_chance(p)
    phone.wait_moves(8)
    family = p.inner_text("#family")
    assert "Kari kunne hatt" in family and "· 1 tur ført fra poengblokka er ikke vurdert" in family
    view = p.evaluate("import('/static/state.js').then((m) => m.S.view)")
    # the page's copy has its seed sealed: replayed with its rolls as typed ones
    g = Game.from_dict({**view["game"], "seed": 0, "drawn": [], "draw_numbers": []}, None)
    from yatzy.session import Session
    s = Session(g)
    assert s.losses()[:4] == (None,) * 4 and s.losses()[5] is not None
    assert view["family"]["ledger"] == {"0": s.loss(0), "1": s.loss(1)}
    assert view["family"]["unrated"] == {"0": 1, "1": 1}
    assert phone.errors == []


def test_the_end_review_comes_when_advice_is_switched_on(browser, server):
    """Advice off at the end: the review says to switch advice on; switching
    it on shows the review there and then, without a reload."""
    from yatzy.rules.words import catalogue
    words = catalogue("nb")["page"]
    phone = Phone(browser, server, "nb")
    p = phone.page
    load(phone.open(server.url), careless("nordic", ["Kari", "Ola"], 21).to_dict())
    p.select_option("#mode", "off")
    p.click("#protokoll .cell-btn >> nth=0")
    if p.is_visible("#zero-confirm[open]"):
        p.click("#zero-yes")
    p.wait_for_selector("#end[open] #review .note")
    assert words["reviewOff"] in p.inner_text("#review")
    p.keyboard.press("Escape")                            # the dialog closed, advice on
    p.wait_for_selector("#end:not([open])", state="attached")
    p.select_option("#mode", "full")
    p.wait_for_selector("#end[open] #review .review-loss")
    assert words["reviewOff"] not in p.inner_text("#review")
    assert phone.errors == []
