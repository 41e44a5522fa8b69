"""What is studied with a solver's strategy (a mixin of ``yatzy.api.Solver``):
the final-score distribution (exact, or estimated from played games), games
played and logged, a log's review against the strategy, and the states
exported; the policies they take, and the announcement of a first compile.
"""

from __future__ import annotations

import contextlib
import warnings
from pathlib import Path
from typing import IO, TYPE_CHECKING, Sequence

from yatzy import bounds
from yatzy.bounds import WrongType, check_games, check_seed, check_whole
from yatzy.errors import InputError, TableError
from yatzy.files import atomic_text, check_writable
from yatzy.position.scorecard import Scorecard
from yatzy.research.export import check_format, write_states
from yatzy.research.review import header_line, log_lines, read_log, review
from yatzy.rules.objectives import ALL_POLICY_NAMES, policy_for
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.tables.announce import compile_notice
from yatzy.tables.store import Progress, Table, TableWarning

if TYPE_CHECKING:
    from yatzy.research.distribution import Distribution
    from yatzy.research.review import Review, Turn
    from yatzy.research.simulate import Simulation

POLICIES = ALL_POLICY_NAMES      # declared in yatzy.rules.objectives
SIMPLE_POLICIES = tuple(p for p in POLICIES if p != "step")   # the policies of one column
DEFAULT_GAMES = 20_000          # games an estimated distribution is played from


def check_policy(policy: str) -> str:
    if policy not in POLICIES:
        raise InputError(f"policy {bounds.brief(policy)}: expected one of {', '.join(POLICIES)}")
    return policy


_COMPILE_SAID: set[str] = set()  # what this process has said it compiles


def announce_compile(kernels, kind: str) -> None:
    """Say (``tables.announce.compile_notice``) that the ``kind`` of work
    (``distribution``, ``simulation``) compiles its ``kernels`` first, once
    after an install or an update, where Numba's cache does not hold them
    (once a process: a command may say it before its own announcement)."""
    if kind not in _COMPILE_SAID:
        _COMPILE_SAID.add(kind)
        compile_notice(kind, kernels, stacklevel=4)


def announce_distribution_compile() -> None:
    """``announce_compile`` of the exact distribution's kernels."""
    from yatzy.kernels.forward import carry
    from yatzy.kernels.policy import batch
    announce_compile((carry, batch), "distribution")


LOOKUP_GAMES = 500_000    # simulations of this many optimal games build the decision table


