"""The rows of the shared tables' file as the server reads them: a
table's ``Row`` (who holds which seat, who made it, the next game
proposed), what the phones see of it (``state_of``, ``public_game``),
``TableRefused`` (a refusal with its HTTP status and ``code``), and the rate
limits of the table routes (``Limiter``, ``LIMITS``).  The file itself:
``yatzy.web.shared``."""

from __future__ import annotations

import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from yatzy.session import ANY_SEAT, NOBODY, Capability, Session
from yatzy.web.family import family

CODE = re.compile(r"[A-Za-z0-9_-]{16}")
SHORT_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"     # no I, L, O: none read as 1 or 0
SHORT_LENGTH = 6                # a short code: 23**6, about 148 million
SHORT = re.compile(f"[{SHORT_LETTERS}]{{{SHORT_LENGTH}}}")
TTL = 7 * 24 * 3600             # an unfinished table expires after a week without a change
FINISHED_TTL = 24 * 3600        # a finished one a day after its last change
MAX_BODY = 4096                 # bytes of a request body
MAX_GAME_BODY = 64 * 1024       # bytes of a request that shares a game as it stands
MAX_NAME = 40                   # characters of a player's name (NAME or NAME=KIND)
MAX_SPEC = 200                  # characters of a rules spec
POLL = 0.1                      # seconds between looks for changes made by other processes
BEAT = 15                       # seconds between comments on a quiet event stream
RETRY_MS = 1000                 # the browser's wait before it reconnects a dropped stream
STREAM_SECONDS = 1800           # an event stream closes after this; the browser reconnects
WHO_MOVES = ("any", "seat")
HELD = 2048                     # tables whose live game and state a process keeps in memory
SEEDS = 2**53                   # a table's secret seed is below this: the page's JavaScript
                                # holds it exactly once it is shown, at the game's end



def secret_seed() -> int:
    """A fresh dice seed for a table, unguessable, exact in JavaScript."""
    return secrets.randbelow(SEEDS)


CODES = {400: "input", 403: "not_yours", 404: "no_such_table", 409: "conflict",
         413: "body", 429: "rate"}


class TableRefused(Exception):
    """A request the tables refuse: HTTP status, one line, its ``code``
    (the kind of refusal: by default the status's, ``CODES``), and for
    409 the state."""

    def __init__(self, status: int, message: str, state: dict | None = None, *,
                 code: str | None = None, retry: float | None = None):
        super().__init__(message)
        self.status, self.state = status, state
        self.code = code or CODES.get(status, "input")
        self.retry = retry              # seconds until asking again may succeed (429)


@dataclass
class Row:
    code: str
    rules: str
    moves: int
    doc: dict
    who_moves: str
    finished: bool
    seats: dict[int, str] = field(default_factory=dict)
    next: str | None = None
    admin: str = ""
    proposal: dict | None = None
    version: int = 0
    short: str | None = None
    family: str | None = None

    @property
    def stamp(self) -> tuple:
        return self.moves, self.version, self.next

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` was handed out for."""
        if not isinstance(token, str) or not token:
            return frozenset()
        return frozenset(s for s, t in self.seats.items() if secrets.compare_digest(t, token))

    def is_admin(self, token: str | None) -> bool:
        return isinstance(token, str) and bool(token) and secrets.compare_digest(self.admin,
                                                                                  token)

    def capability(self, token: str | None, strict: bool = False) -> Capability:
        """What ``token`` may act for at this table: the admin every seat,
        a seat's token its seat; where any phone may move (unless ``strict``:
        releasing a seat, agreeing to the next game) every seat as well."""
        if self.is_admin(token):
            return Capability(ANY_SEAT.seats, admin=True)
        base = ANY_SEAT if self.who_moves == "any" and not strict else NOBODY
        return Capability(base.seats | self.seats_of(token))


def public_game(doc: dict, finished: bool) -> dict:
    """The game document as the phones see it: without the seed (and the
    marks of the rolls drawn from it, and their draws) until the game is over.

    >>> public_game({"seed": 5, "drawn": [0], "moves": ["roll 1 2 3 4 5"]}, False)
    {'moves': ['roll 1 2 3 4 5']}
    """
    return doc if finished else {k: v for k, v in doc.items()
                                 if k not in ("seed", "drawn", "draw_numbers")}


def public_proposal(proposal: dict | None) -> dict | None:
    """A proposed next game as the phones see it (its document kept back)."""
    if proposal is None:
        return None
    return {k: proposal.get(k) for k in ("id", "players", "rules", "who_moves", "by", "agreed")}


def state_of(row: Row, session: Session, view: dict | None = None) -> dict:
    """A table's state as the API answers it."""
    out = {"code": row.code, "short": row.short, "moves": row.moves, "version": row.version,
           "who_moves": row.who_moves, "claimed": sorted(row.seats), "finished": row.finished,
           "next": row.next, "proposal": public_proposal(row.proposal),
           "game": public_game(row.doc, row.finished), "session": session.as_dict(),
           "family": family(session)}
    if view is not None:
        out["view"] = view
    return out


def stamp_of(state: dict) -> tuple:
    """What the phones follow of a state (``SharedGames.stamp``)."""
    return state["moves"], state["version"], state["next"]


class Held(OrderedDict):
    """The ``most`` entries used last (a table's game, state or rules)."""

    def __init__(self, most: int = HELD):
        super().__init__()
        self.most = most

    def keep(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.most:
            self.popitem(last=False)



# ------------------------------------------------------------ rate limits
class Limiter:
    """A token bucket per client: ``rate`` requests a second, ``burst`` at once.
    A refusal (429) says in ``retry`` when the next token is there.

    >>> limiter = Limiter(0.5, 1)
    >>> limiter.take("a")
    >>> try:
    ...     limiter.take("a")
    ... except TableRefused as e:
    ...     print(e.status, round(e.retry))
    429 2
    """

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def check(self, client: str) -> None:
        """429 if ``client`` has no request left now (nothing is taken)."""
        tokens, at = self.buckets.get(client, (self.burst, time.monotonic()))
        self._enough(min(self.burst, tokens + (time.monotonic() - at) * self.rate))

    def _enough(self, tokens: float) -> None:
        if tokens < 1:
            raise TableRefused(429, "too many requests; wait a moment",
                               retry=(1 - tokens) / self.rate)

    def take(self, client: str) -> None:
        now = time.monotonic()
        tokens, at = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        self._enough(tokens)
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > 10_000:                  # forget the oldest clients
            for key in list(self.buckets)[:5_000]:
                del self.buckets[key]


LIMITS = {"create": (0.2, 5), "move": (10.0, 20),    # per client: a second, at once
          "record": (1 / 60, 10),                    # page games recorded, per client
          "join": (0.1, 6),                          # codes tried, per client (6, then 1 in 10 s)
          "miss": (0.1, 6),                          # codes not found, per client
          "table_join": (1.0, 30)}                   # codes found, per table


