"""Which of the last events fit beside the card on the steady screen.

Each event is ``(kind, text)``: ``turn`` (whose turn it is, and the line
of who leads), ``hint`` (the rows of the last hint list), ``verdict``
(check mode's judgement of a person's choice, with the box it wrote) or
``event``. When not all fit, the latest turn's lines come first, then
the verdicts of the last turn judged (seen at the next prompt, past the
computers' turns played since), then the top of the last hint list (its
header and moves 1-3), then what came after that list (the answer to
``tips MOVE``), then the rest of the list from the top, then the other
events newest first (not an older hint list: its advice was for other
dice); what is shown keeps its order.

    >>> events = [("event", "old"), ("turn", "Kari's turn"), ("hint", "   move  loss"),
    ...           ("hint", " 1 keep 6 6  best"), ("hint", " 2 keep 6  -0.4"),
    ...           ("event", "keep 6: best choice")]
    >>> fit(events, 5, 30)
    ["Kari's turn", '   move  loss', ' 1 keep 6 6  best', ' 2 keep 6  -0.4', 'keep 6: best choice']
    >>> fit(events, 3, 30)
    ["Kari's turn", '   move  loss', ' 1 keep 6 6  best']
    >>> fit(events, 10, 30)[0]
    'old'
    >>> judged = [("verdict", "best choice"), ("verdict", "Kari writes 26 in chance"),
    ...           ("event", "Ola rolls 1 2 3 4 5"), ("event", "Ola writes 15 in small straight"),
    ...           ("turn", "Kari's turn")]
    >>> old = [("hint", "   move  loss"), ("hint", " 1 keep 5 5  best"), ("event", "rolled 6 6")]
    >>> fit(old + events[1:], 10, 30)[:2]          # the older list is not shown
    ['rolled 6 6', "Kari's turn"]
    >>> fit(judged, 4, 40)
    ['best choice', 'Kari writes 26 in chance', 'Ola writes 15 in small straight', "Kari's turn"]

An event longer than its room is wrapped between phrases (``rows_of``):
after a comma, colon, semicolon or ``·``, before a parenthesis of several
words; a phrase longer than a row is wrapped between words, a box's name
(with its column and points) and the dice kept whole.
"""

from __future__ import annotations

import re
import textwrap
from typing import Iterable

import click

HINT_ROWS = 4                    # the hint list's header and moves 1-3 come before the rest
VERDICT = "verdict"              # the kind of check mode's judgement of a choice
PHRASE_BREAK = re.compile(r"(?<=[,:;·])\s+|\s+(?=\([^()]*\s[^()]*\))")
DICE = r"\d(?: \d)+"               # the dice: single digits, one space apart


def phrases(text: str) -> list[str]:
    """The phrases of ``text``: broken after a comma, colon, semicolon or
    ``·`` and a space, and before a parenthesis of several words (not in
    ``11,12`` nor before ``(10)``).

    >>> phrases("Kari kaster 4 4 5 6 6, 2 kast igjen")
    ['Kari kaster 4 4 5 6 6,', '2 kast igjen']
    >>> phrases("Ola leder med 2 · Kari trenger 19 til bonus (1 bak tre av hver)")
    ['Ola leder med 2 ·', 'Kari trenger 19 til bonus', '(1 bak tre av hver)']
    >>> phrases("det kostet 11,12 poeng; beste var skriv to par (10)")
    ['det kostet 11,12 poeng;', 'beste var skriv to par (10)']
    """
    return PHRASE_BREAK.split(text.strip())


def alternatives(words: Iterable[str]) -> str:
    """A regular expression matching any of ``words``, the longest first."""
    return "|".join(map(re.escape, sorted({w for w in words if w}, key=len, reverse=True)))


def units(phrase: str, together: Iterable[str] = (), lead: Iterable[str] = ()) -> list[str]:
    """The words of ``phrase``, a name of ``together`` (a box's, with its
    column ``@2`` and points ``(10)`` after it) and the dice each one word,
    with a word of ``lead`` before them (the verbs ``skriv``, ``behold``).

    >>> units("Anne (optimal): skriv to par@2 (18)", ["to par", "hus"])
    ['Anne', '(optimal):', 'skriv', 'to par@2 (18)']
    >>> units("beste var skriv to par (18)", ["to par"], ["skriv", "behold"])
    ['beste', 'var', 'skriv to par (18)']
    >>> units("Kari kaster 2 3 4 5 5, 1 kast igjen")
    ['Kari', 'kaster', '2 3 4 5 5,', '1', 'kast', 'igjen']
    """
    names, verbs = alternatives(together), alternatives(lead)
    before = rf"(?:(?:{verbs}) )?" if verbs else ""
    whole = [rf"{before}(?:{names})(?:@\d+)?(?: \(\d+\))?"] if names else []
    return re.findall("|".join(rf"(?<!\S){w}[,:;.]?(?!\S)" for w in [*whole, before + DICE])
                      + r"|\S+", phrase)


