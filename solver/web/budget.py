"""What the server may spend on tables it builds for the network: the
presets, and other rule sets only under ``yatzy serve --allow-rules``,
within a budget.

A request may make the server build a table (a value table solved on
demand, the explanations' parts table of the Practice view): seconds of
CPU and up to hundreds of megabytes on disk each, kept.  Without
``--allow-rules`` only the presets are built (a fixed set, each once); a
table already stored is opened whatever its rules (memory only).  With
``--allow-rules`` each new table of other rules is charged to the client
that asked (``yatzy.web.guard.CLIENT``) by its planned size on disk
(``yatzy.tables.plan``): at most ``BUILDS_PER_CLIENT`` builds and
``DISK_PER_CLIENT`` bytes per client, ``BUILDS_TOTAL`` and ``DISK_TOTAL``
in all (each build is also CPU: the count bounds it), counted in the
shared tables' SQLite file (its ``builds`` table: every worker of ``yatzy
serve --workers`` draws on the same budget, and a restart does not renew
it).  A
refusal is ``Refused``: 403 (rules not allowed), 429 (this client's
budget spent), 507 (the server's).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from yatzy.database import open_database, transaction
from yatzy.errors import InputError
from yatzy.history import MIGRATIONS
from yatzy.rules.ruleset import PRESETS, Rules, parse_rules

BUILDS_PER_CLIENT = 4
BUILDS_TOTAL = 32
DISK_PER_CLIENT = 1 << 30
DISK_TOTAL = 8 << 30
RETRY_SPENT = 24 * 3600     # Retry-After of a spent budget (it is not renewed: a day, for a client)


class Refused(InputError):
    """A build the budget does not allow: ``status`` and ``code`` for the answer."""

    def __init__(self, status: int, message: str, code: str, retry: float | None = None):
        super().__init__(message)
        self.status, self.code, self.retry = status, code, retry


def preset_specs() -> frozenset[str]:
    """The specs of the presets (``nordic``, ``yahtzee``, ...)."""
    return frozenset(parse_rules(name).spec for name in PRESETS)


class Budget:
    """The builds charged so far, per client and in all."""

    def __init__(self, allow_rules: bool = False, *, builds_per_client: int = BUILDS_PER_CLIENT,
                 builds_total: int = BUILDS_TOTAL, disk_per_client: int = DISK_PER_CLIENT,
                 disk_total: int = DISK_TOTAL, path: str | Path | None = None):
        self.allow_rules = allow_rules
        self.path, self._db = path, None
        self.limits = (builds_per_client, builds_total, disk_per_client, disk_total)
        self.presets = preset_specs()
        self.charged: dict[tuple[str, str], str] = {}      # (spec, what) -> client
        self.spent: dict[str, tuple[int, int]] = {}         # client -> (builds, bytes)
        self.lock = threading.Lock()

    def charge(self, rules: Rules, what: str, disk_bytes: Callable[[], int], client: str) -> None:
        """Allow the build of ``what`` (``values``, ``parts``) of ``rules``,
        ``disk_bytes()`` on disk (asked only of rules charged), asked by
        ``client``; ``Refused`` if not.  With a ``path``, the charges are
        rows of that SQLite file, shared by every server process and kept
        over a restart; else this process's memory."""
        if rules.spec in self.presets:
            return
        if not self.allow_rules:
            self._refuse_rules(rules)
        if self.path is None:
            return self._charge_here(rules, what, disk_bytes, client)
        size = disk_bytes()
        with self.lock:
            if self._db is None:
                self._db = open_database(self.path, MIGRATIONS, check_same_thread=False)
            db = self._db
            with transaction(db):
                if db.execute("SELECT 1 FROM builds WHERE rules = ? AND what = ?",
                              (rules.spec, what)).fetchone():
                    return
                builds, spent = db.execute("SELECT count(*), coalesce(sum(bytes), 0) FROM builds "
                                           "WHERE client = ?", (client,)).fetchone()
                total_builds, total_disk = db.execute(
                    "SELECT count(*), coalesce(sum(bytes), 0) FROM builds").fetchone()
                self._check(rules, builds, spent, total_builds, total_disk, size)
                db.execute("INSERT INTO builds (rules, what, client, bytes, at) "
                           "VALUES (?, ?, ?, ?, ?)", (rules.spec, what, client, size, time.time()))

    def _check(self, rules: Rules, builds: int, spent: int, total_builds: int, total_disk: int,
               size: int) -> None:
        """``Refused`` where one more build of ``size`` bytes is past a limit."""
        per_builds, all_builds, per_disk, all_disk = self.limits
        if builds + 1 > per_builds or spent + size > per_disk:
            raise Refused(429, f"rules {rules.spec}: this address has had its {per_builds} "
                               "new tables; ask again with a preset", "budget",
                          retry=RETRY_SPENT)
        if total_builds + 1 > all_builds or total_disk + size > all_disk:
            raise Refused(507, f"rules {rules.spec}: this server has built all the tables "
                               "it may for other rules", "budget")

    @staticmethod
    def _refuse_rules(rules: Rules) -> None:
        raise Refused(403, f"rules {rules.spec}: this server builds tables only for its "
                           "presets (start it with yatzy serve --allow-rules, or store the "
                           f"table first: yatzy solve --rules {rules.spec})",
                      "rules_not_allowed")

    def _charge_here(self, rules: Rules, what: str, disk_bytes: Callable[[], int],
                     client: str) -> None:
        """``charge`` in this process's memory."""
        size = disk_bytes()
        with self.lock:
            if (rules.spec, what) in self.charged:
                return                                      # built or being built: paid for
            builds, spent = self.spent.get(client, (0, 0))
            self._check(rules, builds, spent, len(self.charged),
                        sum(b for _, b in self.spent.values()), size)
            self.charged[(rules.spec, what)] = client
            self.spent[client] = (builds + 1, spent + size)


__all__ = ["BUILDS_PER_CLIENT", "BUILDS_TOTAL", "Budget", "DISK_PER_CLIENT", "DISK_TOTAL",
           "Refused", "preset_specs"]
