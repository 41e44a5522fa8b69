"""Head-to-head studies: 2 to 6 seats, each with a policy, play the same
number of games; a seat wins a game by finishing strictly above every other
seat (docs/rules.md, "Several players"), equal top scores are a tie.

Policies (``parse_policy``): ``optimal`` (expected score), ``greedy``,
``simple``, ``theta=X`` (the optimal policy of the risk parameter ``X``),
and ``win`` (``yatzy.players.win``: the chance to finish above the others, who are
assumed to play for expected score).  Seats rotate who moves first: in game
``g`` seat ``g mod n`` moves first.

Work is cut into chunks of ``CHUNK`` games, chunk ``c`` playing games ``c *
CHUNK ..``; every seat's dice in a chunk come from its own seeded streams
(``chunk_seed``), so a result depends on the seed and the games only, never
on how many workers play the chunks or in which order.  The policies that
ignore the others play their games independently through the fast
simulator (``yatzy.research.simulate``, game logs give each turn); a ``win`` seat is
played against the others' logged games by the compiled ``yatzy.research.win_seat``.

Chunks run in process, on a ``dask.distributed`` cluster at a scheduler's
address, or on a local cluster of this machine's cores (``run``).  Each
worker opens the memory-mapped tables from the tables folder once (the task
carries the folder's path, never the tables); a chunk whose worker is lost
is run again by Dask, and the results are gathered once per chunk id.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from yatzy.bounds import WrongType, brief, check_games, check_seed, check_whole, check_workers
from yatzy.errors import InputError, missing_extra
from yatzy.players.futures import open_futures
from yatzy.position.scoring import upper_bonus
from yatzy.research import stats
from yatzy.research.simulate import simulate
from yatzy.research.triple_games import run_games
from yatzy.research.win_seat import play_win_seat
from yatzy.rules.objectives import policy_for, policy_names
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.tables.store import open_table
from yatzy.tables.target import open_target
from yatzy.tables.values import check_theta

CHUNK = 20_000           # games a task plays
MIN_SEATS, MAX_SEATS = 2, 6


def parse_policy(text: str, rules: Rules) -> tuple[str, float]:
    """``(kind, theta)`` of ``optimal``, ``greedy``, ``simple``, ``win`` or
    ``theta=X``; with several columns (``triple``) the policies of
    ``yatzy.players.triple`` (``optimal``, ``step``, ``greedy``)."""
    if not isinstance(text, str):
        raise WrongType(f"policy must be text, not {type(text).__name__}")
    text = text.strip()
    if text in policy_names(rules, match=True):
        return policy_for(text, rules, match=True).name, 0.0
    why = rules.play.refuse("theta seat")
    if why:
        raise InputError(f"policy {brief(text)}: rules {rules.spec} seat "
                         f"{', '.join(policy_names(rules, match=True))} ({why})")
    name, eq, value = text.partition("=")
    if name.strip() == "theta" and eq:
        try:
            theta = float(value)
        except ValueError:
            raise InputError(f"policy {brief(text)}: theta must be a number") from None
        return "optimal", check_theta(rules, theta)
    raise InputError(f"unknown policy {brief(text)}: expected optimal, win, theta=X, greedy or simple")


def parse_players(text: str | list[str], rules: Rules) -> tuple[tuple[str, float], ...]:
    """The seats' policies from ``P1,P2,...`` (2 to 6)."""
    items = text.split(",") if isinstance(text, str) else list(text)
    if not MIN_SEATS <= len(items) <= MAX_SEATS:
        raise InputError(f"players: expected {MIN_SEATS} to {MAX_SEATS} policies, "
                         f"not {len(items)}")
    seats = tuple(parse_policy(p, rules) for p in items)
    if sum(kind == "win" for kind, _ in seats) > 1:
        raise InputError("players: at most one win seat (it plays against the others' "
                         "logged games, which must not depend on it)")
    return seats


def check_rules(rules: Rules) -> None:
    """InputError for rules a match cannot play (scores are rebuilt from the
    game logs, and the win seat needs the target tables)."""
    if rules.saved_rolls or rules.yahtzee_bonus:
        raise InputError(f"rules {rules.spec}: match does not support saved rolls or the "
                         "yahtzee bonus")


