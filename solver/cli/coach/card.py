"""The scorecard ("protokoll") as text, as wide as the terminal allows."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field, replace

import click

from yatzy.cli.coach.texts import cut
from yatzy.game import Game
from yatzy.rules.ruleset import Order
from yatzy.rules.words import box_name, message

MIN_NAME = 4                     # a name is cut to no fewer characters to make a card fit
FOLDS = ("sum_bonus", "bank", "sum", "weighted", "head")
# what a card too tall for the screen gives up, in order


@dataclass
class Sheet:
    """What a card shows: the row labels and their cells (one per column of
    every player), the players' names, the seat to move (None at game over),
    the columns per player and the cell last written (row, column) if any."""

    rows: list[tuple[str, list[str]]]
    names: list[str]                                   # as shown: cut to fit, without ``*``
    mark: int | None
    cols: int
    last: tuple[int, int] | None = None
    keys: list[str] = field(default_factory=list)      # each row's key (``Game.protokoll``)
    gap: int = 2                                       # spaces before a name (1 when tight)
    star: bool = True                                  # ``*`` before the player to move's name
    one_head: bool = False                             # the mover's name beside ``@1 @2 @3``

    @property
    def label(self) -> int:
        return max(len(r[0]) for r in self.rows) + 2

    def head(self, seat: int) -> str:
        """A player's name over their columns, ``*`` before the player to move's."""
        return ("*" if seat == self.mark and self.star else "") + self.names[seat]


def cut_apart(names: list[str], n: int, whole: int | None = None) -> list[str]:
    """Each name cut to ``n`` characters (``texts.cut``), longer where two
    would read alike, the one of seat ``whole`` not at all.

    >>> cut_apart(["Mormor", "Morfar", "Kari"], 4)
    ['Morm…', 'Morf…', 'Kari']
    >>> cut_apart(["Mormor", "Morfar"], 4, whole=0)
    ['Mormor', 'Mor…']
    """
    out = [name if i == whole else cut(name, n) for i, name in enumerate(names)]
    for k in range(n + 1, max(map(len, names), default=0) + 1):
        alike = {c for c in out if out.count(c) > 1}
        if not alike:
            break
        out = [cut(name, k) if c in alike and i != whole else c
               for i, (name, c) in enumerate(zip(names, out))]
    return out


def sheet(game: Game, lang: str) -> Sheet:
    """The card's rows in ``lang``: ``-`` an open box (or an undecided bonus);
    under forced order the box due is marked ``>``."""
    mark = None if game.is_over else game.turn_player
    rules, cols = game.rules, game.rules.columns
    due = None
    if mark is not None and rules.order == Order.FORCED and cols == 1:
        allowed = game.card.allowed_boxes()
        due = rules.boxes[allowed[0]].name if len(allowed) == 1 else None
    rows, last, written = [], None, game.turns[-1] if game.turns else None
    keys = [row["key"] for row in game.protokoll()] + (["weighted_sum"] if cols > 1 else [])
    for row in game.protokoll():
        cells = ["-" if v is None else str(v) for v in row["cells"]]
        label = (box_name(row["key"], lang) if row["kind"] == "box"
                 else message(row["key"], lang))
        if due is not None and row["key"] == due:
            label = "> " + label
        if written is not None and row["key"] == rules.boxes[written.box].name:
            last = (len(rows), written.player * cols + written.column - 1)
        rows.append((label, cells))
    if cols > 1:                        # each player's weighted total, during the game too
        rows.append(("Σ", [str(score) if c == cols - 1 else ""
                           for score in game.scores() for c in range(cols)]))
    return Sheet(rows, [p.name for p in game.players], mark, cols, last, keys)


def folded(card: Sheet, step: str) -> Sheet:
    """``card`` a row shorter where ``step`` (``FOLDS``) applies: the bonus
    written beside the upper sum (``63+50``), the bank of saved rerolls
    left out (the dice line says the rerolls of the player to move), the
    upper sum left out (the bonus is said in words), the row of weighted
    column totals left out (Σ says their sum), or with several columns the
    mover's name written before ``@1 @2 @3`` (one header row)."""
    keys, rows = list(card.keys), list(card.rows)
    if step == "sum_bonus" and "sum" in keys and "bonus" in keys:
        i, j = keys.index("sum"), keys.index("bonus")
        cells = [s if b in ("-", "") else f"{s}+{b}" for s, b in zip(rows[i][1], rows[j][1])]
        rows[i] = (f"{rows[i][0]}+{rows[j][0].lower()}", cells)
        gone = j
    elif step in ("bank", "sum", "weighted") and step in keys:
        gone = keys.index(step)
    elif step == "head" and card.cols > 1:
        return replace(card, one_head=True)
    else:
        return card
    del rows[gone], keys[gone]
    last = card.last
    if last is not None and last[0] > gone:
        last = (last[0] - 1, last[1])
    return replace(card, rows=rows, keys=keys, last=last)


