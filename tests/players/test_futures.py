"""Opponents' futures (yatzy.players.futures): the final-score distribution of
expected-score play from any card is a lookup plus a shift, and equals the
exact forward distribution (yatzy.research.distribution) from the same card."""

from __future__ import annotations

import numpy as np
import pytest
from small_games import SMALL, TINY
from tables.test_target import MID

from yatzy.players.futures import futures_path, open_futures
from yatzy.position.scorecard import Scorecard
from yatzy.research.distribution import distribution
from yatzy.tables.store import open_table

CARDS = {
    "tiny": ["", "ones=1", "twos=4", "ones=2,one_pair=6", "ones=1,twos=2,chance=7"],
    "small": ["", "ones=3", "threes=9,yatzy=30", "ones=2,twos=4,chance=12",
              "ones=3,twos=6,threes=9,one_pair=10,chance=15"],
    "mid": ["", "ones=2", "twos=6,yatzy=0", "ones=1,twos=2,threes=6,one_pair=8"],
}


@pytest.mark.parametrize("rules", [TINY, SMALL, MID], ids=lambda r: r.name)
def test_futures_lookup_equals_the_exact_forward_distribution(rules, tables_dir):
    table = open_table(rules, tables_dir, progress=False)
    futures = open_futures(rules, tables_dir)
    for text in CARDS[rules.name]:
        card = Scorecard.parse(text, rules)
        exact = distribution(rules, card, table.values).pmf
        got = futures.final(card)
        n = max(len(exact), len(got))
        np.testing.assert_allclose(np.pad(got, (0, n - len(got))),
                                   np.pad(exact, (0, n - len(exact))), rtol=0, atol=1e-12,
                                   err_msg=f"card {text!r}")


def test_futures_are_stored_and_reopened(tables_dir):
    first = open_futures(TINY, tables_dir)
    first.need(0)                             # the empty card's sub-game: the whole table, stored
    assert futures_path(TINY, tables_dir).exists()
    again = open_futures(TINY, tables_dir)
    np.testing.assert_array_equal(first.values, again.values)
    full = Scorecard.parse("ones=1,twos=4,one_pair=6,chance=9", TINY)
    assert list(again.final(full)) == [0.0] * (full.score) + [1.0]


def test_a_futures_build_reports_its_progress_layer_by_layer(tmp_path):
    calls = []
    table = open_futures(SMALL, tmp_path, progress=lambda done, total: calls.append((done, total)))
    table.need(0)                             # the empty card's sub-game: the whole table
    values = [c for c in calls if c[1] == calls[-1][1]]     # the futures' calls (after the values')
    assert values[0][0] == 0 and values[-1][0] == values[-1][1] > 0
    assert len(values) == SMALL.n_boxes + 1
    assert all(a[0] < b[0] for a, b in zip(values, values[1:]))
