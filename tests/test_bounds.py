"""Bounds at every edge: each bad value gives one line and
exit status 2 (or an InputError / TypeError), never a traceback, a hang, a
runaway build or a wrong number."""

import errno
import json
import os
import time

import pytest
from click.testing import CliRunner
from small_games import SMALL

from yatzy import Solver, bounds
from yatzy.cli import main
from yatzy.errors import InputError, TableError
from yatzy.game import Game
from yatzy.position.actions import Action
from yatzy.position.scorecard import Scorecard
from yatzy.research.match import chunks
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.tables import announce, plan
from yatzy.tables.announce import TableWarning
from yatzy.tables.store import load, open_table, table_path

HUGE = "1" * 5000               # more digits than Python's int() reads from text


@pytest.fixture(scope="module")
def run(nordic, tables_dir):
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(main, [*args, "--tables", str(tables_dir)], input=input)
    return invoke


def one_line(r):
    """The result of a refused command: exit 2, one line ``error: ...``."""
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: ") and r.output.count("\n") == 1, r.output
    assert "Traceback" not in r.output
    return r.output


# ------------------------------------------------------------------ theta
@pytest.mark.parametrize("theta", ["1e-20", "1e-15", "1e-300", "5e-324", "-1e-9", "nan", "inf",
                                   "2", "x", HUGE])
def test_theta_outside_the_exact_range_is_refused(run, theta):
    for cmd in (["ev"], ["advise", "--card", "sixes=24", "--dice", "66666", "--rerolls", "0"],
                ["distribution"], ["simulate", "--games", "10"]):
        assert "--theta" in one_line(run(*cmd, "--theta", theta))


def test_theta_range_in_the_api():
    assert bounds.check_theta(0) == 0.0
    assert bounds.check_theta(-1e-6) == -1e-6
    for bad in (1e-20, 5e-324, 1.5, float("nan"), float("inf")):
        with pytest.raises(InputError, match="theta"):
            Solver("nordic", theta=bad)
    with pytest.raises(TypeError):
        Solver("nordic", theta="0.1")
    with pytest.raises(InputError, match="at most 0.444"):  # exp(0.5 * 1575) overflows
        Solver("yahtzee", theta=0.5)


# ------------------------------------------------------------------ targets
@pytest.mark.parametrize("target", ["9223372036854775808", "375", "-1", HUGE])
def test_targets_beyond_the_largest_score_are_refused(run, target):
    one_line(run("advise", "--dice", "11256", "--rerolls", "2", "--target", target))
    one_line(run("ev", "--target", target))


def test_target_bounds_in_the_api(nordic, tables_dir):
    s = Solver("nordic", tables=tables_dir)
    with pytest.raises(InputError, match="374"):
        s.chance("", 2**63)
    with pytest.raises(TypeError):
        s.chance("", 300.5)


# ------------------------------------------------------------------ rule specs
@pytest.mark.parametrize("spec", ["nordic:bonus_threshold=1000000",
                                  "nordic:bonus_threshold=100000000000000000000",
                                  f"nordic:bonus_threshold={HUGE}", f"nordic:rolls={HUGE}",
                                  "maxi:bank_cap=" + "9" * 200])
def test_runaway_rule_specs_are_refused_at_once(run, spec, tables_dir):
    start = time.perf_counter()
    one_line(run("ev", "--rules", spec))
    assert time.perf_counter() - start < 5
    assert not [p for p in tables_dir.iterdir() if p.name.endswith(".partial")]


def test_wrong_types_are_type_errors():
    rules = parse_rules("nordic")
    for call in (lambda: parse_rules(None), lambda: Action.parse(None),
                 lambda: Scorecard.parse(5, rules), lambda: rules.dice_space.parse(None),
                 lambda: Solver(None), lambda: Solver("nordic").simulate("10"),
                 lambda: bounds.check_seed(1.5)):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(InputError):         # and still one line for the CLI and the server
        parse_rules(None)


# ------------------------------------------------------------------ long numbers
def test_numbers_of_thousands_of_digits_are_one_line(run, tables_dir, tmp_path):
    one_line(run("advise", "--dice", HUGE, "--rerolls", "2"))
    one_line(run("advise", "--dice", "1,1,2,5," + HUGE, "--rerolls", "2"))
    one_line(run("ev", "--card", f"ones={HUGE}"))
    one_line(run("ev", "--card", "ones=" + "3" * 600))
    one_line(run("advise", "--dice", "11256", "--rerolls", HUGE))
    one_line(run("simulate", "--games", HUGE))
    rules = parse_rules("nordic")
    with pytest.raises(InputError):
        Action.parse("score chance (" + "2" * 4000 + ")", rules)
    log = tmp_path / "log.jsonl"
    log.write_text('{"rolls": [[1, 1, 2, 5, 6]], "box": "chance", "points": ' + HUGE + "}\n")
    assert "log.jsonl:1" in one_line(run("review", str(log)))
    log.write_text("[" * 100_000 + "\n")
    assert "nested too deeply" in one_line(run("review", str(log)))
    game = Game("nordic", ["Ann"], seed=3, tables=tables_dir)
    game.play("roll")
    doc = game.to_dict()
    for bad in ({**doc, "moves": ["roll " + HUGE]}, {**doc, "moves": ["roll 11256", HUGE]},
                {**doc, "seed": 2**64}):
        with pytest.raises(InputError):
            Game.from_dict(bad, tables=tables_dir)
    path = tmp_path / "g.json"
    path.write_text('{"yatzy_game": 1, "seed": ' + HUGE + "}")
    assert "not a JSON document" in one_line(run("play", "--resume", str(path)))


