"""The page's Practice view on the server: the puzzles of ``yatzy train``,
each answer's loss and its exact explanation, and a rating kept under a
player's name when the player asks for it.

The same library calls as ``yatzy train`` (``yatzy.cli.train``):
``yatzy.research.puzzles.draw`` draws the puzzles from a noisy player's
games (``daily_seed``: the same puzzles for everyone on a date, as
``yatzy train --daily``), ``Solver.explain`` splits an answer's loss into
exact parts and words it in en, nb or sv, and ``yatzy.research.ratings``
records the answers.

Ratings on the server: one ratings database per player name
(``yatzy.research.ratings.Ratings``: WAL, versioned schema, spaced
repetition), each a file of a folder beside the shared tables' database
(``ratings_folder``), named by a hash of the name.  One file per player,
rather than a table in the shared tables' file, because each schema is
versioned by the file's ``user_version`` and migrated on its own; and the
file of a player is what ``yatzy train --stats --db FILE`` reads.  A name
is not a password: whoever knows it can add answers to that rating.  A
file is made by a player's first recorded answer, never by a read.

Routes (``PRACTICE_ROUTES``, functions of the request; the view's state is
``app.state.practice``):

* ``GET /api/puzzles?rules=&seed=&count=&level=&daily=&date=&player=``
  -> ``{"rules", "seed", "date", "level", "source", "labels", "puzzles"}``
* ``POST /api/puzzle/answer`` ``{"rules"?, "puzzle", "answer", "lang"?,
  "player"?, "source"?, "seconds"?}`` -> the answer's loss, the best
  action, the explanation (sentence and parts), and with a player the rating
* ``GET /api/practice/stats?rules=&player=`` -> the player's rating
* ``GET /api/practice/scale?rules=`` -> the rating scale: the mean loss per
  decision of known players (``puzzles.calibrate``, ``SCALE_GAMES`` games
  each), ``"state": "measuring"`` until it is measured (once, in a thread;
  then kept in ``scale.sqlite`` of the folder)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import re
import secrets
import threading
import unicodedata
import weakref
from pathlib import Path
from typing import Awaitable, Callable

import anyio
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from yatzy.api import Solver
from yatzy.database import data_folder
from yatzy.errors import InputError
from yatzy.players.explain import Explanation, parts_path, whole_plan
from yatzy.position.actions import Action
from yatzy.research import puzzles as pz
from yatzy.research.ratings import Answer, Rating, Ratings, Stats
from yatzy.rules.ruleset import parse_rules
from yatzy.rules.words import LANGS, box_name
from yatzy.tables.plan import describe_bytes, describe_seconds, estimate, parts_plan
from yatzy.web.answers import (
    MAX_TEXT,
    ApiError,
    action_json,
    arg,
    body,
    build_times,
    labels,
    reply,
    text_field,
    whole_arg,
)
from yatzy.web.budget import Budget
from yatzy.web.guard import CLIENT
from yatzy.web.shared import Limiter
from yatzy.web.shared import TableRefused as Refused

MAX_COUNT = 20                 # puzzles in one request
MAX_KEY = 400                  # characters of a puzzle (card|dice|rerolls)
MAX_NAME = 32                  # characters of a player's name
MAX_PLAYERS = 10_000           # rating files one server keeps
PLAYER_BYTES = 8 << 20         # the ceiling of one player's ratings file (then 507)
RATINGS_BYTES = 1 << 30        # all players' files: no new player past this (507)
MAX_SEED = (1 << 53) - 1       # seeds the page's JavaScript holds exactly
MAX_SECONDS = 24 * 3600.0
PARTS_WAIT = 60.0              # seconds a request waits for the explanation table (then 503)
ANNOUNCED_WAIT = 1.0           # ... once its whole build is announced: the 503 says what, how
                               # big and how long, and the page shows it with the bar
SCALE_GAMES = 100              # games per policy measuring the scale, as yatzy train --stats
SOURCES = ("train", "daily", "review")
RECORDS = (2.0, 30.0)          # answers recorded per client: per second, at once
NEW_PLAYERS = (10 / 3600, 10.0)  # new ratings files per client: per second (10 an hour), at once
NAME = re.compile(r"[^\W_](?:[\w .'-]{0,%d}[^\W_])?" % (MAX_NAME - 2))


def ratings_folder(db: str | Path | None) -> Path:
    """Where the players' ratings live: beside the shared tables' database
    ``db`` (``tables.sqlite`` -> ``tables-ratings/``), else
    ``web-ratings/`` in the data folder (``yatzy.database.data_folder``).

    >>> ratings_folder("/srv/yatzy/tables.sqlite").as_posix()
    '/srv/yatzy/tables-ratings'
    """
    if db:
        path = Path(db)
        return path.with_name(path.stem + "-ratings")
    return data_folder() / "web-ratings"


def check_name(name: str) -> str:
    """A player's name, NFC, trimmed: letters or digits first and last,
    spaces, ``. ' - _`` between, at most ``MAX_NAME`` characters.

    >>> check_name("  Åsa Berg ")
    'Åsa Berg'
    """
    text = unicodedata.normalize("NFC", name).strip()
    if not NAME.fullmatch(text):
        raise ApiError(400, f"player: a name of 1 to {MAX_NAME} letters, digits, spaces "
                            "and . ' - _ (letters or digits first and last)", "player")
    return text


def player_file(folder: Path, name: str) -> Path:
    """The ratings file of a player (the same for any case of the name)."""
    digest = hashlib.sha256(check_name(name).casefold().encode()).hexdigest()[:32]
    return folder / f"{digest}.sqlite"


def whole_build(solver: Solver) -> dict:
    """The announcement of the whole explanations table's build (the
    practice's 503 ``progress.build``): ``what``, ``rules``, its ``bytes``
    on disk and about how many ``seconds`` it takes, measured on this
    machine now (``players.explain.whole_plan``, ``tables.plan.estimate``)."""
    plan = whole_plan(solver.rules, solver.tables)
    return {"what": "explanations", "rules": solver.rules.spec, "bytes": plan.file_size,
            "seconds": round(estimate(plan), 1)}


class Practice:
    """What the routes share: the players' folder, the default rules, the
    solvers (``solver_for``) and the parts tables being built."""

    def __init__(self, folder: Path, default: Callable[[], str],
                 solver_for: Callable[[str], Awaitable[Solver]], budget: Budget | None = None):
        self.folder, self.default, self.solver_for = folder, default, solver_for
        self.budget = budget or Budget()            # a new parts table: presets, or within it
        self.building: dict[str, tuple[weakref.ref, dict]] = {}   # rules -> (solver, status)
        self.lock = threading.Lock()
        self.writes = threading.Lock()            # one new player file at a time
        self.scales: dict[str, dict] = {}         # rules -> the scale's state (measured once)
        self.records, self.new_players = Limiter(*RECORDS), Limiter(*NEW_PLAYERS)

    def limit(self, limiter: Limiter, request: Request) -> None:
        """429 once a client goes over ``limiter``'s rate."""
        try:
            with self.lock:
                limiter.take(request.client.host if request.client else "?")
        except Refused as e:
            raise ApiError(429, str(e), "rate", retry=e.retry) from None

    async def solver(self, spec: str) -> Solver:
        """The solver of ``spec`` with its value and parts tables open (the
        parts table built in a thread on first use, seconds: a request waits
        for it up to ``PARTS_WAIT``, then gets 503 ``solving``; a whole
        build, once announced (``progress.build``), up to ``ANNOUNCED_WAIT``)."""
        if len(spec) > MAX_TEXT:
            raise ApiError(400, f"rules is longer than {MAX_TEXT} characters")
        rules = parse_rules(spec)
        if rules.play.refuse("puzzles") or rules.saved_rolls:     # before any table is opened
            raise ApiError(400, f"rules {rules.spec}: puzzles need one column and no saved "
                                "rolls", "practice_rules")
        solver = await self.solver_for(spec)
        if solver.theta:
            raise ApiError(400, f"rules {rules.spec}: puzzles need one column, no saved rolls "
                                "and the expected score", "practice_rules")
        if not parts_path(solver.rules, solver.tables).exists():
            self.budget.charge(solver.rules, "parts", lambda: parts_plan(solver.rules).disk_bytes,
                               CLIENT.get())
        with self.lock:
            found = self.building.get(rules.spec)
            if found is None or found[0]() is not solver or found[1]["state"] == "failed":
                for spec in [k for k, (ref, _) in self.building.items() if ref() is None]:
                    del self.building[spec]              # solvers the server has closed
                status = {"state": "solving", "done": 0, "total": 0}
                self.building[rules.spec] = (weakref.ref(solver), status)
                threading.Thread(target=self._build, args=(solver, status), daemon=True).start()
            status = self.building[rules.spec][1]
        waited = 0.0
        while status["state"] == "solving" and waited < (ANNOUNCED_WAIT if "build" in status
                                                         else PARTS_WAIT):
            await anyio.sleep(0.05)
            waited += 0.05
        if status["state"] == "ready":
            return solver
        if status["state"] == "failed":
            raise ApiError(503, f"rules {rules.spec}: the explanation table failed: "
                                f"{status['error']}", "table")
        build = status.get("build")
        what = ("the explanation table is being built" if build is None else
                f"building the explanation table ({describe_bytes(build['bytes'])}, about "
                f"{describe_seconds(build['seconds'])})")
        raise ApiError(503, f"rules {rules.spec}: {what}; try again shortly", "solving",
                       progress=dict(status))

    @staticmethod
    def _build(solver: Solver, status: dict) -> None:
        """Open (or build) the parts table, its progress in ``status`` (not
        in the value table's status, which the solver's own callback keeps)."""
        clock: dict = {}
        try:
            parts = solver.parts(progress=lambda done, total: status.update(
                build_times(clock, done, total)))
            if not parts_path(solver.rules, solver.tables).exists():
                status.update(build=whole_build(solver))      # announced before it starts
            parts.need(0)       # puzzles come from every stage: the whole table, stored
            status.update(state="ready")
        except (InputError, OSError, MemoryError, RuntimeError) as e:   # RuntimeError: at exit
            status.update(state="failed", error=str(e))

    def scale(self, solver: Solver) -> dict:
        """The rating scale of the solver's rules (``puzzles.calibrate``, as
        ``yatzy train --stats``): stored in ``scale.sqlite`` of the folder
        once measured; measured in a thread on first asking (minutes)."""
        rules = solver.rules
        with self.lock:
            status = self.scales.get(rules.spec)
            if status is None or status["state"] == "failed":
                status = self.scales[rules.spec] = {"state": "measuring", "anchors": None}
                threading.Thread(target=self._measure, args=(solver, status),
                                 daemon=True).start()
            return dict(status)

    def _measure(self, solver: Solver, status: dict) -> None:
        rules, games = solver.rules, SCALE_GAMES
        try:
            with Ratings(self.folder / "scale.sqlite") as db:
                anchors = db.anchors(rules.spec, rules.fingerprint, games, 0)
            if anchors is None:
                anchors = pz.calibrate(solver.table, games)
                with Ratings(self.folder / "scale.sqlite") as db:
                    db.store_anchors(rules.spec, rules.fingerprint, games, 0, anchors)
            status.update(state="ready", games=games, anchors=[a.as_dict() for a in anchors])
        except (InputError, OSError, MemoryError) as e:
            status.update(state="failed", error=str(e))

    def open_player(self, name: str, create: bool) -> Ratings | None:
        """The player's ratings (None if the file is not there and not to
        be made); 507 once the server keeps ``MAX_PLAYERS`` files or
        ``RATINGS_BYTES``; each file grows to at most ``PLAYER_BYTES``."""
        path = player_file(self.folder, name)
        if path.exists():
            return Ratings(path, max_bytes=PLAYER_BYTES)
        if not create:
            return None
        with self.writes:
            if not path.exists() and self.folder.is_dir():
                sizes = [f.stat().st_size for f in self.folder.glob("*.sqlite*")]
                if len(sizes) >= MAX_PLAYERS or sum(sizes) >= RATINGS_BYTES:
                    raise ApiError(507, f"this server keeps at most {MAX_PLAYERS} ratings "
                                        f"and {RATINGS_BYTES >> 20} MiB of them", "players_full")
            return Ratings(path, max_bytes=PLAYER_BYTES)


