"""Playing to win: the largest chance to finish strictly above every
opponent, then to tie (``yatzy.players.win``: the value, target and
futures tables)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from yatzy import bounds
from yatzy.errors import InputError
from yatzy.players.objectives.base import Objective, Tables
from yatzy.players.objectives.score import Score
from yatzy.position.scorecard import Scorecard
from yatzy.rules.objectives import target_tables_refusal

if TYPE_CHECKING:
    from yatzy.players.win import WinAdvice
    from yatzy.rules.ruleset import Rules


class Win(Objective):
    """The largest chance to beat ``opponents`` (still playing for the
    expected score from their cards) and ``done`` (whose game is over), 1
    to 5 in all; cards as ``Scorecard`` or text.

    >>> Win(["ones=3"])
    Win(['ones=3'])
    """

    name = "win"
    summary = "the largest chance to beat the opponents"
    parameter = "--opponent"
    table = "futures"

    def __init__(self, opponents: Iterable[Scorecard | str] = (),
                 done: Iterable[Scorecard | str] = ()):
        self.opponents, self.done = tuple(opponents), tuple(done)

    def __repr__(self) -> str:
        cards = [str(c) for c in self.opponents]
        return f"Win({cards!r}" + (f", done={[str(c) for c in self.done]!r})" if self.done else ")")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Win) and (self.opponents, self.done)
                == (other.opponents, other.done))

    def __hash__(self) -> int:
        return hash((Win, self.opponents, self.done))

    @classmethod
    def refuse(cls, rules: Rules) -> str | None:
        return target_tables_refusal(rules)

    def check(self, rules: Rules) -> Win:
        """The opponents' cards read under ``rules``."""
        from yatzy.players.win import MAX_OPPONENTS
        playing = tuple(_card(c, rules) for c in self.opponents)
        done = tuple(_card(c, rules) for c in self.done)
        if any(c.turn == 0 for c in done):
            raise InputError("an opponent whose game is over needs the card they finished "
                             "with (box=points,...), not an empty card")
        if not 1 <= len(playing) + len(done) <= MAX_OPPONENTS:
            raise InputError(f"expected 1 to {MAX_OPPONENTS} opponents, "
                             f"not {len(playing) + len(done)}")
        super().check(rules)
        return Win(playing, done)

    def seats(self) -> list:
        from yatzy.players.win import Opponent
        return ([Opponent(c, False) for c in self.opponents]
                + [Opponent(c, True) for c in self.done])

    def advise(self, tables: Tables, card: Scorecard, dice: tuple[int, ...],
               rerolls: int) -> WinAdvice:
        """Every action ranked by the chance to win, then to tie (each to
        40 bits, ``yatzy.kernels.win.key``), then the expected-score order."""
        from yatzy.players.win import advise_win
        if card.is_full:
            raise InputError("the card is full: there is nothing left to decide")
        return advise_win(tables.value_table(), tables.target(), tables.futures(), card, dice,
                          rerolls, self.seats())

    @property
    def ev_basis(self) -> Score:
        """``yatzy ev`` reports the expected score beside the chance."""
        return Score()

    def value(self, tables: Tables, card: Scorecard) -> float:
        """The chance to win from the start of the next turn."""
        from yatzy.players.win import WinTurn
        if card.is_full:
            raise InputError("the card is full: its final score is already known")
        turn = WinTurn(tables.value_table(), tables.target(), tables.futures(), card,
                       self.seats())
        return min(max(float(turn.start[0]), 0.0), 1.0)


def _card(card: Scorecard | str, rules: Rules) -> Scorecard:
    try:
        if isinstance(card, Scorecard):
            if card.rules != rules:
                raise InputError(f"the card is for rules {card.rules.spec}, not {rules.spec}")
            return card
        return Scorecard.parse(card, rules)
    except InputError as e:
        raise InputError(f"opponent card {bounds.brief(str(card))}: {e}") from None
