"""``yatzy train``: puzzles from real positions, answered at the prompt,
each answer's loss explained and recorded; ``--stats`` shows the rating.

The puzzles are ``yatzy.research.puzzles``'; the rating and its database
``yatzy.research.ratings``; the explanations ``Solver.explain``.  Answers
are read line by line, so the command works piped (``yatzy train <
answers.txt``); input ending stops the session after the answers given.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
import sys
import time
import warnings

import click

from yatzy.cli.options import (
    SEED,
    Choice,
    Whole,
    check_plot,
    clock,
    open_solver,
    rules_option,
    tables_option,
)
from yatzy.errors import InputError
from yatzy.position.actions import Action
from yatzy.research import puzzles as pz
from yatzy.research.ratings import Answer, Ratings, plot_stats
from yatzy.rules.grammar import GrammarError, cut, parse
from yatzy.rules.words import (
    LANGS,
    box_name,
    decimal_mark,
    fill,
    message,
    number,
    section,
)
from yatzy.tables.announce import TableWarning
from yatzy.tables.plan import describe_bytes, describe_seconds, estimate

MAX_SCALE_GAMES = 100_000         # games per policy measuring the scale (--scale-games)

# The trainer's words (the catalogue's "train" section, yatzy.rules.words)
WORDS = section("train")
KIND_KEYS = {"first keep": "kind_first", "second keep": "kind_second", "box choice": "kind_box"}


def build_notice(solver, lang: str) -> str:
    """The announcement of the whole explanations table's build, in
    ``lang``: what, its size on disk and about how long, the time measured
    on this machine now (``players.explain.whole_plan``, ``tables.plan.estimate``)."""
    from yatzy.players.explain import whole_plan
    plan = whole_plan(solver.rules, solver.tables)
    return fill(WORDS[lang]["building_whole"], rules=solver.rules.spec,
                size=decimal_mark(describe_bytes(plan.file_size), lang),
                about=decimal_mark(describe_seconds(estimate(plan)), lang))


def card_text(card, lang: str) -> str:
    """The card as rows: each box with its points (``-``: open), Sum and
    Bonus after the upper boxes, Total last."""
    rules = card.rules
    rows = []
    last_upper = max((i for i, b in enumerate(rules.boxes) if b.is_upper), default=-1)
    for i, box in enumerate(rules.boxes):
        p = card.points[i]
        rows.append((box_name(box.name, lang), "-" if p is None else str(p)))
        if i == last_upper:
            rows.append((message("sum", lang), str(card.upper_total)))
            if rules.bonus_points:
                rows.append((message("bonus", lang), str(card.bonus)))
    if rules.yahtzee_bonus:
        rows.append((message("yahtzee_bonus", lang), str(card.yahtzee_bonus)))
    rows.append((message("total", lang), str(card.score)))
    width = max(len(r[0]) for r in rows) + 2
    return "\n".join(f"  {name:<{width}}{value:>4}" for name, value in rows)


def parse_answer(text: str, rules, lang: str = "en", dice: tuple[int, ...] | None = None
                 ) -> Action:
    """An answer as an action, read as the coach reads a move
    (``yatzy.rules.grammar``): ``keep 5 6``, ``56`` (keep those), ``behold
    5 5``, ``spara 6 6``, ``keep sixes`` (with ``dice``), ``score BOX`` or
    ``BOX`` alone (any language; points may be said, ``chance (23)``, and
    a strike says 0), ``reroll all``, ``kast alle``."""
    typed = parse(text, rules, lang, dice=dice, commands=False)
    if typed.kind == "keep":
        return Action.keep(typed.dice)
    if typed.kind == "score":
        return Action.score(typed.box, typed.points)
    raise GrammarError("not_move", lang, text=cut(" ".join(text.split())))


def action_text(action: Action, lang: str) -> str:
    """``action`` in ``lang``: ``før sjanse (23)``, ``behold 5 6``, ``kast alle``."""
    if action.kind == "score":
        return f"{message('score', lang)} {box_name(action.box, lang)} ({action.points})"
    if action.dice:
        return f"{message('keep', lang)} {' '.join(map(str, action.dice))}"
    return message("reroll_all", lang)


class Drill:
    """One run of puzzles at the prompt."""

    def __init__(self, solver, db: Ratings, lang: str, source: str):
        self.solver, self.db, self.lang, self.source = solver, db, lang, source
        self.words = WORDS[lang]
        self.losses: list[float] = []

    def ask(self, i: int, n: int, puzzle: pz.Puzzle, review: bool) -> bool:
        """Show a puzzle, read answers until one is valid; False once input
        ends or the player quits."""
        w, lang = self.words, self.lang
        click.echo("")
        click.echo(click.style(fill(w["puzzle"], i=i, n=n, kind=w[KIND_KEYS[puzzle.kind]],
                                    level=w[f"level{puzzle.level}"]), bold=True)
                   + (w["review"] if review else ""))
        click.echo(card_text(puzzle.card, lang))
        dice = " ".join(map(str, puzzle.dice))
        click.echo(fill(w["dice"], dice=dice, n=puzzle.rerolls) if puzzle.rerolls
                   else fill(w["dice0"], dice=dice))
        why = self.solver.explain(puzzle.card, puzzle.dice, puzzle.rerolls)
        start = time.monotonic()
        while True:
            try:
                line = click.prompt(w["prompt"], default="", show_default=False,
                                    prompt_suffix="").strip()
            except (click.Abort, EOFError):
                return False
            if not sys.stdin.isatty():
                click.echo(line)                   # piped: show what was answered
            if not line:
                continue
            try:
                command = parse(line, self.solver.rules, lang, dice=puzzle.dice)
                if command.kind in ("quit", "skip"):
                    return command.kind == "skip"
                want = parse_answer(line, self.solver.rules, lang, puzzle.dice)
                chosen = next((e for e in why if e.action == want), None)
                if chosen is None:
                    raise InputError(self.impossible(want, puzzle))
                if want.points is not None and want.points != chosen.action.points:
                    raise InputError(message("game_wrong_points", lang,
                                             box=box_name(want.box, lang),
                                             points=chosen.action.points, said=want.points))
            except InputError as e:
                click.echo(click.style(message("error", lang, text=e), fg="red"))
                continue
            break
        seconds = time.monotonic() - start
        self.feedback(chosen, why)
        try:                                   # locked, deleted, full: said, and training goes on
            self.db.record(Answer(self.solver.rules.spec, puzzle.key, puzzle.kind,
                                  str(chosen.action), str(chosen.best), chosen.action.loss,
                                  "review" if review else self.source, seconds))
        except InputError as e:
            click.echo(click.style(message("error", self.lang, text=e), fg="red"), err=True)
        self.losses.append(chosen.action.loss)
        return True

    def impossible(self, want: Action, puzzle: pz.Puzzle) -> str:
        """Why an answer is not among the actions of the puzzle."""
        dice, lang = " ".join(map(str, puzzle.dice)), self.lang
        if want.kind == "score":
            rules = puzzle.card.rules
            name = box_name(want.box, lang)
            if puzzle.card.points[rules.box_index(want.box)] is not None:
                return message("box_filled", lang, box=name)
            return message("box_not_now", lang, box=name, dice=dice)
        if puzzle.rerolls == 0:
            return message("no_rerolls", lang, dice=dice)
        return message("not_among", lang, dice=" ".join(map(str, want.dice)), roll=dice)

    def feedback(self, chosen, why) -> None:
        lang = self.lang
        if chosen.action.loss == 0:
            click.echo(click.style(message("best", lang), fg="green"))
            runner = next((e for e in why if e.action.loss > 0), None)
            if runner is not None:
                click.echo(fill(self.words["runner_up"], sentence=runner.sentence(lang)))
            return
        click.echo(click.style(message("cost", lang, loss=number(chosen.action.loss, 2, lang),
                                       best=action_text(chosen.best, lang)), fg="red"))
        click.echo(chosen.sentence(lang))
        click.echo("  " + chosen.sum_text(lang))        # every part of the loss, as one sum

    def summary(self) -> None:
        if not self.losses:
            click.echo(self.words["none"])
            return
        click.echo("")
        n, total = len(self.losses), sum(self.losses)
        click.echo(fill(self.words["summary"], n=n, mean=number(total / n, 3, self.lang),
                        total=number(total, 2, self.lang)))


LABEL = 15                        # columns of a row's label in the rating


def rating_row(r, label: str, lang: str) -> str:
    """One row of the rating: label, answers, mean loss and its 95 % interval
    (one answer: no interval), numbers as ``lang`` writes them."""
    if r.n == 0:
        return f"  {label:<{LABEL}} {0:>6}"
    if r.n == 1:                              # one answer: no spread, no interval
        return f"  {label:<{LABEL}} {r.n:>6}  {number(r.mean, 3, lang):>7}"
    lo, hi = r.ci95
    return (f"  {label:<{LABEL}} {r.n:>6}  {number(r.mean, 3, lang):>7}  "
            f"({number(lo, 3, lang)} .. {number(hi, 3, lang)})")


def policy_name(policy: str, lang: str) -> str:
    """A policy of the scale in ``lang`` (``grådig``, ``med støy T=1``), as it
    is if it has no name there."""
    if policy.startswith("noisy "):
        t = policy.removeprefix("noisy ")
        return fill(WORDS[lang]["policy_noisy"], t=decimal_mark(t, lang))
    try:
        return message("kind_" + policy, lang)
    except KeyError:
        return policy


SCALE_FIXED_GAMES = 320   # the scale's exact distributions and simulations, in noisy games' time


def scale_seconds(table, games: int, sample: int = 2) -> float:
    """About how long measuring the rating scale takes here: ``sample``
    noisy games timed now, for the games of every policy it plays (the
    noisy player at each temperature and the optimal, greedy and simple)
    and its exact distributions and simulations (``SCALE_FIXED_GAMES``:
    measured as long as 320 noisy games; 100 games per policy took 2.4 min
    on a busy 2-core machine)."""
    import numpy as np
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(sample):
        pz.play_noisy(table, 0.5, rng)
    per_game = (time.perf_counter() - start) / sample
    return per_game * (games * (len(pz.CALIBRATION_TEMPERATURES) + 3) + SCALE_FIXED_GAMES)


def show_stats(solver, db: Ratings, games: int, plot: str | None, as_json: bool,
               lang: str = "en") -> None:
    """The rating of the answers under these rules, and the scale's anchors, in ``lang``."""
    spec, w = solver.rules.spec, WORDS[lang]
    stats = db.stats(spec)
    anchors = db.anchors(spec, solver.rules.fingerprint, games, 0)
    if anchors is None:
        seconds = scale_seconds(solver.table, games)
        click.echo(fill(w["stats_measuring"], games=games, time=clock(seconds)), err=True)
        anchors = pz.calibrate(solver.table, games)
        db.store_anchors(spec, solver.rules.fingerprint, games, 0, anchors)
    if plot:
        plot_stats(stats, anchors, plot)
    if as_json:
        click.echo(json.dumps({**stats.as_dict(), "database": str(db.path),
                               "scale": [a.as_dict() for a in anchors]}))
        return
    kinds = {k: w[v] for k, v in KIND_KEYS.items()}
    click.echo(fill(w["stats_head"], rules=spec, path=db.path))
    click.echo(f"  {'':<{LABEL}} {w['stats_n']:>6}  {w['stats_mean']:>7}")
    click.echo(rating_row(stats.overall, w["stats_all"], lang))
    for r in stats.by_kind:
        click.echo(rating_row(r, kinds.get(r.label, r.label), lang))
    if stats.by_day:
        click.echo(w["stats_by_day"])
        for r in stats.by_day:
            click.echo(rating_row(r, r.label, lang))
    click.echo(fill(w["stats_due"], n=stats.due))
    click.echo(fill(w["stats_scale"], games=games))
    for a in anchors:
        lo, hi = a.ci95
        final = number(a.final_mean, 2, lang) + (f" ({w['stats_exact']})" if a.final_exact
                                                 else "")
        click.echo(f"  {policy_name(a.policy, lang):<{LABEL}} {number(a.mean_loss, 3, lang):>7}  "
                   f"({number(lo, 3, lang)} .. {number(hi, 3, lang)})  {final:>7}")
    if plot:
        click.echo(fill(w["stats_plot"], path=plot))


