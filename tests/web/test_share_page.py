"""A shared table in two real browsers: two phones (Playwright driving
Debian's ``chromium`` at 390 x 844 CSS px with touch) on one table of a
``yatzy serve`` run as its own process.

Phone A starts a game and shares it; the link's QR code, drawn in the page,
decodes (``zbarimg``) to the link; phone B opens the link and claims a seat;
a move on either phone shows on the other within 200 ms; a phone that
missed a move gets 409 and the one-line message in its language; the coach's
advice shows only on the phone of the player to move, when asked; a server
killed and started again is reconnected to and caught up with; axe-core on
the joined page; a whole game played on the two phones; the screenshots
``share-*.png`` (``conftest.screenshots_folder``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .servers import chromium
from .test_page import AXE, CHROMIUM, PHONE, axe, sync_api  # noqa: F401  (skips as test_page does)

httpx = pytest.importorskip("httpx")
ROOT = Path(__file__).resolve().parents[2]
NETWORK_NOISE = ("Failed to load resource", "net::ERR_", "EventSource")
# the game shown on a phone: state.js's S.view (the page's modules share no globals)
VIEW = "import('/static/state.js').then((m) => m.S.view"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``yatzy serve`` in a child process, to be killed and started again."""

    def __init__(self, tables, db):
        self.tables, self.db, self.port = tables, db, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yatzy", "serve", "--port", str(self.port), "--db",
             str(self.db), "--tables", str(self.tables)], cwd=ROOT,
            env={k: v for k, v in os.environ.items() if k != "YATZY_LAN_URL"},   # links as asked
            stdout=subprocess.DEVNULL, stderr=open(Path(self.db).with_suffix(".log"), "ab"))
        for _ in range(400):
            try:
                if httpx.get(self.url + "/api/status", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError(Path(self.db).with_suffix(".log").read_text())

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture(scope="module")
def server(nordic, tables_dir, tmp_path_factory):
    """One ``yatzy serve`` for the module's tests (each starts its own
    table; a process per test cost seconds each); ``phones`` starts it
    again if a test killed it."""
    s = Server(tables_dir, tmp_path_factory.mktemp("share") / "tables.sqlite")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium(CHROMIUM) as b:
        yield b


class Phone:
    """One phone: its own browser context (storage), errors collected."""

    def __init__(self, browser, server, lang="en"):
        self.context = browser.new_context(**PHONE, bypass_csp=True, service_workers="block")
        self.context.add_init_script(f"localStorage.setItem('yatzy.delay', '0');"
                                     "localStorage.setItem('yatzy.zero', 'write');"
                                     f"localStorage.setItem('yatzy.lang', '{lang}');")
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     and not any(n in m.text for n in NETWORK_NOISE) else None)
        self.server = server

    def open(self, url):
        self.page.goto(url)
        self.page.wait_for_function("document.body.dataset.state && document.body.dataset.state !== 'busy'")
        return self

    def data(self, key):
        return self.page.evaluate(f"document.body.dataset.{key}")

    def moves(self):
        return int(self.data("moves"))

    def wait(self, *states, timeout=20000):
        self.page.wait_for_function(f"{list(states)!r}.includes(document.body.dataset.state)",
                                    timeout=timeout)
        return self.data("state")

    def wait_moves(self, n, timeout=20000):
        self.page.wait_for_function(f"+document.body.dataset.moves >= {n} && "
                                    "document.body.dataset.state !== 'busy'", timeout=timeout)

    def watch_moves(self):
        """Record from now on when each change count first shows (ms, Date.now())."""
        self.page.evaluate("""() => { window.seenAt = {};
            new MutationObserver(() => { const m = document.body.dataset.moves;
                if (!(m in seenAt)) seenAt[m] = Date.now(); })
              .observe(document.body, {attributes: true, attributeFilter: ['data-moves']}); }""")

    def tap_at(self, selector):
        """Tap by script and answer the time (ms) of the tap."""
        return self.page.evaluate("(s) => { const t = Date.now(); document.querySelector(s).click(); return t; }",
                                  selector)

    def advice(self):
        return self.page.eval_on_selector_all("#advice li button.option", "els => els.length")

    def close(self):
        self.context.close()


@pytest.fixture
def phones(browser, server):
    if server.proc.poll() is not None:            # killed by an earlier test that failed
        server.start()
    made = []

    def make(lang="en"):
        made.append(Phone(browser, server, lang))
        return made[-1]
    yield make
    for p in made:
        assert p.errors == [], p.errors
        p.close()


