"""What a family's score pad gives, on the server: the page's game routes
and the shared tables report the session's loss ledger (the same numbers
as the coach and the end review, through undo, redo and a resume), who
leads, the bonus in words, Trippel's weighted totals, the end review;
score-pad mode (points written without dice, only what the box can take);
history and personal bests in SQLite; joining by a short code that a
stranger cannot guess."""

from __future__ import annotations

import random
import sqlite3

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from yatzy.game import Game  # noqa: E402
from yatzy.scorepad import PadError, is_pad, pad_moves, pad_values  # noqa: E402
from yatzy.session import Session  # noqa: E402
from yatzy.web.app import create_app  # noqa: E402
from yatzy.web.shared import LIMITS, MIGRATIONS, SHORT, SHORT_LETTERS  # noqa: E402


@pytest.fixture(scope="module")
def client(nordic, tables_dir, tmp_path_factory):
    """The app with the per-client limits on creating and moving lifted (its
    tests play whole games faster than a person; the join limits stay)."""
    db = tmp_path_factory.mktemp("family") / "tables.sqlite"
    before = dict(LIMITS)
    LIMITS.update(create=(1e6, 1e6), move=(1e6, 1e6))
    try:
        with TestClient(create_app("nordic", tables_dir, db, writes=(1e6, 1e6)),
                        raise_server_exceptions=False) as c:
            assert c.get("/api/ev").status_code == 200
            yield c
    finally:
        LIMITS.clear()
        LIMITS.update(before)


def post(client, path, **body):
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def play(client, r, *moves):
    for m in moves:
        r = post(client, "/api/game/move", game=r["game"], move=m)
    return r


def some_moves(seed: int, n: int) -> list[str]:
    """A game's first ``n`` moves played with mistakes (so losses are not 0)."""
    g = Game("nordic", ["Kari", "Ola"], seed=seed)
    rng = random.Random(seed)
    out = []
    while len(out) < n and not g.is_over:
        if g.needs_roll:
            text = g.play("roll").text
        else:
            legal = [str(a) for a in g.legal_actions()]
            text = g.play(rng.choice(legal) if rng.random() < 0.5 else Session(g).auto_move()).text
        out.append(text)
    return out


# ------------------------------------------------------------------ the ledger
def test_the_page_reports_the_sessions_ledger_through_undo_redo_and_resume(client):
    moves = some_moves(3, 40)
    moves = moves[:max(i for i, m in enumerate(moves) if m.startswith("score")) + 1]
    r = post(client, "/api/game/new", players=["Kari", "Ola"], seed=3)
    r = play(client, r, *moves)
    ledger = r["family"]["ledger"]
    g = Game("nordic", ["Kari", "Ola"], seed=3)
    for m in moves:
        g.play(m)
    want = Session(g).ledger()
    assert {int(k): v for k, v in ledger.items()} == want and max(want.values()) > 0
    for seat in (0, 1):                  # the review's totals, bit for bit
        assert ledger[str(seat)] == g.review(seat).total_loss
    undone = post(client, "/api/game/undo", game=r["game"], to="human")
    g2 = Game.from_dict({**undone["game"], "seed": 3}, g.solver)        # its seed sealed
    assert {int(k): v for k, v in undone["family"]["ledger"].items()} == Session(g2).ledger()
    redone = post(client, "/api/game/redo", game=undone["game"], to="human")
    assert redone["family"]["ledger"] == ledger
    resumed = post(client, "/api/game/state", game=r["game"])       # a reload, a resume
    assert resumed["family"]["ledger"] == ledger


def test_lead_bonus_in_words_and_the_end_review(client):
    r = post(client, "/api/game/new", players=["Kari", "Ola"], seed=5)
    r = play(client, r, "roll 33356", "score threes", "roll 11256", "score chance")
    f = r["family"]
    assert f["lead"] == {"seats": [1], "by": 6} and f["review"] is None
    assert f["bonus"][0] == [{"state": "need", "need": 54, "pace": 0.0}]
    assert [s["name"] for s in f["standings"]] == ["Ola", "Kari"]
    while not r["is_over"]:
        r = play(client, r, "roll" if r["needs_roll"] else
                 next(a for a in r["legal"] if a.startswith("score")))
    review = r["family"]["review"]
    assert [x["name"] for x in review] == ["Kari", "Ola"]
    g = Game.from_dict(r["game"], None)
    for x in review:
        assert x["loss"] == pytest.approx(g.review(x["seat"]).total_loss, abs=0)
        assert x["worst"] and x["worst"][0]["loss"] == max(w["loss"] for w in x["worst"])
        assert {"turn", "dice", "chosen", "best"} <= set(x["worst"][0])


