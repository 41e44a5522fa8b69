"""The web API of ``yatzy serve`` in process (Starlette's TestClient): the
advice is the library's, games round-trip through the stateless moves,
every error is one JSON line with a 4xx status, and slow work does not block."""

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.routing import Mount  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from yatzy import Solver  # noqa: E402
from yatzy.web.app import MAX_BODY, create_app  # noqa: E402
from yatzy.web.openapi import DOCUMENT  # noqa: E402
from yatzy.rules.ruleset import parse_rules  # noqa: E402
import anyio  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
JSON = {"Content-Type": "application/json"}
NEAR_FULL = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=18,"
             "three_of_a_kind=15,four_of_a_kind=20,small_straight=15,large_straight=20,"
             "full_house=28")


@pytest.fixture(scope="module")
def app(nordic, tables_dir):
    return create_app("nordic", tables_dir)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, raise_server_exceptions=False) as c:
        assert c.get("/api/ev").status_code == 200       # the table is open
        yield c


@pytest.fixture(scope="module")
def solver(tables_dir, nordic):
    return Solver("nordic", tables=tables_dir)


def one_line_error(r, status):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) <= {"error", "code", "command", "progress", "plan", "disk_bytes", "seconds"}
    assert "\n" not in body["error"] and body["error"] and body["code"]
    return body["error"]


def test_advise_is_the_libraries_advice(client, solver):
    r = client.get("/api/advise", params={"dice": "11256", "rerolls": 2, "top": 4})
    assert r.status_code == 200
    got = r.json()
    want = solver.advise("", "11256", 2)
    assert [a["text"] for a in got["actions"]] == [str(a) for a in want.actions[:4]]
    assert got["actions"][0]["expected_final_score"] == pytest.approx(
        want.best.expected_final_score, abs=1e-9)
    card = "sixes=24,yatzy=0"
    got = client.get("/api/advise", params={"card": card, "dice": "6,6,6,6,6",
                                            "rerolls": 0}).json()
    assert [a["text"] for a in got["actions"]] == [str(a) for a in
                                                  solver.advise(card, "66666", 0).actions]


def test_ev_and_rules(client, solver):
    r = client.get("/api/ev", params={"card": "ones=3,two_pairs=18,yatzy=0"}).json()
    assert r["expected_final_score"] == pytest.approx(solver.ev("ones=3,two_pairs=18,yatzy=0"))
    listing = client.get("/api/rules").json()
    assert listing["default"] == "nordic" and "maxi" in [p["name"] for p in listing["presets"]]
    yahtzee = client.get("/api/rules", params={"spec": "yahtzee"}).json()
    assert yahtzee["yahtzee_bonus"] == 100 and yahtzee["labels"]["nb"]["boxes"]["yahtzee"]
    assert "unknown rules preset" in one_line_error(
        client.get("/api/rules", params={"spec": "poker"}), 400)


def test_bad_input_is_one_line_4xx(client):
    assert "dice" in one_line_error(client.get("/api/advise", params={"dice": "1",
                                                                      "rerolls": 2}), 400)
    assert "rerolls" in one_line_error(client.get("/api/advise", params={"dice": "11256"}), 400)
    one_line_error(client.get("/api/advise", params={"dice": "11256", "rerolls": "x"}), 400)
    one_line_error(client.get("/api/advise", params={"dice": "11256", "rerolls": 7}), 400)
    one_line_error(client.get("/api/ev", params={"card": "ones=7"}), 400)
    one_line_error(client.get("/api/ev", params={"card": "x" * 1000}), 400)
    one_line_error(client.get("/api/ev?card=" + "a" * 5000), 414)
    one_line_error(client.post("/api/game/move", content=b" " * (MAX_BODY + 1), headers=JSON), 413)
    one_line_error(client.post("/api/game/move", content=b"{not json", headers=JSON), 400)
    one_line_error(client.post("/api/game/move", content=b"[" * 60000, headers=JSON), 400)
    one_line_error(client.post("/api/game/move", json=[1, 2]), 400)
    one_line_error(client.post("/api/game/move", json={"game": {}, "move": "roll"}), 400)
    one_line_error(client.get("/api/game/move"), 405)
    one_line_error(client.get("/api/nothing"), 404)
    # a rule set with no stored table that does not solve in seconds
    r = client.get("/api/ev", params={"rules": "maxi"})
    assert "no stored table" in one_line_error(r, 422)
    assert r.json()["code"] == "no_table" and r.json()["command"] == "yatzy solve --rules maxi"
    for bad in ("--1", "1-", "-", "+1", "١"):                 # not int() material
        one_line_error(client.get("/api/advise", params={"dice": "11256", "rerolls": bad}), 400)
        one_line_error(client.get("/api/advise", params={"dice": "11256", "rerolls": 1,
                                                         "top": bad}), 400)