def share(a, players=("Ann", "Bob"), who="seat"):
    """Phone A starts a game of ``players`` and shares it: the link."""
    p = a.page
    p.wait_for_selector("#new-game:not([hidden])")
    p.select_option("#players-count", str(len(players)))
    for i, name in enumerate(players):
        p.fill(f"#player-name-{i}", name)
    p.tap("#start")
    a.wait("roll")
    p.tap("#table-button")
    p.select_option("#who-moves", who)
    p.tap("#table-make-ok")
    p.wait_for_function("document.body.dataset.table && document.querySelector('#table-qr').complete"
                        " && document.querySelector('#table-qr').naturalWidth > 0")
    return p.input_value("#table-url")


def join(b, link, seat):
    b.open(link)
    b.page.wait_for_function("document.body.dataset.link === 'up'")
    if seat is not None:
        b.page.tap(f"#seat-choices button[data-seat='{seat}']")
        b.page.wait_for_selector("#seat-mine:not([hidden])")


# ------------------------------------------------------------------ the tests
def test_two_phones_share_join_follow_and_coach(phones, server, tmp_path, shots):
    a, b = phones(), phones()
    a.open(server.url + "/")
    link = share(a)
    code = a.data("table")
    assert link == f"{server.url}/?table={code}" and f"table={code}" in a.page.url
    if shutil.which("zbarimg"):                      # the QR code drawn in the page reads back
        a.page.locator("#table-qr").screenshot(path=str(tmp_path / "qr.png"))
        out = subprocess.run(["zbarimg", "-q", "--raw", str(tmp_path / "qr.png")],
                             capture_output=True, text=True)
        assert out.stdout.strip() == link
    a.page.screenshot(path=str(shots / "share-link.png"))
    a.page.tap("#table-close")
    a.page.tap("#seat-choices button[data-seat='0']")
    a.page.wait_for_selector("#seat-mine:not([hidden])")

    b.open(link)
    b.page.wait_for_function("document.body.dataset.link === 'up'")
    assert b.page.is_disabled("#seat-choices button[data-seat='0']")     # Ann's is taken
    b.page.screenshot(path=str(shots / "share-join.png"))
    b.page.tap("#seat-choices button[data-seat='1']")
    b.page.wait_for_selector("#seat-mine:not([hidden])")
    assert b.wait("wait") == "wait" and b.page.is_disabled("#roll")   # Ann's turn: her phone only
    assert b.page.text_content("#hint") == "Ann moves on their own phone."
    axe(b.page, "joined, another player's turn")

    # a move on A shows on B within 200 ms
    b.watch_moves()
    at = a.tap_at("#roll")
    b.wait_moves(1)
    assert b.page.evaluate("seenAt['1']") - at < 200
    # the advice: on Ann's phone when she asks, never on Bob's
    assert a.wait("decide") == "decide" and a.advice() == 0
    a.page.tap("#coach")
    a.page.wait_for_selector("#advice li button.option")
    assert a.advice() > 0 and b.advice() == 0 and b.page.is_hidden("#options-h")
    a.page.screenshot(path=str(shots / "share-coach.png"))
    b.page.screenshot(path=str(shots / "share-watching.png"))
    a.page.tap("#protokoll button.cell-btn >> nth=0")     # Ann writes a box: Bob's turn
    a.wait("wait")
    # Bob's turn: a move on B shows on A within 200 ms; B's advice when B asks
    assert b.wait("roll") == "roll"
    n = b.moves()
    a.watch_moves()
    at = b.tap_at("#roll")
    a.wait_moves(n + 1)
    assert a.page.evaluate(f"seenAt['{n + 1}']") - at < 200
    b.wait("decide")
    assert b.advice() == 0                           # not asked yet
    b.page.tap("#coach")
    b.page.wait_for_selector("#advice li button.option")
    assert a.advice() == 0 and a.page.is_hidden("#options-h")
    axe(b.page, "joined, deciding with the coach")


def test_a_phone_that_missed_a_move_gets_409_and_catches_up(phones, server, shots):
    a, b = phones(), phones(lang="nb")
    a.open(server.url + "/")
    link = share(a, who="any")
    # B gets no events: it shows the table as it was when it opened the link
    b.context.route("**/events", lambda route: route.abort())
    b.open(link)
    b.page.tap("#seat-choices button[data-seat='1']")
    b.page.wait_for_selector("#seat-mine:not([hidden])")
    assert b.data("link") == "down"
    a.page.tap("#roll")
    a.wait("decide")
    assert b.moves() == 0 and b.data("state") == "roll"
    b.page.tap("#roll")                              # stale: the table is at 1
    b.page.wait_for_function("document.querySelector('#error').textContent !== ''")
    assert b.page.text_content("#error") == "En annen telefon var først; slik står spillet nå."
    b.wait_moves(1)
    assert b.moves() == a.moves() == 1
    b.page.screenshot(path=str(shots / "share-stale-nb.png"))
    # the stream comes back: B follows again, the message goes with its next move
    b.context.unroute("**/events")
    b.page.wait_for_function("document.body.dataset.link === 'up'", timeout=15000)
    a.page.tap("#dice .die[data-index='0']")
    a.page.tap("#keep")                              # after the server's dice: kept and rolled
    b.wait_moves(3)
    assert b.wait("decide") == "decide"
    b.page.tap("#keep")                              # B rerolls all for Ann (any phone moves)
    b.wait_moves(4)
    a.wait_moves(4)
    assert b.page.text_content("#error") == ""


