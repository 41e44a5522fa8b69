"""The results of a shared table's finished games, recorded by the server
itself (``Results``, a part of ``yatzy.web.shared.SharedGames``), and the
games one page says it finished, kept apart as the page's word
(``yatzy.history``)."""

from __future__ import annotations

from yatzy.database import transaction
from yatzy.game import Game
from yatzy.history import game_key, history, page_family, record
from yatzy.session import Session
from yatzy.web.table_state import Row


class Results:
    """Finished games of the tables of ``SharedGames`` (its ``db`` and ``lock``)."""

    def _record(self, row: Row, session: Session) -> None:
        """A table's game just finished: its results (in the caller's transaction)."""
        first = self.db.execute("SELECT client FROM games WHERE code = ?",
                                (row.family or row.code,)).fetchone()
        record(self.db, row.code, row.family or row.code, session.game.rules.spec,
               session.results(), client=first[0] if first else "")

    def record_page(self, game: Game, client: str = "") -> dict:
        """A finished game of one page recorded (once: ``game_key``) as the
        page's word (``source`` ``page``), charged to ``client``; its family
        its players' names as that client sent them, apart from every
        table's; the history shown after it."""
        names = [p.name for p in game.players]
        key, spec = game_key(game.to_dict()), game.rules.spec
        fam = f"{page_family(names)}@{client}"
        results = Session(game).results()
        with self.lock, transaction(self.db):
            record(self.db, key, fam, spec, results, source="page", client=client)
            return history(self.db, fam, spec, names, key)

    def _with_history(self, row: Row, state: dict) -> dict:
        """A finished table's state with its family's history."""
        if row.finished:
            names = [p.get("name", "") for p in row.doc.get("players", [])]
            state["history"] = history(self.db, row.family or row.code, row.rules, names,
                                       row.code)
        return state

