"""The page in a real browser at phone size: Playwright for Python driving
Debian's ``chromium`` (nothing is downloaded) at 390 x 844 CSS px with touch.

A whole game against a computer seat, with undo across the computer's
moves; the computer never moves for a person; every control at least
44 x 44; no page error after tapping every control of a fresh page; six long
names without horizontal scroll; no English on the Norwegian and Swedish
pages; axe-core (installed by ``.ci/run`` from npm) on the first load,
mid-game and the end screen in en, nb and sv; a game opened from a
``?game=`` link; the screenshots (in the test's temporary folder, or
``$YATZY_SCREENSHOTS``: ``conftest.screenshots_folder``).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed (the web extra)")

from yatzy import Solver  # noqa: E402
from yatzy.game import Game  # noqa: E402
from yatzy.session import Session
from yatzy.web.app import create_app  # noqa: E402

from .servers import chromium, served  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("YATZY_AXE", ROOT / ".venv" / "node" / "node_modules" / "axe-core"
                          / "axe.min.js"))
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 1}
LONG_NAMES = ["Bartholomew Fitzgerald", "Maximiliana Oksanen", "Wilhelmina Johansson",
              "Konstantin Abrahamsen", "Alexandrina Kristoffersen", "Sebastian Gundersen-Lie"]
CONTROLS = "button, select, input, textarea, summary, a[href]"


@pytest.fixture(scope="module")
def server(nordic, tables_dir):
    with served(create_app("nordic", tables_dir)) as running:
        yield running.url


@pytest.fixture(scope="module")
def browser():
    with chromium(CHROMIUM) as b:
        yield b


class Page:
    """A phone-sized page with its errors collected; ``delay``: ms before a
    computer's move."""

    def __init__(self, browser, server, delay=0, lang=None, device=PHONE):
        # bypass_csp: Playwright's waiting conditions and axe are scripts of the test
        self.context = browser.new_context(**device, bypass_csp=True, service_workers="block")
        init = f"localStorage.setItem('yatzy.delay', '{delay}');"
        init += "localStorage.setItem('yatzy.zero', 'write');"     # no 'cross out?' (confirm.js)
        if lang:
            init += f"if (!localStorage.getItem('yatzy.lang')) localStorage.setItem('yatzy.lang', '{lang}');"
        self.context.add_init_script(init)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     and not m.text.startswith("Failed to load resource") else None)
        self.refused = []                            # answers 4xx and 5xx
        self.page.on("response", lambda r: self.refused.append((r.status, r.url))
                     if r.status >= 400 else None)
        self.server = server

    def open(self, query=""):
        self.page.goto(self.server + "/" + query)
        self.page.wait_for_function("document.body.dataset.state && document.body.dataset.state !== 'busy'"
                                    " && (document.body.dataset.state !== 'none' || "
                                    "!document.querySelector('#new-game').hidden)")
        return self

    def state(self):
        return self.page.evaluate("document.body.dataset.state")

    def moves(self):
        return int(self.page.evaluate("document.body.dataset.moves"))

    def wait(self, *states):
        self.page.wait_for_function(
            f"{list(states)!r}.includes(document.body.dataset.state)", timeout=20000)
        return self.state()

    def start(self, players, rules=None):
        p = self.page
        if p.is_hidden("#new-game"):
            p.tap("#new-game-button")
        p.select_option("#players-count", str(len(players)))
        for i, name in enumerate(players):
            name, _, kind = name.partition("=")
            p.fill(f"#player-name-{i}", name)
            p.select_option(f"#player-kind-{i}", kind or "human")
        if rules:
            p.select_option("#rules-select", rules)
        p.tap("#start")
        return self.wait("roll", "computer")

    def view(self):
        return self.page.evaluate("JSON.parse(localStorage.getItem('yatzy.view'))")

    def close(self):
        self.context.close()


@pytest.fixture
def make(browser, server):
    pages = []

    def make_page(**kw):
        pages.append(Page(browser, server, **kw))
        return pages[-1]
    yield make_page
    for p in pages:
        assert p.errors == [], p.errors
        assert [r for r in p.refused if r[0] >= 500] == []
        p.close()


