"""Shared games: one game kept by the server, played and watched from every
phone at the table.

A table is created with its rules, players and options and answers a join
code (96 random bits) and the creator's ``admin`` token; only the code
reaches it, and nothing lists the tables.  Its state is the game (without
its dice seed until it is over, see below), the session's data (each
person's loss so far, the bonus pace, the standings, the last move:
``yatzy.session.Session.as_dict``), a change count ``moves`` (every move,
undo or redo adds one) and ``version`` (every claim, release and proposal
adds one).  A change names the count it was made at (``after``) and is
applied only if the table is still there, else it is refused with 409 and
the current state, so two phones cannot both play the same turn.  ``GET
.../events`` streams every change as a Server-Sent Event; a phone that
reconnects gets the current state at once.

Who may do what is the session's rule (``yatzy.session``), given the
capability of the request's ``token``: the admin token acts for every
seat; a seat's token (``claim``) for that seat; at a table where any phone
may move (``who_moves: any``) any request acts for every seat too, but only
tokens count for releasing a seat or agreeing to the next game.  So in seat
mode a move, undo or redo without the right token is refused (403), and
one seat cannot undo another's move.  Tokens are 128 random bits, sent in
request bodies only, never in a link.

Seats and the next game (proposed by a seat or the creator, accepted by
its ``id``): ``yatzy.web.seats``; new tables and short codes:
``yatzy.web.new_tables``; finished games: ``yatzy.web.results``.

Fair dice: the server draws the dice from the game's seed, which it alone
chooses and keeps (a ``seed`` sent by a client is refused): the state of an
unfinished game has no ``seed`` (nor the ``drawn`` marks that need it), so
no phone can compute the next roll; once the game is over the state shows
the whole document, seed included, so anyone can check every drawn roll.
A game shared as it stands (``{"game": ...}``) gets a fresh secret seed.

Tables live in one SQLite file (``yatzy.database``: WAL, one transaction
per change, ``BEGIN IMMEDIATE``, schema versioned), so they survive a
restart or ``kill -9`` and several server processes share them; a seat is
one row under a primary key, read and written in one transaction, so two
processes never hand it out twice.  Unfinished tables expire ``TTL``
seconds (a week) after their last change, finished ones ``FINISHED_TTL``
seconds (a day) after it.

The routes over them: ``yatzy.web.table_routes``.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable

from yatzy.database import data_folder, open_database, transaction
from yatzy.errors import InputError
from yatzy.game import Game
from yatzy.history import MIGRATIONS
from yatzy.session import Capability, Session, SessionError
from yatzy.web.following import Following
from yatzy.web.new_tables import NewTables
from yatzy.web.results import Results
from yatzy.web.seats import Seats
from yatzy.web.table_state import (  # noqa: F401  the names the table routes and tests use
    BEAT, CODE, FINISHED_TTL, HELD, LIMITS, MAX_BODY, MAX_GAME_BODY, MAX_NAME, MAX_SPEC,
    POLL, RETRY_MS, SEEDS, SHORT, SHORT_LENGTH, SHORT_LETTERS, STREAM_SECONDS, TTL,
    WHO_MOVES, Held, Limiter, Row, TableRefused, public_game, public_proposal, secret_seed,
    stamp_of, state_of)

ROW = ("SELECT rules, moves, doc, who_moves, finished, next, admin, proposal, version, short, "
       "family FROM games ")
STAMP = "SELECT moves, version, next FROM games "
CHANGES_KEPT = 2000     # the last changes of a table its history keeps (a game makes ~500)


class SharedGames(Following, NewTables, Seats, Results):
    """The tables of one database file; safe to use from several threads of
    one process and from several processes.

    A process keeps the live ``Session`` of the tables it served last, with
    the change count it is at: a move is applied to it (one move, not the
    game replayed from its document) once the transaction has read the
    stored count and found it the same; a change by another process shows
    as another count, and the game held is then brought on by the moves
    added there (``Game.continue_to``), or replayed from the stored
    document where they took moves back.  It keeps each table's state and
    its JSON text too, written once per change for the move's answer and
    every phone's event; the poller of ``table_routes`` reads again a kept
    state that another process has changed (``refresh``)."""

    def __init__(self, path: str | Path | None = None, ttl: float = TTL,
                 finished_ttl: float = FINISHED_TTL):
        self.path = Path(path) if path else data_folder() / "tables.sqlite"
        self.ttl, self.finished_ttl = ttl, finished_ttl
        self._db = None
        self.lock = threading.RLock()          # one reader or writer of this process at a time
        self.games = Held()     # code -> (moves, the session at that count)
        self.states = Held()    # code -> (stamp, state, its JSON text)
        self.rules = Held()     # code -> rules spec (a table's rules never change)

    @property
    def db(self):
        """The connection, opened (and the schema migrated) on first use."""
        with self.lock:
            if self._db is None:
                self._db = open_database(self.path, MIGRATIONS, check_same_thread=False)
            return self._db

    def close(self) -> None:
        with self.lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # ---------------------------------------------------------------- reading
    def row(self, code: str) -> Row:
        if not CODE.fullmatch(code or ""):
            raise TableRefused(404, "no such table")
        with self.lock:
            got = self.db.execute(ROW + "WHERE code = ?", (code,)).fetchone()
            seats = dict(self.db.execute("SELECT seat, token FROM seats WHERE code = ?",
                                         (code,)).fetchall())
            if got is None:
                raise TableRefused(404, "no such table")
            self.rules.keep(code, got[0])
        return Row(code, got[0], got[1], json.loads(got[2]), got[3], bool(got[4]), seats, got[5],
                   got[6], None if got[7] is None else json.loads(got[7]), got[8], got[9],
                   got[10])

    def rules_of(self, code: str) -> str | None:
        """The rules of a table this process has seen (None: not known here;
        ``row`` reads them); no lock, as ``current``."""
        return self.rules.get(code)

    def moves(self, code: str) -> int | None:
        with self.lock:
            got = self.db.execute("SELECT moves FROM games WHERE code = ?", (code,)).fetchone()
        return None if got is None else got[0]

    def stamp(self, code: str) -> tuple | None:
        """What the phones follow of a table: its change count, its count of
        claims, releases and proposals, and its next table (None: no such table)."""
        with self.lock:
            got = self.db.execute(STAMP + "WHERE code = ?", (code,)).fetchone()
        return None if got is None else tuple(got)

    def history(self, code: str) -> list[dict]:
        self.row(code)
        with self.lock:
            rows = self.db.execute("SELECT n, kind, text, at FROM changes WHERE code = ? "
                                   "ORDER BY n", (code,)).fetchall()
        return [{"n": n, "kind": k, "text": t, "at": at} for n, k, t, at in rows]

    def session(self, row: Row, solver) -> Session:
        """The table's session (``_session_at``)."""
        with self.lock:
            return self._session_at(row.code, row.moves, solver, row.doc)

    def _session_at(self, code: str, moves: int, solver, doc: dict | None = None) -> Session:
        """The table's session at change ``moves`` (its stored document
        ``doc``, read here if needed): the one held if it is at that count,
        else the one held brought on by the moves another process added,
        else the document replayed."""
        held = self.games.get(code)
        if held is not None and held[0] == moves:    # the same count: not changed elsewhere
            self.games.move_to_end(code)
            return held[1]
        if doc is None:
            doc = json.loads(self.db.execute("SELECT doc FROM games WHERE code = ?",
                                             (code,)).fetchone()[0])
        self.games.pop(code, None)
        if held is not None and held[0] < moves:
            try:
                if held[1].game.continue_to(doc, where="table"):
                    self.games.keep(code, (moves, held[1]))
                    return held[1]
            except InputError:
                pass                                # replayed below, which says what is wrong
        session = Session(Game.from_dict(doc, solver, where="table"))
        self.games.keep(code, (moves, session))
        return session

    # ---------------------------------------------------------------- writing
    def change(self, code: str, after: int, kind: str,
               step: Callable[[Session, Capability], Any], solver,
               describe: Callable[[Game], dict], token: str | None = None) -> dict:
        """Apply ``step(session, capability)`` (a move, undo or redo, the
        capability of ``token``) to the table at count ``after`` in one
        transaction and answer the new state; 409 with the current state if
        the table has moved on, 403 if the capability may not."""
        return self.change_text(code, after, kind, step, solver, describe, token)[0]

    def change_text(self, code: str, after: int, kind: str,
                    step: Callable[[Session, Capability], Any], solver,
                    describe: Callable[[Game], dict], token: str | None = None
                    ) -> tuple[dict, str]:
        """``change``, and the new state's JSON text (written once, for the
        answer and every phone's event)."""
        with self.lock:
            try:
                return self._change(code, after, kind, step, solver, describe, token)
            except TableRefused as e:
                if e.status == 409:
                    e.state = self.view(code, solver, describe)
                raise

    def _change(self, code, after, kind, step, solver, describe, token) -> tuple[dict, str]:
        with transaction(self.db):
            row = self.row(code)
            if after != row.moves:
                raise TableRefused(409, f"the table is at change {row.moves}, not {after}")
            session = self._session_at(code, row.moves, solver)
            self.games.pop(code, None)              # kept again once the change is written
            try:
                text = step(session, row.capability(token))
            except SessionError as e:               # refused before any change
                self.games.keep(code, (row.moves, session))
                if e.kind in ("not_yours", "not_admin"):
                    raise TableRefused(403, str(e)) from None
                raise
            game = session.game                     # another error: the game is dropped (halfway)
            doc = game.to_dict()
            now = time.time()
            if game.is_over and not row.finished:
                self._record(row, session)
            elif row.finished and not game.is_over:     # the last score undone: not a result
                self.db.execute("DELETE FROM results WHERE game = ?", (code,))
            self.db.execute("UPDATE games SET moves = ?, doc = ?, updated = ?, finished = ? "
                            "WHERE code = ?", (row.moves + 1, json.dumps(doc), now,
                                               int(game.is_over), code))
            self.db.execute("INSERT INTO changes (code, n, kind, text, at) VALUES (?, ?, ?, ?, ?)",
                            (code, row.moves + 1, kind, str(text), now))
            self.db.execute("DELETE FROM changes WHERE code = ? AND n <= ?",   # bounded: an undo
                            (code, row.moves + 1 - CHANGES_KEPT))               # and redo loop
        self.games.keep(code, (row.moves + 1, session))
        row.moves, row.doc, row.finished = row.moves + 1, doc, game.is_over
        state = self._with_history(row, state_of(row, session, describe(game)))
        held = (row.stamp, state, json.dumps(state))
        self.states.keep(code, held)
        return state, held[2]

    def delete(self, code: str, admin: str) -> None:
        self.row(code)
        with self.lock, transaction(self.db):
            got = self.db.execute("SELECT admin FROM games WHERE code = ?", (code,)).fetchone()
            if got is None or not secrets.compare_digest(got[0], str(admin)):
                raise TableRefused(403, "only the phone that made the table may delete it")
            self.db.execute("DELETE FROM games WHERE code = ?", (code,))
            self.games.pop(code, None)
            self.states.pop(code, None)
            self.rules.pop(code, None)




__all__ = ["CODE", "LIMITS", "MIGRATIONS", "SHORT", "SHORT_LETTERS", "Held", "Limiter", "Row",
           "SharedGames", "TableRefused", "secret_seed", "stamp_of", "state_of"]
