"""Shared games: one game kept by the server, played and watched from every
phone at the table.

A table is created with its rules, players and options and answers a join
code (96 random bits); only the code reaches it, and nothing lists the
tables.  Its state is the ``Game`` document plus a change count ``moves``
(every move, undo or redo adds one).  A change names the count it was made
at (``after``) and is applied only if the table is still there, else it
is refused with 409 and the current state, so two phones cannot both play
the same turn.  ``GET .../events`` streams every change as a Server-Sent
Event; a phone that reconnects gets the current state at once.

Tables live in one SQLite file (``solver.database``: WAL, one transaction
per change, schema versioned), so they survive a restart or ``kill -9``
and several server processes share them; finished games are kept (with
their history) until deleted, unfinished ones expire after ``ttl``
seconds without a change.

Routes (``table_routes``):

* ``POST /api/table`` ``{"rules", "players", "seed"?, "who_moves"?: "any" | "seat",
  "follows"?: code}``, or ``{"game": a Game document, ...}`` to share a game as
  it stands -> ``{"code", "url", "admin", "moves", "game", "view", "next"}``;
  ``follows`` makes it the next game of that table (its phones move on, seats
  kept; if it has a next game already, that one is answered, 200)
* ``GET /api/table/{code}`` -> the state
* ``POST /api/table/{code}/move`` ``{"move", "after", "token"?}``; ``/undo``,
  ``/redo`` ``{"after", "token"?}`` -> the state, or 409 with it
* ``POST /api/table/{code}/claim`` ``{"seat"}`` -> ``{"seat", "token"}``
* ``GET /api/table/{code}/events`` -> ``text/event-stream``
* ``GET /api/table/{code}/history`` -> every change with its time
* ``GET /api/table/{code}/qr.svg`` -> the table's link as a QR code (SVG)
* ``DELETE /api/table/{code}`` ``{"admin"}``
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from solver.database import data_folder, open_database, transaction
from solver.errors import InputError
from solver.game import Game
from solver.web.qr import matrix

MIGRATIONS = (
    # 1: tables and their changes
    """CREATE TABLE games (
           code TEXT PRIMARY KEY, rules TEXT NOT NULL, created REAL NOT NULL,
           updated REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
           moves INTEGER NOT NULL, doc TEXT NOT NULL, admin TEXT NOT NULL);
       CREATE TABLE changes (
           code TEXT NOT NULL REFERENCES games(code) ON DELETE CASCADE,
           n INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL,
           PRIMARY KEY (code, n))""",
    # 2: who may move, and the seats phones have claimed
    """ALTER TABLE games ADD COLUMN who_moves TEXT NOT NULL DEFAULT 'any';
       CREATE TABLE seats (
           code TEXT NOT NULL REFERENCES games(code) ON DELETE CASCADE,
           seat INTEGER NOT NULL, token TEXT NOT NULL, PRIMARY KEY (code, seat))""",
    # 3: the table of the next game, started at this one ("new game" at the table)
    """ALTER TABLE games ADD COLUMN next TEXT""",
)
log = logging.getLogger(__name__)
CODE = re.compile(r"[A-Za-z0-9_-]{16}")
TTL = 7 * 24 * 3600             # an unfinished table expires after a week without a change
MAX_BODY = 4096                 # bytes of a request body
MAX_GAME_BODY = 64 * 1024       # bytes of a request that shares a game as it stands
POLL = 0.1                      # seconds between looks for changes made by other processes
BEAT = 15                       # seconds between comments on a quiet event stream
RETRY_MS = 1000                 # the browser's wait before it reconnects a dropped stream
STREAM_SECONDS = 1800           # an event stream closes after this; the browser reconnects
WHO_MOVES = ("any", "seat")
HELD = 2048                     # tables whose live game and state a process keeps in memory


class TableError(Exception):
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


def state_of(row: Row, view: dict | None = None) -> dict:
    """A table's state as the API answers it."""
    out = {"code": row.code, "moves": row.moves, "who_moves": row.who_moves,
           "claimed": sorted(row.seats), "finished": row.finished, "next": row.next,
           "game": row.doc}
    if view is not None:
        out["view"] = view
    return out


