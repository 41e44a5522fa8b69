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
with the turn's values kept, ``Solvers.turn``); a final-score distribution
(seconds, up to a gigabyte) runs in a worker thread, one at a time, and is
kept for the next request of the same card.

Every input is checked: bad input answers 4xx with one line ``{"error":
"..."}``; bodies are at most ``MAX_BODY`` bytes (413) and query strings
``MAX_QUERY`` (414).
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.rules.actions import Action, Advice
from solver.api import Solver, check_whole
from solver.errors import InputError, TableError
from solver.game import Game
from solver.rules.words import LANGS, box_name, message
from solver.players.advice import TurnValues, advise, bank_after, turn_values
from solver.rules.ruleset import KEYS, PRESETS, Rules, parse_rules
from solver.rules.scorecard import Scorecard
from solver.web.openapi import DOCUMENT

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024          # bytes of a request body
MAX_QUERY = 2048              # bytes of a query string
MAX_TEXT = 200                # characters of one query value or a move
MAX_RULE_SETS = 16            # solvers kept open
TURNS_KEPT = 512              # turn values kept (one per card and rule set)
DISTRIBUTIONS_KEPT = 32
WAIT_FOR_TABLE = 2.0          # seconds a request waits for a table before 503
ESTIMATE_GAMES = 2000         # games an estimated distribution plays (Maxi, saved rolls)
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'")