def game_link(game: Game) -> str:
    text = json.dumps(game.to_dict())
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def finished_game(tables_dir, players=("Ann", "Bob")) -> Game:
    game = Game(Solver("nordic", tables=tables_dir), list(players), seed=5)
    while not game.is_over:
        Session(game).play_auto()
    return game


def mid_game(tables_dir) -> Game:
    game = Game(Solver("nordic", tables=tables_dir), ["Ann", "Bob"], seed=7)
    for move in ("roll 11256", "keep 5 6", "roll 566", "score full house", "roll 12346",
                 "score chance", "roll 13456", "keep 1", "roll 2222"):
        game.play(move)
    return game


def human_turn(page, pick=0):
    """Play the person's turn: roll for them, then the option ``pick`` (or
    the last shown) until a box is written."""
    p = page.page
    start = page.moves()
    p.tap("#roll")
    while True:
        page.wait("decide")
        options = p.query_selector_all("#advice li button.option")
        option = options[min(pick, len(options) - 1)]
        text = option.get_attribute("data-action")
        before = page.moves()
        option.tap()
        if text.startswith("score"):
            page.wait("roll", "decide", "computer", "over")
            return page.moves() - start
        # a keep after the server's dice rolls the rest in the same tap
        p.wait_for_function(f"+document.body.dataset.moves >= {before + 2}")


# ------------------------------------------------------------------ play
@pytest.mark.slow
def test_a_whole_game_against_the_computer_with_undo(make, tables_dir):
    page = make(delay=0).open()
    p = page.page
    assert page.start(["Ann", "Max=optimal"]) == "roll"
    p.tap("#faces button[data-face='1']")           # tapped dice
    for face in (1, 2, 5, 6):
        p.tap(f"#faces button[data-face='{face}']")
    page.wait("decide")
    solver = Solver("nordic", tables=tables_dir)
    shown = p.eval_on_selector_all("#advice button.option", "els => els.map(e => e.dataset.action)")
    assert shown == [str(a) for a in solver.advise("", "11256", 2).actions[:6]]
    assert p.get_attribute("#dice .die[data-index='4']", "aria-pressed") == "false"
    p.tap("#dice .die[data-index='4']")              # keep the 6
    assert p.get_attribute("#dice .die[data-index='4']", "aria-pressed") == "true"
    p.tap("#keep")
    page.wait("roll")
    assert p.is_disabled("#roll") is False and p.is_disabled("#back")
    p.tap("#roll")
    page.wait("decide")
    p.tap("#protokoll button.cell-btn >> nth=0")     # write a box from the card
    assert page.wait("roll") == "roll"               # Max played a whole turn meanwhile
    view = page.view()
    assert view["turn_player"] == 0 and view["turns_played"] == [1, 1]
    before_undo = page.moves()
    computer_moves = [m for m, seat in zip(view["game"]["moves"], _seats(view)) if seat == 1]
    assert computer_moves and computer_moves[-1].startswith("score")

    p.tap("#undo")                                   # back past Max's moves to Ann's choice
    assert page.wait("decide") == "decide"
    undone = page.view()
    assert undone["turn_player"] == 0 and undone["turns_played"] == [0, 0]
    assert page.moves() < before_undo and undone["can_redo"]
    time.sleep(0.4)
    assert page.moves() == undone["game"]["played"] and page.state() == "decide"
    p.tap("#redo")                                   # and forward again to Ann's next roll
    page.wait("roll")
    assert page.moves() == before_undo

    while page.state() != "over":
        human_turn(page)
        page.wait("roll", "over")
    final = page.view()
    assert final["is_over"] and all(n == 15 for n in final["turns_played"])
    p.wait_for_selector("#end[open]")
    winner = max(final["scores"])
    assert str(winner) in p.text_content("#winner")
    p.tap("#again")                                  # new game, same players
    page.wait("roll")
    again = page.view()
    assert [q["name"] for q in again["players"]] == ["Ann", "Max"] and again["game"]["moves"] == []
    assert p.is_hidden("#end[open]")


