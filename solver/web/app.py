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

The routes are plain functions of the request; what they share (the
default rules, the solvers, the distributions kept) is ``request.app.state.web``
(``WebState``).
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import logging
import os
import signal
import sys
import threading
import time
import warnings
from collections import OrderedDict
from pathlib import Path
from functools import partial
from typing import Any, Awaitable, Callable

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from yatzy.api import Solver, check_whole
from yatzy.database import DatabaseBusy, DatabaseFull
from yatzy.errors import InputError, TableError
from yatzy.tables.announce import TableWarning
from yatzy.game import KINDS, Game
from yatzy.players.objectives import Objective, Score, objective_from
from yatzy.position.scoring import bank_after
from yatzy.position.actions import Action, Advice
from yatzy.rules.ruleset import KEYS, PRESETS, Rules, parse_rules
from yatzy.rules.words import LANGS, box_name, message
from yatzy.session import Session, SessionError, bonus_pace
from yatzy.tables.plan import value_plan
from yatzy.web import words as page_words
from yatzy.web.bodies import BodyError, json_body
from yatzy.web.budget import Budget, Refused
from yatzy.web.connections import WholeBody, no_paths, retry_after
from yatzy.web.fair import WRITES, Fair, background
from yatzy.web.family import family
from yatzy.web.guard import CLIENT, Guard
from yatzy.web.openapi import DOCUMENT
from yatzy.web.seal import Seal
from yatzy.web.shared import SharedGames
from yatzy.web.table_routes import table_routes

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024          # bytes of a request body
MAX_QUERY = 2048              # bytes of a query string
MAX_TEXT = 200                # characters of one query value or a move
MAX_RULE_SETS = 16            # solvers kept open (the least recently used is closed first)
BODY_SECONDS = 10.0           # a request body must arrive within this
DISTRIBUTIONS_KEPT = 32
GAME_THREADS = 2              # one-page games' requests worked out at once (``off_loop``)
WAIT_FOR_TABLE = 2.0          # seconds a request waits for a table before 503
ESTIMATE_GAMES = 2000         # games an estimated distribution plays (Maxi, saved rolls)
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'")


LOG = logging.getLogger("yatzy.web")


