"""Sizes and times a build announces: the finished file's size is the
file's, the free space it needs while building is named apart, an upper
bound says so, and the time is calibrated on this machine as it runs."""

import os
import subprocess
import sys
import warnings

import pytest
from small_games import BANKED, SMALL

from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.tables import announce, plan
from yatzy.tables.announce import TableWarning
from yatzy.tables.decisions import open_decisions
from yatzy.tables.decisions import plan as decisions_plan
from yatzy.tables.store import open_table


def test_a_layered_tables_file_is_the_size_announced(tmp_path):
    p = plan.value_plan(BANKED)
    table = open_table(BANKED, tmp_path, progress=False)
    assert p.file_size == table.path.stat().st_size
    assert p.disk_bytes > p.file_size           # the checkpoint beside it while it builds
    assert "free while it builds" in str(p)


def test_maxis_announcement_names_the_file_and_the_free_space_apart():
    text = str(plan.value_plan(parse_rules("maxi")))
    assert "10.3 GiB on disk (17.5 GiB free while it builds)" in text


def test_a_decision_table_is_at_most_its_bound(tmp_path):
    table = open_decisions(SMALL, tmp_path)
    p = decisions_plan(SMALL)
    assert p.file_at_most and table.path.stat().st_size <= p.file_size
    assert "at most" in str(p)


@pytest.mark.parametrize("lang, word, not_word", [("en", "decisions", "values"),
                                                  ("nb", "beslutninger", "verdier"),
                                                  ("sv", "beslut", "värden")])
def test_a_decision_tables_announcement_counts_its_decisions_not_values(tmp_path, lang, word,
                                                                        not_word):
    """The decision table holds an action byte per decision (state, rerolls
    left, roll), not values: its announcement counts them as decisions,
    one byte each of its bound on disk beside the index."""
    from pathlib import Path
    table = open_decisions(SMALL, tmp_path)
    p = decisions_plan(SMALL, Path("/x/d"))
    assert p.values == p.file_size - 4096 - table.index.nbytes
    assert table.rows.size <= p.values
    count = f"{p.values:,}" if lang == "en" else f"{p.values:,}".replace(",", " ")
    text = announce.announcement(p, p.seconds, lang)
    assert f": {count} {word}, " in text and not_word not in text, text
    assert f"{p.values:,} decisions" in str(p)


def test_the_announced_time_is_calibrated_by_the_measured_share(tmp_path, monkeypatch):
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    monkeypatch.setattr(plan, "CALIBRATE_SECONDS", 0.0)
    monkeypatch.setattr(plan, "cpu_share", lambda seconds=0.2: 0.25)
    reference = plan.value_plan(SMALL).seconds
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        open_table(SMALL, tmp_path, progress=False)
    said = [str(w.message) for w in seen if issubclass(w.category, TableWarning)
            and "building" in str(w.message)]
    assert said and "measured on this machine now: 4.0 times" in said[0], said
    assert f"about {plan.describe_seconds(4 * reference)}" in said[0]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs sched_setaffinity")
def test_the_share_falls_when_other_processes_compete_for_the_core():
    cpu = min(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    spin = f"import os, time; os.sched_setaffinity(0, {{{cpu}}}); t = time.time()\n" \
           "while time.time() - t < 3: pass"
    others = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(3)]
    try:
        os.sched_setaffinity(0, {cpu})
        import time
        time.sleep(0.3)                      # the others are spinning
        share = plan.cpu_share(0.5)
    finally:
        os.sched_setaffinity(0, before)
        for p in others:
            p.kill()
            p.wait()
    assert share < 0.6                       # about 1/4 on a core of four spinners


def measured_build(rules, tmp_path, monkeypatch, share=0.01):
    """Build the value table of ``rules`` (after a first build that loads the
    kernels) with the old probe made 100x off (``share``): every ``build.measure_solve``
    call's ``(rules, reference, result)`` in the order they end, and the
    build's announcements."""
    from yatzy.tables import build
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    monkeypatch.setattr(plan, "CALIBRATE_SECONDS", 0.0)
    monkeypatch.setattr(plan, "MEASURE_ABOVE", 0.0)
    monkeypatch.setattr(plan, "cpu_share", lambda seconds=0.2: share)   # the old probe
    asked = []
    real = build.measure_solve

    def spy(rules, reference, theta=0.0):
        asked.append((rules, reference, real(rules, reference, theta)))
        return asked[-1][2]
    monkeypatch.setattr(build, "measure_solve", spy)
    open_table(rules, tmp_path / "warm", progress=False)      # the kernels compiled first
    asked.clear()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        open_table(rules, tmp_path, progress=False)
    return asked, [str(w.message) for w in seen if issubclass(w.category, TableWarning)
                   and "building" in str(w.message)]


