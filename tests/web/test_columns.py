"""Trippel-Yatzy through the web API's game endpoints (Starlette's
TestClient): JSON for rules=triple, the columns in the game JSON, a whole
game of random legal moves played through ``/api/game/move``."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from yatzy import Solver  # noqa: E402
from yatzy.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client(nordic, tables_dir):
    with TestClient(create_app("nordic", tables_dir), raise_server_exceptions=False) as c:
        yield c


def move(client, game: dict, text: str) -> dict:
    r = client.post("/api/game/move", json={"game": game, "move": text})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.slow
def test_a_whole_trippel_game_through_the_api(client):
    r = client.post("/api/game/new", json={"rules": "triple", "players": ["Ann", "Bob=optimal"],
                                           "seed": 2})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    state = r.json()
    assert state["columns"] == 3 and state["column_weights"] == [1, 2, 3]
    assert state["values"] == "lower_bound" and state["rules"] == "triple"
    rows = {row["key"]: row for row in state["protokoll"]}
    assert rows["chance"]["cells"] == [[None] * 3] * 2 and rows["weighted"]["kind"] == "total"
    assert state["labels"]["en"]["weighted"]
    assert state["expected"] == pytest.approx(6 * 248.4399894, abs=1e-6)
    rng = random.Random(2)
    while not state["is_over"]:
        if state["needs_roll"] or state["turn_player"] == 1:
            state = move(client, state["game"], "auto" if state["turn_player"] else "roll")
            continue
        assert state["advice"] and all("@" in a["text"] for a in state["advice"]
                                       if a["action"] == "score")
        scores = [a for a in state["legal"] if a.startswith("score")]
        text = rng.choice(scores if rng.random() < 0.6 else state["legal"])
        state = move(client, state["game"], text)
        assert state["verdict"] is not None and state["verdict"]["loss"] >= 0
    rows = {row["key"]: row["cells"] for row in state["protokoll"]}
    weighted = rows["weighted"]
    assert state["scores"] == [sum(weighted[0]), sum(weighted[1])]
    assert all(v is not None for seat in rows["chance"] for v in seat)
    assert len([m for m in state["game"]["moves"] if m.startswith("score")]) == 90
    assert state["expected"] is None and state["advice"] is None


def test_trippel_errors_are_json(client, tables_dir):
    state = client.post("/api/game/new", json={"rules": "triple", "seed": 1}).json()
    state = move(client, state["game"], "roll 66666")
    assert "score yatzy@3 (50)" in state["legal"]
    r = client.post("/api/game/move", json={"game": state["game"], "move": "score yatzy"})
    assert r.status_code == 400 and "name the column" in r.json()["error"]
    r = client.post("/api/game/new", json={"rules": "triple", "players": ["G=greedy"]})
    assert r.status_code == 400 and "several columns" in r.json()["error"]
    r = client.get("/api/advise", params={"rules": "triple", "dice": "66666", "rerolls": 0,
                                          "card": "yatzy@3=50"})
    assert r.status_code == 200, r.text
    want = Solver("triple", tables=tables_dir).advise("yatzy@3=50", "66666", 0)
    assert [a["text"] for a in r.json()["actions"]][:5] == [str(a) for a in want.actions[:5]]
    assert r.json()["actions"][0]["column"] == want.best.column
