r"""The exact distribution of the final score under a policy.

A forward pass over the turn-start states reachable from a card, one layer
(number of filled boxes) at a time, keeping two layers in memory:

* turn outcomes: for each state ``(mask, u)`` of the layer, the probability
  ``O(c | mask, u)`` that the turn ends with outcome ``c = (box, points,
  yahtzee bonus)``.  The policy's actions for the mask are decided
  (``yatzy.players.policy``), then the probability of every roll is pushed forward:
  roll -> keep (or score) -> reroll -> ... -> box.  Upper totals below the
  lowest one that can still reach the bonus act like it.
* carrying: the probability of ``(mask, u, g)`` is pulled into the next
  layer, ``P(mask | b, u', g + d) += P(mask, u, g) O((b, p, e) | mask, u)``
  (50 in the yatzy box also sets the mask's flag bit).

The points gained since the card are ``(u - u0) + g + bonus`` where ``g``
counts the lower points, the upper points beyond the bonus threshold (``u``
already holds the rest) and yahtzee bonuses, so ``g`` stays short: its
length for a mask is the most those boxes can add, plus one.

Saved rolls and Maxi are not covered (the outcomes would also need the bank;
six dice have 462 keeps, more than the one-byte actions hold; and a Maxi
layer's score distribution would need 10^9 - 10^10 cells):
``yatzy.research.games.estimate`` estimates those from played games.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from yatzy.bounds import WrongType
from yatzy.errors import InputError
from yatzy.kernels.forward import Spread, carry
from yatzy.kernels.policy import NO_ROWS, Job, Outcomes, batch, policy_tables
from yatzy.kernels.threads import pieces, run_pieces
from yatzy.players.policy import policy_values
from yatzy.position.scorecard import Scorecard
from yatzy.position.scoring import upper_bonus
from yatzy.research import stats
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space

# ------------------------------------------------------------------ kernels


# ------------------------------------------------------------------ results
@dataclass(frozen=True)
class Distribution:
    """The final-score distribution from a card.

    ``pmf[s]``: probability of final score ``s``; ``box_mean[b]`` and
    ``box_nonzero[b]``: mean points and probability of a non-zero score of
    each box (filled boxes count as they stand).  Exact, or (``games > 0``)
    the frequencies of that many played games (``yatzy.research.games.estimate``).
    """

    rules: Rules
    card: Scorecard
    policy: str
    pmf: np.ndarray
    bonus_probability: float
    box_mean: np.ndarray
    box_nonzero: np.ndarray
    table_value: float | None       # card score + V(card) (optimal policy only)
    seconds: float
    games: int = 0                  # 0: exact; else estimated from this many games
    yahtzee_bonus_mean: float = 0.0  # mean yahtzee bonus points (the card's included)
    theta: float = 0.0              # the optimal policy's risk parameter (values.utility)

    @property
    def ci95(self) -> tuple[float, float] | None:
        """95% confidence interval of the mean of an estimate (normal
        approximation); None when exact."""
        if not self.games:
            return None
        return stats.mean_ci95(self.mean, stats.sd(self.pmf * self.games, sample=True),
                               self.games)

    @property
    def mean(self) -> float:
        return stats.mean(self.pmf)

    @property
    def sd(self) -> float:
        return stats.sd(self.pmf)

    def percentile(self, q: float) -> int:
        """The smallest score whose cumulative probability reaches ``q`` %."""
        return stats.percentile(self.pmf, q)

    def at_least(self, t: int) -> float:
        """P(final score >= t)."""
        return stats.at_least(self.pmf, t)

    def versus(self, other: Distribution) -> stats.Versus:
        """``Versus(win, tie, loss)``: the probabilities that a game with this
        distribution scores more than, as much as, less than an independent
        game with ``other``'s."""
        if not isinstance(other, Distribution):
            raise WrongType(f"versus: expected a Distribution, not {type(other).__name__}")
        n = max(len(self.pmf), len(other.pmf))
        p, q = (np.pad(x.pmf, (0, n - len(x.pmf))) for x in (self, other))
        below = np.concatenate([[0.0], np.cumsum(q)[:-1]])      # P(other < s)
        win, tie = float(p @ below), float(p @ q)
        return stats.Versus(win, tie, max(float(p.sum()) - win - tie, 0.0))

    def as_dict(self, thresholds: tuple[int, ...] = ()) -> dict:
        return {
            "rules": self.rules.spec, "card": str(self.card), "policy": self.policy,
            "theta": self.theta,
            "exact": not self.games, "games": self.games or None,
            "mean": self.mean, "ci95": self.ci95, "table_value": self.table_value, "sd": self.sd,
            "percentiles": {str(q): self.percentile(q) for q in stats.PERCENTILES},
            "at_least": {str(t): self.at_least(t) for t in thresholds},
            "bonus_probability": self.bonus_probability,
            **({"yahtzee_bonus_mean": self.yahtzee_bonus_mean} if self.rules.yahtzee_bonus else {}),
            "boxes": {b.name: {"mean": float(self.box_mean[i]),
                               "nonzero": float(self.box_nonzero[i])}
                      for i, b in enumerate(self.rules.boxes)},
            "pmf": {str(s): float(p) for s, p in enumerate(self.pmf) if p > 0},
            "seconds": self.seconds,
        }