def _seats(view):
    """The seat of each move played (from the turns: a score ends a turn)."""
    seat, out, n = 0, [], len(view["players"])
    for move in view["game"]["moves"][:view["game"]["played"]]:
        out.append(seat)
        if move.startswith("score"):
            seat = (seat + 1) % n
    return out


def test_the_computer_never_moves_for_a_person(make):
    page = make(delay=500).open()
    p = page.page
    page.start(["Ann", "Max=optimal"])
    p.tap("#roll")
    page.wait("decide")
    p.tap("#protokoll button.cell-btn >> nth=0")
    assert page.wait("computer") == "computer"      # Max's turn: nothing of Ann's is live
    live = p.eval_on_selector_all(CONTROLS, "els => els.filter(e => !e.disabled && e.offsetParent"
                                            " && e.closest('#table, #card')).length")
    assert live == 0
    assert p.query_selector_all("#advice button, #protokoll button") == []
    time.sleep(0.7)
    p.wait_for_function("document.body.dataset.moves > 2")
    p.tap("#undo")                                   # undo while Max is playing
    assert page.wait("decide") == "decide"
    at = page.moves()
    time.sleep(1.2)                                  # Max's pending move was cancelled
    assert page.moves() == at and page.view()["turn_player"] == 0


def test_check_mode_names_the_verdict_and_clears_it(make, tables_dir):
    page = make().open()
    p = page.page
    page.start(["Ann", "Bob"])
    p.select_option("#mode", "check")
    for face in (1, 2, 3, 4, 6):
        p.tap(f"#faces button[data-face='{face}']")
    page.wait("decide")
    assert p.query_selector_all("#advice button") == []
    p.tap("#dice .die[data-index='0']")              # keep the 1: not the best
    p.tap("#keep")
    page.wait("roll")
    verdict = p.text_content("#verdict")
    best = Solver("nordic", tables=tables_dir).advise("", "12346", 2).best
    assert verdict.startswith("Ann:") and "cost" in verdict and " ".join(map(str, best.dice)) in verdict
    p.tap("#roll")
    page.wait("decide")
    assert p.text_content("#verdict").startswith("Ann:")   # her own roll keeps it
    p.evaluate("scrollTo(0, document.body.scrollHeight)")     # a lower box, far down the page
    p.tap("#protokoll button.cell-btn[data-box='chance']")
    page.wait("roll")
    assert p.text_content("#verdict").startswith("Ann:")
    seen = p.eval_on_selector("#verdict", "e => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]")
    totals = p.eval_on_selector("#totals", "e => e.getBoundingClientRect().top")
    assert seen[0] >= 0 and seen[1] <= totals, ("the verdict is in view", seen, totals)
    assert p.evaluate("document.activeElement.id") == "roll"     # Bob's roll, next
    p.tap("#roll")                                   # Bob's first move clears it
    page.wait("decide")
    assert p.text_content("#verdict") == ""


def test_keyboard_play_and_a_server_that_went_away(make):
    page = make().open()
    p = page.page
    page.start(["Ann", "Bob"])
    for key in "11256":                              # dice typed
        p.keyboard.press(key)
    page.wait("decide")
    p.keyboard.press("5")                            # keep the fifth die (the 6)
    assert p.get_attribute("#dice .die[data-index='4']", "aria-pressed") == "true"
    p.focus("#keep")
    p.keyboard.press("Enter")
    page.wait("roll")
    assert page.view()["kept"] == [6]
    p.route("**/api/**", lambda route: route.abort())   # the server is away
    for key in "1234":
        p.keyboard.press(key)
    p.wait_for_selector("#net:not([hidden])")
    assert "server" in p.text_content("#net")
    p.unroute("**/api/**")                           # back: the move is retried
    page.wait("decide")
    assert p.is_hidden("#net") and page.view()["dice"] == [1, 2, 3, 4, 6]
    p.focus("#advice button.option")
    p.keyboard.press("Enter")
    page.wait("roll", "decide")
    p.keyboard.press("Control+z")                    # undo from the keyboard
    page.wait("decide")
    assert page.view()["dice"] == [1, 2, 3, 4, 6]


DESKTOP = {"viewport": {"width": 1200, "height": 900}}