def test_trippel_has_weighted_totals_per_player(client):
    r = post(client, "/api/game/new", rules="triple", players=["Kari", "Ola"], seed=2)
    r = play(client, r, "roll 66612", "score sixes@3")
    w = r["family"]["weighted"]
    assert w[0] == {"seat": 0, "columns": [0, 0, 18], "weights": [1, 2, 3], "total": 54}
    assert len(r["family"]["bonus"][0]) == 3


# ------------------------------------------------------------------ score pad
def test_a_score_pad_takes_only_points_the_box_can_score():
    g = Game("nordic", ["Kari", "Ola"], seed=1)
    values = pad_values(g)
    house = values[1, g.rules.box_index("full_house")]
    assert 0 in house and 28 in house and 29 not in house and 30 not in house
    with pytest.raises(PadError) as e:
        Session(g).write("full_house", 29)
    assert e.value.kind == "pad_points" and not g.moves          # nothing played
    Session(g).write("yatzy", 50)
    assert g.scores() == (50, 0) and is_pad(g) and g.turn_player == 1
    with pytest.raises(PadError):                      # Ola's yatzy box is open, Kari's filled
        Session(g).write("yatzy", 51)
    g.play("roll 12345")
    with pytest.raises(PadError) as e:                 # dice entered: not a pad write now
        Session(g).write("chance", 20)
    assert e.value.kind == "pad_not_now"


@pytest.mark.parametrize("rules,box,points", [("maxi", "chance", 36), ("triple", "chance@2", 30),
                                              ("yahtzee", "full_house", 25)])
def test_the_pad_works_for_every_rule_set(rules, box, points):
    g = Game(rules, ["Kari"], seed=1)
    name, _, col = box.partition("@")
    Session(g).write(name, points, int(col) if col else None)
    assert g.scores()[0] == points * (int(col) if col else 1)
    assert pad_values(g) and all(pad_values(g).values())


def test_the_page_writes_from_a_pad_and_undo_takes_it_back_whole(client):
    r = post(client, "/api/game/new", players=["Kari", "Ola"], seed=8)
    assert r["family"]["pad"]["two_pairs@1"][:3] == [0, 6, 8]
    bad = client.post("/api/game/pad", json={"game": r["game"], "box": "two_pairs", "points": 19})
    assert bad.status_code == 400 and bad.json()["code"] == "pad_points"
    assert 18 in bad.json()["values"] and "\n" not in bad.json()["error"]
    for body in ({"box": "two_pairs", "points": "18"}, {"box": "nope", "points": 1},
                 {"box": "chance", "points": True}, {"box": "chance", "points": 20, "column": 2}):
        got = client.post("/api/game/pad", json={"game": r["game"], **body})
        assert 400 <= got.status_code < 500 and "\n" not in got.json()["error"], body
    w = post(client, "/api/game/pad", game=r["game"], box="two_pairs", points=18)
    assert w["scores"] == [18, 0] and w["turn_player"] == 1
    assert w["family"]["ledger"] == {"0": 0, "1": 0} and w["family"]["unrated"] == {"0": 1, "1": 0}
    undone = post(client, "/api/game/undo", game=w["game"], to="human")
    assert undone["game"]["played"] == 0 and undone["needs_roll"] and undone["family"]["pad"]
    redone = post(client, "/api/game/redo", game=undone["game"], to="human")
    assert redone["scores"] == [18, 0] and redone["turn_player"] == 1
    g = Game("nordic", ["Kari"], seed=2)                     # to the end: scores only
    while not g.is_over:
        key, values = next(iter(pad_values(g).items()))
        Session(g).write(g.rules.boxes[key[1]].name, values[-1])
    end = post(client, "/api/game/state", game=g.to_dict())
    assert end["family"]["review"] == [{"seat": 0, "name": "Kari", "score": g.scores()[0],
                                        "scores_only": True, "unrated": 15}]


def mixed_game(seed: int, until: int = 99) -> tuple[Game, int]:
    """Kari writes about 4 turns in 10 from a pad and plays the others with
    dice, Ola plays with dice, both with mistakes; ``until`` turns at most.
    The game and the number of Kari's pad writes."""
    rng = random.Random(seed)
    g = Game("nordic", ["Kari", "Ola"], seed=seed)
    pads = 0
    while not g.is_over and len(g.turns) < until:
        if g.turn_player == 0 and not g.position.rolls and rng.random() < 0.4:
            key, values = next(iter(pad_values(g).items()))
            Session(g).write(g.rules.boxes[key[1]].name, values[-1])
            pads += 1
        elif g.needs_roll:
            g.play("roll")
        else:
            legal = [str(a) for a in g.legal_actions()]
            g.play(rng.choice(legal) if rng.random() < 0.3 else Session(g).auto_move())
    return g, pads


