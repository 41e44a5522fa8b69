"""The OpenAPI 3.1 document of the API, served at ``/openapi.json``.

Kept by hand, next to the routes of ``app``; a test checks that every route
is described and every described path is a route.
"""

from __future__ import annotations


def _query(name: str, description: str, required: bool = False, kind: str = "string") -> dict:
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": {"type": kind}}


RULES = _query("rules", "Rules spec, PRESET[:key=value,...] (default: the server's rules).")
CARD = _query("card", "Filled boxes, box=points,... (empty: a new game).")

ERROR = {"description": "Bad input (400, 409, 422), a body or query too large (413, 414), "
                        "a table not ready yet (503), or an internal error (500): one line, "
                        "and a code naming the kind of error.",
         "content": {"application/json": {"schema": {
             "type": "object", "required": ["error", "code"],
             "properties": {"error": {"type": "string"},
                            "code": {"enum": ["input", "body", "bad_game", "players", "no_table",
                                              "columns", "solving", "table", "busy", "full",
                                              "over", "not_computer", "nothing_undo",
                                              "nothing_redo", "http", "internal"]},
                            "command": {"type": "string", "description":
                                        "with no_table: the command that solves the table"},
                            "progress": {"type": "object"}}}}}}

ACTION = {"type": "object", "required": ["text", "action"], "properties": {
    "text": {"type": "string", "examples": ["keep 5 6", "score chance (23)"]},
    "action": {"enum": ["keep", "score"]},
    "dice": {"type": "array", "items": {"type": "integer"}},
    "box": {"type": "string"}, "points": {"type": ["integer", "null"]},
    "expected_final_score": {"type": "number"}, "loss": {"type": "number"}}}

GAME_DOC = {"type": "object", "description": "A game as Game.to_dict() writes it.",
            "required": ["yatzy_game", "rules", "players", "moves", "played"], "properties": {
                "yatzy_game": {"const": 1}, "rules": {"type": "string"},
                "seed": {"type": ["integer", "string"], "description": "The dice seed; "
                         "sealed by the server (sealed:...) until the game is over"},
                "players": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "kind": {"type": "string"}}}},
                "moves": {"type": "array", "items": {"type": "string"}},
                "played": {"type": "integer"},
                "drawn": {"type": "array", "items": {"type": "integer"}},
                "draw_numbers": {"type": "array", "items": {"type": "integer"},
                                 "description": "The draw of each drawn roll"},
                "draws_made": {"type": "integer",
                               "description": "Draws made, undone ones included"}}}

GAME_VIEW = {"type": "object", "description": "The game, its protokoll and the advice.",
             "required": ["game", "protokoll", "players", "turn_player"], "properties": {
                 "game": {"$ref": "#/components/schemas/Game"},
                 "rules": {"type": "string"},
                 "players": {"type": "array", "items": {"type": "object"}},
                 "turn_player": {"type": "integer"},
                 "dice": {"type": ["array", "null"], "items": {"type": "integer"}},
                 "kept": {"type": ["array", "null"], "items": {"type": "integer"}},
                 "rerolls": {"type": "integer"}, "needs_roll": {"type": "boolean"},
                 "is_over": {"type": "boolean"},
                 "scores": {"type": "array", "items": {"type": "integer"}},
                 "ranking": {"type": "array", "items": {"type": "object"}},
                 "protokoll": {"type": "array", "items": {"type": "object", "properties": {
                     "key": {"type": "string"}, "kind": {"enum": ["box", "sum", "total"]},
                     "cells": {"type": "array", "items": {"type": ["integer", "null"]}}}}},
                 "legal": {"type": "array", "items": {"type": "string"}},
                 "advice": {"type": ["array", "null"],
                            "items": {"$ref": "#/components/schemas/Action"}},
                 "expected": {"type": ["number", "null"]},
                 "verdict": {"type": ["object", "null"], "description":
                             "After a person's keep or score: the action chosen, the best "
                             "and the loss."},
                 "can_undo": {"type": "boolean"}, "can_redo": {"type": "boolean"},
                 "can_undo_human": {"type": "boolean", "description":
                                    "whether a person's move is there to undo"},
                 "columns": {"type": "integer"}, "turns_each": {"type": "integer"},
                 "turns_played": {"type": "array", "items": {"type": "integer"}},
                 "expected_scores": {"type": "array", "items": {"type": ["number", "null"]}},
                 "par": {"type": "array", "description": "Per seat and column: the upper "
                         "boxes' points against the pace of the bonus (null: decided or none "
                         "filled)", "items": {"type": "array",
                                              "items": {"type": ["number", "null"]}}},
                 "labels": {"type": "object"},
                 "bank": {"type": ["array", "null"], "items": {"type": "integer"},
                          "description": "Saved rolls: each seat's rolls banked (null: the "
                                         "rules save none)"},
                 "bank_if_stopped": {"type": ["integer", "null"], "description":
                                     "Saved rolls: the rolls that writing a box now banks "
                                     "(null: none, or no decision now)"}}}