def test_a_keyboard_turn_needs_no_tab_and_the_keys_are_listed(make, tables_dir):
    """With a keyboard: after every action the focus is on the next useful
    control (never the page), so Enter alone plays a turn; the keys are
    listed in the page's language (not on a touch screen)."""
    page = make(device=DESKTOP, lang="nb").open()
    p = page.page
    p.click("#start")                                # two people
    page.wait("roll")
    assert p.evaluate("document.activeElement.id") == "roll"
    keys = p.inner_text("#keys")
    assert "Ctrl+Z" in keys and "angrer" in keys and p.is_visible("#keys")
    presses = 0
    while page.view()["turn_player"] == 0:
        assert p.evaluate("document.activeElement !== document.body"), presses
        p.keyboard.press("Enter")
        presses += 1
        page.wait("roll", "decide")
    assert presses <= 6 and page.view()["turns_played"] == [1, 0]
    assert p.evaluate("document.activeElement.id") == "roll"    # the next player's roll
    axe(p, "a keyboard, the keys listed, nb")
    phone = make(lang="nb").open()
    phone.page.tap("#start")
    phone.wait("roll")
    assert phone.page.is_hidden("#keys")


def test_advice_off_shows_no_value_of_the_solver(make):
    """With advice off: no expected score in the status line or the totals,
    no distribution, no best box, through a computer's turn; on again: back."""
    page = make(lang="en").open()
    p = page.page
    page.start(["Ann", "Max=optimal"])
    p.select_option("#mode", "off")

    def shown_values():
        evs = [e for e in page.view()["expected_scores"] if e is not None]
        values = {f"{e:,.1f}" for e in evs} | {f"{e:,.0f}" for e in evs}
        words = texts(p)
        return [w for w in words if "≈" in w or any(v in w for v in values)]

    for step in ("roll", "decide", "after"):
        if step == "decide":
            p.tap("#roll")
            page.wait("decide")
            assert p.query_selector_all("#advice li, #protokoll .cell-btn.best") == []
        if step == "after":
            p.tap("#protokoll button.cell-btn >> nth=0")
            page.wait("roll")
        assert shown_values() == [], step
        assert p.is_hidden("#chart")
    axe(p, "advice off")
    p.select_option("#mode", "full")
    assert shown_values() != [] and p.is_visible("#chart")


def test_the_bonus_pace_is_said_in_words(make, tables_dir):
    """The bonus row before the bonus is decided: how far short of (or over)
    the bonus the upper sum ends at par, in words, not a bare −1."""
    game = Game(Solver("nordic", tables=tables_dir), ["Ann", "Bob"], seed=7)
    for move in ("roll 11256", "score ones", "roll 66664", "score sixes"):
        game.play(move)
    link = game_link(game)
    for lang, ann, bob in (("en", "1 behind", "6 ahead"), ("nb", "1 bak", "6 foran"),
                           ("sv", "1 efter", "6 före")):
        page = make().open(f"?lang={lang}&game={link}")
        page.wait("roll")
        cells = page.page.eval_on_selector_all("#protokoll td.par", "els => els.map(e => "
                                               "[e.textContent, e.getAttribute('aria-label')])")
        assert [c[0] for c in cells] == [ann, bob], lang
        assert all("onus" in c[1] and ("pace" in c[1] or "tempo" in c[1] or "takt" in c[1]) for c in cells)


def test_a_reload_while_the_server_is_away_shows_the_game(browser, tables_dir, nordic):
    """The service worker keeps the page; the last answer is kept in the
    browser: the game shows, its controls off, and the page keeps trying."""
    with served(create_app("nordic", tables_dir), log_level="critical") as running:
        reload_while_away(browser, running)


def reload_while_away(browser, running) -> None:
    context = browser.new_context(**PHONE, bypass_csp=True)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{running.url}/")
        page.wait_for_selector("#new-game:not([hidden])")
        page.tap("#start")
        page.wait_for_function("document.body.dataset.state === 'roll'")
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        page.reload()                                # the worker now serves the page
        page.wait_for_function("document.body.dataset.state === 'roll'")
        running.stop()
        page.reload()
        page.wait_for_selector("#net:not([hidden])")
        assert page.evaluate("document.body.dataset.state") == "offline"
        assert "Player 1" in page.text_content("#turn") and page.is_disabled("#roll")
        assert errors == []
    finally:
        context.close()


