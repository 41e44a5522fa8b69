"""The routes of shared tables (``yatzy.web.shared``): module-level
handlers over ``Tables`` (the tables' file, the solvers, the rate limits and
the phones following each table), each checking the request's body and
handing the change to ``SharedGames``, where the session's rules decide.

Routes (``table_routes``; bodies are JSON objects):

* ``POST /api/table`` ``{"rules", "players", "who_moves"?: "any" | "seat",
  "follows"?: code, "admin"?}``, or ``{"game": a Game document, ...}`` to share a
  game as it stands -> the state with ``"url"`` and ``"admin"``; ``follows``
  (with that table's ``admin``) makes it the next game of that table (if it
  has one already, that one is answered, 200)
* ``GET /api/table/{code}`` -> the state
* ``POST /api/table/{code}/move`` ``{"move", "after", "token"?}``; ``/pad``
  ``{"box", "points", "column"?, "after", "token"?}`` (score-pad mode:
  ``yatzy.scorepad``); ``/undo``, ``/redo`` ``{"after", "token"?}`` -> the
  state, or 409 with it
* ``POST /api/table/{code}/claim`` ``{"seat", "token"?}`` -> ``{"seat", "token"}``;
  ``/release`` ``{"seat", "token"}``
* ``POST /api/table/{code}/next`` ``{"players", "rules"?, "who_moves"?, "token"}``;
  ``/next/accept`` ``{"token", "id"}`` (the proposal's ``id``); ``/next/cancel`` ``{"token"}`` -> the state
* ``GET /api/table/{code}/events`` -> ``text/event-stream``
* ``GET /api/table/{code}/history`` -> every change with its time
* ``GET /api/table/{code}/qr.svg`` -> the table's link as a QR code (SVG)
* ``DELETE /api/table/{code}`` ``{"admin"}``
* ``GET /api/join/{short}`` -> ``{"code", "url"}``: the table of a short code
  (6 letters a person can read aloud), rate-limited against guessing
* ``POST /api/history`` ``{"game"}`` -> a finished page game recorded, and the
  family's history (``yatzy.history``)
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import sqlite3
import time
from functools import partial
from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from yatzy.database import DatabaseBusy, DatabaseFull, database_error
from yatzy.errors import InputError
from yatzy.game import MAX_PLAYERS, Game
from yatzy.session import Capability, Session
from yatzy.web.bodies import BodyError, json_body
from yatzy.web.budget import Refused
from yatzy.web.connections import no_paths
from yatzy.web.fair import Turns
from yatzy.web.guard import CLIENT, retry_after
from yatzy.web.qr import matrix
from yatzy.web.shared import (
    BEAT,
    LIMITS,
    MAX_BODY,
    MAX_GAME_BODY,
    MAX_NAME,
    MAX_SPEC,
    POLL,
    RETRY_MS,
    STREAM_SECONDS,
    Limiter,
    SharedGames,
    TableRefused,
    secret_seed,
    stamp_of,
)

log = logging.getLogger(__name__)


# ------------------------------------------------------------ request bodies
def client_of(request: Request) -> str:
    return request.client.host if request.client else "?"


async def read_body(request: Request, most: int = MAX_BODY) -> dict:
    """The request's JSON object (413 over ``most`` bytes; 400 for bad JSON,
    nesting too deep, numbers too long, ``NaN``: ``yatzy.web.bodies``).  The
    body has been read whole already, within its deadline
    (``yatzy.web.connections.WholeBody``)."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > most:
            raise TableRefused(413, f"the request body is over {most} bytes")
    try:
        obj = json_body(raw or b"{}")       # bounded: depth, digits, no NaN
    except BodyError as e:
        raise TableRefused(400, str(e), code="body") from None
    if not isinstance(obj, dict):
        raise TableRefused(400, "the request body must be a JSON object")
    return obj


def count_field(obj: dict, name: str) -> int:
    value = obj.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise TableRefused(400, f"{name} must be the table's change count (a whole number)")
    return value


def required_text(obj: dict, name: str, most: int = 200) -> str:
    """``obj[name]``: a string with more than spaces, at most ``most``
    characters, stripped (else ``TableRefused`` 400)."""
    value = obj.get(name)
    if not isinstance(value, str) or not value.strip():
        raise TableRefused(400, f"{name} must be a non-empty string")
    if len(value) > most:
        raise TableRefused(400, f"{name} is longer than {most} characters")
    return value.strip()


def token_field(obj: dict, name: str = "token") -> str | None:
    value = obj.get(name)
    return value if isinstance(value, str) and len(value) <= 64 else None