def test_a_server_killed_and_restarted_is_caught_up_with(phones, server):
    a, b = phones(), phones(lang="sv")
    a.open(server.url + "/")
    link = share(a, who="any")
    code = a.data("table")
    join(b, link, None)
    a.page.tap("#roll")
    b.wait_moves(1)
    server.kill()
    b.page.wait_for_function("document.body.dataset.link === 'down'")
    a.page.wait_for_function("document.body.dataset.link === 'down'")
    assert "ansluter igen" in b.page.text_content("#link-state")
    server.start()
    state = httpx.get(f"{server.url}/api/table/{code}").json()
    assert state["moves"] == 1                       # nothing lost
    r = httpx.post(f"{server.url}/api/table/{code}/move", json={"move": "reroll all", "after": 1})
    assert r.status_code == 200, r.text              # a third phone moved meanwhile
    for phone in (a, b):
        phone.page.wait_for_function("document.body.dataset.link === 'up'", timeout=15000)
        phone.wait_moves(2)
    assert a.page.evaluate(VIEW + ".game)") == b.page.evaluate(VIEW + ".game)") == r.json()["game"]


@pytest.mark.slow
def test_a_whole_game_on_two_phones(phones, server, shots):
    """Ann on phone A, Bob on phone B, each seat's moves on its own phone
    only; both phones end with the same card, the server's."""
    a, b = phones(), phones()
    a.open(server.url + "/")
    link = share(a)
    code = a.data("table")
    a.page.tap("#table-close")
    a.page.tap("#seat-choices button[data-seat='0']")
    join(b, link, 1)
    mine = {0: a, 1: b}
    for _ in range(400):
        state = a.wait("roll", "decide", "wait", "over")
        if state == "over":
            break
        seat = a.page.evaluate(VIEW + ".turn_player)")
        phone, other = mine[seat], mine[1 - seat]
        n = phone.moves()
        state = phone.wait("roll", "decide")
        assert other.data("state") in ("wait", "busy")
        if state == "roll":
            phone.page.tap("#roll")
        else:                                        # the best box on the card, or the top option
            if phone.page.evaluate(VIEW + ".rerolls)") == 0:
                phone.page.tap("#protokoll button.cell-btn >> nth=0")
            else:
                phone.page.tap("#keep")
        phone.wait_moves(n + 1)
        other.wait_moves(n + 1)
    assert a.data("state") == "over" and b.wait("over") == "over"
    a.page.wait_for_selector("#end[open]")
    b.page.wait_for_selector("#end[open]")
    final = httpx.get(f"{server.url}/api/table/{code}").json()
    assert final["finished"] and final["view"]["is_over"]
    assert a.page.evaluate(VIEW + ".game)") == b.page.evaluate(VIEW + ".game)") == final["game"]
    assert a.page.text_content("#winner") == b.page.text_content("#winner") != ""
    b.page.screenshot(path=str(shots / "share-end.png"))
    # a new game with the same players, proposed on B: shown on A, where it is accepted;
    # then both phones move on, their seats kept
    b.page.tap("#again")
    a.page.wait_for_selector("#table-news .proposal")
    assert httpx.get(f"{server.url}/api/table/{code}").json()["next"] is None
    a.page.tap("#table-news button")
    for phone in (a, b):
        phone.page.wait_for_function(f"document.body.dataset.table && document.body.dataset.table !== '{code}'")
    assert a.data("table") == b.data("table") and final != httpx.get(
        f"{server.url}/api/table/{a.data('table')}").json()
    assert httpx.get(f"{server.url}/api/table/{code}").json()["next"] == a.data("table")
    assert a.wait("roll") == "roll" and b.wait("wait") == "wait"
    assert a.page.text_content("#seat-name") == "This phone: Ann"
    assert b.page.text_content("#seat-name") == "This phone: Bob"
    assert not a.page.evaluate("document.querySelector('#end').open")
    for shot in shots.glob("share-*.png"):
        assert shot.stat().st_size < 200_000, shot
