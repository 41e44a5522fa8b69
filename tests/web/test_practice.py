"""The Practice view: the puzzles of ``yatzy train`` over the API (Starlette's
TestClient) and in a real browser (Playwright driving Debian's chromium at
390 x 844 with touch).

The API draws the library's puzzles (seeded, daily by date), answers each
answer with the library's loss, best action and explanation, records it
under a player's name only when one is given, and says bad input in one
JSON line with a 4xx status.  The page solves three puzzles, shows the
explanation, keeps a running mean equal to the server's losses, keeps a
rating on the server when asked, passes axe-core, and leaves screenshots
(``conftest.screenshots_folder``).
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from yatzy import Solver  # noqa: E402
from yatzy.research import puzzles as pz  # noqa: E402
from yatzy.research.ratings import Answer, Ratings  # noqa: E402
from yatzy.web.app import create_app  # noqa: E402
from yatzy.web import practice as practice_module  # noqa: E402
from yatzy.web.practice import MAX_COUNT, player_file, ratings_folder  # noqa: E402

from .servers import chromium, served  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("YATZY_AXE", ROOT / ".venv" / "node" / "node_modules" / "axe-core"
                          / "axe.min.js"))


@pytest.fixture(scope="module", autouse=True)
def few_scale_games():
    """The scale from a few games per policy (the server measures 100)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(practice_module, "SCALE_GAMES", 3)
        yield


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("practice")


@pytest.fixture(scope="module")
def client(nordic, tables_dir, folder, explained):
    app = create_app("nordic", tables_dir, folder / "tables.sqlite")
    with TestClient(app, raise_server_exceptions=False) as c:
        for _ in range(1200):                     # the explanation table: built once
            r = c.get("/api/puzzles?count=1&seed=1")
            if r.status_code != 503:
                break
            assert r.json()["code"] == "solving"
            time.sleep(0.1)
        assert r.status_code == 200, r.text
        yield c


@pytest.fixture(scope="module")
def solver(tables_dir, nordic):
    return Solver("nordic", tables=tables_dir)


def one_line_error(r, status, code=None):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) <= {"error", "code", "command", "progress"}
    assert body["error"] and "\n" not in body["error"]
    if code:
        assert body["code"] == code, body
    return body["error"]


def test_building_the_explanations_leaves_the_game_ready(explained):
    """The explanation table's progress goes to the practice's own status:
    the value table's status (the game's) stays ready through the build
    (the build, in a folder of the value table alone, is the session's one:
    tests/web/conftest.py)."""
    assert explained["ready"] == 200
    assert explained["status"] == 200, explained["text"]
    assert set(explained["seen"]) == {"ready"} and explained["ev_after"] == 200
    assert explained["built"]


def test_the_first_practice_announces_the_whole_explanations_build(nordic, tables_dir, tmp_path,
                                                                    monkeypatch):
    """Where the explanations table is not stored, the practice's 503 says
    what is built, how big and about how long (the plan's size, its time as
    measured: here a measure that says 4321 s), and its progress carries the
    same figures for the page (``progress.build``); the build then starts
    (here held, then stopped)."""
    import threading

    from yatzy.errors import InputError
    from yatzy.players import explain
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.plan import parts_plan

    values = Solver("nordic", tables=tables_dir).path
    for f in values.parent.glob(values.name + "*"):            # the value table alone
        shutil.copy(f, tmp_path / f.name)
    release, started = threading.Event(), threading.Event()

    def held(*args):
        started.set()
        release.wait(30)
        raise InputError("stopped here")
    monkeypatch.setattr(explain, "measure", lambda *a: 4321.0)
    monkeypatch.setattr(explain, "solve_and_store", held)
    monkeypatch.setattr(practice_module, "PARTS_WAIT", 0.2)
    try:
        with TestClient(create_app("nordic", tmp_path, tmp_path / "tables.sqlite"),
                        raise_server_exceptions=False) as c:
            for _ in range(600):
                r = c.get("/api/puzzles?count=1&seed=1")
                assert r.status_code == 503, r.text
                if "build" in r.json()["progress"] and started.is_set():
                    break
                time.sleep(0.1)
            release.set()
    finally:
        release.set()
    body = r.json()
    assert body["code"] == "solving" and started.is_set()
    size = parts_plan(parse_rules("nordic")).file_size
    assert body["progress"]["build"] == {"what": "explanations", "rules": "nordic",
                                         "bytes": size, "seconds": 4321.0}
    assert "building the explanation table (139.9 MiB, about 72.0 min)" in body["error"]
    assert not list(tmp_path.glob("*-explain.tbl"))