def seat_field(obj: dict) -> int:
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < MAX_PLAYERS:
        raise TableRefused(400, f"seat must be a seat number 0..{MAX_PLAYERS - 1}")
    return seat


def check_names(names: object) -> list[str]:
    """Players as ``NAME`` or ``NAME=KIND``: 1..6 strings of 1..``MAX_NAME`` characters."""
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_PLAYERS or not all(
            isinstance(p, str) and 0 < len(p) <= MAX_NAME for p in names):
        raise TableRefused(400, f"players must be a list of 1..{MAX_PLAYERS} names of at most "
                         f"{MAX_NAME} characters (NAME or NAME=optimal)")
    return names


def check_spec(spec: object) -> str:
    if not isinstance(spec, str) or len(spec) > MAX_SPEC:
        raise TableRefused(400, "rules must be a rules spec")
    return spec


def shared_document(doc: object) -> dict:
    """A game shared as it stands, checked as a new game's fields are (rules,
    names), with a fresh secret seed: its rolls so far are kept as rolled,
    the ones to come drawn from a seed no phone has seen."""
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), str):
        raise TableRefused(400, "game must be a game document with its rules")
    check_spec(doc["rules"])
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise TableRefused(400, "game: players must be a list of {\"name\": ..., \"kind\": ...}")
    check_names([p.get("name") for p in players])
    return {**{k: v for k, v in doc.items() if k not in ("seed", "drawn", "draw_numbers")},
            "drawn": [], "seed": secret_seed()}


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


# ------------------------------------------------------------------ routes
class Tables:
    """What the routes of shared tables share: the tables' file
    (``SharedGames``), ``solver_for(spec)`` (the Solver of a rule set),
    ``describe(game)`` (what the page shows), the rate limits, and the
    phones following each table (their events, and the poller that sees
    changes made by other processes)."""

    def __init__(self, shared: SharedGames, solver_for: Callable[[str], Awaitable[Any]],
                 describe: Callable[[Game], dict], limits: dict = LIMITS):
        self.shared, self.solver_for, self.describe = shared, solver_for, describe
        self.creating, self.moving = Limiter(*limits["create"]), Limiter(*limits["move"])
        self.joining = Limiter(*limits.get("join", LIMITS["join"]))
        self.recording = Limiter(*limits.get("record", LIMITS["record"]))
        self.missing = Limiter(*limits.get("miss", LIMITS["miss"]))     # per client
        self.limits = {**LIMITS, **limits}      # the join buckets in the file: every process's
        self.table_joins = Limiter(*limits.get("table_join", LIMITS["table_join"]))  # per table
        self.listeners: dict[str, set[asyncio.Event]] = {}
        self.solvers: dict[str, Any] = {}          # code -> the Solver of a table followed
        self.polling: list[asyncio.Task] = []
        # one thread of its own reads and writes the file: the calls queue on the event loop
        # (not 40 threads on the lock), each client's in turn (``Turns``)
        self.turns = Turns("tables")

    async def run(self, fn, *args):
        """``fn(*args)`` in the tables' thread, in the turn of the request's
        client (``yatzy.web.guard.CLIENT``); an SQLite error is one line (a
        file locked past ``BUSY_SECONDS``: ``DatabaseBusy``, 503)."""
        try:
            return await self.turns.run(CLIENT.get(), fn, *args)
        except sqlite3.Error as e:
            raise database_error(self.shared.path, e) from None

    def notify(self, code: str) -> None:
        for event in self.listeners.get(code, ()):
            event.set()

    async def rules_of(self, code: str) -> str:
        """A table's rules: kept by this process, else read (404 if none)."""
        return self.shared.rules_of(code) or (await self.run(self.shared.row, code)).rules

    async def solver_of(self, code: str):
        return await self.solver_for(await self.rules_of(code))

    async def answer(self, request: Request, code: str, status: int = 200, **extra) -> Response:
        """The state of table ``code`` (with ``extra``) as the answer."""
        state = await self.run(self.shared.view, code, await self.solver_of(code), self.describe)
        return JSONResponse({**state, "url": table_url(request, code), **extra},
                            status_code=status)

    def follow(self, code: str, solver) -> asyncio.Event:
        """A phone follows ``code``: its event, set at every change."""
        event = asyncio.Event()
        self.listeners.setdefault(code, set()).add(event)
        self.solvers[code] = solver
        if not self.polling:
            self.polling.append(asyncio.create_task(self.poll()))
        return event

    def unfollow(self, code: str, event: asyncio.Event) -> None:
        followers = self.listeners.get(code, set())
        followers.discard(event)
        if not followers:
            self.listeners.pop(code, None)
            self.solvers.pop(code, None)

    async def poll(self) -> None:
        """Changes made by other server processes: one look at every table
        followed here each ``POLL`` seconds (this process's own changes
        notify at once)."""
        CLIENT.set("")                          # its turns are nobody's (this task's context)
        seen: dict[str, tuple | None] = {}
        try:
            while self.listeners:
                codes = list(self.listeners)
                now, stale = await self.run(self.shared.refresh,
                                            {c: self.solvers[c] for c in codes}, self.describe)
                for code in codes:
                    if code in stale or now.get(code) != seen.get(code, now.get(code)):
                        self.notify(code)
                seen = {code: now.get(code) for code in codes}
                await asyncio.sleep(POLL)
        finally:
            self.polling.clear()