def policy_name(kind: str, theta: float) -> str:
    return f"theta={theta:g}" if theta else kind


def chunk_seed(seed: int, seat: int, chunk: int) -> int:
    """The seed of a seat's games in a chunk (splitmix-style mixing)."""
    z = (seed * 0x9E3779B97F4A7C15 + (seat + 1) * 0xBF58476D1CE4E5B9
         + (chunk + 1) * 0x94D049BB133111EB) % 2**64
    z = ((z ^ (z >> 31)) * 0xD6E8FEB86659FD93) % 2**64
    return (z ^ (z >> 32)) % 2**63


# ------------------------------------------------------------ one chunk
@lru_cache(maxsize=16)
def _value_table(rules: Rules, tables: str | None, theta: float):
    """A worker's value table (memory-mapped once per process)."""
    return open_table(rules.column_rules, tables, theta=theta)


@lru_cache(maxsize=4)
def _win_tables(rules: Rules, tables: str | None):
    """A worker's target and futures tables (once per process)."""
    return open_target(rules, tables), open_futures(rules, tables)


def logged_games(rules: Rules, tables, kind: str, theta: float, games: int, seed: int):
    """``(scores[i], boxes[i, t], points[i, t])`` of ``games`` games under a
    policy that ignores the others (the fast simulator's game logs)."""
    values = _value_table(rules, tables, theta).values if kind == "optimal" else None
    logs = []
    simulate(rules, values, games, seed, kind, on_log=logs.append, theta=theta)
    boxes = np.concatenate([g.boxes for g in logs]).astype(np.int64)
    points = np.concatenate([g.points for g in logs]).astype(np.int64)
    upper = (points * rules.is_upper[boxes]).sum(axis=1)
    return points.sum(axis=1) + upper_bonus(rules, upper), boxes, points


def own_games(rules: Rules, tables, kind: str, theta: float, games: int, seed: int):
    """``(scores, log)`` of a seat that plays for itself: the final scores
    of ``games`` games and, where a win seat can play against them (one
    card, ``Play.exact``), ``(boxes, points)`` of its logged games, else
    None (several columns: ``yatzy.research.triple_games``)."""
    if not rules.play.exact:
        return _triple_scores(rules, tables, kind, games, seed), None
    scores, boxes, points = logged_games(rules, tables, kind, theta, games, seed)
    return scores, (boxes, points)


def _triple_scores(rules: Rules, tables, kind: str, games: int, seed: int) -> np.ndarray:
    """The final scores of ``games`` games with several columns under
    ``kind`` (``yatzy.research.triple_games``)."""
    return run_games(_value_table(rules, tables, 0.0), rules, games, seed, kind).scores


def _play_win(rules: Rules, tables, games: int, seed: int, first: int, seat: int,
              others: list[tuple[int, np.ndarray, np.ndarray]]) -> np.ndarray:
    """The final scores of a ``win`` seat in games ``first ..`` against the
    logged games ``others`` (``(seat, boxes, points)``), compiled
    (``yatzy.research.win_seat``)."""
    target, futures = _win_tables(rules, tables)
    return play_win_seat(_value_table(rules, tables, 0.0), target, futures, games, seed,
                         first, seat, others)


@dataclass(frozen=True)
class Tally:
    """Per seat the wins, the sum of scores and of squared scores; the games
    with a tie at the top; per pair of seats ``i < j`` (in the order of
    ``itertools.combinations``) the sum of their scores' products, game by
    game (the paired differences' spread)."""

    wins: tuple[int, ...]
    ties: int
    score_sum: tuple[int, ...]
    score_sq: tuple[int, ...]
    score_cross: tuple[int, ...] = ()

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(tuple(map(sum, zip(a, b))) if isinstance(a, tuple) else a + b
                       for a, b in zip(astuple(self), astuple(other))))


@dataclass(frozen=True)
class ChunkResult:
    """What chunk ``chunk`` of ``games`` games gave."""

    chunk: int
    games: int
    tally: Tally


