"""What the ``yatzy`` commands share: the group that turns every error into
one line, the options, their types (range-checked at the edge), and the
progress and warnings of a solve on stderr."""

from __future__ import annotations

import contextlib
import functools
import re
import sys
import time
import warnings
from typing import Iterator

import click

from yatzy import bounds
from yatzy.api import Solver
from yatzy.studies import POLICIES
from yatzy.bounds import MAX_SEED, whole_range
from yatzy.errors import InputError, TableError
from yatzy.files import check_writable
from yatzy.players.objectives import objective_from
from yatzy.research.plots import plot_format, require
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.rules.words import LANGS, message, number, rules_name
from yatzy.tables import plan
from yatzy.tables.announce import TableWarning, building_now


# ------------------------------------------------------------------ errors
def fail(text: str, lang: str | None = None) -> None:
    """Print ``error: text`` on stderr, ``error:`` in ``lang`` (default: the
    command line's ``--lang``, ``command_lang``), and exit with status 2."""
    click.echo(message("error", lang or command_lang(), text=text), err=True)
    sys.exit(2)


def command_lang(args: list[str] | None = None) -> str:
    """The language a command line asks for with ``--lang LANG`` (or
    ``--lang=LANG``), else English: the words around an error the command's
    own option parsing could not reach.

    >>> command_lang(["play", "--lang", "sv"]), command_lang(["train", "--lang=nb"])
    ('sv', 'nb')
    >>> command_lang(["play", "--lang", "xx"]), command_lang(["play"])
    ('en', 'en')
    """
    args = sys.argv[1:] if args is None else args
    lang = "en"
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    return lang if lang in LANGS else "en"