def test_the_value_tables_time_is_measured_on_a_sample_of_its_own_solve(tmp_path, monkeypatch):
    """One estimate for every build: the value table's is timed on its own
    masks as the sub-games' are (``build.measure_solve``), not guessed from
    the share of a core."""
    asked, said = measured_build(SMALL, tmp_path, monkeypatch)
    assert len(asked) == 1 and asked[0][2] > 0
    assert said and f"about {plan.describe_seconds(asked[0][2])}" in said[0]


def test_a_measured_value_solve_is_near_the_real_one():
    """The measured estimate of a whole solve against the solve itself (the
    kernels loaded; a loose bound: the machine may be shared)."""
    import time
    from yatzy.tables import build
    rules = parse_rules("nordic:rolls=6")
    build.solve(rules)                                     # the kernels loaded
    estimate = build.measure_solve(rules, plan.value_plan(rules).seconds)
    start = time.perf_counter()
    build.solve(rules)
    real = time.perf_counter() - start
    assert real / 3 < estimate < 3 * real


def test_a_saved_rolls_value_tables_time_is_measured_on_a_unit_of_its_own_solve(tmp_path,
                                                                               monkeypatch):
    """With saved rolls the value table's estimate is timed on its own
    layered solve (``build.measure_layered``: its banks, its rolls), not on
    the same rules without a bank (whose unit measured a Maxi with a small
    bank 5-7 times too short), nor the share of a core."""
    from yatzy.tables import build
    seen = []
    real = build.measure_layered
    monkeypatch.setattr(build, "measure_layered",
                        lambda rules, reference, theta=0.0: seen.append(rules) or real(
                            rules, reference, theta))
    asked, said = measured_build(BANKED, tmp_path, monkeypatch, share=1e-6)
    assert [a[0] for a in asked] == [BANKED] and seen and set(seen) == {BANKED}
    assert asked[0][2] < plan.value_plan(BANKED).seconds / 1e-6     # not the old probe's
    assert said and f"about {plan.describe_seconds(asked[0][2])}" in said[0]


def banked_nordic(bank_cap: int) -> Rules:
    """Nordic's fifteen boxes with saved rolls, the bank capped (a layered
    solve of a few seconds)."""
    from yatzy.rules.boxes import NORDIC
    return Rules(f"banked_nordic_{bank_cap}", tuple(NORDIC), dice=5, rolls=3, bonus_threshold=63,
                 bonus_points=50, saved_rolls=True, bank_cap=bank_cap)


def test_a_measured_layered_solve_is_near_the_real_one():
    """The measured estimate of a whole saved-rolls solve against the solve
    itself (the kernels loaded; a loose bound: the machine may be shared)."""
    import time
    from yatzy.tables import build
    rules = banked_nordic(2)
    build.compile_kernels(rules)
    estimate = build.measure_layered(rules, plan.value_plan(rules).seconds)
    start = time.perf_counter()
    build.solve(rules)
    real = time.perf_counter() - start
    assert real / 3 < estimate < 3 * real


def test_the_layered_sample_holds_the_rows_its_turns_read():
    """Each sampled mask and each mask its turn leads to has a row of its
    own in the compact layers, so the sample reads as many distinct rows as
    the real solve."""
    import numpy as np
    from yatzy.space import state_space
    from yatzy.tables import build
    rules = banked_nordic(1)
    sp = state_space(rules)
    part = tuple(x[::50] for x in sp.layers)
    d, values = build.compact_layers(rules, part)
    for p in range(rules.n_boxes):
        led = np.unique([m | (1 << b) for m in part[p] for b in range(rules.n_boxes)
                         if not m >> b & 1])
        held = np.concatenate([part[p + 1], led])
        assert len(set(d.rows[held].tolist())) == len(np.unique(held))
        assert values[p + 1].shape == (sp.bank_limit(p + 1) + 1, len(np.unique(held)),
                                       rules.cap + 1)


@pytest.mark.parametrize("lang, words", [
    ("en", ["building the value table of", "a whole-game table, built once and stored in"]),
    ("nb", ["bygger verditabellen for", "en tabell for hele spillet, bygd én gang"]),
    ("sv", ["bygger värdetabellen för", "en tabell för hela spelet, byggd en gång"])])
def test_a_whole_game_build_is_named_as_one_in_every_language(tmp_path, monkeypatch,
                                                              lang, words):
    """A build of a whole-game table says so before it starts: which table of
    which rules, its size, about how long, and where it is stored once for
    every later question; in the language of the command line."""
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        table = open_table(SMALL, tmp_path, progress=False)
    notice = next(w.message for w in seen if issubclass(w.category, TableWarning)
                  and "building" in str(w.message))
    text = notice.said(lang)
    assert all(w in text for w in words), text
    assert SMALL.spec in text and str(tmp_path) in text
    p = plan.value_plan(SMALL)
    size = plan.describe_bytes(p.file_size)
    assert (size if lang == "en" else size.replace(".", ",")) in text
    assert table.path.parent == tmp_path


