"""``yatzy train``: a piped session is answered, explained and recorded;
``--stats`` reads it back; the daily puzzles are the same on a date."""

from __future__ import annotations

import json
import re
import shutil
import types

import pytest
from click.testing import CliRunner

from yatzy.cli import main
from yatzy.cli.train import parse_answer
from yatzy.errors import InputError
from yatzy.research.puzzles import calibrate
from yatzy.research.ratings import Ratings
from yatzy.rules.ruleset import parse_rules


@pytest.fixture(scope="module")
def run(nordic, tables_dir):
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(main, [*args, "--tables", str(tables_dir)], input=input)
    return invoke


@pytest.fixture(scope="module")
def measured(nordic, tmp_path_factory):
    """A ratings database holding the nordic scale of 2 games a policy (what
    ``train --stats --scale-games 2`` measures where a database has none:
    exact distributions, the longest step here), measured once for the
    module; the piped session's test measures it through the command."""
    path = tmp_path_factory.mktemp("scale") / "r.sqlite"
    with Ratings(path) as db:
        db.store_anchors(nordic.rules.spec, nordic.rules.fingerprint, 2, 0, calibrate(nordic, 2))
    return path


@pytest.fixture
def scaled_db(measured, tmp_path):
    """A test's own ratings database, the scale already in it."""
    db = tmp_path / "r.sqlite"
    shutil.copy(measured, db)
    return db


def puzzles_of(output: str) -> list[str]:
    """The dice lines of the puzzles shown."""
    return [line for line in output.splitlines() if line.startswith(("dice", "terninger"))]


def test_a_piped_session_is_recorded_and_stats_read_it_back(run, tmp_path):
    db = tmp_path / "r.sqlite"
    answers = "reroll all\nscore chance\nkeep 1\nchance\n" * 3
    r = run("train", "--count", "3", "--seed", "4", "--db", str(db), input=answers)
    assert r.exit_code == 0, r.output
    assert r.output.count("puzzle ") == 3 and "3 answers, mean loss" in r.output
    with Ratings(db) as ratings:
        rows = ratings.answers("nordic")
    assert len(rows) == 3
    r = run("train", "--stats", "--db", str(db), "--scale-games", "2", "--json")
    assert r.exit_code == 0, r.output
    assert "measuring the rating scale once" in r.stderr     # a new database: measured here
    stats = json.loads(r.stdout)
    assert stats["overall"]["n"] == 3
    assert stats["overall"]["mean"] == pytest.approx(sum(row[2] for row in rows) / 3)
    assert sum(k["n"] for k in stats["by_kind"]) == 3
    assert [a["policy"] for a in stats["scale"]][:3] == ["optimal", "greedy", "simple"]
    text = run("train", "--stats", "--db", str(db), "--scale-games", "2").output
    assert "mean loss per decision" in text and "greedy" in text and "noisy T=1" in text


@pytest.mark.parametrize("lang, words", [("nb", ["vurdering", "snitt", "grådig", "med støy"]),
                                         ("sv", ["betyg", "snitt", "girig", "med brus"])])
def test_the_rating_in_norwegian_and_swedish(run, scaled_db, lang, words):
    db = scaled_db
    run("train", "--count", "1", "--seed", "4", "--db", str(db), input="kast alle\nsjanse\n")
    text = run("train", "--stats", "--db", str(db), "--scale-games", "2", "--lang", lang).output
    assert all(w in text for w in words), text
    english = {"rating", "mean", "loss", "decision", "interval", "due", "review", "scale",
               "games", "each", "final", "score", "greedy", "noisy", "simple", "day", "all"}
    words = re.findall(r"[a-zåäöæø]+", text.replace(str(db), "").lower())
    assert not english & set(words), text
    assert re.search(r"\d,\d{3}", text) and not re.search(r"\d\.\d", text)   # decimal commas


def test_one_answer_has_a_mean_but_no_interval(run, scaled_db):
    """One answer has no spread: its row shows the mean loss and no 95 %
    interval (which would be the mean twice)."""
    db = scaled_db
    r = run("train", "--count", "1", "--seed", "4", "--db", str(db),
            input="reroll all\nscore chance\nkeep 1\nchance\n")
    assert r.exit_code == 0, r.output
    text = run("train", "--stats", "--db", str(db), "--scale-games", "2").output
    rows = [line for line in text.splitlines() if line.split()[:2][-1:] == ["1"]]
    assert rows and all(".." not in line for line in rows), text


def test_the_same_seed_shows_the_same_puzzles_and_a_date_the_same_daily_ones(run, tmp_path):
    def shown(*args):
        r = run("train", "--count", "2", "--db", str(tmp_path / "x.sqlite"), *args,
                input="skip\nskip\n")
        assert r.exit_code == 0, r.output
        return puzzles_of(r.output)
    assert shown("--seed", "9") == shown("--seed", "9")
    daily = shown("--date", "2026-12-01")
    assert daily == shown("--date", "2026-12-01") and len(daily) == 2
    assert daily != shown("--date", "2026-12-02")


def test_norwegian_session_names_boxes_in_norwegian(run, tmp_path):
    r = run("train", "--count", "1", "--seed", "4", "--lang", "nb", "--db",
            str(tmp_path / "nb.sqlite"), input="sjanse\nkeep 1\nreroll all\n")
    assert r.exit_code == 0, r.output
    assert "oppgave 1 av 1" in r.output and "seksere" in r.output and "svar>" in r.output