def _get(summary: str, params: list[dict], result: dict | None = None) -> dict:
    return {"get": {"summary": summary, "parameters": params, "responses": {
        "200": {"description": "OK", "content": {"application/json": {
            "schema": result or {"type": "object"}}}},
        "4XX": {"$ref": "#/components/responses/Error"},
        "503": {"$ref": "#/components/responses/Error"}}}}


def _post(summary: str, properties: dict, required: list[str]) -> dict:
    return {"post": {"summary": summary, "requestBody": {"required": True, "content": {
        "application/json": {"schema": {"type": "object", "required": required,
                                        "properties": properties}}}},
        "responses": {"200": {"description": "The game after it", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/GameView"}}}},
            "4XX": {"$ref": "#/components/responses/Error"},
            "503": {"$ref": "#/components/responses/Error"}}}}


GAME = {"$ref": "#/components/schemas/Game"}
TO = {"enum": ["move", "human"], "default": "move"}

CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"},
        "description": "The table's join code (16 characters)."}
AFTER = {"type": "integer", "description": "The table's change count the change was made at "
                                           "(409 with the current state if it has moved on)"}
TOKEN = {"type": "string", "description": "The seat token (tables where only a seat's "
                                          "phone moves)"}


def _table(method: str, summary: str, properties: dict, required: list[str]) -> dict:
    op = {"summary": summary, "parameters": [CODE], "responses": {
        "200": {"description": "The table's state", "content": {"application/json": {}}},
        "4XX": {"$ref": "#/components/responses/Error"}}}
    if properties:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": required, "properties": properties}}}}
    return {method: op}


