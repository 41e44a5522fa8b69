"""The strategy object (``yatzy.players.strategy``) and the play data
(``yatzy.rules.play``): the one place the column count chooses how a rule
set is played, and the advice and review of a one-card game and of
Trippel-Yatzy pinned, bit for bit, as they were before the choice was made
there (values as ``float.hex``: one card from commit 048b939, Trippel from
the slack strategy's commit 9587949, computed before the two were merged).
The look-ahead at the write (docs/triple.md) changed only the losses of the
scoring actions it re-values (their shortfall to its choice by points plus
the next turn's value); in these positions the choices and values are as
at 9587949."""

from __future__ import annotations

import json

import pytest

from yatzy import Solver
from yatzy.errors import InputError
from yatzy.game import Game
from yatzy.session import Session
from yatzy.players.strategy import Columns, OneCard, strategy_for
from yatzy.position.actions import Action, check_column
from yatzy.position.scorecard import Scorecard
from yatzy.rules.play import COLUMNS, EXACT, LOWER_BOUND, ONE_CARD
from yatzy.rules.ruleset import parse_rules

ADVICE = {
    ('nordic', '', '11256', 2): ('exact', [
        ('keep 5 6', '0x1.eb58a577015c6p+7', '0x0.0p+0'),
        ('keep 6', '0x1.eb476f9dd827fp+7', '0x1.135d929347000p-5'),
        ('keep 5', '0x1.ea60d8934b820p+7', '0x1.ef99c76bb4c00p-2'),
    ]),
    ('nordic', 'ones=3,two_pairs=18,yatzy=0', '33345', 1): ('exact', [
        ('keep 3 3 3', '0x1.b79e97325fa0ap+7', '0x0.0p+0'),
        ('keep 3 3 3 5', '0x1.b53fb8a7fa69dp+7', '0x1.2f6f45329b680p+0'),
        ('keep 3 3 3 4', '0x1.b4c72ee4459e0p+7', '0x1.6bb4270d01500p+0'),
    ]),
    ('triple', '', '11256', 2): ('lower_bound', [
        ('keep 6', '0x1.74e115b7904d6p+10', '0x0.0p+0'),
        ('keep 5 6', '0x1.74d87d386c41cp+10', '0x1.604d105c00000p-9'),
        ('keep 5', '0x1.74af7efd30b3ap+10', '0x1.5ec4f7f472000p-1'),
    ]),
    ('triple', 'ones@1=3,yatzy@3=50,sjanse@2=23', '66655', 1): ('lower_bound', [
        ('score full_house@3 (28)', '0x1.8c3d4c1f3e16ap+10', '0x0.0p+0'),
        ('score full_house@2 (28)', '0x1.8a8d3fd64bf20p+10', '0x1.5030a69159200p+2'),
        ('keep 6 6 6', '0x1.8a94b1f287039p+10', '0x1.d37f889a28c00p+2'),
    ]),
    ('triple', 'ones@1=3,ones@2=2,ones@3=4', '11126', 0): ('lower_bound', [
        ('score small_straight@1 (0)', '0x1.69af99e75a63ep+10', '0x0.0p+0'),
        ('score large_straight@1 (0)', '0x1.693ffc24cf55ep+10', '0x1.bd9cdadccc800p+1'),
        ('score one_pair@1 (2)', '0x1.6809ff88f4ba9p+10', '0x1.3c94d300e7300p+2'),
    ]),
}
GAMES = {
    'nordic': ('exact', 9, '0x1.2b4ab3991e5c0p+1', 'score full_house (26)', '0x1.eb144d9363e3cp+7'),
    'triple': ('lower_bound', 8, '0x1.33596247d3800p+0', 'score one_pair@1 (12)', '0x1.8971f519652acp+10'),
}
KEEP_ALL = {
    'nordic': [
        ('keep 1 1 2 5 6', 'keep 5 6', '0x1.fe74787134700p+1', '0x1.e35ed3953c8aap+7'),
        ('keep 1 1', 'keep 5 6', '0x1.4c03e3d792800p-2', '0x1.e2b8d1a350c16p+7'),
        ('score ones (2)', 'score ones (2)', '0x0.0p+0', '0x1.ddbd0e01c7165p+7'),
    ],
    'triple': [
        ('keep 1 1 2 5 6', 'keep 6', '0x1.38b11b5f75800p+2', '0x1.732745ba023abp+10'),
        ('keep 1 1', 'keep 5 6', '0x1.7a96b7d6dc000p-1', '0x1.72f5057b05e4ep+10'),
        ('score ones@2 (2)', 'score ones@1 (2)', '0x1.f203968ea0100p+2', '0x1.6fdfe6a5463efp+10'),
    ],
}


