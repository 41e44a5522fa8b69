"""The history of finished games at the end of a game: the game kept in
the shared tables' file (``yatzy.history``, the file ``yatzy serve``
keeps), then the table's best scores and each player's personal best.
A file that cannot be used (not a database, locked, newer) is one line;
the game is saved all the same."""

from __future__ import annotations

import sys
import textwrap

from yatzy.cli.coach.texts import terminal_size
from yatzy.database import reporting, transaction
from yatzy.errors import InputError
from yatzy.history import game_key, history, open_history, page_family, record
from yatzy.rules.words import rules_name


def best_each(top: list[dict]) -> list[dict]:
    """The table's best scores, each player's best once (a name in any case).

    >>> [t["score"] for t in best_each([{"name": "Ida", "score": 112}, {"name": "ida", "score": 105},
    ...                                 {"name": "Ola", "score": 99}])]
    [112, 99]
    """
    seen: set[str] = set()
    out = []
    for t in top:
        if t["name"].casefold() not in seen:
            seen.add(t["name"].casefold())
            out.append(t)
    return out


class Records:
    """Mixin of the coach: the history of finished games."""

    def keep_history(self, losses: dict[int, float]) -> None:
        """Record the finished game (each seat's name, score, place and, where
        rated, loss) in ``self.history`` and say the table's best scores and
        each player's best; once per game (``yatzy.history.game_key``)."""
        if self.history is None:
            return
        game = self.game
        names = [p.name for p in game.players]
        places = {s.seat: s.place for s in self.session.standings()}
        seats = [(p.name, game.cards[i].score, places[i], losses.get(i))
                 for i, p in enumerate(game.players)]
        key, family, spec = game_key(game.to_dict()), page_family(names), game.rules.spec
        try:
            db = open_history(self.history)
            try:
                with reporting(self.history):
                    with transaction(db):
                        record(db, key, family, spec, seats)
                    found = history(db, family, spec, names, key)
            finally:
                db.close()
        except InputError:
            self.error(self.words("history_failed", path=self.history))
            return
        self.say_history(found, spec)

    def echo_wrapped(self, text: str, first: str = "", rest: str = "") -> None:
        """Print ``text``, on a terminal wrapped to its width (its first row
        indented by ``first``, the others by ``rest``)."""
        if sys.stdout.isatty():
            text = textwrap.fill(text.strip(), terminal_size().columns,
                                 initial_indent=first, subsequent_indent=rest)
        self.echo(text)

    def say_history(self, found: dict, spec: str) -> None:
        """The lines of ``yatzy.history.history``'s answer (on a terminal
        the best scores wrapped to its width)."""
        top = ", ".join(f"{t['name']} {t['score']}" for t in best_each(found["top"]))
        if top:
            self.echo_wrapped(self.words("history_top", rules=rules_name(spec, self.lang), list=top),
                              rest="  ")
        for p in found["players"]:
            if p["first"]:
                self.say("history_first", name=p["name"], best=p["best"])
            elif p["new"]:
                self.say("history_new", name=p["name"], best=p["best"])
            else:
                self.say("history_best", name=p["name"], best=p["best"], n=p["games"])
