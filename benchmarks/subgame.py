"""A position's sub-game against the whole table, interleaved in one run
(the machines here are shared and drift within an hour: only figures
measured side by side compare).

    python benchmarks/subgame.py [--rules nordic] [--rounds 3] [--kind target]

For each position of ``POSITIONS`` (early to late), each round measures,
alternating which goes first:

* sub-game  a fresh piece-by-piece table (``open_target``, ``open_futures``
            or ``open_parts`` in an empty folder) answering that position:
            its sub-game solved in memory
* whole     the whole table solved in memory (once per round: it answers
            every position)

after the kernels are loaded, and checks that the sub-game's value at the
position equals the whole table's bit for bit.  Prints every round, then
the median per figure, the sub-game's share of the whole table's values
and the estimate the announcement would have given (``subgame.measure``),
against the median measured.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import click
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from yatzy.position.scorecard import Scorecard  # noqa: E402
from yatzy.rules.ruleset import parse_rules  # noqa: E402
from yatzy.tables import subgame  # noqa: E402

POSITIONS = {
    "nordic": [
        "ones=3,twos=6,threes=9",
        "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18",
        "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=22",
        "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=22,"
        "three_of_a_kind=18,four_of_a_kind=20",
    ],
}


def opener(kind: str):
    """``(open piece by piece, solve whole in memory, value at a card)``."""
    if kind == "target":
        from yatzy.tables import target
        return (target.open_target, lambda rules, values: target.solve(rules),
                lambda t, card: t.probability(card, card.score + 100))
    if kind == "futures":
        from yatzy.players import futures
        return (futures.open_futures, futures.solve,
                lambda t, card: t.remaining(card.mask, card.upper_state).copy())
    from yatzy.players import explain
    return (explain.open_parts, explain.solve,
            lambda t, card: t.parts(card.mask, card.upper_state).copy())


@click.command()
@click.option("--rules", "spec", default="nordic")
@click.option("--rounds", default=3, show_default=True)
@click.option("--kind", type=click.Choice(["target", "futures", "parts"]), default="target")
def main(spec: str, rounds: int, kind: str) -> None:
    from yatzy.tables.store import open_table

    rules = parse_rules(spec)
    open_lazy, solve_whole, value_at = opener(kind)
    folder = Path(tempfile.mkdtemp())
    values = open_table(rules, folder, progress=False).values
    cards = [Scorecard.parse(text, rules) for text in POSITIONS.get(spec, [""])]
    warm = open_lazy(rules, folder)                   # the kernels loaded, untimed
    value_at(warm, Scorecard.parse(POSITIONS[spec][-1], rules))
    times: dict[str, list[float]] = {}
    estimates: dict[str, float] = {}
    shares: dict[str, float] = {}
    for r in range(rounds):
        order = ["whole", "sub"] if r % 2 else ["sub", "whole"]
        for what in order:
            if what == "whole":
                start = time.perf_counter()
                whole = open_lazy(rules, folder)
                whole.values = solve_whole(rules, values)
                whole.pieces = None
                times.setdefault("whole", []).append(time.perf_counter() - start)
                continue
            for card in cards:
                lazy = open_lazy(rules, folder)
                todo = lazy.pieces.cover.missing(card.mask, card.upper_state
                                                 if lazy.pieces.uppers else 0)
                n = lazy.pieces.count(todo, card.upper_state if lazy.pieces.uppers else 0)
                shares[str(card)] = n / lazy.pieces.size
                if r == 0:
                    lo = card.upper_state if lazy.pieces.uppers else 0
                    estimates[str(card)] = subgame.measure(
                        rules, lazy.pieces.size, lazy.pieces.count, lazy.pieces.solve, todo,
                        lo, max(n / lazy.pieces.size * 60.0, 0.01))
                start = time.perf_counter()
                got = value_at(lazy, card)
                times.setdefault(str(card), []).append(time.perf_counter() - start)
                ref = value_at(whole, card) if "whole" in times else None
                if ref is not None:
                    assert np.array_equal(np.asarray(got).view(np.int64),
                                          np.asarray(ref).view(np.int64)), str(card)
        print(f"round {r + 1}: " + ", ".join(f"{k[:24]} {v[-1]:.3f} s" for k, v in times.items()),
              flush=True)
    print(f"\n{kind} tables of {spec}, median of {rounds} rounds, interleaved:")
    print(f"  whole table (in memory)                  {statistics.median(times['whole']):8.3f} s")
    for card in cards:
        k = str(card)
        print(f"  sub-game {k[:32]:<32} {statistics.median(times[k]):8.3f} s  "
              f"{100 * shares[k]:6.2f} % of the values, estimate {estimates[k]:.3f} s")


if __name__ == "__main__":
    main()