# Shared tables (yatzy.web.shared, .table_routes): one game kept by the server for every phone.
TABLE_PATHS = {
    "/api/table": {"post": {
        "summary": "Make a shared table: answers its code, link and admin token",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "properties": {
                "rules": {"type": "string"}, "players": {"type": "array", "items": {
                    "type": "string"}},
                "who_moves": {"enum": ["any", "seat"]},
                "game": {**GAME, "description": "A game as it stands, shared instead of a new one"},
                "follows": {"type": "string", "description": "The table whose next game this "
                            "is: its phones move on, seats kept (200 with that next game if "
                            "it has one already); needs that table's admin token"},
                "admin": {"type": "string", "description": "The admin token of the table "
                          "followed"}}}}}},
        "responses": {"201": {"description": "The table", "content": {"application/json": {}}},
                      "4XX": {"$ref": "#/components/responses/Error"}}}},
    "/api/table/{code}": {**_table("get", "The table's state: the game and its change count",
                                   {}, []),
                          **_table("delete", "Delete the table (its admin token)",
                                   {"admin": {"type": "string"}}, ["admin"])},
    "/api/table/{code}/move": _table("post", "Play a move on the table", {
        "move": {"type": "string"}, "after": AFTER, "token": TOKEN}, ["move", "after"]),
    "/api/table/{code}/undo": _table("post", "Take back the table's last move",
                                     {"after": AFTER, "token": TOKEN}, ["after"]),
    "/api/table/{code}/redo": _table("post", "Play again the move undone",
                                     {"after": AFTER, "token": TOKEN}, ["after"]),
    "/api/join/{short}": {"get": {
        "summary": "The table of a short code (6 letters a person reads aloud): its code and "
                   "link; rate-limited (429) so that codes cannot be guessed",
        "parameters": [{"name": "short", "in": "path", "required": True,
                        "schema": {"type": "string"}, "description": "6 letters, e.g. KXMTRA"}],
        "responses": {"200": {"description": "The table", "content": {"application/json": {}}},
                      "4XX": {"$ref": "#/components/responses/Error"}}}},
    "/api/history": {"post": {
        "summary": "Record a finished game played on one page (once) and answer the history "
                   "of its players: games, best scores, personal bests",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["game"], "properties": {"game": GAME}}}}},
        "responses": {"200": {"description": "The history", "content": {"application/json": {}}},
                      "4XX": {"$ref": "#/components/responses/Error"}}}},
    "/api/table/{code}/pad": _table("post", "Score-pad mode: write the points in a box, no "
                                    "dice entered (only points the box can take)",
                                    {"box": {"type": "string"}, "points": {"type": "integer"},
                                     "column": {"type": "integer"}, "after": AFTER,
                                     "token": TOKEN}, ["box", "points", "after"]),
    "/api/table/{code}/claim": _table("post", "Claim a seat for this phone: its token",
                                      {"seat": {"type": "integer"}, "token": TOKEN}, ["seat"]),
    "/api/table/{code}/release": _table("post", "Free a seat (its token or the admin's)",
                                        {"seat": {"type": "integer"}, "token": TOKEN},
                                        ["seat", "token"]),
    "/api/table/{code}/next": _table("post", "Propose the next game (the admin's starts at once)",
                                     {"players": {"type": "array", "items": {"type": "string"}},
                                      "rules": {"type": "string"},
                                      "who_moves": {"enum": ["any", "seat"]}, "token": TOKEN},
                                     ["players", "token"]),
    "/api/table/{code}/next/accept": _table("post", "Agree to the next game proposed (the admin,"
                                            " or every claimed seat, starts it)",
                                            {"token": TOKEN, "id": {
                                                "type": "integer", "description": "The "
                                                "proposal's id (the state's proposal.id): 409 "
                                                "if another is proposed now"}},
                                            ["token", "id"]),
    "/api/table/{code}/next/cancel": _table("post", "Withdraw the next game proposed",
                                            {"token": TOKEN}, ["token"]),
    "/api/table/{code}/history": _table("get", "Every change of the table with its time", {}, []),
    "/api/table/{code}/qr.svg": {"get": {
        "summary": "The table's link as a QR code, for the phones' cameras",
        "parameters": [CODE], "responses": {"200": {"description": "SVG",
                                                    "content": {"image/svg+xml": {}}}}}},
    "/api/table/{code}/events": {"get": {
        "summary": "Server-Sent Events: the table's state at once and after every change",
        "parameters": [CODE], "responses": {"200": {"description": "An event stream",
                                                    "content": {"text/event-stream": {}}}}}},
}

# The Practice view (yatzy.web.practice): the puzzles of yatzy train, answers explained.
PRACTICE_CODES = ["practice_rules", "player", "puzzle", "answer", "not_possible", "players_full",
                  "rate"]
PLAYER = _query("player", "A player's name (1 to 32 letters, digits, spaces): their rating "
                          "on this server.")
PUZZLE = {"type": "object", "properties": {
    "key": {"type": "string", "description": "card|dice|rerolls, as yatzy train keeps it"},
    "card": {"type": "string"}, "dice": {"type": "array", "items": {"type": "integer"}},
    "rerolls": {"type": "integer"}, "kind": {"enum": ["first keep", "second keep", "box choice"]},
    "level": {"type": "integer"}, "review": {"type": "boolean", "description":
                                           "a position the player got wrong before"},
    "rows": {"type": "array", "items": {"type": "object"}, "description":
             "the card as protokoll rows: key, kind (box, sum, total), value"},
    "scores": {"type": "object", "description": "points each box that may be filled now takes"}}}
