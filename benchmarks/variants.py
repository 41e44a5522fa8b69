"""Solve time of every five-dice variant against nordic (medians of runs).

    python benchmarks/variants.py [--runs 3]

The target: no five-dice variant slower than twice the nordic solve.
"""

from __future__ import annotations

import statistics

import click

SPECS = ["nordic", "forced", "forced:bonus_threshold=63", "upper_first",
         "upper_first:bonus_threshold=42", "nordic:five_alike_is_full_house=true",
         "nordic:four_alike_is_two_pairs=true", "nordic:rolls=4", "forced:rolls=4",
         "yahtzee", "yahtzee:joker=free", "yahtzee:joker=none",
         "yahtzee:joker=none,yahtzee_bonus=false"]


@click.command()
@click.option("--runs", default=3, show_default=True)
def main(runs: int) -> None:
    from yatzy.rules.ruleset import parse_rules
    from yatzy.tables.build import solve

    base = None
    print(f"{'rules':<42} {'expected':>12} {'solve s':>9} {'x nordic':>9}")
    for spec in SPECS:
        rules = parse_rules(spec)
        first = solve(rules)                                   # loads the kernels
        secs = statistics.median(solve(rules).seconds for _ in range(runs))
        base = base or secs
        print(f"{spec:<42} {first.expected_score:>12.7f} {secs:>9.3f} {secs / base:>9.2f}")


if __name__ == "__main__":
    main()
