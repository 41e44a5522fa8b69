"""What the phones following a shared table read (``Following``, a part
of ``yatzy.web.shared.SharedGames``): a table's state and its JSON text,
written once per change for every phone; the stamps of many tables at
once; and the states another server process has changed, read again."""

from __future__ import annotations

import json
import logging
from typing import Any, Callable

from yatzy.game import Game
from yatzy.web.table_state import state_of

log = logging.getLogger("yatzy.web.shared")


class Following:
    """The reads of the event streams over the tables of ``SharedGames``
    (its ``db``, ``lock``, ``row``, ``session``, ``states`` and
    ``_with_history``)."""

    def view(self, code: str, solver, describe: Callable[[Game], dict]) -> dict:
        """The table's state and what the page shows of it, read together."""
        return self.event(code, solver, describe)[0]

    def event(self, code: str, solver, describe: Callable[[Game], dict]) -> tuple[dict, str]:
        """The table's state and its JSON text (read from the file, the
        view and text written once per change for all the phones)."""
        with self.lock:
            row = self.row(code)
            held = self.states.get(code)
            if held is None or held[0] != row.stamp:
                session = self.session(row, solver)
                state = self._with_history(row, state_of(row, session, describe(session.game)))
                held = (row.stamp, state, json.dumps(state))
                self.states.keep(code, held)
            return held[1], held[2]

    def current(self, code: str) -> tuple[tuple, str] | None:
        """The stamp and JSON text of a table's state as this process last
        wrote or read it, without reading the file (None: not kept).  Up to
        date while ``refresh`` looks at the table every moment (the event
        streams' poller): a change by another process is then dropped here
        within one look.  It takes no lock: the event loop calls it, and
        must not wait for a thread's transaction."""
        held = self.states.get(code)
        return None if held is None else (held[0], held[2])

    def stamps(self, codes: list[str]) -> dict[str, tuple]:
        """``stamp`` of many tables in one query each 500 (the missing ones
        are left out)."""
        out = {}
        with self.lock:
            for i in range(0, len(codes), 500):
                part = codes[i:i + 500]
                marks = ",".join("?" * len(part))
                out.update((row[0], tuple(row[1:])) for row in self.db.execute(
                    f"SELECT code, moves, version, next FROM games WHERE code IN ({marks})",
                    part))
        return out

    def refresh(self, follows: dict[str, Any], describe: Callable[[Game], dict]
                ) -> tuple[dict[str, tuple], set[str]]:
        """``stamps`` of the tables of ``follows`` (code -> its Solver), and
        the codes whose kept state was older (changed or deleted by another
        process): each is read again (``event``) for all the phones that
        follow it, or dropped where it cannot be."""
        codes = list(follows)
        with self.lock:
            now = self.stamps(codes)
            stale = set()
            for code in codes:
                held = self.states.get(code)
                if held is not None and held[0] != now.get(code):
                    stale.add(code)
                    self.states.pop(code, None)
                    if code in now:
                        try:
                            self.event(code, follows[code], describe)
                        except Exception:           # noqa: BLE001  the stream reads it again
                            log.exception("shared table %s: cannot read its change", code)
        return now, stale

