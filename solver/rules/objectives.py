"""How a player can play: the policies, each declared once with the rule
sets it supports and the tables it reads.  (What a player plays for, the
objectives, are objects: ``yatzy.players.objectives``.)

Every surface reads these declarations: the API and the CLI check a
request with ``policy_for``, the match seats and the game's computer
players list ``policy_names``, and the compiled policy kernels take a
policy's ``kernel`` index.  Adding a policy is one declaration here plus
its kernel parameter.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> policy_names(parse_rules("nordic"))
    ('optimal', 'greedy', 'simple')
    >>> policy_names(parse_rules("triple"))
    ('optimal', 'greedy', 'step')
    >>> policy_for("step", parse_rules("nordic"))
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: policy 'step': under rules nordic expected one of optimal, greedy, simple (step needs several columns)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from yatzy.errors import InputError

if TYPE_CHECKING:
    from yatzy.rules.ruleset import Rules


def _refusal(what: str) -> Callable[[Rules], str | None]:
    """Why ``rules`` cannot play ``what``, as their play says (``Rules.play``)."""
    return lambda rules: rules.play.refuse(what)


def _no_saved_rolls(rules: Rules) -> str | None:
    return "it is not available under saved rolls" if rules.saved_rolls else None


def _simple(rules: Rules) -> str | None:
    return rules.play.refuse("simple") or _no_saved_rolls(rules)


def target_tables_refusal(rules: Rules) -> str | None:
    """Why the target tables (playing for a target, or to win) cannot
    serve ``rules``, or None."""
    if rules.saved_rolls:
        return "target tables do not support saved rolls"
    if rules.play.refuse("target tables"):
        return rules.play.refuse("target tables")
    if rules.yahtzee_bonus:
        return "target tables do not support the yahtzee bonus (try yahtzee:yahtzee_bonus=false)"
    return None


def _any(rules: Rules) -> str | None:
    return None


def _kernel_seat(rules: Rules) -> str | None:
    """Why a computer seat of a compiled policy (greedy, simple) cannot
    play ``rules`` at the table: its kernels number a roll's boxes and
    keeps in one byte (``yatzy.kernels.policy.check_policy_rules``)."""
    if rules.n_boxes + rules.dice_space.first_roll > 255:
        return "its computer seat handles at most 255 boxes and keeps of a roll"
    return None


def _greedy_seat(rules: Rules) -> str | None:
    return rules.play.refuse("greedy seat") or _kernel_seat(rules)


@dataclass(frozen=True)
class Policy:
    """A way of choosing actions.

    * ``name``: as typed (``--policy``, ``--player NAME=KIND``, match seats)
    * ``summary``: one line for help texts
    * ``kernel``: its index in the compiled policy kernels
      (``yatzy.kernels.policy``), or -1 when another player plays it
    * ``tables``: the tables it reads (``value``, ``target``, ``futures``)
    * ``refuse(rules)``: why it cannot play ``rules``, or None
    * ``refuse_seat(rules)``: why a computer seat at the table (``Game``,
      decision by decision) cannot play it, beyond ``refuse``
    """

    name: str
    summary: str
    kernel: int
    tables: tuple[str, ...]
    refuse: Callable[[Rules], str | None]
    refuse_seat: Callable[[Rules], str | None] = lambda rules: None

    def supports(self, rules: Rules, *, seat: bool = False) -> bool:
        return self.refuse(rules) is None and not (seat and self.refuse_seat(rules))

    def why_not(self, rules: Rules, *, seat: bool = False) -> str | None:
        return self.refuse(rules) or (self.refuse_seat(rules) if seat else None)


# The compiled kernels number their policies in this order (``kernel``).
POLICIES: tuple[Policy, ...] = (
    Policy("optimal", "the strategy of the objective (exact for one column; Trippel-Yatzy: "
           "the measured strategy)", 0, ("value",), _any),
    Policy("greedy", "the most points now, keeping for the best box", 1, (), _no_saved_rolls,
           _greedy_seat),
    Policy("simple", "keeps the most common face, scores the best box", 2, (), _simple,
           _kernel_seat),
    Policy("step", "Trippel-Yatzy: the plain improvement step over the columns' values", -1,
           ("value",), _refusal("step")),
)
# seats of a match that play against the others' scores
MATCH_ONLY: tuple[Policy, ...] = (
    Policy("win", "the largest chance to win against the other seats", -1,
           ("value", "target", "futures"), target_tables_refusal),
)

def policy_names(rules: Rules, *, match: bool = False, seat: bool = False) -> tuple[str, ...]:
    """The policies that can play ``rules`` (with ``match``, the match's
    seats too; with ``seat``, only those a computer at the table plays)."""
    names = tuple(p.name for p in POLICIES if p.supports(rules, seat=seat))
    if match:
        names += tuple(p.name for p in MATCH_ONLY if p.supports(rules))
    return names


def policy_for(name: object, rules: Rules, *, match: bool = False, seat: bool = False) -> Policy:
    """The declared policy called ``name`` if it can play ``rules`` (as a
    computer seat at the table, with ``seat``); else one line naming the
    policies that can."""
    if not isinstance(name, str):
        raise TypeError(f"a policy is named by a string, not {type(name).__name__}")
    known = {p.name: p for p in POLICIES + (MATCH_ONLY if match else ())}
    allowed = policy_names(rules, match=match, seat=seat)
    if name in allowed:
        return known[name]
    reason = known[name].why_not(rules, seat=seat) if name in known else None
    why = f" ({reason})" if reason else ""
    raise InputError(f"policy {name!r}: under rules {rules.spec} expected one of "
                     f"{', '.join(allowed)}{why}")


ALL_POLICY_NAMES: tuple[str, ...] = tuple(dict.fromkeys(p.name for p in POLICIES))
