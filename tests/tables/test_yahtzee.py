"""American Yahtzee (published optima: test_golden.py): joker placement and scoring, the bonus,
and a brute force of a reduced game with jokers and bonus."""

import itertools
from functools import lru_cache

import pytest
import scoring_oracle as oracle

from yatzy.errors import InputError
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.rules.boxes import Box, groups, straight, upper
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.space import state_space
from yatzy.tables.build import solve
from yatzy.tables.store import open_table


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    d = tmp_path_factory.mktemp("y")
    return {spec: open_table(parse_rules(spec), d, progress=False)
            for spec in ("yahtzee", "yahtzee:joker=free", "yahtzee:joker=none")}


def options(table, card, dice):
    adv = advise(table, Scorecard.parse(card, table.rules), dice, 0)
    return {a.box: a for a in adv.actions}


def test_forced_joker_must_use_the_matching_upper_box(tables):
    opts = options(tables["yahtzee"], "yahtzee=50", (4, 4, 4, 4, 4))
    assert list(opts) == ["fours"] and opts["fours"].points == 20


def test_forced_joker_goes_to_lower_boxes_at_full_value(tables):
    opts = options(tables["yahtzee"], "yahtzee=0,fours=12", (4, 4, 4, 4, 4))
    assert {b: a.points for b, a in opts.items()} == {
        "three_of_a_kind": 20, "four_of_a_kind": 20, "full_house": 25,
        "small_straight": 30, "large_straight": 40, "chance": 20}


def test_forced_joker_scratches_an_upper_box_only_when_lower_is_full(tables):
    lower = "three_of_a_kind=0,four_of_a_kind=0,full_house=0,small_straight=0," \
            "large_straight=0,chance=0,yahtzee=50"
    opts = options(tables["yahtzee"], lower + ",fours=12", (4, 4, 4, 4, 4))
    assert set(opts) == {"ones", "twos", "threes", "fives", "sixes"}
    assert all(a.points == 0 for a in opts.values())


def test_bonus_only_after_a_scored_fifty(tables):
    t = tables["yahtzee"]
    with50 = options(t, "yahtzee=50,fours=12", (4, 4, 4, 4, 4))["full_house"]
    with0 = options(t, "yahtzee=0,fours=12", (4, 4, 4, 4, 4))["full_house"]
    c50 = Scorecard.parse("yahtzee=50,fours=12", t.rules)
    c0 = Scorecard.parse("yahtzee=0,fours=12", t.rules)
    fh = t.rules.box_index("full_house")
    assert with50.expected_final_score == pytest.approx(
        c50.score + 100 + 25 + t.values[c50.mask | 1 << fh, 12], abs=1e-9)
    assert with0.expected_final_score == pytest.approx(
        c0.score + 25 + t.values[c0.mask | 1 << fh, 12], abs=1e-9)


def test_first_yahtzee_is_ordinary(tables):
    opts = options(tables["yahtzee"], "", (6, 6, 6, 6, 6))
    assert opts["yahtzee"].points == 50
    assert opts["full_house"].points == 0 and opts["small_straight"].points == 0
    assert opts["ones"].points == 0                      # any box, usual scores


def test_free_joker_with_matching_box_open_follows_usual_rules(tables):
    opts = options(tables["yahtzee:joker=free"], "yahtzee=50", (3, 3, 3, 3, 3))
    assert opts["threes"].points == 15
    assert opts["full_house"].points == 0 and opts["large_straight"].points == 0
    assert "ones" in opts


def test_free_joker_with_matching_box_filled_may_go_anywhere(tables):
    opts = options(tables["yahtzee:joker=free"], "yahtzee=50,threes=9", (3, 3, 3, 3, 3))
    assert opts["full_house"].points == 25 and opts["large_straight"].points == 40
    assert opts["ones"].points == 0                      # an upper box, even with lower open


def test_no_joker_means_five_alike_is_not_a_full_house(tables):
    opts = options(tables["yahtzee:joker=none"], "yahtzee=50,threes=9", (3, 3, 3, 3, 3))
    assert opts["full_house"].points == 0 and opts["small_straight"].points == 0
    assert opts["chance"].points == 15


def test_yahtzee_bonus_on_the_card():
    rules = parse_rules("yahtzee")
    card = Scorecard.parse("yahtzee=50,ones=5,yahtzee_bonus=100", rules)
    assert card.score == 155 and card.mask & state_space(rules).flag_bit
    assert str(card) == "ones=5,yahtzee=50,yahtzee_bonus=100"
    for bad in ("yahtzee=0,ones=3,yahtzee_bonus=100", "yahtzee=50,ones=3,yahtzee_bonus=150",
                "yahtzee=50,yahtzee_bonus=100", "yahtzee=50,ones=3,yahtzee_bonus=100"):
        with pytest.raises(InputError, match="yahtzee_bonus"):
            Scorecard.parse(bad, rules)
    with pytest.raises(InputError, match="unknown box"):
        Scorecard.parse("yahtzee_bonus=100", parse_rules("nordic"))