def play_chunk(rules: Rules, tables: str | None, players: tuple[tuple[str, float], ...],
               seed: int, chunk: int, games: int, chunk_size: int = CHUNK) -> ChunkResult:
    """Play chunk ``chunk`` (``games`` games, the first being ``chunk *
    chunk_size``)."""
    scores, logs = [None] * len(players), {}
    for seat, (kind, theta) in enumerate(players):
        if kind != "win":
            scores[seat], log = own_games(rules, tables, kind, theta, games,
                                          chunk_seed(seed, seat, chunk))
            if log is not None:
                logs[seat] = log
    for seat, (kind, _) in enumerate(players):
        if kind == "win":
            if not logs:
                raise InputError("a win seat needs at least one seat that plays for itself")
            others = [(o, *logs[o]) for o in sorted(logs)]
            scores[seat] = _play_win(rules, tables, games, chunk_seed(seed, seat, chunk),
                                     chunk * chunk_size, seat, others)
    table = np.stack(scores, axis=1)                    # [game, seat]
    top = table.max(axis=1)
    at_top = table == top[:, None]
    alone = at_top.sum(axis=1) == 1
    wins = (at_top & alone[:, None]).sum(axis=0)
    cross = tuple(int(table[:, i] @ table[:, j])
                  for i, j in itertools.combinations(range(len(players)), 2))
    return ChunkResult(chunk, games, Tally(tuple(int(w) for w in wins), int((~alone).sum()),
                                           tuple(int(x) for x in table.sum(axis=0)),
                                           tuple(int(x) for x in (table * table).sum(axis=0)),
                                           cross))


# ------------------------------------------------------------ the study
@dataclass(frozen=True)
class Match:
    """The result of ``games`` games between ``players``."""

    rules: Rules
    players: tuple[tuple[str, float], ...]
    games: int
    seed: int
    tally: Tally
    seconds: float = 0.0

    @property
    def wins(self) -> tuple[int, ...]:
        return self.tally.wins

    @property
    def ties(self) -> int:
        return self.tally.ties

    def seat(self, i: int) -> dict:
        n = self.games
        rate = self.wins[i] / n
        half = stats.Z95 * math.sqrt(rate * (1 - rate) / n)
        mean = self.tally.score_sum[i] / n
        var = max(self.tally.score_sq[i] / n - mean * mean, 0.0) * n / max(n - 1, 1)
        return {"policy": policy_name(*self.players[i]), "wins": self.wins[i],
                "win_rate": rate, "ci95": [rate - half, rate + half], "mean": mean,
                "mean_ci95": list(stats.mean_ci95(mean, math.sqrt(var), n))}

    def difference(self, i: int = 0, j: int = 1) -> stats.Paired:
        """Seat ``i``'s score less seat ``j``'s, game by game: the mean, its
        95 % interval and the unpaired one (``stats.Paired``).  The seats'
        dice are independent, so pairing narrows the interval only as far as
        a seat's play follows the other's score (a ``win`` seat)."""
        n = len(self.players)
        if not (0 <= check_whole(i, "seat", 0) < n and 0 <= check_whole(j, "seat", 0) < n) \
                or i == j:
            raise InputError(f"seats {i} and {j}: expected two different seats of 0..{n - 1}")
        a, b = min(i, j), max(i, j)
        cross = self.tally.score_cross[list(itertools.combinations(range(n), 2)).index((a, b))]
        t = self.tally
        return stats.paired_sums(self.games, (t.score_sum[i], t.score_sum[j]),
                                 (t.score_sq[i], t.score_sq[j]), cross)

    def as_dict(self) -> dict:
        return {"rules": self.rules.spec, "games": self.games, "seed": self.seed,
                "ties": self.ties, "seats": [self.seat(i) for i in range(len(self.players))],
                "seconds": self.seconds}


