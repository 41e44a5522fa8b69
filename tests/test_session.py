"""The session at the table: the loss ledger equals the end review through
moves, undos, redos and a resume (nordic, forced order, Trippel-Yatzy with
a computer seat too); the rights of each capability, refused in one line;
the fair and free undo; the bonus pace, standings and last move as data."""

from __future__ import annotations

import doctest
import random

import pytest

from yatzy import Solver
from yatzy.game import Game
from yatzy.scorepad import pad_values
from yatzy.session import (
    ANY_SEAT,
    EVERYONE,
    NOBODY,
    Capability,
    Session,
    SessionError,
    bonus_pace,
)


@pytest.fixture(scope="module")
def solvers(nordic, tables_dir):
    return {spec: Solver(spec, tables=tables_dir) for spec in ("nordic", "forced", "triple")}


def reviewed(session: Session) -> dict[int, float]:
    """Each person's total loss in the end review (0 before a finished turn)."""
    return {seat: (r.total_loss if r is not None else 0.0)
            for seat, r in session.reviews().items()}


def play_turn(session: Session, rng: random.Random) -> None:
    """One turn of the player to move: drawn rolls, random legal choices
    (a computer plays its own)."""
    game = session.game
    seat = game.turn_player
    while not game.is_over and game.turn_player == seat:
        if game.needs_roll:
            session.play("roll")
        elif not game.player.is_human:
            session.play(session.auto_move())
        else:
            session.play(str(rng.choice(game.legal_actions())))


@pytest.mark.parametrize("spec, players, turns", [
    ("nordic", ["Kari", "Ola"], None),
    ("forced", ["Kari", "Ola=optimal"], 12),
    ("triple", ["Kari", "Ola"], 9),
])
def test_the_ledger_is_the_review_through_undo_redo_and_resume(solvers, spec, players, turns,
                                                               tmp_path):
    rng = random.Random(f"{spec}-3")
    session = Session(Game(solvers[spec], players, seed=5), undo="free")
    game = session.game
    count = 0
    while not game.is_over and (turns is None or count < turns * len(players)):
        play_turn(session, rng)
        count += 1
        assert session.ledger() == reviewed(session)          # bit for bit, a turn written
        if count % 5 == 2 and game.moves:                    # take a choice back, play on
            before, losses = session.ledger(), session.losses()
            undone = session.undo()
            assert session.typed(undone[-1]) and len(game.moves) == len(losses) - len(undone)
            assert session.losses() == losses[:len(game.moves)]      # the undone ones dropped
            seat = undone[-1].player
            assert session.loss(seat) == sum(x for m, x in zip(game.moves, losses)
                                             if m.player == seat and x is not None)
            session.redo()
            assert session.ledger() == before and session.losses() == losses
        if count % 7 == 3:                                   # undo a score, choose again
            session.undo()
            play_turn(session, rng)
            assert session.ledger() == reviewed(session)
        if count % 6 == 5:                                   # save, load, resume
            game.save(tmp_path / "g.json")
            again = Session(Game.load(tmp_path / "g.json", solvers[spec]))
            assert again.ledger() == session.ledger() and again.losses() == session.losses()
    assert any(v > 0 for v in session.ledger().values())
    if turns is None:
        assert game.is_over
    humans = [s for s, p in enumerate(game.players) if p.is_human]
    assert sorted(session.ledger()) == humans