# ------------------------------------------------------------------ answers
def card_rows(card) -> list[dict]:
    """The card as the game view's protokoll rows, one cell: each box, Sum
    and Bonus after the upper boxes, the yahtzee bonus, Total."""
    rules = card.rules
    rows = []
    last_upper = max((i for i, b in enumerate(rules.boxes) if b.is_upper), default=-1)
    for i, box in enumerate(rules.boxes):
        rows.append({"key": box.name, "kind": "box", "value": card.points[i]})
        if i == last_upper:
            rows.append({"key": "sum", "kind": "sum", "value": card.upper_total})
            if rules.bonus_points:
                done = all(p is not None for b, p in zip(rules.boxes, card.points) if b.is_upper)
                rows.append({"key": "bonus", "kind": "sum",
                             "value": card.bonus if card.bonus or done else None})
    if rules.yahtzee_bonus:
        rows.append({"key": "yahtzee_bonus", "kind": "sum", "value": card.yahtzee_bonus})
    rows.append({"key": "total", "kind": "total", "value": card.score})
    return rows


def puzzle_json(solver: Solver, puzzle: pz.Puzzle, review: bool = False) -> dict:
    """What the page shows of a puzzle: the card, the dice, the rerolls
    left and the points each box that may be filled now would take (not
    the answer)."""
    advice = solver.advise(puzzle.card, puzzle.dice, puzzle.rerolls)
    scores = {a.box: a.points for a in advice.actions if a.kind == "score"}
    return {"key": puzzle.key, "card": str(puzzle.card), "dice": list(puzzle.dice),
            "rerolls": puzzle.rerolls, "kind": puzzle.kind, "level": puzzle.level,
            "review": review, "rows": card_rows(puzzle.card),
            "scores": {b.name: scores[b.name] for b in solver.rules.boxes if b.name in scores}}


