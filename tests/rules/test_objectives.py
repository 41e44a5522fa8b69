"""The policies and objectives are declared once: every policy a rule set
lists plays it (a simulation through the API), every other one is refused
in one line naming those that do, and the match seats read the same list."""

from dataclasses import replace

import pytest
from small_games import BANKED, THREE_UPPER

from yatzy.api import Solver
from yatzy.errors import InputError
from yatzy.research.match import parse_policy
from yatzy.players.objectives import OBJECTIVES, objective_for
from yatzy.rules.objectives import ALL_POLICY_NAMES, policy_for, policy_names

COLUMNS = replace(THREE_UPPER, name="three_upper_x3", columns=3)
RULES = {"one column": THREE_UPPER, "saved rolls": BANKED, "three columns": COLUMNS}


@pytest.mark.parametrize("name", RULES)
def test_every_listed_policy_plays_and_every_other_is_refused(name, tables_dir):
    rules = RULES[name]
    solver = Solver(rules, tables=tables_dir)
    listed = policy_names(rules)
    assert listed and set(listed) <= set(ALL_POLICY_NAMES)
    for policy in ALL_POLICY_NAMES:
        if policy in listed:
            assert solver.simulate(50, seed=1, policy=policy).games == 50
        else:
            with pytest.raises(InputError) as e:
                solver.simulate(50, seed=1, policy=policy)
            assert "\n" not in str(e.value)
            with pytest.raises(InputError, match="expected one of " + ", ".join(listed)):
                policy_for(policy, rules)


def test_the_lists_are_what_each_rule_set_supports():
    assert policy_names(THREE_UPPER) == ("optimal", "greedy", "simple")
    assert policy_names(BANKED) == ("optimal",)
    assert policy_names(COLUMNS) == ("optimal", "greedy", "step")
    assert policy_names(THREE_UPPER, match=True)[-1] == "win"
    assert "win" not in policy_names(COLUMNS, match=True)


def test_match_seats_read_the_declarations():
    assert parse_policy("greedy", THREE_UPPER) == ("greedy", 0.0)
    assert parse_policy("win", THREE_UPPER) == ("win", 0.0)
    assert parse_policy("step", COLUMNS) == ("step", 0.0)
    for bad, rules in (("step", THREE_UPPER), ("simple", COLUMNS), ("win", COLUMNS)):
        with pytest.raises(InputError):
            parse_policy(bad, rules)


def test_objectives_name_what_they_refuse():
    assert objective_for("score", COLUMNS).table == "value"
    with pytest.raises(InputError, match="saved rolls"):
        objective_for("target", BANKED)
    with pytest.raises(InputError, match="one column"):
        objective_for("risk", COLUMNS)
    with pytest.raises(InputError, match="expected one of"):
        objective_for("median", THREE_UPPER)
    assert [o.parameter for o in OBJECTIVES] == ["", "--theta", "--target", "--opponent"]
