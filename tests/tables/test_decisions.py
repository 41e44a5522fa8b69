"""yatzy.tables.decisions: the stored decision table is the advice (tie rule
included), the rows ``decide`` computes, and a bad file is never used."""

import random

import numpy as np
import pytest
from small_games import SMALL, joker_game

from yatzy.errors import TableError
from yatzy.kernels.policy import policy_tables
from yatzy.players.policy import decide
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.space import state_space
from yatzy.tables.announce import TableWarning
from yatzy.tables.decisions import build, decisions_path, load, open_decisions
from yatzy.tables.store import open_table


@pytest.fixture(scope="module")
def jokers(tmp_path_factory):
    """A game with jokers and a yahtzee bonus (the flag bit), solved."""
    return open_table(joker_game("free"), tmp_path_factory.mktemp("jokers"), progress=False)


def random_cards(rules, rng, n):
    """The empty card, cards with all boxes but one or two filled (full of
    ties: zeros everywhere), and ``n`` random cards."""
    names = [b.name for b in rules.boxes]
    cards = [Scorecard.empty(rules)]
    for keep_open in ([names[-1]], names[:1], names[1:3]):
        cards.append(Scorecard.parse(",".join(f"{b}=0" for b in names if b not in keep_open),
                                     rules))
    for _ in range(n):
        boxes = rng.sample(range(rules.n_boxes), rng.randrange(1, rules.n_boxes))
        cards.append(Scorecard.parse(",".join(
            f"{names[b]}={rng.choice(sorted(rules.box_points[b]))}" for b in boxes), rules))
    return cards


@pytest.mark.parametrize("game", ["small", "jokers"])
def test_every_looked_up_action_is_the_advice(game, small, jokers):
    table = small if game == "small" else jokers
    rules = table.rules
    ds = rules.dice_space
    by_rank = policy_tables(rules).by_rank
    decisions = build(rules, table.values)
    rng = random.Random(3)
    checked = ties = 0
    for sc in random_cards(rules, rng, 40):
        if sc.is_full:
            continue
        for k in range(rules.rolls):
            for r in range(ds.n_rolls):
                advice = advise(table, sc, ds.dice_of(ds.first_roll + r), k)
                a = decisions.action(sc.mask, sc.upper_state, k, r)
                if a < rules.n_boxes:
                    assert (advice.best.kind, advice.best.box) == ("score", rules.boxes[a].name)
                else:
                    assert (advice.best.kind, advice.best.dice) == (
                        "keep", ds.dice_of(by_rank[a - rules.n_boxes]))
                checked += 1
                ties += len(advice.ties()) > 1
    assert checked > 500 and ties > 10      # the tie rule was tested, not only asked


def test_the_rows_are_those_decide_computes_for_every_state(small):
    rules = small.rules
    decisions = build(rules, small.values)
    sp = state_space(rules)
    dec = decide(rules, "optimal", small.values, np.arange(sp.n_masks))
    for mask in range(sp.n_masks):
        if not sp.is_reachable(mask) or mask & sp.full_mask == sp.full_mask:    # or full
            assert (decisions.index[mask] == -1).all()
            continue
        for u in range(rules.cap + 1):
            row = dec.lane_row[mask, u]
            assert (row < 0) == (decisions.index[mask, u] < 0)
            if row >= 0:
                assert np.array_equal(decisions.rows[decisions.index[mask, u]], dec.rows[row])
    assert len(decisions.rows) < len(dec.rows)      # totals that play alike share a row


def test_round_trip_is_memory_mapped_beside_the_value_table(small, tmp_path):
    rules = small.rules
    opened = open_decisions(rules, tmp_path, values=small)
    assert opened.path == decisions_path(rules, tmp_path) and opened.path.exists()
    assert opened.path.name.startswith(small.path.stem)
    again = load(rules, opened.path, small.header["sha256"])
    assert isinstance(again.rows.base, np.memmap) or isinstance(again.rows.base.base, np.memmap)
    fresh = build(rules, small.values)
    assert np.array_equal(again.index, fresh.index) and np.array_equal(again.rows, fresh.rows)


def test_a_corrupt_truncated_or_foreign_table_is_rejected_and_rebuilt(small, jokers, tmp_path):
    rules = small.rules
    path = open_decisions(rules, tmp_path, values=small).path
    good = path.read_bytes()
    digest = small.header["sha256"]
    bad = bytearray(good)
    bad[-100] ^= 1                                     # one bit of one action
    path.write_bytes(bytes(bad))
    with pytest.raises(TableError, match="checksum"):
        load(rules, path, digest)
    path.write_bytes(good[:-1])
    with pytest.raises(TableError, match="truncated"):
        load(rules, path, digest)
    path.write_bytes(good)
    with pytest.raises(TableError, match="another value table"):
        load(rules, path, jokers.header["sha256"])
    with pytest.raises(TableError):
        load(jokers.rules, path, jokers.header["sha256"])       # other rules
    path.write_bytes(bytes(bad))
    with pytest.warns(TableWarning, match="recomputing"):
        rebuilt = open_decisions(rules, tmp_path, values=small)
    fresh = build(rules, small.values)
    assert np.array_equal(rebuilt.rows, fresh.rows) and np.array_equal(rebuilt.index, fresh.index)
    assert load(rules, path, digest).header["sha256"] == rebuilt.header["sha256"]