def test_two_tabs_follow_each_other(make):
    first = make().open()
    first.start(["Ann", "Bob"])
    second = Page.__new__(Page)                      # a second tab of the same browser
    second.__dict__.update(first.__dict__, page=first.context.new_page(), errors=first.errors)
    second.page.on("pageerror", lambda e: first.errors.append(str(e)))
    second.open()
    assert second.wait("roll") == "roll"
    first.page.tap("#roll")
    first.wait("decide")
    second.page.wait_for_function("document.body.dataset.state === 'decide'")
    assert second.view()["dice"] == first.view()["dice"]


# ------------------------------------------------------------------ phone
def visible_controls(p):
    return p.evaluate("""sel => [...document.querySelectorAll(sel)].filter(e => {
        const r = e.getBoundingClientRect(), s = getComputedStyle(e);
        // inside the card's own scroll box: only what is wholly in it now
        const box = e.closest('.scroll') && e.closest('.scroll').getBoundingClientRect();
        const inBox = !box || (r.top >= box.top && r.bottom <= box.bottom && r.left >= box.left
                               && r.right <= box.right);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden]')
               && e.checkVisibility({visibilityProperty: true}) && !e.classList.contains('skip') && inBox;
    }).map(e => { const r = e.getBoundingClientRect();
        return {id: e.id || e.className || e.tagName, text: e.textContent.trim().slice(0, 30),
                x: r.x, y: r.y, w: r.width, h: r.height}; })""", CONTROLS)


def check_targets(p, where):
    controls = visible_controls(p)
    assert controls, where
    small = [c for c in controls if c["w"] < 44 or c["h"] < 44]
    assert small == [], (where, small)
    for i, a in enumerate(controls):                 # room between: no two touch
        for b in controls[i + 1:]:
            apart = max(b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]),
                        b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]))
            assert apart >= 2, (where, a, b)


