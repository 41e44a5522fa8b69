"""The clairvoyant bound of ``yatzy bounds --versus optimal`` against the
exact optimum of a reduced two-player game.

Two players take turns (both orders tried); the opponent plays the
engine's expected-score policy (the advice, with its tie rule); the player
sees the opponent's card at every decision and plays to finish strictly
higher (or with a tie counting half, or as a win).  A plain recursion over
the joint game, written here (the player's dice as sorted tuples, every
keep tried, boxes scored by the independent oracle, the raw upper total),
gives the best chance any play has; the clairvoyant bound, from the
engine's exact distribution and target table, must lie at or above it.
The same recursion told the opponent's final score before the game gives
the clairvoyant value itself, which the bound must equal."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from functools import lru_cache

import pytest
import scoring_oracle as oracle
from small_games import optimal

from yatzy import Solver
from yatzy.position.scorecard import Scorecard
from yatzy.research import brackets
from yatzy.rules.boxes import Box, BoxKind, groups, upper
from yatzy.rules.ruleset import Rules

# Two three-faced dice, two rolls, four boxes, a bonus of 3 at an upper total of 4.
DUEL = Rules("duel", (upper("ones", 1), upper("twos", 2), groups("pair", (2,)),
                      Box("chance", BoxKind.CHANCE)),
             dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=3)
TIES = {"lost": lambda b, a: float(b > a), "half": lambda b, a: (b > a) + 0.5 * (b == a),
        "won": lambda b, a: float(b >= a)}


def rolls_of(k: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every sorted roll of ``k`` fresh dice with its probability."""
    tally = Counter(tuple(sorted(d)) for d in itertools.product(range(1, DUEL.faces + 1), repeat=k))
    return tuple((d, c / DUEL.faces ** k) for d, c in sorted(tally.items()))


ROLLS = {k: rolls_of(k) for k in range(DUEL.dice + 1)}
KEEPS = lru_cache(maxsize=None)(lambda dice: sorted({tuple(sorted(c)) for r in range(len(dice))
                                                     for c in itertools.combinations(dice, r)}))


class Player:
    """The player's side, written plainly: a state is (boxes filled, raw
    upper total, score with the bonus); ``turn(state, after)`` is the best
    expected ``after(next state)`` over one turn, every keep and box tried."""

    N = len(DUEL.boxes)

    @staticmethod
    def write(state, box: int, dice) -> tuple:
        filled, up, score = state
        points = oracle.points(DUEL.boxes[box], dice)
        raw = up + (points if DUEL.boxes[box].kind == "upper" else 0)
        bonus = DUEL.bonus_points if up < DUEL.bonus_threshold <= raw else 0
        # past the threshold the upper total no longer matters
        return filled | {box}, min(raw, DUEL.bonus_threshold), score + points + bonus

    @classmethod
    def turn(cls, state, after) -> float:
        @lru_cache(maxsize=None)
        def best(dice, left):
            value = max(after(cls.write(state, b, dice)) for b in range(cls.N) if b not in state[0])
            if left:
                for keep in KEEPS(dice):
                    value = max(value, sum(p * best(tuple(sorted(keep + fresh)), left - 1)
                                           for fresh, p in ROLLS[DUEL.dice - len(keep)]))
            return value
        return sum(p * best(dice, DUEL.rolls - 1) for dice, p in ROLLS[DUEL.dice])


START = (frozenset(), 0, 0)


def full(state) -> bool:
    return len(state[0]) == Player.N


class Opponent:
    """The opponent: the engine's expected-score advice at every roll;
    ``turn(card)``: the cards after its turn, with their chances."""

    def __init__(self, table):
        self.table = table
        self.memo = {}

    def turn(self, card: Scorecard) -> dict:
        key = (card.mask, card.upper_state)
        if key not in self.memo:
            ends = defaultdict(float)

            def walk(dice, left, p):
                action = optimal(self.table, card, dice, left)
                if action[0] == "score":
                    ends[action[1:]] += p
                else:
                    for fresh, q in ROLLS[DUEL.dice - len(action[1])]:
                        walk(tuple(sorted(action[1] + fresh)), left - 1, p * q)
            for dice, p in ROLLS[DUEL.dice]:
                walk(dice, DUEL.rolls - 1, p)
            self.memo[key] = dict(ends)
        return {card.fill(box, points): p for (box, points), p in self.memo[key].items()}

    def final_scores(self) -> dict[int, float]:
        """The opponent's final-score distribution, by the same walk."""
        pmf = defaultdict(float)

        def go(card, p):
            if card.is_full:
                pmf[card.score] += p
                return
            for nxt, q in self.turn(card).items():
                go(nxt, p * q)
        go(Scorecard.empty(DUEL), 1.0)
        return pmf


