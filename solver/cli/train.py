"""``yatzy train``: puzzles from real positions, answered at the prompt,
each answer's loss explained and recorded; ``--stats`` shows the rating.

The puzzles are ``solver.research.puzzles``'; the rating and its database
``solver.research.ratings``; the explanations ``Solver.explain``.  Answers
are read line by line, so the command works piped (``yatzy train <
answers.txt``); input ending stops the session after the answers given.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets
import sys
import time

import click

from solver.cli.options import (
    SEED,
    Choice,
    Whole,
    check_plot,
    open_solver,
    rules_option,
    tables_option,
)
from solver.errors import InputError
from solver.position.actions import Action
from solver.research import puzzles as pz
from solver.research.ratings import Answer, Ratings
from solver.rules.words import LANGS, box_index, box_name, message, number

WORDS = {
    "en": {"header": "{n} puzzle(s), rules {rules}, {what}; answer like: keep 5 6 | 56 | "
                     "score chance | chance | reroll all | skip | quit",
           "seed": "seed {seed}", "daily": "daily puzzles of {date}", "log": "from {path}",
           "puzzle": "puzzle {i} of {n}: {kind}, {level}",
           "review": " (a position you got wrong before)",
           "dice": "dice {dice}, {n} reroll(s) left", "dice0": "dice {dice}, choose a box",
           "prompt": "answer> ", "runner_up": "second best: {sentence}",
           "summary": "{n} answer(s), mean loss {mean} per decision, total {total}",
           "none": "no answers",
           "kinds": {"first keep": "first keep", "second keep": "second keep",
                     "box choice": "box choice"},
           "levels": ("any level", "easy", "medium", "hard")},
    "nb": {"header": "{n} oppgave(r), regler {rules}, {what}; svar slik: keep 5 6 | 56 | "
                     "score sjanse | sjanse | reroll all | skip | quit",
           "seed": "frø {seed}", "daily": "dagens oppgaver {date}", "log": "fra {path}",
           "puzzle": "oppgave {i} av {n}: {kind}, {level}",
           "review": " (en stilling du bommet på før)",
           "dice": "terninger {dice}, {n} kast igjen", "dice0": "terninger {dice}, velg en boks",
           "prompt": "svar> ", "runner_up": "nest best: {sentence}",
           "summary": "{n} svar, gjennomsnittlig tap {mean} per valg, totalt {total}",
           "none": "ingen svar",
           "kinds": {"first keep": "første kast", "second keep": "andre kast",
                     "box choice": "boksvalg"},
           "levels": ("alle nivåer", "lett", "middels", "vanskelig")},
    "sv": {"header": "{n} uppgift(er), regler {rules}, {what}; svara så här: keep 5 6 | 56 | "
                     "score chans | chans | reroll all | skip | quit",
           "seed": "frö {seed}", "daily": "dagens uppgifter {date}", "log": "från {path}",
           "puzzle": "uppgift {i} av {n}: {kind}, {level}",
           "review": " (en ställning du missade förut)",
           "dice": "tärningar {dice}, {n} slag kvar", "dice0": "tärningar {dice}, välj en ruta",
           "prompt": "svar> ", "runner_up": "näst bäst: {sentence}",
           "summary": "{n} svar, genomsnittlig förlust {mean} per val, totalt {total}",
           "none": "inga svar",
           "kinds": {"first keep": "första slaget", "second keep": "andra slaget",
                     "box choice": "rutval"},
           "levels": ("alla nivåer", "lätt", "medel", "svår")},
}


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


def parse_answer(text: str, rules) -> Action:
    """An answer as an action: ``keep 5 6``, ``56`` (keep those), ``score
    BOX`` or ``BOX`` alone (any language), ``reroll all``."""
    t = text.strip().lower()
    if re.fullmatch(r"[\d\s,]+", t):
        return Action.parse("keep " + t, rules)
    if t.startswith("score "):
        t = re.sub(r"\s*\(?\d+\)?\s*$", "", t[6:])          # points typed: not needed
        return Action.score(rules.boxes[box_index(rules, t)].name)
    if not re.match(r"(keep|reroll)\b", t):
        return Action.score(rules.boxes[box_index(rules, t)].name)
    return Action.parse(t, rules)


def action_text(action: Action, lang: str) -> str:
    if action.kind == "score":
        return f"score {box_name(action.box, lang)} ({action.points})"
    return str(action)


class Session:
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
        click.echo(click.style(w["puzzle"].format(i=i, n=n, kind=w["kinds"][puzzle.kind],
                                                  level=w["levels"][puzzle.level]), bold=True)
                   + (w["review"] if review else ""))
        click.echo(card_text(puzzle.card, lang))
        dice = " ".join(map(str, puzzle.dice))
        click.echo(w["dice"].format(dice=dice, n=puzzle.rerolls) if puzzle.rerolls
                   else w["dice0"].format(dice=dice))
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
            if line.lower() in ("quit", "exit"):
                return False
            if line.lower() == "skip":
                return True
            try:
                want = parse_answer(line, self.solver.rules)
                chosen = next((e for e in why if e.action == want), None)
                if chosen is None:
                    raise InputError(self.impossible(want, puzzle))
            except InputError as e:
                click.echo(click.style(f"error: {e}", fg="red"))
                continue
            break
        seconds = time.monotonic() - start
        self.feedback(chosen, why)
        self.db.record(Answer(self.solver.rules.spec, puzzle.key, puzzle.kind,
                              str(chosen.action), str(chosen.best), chosen.action.loss,
                              "review" if review else self.source, seconds))
        self.losses.append(chosen.action.loss)
        return True

    def impossible(self, want: Action, puzzle: pz.Puzzle) -> str:
        """Why an answer is not among the actions of the puzzle."""
        dice = " ".join(map(str, puzzle.dice))
        if want.kind == "score":
            rules = puzzle.card.rules
            name = box_name(want.box, self.lang)
            if puzzle.card.points[rules.box_index(want.box)] is not None:
                return f"{name} is already filled"
            return f"{name} may not be filled now"
        if puzzle.rerolls == 0:
            return "no rerolls left: choose a box"
        return f"{want} is not possible with dice {dice}"

    def feedback(self, chosen, why) -> None:
        lang = self.lang
        if chosen.action.loss == 0:
            click.echo(click.style(message("best", lang), fg="green"))
            runner = next((e for e in why if e.action.loss > 0), None)
            if runner is not None:
                click.echo(self.words["runner_up"].format(sentence=runner.sentence(lang)))
            return
        click.echo(click.style(message("cost", lang, loss=number(chosen.action.loss, 2, lang),
                                       best=action_text(chosen.best, lang)), fg="red"))
        click.echo(chosen.sentence(lang))

    def summary(self) -> None:
        if not self.losses:
            click.echo(self.words["none"])
            return
        click.echo("")
        mean = sum(self.losses) / len(self.losses)      # numbers in the session's language
        click.echo(self.words["summary"].format(n=len(self.losses),
                                                mean=number(mean, 3, self.lang),
                                                total=number(sum(self.losses), 2, self.lang)))


def _fmt_rating(r) -> str:
    if r.n == 0:
        return f"  {r.label:<12} {0:>5}"
    if r.n == 1:                              # one answer: no spread, no interval
        return f"  {r.label:<12} {r.n:>5}  {r.mean:7.3f}"
    lo, hi = r.ci95
    return f"  {r.label:<12} {r.n:>5}  {r.mean:7.3f}  ({lo:.3f} .. {hi:.3f})"


def show_stats(solver, db: Ratings, games: int, plot: str | None, as_json: bool) -> None:
    """The rating of the answers under these rules, and the scale's anchors."""
    spec = solver.rules.spec
    stats = db.stats(spec)
    anchors = db.anchors(spec, solver.rules.fingerprint, games, 0)
    if anchors is None:
        click.echo(f"measuring the rating scale once ({games} games per policy) ...", err=True)
        anchors = pz.calibrate(solver.table, games)
        db.store_anchors(spec, solver.rules.fingerprint, games, 0, anchors)
    if plot:
        from solver.research.ratings import plot_stats
        plot_stats(stats, anchors, plot)
    if as_json:
        click.echo(json.dumps({**stats.as_dict(), "database": str(db.path),
                               "scale": [a.as_dict() for a in anchors]}))
        return
    click.echo(f"rating, rules {spec} ({db.path}): mean loss per decision, 95% interval")
    click.echo(f"  {'':<12} {'n':>5}  {'mean':>7}")
    click.echo(_fmt_rating(stats.overall))
    for r in stats.by_kind:
        click.echo(_fmt_rating(r))
    if stats.by_day:
        click.echo("by day (UTC)")
        for r in stats.by_day:
            click.echo(_fmt_rating(r))
    click.echo(f"due for review now: {stats.due}")
    click.echo(f"the scale ({games} games each): mean loss per decision, mean final score")
    for a in anchors:
        lo, hi = a.ci95
        final = f"{a.final_mean:7.2f}" + (" (exact)" if a.final_exact else "")
        click.echo(f"  {a.policy:<12} {a.mean_loss:7.3f}  ({lo:.3f} .. {hi:.3f})  {final}")
    if plot:
        click.echo(f"plot written to {plot}")