async def guarded(handler, tables: Tables, request: Request) -> Response:
    """``handler(tables, request)``, every refusal one JSON line with a
    ``code``.  An error of another kind (a rule set whose table is missing,
    422) goes on to the app's handlers; one that none knows is answered a
    JSON 500 there, and logged."""
    try:
        return await handler(tables, request)
    except (TableRefused, Refused, DatabaseFull, DatabaseBusy, InputError) as e:
        return refusal(e)


def refusal(e: Exception) -> Response:
    """A refusal as one JSON line with its ``code``, without server paths."""
    body = {"error": no_paths(" ".join(str(e).split()))}
    headers = None
    if isinstance(e, (TableRefused, Refused)):
        status, body["code"] = e.status, e.code
        if getattr(e, "state", None) is not None:
            body["state"] = e.state
        if status == 429:
            headers = {"Retry-After": retry_after(getattr(e, "retry", None))}
    elif isinstance(e, DatabaseFull):
        status, body["code"] = 507, "db_full"
    elif isinstance(e, DatabaseBusy):
        status, body["code"], headers = 503, "db_busy", {"Retry-After": "2"}
    else:
        status, body["code"] = 400, getattr(e, "kind", None) or "input"
    return JSONResponse(body, status_code=status, headers=headers)


async def create(tables: Tables, request: Request) -> Response:
    """``POST /api/table``: a new table, or the next one of ``follows``."""
    tables.creating.take(client_of(request))
    obj = await read_body(request, MAX_GAME_BODY)
    if "seed" in obj:                           # the dice are the server's to choose
        raise TableRefused(400, "a shared table's dice are drawn from the server's own secret "
                              "seed; send no seed", code="seed")
    who = obj.get("who_moves", "any")
    follows = obj.get("follows")
    if follows is not None and not isinstance(follows, str):
        raise TableRefused(400, "follows must be a table's code")
    if "game" in obj:                           # a game as it stands, shared
        doc = shared_document(obj["game"])
        solver = await tables.solver_for(doc["rules"])
        game = Game.from_dict(doc, solver, where="game")
    else:
        players = check_names(obj.get("players", ["Player"]))
        spec = check_spec(obj.get("rules", "nordic"))
        game = Game(await tables.solver_for(spec), players, seed=secret_seed())
    code, admin = await tables.run(tables.shared.create, game, who, follows,
                                   token_field(obj, "admin"), client_of(request))
    if follows is not None:
        tables.notify(follows)                  # its phones move on to the next game
    if admin is None:                           # the next game was made already
        return await tables.answer(request, code)
    return await tables.answer(request, code, 201, admin=admin)


async def read(tables: Tables, request: Request) -> Response:
    code = request.path_params["code"]
    _, text = await tables.run(tables.shared.event, code, await tables.solver_of(code),
                               tables.describe)
    return Response(text, media_type="application/json")


def play_step(move: str):
    """The step of a move: ``auto`` is the move of the player to move's
    policy (``Session.auto_move``; optimal for a person)."""
    def step(session: Session, by: Capability) -> str:
        if move.lower() == "auto":
            return session.play_auto(by).text
        return session.play(move, by).text
    return step


def pad_step(box: str, points: int, column: int | None):
    """The step of a score-pad write (``Session.write``)."""
    def step(session: Session, by: Capability) -> str:
        return " | ".join(m.text for m in session.write(box, points, column, by))
    return step


def pad_fields(obj: dict) -> tuple[str, int, int | None]:
    """A score-pad write's box, points and column (400 if malformed)."""
    box = required_text(obj, "box", 40)
    points, column = obj.get("points"), obj.get("column")
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 10_000:
        raise TableRefused(400, "points must be a whole number 0..10000")
    if column is not None and (isinstance(column, bool) or not isinstance(column, int)
                               or not 1 <= column <= 99):
        raise TableRefused(400, "column must be a column number")
    return box, points, column