def test_a_pad_write_leaves_the_moves_made_with_dice_rated(client):
    """A mixed game: the ledger rates the moves made with dice and leaves the
    pad's turns unrated, equal bit for bit to the review without those turns
    (the full review's decisions less the pad's turns), through a resume."""
    g, pads = mixed_game(5)
    assert g.is_over and 0 < pads < 15
    s = Session(g)
    scored = [i for i, m in enumerate(g.moves) if m.player == 0 and m.text.startswith("score")]
    pad_turns = {t for t, i in enumerate(scored, 1) if i in pad_moves(g)}
    assert len(pad_turns) == pads == s.unrated()[0] and s.unrated()[1] == 0
    assert s.review(0).decisions == tuple(d for d in g.review(0).decisions
                                          if d.turn not in pad_turns)
    assert s.review(1).decisions == g.review(1).decisions
    end = post(client, "/api/game/state", game=g.to_dict())
    f = end["family"]
    assert f["unrated"] == {"0": pads, "1": 0} and f["scorepad"]
    people = {r["seat"]: r for r in f["review"]}
    for seat in (0, 1):
        assert f["ledger"][str(seat)] == s.loss(seat) == s.review(seat).total_loss > 0
        assert people[seat]["loss"] == s.review(seat).total_loss
        assert people[seat]["unrated"] == (pads if seat == 0 else 0)
        assert not people[seat]["scores_only"]
    resumed = post(client, "/api/game/state", game=end["game"])
    assert resumed["family"]["ledger"] == f["ledger"]


def test_a_pad_write_undone_and_played_with_dice_is_rated():
    g, pads = mixed_game(7, until=12)
    while not (g.turn_player == 0 and not g.position.rolls):
        g.play("roll") if g.needs_roll else Session(g).play_auto()
    Session(g).write("chance", 20)
    s = Session(g)
    before = s.unrated()[0]
    assert before == pads + 1 and s.losses()[-1] is None
    s.undo_write()
    assert s.unrated()[0] == pads
    for m in ("roll 12345", "score chance"):
        s.play(m)
    assert s.unrated()[0] == pads and s.losses()[-1] is not None
    assert s.loss(0) == s.review(0).total_loss


# ------------------------------------------------------------------ shared tables
def new_table(client, players=("Kari", "Ola"), **extra):
    r = client.post("/api/table", json={"rules": "nordic", "players": list(players), **extra})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_table_has_a_short_code_to_join_by(client):
    t = new_table(client)
    assert SHORT.fullmatch(t["short"]) and not set(t["short"]) & set("ILO01")
    got = client.get(f"/api/join/{t['short'].lower()[:3]} {t['short'][3:]}")
    assert got.status_code == 200 and got.json()["code"] == t["code"]
    assert client.get("/api/join/AB").status_code == 400


def test_a_stranger_guessing_codes_is_stopped(nordic, tables_dir, tmp_path):
    with TestClient(create_app("nordic", tables_dir, tmp_path / "t.sqlite"),
                    raise_server_exceptions=False) as c:
        t = new_table(c)
        rng = random.Random(1)
        answers = []
        for _ in range(40):
            guess = "".join(rng.choice(SHORT_LETTERS) for _ in range(6))
            if guess == t["short"]:
                continue
            r = c.get(f"/api/join/{guess}")
            answers.append(r.status_code)
            assert "code" not in r.json() or r.status_code != 200
        assert answers[:6] == [404] * 6 and set(answers[6:]) == {429}
        # the right code is refused too while the client is limited: no oracle
        assert c.get(f"/api/join/{t['short']}").status_code == 429


def test_a_table_pad_write_and_undo_by_its_seat(client):
    t = new_table(client, who_moves="seat")
    code = t["code"]
    kari = client.post(f"/api/table/{code}/claim", json={"seat": 0}).json()["token"]
    ola = client.post(f"/api/table/{code}/claim", json={"seat": 1}).json()["token"]
    r = client.post(f"/api/table/{code}/pad", json={"box": "chance", "points": 22, "after": 0,
                                                    "token": ola})
    assert r.status_code == 403
    r = client.post(f"/api/table/{code}/pad", json={"box": "chance", "points": 22, "after": 0,
                                                    "token": kari})
    assert r.status_code == 200 and r.json()["family"]["standings"][0]["score"] == 22
    assert r.json()["session"]["last"]["name"] == "Kari"
    u = client.post(f"/api/table/{code}/undo", json={"after": 1, "token": ola})
    assert u.status_code == 403
    u = client.post(f"/api/table/{code}/undo", json={"after": 1, "token": kari}).json()
    assert u["game"]["played"] == 0 and u["family"]["pad"]


