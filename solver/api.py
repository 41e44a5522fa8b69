"""The library's front object: one rule set, its solved table, and every
question the solver answers about it.

    >>> from yatzy import Solver
    >>> nordic = Solver("nordic")           # the table is opened (solved once) on first use
    >>> nordic.ev()
    248.43998...
    >>> advice = nordic.advise("", "11256", rerolls=2)
    >>> print(advice.best)
    keep 5 6
    >>> nordic.ev("ones=3,two_pairs=18,yatzy=0")
    219.2052...

Cards are ``Scorecard`` objects or their text (``ones=3,two_pairs=18``;
empty: a new game), dice a tuple or text (``11256``, ``1,1,2,5,6``).  Bad
input raises ``InputError`` with one line naming the problem; a table that
cannot be read or written, ``TableError``.

Rules with several columns (``triple``) are played by the strategy of
``yatzy.players.triple`` from the one-column table (``Rules.column_rules``): their
advice, values and distributions come from it, the distributions estimated
from played games (policies ``optimal`` -- the strategy -- and ``greedy``).
Cards are the same ``Scorecard`` (``ones@1=3,yatzy@3=50``), advice the same
``Advice`` (``score yatzy@3``), whose values are then labelled
``LOWER_BOUND`` (``Advice.values``): exact for the columns played one by
one after the turn, below what the strategy scores.

The choices the research tools make live here: a final-score distribution is
exact where ``yatzy.research.distribution`` models the rules (every five-dice rule
set) and otherwise estimated from optimally played games
(``yatzy.research.games.estimate``, optimal policy only); a simulation plays whole
layers of games at a time (``yatzy.research.simulate``) where it can and one game
at a time (``yatzy.research.games``) otherwise.

Progress of a solve goes to ``progress(done, total)`` (see
``yatzy.tables.store``); notices (a bad table recomputed, a solve resumed or
waiting for another process) are ``TableWarning`` warnings.  Nothing here
prints, and the modules with Numba kernels are imported only by the methods
that need them.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from yatzy import bounds
from yatzy.bounds import check_games, check_seed, check_whole
from yatzy.errors import InputError
from yatzy.players.objectives import Objective, Target, Win, objective_from
from yatzy.players.strategy import Strategy, strategy_for
from yatzy.position.actions import Advice
from yatzy.position.scorecard import Scorecard
from yatzy.research.export import strategy
from yatzy.research.study import Mean, strategy_mean
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.studies import DEFAULT_GAMES, Studies
from yatzy.tables.store import Progress, Table, open_table, table_path
from yatzy.tables.values import check_theta

if TYPE_CHECKING:
    from yatzy.players.explain import Explanation, Outlook, PartsTable
    from yatzy.players.futures import FuturesTable
    from yatzy.players.win import WinAdvice
    from yatzy.research.distribution import Distribution
    from yatzy.tables.target import TargetTable

TURNS_KEPT = 512          # turns' values a solver keeps (one per card and table)


class Solver(Studies):
    """The optimal strategy of one rule set: ``Solver("nordic")``,
    ``Solver("maxi:saved_rolls=false")`` or ``Solver(rules)`` for a
    ``Rules`` object; ``tables``: the folder of stored tables (default
    ``$YATZY_TABLES``, ``tables/`` of a source checkout or
    ``~/.cache/yatzy/tables``); ``progress(done, total)``: follows a solve.

    ``theta``: the table the solver plays by (``table``, the research
    tools) and its default objective (``objective``).  0 (the default)
    maximises the expected final score (``Score()``); otherwise the
    expected utility ``-exp(-theta x) / theta`` of the final score ``x``
    (``Risk(theta)``): ``theta > 0`` plays cautiously, ``theta < 0``
    boldly, ``-1 <= theta <= 1``.  Values (``ev``, the advice) are then
    certainty equivalents: the sure score worth as much as the gamble.
    ``advise`` and ``ev`` take any other objective
    (``yatzy.players.objectives``: ``Target(points)``, ``Win(opponents)``).

    ``playing``: how these rules are played (``yatzy.players.strategy``:
    ``OneCard`` exactly, or ``Columns`` by the Trippel strategy; chosen
    once from ``rules.play``).

    The table is opened on first use, and solved and stored first if it is
    missing; ``solve()`` does that now.
    """

    def __init__(self, rules: Rules | str = "nordic", *, theta: float = 0.0,
                 tables: str | Path | None = None, progress: Progress | None = None):
        self.rules = rules if isinstance(rules, Rules) else parse_rules(rules)
        self.playing: Strategy = strategy_for(self.rules)     # how these rules are played
        if theta and self.rules.play.refuse("risk"):
            raise InputError(f"rules {self.rules.spec}: theta is not available with "
                             "several columns")
        self.theta = check_theta(self.rules, theta)
        self.objective: Objective = objective_from(theta=self.theta)
        self.tables = tables
        self.progress = progress
        self._tables: dict[float, Table] = {}
        self._target: TargetTable | None = None
        self._futures: FuturesTable | None = None
        self._parts: PartsTable | None = None
        self._turns: OrderedDict[tuple[float, Scorecard], object] = OrderedDict()

    def __repr__(self) -> str:
        return f"Solver({self.rules.spec!r}" + (f", theta={self.theta!r})" if self.theta else ")")

    # ------------------------------------------------------------ the table
    @property
    def path(self) -> Path:
        """Where the table is stored."""
        return table_path(self.rules.column_rules, self.tables, self.theta)

    @property
    def table(self) -> Table:
        """The solved table (opened, or solved and stored, on first use)."""
        return self.value_table(self.theta)

    def value_table(self, theta: float = 0.0) -> Table:
        """The value table of the risk parameter ``theta`` (0: the expected
        score), opened, or solved and stored, on first use."""
        if theta not in self._tables:
            self._tables[theta] = open_table(self.rules.column_rules, self.tables,
                                             progress=self.progress, theta=theta)
        return self._tables[theta]

    def solve(self, force: bool = False) -> Table:
        """Open the table now, solving it if it is missing (``force``: solve
        again even if a valid table exists)."""
        if force or self.theta not in self._tables:
            self._tables[self.theta] = open_table(self.rules.column_rules, self.tables,
                                                  force=force, progress=self.progress,
                                                  theta=self.theta)
        return self._tables[self.theta]

    def turn(self, card: Scorecard, theta: float | None = None):
        """The values of the turn starting at ``card`` (``Strategy.turn``)
        on the table of ``theta`` (default the solver's), kept for the next
        ask (the last ``TURNS_KEPT`` cards): the one cache every advice of
        the solver reads, the game's, the ledger's and the server's."""
        key = (self.theta if theta is None else theta, card)
        found = self._turns.pop(key, None)
        if found is None:
            found = self.playing.turn(self.value_table(key[0]), card)
        self._turns[key] = found
        if len(self._turns) > TURNS_KEPT:
            self._turns.popitem(last=False)
        return found

    # ------------------------------------------------------------- inputs
    def card(self, card: Scorecard | str = "") -> Scorecard:
        """A scorecard of these rules from its text (empty: a new game); with
        several columns ``BOX@COLUMN=POINTS`` (``ones@1=3,...``)."""
        if isinstance(card, Scorecard):
            if card.rules != self.rules:
                raise InputError(f"the card is for rules {card.rules.spec}, "
                                 f"not {self.rules.spec}")
            return card
        return Scorecard.parse(card, self.rules)

    def dice(self, dice: str | Iterable[int]) -> tuple[int, ...]:
        """The dice, sorted, from ``11256``, ``1,1,2,5,6`` or a sequence."""
        text = dice if isinstance(dice, str) else ",".join(map(str, dice))
        return self.rules.dice_space.parse(text)

    # ------------------------------------------------------------ queries
    def ev(self, card: Scorecard | str = "", objective: Objective | None = None) -> float:
        """The ``objective``'s value (default ``self.objective``) from the
        start of the next turn at ``card``: the expected final score (under
        ``Risk``: its certainty equivalent; ``Target``: the largest chance
        to reach it, 1 when the card holds it; ``Win``: the chance to win).
        With several columns: the value of playing them one after another,
        a lower bound of the strategy's (``distribution`` estimates that)."""
        sc = self.card(card)                 # bad input fails before any solve
        return self._objective(objective).value(self, sc)

    @property
    def ev_is(self) -> str:
        """What ``ev`` returns: ``"exact"`` (the optimal expected score,
        from the solved table) or, with several columns, ``"lower_bound"``
        (the exact value of playing the columns one by one; the strategy's
        own mean: ``strategy_mean``)."""
        return self.rules.play.values

    def strategy_mean(self, card: Scorecard | str = "", games: int | None = None,
                      seed: int = 0) -> Mean:
        """The mean final score of the strategy from ``card``: exact where
        the table solves the game (``games`` None), else estimated from
        ``games`` played games (several columns: 4,000 unless given), with
        its 95 % interval (``yatzy.research.study.Mean``)."""
        return strategy_mean(self, card, games, seed)

    def advise(self, card: Scorecard | str, dice: str | Iterable[int], rerolls: int,
               objective: Objective | None = None) -> Advice:
        """Every distinct action with ``dice`` on the table and ``rerolls``
        left (2 after the first roll of three, then 1, then 0; with saved
        rolls, own and banked together), best first, by the ``objective``
        (default ``self.objective``; ``yatzy.players.objectives``).  Under
        ``Target(points)``: ranked by the largest chance to finish at or
        above it (``Action.p_at_least``), each with its expected final
        score too; under ``Win(opponents)`` a ``WinAdvice``.  With several
        columns a score names its column and the values are lower bounds
        (``Advice.values``; the order is the strategy's)."""
        sc = self.card(card)
        hand = self.dice(dice)
        objective = self._objective(objective)
        self.playing.check_position(sc, check_whole(rerolls, "rerolls", 0))
        return objective.advise(self, sc, hand, rerolls)

    def _objective(self, objective: Objective | None) -> Objective:
        """``objective`` (default ``self.objective``) checked for the rules."""
        if objective is None:
            return self.objective.check(self.rules)
        if not isinstance(objective, Objective):
            raise InputError(f"objective {bounds.brief(str(objective))}: expected Score(), "
                             "Risk(theta), Target(points) or Win(opponents)")
        return objective.check(self.rules)

    # ------------------------------------------------------------ targets
    def target(self) -> TargetTable:
        """The target table (``yatzy.tables.target``): the largest chance of
        reaching every score from every state: the stored whole table, else
        each position's sub-game solved in memory when a question first needs
        it (the whole table solved and stored for a position that needs most of it)."""
        if self._target is None:
            from yatzy.tables.target import open_target
            self._target = open_target(self.rules, self.tables, progress=self.progress)
        return self._target

    def chance(self, card: Scorecard | str, target: int) -> float:
        """``ev(card, Target(target))``: the largest probability of
        finishing at or above ``target`` from the start of the next turn at
        ``card`` (1 when the card holds it already)."""
        return self.ev(card, Target(target))

    # ------------------------------------------------------------ opponents
    def futures(self) -> FuturesTable:
        """The opponents' futures table (``yatzy.players.futures``): the
        distribution of the points still to come under expected-score play
        from every state: the stored whole table, else each position's
        sub-game when first needed (as ``target``)."""
        if self._futures is None:
            from yatzy.players.futures import open_futures
            self._futures = open_futures(self.rules, self.tables, progress=self.progress)
        return self._futures

    # ------------------------------------------------------------ explanations
    def parts(self, progress: Progress | None = None) -> PartsTable:
        """The parts table (``yatzy.players.explain``): each box's expected
        points, the chance of the upper bonus and the yahtzee bonuses to
        come under optimal play from every state: the stored whole table, else
        each position's sub-game when first needed (as ``target``; a build
        followed by ``progress``, else by the solver's)."""
        if self._parts is None:
            from yatzy.players.explain import check_explain_rules, open_parts
            check_explain_rules(self.rules)
            if self.theta:
                raise InputError("explanations are for the expected score "
                                 "(no risk parameter)")
            self._parts = open_parts(self.rules, self.tables,
                                     progress=self.progress if progress is None else progress)
        return self._parts

    def explain(self, card: Scorecard | str, dice: str | Iterable[int], rerolls: int,
                groups: bool = False) -> tuple[Explanation, ...]:
        """Why each action of ``advise`` (same order) costs what it does:
        its loss split into exact parts per box (``groups``: per group of
        boxes), the upper bonus and the yahtzee bonus."""
        from yatzy.players.explain import TurnParts, explain
        advice = self.advise(card, dice, rerolls)
        turn = TurnParts(self.table, self.parts(), advice.card)
        return tuple(explain(turn, advice, a, groups) for a in advice.actions)

    def outlook(self, card: Scorecard | str = "") -> Outlook:
        """The chance of the upper bonus and each open box's expected points
        from the start of the next turn at ``card`` under optimal play."""
        from yatzy.players.explain import outlook
        sc = self.card(card)
        return outlook(self.parts(), sc)

    def advise_win(self, card: Scorecard | str, dice: str | Iterable[int], rerolls: int,
                   opponents: Iterable[Scorecard | str] = (),
                   done: Iterable[Scorecard | str] = ()) -> WinAdvice:
        """``advise(card, dice, rerolls, Win(opponents, done))``: every
        action ranked by the chance to finish strictly above every opponent
        (``yatzy.players.win``): ``opponents`` still playing for expected
        score from their cards, ``done`` those whose game is over (1 to 5 in
        all)."""
        return self.advise(card, dice, rerolls, Win(opponents, done))

    def strategy(self, card: Scorecard | str = "") -> list[dict]:
        """The best action for every roll and rerolls left at ``card``'s
        turn start, as rows (``yatzy.research.export.STRATEGY_COLUMNS``)."""
        self._one_column("strategy")
        sc = self.card(card)
        if sc.is_full:
            raise InputError("the card is full: there is nothing left to decide")
        return strategy(self.table, sc)

    def _one_column(self, what: str) -> None:
        if self.rules.play.refuse("one table"):
            raise InputError(f"rules {self.rules.spec}: {what} covers one column; "
                             f"use --rules {self.rules.column_rules.spec}")

@dataclass(frozen=True)
class Comparison:
    """Distributions of several rule sets and policies (``compare``), and
    each one's ``(win, tie, loss)`` chances against the first, head to head."""

    card: str
    items: tuple[Distribution, ...]
    versus: tuple[tuple[float, float, float], ...]
    games: int                 # games an estimate was played from
    seed: int

    def as_dict(self, thresholds: tuple[int, ...] = ()) -> dict:
        return {"card": self.card,
                "items": [{**d.as_dict(thresholds),
                           "versus_first": dict(zip(("win", "tie", "loss"), v))}
                          for d, v in zip(self.items, self.versus)]}


def compare(rules: Iterable[Solver | Rules | str] = ("nordic",),
            policies: Iterable[str] = ("optimal",), card: Scorecard | str = "", *,
            thetas: Iterable[float] = (), games: int = DEFAULT_GAMES, seed: int = 0,
            tables: str | Path | None = None, progress: Progress | None = None) -> Comparison:
    """The final-score distributions of every rule set (``Solver`` objects,
    ``Rules`` or specs) under every policy, from ``card`` (its text is read
    under each rule set), compared with the first; every pair is checked
    before any work.  With ``thetas``, each rule set is also played
    optimally for each of those risk parameters (after its policies).
    Estimates (saved rolls, Maxi) play ``games`` games."""
    solvers = [r if isinstance(r, Solver) else Solver(r, tables=tables, progress=progress)
               for r in rules] or [Solver(tables=tables, progress=progress)]
    thetas = tuple(thetas)
    risky = [Solver(s.rules, theta=t, tables=s.tables, progress=s.progress)
             for s in solvers for t in thetas]
    policies = tuple(policies) or ("optimal",)
    games, seed = check_games(games), check_seed(seed)
    text = str(card) if isinstance(card, Scorecard) else card
    cards = [s.card(text) for s in solvers]
    for s in solvers:
        for policy in policies:
            s.is_exact(policy)
    items = []
    for i, (s, c) in enumerate(zip(solvers, cards)):
        items += [s._distribution(c, policy, games, seed) for policy in policies]
        items += [r._distribution(c, "optimal", games, seed)
                  for r in risky[i * len(thetas):(i + 1) * len(thetas)]]
    items = tuple(items)
    return Comparison(text, items, tuple(d.versus(items[0]) for d in items), games, seed)