def stamp_of(state: dict) -> tuple:
    """What the phones follow of a state (``SharedGames.stamp``)."""
    return state["moves"], len(state["claimed"]), state["next"]


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


class SharedGames:
    """The tables of one database file; safe to use from several threads of
    one process and from several processes.

    A process keeps the live ``Game`` of the tables it served last, with
    the change count it is at: a move is applied to it (one move, not the
    game replayed from its document) once the transaction has read the
    stored count and found it the same; a change by another process shows
    as another count, and the game held is then brought on by the moves
    added there (``Game.continue_to``), or replayed from the stored
    document where they took moves back.  It keeps each table's state and
    its JSON text too, written once per change for the move's answer and
    every phone's event; the poller of ``table_routes`` reads again a kept
    state that another process has changed (``refresh``)."""

    def __init__(self, path: str | Path | None = None, ttl: float = TTL):
        self.path = Path(path) if path else data_folder() / "tables.sqlite"
        self.ttl = ttl
        self._db = None
        self.lock = threading.RLock()          # one reader or writer of this process at a time
        self.games = Held()     # code -> (moves, the game at that count)
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
            raise TableError(404, "no such table")
        with self.lock:
            got = self.db.execute("SELECT rules, moves, doc, who_moves, finished, next FROM games "
                                  "WHERE code = ?", (code,)).fetchone()
            seats = dict(self.db.execute("SELECT seat, token FROM seats WHERE code = ?",
                                         (code,)).fetchall())
            if got is None:
                raise TableError(404, "no such table")
            self.rules.keep(code, got[0])
        return Row(code, got[0], got[1], json.loads(got[2]), got[3], bool(got[4]), seats, got[5])

    def rules_of(self, code: str) -> str | None:
        """The rules of a table this process has seen (None: not known here;
        ``row`` reads them); no lock, as ``current``."""
        return self.rules.get(code)

    def moves(self, code: str) -> int | None:
        with self.lock:
            got = self.db.execute("SELECT moves FROM games WHERE code = ?", (code,)).fetchone()
        return None if got is None else got[0]

    def stamp(self, code: str) -> tuple | None:
        """What the phones follow of a table: its change count, the number
        of seats claimed and its next table (None: no such table)."""
        with self.lock:
            got = self.db.execute("SELECT moves, (SELECT COUNT(*) FROM seats WHERE code = ?), "
                                  "next FROM games WHERE code = ?", (code, code)).fetchone()
        return None if got is None else tuple(got)

    def history(self, code: str) -> list[dict]:
        self.row(code)
        with self.lock:
            rows = self.db.execute("SELECT n, kind, text, at FROM changes WHERE code = ? "
                                   "ORDER BY n", (code,)).fetchall()
        return [{"n": n, "kind": k, "text": t, "at": at} for n, k, t, at in rows]

    def game(self, row: Row, solver) -> Game:
        """The table's game (``_game_at``)."""
        with self.lock:
            return self._game_at(row.code, row.moves, solver, row.doc)

    def _game_at(self, code: str, moves: int, solver, doc: dict | None = None) -> Game:
        """The table's game at change ``moves`` (its stored document ``doc``,
        read here if needed): the game held if it is at that count, else the
        game held brought on by the moves another process added, else the
        document replayed."""
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
                if held[1].continue_to(doc, where="table"):
                    self.games.keep(code, (moves, held[1]))
                    return held[1]
            except InputError:
                pass                                # replayed below, which says what is wrong
        game = Game.from_dict(doc, solver, where="table")
        self.games.keep(code, (moves, game))
        return game

    def view(self, code: str, solver, describe: Callable[[Game], dict]) -> dict:
        """The table's state and what the page shows of it, read together."""
        return self.event(code, solver, describe)[0]

    def event(self, code: str, solver, describe: Callable[[Game], dict]) -> tuple[dict, str]:
        """The table's state and its JSON text (read from the file, the
        view and text written once per change for all the phones)."""
        with self.lock:
            row = self.row(code)
            stamp = (row.moves, len(row.seats), row.next)
            held = self.states.get(code)
            if held is None or held[0] != stamp:
                state = state_of(row, describe(self.game(row, solver)))
                held = (stamp, state, json.dumps(state))
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
                    "SELECT g.code, g.moves, (SELECT COUNT(*) FROM seats s WHERE s.code = g.code), "
                    f"g.next FROM games g WHERE g.code IN ({marks})", part))
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
    def create(self, game: Game, who_moves: str = "any", follows: str | None = None
               ) -> tuple[str, str | None]:
        """A new table for ``game``: ``(code, admin token)``.  ``follows``:
        the table it is the next game of, which then points to it and whose
        seats it keeps when the players are as many; if that table has a next
        game already, that one's code is answered instead (admin None)."""
        if who_moves not in WHO_MOVES:
            raise TableError(400, f"who_moves {who_moves!r}: expected any or seat")
        if follows is not None and not CODE.fullmatch(follows):
            raise TableError(404, "no such table to follow")
        code, admin, now = secrets.token_urlsafe(12), secrets.token_urlsafe(16), time.time()
        with self.lock, transaction(self.db):
            if follows is not None:
                got = self.db.execute("SELECT next, doc FROM games WHERE code = ?",
                                      (follows,)).fetchone()
                if got is None:
                    raise TableError(404, "no such table to follow")
                if got[0] is not None:
                    return got[0], None
            self.db.execute("DELETE FROM games WHERE finished = 0 AND updated < ?",
                            (now - self.ttl,))
            self.db.execute("INSERT INTO games (code, rules, created, updated, finished, moves, "
                            "doc, admin, who_moves) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                            (code, game.rules.spec, now, now, int(game.is_over),
                             json.dumps(game.to_dict()), admin, who_moves))
            if follows is not None:
                self.db.execute("UPDATE games SET next = ? WHERE code = ?", (code, follows))
                if len(json.loads(got[1]).get("players", [])) == len(game.players):
                    self.db.execute("INSERT INTO seats (code, seat, token) SELECT ?, seat, token "
                                    "FROM seats WHERE code = ?", (code, follows))
                self.states.pop(follows, None)
            self.games.keep(code, (0, game))
            self.rules.keep(code, game.rules.spec)
        return code, admin

    def change(self, code: str, after: int, kind: str, step: Callable[[Game], Any],
               solver, describe: Callable[[Game], dict], token: str | None = None) -> dict:
        """Apply ``step`` (a move, undo or redo) to the table at count
        ``after`` in one transaction and answer the new state; 409 with the
        current state if the table has moved on."""
        return self.change_text(code, after, kind, step, solver, describe, token)[0]

    def change_text(self, code: str, after: int, kind: str, step: Callable[[Game], Any],
                    solver, describe: Callable[[Game], dict], token: str | None = None
                    ) -> tuple[dict, str]:
        """``change``, and the new state's JSON text (written once, for the
        answer and every phone's event)."""
        with self.lock:
            try:
                return self._change(code, after, kind, step, solver, describe, token)
            except TableError as e:
                if e.status == 409:
                    e.state = self.view(code, solver, describe)
                raise

    def _change(self, code, after, kind, step, solver, describe, token) -> tuple[dict, str]:
        if not CODE.fullmatch(code or ""):
            raise TableError(404, "no such table")
        with transaction(self.db):
            got = self.db.execute("SELECT moves, who_moves, next FROM games WHERE code = ?",
                                  (code,)).fetchone()
            if got is None:
                raise TableError(404, "no such table")
            moves, who_moves, following = got
            seats = dict(self.db.execute("SELECT seat, token FROM seats WHERE code = ?",
                                         (code,)).fetchall())
            if after != moves:
                raise TableError(409, f"the table is at change {moves}, not {after}")
            game = self._game_at(code, moves, solver)
            self.games.pop(code, None)              # kept again once the change is written
            if who_moves == "seat" and game.player.is_human and kind == "move" \
                    and seats.get(game.turn_player) != token:
                self.games.keep(code, (moves, game))
                raise TableError(403, f"only {game.player.name}'s phone may move now")
            text = step(game)                       # an error here: the game is dropped (halfway)
            doc = game.to_dict()
            now = time.time()
            self.db.execute("UPDATE games SET moves = ?, doc = ?, updated = ?, finished = ? "
                            "WHERE code = ?", (moves + 1, json.dumps(doc), now,
                                               int(game.is_over), code))
            self.db.execute("INSERT INTO changes (code, n, kind, text, at) VALUES (?, ?, ?, ?, ?)",
                            (code, moves + 1, kind, str(text), now))
        self.games.keep(code, (moves + 1, game))
        state = state_of(Row(code, game.rules.spec, moves + 1, doc, who_moves, game.is_over,
                             seats, following), describe(game))
        held = ((moves + 1, len(seats), following), state, json.dumps(state))
        self.states.keep(code, held)
        return state, held[2]

    def claim(self, code: str, seat: int, token: str | None) -> str:
        row = self.row(code)
        players = len(row.doc.get("players", []))
        if not 0 <= seat < players:
            raise TableError(400, f"seat {seat}: the table has seats 0..{players - 1}")
        held = row.seats.get(seat)
        if held is not None and held != token:
            raise TableError(409, f"seat {seat} is taken")
        token = held or secrets.token_urlsafe(16)
        with self.lock, transaction(self.db):
            self.db.execute("INSERT OR IGNORE INTO seats (code, seat, token) VALUES (?, ?, ?)",
                            (code, seat, token))
            self.states.pop(code, None)
        return token

    def delete(self, code: str, admin: str) -> None:
        self.row(code)
        with self.lock, transaction(self.db):
            got = self.db.execute("SELECT admin FROM games WHERE code = ?", (code,)).fetchone()
            if got is None or not secrets.compare_digest(got[0], str(admin)):
                raise TableError(403, "only the phone that made the table may delete it")
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

    def take(self, client: str) -> None:
        now = time.monotonic()
        tokens, at = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            raise TableError(429, "too many requests; wait a moment")
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > 10_000:                  # forget the oldest clients
            for key in list(self.buckets)[:5_000]:
                del self.buckets[key]