PRACTICE_PATHS = {
    "/api/puzzles": _get("Puzzles from real positions, as yatzy train draws them (daily: the "
                         "same for everyone on a date; with a player: their positions due for "
                         "review first)", [
        RULES, _query("seed", "Seed of the noisy games (0 .. 2^53 - 1; default: random).",
                      False, "integer"),
        _query("count", "Puzzles, 1 .. 20 (default 5).", False, "integer"),
        _query("level", "0 any, 1 easy, 2 medium, 3 hard.", False, "integer"),
        _query("daily", "1: the puzzles of the day (UTC), as yatzy train --daily."),
        _query("date", "With daily=1: the puzzles of this date, YYYY-MM-DD."), PLAYER],
        {"type": "object", "properties": {
            "rules": {"type": "string"}, "seed": {"type": ["integer", "null"]},
            "date": {"type": ["string", "null"]}, "source": {"enum": ["train", "daily"]},
            "labels": {"type": "object"}, "puzzles": {"type": "array", "items": PUZZLE}}}),
    "/api/puzzle/answer": {"post": {
        "summary": "An answer to a puzzle: its loss, the best action and why (recorded "
                   "under the player's name if one is given)",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["puzzle", "answer"], "properties": {
                "rules": {"type": "string"}, "puzzle": {"type": "string"},
                "answer": {"type": "string", "examples": ["keep 5 6", "score chance",
                                                         "reroll all"]},
                "lang": {"enum": ["en", "nb", "sv"]}, "player": {"type": "string"},
                "source": {"enum": ["train", "daily", "review"]},
                "seconds": {"type": "number"}}}}}},
        "responses": {"200": {"description": "The verdict", "content": {"application/json": {
            "schema": {"type": "object", "properties": {
                "loss": {"type": "number"}, "best_choice": {"type": "boolean"},
                "answer": {"$ref": "#/components/schemas/Action"},
                "best": {"$ref": "#/components/schemas/Action"},
                "sentence": {"type": "string"}, "sentences": {"type": "object"},
                "explanation": {"type": "array", "description": "the loss in exact parts "
                                "(part, points, chosen, best), adding up to it"},
                "breakdown": {"type": "array", "description": "what the page lists: every "
                              "part of the loss, largest first, the rest as one part "
                              "(\"other\"), adding up to it (part, points, shown: rounded "
                              "to 2 decimals so that they add up to the loss as shown, "
                              "parts, names: per language)"},
                "bonus_chance": {"type": "number"}, "runner_up": {"type": ["object", "null"]},
                "recorded": {"type": "boolean"}, "stats": {"type": "object"}}}}}},
            "4XX": {"$ref": "#/components/responses/Error"},
            "503": {"$ref": "#/components/responses/Error"}}}},
    "/api/practice/stats": _get("A player's rating: mean loss per decision with its 95% "
                                "interval, overall, by kind and by day", [
        RULES, {**PLAYER, "required": True}]),
    "/api/practice/level": _get("A rating in plain words: the level and the points a game "
                                "given away against perfect play, for answers kept in the "
                                "browser", [RULES, _query("n", "Answers given.", True, "integer"),
                                            _query("mean", "Their mean loss per decision.",
                                                   False, "number")]),
    "/api/practice/scale": _get("The rating scale: the mean loss per decision of the "
                                "optimal, greedy, simple and noisy players, with their mean "
                                "final scores (state measuring until measured, once)", [RULES],
                                {"type": "object", "properties": {
                                    "state": {"enum": ["measuring", "ready", "failed"]},
                                    "games": {"type": "integer"},
                                    "anchors": {"type": ["array", "null"]}}}),
}
ERROR["content"]["application/json"]["schema"]["properties"]["code"]["enum"] += PRACTICE_CODES

