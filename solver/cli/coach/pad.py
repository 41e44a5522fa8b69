"""Score-pad mode: a box written with the points read off real dice, no
dice typed (``yatzy.scorepad``), checked against what the box may take."""

from __future__ import annotations

from yatzy.cli.coach.texts import cut
from yatzy.game import Game
from yatzy.rules.grammar import VERBS, Typed
from yatzy.rules.ruleset import Order
from yatzy.rules.words import box_name
from yatzy.scorepad import at_turn_start, pad_values

STRIKES = frozenset(p for words in VERBS.values() for p, m in words.items() if m == "strike")
SHOWN = 8                       # points listed in full when a box takes no more kinds


def values_text(values: list[int]) -> str:
    """The points a box may take, shortened when there are many.

    >>> values_text([0, 1, 2, 3, 4, 5]), values_text(list(range(5, 31)))
    ('0, 1, 2, 3, 4, 5', '5, 6, 7, …, 30')
    """
    if len(values) <= SHOWN:
        return ", ".join(map(str, values))
    return ", ".join(map(str, values[:3])) + f", …, {values[-1]}"


def open_values(game: Game, lang: str) -> list[str]:
    """Each open box of the player to move with the points it may take now
    (``to par: 0, 6, 8, …, 22``), in the card's order; with several columns
    each box once (its points are the same in every column); empty when no
    pad write may be made (``at_turn_start``).

    >>> game = Game("nordic", ["Kari"])
    >>> open_values(game, "nb")[7], len(open_values(game, "nb"))
    ('to par: 0, 6, 8, …, 22', 15)
    """
    seen: dict[int, list[int]] = {}
    for (_, box), values in sorted(pad_values(game).items(), key=lambda kv: kv[0][::-1]):
        seen.setdefault(box, values)
    boxes = game.rules.boxes
    return [f"{box_name(boxes[b].name, lang)}: {values_text(v)}" for b, v in seen.items()]


def packed(items: list[str], room: int, gap: str = " · ") -> list[str]:
    """``items`` on as few rows of at most ``room`` characters as they fit
    in whole, ``gap`` between two on a row (an item longer than ``room``
    alone on its row).

    >>> packed(["enere: 0, 1", "toere: 0, 2", "sjanse: 5, 6, …, 30"], 26)
    ['enere: 0, 1 · toere: 0, 2', 'sjanse: 5, 6, …, 30']
    """
    rows: list[str] = []
    for item in items:
        if rows and len(rows[-1]) + len(gap) + len(item) <= room:
            rows[-1] += gap + item
        else:
            rows.append(item)
    return rows


def struck(line: str) -> bool:
    """Whether ``line`` says a strike (``stryk hus``, ``cross out yatzy``),
    which writes 0 without asking.

    >>> struck("stryk yatzy"), struck("Cross out chance"), struck("yatzy 0")
    (True, True, False)
    """
    low = " ".join(line.lower().split())
    return any(low == p or low.startswith(p + " ") for p in STRIKES)


class Pad:
    """Mixin of the coach: points written from a score pad."""

    def may_write(self) -> bool:
        """Whether a line of points is taken now: the dice come from the
        table (pad mode or table mode), the turn is a person's and not yet
        rolled (a computer's turn takes the dice it plays with)."""
        return self.table_mode and at_turn_start(self.game) and self.game.player.is_human

    def say_values(self) -> None:
        """What each open box of the player to move may take now, packed in
        rows as wide as the screen gives (``Screen.room``)."""
        self.say("pad_values", name=self.game.player.name)
        for row in packed(open_values(self.game, self.lang), self.room()):
            self.echo(row)

    def write(self, typed: Typed, line: str) -> None:
        """Write the points of ``typed`` (``hus 18``, ``toere 3 6``) in its box
        for the player to move; one line when the box cannot take them."""
        game, rules = self.game, self.game.rules
        box = rules.box_index(typed.box)
        shown = box_name(rules.boxes[box].name, self.lang)
        if rules.play.names_columns and not typed.column:
            raise self.fail("name_column", box=shown, n=rules.columns)
        column = typed.column or 1
        where = shown + rules.play.tag(column)
        values = pad_values(game)
        if (column, box) not in values:
            raise self.not_writable(box, column, where, values)
        if typed.points is None:
            raise self.fail("pad_need_points", box=where, n=values[column, box][-1])
        if typed.points not in values[column, box]:
            raise self.fail("pad_points", box=where, points=typed.points,
                            values=values_text(values[column, box]))
        if typed.points == 0 and not struck(line) and not self.asked_yes(
                self.words("pad_zero_confirm", box=where)):
            self.say("zero_declined")
            return
        self.session.write(box, typed.points, column)
        self.after_score()

    def not_writable(self, box: int, column: int, where: str, values: dict):
        """The error of a box the pad may not write now: filled, or not the
        one the order asks for."""
        game, rules = self.game, self.game.rules
        if game.card.column(column).points[box] is not None:
            return self.fail("box_filled", box=where)
        if rules.order == Order.FORCED and len(values) == 1:
            (c, b), = values
            return self.fail("forced_box", box=box_name(rules.boxes[b].name, self.lang)
                             + rules.play.tag(c))
        return self.fail("pad_not_allowed", box=cut(where))
