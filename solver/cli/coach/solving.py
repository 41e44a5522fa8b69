"""Solving a table the game needs, in a child process the signals can stop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import click

from yatzy.api import Solver
from yatzy.cli.options import ask_to_build, stderr_progress
from yatzy.errors import InputError, TableError
from yatzy.players.explain import parts_path
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.rules.words import decimal_mark, message, rules_name
from yatzy.tables import plan as plans
from yatzy.tables.announce import TableWarning, check
from yatzy.tables.plan import calibrated_seconds, describe_bytes, estimate, parts_plan, value_plan
from yatzy.tables.store import value_measure

STOP_NOTE_SECONDS = 2.0      # solves expected to take longer say that Ctrl-C stops them
FASTER = 2.0                 # other rules are suggested when they solve this many times faster


class Stopped(Exception):
    """A signal asked the program to stop (hang-up, SIGTERM, Ctrl-C)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def faster_rules(rules: Rules) -> Rules | None:
    """The rules without saved rolls where ``rules`` have them (a much
    smaller table: ``maxi`` → ``maxi:saved_rolls=false``), else None.

    >>> faster_rules(parse_rules("maxi")).spec, faster_rules(parse_rules("nordic"))
    ('maxi:saved_rolls=false', None)
    """
    if not rules.saved_rolls:
        return None
    preset, _, rest = rules.spec.partition(":")
    keep = [item for item in rest.split(",")
            if item and not item.startswith(("saved_rolls=", "bank_cap="))]
    return parse_rules(f"{preset}:{','.join([*keep, 'saved_rolls=false'])}")



CHILD = ("import sys; from yatzy.cli.coach.solving import solve_child; "
         "sys.exit(solve_child(sys.argv[1]))")


