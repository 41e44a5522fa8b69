"""The turn follows the player at a shared table: phones of 360 x 640 and
390 x 844 CSS px (Playwright driving Debian's ``chromium`` with touch) on
one table of a ``yatzy serve``, in Norwegian, Swedish and English.

While they wait, the phones are scrolled to the card; when a move on another
phone makes it a phone's turn, its banner and roll button come into view
above the totals bar and the roll button has the focus.  *Undo* is enabled
only on the phone that may take the last move back, and a refusal names the
player whose right it is.  A phone that reloads while the server is away
shows the table as it last saw it, its controls off, and catches up once the
server answers again.  The proposed next game stands at the top of the end
dialog.  Over a whole game on one phone, the taps a turn takes with the
server's dice are counted (docs/web.md gives the median).
"""

from __future__ import annotations

import statistics

import pytest

from .test_page import AXE, CHROMIUM, axe, sync_api  # noqa: F401  (skips as test_page does)
from .test_share_page import VIEW, Phone, browser, server, share  # noqa: F401  (its fixtures)

httpx = pytest.importorskip("httpx")
SIZES = {360: 640, 390: 844}


class Sized(Phone):
    """A phone of ``width`` CSS px (360 x 640 or 390 x 844), with touch."""

    def __init__(self, browser, server, lang, width):
        self.width = width
        super().__init__(browser, server, lang)
        self.context.close()
        self.context = browser.new_context(
            viewport={"width": width, "height": SIZES[width]}, has_touch=True, is_mobile=True,
            device_scale_factor=1, bypass_csp=True, service_workers="block")
        self.context.add_init_script("localStorage.setItem('yatzy.delay', '0');"
                                     "localStorage.setItem('yatzy.zero', 'write');"
                                     f"localStorage.setItem('yatzy.lang', '{lang}');")
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def to_card(self):
        """What a waiting player does: scroll down to the card."""
        self.page.evaluate("document.querySelector('#card').scrollIntoView({block: 'start'})")

    def in_view(self):
        """The turn's banner and roll button inside the viewport, above the
        totals bar, and the roll button focused (None) or what is wrong."""
        return self.page.evaluate("""() => {
            const fold = innerHeight - document.querySelector('#totals').offsetHeight;
            const r = (s) => document.querySelector(s).getBoundingClientRect();
            const turn = r('#turn'), roll = r('#roll');
            if (turn.top < 0 || turn.bottom > fold) return ['banner', turn.top, turn.bottom, fold];
            if (roll.top < 0 || roll.bottom > fold) return ['roll', roll.top, roll.bottom, fold];
            if (document.activeElement !== document.querySelector('#roll'))
                return ['focus', document.activeElement && document.activeElement.outerHTML.slice(0, 80)];
            return null; }""")


@pytest.fixture
def phones(browser, server):
    if server.proc.poll() is not None:
        server.start()
    made = []

    def make(lang, width):
        made.append(Sized(browser, server, lang, width))
        return made[-1]
    yield make
    for p in made:
        assert p.errors == [], p.errors
        p.close()


def start_table(a, players, who="seat"):
    """Phone A starts a game of ``players`` and shares it, the sharing
    panel closed again: the link."""
    link = share(a, players, who)
    a.page.tap("#table-close")
    return link


def seat(phone, link, i):
    if phone.page.url != link:
        phone.open(link)
    phone.page.wait_for_function("document.body.dataset.link === 'up'")
    phone.page.tap(f"#seat-choices button[data-seat='{i}']")
    phone.page.wait_for_selector("#seat-mine:not([hidden])")


def table_of(phones, players, who="seat"):
    """A table of ``players``, phone i at seat i (the first made it)."""
    link = start_table(phones[0], players, who)
    seat(phones[0], link, 0)
    for i, phone in enumerate(phones[1:], 1):
        phone.open(link)
        seat(phone, link, i)
    return link


def play_turn(phone, box=0):
    """The server's dice, then the card's ``box``-th open box."""
    n = phone.moves()
    assert phone.wait("roll") == "roll"
    phone.page.tap("#roll")
    phone.wait_moves(n + 1)
    phone.wait("decide")
    phone.page.tap(f"#protokoll button.cell-btn >> nth={box}")
    phone.wait_moves(n + 2)


def mover(phone):
    return phone.page.evaluate(VIEW + ".turn_player)")