def test_the_page_measures_and_builds_in_one_thread_on_the_commands_threads(
        nordic, tables_dir, tmp_path, monkeypatch):
    """The page's announcement is measured where its build then runs (the
    server's build thread, not the event loop's), and the kernels there run
    on as many threads as in the main thread, where ``yatzy train`` builds
    the same table: Numba's thread count is per thread, and a build thread
    that got fewer would take longer than announced."""
    import threading

    import numba

    from yatzy.errors import InputError
    from yatzy.kernels.threads import threads
    from yatzy.players import explain

    values = Solver("nordic", tables=tables_dir).path
    for f in values.parent.glob(values.name + "*"):            # the value table alone
        shutil.copy(f, tmp_path / f.name)
    seen: dict[str, tuple[threading.Thread, int]] = {}

    def measured(*args):
        seen["measure"] = (threading.current_thread(), threads())
        return 1.0

    def built(*args):
        seen["build"] = (threading.current_thread(), threads())
        raise InputError("stopped here")
    monkeypatch.setattr(explain, "measure", measured)
    monkeypatch.setattr(explain, "solve_and_store", built)
    with TestClient(create_app("nordic", tmp_path, tmp_path / "tables.sqlite"),
                    raise_server_exceptions=False) as c:
        for _ in range(600):
            r = c.get("/api/puzzles?count=1&seed=1")
            if r.status_code != 503 or r.json()["code"] != "solving":
                break                                   # the build failed, as held
            time.sleep(0.1)
    assert "stopped here" in r.json()["error"], r.text
    assert set(seen) == {"measure", "build"}
    (where, n), (built_in, m) = seen["measure"], seen["build"]
    assert where is built_in and where is not threading.main_thread()
    assert n == m == numba.get_num_threads()


def test_puzzles_are_the_trainers_by_seed_and_by_date(client, solver):
    r = client.get("/api/puzzles?seed=42&count=6&level=2").json()
    drawn = pz.draw(solver.table, 6, 42, 2)
    assert [p["key"] for p in r["puzzles"]] == [p.key for p in drawn]
    assert r["seed"] == 42 and r["source"] == "train" and r["level"] == 2
    again = client.get("/api/puzzles?seed=42&count=6&level=2").json()
    assert again["puzzles"] == r["puzzles"]
    for p, d in zip(r["puzzles"], drawn):
        assert (p["dice"], p["rerolls"], p["kind"], p["level"]) == (list(d.dice), d.rerolls,
                                                                     d.kind, 2)
        advice = solver.advise(d.card, d.dice, d.rerolls)
        assert p["scores"] == {a.box: a.points for a in advice.actions if a.kind == "score"}
        boxes = [row for row in p["rows"] if row["kind"] == "box"]
        assert [row["value"] for row in boxes] == list(d.card.points)
        assert p["rows"][-1] == {"key": "total", "kind": "total", "value": d.card.score}
        assert "loss" not in str(p) and "expected" not in str(p)      # no answer given away
    daily = client.get("/api/puzzles?daily=1&date=2026-03-14").json()
    seed = pz.daily_seed(dt.date(2026, 3, 14), solver.rules)
    assert [p["key"] for p in daily["puzzles"]] == [p.key for p in pz.draw(solver.table, 5, seed)]
    assert daily["date"] == "2026-03-14" and daily["seed"] is None and daily["source"] == "daily"
    today = dt.datetime.now(dt.timezone.utc).date()
    assert client.get("/api/puzzles?daily=1").json()["puzzles"] == client.get(
        f"/api/puzzles?daily=1&date={today}").json()["puzzles"]
    a, b = (client.get("/api/puzzles?count=3").json() for _ in range(2))
    assert a["seed"] != b["seed"] and 0 <= a["seed"] < 2 ** 53