def test_rule_sets_the_page_cannot_play_say_why(client):
    presets = {p["name"]: p for p in client.get("/api/rules").json()["presets"]}
    assert presets["nordic"]["available"] and presets["nordic"]["unavailable"] is None
    assert presets["yahtzee"]["available"]                  # solved on demand
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.plan import value_plan
    plan = value_plan(parse_rules("maxi"))                  # the missing table's size and time
    assert presets["maxi"]["unavailable"] == {"code": "no_table",
                                              "command": "yatzy solve --rules maxi",
                                              "bytes": plan.file_size,
                                              "seconds": round(plan.seconds)}
    triple = presets["triple"]
    assert triple["available"] == (triple["unavailable"] is None)
    if triple["unavailable"]:                               # until Game plays three columns
        assert triple["unavailable"]["code"] == "columns"
        for r in (client.post("/api/game/new", json={"rules": "triple"}),
                  client.get("/api/advise", params={"rules": "triple", "dice": "11256",
                                                    "rerolls": 2})):
            assert r.json()["code"] == "columns"
            one_line_error(r, 422)


def test_an_escaped_error_is_json_500_and_the_connection_stays(app, client, monkeypatch):
    from yatzy.api import Solver

    def broken(*args, **kw):
        raise KeyError("a bug")
    monkeypatch.setattr(Solver, "turn", broken)
    r = client.get("/api/advise", params={"dice": "11256", "rerolls": 2})
    assert "internal error" in one_line_error(r, 500) and r.json()["code"] == "internal"
    monkeypatch.undo()
    assert client.get("/api/advise", params={"dice": "11256", "rerolls": 2}).status_code == 200


def test_an_escaped_error_keeps_a_real_connection(nordic, tables_dir, monkeypatch):
    """Over a real socket (uvicorn): after a 500 the same keep-alive
    connection answers the next request."""
    import socket as sockets

    import uvicorn
    from yatzy.api import Solver
    app = create_app("nordic", tables_dir)
    monkeypatch.setattr(Solver, "turn", lambda *a, **k: 1 / 0)
    with sockets.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        import httpx
        for _ in range(200):
            if srv.started:
                break
            time.sleep(0.05)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False, timeout=20) as http:
            for _ in range(100):
                if http.get("/api/ev").status_code == 200:
                    break
                time.sleep(0.1)
        with sockets.create_connection(("127.0.0.1", port), timeout=20) as conn:
            stream = conn.makefile("rb")

            def ask(path):
                conn.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                status = int(stream.readline().split()[1])
                headers = {}
                while (line := stream.readline().strip()):
                    name, _, value = line.decode().partition(":")
                    headers[name.lower()] = value.strip()
                return status, json.loads(stream.read(int(headers["content-length"])))
            status, answer = ask("/api/advise?dice=11256&rerolls=2")
            assert status == 500 and answer["code"] == "internal"
            assert ask("/api/ev")[0] == 200              # the same connection answers
    finally:
        srv.should_exit = True
        thread.join(10)


