"""A rating that follows the player: every answer in a small SQLite database.

One file (``default_path()``: ``ratings.sqlite`` in the user's data folder,
``$XDG_DATA_HOME/yatzy`` by default; or any file given), opened by
``yatzy.database`` in WAL mode, so that a process killed mid-write leaves
every committed answer and a valid file.  Every write is one transaction.
The schema is versioned (``PRAGMA user_version``) and ``MIGRATIONS`` bring
an older file up to date in one transaction; a file from a newer program is
refused.  A file that is damaged, locked by another program, full (its
ceiling ``max_bytes``), or deleted while open is one line (``InputError``
from ``yatzy.database``); a write that fails says the answer was not
recorded.

Tables:

* ``answers``      one row per answer: when (UTC, ISO 8601), rules, the
  puzzle (``yatzy.research.puzzles.Puzzle.key``), the kind of decision,
  the answer, the best action, the loss, where the puzzle came from
  (``train``, ``daily``, ``review``, ``log``, ``game``: a decision of a
  game reviewed by ``yatzy play``), seconds taken, the player's name (games)
* ``reviews``      spaced repetition: positions answered wrongly come back,
  first after ``RETRY``, then (each right answer) after 1, 3, 9, 27 days;
  a position right at 27 days leaves the list; a wrong answer starts over
* ``calibration``  the measured anchors of the scale (``puzzles.calibrate``)
  per rules, table fingerprint, games and seed, as JSON

The rating is the mean loss per decision (lower is better) with a 95%
confidence interval, overall, by kind of decision and by day (``stats``).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from yatzy.database import (
    MAX_BYTES,
    check_same,
    data_folder,
    file_id,
    open_database,
    reporting,
    schema_version,
    transaction,
)
from yatzy.errors import InputError
from yatzy.research import plots
from yatzy.research.plots import save_figure
from yatzy.research.puzzles import KINDS, Anchor, loss_summary

MIGRATIONS = (            # step i takes the schema from version i to i + 1
    "CREATE TABLE answers (id INTEGER PRIMARY KEY, at TEXT NOT NULL, rules TEXT NOT NULL, "
    "puzzle TEXT NOT NULL, kind TEXT NOT NULL, answer TEXT NOT NULL, best TEXT NOT NULL, "
    "loss REAL NOT NULL, source TEXT NOT NULL);"
    "CREATE INDEX answers_by_time ON answers (rules, at);"
    "CREATE TABLE reviews (rules TEXT NOT NULL, puzzle TEXT NOT NULL, due TEXT NOT NULL, "
    "interval_days REAL NOT NULL, PRIMARY KEY (rules, puzzle))",
    "ALTER TABLE answers ADD COLUMN seconds REAL;"
    "CREATE TABLE calibration (rules TEXT NOT NULL, fingerprint TEXT NOT NULL, "
    "games INTEGER NOT NULL, seed INTEGER NOT NULL, anchors TEXT NOT NULL, "
    "PRIMARY KEY (rules, fingerprint, games, seed))",
    "ALTER TABLE answers ADD COLUMN player TEXT",
)
SCHEMA_VERSION = len(MIGRATIONS)
RETRY = dt.timedelta(minutes=10)     # a wrong answer's position comes back after this
STEPS_DAYS = (1, 3, 9, 27)           # then after these, one step per right answer
WRONG = 1e-9                         # answers losing more than this are wrong


def default_path() -> Path:
    """``ratings.sqlite`` in the data folder (``yatzy.database.data_folder``:
    ``$YATZY_DATA``, else ``$XDG_DATA_HOME/yatzy``, else ``~/.local/share/yatzy``)."""
    return data_folder() / "ratings.sqlite"


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _stamp(t: dt.datetime) -> str:
    return t.astimezone(dt.timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Answer:
    """One answer to a puzzle."""

    rules: str
    puzzle: str
    kind: str
    answer: str
    best: str
    loss: float
    source: str = "train"
    seconds: float | None = None
    at: dt.datetime | None = None       # default: now
    player: str | None = None           # who decided (a game's seat)


@dataclass(frozen=True)
class Rating:
    """Mean loss per decision over ``n`` answers, with its 95% interval."""

    label: str
    n: int
    mean: float
    ci95: tuple[float, float]

    def as_dict(self) -> dict:
        if self.n == 0:                       # no answers: no mean (JSON has no NaN)
            return {"label": self.label, "n": 0, "mean": None, "ci95": None}
        return {"label": self.label, "n": self.n, "mean": self.mean, "ci95": list(self.ci95)}


@dataclass(frozen=True)
class Stats:
    """The rating of one rules' answers: overall, by kind, by day (UTC)."""

    rules: str
    overall: Rating
    by_kind: tuple[Rating, ...]
    by_day: tuple[Rating, ...]
    due: int                          # positions due for review now

    def as_dict(self) -> dict:
        return {"rules": self.rules, "overall": self.overall.as_dict(),
                "by_kind": [r.as_dict() for r in self.by_kind],
                "by_day": [r.as_dict() for r in self.by_day], "due": self.due}


def _rating(label: str, losses: Sequence[float]) -> Rating:
    mean, ci = loss_summary(losses)
    return Rating(label, len(losses), mean, ci)