def explanation_json(e: Explanation) -> dict:
    return {"action": action_json(e.action), "sentence": {lang: e.sentence(lang) for lang in LANGS},
            **e.as_dict()}


def why_not(solver: Solver, puzzle: pz.Puzzle, want: Action) -> str:
    """Why an answer is not among the puzzle's actions."""
    if want.kind == "score":
        rules = solver.rules
        name = box_name(want.box, "en")
        if puzzle.card.points[rules.box_index(want.box)] is not None:
            return f"{name} is already filled"
        return f"{name} may not be filled now"
    if puzzle.rerolls == 0:
        return "no rerolls left: choose a box"
    return f"{want} is not possible with dice {' '.join(map(str, puzzle.dice))}"


def empty_stats(spec: str) -> Stats:
    none = (math.nan, math.nan)
    return Stats(spec, Rating("all", 0, math.nan, none),
                 tuple(Rating(k, 0, math.nan, none) for k in pz.KINDS), (), 0)


LEVELS = (("expert", 2.0), ("strong", 8.0), ("good", 20.0), ("learning", 40.0),
          ("beginner", math.inf))     # points a game given away against perfect play, at most
LEVEL_ANSWERS = 10                    # answers before a level is named


def level_of(rules, n: int, mean: float | None) -> dict:
    """A Practice rating in plain words: the mean loss per decision as
    points a game given away against perfect play (a game's decisions:
    a keep before each reroll and the score, ``boxes x columns x rolls``),
    and the level that names it (``LEVELS``); ``more`` answers are needed
    first while there are fewer than ``LEVEL_ANSWERS``.

    >>> level_of(parse_rules("nordic"), 25, 0.3)
    {'level': 'good', 'points': 14.0, 'n': 25, 'more': 0}
    >>> level_of(parse_rules("nordic"), 3, 0.1)["more"]
    7
    """
    if n < LEVEL_ANSWERS or mean is None or not math.isfinite(mean):
        return {"level": None, "points": None, "n": n, "more": max(LEVEL_ANSWERS - n, 0)}
    decisions = rules.n_boxes * rules.columns * rules.rolls
    points = round(max(mean, 0.0) * decisions, 0)
    level = next(name for name, most in LEVELS if points <= most)
    return {"level": level, "points": points, "n": n, "more": 0}


