"""What a family's score pad shows, as data for the page, drawn from the
table's ``Session`` (``yatzy.session``): who leads and by how much, each
column's bonus in words (made, missed, or the points still needed), the
weighted totals of several columns, each person's running loss (the
ledger; the turns written from a score pad unrated), the boxes a score
pad may write now, and once the game is over the end review of each
person (the loss, the costliest decisions).

The single game's routes (``yatzy.web.game_routes``) and the shared tables'
states (``yatzy.web.shared``) both answer ``family(session)``, so every
phone reads the same numbers as the coach and the end review.

    >>> from yatzy.game import Game
    >>> s = Session(Game("nordic", ["Kari", "Ola"], seed=1))
    >>> for m in ["roll 33356", "score threes", "roll 11256", "score chance"]:
    ...     _ = s.play(m)
    >>> f = family(s)
    >>> f["lead"], f["bonus"][0][0]
    ({'seats': [1], 'by': 6}, {'state': 'need', 'need': 54, 'pace': 0.0})
"""

from __future__ import annotations

import re

from yatzy.position.scorecard import Scorecard
from yatzy.scorepad import is_pad, pad_values
from yatzy.session import Session, bonus_pace

WORST = 3                       # the costliest decisions of a person the review names


def bonus_state(column: Scorecard) -> dict | None:
    """One column's bonus in words, as data: ``made`` (its points),
    ``missed`` (every upper box filled short, or too few left to reach
    it), else ``need`` with the points still needed and the pace
    (``bonus_pace``); None where the rules have no bonus.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> r = parse_rules("nordic")
    >>> bonus_state(Scorecard.parse("ones=4,sixes=12", r))
    {'state': 'need', 'need': 47, 'pace': -5.0}
    >>> bonus_state(Scorecard.parse("fours=16,fives=25,sixes=24", r))["state"]
    'made'
    """
    rules = column.rules
    if not rules.bonus_points or not rules.bonus_threshold:
        return None
    if column.bonus:
        return {"state": "made", "points": int(column.bonus)}
    total = column.upper_total
    reachable = total + sum(b.face * rules.dice for b, p in zip(rules.boxes, column.points)
                            if b.is_upper and p is None)
    if reachable < rules.bonus_threshold:
        return {"state": "missed", "short": rules.bonus_threshold - total}
    pace = bonus_pace(column)
    return {"state": "need", "need": rules.bonus_threshold - total,
            "pace": None if pace is None else round(pace, 1)}


LABEL = re.compile(r"^score (\w+)(?:@(\d+))? \((\d+)\)$")


def action_of(label: str) -> dict:
    """A decision's label as the page draws an action.

    >>> action_of("score chance@2 (23)"), action_of("keep 6 6")
    ({'action': 'score', 'box': 'chance', 'column': 2, 'points': 23}, {'action': 'keep', 'dice': [6, 6]})
    """
    m = LABEL.match(label)
    if m:
        return {"action": "score", "box": m[1], "column": int(m[2] or 0), "points": int(m[3])}
    rest = label[5:] if label.startswith("keep ") else ""
    return {"action": "keep", "dice": [int(d) for d in rest.split() if d.isdigit()]}


def review_of(session: Session, seat: int) -> dict | None:
    """A person's end review: the loss (the ledger's, the review's total),
    the decisions valued and the costliest ones (turn, dice, chosen, best,
    loss); None before their first turn; in a score-pad game only the score
    (``scores_only``: the dice on the pad are not the table's) where every
    turn was written from the pad; ``unrated``: the turns written from the
    pad, which the review leaves out."""
    game = session.game
    name, score = game.players[seat].name, game.cards[seat].score
    unrated = session.unrated().get(seat, 0)
    review = session.review(seat)
    if review is None:
        if unrated:
            return {"seat": seat, "name": name, "score": score, "scores_only": True,
                    "unrated": unrated}
        return None
    worst = [{"turn": d.turn, "roll": d.roll, "dice": list(d.dice), "loss": d.loss,
              "chosen": action_of(d.chosen), "best": action_of(d.best)}
             for d in review.costliest(WORST) if d.loss > 0]
    return {"seat": seat, "name": name, "score": score, "scores_only": False,
            "loss": review.total_loss, "decisions": len(review.decisions), "worst": worst,
            "unrated": unrated}


def family(session: Session, review: bool = True) -> dict:
    """The score pad's data (module docstring): ``lead`` (the leaders'
    seats and the points the next one is behind), ``standings``,
    ``bonus`` (per seat, per column), ``weighted`` (several columns: each
    seat's column totals, weights and weighted total), ``ledger``,
    ``unrated`` (each person's turns written from the pad, by seat),
    ``pad`` (the player to move's boxes and the points each may take, as
    ``"box@column": [points]``), ``scorepad`` (whether the game is written
    from a pad), and ``review`` once the game is over (``review``)."""
    game = session.game
    rules = game.rules
    leaders, by = session.lead()
    out = {
        "standings": [vars(s) for s in session.standings()],
        "lead": {"seats": leaders, "by": by},
        "bonus": [[bonus_state(c) for c in card.columns] for card in game.cards],
        "ledger": {str(seat): loss for seat, loss in session.ledger().items()},
        "unrated": {str(seat): n for seat, n in session.unrated().items()},
        "scorepad": is_pad(game),
        "pad": {f"{rules.boxes[b].name}@{c}": v for (c, b), v in pad_values(game).items()}
        if not game.is_over and game.player.is_human else {},
        "review": None,
    }
    if rules.play.names_columns:
        out["weighted"] = [{"seat": seat, "columns": [c.score for c in card.columns],
                            "weights": list(rules.column_weights), "total": card.score}
                           for seat, card in enumerate(game.cards)]
    if review and game.is_over:
        out["review"] = [r for seat, p in enumerate(game.players) if p.is_human
                         for r in [review_of(session, seat)] if r is not None]
    return out


__all__ = ["action_of", "bonus_state", "family", "review_of"]
