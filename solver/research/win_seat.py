"""The ``win`` seat of a match, compiled: whole games played to win against
the other seats' logged games (``yatzy.research.match``).

Before each of its turns the seat brings the others' cards up to date (a
seat that moves earlier in the round has played one turn more),
their best final score ``M`` from the futures table
(``kernels.win.odds.opponents_best``), and the turn's chances
(``kernels.win.turns.seat_turn``, exact with two boxes open: ``turn_chances``
without writing out every roll's boxes); at each roll it plays
``kernels.win.choice.seat_choose`` (on the keys ``seat_turn`` stored), the first action
of ``yatzy.players.win.advise_win``.
Game ``i`` draws its dice from the splitmix64 stream of ``yatzy.research.simulate``
seeded by ``(seed, i)``, as the other players do.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.player import play_tables
from yatzy.kernels.threads import run_pieces
from yatzy.kernels.turn import turn_data
from yatzy.kernels.win.data import WinData, win_tables
from yatzy.kernels.win_seat import Seating, play_win_games
from yatzy.rules.ties import tolerance
from yatzy.tables.announce import compiling


def play_win_seat(table, target, futures, games: int, seed: int, first: int, seat: int,
                  others: list[tuple[int, np.ndarray, np.ndarray]]) -> np.ndarray:
    """The final scores of a ``win`` seat (seat ``seat``) in ``games`` games
    numbered from ``first`` (who moves first rotates with the number)
    against ``others``: ``(seat, boxes[i, k], points[i, k])`` of each other
    seat's logged games; ``table``, ``target``, ``futures``: the
    expected-score, target and futures tables (of the same rules)."""
    rules = table.rules
    target.need(0, 0)                      # whole games: every state (the whole tables)
    futures.need(0, 0)
    wt = win_tables(rules, target.values, futures.values, table.values)
    seating = Seating(seat, first, np.array([o for o, _, _ in others], dtype=np.int64),
                      np.ascontiguousarray(np.stack([b for _, b, _ in others]), dtype=np.int64),
                      np.ascontiguousarray(np.stack([p for _, _, p in others]), dtype=np.int64))
    scores = np.zeros(games, dtype=np.int64)
    compiling("win_games")                 # said where Numba's cache lacks it
    run_pieces(play_win_games, WinData(turn_data(rules), play_tables(rules), wt),
               tolerance(table), seed, seating, scores)
    return scores
