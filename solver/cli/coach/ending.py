"""Game over: the standings, the review, the ratings database, the history."""

from __future__ import annotations

import click

from yatzy.cli.coach.paging import END_ROWS, rows
from yatzy.cli.coach.prompt import read_line
from yatzy.cli.coach.records import Records
from yatzy.cli.coach.texts import terminal_size
from yatzy.errors import InputError
from yatzy.research.puzzles import KINDS
from yatzy.research.ratings import Answer, Ratings
from yatzy.rules.play import LOWER_BOUND
from yatzy.scorepad import is_pad


class Ending(Records):
    """Mixin of the coach: the end of the game."""

    reviews: dict = {}                    # the people's reviews, once the game is over

    # ------------------------------------------------------------- the end
    def finish(self) -> None:
        """Everything said at the end, as it comes."""
        self.finish_rest(self.finish_head())

    def end_screen(self) -> None:
        """The end on the steady screen: the card with the places and the
        winner beside it, then the reviews and the history under it where
        they fit, else in pages (``Pages.turn_pages``), the last one left."""
        with self.gathered() as head:
            reviewing = self.finish_head()
        self.events.clear()
        self.events.extend(("turn", line) for _, line in head)
        self.draw()
        with self.gathered() as rest:
            self.finish_rest(reviewing)
        self.steady = False
        self.events.clear()
        size = terminal_size()
        card = len(self.card().splitlines())
        rest = [line for _, line in rest]
        if card + len(rows(rest, size.columns)) + END_ROWS <= size.lines:
            for line in rest:
                self.echo(line)
        elif rest:
            try:
                read_line(self.words("page_more") + " ")
            except (click.Abort, EOFError):
                return
            self.turn_pages(rest, back=False, last_room=END_ROWS)

    def finish_head(self) -> bool:
        """Game over, the places and the winner; whether the game is reviewed."""
        game = self.game
        people = any(p.is_human for p in game.players)
        reviewing = self.session.reviewable()          # a pad's points have no dice
        if reviewing:
            try:
                self.need_table()              # for the review
            except InputError as e:            # not solved: no review
                self.error(str(e))
                reviewing = False
        self.reviews = self.session.reviews() if reviewing else {}   # (a first build said here)
        self.say("over")
        standings = self.session.standings()
        for s in standings:
            self.say("place", place=s.place, name=s.name, score=s.score)
        top = [s.name for s in standings if s.place == 1]
        if len(game.players) > 1:
            if len(top) > 1:
                self.say("tie", names=", ".join(top))
            else:
                self.say("winner", name=top[0])
        if game.settings.get("free_undo_used"):
            self.say("free_undo")
        if people and not reviewing and is_pad(game):
            self.say("pad_not_rated")
        return reviewing

    def finish_rest(self, reviewing: bool) -> None:
        """The reviews, the ratings database and the history."""
        game = self.game
        reviews = self.reviews
        if reviews and game.values == LOWER_BOUND:    # Trippel: no exact values to lose against
            self.echo_wrapped(self.words("review_estimates"))
        for seat, review in reviews.items():
            player = game.players[seat]
            if review is None:
                continue
            self.say("review", name=player.name, total=self.num(review.total_loss, 2),
                     mean=self.num(review.mean_loss, 3), n=len(review.decisions))
            for d in review.costliest():
                if d.loss > 0:
                    text = self.words("costly", turn=d.turn, roll=d.roll,
                                      dice=" ".join(map(str, d.dice)),
                                      chosen=self.action_text(d.chosen),
                                      best=self.action_text(d.best), loss=self.num(d.loss, 2))
                    self.echo_wrapped(text, "  ", "    ")     # indented under the review
        if reviewing and is_pad(game):                # some turns from the pad, some with dice
            for seat, n in self.session.unrated().items():
                if n:
                    self.say("pad_unrated_turns", name=game.players[seat].name, n=n)
        if self.db is not None and reviews and not game.settings.get("recorded"):
            self.record(reviews)
        self.keep_history({seat: r.total_loss for seat, r in reviews.items() if r is not None})

    def record(self, reviews: dict) -> None:
        """Every reviewed decision of the people at the table in the ratings
        database (``yatzy.research.ratings``): its position as a puzzle key
        (so a wrong one comes back in ``yatzy train``), kind, choice, best
        action, loss and the player's name; once per game."""
        game = self.game
        answers = []
        for seat, review in reviews.items():
            if review is None:
                continue
            cards = game.turn_cards(seat)
            for d in review.decisions:
                kind = KINDS[2] if d.rerolls == 0 else KINDS[0] if d.roll == 1 else KINDS[1]
                key = f"{cards[d.turn - 1]}|{''.join(map(str, d.dice))}|{d.rerolls}"
                answers.append(Answer(game.rules.spec, key, kind, d.chosen, d.best, d.loss,
                                      "game", player=game.players[seat].name))
        try:
            with Ratings(self.db) as db:
                for a in answers:
                    db.record(a)
        except InputError:
            self.error(self.words("cannot_record", path=self.db))
            return
        game.settings["recorded"] = True
        self.say("recorded", n=len(answers), path=self.db)

