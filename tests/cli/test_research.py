"""`yatzy compare`: rule sets and policies side by side, with each line's
head-to-head chances against the first (Distribution.versus: test_distribution.py)."""

import json

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.rules.ruleset import parse_rules
from yatzy.tables.store import open_table


def test_compare_rules_and_policies_on_the_command_line(nordic, tables_dir):
    forced = open_table(parse_rules("forced"), tables_dir, progress=False)
    args = ["compare", "--rules", "forced", "--rules", "nordic", "--policy", "optimal",
            "--policy", "simple", "--at-least", "200", "--tables", str(tables_dir)]
    r = CliRunner().invoke(main, args + ["--json"])
    assert r.exit_code == 0, r.output
    items = json.loads(r.stdout)["items"]
    assert [(i["rules"], i["policy"]) for i in items] == [
        ("forced", "optimal"), ("forced", "simple"), ("nordic", "optimal"), ("nordic", "simple")]
    assert all(i["exact"] for i in items)
    assert items[2]["mean"] == pytest.approx(nordic.expected_score, abs=1e-9)
    assert items[0]["mean"] == pytest.approx(forced.expected_score, abs=1e-9)
    assert items[0]["table_value"] == pytest.approx(forced.expected_score, abs=1e-9)
    assert items[1]["mean"] < items[0]["mean"] and items[3]["mean"] < items[2]["mean"]
    assert items[2]["at_least"]["200"] > items[0]["at_least"]["200"]
    first = items[0]["versus_first"]
    assert first["win"] == pytest.approx(first["loss"], abs=1e-12)
    assert items[2]["versus_first"]["win"] > 0.9      # nordic optimal against forced optimal
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["rules", "policy", "mean", "sd", "P5", "P50", "P95", "bonus",
                                "vs", "1st", ">=200"]
    assert lines[3].split()[:3] == ["nordic", "optimal", f"{items[2]['mean']:.2f}"]


LATE = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=14,"
        "three_of_a_kind=12,four_of_a_kind=16,small_straight=15,large_straight=20,full_house=18")


def quick_and_slow(args, tables_dir, monkeypatch):
    """``args`` run as they are (a core's share 0.5, an eighth of the cores free,
    no time before the first pass) and with the forward pass made slow (and
    the process's start before it, ``DISTRIBUTION_START``, as it is); and the
    slow pass's plan."""
    from yatzy import Solver
    from yatzy.tables import announce, plan

    monkeypatch.setattr(plan, "cpu_share", lambda seconds=0.2: 0.5)
    monkeypatch.setattr(announce, "busy_share", lambda: 0.125)     # between the two: 0.25
    start = announce.DISTRIBUTION_START
    monkeypatch.setattr(announce, "DISTRIBUTION_START", 0.0)
    quick = CliRunner().invoke(main, [*args, "--card", LATE, "--tables", str(tables_dir)])
    assert quick.exit_code == 0 and "computing" not in quick.stderr, quick.output
    monkeypatch.setattr(announce, "DISTRIBUTION_START", start)
    monkeypatch.setattr(announce, "DISTRIBUTION_RATE", 1e-4)
    solver = Solver("nordic", tables=tables_dir)
    slow = CliRunner().invoke(main, [*args, "--card", LATE, "--tables", str(tables_dir)])
    assert slow.exit_code == 0, slow.output
    return quick, slow, announce.distribution_plan(solver.rules, solver.card(LATE).mask)


def test_a_long_exact_distribution_is_announced_with_the_plans_figures(nordic, tables_dir,
                                                                        monkeypatch):
    """The exact distribution's forward pass is announced (what, its memory,
    about how long on this machine now: the reference time, with the
    process's start before its first pass, over the geometric mean of the
    share of a core, here 0.5, and of the machine's free cores, here an
    eighth) when that is over 2 s, and not when it is shorter; the
    distribution itself is the same either way."""
    from yatzy.tables.announce import DISTRIBUTION_START
    from yatzy.tables.plan import describe_bytes, describe_seconds

    quick, r, p = quick_and_slow(["distribution", "--json"], tables_dir, monkeypatch)
    line = r.stderr.splitlines()[0]
    assert line == (f"warning: computing the exact distribution of nordic over the 2 open "
                    f"boxes' game: {p.values:,} values, nothing stored, "
                    f"{describe_bytes(p.memory_bytes)} in memory, about "
                    f"{describe_seconds((p.seconds + DISTRIBUTION_START) / 0.25)}"), line
    same = [{k: v for k, v in json.loads(x.stdout).items() if k != "seconds"} for x in (r, quick)]
    assert p.values == 4 * 64 and same[0] == same[1]


def test_the_distributions_first_compile_is_said_once_before_its_pass(nordic, tables_dir,
                                                                       monkeypatch):
    """After an install (Numba's cache empty) the exact distribution's
    compile is said once, before the pass's own announcement (the order
    they come in), not after it."""
    import yatzy.studies as api
    import yatzy.kernels.cache as cache
    from yatzy.tables import announce

    monkeypatch.setattr(api, "_COMPILE_SAID", set())
    monkeypatch.setattr(cache, "compiled", lambda kernel: False)
    monkeypatch.setattr(announce, "DISTRIBUTION_RATE", 1e-4)          # the pass announced
    r = CliRunner().invoke(main, ["distribution", "--json", "--card", LATE,
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    said = [x for x in r.stderr.splitlines() if "exact distribution" in x]
    assert [x.split(" the exact")[0] for x in said] == ["warning: compiling",
                                                        "warning: computing"], said


def test_a_long_comparison_is_announced_with_its_passes_together(nordic, tables_dir,
                                                                  monkeypatch):
    """``compare`` says how many exact distributions it computes and about
    how long they take together when that is over 2 s (each as the
    distribution's own announcement, the process's start once), and nothing
    when it is shorter."""
    from yatzy.tables.announce import DISTRIBUTION_START
    from yatzy.tables.plan import describe_seconds

    quick, r, p = quick_and_slow(["compare", "--policy", "optimal", "--policy", "greedy"],
                                 tables_dir, monkeypatch)
    assert r.stderr.splitlines()[0] == (
        "warning: computing 2 exact distributions (nordic), nothing stored, about "
        f"{describe_seconds((2 * p.seconds + DISTRIBUTION_START) / 0.25)}"), r.stderr
    assert r.stdout == quick.stdout