@contextlib.contextmanager
def friendly_errors(lang: str = "en") -> Iterator[None]:
    """User errors (``InputError``, ``TableError``) as one line ``error:
    ...`` and exit status 2; table notices (``TableWarning``) as lines
    ``warning: ...`` on stderr (``error``, ``warning`` in ``lang``)."""
    def show(text, category, filename, lineno, file=None, line=None):
        if issubclass(category, TableWarning):
            words = text.said(lang) if isinstance(text, TableWarning) else text
            click.echo(message("warning", lang, text=words), err=True)
        else:
            shown(text, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        shown = warnings.showwarning
        warnings.simplefilter("always", TableWarning)
        warnings.showwarning = show
        try:
            yield
        except (InputError, TableError) as e:
            fail(str(e), lang)


class Worded(click.BadParameter):
    """A bad value of an option, with the catalogue's key and fields of its
    message (``opt_choice``, ``opt_whole`` ...), so that it is said in the
    command line's language; its text is the English one."""

    def __init__(self, key: str, ctx, param, /, **fields):
        super().__init__(message(key, "en", **fields), ctx, param)
        self.key, self.fields = key, fields

    def say(self, lang: str) -> str:
        fields = dict(self.fields)
        if "low" in fields or "high" in fields:
            fields["range"] = worded_range(fields.get("low"), fields.get("high"), lang)
        return message(self.key, lang, **fields)


def worded_range(low: int | None, high: int | None, lang: str = "en") -> str:
    """``bounds.whole_range`` in ``lang``: ``minst 1``, ``mellom 0 og 2**63-1``.

    >>> worded_range(1, None, "nb"), worded_range(0, 2, "sv")
    ('minst 1', 'mellan 0 och 2')
    """
    if high is None:
        return message("range_least", lang, low=low)
    top = ("2**63-1" if high == MAX_SEED else "10**12" if high == bounds.MAX_GAMES
           else str(high))
    if low is None:
        return message("range_most", lang, high=top)
    return message("range_between", lang, low=low, high=top)


def _one_line(e: click.UsageError, lang: str = "en") -> str:
    """Click's usage error as one line in ``lang``: ``--games 0: must be at
    least 1``, ``ukjent valg: --frob``; an error click words itself that
    is not known here stays as click says it."""
    if type(e) in (click.BadParameter, Worded) and isinstance(e.param, click.Option) \
            and isinstance(e.param.type, (Whole, Choice, Theta)):
        said = e.say(lang) if isinstance(e, Worded) else e.message
        return f"{e.param.opts[0]} {said}"
    if lang == "en":
        return e.format_message()
    return click_words(e, lang) or e.format_message()


def click_words(e: click.UsageError, lang: str) -> str | None:
    """Click's own usage errors (an unknown option or command, an option
    without its value, an extra argument, a missing one) in ``lang``; None
    for the others."""
    if isinstance(e, click.NoSuchOption):
        text = message("opt_unknown", lang, option=e.option_name)
        if e.possibilities:
            text = message("opt_maybe", lang, text=text, options=", ".join(e.possibilities))
        return text
    if isinstance(e, click.BadOptionUsage):
        return message("opt_needs_value", lang, option=e.option_name)
    if isinstance(e, click.MissingParameter) and e.param is not None:
        return message("opt_missing", lang, param=" / ".join(getattr(e.param, "opts", []))
                       or e.param.name)
    found = re.match(r"No such command '(.*)'", e.message)
    if found:
        return message("opt_no_command", lang, name=found.group(1))
    found = re.match(r"Got unexpected extra arguments? \((.*)\)", e.message)
    if found:
        return message("opt_extra", lang, args=found.group(1))
    return None


class Group(click.Group):
    """A click group whose bad input, the commands' and click's own usage
    errors alike, is one line ``error: ...`` on stderr with exit status 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        before = plan.set_confirm(ask_to_build)        # big builds: --yes or a question
        lang = command_lang(None if args is None else list(args))
        try:
            with friendly_errors(lang):
                code = super().main(args, prog_name, complete_var, standalone_mode=False,
                                    **extra)
        except click.UsageError as e:
            fail(_one_line(e, lang), lang)
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo(message("aborted", lang), err=True)
            sys.exit(1)
        finally:
            plan.set_confirm(before)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


# ------------------------------------------------------------------- types
class Whole(click.IntRange):
    """A whole number in a range, its error naming the value:
    ``0: must be at least 1``, ``'ten': must be a whole number``."""

    name = "whole number"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise Worded("opt_whole", ctx, param, value=bounds.shown(str(value)))
            digits = len(text.lstrip("+-"))
            if digits > bounds.MAX_DIGITS:
                raise Worded("opt_digits", ctx, param, digits=digits,
                             range=whole_range(self.min, self.max), low=self.min,
                             high=self.max)
            number = int(text)
        if number < self.min or (self.max is not None and number > self.max):
            raise Worded("opt_range", ctx, param, number=number,
                         range=whole_range(self.min, self.max), low=self.min, high=self.max)
        return number


class Choice(click.Choice):
    """One of some words, its error naming the value and the choices."""

    def convert(self, value, param, ctx):
        if value in self.choices:
            return value
        raise Worded("opt_choice", ctx, param, value=repr(value), choices=", ".join(self.choices))


class Theta(click.ParamType):
    """A risk parameter: 0, or between 1e-6 and 1 in size (``yatzy.bounds``)."""

    name = "theta"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            number = value
        else:
            text = str(value).strip()
            try:
                number = float(bounds.check_text(text, "theta", 40))
            except (ValueError, InputError):
                self.fail(f"{bounds.shown(text)}: must be a number", param, ctx)
        try:
            return bounds.check_theta(number)
        except InputError as e:
            self.fail(str(e).removeprefix("theta "), param, ctx)


SEED = Whole(0, MAX_SEED)
GAMES = Whole(1, bounds.MAX_GAMES)
THETA = Theta()


# ----------------------------------------------------------------- options
def rules_option(f):
    return click.option("--rules", "rules_spec", default="nordic", show_default=True,
                        metavar="SPEC", help="PRESET[:key=value,...], see `yatzy rules`.")(f)


def tables_option(f):
    """``--tables DIR`` and ``--yes`` (build a big table without asking):
    every command that may build a table has both."""
    f = click.option("--yes", "-y", is_flag=True, expose_value=False, is_eager=True,
                     callback=_yes, help="Build a big table (over 2 GiB or 5 minutes) "
                     "without asking.")(f)
    return click.option("--tables", "tables_dir", envvar="YATZY_TABLES", default=None,
                        metavar="DIR", help="Where tables are stored [env YATZY_TABLES; "
                        "default: tables/ of the source checkout for an editable install, "
                        "else the user's cache folder; `yatzy where` names it].")(f)


def _yes(ctx, param, value) -> None:
    if value:
        plan.set_confirm(lambda p: True)


def ask_to_build(p: plan.Plan) -> bool:
    """Whether to build the big table ``p``: a y/N question when stdin and
    stderr are terminals, else no (the one-line refusal names ``--yes``)."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    return click.confirm(f"{p}. Build it?", default=False, err=True)


def card_option(f):
    return click.option("--card", default="", metavar="CARD",
                        help="Filled boxes as box=points,... (empty: a new game); "
                             "also yahtzee_bonus=N or bank=N where the rules have them.")(f)


THETA_HELP = ("Risk: play for the expected utility -exp(-θx)/θ of the final score x "
              "(θ > 0 cautious, θ < 0 bold, 0 the expected score; otherwise 1e-6 <= |θ| "
              "<= 1); values are then certainty equivalents.")


def theta_option(f):
    return click.option("--theta", type=THETA, default=0.0,
                        show_default=True, metavar="θ", help=THETA_HELP)(f)


def target_option(f):
    return click.option("--target", type=Whole(0), default=None, metavar="T",
                        help="Play for a final score of at least T (up to the rules' "
                             "largest score): the largest chance to reach it (exact; a "
                             "position solves only the states it can still reach, a late one "
                             "in under a second; an early one builds the whole target table "
                             "once: about 1.5 min and 1.7 GiB for nordic on a quiet 2-core "
                             "machine, announced with this machine's measured time first).")(f)


def opponent_options(f):
    f = click.option("--opponent-done", "done", multiple=True, metavar="CARD",
                     help="The card of an opponent whose game is over.")(f)
    return click.option("--opponent", "opponents", multiple=True, metavar="CARD",
                        help="An opponent's card (repeat for each, 1 to 5 in all): rank by the "
                             "chance to finish above every opponent, who play for expected "
                             "score.")(f)


def objective_options(with_opponents: bool = True):
    """``--theta``, ``--target`` (with ``opponents``: ``--opponent``,
    ``--opponent-done``) given to the command as one ``objective``: the
    one place the command line's options become an objective
    (``yatzy.players.objectives.objective_from``)."""
    def decorate(f):
        @functools.wraps(f)
        def command(*args, theta: float, target: int | None, opponents: tuple[str, ...] = (),
                    done: tuple[str, ...] = (), **kwargs):
            return f(*args, objective=objective_from(theta, target, opponents, done), **kwargs)
        if with_opponents:
            command = opponent_options(command)
        return theta_option(target_option(command))
    return decorate


def value_name(theta: float) -> str:
    """What the values printed are: expected scores, or certainty equivalents."""
    return "certainty equivalent" if theta else "expected final score"


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(f)


def policy_option(f):
    return click.option("--policy", type=Choice(POLICIES), default="optimal", show_default=True,
                        metavar="NAME",
                        help="optimal | greedy (best expected points this turn) | simple "
                             "(keep the most common face, score the most points).")(f)


def seed_option(help: str = "Random seed."):
    return click.option("--seed", type=SEED, default=0, show_default=True, metavar="S",
                        help=help)


def at_least_option(help: str = "Also print P(final score >= T); may be repeated."):
    return click.option("--at-least", "at_least", type=Whole(0), multiple=True, metavar="T",
                        help=help)


def plot_option(help: str):
    return click.option("--plot", metavar="FILE", help=help + " PNG, SVG or PDF, by the "
                        "file's extension.")


def out_option(f):
    return click.option("--out", metavar="FILE", callback=_writable,
                        help="Write here (atomically) instead of stdout.")(f)


def _writable(ctx, param, value: str | None) -> str | None:
    """An output path, refused now (a folder, a missing or read-only
    folder) rather than after the work."""
    if value:
        check_writable(value)
    return value


# -------------------------------------------------- opening a solver, progress
def open_solver(rules: str | Rules, tables_dir: str | None, theta: float = 0.0,
                lang: str = "en") -> Solver:
    """A ``Solver`` whose solves show their progress on stderr (in ``lang``)."""
    rules = rules if isinstance(rules, Rules) else parse_rules(rules)
    return Solver(rules, theta=theta, tables=tables_dir, progress=solve_progress(rules, lang))


def solve_progress(rules: Rules, lang: str = "en"):
    """The progress of the builds of ``rules``'s tables on stderr, in
    ``lang`` (``stderr_progress``)."""
    # what is built, how big and how long is announced by tables.plan (a
    # TableWarning) for builds that take a while; the progress follows any build
    return stderr_progress(message("bar", lang, rules=rules_name(rules.spec, lang)), lang)


def stderr_progress(label: str, lang: str = "en"):
    """The progress of every build (``progress(done, total)``: the value,
    target, futures, explanations and decision tables, a sub-game) on
    stderr, in ``lang``: click's bar on a terminal, else a plain line now
    and then (``LineProgress``: a log or a pipe, where the bar draws
    nothing until the build ends)."""
    return BarProgress(label, lang) if sys.stderr.isatty() else LineProgress(label, lang)


class BarProgress:
    """click's progress bar, drawn from the first call, with the time spent
    and the time left at the speed since the first call (click's own ETA
    averages its last few steps, which for a build reported a layer at a
    time swings by hours; work done before a resume is not counted).
    Its words are in ``lang``."""

    def __init__(self, label: str, lang: str = "en"):
        self.label, self.bar, self.done, self.lang = label, None, 0, lang
        self.start, self.before = 0.0, 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.start, self.before, self.done = time.perf_counter(), done, done
            label = naming_table(self.label, self.lang)
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr,
                                         show_eta=False, item_show_func=lambda text: text,
                                         width=bar_width(label))
            self.bar.__enter__()
            self.bar.update(done, "")
        else:
            self.bar.update(done - self.done, self.times(done, total))
            self.done = done
        if done >= total:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def times(self, done: int, total: int) -> str:
        """``12 s, about 40 s left`` (``12 s, omtrent 40 s igjen``: the time
        left once 3 % of the work is done: the first, smallest layers are
        mostly fixed costs)."""
        spent = time.perf_counter() - self.start
        if done - self.before >= 0.03 * total and done < total:
            left = clock(spent * (total - done) / (done - self.before))
            return message("bar_left", self.lang, spent=clock(spent), left=left)
        return clock(spent)


