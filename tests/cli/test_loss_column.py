"""One sign and one word for loss: the loss column of `yatzy advise` (text)
is the JSON's loss, a positive number of points, `best` for the first
action that gives up nothing and `tie` for a later one; `--explain` keeps
the header of plain advice and its JSON the bank after stopping."""

import inspect
import json

import pytest
from click.testing import CliRunner

from yatzy.cli import main


# click before 8.2 mixes stderr (a build's notice, its progress) into stdout unless asked
SEPARATE_STDERR = ({"mix_stderr": False}
                   if "mix_stderr" in inspect.signature(CliRunner).parameters else {})


@pytest.fixture
def run(nordic, tables_dir):
    def run(*args):
        result = CliRunner(**SEPARATE_STDERR).invoke(main, [*args, "--tables", str(tables_dir)])
        assert result.exit_code == 0, result.output
        return result.stdout
    return run


@pytest.mark.parametrize("position", [
    ("--dice", "11256", "--rerolls", "2"),
    ("--card", "ones=3,two_pairs=18,yatzy=0", "--dice", "66652", "--rerolls", "1"),
    ("--dice", "11111", "--rerolls", "0", "--theta", "0.05"),
])
def test_the_tables_loss_is_the_jsons(run, position):
    rows = run("advise", *position).splitlines()[2:]
    actions = json.loads(run("advise", *position, "--json"))["actions"]
    assert len(rows) == len(actions) > 1
    first = True
    for row, action in zip(rows, actions):
        cell = row.split()[-1]
        if action["loss"] == 0:
            assert cell == ("best" if first else "tie"), row
            first = False
        else:
            assert not cell.startswith("-") and float(cell) == round(action["loss"], 3), row
            assert action["loss"] > 0


def test_explain_keeps_the_header_and_the_bank(run):
    position = ("--dice", "66134", "--rerolls", "0", "--card", "ones=2", "--top", "2")
    plain = run("advise", *position).splitlines()[0]
    assert run("advise", *position, "--explain").splitlines()[0] == plain
    explained = json.loads(run("advise", *position, "--explain", "--json"))
    assert explained["bank_after_stopping"] == json.loads(
        run("advise", *position, "--json"))["bank_after_stopping"]
