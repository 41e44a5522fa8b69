"""Trippel-Yatzy through the one ``Game``: three columns per player, 45
turns, moves that name their column, scores x1/x2/x3 with each column's
bonus, the Trippel strategy's advice (labelled as lower bounds, agreeing
with ``ev``), save/load and the log replayed by the one review."""

from __future__ import annotations

import json
import random

import pytest

from yatzy import Solver
from yatzy.errors import InputError
from yatzy.game import Game
from yatzy.session import Session
from yatzy.position.actions import EXACT, LOWER_BOUND, Action
from yatzy.position.scorecard import Scorecard
from yatzy.research.review import read_log
from yatzy.rules.ruleset import parse_rules

TRIPLE = parse_rules("triple")
NORDIC = parse_rules("nordic")


@pytest.fixture(scope="module")
def triple(nordic, tables_dir):
    return Solver("triple", tables=tables_dir)


def weighted_score(turns, seat: int) -> int:
    """A seat's Trippel score from its finished turns alone: each column's
    points plus 50 where its upper boxes reach 63, times the column."""
    points = {1: 0, 2: 0, 3: 0}
    upper = {1: 0, 2: 0, 3: 0}
    for t in turns:
        if t.player == seat:
            points[t.column] += t.points
            if NORDIC.boxes[t.box].is_upper:
                upper[t.column] += t.points
    return sum(c * (points[c] + (50 if upper[c] >= 63 else 0)) for c in points)


def play_randomly(game: Game, rng: random.Random, stop: int | None = None) -> None:
    """Random legal moves (a drawn roll when one is due) to the end, or
    until ``stop`` moves have been played."""
    while not game.is_over and (stop is None or len(game.moves) < stop):
        if game.needs_roll:
            game.play("roll")
            continue
        legal = game.legal_actions()
        scores = [a for a in legal if a.kind == "score"]
        action = rng.choice(scores if rng.random() < 0.5 else legal)
        game.play(str(Action.score(action.box, None, action.column))
                  if action.kind == "score" else str(action))


def test_whole_random_games_score_the_weighted_sum(triple):
    for seed in (1, 2):
        game = Game(triple, ["Ann", "Bob"], seed=seed)
        play_randomly(game, random.Random(seed))
        assert game.is_over and len(game.turns) == 2 * 45 == 2 * game.turns_per_player
        for seat in (0, 1):
            card = game.cards[seat]
            assert card.is_full and card.turn == 45
            assert card.score == weighted_score(game.turns, seat) == game.scores()[seat]
            # the columns: 15 boxes each, the protokoll's weighted row sums to the score
            assert [c.turn for c in card.columns] == [15, 15, 15]
        rows = {row["key"]: row["cells"] for row in game.protokoll()}
        assert len(rows["chance"]) == 6                  # 2 players x 3 columns
        weighted = rows["weighted"]
        assert [sum(weighted[:3]), sum(weighted[3:])] == list(game.scores())
        assert weighted == [w * t for w, t in zip((1, 2, 3) * 2, rows["total"])]
        with pytest.raises(InputError, match="game is over"):
            game.play("roll")


def test_a_move_names_its_column(triple):
    game = Game(triple, ["Ann"], seed=3)
    game.play("roll 66666")
    legal = game.legal_actions()
    scores = [a for a in legal if a.kind == "score"]
    assert len(scores) == 45 and {a.column for a in scores} == {1, 2, 3}
    assert Action.parse("score yatzy@3 (50)", TRIPLE) in legal
    for bad, message in [("score yatzy", "name the column"),
                         ("score yatzy@4", "column 4 does not exist"),
                         ("score yatzy@x", "column after @"),
                         ("score yatzy@2 (40)", "scores 50 in yatzy@2, not 40")]:
        with pytest.raises(InputError, match=message) as e:
            game.play(bad)
        assert "\n" not in str(e.value)
    assert str(game.play("score yatzy@3")) == "Move('score yatzy@3 (50)', player=0)"
    assert game.card.score == 150 and game.card.column(3).points[14] == 50
    game.play("roll 66666")
    legal = game.legal_actions()
    assert Action.score("yatzy", 50, 3) not in legal and Action.score("yatzy", 50, 1) in legal
    with pytest.raises(InputError, match="box yatzy@3 is already filled"):
        game.play("score yatzy@3")
    game.play("score sixes@2")
    assert game.card.score == 150 + 2 * 30 and game.card.upper_total == (0, 30, 0)