def undo_step(session: Session, by: Capability) -> str:
    return " | ".join(m.text for m in session.undo_write(by))


def redo_step(session: Session, by: Capability) -> str:
    return " | ".join(m.text for m in session.redo_write(by))


async def change(kind: str, tables: Tables, request: Request) -> Response:
    """``POST .../move``, ``.../undo``, ``.../redo``: one change, as the
    capability of the body's token allows (the session's rule)."""
    tables.moving.take(client_of(request))
    code = request.path_params["code"]
    obj = await read_body(request)
    after = count_field(obj, "after")
    step = play_step(required_text(obj, "move")) if kind == "move" else \
        pad_step(*pad_fields(obj)) if kind == "pad" else \
        undo_step if kind == "undo" else redo_step
    _, text = await tables.run(tables.shared.change_text, code, after, kind, step,
                               await tables.solver_of(code), tables.describe, token_field(obj))
    tables.notify(code)
    return Response(text, media_type="application/json")


async def claim(tables: Tables, request: Request) -> Response:
    tables.moving.take(client_of(request))
    obj = await read_body(request)
    code = request.path_params["code"]
    token = await tables.run(tables.shared.claim, code, seat_field(obj), token_field(obj))
    tables.notify(code)
    return JSONResponse({"seat": obj["seat"], "token": token})


async def release(tables: Tables, request: Request) -> Response:
    tables.moving.take(client_of(request))
    obj = await read_body(request)
    code = request.path_params["code"]
    await tables.run(tables.shared.release, code, seat_field(obj), token_field(obj))
    tables.notify(code)
    return await tables.answer(request, code)


async def propose(tables: Tables, request: Request) -> Response:
    """``POST .../next``: the next game proposed (started at once by the admin)."""
    tables.creating.take(client_of(request))
    obj = await read_body(request)
    code = request.path_params["code"]
    players = check_names(obj.get("players"))
    spec = check_spec(obj.get("rules", await tables.rules_of(code)))
    game = Game(await tables.solver_for(spec), players, seed=secret_seed())
    made = await tables.run(tables.shared.propose, code, game, obj.get("who_moves", "any"),
                            token_field(obj))
    tables.notify(code)
    return await tables.answer(request, code, next_code=made)


async def accept(tables: Tables, request: Request) -> Response:
    """``POST .../next/accept``: agree to the proposed game."""
    tables.moving.take(client_of(request))
    obj = await read_body(request)
    code = request.path_params["code"]
    row = await tables.run(tables.shared.row, code)
    spec = row.proposal["rules"] if row.proposal else row.rules
    wanted = obj.get("id")
    made = await tables.run(tables.shared.accept, code, token_field(obj),
                            await tables.solver_for(spec), wanted)
    tables.notify(code)
    return await tables.answer(request, code, next_code=made)


async def cancel(tables: Tables, request: Request) -> Response:
    tables.moving.take(client_of(request))
    obj = await read_body(request)
    code = request.path_params["code"]
    await tables.run(tables.shared.cancel, code, token_field(obj))
    tables.notify(code)
    return await tables.answer(request, code)


async def join(tables: Tables, request: Request) -> Response:
    """``GET /api/join/{short}``: the table of a short code typed by a
    person.  Every bucket is this client's own (its address; an IPv6
    network's /64 is one client, ``network_of``) or the table's: each client
    may try ``LIMITS["join"]`` codes (6 at once, then one in 10 s) and miss
    ``LIMITS["miss"]`` (a client past its misses is refused before the code
    is looked up: no answer tells it a right code from a wrong one), counted
    in this process and in the tables' file (``SharedGames.by_short``), so
    that ``--workers`` do not multiply them; and a table found is answered
    ``LIMITS["table_join"]`` times (30 at once, then one a second).  No
    bucket is shared by all clients, so a phone typing the right code is
    never refused for others' misses."""
    client = network_of(client_of(request))
    tables.joining.take(client)                 # this process's buckets first: a flood of
    short = request.path_params["short"]        # tries never reaches the file
    if len(short) > 32:
        raise TableRefused(400, "a table's code is 6 letters", code="short_code")
    tables.missing.check(client)
    try:
        code = await tables.run(tables.shared.by_short, short, client, tables.limits)
    except TableRefused as e:
        if e.status == 404:
            tables.missing.take(client)
        raise
    tables.table_joins.take(code)
    return JSONResponse({"code": code, "url": table_url(request, code)})


