"""Playing to win (yatzy.players.win): last-player advice against the target
tables, the exact best response of a reduced two-player game brute-forced
here, and bad input on the command line."""

from __future__ import annotations

import itertools
import json
from functools import lru_cache

import numpy as np
import pytest
from bruteforce import dice_outcomes
from click.testing import CliRunner
from small_games import SMALL, oracle_points

from yatzy.api import Solver
from yatzy.cli import main
from yatzy.players.objectives.target import advise_target
from yatzy.position.scorecard import Scorecard
from yatzy.research.distribution import distribution


@pytest.fixture(scope="module")
def solver(tables_dir):
    return Solver(SMALL, tables=tables_dir)


def _by_action(advice):
    return {str(a.action): a for a in advice.actions}


def test_last_player_advice_is_the_target_table_at_their_best_plus_one(solver):
    card = Scorecard.parse("ones=3,chance=14", SMALL)
    done = Scorecard.parse("ones=2,twos=6,threes=9,one_pair=10,chance=13,yatzy=0", SMALL)
    best = done.score                        # the finished opponent's score (60)
    advice = solver.advise_win(card, "336", 2, [], [done])
    assert advice.method == "exact" and not advice.tie_exact
    want = advise_target(solver.table, solver.target(), card, (3, 3, 6), 2, best + 1)
    want = {str(a): a.p_at_least for a in want.actions}
    got = _by_action(advice)
    assert set(got) == set(want)
    for name, a in got.items():
        assert a.p_win == pytest.approx(want[name], abs=1e-12), name
    assert advice.best.p_win == pytest.approx(max(want.values()), abs=1e-12)


def _rank(chances):
    """Playing to win prefers the larger chance to win, then to tie."""
    return round(chances[0], 12), round(chances[1], 12)


def _brute_best_response(rules, card, dice, rerolls, opponent_pmf):
    """P(win), P(tie) of every action, playing to win in every later turn
    too, by enumerating every roll to the end of the game (boxes scored by
    the oracle; the final score is the full card's)."""
    less = np.concatenate([[0.0], np.cumsum(opponent_pmf)])      # less[s] = P(M < s)
    rolls = dice_outcomes(rules.dice, rules.faces)

    @lru_cache(maxsize=None)
    def start(c):
        if c.is_full:
            s = c.score
            return less[min(s, len(less) - 1)], opponent_pmf[s] if s < len(opponent_pmf) else 0.0
        return _mix(rolls[rules.dice], lambda d: value(c, d, rules.rolls - 1))

    def _mix(outcomes, f):
        w = t = 0.0
        for d, p in outcomes:
            a, b = f(d)
            w, t = w + p * a, t + p * b
        return w, t

    def scored(c, d, box):
        return start(c.fill(box, oracle_points(rules, c, d, box)))

    @lru_cache(maxsize=None)
    def value(c, d, k):
        best = (-1.0, 0.0)
        for box in c.allowed_boxes():
            best = max(best, scored(c, d, box), key=_rank)
        if k:
            for keep in keep_options(d):
                best = max(best, after_keep(c, keep, k), key=_rank)
        return best

    def after_keep(c, keep, k):
        return _mix(rolls[rules.dice - len(keep)],
                    lambda f: value(c, tuple(sorted(keep + f)), k - 1))

    def keep_options(d):
        return {tuple(sorted(x)) for r in range(len(d)) for x in itertools.combinations(d, r)}

    out = {f"score {rules.boxes[b].name} ({oracle_points(rules, card, dice, b)})":
           scored(card, dice, b) for b in card.allowed_boxes()}
    if rerolls:
        for keep in keep_options(dice):
            name = "reroll all" if not keep else "keep " + " ".join(map(str, keep))
            out[name] = after_keep(card, keep, rerolls)
    return out