def test_every_control_is_at_least_44_px_and_six_long_names_fit(make):
    page = make().open()
    p = page.page
    check_targets(p, "first load")
    p.tap("#more-menu summary")                      # the menu opens over the page
    menu = p.eval_on_selector_all("#more-menu .menu button", "els => els.map(e => "
                                  "[e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
    assert len(menu) == 6 and min(min(wh) for wh in menu) >= 44      # Practice, Score pad, Add to home screen
    p.tap("#more-menu summary")
    page.start(LONG_NAMES)
    check_targets(p, "rolling")
    p.tap("#roll")
    page.wait("decide")
    check_targets(p, "deciding, six players")
    for lang in ("en", "nb", "sv"):
        p.select_option("#lang", lang)
        width = p.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        assert width <= 390, (lang, width)
        heads = p.eval_on_selector_all("#protokoll thead th.name", "els => els.map(e => "
                                       "e.getBoundingClientRect().right)")
        assert len(heads) == 6 and max(heads) <= 390
    box = p.query_selector("#totals").bounding_box()   # the totals stay in view
    assert box["y"] + box["height"] <= 844 and box["y"] > 700


def test_tapping_every_control_of_a_fresh_page_throws_nothing(make, explained):
    """The handlers guard themselves: each control is enabled by force and
    clicked, before any game exists and then mid-game.  (The explanation
    table is built first: without it Practice is answered with the
    server's designed 503 while it builds, which ``refused`` would count.)"""
    for query in ("", None):
        page = make().open()
        p = page.page
        if query is None:
            page.start(["Ann", "Max=optimal"])
        ids = p.eval_on_selector_all("button, summary", "els => els.map((e, i) => "
                                     "(e.dataset.tapIndex = i, i))")
        for i in ids:
            p.evaluate("""i => { const e = document.querySelector(`[data-tap-index="${i}"]`);
                if (!e || e.closest('#end') && !document.querySelector('#end').open) return;
                e.disabled = false; e.click(); }""", i)
            p.wait_for_timeout(30)
        p.wait_for_timeout(300)
        p.keyboard.press("1")
        p.keyboard.press("Backspace")
        p.keyboard.press("Control+z")
        p.wait_for_timeout(300)
        assert page.errors == [] and page.refused == []


# ------------------------------------------------------------------ links, words
def texts(p):
    """Every visible text node, aria-label, title, placeholder and option of the page."""
    return set(p.evaluate("""() => {
        const out = [document.title];
        const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) {
            const n = walk.currentNode, e = n.parentElement;
            if (!n.textContent.trim() || !e || e.closest('[hidden]') || e.closest('script')) continue;
            if (e.closest('dialog') && !e.closest('dialog').open) continue;
            out.push(n.textContent.trim());
        }
        for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]'))
            if (!e.closest('[hidden]')) for (const a of ['aria-label', 'title', 'placeholder'])
                if (e.getAttribute(a)) out.push(e.getAttribute(a));
        return out; }"""))


SAME_IN_EVERY_LANGUAGE = {"Yatzy", "yatzy", "Bonus", "Sum", "OK", "English", "Norsk",
                          "Svenska", "Person", "Ann", "Bob", "Maxi", "best"}                  # "best" is Norwegian too


def test_game_link_and_no_english_on_nb_and_sv_pages(make, tables_dir):
    game = mid_game(tables_dir)
    link = "?game=" + game_link(game)
    en = make(lang="en").open(link)
    assert en.wait("decide") == "decide"
    shown = en.view()["game"]
    assert shown["seed"].startswith("sealed:")           # the page holds no seed it can use
    assert {**shown, "seed": game.seed} == game.to_dict()
    assert "game=" not in en.page.url                     # the link is consumed
    en.page.tap("#new-game-button")
    en.page.tap("#more-menu summary")                   # the menu's words too
    english = texts(en.page)
    for lang in ("nb", "sv"):
        other = make().open(f"?lang={lang}&game=" + game_link(game))
        other.wait("decide")
        assert other.page.evaluate("document.documentElement.lang") == lang
        other.page.tap("#new-game-button")
        other.page.tap("#more-menu summary")
        words = texts(other.page)
        # every text of the page is the catalogue's (GET /words.json) in the language
        page = other.page.evaluate("fetch('/words.json').then((r) => r.json())")[lang]["page"]
        assert other.page.inner_text("#new-game-h") == page["newTitle"]
        assert other.page.inner_text("#more-menu summary") == page["more"]
        left = {w for w in english & words if re.search(r"[^\W\d_]{2,}", w)
                and w not in SAME_IN_EVERY_LANGUAGE}
        assert left == set(), (lang, left)
        assert any("," in w and re.search(r"\d,\d", w) for w in words), "decimal commas"


# ------------------------------------------------------------------ accessibility
def axe(p, where):
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed at {AXE} (.ci/run installs it: "
                    "npm install --prefix .venv/node axe-core@4)")
    p.add_script_tag(path=str(AXE))
    result = p.evaluate("""() => axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a',
        'wcag21aa', 'best-practice']})""")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in result["violations"]]
    assert bad == [], (where, bad)


def test_axe_finds_nothing(make, tables_dir):
    first = make(lang="en").open()
    axe(first.page, "first load")
    link = game_link(mid_game(tables_dir))
    over = game_link(finished_game(tables_dir))
    for lang in ("en", "nb", "sv"):
        page = make().open(f"?lang={lang}&game={link}")
        page.wait("decide")
        page.page.tap("#dice .die[data-index='1']")
        axe(page.page, f"mid-game {lang}")
        end = make().open(f"?lang={lang}&game={over}")
        end.wait("over")
        end.page.wait_for_selector("#end[open]")
        axe(end.page, f"end screen {lang}")


