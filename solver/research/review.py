"""Game logs (JSON lines) and their review against the optimal strategy.

Log format, one JSON object per line (blank lines are ignored):

* an optional header first: ``{"yatzy_log": 1, "rules": "nordic", ...}``
  (``rules`` defaults to the ``--rules`` option; other keys are free);
* one object per turn::

    {"game": 1, "turn": 1, "rolls": [[1, 2, 2, 5, 6], [2, 2, 2, 4, 6]],
     "kept": [[2, 2]], "box": "twos", "points": 6}

  ``rolls`` are the dice after each roll (1 .. rolls per turn of them; a
  die list or a string such as ``"12256"``), ``kept[i]`` the dice kept from
  ``rolls[i]`` before rolling again (so one fewer than ``rolls``), ``box``
  the box written (any name or alias); under rules with several columns
  (``triple``) also ``"column": C`` (1 .. columns), the column it went in.
  ``game`` (default 1) starts a fresh
  card whenever it changes; ``turn`` and ``points`` are optional and checked
  when given.

A review values every decision with ``yatzy.players.strategy.advise``: the choice made,
the best choice, both expected final scores and the loss (best minus chosen,
0 within the tolerance of ``yatzy.rules.ties``).  Keeping all the dice (a
reroll of none) is valued as keeping them with one reroll less.  With
several columns the same review replays the columns' cards and values by
the Trippel strategy: the values are then lower bounds and the losses the
strategy's (``Review.values``, ``yatzy.position.actions.LOWER_BOUND``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from yatzy.bounds import MAX_LINE, brief, parse_json
from yatzy.errors import InputError
from yatzy.files import read_text
from yatzy.players.judge import Written, judge
from yatzy.players.ledger import LOG_VERSION, Decision, Review, Turn, header_line, turn_line
from yatzy.players.strategy import strategy_for
from yatzy.position.actions import EXACT
from yatzy.position.scorecard import Scorecard, end_turn
from yatzy.rules.dice import parse_dice
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.rules.ties import tolerance
from yatzy.space import state_space
from yatzy.tables.store import Table


def read_log(path: str | Path, rules_spec: str | Rules | None
             ) -> tuple[Rules, list[list[Turn]]]:
    """Parse a log into its rules and its games (lists of turns).  Raises
    InputError naming the line of the first problem.  ``rules_spec`` may also
    be a ``Rules`` (for rules no preset makes): the header's rules are then
    not read."""
    fixed = rules_spec if isinstance(rules_spec, Rules) else None
    if fixed is not None:
        rules_spec = None

    def rules_of(spec: str) -> Rules:
        return fixed or parse_rules(spec)

    text = read_text(path)          # a regular file of bounded size (not /dev/zero): else one line
    rules = None
    games: list[list[Turn]] = []
    seen: set[int] = set()
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE:
            raise InputError(f"{path}:{n}: line too long (at most {MAX_LINE} characters)")
        obj = parse_json(raw, f"{path}:{n}")
        if not isinstance(obj, dict):
            raise InputError(f"{path}:{n}: expected a JSON object")
        if "yatzy_log" in obj:
            if rules is not None or games:
                raise InputError(f"{path}:{n}: the header must be the first line")
            try:
                rules = rules_of(str(obj.get("rules", rules_spec or "nordic")))
                if rules_spec and parse_rules(rules_spec) != rules:
                    raise InputError(f"the log is for rules {rules.spec}, not {rules_spec}")
            except InputError as e:
                raise InputError(f"{path}:{n}: {e}") from None
            continue
        if rules is None:
            try:
                rules = rules_of(rules_spec or "nordic")
            except InputError as e:
                raise InputError(f"{path}:{n}: {e}") from None
        turn = _parse_turn(rules, obj, n, path)
        if not games or games[-1][0].game != turn.game:
            if turn.game in seen:
                raise InputError(f"{path}:{n}: game {turn.game} appears twice")
            seen.add(turn.game)
            games.append([])
        if len(games[-1]) == rules.n_boxes * rules.columns:
            raise InputError(f"{path}:{n}: game {turn.game} has more than "
                             f"{rules.n_boxes * rules.columns} turns")
        if "turn" in obj and obj["turn"] != len(games[-1]) + 1:
            raise InputError(f"{path}:{n}: turn {brief(obj['turn'])}, "
                             f"expected {len(games[-1]) + 1}")
        games[-1].append(turn)
    if not games:
        raise InputError(f"{path}: no turns in the log")
    return rules, games


def _parse_turn(rules: Rules, obj: dict, n: int, path) -> Turn:
    where = f"{path}:{n}"
    ds = rules.dice_space
    game = obj.get("game", 1)
    if not isinstance(game, int) or isinstance(game, bool) or game < 1:
        raise InputError(f"{where}: game must be a positive whole number")
    rolls_raw = obj.get("rolls")
    most = rules.rolls + state_space(rules).bank_limit(rules.n_boxes - 1)    # own rolls and a full bank
    if not isinstance(rolls_raw, list) or not 1 <= len(rolls_raw) <= most:
        raise InputError(f"{where}: rolls must be a list of 1..{most} rolls")
    rolls = tuple(_dice(rules, d, ds.n, f"{where}: roll {i + 1}") for i, d in enumerate(rolls_raw))
    kept_raw = obj.get("kept", [])
    if not isinstance(kept_raw, list) or len(kept_raw) != len(rolls) - 1:
        raise InputError(f"{where}: kept must list {len(rolls) - 1} keeps (one per reroll)")
    kept = []
    for i, k in enumerate(kept_raw):
        dice = _dice(rules, k, None, f"{where}: keep {i + 1}")
        if not _contains(rolls[i], dice):
            raise InputError(f"{where}: keep {i + 1} {list(dice)} is not among roll "
                             f"{i + 1} {list(rolls[i])}")
        if not _contains(rolls[i + 1], dice):
            raise InputError(f"{where}: roll {i + 2} {list(rolls[i + 1])} lost the kept "
                             f"dice {list(dice)}")
        kept.append(dice)
    if not isinstance(obj.get("box"), str):
        raise InputError(f"{where}: box must be a box name")
    try:
        box = rules.box_index(obj["box"])
    except InputError as e:
        raise InputError(f"{where}: {e}") from None
    points = obj.get("points")
    if points is not None and (not isinstance(points, int) or isinstance(points, bool)):
        raise InputError(f"{where}: points must be a whole number")
    column = 0
    if rules.play.names_columns:
        column = obj.get("column")
        if type(column) is not int or not 1 <= column <= rules.columns:
            raise InputError(f"{where}: column must be 1..{rules.columns}")
    return Turn(str(path), n, game, rolls, tuple(kept), box, points, column)


def _dice(rules: Rules, raw, count: int | None, where: str) -> tuple[int, ...]:
    """Sorted dice from a list of numbers or a string like ``"12256"``:
    exactly ``count`` of them, or 0 .. all the game's dice when None."""
    if isinstance(raw, list) and all(type(d) is int for d in raw):
        raw = " ".join(map(str, raw))
    if not isinstance(raw, str):
        raise InputError(f"{where}: expected dice like [1, 2, 2, 5, 6] or \"12256\"")
    try:
        return parse_dice(raw, count, rules.faces, rules.dice)
    except InputError as e:
        raise InputError(f"{where}: {e}") from None


