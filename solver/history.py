"""The games a table has finished, and each player's best, kept in the
shared tables' SQLite file (``tables.sqlite`` in the data folder, the
file ``yatzy serve`` keeps and ``yatzy where`` names): the ``results``
table, one row per seat of a finished game.  The file's whole schema
(``MIGRATIONS``, version 6) is here, outside the web package, so that
``yatzy play`` and ``yatzy history`` open the same file without it.

A *family* is the chain of tables played one after another at the same
table (a table's next game keeps its first table's code), or, for a game
played on one page alone or at the terminal, its players' names (and, for
a page, the address that sent it).  A player is known by name (compared
without case) within one family and rule set: a best belongs to the
family that played it, and no other table's games change it.

Each row says whose word it is (``source``): ``table``, the server's own
record of a shared table's game (or the terminal's), or ``page``, a game a
page says it finished (the server never saw its dice), kept in families
of its own.  The rows are bounded per client (``PER_CLIENT``, that
client's oldest dropped first) and in all (``MAX_ROWS``: the oldest rows
of the client holding the most are dropped), so no client can push out
another's rows or grow the file past that by finishing games.

    >>> import sqlite3
    >>> db = sqlite3.connect(":memory:")
    >>> for step in (SCHEMA + ";" + SCHEMA_6).split(";"):
    ...     _ = db.execute(step) if "games" not in step else None
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
from pathlib import Path

from yatzy.database import data_folder, open_database

MAX_ROWS = 100_000             # results kept in all
PER_CLIENT = 10_000            # results kept per client (its oldest dropped first)
TOP = 5                        # the best scores of a family shown

SCHEMA = """CREATE TABLE results (
        id INTEGER PRIMARY KEY, game TEXT NOT NULL, family TEXT NOT NULL,
        rules TEXT NOT NULL, at REAL NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        who TEXT NOT NULL, score INTEGER NOT NULL, place INTEGER NOT NULL, loss REAL,
        UNIQUE (game, seat));
    CREATE INDEX results_family ON results (family, rules, score);
    CREATE INDEX results_who ON results (who, rules, score)"""
SCHEMA_6 = """ALTER TABLE games ADD COLUMN client TEXT NOT NULL DEFAULT '';
    ALTER TABLE results ADD COLUMN source TEXT NOT NULL DEFAULT 'table';
    ALTER TABLE results ADD COLUMN client TEXT NOT NULL DEFAULT '';
    CREATE INDEX results_client ON results (client, id);
    CREATE TABLE builds (
        rules TEXT NOT NULL, what TEXT NOT NULL, client TEXT NOT NULL,
        bytes INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (rules, what));
    CREATE TABLE keys (name TEXT PRIMARY KEY, value BLOB NOT NULL)"""


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
    # 4: the next game proposed, not yet accepted; a count of claims, releases, proposals
    """ALTER TABLE games ADD COLUMN proposal TEXT;
       ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
       CREATE INDEX games_expiry ON games (finished, updated)""",
    # 5: a short code to join by, the family of tables played one after another,
    #    and the results of finished games (``SCHEMA``)
    """ALTER TABLE games ADD COLUMN short TEXT;
       ALTER TABLE games ADD COLUMN family TEXT;
       CREATE UNIQUE INDEX games_short ON games (short);
       """ + SCHEMA,
    # 6: whose word a result is (the server's record of a table, or a page's) and the
    #    client it is charged to; the tables the server built for the network; its keys
    SCHEMA_6,
    # 7: the join limits' buckets, shared by every server process (``NewTables.by_short``)
    """CREATE TABLE buckets (
           name TEXT NOT NULL, client TEXT NOT NULL, tokens REAL NOT NULL, at REAL NOT NULL,
           PRIMARY KEY (name, client)) WITHOUT ROWID;
       CREATE INDEX buckets_at ON buckets (name, at)""",
)
"""The steps of the shared tables' file (``yatzy.database.open_database``):
the tables and their changes, seats, the next game, proposals, short codes
and families, the results of finished games, whose word each is, and the
tables built for the network (``yatzy.web.budget``), the join limits'
buckets."""
FILE = "tables.sqlite"        # the file's name in the data folder


def default_path() -> Path:
    """The shared tables' file: ``tables.sqlite`` in the data folder
    (``yatzy.database.data_folder``), the file ``yatzy serve`` keeps."""
    return data_folder() / FILE


def open_history(path: str | Path | None = None) -> sqlite3.Connection:
    """The shared tables' file at ``path`` (default ``default_path``), its
    schema brought to ``MIGRATIONS``; one ``InputError`` line for a file
    that cannot be used (not a database, locked, newer than this yatzy)."""
    return open_database(default_path() if path is None else path, MIGRATIONS)


def who(name: str) -> str:
    """A player's name as the history compares it (case and spaces aside).

    >>> who("  Kari ") == who("KARI")
    True
    """
    return " ".join(name.split()).casefold()


def page_family(names: list[str]) -> str:
    """The family of a game played on one page: its players' names.

    >>> page_family(["Kari", "OLA "])
    'names:kari|ola'
    """
    return "names:" + "|".join(who(n) for n in names)


def game_key(doc: dict) -> str:
    """A finished game's identity (its rules, seed, players and moves), so
    the same game sent again is recorded once."""
    ident = {k: doc.get(k) for k in ("rules", "seed", "players", "moves", "played")}
    return "game:" + hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:32]


def record(db: sqlite3.Connection, game: str, family: str, rules: str,
           seats: list[tuple[str, int, int, float | None]], at: float | None = None, *,
           source: str = "table", client: str = "") -> bool:
    """Record a finished game (in the caller's transaction): each seat's
    ``(name, score, place, loss)``, whose word it is (``source``) and the
    client it is charged to; False if it was recorded before."""
    if db.execute("SELECT 1 FROM results WHERE game = ? LIMIT 1", (game,)).fetchone():
        return False
    at = time.time() if at is None else at
    db.executemany("INSERT INTO results (game, family, rules, at, seat, name, who, score, "
                   "place, loss, source, client) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [(game, family, rules, at, seat, name, who(name), score, place, loss,
                     source, client) for seat, (name, score, place, loss) in enumerate(seats)])
    trim(db, client)
    return True


def trim(db: sqlite3.Connection, client: str) -> None:
    """Drop ``client``'s oldest rows past ``PER_CLIENT``, then, past
    ``MAX_ROWS`` in all, the oldest of the client that holds the most."""
    mine = db.execute("SELECT count(*) FROM results WHERE client = ?", (client,)).fetchone()[0]
    if mine > PER_CLIENT:
        db.execute("DELETE FROM results WHERE id IN (SELECT id FROM results WHERE client = ? "
                   "ORDER BY id LIMIT ?)", (client, mine - PER_CLIENT))
    count = db.execute("SELECT count(*) FROM results").fetchone()[0]
    if count > MAX_ROWS:
        most = db.execute("SELECT client FROM results GROUP BY client ORDER BY count(*) DESC "
                          "LIMIT 1").fetchone()[0]
        db.execute("DELETE FROM results WHERE id IN (SELECT id FROM results WHERE client = ? "
                   "ORDER BY id LIMIT ?)", (most, count - MAX_ROWS))


def history(db: sqlite3.Connection, family: str, rules: str, names: list[str],
            game: str | None = None) -> dict:
    """What the page shows after a game: the family's games at these rules
    (``games``), its best scores (``top``: name, score, when), and each
    player's best and games in this family (``players``; ``new``: the best
    is this ``game``'s, and beat an earlier one or is the first)."""
    games = db.execute("SELECT count(DISTINCT game) FROM results WHERE family = ? AND rules = ?",
                       (family, rules)).fetchone()[0]
    top = [{"name": n, "score": s, "at": a, "this": g == game} for n, s, a, g in db.execute(
        "SELECT name, score, at, game FROM results WHERE family = ? AND rules = ? "
        "ORDER BY score DESC, at LIMIT ?", (family, rules, TOP))]
    players = []
    for name in names:
        rows = db.execute("SELECT score, game FROM results WHERE family = ? AND who = ? "
                          "AND rules = ? ORDER BY score DESC, at",
                          (family, who(name), rules)).fetchall()
        if not rows:
            continue
        best, best_game = rows[0]
        mine = [s for s, g in rows if g == game]
        earlier = [s for s, g in rows if g != game]
        new = bool(mine) and mine[0] == best and (not earlier or best > max(earlier))
        players.append({"name": name, "best": best, "games": len(rows), "new": new,
                        "first": bool(mine) and not earlier, "this": best_game == game})
    return {"games": games, "top": top, "players": players}


def overview(db: sqlite3.Connection, rules: str | None = None,
             names: list[str] | None = None) -> list[dict]:
    """Every rule set played (or ``rules`` only), most games first: its
    games (``games``), best scores (``top``: name, score, when) and each
    player's best and games (``players``, best first; only ``names`` when
    given, compared as ``who``).

    >>> db = sqlite3.connect(":memory:")
    >>> for step in (SCHEMA + ";" + SCHEMA_6).split(";"):
    ...     _ = db.execute(step) if "games" not in step else None
    >>> _ = record(db, "g1", "a", "nordic", [("Kari", 250, 1, None), ("Ola", 201, 2, None)], 1.0)
    >>> _ = record(db, "g2", "b", "nordic", [("ola", 270, 1, None)], 2.0)
    >>> [(r["rules"], r["games"], [p["name"] + " " + str(p["best"]) for p in r["players"]])
    ...  for r in overview(db)]
    [('nordic', 2, ['ola 270', 'Kari 250'])]
    >>> overview(db, "yahtzee"), len(overview(db, names=["KARI"])[0]["players"])
    ([], 1)
    """
    specs = [r for (r,) in db.execute(
        "SELECT rules FROM results GROUP BY rules ORDER BY count(DISTINCT game) DESC, rules")
        if rules is None or r == rules]
    wanted = None if names is None else {who(n) for n in names}
    out = []
    for spec in specs:
        games = db.execute("SELECT count(DISTINCT game) FROM results WHERE rules = ?",
                           (spec,)).fetchone()[0]
        top = [{"name": n, "score": s, "at": a} for n, s, a in db.execute(
            "SELECT name, score, at FROM results WHERE rules = ? ORDER BY score DESC, at "
            "LIMIT ?", (spec, TOP))]
        players = []
        for key, best, count in db.execute(
                "SELECT who, max(score), count(*) FROM results WHERE rules = ? GROUP BY who "
                "ORDER BY max(score) DESC, who", (spec,)):
            if wanted is not None and key not in wanted:
                continue
            name = db.execute("SELECT name FROM results WHERE rules = ? AND who = ? "
                              "ORDER BY at DESC LIMIT 1", (spec, key)).fetchone()[0]
            players.append({"name": name, "best": best, "games": count})
        out.append({"rules": spec, "games": games, "top": top, "players": players})
    return out


__all__ = ["FILE", "MAX_ROWS", "MIGRATIONS", "PER_CLIENT", "SCHEMA", "SCHEMA_6", "default_path", "game_key", "history",
           "open_history", "overview", "page_family", "record", "who"]
