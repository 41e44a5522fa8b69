"""What the coach (``yatzy play --hints check``, ``hint MOVE``) and the
trainer (``yatzy train``) print of an explanation adds up: the printed
parts, read with the language's decimal comma, sum to the printed loss."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from yatzy.cli import main

SIGNED = re.compile(r"([+\u2212])(\d+)[.,](\d\d)")
UNSIGNED = r"(\d+)[.,](\d\d)"


def cents(whole: str, hundredths: str) -> int:
    return 100 * int(whole) + int(hundredths)


def sums(output: str, in_all: str, costs: str) -> list[tuple[int, list[int], int]]:
    """Each printed sum with the loss of the sentence just above it: the
    loss, the sum's parts and its total, in hundredths."""
    out = []
    lines = output.splitlines()
    for above, line in zip(lines, lines[1:]):
        if f"; {in_all} " in line:
            loss = re.search(costs.format(n=UNSIGNED), above)
            assert loss, (above, line)
            got = [(1 if s == "+" else -1) * cents(a, b) for s, a, b in SIGNED.findall(line)]
            out.append((cents(*loss.groups()), got[:-1], got[-1]))
    return out


@pytest.fixture
def invoke(nordic, tables_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("YATZY_DATA", str(tmp_path / "data"))

    def go(*args, input=""):
        result = CliRunner().invoke(main, [*args, "--tables", str(tables_dir)], input=input)
        assert "Traceback" not in result.output and result.exit_code == 0, result.output
        return result.output
    return go


@pytest.mark.parametrize("lang, move, costs, in_all", [
    ("en", "ones", r"costs {n} points", "in all"),
    ("nb", "enere", r"koster {n} poeng", "til sammen"),
    ("sv", "ettor", r"kostar {n} poäng", "totalt")])
def test_the_coachs_sum_adds_up_to_the_loss_it_explains(invoke, lang, move, costs, in_all):
    output = invoke("play", "--lang", lang, "--player", "Ann", "--seed", "1", "--hints", "check",
                    "--screen", "plain", input=f"hint 1\n{move}\n")
    shown = sums(output, in_all, costs)
    assert len(shown) == 2, output                  # the hint's, then the check's
    for loss, parts, total in shown:
        assert loss > 0 and total == -loss and sum(parts) == total, output
        assert len(parts) >= 2


def test_the_trainers_sum_adds_up_to_the_loss_it_explains(invoke, tmp_path):
    output = invoke("train", "--count", "3", "--seed", "4", "--lang", "sv", "--db",
                    str(tmp_path / "r.sqlite"),
                    input="reroll all\nettor\ntvåor\nfyror\nfemmor\nchans\n" * 3)
    shown = sums(output, "totalt", r"kostar {n} poäng")
    assert shown, output
    for loss, parts, total in shown:
        assert loss > 0 and total == -loss and sum(parts) == total, output
