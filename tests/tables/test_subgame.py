"""A position's sub-game (``yatzy.tables.subgame``): the target, futures
and explanation tables answer a question about one position from the states
it can still reach, with the whole table's values bit for bit, and build the
whole table (stored) only where the position needs most of it; nothing of a
sub-game is stored."""

from __future__ import annotations

import numpy as np
import pytest
from small_games import SMALL

from yatzy.kernels.target import layout
from yatzy.players import futures as futures_mod
from yatzy.players.explain import open_parts, part_layout
from yatzy.players.explain import solve as solve_parts
from yatzy.players.futures import futures_path, open_futures
from yatzy.rules.boxes import NORDIC, groups, upper
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables import subgame, target
from yatzy.tables.store import open_table
from yatzy.tables.target import open_target, target_path

# Three four-faced dice, five boxes, two rolls (tests/tables/test_target.py's MID)
MID = Rules("mid", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                    groups("one_pair", (2,)), groups("yatzy", (3,), points=20)),
            dice=3, faces=4, rolls=2, bonus_threshold=8, bonus_points=10)
FORCED = Rules("mid_forced", MID.boxes, dice=3, faces=4, rolls=3, bonus_threshold=8,
               bonus_points=10, order="forced")
# Nordic's boxes but four of the upper ones, with five six-faced dice: a reduced nordic
REDUCED = Rules("reduced", NORDIC[:3] + NORDIC[6:8] + NORDIC[-2:], bonus_threshold=15)


def bits(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table).view(np.int64)