def test_rule_sets_that_cannot_be_played_say_why(make):
    """maxi's table is not stored and takes too long to solve on demand: the
    page says so, with the command that solves it."""
    page = make().open()
    p = page.page
    labels = p.eval_on_selector_all("#rules-select option", "els => els.map(e => [e.value, e.textContent])")
    names = dict(labels)
    assert "unavailable" in names["maxi"] and "unavailable" not in names["nordic"]
    assert "unavailable" not in names["triple"]
    p.select_option("#rules-select", "maxi")
    note = p.text_content("#rules-note")
    assert "yatzy solve --rules maxi" in note and p.is_disabled("#start")
    assert "10.3 GiB, about 40 min to solve" in note, note      # the table's size and time
    p.select_option("#rules-select", "nordic")
    assert not p.is_disabled("#start")
    # a typed spec: Start only for one the server can play
    for spec, said in (("maxi", "GiB"), ("nordc", "Not accepted")):
        p.fill("#rules-spec", spec)
        p.wait_for_function("(s) => document.querySelector('#rules-note').textContent.includes(s)", arg=said)
        assert p.is_disabled("#start"), (spec, p.text_content("#rules-note"))
    p.fill("#rules-spec", "nordic:rolls=4")
    p.wait_for_selector("#start:not([disabled])")
    p.fill("#rules-spec", "")
    assert not p.is_disabled("#start")


def test_a_trippel_yatzy_game_has_three_columns_a_player(make, tables_dir, shots):
    """Trippel-Yatzy on the page: three columns per player, a box written in
    column 3 counts three times, the weighted total beside each column's."""
    page = make().open()
    p = page.page
    assert page.start(["Ann", "Bob"], rules="triple") == "roll"
    view = page.view()
    assert view["columns"] == 3 and view["column_weights"] == [1, 2, 3]
    heads = p.eval_on_selector_all("#protokoll tr.columns th", "els => els.length")
    assert heads == 1 + 2 * 3
    for face in (6, 6, 6, 6, 6):
        p.tap(f"#faces button[data-face='{face}']")
    page.wait("decide")
    targets = p.eval_on_selector_all("#protokoll button.cell-btn", "els => els.map(e => e.dataset.box)")
    assert "yatzy@3" in targets and "yatzy@1" in targets
    p.tap("#protokoll button.cell-btn[data-box='yatzy@3']")
    page.wait("roll")
    view = page.view()
    assert view["scores"][0] == 150 and view["game"]["moves"][-1].startswith("score yatzy@3")
    weighted = [r for r in view["protokoll"] if r["key"] == "weighted"][0]["cells"][0]
    assert weighted == [0, 0, 150]
    assert page.errors == []
    p.screenshot(path=str(shots / "triple.png"))


def test_every_playable_preset_starts(make):
    page = make().open()
    for preset in ("forced", "upper_first", "yahtzee"):
        assert page.start(["Ann"], rules=preset) == "roll"
        assert page.view()["rules"] == preset


# ------------------------------------------------------------------ pictures
def test_screenshots(make, tables_dir, shots):
    """Phone-sized pictures of the page for docs/ (looked at by a person)."""
    page = make(lang="en").open()
    page.page.screenshot(path=str(shots / "new-game.png"))
    page = make().open("?lang=en&game=" + game_link(mid_game(tables_dir)))
    page.wait("decide")
    page.page.tap("#dice .die[data-index='2']")
    page.page.screenshot(path=str(shots / "deciding.png"))
    page.page.evaluate("document.querySelector('#card').scrollIntoView()")
    page.page.screenshot(path=str(shots / "card.png"))
    page = make().open("?lang=nb&game=" + game_link(finished_game(tables_dir)))
    page.wait("over")
    page.page.wait_for_selector("#end[open]")
    page.page.screenshot(path=str(shots / "end-nb.png"))
    page = make(delay=3000).open("?lang=sv")        # six long names, a computer's turn
    page.start([LONG_NAMES[0], LONG_NAMES[1] + "=optimal", *LONG_NAMES[2:]])
    page.page.tap("#roll")
    page.wait("decide")
    page.page.tap("#protokoll button.cell-btn >> nth=2")
    page.wait("computer")
    page.page.evaluate("scrollTo(0, 0)")
    page.page.screenshot(path=str(shots / "computer-six-sv.png"))
    page.page.tap("#new-game-button")                # nothing pending once a new game starts
    for shot in shots.glob("*.png"):
        assert shot.stat().st_size < 200_000, shot
