"""Every rule set on a phone: Playwright driving Debian's chromium with
touch at 360 x 640 and 390 x 844 CSS px, in Norwegian (the longest words).

For Nordic, forced order, Yahtzee, Maxi (six dice) and Trippel-Yatzy with
1 to 6 players (computer seats among them): no horizontal page scroll (the
card scrolls inside its own box, its header row and first column staying in
view), every die and a kept die's label inside its slot, the toolbar in one
row, the first advice row above the fold and the totals bar; after a lower
box is written the next turn's banner and roll button are in view and the
focus is on a control, not the page.  The pictures are
``RULES-WIDTH.png`` (the card: ``RULES-WIDTH-card.png``) in the test's
temporary folder, or in ``$YATZY_SCREENSHOTS`` (``conftest.screenshots_folder``).

Maxi's table takes hours to solve, so its game is played by the library's
``Game`` in this test (``game_json`` as the server answers it, without the
solver's values): the page and its layout are the real ones.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from unittest.mock import patch

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)",
                allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("uvicorn", reason="uvicorn is not installed (the web extra)")

from yatzy import Solver  # noqa: E402
from yatzy.game import Game  # noqa: E402
from yatzy.web.app import game_json  # noqa: E402

from .test_page import browser, server  # noqa: E402,F401  (the page tests' fixtures)

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("YATZY_AXE", ROOT / ".venv" / "node" / "node_modules" / "axe-core"
                          / "axe.min.js"))
SIZES = {360: 640, 390: 844}
NAMES = ["Kari", "Ola", "Ingrid", "Magnus", "Sofie", "Henrik"]


def maxi_answers(folder):
    """A Playwright route handler answering the game requests of Maxi games
    as the server would, without the solver's values (no table needed)."""
    def handle(route, request):
        body = json.loads(request.post_data or "{}")
        spec = body.get("rules") or (body.get("game") or {}).get("rules")
        if spec != "maxi":
            return route.continue_()
        solver = Solver("maxi", tables=folder)
        if request.url.endswith("/api/game/new"):
            game = Game(solver, body["players"], seed=11)
        else:
            game = Game.from_dict(body["game"], solver)
            if body.get("move"):
                game.play(body["move"])
        with patch.object(Game, "expected_score", return_value=None):   # no Maxi table here
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps(game_json(game, coach=False)))
    return handle


def maxi_offered(route, request):
    """``/api/rules?spec=maxi`` as a server holding Maxi's table answers it
    (the page's Start waits for it, and stays off for rules it cannot play)."""
    answer = route.fetch()
    body = answer.json()
    body["unavailable"] = None
    route.fulfill(response=answer, json=body)


class Phone:
    def __init__(self, browser, server, width, tmp_path, shots):
        self.width, self.height, self.shots = width, SIZES[width], shots
        self.context = browser.new_context(
            viewport={"width": width, "height": self.height}, has_touch=True, is_mobile=True,
            device_scale_factor=1, bypass_csp=True, service_workers="block")
        # a computer seat waits a minute: the pictures show a person's turn
        self.context.add_init_script("localStorage.setItem('yatzy.delay', '60000');"
                                     "localStorage.setItem('yatzy.lang', 'nb');"
                                     "localStorage.setItem('yatzy.zero', 'write');")   # no 'cross out?' (confirm.js)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route("**/api/game/**", maxi_answers(tmp_path))
        self.page.route("**/api/rules?spec=maxi", maxi_offered)
        self.page.goto(server + "/")
        self.page.wait_for_selector("#new-game:not([hidden])")

    def wait(self, *states):
        self.page.wait_for_function(f"{list(states)!r}.includes(document.body.dataset.state)",
                                    timeout=60000)
        return self.page.evaluate("document.body.dataset.state")

    def start(self, rules, players):
        p = self.page
        p.select_option("#players-count", str(len(players)))
        for i, name in enumerate(players):
            name, _, kind = name.partition("=")
            p.fill(f"#player-name-{i}", name)
            p.select_option(f"#player-kind-{i}", kind or "human")
        if rules == "maxi":                          # not offered (no table): typed as a spec
            p.fill("#rules-spec", "maxi")
            p.wait_for_selector("#start:not([disabled])")
        else:
            p.select_option("#rules-select", rules)
        p.tap("#start")
        assert self.wait("roll") == "roll"

    def fold(self):
        """The bottom of what is seen: the viewport above the totals bar."""
        return self.height - self.page.evaluate("document.querySelector('#totals').offsetHeight")

    def no_sideways_scroll(self, where):
        p = self.page
        wide = p.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        assert wide <= self.width, (where, wide)
        out = p.evaluate("""w => [...document.querySelectorAll('#toolbar > *, #dice .die, #faces .face,'
            + ' #pad button, #totals .chip, #card .scroll, #turn')].filter(e => e.offsetParent)
            .map(e => [e.id || e.className, e.getBoundingClientRect().left, e.getBoundingClientRect().right])
            .filter(([, l, r]) => l < 0 || r > w)""", self.width)
        assert out == [], (where, out)

    def labels_in_slots(self, where):
        spill = self.page.evaluate("""() => [...document.querySelectorAll('#dice .die')].map(d => {
            const m = d.querySelector('.mark'), a = d.getBoundingClientRect(), b = m.getBoundingClientRect();
            return [d.dataset.index, m.scrollWidth - m.clientWidth, b.left - a.left, a.right - b.right];
        }).filter(([, over, l, r]) => over > 0 || l < 0 || r < 0)""")
        assert spill == [], (where, spill)

    def axe(self, where):
        """axe-core on the page as it is: no violation of any impact."""
        if not AXE.exists():
            pytest.skip(f"axe-core is not installed at {AXE}")
        if not self.page.evaluate("!!window.axe"):
            self.page.add_script_tag(path=str(AXE))
        result = self.page.evaluate("""() => axe.run(document, {runOnly: ['wcag2a', 'wcag2aa',
            'wcag21a', 'wcag21aa', 'best-practice']})""")
        bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
               for v in result["violations"]]
        assert bad == [], (where, bad)

    def shot(self, name):
        path = self.shots / f"{name}.png"
        self.page.screenshot(path=str(path))
        assert path.stat().st_size < 200_000, path


