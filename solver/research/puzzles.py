r"""Puzzles from real positions, and the policies that calibrate a rating.

A *puzzle* is a position -- a card, the dice on the table, the rerolls left
-- where the choice matters: the best action beats the second best by at
least a level's threshold (``LEVELS``; smaller gaps are harder to see).
Positions come from games played by a *noisy* human-like player, or from a
player's own logged games (``from_log``).

The noisy player (temperature ``T`` > 0) picks action ``a`` with
probability proportional to

.. math::  \exp\big((Q(a) - Q^\ast) / T\big)

where ``Q(a)`` is the expected final score after ``a`` under optimal play
(``yatzy.players.advice``) and ``Q*`` the best of them: small losses are
common, large ones rare, as with people.  ``T = 0`` is the optimal player.
Its dice come from ``numpy.random.default_rng(seed)``: the puzzles of a seed
are always the same; ``daily_seed(date, rules)`` gives everyone the same
seed on a date.

``calibrate`` measures the rating scale: the mean loss per decision of the
optimal, ``greedy`` and ``simple`` policies (``yatzy.research.simulate``'s
games, each decision valued by ``yatzy.research.review``) and of the noisy
player at several temperatures, with their final means.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> from yatzy.tables.store import open_table
    >>> table = open_table(parse_rules("nordic"))
    >>> first = draw(table, 3, seed=7)
    >>> [p.key for p in first] == [p.key for p in draw(table, 3, seed=7)]
    True
    >>> all(p.gap >= LEVELS[0][0] for p in first)
    True
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
from dataclasses import dataclass, replace
from typing import Iterator, Sequence

import numpy as np

from yatzy.errors import InputError
from yatzy.players.advice import TurnValues
from yatzy.players.strategy import advise
from yatzy.position.actions import Action, Advice
from yatzy.position.scorecard import Scorecard, end_turn
from yatzy.research import stats
from yatzy.research.review import Turn, read_log, review
from yatzy.rules.ruleset import Rules
from yatzy.tables.store import Table

# (smallest gap, largest gap) between the best and the second best action
LEVELS = ((0.1, math.inf), (2.0, math.inf), (0.5, 2.0), (0.1, 0.5))
LEVEL_NAMES = ("any", "easy", "medium", "hard")
KINDS = ("first keep", "second keep", "box choice")
TEMPERATURE = 1.0                # the noisy player of the puzzles
CALIBRATION_TEMPERATURES = (0.25, 0.5, 1.0, 2.0)
PER_GAME = 2                     # puzzles taken from one game at most


def kind_of(rules: Rules, rerolls: int) -> str:
    """The kind of a decision: ``first keep`` (right after the first roll),
    ``second keep`` (a later roll with rerolls left) or ``box choice``."""
    if rerolls == 0:
        return KINDS[2]
    return KINDS[0] if rerolls == rules.rolls - 1 else KINDS[1]


def check_level(level: int) -> int:
    if not isinstance(level, int) or not 0 <= level < len(LEVELS):
        raise InputError(f"level {level!r}: expected 0 (any) .. {len(LEVELS) - 1}: "
                         + ", ".join(f"{i} {n}" for i, n in enumerate(LEVEL_NAMES)))
    return level


def level_of(gap: float) -> int:
    """The hardest level (1 .. 3) whose range holds ``gap``; 0 if none."""
    for i in range(len(LEVELS) - 1, 0, -1):
        lo, hi = LEVELS[i]
        if lo <= gap < hi:
            return i
    return 0


@dataclass(frozen=True)
class Puzzle:
    """A position to decide: ``card``, ``dice`` and ``rerolls``, with the
    ``gap`` between its best and second-best actions."""

    card: Scorecard
    dice: tuple[int, ...]
    rerolls: int
    gap: float

    @property
    def kind(self) -> str:
        return kind_of(self.card.rules, self.rerolls)

    @property
    def level(self) -> int:
        return level_of(self.gap)

    @property
    def key(self) -> str:
        """The position as text: ``card|dice|rerolls`` (``parse`` reads it)."""
        return f"{self.card}|{''.join(map(str, self.dice))}|{self.rerolls}"

    @classmethod
    def parse(cls, key: str, table: Table) -> "Puzzle":
        """The puzzle of a ``key`` under the rules of ``table``."""
        try:
            card, dice, rerolls = key.split("|")
            sc = Scorecard.parse(card, table.rules)
            hand = table.rules.dice_space.parse(dice)
            n = int(rerolls)
        except ValueError:
            raise InputError(f"puzzle {key!r}: expected card|dice|rerolls") from None
        return cls(sc, hand, n, gap(advise(table, sc, hand, n)))


def gap(advice: Advice) -> float:
    """How much the best action beats the second best by (0 with one action)."""
    return advice.actions[1].loss if len(advice.actions) > 1 else 0.0


def daily_seed(date: dt.date, rules: Rules) -> int:
    """The seed of the daily puzzles of ``date``: the same for everyone."""
    digest = hashlib.sha256(f"yatzy daily {rules.spec} {date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


# ------------------------------------------------------------ noisy games
@dataclass(frozen=True)
class Step:
    """One decision of a played game: the advice and the action taken."""

    advice: Advice
    chosen: Action

    @property
    def loss(self) -> float:
        return self.chosen.loss


def choose(advice: Advice, temperature: float, rng: np.random.Generator) -> Action:
    """The noisy player's action (the best one at temperature 0)."""
    if temperature <= 0:
        return advice.best
    loss = np.array([a.loss for a in advice.actions])
    weight = np.exp(-(loss - loss.min()) / temperature)
    return advice.actions[int(rng.choice(len(weight), p=weight / weight.sum()))]