def sequential_optimum(opponent: Opponent, tie, player_first: bool) -> float:
    """The best chance of the player in the game itself, turns taken in
    order, the player seeing the opponent's card throughout (a card is
    known by its boxes, upper total and score: what the rest depends on)."""
    cards = {}

    def key(card: Scorecard) -> tuple:
        k = (card.mask, card.upper_state, card.score)
        cards.setdefault(k, card)
        return k

    @lru_cache(maxsize=None)
    def value(k: tuple, state, player_moves: bool) -> float:
        card = cards[k]
        if card.is_full and full(state):
            return tie(state[2], card.score)
        if player_moves:
            return Player.turn(state, lambda s: value(k, s, card.is_full))
        return sum(p * value(key(nxt), state, not full(state))
                   for nxt, p in opponent.turn(card).items())
    return value(key(Scorecard.empty(DUEL)), START, player_first)


def clairvoyant_value(pmf: dict[int, float], tie) -> float:
    """The player told the opponent's final score ``s`` before the game:
    the best chance against each ``s``, weighted by its probability."""
    @lru_cache(maxsize=None)
    def chance(state, s: int) -> float:
        if full(state):
            return tie(state[2], s)
        return Player.turn(state, lambda nxt: chance(nxt, s))
    return sum(p * chance(START, s) for s, p in pmf.items())


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    solver = Solver(DUEL, tables=tmp_path_factory.mktemp("duel"))
    dist = solver.distribution()
    target, empty = solver.target(), solver.card("")
    figures = brackets.win_figures(DUEL, dist.pmf, lambda t: target.probability(empty, t))
    return solver, dist, figures.as_dict()


def test_the_opponent_is_the_engines_expected_score_play(duel):
    """The walk of the advice gives the engine's exact distribution, so the
    bound is computed for the opponent the recursion plays against."""
    solver, dist, _ = duel
    pmf = Opponent(solver.table).final_scores()
    assert sum(pmf.values()) == pytest.approx(1.0, abs=1e-12)
    for s in range(len(dist.pmf)):
        assert dist.pmf[s] == pytest.approx(pmf.get(s, 0.0), abs=1e-12)


def test_the_bound_is_the_clairvoyant_value(duel):
    """Ties lost and ties won: the bound equals what the recursion finds for
    a player told the opponent's final score; ties half: at most the mean."""
    solver, _, d = duel
    pmf = Opponent(solver.table).final_scores()
    assert d["upper_bound_unrounded"] == pytest.approx(clairvoyant_value(pmf, TIES["lost"]),
                                                       abs=1e-12)
    assert d["upper_bound_ties_won_unrounded"] == pytest.approx(
        clairvoyant_value(pmf, TIES["won"]), abs=1e-12)
    assert clairvoyant_value(pmf, TIES["half"]) <= d["upper_bound_ties_half_unrounded"] + 1e-12


@pytest.mark.parametrize("player_first", [True, False])
@pytest.mark.parametrize("ties, key", [("lost", "upper_bound"), ("half", "upper_bound_ties_half"),
                                       ("won", "upper_bound_ties_won")])
def test_no_play_of_the_game_beats_the_bound(duel, ties, key, player_first):
    """The exact optimum of the game, in either seat and each tie rule, is
    at or below the bound (unrounded and as printed), and above the proven
    lower bound and the chance of playing for the expected score too."""
    solver, dist, d = duel
    opponent = Opponent(solver.table)
    best = sequential_optimum(opponent, TIES[ties], player_first)
    assert best <= d[f"{key}_unrounded"] + 1e-12
    assert d[f"{key}_unrounded"] <= d[key]
    pmf = opponent.final_scores()
    same = sum(p * q * TIES[ties](b, a) for a, p in pmf.items() for b, q in pmf.items())
    assert best > same + 1e-3
    if ties == "lost":
        assert d["lower_bound"] <= d["lower_bound_unrounded"] == pytest.approx(same, abs=1e-12)