def test_an_answer_is_the_libraries_loss_best_and_explanation(client, solver):
    puzzles = client.get("/api/puzzles?seed=9&count=8").json()["puzzles"]
    for p in puzzles:
        advice = solver.advise(p["card"], p["dice"], p["rerolls"])
        why = solver.explain(p["card"], p["dice"], p["rerolls"])
        for k in (0, 1, len(advice.actions) - 1):
            action = advice.actions[k]
            text = f"score {action.box}" if action.kind == "score" else str(action)
            r = client.post("/api/puzzle/answer", json={"puzzle": p["key"], "answer": text,
                                                         "lang": "nb"})
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["loss"] == pytest.approx(action.loss, abs=1e-12)
            assert got["best"]["text"] == str(advice.best)
            assert got["answer"]["text"] == str(action) and got["kind"] == p["kind"]
            assert math.isclose(sum(q["points"] for q in got["explanation"]), got["loss"],
                                abs_tol=1e-9)
            assert got["sentence"] == why[k].sentence("nb")
            assert got["breakdown"] == [q.as_dict() for q in why[k].shares]   # as it comes
            assert sum(round(100 * q["shown"]) for q in got["breakdown"]) == round(
                100 * float(f"{got['loss']:.2f}"))
            assert got["sentences"] == {lg: why[k].sentence(lg) for lg in ("en", "nb", "sv")}
            assert got["best_choice"] == (k == 0) and got["recorded"] is False
            if k == 0:
                runner = next(e for e in why if e.action.loss > 0)
                assert got["runner_up"]["sentence"]["en"] == runner.sentence("en")


def test_answers_are_recorded_only_under_a_name(client, folder, solver):
    where = ratings_folder(folder / "tables.sqlite")
    assert where == folder / "tables-ratings"
    p = client.get("/api/puzzles?seed=3&count=3").json()["puzzles"]
    text = "reroll all" if p[0]["rerolls"] else "score " + next(iter(p[0]["scores"]))
    assert client.post("/api/puzzle/answer", json={"puzzle": p[0]["key"],
                                                    "answer": text}).status_code == 200
    assert not where.exists() or not list(where.glob("*.sqlite"))      # no name: nothing kept
    r = client.get("/api/practice/stats?player=Kari Nordmann").json()
    assert r["overall"]["n"] == 0 and r["by_kind"][0]["mean"] is None
    assert not player_file(where, "Kari Nordmann").exists()             # a read makes no file
    losses = []
    for q in p:
        advice = solver.advise(q["card"], q["dice"], q["rerolls"])
        worst = advice.actions[-1]
        text = f"score {worst.box}" if worst.kind == "score" else str(worst)
        got = client.post("/api/puzzle/answer", json={
            "puzzle": q["key"], "answer": text, "player": "Kari Nordmann", "seconds": 4.5}).json()
        assert got["recorded"] is True
        losses.append(got["loss"])
    path = player_file(where, "kari nordmann")                          # any case: one file
    with Ratings(path) as db:
        assert db.count("nordic") == 3 and db.version >= 2
        assert [a[2] for a in db.answers("nordic")] == pytest.approx(losses)
    stats = client.get("/api/practice/stats?player=KARI NORDMANN").json()
    assert stats["overall"]["n"] == 3
    assert stats["overall"]["mean"] == pytest.approx(sum(losses) / 3)
    assert got["stats"]["overall"] == stats["overall"]
    for kind in stats["by_kind"]:
        mine = [loss for q, loss in zip(p, losses) if q["kind"] == kind["label"]]
        assert kind["n"] == len(mine)