def naming_table(label: str, lang: str = "en") -> str:
    """``label`` with the whole table being built named after it where it
    is not the value table (``tables.announce.building_now``): the target,
    futures, explanations and decision tables' bars say which they are.

    >>> from yatzy.tables.announce import building
    >>> with building("target"):
    ...     naming_table("regner ut Nordisk", "nb")
    'regner ut Nordisk (måltabellen)'
    >>> naming_table("solving Nordic")
    'solving Nordic'
    """
    kind = building_now()
    return f"{label} ({message(f'table_{kind}', lang)})" if kind not in ("", "value") else label


BAR_TEXT = 42           # columns kept for the brackets, percentage, time spent and time left


def bar_width(label: str, columns: int | None = None) -> int:
    """The bar's width so that the whole line (label, bar, percentage and
    times) fits in the terminal's ``columns``: click's 36 where there is room,
    down to 4.

    >>> bar_width("solving nordic", 80), bar_width("regner ut triple", 100)
    (21, 36)
    """
    import shutil
    if columns is None:
        columns = shutil.get_terminal_size().columns
    return max(4, min(36, columns - 1 - len(label) - 2 - BAR_TEXT))


def clock(seconds: float) -> str:
    """``7 s``, ``3:05`` (minutes) or ``1:02:10`` (hours)."""
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s} s"
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


