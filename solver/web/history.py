"""The games a table has finished, and each player's best, kept in the
shared tables' SQLite file (``solver.web.shared``'s schema, version 5:
the ``results`` table, one row per seat of a finished game).

A *family* is the chain of tables played one after another at the same
table (a table's next game keeps its first table's code), or, for a game
played on one page alone, its players' names.  A player is known by name
(compared without case), within one rule set.  The rows are bounded
(``MAX_ROWS``, the oldest dropped first) so no client can grow the file
past that by finishing games.

    >>> import sqlite3
    >>> db = sqlite3.connect(":memory:")
    >>> for step in SCHEMA.split(";"):
    ...     _ = db.execute(step)
    >>> record(db, "t1", "fam", "nordic", [("Kari", 250, 1, 3.5), ("Ola", 201, 2, None)], 1.0)
    True
    >>> record(db, "t1", "fam", "nordic", [("Kari", 250, 1, 3.5)], 1.0)    # once per game
    False
    >>> record(db, "t2", "fam", "nordic", [("kari", 231, 2, 1.0), ("Ola", 260, 1, 0.0)], 2.0)
    True
    >>> h = history(db, "fam", "nordic", ["Kari", "Ola"], "t2")
    >>> h["games"], [r["score"] for r in h["top"]], [(b["name"], b["best"], b["new"]) for b in h["players"]]
    (2, [260, 250, 231, 201], [('Kari', 250, False), ('Ola', 260, True)])
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time

MAX_ROWS = 100_000             # results kept in all (the oldest dropped first)
TOP = 5                        # the best scores of a family shown

SCHEMA = """CREATE TABLE results (
        id INTEGER PRIMARY KEY, game TEXT NOT NULL, family TEXT NOT NULL,
        rules TEXT NOT NULL, at REAL NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        who TEXT NOT NULL, score INTEGER NOT NULL, place INTEGER NOT NULL, loss REAL,
        UNIQUE (game, seat));
    CREATE INDEX results_family ON results (family, rules, score);
    CREATE INDEX results_who ON results (who, rules, score)"""


def who(name: str) -> str:
    """A player's name as the history compares it (case and spaces aside).

    >>> who("  Kari ") == who("KARI")
    True
    """
    return " ".join(name.split()).casefold()


def page_family(names: list[str]) -> str:
    """The family of a game played on one page: its players' names."""
    return "names:" + "|".join(who(n) for n in names)


def game_key(doc: dict) -> str:
    """A finished game's identity (its rules, seed, players and moves), so
    the same game sent again is recorded once."""
    ident = {k: doc.get(k) for k in ("rules", "seed", "players", "moves", "played")}
    return "game:" + hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:32]


def record(db: sqlite3.Connection, game: str, family: str, rules: str,
           seats: list[tuple[str, int, int, float | None]], at: float | None = None) -> bool:
    """Record a finished game (in the caller's transaction): each seat's
    ``(name, score, place, loss)``; False if it was recorded before."""
    if db.execute("SELECT 1 FROM results WHERE game = ? LIMIT 1", (game,)).fetchone():
        return False
    at = time.time() if at is None else at
    db.executemany("INSERT INTO results (game, family, rules, at, seat, name, who, score, "
                   "place, loss) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [(game, family, rules, at, seat, name, who(name), score, place, loss)
                    for seat, (name, score, place, loss) in enumerate(seats)])
    count = db.execute("SELECT count(*) FROM results").fetchone()[0]
    if count > MAX_ROWS:
        db.execute("DELETE FROM results WHERE id IN (SELECT id FROM results ORDER BY id "
                   "LIMIT ?)", (count - MAX_ROWS,))
    return True


def history(db: sqlite3.Connection, family: str, rules: str, names: list[str],
            game: str | None = None) -> dict:
    """What the page shows after a game: the family's games at these rules
    (``games``), its best scores (``top``: name, score, when), and each
    player's best and games (``players``; ``new``: the best is this
    ``game``'s, and beat an earlier one or is the first)."""
    games = db.execute("SELECT count(DISTINCT game) FROM results WHERE family = ? AND rules = ?",
                       (family, rules)).fetchone()[0]
    top = [{"name": n, "score": s, "at": a, "this": g == game} for n, s, a, g in db.execute(
        "SELECT name, score, at, game FROM results WHERE family = ? AND rules = ? "
        "ORDER BY score DESC, at LIMIT ?", (family, rules, TOP))]
    players = []
    for name in names:
        rows = db.execute("SELECT score, game FROM results WHERE who = ? AND rules = ? "
                          "ORDER BY score DESC, at", (who(name), rules)).fetchall()
        if not rows:
            continue
        best, best_game = rows[0]
        mine = [s for s, g in rows if g == game]
        earlier = [s for s, g in rows if g != game]
        new = bool(mine) and mine[0] == best and (not earlier or best > max(earlier))
        players.append({"name": name, "best": best, "games": len(rows), "new": new,
                        "first": bool(mine) and not earlier, "this": best_game == game})
    return {"games": games, "top": top, "players": players}


__all__ = ["MAX_ROWS", "SCHEMA", "game_key", "history", "page_family", "record", "who"]