def test_new_names_and_recorded_answers_are_rate_limited(nordic, tables_dir, tmp_path, client):
    app = create_app("nordic", tables_dir, tmp_path / "tables.sqlite")
    with TestClient(app, raise_server_exceptions=False) as c:
        p = c.get("/api/puzzles?seed=3&count=1").json()["puzzles"][0]
        text = "reroll all" if p["rerolls"] else "score " + next(iter(p["scores"]))
        post = lambda name: c.post("/api/puzzle/answer", json={  # noqa: E731
            "puzzle": p["key"], "answer": text, "player": name})
        burst = practice_module.NEW_PLAYERS[1]
        assert all(post(f"Player {i}").status_code == 200 for i in range(int(burst)))
        one_line_error(post("One too many"), 429, "rate")
        assert post("Player 0").status_code == 200                 # a known name still records
        assert not player_file(ratings_folder(tmp_path / "tables.sqlite"), "One too many").exists()


def test_positions_got_wrong_come_back_first(client, folder, solver):
    where = ratings_folder(folder / "tables.sqlite")
    p = pz.draw(solver.table, 1, 77)[0]
    with Ratings(player_file(where, "Olle")) as db:
        db.record(Answer("nordic", p.key, p.kind, "x", "y", 3.0,
                         at=dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=1)))
    got = client.get("/api/puzzles?seed=5&count=3&player=Olle").json()["puzzles"]
    assert got[0]["key"] == p.key and got[0]["review"] is True
    assert [q["review"] for q in got[1:]] == [False, False]
    daily = client.get("/api/puzzles?daily=1&player=Olle").json()["puzzles"]
    assert not any(q["review"] for q in daily)                          # daily: the same for all


def test_the_scale_is_measured_once_and_kept(client, folder, solver):
    for _ in range(1200):
        r = client.get("/api/practice/scale").json()
        if r["state"] != "measuring":
            break
        time.sleep(0.1)
    assert r["state"] == "ready" and r["games"] == 3, r
    with Ratings(ratings_folder(folder / "tables.sqlite") / "scale.sqlite") as db:
        kept = db.anchors("nordic", solver.rules.fingerprint, 3, 0)
    assert r["anchors"] == [a.as_dict() for a in kept]
    policies = [a["policy"] for a in r["anchors"]]
    assert policies[:3] == ["optimal", "greedy", "simple"] and len(policies) == 7
    assert r["anchors"][0]["mean_loss"] == 0
    assert r["anchors"][0]["final_mean"] == pytest.approx(solver.ev(), abs=1e-6)
    assert client.get("/api/practice/scale").json() == r                 # measured once


@pytest.mark.parametrize("query, code", [
    ("count=0", None), (f"count={MAX_COUNT + 1}", None), ("count=x", None), ("level=4", None),
    ("seed=-1", None), ("seed=1e5", None), (f"seed={2 ** 53}", None), ("daily=yes", None),
    ("daily=1&date=2026-02-30", None), ("daily=1&date=1999-01-01", None),
    ("date=2026-01-01", None), ("daily=1&seed=3", None), ("rules=triple", "practice_rules"),
    ("rules=maxi", "practice_rules"), ("rules=nordic:nonsense=1", None),
    ("player=%00", "player"), ("player=" + "a" * 33, "player"), ("player=-x", "player"),
    ("rules=" + "n" * 201, None)])
def test_bad_queries_are_one_line_4xx(client, query, code):
    one_line_error(client.get("/api/puzzles?" + query), 400, code)