@pytest.mark.parametrize("spec, players, turns", [
    ("nordic", ["Kari", "Ola"], None),
    ("triple", ["Kari", "Ola=optimal"], 8),
])
def test_pad_writes_are_left_unrated_and_the_dice_moves_rated_as_the_review(
        solvers, spec, players, turns, tmp_path):
    """A game partly written from a score pad: each pad turn unrated (no
    loss, counted in ``unrated``), the turns played with dice rated, the
    ledger equal bit for bit to the review less the pad's turns, through
    undo, redo and a resume."""
    rng = random.Random(f"{spec}-pad")
    session = Session(Game(solvers[spec], players, seed=9), undo="free")
    game = session.game
    count = pads = 0
    while not game.is_over and (turns is None or count < turns * len(players)):
        if game.player.is_human and rng.random() < 0.4:
            (column, box), values = rng.choice(sorted(pad_values(game).items()))
            moves = session.write(game.rules.boxes[box].name, rng.choice(values), column)
            pads += 1
            assert session.losses()[-2:] == (None, None) and [m.text[:4] for m in moves] == [
                "roll", "scor"]
        else:
            play_turn(session, rng)
        count += 1
        assert session.ledger() == reviewed(session)          # bit for bit
        assert sum(session.unrated().values()) == pads
        if count % 5 == 3:                                    # undo a write or a turn, redo it
            before, losses, unrated = session.ledger(), session.losses(), session.unrated()
            session.undo_write()
            session.redo_write()
            assert (session.ledger(), session.losses(), session.unrated()) == (
                before, losses, unrated)
        if count % 4 == 1:                                    # save, load, resume
            game.save(tmp_path / "g.json")
            again = Session(Game.load(tmp_path / "g.json", solvers[spec]))
            assert again.losses() == session.losses() and again.unrated() == session.unrated()
    assert 0 < pads < count and any(v > 0 for v in session.ledger().values())
    for seat, review in session.reviews().items():            # the pad's turns left out
        full = game.review(seat)
        if review is not None:
            assert len(review.decisions) <= len(full.decisions)
            assert set(review.decisions) <= set(full.decisions)
    game.settings.pop("pad_writes")                          # a pad game saved before the record:
    assert all(x is None for x in session.losses())          # every move the pad's


def test_a_keep_counts_at_once_and_the_turn_then_equals_the_review(solvers):
    session = Session(Game(solvers["nordic"], ["Ann"], seed=1))
    session.play("roll 11256")
    session.play("keep 2")                 # a poor keep: it costs
    assert session.loss(0) > 0 and session.review(0) is None
    session.play("roll 1234")
    session.play("score chance")
    assert session.loss(0) == session.review(0).total_loss
    lost = session.loss(0)
    session.undo()                          # the score: the keep's loss stays
    assert 0 < session.loss(0) < lost or session.losses()[-1] == 0.0


def test_every_right_is_checked_and_refused_in_one_line(solvers):
    session = Session(Game(solvers["nordic"], ["Ann", "Bob", "Cy=optimal"], seed=2))
    ann, bob = Capability.of(0), Capability.of(1)
    for by in (bob, NOBODY):
        with pytest.raises(SessionError) as e:
            session.play("roll", by)
        assert e.value.kind == "not_yours" and "\n" not in str(e.value)
    session.play("roll 11256", ann)
    session.play("keep 1 1", ann)
    session.play("roll 234", ann)
    session.play("score ones", ann)
    with pytest.raises(SessionError, match="only Ann's phone may undo"):
        session.undo(bob)
    assert not session.can_undo(bob) and session.can_undo(ann) and session.can_undo(EVERYONE)
    assert session.can_undo(ANY_SEAT)
    assert [m.text for m in session.undo(Capability.of(admin=True))] == ["score ones (2)"]
    with pytest.raises(SessionError, match="only Ann's phone may redo"):
        session.redo(bob)
    session.redo(ann)
    session.play("roll 66666", bob)
    session.play("score yatzy", bob)
    session.play("roll", NOBODY.__class__.of(0))     # Cy's roll: any seat's holder
    session.play(session.auto_move(), ann)
    with pytest.raises(SessionError, match="only a player"):
        session.play("roll", NOBODY)
    for right, by, ok in [("propose", bob, True), ("propose", NOBODY, False),
                          ("accept", bob, False), ("accept", Capability.of(admin=True), True),
                          ("follow", ann, False), ("claim", NOBODY, True)]:
        assert session.may(right, by) is ok, (right, by)
    assert session.may("release", bob, 1) and not session.may("release", bob, 0)
    # Cy's dice were drawn after Bob's score and everyone saw them: fair refuses
    with pytest.raises(SessionError) as e:
        session.undo(bob)
    assert e.value.kind == "fair_undo"
    # free: an undo by Bob takes back Cy's moves and Bob's score (a person's move) with them
    undone = Session(session.game, "free").undo(bob)
    assert [m.player for m in undone][-1] == 1 and session.game.turn_player == 1