class ApiError(Exception):
    """An answer other than 200: ``status``, a one-line message and ``code``,
    the kind of error (the page words it in the reader's language)."""

    def __init__(self, status: int, message: str, code: str = "input", *,
                 retry: float | None = None, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.extra, self.retry = status, code, extra, retry


def reply(obj: object, status: int = 200, headers: dict | None = None) -> Response:
    return Response(json.dumps(obj, separators=(",", ":"), allow_nan=False), status,
                    headers, media_type="application/json")


def error_reply(status: int, text: str, code: str = "input", retry: float | None = None,
                **extra: Any) -> Response:
    """One JSON line with ``code``; a 429 says when to ask again
    (``Retry-After``: ``retry`` seconds, else 1)."""
    line = no_paths(" ".join(str(text).split())) or "error"     # no server paths shown
    headers = {"Retry-After": retry_after(retry)} if status == 429 or retry else None
    return reply({"error": line, "code": code, **extra}, status, headers)


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
    digits = text[1:] if text.startswith("-") else text
    if not text.isascii() or not digits.isdigit() or len(text) > 6:
        raise ApiError(400, f"{name} must be a whole number, not {text[:20]!r}")
    return check_whole(int(text), name, low, high)


async def body(request: Request) -> dict:
    """The request's JSON object, at most ``MAX_BODY`` bytes."""
    size = request.headers.get("content-length", "0")
    if not size.isdigit():
        raise ApiError(400, "bad Content-Length", "body")
    if int(size) > MAX_BODY:
        raise ApiError(413, f"the body is larger than {MAX_BODY} bytes", "body")
    data = bytearray()
    try:
        with anyio.fail_after(BODY_SECONDS):           # a body that trickles in is cut off
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_BODY:
                    raise ApiError(413, f"the body is larger than {MAX_BODY} bytes", "body")
    except TimeoutError:
        raise ApiError(408, f"the body took longer than {BODY_SECONDS:g} s to arrive",
                       "body") from None
    try:
        obj = json_body(bytes(data))     # bounded: depth, digits (one 400 line otherwise)
    except BodyError as e:
        raise ApiError(400, str(e), "body") from None
    if not isinstance(obj, dict):
        raise ApiError(400, "the body must be a JSON object", "body")
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


def build_times(clock: dict, done: int, total: int) -> dict:
    """A build's progress for ``/api/status`` and a 503: ``done``, ``total``
    (work units), ``seconds`` since the build's first report and
    ``seconds_left`` at the speed since then (``None`` until 3 % of the work
    is done); ``clock`` keeps the build's start (a new build, a smaller
    ``done`` or another ``total``, starts it again)."""
    now = time.monotonic()
    if not clock or done < clock["done"] or total != clock["total"]:
        clock.update(since=now, first=done)
    clock.update(done=done, total=total)
    spent = now - clock["since"]
    work = done - clock["first"]
    left = spent * (total - done) / work if work >= 0.03 * total and total else None
    return {"done": done, "total": total, "seconds": round(spent, 1),
            "seconds_left": None if left is None else round(left, 1)}


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


# --------------------------------------------------------------- answers
def action_json(action: Action) -> dict:
    return {"text": str(action), **action.as_dict()}


def advice_json(advice: Advice, top: int | None = None) -> list[dict]:
    return [action_json(a) for a in advice.actions[:top]]


def labels(rules: Rules) -> dict:
    """Box names and the scorecard's other rows in every language.

    >>> labels(parse_rules("nordic"))["nb"]["boxes"]["full_house"]
    'hus'
    """
    rows = ("sum", "bonus", "total", "yahtzee_bonus", "bank", "weighted")
    return {lang: {"boxes": {b.name: box_name(b.name, lang) for b in rules.boxes},
                   **{key: message(key, lang) for key in rows}} for lang in LANGS}


def human_moved(game: Game) -> bool:
    """Whether a person has made a move that undo can take back."""
    return any(game.players[m.player].is_human for m in game.moves)


def protokoll_by_seat(game: Game) -> list[dict]:
    """``Game.protokoll`` with several columns grouped by seat: each row's
    ``cells[seat]`` is the list of that seat's columns (one column: the value)."""
    n = game.rules.columns
    rows = game.protokoll()
    if n == 1:
        return rows
    return [{**row, "cells": [row["cells"][i:i + n] for i in range(0, len(row["cells"]), n)]}
            for row in rows]


def game_json(game: Game, coach: bool = True, session: Session | None = None,
              **extra: Any) -> dict:
    """The game (``Game.to_dict``) and what the page shows of it: the
    advice only when a person is to decide (a computer's turn shows none;
    ``coach=False``: none, for the shared tables, without computing it),
    the expected final score of every seat, the upper par of every column;
    with the game's ``session``, the score pad's data (``family``: the
    loss ledger, who leads, the bonus in words, the end review)."""
    deciding = not game.is_over and not game.needs_roll and game.player.is_human
    rules = game.rules
    expected = [game.expected_score(seat) for seat in range(len(game.players))]
    played = [sum(t.player == seat for t in game.turns) for seat in range(len(game.players))]
    return {
        "game": game.to_dict(), "rules": rules.spec,
        "players": [{"name": p.name, "kind": p.kind, "human": p.is_human}
                    for p in game.players],
        "turn_player": game.turn_player, "dice": list(game.dice or ()) or None,
        "kept": None if game.kept is None else list(game.kept),
        "rerolls": game.rerolls, "needs_roll": game.needs_roll, "is_over": game.is_over,
        "dice_count": rules.dice, "faces": rules.faces,
        "columns": rules.columns, "column_weights": list(rules.column_weights),
        "values": game.values,
        "turns_each": rules.n_boxes * rules.columns, "turns_played": played,
        "scores": list(game.scores()), "expected_scores": expected,
        "par": [[None if p is None else round(p, 1) for p in map(bonus_pace, card.columns)]
                for card in game.cards],
        "ranking": [{"place": p, "seat": s, "score": sc} for p, s, sc in game.ranking()],
        "protokoll": protokoll_by_seat(game),
        "legal": [str(a) for a in game.legal_actions()],
        "advice": advice_json(game.advice()) if deciding and coach else None,
        "expected": None if game.is_over else expected[game.turn_player],
        "last_move": game.moves[-1].text if game.moves else None,
        "last_player": game.moves[-1].player if game.moves else None,
        "can_undo": bool(game.moves), "can_redo": bool(game.redo_moves),
        "can_undo_human": human_moved(game),
        "labels": labels(rules),
        # saved rolls: each seat's bank, and what stopping now would add to it
        "bank": [card.bank for card in game.cards] if rules.saved_rolls else None,
        "bank_if_stopped": bank_after(rules, game.rerolls)
        if rules.saved_rolls and not game.is_over and not game.needs_roll else None,
        **({} if session is None else {"family": family(session)}), **extra}


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


async def solver_for_game(state: WebState, spec: str) -> Solver:
    """The solver of a game's rules (its table opened, or solved on demand
    where that takes seconds; else 422 with the command that solves it)."""
    return await state.solvers.get(spec)


async def game_of(request: Request, obj: dict) -> Game:
    doc = obj.get("game")
    if not isinstance(doc, dict):
        raise ApiError(400, "game must be a game document (a JSON object)", "bad_game")
    spec = doc.get("rules")
    if not isinstance(spec, str) or len(spec) > MAX_TEXT:
        raise ApiError(400, "game: rules must be a rules spec", "bad_game")
    solver = await solver_for_game(web(request), spec)
    try:
        return Game.from_dict(web(request).seal.open(doc), solver)
    except InputError as e:
        raise ApiError(400, str(e), "bad_game") from None


async def new_game(request: Request) -> Response:
    state = web(request)
    obj = await body(request)
    players = obj.get("players", ["Player"])
    if not isinstance(players, list) or not all(
            isinstance(p, str) and len(p) <= 40 for p in players):
        raise ApiError(400, "players must be a list of names (NAME or NAME=optimal)", "players")
    seed = obj.get("seed")
    solver = await solver_for_game(state, text_field(obj, "rules", state.default))
    game = Game(solver, players, seed=seed)
    return answer(request, game)


def answer(request: Request, game: Game, **extra: Any) -> Response:
    """The game's answer with its session's data (``game_json``), its dice
    seed sealed until the game is over (``yatzy.web.seal``)."""
    state = web(request)
    out = game_json(game, session=state.session(game), **extra)
    out["game"] = state.seal.close(out["game"], game.is_over)
    return reply(out)


async def game_state(request: Request) -> Response:
    return answer(request, await game_of(request, await body(request)))


def points_field(obj: dict) -> int:
    value = obj.get("points")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10_000:
        raise ApiError(400, "points must be a whole number 0..10000", "pad_points")
    return value


SESSION_STATUS = {"not_yours": 403, "not_admin": 403, "fair_undo": 409}


async def session_of(request: Request, obj: dict) -> Session:
    """The session over the posted game document: the page holds every seat."""
    return web(request).session(await game_of(request, obj))


def session_step(step: Callable[[], Any]) -> None:
    """A step of the session; its refusal as one line (4xx with its kind)."""
    try:
        step()
    except SessionError as e:
        raise ApiError(SESSION_STATUS.get(e.kind, 400), str(e), e.kind) from None


async def game_pad(request: Request) -> Response:
    """Score-pad mode: ``{"game", "box", "points", "column"?}`` writes the
    points in the box for the person to move, no dice entered
    (``yatzy.scorepad``: only points the box can take under the rules)."""
    obj = await body(request)
    box = text_field(obj, "box").strip()
    points = points_field(obj)
    column = obj.get("column")
    if column is not None and (isinstance(column, bool) or not isinstance(column, int)
                               or not 1 <= column <= 99):
        raise ApiError(400, "column must be a column number", "pad_box")
    session = await session_of(request, obj)
    game = session.game
    if game.is_over:
        raise ApiError(400, "the game is over", "over")
    if not game.player.is_human:
        raise ApiError(409, f"it is {game.player.name}'s turn, not a person's", "not_computer")
    try:
        session.write(box, points, column)
    except InputError as e:
        code = getattr(e, "kind", "pad_box")         # an unknown box: the rules' own line
        raise ApiError(400, str(e), code if code.startswith("pad_") else "pad_box",
                       **{k: v for k, v in getattr(e, "fields", {}).items()
                          if k == "values"}) from None
    return answer(request, game)


async def game_move(request: Request) -> Response:
    obj = await body(request)
    move = text_field(obj, "move").strip()
    session = await session_of(request, obj)
    game = session.game
    auto = move.lower() == "auto"
    if auto and game.is_over:
        raise ApiError(400, "the game is over", "over")
    if auto and game.player.is_human:
        raise ApiError(409, f"it is {game.player.name}'s turn, not a computer's",
                       "not_computer")
    deciding = not game.is_over and not game.needs_roll and game.player.is_human
    before = game.advice() if deciding else None
    seat = game.turn_player
    session_step(session.play_auto if auto else partial(session.play, move))
    verdict = None
    if before is not None:
        chosen = before.find(game.moves[-1].text)
        verdict = {"seat": seat, "chosen": action_json(chosen),
                   "best": action_json(before.best), "loss": chosen.loss}
    return answer(request, game, verdict=verdict)


def humans_only(obj: dict) -> bool:
    to = obj.get("to", "move")
    if to not in ("move", "human"):
        raise ApiError(400, "to must be \"move\" or \"human\"")
    return to == "human"


async def game_undo(request: Request) -> Response:
    """Take back the last move; with ``"to": "human"`` a person's last move
    and every move since (``Session.undo``: under the fair rule not past
    dice drawn since, 409 ``fair_undo``)."""
    obj = await body(request)
    human = humans_only(obj)
    session = await session_of(request, obj)
    session_step(session.undo_write if human else partial(session.undo, one=True))
    return answer(request, session.game)


async def game_redo(request: Request) -> Response:
    """Play again the last move undone; with ``"to": "human"`` also the
    computer moves after it, up to a person's next move."""
    obj = await body(request)
    human = humans_only(obj)
    session = await session_of(request, obj)
    session_step(session.redo_write if human else partial(session.redo, one=True))
    return answer(request, session.game)


def off_loop(route: Callable[[Request], Awaitable[Response]]):
    """``route`` run in a worker thread with an event loop of its own (at
    most ``GAME_THREADS`` at once): a one-page game's request computes
    advice and a game's document, tens of milliseconds of Python that would
    otherwise hold the server's event loop, and every shared table's move
    waiting behind it.  The request's body is read here first (whole
    already, ``WholeBody``: at most 64 KiB), so the route needs nothing of
    the server's loop."""
    async def in_thread(request: Request) -> Response:
        await request.body()
        return await anyio.to_thread.run_sync(lambda: asyncio.run(route(request)),
                                              limiter=web(request).game_threads)
    in_thread.__doc__ = route.__doc__
    return in_thread


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
    Route("/api/game/new", off_loop(new_game), methods=["POST"]),
    Route("/api/game/state", off_loop(game_state), methods=["POST"]),
    Route("/api/game/move", off_loop(game_move), methods=["POST"]),
    Route("/api/game/undo", off_loop(game_undo), methods=["POST"]),
    Route("/api/game/redo", off_loop(game_redo), methods=["POST"]),
    Route("/api/game/pad", off_loop(game_pad), methods=["POST"]),
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
    shared = table_routes(games, lambda spec: solver_for_game(state, spec), shared_view)
    app = Starlette(routes=ROUTES + shared, exception_handlers={
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
    from yatzy.web.practice import PRACTICE_ROUTES, Practice, ratings_folder   # Practice view
    app.state.practice = Practice(ratings_folder(db), lambda: state.default,
                                  lambda spec: solver_for_game(state, spec), state.budget)
    app.router.routes += PRACTICE_ROUTES
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
