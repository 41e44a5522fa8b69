"""A server of shared tables alone, for the tests that kill and restart one:
``python shared_server.py DB TABLES PORT [--no-limits]``."""

import sys

import uvicorn
from starlette.applications import Starlette

from yatzy.api import Solver
from yatzy.web.shared import LIMITS, SharedGames
from yatzy.web.table_routes import table_routes


def describe(game) -> dict:
    legal = game.legal_actions()
    return {"turn_player": game.turn_player, "dice": list(game.dice or ()),
            "scores": list(game.scores()), "needs_roll": game.needs_roll,
            "is_over": game.is_over, "a_score": next((str(a) for a in legal if str(a).startswith("score")), None)}


def make_app(db: str, tables: str, limits: dict = LIMITS) -> Starlette:
    solvers: dict[str, Solver] = {}

    async def solver_for(spec: str) -> Solver:
        if spec not in solvers:
            solvers[spec] = Solver(spec, tables=tables)
            solvers[spec].table
        return solvers[spec]

    return Starlette(routes=table_routes(SharedGames(db), solver_for, describe, limits))


if __name__ == "__main__":
    db, tables, port = sys.argv[1:4]
    # every test client is 127.0.0.1: the load test lifts the per-client limits
    limits = {"create": (1e6, 1e6), "move": (1e6, 1e6)} if "--no-limits" in sys.argv else LIMITS
    # idle kept-alive connections are held a minute (uvicorn's default, 5 s):
    # on a loaded machine a test's client may pause longer between two
    # requests, and a connection closed just as it is reused reads as a reset
    uvicorn.run(make_app(db, tables, limits), host="127.0.0.1", port=int(port),
                log_level="warning", timeout_keep_alive=60)