def play_noisy(table: Table, temperature: float, rng: np.random.Generator
               ) -> tuple[list[Step], int]:
    """One game of the noisy player: its decisions and its final score."""
    rules = table.rules
    card = Scorecard.empty(rules)
    steps: list[Step] = []
    while not card.is_full:
        turn = TurnValues(table, card)
        dice = tuple(sorted(rng.integers(1, rules.faces + 1, rules.dice).tolist()))
        rerolls = rules.rolls - 1
        while True:
            advice = advise(table, card, dice, rerolls, turn)
            action = choose(advice, temperature, rng)
            steps.append(Step(advice, action))
            if action.kind == "score":
                card = end_turn(card, rules.box_index(action.box), action.points, dice, rerolls)
                break
            fresh = rng.integers(1, rules.faces + 1, rules.dice - len(action.dice)).tolist()
            dice = tuple(sorted(action.dice + tuple(fresh)))
            rerolls -= 1
    return steps, card.score


def _wanted(advice: Advice, level: int) -> float | None:
    g = gap(advice)
    lo, hi = LEVELS[level]
    return g if lo <= g < hi else None


def draw(table: Table, count: int, seed: int = 0, level: int = 0,
         temperature: float = TEMPERATURE) -> list[Puzzle]:
    """``count`` puzzles of ``level`` (0: any) from the noisy player's games
    of ``seed``, at most ``PER_GAME`` from one game, in the order found."""
    check_level(level)
    if table.rules.saved_rolls or table.rules.play.refuse("puzzles") or table.theta:
        raise InputError(f"rules {table.rules.spec}: puzzles need one column, no saved "
                         "rolls and the expected score")
    rng = np.random.default_rng(seed)
    out: list[Puzzle] = []
    games = 0
    while len(out) < count:
        games += 1
        if games > 50 * count + 50:
            raise InputError(f"found only {len(out)} puzzles of level {level} "
                             f"in {games - 1} games")
        steps, _ = play_noisy(table, temperature, rng)
        found = [(s, g) for s in steps if (g := _wanted(s.advice, level)) is not None]
        for i in sorted(rng.permutation(len(found))[:PER_GAME]):
            s, g = found[i]
            out.append(Puzzle(s.advice.card, s.advice.dice, s.advice.rerolls, g))
    return out[:count]


def from_log(table: Table, path: str, count: int, seed: int = 0,
             level: int = 0) -> list[Puzzle]:
    """``count`` puzzles of ``level`` from the positions of a game log
    (``yatzy.research.review``'s format): the player's costliest decisions
    first, then the others in an order drawn by ``seed``."""
    check_level(level)
    rules, games = read_log(path, table.rules)
    decisions = review(table, games).decisions
    positions = list(_log_positions(table, games))
    found = []
    for (card, dice, rerolls), d in zip(positions, decisions):
        advice = advise(table, card, dice, rerolls)
        g = _wanted(advice, level)
        if g is not None:
            found.append((d.loss, Puzzle(card, dice, rerolls, g)))
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(found))
    ranked = sorted(range(len(found)), key=lambda i: (-found[i][0], order[i]))
    return [found[i][1] for i in ranked[:count]]