def test_the_fair_rule_keeps_seen_dice_and_free_marks_the_game(solvers):
    for rule in ("fair", "free"):
        session = Session(Game(solvers["nordic"], ["Ann", "Bob"], seed=3), undo=rule)
        session.play("roll")
        session.play("keep " + " ".join(map(str, session.game.dice[:2])))
        session.play("roll")                    # drawn: its dice are seen
        moves = session.game.moves
        if rule == "fair":
            with pytest.raises(SessionError, match="may not be undone") as e:
                session.undo()
            assert e.value.kind == "fair_undo" and session.game.moves == moves
            assert not session.can_undo()
        else:
            session.undo()
            assert session.game.settings["free_undo_used"]


def test_pace_standings_and_last_move_are_data(solvers):
    session = Session(Game(solvers["triple"], ["Ann", "Bob"], seed=4))
    session.play("roll 66666")
    session.play("score sixes@3")
    assert session.last_move().points == 30 and session.last_move().name == "Ann"
    assert session.pace()[0] == [None, None, 30 - 63 * 6 / 21]
    top = session.standings()
    assert (top[0].name, top[0].score, top[1].behind) == ("Ann", 90, 90)
    assert session.as_dict()["pace"][0][2] == 12.0
    full = Game(solvers["nordic"], ["A"])
    assert bonus_pace(full.cards[0]) is None


def test_the_module_examples_run(nordic, tables_dir, monkeypatch):
    import yatzy.session
    monkeypatch.setenv("YATZY_TABLES", str(tables_dir))
    result = doctest.testmod(yatzy.session)
    assert result.failed == 0 and result.attempted > 5


def test_the_seat_an_undo_or_redo_takes_back_is_named():
    """What a phone needs to offer undo only where it works: the seat whose
    move an undo takes back (a drawn roll after it is not that seat's), and
    the seat a redo plays again."""
    game = Game("nordic", ["Kari", "Ola"], seed=3)
    s = Session(game)
    assert s.undo_seat() is None and s.as_dict()["undo_seat"] is None
    s.play("roll")
    assert s.undo_seat() is None                  # a drawn roll is nobody's choice
    s.play("score chance")                        # Kari wrote: Ola to move
    assert s.undo_seat() == 0 and s.as_dict()["undo_seat"] == 0
    s.play("roll 12345")                          # Ola's typed roll is his
    assert s.undo_seat() == 1
    s.undo()
    assert s.as_dict()["redo_seat"] == 1 and s.undo_seat() == 0


def test_no_undo_draws_again_dice_a_player_saw(solvers):
    """Ann rolls and writes chance, Bob rolls (X), Ann undoes and rerolls all:
    under the fair rule the undo is refused, under free the dice are fresh."""
    for rule in ("fair", "free"):
        session = Session(Game(solvers["nordic"], ["Ann", "Bob"], seed=1), undo=rule)
        ann, bob = Capability.of(0), Capability.of(1)
        session.play("roll", ann)
        session.play("score chance", ann)
        seen = session.play("roll", bob).text
        if rule == "fair":
            with pytest.raises(SessionError) as e:
                session.undo(ann)
            assert e.value.kind == "fair_undo" and session.game.moves[-1].text == seen
            continue
        assert [m.text for m in session.undo(ann)][0] == seen
        session.play("reroll all", ann)
        assert session.play("roll", ann).text != seen
        assert session.game.settings["free_undo_used"]
