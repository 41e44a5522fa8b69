r"""Trippel-Yatzy (``columns > 1``): a strategy from the exact one-column table.

A position is one card per column, ``(mask_c, u_c)`` for ``c = 1 .. C``;
column ``c`` counts ``w_c = c`` times (``Rules.column_weights``).  The exact
state is far too large to solve, so the strategy values what follows a turn
by

.. math:: H(s) = \sum_c w_c\, V(mask_c, u_c),

``V`` the exact one-column table (``Rules.column_rules``).  ``H`` is the
exact value of playing the columns one after another from ``s`` (each
column's turns are then a game of their own), so ``H`` is the value of a
policy, and choosing each turn's keeps and box greedily against it is a
policy-improvement step: never worse (docs/triple.md gives the argument).

Where a coupling term is stored for the rules (``COUPLING``; ``triple``),
the strategy values what follows a turn by ``H + f`` instead, with
:math:`f(s) = \sum_b \kappa[b, P_b]`, ``P_b`` the columns in which box ``b``
is still open and ``\kappa`` the coupling term (``coupling`` in code; θ is
the risk parameter's name): an estimate of what being able to choose the
column is worth, fitted to played games
(``yatzy.research.triple_games.fit_coupling``).  It changes the value of
filling box ``b`` in column ``c`` by a constant of the turn,
``offsets(coupling, card)[c, b]``.  This step has no proof; it is kept
because it measures better (docs/triple.md).

Where a slack plan is stored (``SLACK``; ``triple``), the strategy values
what follows a turn by ``S(s') = sum_c w_c W_{k_c}(s'_c)`` instead (no
coupling term): ``W_k`` the exact value of one column that may let ``k``
turns pass without writing (the upper bound's relaxed column with no
prices, ``slack_values``), ``k_c = min(k(L), L - n_c)`` with ``L`` the
turns left after the turn and ``k(L) = min(cap, round(rate L))``
(``slack_plan``).  Where a look-ahead is stored too (``LOOK``;
``triple``), the write is chosen again among the best few by their
weighted points plus the value of the next turn played with ``S`` after
it (``look_ahead``, ``next_turn``).  It measures best (docs/triple.md) and
has no proof either.  A ``Valuation`` holds what a turn's end is valued by.

Within a turn, with roll ``R``:

* scoring ``R`` in open box ``b`` of column ``c``:
  :math:`S_{c,b}(R) = w_c\,(s(R, b) + \beta + V(mask_c \cup b, u_c')) + \sum_{c' \ne c} w_{c'} V(mask_{c'}, u_{c'})`
  (plus ``offsets[c, b]`` with a coupling term);
* :math:`X_0(R) = \max_{c,b} S_{c,b}(R)`: per column the best box is
  ``turn.score_rolls`` of that column's ``turn.fill_candidates``, so
  :math:`X_0` is the maximum over the columns of those, weighted and offset;
* keeping ``K`` with ``t`` rerolls left: :math:`W_t(K) = E[X_{t-1}(K + \text{fresh})]`
  (``turn.average_keeps``) and :math:`X_t(R) = \max_{K \subseteq R} W_t(K)`
  (``turn.best_keeps``), exactly as for one card.

What the advice shows (``Advice.values == LOWER_BOUND``): the strategy
ranks by these values, but ``H + f`` is no expectation of anything, so each
action's ``expected_final_score`` is instead the exact expectation of
taking it, playing the rest of the turn as the strategy does, then the
columns one after another (``TripleTurn.bound_rolls``): a scored action's
value is ``lower_bound`` of the card it leaves, the number ``yatzy ev``
prints as "columns one by one"; the losses are the strategy's.

``advise`` computes these with numpy for one position (no compiled code, so
``yatzy advise`` starts quickly); ``yatzy.research.triple_games.play`` plays whole games in one compiled
call per piece of games, with the same values and the same tie rule
(``yatzy.rules.ties``; the preference code of box ``b`` in column ``c`` is
``(c - 1) * n_boxes + b``, keeps follow all boxes), so its choices are the
advice's.  ``greedy`` is the same recursion with ``V = 0``: the best expected
weighted points of the turn (bonus included).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from yatzy.errors import InputError
from yatzy.files import atomic_bytes
from yatzy.players.advice import Scoring
from yatzy.position.actions import LOWER_BOUND, Action, Advice
from yatzy.position.scorecard import Scorecard
from yatzy.rules.ruleset import Rules
from yatzy.position.scoring import upper_after
from yatzy.rules.ties import keep_ranks, ranking, tolerance
from yatzy.space import state_space
from yatzy.tables.announce import announce, compile_seconds
from yatzy.tables.plan import Plan, estimate
from yatzy.tables.store import table_path
from yatzy.tables.values import StateValues

# optimal: the improvement step on H plus the coupling term; step: the plain
# improvement step on H (never worse than column by column: docs/triple.md)

# The coupling term f(s) = sum_b coupling[b, P_b] of the rule sets it was
# fitted for (by fingerprint; ``benchmarks/triple_fit.py`` fits and prints
# it): ``P_b`` the columns (bit c - 1) in which box b is open, P_b = 0 worth 0.
COUPLING: dict[str, tuple[tuple[float, ...], ...]] = {
    # triple: python benchmarks/triple_fit.py --rules triple --games 80000 --rounds 4 --seed 1001
    "e06e4b40edc31e63": (
        (0.000, 1.995, -0.510, 1.781, 0.853, 4.676, 1.854, 5.364),
        (0.000, 2.549, 1.131, 3.583, 1.188, 3.706, 3.026, 5.872),
        (0.000, 2.163, 1.167, 2.994, 1.718, 2.864, 3.644, 6.064),
        (0.000, 2.013, 2.126, 3.897, 2.762, 4.385, 5.303, 7.887),
        (0.000, 2.016, 2.518, 3.924, 3.221, 4.468, 6.410, 8.539),
        (0.000, 1.823, 2.561, 3.303, 3.688, 3.972, 6.885, 8.532),
        (0.000, -0.242, -0.034, 0.913, 0.729, 0.029, 1.702, 5.283),
        (0.000, 0.896, 0.983, 2.853, 1.654, 0.151, 2.658, 5.273),
        (0.000, 0.400, 0.415, 2.689, 0.921, 0.101, 2.337, 4.788),
        (0.000, 3.045, 0.677, 6.065, -1.212, 0.998, 2.522, 9.262),
        (0.000, 1.927, 0.964, 3.865, -0.176, -0.008, 2.658, 5.583),
        (0.000, 1.920, 1.454, 4.248, -0.941, 0.094, 4.490, 7.586),
        (0.000, 3.588, 2.505, 5.798, 0.530, 0.267, 5.124, 8.697),
        (0.000, -0.408, -0.740, -0.180, 1.191, 0.448, 2.794, 6.391),
        (0.000, 1.093, 1.743, 5.401, -2.128, 0.224, 3.164, 12.335),
    ),
}


# The slack plan of the rule sets it was chosen for (by fingerprint): after a
# turn with L turns left, each column is valued by the relaxed game in which
# it may let k(L) = min(cap, round(rate * L)) of them pass (docs/triple.md).
SLACK: dict[str, tuple[int, float]] = {
    "e06e4b40edc31e63": (4, 0.25),      # triple: chosen on 10,000 paired games (seed 6)
}

# The look-ahead at the write (``Valuation.look = (m, delta)``) of the rule
# sets it was measured for, on top of their slack plan (docs/triple.md).
LOOK: dict[str, tuple[int, float]] = {
    "e06e4b40edc31e63": (3, 20.0),      # triple: measured on paired games (seeds 5, 9)
}


class Valuation(NamedTuple):
    """What the strategy values the position after a turn by:

    * ``coupling[b, P]``  the coupling term (empty ``(0, 2 ** columns)``: none)
    * ``plan[c, L]``      column ``c``'s slack ``k`` with ``L`` turns left
      after the turn (empty ``(0, 0)``: none, the one-column table)
    * ``slack[k, mask, u]``  the column's value with ``k`` turns to spare
      (``slack_values``; ``slack[0]`` is the one-column table)
    * ``look = (m, delta)``  the look-ahead at the write: the ``m`` best
      (column, box) within ``delta`` of the best are re-valued by their
      weighted points plus the next turn's value (``next_turn``); ``m < 2``
      for none.  ``(m, delta, 1)``: the look-ahead fed to the keeps too,
      each write offset by the residual ``next_turn - S`` of where it
      leads (``fed_offsets``; measured, not stored for any rules)
    * ``per``  slack layers per spare turn (2: half steps, ``half_steps``);
      ``plan`` counts layers
    """

    coupling: np.ndarray
    plan: np.ndarray
    slack: np.ndarray
    look: tuple[float, ...] = (0, 0.0)
    per: int = 1


NO_PLAN = np.zeros((0, 0), dtype=np.int64)
NO_SLACK = np.zeros((0, 1, 1))


def slack_plan(rules: Rules, cap: float, rate: float, per: int = 1) -> np.ndarray:
    """``plan[c, L] = min(cap, round(rate * L))`` for every column and
    ``L = 0 .. T`` turns left (halves round up), in steps of ``1 / per``
    turn, counted in layers (``per`` layers a turn).

    >>> from yatzy.rules.ruleset import parse_rules
    >>> slack_plan(parse_rules("triple"), 4, 0.25)[0, :10].tolist()
    [0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    >>> slack_plan(parse_rules("triple"), 4, 0.25, per=2)[0, :10].tolist()
    [0, 1, 1, 2, 2, 3, 3, 4, 4, 5]
    """
    T = rules.columns * rules.column_rules.n_boxes
    k = np.minimum(round(per * cap), np.floor(per * rate * np.arange(T + 1) + 0.5)).astype(np.int64)
    return np.repeat(k[None, :], rules.columns, axis=0)


def slack_values(rules: Rules, K: int) -> np.ndarray:
    """``slack[k, mask, u]`` for ``k = 0 .. K``: the exact value of one
    column of weight 1 (``rules.column_rules``) from ``(mask, u)`` when it
    has ``k`` turns more than open boxes and may let any ``k`` of them pass
    without writing (the relaxed game of the upper bound with no prices,
    ``yatzy.kernels.relaxed.slack_tables``).  Small rule sets only take a
    moment; ``triple`` about ``K + 1`` solves of the one-column table."""
    from yatzy.kernels.relaxed import slack_tables
    from yatzy.kernels.turn import turn_data
    one = rules.column_rules
    sp = state_space(one)
    return slack_tables(turn_data(one), tuple(np.asarray(x, dtype=np.int64) for x in sp.layers),
                        one.n_boxes, sp.full_mask, one.cap + 1, K)


def half_steps(slack: np.ndarray) -> np.ndarray:
    """The layers ``slack[k]`` with the mean of each two neighbours between
    them: layer ``2k`` is ``slack[k]``, ``2k + 1`` half way to ``slack[k + 1]``.

    >>> half_steps(np.array([[[0.0]], [[1.0]], [[3.0]]])).ravel().tolist()
    [0.0, 0.5, 1.0, 2.0, 3.0]
    """
    out = np.empty((2 * len(slack) - 1,) + slack.shape[1:])
    out[0::2] = slack
    out[1::2] = 0.5 * (slack[:-1] + slack[1:])
    return out


_SLACK_CACHE: dict[tuple[str, int, str], np.ndarray] = {}
SLACK_SECONDS = 2.0      # one solve of the one-column slack table, on the reference machine


def announce_slack(rules: Rules, K: int, path) -> None:
    """Say (``tables.announce.announce``: a ``TableWarning``, as every build
    that takes a while) that the slack tables of ``rules`` are built now:
    how big, and about how long on this machine now, their kernel's first
    compile included (``tables.announce.compile_seconds``)."""
    from yatzy.kernels.relaxed import relaxed_turn
    one = rules.column_rules
    values = (K + 1) * state_space(one).n_masks * (one.cap + 1)
    compile_first = compile_seconds("slack", (relaxed_turn,))
    what = (f"slack tables of {rules.spec} ({K + 1} solves of one column"
            + (", their kernel compiled first, once)" if compile_first else ")"))
    plan = Plan(what, path, values, 8 * values, 8 * values, SLACK_SECONDS * (K + 1))
    announce(plan, estimate(plan) + compile_first, stacklevel=4)


def stored_slack(rules: Rules, K: int, directory: Path | None = None) -> np.ndarray:
    """``slack_values(rules, K)``, kept in memory and saved in the tables
    folder ``directory`` (default: the default one) as
    ``<name>-<fingerprint>-slack<K>.npy`` the first time."""
    path = table_path(rules, directory)
    path = path.with_name(f"{path.stem}-slack{K}.npy")
    key = (rules.fingerprint, K, str(path))
    if key not in _SLACK_CACHE:
        try:
            values = np.load(path)
            ok = values.shape[0] == K + 1
        except (OSError, ValueError):
            ok = False
        if not ok:
            announce_slack(rules, K, path)
            values = slack_values(rules, K)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                with atomic_bytes(path) as f:
                    np.save(f, values)
            except OSError:
                pass                     # a read-only folder: computed again next time
        _SLACK_CACHE[key] = values
    return _SLACK_CACHE[key]


def strategy_of(rules: Rules, directory: Path | None = None) -> Valuation:
    """The strategy stored for ``rules``: its slack plan (``SLACK``) where
    one is stored (the coupling term, fitted for ``H``, measured worse on
    top of it), else its coupling term (``COUPLING``), else neither (the
    plain improvement step).  Its slack values are saved in the tables
    folder ``directory`` (``stored_slack``)."""
    if rules.fingerprint not in SLACK:
        return Valuation(coupling_of(rules), NO_PLAN, NO_SLACK)
    cap, rate = SLACK[rules.fingerprint]
    plan = slack_plan(rules, cap, rate)
    return Valuation(no_coupling(rules), plan, stored_slack(rules, int(plan.max()), directory),
                    LOOK.get(rules.fingerprint, (0, 0.0)))


def as_strategy(rules: Rules, coupling: np.ndarray | Valuation | None,
                table: StateValues | None = None) -> Valuation:
    """``coupling`` as a ``Valuation``: ``None`` the strategy stored for
    ``rules`` (``strategy_of``, its slack values saved in the tables folder
    the one-column ``table`` was opened for), an array that coupling term
    alone (no slack; an empty one: the plain improvement step), a
    ``Valuation`` itself."""
    if coupling is None:
        return strategy_of(rules, getattr(table, "folder", None))
    if isinstance(coupling, Valuation):
        return Valuation(np.asarray(coupling.coupling, dtype=np.float64),
                        np.asarray(coupling.plan, dtype=np.int64), coupling.slack, coupling.look,
                        coupling.per)
    return Valuation(np.asarray(coupling, dtype=np.float64), NO_PLAN, NO_SLACK)


def step_strategy(rules: Rules) -> Valuation:
    """The plain improvement step on ``H`` (policy ``step``)."""
    return Valuation(no_coupling(rules), NO_PLAN, NO_SLACK)


def slack_index(strategy: Valuation, card: Scorecard) -> tuple[np.ndarray, np.ndarray]:
    """``(kw[c], kn[c])``: the slack layer of column ``c`` after a turn
    that writes in it (``kw``) or not (``kn``), the plan's ``k`` clamped to
    the turns that will be left."""
    n_open = np.array([sc.rules.n_boxes - bin(sc.mask).count("1") for sc in card.columns])
    after = int(n_open.sum()) - 1
    k, per = strategy.plan[:, after], strategy.per
    return np.minimum(k, per * (after - (n_open - 1))), np.minimum(k, per * (after - n_open))


# ------------------------------------------------------------------ values
def coupling_of(rules: Rules) -> np.ndarray:
    """``coupling[b, P]`` of the coupling term stored for ``rules`` (shape
    ``(n_boxes, 2 ** columns)``), or an empty ``(0, 2 ** columns)`` array
    where none is stored (the plain improvement step on ``H``)."""
    stored = COUPLING.get(rules.fingerprint)
    if stored is None:
        return np.zeros((0, 1 << rules.columns))
    return np.array(stored, dtype=np.float64)


def no_coupling(rules: Rules) -> np.ndarray:
    """The empty coupling term: the plain improvement step (policy ``step``)."""
    return np.zeros((0, 1 << rules.columns))


def offsets(coupling: np.ndarray, card: Scorecard) -> np.ndarray:
    """``delta[c, b]``: :math:`f(s') - f(s)` of filling open box ``b`` of
    column ``c`` (from 0), ``f(s) = sum_b coupling[b, P_b]``; zeros without a
    coupling term."""
    nb = card.rules.column_rules.n_boxes
    delta = np.zeros((card.rules.columns, nb))
    for b in range(len(coupling)):
        p = sum(1 << c for c, sc in enumerate(card.columns) if sc.points[b] is None)
        for c in range(len(card.columns)):
            if p >> c & 1:
                delta[c, b] = coupling[b, p & ~(1 << c)] - coupling[b, p]
    return delta


def lower_bound(table: StateValues, card: Scorecard) -> float:
    """Expected final score of playing the columns one after another from
    the next turn start: the card's score plus :math:`H`."""
    return card.score + _future(table, card)[0]


def _future(table: StateValues, card: Scorecard) -> tuple[float, np.ndarray]:
    """``H`` and each column's ``V``."""
    now = np.array([table.value(c.mask, c.upper_state) for c in card.columns])
    return float(np.dot(card.rules.column_weights, now)), now


class TripleTurn:
    """One turn's values at ``card`` (numpy): ``score[r, j]`` of scoring roll
    ``r`` as ``choices[j] = (column, box)`` and the levels ``X_t[r]``,
    computed once and reused within the turn; excluding the card's score.
    ``coupling``: the coupling term (default: ``coupling_of(card.rules)``);
    the value of filling box ``b`` of column ``c`` gains ``offsets()[c, b]``.

    Beside the strategy's values, ``bound_rolls``/``bound_keeps`` give the
    exact expectation of the strategy's play for the rest of the turn
    followed by the columns one by one (``exact[r, j]``: scoring without
    the offsets)."""

    def __init__(self, table: StateValues, card: Scorecard,
                 coupling: np.ndarray | Valuation | None = None):
        self.table, self.card = table, card
        strategy = self.strategy = as_strategy(card.rules, coupling, table)
        delta = offsets(strategy.coupling, card)
        if len(strategy.look) > 2 and strategy.look[2]:
            delta = delta + fed_offsets(table, card, strategy)
        total, now = _future(table, card)
        slacked = len(strategy.plan) > 0
        if slacked:
            kw, kn = slack_index(strategy, card)
            layers = strategy.slack
            then = np.array([layers[k, sc.mask, sc.upper_state] for k, sc in zip(kn, card.columns)])
            total_then = float(np.dot(card.rules.column_weights, then))
        choices, cols, exact, points = [], [], [], []
        for c, (w, sc) in enumerate(zip(card.rules.column_weights, card.columns)):
            if sc.is_full:
                continue
            scoring = Scoring(table, sc)
            choices += [(c + 1, b) for b in scoring.boxes]
            plain = w * scoring.values(0) + (total - w * now[c])
            exact.append(plain)
            if slacked:
                plain = (w * (scoring.now + _after(layers[kw[c]], sc, scoring))
                         + (total_then - w * then[c]))
            cols.append(plain + delta[c, scoring.boxes])
            points.append(scoring.points)
        self.choices = choices
        self.score = np.concatenate(cols, axis=1)           # [roll, choice]
        self.exact = np.concatenate(exact, axis=1)
        self.points = np.concatenate(points, axis=1)
        pick = self.score.argmax(axis=1)
        self.levels = [self.score.max(axis=1)]
        self.bounds = [self.exact[np.arange(len(pick)), pick]]

    def rolls(self, rerolls: int) -> np.ndarray:
        """``X[r]`` with ``rerolls`` rerolls left."""
        ds = self.table.rules.dice_space
        while len(self.levels) <= rerolls:
            keep = (ds.reroll @ self.levels[-1])[ds.subsets]
            pick = keep.argmax(axis=1)
            rows = np.arange(len(pick))
            self.bounds.append((ds.reroll @ self.bounds[-1])[ds.subsets[rows, pick]])
            self.levels.append(keep[rows, pick])
        return self.levels[rerolls]

    def keeps(self, rerolls: int, keeps: np.ndarray | None = None) -> np.ndarray:
        """``W[m]``: keeping multiset ``m`` with ``rerolls`` >= 1 left."""
        ds = self.table.rules.dice_space
        reroll = ds.reroll if keeps is None else ds.reroll[keeps]
        return reroll @ self.rolls(rerolls - 1)

    def bound_rolls(self, rerolls: int) -> np.ndarray:
        """The exact value of roll ``r`` with ``rerolls`` left when the
        strategy plays the rest of the turn and the columns are then played
        one by one (excluding the card's score)."""
        self.rolls(rerolls)
        return self.bounds[rerolls]

    def bound_keeps(self, rerolls: int, keeps: np.ndarray | None = None) -> np.ndarray:
        """``bound_rolls`` of keeping multiset ``m`` with ``rerolls`` >= 1 left."""
        ds = self.table.rules.dice_space
        reroll = ds.reroll if keeps is None else ds.reroll[keeps]
        return reroll @ self.bound_rolls(rerolls - 1)


def _after(values: np.ndarray, sc: Scorecard, scoring: Scoring) -> np.ndarray:
    """``values[mask | b, u']`` of the state each way to score leads to."""
    cols = np.array(scoring.boxes, dtype=np.int64)
    reached, _ = upper_after(sc.rules, np.broadcast_to(cols, scoring.points.shape),
                             sc.upper_state, scoring.points)
    return values[sc.mask | 1 << cols, reached]


def slack_value(card: Scorecard, strategy: Valuation) -> float:
    """``S`` of ``card`` at a turn's end: ``sum_c w_c W_{k_c}``, ``k_c``
    the plan's ``k`` for the turns left, clamped to the column's spare
    turns (``slack_index`` of the turn that led here)."""
    n_open = np.array([sc.rules.n_boxes - bin(sc.mask).count("1") for sc in card.columns])
    left = int(n_open.sum())
    k = np.minimum(strategy.plan[:, left], strategy.per * (left - n_open))
    return float(sum(w * strategy.slack[kc, sc.mask, sc.upper_state]
                     for w, kc, sc in zip(card.rules.column_weights, k, card.columns)))


def par_points(rules: Rules) -> list[int]:
    """The points each box of ``rules`` stands for in ``fed_offsets``
    (``kernels.triple.par_points``): an upper box its face times the count
    that keeps pace with the bonus, the others 0."""
    faces = sum(b.face for b in rules.boxes if b.is_upper)
    count = max(1, round(rules.cap / faces)) if faces else 0
    return [count * b.face if b.is_upper else 0 for b in rules.boxes]


def fed_offsets(table: StateValues, card: Scorecard, strategy: Valuation) -> np.ndarray:
    """``delta[c, b]``: the look-ahead fed to the keeps
    (``Valuation.look = (m, delta, 1)``), the residual ``next_turn - S`` of
    the card writing open box ``b`` of column ``c`` leads to (an upper box
    with its ``par_points``); the compiled player's
    ``kernels.triple.fed_offsets``."""
    one = card.rules.column_rules
    par = par_points(one)
    out = np.zeros((card.rules.columns, one.n_boxes))
    for c, b in card.allowed():
        after = card.fill(b, par[b], column=c)
        out[c - 1, b] = next_turn(table, after, strategy) - slack_value(after, strategy)
    return out


def next_turn(table: StateValues, card: Scorecard, strategy: Valuation) -> float:
    """The value of the next turn from ``card``, played with the strategy's
    values after it (``TripleTurn``; excluding the card's score): the mean
    over the first roll of its best play; 0 for a full card."""
    if card.is_full:
        return 0.0
    ds = table.rules.dice_space
    turn = TripleTurn(table, card, strategy._replace(look=(0, 0.0)))
    return float(ds.roll_prob @ turn.rolls(table.rules.rolls - 1))


def look_ahead(table: StateValues, card: Scorecard, turn: TripleTurn, values: list[float],
               codes: list[int], actions: list[Action], n_boxes: int, tol: float) -> list[float]:
    """``values`` of the actions (preference ``codes``; boxes below
    ``n_boxes``) as the look-ahead at the write ranks them
    (``Valuation.look = (m, delta)``): where the best action scores, the
    ``m`` best scoring actions within ``delta`` of it are re-valued by their
    weighted points plus ``next_turn`` of the card they leave; the best of
    those keeps the best value, the others lose their shortfall to it, and
    the scoring actions not looked at fall below them (the compiled
    player's ``kernels.triple.look_candidates`` and ``look_choice``, the
    same choice)."""
    m, delta = turn.strategy.look[:2]
    order = ranking(values, codes, tol)
    if m < 2 or codes[order[0]] >= n_boxes:
        return values
    top = values[order[0]]
    looked = [i for i in order if codes[i] < n_boxes and values[i] >= top - delta][:int(m)]
    if len(looked) < 2:
        return values
    ahead = []
    for i in looked:
        nb = table.rules.n_boxes
        after = card.fill(codes[i] % nb, actions[i].points, column=codes[i] // nb + 1)
        ahead.append(after.score - card.score + next_turn(table, after, turn.strategy))
    alpha = turn.strategy.look[3] if len(turn.strategy.look) > 3 else 0.0
    if alpha:                   # the residual T S - S counted 1 + alpha times
        ahead = [a + alpha * (a - values[i]) for a, i in zip(ahead, looked)]
    pick = ranking(ahead, [codes[i] for i in looked], tol)
    out = list(values)
    for i in range(len(values)):
        if codes[i] < n_boxes and i not in looked:
            out[i] = min(values[i], top - 2 * tol)
    for i, v in zip(looked, ahead):
        out[i] = top - (ahead[pick[0]] - v)
    return out


def check_position(rules: Rules, card: Scorecard, rerolls: int) -> None:
    if card.is_full:
        raise InputError("the card is full: there is nothing left to decide")
    if not 0 <= rerolls <= rules.rolls - 1:
        raise InputError(f"rerolls={rerolls}: expected 0..{rules.rolls - 1} "
                         f"({rules.rolls} rolls per turn)")


def advise(table: StateValues, card: Scorecard, dice: tuple[int, ...], rerolls: int,
           turn: TripleTurn | None = None) -> Advice:
    """Every distinct action for the position, best first by the strategy,
    each valued by ``TripleTurn.bound_rolls`` (``Advice.values`` is
    ``LOWER_BOUND``); ``turn``: the turn's values so far."""
    rules = card.rules
    check_position(rules, card, rerolls)
    one = table.rules
    ds = one.dice_space
    r = ds.roll_index(dice)
    nb = one.n_boxes
    turn = turn or TripleTurn(table, card)
    base = card.score
    acts = [(Action.score(one.boxes[b].name, int(turn.points[r, j]), c),
             (c - 1) * nb + b, float(turn.score[r, j]), float(turn.exact[r, j]))
            for j, (c, b) in enumerate(turn.choices)]
    if rerolls:
        keeps = ds.keeps[r]
        rank = keep_ranks(one)
        acts += [(Action.keep(ds.dice_of(m)), rules.columns * nb + int(rank[m]), v, x)
                 for m, v, x in zip(keeps.tolist(), turn.keeps(rerolls, keeps).tolist(),
                                    turn.bound_keeps(rerolls, keeps).tolist())]
    tol = tolerance(table)
    values = look_ahead(table, card, turn, [a[2] for a in acts], [a[1] for a in acts],
                        [a[0] for a in acts], rules.columns * nb, tol)
    acts = [a[:2] + (v,) + a[3:] for a, v in zip(acts, values)]
    order = ranking([a[2] for a in acts], [a[1] for a in acts], tol)
    best = acts[order[0]][2]
    ranked = tuple(acts[i][0].with_value(base + acts[i][3], 0.0 if best - acts[i][2] <= tol
                                         else best - acts[i][2]) for i in order)
    return Advice(card, dice, rerolls, ranked, LOWER_BOUND)