def test_a_column_earns_its_own_bonus(triple):
    game = Game(triple, ["Ann"], seed=0)
    for box, dice in [("ones", "11111"), ("twos", "22222"), ("threes", "33333"),
                      ("fours", "44444"), ("fives", "55555"), ("sixes", "66611")]:
        game.play(f"roll {dice}")
        game.play(f"score {box}@2")
    card = game.card
    assert card.column(2).upper_total == 5 + 10 + 15 + 20 + 25 + 18 == 93
    assert card.column(2).bonus == 50 and card.bonus == 100
    assert card.score == 2 * (93 + 50)
    bonus = next(row for row in game.protokoll() if row["key"] == "bonus")
    assert bonus["cells"] == [None, 50, None]


def test_advice_is_the_strategys_and_agrees_with_ev(triple):
    """The advice's values are lower bounds, the value of
    a score is ``ev`` (columns one by one) of the card it leaves."""
    game = Game(triple, ["Ann"], seed=4)
    play_randomly(game, random.Random(4), stop=12)
    while game.needs_roll:
        game.play("roll")
    advice = game.advice()
    assert advice.values == game.values == LOWER_BOUND
    want = triple.advise(game.card, game.dice, game.rerolls)
    assert [str(a) for a in advice.actions] == [str(a) for a in want.actions]
    for a in [a for a in advice.actions if a.kind == "score"][:5]:
        after = game.card.fill(NORDIC.box_index(a.box), a.points, column=a.column)
        assert a.expected_final_score == pytest.approx(triple.ev(after), abs=1e-9)
    # the strategy's order: losses grow, the best has none
    assert advice.best.loss == 0.0
    assert all(x.loss <= y.loss for x, y in zip(advice.actions, advice.actions[1:]))
    assert "lower bound" in str(advice)
    assert Solver("nordic", tables=triple.tables).advise("", "11256", 2).values == EXACT


def test_computers_play_the_strategy_to_the_end(triple):
    game = Game(triple, ["Opt=optimal", "Step=step"], seed=6)
    while not game.is_over:
        Session(game).play_auto()
    assert all(c.is_full for c in game.cards)
    assert [c.score for c in game.cards] == [weighted_score(game.turns, s) for s in (0, 1)]
    # the optimal seat's review finds no loss: the advice is what it played
    assert game.review(0).total_loss == 0.0
    with pytest.raises(InputError, match="a computer seat of several columns"):
        Game(triple, ["G=greedy"])
    with pytest.raises(InputError, match="step needs several columns"):
        Game("nordic", ["S=step"], tables=triple.tables)


def test_save_load_and_the_log(triple, tmp_path):
    game = Game(triple, ["Ann", "Bob"], seed=8)
    play_randomly(game, random.Random(8), stop=40)
    path = tmp_path / "game.json"
    game.save(path)
    again = Game.load(path, triple)
    assert again.cards == game.cards and again.moves == game.moves
    play_randomly(game, random.Random(9))
    play_randomly(again, random.Random(9))
    assert again.scores() == game.scores() and again.is_over
    # the log: a column per turn, read back and reviewed by the one review
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(game.log_lines()) + "\n")
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert all(1 <= x["column"] <= 3 for x in lines[1:]) and len(lines) == 1 + 90
    rules, games = read_log(log, "triple")
    assert rules == TRIPLE and [len(g) for g in games] == [45, 45]
    review = triple.review(log)
    assert list(review.scores) == list(game.scores())
    assert review.values == LOWER_BOUND
    both = game.review(0).total_loss + game.review(1).total_loss
    assert review.total_loss == pytest.approx(both)


def test_one_card_type_for_one_and_several_columns():
    one = Scorecard.parse("ones=3", NORDIC)
    assert one.columns == (one,) and one.allowed()[0] == (1, 1)
    card = Scorecard.parse("ones@1=3,yatzy@3=50", TRIPLE)
    assert len(card.points) == 45 and card.columns[0] == one
    assert card.allowed()[:2] == [(1, 1), (1, 2)] and len(card.allowed()) == 43
    with pytest.raises(ValueError, match="3 columns"):
        card.mask
    assert Scorecard.empty(TRIPLE).fill(0, 2, column=3).score == 6
    with pytest.raises(InputError, match="ones of column 1 is already filled"):
        card.fill(0, 2, column=1)
    with pytest.raises(InputError, match="rules nordic have one column"):
        Action.parse("score chance@2", NORDIC)
    assert Action.parse("score chance@1", NORDIC) == Action.score("chance")
