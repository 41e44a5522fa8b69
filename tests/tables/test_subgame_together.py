"""Several sub-games asked together (``subgame.need_together``, a win
question: the target table for the position, the futures table for each
opponent): the values of each table are those of the whole table bit for
bit, states shared by two positions are solved once, and the wait is
announced once, for all of it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from tables.test_subgame import REDUCED, bits, positions, target_states

from yatzy.errors import InputError
from yatzy.kernels.target import layout
from yatzy.players import futures as futures_mod
from yatzy.players.futures import open_futures
from yatzy.space import state_space
from yatzy.tables import announce, plan, subgame, target
from yatzy.tables.announce import TableWarning
from yatzy.tables.store import open_table
from yatzy.tables.target import open_target


def building(seen) -> list[str]:
    return [str(w.message) for w in seen if issubclass(w.category, TableWarning)
            and "building" in str(w.message)]


def test_a_win_questions_sub_games_are_one_announced_build_with_the_whole_values(
        tmp_path, monkeypatch):
    values = open_table(REDUCED, tmp_path, progress=False).values
    whole_target, whole_futures = target.solve(REDUCED), futures_mod.solve(REDUCED, values)
    lazy_target, lazy_futures = open_target(REDUCED, tmp_path), open_futures(REDUCED, tmp_path)
    late = positions(REDUCED, 20)[-4:]
    (mine, mine_u), them = late[0], late[1:]
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    solved = []
    solve = lazy_futures.pieces.solve
    lazy_futures.pieces.solve = lambda todo, *a: (solved.append(todo), solve(todo, *a))[1]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        subgame.need_together([(lazy_target, mine, mine_u)]
                              + [(lazy_futures, m, u) for m, u in them + them])
    said = building(seen)
    assert len(said) == 1 and "target" in said[0] and "futures" in said[0], said
    assert lazy_target.pieces is not None and lazy_futures.pieces is not None
    assert len(solved) == 1                               # the opponents' sub-games at once
    masks = np.concatenate(solved[0])
    assert len(masks) == len(np.unique(masks))            # shared states solved once
    for m, u, at in target_states(REDUCED, mine, mine_u):
        assert np.array_equal(bits(lazy_target.values[at]), bits(whole_target[at])), (m, u)
    lay, sp = layout(REDUCED), state_space(REDUCED)
    for mask, _ in them:
        assert lazy_futures.pieces.holds(mask, 0)
        for x in subgame.layers(REDUCED, mask):
            for m in x:
                size = (int(sp.upper_lanes[m]) - int(lay.start[m])) * int(lay.width[m])
                at = slice(int(lay.off[m]), int(lay.off[m]) + size)
                assert np.array_equal(bits(lazy_futures.values[at]), bits(whole_futures[at]))
    with warnings.catch_warnings(record=True) as seen:    # asked again: nothing to build
        warnings.simplefilter("always")
        subgame.need_together([(lazy_target, mine, mine_u), (lazy_futures, *them[0])])
    assert not building(seen)


def test_sub_games_that_together_need_most_of_a_table_open_the_whole_one(tmp_path):
    """Two opponents whose sub-games are each just under half of the futures
    table (one upper box filled each) but together three quarters of it:
    the whole table, stored, as for one early position."""
    lazy_target, lazy_futures = open_target(REDUCED, tmp_path), open_futures(REDUCED, tmp_path)
    cover, size = subgame.Cover(REDUCED), target.table_size(REDUCED)
    assert all(target.part_values(REDUCED, cover.missing(m, 0), 0) < subgame.WHOLE_SHARE * size
               for m in (1, 2))
    (late, late_u), = positions(REDUCED, 20)[-1:]
    subgame.need_together([(lazy_target, late, late_u), (lazy_futures, 1, 0),
                           (lazy_futures, 2, 0)])
    assert lazy_futures.pieces is None and lazy_futures.path.exists()
    assert lazy_target.pieces is not None and lazy_target.pieces.holds(late, late_u)


def test_sub_games_that_together_take_too_long_build_the_longest_whole(tmp_path, monkeypatch):
    """A target and a futures sub-game, each under ``SUBGAME_LIMIT`` seconds
    but over it together: the one that takes longer is built whole (named,
    stored), the other stays a sub-game; two announcements, the whole one
    named as such."""
    (mine, mine_u), (them, them_u) = positions(REDUCED, 20)[-2:]
    cover = subgame.Cover(REDUCED)
    seconds = {kind: plan.subgame_plan(REDUCED, kind, target.part_values(
        REDUCED, cover.missing(m, u), u)).seconds
        for kind, m, u in (("target", mine, mine_u), ("futures", them, 0))}
    assert max(seconds.values()) < sum(seconds.values()) < plan.MEASURE_ABOVE
    monkeypatch.setattr(subgame, "SUBGAME_LIMIT", (max(seconds.values())
                                                   + sum(seconds.values())) / 2)
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    open_table(REDUCED, tmp_path, progress=False)
    lazy = {"target": open_target(REDUCED, tmp_path), "futures": open_futures(REDUCED, tmp_path)}
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        subgame.need_together([(lazy["target"], mine, mine_u), (lazy["futures"], them, 0)])
    longest = max(seconds, key=seconds.get)
    said = building(seen)
    assert len(said) == 2 and sum("a whole-game table" in s for s in said) == 1, said
    assert any(s.startswith(f"building the {longest} table of") for s in said), said
    for kind, table in lazy.items():
        assert (table.pieces is None) == (kind == longest), kind
        assert (table.path is not None and table.path.exists()) == (kind == longest), kind


def builds_recorded(monkeypatch, seen: list, lazy: dict) -> list[tuple[str, int]]:
    """``(what, warnings said before it)`` of every build as it starts: the
    whole target and futures tables' solves, the sub-games' ``make``."""
    started = []
    for name, module in (("target", target), ("futures", futures_mod)):
        def whole(*args, name=name, solve=module.solve_and_store, **kwargs):
            started.append((name, len(seen)))
            return solve(*args, **kwargs)
        monkeypatch.setattr(module, "solve_and_store", whole)
    for name, table in lazy.items():
        def make(*args, name=name, make=table.pieces.make):
            started.append((f"{name} sub-game", len(seen)))
            return make(*args)
        monkeypatch.setattr(table.pieces, "make", make)
    return started


def test_two_whole_tables_are_both_announced_with_their_total_before_either_is_built(
        tmp_path, monkeypatch):
    """A win question whose target and futures tables are both built whole
    (every sub-game measured over a tiny ``SUBGAME_LIMIT``): both tables'
    announcements and the line of their time together are said before the
    first build starts, in English, Norwegian and Swedish; then both are
    built and stored, one after the other."""
    open_table(REDUCED, tmp_path, progress=False)
    lazy = {"target": open_target(REDUCED, tmp_path), "futures": open_futures(REDUCED, tmp_path)}
    (mine, mine_u), (them, them_u) = positions(REDUCED, 20)[-2:]
    monkeypatch.setattr(subgame, "SUBGAME_LIMIT", 0.0)
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        started = builds_recorded(monkeypatch, seen, lazy)
        subgame.need_together([(lazy["target"], mine, mine_u), (lazy["futures"], them, 0)])
    said = [w.message for w in seen if issubclass(w.category, TableWarning)]
    assert [name for name, _ in started] == ["target", "futures"], started
    first = started[0][1]                   # warnings said before the first build
    english = [str(m) for m in said]
    wholes = [s for s in english[:first] if "a whole-game table" in s]
    assert len(wholes) == 2 and wholes[0].startswith("building the target table of "), english
    assert wholes[1].startswith("building the futures table of "), english
    assert english[first - 1].startswith("2 builds one after another, about "), english
    assert len(english) == first, english   # nothing said after the builds start
    for lang, table, total in (("nb", "bygger framtidstabellen for", "2 bygg etter hverandre"),
                               ("sv", "bygger framtidstabellen för", "2 byggen efter varandra")):
        words = [m.said(lang) for m in said]
        assert any(w.startswith(table) for w in words) and words[-1].startswith(total), words
    for table in lazy.values():
        assert table.pieces is None and table.path.exists()


def test_a_sub_game_after_a_whole_table_is_said_before_the_whole_one_is_built(
        tmp_path, monkeypatch):
    """The whole futures table (two opponents' sub-games, together most of
    it) and the target sub-game after it: the table's announcement, the
    sub-game's and their total all before the table's build."""
    open_table(REDUCED, tmp_path, progress=False)
    lazy = {"target": open_target(REDUCED, tmp_path), "futures": open_futures(REDUCED, tmp_path)}
    (late, late_u), = positions(REDUCED, 20)[-1:]
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        started = builds_recorded(monkeypatch, seen, lazy)
        subgame.need_together([(lazy["target"], late, late_u), (lazy["futures"], 1, 0),
                               (lazy["futures"], 2, 0)])
    assert [name for name, _ in started] == ["futures", "target sub-game"], started
    english = [str(w.message) for w in seen if issubclass(w.category, TableWarning)]
    before = english[:started[0][1]]
    assert [s.split(" of ")[0] for s in before if s.startswith("building")] == [
        "building the futures table", "building the target values"], english
    assert before[-1].startswith("2 builds one after another"), english
    assert lazy["futures"].pieces is None and lazy["target"].pieces.holds(late, late_u)


def test_two_whole_tables_the_disk_cannot_hold_together_are_refused_before_either(
        tmp_path, monkeypatch):
    """Room on disk for each whole table but not for both: one line naming
    both and the space they need, and neither is built."""
    open_table(REDUCED, tmp_path, progress=False)
    lazy = {"target": open_target(REDUCED, tmp_path), "futures": open_futures(REDUCED, tmp_path)}
    (mine, mine_u), (them, _) = positions(REDUCED, 20)[-2:]
    monkeypatch.setattr(subgame, "SUBGAME_LIMIT", 0.0)
    each = max(plan.target_plan(REDUCED).disk_bytes, plan.futures_plan(REDUCED).disk_bytes)
    monkeypatch.setattr(plan, "free_disk", lambda folder: each + 1)
    started = builds_recorded(monkeypatch, [], lazy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InputError, match="target table of .* and the futures table of .* "
                                             "need .* on disk together"):
            subgame.need_together([(lazy["target"], mine, mine_u), (lazy["futures"], them, 0)])
    assert not started
    assert not target.target_path(REDUCED, tmp_path).exists()
    assert not futures_mod.futures_path(REDUCED, tmp_path).exists()


@pytest.mark.parametrize("cached", [False, True])
def test_the_win_chances_compile_after_the_builds_is_counted_in_their_time(
        tmp_path, monkeypatch, cached):
    """A win question's sub-game, after which the win chances' kernels
    compile (not in Numba's cache: 40 s here): the line after the
    sub-game's announcement says the compile follows and the time of both
    together, in English, Norwegian and Swedish; with the kernels cached
    only the build is said."""
    open_table(REDUCED, tmp_path, progress=False)
    lazy = open_target(REDUCED, tmp_path)
    (mine, mine_u), = positions(REDUCED, 20)[-1:]
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    build = []

    def record(p, seconds, stacklevel=3):     # records the build's time said
        build.append(seconds)
        warnings.warn(TableWarning(f"building {p}"))
        return True
    monkeypatch.setattr(announce, "announce", record)
    monkeypatch.setattr(announce, "compile_seconds",
                        lambda kind, kernels: 0.0 if cached else (kind == "win") * 40.0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        subgame.need_together([(lazy, mine, mine_u)], "win")
    said = [w.message for w in seen if issubclass(w.category, TableWarning)]
    assert len(build) == 1 and str(said[0]).startswith("building "), said
    if cached:
        assert len(said) == 1, said
        return
    total = plan.describe_seconds(build[0] + 40.0)
    assert len(said) == 2 and str(said[1]) == (
        f"then the win chances' kernels compile (about 40 s): about {total} in all"), said
    assert said[1].said("nb").startswith("så kompileres kjernene til vinnersjansene (omtrent 40 s)")
    assert said[1].said("sv").startswith("sedan kompileras kärnorna till vinstchanserna")
    assert lazy.pieces.holds(mine, mine_u)