def stats_json(stats: Stats, player: str | None, rules=None) -> dict:
    out = {"player": player, **stats.as_dict()}
    if rules is not None:
        out["level"] = level_of(rules, stats.overall.n, stats.overall.mean)
    return out


# ------------------------------------------------------------------ input
def seed_arg(request: Request) -> int | None:
    text = arg(request, "seed", "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 16 or int(text) > MAX_SEED:
        raise ApiError(400, f"seed must be a whole number 0 .. {MAX_SEED}, not {text[:20]!r}")
    return int(text)


def flag_arg(request: Request, name: str) -> bool:
    text = arg(request, name, "0").strip().lower()
    if text not in ("0", "1", "true", "false", ""):
        raise ApiError(400, f"{name} must be 1 or 0, not {text[:20]!r}")
    return text in ("1", "true")


def date_arg(request: Request) -> dt.date:
    text = arg(request, "date", "").strip()
    if not text:
        return dt.datetime.now(dt.timezone.utc).date()
    try:
        date = dt.date.fromisoformat(text)
    except ValueError:
        raise ApiError(400, f"date {text[:20]!r}: expected YYYY-MM-DD") from None
    if not 2000 <= date.year <= 2100:
        raise ApiError(400, f"date {text}: expected a year 2000 .. 2100")
    return date


def lang_of(value: object) -> str:
    if value not in LANGS:
        raise ApiError(400, f"lang must be one of {', '.join(LANGS)}")
    return value


def seconds_of(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 <= value <= MAX_SECONDS):
        raise ApiError(400, f"seconds must be a number 0 .. {MAX_SECONDS:g}")
    return float(value)


def player_of(value: object) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ApiError(400, "player must be a name (a string)", "player")
    return check_name(value)


# ------------------------------------------------------------------ routes
def practice_of(request: Request) -> Practice:
    """The Practice view's state, kept by the app (``app.state.practice``)."""
    return request.app.state.practice



async def puzzles(request: Request) -> Response:
    practice = practice_of(request)
    solver = await practice.solver(arg(request, "rules", practice.default()))
    count = whole_arg(request, "count", 1, MAX_COUNT, required=False) or 5
    level = whole_arg(request, "level", 0, len(pz.LEVELS) - 1, required=False) or 0
    seed = seed_arg(request)
    daily = flag_arg(request, "daily")
    player = player_of(arg(request, "player", ""))
    spec = solver.rules.spec
    if daily:
        if seed is not None:
            raise ApiError(400, "seed and daily do not go together")
        date = date_arg(request)
        seed, source = pz.daily_seed(date, solver.rules), "daily"
    else:
        if request.query_params.get("date"):
            raise ApiError(400, "date goes with daily=1")
        date, source = None, "train"
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)

    def work() -> list[dict]:
        due: list[pz.Puzzle] = []
        if player and not daily:             # positions got wrong before come back first
            db = practice.open_player(player, create=False)
            if db is not None:
                with db:
                    for key in db.due(spec, limit=count):
                        try:
                            due.append(pz.Puzzle.parse(key, solver.table))
                        except InputError:
                            pass             # of other rules of the same spec
        found = pz.draw(solver.table, count - len(due), seed, level) if count > len(due) else []
        return ([puzzle_json(solver, p, True) for p in due]
                + [puzzle_json(solver, p) for p in found])

    out = await anyio.to_thread.run_sync(work)
    return reply({"rules": spec, "seed": None if daily else seed,
                  "date": date.isoformat() if date else None, "level": level,
                  "source": source, "dice_count": solver.rules.dice,
                  "faces": solver.rules.faces, "labels": labels(solver.rules),
                  "puzzles": out})