def test_bad_answers_are_one_line_4xx(client):
    p = client.get("/api/puzzles?seed=11&count=20").json()["puzzles"]
    box = next(q for q in p if q["rerolls"] == 0)
    keep = next(q for q in p if q["rerolls"] > 0)
    filled = next(r["key"] for r in box["rows"] if r["kind"] == "box" and r["value"] is not None)
    post = lambda obj: client.post("/api/puzzle/answer", json=obj)  # noqa: E731
    assert "already filled" in one_line_error(
        post({"puzzle": box["key"], "answer": f"score {filled}"}), 400, "not_possible")
    assert "no rerolls" in one_line_error(
        post({"puzzle": box["key"], "answer": "reroll all"}), 400, "not_possible")
    other = next(f for f in range(1, 7) if f not in keep["dice"])
    one_line_error(post({"puzzle": keep["key"], "answer": f"keep {other}"}), 400, "not_possible")
    for obj, code in [
            ({"answer": "reroll all"}, "puzzle"), ({"puzzle": 5, "answer": "x"}, "puzzle"),
            ({"puzzle": "x" * 401, "answer": "x"}, "puzzle"),
            ({"puzzle": "nonsense|12345|1", "answer": "reroll all"}, "puzzle"),
            ({"puzzle": "|1234|1", "answer": "reroll all"}, "puzzle"),
            ({"puzzle": keep["key"]}, "input"), ({"puzzle": keep["key"], "answer": 7}, "input"),
            ({"puzzle": keep["key"], "answer": "keep 9"}, "answer"),
            ({"puzzle": keep["key"], "answer": "dance"}, "answer"),
            ({"puzzle": keep["key"], "answer": "reroll all", "lang": "de"}, "input"),
            ({"puzzle": keep["key"], "answer": "reroll all", "player": ["x"]}, "player"),
            ({"puzzle": keep["key"], "answer": "reroll all", "player": "a\nb"}, "player"),
            ({"puzzle": keep["key"], "answer": "reroll all", "source": "log"}, "input"),
            ({"puzzle": keep["key"], "answer": "reroll all", "seconds": -1}, "input"),
            ({"puzzle": keep["key"], "answer": "reroll all", "seconds": True}, "input"),
            ({"puzzle": keep["key"], "answer": "reroll all", "rules": "triple"},
             "practice_rules")]:
        one_line_error(post(obj), 400, code)
    one_line_error(client.post("/api/puzzle/answer", content=b"[1]",
                               headers={"content-type": "application/json"}), 400, "body")
    one_line_error(client.post("/api/puzzle/answer", content=b"{",
                               headers={"content-type": "application/json"}), 400, "body")
    one_line_error(client.post("/api/puzzle/answer", content=b"{" + b" " * 70000 + b"}",
                               headers={"content-type": "application/json"}), 413, "body")
    one_line_error(client.get("/api/puzzle/answer"), 405)
    one_line_error(client.get("/api/practice/stats"), 400)
    one_line_error(client.get("/api/practice/stats?player="), 400)


def test_the_openapi_document_has_the_practice_routes(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/puzzles", "/api/puzzle/answer", "/api/practice/stats",
            "/api/practice/scale"} <= set(paths)
    assert "post" in paths["/api/puzzle/answer"] and "get" in paths["/api/puzzles"]


def test_docstring_examples_of_the_practice_module():
    import doctest

    import yatzy.web.practice as module
    assert doctest.testmod(module).failed == 0


# ------------------------------------------------------------------ the page
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 1}


@pytest.fixture(scope="module")
def server(nordic, tables_dir, folder, client):      # client: the explanation table is built
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pytest.importorskip("uvicorn", reason="uvicorn is not installed (the web extra)")
    app = create_app("nordic", tables_dir, folder / "page" / "tables.sqlite")
    with served(app) as running:
        yield running.url


@pytest.fixture(scope="module")
def browser(server):
    with chromium(CHROMIUM) as b:
        yield b


def phone(browser, server, lang="en", seed=20261201):
    context = browser.new_context(**PHONE, bypass_csp=True, service_workers="block")
    page = context.new_page()
    errors, answers = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.goto(f"{server}/?lang={lang}&seed={seed}")             # the first set: these puzzles
    page.wait_for_function("document.body.dataset.state && document.body.dataset.state !== 'busy'")
    return context, page, errors, answers


def release(page, held: list, what: str) -> None:
    """Let the puzzle requests held back by a route go on (once one came:
    ``what``), and stop holding them."""
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, what
    for route in held:
        route.continue_()
    page.unroute("**/api/puzzles?*")


def wait_practice(page, state):
    page.wait_for_function(f"document.body.dataset.practice === {state!r}", timeout=30000)


def solve_one(page, answers, first_box=False):
    """Answer the puzzle shown: a box if no reroll is left (or ``first_box``),
    else keep the first die and reroll; the server's answer joins ``answers``."""
    wait_practice(page, "puzzle")
    with page.expect_response(lambda r: r.url.endswith("/api/puzzle/answer")) as info:
        if first_box or page.is_hidden("#p-keep"):
            page.tap("#p-card .cell-btn")
        else:
            page.tap("#p-dice .die[data-index='0']")
            assert page.get_attribute("#p-dice .die[data-index='0']", "aria-pressed") == "true"
            page.tap("#p-keep")
    assert info.value.status == 200
    answers.append(info.value.json())
    wait_practice(page, "answered")


