"""A whole game on the page as a family plays it on a phone: Playwright
driving Debian's chromium with touch at a phone's size, every person's move
tapped (roll, a die or two kept, a box on the card, or the advice's top
option), the computer seats left to the page, until the game-over dialog.

After every move ``WholeGame`` checks what a person at the table would
meet: no sideways page scroll; after a written box the next turn's banner
and its roll button (or the computer's banner) in view above the totals
bar; in check mode the verdict on the decision in view; with saved rolls
a person's rolls saved named on the turn's line, in view; on an nb or sv page
no word that only the English catalogue has (``english_words``), in the
visible text, the accessible names or the placeholders; axe-core with no
violation at the start and at the end.  Its findings are collected in
``problems`` (one line each; ``echo``: printed when found too); ``play()``
returns the number of moves.

The CI test (tests/web/test_whole_game.py) plays one short game with it;
``benchmarks/page_games.py`` plays every rule set at 360 and 390 px.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "solver" / "rules" / "catalogue"
AXE = ROOT / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {360: 640, 390: 844}
WORD = re.compile(r"[A-Za-zÆØÅæøåÄÖäöÉé]{4,}")


def _strings(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def _words(lang: str) -> set[str]:
    data = json.loads((CATALOGUE / f"{lang}.json").read_text(encoding="utf-8"))
    return {w.lower() for s in _strings(data) for w in WORD.findall(re.sub(r"\{\w+\}", " ", s))}


def english_words(lang: str) -> set[str]:
    """The words (4 letters or more) of the English catalogue that the
    ``lang`` catalogue never uses: a tell-tale English word on its page."""
    return _words("en") - _words(lang)


# the elements seen that stick out of the viewport at a side, not inside a
# box that scrolls or clips (and lies inside the viewport); the skip link and
# screen-reader text (parked outside it on purpose) aside
CUT_OFF = """() => {
  const w = document.documentElement.clientWidth, out = [];
  const inside = (r) => r.left >= -0.5 && r.right <= w + 0.5;
  for (const e of document.body.querySelectorAll('*')) {
    if (!e.getClientRects().length || e.closest('.sr, .skip')) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || inside(r) || r.right <= 0) continue;
    let a = e.parentElement, held = false;
    for (; a && a !== document.body; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible' && inside(a.getBoundingClientRect())) { held = true; break; }
    if (!held) out.push((e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : ''))
                        + ` (${Math.round(r.left)}..${Math.round(r.right)})`);
  }
  return [...new Set(out)].slice(0, 6); }"""


class WholeGame:
    """One phone (``browser``: Playwright's) at ``width`` px playing a game
    of ``rules`` for ``players`` (``Name`` or ``Name=optimal``) on
    ``server`` in ``lang``, advice ``mode`` (full, check, off); ``seed``
    drives which moves are tapped, ``keeps`` how often a person keeps dice
    (where the advice is not followed) rather than writes a box."""

    def __init__(self, browser, server: str, width: int, rules: str, players: list[str],
                 lang: str = "nb", mode: str = "full", seed: int = 1, axe: Path = AXE,
                 echo: bool = False, keeps: float = 0.5):
        self.width, self.height = width, SIZES.get(width, 800)
        self.rules, self.players, self.lang, self.mode = rules, players, lang, mode
        self.rng = random.Random(seed)
        self.axe_path, self.echo = axe, echo       # echo: print each problem when found
        self.keeps = keeps                          # how often a person keeps rather than writes
        self.english = english_words(lang) if lang != "en" else set()
        self.problems: list[str] = []
        self.moves = 0
        self.context = browser.new_context(
            viewport={"width": width, "height": self.height}, has_touch=True, is_mobile=True,
            device_scale_factor=1, bypass_csp=True, service_workers="block")
        self.context.add_init_script(
            "localStorage.setItem('yatzy.delay', '0');"
            f"localStorage.setItem('yatzy.lang', '{lang}');"
            f"localStorage.setItem('yatzy.mode', '{mode}');"
            "localStorage.setItem('yatzy.zero', 'write');")     # no 'cross out?' (confirm.js)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))
        self.page.goto(server + "/")
        self.page.wait_for_selector("#new-game:not([hidden])")

    # ------------------------------------------------------------ state
    def state(self) -> str:
        return self.page.evaluate("document.body.dataset.state")

    def wait(self, *states: str, timeout: int = 120000) -> str:
        self.page.wait_for_function(f"{list(states)!r}.includes(document.body.dataset.state)",
                                    timeout=timeout)
        return self.state()

    def settled(self, before: int, timeout: int = 120000) -> str:
        """Wait until the page has answered a move (the moves played grew)
        and is not busy; its state then."""
        self.page.wait_for_function(
            f"+document.body.dataset.moves > {before} && document.body.dataset.state !== 'busy'",
            timeout=timeout)
        return self.state()

    def played(self) -> int:
        return int(self.page.evaluate("document.body.dataset.moves || '0'"))

    # ------------------------------------------------------------ checks
    def problem(self, where: str, what: str) -> None:
        line = f"{self.rules} {self.lang} {self.width}px, {where}: {what}"
        if line not in self.problems:
            self.problems.append(line)
            if self.echo:
                print("   ", line, flush=True)

    def fold(self) -> float:
        return self.height - self.page.evaluate(
            "(document.querySelector('#totals') || {offsetHeight: 0}).offsetHeight")

    def check_width(self, where: str) -> None:
        """No sideways scroll, and nothing cut off at the sides: the body
        hides what overflows (``overflow-x: hidden``), so every element seen
        must lie inside the viewport or inside a box that scrolls or clips
        within it (the card's)."""
        wide = self.page.evaluate("Math.max(document.documentElement.scrollWidth,"
                                  " document.body.scrollWidth) - window.innerWidth")
        if wide > 0:
            self.problem(where, f"the page scrolls sideways by {wide} px")
        out = self.page.evaluate(CUT_OFF)
        if out:
            self.problem(where, "cut off at the side: " + ", ".join(out))

    def check_next_turn(self, where: str) -> None:
        """The next turn's banner, and its roll button when a person rolls, in view."""
        p = self.page
        top = p.eval_on_selector("#turn", "e => e.getBoundingClientRect().top")
        if top < 0 or top > self.fold():
            self.problem(where, f"the turn's banner is out of view (top {top:.0f})")
        if self.state() == "roll" and p.is_visible("#roll"):
            bottom = p.eval_on_selector("#roll", "e => e.getBoundingClientRect().bottom")
            if bottom > self.fold():
                self.problem(where, f"the roll button is below the fold ({bottom:.0f} > "
                                    f"{self.fold():.0f})")

    def check_verdict(self, where: str) -> None:
        got = self.page.eval_on_selector("#verdict", """e => [e.textContent,
            e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]""")
        text, top, bottom = got
        if not text:
            self.problem(where, "no verdict in check mode")
        elif top < 0 or bottom > self.fold():
            self.problem(where, f"the verdict is out of view ({top:.0f}..{bottom:.0f})")

    def check_words(self, where: str) -> None:
        if not self.english:
            return
        text = self.page.evaluate("""() => {
            const seen = (e) => e.offsetParent !== null || e === document.body;
            const parts = [document.body.innerText];
            for (const e of document.querySelectorAll('[aria-label], [placeholder], [title]'))
              if (seen(e)) parts.push(e.getAttribute('aria-label') || '', e.getAttribute('placeholder') || '',
                                      e.getAttribute('title') || '');
            return parts.join(' '); }""")
        names = {w.lower() for n in self.players for w in WORD.findall(n)}
        found = sorted({w for w in WORD.findall(text) if w.lower() in self.english
                        and w.lower() not in names})
        if found:
            self.problem(where, "English words: " + ", ".join(found[:8]))

    def axe(self, where: str) -> None:
        if not self.axe_path.exists():
            return
        if not self.page.evaluate("!!window.axe"):
            self.page.add_script_tag(path=str(self.axe_path))
        result = self.page.evaluate("""() => axe.run(document, {runOnly: ['wcag2a', 'wcag2aa',
            'wcag21a', 'wcag21aa', 'best-practice']})""")
        for v in result["violations"]:
            self.problem(where, f"axe {v['id']} ({v['impact']}): "
                                f"{[n['target'] for n in v['nodes']][:3]}")

    def check_bank(self, where: str) -> None:
        """Saved rolls: a person's rolls saved are named on the turn's line,
        in view, before the roll."""
        seat, bank = self.page.evaluate("""import('/static/state.js').then(({S}) =>
            [S.view.turn_player, S.view.bank && S.view.players[S.view.turn_player].human
             ? S.view.bank[S.view.turn_player] : 0])""")
        if not bank:
            return
        text, top, bottom = self.page.eval_on_selector("#sub", """e => [e.textContent,
            e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]""")
        if str(bank) not in re.findall(r"\d+", text):
            self.problem(where, f"seat {seat}'s {bank} saved rolls are not named: {text!r}")
        elif top < 0 or bottom > self.fold():
            self.problem(where, f"the saved rolls are out of view ({top:.0f}..{bottom:.0f})")

    def check(self, where: str) -> None:
        self.check_width(where)
        self.check_words(where)

    # ------------------------------------------------------------ playing
    def start(self) -> None:
        p = self.page
        p.select_option("#players-count", str(len(self.players)))
        for i, name in enumerate(self.players):
            name, _, kind = name.partition("=")
            p.fill(f"#player-name-{i}", name)
            p.select_option(f"#player-kind-{i}", kind or "human")
        offered = p.eval_on_selector_all("#rules-select option", "os => os.map((o) => o.value)")
        if self.rules in offered:
            p.select_option("#rules-select", self.rules)
        else:                                       # a spec, typed
            p.fill("#rules-spec", self.rules)
        p.tap("#start")
        self.wait("roll", "computer")
        self.check("start")
        self.axe("start")

    def decide(self) -> str:
        """Tap one decision of the person to move: the advice's top option
        (full mode, mostly), else a die or two kept or a box on the card."""
        p = self.page
        if p.is_visible("#advice button.option.top") and self.rng.random() < 0.75:
            p.tap("#advice button.option.top")
            return "advice"
        if p.is_visible("#keep") and self.rng.random() < self.keeps:
            dice = p.eval_on_selector_all("#dice .die:not([disabled])", "ds => ds.map((d) => d.dataset.index)")
            for i in self.rng.sample(dice, min(len(dice), self.rng.choice([1, 2, 3]))):
                p.tap(f"#dice .die[data-index='{i}']")
            if p.is_enabled("#keep"):
                p.tap("#keep")
                return "keep"
        boxes = p.eval_on_selector_all("#protokoll button.cell-btn", "bs => bs.map((b) => b.dataset.box)")
        best = p.eval_on_selector_all("#protokoll button.cell-btn.best", "bs => bs.map((b) => b.dataset.box)")
        box = best[0] if best and self.rng.random() < 0.5 else self.rng.choice(boxes)
        p.tap(f"#protokoll button.cell-btn[data-box='{box}']")
        return "score"

    def play(self) -> int:
        """Play to the end; the moves the page played (the computers' too)."""
        self.start()
        while True:
            state = self.state()
            if state == "over":
                break
            before = self.played()
            if state == "computer":
                self.settled(before)
                continue
            if state == "roll":
                self.check_bank(f"before roll {self.played()}")
                self.page.tap("#roll")
                self.settled(before)
                self.check("after a roll")
                continue
            if state != "decide":
                self.wait("roll", "decide", "computer", "over")
                continue
            seat = self.page.evaluate(
                "import('/static/state.js').then((m) => m.S.view.turn_player)")
            what = self.decide()
            state = self.settled(before)
            self.check(f"after {what} (move {self.played()})")
            if self.mode == "check":
                self.check_verdict(f"after {what} (move {self.played()})")
            turn = self.page.evaluate(
                "import('/static/state.js').then((m) => m.S.view.turn_player)")
            if state != "over" and turn != seat:
                self.check_next_turn(f"next turn after move {self.played()}")
        self.page.wait_for_selector("#end[open]")
        self.page.wait_for_timeout(300)             # the review and the history drawn
        self.check("the end")
        self.axe("the end")
        return self.played()

    def shot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        self.context.close()