class Studies:
    """The studies of a ``Solver`` (module docstring)."""

    rules: Rules
    theta: float
    tables: str | Path | None
    progress: Progress | None
    table: Table

    def card(self, card: Scorecard | str = "") -> Scorecard: ...

    def _one_column(self, what: str) -> None: ...

    # ------------------------------------------------------------ research
    def is_exact(self, policy: str = "optimal") -> bool:
        """Whether the final-score distribution under ``policy`` is computed
        exactly (else estimated from played games, optimal policy only)."""
        from yatzy.kernels.policy import check_policy_rules
        check_policy(policy)
        if not self.rules.play.exact:              # the strategy is measured from games
            policy_for(policy, self.rules)
            return False
        if policy == "step":
            policy_for(policy, self.rules)           # one line: what these rules play
        if self.theta and policy != "optimal":
            raise InputError(f"policy {policy!r} has no risk parameter; theta is for the "
                             "optimal policy")
        try:
            check_policy_rules(self.rules)
        except InputError as e:
            if policy != "optimal":
                raise InputError(f"{e}; an estimate from played games is available "
                                 "for the optimal policy only") from None
            return False
        return True

    def distribution(self, card: Scorecard | str = "", policy: str = "optimal",
                     games: int | None = None, seed: int = 0) -> Distribution:
        """The final-score distribution from ``card`` under ``policy``:
        exact where the rules allow (``games`` must then be None), else
        estimated from ``games`` optimal games (default 20,000) with ``seed``."""
        exact = self.is_exact(policy)
        if games is not None and exact:
            raise InputError(f"rules {self.rules.spec} have an exact distribution: "
                             "games are played only for an estimate (simulate plays games)")
        games = check_games(DEFAULT_GAMES if games is None else games)
        return self._distribution(self.card(card), policy, games, check_seed(seed))

    def _distribution(self, card: Scorecard, policy: str, games: int, seed: int
                      ) -> Distribution:
        if card.is_full:
            raise InputError("the card is full: its final score is already known")
        exact = self.is_exact(policy)
        table = self.table
        if not self.rules.play.exact:
            from yatzy.research.triple_games import distribution
            return distribution(table, card, policy, games, seed)
        if exact:
            from yatzy.research.distribution import distribution
            announce_distribution_compile()
            return distribution(self.rules, card, table.values, policy, self.theta)
        from yatzy.research.games import estimate
        return estimate(table, card, games, seed)

    def simulate(self, games: int, seed: int = 0, policy: str = "optimal",
                 log: str | Path | IO[str] | None = None, scores: bool = False) -> Simulation:
        """Play ``games`` new games under ``policy``, reproducibly for a
        ``seed``; ``log``: a file name (written atomically) or an open text
        file that receives every turn (``yatzy.research.review``'s format);
        ``scores``: keep every game's final score (``Simulation.scores``,
        8 bytes a game), e.g. to pair two policies' games of one seed
        (``yatzy.paired``)."""
        if not isinstance(scores, bool):
            raise WrongType(f"scores must be True or False, not {type(scores).__name__}")
        from yatzy.kernels.policy import check_policy_rules
        games, seed = check_games(games), check_seed(seed)
        check_policy(policy)
        if not self.rules.play.exact or policy not in SIMPLE_POLICIES:
            self.is_exact(policy)                # a one-line error for a wrong policy
            return self._simulate_columns(games, seed, policy, log, scores)
        if self.theta and policy != "optimal":
            raise InputError(f"policy {policy!r} has no risk parameter; theta is for the "
                             "optimal policy")
        try:
            check_policy_rules(self.rules, "the fast simulation")
            fast = True
        except InputError:
            fast = False                 # played one game at a time by solver.play
            if policy != "optimal":
                raise InputError(f"rules {self.rules.spec}: only the optimal policy is "
                                 "available for these rules") from None
        if isinstance(log, (str, Path)):
            opened = atomic_text(log)    # a bad path fails before any solve
        else:
            opened = contextlib.nullcontext(log)
        with opened as f:
            if f is not None:
                f.write(header_line(self.rules, policy=policy, seed=seed) + "\n")
            table = self.table if policy == "optimal" else None
            if not fast:
                from yatzy.research.games import run_games
                return run_games(table, games, seed, (lambda line: f.write(line + "\n")) if f else None,
                                 scores=scores)

            def write(batch) -> None:
                for line in log_lines(self.rules, batch.first, batch.rolls, batch.keeps,
                                      batch.boxes, batch.points):
                    f.write(line + "\n")
            from yatzy.kernels.policy import batch
            from yatzy.kernels.simulate import play_games, play_turn
            from yatzy.research.simulate import simulate
            decisions = self._decisions(games) if policy == "optimal" else None
            kernels = (play_games,) if decisions is not None else (batch, play_turn)
            announce_compile(kernels, "simulation")
            return simulate(self.rules, table.values if table is not None else None, games, seed,
                            policy, on_log=write if f is not None else None, theta=self.theta,
                            decisions=decisions, scores=scores)

    def _decisions(self, games: int):
        """The decision table the simulation of ``games`` optimal games looks
        its actions up in: the stored one, or built now (seconds) for
        ``LOOKUP_GAMES`` games or more; ``None``: decided layer by layer."""
        from yatzy.tables.decisions import build, decisions_path, open_decisions
        rules = self.rules.column_rules
        if games < LOOKUP_GAMES and not decisions_path(rules, self.tables, self.theta).exists():
            return None
        try:
            return open_decisions(rules, self.tables, theta=self.theta, values=self.table,
                                  progress=self.progress)
        except TableError as e:            # a read-only folder: the table held in memory only
            warnings.warn(TableWarning(f"{e}; the decision table is built for this run only"),
                          stacklevel=3)
            return build(rules, self.table.values, self.theta)

    def _simulate_columns(self, games: int, seed: int, policy: str,
                          log: str | Path | IO[str] | None, scores: bool = False) -> Simulation:
        """``simulate`` with several columns: ``yatzy.research.triple_games``."""
        from yatzy.research.triple_games import run_games
        opened = atomic_text(log) if isinstance(log, (str, Path)) else contextlib.nullcontext(log)
        with opened as f:
            if f is not None:
                f.write(header_line(self.rules, policy=policy, seed=seed) + "\n")
            on_line = (lambda line: f.write(line + "\n")) if f is not None else None
            return run_games(self.table, self.rules, games, seed, policy,
                             on_line).simulation(scores)

    def review(self, log: str | Path | Sequence[Sequence[Turn]]) -> Review:
        """Every decision of a game log (a file name, or the games of
        ``yatzy.research.review.read_log``) valued against the optimal strategy."""
        if isinstance(log, (str, Path)):
            log = read_log(log, self._log_rules())[1]
        return review(self.table, log, self.rules)

    def _log_rules(self) -> str | Rules:
        """What ``read_log`` is given: the spec, so that a header for other
        rules is an error, unless the spec does not make these rules."""
        try:
            if parse_rules(self.rules.spec) == self.rules:
                return self.rules.spec
        except InputError:
            pass
        return self.rules

    def export(self, fmt: str, out: str | Path | IO[str], max_bank: int | None = None) -> int:
        """Write every reachable turn-start state as ``fmt`` (csv, parquet,
        json) to the file ``out`` (atomically) or an open text file; with
        saved rolls only states with at most ``max_bank`` rolls banked.
        Returns the rows written."""
        self._one_column("export")
        if max_bank is not None:
            check_whole(max_bank, "max_bank")
        path = str(out) if isinstance(out, (str, Path)) else None
        check_format(fmt, path)              # before any solve
        if path is not None:
            check_writable(path)             # a folder, a missing or read-only folder
        return write_states(self.table, fmt, path, None if path else out, max_bank)


__all__ = ["DEFAULT_GAMES", "POLICIES", "Studies", "announce_compile",
           "announce_distribution_compile", "check_policy"]