class ApiError(Exception):
    """An answer other than 200: ``status`` and a one-line message."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.extra = status, extra


def reply(obj: object, status: int = 200, headers: dict | None = None) -> Response:
    return Response(json.dumps(obj, separators=(",", ":"), allow_nan=False), status,
                    headers, media_type="application/json")


def error_reply(status: int, text: str, **extra: Any) -> Response:
    line = " ".join(str(text).split()) or "error"
    return reply({"error": line, **extra}, status)


# ------------------------------------------------------------------ input
def arg(request: Request, name: str, default: str | None = None) -> str:
    value = request.query_params.get(name)
    if value is None:
        if default is None:
            raise ApiError(400, f"the query parameter {name} is missing")
        return default
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{name} is longer than {MAX_TEXT} characters")
    return value


def whole_arg(request: Request, name: str, low: int, high: int, required: bool = True
              ) -> int | None:
    """A whole number ``low .. high``; None if it is not required and not given."""
    text = arg(request, name, None if required else "").strip()
    if not text and not required:
        return None
    if not text.isascii() or not text.lstrip("-").isdigit() or len(text) > 6:
        raise ApiError(400, f"{name} must be a whole number, not {text[:20]!r}")
    return check_whole(int(text), name, low, high)


async def body(request: Request) -> dict:
    """The request's JSON object, at most ``MAX_BODY`` bytes."""
    size = request.headers.get("content-length", "0")
    if not size.isdigit():
        raise ApiError(400, "bad Content-Length")
    if int(size) > MAX_BODY:
        raise ApiError(413, f"the body is larger than {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise ApiError(413, f"the body is larger than {MAX_BODY} bytes")
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        raise ApiError(400, "the body is not a JSON document") from None
    if not isinstance(obj, dict):
        raise ApiError(400, "the body must be a JSON object")
    return obj


def text_field(obj: dict, name: str, default: str | None = None) -> str:
    value = obj.get(name, default)
    if not isinstance(value, str):
        raise ApiError(400, f"{name} must be a string" + ("" if default is not None
                                                            else " (it is required)"))
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{name} is longer than {MAX_TEXT} characters")
    return value


# ---------------------------------------------------------------- solvers
def solvable_here(rules: Rules) -> bool:
    """Whether a missing table of ``rules`` is solved on demand (seconds)."""
    return (rules.dice == 5 and not rules.saved_rolls and rules.rolls <= 6
            and rules.bonus_threshold <= rules.dice * rules.faces * 6)


class Solvers:
    """The rule sets the server has opened: one ``Solver`` each, its table
    opened or solved in a thread with its progress recorded, and the turn
    values of recent cards."""

    def __init__(self, tables: str | Path | None):
        self.tables = tables
        self.specs: OrderedDict[str, Rules] = OrderedDict()      # text asked -> rules
        self.solvers: dict[str, Solver] = {}
        self.status: dict[str, dict] = {}
        self.turns: OrderedDict[tuple[str, str], tuple[Scorecard, TurnValues]] = OrderedDict()
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
                return solver
            if len(self.solvers) >= MAX_RULE_SETS:
                raise ApiError(503, f"this server keeps at most {MAX_RULE_SETS} rule sets open")
            status = self.status[rules.spec] = {"state": "opening", "done": 0, "total": 0}

            def progress(done: int, total: int) -> None:
                status.update(state="solving", done=done, total=total)

            solver = Solver(rules, tables=self.tables, progress=progress)
            if not solver.path.exists() and not solvable_here(rules):
                del self.status[rules.spec]
                raise ApiError(422, f"rules {rules.spec}: no stored table, and this server "
                                    f"solves only small rule sets itself (run yatzy solve "
                                    f"--rules {rules.spec} first)")
            self.solvers[rules.spec] = solver
        threading.Thread(target=self._open, args=(solver, status), daemon=True).start()
        return solver

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
            raise ApiError(503, f"rules {solver.rules.spec}: the table failed: {status['error']}")
        raise ApiError(503, f"rules {solver.rules.spec}: the table is being solved; "
                            "try again shortly", progress=dict(status))

    def turn(self, solver: Solver, card_text: str) -> tuple[Scorecard, TurnValues]:
        """The card ``card_text`` and its turn's values, kept for the next request."""
        key = (solver.rules.spec, card_text)
        found = self.turns.get(key)
        if found is None:
            card = solver.card(card_text)
            found = self.turns[key] = (card, turn_values(solver.table, card))
            if len(self.turns) > TURNS_KEPT:
                self.turns.popitem(last=False)
        return found


# --------------------------------------------------------------- answers
def action_json(action: Action) -> dict:
    return {"text": str(action), **action.as_dict()}


def advice_json(advice: Advice, top: int | None = None) -> list[dict]:
    return [action_json(a) for a in advice.actions[:top]]


def labels(rules: Rules) -> dict:
    """Box names and the scorecard's other rows in every language."""
    rows = ("sum", "bonus", "total", "yahtzee_bonus", "bank", "weighted")
    return {lang: {"boxes": {b.name: box_name(b.name, lang) for b in rules.boxes},
                   **{key: message(key, lang) for key in rows}} for lang in LANGS}


def game_json(game: Game, **extra: Any) -> dict:
    """The game (``Game.to_dict``) and what the page shows of it."""
    deciding = not game.is_over and not game.needs_roll
    return {
        "game": game.to_dict(), "rules": game.rules.spec,
        "players": [{"name": p.name, "kind": p.kind} for p in game.players],
        "turn_player": game.turn_player, "dice": list(game.dice or ()) or None,
        "kept": None if game.kept is None else list(game.kept),
        "rerolls": game.rerolls, "needs_roll": game.needs_roll, "is_over": game.is_over,
        "dice_count": game.rules.dice, "faces": game.rules.faces,
        "columns": game.rules.columns, "column_weights": list(game.rules.column_weights),
        "values": game.values,
        "scores": list(game.scores()),
        "ranking": [{"place": p, "seat": s, "score": sc} for p, s, sc in game.ranking()],
        "protokoll": game.protokoll(),
        "legal": [str(a) for a in game.legal_actions()],
        "advice": advice_json(game.advice()) if deciding else None,
        "expected": None if game.is_over else game.expected_score(),
        "last_move": game.moves[-1].text if game.moves else None,
        "can_undo": bool(game.moves), "can_redo": bool(game.redo_moves),
        "labels": labels(game.rules), **extra}


# -------------------------------------------------------------- endpoints
def app_from_env() -> Starlette:
    """``create_app`` for the rules and tables that ``yatzy serve --workers N``
    gives its worker processes (``$YATZY_SERVE_RULES``, ``$YATZY_TABLES``)."""
    return create_app(os.environ.get("YATZY_SERVE_RULES", "nordic"),
                      os.environ.get("YATZY_TABLES") or None)


def create_app(rules: str = "nordic", tables: str | Path | None = None) -> Starlette:
    """The app of ``yatzy serve``: ``rules`` is the default rule set (its
    table is opened, or solved, when the server starts), ``tables`` the
    folder of stored tables."""
    default = parse_rules(rules).spec
    solvers = Solvers(tables)
    limiter = anyio.CapacityLimiter(1)          # one distribution at a time
    distributions: OrderedDict[tuple[str, str], dict] = OrderedDict()
    running = {"distributions": 0}

    def rules_arg(request: Request) -> str:
        return arg(request, "rules", default)

    async def rules_endpoint(request: Request) -> Response:
        spec = request.query_params.get("spec")
        if spec is None:
            return reply({"default": default,
                          "presets": [{"name": p.name, "description": p.description}
                                      for p in PRESETS.values()],
                          "keys": [{"name": k.name, "type": k.type_name, "presets": k.presets,
                                    "help": k.help} for k in KEYS.values()],
                          "languages": list(LANGS)})
        r = solvers.rules(arg(request, "spec"))
        return reply({"spec": r.spec, "fingerprint": r.fingerprint, "dice": r.dice,
                      "faces": r.faces, "rolls": r.rolls, "bonus_threshold": r.bonus_threshold,
                      "bonus_points": r.bonus_points, "order": r.order.value,
                      "yahtzee_bonus": r.yahtzee_bonus, "joker": r.joker.value,
                      "saved_rolls": r.saved_rolls,
                      "boxes": [{"name": b.name, "upper": b.is_upper, "scoring": b.describe()}
                                for b in r.boxes],
                      "labels": labels(r), "description": r.describe()})

    async def status_endpoint(request: Request) -> Response:
        return reply({"default": default, "tables": dict(solvers.status),
                      "distributions_running": running["distributions"]})

    async def ev_endpoint(request: Request) -> Response:
        solver = await solvers.get(rules_arg(request))
        card = solver.card(arg(request, "card", ""))
        value = solver.ev(card)
        return reply({"rules": solver.rules.spec, "card": str(card),
                      "expected_final_score": value, "current_score": card.score,
                      "expected_remaining": value - card.score, "upper_total": card.upper_total})

    async def advise_endpoint(request: Request) -> Response:
        solver = await solvers.get(rules_arg(request))
        card_text, dice_text = arg(request, "card", ""), arg(request, "dice")
        rerolls = whole_arg(request, "rerolls", 0, 99)
        top = whole_arg(request, "top", 1, 999, required=False)
        card, turn = solvers.turn(solver, card_text)
        if card.is_full:
            raise InputError("the card is full: there is nothing left to decide")
        advice = advise(solver.table, card, solver.dice(dice_text), rerolls, turn)
        rules = solver.rules
        return reply({"rules": rules.spec, "card": str(card), "dice": list(advice.dice),
                      "rerolls": rerolls, "current_score": card.score,
                      "bank_after_stopping": bank_after(rules, rerolls),
                      "actions": advice_json(advice, top)})

    async def distribution_endpoint(request: Request) -> Response:
        solver = await solvers.get(rules_arg(request))
        card = solver.card(arg(request, "card", ""))
        if card.is_full:
            raise InputError("the card is full: its final score is already known")
        key = (solver.rules.spec, str(card))
        if key not in distributions:
            games = None if solver.is_exact() else ESTIMATE_GAMES
            running["distributions"] += 1
            try:
                dist = await anyio.to_thread.run_sync(solver.distribution, card, "optimal",
                                                      games, 0, limiter=limiter)
            finally:
                running["distributions"] -= 1
            distributions[key] = {k: v for k, v in dist.as_dict().items() if k != "boxes"}
            if len(distributions) > DISTRIBUTIONS_KEPT:
                distributions.popitem(last=False)
        return reply(distributions[key])

    async def game_of(obj: dict) -> tuple[Game, Solver]:
        doc = obj.get("game")
        if not isinstance(doc, dict):
            raise ApiError(400, "game must be a game document (a JSON object)")
        spec = doc.get("rules")
        if not isinstance(spec, str) or len(spec) > MAX_TEXT:
            raise ApiError(400, "game: rules must be a rules spec")
        solver = await solvers.get(spec)
        return Game.from_dict(doc, solver), solver

    async def new_game(request: Request) -> Response:
        obj = await body(request)
        players = obj.get("players", ["Player"])
        if not isinstance(players, list) or not all(
                isinstance(p, str) and len(p) <= 40 for p in players):
            raise ApiError(400, "players must be a list of names (NAME or NAME=optimal)")
        seed = obj.get("seed")
        solver = await solvers.get(text_field(obj, "rules", default))
        return reply(game_json(Game(solver, players, seed=seed)))

    async def game_state(request: Request) -> Response:
        game, _ = await game_of(await body(request))
        return reply(game_json(game))

    async def game_move(request: Request) -> Response:
        obj = await body(request)
        move = text_field(obj, "move").strip()
        game, _ = await game_of(obj)
        if move.lower() == "auto":
            move = game.computer_move()
        deciding = not game.is_over and not game.needs_roll and game.player.is_human
        before = game.advice() if deciding else None
        game.play(move)
        verdict = None
        if before is not None:
            chosen = before.find(game.moves[-1].text)
            verdict = {"chosen": action_json(chosen), "best": action_json(before.best),
                       "loss": chosen.loss}
        return reply(game_json(game, verdict=verdict))

    def undo_redo(step: Callable[[Game], Any]):
        async def endpoint(request: Request) -> Response:
            game, _ = await game_of(await body(request))
            step(game)
            return reply(game_json(game))
        return endpoint

    async def openapi(request: Request) -> Response:
        return reply(DOCUMENT)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Content-Security-Policy": CSP})

    routes = [
        Route("/", index),
        Route("/openapi.json", openapi),
        Route("/api/rules", rules_endpoint),
        Route("/api/status", status_endpoint),
        Route("/api/ev", ev_endpoint),
        Route("/api/advise", advise_endpoint),
        Route("/api/distribution", distribution_endpoint),
        Route("/api/game/new", new_game, methods=["POST"]),
        Route("/api/game/state", game_state, methods=["POST"]),
        Route("/api/game/move", game_move, methods=["POST"]),
        Route("/api/game/undo", undo_redo(Game.undo), methods=["POST"]),
        Route("/api/game/redo", undo_redo(Game.redo), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def on_api_error(request: Request, e: ApiError) -> Response:
        return error_reply(e.status, str(e), **e.extra)

    async def on_input_error(request: Request, e: InputError) -> Response:
        return error_reply(400, str(e))

    async def on_http_error(request: Request, e: HTTPException) -> Response:
        return error_reply(e.status_code, e.detail)

    async def on_table_error(request: Request, e: TableError) -> Response:
        return error_reply(503, str(e))

    app = Starlette(routes=routes, exception_handlers={
        ApiError: on_api_error, InputError: on_input_error, HTTPException: on_http_error,
        TableError: on_table_error})
    app.add_middleware(Bounds)
    app.state.solvers = solvers
    solvers.start(default)                     # open (or solve) the default table now
    return app


class Bounds:
    """ASGI middleware: a query string longer than ``MAX_QUERY`` answers 414
    before any route runs."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and len(scope.get("query_string", b"")) > MAX_QUERY:
            response = error_reply(414, f"the query string is longer than {MAX_QUERY} bytes")
            return await response(scope, receive, send)
        await self.app(scope, receive, send)


__all__ = ["ApiError", "MAX_BODY", "MAX_QUERY", "create_app", "game_json"]
