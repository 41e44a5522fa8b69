"""A card's score is the engine's: cards rebuilt from simulated games'
logs score what the simulation scored, bonus rule included (also where the
threshold is 0, which the engine reads as no bonus)."""

import numpy as np
import pytest

from yatzy.api import Solver
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
