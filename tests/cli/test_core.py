"""The yatzy command: output contract, JSON, and one-line errors with exit 2."""

import json

import pytest
from click.testing import CliRunner
from golden import OPTIMA, rounds_to

from yatzy.cli import main
from yatzy.rules.ruleset import KEYS, PRESETS


@pytest.fixture(scope="module")
def run(nordic, tables_dir):
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, [*args, "--tables", str(tables_dir)])
    return invoke


def test_solve_prints_score_seconds_and_path(run, nordic):
    r = run("solve")
    assert r.exit_code == 0, r.output
    assert OPTIMA["nordic"]["value"] in r.output
    assert "seconds" in r.output and str(nordic.path) in r.output


def test_ev_json_for_fresh_and_partial_cards(run, nordic):
    r = run("ev", "--json")
    d = json.loads(r.stdout)
    assert d["current_score"] == 0
    assert d["expected_final_score"] == pytest.approx(nordic.expected_score, abs=1e-9)
    assert rounds_to(d["expected_final_score"], OPTIMA["nordic"]["value"])
    d = json.loads(run("ev", "--json", "--card",
                       "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18").output)
    assert d["current_score"] == 63 + 50          # bonus already earned counts


def test_advise_json_contract(run):
    r = run("advise", "--dice", "1,1,2,5,6", "--rerolls", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    acts = d["actions"]
    assert acts[0]["action"] == "keep" and acts[0]["dice"] == [5, 6]
    assert acts[0]["loss"] == 0
    assert {"action", "expected_final_score", "loss"} <= set(acts[1])
    score = next(a for a in acts if a["action"] == "score" and a["box"] == "chance")
    assert score["points"] == 15
    values = [a["expected_final_score"] for a in acts]
    assert values == sorted(values, reverse=True)


def test_advise_accepts_aliases_and_compact_dice(run):
    a = json.loads(run("advise", "--dice", "66655", "--rerolls", "0", "--json",
                       "--card", "hus=0,sjanse=20,enere=2").output)
    b = json.loads(run("advise", "--dice", "5 5 6 6 6", "--rerolls", "0", "--json",
                       "--card", "full_house=0,chance=20,ones=2").output)
    assert a["actions"] == b["actions"]


def test_advise_human_table_and_top(run):
    r = run("advise", "--dice", "11256", "--rerolls", "2", "--top", "3")
    assert r.exit_code == 0
    lines = r.output.strip().splitlines()
    assert len(lines) == 2 + 3
    assert "keep 5 6" in lines[2] and "best" in lines[2]


@pytest.mark.parametrize("args, message", [
    (["advise", "--dice", "1,2,3,4,7", "--rerolls", "1"], "7 is not a face"),
    (["advise", "--dice", "1234", "--rerolls", "1"], "4 dice given"),
    (["advise", "--dice", "1,2,x,4,5", "--rerolls", "1"], "dice"),
    (["advise", "--dice", "12345", "--rerolls", "3"], "rerolls"),
    (["advise", "--dice", "12345", "--rerolls", "-1"], "rerolls"),
    (["advise", "--dice", "12345", "--rerolls", "1", "--card", "sevens=7"], "unknown box"),
    (["advise", "--dice", "12345", "--rerolls", "1", "--card", "ones=1,enere=2"], "twice"),
    (["ev", "--card", "ones=7"], "impossible"),
    (["ev", "--card", "twos=3"], "impossible"),
    (["ev", "--card", "small_straight=14"], "impossible"),
    (["ev", "--card", "two_pairs=7"], "impossible"),
    (["ev", "--card", "yatzy=40"], "impossible"),
    (["ev", "--card", "ones"], "box=points"),
    (["ev", "--card", "ones=x"], "whole number"),
    (["ev", "--rules", "klondike"], "unknown rules preset"),
    (["ev", "--rules", "nordic:colour=red"], "unknown key"),
    (["ev", "--rules", "nordic:rolls=many"], "whole number"),
    (["ev", "--rules", "nordic:order=sideways"], "order"),
    (["ev", "--rules", "forced", "--card", "twos=4"], "cannot all be filled"),
    (["advise", "--rules", "maxi", "--dice", "12345", "--rerolls", "1"], "this game uses 6"),
    (["advise", "--rules", "maxi", "--dice", "123456", "--rerolls", "12"], "3 own and 0 banked"),
    (["ev", "--rules", "maxi:bank_cap=8", "--card", "bank=99"], "bank=99"),
    (["ev", "--rules", "maxi", "--card", "bank=1"], "bank=1 is impossible with 0 boxes"),
    (["ev", "--rules", "maxi", "--card", "hut=31"], "impossible"),
    (["ev", "--rules", "yahtzee", "--card", "full_house=20"], "impossible"),
    (["ev", "--rules", "yahtzee", "--card", "yahtzee=0,yahtzee_bonus=100"], "yahtzee_bonus"),
    (["ev", "--rules", "yahtzee:joker=sometimes"], "joker"),
    (["ev", "--rules", "yahtzee:order=forced"], "does not apply"),
])
def test_bad_input_is_one_line_exit_2(run, args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_advice_for_a_full_card_is_refused(run, nordic):
    full = ",".join(f"{b.name}=0" for b in nordic.rules.boxes)
    r = run("advise", "--dice", "12345", "--rerolls", "0", "--card", full)
    assert r.exit_code == 2 and "full" in r.output


def test_rules_listing_and_description():
    runner = CliRunner()
    r = runner.invoke(main, ["rules"])
    assert r.exit_code == 0
    assert all(name in r.output for name in [*PRESETS, *KEYS])

    def described(spec):                 # the description's lines by their first word
        r = runner.invoke(main, ["rules", spec])
        assert r.exit_code == 0, r.output
        return {line.split()[0]: line for line in r.output.splitlines() if line.strip()}

    forced, nordic = described("forced"), described("nordic")
    assert forced["order"].split()[1:] == ["forced"] and nordic["order"].split()[1:] == ["free"]
    assert "42" in forced["bonus"] and "63" not in forced["bonus"]
    assert "63" in nordic["bonus"] and "42" not in nordic["bonus"]
    assert "42" in described("nordic:bonus_threshold=42")["bonus"]


@pytest.mark.parametrize("args, message", [
    (["simulate", "--rules", "maxi", "--games", "1", "--seed", "99999999999999999999"],
     "--seed 99999999999999999999: must be between 0 and 2**63-1"),
    (["simulate", "--games", "1", "--seed", "-5"], "--seed -5: must be between 0"),
    (["simulate", "--games", "x"], "--games 'x': must be a whole number"),
    (["advise", "--dice", "11256", "--rerolls", "2", "--top", "0"], "--top 0: must be at least 1"),
    (["advise", "--dice", "11256", "--rerolls", "two"], "--rerolls 'two'"),
    (["advise", "--dice", "11256"], "Missing option '--rerolls'"),
    (["advise", "--dice", "11256", "--rerolls", "1", "--colour", "red"], "No such option"),
    (["export", "--format", "xml"], "--format 'xml': expected one of csv, parquet, json"),
    (["distribution", "--policy", "lucky"], "--policy 'lucky': expected one of"),
    (["export", "--format", "csv", "--max-bank", "-1"], "--max-bank -1: must be at least 0"),
    (["solitaire"], "No such command 'solitaire'"),
])
def test_usage_errors_are_one_line_exit_2(run, args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output and r.output.startswith("error: ")
    assert len(r.output.strip().splitlines()) == 1, r.output


def test_version_and_help():
    from importlib.metadata import version

    r = CliRunner().invoke(main, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"yatzy {version('yatzy')}"
    r = CliRunner().invoke(main, ["advise", "--help"])
    assert r.exit_code == 0 and "--rerolls" in r.output


def test_a_bad_table_is_a_warning_line_then_recomputed(tmp_path):
    args = ["ev", "--rules", "forced", "--json", "--tables", str(tmp_path)]
    good = json.loads(CliRunner().invoke(main, args).stdout)
    table = next(tmp_path.glob("forced-*.tbl"))
    table.write_bytes(table.read_bytes()[:-8])
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0 and json.loads(r.stdout) == good
    warned = [line for line in r.stderr.splitlines() if line.startswith("warning: ")
              and not line.startswith("warning: compiling")]   # a cold Numba cache's notice
    assert len(warned) == 1 and str(table) in warned[0]
    assert warned[0].endswith("; recomputing") and "truncated" in warned[0]


# ------------------------------------------------------------ research commands
@pytest.mark.parametrize("args, message", [
    (["distribution", "--at-least", "x"], "--at-least 'x'"),
    (["distribution", "--policy", "lucky"], "--policy 'lucky'"),
    (["distribution", "--card", "ones=7"], "impossible"),
    (["distribution", "--rules", "maxi", "--policy", "greedy"], "for the optimal policy"),
    (["distribution", "--rules", "maxi", "--games", "0"], "--games 0"),
    (["distribution", "--rules", "yahtzee", "--games", "100"], "have an exact distribution"),
    (["distribution", "--games", "100"], "have an exact distribution"),
    (["compare", "--policy", "lucky"], "--policy 'lucky'"),
    (["compare", "--rules", "maxi", "--policy", "greedy"], "for the optimal policy"),
    (["compare", "--rules", "nordic", "--rules", "nope"], "unknown rules preset"),
    (["compare", "--card", "ones=7"], "impossible"),
    (["compare", "--plot", "/nonexistent/dir/c.png"], "cannot write"),
    (["simulate", "--games", "0"], "--games 0"),
    (["simulate", "--games", "ten"], "--games 'ten'"),
    (["simulate", "--games", "5", "--seed", "-1"], "--seed -1"),
    (["simulate", "--games", "5", "--log", "/nonexistent/dir/log.jsonl"], "cannot write"),
    (["export", "--format", "xml"], "--format 'xml'"),
    (["review", "/nonexistent.jsonl"], "cannot read"),
    (["simulate", "--rules", "maxi", "--games", "1", "--policy", "greedy"], "only the optimal policy"),
])
def test_bad_research_input_is_a_one_line_error_with_status_2(args, message, tables_dir):
    r = CliRunner().invoke(main, [*args, "--tables", str(tables_dir)])
    assert r.exit_code == 2, r.output
    assert message in r.output and r.output.count("\n") == 1, r.output


def test_advise_explain_json_parts_sum_to_each_loss(run):
    r = run("advise", "--dice", "66662", "--rerolls", "0", "--explain", "--json",
            "--card", "ones=3,twos=6,threes=9,fours=12,fives=15")
    assert r.exit_code == 0, r.output
    actions = json.loads(r.stdout)["actions"]
    assert actions[0]["explanation"] == [] and actions[0]["bonus_chance"] == 1.0
    for a in actions:
        assert sum(p["points"] for p in a["explanation"]) == pytest.approx(a["loss"], abs=1e-9)
        assert 0.0 <= a["bonus_chance"] <= 1.0
    r = run("advise", "--dice", "11256", "--rerolls", "2", "--explain", "--top", "2")
    assert r.exit_code == 0 and "Keeping 5 6 is the best choice" in r.output
    r = run("advise", "--dice", "11256", "--rerolls", "2", "--explain", "--target", "250")
    assert r.exit_code == 2 and r.output.count("\n") == 1


def test_ev_json_has_the_bonus_chance_and_each_open_boxs_expected_points(run):
    d = json.loads(run("ev", "--json", "--card", "sixes=12").output)
    assert 0 < d["bonus_chance"] < 1 and "sixes" not in d["box_expected"]
    total = sum(d["box_expected"].values()) + 50 * d["bonus_chance"]
    assert total == pytest.approx(d["expected_remaining"] - 0, abs=1e-9)
