"""What a study of the strategy asks of ``Solver`` beyond its one value:
the strategy's own mean (``strategy_mean``), exact where the table solves
the game, else measured with its interval; the named results of
``yatzy.research.stats`` (``Versus``, ``Paired``) and the head-to-head
studies of ``yatzy.research.match`` complete it.

    >>> Mean(248.44, 248.44, 248.44, 0).exact
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

from yatzy.bounds import check_games
from yatzy.errors import InputError

if TYPE_CHECKING:
    from yatzy.position.scorecard import Scorecard

STRATEGY_GAMES = 4_000       # games behind a measured mean unless told (as ``yatzy ev``)


class Mean(NamedTuple):
    """A strategy's mean final score: ``value``, its 95 % interval ``low
    .. high`` and the ``games`` it was measured over (0: exact, from the
    solved table; then ``low == high == value``)."""

    value: float
    low: float
    high: float
    games: int

    @property
    def exact(self) -> bool:
        return self.games == 0


class Asked(Protocol):
    """What ``strategy_mean`` asks of a solver (``yatzy.api.Solver`` is one)."""

    ev_is: str

    def card(self, card): ...
    def ev(self, card): ...
    def simulate(self, games: int, seed: int): ...
    def distribution(self, card, games: int, seed: int): ...


def strategy_mean(solver: Asked, card: Scorecard | str = "", games: int | None = None,
                  seed: int = 0) -> Mean:
    """``Solver.strategy_mean``: the exact expected score where the table
    solves the game and no ``games`` are asked for; else the mean of the
    strategy's distribution estimated from ``games`` played games (several
    columns: ``STRATEGY_GAMES`` unless given)."""
    sc = solver.card(card)
    if games is None and solver.ev_is == "exact":
        value = solver.ev(sc)
        return Mean(value, value, value, 0)
    games = STRATEGY_GAMES if games is None else check_games(games)
    if solver.ev_is == "exact":              # one card: played games from a new game
        if sc.mask or sc.score:
            raise InputError("a measured mean of one card starts from a new game (from a "
                             "card: the exact value, games=None)")
        sim = solver.simulate(games, seed)
        return Mean(sim.mean, *sim.ci95, games)
    dist = solver.distribution(sc, games=games, seed=seed)
    low, high = dist.ci95
    return Mean(dist.mean, low, high, games)