def _contains(big: tuple[int, ...], small: tuple[int, ...]) -> bool:
    rest = list(big)
    for d in small:
        if d not in rest:
            return False
        rest.remove(d)
    return True



def review(table: Table, games: list[list[Turn]], rules: Rules | None = None) -> Review:
    """Value every decision of ``games`` (parsed by ``read_log``);
    ``rules``: the rules played, if not the table's (several columns:
    the table is their one-column table, ``Rules.column_rules``)."""
    rules = rules or table.rules
    tol = tolerance(table)
    strategy, play = strategy_for(rules), rules.play
    out: list[Decision] = []
    scores = []
    values = EXACT
    for turns in games:
        card = Scorecard.empty(rules)
        for t, turn in enumerate(turns, 1):
            where = f"{turn.path}:{turn.line}"
            column = turn.column or 1
            name = rules.boxes[turn.box].name
            if (column, turn.box) not in card.allowed():
                filled = card.column(column).points[turn.box] is not None
                state = "already filled" if filled else "not allowed now"
                raise InputError(f"{where}: box {name}{play.of_column(column)} is {state}")
            available = card.max_rerolls                # rerolls: own and banked
            if len(turn.rolls) - 1 > available:
                raise InputError(f"{where}: {len(turn.rolls)} rolls, but the turn has 1 + "
                                 f"{available}" + (f" (bank {card.bank})" if play.exact else ""))
            values_now = strategy.turn(table, card)
            for i, dice in enumerate(turn.rolls):
                rerolls = available - i
                kept = turn.kept[i] if i < len(turn.kept) else None
                try:
                    adv, chosen, loss, value, label = judge(
                        table, values_now, card, dice, rerolls,
                        kept if kept is not None else Written(turn.box,
                                                              play.label(column)))
                except InputError:
                    raise InputError(f"{where}: {list(dice)} may not go in {name} "
                                     "(a joker must go where the rules say)") from None
                values, best = adv.values, adv.best
                if kept is None and turn.points is not None and turn.points != chosen.points:
                    raise InputError(f"{where}: points {turn.points}, but {list(dice)} "
                                     f"scores {chosen.points} in {name}")
                out.append(Decision(turn.game, t, i + 1, turn.line, dice, rerolls, label, value,
                                    str(best), best.expected_final_score,
                                    0.0 if loss <= tol else loss))
            card = end_turn(card, turn.box, chosen.points, turn.rolls[-1],
                            available - (len(turn.rolls) - 1), column)
        scores.append(card.score)
    return Review(rules, tuple(out), tuple(scores), values)


def log_lines(rules: Rules, first_game: int, rolls, keeps, boxes, points) -> Iterator[str]:
    """Log lines of simulated games (``yatzy.research.simulate.GameLog`` arrays:
    multiset indices, -1 where unused)."""
    ds = rules.dice_space
    for i in range(rolls.shape[0]):
        for t in range(rolls.shape[1]):
            n = int((rolls[i, t] >= 0).sum())
            yield turn_line(rules, first_game + i + 1, t + 1,
                            [ds.dice_of(ds.first_roll + int(r)) for r in rolls[i, t, :n]],
                            [ds.dice_of(int(k)) for k in keeps[i, t, :n - 1]],
                            int(boxes[i, t]), int(points[i, t]))


__all__ = ["LOG_VERSION", "Decision", "Review", "Turn", "header_line", "log_lines", "read_log",
           "review", "turn_line"]