def test_a_finished_table_keeps_its_history_and_personal_bests(client):
    states = []
    follows = admin = None
    for round_ in range(2):
        extra = {"follows": follows, "admin": admin} if follows else {}
        t = new_table(client, **extra)
        admin = admin or t["admin"]
        code, after = t["code"], 0
        g = Game("nordic", ["Kari", "Ola"])
        while True:
            s = client.get(f"/api/table/{code}").json()
            if s["finished"]:
                break
            g = Game.from_dict({**s["game"], "seed": 0}, None)
            key, values = next(iter(pad_values(g).items()))
            points = values[-1] if (round_ == 1) == (g.turn_player == 0) else values[0]
            r = client.post(f"/api/table/{code}/pad", json={
                "box": g.rules.boxes[key[1]].name, "points": points, "after": s["moves"]})
            assert r.status_code == 200, r.text
        states.append(s)
        follows = code
    h = states[1]["history"]
    assert h["games"] == 2 and len(h["top"]) == 4
    best = {p["name"]: p for p in h["players"]}
    assert best["Kari"]["new"] and best["Kari"]["games"] == 2
    assert not best["Ola"]["new"] and best["Ola"]["best"] == states[0]["family"]["standings"][0]["score"]


def test_a_page_game_is_recorded_once(client):
    g = Game("nordic", ["Per", "Pål"], seed=4)
    while not g.is_over:
        key, values = next(iter(pad_values(g).items()))
        Session(g).write(g.rules.boxes[key[1]].name, values[len(values) // 2])
    first = post(client, "/api/history", game=g.to_dict())
    again = post(client, "/api/history", game=g.to_dict())
    assert first["games"] == again["games"] == 1 and first["players"][0]["first"]
    unfinished = client.post("/api/history", json={"game": Game("nordic", ["X"]).to_dict()})
    assert unfinished.status_code == 409


def test_the_schema_migrates_an_old_file(tmp_path):
    from yatzy.database import open_database
    from yatzy.web.shared import SharedGames
    path = tmp_path / "old.sqlite"
    db = open_database(path, MIGRATIONS[:4])
    db.execute("INSERT INTO games (code, rules, created, updated, moves, doc, admin) "
               "VALUES ('abcdefghijklmnop', 'nordic', 0, 1e12, 0, '{}', 'x')")
    db.close()
    shared = SharedGames(path)
    assert shared.row("abcdefghijklmnop").short is None
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# ------------------------------------------------------------------ Practice in words
def test_the_practice_level_is_in_words(client):
    r = client.get("/api/practice/level", params={"rules": "nordic", "n": 25, "mean": "0.3"})
    assert r.json() == {"level": "good", "points": 14.0, "n": 25, "more": 0}
    few = client.get("/api/practice/level", params={"n": 4, "mean": "0.01"}).json()
    assert few["level"] is None and few["more"] == 6
    best = client.get("/api/practice/level", params={"n": 40, "mean": "0"}).json()
    worst = client.get("/api/practice/level", params={"n": 40, "mean": "5"}).json()
    assert best["level"] == "expert" and worst["level"] == "beginner"
    for bad in ({"n": "x"}, {"n": 3, "mean": "nan"}, {"n": 3, "mean": "-1"},
                {"n": 3, "rules": "nordic:dice=99"}):
        got = client.get("/api/practice/level", params=bad)
        assert got.status_code == 400 and "\n" not in got.json()["error"], bad


def test_an_undone_last_score_is_no_result(nordic, tables_dir, tmp_path):
    db = tmp_path / "t.sqlite"
    with TestClient(create_app("nordic", tables_dir, db), raise_server_exceptions=False) as c:
        t = new_table(c, players=["Solo"])
        code = t["code"]
        s = t
        while not s["finished"]:
            g = Game.from_dict({**s["game"], "seed": 0}, None)
            key, values = next(iter(pad_values(g).items()))
            r = c.post(f"/api/table/{code}/pad", json={"box": g.rules.boxes[key[1]].name,
                                                       "points": values[-1], "after": s["moves"],
                                                       "token": t["admin"]})
            assert r.status_code == 200, r.text
            s = r.json()
        assert s["history"]["games"] == 1 and s["history"]["players"][0]["first"]
        count = "SELECT count(*) FROM results WHERE game = ?"
        assert sqlite3.connect(db).execute(count, (code,)).fetchone()[0] == 1
        u = c.post(f"/api/table/{code}/undo", json={"after": s["moves"], "token": t["admin"]})
        assert u.status_code == 200 and not u.json()["finished"] and "history" not in u.json()
        assert sqlite3.connect(db).execute(count, (code,)).fetchone()[0] == 0
