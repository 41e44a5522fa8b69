"""Target tables: the largest probability of reaching a final score, exact,
per need.  Checked against a brute force over the whole game tree written
here (per need, maxima taken for each need separately; boxes scored by the
independent oracle), and against the exact distribution of expected-score
play (which can never do better)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
import scoring_oracle as oracle
from bruteforce import dice_outcomes, turn_value
from click.testing import CliRunner
from small_games import SMALL, TINY

from yatzy.api import Solver
from yatzy.cli import main
from yatzy.errors import InputError
from yatzy.players.objectives import Target
from yatzy.rules.boxes import groups, straight, upper
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables import target

# Three four-faced dice, five boxes, two rolls: every need of every state in seconds.
MID = Rules("mid", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                    groups("one_pair", (2,)), groups("yatzy", (3,), points=20)),
            dice=3, faces=4, rolls=2, bonus_threshold=8, bonus_points=10)
FORCED = Rules("mid_forced", MID.boxes, dice=3, faces=4, rolls=3, bonus_threshold=8,
               bonus_points=10, order="forced")
JOKER = Rules("joker", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                        straight("run", ((1, 2), (2, 3)), 7), groups("yahtzee", (2,), points=20)),
              dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=5, joker="forced")


class TargetBruteForce:
    """``P(filled, raw, need)``: the largest probability that the points
    still to come reach ``need``, by plain recursion (raw upper total)."""

    def __init__(self, rules):
        self.r = rules
        self.all = frozenset(range(rules.n_boxes))
        self.outcomes = dice_outcomes(rules.dice, rules.faces)
        self.p = lru_cache(maxsize=None)(self._p)

    def allowed(self, filled):
        open_ = [b for b in range(self.r.n_boxes) if b not in filled]
        return open_[:1] if self.r.order == "forced" else open_

    def options(self, filled, roll):
        """(box, points) the roll may be written as, a joker where the rules say."""
        r = self.r
        yatzy = r.yatzy_box
        alike = len(set(roll)) == 1
        if r.joker != "none" and alike and yatzy in filled:
            face = roll[0]
            match = [b for b in self.allowed(filled) if r.boxes[b].is_upper
                     and r.boxes[b].face == face]
            lower = [b for b in self.allowed(filled) if not r.boxes[b].is_upper]
            boxes = match or lower or self.allowed(filled)
            return [(b, oracle.joker_points(r.boxes[b], roll) if not r.boxes[b].is_upper
                     else oracle.points(r.boxes[b], roll)) for b in boxes]
        return [(b, oracle.points(r.boxes[b], roll)) for b in self.allowed(filled)]

    def _p(self, filled, raw, need):
        r = self.r
        if need <= 0:
            return 1.0
        if filled == self.all:
            return 0.0

        def stop(roll):
            v = 0.0
            for b, s in self.options(filled, roll):
                got, raw2 = s, raw
                if r.boxes[b].is_upper:
                    raw2 = raw + s
                    if r.bonus_points and raw < r.bonus_threshold <= raw2:
                        got += r.bonus_points
                v = max(v, self.p(filled | {b}, raw2, need - got))
            return v

        return turn_value(self.outcomes, r.dice, r.rolls, stop)


@pytest.mark.parametrize("rules", [TINY, MID, FORCED, JOKER], ids=lambda r: r.name)
def test_target_table_matches_a_brute_force_for_every_need(rules):
    values = target.solve(rules)
    table = target.TargetTable(rules, values)
    bf = TargetBruteForce(rules)
    lay = target.layout(rules)
    checked = 0
    for mask in np.flatnonzero(lay.off >= 0):
        filled = frozenset(b for b in range(rules.n_boxes) if mask >> b & 1)
        for u in range(int(state_space(rules).upper_lanes[mask])):
            for need in range(-2, int(lay.width[mask]) + 3):
                want = bf.p(filled, u, need)
                assert table.state(int(mask), u, need) == pytest.approx(want, abs=1e-12), (
                    rules.name, sorted(filled), u, need)
                checked += 1
    assert checked > 100


def test_probabilities_fall_with_the_target_and_beat_expected_score_play(small):
    """P(>= T) is 1 for T up to the current score, never rises with T, and
    is never below the chance that expected-score play reaches T (the exact
    distribution of that play)."""
    solver = Solver(SMALL, tables=small.path.parent)
    table = solver.target()
    for text in ("", "ones=2", "ones=3,chance=14", "twos=4,threes=9,yatzy=30"):
        card = solver.card(text)
        dist = solver.distribution(card)
        ps = [table.probability(card, t) for t in range(card.score - 3, SMALL.max_score + 3)]
        assert all(p == 1.0 for p in ps[:4])
        assert all(a >= b - 1e-15 for a, b in zip(ps, ps[1:]))
        assert ps[-1] == 0.0
        for t in range(card.score, SMALL.max_score + 1):
            assert table.probability(card, t) >= dist.at_least(t) - 1e-12


def test_target_advice_ranks_by_probability_and_its_best_attains_the_table(small):
    solver = Solver(SMALL, tables=small.path.parent)
    card = solver.card("ones=2")
    goal = 60
    # the turn-start probability is the roll-weighted best action's probability
    ds = SMALL.dice_space
    total = 0.0
    for r in range(ds.n_rolls):
        dice = ds.dice_of(ds.first_roll + r)
        adv = solver.advise(card, dice, SMALL.rolls - 1, Target(goal))
        ps = [a.p_at_least for a in adv.actions]
        assert ps == sorted(ps, reverse=True)
        assert all(np.isfinite(a.expected_final_score) for a in adv.actions)
        total += ds.roll_prob[r] * adv.best.p_at_least
    assert total == pytest.approx(solver.target().probability(card, goal), abs=1e-12)


def test_unsupported_rules_and_bad_targets(tables_dir):
    from yatzy.rules.ruleset import parse_rules
    with pytest.raises(InputError, match="saved rolls"):
        target.check_target_rules(Rules("b", SMALL.boxes, dice=3, saved_rolls=True))
    with pytest.raises(InputError, match=r"^rules triple: target tables do not support "
                                         r"several columns$"):
        target.check_target_rules(parse_rules("triple"))
    with pytest.raises(InputError, match="yahtzee bonus"):
        Solver("yahtzee", tables=tables_dir).target()

    def run(*args):
        return CliRunner().invoke(main, [*args, "--tables", str(tables_dir)])
    for args, message in [(("ev", "--target", "x"), "--target 'x'"),
                          (("ev", "--rules", "yahtzee", "--target", "200"), "yahtzee bonus"),
                          (("advise", "--dice", "11256", "--rerolls", "2", "--target", "-5"),
                           "--target -5")]:
        r = run(*args)
        assert r.exit_code == 2 and message in r.output and r.output.count("\n") == 1, r.output
