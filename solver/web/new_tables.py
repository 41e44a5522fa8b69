"""New shared tables (``NewTables``, a part of
``yatzy.web.shared.SharedGames``): a table made, or made as the next game
of another, with its codes; and the table a short code names."""

from __future__ import annotations

import json
import secrets
import time

from yatzy.database import transaction
from yatzy.game import Game
from yatzy.session import Session
from yatzy.web.table_state import (CODE, SHORT, SHORT_LENGTH, SHORT_LETTERS, WHO_MOVES, Row,
                                   TableRefused)


class NewTables:
    """Tables made in the file of ``SharedGames`` (its ``db``, ``lock``,
    ``row``, ``games``, ``rules``, ``ttl`` and ``_start_next``)."""

    def create(self, game: Game, who_moves: str = "any", follows: str | None = None,
               admin: str | None = None, client: str = "") -> tuple[str, str | None]:
        """A new table for ``game``: ``(code, admin token)``.  ``follows``:
        the table it is the next game of (``admin``: that table's admin
        token, else 403), which then points to it and whose seats it keeps
        when the players are as many; if that table has a next game already,
        that one's code is answered instead (admin None)."""
        if who_moves not in WHO_MOVES:
            raise TableRefused(400, f"who_moves {who_moves!r}: expected any or seat")
        if follows is not None and not CODE.fullmatch(follows):
            raise TableRefused(404, "no such table to follow")
        with self.lock, transaction(self.db):
            if follows is None:
                admin = secrets.token_urlsafe(16)
                return self._insert(game, who_moves, admin, client=client), admin
            row = self._row_in(follows, "no such table to follow")
            if not row.is_admin(admin):
                raise TableRefused(403, "only the phone that made the table may start its next "
                                 "game; propose it instead")
            if row.next is not None:
                return row.next, None
            return self._start_next(row, game, who_moves), row.admin

    def _row_in(self, code: str, missing: str = "no such table") -> Row:
        """``row`` inside a transaction of this thread (404: ``missing``)."""
        try:
            return self.row(code)
        except TableRefused:
            raise TableRefused(404, missing) from None

    def _insert(self, game: Game, who_moves: str, admin: str, family: str | None = None,
                client: str = "") -> str:
        """Insert a table (in the caller's transaction), dropping the expired
        ones first; its code.  ``family``: the first table of the chain it
        continues (None: it starts one); ``client``: the address that made
        it, charged with its chain's results (``yatzy.history.record``)."""
        code, now = secrets.token_urlsafe(12), time.time()
        self.db.execute("DELETE FROM games WHERE (finished = 0 AND updated < ?) "
                        "OR (finished = 1 AND updated < ?)",
                        (now - self.ttl, now - self.finished_ttl))
        self.db.execute("INSERT INTO games (code, rules, created, updated, finished, moves, "
                        "doc, admin, who_moves, short, family, client) "
                        "VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
                        (code, game.rules.spec, now, now, int(game.is_over),
                         json.dumps(game.to_dict()), admin, who_moves, self._new_short(),
                         family or code, client))
        self.games.keep(code, (0, Session(game)))
        self.rules.keep(code, game.rules.spec)
        return code

    def _new_short(self) -> str:
        """A short code no table has now (in the caller's transaction)."""
        while True:
            short = "".join(secrets.choice(SHORT_LETTERS) for _ in range(SHORT_LENGTH))
            if not self.db.execute("SELECT 1 FROM games WHERE short = ?", (short,)).fetchone():
                return short

    def by_short(self, short: str, client: str | None = None, limits: dict | None = None
                 ) -> str:
        """The code of the table whose short code is ``short`` (spaces,
        dashes and case aside); 404 if none.  With a ``client``, its buckets
        ``join`` (codes tried) and ``miss`` (codes not found) of ``limits``
        (rate a second, burst) are kept in the file, so that every server
        process counts the same tries: 429 past either, before the code is
        looked up (no answer tells a right code from a wrong one then)."""
        short = "".join(c for c in str(short).upper() if c.isalnum())
        if not SHORT.fullmatch(short):
            raise TableRefused(400, f"a table's code is {SHORT_LENGTH} letters")
        now = time.time()
        with self.lock, transaction(self.db):
            if client is not None:
                self._bucket("join", client, *limits["join"], now)
                self._bucket("miss", client, *limits["miss"], now, take=False)
            got = self.db.execute("SELECT code FROM games WHERE short = ?", (short,)).fetchone()
            if got is None and client is not None:
                self._bucket("miss", client, *limits["miss"], now)
        if got is None:
            raise TableRefused(404, "no such table")
        return got[0]

    def _bucket(self, name: str, client: str, rate: float, burst: float, now: float,
                take: bool = True) -> None:
        """A token of ``client``'s bucket ``name`` (a row of ``buckets``),
        taken (``take``) or only asked for: 429 if there is none now.  A
        bucket full again is forgotten, so the rows are the clients of the
        last ``burst / rate`` seconds."""
        row = self.db.execute("SELECT tokens, at FROM buckets WHERE name = ? AND client = ?",
                              (name, client)).fetchone()
        tokens = burst if row is None else min(burst, row[0] + max(0.0, now - row[1]) * rate)
        if tokens < 1:
            raise TableRefused(429, "too many requests; wait a moment",
                               retry=(1 - tokens) / rate)
        if take:
            self.db.execute("DELETE FROM buckets WHERE name = ? AND at < ?",
                            (name, now - burst / rate))
            self.db.execute("INSERT OR REPLACE INTO buckets (name, client, tokens, at) "
                            "VALUES (?, ?, ?, ?)", (name, client, tokens - 1, now))