def test_a_game_through_the_api(client, solver):
    r = client.post("/api/game/new", json={"players": ["Ann", "Bob"], "seed": 1}).json()
    assert r["needs_roll"] and r["advice"] is None and r["players"][1]["name"] == "Bob"
    for move in ("roll 11256", "keep 5 6", "roll 566"):
        r = client.post("/api/game/move", json={"game": r["game"], "move": move}).json()
    assert r["dice"] == [5, 5, 6, 6, 6] and r["rerolls"] == 1
    assert r["verdict"] is None                       # a roll is not a decision
    assert [a["text"] for a in r["advice"]] == [str(a) for a in
                                               solver.advise("", "55666", 1).actions]
    r = client.post("/api/game/move", json={"game": r["game"], "move": "score hus"}).json()
    assert r["verdict"]["chosen"]["text"] == "score full_house (28)"
    assert r["verdict"]["loss"] == pytest.approx(
        solver.advise("", "55666", 1).find("score full_house").loss)
    house = next(row for row in r["protokoll"] if row["key"] == "full_house")
    assert house["cells"] == [28, None] and r["turn_player"] == 1 and r["scores"] == [28, 0]
    assert [row["key"] for row in r["protokoll"]][6:8] == ["sum", "bonus"]
    undone = client.post("/api/game/undo", json={"game": r["game"]}).json()
    assert undone["turn_player"] == 0 and undone["can_redo"]
    redone = client.post("/api/game/redo", json={"game": undone["game"]}).json()
    assert redone["game"] == r["game"]
    again = client.post("/api/game/state", json={"game": r["game"]}).json()
    assert again["protokoll"] == r["protokoll"]
    rolled = client.post("/api/game/move", json={"game": again["game"],
                                                  "move": "roll 12345"}).json()
    assert "not among" in one_line_error(client.post("/api/game/move", json={
        "game": rolled["game"], "move": "keep 6"}), 400)


def test_computers_move_with_auto(client):
    r = client.post("/api/game/new", json={"players": ["Max=optimal"], "seed": 3}).json()
    for _ in range(6):
        r = client.post("/api/game/move", json={"game": r["game"], "move": "auto"}).json()
    assert len(r["game"]["moves"]) == 6 and r["verdict"] is None and r["advice"] is None


def play(client, r, *moves):
    for move in moves:
        got = client.post("/api/game/move", json={"game": r["game"], "move": move})
        assert got.status_code == 200, got.text
        r = got.json()
    return r


def test_auto_is_for_a_computer_and_undo_goes_back_to_a_person(client):
    r = client.post("/api/game/new", json={"players": ["Ann", "Max=optimal"], "seed": 4}).json()
    r2 = client.post("/api/game/move", json={"game": r["game"], "move": "auto"})
    assert one_line_error(r2, 409) and r2.json()["code"] == "not_computer"
    assert not r["can_undo_human"]
    r = play(client, r, "roll 11256", "keep 5 6", "roll 566", "score full_house")
    before = r["game"]["played"]
    assert r["turn_player"] == 1 and r["advice"] is None
    while r["turn_player"] == 1:
        r = play(client, r, "auto")
    assert r["game"]["played"] > before + 1
    undone = client.post("/api/game/undo", json={"game": r["game"], "to": "human"}).json()
    assert undone["game"]["played"] == before - 1 and undone["turn_player"] == 0
    assert undone["dice"] == [5, 5, 6, 6, 6] and undone["advice"]
    one_step = client.post("/api/game/undo", json={"game": r["game"]}).json()
    assert one_step["game"]["played"] == r["game"]["played"] - 1
    redone = client.post("/api/game/redo", json={"game": undone["game"], "to": "human"}).json()
    assert undone["game"]["settings"] == {"free_undo_used": True}  # past the computer's dice
    assert redone["game"] == {**r["game"], "settings": {"free_undo_used": True}}
    start = client.post("/api/game/new", json={"players": ["Ann"]}).json()
    for path, code in (("/api/game/undo", "nothing_undo"), ("/api/game/redo", "nothing_redo")):
        got = client.post(path, json={"game": start["game"], "to": "human"})
        assert one_line_error(got, 400) and got.json()["code"] == code
    one_line_error(client.post("/api/game/undo", json={"game": r["game"], "to": "x"}), 400)


