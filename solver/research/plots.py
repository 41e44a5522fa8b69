"""Plots of score distributions (matplotlib, an optional dependency), as
PNG, SVG or PDF by the file's extension (``plot_format``).

``require()`` checks for matplotlib before any work is done, so a missing
install is a one-line error rather than a traceback after a long run; an
extension that is none of these is refused the same way.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from yatzy.errors import InputError, missing_extra
from yatzy.files import atomic_path

MARKED = (5, 25, 50, 75, 95)


FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path: str | Path) -> str:
    """The format a plot is written in, from the extension of ``path``;
    InputError (one line) for any other.

    >>> plot_format("nordic.svg"), plot_format("A.PDF"), plot_format("x.png")
    ('svg', 'pdf', 'png')
    >>> plot_format("x.jpg")
    Traceback (most recent call last):
    ...
    yatzy.errors.InputError: x.jpg: a plot is written as .png, .svg or .pdf (by the file's extension)
    """
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise InputError(f"{path}: a plot is written as .png, .svg or .pdf "
                         "(by the file's extension)")
    return fmt


def save_figure(fig, path: str | Path) -> None:
    """Write ``fig`` at ``path`` atomically, in the format of its extension."""
    fmt = plot_format(path)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=120)


def require() -> None:
    """Raise InputError when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise missing_extra("plotting", "plot", "matplotlib") from None


def _pyplot():
    require()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _span(pmf: np.ndarray) -> tuple[float, float]:
    """Score range holding all but 1e-5 of the probability, plus a margin."""
    cdf = np.cumsum(pmf) / pmf.sum()
    lo = int(np.searchsorted(cdf, 5e-6))
    hi = int(np.searchsorted(cdf, 1 - 5e-6))
    return lo - 5, hi + 5


_save = save_figure


def plot_distribution(dist, path: str | Path) -> None:
    """The pmf of ``dist`` (a ``distribution.Distribution``, exact or
    estimated) with its mean and the percentiles ``MARKED`` marked."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    scores = np.arange(len(dist.pmf))
    ax.fill_between(scores, dist.pmf, step="mid", alpha=0.35, color="tab:blue")
    ax.step(scores, dist.pmf, where="mid", color="tab:blue", lw=1)
    top = float(dist.pmf.max())
    below = 1 / 1.22                 # the lines stop under the labels above the curve
    for i, q in enumerate(MARKED):
        s = dist.percentile(q)
        ax.axvline(s, ymax=below, color="grey", ls=":", lw=1)
        ax.text(s, top * (1.02 + 0.09 * (i % 2)), f"P{q}: {s}", ha="center", va="bottom",
                fontsize=8)
    ax.axvline(dist.mean, ymax=below, color="tab:red", lw=1, label=f"mean {dist.mean:.2f}")
    ax.set_ylim(0, top * 1.22)
    ax.set_xlim(*_span(dist.pmf))
    ax.legend(loc="upper right")
    ax.set_xlabel("final score")
    ax.set_ylabel("probability")
    how = f", estimated from {dist.games} games" if dist.games else ""
    ax.set_title(f"{dist.rules.spec}, {dist.policy} play{how}: mean {dist.mean:.2f}, "
                 f"sd {dist.sd:.2f}, bonus {100 * dist.bonus_probability:.1f}%")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def plot_simulation(sim, exact, path: str | Path) -> None:
    """The histogram of simulated scores (``simulate.Simulation``) over the
    exact pmf ``exact`` (a ``distribution.Distribution``, or None)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    freq = sim.hist / sim.games
    scores = np.arange(len(freq))
    ax.bar(scores, freq, width=1.0, color="tab:orange", alpha=0.6, label=f"{sim.games} games")
    if exact is not None:
        ax.plot(np.arange(len(exact.pmf)), exact.pmf, color="tab:blue", lw=1.2, label="exact")
    ax.set_xlim(*_span(exact.pmf if exact is not None else freq))
    ax.set_xlabel("final score")
    ax.set_ylabel("probability")
    ax.set_title(f"{sim.rules.spec}, {sim.policy} play: mean {sim.mean:.2f}, sd {sim.sd:.2f}")
    ax.legend()
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def plot_comparison(dists, path: str | Path) -> None:
    """The pmfs of several distributions (``distribution.Distribution``:
    rule sets, policies) drawn together, each with its mean marked."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    lo, hi = np.inf, -np.inf
    for i, d in enumerate(dists):
        color = f"C{i % 10}"
        how = f", {d.games} games" if d.games else ""
        ax.step(np.arange(len(d.pmf)), d.pmf, where="mid", color=color, lw=1.2,
                label=f"{d.rules.spec}, {d.policy}{how}: mean {d.mean:.2f}, sd {d.sd:.2f}")
        ax.axvline(d.mean, color=color, ls=":", lw=1)
        a, b = _span(d.pmf)
        lo, hi = min(lo, a), max(hi, b)
    ax.set_xlim(lo, hi)
    ax.set_xlabel("final score")
    ax.set_ylabel("probability")
    ax.set_title("final-score distributions (dotted: means)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