@pytest.fixture(scope="module")
def solvers(nordic, tables_dir):
    return {"nordic": Solver("nordic", tables=tables_dir),
            "triple": Solver("triple", tables=tables_dir)}


def test_the_rules_choose_the_strategy_once():
    nordic, triple = parse_rules("nordic"), parse_rules("triple")
    assert (nordic.play, triple.play) == (ONE_CARD, COLUMNS)
    assert isinstance(strategy_for(nordic), OneCard) and isinstance(strategy_for(triple), Columns)
    assert strategy_for(parse_rules("triple:order=forced")).play is COLUMNS
    assert strategy_for(parse_rules("maxi")).play is ONE_CARD
    assert (ONE_CARD.values, COLUMNS.values) == (EXACT, LOWER_BOUND)
    assert COLUMNS.refuse("risk") and not ONE_CARD.refuse("risk")
    assert ONE_CARD.refuse("step") and not COLUMNS.refuse("step")
    assert COLUMNS.refuse("no such thing") is None


@pytest.mark.parametrize("key", list(ADVICE))
def test_advice_is_as_before(solvers, key):
    spec, card, dice, rerolls = key
    values, top = ADVICE[key]
    advice = solvers[spec].advise(card, dice, rerolls)
    assert advice.values == values == solvers[spec].playing.play.values
    assert [(str(a), a.expected_final_score.hex(), a.loss.hex())
            for a in advice.actions[:3]] == top


@pytest.mark.parametrize("spec", list(GAMES))
def test_a_games_review_is_as_before(solvers, spec):
    players = {"nordic": ["Opt=optimal", "G=greedy"], "triple": ["Opt=optimal", "Step=step"]}
    game = Game(spec, players[spec], seed={"nordic": 5, "triple": 6}[spec],
                tables=solvers[spec].tables)
    while len(game.moves) < 40:
        Session(game).play_auto()
    review = game.review(1)
    assert (review.values, len(review.decisions), review.total_loss.hex(),
            review.decisions[-1].chosen, review.decisions[-1].chosen_value.hex()) == GAMES[spec]


@pytest.mark.parametrize("spec", list(KEEP_ALL))
def test_keeping_every_die_is_reviewed_as_before(solvers, spec, tmp_path):
    line = {"game": 1, "turn": 1, "rolls": ["11256", "11256", "11346"],
            "kept": ["11256", "11"], "box": "ones", **({"column": 2} if spec == "triple" else {})}
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(line) + "\n")
    review = solvers[spec].review(log)
    assert [(d.chosen, d.best, d.loss.hex(), d.chosen_value.hex())
            for d in review.decisions] == KEEP_ALL[spec]


def test_one_card_is_a_card_of_one_column():
    nordic = parse_rules("nordic")
    card = Scorecard.parse("ones=3,sixes=24,yatzy=50", nordic)
    assert card.columns == (card,) and card.column(1) == card
    assert card.upper_totals == (27,) and card.upper_total == 27
    assert card.allowed() == [(1, b) for b in card.allowed_boxes()]
    assert str(card) == "ones=3,sixes=24,yatzy=50"          # no @1 with one column
    with pytest.raises(InputError, match="unknown box 'ones@1'"):
        Scorecard.parse("ones@1=3", nordic)
    triple = parse_rules("triple")
    three = Scorecard.parse("sixes@2=24,ones@1=3", triple)
    assert three.upper_totals == (3, 24, 0) and three.upper_total == (3, 24, 0)
    assert str(three) == "ones@1=3,sixes@2=24" and three.score == 3 + 2 * 24
    with pytest.raises(ValueError, match="no single mask"):
        three.mask


def test_a_column_is_named_only_where_the_rules_name_columns():
    nordic, triple = parse_rules("nordic"), parse_rules("triple")
    assert [check_column(nordic, c, "x") for c in (0, 1)] == [0, 0]
    assert [check_column(triple, c, "x") for c in (1, 3)] == [1, 3]
    for rules, column, message in [(nordic, 2, "rules nordic have one column"),
                                   (triple, 0, "name the column"),
                                   (triple, 4, "column 4 does not exist")]:
        with pytest.raises(InputError, match=message):
            check_column(rules, column, "x")
    assert str(Action.parse("score chance@1 (20)", nordic)) == "score chance (20)"
    assert str(Action.parse("score chance@2 (20)", triple)) == "score chance@2 (20)"
