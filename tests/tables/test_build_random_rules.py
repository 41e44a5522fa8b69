"""The engine against the brute force (tests/bruteforce.py) on random small
rule sets: 2-4 boxes of every kind, 1-3 dice of 2-4 faces, 1-3 rolls, every
fill order, with and without a bonus.  The brute force scores with the
independent oracle; the engine with its own scoring."""

from bruteforce import assert_engine_matches
from hypothesis import given, settings
from hypothesis import strategies as st

from yatzy.rules.boxes import Box, BoxKind, groups, straight, upper
from yatzy.rules.ruleset import Order, Rules


@st.composite
def box(draw, name, dice, faces):
    kind = draw(st.sampled_from(list(BoxKind)))
    if kind is BoxKind.UPPER:
        return upper(name, draw(st.integers(1, faces)))
    if kind is BoxKind.CHANCE:
        return Box(name, BoxKind.CHANCE)
    if kind is BoxKind.STRAIGHT:
        def run(length):
            start = draw(st.integers(1, faces - length + 1))
            return tuple(range(start, start + length))
        longest = min(dice, faces)
        runs = tuple(run(draw(st.integers(1, longest))) for _ in range(draw(st.integers(1, 2))))
        return straight(name, runs, draw(st.integers(1, 20)))
    sizes = tuple(draw(st.lists(st.integers(1, dice), min_size=1, max_size=2)
                       .filter(lambda s: sum(s) <= dice)))
    scoring = draw(st.sampled_from(["those dice", "all dice", "points"]))
    return groups(name, sizes, distinct=draw(st.booleans()), sum_all=scoring == "all dice",
                  points=draw(st.integers(1, 20)) if scoring == "points" else 0)


@st.composite
def small_rules(draw):
    dice, faces = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    boxes = tuple(draw(box(f"box{i}", dice, faces)) for i in range(draw(st.integers(2, 4))))
    bonus = draw(st.booleans())
    return Rules("random", boxes, dice=dice, faces=faces, rolls=draw(st.integers(1, 3)),
                 order=draw(st.sampled_from(list(Order))),
                 bonus_threshold=draw(st.integers(1, 3 * faces)),
                 bonus_points=draw(st.integers(1, 30)) if bonus else 0)


@settings(max_examples=800, deadline=None)
@given(small_rules())
def test_engine_matches_the_brute_force_on_random_small_rules(rules):
    assert_engine_matches(rules) >= 1
