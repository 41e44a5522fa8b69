"""A session at the table: one ``Game`` and the rules of playing it together,
written once for every front end (the coach, the page, the shared tables).

What a front end may do it passes in as a ``Capability`` (the seats it acts
for, and whether it is the table's creator); the session checks it, so no
front end decides who may act.  The terminal holds every seat
(``EVERYONE``); a phone at a shared table holds the seat its token names.

Rights (``Session.may``):

* **move**: the player to move's seat (or the admin); a computer's move,
  any holder of a seat.
* **undo**: takes back the last move a person made (a typed roll, a keep,
  a score), with the drawn rolls and computer moves after it; only the
  holder of that person's seat (or the admin) may.  Under the ``fair``
  rule (the default with two or more people) a choice may not be taken
  back once dice were drawn after it, whoever's they were: every player
  has seen them; ``free`` allows it and marks the game
  (``settings["free_undo_used"]``).  Either way a drawn roll once taken
  back is never drawn again (``yatzy.game``: the next roll draws fresh
  dice), so no undo shows the dice to come.
* **redo**: plays again what an undo took back, the same steps; only the
  holder of the seat whose move comes back first (or the admin).
* **claim** a free seat: anyone at the table; **release** a seat: its
  holder or the admin.
* **propose** the next game: any holder of a seat or the admin; **accept**
  it, **follow** a table with a new one: the admin (a shared table also
  counts the agreement of every claimed seat, ``yatzy.web.shared``).

The loss ledger keeps each person's decision's loss against the optimal
strategy, move by move, valued exactly as the end review values it
(``yatzy.players.judge``): an undo drops it, a redo or a resumed
game computes the same number again, and once a turn is written a seat's
running loss is the review's total for it, bit for bit::

    >>> from yatzy.game import Game
    >>> s = Session(Game("nordic", ["Ann", "Bob"], seed=1))
    >>> s.play("roll 11256", Capability.of(1))
    Traceback (most recent call last):
      ...
    yatzy.session.SessionError: it is Ann's move, not Bob's
    >>> _ = s.play("roll 11256"); _ = s.play("keep 1 1"); _ = s.play("roll 126")
    >>> s.last_move()
    LastMove(seat=0, name='Ann', text='roll 1 2 6', points=None)
    >>> _ = s.play("score ones")
    >>> s.loss(0) == s.review(0).total_loss > 0
    True
    >>> [m.text for m in s.undo()], s.loss(0) == s.losses()[1]
    (['score ones (3)'], True)

The bonus pace (``bonus_pace``) and who leads (``standings``) are data for
the front end to draw.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from yatzy.errors import InputError
from yatzy.game import MAX_PLAYERS, Game, Move, Position
from yatzy.position.scorecard import Scorecard
from yatzy.players.judge import Written, judge
from yatzy.players.ledger import Review
from yatzy.players.policy import seat_move
from yatzy.rules.ties import tolerance
from yatzy.scorepad import is_pad, mark_written, pad_moves, pad_texts, unrated

UNDO_RULES = ("fair", "free")
RIGHTS = ("move", "undo", "redo", "claim", "release", "propose", "accept", "follow")


class SessionError(InputError):
    """A right the capability does not have, or nothing to undo or redo:
    ``kind`` names it (``not_yours``, ``not_admin``, ``nothing_undo``,
    ``nothing_redo``, ``fair_undo``) and ``fields`` its particulars; the
    text is the English line."""

    def __init__(self, kind: str, line: str, /, **fields):
        super().__init__(line)
        self.kind, self.fields = kind, fields


@dataclass(frozen=True)
class Capability:
    """What a front end may act for: ``seats`` (seat numbers) and ``admin``
    (the table's creator, who may act for every seat).

    >>> Capability.of(1).holds(1), Capability.of(1).holds(0), EVERYONE.holds(5)
    (True, False, True)
    """

    seats: frozenset[int] = frozenset()
    admin: bool = False

    @classmethod
    def of(cls, *seats: int, admin: bool = False) -> "Capability":
        return cls(frozenset(seats), admin)

    def holds(self, seat: int) -> bool:
        return self.admin or seat in self.seats

    @property
    def anybody(self) -> bool:
        """Whether it holds any seat at all (a watcher holds none)."""
        return self.admin or bool(self.seats)


EVERYONE = Capability(frozenset(range(MAX_PLAYERS)), admin=True)   # the local terminal
ANY_SEAT = Capability(frozenset(range(MAX_PLAYERS)))    # a phone where any phone may move
NOBODY = Capability()                                   # a watcher


@dataclass(frozen=True)
class LastMove:
    """The last move for the other phones: who, what, and a score's points."""

    seat: int
    name: str
    text: str
    points: int | None


@dataclass(frozen=True)
class Standing:
    """One seat's place (equal scores share one), score (several columns:
    weighted) and the points it is behind the leader (0 for the leader)."""

    place: int
    seat: int
    name: str
    score: int
    behind: int


def check_right(right: str, by: Capability, seat: int | None = None) -> None:
    """The rights that do not depend on the game's position (``Session.check``
    has the others): claim (anyone), release (the seat's holder), propose
    (any holder of a seat), accept and follow (the admin); SessionError
    ``not_yours`` or ``not_admin`` where ``by`` may not.

    >>> check_right("accept", Capability.of(0))
    Traceback (most recent call last):
      ...
    yatzy.session.SessionError: only the table's creator may accept a game
    """
    if right == "claim":
        return
    if right == "release":
        if seat is None or not by.holds(seat):
            raise SessionError("not_yours", f"only seat {seat}'s phone may release it",
                               right=right)
    elif right == "propose":
        if not by.anybody:
            raise SessionError("not_yours", "only a player at the table may propose a game",
                               right=right)
    elif right in ("accept", "follow"):
        if not by.admin:
            raise SessionError("not_admin", f"only the table's creator may {right} a game",
                               right=right)
    else:
        raise ValueError(f"no right {right!r}")


def bonus_pace(column: Scorecard) -> float | None:
    """How far a column's filled upper boxes are ahead of (+) or behind (−)
    the pace of the upper bonus: each against its face times the bonus
    threshold over the sum of the upper faces (3 of each in Nordic Yatzy);
    None where the rules have no bonus, no upper box is filled yet or the
    bonus is decided.

    >>> from yatzy.rules.ruleset import parse_rules
    >>> r = parse_rules("nordic")
    >>> bonus_pace(Scorecard.parse("ones=4,sixes=12", r))
    -5.0
    """
    rules = column.rules
    upper = [(i, b) for i, b in enumerate(rules.boxes) if b.is_upper]
    faces = sum(b.face for _, b in upper)
    if not rules.bonus_points or not faces or column.bonus:
        return None
    filled = [column.points[i] is not None for i, _ in upper]
    if all(filled) or not any(filled):
        return None
    pace = rules.bonus_threshold / faces
    return sum(column.points[i] - pace * b.face for i, b in upper
               if column.points[i] is not None)


def bonus_needed(column: Scorecard) -> int | None:
    """The points a column's upper boxes still need for the bonus; None
    where the rules have no bonus or it is decided (won, or out of reach
    with every upper box filled).

    >>> from yatzy.rules.ruleset import parse_rules
    >>> bonus_needed(Scorecard.parse("ones=4,sixes=12", parse_rules("nordic")))
    47
    """
    rules = column.rules
    upper = [i for i, b in enumerate(rules.boxes) if b.is_upper]
    if not rules.bonus_points or not upper or column.bonus:
        return None
    if all(column.points[i] is not None for i in upper):
        return None
    return max(rules.bonus_threshold - column.upper_total, 0)



class Book:
    """What a session shows of its game (a mixin of ``Session``, which
    keeps ``game`` and the ledger's state): the loss ledger, the pace,
    standings, lead, last move and review."""

    game: Game
    _ledger: list[tuple[Move, Position, float | None, bool]]
    _known: dict[tuple[Move, Position], float | None]

    # ------------------------------------------------------------ the ledger
    def losses(self) -> tuple[float | None, ...]:
        """Each move's loss, as the moves are (``Game.moves``): a person's
        keep or score its loss against the best choice (0 within the
        tolerance), None for a roll, a computer's move or a box written
        from a score pad (``yatzy.scorepad.pad_moves``: its dice are the
        pad's, not the table's)."""
        self._sync()
        return tuple(loss for _, _, loss, _ in self._ledger)

    def loss(self, seat: int) -> float:
        """The seat's running loss: the sum of its decisions' losses, in order."""
        moves = self.game.moves
        return sum(loss for move, loss in zip(moves, self.losses())
                   if move.player == seat and loss is not None)

    def ledger(self) -> dict[int, float]:
        """Each person's running loss, by seat."""
        return {seat: self.loss(seat) for seat, p in enumerate(self.game.players) if p.is_human}

    def unrated(self) -> dict[int, int]:
        """Each person's turns written from a score pad, which the ledger
        and the review leave unrated, by seat."""
        counts = unrated(self.game)
        return {seat: counts[seat] for seat, p in enumerate(self.game.players) if p.is_human}

    def _sync(self) -> None:
        """The ledger brought to the game's moves: kept where they are the
        same (and the pad's as before), valued again (or taken from the
        moves valued before) after; the pad's moves are not valued."""
        history = self.game.history()
        n = 0
        pad = pad_moves(self.game)
        while n < min(len(history), len(self._ledger)) and \
                history[n] == self._ledger[n][:2] and (n in pad) == self._ledger[n][3]:
            n += 1
        del self._ledger[n:]
        afters = [pos for _, pos in history[1:]] + [self.game.position]
        for i, ((move, before), after) in enumerate(zip(history[n:], afters[n:]), n):
            if i in pad:                    # not valued: its dice are the pad's
                self._ledger.append((move, before, None, True))
                continue
            key = (move, before)
            if key not in self._known:
                if len(self._known) > 4096:
                    self._known.clear()
                self._known[key] = self._value(move, before, after)
            self._ledger.append((move, before, self._known[key], False))

    def _value(self, move: Move, before: Position, after: Position) -> float | None:
        game = self.game
        if move.is_roll or not game.players[move.player].is_human:
            return None
        card = before.cards[move.player]
        if len(after.turns) > len(before.turns):            # a score
            t = after.turns[-1]
            choice = Written(t.box, game.rules.play.label(t.column))
        else:
            choice = after.kept[-1]
        rerolls = card.max_rerolls - (len(before.rolls) - 1)
        loss = judge(game.solver.table, game.solver.turn(card), card, before.rolls[-1], rerolls,
                     choice)[2]
        return 0.0 if loss <= tolerance(game.solver.table) else loss

    # ------------------------------------------------------- what is shown
    def pace(self) -> list[list[float | None]]:
        """``bonus_pace`` of every column of every seat's card."""
        return [[bonus_pace(c) for c in card.columns] for card in self.game.cards]

    def standings(self) -> list[Standing]:
        """Every seat, best first (several columns: weighted totals)."""
        ranking = self.game.ranking()
        top = ranking[0][2]
        return [Standing(place, seat, self.game.players[seat].name, score, top - score)
                for place, seat, score in ranking]

    def results(self) -> list[tuple[str, int, int, float | None]]:
        """Every seat's ``(name, score, place, loss)``, seat by seat (the
        loss a person's running loss, None for a computer): what a finished
        game's record keeps (``yatzy.history.record``)."""
        places = {s.seat: s.place for s in self.standings()}
        ledger = self.ledger()
        return [(p.name, self.game.cards[i].score, places[i], ledger.get(i))
                for i, p in enumerate(self.game.players)]

    def lead(self) -> tuple[list[int], int]:
        """Who leads now (several seats when level) and by how much over the
        next score (0 when level or alone)."""
        ranking = self.game.ranking()
        top = [seat for place, seat, _ in ranking if place == 1]
        rest = [score for place, _, score in ranking if place != 1]
        return top, (ranking[0][2] - rest[0] if rest else 0)

    def bonus_needs(self) -> list[list[int | None]]:
        """``bonus_needed`` of every column of every seat's card."""
        return [[bonus_needed(c) for c in card.columns] for card in self.game.cards]

    def last_move(self) -> LastMove | None:
        """The last move played (None before the first)."""
        game = self.game
        if not game.moves:
            return None
        move = game.moves[-1]
        points = None
        if move.is_score and game.turns:
            points = game.turns[-1].points
        return LastMove(move.player, game.players[move.player].name, move.text, points)

    def review(self, seat: int) -> Review | None:
        """The end review of a seat (``Game.review``) without the turns
        written from a score pad: its total is ``loss(seat)`` once the
        seat's turn is written (None before, or where every turn is the
        pad's)."""
        game = self.game
        pad = pad_moves(game)
        if not pad:
            return game.review(seat)
        scored = [i for i, m in enumerate(game.moves)
                  if m.player == seat and m.is_score]
        padded = {t for t, i in enumerate(scored, 1) if i in pad}
        review = game.review(seat) if len(padded) < len(scored) else None
        kept = review and tuple(d for d in review.decisions if d.turn not in padded)
        return replace(review, decisions=kept) if kept else None

    def reviewable(self) -> bool:
        """Whether a person wrote a turn with dice (not from a score pad):
        the end review has a decision to value."""
        pad, players = pad_moves(self.game), self.game.players
        return any(i not in pad for i, m in enumerate(self.game.moves)
                   if players[m.player].is_human and m.is_score)

    def reviews(self) -> dict[int, Review | None]:
        """The review of every person, by seat."""
        return {seat: self.review(seat) for seat, p in enumerate(self.game.players)
                if p.is_human}

    def as_dict(self) -> dict:
        """The session's data for a page: ledger, pace, standings, last move."""
        last = self.last_move()
        return {"ledger": {str(k): v for k, v in self.ledger().items()},
                "pace": [[None if p is None else round(p, 1) for p in card]
                         for card in self.pace()],
                "standings": [vars(s) for s in self.standings()],
                "last": None if last is None else vars(last),
                "undo_rule": self.undo_rule, "undo_seat": self.undo_seat(),
                "redo_seat": self.game.redo_moves[0].player if self.game.redo_moves else None}


class Session(Book):
    """A ``Game`` played under the session's rules (module docstring):
    every move, undo and redo checked against a ``Capability``; the loss
    ledger; the pace, standings, last move and review as data.  ``undo``:
    ``fair`` or ``free`` (default: the game's ``settings["undo"]``, else
    fair with two or more people)."""

    def __init__(self, game: Game, undo: str | None = None,
                 known: dict | None = None):
        self.game = game
        people = sum(p.is_human for p in game.players)
        rule = undo or game.settings.get("undo")
        self.undo_rule = rule if rule in UNDO_RULES else ("fair" if people > 1 else "free")
        # each move, its position, its loss, whether a score pad wrote it
        self._ledger: list[tuple[Move, Position, float | None, bool]] = []
        # the losses valued before, by (move, position): ``known`` shares them
        # between sessions of the same rules (a stateless page's requests)
        self._known: dict[tuple[Move, Position], float | None] = {} if known is None else known

    # ------------------------------------------------------------ rights
    def typed(self, move: Move) -> bool:
        """Whether a person made this move (not a drawn roll, not a computer's choice)."""
        return not move.drawn and (move.is_roll or self.game.players[move.player].is_human)

    def may(self, right: str, by: Capability, seat: int | None = None) -> bool:
        """Whether ``by`` has ``right`` now (``RIGHTS``; ``seat`` for claim and release)."""
        try:
            self.check(right, by, seat)
        except SessionError as e:
            return e.kind not in ("not_yours", "not_admin")
        return True

    def check(self, right: str, by: Capability, seat: int | None = None,
              one: bool = False) -> None:
        """SessionError (``not_yours`` or ``not_admin``) unless ``by`` has
        ``right`` now (``one``: an undo or redo of one move)."""
        game = self.game
        if right == "move":
            if game.is_over or not game.player.is_human:     # Game says it is over
                if not by.anybody:
                    raise SessionError("not_yours", "only a player at the table may move")
                return
            owner = game.turn_player
        elif right in ("undo", "redo"):
            owner = self._first_typed(right, one)
        else:
            if right == "release" and seat is not None and not by.holds(seat) \
                    and 0 <= seat < len(game.players):
                name = game.players[seat].name
                raise SessionError("not_yours", f"only {name}'s phone may release {name}'s seat",
                                   name=name, right=right)
            check_right(right, by, seat)
            return
        if not by.holds(owner):
            name = game.players[owner].name
            mine = sorted(s for s in by.seats if s < len(game.players))
            who = game.players[mine[0]].name if len(mine) == 1 else "this phone"
            what = (f"it is {name}'s move, not {who}'s" if right == "move" else
                    f"only {name}'s phone may {right} {name}'s move")
            raise SessionError("not_yours", what, name=name, right=right)

    def _first_typed(self, right: str, one: bool = False) -> int:
        """The seat of the person's move an undo (redo) would take back
        (play again; ``one``: the move next to it); SessionError
        ``nothing_undo`` (``nothing_redo``)."""
        if right == "redo":                 # a redo starts at the first move undone
            if self.game.redo_moves:
                return self.game.redo_moves[0].player
        elif one:
            if self.game.moves:
                return self.game.moves[-1].player
        else:
            for move in reversed(self.game.moves):
                if self.typed(move):
                    return move.player
        raise SessionError(f"nothing_{right}", f"nothing to {right}")

    # ------------------------------------------------------------- moves
    def play(self, text: str, by: Capability = EVERYONE) -> Move:
        """Play ``text`` (``Game.play``) if ``by`` may move now."""
        self.check("move", by)
        return self.game.play(text)

    def auto_move(self) -> str:
        """The move the player to move would make under its policy (``optimal``
        for a person; ``yatzy.players.policy.seat_move``): ``roll`` when a
        roll is due."""
        game = self.game
        if game.needs_roll:
            return "roll"
        kind = "optimal" if game.player.is_human else game.player.kind
        if kind == "optimal":
            return str(game.advice().best)
        return str(seat_move(game.solver.table, kind, game.card, game.dice, game.rerolls))

    def play_auto(self, by: Capability = EVERYONE) -> Move:
        """Play ``auto_move()`` if ``by`` may move now."""
        self.check("move", by)
        return self.game.play(self.auto_move())

    def undo(self, by: Capability = EVERYONE, trying: bool = False, one: bool = False
             ) -> list[Move]:
        """Take back the last move a person made and every move after it,
        last first (``one``: the last move only), if ``by`` may (``fair``
        rule: SessionError ``fair_undo``, the game as it was, where dice
        were drawn after the choice; ``free``: the game is marked, unless
        only ``trying``)."""
        self.check("undo", by, one=one)
        game = self.game
        popped: list[Move] = []
        seen = False                  # dice drawn after the choice: every player saw them
        while True:
            move = game.undo()
            popped.append(move)
            seen = seen or move.drawn
            if one or self.typed(move):
                break
        if seen and self.undo_rule == "fair":
            for _ in popped:
                game.redo()
            raise SessionError("fair_undo", "that choice was made before the dice now on the "
                               "table were rolled: it may not be undone")
        if seen and not trying:
            game.settings["free_undo_used"] = True
        return popped

    def undo_seat(self) -> int | None:
        """The seat whose move an undo would take back (the last move a
        person made), None where there is none: the phone of that seat
        may undo it where each seat moves on its own phone."""
        try:
            return self._first_typed("undo")
        except SessionError:
            return None

    def can_undo(self, by: Capability = EVERYONE) -> bool:
        """Whether ``undo(by)`` would take something back now (nothing changes)."""
        try:
            popped = self.undo(by, trying=True)
        except SessionError:
            return False
        for _ in popped:
            self.game.redo()
        return True

    def redo(self, by: Capability = EVERYONE, one: bool = False) -> list[Move]:
        """Play again the first move undone and the moves undone after it
        that no person made (``one``: the first only), first first, if
        ``by`` may."""
        self.check("redo", by)
        game = self.game
        done = [game.redo()]
        while not one and game.redo_moves and not self.typed(game.redo_moves[0]):
            done.append(game.redo())
        return done

    def write(self, box: str | int, points: int, column: int | None = None,
              by: Capability = EVERYONE) -> list[Move]:
        """Score-pad mode: write ``points`` in ``box`` (of ``column``) for the
        player to move, no dice entered, if ``by`` may move
        (``yatzy.scorepad.pad_texts``: checked against the rules); the
        moves played (a roll that scores them, then the score)."""
        self.check("move", by)
        game = self.game
        roll, score = pad_texts(game, box, points, column)
        start = len(game.moves)
        played = [game.play(roll)]
        try:
            played.append(game.play(score))
        except InputError:
            game.undo()
            raise
        mark_written(game, start, played[0].text, played[1].text)
        return played

    def undo_write(self, by: Capability = EVERYONE) -> list[Move]:
        """``undo``, and in a score-pad game (``yatzy.scorepad.is_pad``) the
        roll that began the turn too, so that a written box is taken back
        to the turn's start, as it was written."""
        popped = self.undo(by)
        game = self.game
        if is_pad(game) and game.moves and game.moves[-1].is_roll \
                and self.typed(game.moves[-1]) and len(game.position.rolls) == 1 \
                and not game.position.kept and game.moves[-1].player == popped[-1].player:
            popped.append(game.undo())
        return popped

    def redo_write(self, by: Capability = EVERYONE) -> list[Move]:
        """``redo``, and in a score-pad game the score after a roll that
        began a turn (what ``undo_write`` took back together)."""
        done = self.redo(by)
        game = self.game
        if is_pad(game) and done[-1].is_roll and game.redo_moves \
                and game.redo_moves[0].is_score \
                and len(game.position.rolls) == 1 and not game.position.kept:
            done += self.redo(by)
        return done

    def can_redo(self, by: Capability = EVERYONE) -> bool:
        return bool(self.game.redo_moves) and self.may("redo", by)


__all__ = ["ANY_SEAT", "EVERYONE", "NOBODY", "RIGHTS", "UNDO_RULES", "Capability", "LastMove",
           "Session", "SessionError", "Standing", "bonus_needed", "bonus_pace", "check_right"]
