"""The golden figures (tests/golden.toml): every published or computed
optimum and distribution figure the tests pin, each with its source."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

GOLDEN = tomllib.loads((Path(__file__).parent / "golden.toml").read_text(encoding="utf-8"))
OPTIMA = {e["rules"]: e for e in GOLDEN["optimum"]}
DISTRIBUTIONS = {e["rules"]: e for e in GOLDEN["distribution"]}


def optimum(rules: str) -> float:
    """The pinned optimum of ``rules`` as a number."""
    return float(OPTIMA[rules]["value"])


def half_unit(text: str) -> float:
    """Half a unit of the last digit written in ``text`` ("38.496": 0.0005)."""
    return 0.5 * 10.0 ** Decimal(text).as_tuple().exponent


def rounds_to(x: float, text: str) -> bool:
    """``x`` rounds to the figure written as ``text`` (within half a unit of
    its last digit, and a hair for binary floating point)."""
    return abs(x - float(text)) <= half_unit(text) * (1 + 1e-9)


def run(table: dict) -> list[str]:
    """The rules of the entries of ``table`` the suite computes."""
    return [rules for rules, e in table.items() if e["run"]]