class Ratings:
    """The database at ``path`` (created, or migrated, on opening)."""

    def __init__(self, path: str | Path | None = None, max_bytes: int = MAX_BYTES):
        self.path = Path(path) if path is not None else default_path()
        self.db = open_database(self.path, MIGRATIONS, max_bytes=max_bytes)
        self.opened = file_id(self.path)

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with reporting(self.path):
            return self.db.execute(sql, args).fetchall()

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Ratings":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def version(self) -> int:
        return schema_version(self.db)

    # ------------------------------------------------------------ answers
    def record(self, a: Answer) -> None:
        """Store an answer and update the review list, in one transaction."""
        at = a.at or now_utc()
        lost = "the answer was not recorded"
        check_same(self.path, self.opened, lost)
        with reporting(self.path, lost), transaction(self.db):
            self.db.execute(
                "INSERT INTO answers (at, rules, puzzle, kind, answer, best, loss, source, "
                "seconds, player) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_stamp(at), a.rules, a.puzzle, a.kind, a.answer, a.best, float(a.loss),
                 a.source, a.seconds, a.player))
            row = self.db.execute("SELECT interval_days FROM reviews WHERE rules = ? AND "
                                  "puzzle = ?", (a.rules, a.puzzle)).fetchone()
            if a.loss > WRONG:
                self.db.execute("INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, 0)",
                                (a.rules, a.puzzle, _stamp(at + RETRY)))
            elif row is not None:
                later = [d for d in STEPS_DAYS if d > row[0]]
                if not later:
                    self.db.execute("DELETE FROM reviews WHERE rules = ? AND puzzle = ?",
                                    (a.rules, a.puzzle))
                else:
                    self.db.execute("UPDATE reviews SET due = ?, interval_days = ? WHERE "
                                    "rules = ? AND puzzle = ?",
                                    (_stamp(at + dt.timedelta(days=later[0])), later[0],
                                     a.rules, a.puzzle))

    def answers(self, rules: str) -> list[tuple[str, str, float]]:
        """``(at, kind, loss)`` of every answer under ``rules``, oldest first."""
        return self._read("SELECT at, kind, loss FROM answers WHERE rules = ? ORDER BY at, id",
                          (rules,))

    def count(self, rules: str | None = None) -> int:
        if rules is None:
            return int(self._read("SELECT count(*) FROM answers")[0][0])
        return int(self._read("SELECT count(*) FROM answers WHERE rules = ?", (rules,))[0][0])

    def due(self, rules: str, now: dt.datetime | None = None, limit: int = 100) -> list[str]:
        """The positions (puzzle keys) due for review at ``now``, oldest first."""
        return [k for (k,) in self._read(
            "SELECT puzzle FROM reviews WHERE rules = ? AND due <= ? ORDER BY due LIMIT ?",
            (rules, _stamp(now or now_utc()), limit))]

    def stats(self, rules: str, now: dt.datetime | None = None) -> Stats:
        """The rating of ``rules``' answers."""
        rows = self.answers(rules)
        losses = [r[2] for r in rows]
        by_kind = tuple(_rating(k, [r[2] for r in rows if r[1] == k]) for k in KINDS)
        days: dict[str, list[float]] = {}
        for at, _, loss in rows:
            days.setdefault(at[:10], []).append(loss)
        return Stats(rules, _rating("all", losses), by_kind,
                     tuple(_rating(d, v) for d, v in days.items()),
                     len(self.due(rules, now, 1 << 30)))

    # ------------------------------------------------------------ calibration
    def anchors(self, rules: str, fingerprint: str, games: int, seed: int
                ) -> list[Anchor] | None:
        rows = self._read("SELECT anchors FROM calibration WHERE rules = ? AND fingerprint = ? "
                          "AND games = ? AND seed = ?", (rules, fingerprint, games, seed))
        if not rows:
            return None
        row = rows[0]
        return [Anchor(**{**a, "ci95": tuple(a["ci95"])}) for a in json.loads(row[0])]

    def store_anchors(self, rules: str, fingerprint: str, games: int, seed: int,
                      anchors: Sequence[Anchor]) -> None:
        check_same(self.path, self.opened, "the scale was not stored")
        with reporting(self.path, "the scale was not stored"), transaction(self.db):
            self.db.execute("INSERT OR REPLACE INTO calibration VALUES (?, ?, ?, ?, ?)",
                            (rules, fingerprint, games, seed,
                             json.dumps([a.as_dict() for a in anchors])))


def check_database(path: str | Path) -> None:
    """InputError unless the file at ``path`` passes SQLite's integrity check."""
    with reporting(path):
        db = sqlite3.connect(path)
        try:
            result = db.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            db.close()
    if result != "ok":
        raise InputError(f"{path}: {result}")


def plot_stats(stats: Stats, anchors: Sequence[Anchor], path: str | Path) -> None:
    """Mean loss per decision by day (95% intervals), with the anchors of
    the scale as horizontal lines, as a PNG."""
    plots.require()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt


    fig, ax = plt.subplots(figsize=(9, 4.5))
    days = list(stats.by_day)
    x = list(range(len(days)))
    means = [d.mean for d in days]
    err = [[d.mean - d.ci95[0] for d in days], [d.ci95[1] - d.mean for d in days]]
    ax.errorbar(x, means, yerr=err, fmt="o-", capsize=3, label="you (mean loss per decision)")
    for i, a in enumerate(sorted(anchors, key=lambda a: a.mean_loss)):
        if not math.isnan(a.mean_loss):
            ax.axhline(a.mean_loss, ls="--", lw=0.8, color="grey")
            ax.text(1.01, a.mean_loss, f"{a.policy} ({a.final_mean:.0f})", fontsize=7,
                    color="grey", va="center", transform=ax.get_yaxis_transform())
    ax.set_ylim(bottom=0)
    ax.set_xticks(x, [d.label for d in days], rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("mean loss per decision (points)")
    ax.set_title(f"rating, {stats.rules}: {stats.overall.n} answers")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)           # the format of the extension: png, svg, pdf
    plt.close(fig)
