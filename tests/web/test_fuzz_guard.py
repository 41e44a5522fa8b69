"""Fuzz of the server as the stranger on the network sees it (docs/security.md):
random methods, paths, ``Host`` and ``Origin`` headers, content types and
bodies (deep JSON, long numbers, bytes, oversized) sent over a socket to a
real uvicorn serving ``create_app`` with its host list.  Never a 5xx, a
reset or a hang; every refusal one JSON line; a foreign host always 421;
no change from another origin or without JSON.

A quick profile in every run, a long one (10,000 requests) under ``-m fuzz``."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from yatzy.web.app import create_app  # noqa: E402
from yatzy.web.limits import SERVER_LIMITS  # noqa: E402

from .servers import served  # noqa: E402
from .test_guard import request  # noqa: E402

QUICK, LONG = 80, 10_000
_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                         HealthCheck.too_slow])


@pytest.fixture(scope="module")
def server(nordic, tables_dir, tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzzdb") / "tables.sqlite"
    app = create_app("nordic", tables_dir, db, hosts=["127.0.0.1", "localhost", "::1"])
    limits = {k: v for k, v in SERVER_LIMITS.items() if k not in ("log_level", "http")}
    with served(app, log_level="critical", **limits) as running:
        port = int(running.url.rsplit(":", 1)[1])
        status, _, body = request(port, "POST", "/api/table", b'{"players": ["Ann", "Bob"]}',
                                  {"Content-Type": "application/json"})
        assert status == 201, body
        yield port, json.loads(body)["code"]


words = st.sampled_from(["", "nordic", "roll", "score chance@²", "keep 5 6", "\x1b]0;x\x07",
                         "nordic:bonus_threshold=61", "٣", "9" * 50, "Ann", "auto"])
leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), words,
                 st.text(max_size=20))
documents = st.recursive(leaf, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.sampled_from(
                             ["players", "rules", "move", "after", "token", "game", "seat",
                              "admin", "puzzle", "answer", "player", "seed", "follows"]),
                             inner, max_size=5), max_leaves=16)


def deep(n: int) -> bytes:
    return b'{"players": ' + b"[" * n + b"]" * n + b"}"


bodies = st.one_of(
    documents.map(lambda d: json.dumps(d).encode()),
    st.integers(1, 3000).map(deep),
    st.integers(41, 6000).map(lambda n: b'{"seed": ' + b"9" * n + b"}"),
    st.binary(max_size=200),
    st.sampled_from([b"", b"{", b'{"after": NaN}', b"x" * 70_000]),
)
hosts = st.sampled_from(["{me}", "localhost", "[::1]:1", "evil.example", "127.0.0.1.evil",
                         "", "EVIL.example:{port}", "10.0.0.1"])
origins = st.sampled_from([None, "http://{me}", "http://evil.example", "null", "file://",
                           "http://127.0.0.1:1"])
types = st.sampled_from([None, "application/json", "application/json; charset=utf-8",
                         "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                         "APPLICATION/JSON"])
paths = st.sampled_from(["/api/table", "/api/table/{code}", "/api/table/{code}/move",
                         "/api/table/{code}/undo", "/api/table/{code}/claim",
                         "/api/table/{code}/history", "/api/game/new", "/api/game/move",
                         "/api/game/state", "/api/puzzle/answer", "/api/status", "/api/rules",
                         "/api/puzzles?rules=nordic:bonus_threshold=61&count=1",
                         "/api/ev?rules=maxi:rolls=4", "/api/table/AAAAAAAAAAAAAAAA"])
methods = st.sampled_from(["GET", "POST", "DELETE", "PUT", "PATCH"])


def _attack(server, method, path, host, origin, kind, body):
    port, code = server
    me = f"127.0.0.1:{port}"
    headers = {}
    if origin is not None:
        headers["Origin"] = origin.format(me=me)
    if kind is not None:
        headers["Content-Type"] = kind
    host = host.format(me=me, port=port)
    before = request(port, "GET", f"/api/table/{code}/history")[2]
    status, _, answer = request(port, method, path.format(code=code), body, headers, host=host,
                                timeout=60)
    assert status < 500, (method, path, host, origin, kind, body[:80], status, answer[:300])
    if status >= 400:
        error = json.loads(answer)["error"]
        assert isinstance(error, str) and "\n" not in error
    if host.split(":")[0].lower() not in ("127.0.0.1", "localhost", "[", "[::1]"):
        assert status == 421
    changing = method in ("POST", "DELETE", "PUT", "PATCH")
    foreign = origin is not None and origin.format(me=me) != f"http://{me}"
    if changing and (foreign or (kind or "").split(";")[0].strip().lower() != "application/json"):
        assert status in (403, 413, 415, 421, 400), status
        assert request(port, "GET", f"/api/table/{code}/history")[2] == before


_strategies = dict(method=methods, path=paths, host=hosts, origin=origins, kind=types, body=bodies)
test_attack_quick = settings(max_examples=QUICK, **_SETTINGS)(given(**_strategies)(_attack))
test_attack_long = pytest.mark.fuzz(
    settings(max_examples=LONG, **_SETTINGS)(given(**_strategies)(_attack)))