@click.command()
@rules_option
@tables_option
@click.option("--count", type=Whole(1, 1000), default=5, show_default=True, metavar="N",
              help="Puzzles in this session.")
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
@click.option("--scale-games", type=Whole(1), default=100, show_default=True, metavar="N",
              help="With --stats: games per policy measuring the scale (once, then stored).")
@click.option("--json", "as_json", is_flag=True, help="With --stats: print one JSON object.")
def train(rules_spec: str, tables_dir: str | None, count: int, seed: int | None, level: int,
          daily: bool, date_text: str | None, log: str | None, db_path: str | None, lang: str,
          stats: bool, plot: str | None, scale_games: int, as_json: bool) -> None:
    """Puzzles from real positions: answer, see the loss and why; --stats: your rating."""
    if plot and not stats:
        raise InputError("--plot goes with --stats")
    check_plot(plot)
    solver = open_solver(rules_spec, tables_dir)
    from solver.players.explain import check_explain_rules, parts_path
    check_explain_rules(solver.rules)               # these rules have explanations (else: why not)
    if not parts_path(solver.rules, tables_dir).exists():
        click.echo("building the explanation table once (seconds) ...", err=True)
    solver.parts()
    with Ratings(db_path) as db:
        if stats:
            show_stats(solver, db, scale_games, plot, as_json)
            return
        if as_json:
            raise InputError("--json goes with --stats")
        table = solver.table
        reviews: list[pz.Puzzle] = []
        if log:
            if daily or date_text:
                raise InputError("--from and --daily do not go together")
            seed = 0 if seed is None else seed
            found, source, what = (pz.from_log(table, log, count, seed, level), "log",
                                   WORDS[lang]["log"].format(path=log))
        elif daily or date_text:
            date = _date(date_text)
            seed = pz.daily_seed(date, solver.rules)
            found, source = pz.draw(table, count, seed, level), "daily"
            what = WORDS[lang]["daily"].format(date=date.isoformat())
        else:
            if seed is None:
                seed = secrets.randbelow(1 << 62)
            reviews = _reviews(table, db.due(solver.rules.spec, limit=count))
            found, source = pz.draw(table, count - len(reviews), seed, level), "train"
            what = WORDS[lang]["seed"].format(seed=seed)
        todo = [(p, True) for p in reviews] + [(p, False) for p in found]
        click.echo(WORDS[lang]["header"].format(n=len(todo), rules=solver.rules.spec, what=what))
        session = Session(solver, db, lang, source)
        for i, (puzzle, review) in enumerate(todo, 1):
            if not session.ask(i, len(todo), puzzle, review):
                break
        session.summary()


def _reviews(table, keys: list[str]) -> list[pz.Puzzle]:
    """The positions due for review that these rules can still read."""
    out = []
    for key in keys:
        try:
            out.append(pz.Puzzle.parse(key, table))
        except InputError:
            pass                               # from other rules of the same spec: skip
    return out


def _date(text: str | None) -> dt.date:
    if text is None:
        return dt.datetime.now(dt.timezone.utc).date()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(f"--date {text!r}: expected YYYY-MM-DD") from None


COMMANDS = (train,)
__all__ = ["COMMANDS", "card_text", "parse_answer", "train"]