# ------------------------------------------------------------------ routes
def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


async def _body(request: Request, most: int = MAX_BODY) -> dict:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > most:
            raise TableError(413, f"the request body is over {most} bytes")
    try:
        obj = json.loads(raw or b"{}")
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise TableError(400, "the request body is not JSON") from None
    if not isinstance(obj, dict):
        raise TableError(400, "the request body must be a JSON object")
    return obj


def _count(obj: dict, name: str) -> int:
    value = obj.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise TableError(400, f"{name} must be the table's change count (a whole number)")
    return value


def _text(obj: dict, name: str, most: int = 200) -> str:
    value = obj.get(name)
    if not isinstance(value, str) or not value.strip():
        raise TableError(400, f"{name} must be a non-empty string")
    if len(value) > most:
        raise TableError(400, f"{name} is longer than {most} characters")
    return value.strip()


LAN_URL = "YATZY_LAN_URL"     # set by ``yatzy serve --host 0.0.0.0``: the page's address on the network


def table_url(request: Request, code: str) -> str:
    """The link that joins table ``code``: the address the request came to,
    or the server's address on the local network where the request came to
    the loopback address (a phone cannot open ``127.0.0.1`` of the laptop)."""
    base = str(request.base_url)
    lan = os.environ.get(LAN_URL)
    if lan and (request.url.hostname in ("127.0.0.1", "localhost", "::1")):
        base = lan
    return f"{base.rstrip('/')}/?table={code}"


