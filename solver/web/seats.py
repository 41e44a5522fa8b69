"""Seats and the next game of a shared table (``Seats``, a part of
``yatzy.web.shared.SharedGames``): a phone claims a seat and gets its
token; the next game is proposed by a seat or the table's creator, and
starts when the creator accepts it or every claimed seat has agreed to that
very proposal (an accept names the proposal's ``id``).

The next game is *proposed* (``POST .../next``, with a seat's token or the
creator's: a phone without one proposes nothing, even where any phone may
move) and shown on every phone (the state's ``proposal``, with its
``id``); it replaces nothing until it is accepted: at once when the
creator proposes or accepts it, or when every claimed seat (at least one)
has agreed to it by its token (``.../next/accept`` ``{"token", "id"}``: an
accept of another proposal than the one shown is 409).  Then the table's
``next`` names the new table, its phones move on, and the seats are kept
when the players are as many.  ``POST /api/table`` with ``follows`` does
the same for the followed table's admin token only."""

from __future__ import annotations

import json
import secrets

from yatzy.database import transaction
from yatzy.game import Game
from yatzy.session import SessionError, check_right
from yatzy.web.table_state import WHO_MOVES, Row, TableRefused


class Seats:
    """Claims, releases and proposals of the tables of ``SharedGames``
    (its ``db``, ``lock``, ``row``, ``_insert`` and ``states``)."""

    def _start_next(self, row: Row, game: Game, who_moves: str) -> str:
        """The next table of ``row`` (in the caller's transaction): its admin
        the same, its seats kept when the players are as many."""
        code = self._insert(game, who_moves, row.admin, row.family or row.code)
        self.db.execute("UPDATE games SET next = ?, proposal = NULL, version = version + 1 "
                        "WHERE code = ?", (code, row.code))
        if len(row.doc.get("players", [])) == len(game.players):
            self.db.execute("INSERT INTO seats (code, seat, token) SELECT ?, seat, token "
                            "FROM seats WHERE code = ?", (code, row.code))
        self.states.pop(row.code, None)
        return code

    def claim(self, code: str, seat: int, token: str | None) -> str:
        """Seat ``seat`` for a phone: its token (a new one; the same where
        ``token`` is the seat's already); 409 if another phone holds it.
        The seat is read and written in one transaction (``BEGIN
        IMMEDIATE``) under a primary key, so two processes never both get it."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            players = len(row.doc.get("players", []))
            if not 0 <= seat < players:
                raise TableRefused(400, f"seat {seat}: the table has seats 0..{players - 1}")
            held = row.seats.get(seat)
            if held is not None:
                if seat in row.seats_of(token):
                    return held
                raise TableRefused(409, f"seat {seat} is taken")
            token = secrets.token_urlsafe(16)
            self.db.execute("INSERT INTO seats (code, seat, token) VALUES (?, ?, ?)",
                            (code, seat, token))
            self._touch(code)
        return token

    def release(self, code: str, seat: int, token: str | None) -> None:
        """Free ``seat`` (its token or the admin's)."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            self._check(row, "release", token, seat)
            self.db.execute("DELETE FROM seats WHERE code = ? AND seat = ?", (code, seat))
            self._touch(code)

    def _touch(self, code: str) -> None:
        """A claim, release or proposal: the version counts it."""
        self.db.execute("UPDATE games SET version = version + 1 WHERE code = ?", (code,))
        self.states.pop(code, None)

    def propose(self, code: str, game: Game, who_moves: str, token: str | None) -> str | None:
        """Propose ``game`` as the table's next; it starts at once when the
        admin proposes it or every claimed seat agrees (the proposer's token
        counts): the new table's code, else None (the proposal is shown)."""
        if who_moves not in WHO_MOVES:
            raise TableRefused(400, f"who_moves {who_moves!r}: expected any or seat")
        with self.lock, transaction(self.db):
            row = self.row(code)
            if row.next is not None:
                return row.next
            self._check(row, "propose", token)
            row.proposal = {"doc": game.to_dict(), "players": [p.name for p in game.players],
                            "rules": game.rules.spec, "who_moves": who_moves,
                            "id": row.version + 1,        # the version this proposal makes
                            "by": "admin" if row.is_admin(token) else
                            min(row.seats_of(token), default=None), "agreed": []}
            return self._agree(row, game, token)

    def accept(self, code: str, token: str | None, solver, proposal: int | None = None
               ) -> str | None:
        """Agree to the next game proposed, the one whose ``id`` is
        ``proposal`` (409 if another is proposed now: the phone agreed to
        what it showed; ``propose``'s rule)."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            if row.next is not None:
                return row.next
            if row.proposal is None:
                raise TableRefused(409, "no next game is proposed", code="no_proposal")
            if not (row.is_admin(token) or row.seats_of(token)):
                raise TableRefused(403, "only a seated player or the table's creator may accept "
                                 "the next game")
            if not isinstance(proposal, int) or isinstance(proposal, bool):
                raise TableRefused(400, "id must be the id of the proposal accepted (the "
                                 "state's proposal.id)", code="proposal_id")
            if proposal != row.proposal.get("id"):
                raise TableRefused(409, "another next game is proposed now; look at it again",
                                 code="other_proposal")
            return self._agree(row, None, token, solver)

    def cancel(self, code: str, token: str | None) -> None:
        """Withdraw the proposal (the admin, or the seat that proposed it)."""
        with self.lock, transaction(self.db):
            row = self.row(code)
            by = None if row.proposal is None else row.proposal["by"]
            if not (row.is_admin(token) or (by is not None and by in row.seats_of(token))):
                raise TableRefused(403, "only the table's creator or the proposer may withdraw it")
            self.db.execute("UPDATE games SET proposal = NULL WHERE code = ?", (code,))
            self._touch(code)

    @staticmethod
    def _check(row: Row, right: str, token: str | None, seat: int | None = None) -> None:
        """403 unless ``token`` has ``right`` (``yatzy.session.check_right``;
        only tokens count for releasing a seat or proposing the next game)."""
        try:
            check_right(right, row.capability(token, strict=right in ("release", "propose")),
                        seat)
        except SessionError as e:
            raise TableRefused(403, str(e), code="not_yours") from None

    def _agree(self, row: Row, game: Game | None, token: str | None, solver=None) -> str | None:
        """Count ``token``'s agreement to ``row.proposal``; start the next
        game where it is accepted (the admin, or every claimed seat)."""
        proposal = row.proposal
        agreed = sorted(set(proposal["agreed"]) | row.seats_of(token))
        proposal["agreed"] = agreed
        if row.is_admin(token) or (row.seats and set(row.seats) <= set(agreed)):
            if game is None:
                game = Game.from_dict(proposal["doc"], solver, where="proposal")
            return self._start_next(row, game, proposal["who_moves"])
        self.db.execute("UPDATE games SET proposal = ? WHERE code = ?",
                        (json.dumps(proposal), row.code))
        self._touch(row.code)
        return None