DOCUMENT = {
    "openapi": "3.1.0",
    "info": {"title": "yatzy", "version": "1",
             "description": "Optimal-strategy advice for Nordic Yatzy and its variants. "
                            "The page's games are posted with each move; shared tables are kept by the server."},
    "paths": {
        "/": {"get": {"summary": "The web page", "responses": {"200": {
            "description": "HTML", "content": {"text/html": {}}}}}},
        "/sw.js": {"get": {"summary": "The page's service worker (keeps the page for "
                                      "a reload while the server is away)", "responses": {
            "200": {"description": "JavaScript", "content": {"text/javascript": {}}}}}},
        "/manifest.webmanifest": {"get": {"summary": "The web app manifest", "responses": {
            "200": {"description": "Manifest", "content": {"application/manifest+json": {}}}}}},
        "/openapi.json": {"get": {"summary": "This document", "responses": {"200": {
            "description": "OpenAPI", "content": {"application/json": {}}}}}},
        "/words.json": {"get": {"summary": "The catalogue of words (solver/rules/catalogue): "
                                          "every language's, or with lang one language's; "
                                          "with an ETag",
                                "parameters": [{"name": "lang", "in": "query", "required": False,
                                                "schema": {"enum": ["en", "nb", "sv"]}}],
                                "responses": {
            "200": {"description": "The catalogue", "content": {"application/json": {}}},
            "304": {"description": "Not modified"},
            "400": {"description": "An unknown language"}}}},
        "/api/rules": _get("Presets (each available or not, and why), keys and player kinds; "
                           "with spec, the resolved rules and their labels",
                           [_query("spec", "A rules spec to describe.")]),
        "/api/status": _get("Tables being opened or solved (with progress) and "
                            "distributions running", []),
        "/api/ev": _get("Expected final score from the start of the next turn", [RULES, CARD]),
        "/api/advise": _get("Every action in a position, ranked, with its loss", [
            RULES, CARD, _query("dice", "The dice, 11256 or 1,1,2,5,6.", True),
            _query("rerolls", "Rerolls left: 2 after the first roll, then 1, then 0.", True,
                   "integer"),
            _query("top", "Only the best K actions.", False, "integer"),
            _query("theta", "Play for the risk: the certainty equivalent under theta "
                   "(-1..1; 0: the expected score).", False, "number"),
            _query("target", "Play for the largest chance to reach this score.", False,
                   "integer"),
            _query("opponent", "Play to win against this opponent's card (repeat for each).")],
            {"type": "object", "properties": {"actions": {
                "type": "array", "items": {"$ref": "#/components/schemas/Action"}}}}),
        "/api/distribution": _get("Final-score distribution of optimal play from the card "
                                  "(computed in a worker thread, kept)", [RULES, CARD]),
        "/api/game/new": _post("Start a game", {
            "rules": {"type": "string"}, "players": {
                "type": "array", "minItems": 1, "maxItems": 6, "items": {
                    "type": "string", "description": "NAME or NAME=optimal|greedy|simple"}},
            "seed": {"type": "integer"}}, []),
        "/api/game/state": _post("The game's view (after a reload or an import)",
                                 {"game": GAME}, ["game"]),
        "/api/game/move": _post("Play a move: roll, roll 11256, keep 5 6, reroll all, "
                                "score BOX, or auto (a computer's move, on a computer's "
                                "turn only: 409 on a person's)",
                                {"game": GAME, "move": {"type": "string"}}, ["game", "move"]),
        "/api/game/undo": _post("Take back the last move (to: human: every computer move "
                                "since a person's last move, and that move)",
                                {"game": GAME, "to": TO}, ["game"]),
        "/api/game/redo": _post("Play again the last move undone (to: human: and the "
                                "computer moves after it)", {"game": GAME, "to": TO}, ["game"]),
        "/api/game/pad": _post("Score-pad mode: write the points in a box for the person to "
                               "move, no dice entered (only points the box can take now)",
                               {"game": GAME, "box": {"type": "string"},
                                "points": {"type": "integer"}, "column": {"type": "integer"}},
                               ["game", "box", "points"]),
        **TABLE_PATHS,
        **PRACTICE_PATHS,
    },
    "components": {"schemas": {"Action": ACTION, "Game": GAME_DOC, "GameView": GAME_VIEW},
                   "responses": {"Error": ERROR}},
}