@click.command()
@rules_option
@tables_option
@click.option("--count", type=Whole(1, 1000), default=5, show_default=True, metavar="N",
              help="How many puzzles to answer now.")
@click.option("--seed", type=SEED, default=None, metavar="S",
              help="Seed of the noisy games the puzzles come from [default: random].")
@click.option("--level", type=Whole(0, len(pz.LEVELS) - 1), default=0, show_default=True,
              metavar="L", help="0 any, 1 easy (the best wins by 2 or more), 2 medium "
                                "(0.5 .. 2), 3 hard (0.1 .. 0.5).")
@click.option("--daily", is_flag=True, help="Today's puzzles (UTC): the same for everyone.")
@click.option("--date", "date_text", metavar="YYYY-MM-DD", help="The daily puzzles of this date.")
@click.option("--from", "log", metavar="LOG", help="Puzzles from your own logged games "
                                                   "(yatzy review's log format), costliest "
                                                   "first.")
@click.option("--db", "db_path", metavar="FILE",
              help="The ratings database [default: ratings.sqlite in $YATZY_DATA, else "
                   "$XDG_DATA_HOME/yatzy, else ~/.local/share/yatzy].")
@click.option("--lang", type=Choice(LANGS), default="en", show_default=True, metavar="LANG",
              help="Box names and messages: en | nb | sv.")