# ------------------------------------------------------------------ driver
def _gain_lengths(rules: Rules, card: Scorecard, masks: np.ndarray) -> np.ndarray:
    """1 + the most lower, beyond-threshold upper and yahtzee bonus points
    the boxes of ``masks`` that the card has open can add (a yahtzee bonus
    comes at most once a turn, in the turns after the flag is set)."""
    best = policy_tables(rules).out_best
    bits = np.arange(rules.n_boxes)
    new = ((masks[:, None] >> bits) & 1 == 1) & ((card.mask >> bits) & 1 == 0)
    lower = np.where(new & ~rules.is_upper, best, 0).sum(axis=1)
    upper = np.where(new & rules.is_upper, best, 0).sum(axis=1)
    turns = new.sum(axis=1) - (0 if card.mask & state_space(rules).flag_bit else 1)
    extra = np.where(masks & state_space(rules).flag_bit, rules.yahtzee_bonus * np.maximum(turns, 0), 0)
    return lower + np.maximum(card.upper_state + upper - rules.cap, 0) + extra + 1


def distribution(rules: Rules, card: Scorecard, values: np.ndarray | None,
                 policy: str = "optimal", theta: float = 0.0) -> Distribution:
    """The exact final-score distribution from ``card`` (at a turn start)
    under ``policy``; ``values`` is the value table (for ``optimal``) of
    the objective ``theta``."""
    if card.is_full:
        raise InputError("the card is full: its final score is already known")
    start = time.perf_counter()
    g = policy_tables(rules, theta)
    kind, vals = policy_values(rules, policy, values, theta)
    width = rules.cap + 1
    u0 = card.upper_state
    masks = np.array([card.mask], dtype=np.int64)
    lens = np.ones(1, dtype=np.int64)
    offs = np.zeros(1, dtype=np.int64)
    f = np.zeros(int(state_space(rules).upper_lanes[card.mask]))
    f[u0] = 1.0
    reach = np.zeros((1, width))
    reach[0, u0] = 1.0
    lo = np.zeros((1, width), dtype=np.int64)
    hi = np.zeros((1, width), dtype=np.int64)
    hi[0, u0] = 1
    tally = np.zeros((pieces(), len(g.out_box)))     # each piece's outcome totals
    # the layers after the card: masks, gain lengths, block sizes
    plan = []
    for layer in state_space(rules).layers[card.turn + 1:]:
        nxt = layer[(layer & card.mask) == card.mask]
        nlens = _gain_lengths(rules, card, nxt)
        plan.append((nxt, nlens, state_space(rules).upper_lanes[nxt] * nlens))
    # Fresh pages cost a fault and a zeroing by the kernel each, so the layers
    # take turns in two buffers allocated once at the largest layer, and the
    # turn outcomes of every layer reuse one.
    fbuf = [np.empty(max(int(size.sum()) for _, _, size in plan)) for _ in range(2)]
    obuf = np.empty(max(int(_out_sizes(rules, g, m, policy)[1].sum())
                        for m in [masks] + [m for m, _, _ in plan[:-1]]))
    for k, (nxt, nlens, nsize) in enumerate(plan):
        # outcomes of this layer's turns
        ostride, osize = _out_sizes(rules, g, masks, policy)
        obase = np.concatenate([[0], np.cumsum(osize)[:-1]]).astype(np.int64)
        outs = obuf[:int(osize.sum())]
        ogroup = np.zeros((len(masks), width), dtype=np.int64)
        out = Outcomes(obase, ostride, ogroup, outs, tally)
        run_pieces(batch, g, Job(vals, kind, masks, reach), NO_ROWS, out)
        # carry the probabilities into the next layer
        pos = np.full(state_space(rules).n_masks, -1, dtype=np.int64)
        pos[masks] = np.arange(len(masks))
        noffs = np.concatenate([[0], np.cumsum(nsize)[:-1]]).astype(np.int64)
        nf = fbuf[k % 2][:int(nsize.sum())]
        nreach = np.zeros((len(nxt), width))
        nlo = np.zeros((len(nxt), width), dtype=np.int64)
        nhi = np.zeros((len(nxt), width), dtype=np.int64)
        run_pieces(carry, g, pos, Spread(masks, f, offs, lens, reach, lo, hi), out,
                   Spread(nxt, nf, noffs, nlens, nreach, nlo, nhi))
        keep = nreach.sum(axis=1) > 0          # masks the policy reaches (the others'
        masks, lens, offs, f = nxt[keep], nlens[keep], noffs[keep], nf    # blocks stay unread)
        reach, lo, hi = nreach[keep], nlo[keep], nhi[keep]
    last = Spread(masks, f, offs, lens, reach, lo, hi)
    out = _summarise(rules, card, policy, values if theta == 0 else None, last,
                     tally.sum(axis=0), g, time.perf_counter() - start)
    return replace(out, theta=theta)


