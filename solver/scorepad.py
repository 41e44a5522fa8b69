"""Score-pad mode: a box written with the points a person reads off real
dice, no dice entered, the way a paper pad is used.

A write is checked against the rules: the points must be ones the box can
take now from some roll of the dice (a box already filled, a box the order
does not allow, or points no roll gives there are refused, one line each).
It is played as the game plays every turn, so undo, redo, saving and the
end review need nothing new: a roll that scores those points in that box
(``dice_for``: one with no yatzy where another will do, so that no yatzy
bonus or joker is set off unasked), then the score.  Those dice are the
pad's, not the table's: a game written this way is marked
(``settings["scorepad"]``) and so is each write (``settings["pad_writes"]``,
``pad_moves``), so that the loss ledger and the review rate the moves made
with dice and leave the pad's unrated (``unrated``).

    >>> from yatzy.session import Session
    >>> s = Session(Game("nordic", ["Kari", "Ola"], seed=1)); g = s.game
    >>> sorted(pad_values(g)[1, g.rules.box_index("two_pairs")])[:4]
    [0, 6, 8, 10]
    >>> s.write("two_pairs", 18)
    [Move('roll 1 3 3 6 6', player=0), Move('score two_pairs (18)', player=0)]
    >>> g.scores(), g.turn_player, g.settings["scorepad"], sorted(pad_moves(g))
    ((18, 0), 1, True, [0, 1])
    >>> s.write("two_pairs", 19)
    Traceback (most recent call last):
      ...
    yatzy.scorepad.PadError: two_pairs cannot score 19 (it scores 0, 6, 8, ..., 22)
    >>> _ = s.play("roll 11256"); _ = s.play("score chance")
    >>> sorted(pad_moves(g)), unrated(g)
    ([0, 1], {0: 1, 1: 0})
"""

from __future__ import annotations

import numpy as np

from yatzy.errors import InputError
from yatzy.game import Game

FLAG = "scorepad"          # the game's settings key: written from a score pad
WRITES = "pad_writes"      # the settings key of each write: [move number, roll, score]


class PadError(InputError):
    """A write the rules refuse: ``kind`` names it (``pad_not_now``,
    ``pad_box``, ``pad_points``) and ``fields`` its particulars."""

    def __init__(self, kind: str, line: str, /, **fields):
        super().__init__(line)
        self.kind, self.fields = kind, fields


def is_pad(game: Game) -> bool:
    """Whether the game was written (partly) from a score pad."""
    return bool(game.settings.get(FLAG))


def pad_moves(game: Game) -> frozenset[int]:
    """The numbers (in ``game.moves``) of the moves a score pad wrote: the
    roll and the score of each write still played.  A write is known by
    its number and its two moves' texts, so one undone and replaced by
    other moves no longer counts, and one redone counts again.  A game
    marked a pad game without the writes' record (saved before it was
    kept) counts every move as the pad's."""
    if not is_pad(game):
        return frozenset()
    writes = game.settings.get(WRITES)
    moves = game.moves
    if not isinstance(writes, list):
        return frozenset(range(len(moves)))
    out: set[int] = set()
    for w in writes:
        if isinstance(w, list) and len(w) == 3 and type(w[0]) is int \
                and 0 <= w[0] < len(moves) - 1 \
                and [moves[w[0]].text, moves[w[0] + 1].text] == w[1:]:
            out.update((w[0], w[0] + 1))
    return frozenset(out)


def unrated(game: Game) -> dict[int, int]:
    """Each seat's turns written from the pad (``pad_moves``), which no
    ledger or review rates."""
    marked = pad_moves(game)
    out = dict.fromkeys(range(len(game.players)), 0)
    for i, move in enumerate(game.moves):
        if i in marked and move.is_score:
            out[move.player] += 1
    return out


def at_turn_start(game: Game) -> bool:
    """Whether a pad write may be made now: a turn not yet rolled."""
    return not game.is_over and game.needs_roll and not game.position.rolls


def _options(game: Game) -> dict[tuple[int, int], dict[int, tuple[int, ...]]]:
    """(column, box) -> points -> a roll that scores them there (the player
    to move's card; a roll without a yatzy preferred), kept per card."""
    rules, card = game.rules, game.card
    key = (rules.spec, card)
    found = _KEPT.get(key)
    if found is None:
        found = _KEPT[key] = _options_of(game)
        if len(_KEPT) > 256:
            _KEPT.pop(next(iter(_KEPT)))
    return found


_KEPT: dict = {}