@pytest.mark.parametrize("text,dice,rerolls", [
    ("ones=3,twos=4,threes=9,one_pair=10,chance=15", (3, 3, 4), 2),
    ("ones=2,twos=6,threes=6,one_pair=8,yatzy=0", (1, 5, 6), 2),
    ("ones=1,twos=4,one_pair=12,chance=16,yatzy=30", (3, 3, 5), 1),
    ("ones=3,twos=4,threes=9,one_pair=10", (2, 2, 6), 2),            # two turns left
    ("ones=2,twos=6,chance=14,yatzy=0", (3, 3, 3), 1),
])
def test_the_last_turns_are_the_exact_best_response_brute_forced(solver, text, dice, rerolls):
    card = Scorecard.parse(text, SMALL)
    opp = Scorecard.parse("ones=2,threes=9,one_pair=10", SMALL)
    pmf = distribution(SMALL, opp, solver.table.values).pmf
    advice = solver.advise_win(card, dice, rerolls, [opp])
    assert advice.method == "exact" and advice.tie_exact
    want = _brute_best_response(SMALL, card, dice, rerolls, pmf)
    got = _by_action(advice)
    assert set(got) == set(want)
    for name, a in got.items():
        assert (a.p_win, a.p_tie) == pytest.approx(want[name], abs=1e-12), name
    assert advice.best.p_win == pytest.approx(max(w for w, _ in want.values()), abs=1e-12)


def test_opponents_best_score_is_the_product_of_their_distributions(solver):
    from yatzy.players.win import Opponent, best_opponent_pmf
    cards = [Scorecard.parse(t, SMALL) for t in ("ones=3,twos=6", "yatzy=30,chance=12")]
    pmfs = [distribution(SMALL, c, solver.table.values).pmf for c in cards]
    got = best_opponent_pmf(solver.futures(), [Opponent(c) for c in cards])
    n = max(map(len, pmfs))
    cdf = np.prod([np.cumsum(np.pad(p, (0, n - len(p)))) for p in pmfs], axis=0)
    np.testing.assert_allclose(got[:n], np.diff(cdf, prepend=0.0), atol=1e-12)


def test_advise_with_opponents_on_the_command_line(solver, tables_dir):
    run = CliRunner().invoke
    base = ["advise", "--rules", "forced", "--tables", str(tables_dir), "--card", "ones=3",
            "--dice", "12346", "--rerolls", "2"]
    out = run(main, base + ["--opponent", "ones=2,twos=4", "--json"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.splitlines()[-1])        # after the solve notices
    assert data["method"] == "approximation"
    assert all({"p_win", "p_tie", "expected_final_score", "loss"} <= set(a)
               for a in data["actions"])
    wins = [a["p_win"] for a in data["actions"]]
    assert all(b <= a + 1e-12 for a, b in zip(wins, wins[1:]))     # best first
    text = run(main, base + ["--opponent", "ones=2,twos=4"])
    assert text.exit_code == 0 and "approximation" in text.output


@pytest.mark.parametrize("extra,message", [
    (["--opponent", "twos=5"], "opponent card"),
    (["--opponent", "bogus=1"], "opponent card"),
    (["--opponent", ""] * 6, "1 to 5 opponents"),
    (["--opponent", "", "--target", "50"], "do not go together"),
])
def test_bad_opponents_are_one_line_and_exit_2(tables_dir, extra, message):
    out = CliRunner().invoke(main, ["advise", "--rules", "forced", "--tables", str(tables_dir),
                                    "--dice", "12346", "--rerolls", "2", *extra])
    assert out.exit_code == 2
    assert message in out.output and out.output.count("\n") == 1, out.output


def test_a_first_compile_of_the_win_kernels_is_said_before_it_starts(solver, monkeypatch):
    """A first win question compiles its chances' kernels
    (``kernels.win.turns.position_chances``, 20-40 s after an install or an
    update): said first, in the language, not a silent wait; nothing is
    said when Numba's cache (or this process) holds them."""
    from compile_notes import check_compile_said
    card = Scorecard.parse("ones=3,chance=14", SMALL)
    opponent = Scorecard.parse("ones=2,twos=6", SMALL)

    check_compile_said(lambda: solver.advise_win(card, "336", 2, [opponent]),
                       "compiling the win chances' kernels (once", monkeypatch,
                       {"nb": "kompilerer kjernene til vinnersjansene først",
                        "sv": "kompilerar kärnorna till vinstchanserna först"})