def _out_sizes(rules: Rules, g, masks: np.ndarray, policy: str) -> tuple[np.ndarray, np.ndarray]:
    """Per mask: the columns of its turn outcomes (the upper totals it may
    decide; one for ``simple``, which plays alike at every total) and the
    size of its block of outcomes (columns times the outcomes of the boxes
    it allows)."""
    allowed = (state_space(rules).allowed_table[masks][:, None] >> np.arange(rules.n_boxes)) & 1
    if policy == "simple":
        ostride = np.ones(len(masks), dtype=np.int64)
    else:
        ostride = (state_space(rules).upper_lanes[masks] - g.turn.start[masks]).astype(np.int64)
    return ostride, (allowed @ np.diff(g.out_start)) * ostride


def _summarise(rules, card, policy, values, last: Spread, tally, g, seconds) -> Distribution:
    """Final-score pmf, bonus and box figures from the full-card layer
    ``last`` (one mask, or two: with the flag bit and without)."""
    masks, f, offs, lens = last.masks, last.f, last.off, last.size
    assert set(masks & state_space(rules).full_mask) == {state_space(rules).full_mask}
    u0 = card.upper_state
    cap = rules.cap
    lanes = int(state_space(rules).upper_lanes[state_space(rules).full_mask])
    pmf = np.zeros(card.score + (cap - u0 if cap else 0) + rules.bonus_points + lens.max() + 1)
    bonus = 1.0 if card.bonus else 0.0
    for o, n in zip(offs, lens):
        block = f[o:o + lanes * n].reshape(lanes, n)
        for u in range(lanes):
            gained = upper_bonus(rules, u) - upper_bonus(rules, u0)    # the bonus since the card
            earned = gained > 0
            base = card.score + (u - u0) + gained
            if block[u].any():
                pmf[base:base + n] += block[u]
                if earned:
                    bonus += float(block[u].sum())
    pmf = pmf[:np.flatnonzero(pmf)[-1] + 1]
    box_mean = np.zeros(rules.n_boxes)
    box_nonzero = np.zeros(rules.n_boxes)
    for c, (b, p) in enumerate(zip(g.out_box, g.out_pts)):
        box_mean[b] += p * tally[c]
        box_nonzero[b] += tally[c] if p > 0 else 0.0
    for b, p in enumerate(card.points):
        if p is not None:
            box_mean[b], box_nonzero[b] = p, float(p > 0)
    table = None
    if policy == "optimal" and values is not None:       # the expected score's table
        table = card.score + float(values[card.mask, u0])
    return Distribution(rules, card, policy, pmf, bonus, box_mean, box_nonzero, table, seconds,
                        yahtzee_bonus_mean=card.yahtzee_bonus + float(tally @ g.out_extra))