def test_the_view_has_par_expected_scores_and_turns(client, solver):
    r = client.post("/api/game/new", json={"players": ["Ann", "Bob"], "seed": 4}).json()
    assert r["par"] == [[None], [None]] and r["turns_played"] == [0, 0]
    assert r["expected_scores"] == [pytest.approx(solver.ev(""))] * 2
    r = play(client, r, "roll 11112", "score ones")
    assert r["par"] == [[1.0], [None]] and r["turns_played"] == [1, 0] and r["turns_each"] == 15
    assert r["expected_scores"][0] == pytest.approx(solver.ev("ones=4"))


def test_distribution(client, solver):
    d = client.get("/api/distribution", params={"card": NEAR_FULL}).json()
    assert d["exact"] and d["mean"] == pytest.approx(solver.ev(NEAR_FULL), abs=1e-6)
    assert sum(d["pmf"].values()) == pytest.approx(1.0)
    one_line_error(client.get("/api/distribution", params={"card": NEAR_FULL + ",chance=20,"
                                                           "yatzy=0"}), 400)


def test_slow_work_does_not_block_other_requests(app, client, monkeypatch):
    """A distribution runs in a worker thread: the status answers meanwhile."""
    solver = app.state.solvers.solvers["nordic"]
    real = solver.distribution

    def slow(*args, **kw):
        time.sleep(1.0)
        return real(*args, **kw)
    monkeypatch.setattr(solver, "distribution", slow)
    card = NEAR_FULL.replace("full_house=28", "full_house=27")
    done = []
    worker = threading.Thread(target=lambda: done.append(
        client.get("/api/distribution", params={"card": card}).status_code))
    worker.start()
    time.sleep(0.3)
    start = time.perf_counter()
    status = client.get("/api/status").json()
    assert time.perf_counter() - start < 0.5 and status["distributions_running"] == 1
    worker.join()
    assert done == [200]


def test_openapi_describes_every_route(client, app):
    doc = client.get("/openapi.json").json()
    assert doc == json.loads(json.dumps(DOCUMENT)) and doc["openapi"].startswith("3.")
    routes = {r.path for r in app.routes if not isinstance(r, Mount)}
    assert routes == set(doc["paths"])


def test_page_and_assets_ship_in_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers[
        "content-security-policy"]
    for asset in ("main.js", "words.js", "game.js", "share.js", "practice.js", "style.css", "sw.js", "icon.svg", "manifest.webmanifest"):
        r = client.get(f"/static/{asset}")
        text = r.text.replace('"http://www.w3.org/2000/svg"', "")      # a name, not a fetch
        assert r.status_code == 200 and "http://" not in text and "https://" not in text
    assert "https://" not in page.text
    assert client.get("/sw.js").headers["content-type"].startswith("text/javascript")
    manifest = client.get("/manifest.webmanifest")
    assert manifest.json()["start_url"] == "/" and "manifest" in manifest.headers["content-type"]


