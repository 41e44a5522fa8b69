"""What a player plays for, as objects: each owns the table it reads, its
value of a position and of every action, and its rule for ties; one module
each (a new objective is one module here plus its kernel).

* ``Score()``: the largest expected final score (``score``)
* ``Risk(theta)``: the largest expected utility of the final score (``risk``)
* ``Target(points)``: the largest chance to finish with at least ``points``
  (``target``)
* ``Win(opponents, done)``: the largest chance to beat the opponents (``win``)

``Solver.advise(card, dice, rerolls, objective)`` and ``Solver.ev(card,
objective)`` take one; ``objective_from`` builds one from the options a
command line or a request gives (``theta``, ``target``, ``opponents``).

    >>> objective_from(target=200)
    Target(200)
    >>> objective_from(theta=0.05, target=200)
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: a target and a risk parameter do not go together: the target tables maximise the chance itself
    >>> [o.name for o in OBJECTIVES]
    ['score', 'risk', 'target', 'win']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from yatzy.errors import InputError
from yatzy.players.objectives.base import Objective, Tables
from yatzy.players.objectives.risk import Risk
from yatzy.players.objectives.score import Score
from yatzy.players.objectives.target import Target
from yatzy.players.objectives.win import Win

if TYPE_CHECKING:
    from yatzy.position.scorecard import Scorecard
    from yatzy.rules.ruleset import Rules

OBJECTIVES: tuple[type[Objective], ...] = (Score, Risk, Target, Win)


def objective_from(theta: float = 0.0, target: int | None = None,
                   opponents: Iterable[Scorecard | str] = (),
                   done: Iterable[Scorecard | str] = ()) -> Objective:
    """The objective the options ask for (at most one of a risk parameter,
    a target and opponents; none: the expected score)."""
    opponents, done = tuple(opponents), tuple(done)
    if opponents or done:
        if target is not None:
            raise InputError("--target and --opponent do not go together")
        if theta:
            raise InputError("playing to win and a risk parameter do not go together")
        return Win(opponents, done)
    if target is not None:
        if theta:
            raise InputError("a target and a risk parameter do not go together: "
                             "the target tables maximise the chance itself")
        return Target(target)
    return Risk(theta) if theta else Score()


def objective_for(name: str, rules: Rules) -> type[Objective]:
    """The objective called ``name``, if ``rules`` support it."""
    for o in OBJECTIVES:
        if o.name == name:
            why = o.refuse(rules)
            if why:
                raise InputError(f"rules {rules.spec}: {why}")
            return o
    raise InputError(f"objective {name!r}: expected one of "
                     f"{', '.join(o.name for o in OBJECTIVES)}")


__all__ = ["OBJECTIVES", "Objective", "Risk", "Score", "Tables", "Target", "Win",
           "objective_for", "objective_from"]