@pytest.mark.parametrize("spec, message", [
    ("yahtzee:joker=wild", "joker"),
    ("yahtzee:order=forced", "does not apply"),
    ("nordic:joker=free", "does not apply"),
    ("yahtzee:five_alike_is_full_house=true", "does not apply"),
])
def test_bad_yahtzee_specs(spec, message):
    with pytest.raises(InputError, match=message):
        parse_rules(spec)


# --------------------------------------------------------------- brute force
SMALL_BOXES = (upper("ones", 1), upper("twos", 2), upper("threes", 3),
               straight("run", ((1, 2), (2, 3)), 7),
               groups("yahtzee", (2,), points=20))


def brute_force(joker: str, bonus: int, dice: int = 2, rolls: int = 2,
                threshold: int = 4, upper_bonus: int = 5) -> float:
    """Expected score of the SMALL_BOXES game by plain recursion, with the
    joker and yahtzee bonus written out from the rules text and the boxes
    scored by the independent oracle."""
    boxes = SMALL_BOXES
    n = len(boxes)
    faces = 3
    index = {b.name: i for i, b in enumerate(boxes)}
    upper_of = {b.face: i for i, b in enumerate(boxes) if b.kind == "upper"}
    lower = [i for i, b in enumerate(boxes) if b.kind != "upper"]

    def options_for(d, filled, held50):
        """(box, points, extra) choices for final dice d."""
        open_ = [b for b in range(n) if b not in filled]
        alike = len(set(d)) == 1
        extra = bonus if (alike and held50) else 0
        if alike and index["yahtzee"] in filled and joker != "none":
            match = upper_of[d[0]]
            lower_open = [b for b in open_ if b in lower]
            if joker == "forced":
                if match in open_:
                    return [(match, oracle.points(boxes[match], d), extra)]
                if lower_open:
                    return [(b, oracle.joker_points(boxes[b], d), extra) for b in lower_open]
                return [(b, 0, extra) for b in open_]
            if match not in open_:                   # free: anywhere, lower as joker
                return [(b, oracle.joker_points(boxes[b], d) if b in lower else 0, extra)
                        for b in open_]
        return [(b, oracle.points(boxes[b], d), extra) for b in open_]

    rolls_of = {k: list(itertools.product(range(1, faces + 1), repeat=k)) for k in range(dice + 1)}

    @lru_cache(maxsize=None)
    def state(filled, up, held50):
        if len(filled) == n:
            return 0.0

        def final(d):
            best = -1e9
            for b, pts, extra in options_for(d, filled, held50):
                up2 = up + pts if b not in lower else up
                got = pts + extra + (upper_bonus if up < threshold <= up2 else 0)
                flag = held50 or (b == index["yahtzee"] and pts > 0)
                best = max(best, got + state(filled | {b}, min(up2, threshold), flag))
            return best

        @lru_cache(maxsize=None)
        def roll_value(d, left):
            if left == 0:
                return final(d)
            best = final(d)
            for keep in {tuple(sorted(k)) for r in range(dice + 1)
                         for k in itertools.combinations(d, r)}:
                outs = rolls_of[dice - len(keep)]
                v = sum(roll_value(tuple(sorted(keep + o)), left - 1) for o in outs) / len(outs)
                best = max(best, v)
            return best

        return sum(roll_value(tuple(sorted(d)), rolls - 1) for d in rolls_of[dice]) / faces**dice

    return state(frozenset(), 0, False)


@pytest.mark.parametrize("joker, bonus", [("forced", 30), ("free", 30), ("none", 30),
                                          ("forced", 0), ("none", 0)])
def test_engine_matches_brute_force_with_jokers(joker, bonus):
    rules = Rules("mini", SMALL_BOXES, dice=2, faces=3, rolls=2, bonus_threshold=4,
                  bonus_points=5, yahtzee_bonus=bonus, joker=joker)
    assert solve(rules).expected_score == pytest.approx(brute_force(joker, bonus), abs=1e-9)


def test_box_kinds_joker_scores():
    fh = Box("full_house", "groups", groups=(3, 2), points=25)
    assert fh.joker_score((0, 0, 5, 0, 0, 0)) == 25
    assert groups("three", (3,), sum_all=True).joker_score((0, 5, 0, 0, 0, 0)) == 10
    assert upper("fours", 4).joker_score((0, 5, 0, 0, 0, 0)) == 0
