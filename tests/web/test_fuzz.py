"""Property-based fuzz of every endpoint of the web API: random query values
and JSON bodies, including mangled game documents, never get a 5xx, and
every error is a one-line JSON message."""

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st
from starlette.testclient import TestClient  # noqa: E402

from yatzy.game import Game  # noqa: E402
from yatzy.web.app import create_app  # noqa: E402
from yatzy.web.openapi import DOCUMENT  # noqa: E402

GETS = [p for p, ops in DOCUMENT["paths"].items() if "get" in ops and p.startswith("/api/")]
POSTS = [p for p, ops in DOCUMENT["paths"].items() if "post" in ops]
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

words = st.sampled_from(["", "nordic", "yahtzee", "forced", "11256", "66666", "2", "-1", "0",
                         "ones=3", "chance=23,yatzy=0", "keep 5 6", "score chance", "roll",
                         "auto", "undo", "roll 11256", "nordic:rolls=0", "\x00", "é", "1e9"])
text = st.one_of(words, st.text(max_size=30))
finite = st.floats(allow_nan=False, allow_infinity=False)     # what JSON can carry
json_value = st.recursive(st.none() | st.booleans() | st.integers() | finite | text,
                          lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(text, inner, max_size=4), max_leaves=12)


@pytest.fixture(scope="module")
def client(nordic, tables_dir, explained):      # explained: the explanations are built once
    with TestClient(create_app("nordic", tables_dir), raise_server_exceptions=False) as c:
        assert c.get("/api/ev").status_code == 200
        yield c


@pytest.fixture(scope="module")
def game_doc(nordic, tables_dir):
    game = Game("nordic", ["Ann", "Bob"], seed=2, tables=tables_dir)
    for move in ("roll 11256", "keep 5 6", "roll 566", "score chance", "roll 12345"):
        game.play(move)
    game.undo()
    return game.to_dict()


def check(r):
    """A 4xx or 2xx answer; or the one 5xx the server means: 503 while a
    table a question needs is still being built, saying so and how long
    (``code`` "solving", ``progress``: try again shortly)."""
    building = r.status_code == 503 and r.json().get("code") == "solving" \
        and "progress" in r.json()
    assert r.status_code < 500 or building, (r.status_code, r.text)
    if r.status_code >= 400:
        body = r.json()
        assert isinstance(body["error"], str) and "\n" not in body["error"]


@FUZZ
@given(path=st.sampled_from(GETS), query=st.dictionaries(
    st.sampled_from(["rules", "card", "dice", "rerolls", "top", "spec", "x"]), text, max_size=5))
def test_get_endpoints(client, path, query):
    check(client.get(path, params=query))


@FUZZ
@given(path=st.sampled_from(POSTS), obj=json_value)
def test_post_endpoints_with_any_json(client, path, obj):
    check(client.post(path, json=obj))


@FUZZ
@given(path=st.sampled_from(POSTS), key=st.sampled_from(
    ["yatzy_game", "rules", "seed", "players", "moves", "played", "drawn"]),
    value=json_value, move=text, data=st.binary(max_size=40))
def test_post_endpoints_with_mangled_games(client, game_doc, path, key, value, move, data):
    check(client.post(path, json={"game": {**game_doc, key: value}, "move": move}))
    check(client.post(path, json={"game": game_doc, "move": move, "players": [move],
                                  "rules": move, "seed": value}))
    check(client.post(path, content=data))