CASES = {
    "nordic": ["Kari", "Ola=optimal"],
    "forced": ["Kari", "Ola"],
    "yahtzee": ["Kari", "Ola", "Ingrid=optimal"],
    "maxi": ["Kari", "Ola"],
    **{f"triple-{n}": [NAMES[0], *[f"{name}={'step' if i % 2 else 'human'}"
                                   for i, name in enumerate(NAMES[1:n])]] for n in range(1, 7)},
}
PICTURED = {"nordic", "forced", "yahtzee", "maxi", "triple-2", "triple-4", "triple-6"}


@pytest.mark.parametrize("width", sorted(SIZES))
@pytest.mark.parametrize("case", list(CASES))
def test_every_rule_set_fits_a_phone_and_follows_the_turn(browser, server, tmp_path, shots, case, width):
    rules = case.split("-")[0]
    phone = Phone(browser, server, width, tmp_path, shots)
    p = phone.page
    try:
        phone.start(rules, CASES[case])
        tops = p.eval_on_selector_all("#toolbar > *", "els => els.map(e => e.getBoundingClientRect().top)")
        assert len(set(tops)) == 1, ("the toolbar wraps", tops)
        phone.no_sideways_scroll("rolling")
        p.tap("#roll")
        assert phone.wait("decide") == "decide"
        phone.no_sideways_scroll("deciding")
        phone.labels_in_slots("deciding")
        if rules != "maxi":                          # the first advice row above the fold
            first = p.eval_on_selector("#advice li:first-child", "e => e.getBoundingClientRect().bottom")
            assert first <= phone.fold(), ("first advice row", first, phone.fold())
        if case in PICTURED:
            phone.shot(f"{case}-{width}")
            phone.axe("deciding")

        # the card: its own box scrolls, header row and first column stay
        box = p.eval_on_selector("#card .scroll", "e => (e.scrollIntoView(), e.scrollTop = 200,"
                                 " e.scrollLeft = 400, [e.getBoundingClientRect().top,"
                                 " e.getBoundingClientRect().left, e.scrollTop, e.scrollLeft])")
        head = p.eval_on_selector("#protokoll thead th.name", "e => e.getBoundingClientRect().top")
        label = p.eval_on_selector("#protokoll tbody th.label", "e => e.getBoundingClientRect().left")
        assert box[2] > 0, "the card fits its box: nothing to scroll"
        assert abs(head - box[0]) <= 2, ("header row", head, box)
        assert abs(label - box[1]) <= 2, ("first column", label, box)
        phone.no_sideways_scroll("card")
        if case in PICTURED:
            p.eval_on_selector("#card .scroll", "e => (e.scrollTop = 0, e.scrollLeft = 0)")
            phone.shot(f"{case}-{width}-card")

        # a lower box written from the card: the next turn comes into view
        cell = p.query_selector_all("#protokoll button.cell-btn[data-box^='chance']") \
            or p.query_selector_all("#protokoll button.cell-btn")     # forced order: the next box
        cell[-1].tap()
        state = phone.wait("roll", "computer")
        banner = p.eval_on_selector("#turn", "e => e.getBoundingClientRect().top")
        roll = p.eval_on_selector("#roll", "e => e.getBoundingClientRect().bottom")
        assert banner >= 0 and roll <= phone.fold(), ("after a lower box", banner, roll)
        focused = p.evaluate("document.activeElement.id || document.activeElement.tagName")
        assert focused == ("roll" if state == "roll" else "turn"), focused
        # a card wider than the phone has scrolled sideways to the mover's columns, whole
        mover = p.evaluate("""() => { const box = document.querySelector('#card .scroll').getBoundingClientRect();
            const head = document.querySelector('#protokoll thead th.now').getBoundingClientRect();
            const label = document.querySelector('#protokoll thead th.label').getBoundingClientRect();
            return [head.left - label.right, box.right - head.right]; }""")
        assert min(mover) >= -1, ("the mover's columns are off the card", mover)
        phone.no_sideways_scroll("next turn")
        if case in PICTURED:
            phone.axe(state)
        if case in ("nordic", "triple-4"):
            phone.shot(f"{case}-{width}-next")
        # a kept die's label in its slot
        if state == "roll":
            # real dice typed in: a keep then waits for the rest to be typed (the server's
            # dice would roll the rest at once), its kept dice in their slots
            for k in range(p.evaluate("document.querySelectorAll('#dice .die').length")):
                p.tap(f"#faces button[data-face='{k % 6 + 1}']")
            phone.wait("decide")
            # the next person's open boxes, further right on the card, widen nothing
            # (their screen-reader words are held by the card's box: no layout viewport past the phone)
            phone.no_sideways_scroll("the next person deciding")
            assert p.evaluate("innerWidth") == width, ("the page is wider than the phone", p.evaluate("innerWidth"))
            p.tap("#dice .die[data-index='0']")
            p.tap("#keep")
            phone.wait("roll")
            phone.labels_in_slots("kept")
        assert phone.errors == []
    finally:
        phone.context.close()