async def answer(request: Request) -> Response:
    practice = practice_of(request)
    obj = await body(request)
    solver = await practice.solver(text_field(obj, "rules", practice.default()))
    key = obj.get("puzzle")
    if not isinstance(key, str) or not key or len(key) > MAX_KEY:
        raise ApiError(400, f"puzzle must be a puzzle's key, card|dice|rerolls (at most "
                            f"{MAX_KEY} characters)", "puzzle")
    try:
        puzzle = pz.Puzzle.parse(key, solver.table)
    except InputError as e:
        raise ApiError(400, str(e), "puzzle") from None
    if puzzle.card.is_full:
        raise ApiError(400, "the card is full: there is nothing left to decide", "puzzle")
    text = text_field(obj, "answer").strip()
    lang = lang_of(obj.get("lang", "en"))
    player = player_of(obj.get("player"))
    source = obj.get("source", "train")
    if source not in SOURCES:
        raise ApiError(400, f"source must be one of {', '.join(SOURCES)}")
    seconds = seconds_of(obj.get("seconds"))
    try:
        want = Action.parse(text, solver.rules)
    except InputError as e:
        raise ApiError(400, f"answer {text[:40]!r}: {e}", "answer") from None
    if player:
        practice.limit(practice.records, request)
        if not player_file(practice.folder, player).exists():
            practice.limit(practice.new_players, request)

    def work() -> dict:
        why = solver.explain(puzzle.card, puzzle.dice, puzzle.rerolls)
        chosen = next((e for e in why if e.action == want), None)
        if chosen is None:
            raise ApiError(400, why_not(solver, puzzle, want), "not_possible")
        loss = chosen.action.loss
        out = {"rules": solver.rules.spec, "puzzle": puzzle.key, "kind": puzzle.kind,
               "loss": loss, "best_choice": chosen.action == chosen.best,
               "answer": action_json(chosen.action), "best": action_json(chosen.best),
               "sentence": chosen.sentence(lang), "sentences": {
                   lg: chosen.sentence(lg) for lg in LANGS},
               **chosen.as_dict(), "recorded": False}
        if chosen.action == chosen.best:
            runner = next((e for e in why if e.action.loss > 0), None)
            out["runner_up"] = None if runner is None else explanation_json(runner)
        if player:
            with practice.open_player(player, create=True) as db:
                db.record(Answer(solver.rules.spec, puzzle.key, puzzle.kind,
                                 str(chosen.action), str(chosen.best), loss, source, seconds))
                out["recorded"] = True
                out["stats"] = stats_json(db.stats(solver.rules.spec), player, solver.rules)
        return out

    return reply(await anyio.to_thread.run_sync(work))


