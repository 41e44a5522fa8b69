"""``yatzy play``: a coach in the terminal for a whole game at the table.

Everything the game does is ``solver.game.Game``; this module reads lines,
prints the scorecard ("protokoll") and the hints, and saves the game when
input ends.  Colour goes through ``click.style``, which click strips when
the output is not a terminal.
"""

from __future__ import annotations

import re
import time

import click

from solver.cli.options import SEED, Choice, rules_option, tables_option
from solver.errors import InputError
from solver.game import Game, Move
from solver.position.actions import LOWER_BOUND, Action
from solver.rules.words import LANGS, box_index, box_name, message

HINTS = ("off", "check", "top3", "full")
FULL_HINT = 10                         # actions shown by `hint` and --hints full


# ------------------------------------------------------------------ the card
def protokoll(game: Game, lang: str = "en") -> str:
    """The scorecard as the source texts print it: box rows in card order,
    Sum and Bonus after the upper boxes, Total last; one column per player
    (with several columns per player, a second header line numbers them
    ``x1 x2 x3`` and a last row gives each column's total times its
    weight), the player to move marked ``*``; ``-`` is an open box."""
    mark = None if game.is_over else game.turn_player
    cols = game.rules.columns
    names = [("*" if i == mark else "") + p.name for i, p in enumerate(game.players)]
    rows = [(box_name(row["key"], lang) if row["kind"] == "box" else message(row["key"], lang),
             ["-" if v is None else str(v) for v in row["cells"]]) for row in game.protokoll()]
    label = max(len(r[0]) for r in rows) + 2
    if cols == 1:
        widths = [max(len(h), 3) + 2 for h in names]
        lines = [" " * label + "".join(f"{h:>{w}}" for h, w in zip(names, widths))]
    else:
        cell = max(max(len(v) for _, cells in rows for v in cells), 3) + 2
        group = [max(cell * cols, len(h) + 2) // cols for h in names]
        widths = [w for w in group for _ in range(cols)]
        lines = [" " * label + "".join(f"{h:>{w * cols}}" for h, w in zip(names, group)),
                 " " * label + "".join(f"{'x' + str(c):>{w}}" for w in group
                                       for c in game.rules.column_weights)]
    lines += [f"{name:<{label}}" + "".join(f"{v:>{w}}" for v, w in zip(cells, widths))
              for name, cells in rows]
    return "\n".join(line.rstrip() for line in lines)


# ------------------------------------------------------------------- the coach
class Quit(Exception):
    """The player asked to stop."""


class Coach:
    """One game at the prompt: reads moves and commands, prints the game."""

    def __init__(self, game: Game, table_mode: bool, hints: str, lang: str, autosave: str):
        self.game, self.table_mode, self.hints, self.lang = game, table_mode, hints, lang
        self.autosave = autosave
        self.announced: tuple[int, int] | None = None     # (finished turns, seat) last shown
        self.shown_hint: int | None = None                # moves played when hints were shown

    def say(self, key: str, **kw) -> None:
        click.echo(message(key, self.lang, **kw))

    def action_text(self, action) -> str:
        """An action with the box name in the game's language."""
        if action.kind == "score":
            column = f"@{action.column}" if action.column else ""
            return f"score {box_name(action.box, self.lang)}{column} ({action.points})"
        return str(action)

    def typed(self, move: Move) -> bool:
        """Whether a person typed this move (not a drawn roll, not a computer's choice)."""
        return not move.drawn and (move.is_roll or self.game.players[move.player].is_human)

    # ------------------------------------------------------------- the loop
    def run(self) -> None:
        game = self.game
        while not game.is_over:
            self.announce()
            if game.needs_roll and not self.table_mode:
                self.show_roll(game.play("roll"))
            elif not game.needs_roll and not game.player.is_human:
                seat = game.turn_player
                game.play(game.computer_move())
                self.say("computer", name=game.players[seat].name, kind=game.players[seat].kind,
                         action=self.action_text(Action.parse(game.moves[-1].text)))
                self.after_score()
            else:
                self.ask()
        click.echo(protokoll(game, self.lang))
        self.finish()

    def announce(self) -> None:
        game = self.game
        key = (len(game.turns), game.turn_player)
        if game.dice is None and self.announced != key:
            self.announced = key
            if game.player.is_human:
                click.echo(protokoll(game, self.lang))
            self.say("turn", name=click.style(game.player.name, bold=True),
                     n=game.card.turn + 1, of=game.turns_per_player)

    def show_roll(self, move: Move) -> None:
        game = self.game
        self.say("rolled", name=game.players[move.player].name,
                 dice=" ".join(map(str, game.dice)),
                 left=message("left", self.lang, n=game.rerolls))

    def show_position(self) -> None:
        """After undo or redo: the dice on the table, if any."""
        game = self.game
        if game.dice is not None and not game.needs_roll:
            self.show_roll(game.moves[-1])

    def after_score(self) -> None:
        game = self.game
        last = game.moves[-1]
        if last.text.startswith("score"):
            t = game.turns[-1]
            box = box_name(game.rules.boxes[t.box].name, self.lang)
            self.say("scored", name=game.players[last.player].name, points=t.points,
                     box=box + (f"@{t.column}" if game.rules.columns > 1 else ""))

    def ask(self) -> None:
        game = self.game
        name = game.player.name
        if game.needs_roll:
            kept = game.kept
            prompt = (message("reroll_prompt", self.lang, name=name,
                              n=game.rules.dice - len(kept)) if kept is not None
                      else message("dice_prompt", self.lang, name=name))
        else:
            prompt = message("decide", self.lang, name=name)
            if self.hints in ("top3", "full") and self.shown_hint != len(game.moves):
                self.shown_hint = len(game.moves)
                self.hint(3 if self.hints == "top3" else FULL_HINT)
        line = click.prompt(prompt, default="", show_default=False, prompt_suffix="").strip()
        if not line:
            return
        try:
            if not self.command(line):
                self.move(line)
        except InputError as e:
            click.echo(click.style(f"error: {e}", fg="red"))

    def command(self, line: str) -> bool:
        """Run ``line`` if it is a command; False if it is a move."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        game = self.game
        if word in ("help", "?"):
            self.say("help")
            if game.rules.columns > 1:
                self.say("help_columns")
        elif word == "card":
            click.echo(protokoll(game, self.lang))
        elif word == "hint":
            self.hint(FULL_HINT)
        elif word == "undo":
            if not any(self.typed(m) for m in game.moves):
                raise InputError(message("nothing_undo", self.lang))
            while True:
                move = game.undo()
                if self.typed(move):
                    break
            self.say("undone", move=move.text)
            self.announced = None
            self.show_position()
        elif word == "redo":
            if not game.redo_moves:
                raise InputError(message("nothing_redo", self.lang))
            move = game.redo()
            while game.redo_moves and not self.typed(game.redo_moves[0]):
                game.redo()
            self.say("redone", move=move.text)
            self.show_position()
        elif word == "save":
            if not rest.strip():
                raise InputError("save FILE: name the file")
            game.save(rest.strip())
            self.say("saved", path=rest.strip())
        elif word in ("quit", "exit"):
            raise Quit
        else:
            return False
        return True

    def move(self, line: str) -> None:
        game = self.game
        text = line.lower()
        if game.needs_roll:
            if not text.startswith("roll"):
                text = "roll " + text
            self.show_roll(game.play(text))
            return
        if re.fullmatch(r"[\d\s,]+", text):
            text = "keep " + text                     # 56: keep 5 6
        elif not re.match(r"(keep|score|reroll)\b", text):
            box_index(game.rules, text.partition("@")[0].strip())   # a box alone: score it
            text = "score " + text
        before = game.advice() if self.hints == "check" else None
        game.play(text)
        if before is not None:
            chosen = before.find(game.moves[-1].text)
            if chosen.loss == 0:
                self.say("best")
            else:
                self.say("cost", loss=chosen.loss, best=self.action_text(before.best))
                self.why(before, chosen)
        self.after_score()

    def why(self, advice, chosen) -> None:
        """The sentence saying why a choice cost what it did, where the rules
        have explanations (``Solver.explain``)."""
        try:
            why = self.game.solver.explain(advice.card, advice.dice, advice.rerolls)
        except InputError:
            return
        click.echo(next(e for e in why if e.action == chosen).sentence(self.lang))

    def hint(self, top: int) -> None:
        game = self.game
        bound = game.values == LOWER_BOUND
        if game.needs_roll:
            self.say("expected_bound" if bound else "expected", ev=game.expected_score())
            return
        advice = game.advice()
        if top == 3:
            best = sorted(self.action_text(a) for a in advice.actions[:3])
            self.say("top3", choices=", ".join(best))
            return
        head = "bound" if bound else "expected"
        click.echo(f"{'':>3} {'action':<28} {head:>10} {'loss':>8}")
        for i, a in enumerate(advice.actions[:top], 1):
            loss = "best" if i == 1 else ("tie" if a.loss == 0 else f"-{a.loss:.3f}")
            click.echo(f"{i:>3} {self.action_text(a):<28} {a.expected_final_score:>10.3f} "
                       f"{loss:>8}")
        if bound:
            self.say("bound_note")

    # ------------------------------------------------------------- the end
    def finish(self) -> None:
        game = self.game
        self.say("over")
        ranking = game.ranking()
        for place, seat, score in ranking:
            self.say("place", place=place, name=game.players[seat].name, score=score)
        top = [game.players[s].name for p, s, _ in ranking if p == 1]
        if len(game.players) > 1:
            if len(top) > 1:
                self.say("tie", names=", ".join(top))
            else:
                self.say("winner", name=top[0])
        for seat, player in enumerate(game.players):
            if not player.is_human:
                continue
            review = game.review(seat)
            if review is None:
                continue
            self.say("review", name=player.name, total=review.total_loss,
                     mean=review.mean_loss, n=len(review.decisions))
            for d in review.costliest():
                if d.loss > 0:
                    self.say("costly", turn=d.turn, roll=d.roll,
                             dice=" ".join(map(str, d.dice)), chosen=d.chosen, best=d.best,
                             loss=d.loss)

    def save_on_exit(self) -> None:
        if not self.game.is_over:
            self.game.save(self.autosave)
            click.echo("")
            self.say("saved", path=self.autosave)


# ----------------------------------------------------------------- the command
@click.command()
@rules_option
@tables_option
@click.option("--player", "players", multiple=True, metavar="NAME[=KIND]",
              help="A seat, in playing order (repeat, up to 6): NAME for a person, "
                   "NAME=optimal|greedy|simple for a computer (several columns: "
                   "NAME=optimal|step) [default: one person].")
@click.option("--seed", type=SEED, default=None, metavar="S",
              help="Seed of the dice the program rolls [default: random].")
@click.option("--dice-from-table", "table_mode", is_flag=True,
              help="Roll real dice and type them (else the program rolls).")
@click.option("--hints", type=Choice(HINTS), default="off", show_default=True, metavar="MODE",
              help="off | check (after each choice: its cost) | top3 (the three best, "
                   "unranked) | full (the ranked list).")
@click.option("--lang", type=Choice(LANGS), default="en", show_default=True, metavar="LANG",
              help="Box names and messages: en | nb | sv.")
@click.option("--resume", metavar="FILE", help="Continue a saved game.")
@click.option("--autosave", metavar="FILE",
              help="Where the game is saved when input ends or on Ctrl-C "
                   "[default: the --resume file, else yatzy-game-TIME.json here].")
def play(rules_spec: str, tables_dir: str | None, players: tuple[str, ...], seed: int | None,
         table_mode: bool, hints: str, lang: str, resume: str | None,
         autosave: str | None) -> None:
    """Play a game at the table, with a coach: yatzy play --player Ann --player Bob=optimal."""
    if resume:
        game = Game.load(resume, tables=tables_dir)
    else:
        game = Game(rules_spec, players or ("Player",), seed=seed, tables=tables_dir)
    autosave = autosave or resume or time.strftime("yatzy-game-%Y%m%d-%H%M%S.json")
    coach = Coach(game, table_mode, hints, lang, autosave)
    try:
        coach.run()
    except (click.Abort, KeyboardInterrupt, EOFError, Quit):
        coach.save_on_exit()


COMMANDS = (play,)