def test_the_turn_comes_into_view_on_the_phone_to_move(phones, server, shots):
    """Three phones (nb 360, sv 390, en 360); every waiting phone is
    scrolled to its card; two whole rounds."""
    mine = [phones("nb", 360), phones("sv", 390), phones("en", 360)]
    mine[0].open(server.url + "/")
    table_of(mine, ["Mor", "Jonas", "Åse"])
    assert mine[0].in_view() is None
    for turn in range(6):
        now = turn % 3
        for i, phone in enumerate(mine):
            if i != now:
                phone.to_card()
        play_turn(mine[now], box=turn // 3)
        nxt = mine[(now + 1) % 3]
        nxt.wait_moves(mine[now].moves())
        nxt.page.wait_for_function("document.activeElement === document.querySelector('#roll')",
                                   timeout=10000)
        assert nxt.in_view() is None, (turn, nxt.width, nxt.in_view())
        if turn == 0:
            nxt.page.screenshot(path=str(shots / "turn-arrives-sv-390.png"))
            assert nxt.page.text_content("#turn") == "Jonas tur"      # sv: no "Jonass"
        if turn == 2:
            nxt.page.screenshot(path=str(shots / "turn-arrives-nb-360.png"))
    axe(mine[0].page, "the turn arrived, nb 360")


def test_a_whole_game_on_four_phones_brings_every_turn_into_view(phones, server, shots):
    """Four phones, nb and sv at 360 x 640 and 390 x 844, a whole game (60
    turns: the server's dice, then a box); before each turn every waiting
    phone is scrolled to its card; at the end every phone shows the next
    game's proposal at the top of its end dialog."""
    mine = [phones("nb", 360), phones("sv", 390), phones("nb", 390), phones("sv", 360)]
    mine[0].open(server.url + "/")
    table_of(mine, ["Mor", "Jonas", "Åse", "Morfar"])
    checked = 0
    for turn in range(60):
        now = mine[turn % 4]
        for phone in mine:
            if phone is not now:
                phone.to_card()
        now.page.wait_for_function("document.activeElement === document.querySelector('#roll')",
                                   timeout=10000)
        assert now.in_view() is None, (turn, now.width, now.in_view())
        checked += 1
        play_turn(now)
    assert checked == 60
    for phone in mine:
        phone.page.wait_for_selector("#end[open]")
    mine[1].page.tap("#again")                       # Jonas proposes the next game
    for phone in mine[:1] + mine[2:]:                # the others see it at their dialog's top
        phone.page.wait_for_selector("#end[open] #table-news .proposal")
        top = phone.page.evaluate("""() => {
            const d = document.querySelector('#end'), p = document.querySelector('#table-news');
            return [p.getBoundingClientRect().top - d.getBoundingClientRect().top,
                    p.getBoundingClientRect().bottom, innerHeight]; }""")
        assert top[0] < 120 and top[1] < top[2], (phone.width, top)   # under the heading, in view
    mine[0].page.screenshot(path=str(shots / "end-proposal-nb-360.png"))
    axe(mine[3].page, "the end dialog with the proposal, sv 360")


def test_undo_only_where_it_works_and_refusals_name_the_right_player(phones, server):
    """Mor made the table (she may undo anything); Jonas wrote a box: only
    his phone (and Mor's) may take it back, and Åse's refusal names Jonas."""
    mor, jonas, ase = phones("nb", 360), phones("en", 390), phones("en", 360)
    mor.open(server.url + "/")
    table_of([mor, jonas, ase], ["Mor", "Jonas", "Åse"])
    play_turn(mor)
    play_turn(jonas)                                  # Jonas wrote a box: Åse to move
    ase.wait_moves(jonas.moves())
    assert ase.wait("roll") == "roll"
    assert not jonas.page.is_disabled("#undo")
    assert ase.page.is_disabled("#undo")              # Åse's phone: the move is Jonas's
    assert not mor.page.is_disabled("#undo")          # the table's creator
    # asked anyway (a stale page): the refusal names Jonas, whose move it was
    ase.page.evaluate("import('/static/share.js').then((m) => m.tableSend('undo'))")
    ase.page.wait_for_function("document.querySelector('#error').textContent !== ''")
    assert ase.page.text_content("#error") == "Only Jonas's phone may undo Jonas's move."
    # the line goes once the table moves on
    ase.page.tap("#roll")
    ase.page.wait_for_function("document.querySelector('#error').textContent === ''")


def test_a_reload_without_the_server_shows_the_table_and_catches_up(phones, server, shots):
    a, b = phones("en", 390), phones("nb", 360)
    a.open(server.url + "/")
    link = table_of([a, b], ["Ann", "Bob"])
    play_turn(a)
    b.wait_moves(a.moves())
    before = b.page.evaluate(VIEW + ".game)")
    # the server away for this phone: every request and the stream fail
    b.context.route("**/api/**", lambda route: route.abort())
    b.context.route("**/words.json", lambda route: route.abort())
    b.page.reload()
    b.page.wait_for_function("document.body.dataset.state === 'offline'")
    assert b.page.evaluate(VIEW + ".game)") == before
    assert b.page.text_content("#turn") == "Bob sin tur"
    assert b.page.is_disabled("#roll") and b.page.is_disabled("#undo")
    assert b.page.is_visible("#protokoll tbody tr")
    assert b.data("table") == a.data("table")
    b.page.screenshot(path=str(shots / "offline-reload-nb-360.png"))
    axe(b.page, "a table reloaded offline, nb 360")
    # meanwhile Ann takes her box back on her phone: the table moves on without Bob's
    assert not a.page.is_disabled("#undo")
    a.page.tap("#undo")
    assert a.wait("decide") == "decide"
    b.context.unroute("**/api/**")
    b.context.unroute("**/words.json")
    b.page.wait_for_function("document.body.dataset.state === 'wait'", timeout=30000)   # Ann's turn again
    assert b.page.evaluate(VIEW + ".game)") == a.page.evaluate(VIEW + ".game)")
    assert link.endswith(b.data("table"))


def taps_of_a_game(phone):
    """One person's whole game with the server's dice, played as a person
    taps: *Roll for me*, the dice to keep (the coach's first option), *Keep*,
    a box on the card.  The taps of each turn, and what the same turn took
    when a keep did not roll and no die stayed marked."""
    p = phone.page
    counts, before = [], []
    while phone.wait("roll", "decide", "over") != "over":
        taps = 0
        old = 1                                       # the same turn as tapped before: every kept
                                                      # die marked, Keep, then Roll for me again
        assert phone.data("state") == "roll"
        n = phone.moves()
        p.tap("#roll")
        taps += 1
        phone.wait_moves(n + 1)
        while True:
            phone.wait("decide")
            view = p.evaluate(VIEW + ")")
            best = view["advice"][0]
            n = phone.moves()
            if best["action"] == "score":
                box = best["box"]
                p.tap(f"#protokoll button.cell-btn[data-box='{box}']")
                taps += 1
                old += 1
                phone.wait_moves(n + 1)
                break
            # the dice kept before stay marked: a tap on each die to mark or unmark
            marked = set(p.eval_on_selector_all("#dice .die.marked", "els => els.map((e) => +e.dataset.index)"))
            want, left = set(), list(view["dice"])
            for face in best["dice"]:                 # the marked dice of a face first
                i = min((k for k, d in enumerate(left) if d == face),
                        key=lambda k: (k not in marked, k))
                want.add(i)
                left[i] = None
            for i in sorted(want ^ marked):
                p.tap(f"#dice .die[data-index='{i}']")
                taps += 1
            p.tap("#keep")
            taps += 1
            old += len(best["dice"]) + 2
            phone.wait_moves(n + 2)                   # the keep and the roll of the rest
        counts.append(taps)
        before.append(old)
    return counts, before


def test_a_server_dice_turn_takes_at_most_eight_taps(phones, server, capsys):
    phone = phones("en", 390)
    phone.open(server.url + "/")
    p = phone.page
    p.wait_for_selector("#new-game:not([hidden])")
    p.select_option("#players-count", "1")
    p.fill("#player-name-0", "Kari")
    p.tap("#start")
    counts, before = taps_of_a_game(phone)
    assert len(counts) == 15
    with capsys.disabled():
        print(f"\ntaps per turn: {counts}, median {statistics.median(counts)}; the same "
              f"turns when a keep did not roll: median {statistics.median(before)}")
    assert statistics.median(counts) <= 8 and statistics.median(counts) < statistics.median(before)