def wrap(text: str, room: int, together: Iterable[str] = (),
         lead: Iterable[str] = ()) -> list[str]:
    """``text`` in rows of at most ``room`` characters, broken between
    phrases (``phrases``): a phrase that does not fit in what is left of a
    row starts the next; one longer than a row is broken between its
    ``units`` (a unit longer than a row: its verb apart, then anywhere).

    >>> wrap("Anne (optimal): skriv ett par (10)", 24, ["ett par"])
    ['Anne (optimal):', 'skriv ett par (10)']
    >>> wrap("det kostet 11,12 poeng; beste var skriv fire like (24)", 24,
    ...      ["fire like"], ["skriv"])
    ['det kostet 11,12 poeng;', 'beste var', 'skriv fire like (24)']
    >>> wrap("beste var skriv liten straight (15)", 20, ["liten straight"], ["skriv"])
    ['beste var skriv', 'liten straight (15)']
    """
    rows: list[str] = []
    row = ""

    def add(piece: str) -> None:
        nonlocal row
        if row and len(row) + 1 + len(piece) <= room:
            row += " " + piece
        else:
            if row:
                rows.append(row)
            row = piece

    for phrase in phrases(text):
        if len(phrase) <= room:
            add(phrase)
            continue
        if row:                                # a long phrase starts a row of its own
            rows.append(row)
            row = ""
        for unit in units(phrase, together, lead):
            # too long with its verb: without it; a name longer than a row: anywhere
            for part in [unit] if len(unit) <= room else units(unit, together):
                for piece in [part] if len(part) <= room else textwrap.wrap(part, room):
                    add(piece)
    return rows + [row] if row or not rows else rows


def rows_of(text: str, room: int, together: Iterable[str] = (),
            lead: Iterable[str] = ()) -> list[str]:
    """An event as the rows it takes in ``room`` columns (wrapped without
    colour when too long, ``wrap``; the names of ``together`` kept whole,
    with a word of ``lead`` before them)."""
    plain = click.unstyle(text)
    return [text] if len(plain) <= room else wrap(plain, room, together, lead)


def order(events: list[tuple[str, str]]) -> list[int]:
    """The events' indices in the order they are given room."""
    turn = max((i for i, (k, _) in enumerate(events) if k == "turn"), default=-1)
    first = turn
    while first > 0 and events[first - 1][0] == "turn":
        first -= 1
    pinned = list(range(first, turn + 1)) if turn >= 0 else []
    hints = [i for i, (k, _) in enumerate(events) if k == "hint" and i > turn]
    if hints:                                   # the last hint list only
        start = hints[-1]
        while start - 1 in hints:
            start -= 1
        hints = [i for i in hints if i >= start]
    verdict = [i for i, (k, _) in enumerate(events) if k == VERDICT]
    if verdict:                                 # the last turn's verdicts that have one
        begun = max((i for i, (k, _) in enumerate(events) if k == "turn" and i < verdict[-1]),
                    default=-1)
        verdict = [i for i in verdict if i > begun]
    stale = {i for i, (k, _) in enumerate(events) if k == "hint"} - set(hints)   # other rolls'
    rest = [i for i in range(len(events) - 1, -1, -1)
            if i not in pinned and i not in hints and i not in stale]
    last = hints[-1] if hints else turn
    answer = [i for i in rest if i > last]                 # what came after the hint list
    between = [i for i in rest if turn < i < last]
    ranked = (pinned + verdict + hints[:HINT_ROWS] + answer + hints[HINT_ROWS:] + between
              + [i for i in rest if i < turn])
    return list(dict.fromkeys(ranked))


def fit(events: list[tuple[str, str]], height: int, room: int,
        together: Iterable[str] = (), lead: Iterable[str] = ()) -> list[str]:
    """The rows of the events that fit in ``height`` rows of ``room``
    columns (the module's order of room), in their own order; the names of
    ``together`` (the boxes') are not broken, nor kept from a word of
    ``lead`` before them (the verbs)."""
    together, lead = tuple(together), tuple(lead)
    chosen: set[int] = set()
    used, full = 0, set()                  # kinds that stopped fitting: no gaps in them
    for i in order(events):
        kind = events[i][0]
        n = len(rows_of(events[i][1], room, together, lead))
        if kind in full:
            continue
        if used + n <= height:
            chosen.add(i)
            used += n
        else:
            full.add(kind)
    return [row for i in sorted(chosen) for row in rows_of(events[i][1], room, together, lead)]
