"""What a score pad tells the table, in words: who leads and by how much
(weighted totals with several columns), what the player to move still
needs for the bonus, and what each open box takes for the dice shown.

    >>> from yatzy.game import Game
    >>> from yatzy.session import Session
    >>> game = Game("nordic", ["Kari", "Ola"], seed=1)
    >>> for move in ("roll 11256", "score ones", "roll 66652", "score sixes"):
    ...     _ = game.play(move)
    >>> session = Session(game)
    >>> print(standing_line(session, "nb"))
    Ola leder med 16 · Kari trenger 61 til bonus (1 bak tre av hver)
    >>> _ = game.play("roll 22345")
    >>> points_line(game, "nb")[:60]               # Kari has written her ones
    'poeng for 2 2 3 4 5: toere 4, treere 3, firere 4, femmere 5,'
"""

from __future__ import annotations

from yatzy.cli.coach.pad import packed
from yatzy.game import Game
from yatzy.rules.words import box_name, message
from yatzy.session import Session, bonus_pace


def lead_text(session: Session, lang: str) -> str:
    """``Ola leder med 16``, ``likt i toppen: Kari, Ola``; "" with one player
    or before anyone has points."""
    game = session.game
    if len(game.players) < 2 or not any(game.scores()):
        return ""
    top, margin = session.lead()
    names = [game.players[i].name for i in top]
    if len(top) > 1:
        return message("level", lang, names=", ".join(names))
    return message("leads", lang, name=names[0], n=margin)


def bonus_text(session: Session, lang: str) -> str:
    """What the player to move still needs for the bonus: ``Kari trenger
    42 til bonus (3 foran tre av hver)``; with several columns the need of
    each open column (``trenger til bonus: 42 i @1, 51 i @3``); "" when no bonus is open or
    nothing is written towards it yet."""
    game = session.game
    if game.is_over:
        return ""
    seat = game.turn_player
    needs = session.bonus_needs()[seat]
    name = game.players[seat].name
    if len(needs) > 1:
        open_ = [message("in_column", lang, n=n, c=c) for c, n in enumerate(needs, 1)
                 if n is not None and n < game.rules.bonus_threshold]
        return message("bonus_columns", lang, name=name, list=", ".join(open_)) if open_ else ""
    if needs[0] is None or needs[0] == game.rules.bonus_threshold:     # nothing written yet
        return ""
    text = message("bonus_need", lang, name=name, n=needs[0])
    pace = bonus_pace(game.cards[seat].columns[0])
    if pace is not None and round(pace):
        text += f" ({pace_text(game, pace, lang)})"
    return text


def pace_text(game: Game, pace: float, lang: str) -> str:
    """How far ahead of or behind the bonus's pace a column is, said in the
    measure of the rules: three of each in Nordic, four in Maxi, two in
    forced order (the bonus over the faces of the upper boxes), else the
    pace itself."""
    rules = game.rules
    each = rules.bonus_threshold / sum(b.face for b in rules.boxes if b.is_upper)
    key = "pace_ahead" if pace > 0 else "pace_behind"
    if each == 3:
        return message(key, lang, n=abs(round(pace)))
    if each.is_integer():
        return message(key + "_each", lang, n=abs(round(pace)), k=int(each))
    return message(key + "_pace", lang, n=abs(round(pace)))


def standing_line(session: Session, lang: str) -> str:
    """Who leads and the bonus the player to move needs, as one line."""
    return " · ".join(t for t in (lead_text(session, lang), bonus_text(session, lang)) if t)


def points_items(game: Game, lang: str) -> list[str]:
    """Each open box and what it takes for the dice on the table
    (``toere 4``; with several columns, each box once: its points are the
    same in every column)."""
    seen: dict[int, int] = {}
    for _, box, points in game.board.score_options(game.card, game.dice):
        seen.setdefault(box, points)
    boxes = game.rules.boxes
    return [f"{box_name(boxes[b].name, lang)} {p}" for b, p in sorted(seen.items())]


def points_line(game: Game, lang: str) -> str:
    """What each open box takes for the dice on the table, as one line."""
    return message("points_now", lang, dice=" ".join(map(str, game.dice)),
                   list=", ".join(points_items(game, lang)))


def points_rows(game: Game, lang: str, room: int) -> list[str]:
    """``points_line`` in rows of at most ``room`` characters, broken
    between boxes, never inside a name (``liten straight 0``)."""
    items = points_items(game, lang)
    head = message("points_now", lang, dice=" ".join(map(str, game.dice)), list="").rstrip()
    return packed([head] + [i + "," for i in items[:-1]] + items[-1:], room, " ")