@click.option("--stats", "stats", is_flag=True, help="Print the rating instead of training.")
@click.option("--plot", metavar="FILE", help="With --stats: the rating over time (PNG, SVG "
              "or PDF, by the file's extension).")
@click.option("--scale-games", type=Whole(1, MAX_SCALE_GAMES), default=100, show_default=True, metavar="N",
              help="With --stats: games per policy measuring the scale (once, then stored).")
@click.option("--json", "as_json", is_flag=True, help="With --stats: print one JSON object.")
def train(rules_spec: str, tables_dir: str | None, count: int, seed: int | None, level: int,
          daily: bool, date_text: str | None, log: str | None, db_path: str | None, lang: str,
          stats: bool, plot: str | None, scale_games: int, as_json: bool) -> None:
    """Puzzles from real positions: answer, see the loss and why; --stats: your rating."""
    if plot and not stats:
        raise InputError(message("opt_goes_with", lang, a="--plot", b="--stats"))
    check_plot(plot)
    solver = open_solver(rules_spec, tables_dir, lang=lang)
    from yatzy.players.explain import check_explain_rules, parts_path
    check_explain_rules(solver.rules)               # these rules have explanations (else: why not)
    with warnings.catch_warnings():
        # the library's own notices of a build, said here in the language
        warnings.filterwarnings("ignore", message="(building|compiling) the",
                                category=TableWarning)
        if not parts_path(solver.rules, tables_dir).exists():
            click.echo(build_notice(solver, lang), err=True)
            solver.parts().need(0)      # puzzles come from every stage: the whole table, stored
        solver.parts()
    with Ratings(db_path) as db:
        if stats:
            show_stats(solver, db, scale_games, plot, as_json, lang)
            return
        if as_json:
            raise InputError(message("opt_goes_with", lang, a="--json", b="--stats"))
        table = solver.table
        reviews: list[pz.Puzzle] = []
        if log:
            if daily or date_text:
                raise InputError(message("opt_not_together", lang, a="--from", b="--daily"))
            seed = 0 if seed is None else seed
            found, source, what = (pz.from_log(table, log, count, seed, level), "log",
                                   fill(WORDS[lang]["log"], path=log))
        elif daily or date_text:
            date = _date(date_text, lang)
            seed = pz.daily_seed(date, solver.rules)
            found, source = pz.draw(table, count, seed, level), "daily"
            what = fill(WORDS[lang]["daily"], date=date.isoformat())
        else:
            if seed is None:
                seed = secrets.randbelow(1 << 62)
            reviews = _reviews(table, db.due(solver.rules.spec, limit=count))
            found, source = pz.draw(table, count - len(reviews), seed, level), "train"
            what = fill(WORDS[lang]["seed"], seed=seed)
        todo = [(p, True) for p in reviews] + [(p, False) for p in found]
        click.echo(fill(WORDS[lang]["header"], n=len(todo), rules=solver.rules.spec, what=what))
        drill = Drill(solver, db, lang, source)
        for i, (puzzle, review) in enumerate(todo, 1):
            if not drill.ask(i, len(todo), puzzle, review):
                break
        drill.summary()


def _reviews(table, keys: list[str]) -> list[pz.Puzzle]:
    """The positions due for review that these rules can still read."""
    out = []
    for key in keys:
        try:
            out.append(pz.Puzzle.parse(key, table))
        except InputError:
            pass                               # from other rules of the same spec: skip
    return out


def _date(text: str | None, lang: str = "en") -> dt.date:
    if text is None:
        return dt.datetime.now(dt.timezone.utc).date()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(message("bad_date", lang, text=repr(text))) from None


COMMANDS = (train,)
__all__ = ["COMMANDS", "card_text", "parse_answer", "train"]
