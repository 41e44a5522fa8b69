"""A card's score is the engine's: cards rebuilt from simulated games'
logs score what the simulation scored, bonus rule included (also where the
threshold is 0, which the engine reads as no bonus)."""

import numpy as np
import pytest

from yatzy.api import Solver
from yatzy.errors import InputError
from yatzy.position.scorecard import Scorecard
from yatzy.research.review import read_log
from yatzy.rules.ruleset import parse_rules


@pytest.mark.parametrize("spec", ["nordic", "nordic:bonus_threshold=0", "forced"])
def test_rebuilt_cards_score_what_the_games_scored(spec, tables_dir, tmp_path):
    rules = parse_rules(spec)
    solver = Solver(rules, tables=tables_dir)
    for seed in range(6):
        log = tmp_path / f"{seed}.jsonl"
        sim = solver.simulate(1, seed=seed, log=log)
        (score,) = np.flatnonzero(sim.hist)
        _, (game,) = read_log(log, rules)
        card = Scorecard.empty(rules)
        for turn in game:
            card = card.fill(turn.box, turn.points)
        assert card.is_full and card.score == score


def test_a_threshold_of_zero_is_no_bonus_on_the_card_as_in_the_engine():
    rules = parse_rules("nordic:bonus_threshold=0")
    assert Scorecard.parse("ones=3", rules).bonus == 0
    assert Scorecard.parse("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18",
                           parse_rules("nordic")).bonus == 50


def test_a_card_takes_the_names_a_score_pad_takes():
    nordic, triple = parse_rules("nordic"), parse_rules("triple")
    assert str(Scorecard.parse("2 par=18, kåk=28, Tre like=9", nordic)) == \
        "two_pairs=18,three_of_a_kind=9,full_house=28"
    assert str(Scorecard.parse("2 par@1=18,enere@2=3", triple)) == "two_pairs@1=18,ones@2=3"


@pytest.mark.parametrize("card, said", [
    ("enere=3,sju=7", "ukjent boks 'sju' (bokser: enere, toere,"),
    ("kåk=28,sju=7", "okänd ruta 'sju' (rutor: ettor, tvåor,"),
    ("sju=7", "unknown box 'sju' (boxes: ones, twos,"),
])
def test_an_unknown_box_is_answered_in_the_language_of_the_cards_names(card, said):
    with pytest.raises(InputError) as e:
        Scorecard.parse(card, parse_rules("nordic"))
    assert str(e.value).startswith(said) and "\n" not in str(e.value)