def _log_positions(table: Table, games: Sequence[Sequence[Turn]]
                   ) -> Iterator[tuple[Scorecard, tuple[int, ...], int]]:
    """Every decision's position of logged games, in ``review``'s order."""
    rules = table.rules
    for turns in games:
        card = Scorecard.empty(rules)
        for turn in turns:
            available = card.max_rerolls
            for i, dice in enumerate(turn.rolls):
                yield card, dice, available - i
            last = turn.rolls[-1]
            points = advise(table, card, last, 0).find(
                Action.score(rules.boxes[turn.box].name)).points
            card = end_turn(card, turn.box, points, last, available - (len(turn.rolls) - 1))


# ------------------------------------------------------------ calibration
@dataclass(frozen=True)
class Anchor:
    """A policy's place on the rating scale: mean loss per decision (with
    its 95% interval) over ``decisions`` of ``games`` games, and its mean
    final score (``final_exact``: from the exact distribution, else the
    mean of those games)."""

    policy: str
    mean_loss: float
    ci95: tuple[float, float]
    decisions: int
    final_mean: float
    games: int
    final_exact: bool = False

    def as_dict(self) -> dict:
        return {"policy": self.policy, "mean_loss": self.mean_loss, "ci95": list(self.ci95),
                "decisions": self.decisions, "final_mean": self.final_mean,
                "games": self.games, "final_exact": self.final_exact}


def loss_summary(losses: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean of ``losses`` and its 95% confidence interval (normal
    approximation, cut at 0 for losses, which are never negative)."""
    x = np.asarray(losses, dtype=np.float64)
    if len(x) == 0:
        return math.nan, (math.nan, math.nan)
    m = float(x.mean())
    sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    lo, hi = stats.mean_ci95(m, sd, len(x))
    return m, (max(lo, 0.0) if x.min() >= 0 else lo, hi)      # losses are never negative


def noisy_anchor(table: Table, temperature: float, games: int, seed: int = 0) -> Anchor:
    """The noisy player's mean loss per decision and final mean over ``games``."""
    rng = np.random.default_rng(seed)
    losses, finals = [], []
    for _ in range(games):
        steps, score = play_noisy(table, temperature, rng)
        losses += [s.loss for s in steps]
        finals.append(score)
    m, ci = loss_summary(losses)
    name = "optimal" if temperature <= 0 else f"noisy T={temperature:g}"
    return Anchor(name, m, ci, len(losses), float(np.mean(finals)), games)


def policy_anchor(table: Table, policy: str, games: int, seed: int = 0) -> Anchor:
    """``greedy``'s or ``simple``'s mean loss per decision over ``games``
    simulated games (``yatzy.research.simulate``), valued by the review."""
    from yatzy.research.simulate import simulate
    rules = table.rules
    ds = rules.dice_space
    played: list[list[Turn]] = []

    def keep(log) -> None:
        for i in range(log.rolls.shape[0]):
            turns = []
            for t in range(log.rolls.shape[1]):
                n = int((log.rolls[i, t] >= 0).sum())
                rolls = tuple(ds.dice_of(ds.first_roll + int(r)) for r in log.rolls[i, t, :n])
                kept = tuple(ds.dice_of(int(k)) for k in log.keeps[i, t, :n - 1])
                turns.append(Turn("", t + 1, log.first + i + 1, rolls, kept,
                                  int(log.boxes[i, t]), int(log.points[i, t])))
            played.append(turns)

    sim = simulate(rules, None, games, seed, policy, on_log=keep)
    rev = review(table, played)
    m, ci = loss_summary([d.loss for d in rev.decisions])
    return Anchor(policy, m, ci, len(rev.decisions), sim.mean, games)


def calibrate(table: Table, games: int = 100, seed: int = 0,
              temperatures: Sequence[float] = CALIBRATION_TEMPERATURES) -> list[Anchor]:
    """The anchors of the rating scale: optimal, greedy, simple and the
    noisy player at each of ``temperatures``, ``games`` games each."""
    from yatzy.research.distribution import distribution
    out = [noisy_anchor(table, 0.0, games, seed)]
    out += [policy_anchor(table, p, games, seed) for p in ("greedy", "simple")]
    empty = Scorecard.empty(table.rules)
    out[:3] = [replace(a, final_mean=distribution(table.rules, empty, table.values, a.policy).mean,
                       final_exact=True) for a in out[:3]]
    out += [noisy_anchor(table, t, games, seed) for t in temperatures]
    return out