@pytest.mark.parametrize("kind", ["target", "futures", "explanations"])
def test_the_other_whole_tables_are_named_whole_game_builds(kind):
    from pathlib import Path
    rules = parse_rules("nordic")
    p = {"target": plan.target_plan, "futures": plan.futures_plan,
         "explanations": plan.parts_plan}[kind](rules, Path("/x/t"))
    assert p.kind == kind
    assert announce.announcement(p, p.seconds).startswith(f"building the {kind} table of nordic:")
    assert "a whole-game table" in announce.announcement(p, p.seconds)
    assert decisions_plan(rules, Path("/x/d")).kind == "decisions"


def test_a_first_compile_of_a_tables_kernels_is_said_before_it_starts(monkeypatch):
    """The target, futures and explanations kernels compile while the
    build's time is measured: said first (once after an install), not a
    silent wait; nothing is said when Numba's cache holds them."""
    import yatzy.kernels.cache as cache
    rules = parse_rules("nordic")
    p = plan.subgame_plan(rules, "target", 10)
    for cached, said in ((False, 1), (True, 0)):
        monkeypatch.setattr(cache, "compiled", lambda kernel, c=cached: c)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            announce.check(p)
        notes = [w.message for w in seen if "compiling the target kernels" in
                 str(w.message)]
        assert len(notes) == said, notes
    monkeypatch.setattr(cache, "compiled", lambda kernel: False)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        announce.check(p)
    note = next(w.message for w in seen if "compiling" in str(w.message))
    assert note.said("nb").startswith("kompilerer kjernene til måltabellen først")   # not English
    assert note.said("sv").startswith("kompilerar kärnorna till måltabellen först")


def test_a_compile_half_done_by_an_earlier_command_is_announced_for_what_is_left(monkeypatch):
    """A first ``yatzy distribution`` after a ``yatzy simulate`` finds the
    simulation's kernels cached and compiles only the rest: its notice
    gives that share of the whole compile's time, and says nothing when
    what is left takes under ``ANNOUNCE_SECONDS``."""
    import yatzy.kernels.cache as cache
    from yatzy.kernels.forward import carry
    from yatzy.kernels.policy import batch
    kernels = (carry, batch)
    reached = []
    monkeypatch.setattr(cache, "compiled", lambda kernel: reached.append(kernel) or False)
    assert cache.uncompiled_share(kernels) == 1.0
    assert carry in reached and batch in reached and len(reached) > 2   # what they call, too
    callees = [k for k in reached if k not in kernels]
    monkeypatch.setattr(cache, "compiled", lambda kernel: kernel in callees)
    part = cache.uncompiled_share(kernels)
    assert 0.0 < part < 1.0
    monkeypatch.setattr(plan, "cpu_share", lambda seconds=0.2: 1.0)    # a quiet machine
    assert announce.compile_seconds("distribution", kernels) == pytest.approx(
        announce.COMPILE_SECONDS_OF["distribution"]
        * (announce.COMPILE_FIXED + (1 - announce.COMPILE_FIXED) * part))
    monkeypatch.setattr(cache, "compiled", lambda kernel: True)
    assert cache.uncompiled_share(kernels) == 0.0
    assert announce.compile_seconds("distribution", kernels) == 0.0
    monkeypatch.setattr(cache, "uncompiled_share", lambda kernels: 0.01)     # 1.5 s left
    monkeypatch.setattr(announce, "COMPILE_SECONDS_OF", {"distribution": 12.0})
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert announce.compile_notice("distribution", kernels) == pytest.approx(1.5456)
    assert seen == []
    monkeypatch.setattr(cache, "uncompiled_share", lambda kernels: 0.5)  # 6.7 s left
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        announce.compile_notice("distribution", kernels)
    assert [str(w.message) for w in seen] == [
        "compiling the exact distribution (once after an install or an update, about 7 s)"]


def test_a_compile_said_once_a_process_is_not_said_again(monkeypatch):
    """``compile_once``: a command says the compile before its own
    announcement; the library call that compiles then says nothing more."""
    import yatzy.kernels.cache as cache
    monkeypatch.setattr(cache, "uncompiled_share", lambda kernels: 1.0)
    monkeypatch.setattr(announce, "COMPILES_SAID", set())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        first = announce.compile_once("distribution", ())
        again = announce.compile_once("distribution", ())
    assert first > announce.ANNOUNCE_SECONDS and again == 0.0
    assert [str(w.message).split(" (")[0] for w in seen] == ["compiling the exact distribution"]
