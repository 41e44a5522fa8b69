"""The page in a real headless browser: Playwright for Python driving
Debian's ``chromium`` (nothing is downloaded).  It plays a short game by
clicking, checks the advice shown against ``Solver.advise``, reloads the page
and finds the game intact, and saves a phone-sized screenshot."""

import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed (the web extra)")

from solver import Solver  # noqa: E402
from solver.web.app import create_app  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def server(nordic, tables_dir):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app("nordic", tables_dir), host="127.0.0.1", port=port,
                            log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-proxy-server"])
        yield b
        b.close()


def advice_shown(page):
    page.wait_for_selector("#advice li")
    return page.eval_on_selector_all("#advice li", "els => els.map(e => e.dataset.action)")


def test_play_a_short_game_by_clicking(server, browser, tables_dir, tmp_path):
    solver = Solver("nordic", tables=tables_dir)
    # bypass_csp: Playwright evaluates its waiting conditions as strings
    page = browser.new_page(viewport={"width": 375, "height": 812}, bypass_csp=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server)
    page.wait_for_selector("#new-game:not([hidden])")
    page.select_option("#players-count", "2")
    page.fill("#player-name-0", "Ann")
    page.fill("#player-name-1", "Bob")
    page.click("#start")
    page.wait_for_function("document.querySelector('#status').textContent.includes('Ann')")

    page.fill("#dice-input", "11256")                   # typed dice
    page.click("#dice-ok")
    want = [str(a) for a in solver.advise("", "11256", 2).actions[:6]]
    assert advice_shown(page) == want
    page.click("#advice li >> nth=0")                   # keep 5 6, as advised
    page.wait_for_selector("#entry:not([hidden])")
    for face in (5, 6, 6):                              # tapped dice
        page.click(f"#faces button[data-face='{face}']")
    page.wait_for_function("document.querySelectorAll('#dice .die').length === 5 && "
                           "!document.querySelector('#decide').hidden")
    assert advice_shown(page) == [str(a) for a in solver.advise("", "55666", 1).actions[:6]]
    page.click("#protokoll td[data-box='full_house'][data-seat='0']")
    page.wait_for_function("document.querySelector('#status').textContent.includes('Bob')")
    cell = "#protokoll td[data-box='full_house'][data-seat='0']"
    assert page.text_content(cell) == "28"

    page.reload()                                       # the game survives a reload
    page.wait_for_function("document.querySelector('#status').textContent.includes('Bob')")
    assert page.text_content(cell) == "28"
    totals = page.eval_on_selector_all("#protokoll tr.total td", "els => els.map(e => e.textContent)")
    assert totals[1:] == ["28", "0"]

    page.select_option("#mode", "check")                # check my move: advice hidden
    page.click("#faces button[data-face='1']")
    for face in (2, 3, 4, 6):
        page.click(f"#faces button[data-face='{face}']")
    page.wait_for_selector("#decide:not([hidden])")
    assert page.query_selector_all("#advice li") == []
    page.click("#dice .die[data-index='0']")            # keep the 1: not the best
    page.click("#keep")
    page.wait_for_function("document.querySelector('#verdict').textContent.includes('cost')")
    best = solver.advise("", "12346", 2)
    assert str(best.best).split()[-1] in page.text_content("#verdict")
    page.click("#undo")
    page.wait_for_function("!document.querySelector('#decide').hidden")

    page.select_option("#lang", "nb")                   # Norwegian labels
    assert "hus" in page.text_content("#protokoll")
    page.select_option("#lang", "en")
    page.select_option("#mode", "full")
    advice_shown(page)
    page.screenshot(path=str(tmp_path / "phone.png"))
    page.screenshot(path=str(DOCS / "screenshot-phone.png"))
    assert (DOCS / "screenshot-phone.png").stat().st_size < 300_000
    assert errors == []
