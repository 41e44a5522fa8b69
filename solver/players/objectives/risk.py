"""Playing for the largest expected utility ``-exp(-theta x) / theta`` of
the final score ``x``: the value table solved for ``theta``; values are
certainty equivalents (points), so ties are within ``tolerance`` points as
for the expected score."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yatzy.errors import InputError
from yatzy.players.objectives.score import Score
from yatzy.tables.values import check_theta

if TYPE_CHECKING:
    from yatzy.rules.ruleset import Rules


class Risk(Score):
    """The largest expected utility of the final score: ``theta > 0``
    plays cautiously, ``theta < 0`` boldly (``1e-6 <= |theta| <= 1``).

    >>> Risk(0.05)
    Risk(0.05)
    """

    name = "risk"
    summary = "the largest expected utility -exp(-theta x)/theta of the final score"
    parameter = "--theta"

    def __init__(self, theta: float):
        self.theta = theta

    def __repr__(self) -> str:
        return f"Risk({self.theta!r})"

    @classmethod
    def refuse(cls, rules: Rules) -> str | None:
        return rules.play.refuse("risk")

    def check(self, rules: Rules) -> Risk:
        if self.refuse(rules):
            raise InputError(f"rules {rules.spec}: theta is not available with several columns")
        return Risk(check_theta(rules, self.theta))

    def describe(self, advice) -> str:
        return f", theta {self.theta:g} (values: certainty equivalents)"

    def as_dict(self) -> dict:
        return {"theta": self.theta, "values": "certainty_equivalent"}