def cell_text(v: str, w: int, hot: bool, last: bool) -> str:
    """A cell right-aligned in ``w``; the player to move's in bold cyan, the
    box just written reversed (``hot``, ``last``: only when highlighting)."""
    text = f"{v:>{w}}"
    if last:
        return click.style(text, reverse=True, bold=hot, fg="cyan" if hot else None)
    return click.style(text, bold=True, fg="cyan") if hot else text


def body(card: Sheet, columns: list[list[str]], widths: list[int], hot: list[bool],
         index: list[int | None], highlight: bool) -> list[str]:
    """The card's rows: each label, then the cells ``columns[row]``;
    ``index`` gives each shown cell's column on the whole card (to find the
    one just written), ``hot`` which are highlighted."""
    out = []
    for r, ((name, _), row) in enumerate(zip(card.rows, columns)):
        cells = "".join(cell_text(v, w, h, highlight and card.last == (r, j))
                        for v, w, h, j in zip(row, widths, hot, index))
        out.append((f"{name:<{card.label}}" + cells).rstrip())
    return out


def render(card: Sheet, seats: list[int], highlight: bool) -> list[str]:
    """The columns of ``seats``, a name over each (several columns: a second
    header line numbers them ``@1 @2 @3``, as a move names them)."""
    pad, cols = " " * card.label, card.cols
    names = [card.head(i) for i in range(len(card.names))]
    if cols == 1:
        widths = [max(len(names[i]), 3) + card.gap for i in seats]
        head = [pad + "".join(f"{names[i]:>{w}}" for i, w in zip(seats, widths))]
        idx: list[int | None] = list(seats)
    else:
        idx = [i * cols + c for i in seats for c in range(cols)]
        cell = max(max(len(cells[j]) for _, cells in card.rows for j in idx), 3) + 2
        group = [max(cell * cols, len(names[i]) + 2) // cols for i in seats]
        widths = [w for w in group for _ in range(cols)]
        head = [pad + "".join(f"{names[i]:>{w * cols}}" for i, w in zip(seats, group)),
                pad + "".join(f"{'@' + str(c + 1):>{w}}" for w in group for c in range(cols))]
    hot = [highlight and i == card.mark for i in seats for _ in range(cols)]
    columns = [[cells[j] for j in idx] for _, cells in card.rows]
    return [line.rstrip() for line in head] + body(card, columns, widths, hot, idx, highlight)


def render_mover(card: Sheet, game: Game, highlight: bool) -> list[str]:
    """The player to move's columns and their weighted sum Σ (in a column
    of its own: the card's Σ row is left out)."""
    card = replace(card, rows=card.rows[:-1])
    mark, cols, pad = card.mark, card.cols, " " * card.label
    own = list(range(mark * cols, mark * cols + cols))
    last = len(card.rows) - 1
    columns = [[cells[j] for j in own] + ([str(game.scores()[mark])] if r == last else [""])
               for r, (_, cells) in enumerate(card.rows)]
    cell = max(max(len(v) for row in columns for v in row), 3) + card.gap
    w = cell if card.one_head else max(cell, -(-(len(card.head(mark)) + 2) // (cols + 1)))
    numbers = "".join(f"{'@' + str(c + 1):>{w}}" for c in range(cols)) + f"{'Σ':>{w}}"
    if card.one_head:                           # the name where the labels are
        head = [f"{cut(card.head(mark), card.label - 1):<{card.label}}" + numbers]
    else:
        head = [pad + f"{card.head(mark):>{w * (cols + 1)}}", pad + numbers]
    return head + body(card, columns, [w] * (cols + 1), [highlight] * (cols + 1),
                       [*own, None], highlight)


def others_line(game: Game, mark: int, width: int) -> list[str]:
    """The other players' weighted totals under the player to move's
    columns: one line, the names cut (to ``MIN_NAME`` at least) until it
    fits ``width``, else wrapped.

    >>> g = Game("triple", ["Kari", "Alexander", "Bernadette", "Christoffer", "Dorothea",
    ...                     "Evangeline"])
    >>> others_line(g, 0, 53)
    ['Alexan… 0  Bernad… 0  Christ… 0  Doroth… 0  Evange… 0']
    """
    scores = game.scores()
    for n in range(12, MIN_NAME - 1, -1):
        line = "  ".join(f"{cut(game.players[i].name, n)} {scores[i]}"
                         for i in range(len(game.players)) if i != mark)
        if len(line) <= width:
            return [line]
    return textwrap.wrap(line, max(width, 20))


def wide(lines: list[str]) -> int:
    return max(len(click.unstyle(line)) for line in lines)


def protokoll(game: Game, lang: str = "en", highlight: bool = False,
              width: int | None = None, height: int | None = None) -> str:
    """The scorecard as the source texts print it: box rows in card order,
    Sum and Bonus after the upper boxes, Total last; one column per player
    (with several columns per player, a second header line numbers them
    ``@1 @2 @3`` as a move names them, a row gives each column's total
    times its weight and a last row Σ the player's score), the player to
    move marked ``*``; ``-`` is an
    open box (or a bonus not yet decided).  ``highlight``: the columns of
    the player to move in bold, the box just written reversed.

    ``width``: the most characters a line may have.  A card wider than that
    shows, with several columns, only the player to move's columns and
    their weighted sum Σ, the other players' scores in a line under them;
    otherwise the names are cut (to ``MIN_NAME`` characters at least), and
    if it is still too wide, the players next to the player to move (its
    name whole) that fit, or at game over the players in groups that fit,
    one under another.  ``height``: the most lines; a card taller gives up rows
    (``folded``) until it fits or nothing more can go (Maxi Yatzy at 24
    rows); at game over, groups of several columns still taller show the
    winner's columns and the others' totals under them, as during the
    game.

    >>> len(protokoll(Game("maxi", ["Kari"]), "nb").splitlines())
    25
    >>> short = protokoll(Game("maxi", ["Kari"]), "nb", height=22).splitlines()
    >>> len(short), [line.split()[0] for line in short[6:9]]
    (22, ['seksere', 'ett', 'to'])
    """
    whole = card = sheet(game, lang)
    text = fitted(card, game, highlight, width)
    for step in FOLDS:
        if height is None or len(text.splitlines()) <= height:
            break
        card = folded(card, step)
        text = fitted(card, game, highlight, width)
    if height is not None and len(text.splitlines()) > height and card.mark is None:
        # game over, the groups taller than the screen: the winner's columns
        # (the first seat of the best score), with several columns the
        # others' totals under them, else the players next to the winner;
        # the rows given up again only as far as need be
        scores = game.scores()
        top = replace(whole, mark=scores.index(max(scores)), star=False)
        room = width or wide(text.splitlines())
        for step in ("", *FOLDS):
            top = folded(top, step) if step else top
            text = ("\n".join(render_mover(top, game, highlight)
                              + others_line(game, top.mark, room))
                    if top.cols > 1 else fitted(top, game, highlight, width))
            if len(text.splitlines()) <= height:
                break
    return text


def fitted(card: Sheet, game: Game, highlight: bool, width: int | None) -> str:
    """The card's text no wider than ``width`` (``protokoll``)."""
    everyone = list(range(len(game.players)))
    lines = render(card, everyone, highlight)
    if width is None or wide(lines) <= width:
        return "\n".join(lines)
    if card.cols > 1 and card.mark is not None:
        mover = render_mover(card, game, highlight)
        if wide(mover) > width:                  # the cells closer together
            mover = render_mover(replace(card, gap=1), game, highlight)
        return "\n".join(mover + others_line(game, card.mark, width))
    longest = max(map(len, card.names))
    for gap in (2, 1):                         # the names cut, then closer together
        for n in range(longest - (gap == 2), MIN_NAME - 1, -1):
            lines = render(replace(card, names=cut_apart(card.names, n, card.mark), gap=gap),
                           everyone, highlight)
            if wide(lines) <= width:
                return "\n".join(lines)
    if card.mark is not None:
        return "\n".join(around(card, highlight, width))
    card = replace(card, names=cut_apart(card.names, MIN_NAME))
    parts, group = [], []                      # players in groups that fit, one under another
    for i in everyone:
        if group and wide(render(card, group + [i], highlight)) > width:
            parts.append("\n".join(render(card, group, highlight)))
            group = []
        group.append(i)
    parts.append("\n".join(render(card, group, highlight)))
    return "\n\n".join(parts)


def around(card: Sheet, highlight: bool, width: int) -> list[str]:
    """The columns of the most players next to one another that fit in
    ``width`` with the player to move's (its name whole), the player to
    move as near their middle as the seats allow; the others' names cut
    (``cut_apart``) no more than needed.

    >>> g = Game("nordic", ["Mormor", "Morfar", "Kari", "Ida", "Ola", "Bjørnar"])
    >>> for _ in range(3):
    ...     _ = g.play("roll 1 2 3 4 5"), g.play("score chance")
    >>> around(sheet(g, "nb"), False, 33)[0].split()
    ['Kari', '*Ida', 'Ola']
    """
    n, mark = len(card.names), card.mark
    for k in range(n - 1, 0, -1):
        starts = sorted(range(max(0, mark - k + 1), min(mark, n - k) + 1),
                        key=lambda s: abs(s + (k - 1) / 2 - mark))
        for gap, cut_to in ((g, c) for g in (2, 1)
                            for c in range(max(map(len, card.names)), MIN_NAME - 1, -1)):
            shown = replace(card, names=cut_apart(card.names, cut_to, mark), gap=gap)
            for s in starts:
                lines = render(shown, list(range(s, s + k)), highlight)
                if wide(lines) <= width:
                    return lines
    return render(card, [mark], highlight)
