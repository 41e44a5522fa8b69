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

The next game is *proposed* (``POST .../next``) and shown on every phone
(the state's ``proposal``); it replaces nothing until it is accepted: at
once when the admin proposes or accepts it, or when every claimed seat
(at least one) has agreed by its token (``.../next/accept``).  Then the
table's ``next`` names the new table, its phones move on, and the seats
are kept when the players are as many.  ``POST /api/table`` with
``follows`` does the same for the followed table's admin token only.

Fair dice: the server draws the dice from the game's seed, which it keeps:
the state of an unfinished game has no ``seed`` (nor the ``drawn`` marks
that need it), so no phone can compute the next roll; once the game is
over the state shows the whole document, seed included, so anyone can
check every drawn roll.  A game shared as it stands (``{"game": ...}``)
gets a fresh secret seed (its rolls so far are kept as rolled).

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
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from yatzy.database import data_folder, open_database, transaction
from yatzy.errors import InputError
from yatzy.game import Game
from yatzy.history import MIGRATIONS, game_key, history, page_family, record
from yatzy.session import ANY_SEAT, NOBODY, Capability, Session, SessionError, check_right
from yatzy.web.family import family

log = logging.getLogger(__name__)
CODE = re.compile(r"[A-Za-z0-9_-]{16}")
SHORT_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"     # no I, L, O: none read as 1 or 0
SHORT_LENGTH = 6                # a short code: 23**6, about 148 million
SHORT = re.compile(f"[{SHORT_LETTERS}]{{{SHORT_LENGTH}}}")
TTL = 7 * 24 * 3600             # an unfinished table expires after a week without a change
FINISHED_TTL = 24 * 3600        # a finished one a day after its last change
MAX_BODY = 4096                 # bytes of a request body
MAX_GAME_BODY = 64 * 1024       # bytes of a request that shares a game as it stands
MAX_NAME = 40                   # characters of a player's name (NAME or NAME=KIND)
MAX_SPEC = 200                  # characters of a rules spec
POLL = 0.1                      # seconds between looks for changes made by other processes
BEAT = 15                       # seconds between comments on a quiet event stream
RETRY_MS = 1000                 # the browser's wait before it reconnects a dropped stream
STREAM_SECONDS = 1800           # an event stream closes after this; the browser reconnects
WHO_MOVES = ("any", "seat")
HELD = 2048                     # tables whose live game and state a process keeps in memory
SEEDS = 2**53                   # a table's secret seed is below this: the page's JavaScript
                                # holds it exactly once it is shown, at the game's end


def secret_seed() -> int:
    """A fresh dice seed for a table, unguessable, exact in JavaScript."""
    return secrets.randbelow(SEEDS)


class TableRefused(Exception):
    """A request the tables refuse: HTTP status, one line, and for 409 the state."""

    def __init__(self, status: int, message: str, state: dict | None = None):
        super().__init__(message)
        self.status, self.state = status, state


@dataclass
class Row:
    code: str
    rules: str
    moves: int
    doc: dict
    who_moves: str
    finished: bool
    seats: dict[int, str] = field(default_factory=dict)
    next: str | None = None
    admin: str = ""
    proposal: dict | None = None
    version: int = 0
    short: str | None = None
    family: str | None = None

    @property
    def stamp(self) -> tuple:
        return self.moves, self.version, self.next

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` was handed out for."""
        if not isinstance(token, str) or not token:
            return frozenset()
        return frozenset(s for s, t in self.seats.items() if secrets.compare_digest(t, token))

    def is_admin(self, token: str | None) -> bool:
        return isinstance(token, str) and bool(token) and secrets.compare_digest(self.admin,
                                                                                  token)

    def capability(self, token: str | None, strict: bool = False) -> Capability:
        """What ``token`` may act for at this table: the admin every seat,
        a seat's token its seat; where any phone may move (unless ``strict``:
        releasing a seat, agreeing to the next game) every seat as well."""
        if self.is_admin(token):
            return Capability(ANY_SEAT.seats, admin=True)
        base = ANY_SEAT if self.who_moves == "any" and not strict else NOBODY
        return Capability(base.seats | self.seats_of(token))


def public_game(doc: dict, finished: bool) -> dict:
    """The game document as the phones see it: without the seed (and the
    marks of the rolls drawn from it, and their draws) until the game is over.

    >>> public_game({"seed": 5, "drawn": [0], "moves": ["roll 1 2 3 4 5"]}, False)
    {'moves': ['roll 1 2 3 4 5']}
    """
    return doc if finished else {k: v for k, v in doc.items()
                                 if k not in ("seed", "drawn", "draw_numbers")}


def public_proposal(proposal: dict | None) -> dict | None:
    """A proposed next game as the phones see it (its document kept back)."""
    if proposal is None:
        return None
    return {k: proposal[k] for k in ("players", "rules", "who_moves", "by", "agreed")}


def state_of(row: Row, session: Session, view: dict | None = None) -> dict:
    """A table's state as the API answers it."""
    out = {"code": row.code, "short": row.short, "moves": row.moves, "version": row.version,
           "who_moves": row.who_moves, "claimed": sorted(row.seats), "finished": row.finished,
           "next": row.next, "proposal": public_proposal(row.proposal),
           "game": public_game(row.doc, row.finished), "session": session.as_dict(),
           "family": family(session)}
    if view is not None:
        out["view"] = view
    return out


def stamp_of(state: dict) -> tuple:
    """What the phones follow of a state (``SharedGames.stamp``)."""
    return state["moves"], state["version"], state["next"]


class Held(OrderedDict):
    """The ``most`` entries used last (a table's game, state or rules)."""

    def __init__(self, most: int = HELD):
        super().__init__()
        self.most = most

    def keep(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.most:
            self.popitem(last=False)


ROW = ("SELECT rules, moves, doc, who_moves, finished, next, admin, proposal, version, short, "
       "family FROM games ")
STAMP = "SELECT moves, version, next FROM games "


class SharedGames:
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

    def view(self, code: str, solver, describe: Callable[[Game], dict]) -> dict:
        """The table's state and what the page shows of it, read together."""
        return self.event(code, solver, describe)[0]

    def event(self, code: str, solver, describe: Callable[[Game], dict]) -> tuple[dict, str]:
        """The table's state and its JSON text (read from the file, the
        view and text written once per change for all the phones)."""
        with self.lock:
            row = self.row(code)
            held = self.states.get(code)
            if held is None or held[0] != row.stamp:
                session = self.session(row, solver)
                state = self._with_history(row, state_of(row, session, describe(session.game)))
                held = (row.stamp, state, json.dumps(state))
                self.states.keep(code, held)
            return held[1], held[2]

    def current(self, code: str) -> tuple[tuple, str] | None:
        """The stamp and JSON text of a table's state as this process last
        wrote or read it, without reading the file (None: not kept).  Up to
        date while ``refresh`` looks at the table every moment (the event
        streams' poller): a change by another process is then dropped here
        within one look.  It takes no lock: the event loop calls it, and
        must not wait for a thread's transaction."""
        held = self.states.get(code)
        return None if held is None else (held[0], held[2])

    def stamps(self, codes: list[str]) -> dict[str, tuple]:
        """``stamp`` of many tables in one query each 500 (the missing ones
        are left out)."""
        out = {}
        with self.lock:
            for i in range(0, len(codes), 500):
                part = codes[i:i + 500]
                marks = ",".join("?" * len(part))
                out.update((row[0], tuple(row[1:])) for row in self.db.execute(
                    f"SELECT code, moves, version, next FROM games WHERE code IN ({marks})",
                    part))
        return out

    def refresh(self, follows: dict[str, Any], describe: Callable[[Game], dict]
                ) -> tuple[dict[str, tuple], set[str]]:
        """``stamps`` of the tables of ``follows`` (code -> its Solver), and
        the codes whose kept state was older (changed or deleted by another
        process): each is read again (``event``) for all the phones that
        follow it, or dropped where it cannot be."""
        codes = list(follows)
        with self.lock:
            now = self.stamps(codes)
            stale = set()
            for code in codes:
                held = self.states.get(code)
                if held is not None and held[0] != now.get(code):
                    stale.add(code)
                    self.states.pop(code, None)
                    if code in now:
                        try:
                            self.event(code, follows[code], describe)
                        except Exception:           # noqa: BLE001  the stream reads it again
                            log.exception("shared table %s: cannot read its change", code)
        return now, stale

    # ---------------------------------------------------------------- writing
    def create(self, game: Game, who_moves: str = "any", follows: str | None = None,
               admin: str | None = None) -> tuple[str, str | None]:
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
                return self._insert(game, who_moves, admin), admin
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

    def _insert(self, game: Game, who_moves: str, admin: str, family: str | None = None
                ) -> str:
        """Insert a table (in the caller's transaction), dropping the expired
        ones first; its code.  ``family``: the first table of the chain it
        continues (None: it starts one)."""
        code, now = secrets.token_urlsafe(12), time.time()
        self.db.execute("DELETE FROM games WHERE (finished = 0 AND updated < ?) "
                        "OR (finished = 1 AND updated < ?)",
                        (now - self.ttl, now - self.finished_ttl))
        self.db.execute("INSERT INTO games (code, rules, created, updated, finished, moves, "
                        "doc, admin, who_moves, short, family) "
                        "VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)",
                        (code, game.rules.spec, now, now, int(game.is_over),
                         json.dumps(game.to_dict()), admin, who_moves, self._new_short(),
                         family or code))
        self.games.keep(code, (0, Session(game)))
        self.rules.keep(code, game.rules.spec)
        return code

    def _new_short(self) -> str:
        """A short code no table has now (in the caller's transaction)."""
        while True:
            short = "".join(secrets.choice(SHORT_LETTERS) for _ in range(SHORT_LENGTH))
            if not self.db.execute("SELECT 1 FROM games WHERE short = ?", (short,)).fetchone():
                return short

    def by_short(self, short: str) -> str:
        """The code of the table whose short code is ``short`` (spaces,
        dashes and case aside); 404 if none (rate-limited by the route)."""
        short = "".join(c for c in str(short).upper() if c.isalnum())
        if not SHORT.fullmatch(short):
            raise TableRefused(400, f"a table's code is {SHORT_LENGTH} letters")
        with self.lock:
            got = self.db.execute("SELECT code FROM games WHERE short = ?", (short,)).fetchone()
        if got is None:
            raise TableRefused(404, "no such table")
        return got[0]

    def _record(self, row: Row, session: Session) -> None:
        """A table's game just finished: its results (in the caller's transaction)."""
        record(self.db, row.code, row.family or row.code, session.game.rules.spec,
               session.results())

    def record_page(self, game: Game) -> dict:
        """A finished game of one page recorded (once: ``game_key``), its
        family its players' names; the history shown after it."""
        names = [p.name for p in game.players]
        key, fam, spec = game_key(game.to_dict()), page_family(names), game.rules.spec
        results = Session(game).results()
        with self.lock, transaction(self.db):
            record(self.db, key, fam, spec, results)
            return history(self.db, fam, spec, names, key)

    def _with_history(self, row: Row, state: dict) -> dict:
        """A finished table's state with its family's history."""
        if row.finished:
            names = [p.get("name", "") for p in row.doc.get("players", [])]
            state["history"] = history(self.db, row.family or row.code, row.rules, names,
                                       row.code)
        return state

    def _start_next(self, row: Row, game: Game, who_moves: str) -> str:
        """The next table of ``row`` (in the caller's transaction): its admin
        the same, its seats kept when the players are as many."""
        code = self._insert(game, who_moves, row.admin, row.family or row.code)
        self.db.execute("UPDATE games SET next = ?, proposal = NULL, version = version + 1 "
                        "WHERE code = ?", (code, row.code))
        if len(row.doc.get("players", [])) == len(game.players):
            self.db.execute("INSERT INTO seats (code, seat, token) SELECT ?, seat, token "
                            "FROM seats WHERE code = ?", (code, row.code))
        self.states.pop(row.code, None)
        return code

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
        self.games.keep(code, (row.moves + 1, session))
        row.moves, row.doc, row.finished = row.moves + 1, doc, game.is_over
        state = self._with_history(row, state_of(row, session, describe(game)))
        held = (row.stamp, state, json.dumps(state))
        self.states.keep(code, held)
        return state, held[2]

    def claim(self, code: str, seat: int, token: str | None) -> str:
        """Seat ``seat`` for a phone: its token (a new one; the same where
        ``token`` is the seat's already); 409 if another phone holds it.
        The seat is read and written in one transaction (``BEGIN
        IMMEDIATE``) under a primary key, so two processes never both get it."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            players = len(row.doc.get("players", []))
            if not 0 <= seat < players:
                raise TableRefused(400, f"seat {seat}: the table has seats 0..{players - 1}")
            held = row.seats.get(seat)
            if held is not None:
                if seat in row.seats_of(token):
                    return held
                raise TableRefused(409, f"seat {seat} is taken")
            token = secrets.token_urlsafe(16)
            self.db.execute("INSERT INTO seats (code, seat, token) VALUES (?, ?, ?)",
                            (code, seat, token))
            self._touch(code)
        return token

    def release(self, code: str, seat: int, token: str | None) -> None:
        """Free ``seat`` (its token or the admin's)."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            self._check(row, "release", token, seat)
            self.db.execute("DELETE FROM seats WHERE code = ? AND seat = ?", (code, seat))
            self._touch(code)

    def _touch(self, code: str) -> None:
        """A claim, release or proposal: the version counts it."""
        self.db.execute("UPDATE games SET version = version + 1 WHERE code = ?", (code,))
        self.states.pop(code, None)

    def propose(self, code: str, game: Game, who_moves: str, token: str | None) -> str | None:
        """Propose ``game`` as the table's next; it starts at once when the
        admin proposes it or every claimed seat agrees (the proposer's token
        counts): the new table's code, else None (the proposal is shown)."""
        if who_moves not in WHO_MOVES:
            raise TableRefused(400, f"who_moves {who_moves!r}: expected any or seat")
        with self.lock, transaction(self.db):
            row = self.row(code)
            if row.next is not None:
                return row.next
            self._check(row, "propose", token)
            row.proposal = {"doc": game.to_dict(), "players": [p.name for p in game.players],
                            "rules": game.rules.spec, "who_moves": who_moves,
                            "by": "admin" if row.is_admin(token) else
                            min(row.seats_of(token), default=None), "agreed": []}
            return self._agree(row, game, token)

    def accept(self, code: str, token: str | None, solver) -> str | None:
        """Agree to the next game proposed (``propose``'s rule)."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            if row.next is not None:
                return row.next
            if row.proposal is None:
                raise TableRefused(409, "no next game is proposed")
            if not (row.is_admin(token) or row.seats_of(token)):
                raise TableRefused(403, "only a seated player or the table's creator may accept "
                                 "the next game")
            return self._agree(row, None, token, solver)

    def cancel(self, code: str, token: str | None) -> None:
        """Withdraw the proposal (the admin, or the seat that proposed it)."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            by = None if row.proposal is None else row.proposal["by"]
            if not (row.is_admin(token) or (by is not None and by in row.seats_of(token))):
                raise TableRefused(403, "only the table's creator or the proposer may withdraw it")
            self.db.execute("UPDATE games SET proposal = NULL WHERE code = ?", (code,))
            self._touch(code)

    @staticmethod
    def _check(row: Row, right: str, token: str | None, seat: int | None = None) -> None:
        """403 unless ``token`` has ``right`` (``yatzy.session.check_right``;
        only tokens count for releasing a seat)."""
        try:
            check_right(right, row.capability(token, strict=right == "release"), seat)
        except SessionError as e:
            raise TableRefused(403, str(e)) from None

    def _agree(self, row: Row, game: Game | None, token: str | None, solver=None) -> str | None:
        """Count ``token``'s agreement to ``row.proposal``; start the next
        game where it is accepted (the admin, or every claimed seat)."""
        proposal = row.proposal
        agreed = sorted(set(proposal["agreed"]) | row.seats_of(token))
        proposal["agreed"] = agreed
        if row.is_admin(token) or (row.seats and set(row.seats) <= set(agreed)):
            if game is None:
                game = Game.from_dict(proposal["doc"], solver, where="proposal")
            return self._start_next(row, game, proposal["who_moves"])
        self.db.execute("UPDATE games SET proposal = ? WHERE code = ?",
                        (json.dumps(proposal), row.code))
        self._touch(row.code)
        return None

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


# ------------------------------------------------------------ rate limits
class Limiter:
    """A token bucket per client: ``rate`` requests a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def check(self, client: str) -> None:
        """429 if ``client`` has no request left now (nothing is taken)."""
        tokens, at = self.buckets.get(client, (self.burst, time.monotonic()))
        if min(self.burst, tokens + (time.monotonic() - at) * self.rate) < 1:
            raise TableRefused(429, "too many requests; wait a moment")

    def take(self, client: str) -> None:
        now = time.monotonic()
        tokens, at = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            raise TableRefused(429, "too many requests; wait a moment")
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > 10_000:                  # forget the oldest clients
            for key in list(self.buckets)[:5_000]:
                del self.buckets[key]


LIMITS = {"create": (0.2, 5), "move": (10.0, 20),    # per client: a second, at once
          "join": (0.1, 6),                          # codes tried, per client (6, then 1 in 10 s)
          "miss": (0.5, 30)}                         # codes not found, all clients together