async def stats(request: Request) -> Response:
    practice = practice_of(request)
    spec = (await practice.solver(arg(request, "rules", practice.default()))).rules.spec
    player = check_name(arg(request, "player"))

    def work() -> dict:
        db = practice.open_player(player, create=False)
        if db is None:
            return stats_json(empty_stats(spec), player, parse_rules(spec))
        with db:
            return stats_json(db.stats(spec), player, parse_rules(spec))

    return reply(await anyio.to_thread.run_sync(work))


async def level(request: Request) -> Response:
    """The level in words of answers kept in the browser: ``n`` and ``mean``."""
    practice = practice_of(request)
    rules = parse_rules(arg(request, "rules", practice.default()))   # words only: no table
    n = whole_arg(request, "n", 0, 10**6)
    text = arg(request, "mean", "").strip()
    try:
        mean = float(text) if text else None
    except ValueError:
        raise ApiError(400, f"mean must be a number, not {text[:20]!r}") from None
    if mean is not None and not (math.isfinite(mean) and 0 <= mean <= 1000):
        raise ApiError(400, "mean must be a loss per decision, 0..1000")
    return reply(level_of(rules, n, mean))


async def scale(request: Request) -> Response:
    practice = practice_of(request)
    solver = await practice.solver(arg(request, "rules", practice.default()))
    return reply({"rules": solver.rules.spec, **practice.scale(solver)})


PRACTICE_ROUTES = [
    Route("/api/puzzles", puzzles), Route("/api/puzzle/answer", answer, methods=["POST"]),
    Route("/api/practice/stats", stats), Route("/api/practice/scale", scale),
    Route("/api/practice/level", level)]


__all__ = ["MAX_COUNT", "PRACTICE_ROUTES", "Practice", "check_name", "level_of",
           "ratings_folder"]