def network_of(address: str) -> str:
    """The client a join is counted to: an IPv4 address itself, an IPv6
    address its /64 (one network hands its hosts any of 2**64 addresses).

    >>> network_of("192.168.1.20"), network_of("2001:db8:1:2:aaaa::1")
    ('192.168.1.20', '2001:db8:1:2::/64')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


async def record_game(tables: Tables, request: Request) -> Response:
    """``POST /api/history`` ``{"game"}``: a finished game played on one page
    recorded (once) as the page's word, apart from every table's results
    (its family its players' names from this address), at most
    ``LIMITS["record"]`` a client, and the history shown after it
    (``yatzy.history``)."""
    tables.moving.take(client_of(request))
    obj = await read_body(request, MAX_GAME_BODY)
    doc = obj.get("game")
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), str):
        raise TableRefused(400, "game must be a game document with its rules")
    check_spec(doc["rules"])
    game = Game.from_dict(doc, await tables.solver_for(doc["rules"]), where="game")
    if not game.is_over:
        raise TableRefused(409, "the game is not over")
    tables.recording.take(client_of(request))
    got = await tables.run(tables.shared.record_page, game, client_of(request))
    return JSONResponse(got)


async def history(tables: Tables, request: Request) -> Response:
    return JSONResponse({"changes": await tables.run(tables.shared.history,
                                                     request.path_params["code"])})


async def delete(tables: Tables, request: Request) -> Response:
    obj = await read_body(request)
    code = request.path_params["code"]
    await tables.run(tables.shared.delete, code, required_text(obj, "admin"))
    tables.notify(code)
    return JSONResponse({"deleted": code})


async def qr_code(tables: Tables, request: Request) -> Response:
    code = request.path_params["code"]
    await tables.run(tables.shared.row, code)           # 404 for a code that is no table
    return Response(qr_svg(table_url(request, code)), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})


async def events(tables: Tables, request: Request) -> Response:
    """``GET .../events``: every change of the table as a Server-Sent Event."""
    code = request.path_params["code"]
    solver = await tables.solver_of(code)               # 404 before the stream starts
    event = tables.follow(code, solver)
    return StreamingResponse(stream(tables, request, code, solver, event),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def stream(tables: Tables, request: Request, code: str, solver, event: asyncio.Event):
    """The events of one phone: the state at once, then each change."""
    sent, started = None, time.monotonic()
    yield f"retry: {RETRY_MS}\n\n"                       # a dropped phone comes back soon
    try:
        while time.monotonic() - started < STREAM_SECONDS:
            event.clear()                               # a change from now on wakes it again
            # the state this process keeps (see SharedGames.current), else the file's;
            # the first look reads the file (the poller may not have seen the table yet)
            held = tables.shared.current(code) if sent is not None else None
            if held is None:
                try:
                    current, text = await tables.run(tables.shared.event, code, solver,
                                                     tables.describe)
                except TableRefused as e:
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
        tables.unfollow(code, event)


ROUTES = [("/api/table", create, "POST"), ("/api/table/{code}", read, "GET"),
          ("/api/table/{code}", delete, "DELETE"),
          ("/api/table/{code}/move", partial(change, "move"), "POST"),
          ("/api/table/{code}/undo", partial(change, "undo"), "POST"),
          ("/api/table/{code}/pad", partial(change, "pad"), "POST"),
          ("/api/table/{code}/redo", partial(change, "redo"), "POST"),
          ("/api/table/{code}/claim", claim, "POST"),
          ("/api/table/{code}/release", release, "POST"),
          ("/api/table/{code}/next", propose, "POST"),
          ("/api/table/{code}/next/accept", accept, "POST"),
          ("/api/table/{code}/next/cancel", cancel, "POST"),
          ("/api/table/{code}/history", history, "GET"),
          ("/api/table/{code}/events", events, "GET"),
          ("/api/table/{code}/qr.svg", qr_code, "GET"),
          ("/api/join/{short}", join, "GET"),
          ("/api/history", record_game, "POST")]


def table_routes(shared: SharedGames, solver_for: Callable[[str], Awaitable[Any]],
                 describe: Callable[[Game], dict], limits: dict = LIMITS) -> list[Route]:
    """The routes of shared tables (``ROUTES``, each a module-level handler
    over ``Tables``): ``solver_for(spec)`` gives the Solver of a rule set
    (opening its table), ``describe(game)`` what the page shows, ``limits``
    the requests a client may make (``LIMITS``)."""
    tables = Tables(shared, solver_for, describe, limits)
    return [Route(path, partial(guarded, handler, tables), methods=[method])
            for path, handler, method in ROUTES]