class Chunks(Sequence):
    """``(chunk id, games)`` of every chunk, computed when asked for (a study
    of 10**12 games has 5 * 10**7 chunks: never held as a list)."""

    def __init__(self, games: int, chunk_size: int = CHUNK):
        self.games, self.size = games, chunk_size

    def __len__(self) -> int:
        return -(-self.games // self.size)

    def __getitem__(self, c):
        if isinstance(c, slice):
            return [self[i] for i in range(*c.indices(len(self)))]
        if c < 0:
            c += len(self)
        if not 0 <= c < len(self):
            raise IndexError(c)
        return c, min(self.size, self.games - c * self.size)


def chunks(games: int, chunk_size: int = CHUNK) -> Chunks:
    """``(chunk id, games)`` of every chunk (a lazy sequence)."""
    return Chunks(games, chunk_size)


IN_FLIGHT = 256           # chunks submitted to Dask at a time


def prepare(rules: Rules, tables, players) -> None:
    """Open (solving if needed) every table the players need, once, here:
    the workers then only map the files."""
    for kind, theta in players:
        if kind in ("optimal", "win", "step") or not rules.play.exact:
            _value_table(rules, tables, theta)
        if kind == "win":
            _win_tables(rules, tables)


def match(rules: Rules | str, players: str | Sequence[str], games: int, seed: int = 0, *,
          tables: str | Path | None = None, scheduler: str | None = None,
          workers: int | None = None) -> Match:
    """A head-to-head study (``yatzy.match``): ``games`` games of ``rules``
    (a ``Rules`` or a spec) between the seats ``players`` (``"win,optimal"``
    or a list; ``parse_policy``), seeded; ``tables``, ``scheduler`` and
    ``workers`` as ``run``.  ``Match.wins``, ``.seat(i)`` (win rate, mean,
    intervals) and ``.difference(i, j)`` (the paired score difference)."""
    rules = rules if isinstance(rules, Rules) else parse_rules(rules)
    check_rules(rules)
    return run(rules, parse_players(players, rules), games, seed, tables=tables,
               scheduler=scheduler, workers=workers)


def run(rules: Rules, players, games: int, seed: int, *, tables: str | Path | None = None,
        scheduler: str | None = None, workers: int | None = None,
        chunk_size: int = CHUNK) -> Match:
    """Play the study.  ``scheduler``: a dask.distributed scheduler's address;
    ``workers``: processes of a local Dask cluster; with neither (or
    ``workers=0``) the study plays in this process, chunk after chunk (no
    Dask needed, and faster on one machine than a local cluster)."""
    import time

    games, seed = check_games(games), check_seed(seed)
    workers = None if workers is None else check_workers(workers)
    start = time.perf_counter()
    tables = str(tables) if tables is not None else None
    prepare(rules, tables, players)
    todo = chunks(games, chunk_size)
    args = (rules, tables, tuple(players), seed)
    if scheduler is None and not workers:
        results = (play_chunk(*args, c, n, chunk_size) for c, n in todo)
    else:
        results = _on_dask(args, todo, chunk_size, scheduler, workers)
    got: dict[int, Tally] = {}        # one result per chunk id, summed in chunk order
    total, following = None, 0
    for r in results:
        got.setdefault(r.chunk, r.tally)
        while following in got:       # sum in chunk order: the same float sums every run
            tally = got.pop(following)
            total = tally if total is None else total + tally
            following += 1
    if following != len(todo):
        raise RuntimeError("some chunks are missing from the results")
    return Match(rules, tuple(players), games, seed, total, time.perf_counter() - start)


def _on_dask(args, todo, chunk_size, scheduler, workers) -> list[ChunkResult]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise missing_extra("the Dask cluster", "cluster", "dask.distributed") from None
    if scheduler is not None:
        try:
            client, cluster = Client(scheduler, timeout=30), None
        except (OSError, TimeoutError, ValueError) as e:
            raise InputError(f"scheduler {scheduler}: cannot connect ({e})") from None
    else:
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=":0")
        client = Client(cluster)
    from distributed import as_completed

    def submit(c: int, n: int):
        return client.submit(play_chunk, *args, c, n, chunk_size, retries=3, pure=False,
                             key=f"yatzy-match-{args[3]}-{c}-{os.getpid()}")

    try:
        pending = iter(todo)
        running = as_completed([submit(c, n) for c, n in itertools.islice(pending, IN_FLIGHT)])
        for future in running:                    # a window of chunks in flight at a time
            yield future.result()
            for c, n in itertools.islice(pending, 1):
                running.add(submit(c, n))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