# ------------------------------------------------------------------ games, chunks
def test_games_are_bounded_and_match_chunks_lazy(run):
    one_line(run("simulate", "--games", "10000000000000"))
    one_line(run("match", "--players", "optimal,greedy", "--games", "10000000000000"))
    start = time.perf_counter()
    todo = chunks(10**12)
    assert len(todo) == 50_000_000 and todo[-1] == (49_999_999, 20_000)
    assert todo[0] == (0, 20_000) and time.perf_counter() - start < 0.1
    assert list(chunks(45_000, 20_000)) == [(0, 20_000), (1, 20_000), (2, 5_000)]


# ------------------------------------------------------------------ game documents
def test_forged_drawn_flags_are_refused(nordic, tables_dir):
    game = Game("nordic", ["Ann"], seed=1, tables=tables_dir)
    game.play("roll")
    doc = game.to_dict()
    assert Game.from_dict(doc, tables=tables_dir).to_dict() == doc
    rolled = doc["moves"][0]
    forged = "roll 6 6 6 6 6" if rolled != "roll 6 6 6 6 6" else "roll 1 1 1 1 1"
    with pytest.raises(InputError, match="generator"):
        Game.from_dict({**doc, "moves": [forged]}, tables=tables_dir)
    game.play("keep " + rolled.split()[-1])
    for drawn in ([0, 1], [True], [5], [-1]):
        with pytest.raises(InputError):
            Game.from_dict({**game.to_dict(), "drawn": drawn}, tables=tables_dir)
    typed = {**doc, "drawn": [], "draw_numbers": []}  # typed dice: taken as given
    assert Game.from_dict(typed, tables=tables_dir).moves[0].drawn is False


def test_an_empty_finished_opponent_is_an_error(run):
    out = one_line(run("advise", "--dice", "11256", "--rerolls", "2", "--opponent-done", ""))
    assert "opponent" in out


# ------------------------------------------------------------------ tables
def test_an_edited_header_is_corrupt_and_recomputed(tmp_path):
    table = open_table(SMALL, tmp_path, progress=False)
    good, path = table.expected_score, table.path
    data = path.read_bytes()
    text = json.dumps(good).encode()
    assert text in data
    forged = data.replace(text, json.dumps(good + 51).encode()[:len(text)].ljust(len(text)), 1)
    path.write_bytes(forged)
    with pytest.raises(TableError, match="header checksum"):
        load(SMALL, path)
    with pytest.warns(TableWarning, match="recomputing"):
        assert open_table(SMALL, tmp_path, progress=False).expected_score == good


@pytest.mark.parametrize("header", [b"[1]", b'"x"', b"1" * 5000, b"[" * 20000, b"{}"])
def test_a_header_of_the_wrong_shape_is_corrupt(tmp_path, header):
    table = open_table(SMALL, tmp_path, progress=False)
    good, path = table.expected_score, table.path
    data = path.read_bytes()
    n = int.from_bytes(data[8:12], "little")
    path.write_bytes(data[:8] + len(header).to_bytes(4, "little") + header + data[12 + n:])
    with pytest.raises(TableError):
        load(SMALL, path)
    with pytest.warns(TableWarning, match="recomputing"):
        assert open_table(SMALL, tmp_path, progress=False).expected_score == good


def test_orphans_of_killed_writes_are_removed_on_the_next_open(tmp_path):
    table = open_table(SMALL, tmp_path, progress=False)
    dead = 2**22 + 12345                    # above any pid_max: no such process
    orphan = table.path.with_name(f"{table.path.name}.{dead}.abc123.tmp")
    live = table.path.with_name(f"{table.path.name}.{os.getpid()}.def456.tmp")
    old = table.path.with_name(f"{table.path.name}.oldstyle.tmp")
    fresh_old = table.path.with_name(f"{table.path.name}.newstyle.tmp")
    for p in (orphan, live, old, fresh_old):
        p.write_bytes(b"x" * 100)
    day = time.time() - 2 * 24 * 3600
    os.utime(old, (day, day))
    open_table(SMALL, tmp_path, progress=False)
    assert not orphan.exists() and not old.exists()
    assert live.exists() and fresh_old.exists()            # a writer may still be at work