@pytest.mark.parametrize("width", sorted(SIZES))
def test_maxis_saved_rolls_are_seen_and_used_on_a_phone(browser, server, tmp_path, shots, width):
    """Maxi saves the rerolls a turn leaves: the hint says what writing now
    saves, the next turn's line says the rolls saved before its roll, and
    the turn then has them (more rerolls than four rolls give), all above
    the totals bar at 360 x 640 and 390 x 844 with no sideways scroll
    (pictured: ``maxi-bank-WIDTH.png``, the turn with its saved rolls)."""
    phone = Phone(browser, server, width, tmp_path, shots)
    p = phone.page

    def in_view(sel):
        box = p.eval_on_selector(sel, "e => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]")
        assert box[0] >= 0 and box[1] <= phone.fold(), (sel, box, phone.fold())

    def write_chance():
        p.tap("#protokoll button.cell-btn[data-box='chance']")
        phone.wait("roll")

    try:
        phone.start("maxi", ["Kari", "Ola"])
        p.tap("#roll")
        phone.wait("decide")
        assert "Skriver du nå, spares 3 kast til senere." in p.inner_text("#hint")
        in_view("#hint")
        write_chance()                                   # Kari banks 3
        p.tap("#roll")
        phone.wait("decide")
        write_chance()                                   # Ola banks 3
        assert "Kari" in p.inner_text("#turn") and "3 sparte kast" in p.inner_text("#sub")
        in_view("#sub")
        bank = p.eval_on_selector_all("#protokoll tr.sum", "rs => rs.map((r) => r.innerText)")
        assert any(r.startswith("Spart") and "3" in r for r in bank), bank
        p.tap("#roll")
        phone.wait("decide")
        phone.shot(f"maxi-bank-{width}")                 # 6 rerolls, 3 of them saved
        for left in (6, 5, 4, 3):                        # the saved rolls used: more than 3 rerolls
            assert f"{left} omkast igjen" in p.inner_text("#sub"), (left, p.inner_text("#sub"))
            p.tap("#dice .die[data-index='0']")
            in_view("#keep")
            moves = int(p.evaluate("document.body.dataset.moves"))
            p.tap("#keep")                               # kept, and the rest rolled at once
            p.wait_for_function(f"+document.body.dataset.moves >= {moves + 2}"
                                " && document.body.dataset.state === 'decide'")
            phone.no_sideways_scroll(f"{left} rerolls left")
        assert "2 omkast igjen" in p.inner_text("#sub")
        assert "spares 2 kast" in p.inner_text("#hint")
        dice, hint, keep = (p.eval_on_selector(s, "e => e.getBoundingClientRect()")
                            for s in ("#dice", "#hint", "#keep"))
        assert dice["y"] + dice["height"] <= hint["y"] and hint["y"] + hint["height"] <= keep["y"], \
            ("the hint runs into the dice or the button", dice, hint, keep)
        assert phone.errors == []
    finally:
        phone.context.close()
