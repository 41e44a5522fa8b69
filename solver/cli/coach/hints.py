"""The coach's hints: the ranked list, a move's cost and why, the running loss."""

from __future__ import annotations

import click

from yatzy.cli.coach.steady import VERDICT
from yatzy.errors import InputError
from yatzy.position.actions import LOWER_BOUND
from yatzy.rules.grammar import Typed

FULL_HINT = 10                         # actions shown by `hint` and --hints full


class Hints:
    """Mixin of the coach: hints and check mode."""

    def say_ledger(self) -> None:
        """In check mode: each person's running loss so far (the session's
        ledger: what the review will say), where it is over 0."""
        if self.hints != "check" or not any(self.typed(m) for m in self.game.moves):
            return
        self.need_table()
        for seat, loss in self.session.ledger().items():
            if loss > 0:
                self.say("tally", VERDICT, name=self.game.players[seat].name,
                         loss=self.num(loss, 2))

    def checked(self, before) -> None:
        """Check mode, after a person's decision: its loss (the session's
        ledger, as the review values it) and why, then their running loss;
        all but the why tagged ``verdict``, which the steady screen keeps in
        view past the computers' turns that follow (``steady.order``)."""
        game = self.game
        move, loss = game.moves[-1], self.session.losses()[-1]
        if not loss:
            self.say("best", VERDICT)
        else:
            self.say("cost", VERDICT, loss=self.num(loss, 2), best=self.action_text(before.best))
            chosen = next((a for a in before.actions if str(a) == move.text), None)
            if chosen is not None:
                self.why(before, chosen)
            self.say("tally", VERDICT, name=game.players[move.player].name,
                     loss=self.num(self.session.loss(move.player), 2))

    # ---------------------------------------------------------------- hints
    def why(self, advice, chosen) -> None:
        """Why a choice cost what it did, where the rules have explanations
        (``Solver.explain``): the sentence, then every part of the loss as
        one sum, as the library gives them."""
        from yatzy.players.explain import check_explain_rules
        try:
            check_explain_rules(self.game.rules)
            if self.game.solver.theta:
                return
            self.need_table(parts=True)
            why = self.game.solver.explain(advice.card, advice.dice, advice.rerolls)
        except InputError:
            return
        explained = next(e for e in why if e.action == chosen)
        self.echo(explained.sentence(self.lang))
        self.echo("  " + explained.sum_text(self.lang))

    def what_if(self, typed: Typed, line: str) -> None:
        """``hint keep 5 5``, ``tips før sjanse``: that action's loss and why."""
        game = self.game
        if game.needs_roll:
            raise self.fail("roll_first")
        action = self.action(typed, line)
        advice = self.advice()
        chosen = advice.find(action)
        loss = (self.words("best") if chosen.loss == 0 else
                self.words("loss_of", loss=self.num(chosen.loss, 2),
                           best=self.action_text(advice.best)))
        self.say("what_if", action=self.action_text(chosen), loss=loss)
        if chosen.loss > 0:
            self.why(advice, chosen)

    def hint(self, top: int) -> None:
        game = self.game
        bound = game.values == LOWER_BOUND
        if game.needs_roll:
            self.need_table()
            ev = self.num(game.expected_score(), 1)
            self.say("expected_bound" if bound else "expected", ev=ev)
            return
        advice = self.advice()
        if top == 3:
            best = sorted(self.action_text(a) for a in advice.actions[:3])
            self.say("top3", choices=", ".join(best))
            return
        shown = advice.actions[:top]
        losses = [self.words("word_best") if i == 0 else self.words("word_tie") if a.loss == 0
                  else "-" + self.num(a.loss, 2) for i, a in enumerate(shown)]
        texts = [self.action_text(a) for a in shown]
        room = self.events_room() if self.steady else None
        lost = 7                                         # the loss column's width
        if room is not None and max(map(len, texts)) + 4 + lost > room:   # narrow: no wrap
            lost = max(len(self.words("col_loss")), *map(len, losses))
            for compact in (1, 2):                       # shorter, as they may be typed
                texts = [self.action_text(a, compact) for a in shown]
                if max(map(len, texts)) + 4 + lost <= room:
                    break
        wide = max(len(self.words("col_action")), *map(len, texts))
        # a bound (several columns) is not the ranking's value: only the losses are shown
        values = not bound and (room is None or wide + 14 + lost <= room)
        head = f" {self.words('col_expected'):>9}" if values else ""
        self.echo(f"{'':>2} {self.words('col_action'):<{wide}}{head}"
                  f" {self.words('col_loss'):>{lost}}", "hint")
        for i, (a, text, loss) in enumerate(zip(shown, texts, losses), 1):
            cost = click.style(f"{loss:>{lost}}", fg="red" if a.loss >= 5 else
                               "yellow" if a.loss >= 1 else None)
            value = f" {self.num(a.expected_final_score, 2):>9}" if values else ""
            self.echo(f"{i:>2} {text:<{wide}}{value} {cost}", "hint")
        if bound:
            self.say("bound_note", "hint")

