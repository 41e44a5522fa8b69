"""The web app of ``yatzy serve``: routes, input checks, the solvers kept
open, and the slow work moved off the event loop.

One ``Solver`` per rule set stays open for the life of the server
(``Solvers``).  A table that is not open yet is opened, or solved, in a
thread of its own; a request waits for it a moment (``WAIT_FOR_TABLE``) and
otherwise gets 503 with the solve's progress, which ``GET /api/status``
also shows.  Only tables that solve in seconds are solved on demand (five
dice, no saved rolls, a bonus threshold the dice can reach); other rule sets
need a stored table (``yatzy solve``).

Advice for one position is computed on the event loop (about a millisecond
with the turn's values kept, ``Solver.turn``); a final-score distribution
(seconds, up to a gigabyte) runs in a worker thread, one at a time, and is
kept for the next request of the same card.

Every input is checked: bad input answers 4xx with one line ``{"error":
"...", "code": "..."}`` (the code names the kind of error, so the page can
say it in the reader's language); bodies are at most ``MAX_BODY`` bytes
(413) and query strings ``MAX_QUERY`` (414).  An error that escapes a route
anyway answers a JSON 500 and the connection stays open (``Guard``).

The routes are plain functions of the request, each set in its module and
assembled here (``create_app``): this module's (the rules, the status, the
advice, the distribution, the page's files), the one-page game's
(``yatzy.web.game_routes``), the shared tables' (``yatzy.web.table_routes``)
and the Practice view's (``yatzy.web.practice``).  What they share (the
default rules, the solvers, the distributions kept) is
``request.app.state.web`` (``WebState``).
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import logging
import os
import signal
import sys
import threading
import warnings
from collections import OrderedDict
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from yatzy.api import Solver
from yatzy.database import DatabaseBusy, DatabaseFull
from yatzy.errors import InputError, TableError
from yatzy.tables.announce import TableWarning
from yatzy.game import KINDS, Game
from yatzy.players.objectives import Objective, Score, objective_from
from yatzy.position.scoring import bank_after
from yatzy.rules.ruleset import KEYS, PRESETS, Rules, parse_rules
from yatzy.rules.words import LANGS, message
from yatzy.session import Session
from yatzy.tables.plan import value_plan
from yatzy.web import words as page_words
from yatzy.web.answers import (
    MAX_BODY,
    MAX_QUERY,
    MAX_TEXT,
    ApiError,
    advice_json,
    arg,
    build_times,
    error_reply,
    labels,
    reply,
    whole_arg,
)
from yatzy.web.budget import Budget, Refused
from yatzy.web.connections import WholeBody, no_paths
from yatzy.web.fair import WRITES, Fair, background
from yatzy.web.game_routes import GAME_ROUTES, game_json
from yatzy.web.guard import CLIENT, Guard
from yatzy.web.openapi import DOCUMENT
from yatzy.web.practice import PRACTICE_ROUTES, Practice, ratings_folder
from yatzy.web.seal import Seal
from yatzy.web.shared import SharedGames
from yatzy.web.table_routes import table_routes

STATIC = Path(__file__).parent / "static"
MAX_RULE_SETS = 16            # solvers kept open (the least recently used is closed first)
DISTRIBUTIONS_KEPT = 32
GAME_THREADS = 2              # one-page games' requests worked out at once (``off_loop``)
WAIT_FOR_TABLE = 2.0          # seconds a request waits for a table before 503
ESTIMATE_GAMES = 2000         # games an estimated distribution plays (Maxi, saved rolls)
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'")


LOG = logging.getLogger("yatzy.web")


# ---------------------------------------------------------------- solvers
def solvable_here(rules: Rules) -> bool:
    """Whether a missing table of ``rules`` is solved on demand (seconds).

    >>> solvable_here(parse_rules("nordic")), solvable_here(parse_rules("maxi"))
    (True, False)
    """
    return (rules.dice == 5 and not rules.saved_rolls and rules.rolls <= 6
            and rules.bonus_threshold <= rules.dice * rules.faces * 6)


def unavailable(rules: Rules, tables: str | Path | None) -> dict | None:
    """Why the page cannot start a game of ``rules`` now (None: it can):
    ``{"code": "no_table", "command": ..., "bytes": ..., "seconds": ...}``,
    the size of the missing table's file and its time to solve on the
    reference machine (``yatzy.tables.plan.value_plan``)."""
    if not Solver(rules, tables=tables).path.exists() and not solvable_here(rules):
        size, seconds = table_cost(rules)
        return {"code": "no_table", "command": f"yatzy solve --rules {rules.spec}",
                "bytes": size, "seconds": round(seconds)}
    return None


def missing_table(rules: Rules) -> "ApiError":
    """422 ``no_table``: the rules' table is not stored and is too big to
    solve on demand; with what it needs, as ``yatzy solve`` says it
    (``plan``: its size and time) and the ``command`` that builds it."""
    plan = value_plan(rules)
    return ApiError(422, f"rules {rules.spec}: no stored table, and this server solves only "
                         f"small rule sets itself ({plan}; run yatzy solve --rules "
                         f"{rules.spec} first)", "no_table",
                    command=f"yatzy solve --rules {rules.spec}", plan=str(plan),
                    disk_bytes=plan.disk_bytes, seconds=round(plan.seconds))


@functools.lru_cache(maxsize=64)
def table_cost(rules: Rules) -> tuple[int, float]:
    """The bytes of the value table of ``rules`` and the seconds its solve
    takes on the reference machine (planned once: a second for Maxi)."""
    plan = value_plan(rules)
    return plan.file_size, plan.seconds



class Solvers:
    """The rule sets the server has opened: one ``Solver`` each, its table
    opened or solved in a thread with its progress recorded, and the turn
    values of recent cards."""

    def __init__(self, tables: str | Path | None, budget: Budget | None = None):
        self.tables = tables
        self.budget = budget or Budget()
        self.specs: OrderedDict[str, Rules] = OrderedDict()      # text asked -> rules
        self.solvers: OrderedDict[str, Solver] = OrderedDict()    # least recently used first
        self.status: dict[str, dict] = {}
        self.lock = threading.Lock()

    def rules(self, text: str) -> Rules:
        rules = self.specs.get(text)
        if rules is None:
            rules = parse_rules(text)
            self.specs[text] = rules
            if len(self.specs) > 256:
                self.specs.popitem(last=False)
        return rules

    def start(self, text: str) -> Solver:
        """The solver of the rules ``text``, its table being opened (or
        solved) in a thread if it is not open yet."""
        rules = self.rules(text)
        with self.lock:
            solver = self.solvers.get(rules.spec)
            if solver is not None:
                self.solvers.move_to_end(rules.spec)
                return solver
            self._make_room()
            status = self.status[rules.spec] = {"state": "opening", "done": 0, "total": 0}

            clock: dict = {}

            def progress(done: int, total: int) -> None:
                if status["state"] != "ready":      # later builds (futures, parts) report elsewhere
                    status.update(state="solving", **build_times(clock, done, total))

            solver = Solver(rules, tables=self.tables, progress=progress)
            if not solver.path.exists() and solvable_here(rules):
                try:                           # a new table on disk: the presets, or within budget
                    self.budget.charge(rules, "values", lambda: value_plan(rules).disk_bytes,
                                       CLIENT.get())
                except Refused:
                    del self.status[rules.spec]
                    raise
            if not solver.path.exists() and not solvable_here(rules):
                del self.status[rules.spec]
                raise missing_table(rules)
            self.solvers[rules.spec] = solver
        threading.Thread(target=self._open, args=(solver, status), daemon=True).start()
        return solver

    def _make_room(self) -> None:
        """Close the least recently used rule sets that are not being opened
        or solved until there is room for one more (every slot busy solving:
        503, the request may come again)."""
        while len(self.solvers) >= MAX_RULE_SETS:
            idle = [spec for spec in self.solvers
                    if self.status.get(spec, {}).get("state") in ("ready", "failed", None)]
            if not idle:
                raise ApiError(503, f"this server is opening {MAX_RULE_SETS} rule sets at once; "
                                    "try again in a moment", "busy")
            del self.solvers[idle[0]]
            self.status.pop(idle[0], None)

    @staticmethod
    def _open(solver: Solver, status: dict) -> None:
        try:
            solver.solve()
            status.update(state="ready")
        except (InputError, TableError, OSError, MemoryError) as e:
            status.update(state="failed", error=str(e))

    async def get(self, text: str) -> Solver:
        """The solver of the rules ``text`` with its table open; 503 with the
        progress if it is still being solved after ``WAIT_FOR_TABLE``."""
        solver = self.start(text)
        status = self.status[solver.rules.spec]
        waited = 0.0
        while status["state"] in ("opening", "solving") and waited < WAIT_FOR_TABLE:
            await anyio.sleep(0.05)
            waited += 0.05
        if status["state"] == "ready":
            return solver
        if status["state"] == "failed":
            raise ApiError(503, f"rules {solver.rules.spec}: the table failed: {status['error']}",
                           "table")
        raise ApiError(503, f"rules {solver.rules.spec}: the table is being solved; "
                            "try again shortly", "solving", progress=dict(status))


# -------------------------------------------------------------- the routes
class WebState:
    """What the routes share: the default rules, the folder of tables, the
    solvers, and the distributions kept (one computed at a time)."""

    def __init__(self, rules: str, tables: str | Path | None, budget: Budget | None = None,
                 seal: Seal | None = None):
        self.default = parse_rules(rules).spec
        self.tables = tables
        self.budget = budget or Budget()
        self.budget.presets |= {self.default}        # the owner's choice is always built
        self.seal = seal or Seal(key=os.urandom(32))   # a one-page game's seed, kept back
        self.solvers = Solvers(tables, self.budget)
        self.limiter = anyio.CapacityLimiter(1)
        self.game_threads = anyio.CapacityLimiter(GAME_THREADS)     # ``off_loop``
        self.distributions: OrderedDict[tuple[str, str], dict] = OrderedDict()
        self.running = 0
        self.known: OrderedDict[str, dict] = OrderedDict()   # rules -> losses valued

    def session(self, game: Game) -> Session:
        """The session of a game posted to the page's routes: its loss
        ledger valued once per move and rule set (``Session(known=...)``),
        the same numbers as the coach and the end review."""
        spec = game.rules.spec
        known = self.known.pop(spec, None)
        self.known[spec] = known = {} if known is None else known
        while len(self.known) > MAX_RULE_SETS:
            self.known.popitem(last=False)
        return Session(game, known=known)


def web(request: Request) -> WebState:
    return request.app.state.web


def rules_arg(request: Request) -> str:
    return arg(request, "rules", web(request).default)


def preset_json(state: WebState, name: str) -> dict:
    rules = state.solvers.rules(name)
    why = unavailable(rules, state.tables)
    return {"name": name, "description": PRESETS[name].description,
            "available": why is None, "unavailable": why}


async def rules_endpoint(request: Request) -> Response:
    state = web(request)
    spec = request.query_params.get("spec")
    if spec is None:
        return reply({"default": state.default,
                      "presets": [preset_json(state, name) for name in PRESETS],
                      "keys": [{"name": k.name, "type": k.type_name, "presets": k.presets,
                                "help": k.help} for k in KEYS.values()],
                      "languages": list(LANGS), "kinds": list(KINDS)})
    r = state.solvers.rules(arg(request, "spec"))
    return reply({"spec": r.spec, "fingerprint": r.fingerprint, "dice": r.dice,
                  "faces": r.faces, "rolls": r.rolls, "bonus_threshold": r.bonus_threshold,
                  "bonus_points": r.bonus_points, "order": r.order.value,
                  "yahtzee_bonus": r.yahtzee_bonus, "joker": r.joker.value,
                  "saved_rolls": r.saved_rolls, "columns": r.columns,
                  "boxes": [{"name": b.name, "upper": b.is_upper, "scoring": b.describe()}
                            for b in r.boxes],
                  "labels": labels(r), "description": r.describe(),
                  "unavailable": unavailable(r, state.tables)})


async def status_endpoint(request: Request) -> Response:
    state = web(request)
    return reply({"default": state.default, "tables": dict(state.solvers.status),
                  "distributions_running": state.running})


async def ev_endpoint(request: Request) -> Response:
    solver = await web(request).solvers.get(rules_arg(request))
    card = solver.card(arg(request, "card", ""))
    value = solver.ev(card)
    return reply({"rules": solver.rules.spec, "card": str(card),
                  "expected_final_score": value, "current_score": card.score,
                  "expected_remaining": value - card.score, "upper_total": card.upper_total})


def objective_arg(request: Request) -> Objective:
    """The objective of ``theta`` (risk), ``target`` (points) or ``opponent``
    (an opponent's card, repeated; win), as the library's
    (``yatzy.players.objectives.objective_from``); none: the expected score."""
    theta = arg(request, "theta", "0")
    try:
        value = float(theta)
    except ValueError:
        raise ApiError(400, f"theta {theta[:20]!r}: expected a number") from None
    target = whole_arg(request, "target", 0, 100_000, required=False)
    opponents = request.query_params.getlist("opponent")
    if len(opponents) > 5 or any(len(o) > MAX_TEXT for o in opponents):
        raise ApiError(400, f"opponent: at most 5 cards of {MAX_TEXT} characters")
    return objective_from(value, target, opponents)


async def advise_endpoint(request: Request) -> Response:
    """Every action in a position, by the objective asked for
    (``objective_arg``): ``Solver.advise``, its turn's values kept by the
    solver; a table other than the value table is opened (or built) in a
    worker thread."""
    state = web(request)
    solver = await state.solvers.get(rules_arg(request))
    card_text, dice_text = arg(request, "card", ""), arg(request, "dice")
    rerolls = whole_arg(request, "rerolls", 0, 99)
    top = whole_arg(request, "top", 1, 999, required=False)
    objective = objective_arg(request)
    card = solver.card(card_text)
    if card.is_full:
        raise ApiError(400, "the card is full: there is nothing left to decide", "full")
    if objective == Score():
        advice = solver.advise(card, dice_text, rerolls)
    else:
        advice = await anyio.to_thread.run_sync(solver.advise, card, dice_text, rerolls,
                                                objective, limiter=state.limiter)
    rules = solver.rules
    return reply({"rules": rules.spec, "card": str(card), "dice": list(advice.dice),
                  "rerolls": rerolls, "current_score": card.score,
                  "bank_after_stopping": bank_after(rules, rerolls),
                  "objective": repr(objective), "values": advice.values,
                  "actions": advice_json(advice, top)})


async def distribution_endpoint(request: Request) -> Response:
    state = web(request)
    solver = await state.solvers.get(rules_arg(request))
    card = solver.card(arg(request, "card", ""))
    if card.is_full:
        raise ApiError(400, "the card is full: its final score is already known", "full")
    key = (solver.rules.spec, str(card))
    if key not in state.distributions:
        games = None if solver.is_exact() else ESTIMATE_GAMES
        state.running += 1
        try:
            dist = await anyio.to_thread.run_sync(background(solver.distribution), card,
                                                  "optimal", games, 0, limiter=state.limiter)
        finally:
            state.running -= 1
        state.distributions[key] = {k: v for k, v in dist.as_dict().items() if k != "boxes"}
        if len(state.distributions) > DISTRIBUTIONS_KEPT:
            state.distributions.popitem(last=False)
    return reply(state.distributions[key])


async def openapi(request: Request) -> Response:
    return reply(DOCUMENT)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Content-Security-Policy": CSP,
                                                        "Cache-Control": "no-cache"})


async def service_worker(request: Request) -> Response:
    """The service worker, from the root so that it may serve the page."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


async def manifest(request: Request) -> Response:
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")


ROUTES = [
    Route("/", index),
    Route("/sw.js", service_worker),
    Route("/manifest.webmanifest", manifest),
    Route("/openapi.json", openapi),
    *page_words.ROUTES,
    Route("/api/rules", rules_endpoint),
    Route("/api/status", status_endpoint),
    Route("/api/ev", ev_endpoint),
    Route("/api/advise", advise_endpoint),
    Route("/api/distribution", distribution_endpoint),
    *GAME_ROUTES,
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


async def on_api_error(request: Request, e: ApiError) -> Response:
    return error_reply(e.status, str(e), e.code, e.retry, **e.extra)


async def on_input_error(request: Request, e: InputError) -> Response:
    return error_reply(400, str(e))


async def on_http_error(request: Request, e: HTTPException) -> Response:
    return error_reply(e.status_code, e.detail, "http")


async def on_table_error(request: Request, e: TableError) -> Response:
    return error_reply(503, str(e), "table")


async def on_refused(request: Request, e: Refused) -> Response:
    return error_reply(e.status, str(e), e.code, e.retry)


async def on_database_full(request: Request, e: DatabaseFull) -> Response:
    return error_reply(507, str(e), "db_full")


async def on_database_busy(request: Request, e: DatabaseBusy) -> Response:
    response = error_reply(503, str(e), "db_busy")
    response.headers["Retry-After"] = "2"
    return response


def app_from_env() -> Starlette:
    """``create_app`` for the rules and tables that ``yatzy serve --workers N``
    gives its worker processes (``$YATZY_SERVE_RULES``, ``$YATZY_TABLES``).
    A worker, once its server has stopped, leaves at once: every change is
    committed, and tearing down a process that holds large tables takes
    seconds (a stop takes at most 2 s)."""
    atexit.register(leave_now)
    warnings.showwarning = one_line_warning
    hosts = os.environ.get("YATZY_SERVE_HOSTS")
    app = create_app(os.environ.get("YATZY_SERVE_RULES", "nordic"),
                      os.environ.get("YATZY_TABLES") or None,
                      os.environ.get("YATZY_SERVE_DB") or None,
                      hosts=hosts.split(",") if hosts else None,
                      allow_rules=os.environ.get("YATZY_SERVE_ALLOW_RULES") == "1")
    streams_end_on_stop(app.state.closing)
    return app


def one_line_warning(text, category, filename, lineno, file=None, line=None) -> None:
    """A worker's notice (a table being compiled, solved, waited for) as the
    one line ``warning: ...`` that ``yatzy serve`` itself prints, without
    the source line and path Python's own format shows."""
    words = text.said("en") if isinstance(text, TableWarning) else str(text)
    try:
        sys.stderr.write(no_paths(message("warning", "en", text=" ".join(words.split()))) + "\n")
    except (OSError, ValueError):
        pass


def streams_end_on_stop(closing: asyncio.Event) -> None:
    """Put a step before the server's own SIGINT and SIGTERM handlers (a
    worker's uvicorn has set them when it loads the app): set ``closing``,
    so every event stream ends at once (``yatzy.web.guard``)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        before = signal.getsignal(sig)
        if not callable(before):
            continue

        def stop(number, frame, before=before):
            loop.call_soon_threadsafe(closing.set)
            before(number, frame)
        signal.signal(sig, stop)


def leave_now() -> None:
    """End the process now, its output flushed (the last exit handler)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


def shared_view(game: Game) -> dict:
    """What every phone of a shared table shows: the game without the
    coach's advice (each player asks for their own)."""
    return {k: v for k, v in game_json(game, coach=False).items() if k not in ("game", "advice")}


def create_app(rules: str = "nordic", tables: str | Path | None = None,
               db: str | Path | None = None, *, hosts: list[str] | None = None,
               allow_rules: bool = False, writes: tuple[float, float] = WRITES) -> Starlette:
    """The app of ``yatzy serve``: ``rules`` is the default rule set (its
    table is opened, or solved, when the server starts), ``tables`` the
    folder of stored tables, ``db`` the SQLite file of shared tables
    (``yatzy.web.shared``; default in the user's data folder, opened on
    first use); ``hosts`` the host names requests may name (None: any;
    ``yatzy.web.guard``), ``allow_rules`` whether tables of rules other
    than the presets are built, within a budget (``yatzy.web.budget``);
    ``writes`` the rate of changes one client may make (``yatzy.web.fair``).
    ``app.state.closing`` (an ``asyncio.Event``), once set, ends every
    event stream."""
    games = SharedGames(db)
    state = WebState(rules, tables, Budget(allow_rules, path=games.path), Seal(games.path))
    solver_for = state.solvers.get
    shared = table_routes(games, solver_for, shared_view)
    app = Starlette(routes=ROUTES + shared + PRACTICE_ROUTES, exception_handlers={
        ApiError: on_api_error, InputError: on_input_error, HTTPException: on_http_error,
        TableError: on_table_error, Refused: on_refused, DatabaseFull: on_database_full,
        DatabaseBusy: on_database_busy})
    app.add_middleware(Bounds)
    app.add_middleware(Fair, writes=writes, client=CLIENT.get)  # heavy routes queued per client
    app.add_middleware(WholeBody)                   # every body read within its deadline
    app.state.closing = asyncio.Event()
    app.add_middleware(Guard, hosts=hosts, closing=app.state.closing)    # outermost
    app.state.web = state
    app.state.solvers = state.solvers
    app.state.practice = Practice(ratings_folder(db), lambda: state.default, solver_for,
                                  state.budget)
    state.solvers.start(state.default)         # open (or solve) the default table now
    return app


class Bounds:
    """ASGI middleware, outermost: a query string longer than ``MAX_QUERY``
    (``MAX_BODY`` for the page, whose ``?game=`` link holds a game) answers
    414 before any route runs, and an exception that escapes a route
    answers a JSON 500 (logged) instead of dropping the connection."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = MAX_QUERY if scope.get("path", "").startswith("/api/") else MAX_BODY
        if len(scope.get("query_string", b"")) > limit:        # the page's ?game= links are long
            response = error_reply(414, f"the query string is longer than {limit} bytes",
                                   "body")
            return await response(scope, receive, send)
        started = False

        async def sending(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as e:                      # noqa: BLE001 - the last line of defence
            LOG.exception("error in %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            response = error_reply(500, f"internal error ({type(e).__name__}); "
                                        "the server is still running", "internal")
            await response(scope, receive, send)


__all__ = ["ApiError", "MAX_BODY", "MAX_QUERY", "create_app", "game_json"]
