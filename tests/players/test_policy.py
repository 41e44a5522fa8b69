"""yatzy.players.policy: the compiled decisions of the optimal policy are the advice."""

import random

from small_games import card

from yatzy.kernels.policy import policy_tables
from yatzy.players.policy import decide
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.space import state_space


def test_policy_matches_the_advice_everywhere_it_is_asked(nordic):
    """The tie rule of solver.query, including end-game cards full of ties."""
    rules = nordic.rules
    ds = rules.dice_space
    g = policy_tables(rules)
    rng = random.Random(5)
    all_but_yatzy = ",".join(f"{b.name}=0" for b in rules.boxes if b.name not in ("chance", "yatzy"))
    cards = [card(nordic), card(nordic, all_but_yatzy + ",chance=5")]
    for _ in range(8):
        boxes = rng.sample(range(rules.n_boxes), rng.randrange(1, rules.n_boxes))
        cards.append(Scorecard.parse(",".join(
            f"{rules.boxes[b].name}={rng.choice(sorted(rules.box_points[b]))}" for b in boxes),
            rules))
    dec = decide(rules, "optimal", nordic.values, [c.mask for c in cards])
    pos = dec.position(state_space(rules).n_masks)
    for sc in cards:
        row = dec.rows[dec.lane_row[pos[sc.mask], sc.upper_state]]
        for k in range(rules.rolls):
            for r in rng.sample(range(ds.n_rolls), 20):
                best = advise(nordic, sc, ds.dice_of(ds.first_roll + r), k).best
                a = int(row[k, r])
                if a < rules.n_boxes:
                    assert (best.kind, best.box) == ("score", rules.boxes[a].name)
                else:
                    kept = ds.dice_of(g.by_rank[a - rules.n_boxes])
                    assert (best.kind, best.dice) == ("keep", kept)
