"""A typed move checked against the dice and the card, then played."""

from __future__ import annotations

import sys

import click

from yatzy.cli.coach.steady import VERDICT
from yatzy.cli.coach.texts import cut, game_error
from yatzy.errors import InputError
from yatzy.position.actions import Action
from yatzy.rules.grammar import Typed
from yatzy.rules.ruleset import Order
from yatzy.rules.words import box_name


class Moves:
    """Mixin of the coach: moves."""

    # ---------------------------------------------------------------- moves
    def move(self, typed: Typed, line: str) -> None:
        """Play the move ``typed`` (``yatzy.rules.grammar``), as typed in ``line``."""
        game = self.game
        if game.needs_roll:
            if typed.kind == "score" and self.table_mode:
                if not game.player.is_human:
                    raise self.fail("pad_computer", name=game.player.name)
                if not self.may_write():
                    raise self.fail("pad_not_now")
                self.write(typed, line)             # points off a score pad (``pad``)
                return
            n = game.rules.dice - len(game.kept or ())
            if typed.kind == "keep" and game.kept:
                raise self.fail("already_kept", kept=" ".join(map(str, game.kept)), n=n)
            if typed.kind != "roll" or typed.dice is None:
                raise self.fail("dice_count", n=n)
            try:
                self.show_roll(self.session.play(typed.text))
            except InputError as e:
                raise self.translated(e) from None
            return
        action = self.action(typed, line)
        if action.kind == "score" and action.points == 0 and typed.points != 0 \
                and not self.strike_confirmed(action):
            self.say("zero_declined")
            return
        before = self.advice() if self.hints == "check" else None
        try:
            self.session.play(str(action))
        except InputError as e:
            raise self.translated(e) from None
        if before is not None:
            self.checked(before)
        self.after_score(VERDICT if before is not None else "event")   # the verdict's move

    def strike_confirmed(self, action: Action) -> bool:
        """Before a box is written with 0 points without ``stryk``: a
        question on a terminal (``asked_yes``)."""
        box = box_name(action.box, self.lang) + (f"@{action.column}" if action.column else "")
        return self.asked_yes(self.words("zero_confirm", box=box,
                                         dice=" ".join(map(str, self.game.dice))))

    def asked_yes(self, question: str) -> bool:
        """The answer to a yes/no ``question`` on a terminal (yes: ``y``,
        ``j``, ``ja``, ``yes``); piped input is not asked (yes)."""
        if not sys.stdin.isatty():
            return True
        self.draw()
        try:
            answer = self.read(question + " ")
        except (click.Abort, EOFError):
            return False
        return answer.strip().lower() in (self.words("yes"), "y", "j", "ja", "yes")

    def translated(self, error: InputError) -> InputError:
        """A move's error from ``Game`` in the game's language (``game_error``)."""
        return InputError(game_error(error, self.lang))

    def action(self, typed: Typed, line: str) -> Action:
        """The keep or score of ``typed``, checked against the dice and the card."""
        if typed.kind == "roll":
            raise self.fail("bad_move", text=cut(line))
        return self.keep(typed.dice) if typed.kind == "keep" else self.score(typed)

    def keep(self, kept: tuple[int, ...]) -> Action:
        """The keep of ``kept`` (empty: reroll all), checked against the dice."""
        game = self.game
        dice = game.dice
        if game.rerolls == 0:
            raise self.fail("no_rerolls", dice=" ".join(map(str, dice)))
        rest_dice = list(dice)
        for d in kept:
            if d not in dice:
                raise self.fail("not_among", dice=d, roll=" ".join(map(str, dice)))
            if d not in rest_dice:          # more of a face than the table shows
                raise InputError(" ".join(map(str, kept)) + ": " + self.words(
                    "keep_what_is_there", roll=" ".join(map(str, dice))))
            rest_dice.remove(d)
        return Action.keep(kept)

    def score(self, typed: Typed) -> Action:
        """The score of ``typed``, checked against the card (a strike says 0
        points: refused where the dice score more)."""
        game, rules = self.game, self.game.rules
        box = rules.box_index(typed.box)
        shown = box_name(rules.boxes[box].name, self.lang)
        if rules.play.names_columns:
            if not typed.column:
                raise self.fail("name_column", box=shown, n=rules.columns)
            column = typed.column
        else:
            column = 1
        options = {(c, b): p for c, b, p in game.board.score_options(game.card, game.dice)}
        where = shown + rules.play.tag(column)
        if (column, box) not in options:
            if game.card.column(column).points[box] is not None:
                raise self.fail("box_filled", box=where)
            due = [b for c, b in options if c == column]
            if rules.order == Order.FORCED and len(due) == 1:
                raise self.fail("forced_box", box=box_name(rules.boxes[due[0]].name, self.lang))
            raise self.fail("box_not_now", box=where, dice=" ".join(map(str, game.dice)))
        points = options[column, box]
        if typed.points is not None and typed.points != points:
            raise self.fail("game_wrong_points", box=where, points=points, said=typed.points)
        return Action.score(rules.boxes[box].name, points, rules.play.label(column))