def axe(page, where):
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE} (.ci/run installs it: "
                    "npm install --prefix .venv/node axe-core@4)")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""() => axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a',
        'wcag21aa', 'best-practice']})""")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in result["violations"]]
    assert bad == [], (where, bad)


def test_the_page_solves_three_puzzles_with_touch(browser, server, folder, tables_dir, shots):
    context, page, errors, answers = phone(browser, server)
    page.tap("#more-menu summary")
    page.tap("#practice-button")
    assert page.evaluate("location.hash") == "#practice"
    wait_practice(page, "puzzle")
    assert page.is_hidden("#table") and page.is_hidden("#totals")      # the game gives way
    first = pz.draw(Solver("nordic", tables=tables_dir).table, 1, 20261201)[0]
    assert page.eval_on_selector_all("#p-dice .die", "els => els.map(e => +e.dataset.face)") == list(
        first.dice)                                                   # ?seed= gives the seed's
    page.screenshot(path=str(shots / "practice.png"))
    for i in range(3):
        solve_one(page, answers)
        r = answers[-1]
        assert page.inner_text("#p-sentence") == r["sentences"]["en"] and r["sentence"]
        verdict = page.inner_text("#p-verdict")
        assert verdict.startswith("Best choice") or verdict.startswith("As good") or (
            "That cost" in verdict and f"{r['loss']:.2f}" in verdict)
        losses = [a["loss"] for a in answers]
        shown = page.evaluate("document.querySelector('#p-running').dataset")
        assert int(shown["n"]) == i + 1 == len(losses)
        assert float(shown["mean"]) == pytest.approx(sum(losses) / len(losses), abs=1e-12)
        assert f"{sum(losses) / len(losses):.2f}" in page.inner_text("#p-running")
        if i == 0:
            page.screenshot(path=str(shots / "practice-answered.png"), full_page=True)
        if i < 2:
            page.tap("#p-next")
    # every control of the view is at least 44 x 44 CSS px
    small = page.evaluate("""() => [...document.querySelectorAll(
        '#practice button, #practice select, #practice input')].filter((e) => e.offsetParent !== null).map((e) => {
        const r = e.getBoundingClientRect(); return [e.id || e.className, r.width, r.height]; })
        .filter(([, w, h]) => w < 44 || h < 44)""")
    assert small == []
    # the browser's rating: the three answers, by kind
    kept = page.evaluate("JSON.parse(localStorage.getItem('yatzy.practice.answers'))")
    assert [a["loss"] for a in kept] == pytest.approx([a["loss"] for a in answers])
    n_all = page.inner_text("#p-stats-table tr[data-kind='all'] td")
    assert n_all == "3"
    page.wait_for_selector("#p-scale-table tr[data-policy='greedy']", timeout=120000)
    axe(page, "answered, en")
    assert errors == []
    # the rating kept on the server, under a name
    page.tap("#p-next")
    wait_practice(page, "puzzle")
    page.tap("#p-server")
    page.fill("#p-name", "Åsa Berg")
    page.press("#p-name", "Tab")
    solve_one(page, answers, first_box=True)
    assert answers[-1]["recorded"] is True
    page.wait_for_function("document.querySelector('#p-stats-note').textContent.includes('Åsa Berg')")
    where = ratings_folder(folder / "page" / "tables.sqlite")
    with Ratings(player_file(where, "Åsa Berg")) as db:
        assert db.count("nordic") == 1
        assert db.answers("nordic")[0][2] == pytest.approx(answers[-1]["loss"])
    assert page.inner_text("#p-stats-table tr[data-kind='all'] td") == "1"
    page.tap("#practice-close")
    assert page.evaluate("location.hash") == "" and page.is_hidden("#practice")
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["nb", "sv"])
def test_the_practice_view_speaks_norwegian_and_swedish(browser, server, lang, shots):
    context, page, errors, answers = phone(browser, server, lang)
    held = []                                           # the first set held back: what is said meanwhile
    page.route("**/api/puzzles?*", lambda route: held.append(route))
    page.goto(f"{server}/?lang={lang}&seed=7#practice")
    page.wait_for_function("() => document.body.dataset.practice === 'busy'")
    preparing = page.evaluate("fetch('/words.json').then((r) => r.json())")[lang]["page"]["pPreparing"]
    assert page.inner_text("#p-status") == preparing and "minut" in preparing
    release(page, held, "the first set was asked for")
    wait_practice(page, "puzzle")
    english = ("Practice", "Puzzle", "Keep my rating", "Your rating", "Back to the game")
    assert not any(w in page.inner_text("#practice") for w in english)
    solve_one(page, answers)
    assert page.inner_text("#p-sentence") == answers[-1]["sentences"][lang]
    assert answers[-1]["sentence"] == answers[-1]["sentences"][lang]      # asked in lang
    for _ in range(4):                                  # a loss: its parts add up as shown
        if answers[-1]["loss"] >= 0.005:
            break
        page.tap("#p-next")
        solve_one(page, answers)
    assert answers[-1]["loss"] >= 0.005
    loss = re.search(r"(\d+),(\d\d)", page.inner_text("#p-verdict")).groups()
    rows = page.eval_on_selector_all("#p-parts tr", "rs => rs.map(r => [r.cells[0].textContent, "
                                     "r.cells[1].textContent])")
    assert [name for name, _ in rows] == [q["names"][lang] for q in answers[-1]["breakdown"]]
    shown = [re.fullmatch(r"([+\u2212])(\d+),(\d\d)", value).groups() for _, value in rows]
    assert sum((1 if s == "+" else -1) * (100 * int(a) + int(b)) for s, a, b in shown) == -(
        100 * int(loss[0]) + int(loss[1]))
    assert not any(w in page.inner_text("#practice") for w in english + ("That cost", "Next"))
    axe(page, f"answered, {lang}")
    if lang == "sv":
        page.screenshot(path=str(shots / "practice-sv.png"), full_page=True)
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang, words", [
    ("en", "Building the explanation table for nordic (139.9 MiB, about 40 s); it is stored "
           "for later sets …"),
    ("nb", "Bygger forklaringstabellen for nordic (139,9 MiB, omtrent 40 s); den lagres til "
           "senere oppgavesett …")])
def test_the_page_shows_the_announced_build_and_its_bar(browser, server, lang, words):
    """While the server builds the explanation table (its 503 with
    ``progress.build``: here the plan's size and a time of 40.4 s, as the
    server answers them), the Practice view says what, how big and about how
    long, in the page's language, with the build's bar; then the puzzles."""
    import json as json_module

    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.plan import parts_plan
    size = parts_plan(parse_rules("nordic")).file_size
    progress = {"state": "solving", "done": 37, "total": 100, "seconds": 3.0, "seconds_left": None,
                "build": {"what": "explanations", "rules": "nordic", "bytes": size,
                          "seconds": 40.4}}
    answered, held = [], []

    def building(route):
        if answered:                                   # the next ask: held while the test looks
            held.append(route)
            return
        answered.append(route)
        route.fulfill(status=503, content_type="application/json", body=json_module.dumps(
            {"error": "rules nordic: building the explanation table", "code": "solving",
             "progress": progress}))

    context, page, errors, answers = phone(browser, server, lang)
    page.route("**/api/puzzles?*", building)
    page.goto(f"{server}/?lang={lang}&seed=7#practice")
    page.wait_for_function("() => document.querySelector('#p-progress') && "
                           "!document.querySelector('#p-progress').hidden", timeout=30000)
    assert page.inner_text("#p-status") == words
    assert page.evaluate("document.querySelector('#p-progress').value") == 37
    release(page, held, "the puzzles were asked for again")
    wait_practice(page, "puzzle")
    assert page.is_hidden("#p-progress")
    axe(page, f"puzzle after the build, {lang}")
    assert errors == []
    context.close()
