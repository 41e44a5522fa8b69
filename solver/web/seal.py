"""The dice seed of a game played on one page, sealed: the page holds its
game's document and sends it back with every move, but the ``seed`` in it
is the server's secret until the game is over, so no page can compute the
next roll.

``Seal.close(doc, over)`` answers the document with its seed replaced by a
sealed text (``sealed:`` and three base64url parts: a nonce, the HMAC of
the seed; the seed masked by an HMAC-SHA256 of the nonce; a tag over
both: the same seed is sealed the same each time), unless the game is
over; ``Seal.open(doc)`` puts the seed back, refusing a seal this server
did not make or that was altered (``InputError``: 400).  The key is 32
random bytes kept in the shared tables' SQLite file (``keys``), made on
first use: every worker of ``yatzy serve --workers`` and every restart
opens the seals of the others.

    >>> seal = Seal(key=b"k" * 32)
    >>> doc = {"seed": 12345, "moves": ["roll 1 2 3 4 5"]}
    >>> closed = seal.close(doc, over=False)
    >>> closed["seed"].startswith("sealed:"), "12345" in closed["seed"]
    (True, False)
    >>> seal.open(closed) == doc, seal.close(doc, over=True) == doc
    (True, True)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from pathlib import Path

from yatzy.database import open_database, transaction
from yatzy.errors import InputError
from yatzy.history import MIGRATIONS

PREFIX = "sealed:"
KEY_NAME = "game_seal"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Seal:
    """Seals of one key: ``key`` given, or read (made) from the SQLite file
    ``path`` on first use."""

    def __init__(self, path: str | Path | None = None, *, key: bytes | None = None):
        self.path, self._key = path, key
        self.lock = threading.Lock()

    @property
    def key(self) -> bytes:
        with self.lock:
            if self._key is None:
                db = open_database(self.path, MIGRATIONS)
                try:
                    with transaction(db):
                        db.execute("INSERT OR IGNORE INTO keys (name, value) VALUES (?, ?)",
                                   (KEY_NAME, secrets.token_bytes(32)))
                        self._key = bytes(db.execute("SELECT value FROM keys WHERE name = ?",
                                                     (KEY_NAME,)).fetchone()[0])
                finally:
                    db.close()
            return self._key

    def _mask(self, nonce: bytes) -> int:
        return int.from_bytes(hmac.digest(self.key, b"mask" + nonce, hashlib.sha256)[:8], "big")

    def _tag(self, nonce: bytes, masked: bytes) -> bytes:
        return hmac.digest(self.key, b"tag" + nonce + masked, hashlib.sha256)[:16]

    def close(self, doc: dict, over: bool) -> dict:
        """``doc`` with its seed sealed (as it is once the game is ``over``)."""
        seed = doc.get("seed")
        if over or not isinstance(seed, int) or isinstance(seed, bool):
            return doc
        nonce = hmac.digest(self.key, b"nonce" + seed.to_bytes(8, "big"), hashlib.sha256)[:12]
        masked = (seed ^ self._mask(nonce)).to_bytes(8, "big")
        text = PREFIX + ".".join(map(_b64, (nonce, masked, self._tag(nonce, masked))))
        return {**doc, "seed": text}

    def open(self, doc: dict) -> dict:
        """``doc`` with a sealed seed put back (one ``InputError`` line for a
        seal that is not this server's); another document as it is."""
        seed = doc.get("seed")
        if not isinstance(seed, str):
            return doc
        try:
            if not seed.startswith(PREFIX) or len(seed) > 100:
                raise ValueError
            nonce, masked, tag = map(_unb64, seed[len(PREFIX):].split("."))
            if len(nonce) != 12 or len(masked) != 8 or not hmac.compare_digest(
                    tag, self._tag(nonce, masked)):
                raise ValueError
        except ValueError:
            raise InputError("game: the dice seal is not this server's (a game's seed "
                             "stays with the server that dealt it)") from None
        return {**doc, "seed": int.from_bytes(masked, "big") ^ self._mask(nonce)}


__all__ = ["Seal"]