def test_a_wrong_answer_comes_back_as_a_review(run, tmp_path):
    db = tmp_path / "w.sqlite"
    with Ratings(db) as ratings:
        from yatzy.research.ratings import Answer
        ratings.record(Answer("nordic", "|11256|2", "first keep", "reroll all", "keep 5 6",
                              1.2, at=__import__("datetime").datetime(
                                  2026, 1, 1, tzinfo=__import__("datetime").timezone.utc)))
    r = run("train", "--count", "1", "--seed", "1", "--db", str(db), input="keep 5 6\n")
    assert r.exit_code == 0, r.output
    assert "a position you got wrong before" in r.output and "dice 1 1 2 5 6" in r.output
    assert "best choice" in r.output


def test_answers_parse_like_the_coach():
    rules = parse_rules("nordic")
    assert str(parse_answer("56", rules)) == "keep 5 6"
    assert str(parse_answer("score chance (23)", rules)) == "score chance (23)"
    assert str(parse_answer("tre like", rules)) == "score three_of_a_kind"
    assert str(parse_answer("score liten straight", rules)) == "score small_straight"
    with pytest.raises(InputError):
        parse_answer("dance", rules)


@pytest.mark.parametrize("args, words", [
    (("--plot", "x.png"), "--plot goes with --stats"),
    (("--date", "2026-13-01"), "--date"),
    (("--rules", "triple"), "one column"),
    (("--level", "9"), "--level"),
])
def test_bad_options_are_one_line_errors(run, tmp_path, args, words):
    r = run("train", "--db", str(tmp_path / "e.sqlite"), *args, input="")
    assert r.exit_code == 2 and words in r.output and r.output.count("\n") == 1, r.output


def test_puzzles_from_a_log_of_simulated_games(run, tmp_path):
    log = tmp_path / "games.jsonl"
    r = run("simulate", "--games", "2", "--policy", "greedy", "--log", str(log))
    assert r.exit_code == 0, r.output
    r = run("train", "--from", str(log), "--count", "2", "--db", str(tmp_path / "l.sqlite"),
            input="skip\nskip\n")
    assert r.exit_code == 0, r.output
    assert r.output.count("puzzle ") == 2 and "from " + str(log) in r.output


@pytest.mark.parametrize("lang, words", [("en", ["explanation table of nordic", "on disk"]),
                                         ("nb", ["forklaringstabellen for nordic", "på disk"]),
                                         ("sv", ["förklaringstabellen för nordic", "på disk"])])
def test_the_first_session_announces_the_whole_explanations_build(nordic, tables_dir, tmp_path,
                                                                   monkeypatch, lang, words):
    """Where the explanations table is not stored, the first puzzle waits for
    its whole build: announced first, in the language, with the plan's size
    and its time as measured (here a measure that says 4321 s), the build
    then started (here stopped at once)."""
    import shutil

    from yatzy import Solver
    from yatzy.players import explain
    from yatzy.tables.plan import describe_bytes, parts_plan
    values = Solver("nordic", tables=tables_dir).path
    for f in values.parent.glob(values.name + "*"):            # the value table alone
        shutil.copy(f, tmp_path / f.name)
    measured, started = [], []
    monkeypatch.setattr(explain, "measure", lambda *a: measured.append(a[-1]) or 4321.0)

    def stop(*args):
        started.append(args)
        raise InputError("stopped here")
    monkeypatch.setattr(explain, "solve_and_store", stop)
    r = CliRunner().invoke(main, ["train", "--tables", str(tmp_path), "--lang", lang, "--db",
                                  str(tmp_path / "r.sqlite")], input="")
    assert r.exit_code == 2 and started and measured, r.output
    first = r.output.splitlines()[0]
    size = describe_bytes(parts_plan(parse_rules("nordic")).file_size)
    size = size if lang == "en" else size.replace(".", ",")
    about = "72.0 min" if lang == "en" else "72,0 min"
    assert size in first and about in first and all(w in first for w in words), first
    assert r.output.index(first) < r.output.index("stopped here")


def test_measuring_the_scale_says_about_how_long_first(run, tmp_path, monkeypatch):
    """Before it measures: the time of that many noisy games, timed now."""
    from yatzy.cli import train
    monkeypatch.setattr(train, "scale_seconds", lambda table, games: 7 * games + 100.0)
    r = run("train", "--stats", "--db", str(tmp_path / "r.sqlite"), "--scale-games", "2",
            "--lang", "nb")
    assert r.exit_code == 0, r.output
    assert "måler vurderingsskalaen én gang (2 spill per strategi), omtrent 1:54 …" in r.stderr


def test_the_scales_time_grows_with_its_games(nordic, monkeypatch):
    """The estimate is the time of one timed noisy game times the games it
    stands for: every policy's games plus the fixed distributions. The clock
    is a fake one that ticks a second per reading, so a busy machine cannot
    change the answer."""
    from yatzy.cli import train
    ticks = iter(range(10**6))
    clock = types.SimpleNamespace(perf_counter=lambda: float(next(ticks)))
    monkeypatch.setattr(train, "time", clock)
    policies = len(train.pz.CALIBRATION_TEMPERATURES) + 3
    for games in (1, 200):
        per_game = 1 / 2          # two games timed, one tick between the readings
        assert train.scale_seconds(nordic, games) == pytest.approx(
            per_game * (games * policies + train.SCALE_FIXED_GAMES))
