"""yatzy.research.review: optimal games review with zero loss, a blunder costs what
the advice says, malformed logs are one-line errors naming the line."""

import json

import pytest
from click.testing import CliRunner
from small_games import card

from yatzy.cli import main
from yatzy.players.strategy import advise
from yatzy.research.review import read_log, review
from yatzy.rules.ties import TIE


def test_optimal_games_review_with_zero_loss(nordic, tables_dir, tmp_path):
    path = tmp_path / "games.jsonl"
    r = CliRunner().invoke(main, ["simulate", "--games", "2", "--seed", "1", "--log", str(path),
                                  "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["yatzy_log"] == 1 and len(lines) == 1 + 2 * 15
    rules, games = read_log(path, None)
    result = review(nordic, games)
    assert len(result.decisions) >= 2 * 15 and result.total_loss == 0.0
    r = CliRunner().invoke(main, ["review", str(path), "--json", "--tables", str(tables_dir)])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["total_loss"] == 0 and d["scores"] == list(result.scores)


def test_a_blunder_costs_exactly_what_the_advice_says(nordic, tables_dir, tmp_path):
    """Keeping 1 1 from 1 1 2 5 6 at the start, then playing on."""
    path = tmp_path / "blunder.jsonl"
    path.write_text('{"game": 1, "turn": 1, "rolls": [[1, 1, 2, 5, 6], "11134", [1, 1, 1, 1, 2]],'
                    ' "kept": [[1, 1], [1, 1, 1]], "box": "ones", "points": 4}\n')
    sc = card(nordic)
    adv = advise(nordic, sc, (1, 1, 2, 5, 6), 2)
    keep11 = next(a for a in adv.actions if a.kind == "keep" and a.dice == (1, 1))
    loss = adv.best.expected_final_score - keep11.expected_final_score
    assert loss > 1
    result = review(nordic, read_log(path, "nordic")[1])
    first = result.decisions[0]
    assert first.loss == pytest.approx(loss, abs=1e-12)
    assert first.chosen == "keep 1 1" and first.best == str(adv.best)
    later = advise(nordic, sc, (1, 1, 1, 3, 4), 1)
    kept = next(a for a in later.actions if a.kind == "keep" and a.dice == (1, 1, 1))
    second = later.best.expected_final_score - kept.expected_final_score
    assert result.decisions[1].loss == pytest.approx(0.0 if second <= TIE else second, abs=1e-12)
    assert result.total_loss == pytest.approx(sum(d.loss for d in result.decisions))
    assert result.costliest(1)[0] is first
    r = CliRunner().invoke(main, ["review", str(path), "--tables", str(tables_dir)])
    assert r.exit_code == 0 and f"{loss:.4f}" in r.output


@pytest.mark.parametrize("text, message", [
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "ones"}\nnot json\n', ":2: not JSON"),
    ('{"rolls": [[1, 1, 2, 5, 7]], "box": "ones"}\n', ":1: roll 1: dice '1 1 2 5 7': 7 is not a face"),
    ('{"rolls": [[1, 1, 2, 5]], "box": "ones"}\n', ":1: roll 1: dice '1 1 2 5': 4 dice given"),
    ('{"rolls": [[1, 1, 2, 5, 6], [1, 3, 3, 3, 3]], "kept": [[1, 1]], "box": "ones"}\n',
     ":1: roll 2 [1, 3, 3, 3, 3] lost the kept dice"),
    ('{"rolls": [[1, 1, 2, 5, 6], [1, 1, 3, 3, 3]], "kept": [[1, 1, 1]], "box": "ones"}\n',
     ":1: keep 1 [1, 1, 1] is not among roll 1"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "ones", "points": 3}\n', ":1: points 3"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "sevens"}\n', ":1: unknown box"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "box": "ones"}\n{"rolls": [[1, 1, 2, 5, 6]], "box": "ones"}\n',
     ":2: box ones is already filled"),
    ('{"rolls": [[1, 1, 2, 5, 6]], "kept": [], "box": "ones", "turn": 2}\n', ":1: turn 2"),
    ('{"rolls": [], "box": "ones"}\n', ":1: rolls must be"),
    ('{"yatzy_log": 1, "rules": "nordic:rolls=x"}\n', ":1: rules"),
    ("\n", "no turns"),
])
def test_malformed_logs_are_one_line_errors_naming_the_line(nordic, tables_dir, tmp_path,
                                                            text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    r = CliRunner().invoke(main, ["review", str(path), "--tables", str(tables_dir)])
    assert r.exit_code == 2
    assert message in r.output and r.output.count("\n") == 1, r.output