def test_serve_command_prints_its_address(tables_dir, nordic):
    proc = subprocess.Popen([sys.executable, "-m", "yatzy", "serve", "--port", "0",
                             "--tables", str(tables_dir)], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line
        url = next(w for w in line.split() if w.startswith("http://")).rstrip("/")
        import httpx
        with httpx.Client(trust_env=False, timeout=10) as http:
            for _ in range(50):
                try:
                    assert http.get(url + "/api/status").json()["default"] == "nordic"
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            else:
                raise AssertionError("the server did not answer")
    finally:
        proc.terminate()
        proc.wait(10)
    bad = subprocess.run([sys.executable, "-m", "yatzy", "serve", "--rules", "poker"], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown rules preset")


def test_docstring_examples_of_the_app():
    import doctest

    import yatzy.web.app
    result = doctest.testmod(yatzy.web.app)
    assert result.failed == 0 and result.attempted > 0


def test_rule_sets_beyond_the_slots_close_the_least_recently_used(tables_dir, nordic,
                                                                 monkeypatch):
    """Asking for more rule sets than the server keeps open closes the
    least recently used idle one instead of refusing every other rule set."""
    from yatzy.web import app as web_app
    from yatzy.web.budget import Budget
    monkeypatch.setattr(web_app, "MAX_RULE_SETS", 2)
    solvers = web_app.Solvers(tables_dir, Budget(allow_rules=True))     # nordic:rolls=2 is built
    specs = ["nordic", "nordic:rolls=2", "forced", "nordic"]
    for spec in specs:
        solvers.start(spec)
        for s in list(solvers.status.values()):      # the tables open in threads
            while s["state"] not in ("ready", "failed"):
                time.sleep(0.01)
    assert list(solvers.solvers) == ["forced", "nordic"]


def test_a_body_that_trickles_in_is_cut_off(monkeypatch):
    from starlette.requests import Request

    from yatzy.web import answers
    monkeypatch.setattr(answers, "BODY_SECONDS", 0.2)
    parts = [{"type": "http.request", "body": b'{"players": ', "more_body": True},
             {"type": "http.request", "body": b'["Ann"]}', "more_body": False}]

    async def receive():
        if len(parts) == 1:
            await anyio.sleep(1)
        return parts.pop(0)

    request = Request({"type": "http", "method": "POST", "headers": []}, receive)
    with pytest.raises(answers.ApiError) as e:
        anyio.run(answers.body, request)
    assert e.value.status == 408


def test_a_builds_time_left_is_its_speed_since_it_began(monkeypatch):
    from yatzy.web import answers
    now = [50.0]
    monkeypatch.setattr(answers.time, "monotonic", lambda: now[0])
    clock: dict = {}
    assert answers.build_times(clock, 0, 1000)["seconds_left"] is None
    now[0] = 60.0
    assert answers.build_times(clock, 20, 1000) == {"done": 20, "total": 1000, "seconds": 10.0,
                                                   "seconds_left": None}     # 2 %: too soon
    now[0] = 100.0
    assert answers.build_times(clock, 200, 1000)["seconds_left"] == 200.0
    now[0] = 101.0                      # the next build (another total) starts the clock again
    assert answers.build_times(clock, 0, 50) == {"done": 0, "total": 50, "seconds": 0.0,
                                                "seconds_left": None}


def test_the_pages_undo_never_gives_back_dice_already_seen(client):
    """Two players, seed 1: roll, keep 1, roll, undo twice, keep 3 4, roll
    once gave back the 2 3 4 already seen."""
    r = client.post("/api/game/new", json={"players": ["Ann", "Bob"], "seed": 1}).json()
    r = play(client, r, "roll", "keep 1", "roll")
    seen = r["dice"]
    for _ in range(2):
        got = client.post("/api/game/undo", json={"game": r["game"], "to": "human"})
        assert got.status_code == 409 and got.json()["code"] == "fair_undo"
        assert one_line_error(got, 409)
    free = {**r["game"], "settings": {"undo": "free"}}     # free undo: fresh dice instead
    undone = client.post("/api/game/undo", json={"game": free, "to": "human"}).json()
    assert undone["game"]["played"] == 1            # the roll drawn and the keep before it
    again = play(client, undone, "keep 3 4", "roll")
    assert seen == [1, 2, 3, 4, 4] and again["dice"] != [2, 3, 3, 4, 4]
    assert again["game"]["settings"]["free_undo_used"]
    one = client.post("/api/game/undo", json={"game": r["game"]})     # one move: the same rule
    assert one.status_code == 409 and one.json()["code"] == "fair_undo"


def test_advise_takes_the_librarys_objectives(client, solver):
    from yatzy.players.objectives import Target
    got = client.get("/api/advise", params={"dice": "11256", "rerolls": 2, "target": 200})
    assert got.status_code == 200, got.text
    want = solver.advise("", "11256", 2, Target(200))
    assert got.json()["objective"] == repr(Target(200))
    assert [a["text"] for a in got.json()["actions"]] == [str(a) for a in want.actions]
    plain = client.get("/api/advise", params={"dice": "11256", "rerolls": 2}).json()
    assert [a["text"] for a in plain["actions"]] == [str(a) for a in
                                                   solver.advise("", "11256", 2).actions]
    for bad in ({"theta": "x"}, {"target": -1}, {"target": 200, "theta": 0.1}):
        one_line_error(client.get("/api/advise", params={"dice": "11256", "rerolls": 2,
                                                         **bad}), 400)