def solve_in_child(spec: str, tables, theta: float, parts: bool, bar: str | None,
                   lang: str = "en") -> int:
    """Solve and store the value table of ``spec`` (and with ``parts`` its
    explanations' table) in a child process, and wait for it; its exit
    status.  Numba's kernels do not look at signals, so the solve runs
    apart: this process waits in short sleeps, in which a signal's handler
    (``stop``) raises, and then the child is killed at once.  Tables are
    written atomically (temporary files of a killed write are removed on
    the next open), so killing is safe.  The child has its own session (a
    Ctrl-C at the terminal reaches only this process) and dies with this
    process (``PR_SET_PDEATHSIG``).  ``bar``: the progress bar's label
    (None: no bar); ``lang``: the language of its notices (the kernels'
    first compile, said by the child as it starts it), time left and errors."""
    import yatzy
    root = str(Path(yatzy.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    job = json.dumps({"rules": spec, "tables": None if tables is None else str(tables),
                      "theta": theta, "parts": parts, "bar": bar, "parent": os.getpid(),
                      "lang": lang})
    child = subprocess.Popen([sys.executable, "-c", CHILD, job], stdin=subprocess.DEVNULL,
                             start_new_session=True, env=env)
    try:
        while child.poll() is None:
            time.sleep(0.05)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode


def solve_child(job: str) -> int:
    """The child of ``solve_in_child``: solve, store, exit 0 (2 and one line
    ``error: ...`` on stderr if the rules or the tables' folder are bad)."""
    args = json.loads(job)
    try:                                    # die with the parent (Linux)
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)          # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != args["parent"]:      # the parent is gone already
        return 1

    lang = args.get("lang", "en")

    def show(text, category, filename, lineno, file=None, line=None):
        said = text.said(lang) if isinstance(text, TableWarning) else str(text)
        if str(text).startswith("compiling"):
            click.echo(said, err=True)                  # in the game's language, as it is
        else:
            click.echo(message("warning", lang, text=said), err=True)

    warnings.showwarning = show
    warnings.filterwarnings("ignore", message="building the", category=TableWarning)
    try:
        rules = parse_rules(args["rules"])
        bar = stderr_progress(args["bar"], lang) if args["bar"] else None
        solver = Solver(rules, theta=args["theta"], tables=args["tables"], progress=bar)
        solver.solve()
        if args["parts"]:
            solver.parts().need(0)          # the empty card's sub-game: the whole table, stored
    except (InputError, TableError) as e:
        click.echo(message("error", lang, text=e), err=True)
        return 2
    return 0


def stop(signum, frame) -> None:
    raise Stopped(signum)



class Tables:
    """Mixin of the coach: the tables the strategy needs, solved when first used."""

    def need_table(self, parts: bool = False) -> None:
        """Before the strategy's table (and with ``parts`` the explanations'
        table) is first used: if it must be solved, say what, how big and
        about how long (and the faster rules where there are any), ask for a
        big one as ``--yes`` would, then solve it in a child process
        (``solve_in_child``), its progress bar on the terminal, which Ctrl-C
        and the other signals stop within a moment, the game saved."""
        solver = self.game.solver
        rules = solver.rules
        values = getattr(solver, "_table", None) is None and not solver.path.exists()
        explain = (parts and not parts_path(rules, solver.tables).exists()
                   and (values or solver.parts().builds_whole(self.game.card.mask)))
        # (a late position's explanations come from its sub-game, quickly)
        if not (values or explain):
            return
        name = rules_name(rules.spec, self.lang)
        plan = value_plan(rules.column_rules, solver.path, solver.theta,
                          measure=value_measure(rules.column_rules, solver.theta))
        parts_seconds = calibrated_seconds(parts_plan(rules).seconds) if explain else 0.0
        seconds = parts_seconds
        if values:
            build = estimate(plan)      # on this machine as busy as it is now: the command's figure
            seconds += build
            self.say("solving", rules=name, about=self.about(build),
                     size=self.size(plan.file_size))
            faster = faster_rules(rules)
            if faster is not None:
                quick = value_plan(faster).seconds
                if quick * FASTER < plan.seconds:
                    self.say("faster", rules=faster.spec, about=self.about(quick))
        if explain:
            self.say("solving_parts", rules=name, about=self.about(parts_seconds))
        if seconds > STOP_NOTE_SECONDS:
            self.say("stoppable")
        self.draw()
        try:
            if values:
                self.confirm_build(plan, build)
            bar = self.words("bar", rules=name)     # a bar on a terminal, else lines
            code = solve_in_child(rules.spec, solver.tables, solver.theta, explain, bar,
                                  self.lang)
        finally:                            # solved, refused or stopped: no longer so
            self.unsay("stoppable")
        if code:
            raise self.fail("solve_failed", rules=name)

    def confirm_build(self, plan, seconds: float) -> None:
        """``tables.plan.check`` of the build (``seconds``: its estimate,
        measured already, the one time the coach says for it), before the child starts: it fits, and a big build
        is confirmed (``--yes``, or a question in the language on a
        terminal), else one InputError in the language."""
        before = plans.set_confirm(None)
        declined = []

        def ask(p) -> bool:
            if before is not ask_to_build:          # --yes, or the library's default
                return True if before is None else before(p)
            ok = sys.stdin.isatty() and sys.stderr.isatty() and click.prompt(
                self.words("build_question", about=self.about(seconds)), default="",
                show_default=False, prompt_suffix="", err=True
            ).strip().lower() in (self.words("yes"), "y", "yes")
            if not ok:
                declined.append(p)
            return ok

        if plan.path is not None and plan.disk_bytes > plans.free_disk(plan.path.parent):
            raise self.fail("no_disk", rules=rules_name(self.game.rules.spec, self.lang),
                            size=self.size(plan.disk_bytes),
                            free=self.size(plans.free_disk(plan.path.parent)))
        if plan.memory_bytes > plans.free_memory():
            raise self.fail("no_memory", rules=rules_name(self.game.rules.spec, self.lang),
                            size=self.size(plan.memory_bytes),
                            free=self.size(plans.free_memory()))
        plans.set_confirm(ask)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", TableWarning)    # announced above
                check(plan, seconds)
        except InputError:
            if declined:
                raise self.fail("not_built", rules=rules_name(self.game.rules.spec, self.lang),
                                about=self.about(seconds)) from None
            raise
        finally:
            plans.set_confirm(before)

    def size(self, n: int) -> str:
        """``n`` bytes in KiB .. TiB, a decimal comma in nb and sv."""
        return decimal_mark(describe_bytes(n), self.lang)

    def about(self, seconds: float) -> str:
        """About how long ``seconds`` are, in the language."""
        if seconds < 90:
            t = f"{max(seconds, 1):.0f} s"
        elif seconds < 5400:
            t = f"{self.num(seconds / 60, 1)} min"
        else:
            t = f"{self.num(seconds / 3600, 1)} {self.words('hours')}"
        return self.words("about", t=t)

    def advice(self):
        """The advice now (solving the table first if need be)."""
        self.need_table()
        return self.game.advice()