def qr_svg(text: str, quiet: int = 4) -> str:
    """``text`` as a QR code in SVG: one path of dark modules on a light
    square, ``quiet`` modules of margin.

    >>> qr_svg("http://x/").startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"')
    True
    """
    m = matrix(text)
    size = len(m) + 2 * quiet
    dark = "".join(f"M{x + quiet} {y + quiet}h1v1h-1z" for y, row in enumerate(m)
                   for x, on in enumerate(row) if on)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
            f'shape-rendering="crispEdges"><rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path d="{dark}" fill="#000"/></svg>')


LIMITS = {"create": (0.2, 5), "move": (10.0, 20)}    # per client: a second, at once


def table_routes(shared: SharedGames, solver_for: Callable[[str], Awaitable[Any]],
                 describe: Callable[[Game], dict], limits: dict = LIMITS) -> list[Route]:
    """The routes of shared tables: ``solver_for(spec)`` gives the Solver of a
    rule set (opening its table), ``describe(game)`` what the page shows,
    ``limits`` the requests a client may make (``LIMITS``)."""
    creating, moving = Limiter(*limits["create"]), Limiter(*limits["move"])
    listeners: dict[str, set[asyncio.Event]] = {}
    solvers: dict[str, Any] = {}                    # code -> the Solver of a table followed
    polling: list[asyncio.Task] = []

    def notify(code: str) -> None:
        for event in listeners.get(code, ()):
            event.set()

    async def poll() -> None:
        """Changes made by other server processes: one look at every table
        followed here each ``POLL`` seconds (this process's own changes
        notify at once)."""
        seen: dict[str, tuple | None] = {}
        try:
            while listeners:
                codes = list(listeners)
                now, stale = await run(shared.refresh, {c: solvers[c] for c in codes}, describe)
                for code in codes:
                    if code in stale or now.get(code) != seen.get(code, now.get(code)):
                        notify(code)
                seen = {code: now.get(code) for code in codes}
                await asyncio.sleep(POLL)
        finally:
            polling.clear()

    # one thread of its own reads and writes the file: the calls queue on the event loop
    # (not 40 threads on the lock), each a cheaper hop than anyio's to_thread
    pool = ThreadPoolExecutor(1, thread_name_prefix="tables")

    async def run(fn, *args):
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    async def rules_of(code: str) -> str:
        """A table's rules: kept by this process, else read (404 if none)."""
        return shared.rules_of(code) or (await run(shared.row, code)).rules

    async def guarded(request: Request, handler) -> Response:
        try:
            return await handler(request)
        except TableError as e:
            body = {"error": str(e)}
            if e.state is not None:
                body["state"] = e.state
            return JSONResponse(body, status_code=e.status)
        except InputError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        except Exception:                           # noqa: BLE001  one JSON line, logged
            log.exception("shared table request failed")
            return JSONResponse({"error": "internal error"}, status_code=500)

    async def create(request: Request) -> Response:
        creating.take(_client(request))
        obj = await _body(request, MAX_GAME_BODY)
        who = obj.get("who_moves", "any")
        follows = obj.get("follows")
        if follows is not None and not isinstance(follows, str):
            raise TableError(400, "follows must be a table's code")
        if "game" in obj:                           # a game as it stands, shared
            doc = obj["game"]
            if not isinstance(doc, dict) or not isinstance(doc.get("rules"), str) \
                    or len(doc["rules"]) > 200:
                raise TableError(400, "game must be a game document with its rules")
            solver = await solver_for(doc["rules"])
            game = Game.from_dict(doc, solver, where="game")
            return await made(request, game, solver, who, follows)
        players = obj.get("players", ["Player"])
        if not isinstance(players, list) or not 1 <= len(players) <= 6 or not all(
                isinstance(p, str) and 0 < len(p) <= 40 for p in players):
            raise TableError(400, "players must be a list of 1..6 names (NAME or NAME=optimal)")
        spec = obj.get("rules", "nordic")
        if not isinstance(spec, str) or len(spec) > 200:
            raise TableError(400, "rules must be a rules spec")
        seed = obj.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TableError(400, "seed must be a whole number")
        solver = await solver_for(spec)
        return await made(request, Game(solver, players, seed=seed), solver, who, follows)

    async def made(request: Request, game: Game, solver, who: str, follows: str | None
                   ) -> Response:
        code, admin = await run(shared.create, game, who, follows)
        if follows is not None:
            notify(follows)                         # its phones move on to the next game
        if admin is None:                           # another phone started the next game first
            row = await run(shared.row, code)
            return JSONResponse({**await run(shared.view, code, await solver_for(row.rules),
                                              describe), "url": table_url(request, code)})
        return JSONResponse({**await run(shared.view, code, solver, describe),
                             "url": table_url(request, code), "admin": admin}, status_code=201)

    async def qr_code(request: Request) -> Response:
        code = request.path_params["code"]
        await run(shared.row, code)                 # 404 for a code that is no table
        return Response(qr_svg(table_url(request, code)), media_type="image/svg+xml",
                        headers={"Cache-Control": "private, max-age=3600"})

    async def read(request: Request) -> Response:
        code = request.path_params["code"]
        solver = await solver_for(await rules_of(code))
        _, text = await run(shared.event, code, solver, describe)
        return Response(text, media_type="application/json")

    def changer(kind: str):
        async def endpoint(request: Request) -> Response:
            moving.take(_client(request))
            code = request.path_params["code"]
            obj = await _body(request)
            after = _count(obj, "after")
            token = obj.get("token") if isinstance(obj.get("token"), str) else None
            solver = await solver_for(await rules_of(code))
            if kind == "move":
                move = _text(obj, "move")

                def step(game: Game) -> str:
                    text = game.computer_move() if move.lower() == "auto" else move
                    return game.play(text).text
            elif kind == "undo":
                def step(game: Game) -> str:
                    return game.undo().text
            else:
                def step(game: Game) -> str:
                    return game.redo().text
            _, text = await run(shared.change_text, code, after, kind, step, solver, describe,
                                token)
            notify(code)
            return Response(text, media_type="application/json")
        return endpoint

    async def claim(request: Request) -> Response:
        obj = await _body(request)
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TableError(400, "seat must be a seat number")
        token = obj.get("token") if isinstance(obj.get("token"), str) else None
        code = request.path_params["code"]
        token = await run(shared.claim, code, seat, token)
        notify(code)
        return JSONResponse({"seat": seat, "token": token})

    async def history(request: Request) -> Response:
        return JSONResponse({"changes": await run(shared.history, request.path_params["code"])})

    async def delete(request: Request) -> Response:
        obj = await _body(request)
        code = request.path_params["code"]
        await run(shared.delete, code, _text(obj, "admin"))
        notify(code)
        return JSONResponse({"deleted": code})

    async def events(request: Request) -> Response:
        code = request.path_params["code"]
        solver = await solver_for(await rules_of(code))     # 404 before the stream starts
        event = asyncio.Event()
        listeners.setdefault(code, set()).add(event)
        solvers[code] = solver
        if not polling:
            polling.append(asyncio.create_task(poll()))

        async def stream():
            sent, started = None, time.monotonic()
            yield f"retry: {RETRY_MS}\n\n"               # a dropped phone comes back soon
            try:
                while time.monotonic() - started < STREAM_SECONDS:
                    event.clear()                       # a change from now on wakes it again
                    # the state this process keeps (see SharedGames.current), else the file's;
                    # the first look reads the file (the poller may not have seen the table yet)
                    held = shared.current(code) if sent is not None else None
                    if held is None:
                        try:
                            current, text = await run(shared.event, code, solver, describe)
                        except TableError as e:
                            if e.status != 404:
                                raise
                            yield "event: deleted\ndata: {}\n\n"
                            return
                        held = (stamp_of(current), text)
                    if held[0] != sent:
                        sent, text = held
                        yield f"id: {sent[0]}\nevent: state\ndata: {text}\n\n"
                    try:
                        await asyncio.wait_for(event.wait(), BEAT)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield ": still here\n\n"
            finally:
                followers = listeners.get(code, set())
                followers.discard(event)
                if not followers:
                    listeners.pop(code, None)
                    solvers.pop(code, None)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def route(path: str, handler, methods: list[str]) -> Route:
        async def endpoint(request: Request) -> Response:
            return await guarded(request, handler)
        return Route(path, endpoint, methods=methods)

    return [
        route("/api/table", create, ["POST"]),
        route("/api/table/{code}", read, ["GET"]),
        route("/api/table/{code}", delete, ["DELETE"]),
        route("/api/table/{code}/move", changer("move"), ["POST"]),
        route("/api/table/{code}/undo", changer("undo"), ["POST"]),
        route("/api/table/{code}/redo", changer("redo"), ["POST"]),
        route("/api/table/{code}/claim", claim, ["POST"]),
        route("/api/table/{code}/history", history, ["GET"]),
        route("/api/table/{code}/events", events, ["GET"]),
        route("/api/table/{code}/qr.svg", qr_code, ["GET"]),
    ]
