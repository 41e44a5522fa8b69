"""A game's turns as the lines of a log, and the types of its review: each
logged turn (``Turn``), each decision valued with its loss (``Decision``,
the ledger of ``yatzy.players.judge``'s losses) and the whole review
(``Review``).  The game's record (``yatzy.record``) writes and reviews its
turns with them; reading a log and valuing it is
``yatzy.research.review``'s.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from yatzy.position.actions import EXACT
from yatzy.rules.ruleset import Rules

LOG_VERSION = 1


# -------------------------------------------------------------------- writing
def header_line(rules: Rules, **extra) -> str:
    """The optional first line of a log."""
    return json.dumps({"yatzy_log": LOG_VERSION, "rules": rules.spec, **extra})


def turn_line(rules: Rules, game: int, turn: int, rolls: list[tuple[int, ...]],
              kept: list[tuple[int, ...]], box: int, points: int | None = None,
              column: int | None = 0) -> str:
    """One turn as a log line; ``box`` is an index, the points follow from
    the last roll unless given (a joker); ``column`` (from 1) where the
    rules name columns (``Play.label``; 0 or None: not written)."""
    ds = rules.dice_space
    if points is None:
        points = int(rules.scores[ds.roll_index(rolls[-1]), box])
    return json.dumps({"game": game, "turn": turn, "rolls": [list(r) for r in rolls],
                       "kept": [list(k) for k in kept], "box": rules.boxes[box].name,
                       **({"column": column} if column else {}), "points": points})


# ----------------------------------------------------------------- a logged turn
@dataclass(frozen=True)
class Turn:
    """One logged turn: ``line`` is its line number in the log ``path``."""

    path: str
    line: int
    game: int
    rolls: tuple[tuple[int, ...], ...]
    kept: tuple[tuple[int, ...], ...]
    box: int
    points: int | None        # as logged, checked by the review
    column: int = 0           # from 1 under rules with several columns, else 0


# -------------------------------------------------------------------- review
@dataclass(frozen=True)
class Decision:
    """One decision of a logged game, valued by the optimal strategy."""

    game: int
    turn: int
    roll: int                 # 1-based roll number within the turn
    line: int
    dice: tuple[int, ...]
    rerolls: int
    chosen: str
    chosen_value: float       # expected final score after the choice
    best: str
    best_value: float
    loss: float

    def as_dict(self) -> dict:
        return {"game": self.game, "turn": self.turn, "roll": self.roll, "line": self.line,
                "dice": list(self.dice), "rerolls": self.rerolls, "chosen": self.chosen,
                "chosen_value": self.chosen_value, "best": self.best,
                "best_value": self.best_value, "loss": self.loss}


@dataclass(frozen=True)
class Review:
    rules: Rules
    decisions: tuple[Decision, ...]
    scores: tuple[int, ...]                  # each game's score at the end of the log
    values: str = EXACT                      # what the values are (``Advice.values``)

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    def costliest(self, n: int = 3) -> list[Decision]:
        return sorted(self.decisions, key=lambda d: -d.loss)[:n]

    def as_dict(self) -> dict:
        return {"rules": self.rules.spec, "games": len(self.scores), "scores": list(self.scores),
                "values": self.values, "decisions": len(self.decisions),
                "total_loss": self.total_loss, "mean_loss": self.mean_loss,
                "costliest": [d.as_dict() for d in self.costliest()],
                "all": [d.as_dict() for d in self.decisions]}


__all__ = ["LOG_VERSION", "Decision", "Review", "Turn", "header_line", "turn_line"]
