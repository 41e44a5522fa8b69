"""The upper bound on games of several columns (``yatzy.research.triple_bound``,
docs/triple.md) against brute force on reduced games: the relaxed one-column
game's value, the bound ≥ the exact optimum ≥ the strategy, and, with one
column, the bound equal to the exact value for any prices.

The brute force here is written from the rules text alone: dice as sorted
tuples (``bruteforce.dice_outcomes``, ``turn_value``: every keep tried),
boxes scored by the independent oracle, the raw upper total tracked and the
bonus given when it first reaches the threshold; a game state holds every
column at once."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest
import scoring_oracle as oracle
from bruteforce import dice_outcomes, turn_value

from yatzy import Solver
from yatzy.errors import InputError
from yatzy.players.triple import TripleTurn, advise
from yatzy.position.scorecard import Scorecard
from yatzy.research import triple_bound as tb
from yatzy.rules.boxes import Box, BoxKind, groups, upper
from yatzy.rules.ruleset import Rules, parse_rules

# two columns of three boxes, two three-faced dice, two rolls, bonus 5 at 4
DUO = Rules("duo", (upper("ones", 1), upper("twos", 2), Box("chance", BoxKind.CHANCE)),
            dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=5, columns=2)
# three columns of two boxes, three two-faced dice, three rolls, bonus 3 at 3
TRIO = Rules("trio", (upper("twos", 2), groups("pair", (2,))), dice=3, faces=2, rolls=3,
             bonus_threshold=3, bonus_points=3, columns=3)
# two columns of three boxes filled top to bottom, three three-faced dice
FORCED = Rules("forced_duo", (upper("ones", 1), upper("threes", 3), groups("pair", (2,))),
               dice=3, faces=3, rolls=2, bonus_threshold=4, bonus_points=6, order="forced",
               columns=2)
# two columns of one box each: the simplest coupling
PAIR = Rules("pair", (groups("pair", (2,)),), dice=2, faces=3, rolls=2, bonus_threshold=0,
             columns=2)
GAMES = [DUO, TRIO, FORCED, PAIR]


# ------------------------------------------------------------ brute force
def _allowed(rules, filled):
    open_ = [b for b in range(rules.n_boxes) if not filled >> b & 1]
    return open_[:1] if rules.order.value == "forced" else open_


def _write(rules, filled, raw, b, dice):
    """(points gained, bonus included; filled after; raw upper total after)."""
    box = rules.boxes[b]
    s = oracle.points(box, dice)
    if box.kind is not BoxKind.UPPER:
        return s, filled | 1 << b, raw
    got = s + (rules.bonus_points if rules.bonus_points and raw < rules.bonus_threshold <= raw + s
               else 0)
    return got, filled | 1 << b, raw + s


def exact_optimum(rules):
    """The optimal expected score of the coupled game: every column's card
    in the state, each turn writes one box of one column."""
    one = rules.column_rules
    w = rules.column_weights
    outcomes = dice_outcomes(one.dice, one.faces)
    full = (1 << one.n_boxes) - 1

    @lru_cache(maxsize=None)
    def value(state):
        if all(f == full for f, _ in state):
            return 0.0

        def stop(dice):
            best = -math.inf
            for c, (filled, raw) in enumerate(state):
                for b in _allowed(one, filled):
                    got, f2, r2 = _write(one, filled, raw, b, dice)
                    best = max(best, w[c] * got + value(state[:c] + ((f2, r2),) + state[c + 1:]))
            return best
        return turn_value(outcomes, one.dice, one.rolls, stop)
    return value(((0, 0),) * rules.columns)


def relaxed_column(rules, weight, prices):
    """The relaxed game of one column: each turn write a box (``weight``
    times the points, minus the turn's price) or nothing; full after the
    last turn."""
    one = rules.column_rules
    outcomes = dice_outcomes(one.dice, one.faces)
    full = (1 << one.n_boxes) - 1
    n_turns = len(prices)

    @lru_cache(maxsize=None)
    def value(g, filled, raw):
        open_ = one.n_boxes - bin(filled).count("1")
        if open_ > n_turns - g + 1:
            return -math.inf
        if g > n_turns:
            return 0.0 if filled == full else -math.inf

        def stop(dice):
            best = value(g + 1, filled, raw)
            for b in _allowed(one, filled):
                got, f2, r2 = _write(one, filled, raw, b, dice)
                best = max(best, weight * got - prices[g - 1] + value(g + 1, f2, r2))
            return best
        return turn_value(outcomes, one.dice, one.rolls, stop)
    return value(1, 0, 0)


def strategy_value(solver, rules):
    """The exact expected score of the project's strategy (``triple.advise``)
    over the whole game tree."""
    w = rules.column_weights
    one = rules.column_rules
    outcomes = dice_outcomes(rules.dice, rules.faces)

    def card_of(state):
        return Scorecard.parse(",".join(f"{one.boxes[b].name}@{c + 1}={p}"
                                        for c, col in enumerate(state)
                                        for b, p in enumerate(col) if p is not None), rules)

    @lru_cache(maxsize=None)
    def value(state):
        if all(p is not None for col in state for p in col):
            return 0.0
        card = card_of(state)
        turn = TripleTurn(solver.table, card)

        @lru_cache(maxsize=None)
        def play(dice, left):
            best = advise(solver.table, card, dice, left, turn).best
            if best.kind == "score":
                c, b = best.column - 1, one.box_index(best.box)
                nxt = state[:c] + (state[c][:b] + (best.points,) + state[c][b + 1:],) + state[c + 1:]
                return w[c] * (card_of(nxt).columns[c].score - card.columns[c].score) + value(nxt)
            fresh = outcomes[rules.dice - len(best.dice)]
            return sum(p * play(tuple(sorted(best.dice + r)), left - 1) for r, p in fresh)
        return sum(p * play(d, rules.rolls - 1) for d, p in outcomes[rules.dice])
    return value(((None,) * one.n_boxes,) * rules.columns)


# ------------------------------------------------------------ the relaxed column
@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_relaxed_column_matches_brute_force(rules):
    """The kernel's relaxed game against the brute force, for every column
    weight and prices of both signs."""
    rng = np.random.default_rng(7)
    n_turns = tb.turns(rules)
    for prices in (np.zeros(n_turns), rng.normal(0, 2, n_turns), tb.linear_prices(n_turns, 0.7)):
        for w in rules.column_weights:
            got = tb.column_value(rules, w, prices)
            assert got == pytest.approx(relaxed_column(rules, w, tuple(prices)), abs=1e-9)


def test_writing_nothing_is_a_real_option():
    """With free turns to spare, a column waits for good rolls: it earns
    more than the one-column game; with prices that make early turns dear
    it writes late (changing its value)."""
    n_turns = tb.turns(DUO)
    free = tb.column_value(DUO, 1, np.zeros(n_turns))
    exact_one = relaxed_column(DUO.column_rules, 1, (0.0,) * DUO.column_rules.n_boxes)
    assert free > exact_one + 0.1
    assert tb.column_value(DUO, 1, tb.linear_prices(n_turns, -3.0)) != pytest.approx(free)


# ------------------------------------------------------------ the bound
@pytest.fixture(scope="module")
def exact():
    return {r.name: exact_optimum(r) for r in GAMES}


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_every_price_gives_a_bound_above_the_optimum(rules, exact):
    rng = np.random.default_rng(11)
    n_turns = tb.turns(rules)
    for prices in [np.zeros(n_turns), rng.normal(0, 3, n_turns), rng.normal(2, 1, n_turns),
                   tb.linear_prices(n_turns, -1.0), tb.linear_prices(n_turns, 1.0)]:
        assert tb.upper_bound(rules, prices) >= exact[rules.name] - 1e-9


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_bound_optimum_strategy_in_order(rules, exact, tables_dir):
    """bound ≥ exact optimum ≥ the strategy's exact value; the searched
    bound is the smallest it tried, each one computed in full, and the
    shortcut by weights (``linear_bound``) is the bound itself."""
    found = tb.minimise(rules, step=0.1, evaluations=12)
    n_turns = tb.turns(rules)
    assert found.value == pytest.approx(tb.upper_bound(rules, tb.linear_prices(n_turns, found.slope)),
                                        abs=1e-9)
    assert found.value == min(v for _, v in found.tried)
    assert found.value <= dict(found.tried)[0.0]
    strategy = strategy_value(Solver(rules, tables=tables_dir), rules)
    print(f"{rules.name}: bound {found.value:.4f} (slope {found.slope:+.2f}), "
          f"optimum {exact[rules.name]:.4f}, strategy {strategy:.4f}")
    assert found.value >= exact[rules.name] - 1e-9 >= strategy - 2e-9


def test_constant_prices_change_nothing():
    """Each column writes as many boxes as it has, whenever it writes them,
    so a constant price cancels against its sum."""
    n_turns = tb.turns(DUO)
    assert tb.upper_bound(DUO, np.full(n_turns, 4.5)) == pytest.approx(
        tb.upper_bound(DUO, np.zeros(n_turns)), abs=1e-9)


@pytest.mark.parametrize("rules", [DUO.column_rules, TRIO.column_rules, FORCED.column_rules],
                         ids=lambda r: r.name)
def test_one_column_bound_is_the_exact_value(rules, tables_dir):
    """With one column every turn must write, so the prices cancel and the
    bound is the game's exact value, for any prices."""
    rng = np.random.default_rng(3)
    want = Solver(rules, tables=tables_dir).ev()
    for prices in (np.zeros(rules.n_boxes), rng.normal(0, 5, rules.n_boxes)):
        assert tb.upper_bound(rules, prices) == pytest.approx(want, abs=1e-9)
    assert exact_optimum(rules) == pytest.approx(want, abs=1e-9)


def test_bad_price_count_is_one_line():
    with pytest.raises(InputError, match="expected 6 prices, not 5"):
        tb.upper_bound(DUO, np.zeros(5))
    with pytest.raises(InputError, match="yahtzee bonus"):
        tb.check_columns(parse_rules("yahtzee"))


def test_cached_bound_is_reused(tmp_path):
    first = tb.cached_bound(DUO, tmp_path, step=0.1, evaluations=3)
    path = tb.cache_path(DUO, tmp_path)
    assert path.is_file()
    again = tb.cached_bound(DUO, tmp_path, step=0.1, evaluations=0)
    assert again == first
