"""GET /words.json: the catalogue of words for the page, every language or
one, with an ETag the browser revalidates; an unknown language is a JSON 400."""

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from yatzy.rules.words import LANGS, catalogue  # noqa: E402
from yatzy.web import words  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(Starlette(routes=words.ROUTES))


def test_every_language_or_one(client):
    r = client.get("/words.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.json() == {lang: catalogue(lang) for lang in LANGS}
    one = client.get("/words.json", params={"lang": "sv"})
    assert one.json() == catalogue("sv") and one.json()["page"]["undo"] == "Ångra"


def test_an_unchanged_catalogue_is_not_sent_again(client):
    r = client.get("/words.json")
    etag = r.headers["etag"]
    assert r.headers["cache-control"] == "no-cache"
    again = client.get("/words.json", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    other = client.get("/words.json", params={"lang": "nb"}, headers={"If-None-Match": etag})
    assert other.status_code == 200                      # another document, another tag


def test_an_unknown_language_is_one_line_in_json(client):
    r = client.get("/words.json", params={"lang": "de" * 40})
    assert r.status_code == 400 and r.json()["code"] == "input"
    assert "languages: en, nb, sv" in r.json()["error"] and len(r.json()["error"]) < 100
