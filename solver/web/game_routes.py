"""The routes of a game played on one page (``/api/game/...``): the page
posts its game's document with every request (the server keeps nothing of
it), its dice seed sealed until the game is over (``yatzy.web.seal``), and
each step goes through the game's session (``yatzy.session``).  What the
routes share is ``request.app.state.web`` (``yatzy.web.app.WebState``: the
default rules, the solvers, the seal, the losses valued).

* ``POST /api/game/new`` ``{"rules"?, "players"?, "seed"?}``;
  ``/api/game/state`` ``{"game"}`` -> ``game_json``
* ``POST /api/game/move`` ``{"game", "move"}`` (``auto``: the computer's) ->
  ``game_json`` with the ``verdict`` on a person's decision
* ``POST /api/game/undo``, ``/redo`` ``{"game", "to"?}``; ``/api/game/pad``
  ``{"game", "box", "points", "column"?}`` (score-pad mode)
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any, Awaitable, Callable

import anyio

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from yatzy.errors import InputError
from yatzy.game import Game
from yatzy.position.scoring import bank_after
from yatzy.session import Session, SessionError, bonus_pace
from yatzy.web.answers import (
    MAX_TEXT,
    ApiError,
    action_json,
    advice_json,
    body,
    labels,
    reply,
    text_field,
)
from yatzy.web.family import family


def web(request: Request):
    """The server's ``WebState``."""
    return request.app.state.web


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


async def game_of(request: Request, obj: dict) -> Game:
    doc = obj.get("game")
    if not isinstance(doc, dict):
        raise ApiError(400, "game must be a game document (a JSON object)", "bad_game")
    spec = doc.get("rules")
    if not isinstance(spec, str) or len(spec) > MAX_TEXT:
        raise ApiError(400, "game: rules must be a rules spec", "bad_game")
    solver = await web(request).solvers.get(spec)
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
    solver = await state.solvers.get(text_field(obj, "rules", state.default))
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
    most ``GAME_THREADS`` at once, ``WebState.game_threads``): a one-page
    game's request computes advice and a game's document, tens of
    milliseconds of Python that would otherwise hold the server's event
    loop, and every shared table's move waiting behind it.  The request's
    body is read here first (whole already, ``WholeBody``: at most 64 KiB),
    so the route needs nothing of the server's loop."""
    async def in_thread(request: Request) -> Response:
        await request.body()
        return await anyio.to_thread.run_sync(lambda: asyncio.run(route(request)),
                                              limiter=web(request).game_threads)
    in_thread.__doc__ = route.__doc__
    return in_thread


GAME_ROUTES = [
    Route("/api/game/new", off_loop(new_game), methods=["POST"]),
    Route("/api/game/state", off_loop(game_state), methods=["POST"]),
    Route("/api/game/move", off_loop(game_move), methods=["POST"]),
    Route("/api/game/undo", off_loop(game_undo), methods=["POST"]),
    Route("/api/game/redo", off_loop(game_redo), methods=["POST"]),
    Route("/api/game/pad", off_loop(game_pad), methods=["POST"]),
]


__all__ = ["GAME_ROUTES", "game_json"]