LINE_SECONDS = 30.0         # a progress line at most this often (and none in a shorter build)
LINE_SHARE = 0.25           # ... once this much more of the work is done
LINE_MOST_SECONDS = 300.0   # ... or this long after the line before


class LineProgress:
    """Plain lines of a build's progress where the bar cannot draw (stderr
    not a terminal): at most every ``LINE_SECONDS``, once a further
    ``LINE_SHARE`` of the work is done or ``LINE_MOST_SECONDS`` have passed,
    the share done, the time spent and the time left at the speed since the
    first call; at the end, where a line was printed, how long it took.  A
    build shorter than ``LINE_SECONDS`` prints nothing.  The first call of a
    build (work done before a resume) is not counted in the speed.  Its
    words and numbers are in ``lang`` (a decimal comma in nb and sv)."""

    def __init__(self, label: str, lang: str = "en"):
        self.label, self.lang, self.start = label, lang, None
        self.shown = label
        self.before = self.last_done = 0
        self.last_at, self.said = 0.0, False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if self.start is None:                      # a build begins
            if done >= total:
                return
            self.start = self.last_at = now
            self.before = self.last_done = done
            self.said, self.shown = False, naming_table(self.label, self.lang)
            return
        spent, lang = now - self.start, self.lang
        if done >= total:                           # it ended: the next call begins another
            if self.said:
                click.echo(message("bar_line_done", lang, label=self.shown,
                                   spent=number(spent / 60, 1, lang)), err=True)
            self.start = None
            return
        since = now - self.last_at
        if since < LINE_SECONDS or (done - self.last_done < LINE_SHARE * total
                                    and since < LINE_MOST_SECONDS):
            return
        left = spent * (total - done) / max(done - self.before, 1)
        click.echo(message("bar_line", lang, label=self.shown,
                           pct=f"{number(100 * done / total, 1, lang):>5}",
                           spent=number(spent / 60, 1, lang), left=number(left / 60, 1, lang)),
                   err=True)
        self.last_at, self.last_done, self.said = now, done, True


def check_plot(path: str | None) -> None:
    """Fail now, not after the work, if a plot could not be drawn or written."""
    if path:
        plot_format(path)
        check_writable(path)
        require()


def pct(p: float) -> str:
    return f"{100 * p:.2f}%"


__all__ = ["Choice", "GAMES", "Group", "THETA", "Theta", "Whole", "ask_to_build",
           "at_least_option", "card_option", "check_plot", "command_lang", "fail",
           "friendly_errors", "json_option", "objective_options", "open_solver", "out_option",
           "pct", "plot_option", "policy_option", "rules_option", "seed_option", "solve_progress",
           "stderr_progress",
           "tables_option"]