# ------------------------------------------------------------------ size before work
def test_a_build_that_does_not_fit_is_refused_naming_its_size(tmp_path, monkeypatch):
    monkeypatch.setattr(plan, "free_disk", lambda folder: 1000)
    with pytest.raises(InputError, match=r"value table of small needs .* on disk"):
        open_table(SMALL, tmp_path, progress=False)
    assert not table_path(SMALL, tmp_path).exists()
    monkeypatch.setattr(plan, "free_disk", lambda folder: 1 << 50)
    monkeypatch.setattr(plan, "free_memory", lambda: 1000)
    with pytest.raises(InputError, match="of memory"):
        open_table(SMALL, tmp_path, progress=False)


def test_a_huge_threshold_built_directly_is_refused_before_any_work(tmp_path):
    rules = Rules("big", parse_rules("nordic").boxes, bonus_threshold=1 << 20)
    p = plan.value_plan(rules, table_path(rules, tmp_path))
    assert p.disk_bytes > 200e9 and p.big
    with pytest.raises(InputError, match="GiB"):
        open_table(rules, tmp_path, progress=False)
    assert list(tmp_path.iterdir()) == [] or all(x.suffix == ".lock" for x in tmp_path.iterdir())


def test_big_builds_need_a_confirmation(run, tables_dir, monkeypatch):
    monkeypatch.setattr(plan, "free_disk", lambda folder: 1 << 50)
    monkeypatch.setattr(plan, "free_memory", lambda: 1 << 50)
    out = one_line(run("ev", "--rules", "maxi:saved_rolls=false,rolls=3", "--target", "400"))
    assert "105.0 GiB" in out and "--yes" in out
    out = one_line(run("ev", "--rules", "maxi"))
    assert "value table of maxi" in out and "min" in out and "--yes" in out
    asked = []
    before = plan.set_confirm(lambda p: asked.append(p) or False)
    try:
        with pytest.raises(InputError, match="--yes"):
            Solver("maxi", tables=tables_dir).table
    finally:
        plan.set_confirm(before)
    assert asked and asked[0].what == "value table of maxi"


def test_the_sizes_are_what_the_tables_take(nordic):
    p = plan.value_plan(parse_rules("nordic"))
    assert p.values == nordic.dense.size and abs(p.disk_bytes - nordic.path.stat().st_size) < 8192
    t = plan.target_plan(parse_rules("nordic"))
    assert 1.6 * 2**30 < t.disk_bytes < 1.8 * 2**30 and not t.big
    assert "1.7 GiB" in str(t) and "about " in str(t)     # and the time it takes
    from yatzy.players.explain import open_parts
    e = plan.parts_plan(parse_rules("nordic"))
    parts = open_parts(parse_rules("nordic"), nordic.path.parent)
    parts.need(0)                          # the empty card's sub-game: the whole table, stored
    assert e.values == parts.values.size and abs(e.disk_bytes - parts.path.stat().st_size) < 8192


# ------------------------------------------------------------------ writers
@pytest.mark.parametrize("args", [
    ["export", "--format", "csv", "--out", "{dir}/"],
    ["strategy", "--out", "{dir}"],
    ["simulate", "--games", "10", "--log", "{dir}/"],
    ["simulate", "--games", "10", "--plot", "{dir}"],
    ["export", "--format", "csv", "--out", "{dir}/missing/x.csv"],
])
def test_an_output_that_is_a_folder_is_refused_before_the_work(tmp_path, args):
    fresh = tmp_path / "tables"            # no table: refusing after the work would solve one
    r = CliRunner().invoke(main, [a.format(dir=tmp_path) for a in args] + ["--tables", str(fresh)])
    one_line(r)
    assert not fresh.exists() or not list(fresh.glob("*.tbl"))


def test_the_coach_refuses_a_folder_to_save_in(run, tmp_path):
    one_line(run("play", "--player", "Ann", "--seed", "1", "--autosave", str(tmp_path),
                 input=""))
    r = run("play", "--player", "Ann", "--seed", "1", "--autosave", str(tmp_path / "g.json"),
            input=f"save {tmp_path}\nquit\n")
    assert "is a folder" in r.output and "Traceback" not in r.output


def test_a_full_disk_is_one_line_and_the_old_file_stays(run, tables_dir, tmp_path, monkeypatch):
    from yatzy import files
    open_table(parse_rules("forced"), tables_dir, progress=False)     # solved before the disk fills
    out = tmp_path / "states.csv"
    out.write_text("old\n")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files.os, "fsync", full)
    # forced: 527 states; nordic's 1.4 million rows add nothing to what is checked
    r = run("export", "--rules", "forced", "--format", "csv", "--out", str(out))
    assert "disk is full" in one_line(r) and "old file is unchanged" in r.output
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["states.csv"]
    with pytest.raises(InputError, match="disk is full"):
        files.write_text(tmp_path / "new.txt", "x")
    assert not (tmp_path / "new.txt").exists()


def test_a_long_build_is_announced_with_its_size(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(announce, "ANNOUNCE_SECONDS", 0.0)
    with pytest.warns(TableWarning, match=r"building the value table of small: [\d,]+ values, "
                                          r".* on disk, .* in memory, about \d+ s"):
        open_table(SMALL, tmp_path, progress=False)
    assert capsys.readouterr() == ("", "")                 # the library prints nothing