def positions(rules: Rules, count: int = 6, seed: int = 1):
    """``count`` reachable turn-start states ``(mask, upper)``, early to late."""
    rng = np.random.default_rng(seed)
    sp = state_space(rules)
    out = []
    for p in range(1, rules.n_boxes):
        layer = sp.layers[p]
        mask = int(layer[rng.integers(len(layer))])
        lo, hi = int(sp.lane_start[mask]), int(sp.upper_lanes[mask])
        out.append((mask, int(rng.integers(lo, hi))))
    return out[:: max(1, len(out) // count)]


def target_states(rules: Rules, mask: int, upper: int):
    """``(slices of the flat table)`` of every state of the sub-game."""
    lay = layout(rules)
    sp = state_space(rules)
    for x in subgame.layers(rules, mask):
        for m in x:
            w, start = int(lay.width[m]), int(lay.start[m])
            for u in range(max(start, upper), int(sp.upper_lanes[m])):
                at = int(lay.off[m]) + (u - start) * w
                yield m, u, slice(at, at + w)


@pytest.mark.parametrize("rules", [MID, FORCED, REDUCED], ids=lambda r: r.name)
def test_a_sub_game_has_the_whole_tables_target_values_bit_for_bit(rules, tmp_path):
    whole = target.solve(rules)
    lazy = open_target(rules, tmp_path)
    assert lazy.pieces is not None
    checked = 0
    for mask, upper in reversed(positions(rules)):       # late first: sub-games grow
        lazy.need(mask, upper)
        if lazy.pieces is None:                          # that one needed the whole table
            break
        assert not any(tmp_path.iterdir())               # nothing of a sub-game is stored
        for m, u, at in target_states(rules, mask, upper):
            assert np.array_equal(bits(lazy.values[at]), bits(whole[at])), (m, u)
            checked += 1
    assert checked > 10


def test_a_sub_game_matches_the_brute_force(tmp_path):
    from tables.test_target import TargetBruteForce
    bf = TargetBruteForce(MID)
    lazy = open_target(MID, tmp_path)
    sp = state_space(MID)
    for mask, upper in positions(MID, 4, seed=3):
        lay = layout(MID)
        filled = frozenset(b for b in range(MID.n_boxes) if mask >> b & 1)
        for need in range(-1, int(lay.width[mask]) + 2):
            assert lazy.state(mask, upper, need) == pytest.approx(bf.p(filled, upper, need),
                                                                 abs=1e-12)
        assert lazy.pieces is not None and lazy.pieces.holds(mask, upper)
        assert not lazy.pieces.holds(int(sp.layers[0][0]), 0)


def test_an_early_position_builds_the_whole_table_once_and_stores_it(tmp_path):
    lazy = open_target(MID, tmp_path)
    assert lazy.pieces is not None
    assert lazy.probability(_card(MID, ""), 20) > 0         # the empty card: every state
    assert lazy.pieces is None and lazy.path == target_path(MID, tmp_path)
    assert np.array_equal(bits(lazy.values), bits(target.solve(MID)))
    again = open_target(MID, tmp_path)                      # a whole table on disk: reused
    assert again.pieces is None


def test_a_whole_table_stored_meanwhile_is_used(tmp_path):
    lazy = open_target(MID, tmp_path)
    (mask, upper), = positions(MID, 1)[-1:]
    lazy.need(int(state_space(MID).layers[-2][0]), 0)       # a late piece first
    open_target(MID, tmp_path, force=True)                  # another process stores it
    lazy.need(mask, upper)
    assert lazy.pieces is None and lazy.path is not None


def test_the_share_decides_between_the_sub_game_and_the_whole_table():
    whole = target.table_size(REDUCED)
    cover = subgame.Cover(REDUCED)
    empty = target.part_values(REDUCED, cover.missing(0, 0), 0)
    full = sum(int(state_space(REDUCED).upper_lanes[m] - layout(REDUCED).start[m])
               for m in state_space(REDUCED).layers[-1])      # a full card: one value each
    assert empty == whole - full                            # the empty card: all of it
    late = int(state_space(REDUCED).layers[-3][0])
    assert target.part_values(REDUCED, cover.missing(late, 0), 0) < 0.01 * whole


def test_sub_game_layers_are_the_reachable_supersets():
    sp = state_space(FORCED)
    for mask in np.concatenate(sp.layers):
        got = np.concatenate(subgame.layers(FORCED, int(mask)))
        want = [m for m in np.concatenate(sp.layers) if m & mask == mask
                and (m == mask or _reaches(FORCED, int(mask), int(m)))]
        assert sorted(got.tolist()) == sorted(int(m) for m in want)


def _reaches(rules, a, b) -> bool:
    """Whether the fill order leads from ``a`` to ``b`` (a plain search)."""
    sp = state_space(rules)
    todo = [a]
    while todo:
        m = todo.pop()
        if m == b:
            return True
        todo += [m | 1 << k for k in range(rules.n_boxes)
                 if int(sp.allowed_table[m]) >> k & 1 and (m | 1 << k) & ~b == 0]
    return False


def _card(rules, text):
    from yatzy.position.scorecard import Scorecard
    return Scorecard.parse(text, rules)


def test_futures_of_a_sub_game_are_the_whole_tables_bit_for_bit(tmp_path):
    values = open_table(SMALL, tmp_path, progress=False).values
    whole = futures_mod.solve(SMALL, values)
    lazy = open_futures(SMALL, tmp_path)
    lay = layout(SMALL)
    sp = state_space(SMALL)
    for mask, upper in reversed(positions(SMALL)):
        lazy.remaining(mask, upper)
        if lazy.pieces is None:
            break
        for x in subgame.layers(SMALL, mask):
            for m in x:
                size = (int(sp.upper_lanes[m]) - int(lay.start[m])) * int(lay.width[m])
                at = slice(int(lay.off[m]), int(lay.off[m]) + size)
                assert np.array_equal(bits(lazy.values[at]), bits(whole[at]))
    assert not futures_path(SMALL, tmp_path).exists()


def test_explanation_parts_of_a_sub_game_are_the_whole_tables_bit_for_bit(tmp_path):
    values = open_table(SMALL, tmp_path, progress=False).values
    whole = solve_parts(SMALL, values)
    lazy = open_parts(SMALL, tmp_path)
    lay = part_layout(SMALL)
    for mask, upper in reversed(positions(SMALL)):
        lazy.parts(mask, upper)
        if lazy.pieces is None:
            break
        for x in subgame.layers(SMALL, mask):
            for m in x:
                size = (int(lay.lanes[m]) - int(lay.start[m])) * lay.n_parts
                at = slice(int(lay.off[m]), int(lay.off[m]) + size)
                assert np.array_equal(bits(lazy.values[at]), bits(whole[at])), m
    assert lazy.pieces is not None


def test_a_build_is_measured_on_a_sample_of_its_own_work():
    sp = state_space(REDUCED)
    seconds = subgame.measure(
        REDUCED, target.table_size(REDUCED), lambda todo, lo: target.part_values(REDUCED, todo, lo),
        lambda todo, lo, values, step: target.solve_part(REDUCED, todo, lo, values, step),
        sp.layers, 0, 1.0)
    assert 0.0 < seconds < 600.0


def _reference(rules: Rules, mask: int, upper: int) -> float:
    """The reference seconds of a position's target sub-game (its estimate
    on this machine where that is under ``plan.MEASURE_ABOVE``: not measured)."""
    from yatzy.tables import plan
    n = target.part_values(rules, subgame.Cover(rules).missing(mask, upper), upper)
    return plan.subgame_plan(rules, "target", n).seconds


def test_a_sub_game_measured_over_the_limit_builds_the_whole_table_announced_once(
        tmp_path, monkeypatch):
    """A sub-game under ``WHOLE_SHARE`` of the table but whose estimate on
    this machine now is over ``SUBGAME_LIMIT`` seconds builds the whole
    table instead, stored, with one announcement: the named whole-game
    build, none of a sub-game; a later position under the limit is still
    answered from its sub-game."""
    import warnings

    from yatzy.tables import announce, plan
    from yatzy.tables.announce import TableWarning
    size = target.table_size(REDUCED)
    cover = subgame.Cover(REDUCED)
    small = [(m, u) for m, u in positions(REDUCED, 20)
             if target.part_values(REDUCED, cover.missing(m, u), u) < subgame.WHOLE_SHARE * size]
    (early, early_u), (late, late_u) = small[0], small[-1]
    slow, quick = _reference(REDUCED, early, early_u), _reference(REDUCED, late, late_u)
    assert quick < slow < plan.MEASURE_ABOVE
    monkeypatch.setattr(subgame, "SUBGAME_LIMIT", (quick + slow) / 2)
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)      # every build says what it is
    lazy = open_target(REDUCED, tmp_path)
    for (mask, upper), whole in (((late, late_u), False), ((early, early_u), True)):
        assert lazy.builds_whole(mask, upper) == whole          # what the coach asks first
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            lazy.need(mask, upper)
        said = [str(w.message) for w in seen if issubclass(w.category, TableWarning)
                and "building" in str(w.message)]
        assert len(said) == 1, said
        assert ("a whole-game table" in said[0]) == whole, said
        assert (lazy.pieces is None) == whole
    assert lazy.path == target_path(REDUCED, tmp_path) and lazy.path.exists()
    assert np.array_equal(bits(lazy.values), bits(target.solve(REDUCED)))