def _options_of(game: Game) -> dict[tuple[int, int], dict[int, tuple[int, ...]]]:
    rules, card = game.rules, game.card
    space = rules.dice_space
    dice = [space.dice_of(space.first_roll + r) for r in range(space.n_rolls)]
    yatzy = rules.yahtzee_face >= 0
    out: dict[tuple[int, int], dict[int, tuple[int, ...]]] = {}
    if rules.play.names_columns:           # no jokers: each open box scores as the roll says
        allowed, special = card.allowed(), []
    else:                                   # a yatzy may be a joker: the game says where
        allowed = [(1, b) for b in card.allowed_boxes()]
        special = [r for r in range(space.n_rolls) if yatzy[r]]
    plain = np.flatnonzero(~yatzy) if special else np.arange(space.n_rolls)
    for column, box in allowed:
        points = rules.scores[plain, box]
        values, first = np.unique(points, return_index=True)
        out[column, box] = {int(v): dice[plain[i]] for v, i in zip(values, first)}
    for r in special:
        for column, box, points in game.board.score_options(card, dice[r]):
            out.setdefault((column, box), {}).setdefault(points, dice[r])
    return out


def pad_values(game: Game) -> dict[tuple[int, int], list[int]]:
    """The points each open box of the player to move may take now,
    ``(column, box) -> sorted points`` (column from 1); empty when no pad
    write may be made (``at_turn_start``)."""
    if not at_turn_start(game):
        return {}
    return {key: sorted(found) for key, found in _options(game).items()}


def dice_for(game: Game, box: int, points: int, column: int = 1) -> tuple[int, ...]:
    """A roll that scores ``points`` in ``box`` of ``column`` for the player
    to move now; PadError where none does."""
    rules = game.rules
    name = rules.boxes[box].name
    where = name + rules.play.tag(column)
    found = _options(game).get((column, box))
    if found is None:
        raise PadError("pad_box", f"{where} cannot be written now (filled, or not allowed)",
                       box=name, column=column)
    if points not in found:
        values = sorted(found)
        shown = values if len(values) <= 4 else values[:3] + ["..."] + values[-1:]
        raise PadError("pad_points", f"{where} cannot score {points} (it scores "
                       f"{', '.join(map(str, shown))})", box=name, column=column,
                       points=points, values=values)
    return found[points]


def pad_texts(game: Game, box: str | int, points: int, column: int | None = None
              ) -> tuple[str, str]:
    """The two moves that write ``points`` in ``box`` (a name, an alias or
    an index) of ``column`` for the player to move, at the start of a
    turn: a roll scoring them there, then the score (PadError where the
    box cannot take them now).  ``yatzy.session.Session.write`` plays them.

    >>> pad_texts(Game("nordic", ["Ann"]), "chance", 20)
    ('roll 11666', 'score chance')
    """
    if not at_turn_start(game):
        raise PadError("pad_not_now", "a score pad writes at the start of a turn, before "
                       "any dice are entered")
    rules = game.rules
    index = box if isinstance(box, int) else rules.box_index(box)
    if not 0 <= index < rules.n_boxes:
        raise PadError("pad_box", f"box {index} does not exist", box=str(index), column=0)
    if column is None:
        column = 1
    if not rules.play.names_columns and column != 1:
        raise PadError("pad_box", f"rules {rules.spec} have one column", box=str(box),
                       column=column)
    if isinstance(points, bool) or not isinstance(points, int):
        raise PadError("pad_points", "points must be a whole number", box=str(box),
                       column=column, points=points, values=[])
    dice = dice_for(game, index, points, column)
    where = rules.boxes[index].name + rules.play.tag(column)
    return ("roll " + "".join(map(str, dice)) if rules.faces < 10 else
            "roll " + " ".join(map(str, dice))), f"score {where}"


def mark_written(game: Game, start: int, roll: str, score: str) -> None:
    """Mark the game as written from a score pad (``settings["scorepad"]``)
    and keep the record of the box written by the moves ``start`` (the
    roll) and ``start + 1`` (the score)."""
    writes = game.settings.get(WRITES)
    if isinstance(writes, list) or not is_pad(game):    # (a pad game saved before the record
        game.settings[WRITES] = [                       # stays all the pad's: ``pad_moves``)
            w for w in writes or [] if isinstance(w, list) and w and type(w[0]) is int
            and w[0] < start] + [[start, roll, score]]
    game.settings[FLAG] = True


__all__ = ["FLAG", "WRITES", "PadError", "at_turn_start", "dice_for", "is_pad", "pad_moves",
           "pad_values", "unrated", "mark_written", "pad_texts"]
