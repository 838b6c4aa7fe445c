"""Many comparisons, one error rate: Holm's step-down test over the verdict's comparisons.

The verdict compares every two entrants (or neighbours in the ranking, or each
Knock-out entrant with its fair share), each with its own 95% interval. Read one at a
time, each would call a difference of truly equal entrants "decided" one time in
twenty; among six comparisons of equal entrants, one of them did in 20% of simulated
runs (tests/test_multiplicity.py). A reader
acts on the word "decided", so it carries a family-wise error rate: a comparison is
decided when Holm's (1979) step-down procedure rejects it at 5% over all the
comparisons the section makes. Holm's procedure holds that rate whatever the
dependence between the comparisons (they share entrants and deals), and it never
decides less than Bonferroni's.

Each comparison's p-value is the test its interval inverts, so that "its interval
excludes equality" and "p < 0.05" say the same: Student's t over deal indices, or,
for a share whose values show no spread (shown with Wilson's interval), the score test
Wilson's interval inverts; net margins with no spread have no interval, and no test.
Student's t is approximate on strongly skewed net margins over few deals: with one
entrant of four losing rarely and heavily (skewness -2.5, all equal, 30 deals) the
family-wise rate measured 4.6% (standard error 0.3; ``python
benchmarks/verdict_error_rates.py holm --runs 4000``), where a probe, on a mix it did not
record, had measured 5.7% against the 5% promised.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from scipy import stats

from whist_sim.inference.pair_models import FLAT_SPEND
from whist_sim.reports.stats import FLAT, flat_share_p, t_interval

FAMILY_WISE_ALPHA = 0.05
"""The chance, when every compared difference is in truth zero, that any comparison of
the section reads "decided"."""

def p_value(values: npt.ArrayLike, null: float, rate: bool,
            largest: float | None = None) -> float:
    """Two-sided p-value of "the mean of ``values`` (one per pair) is ``null``".

    Net margins that all agree, each within ``largest`` of 0 (``Figure.largest``), are
    tested as ``flat_share_p`` tests a share, on the range [-largest, largest] mapped
    onto [0, 1] (valid for any distribution within it), at ``FLAT_SPEND`` of the level:
    the rest is Student's t's, for margins that differ.

    NaN below two pairs (no interval either). ``rate``: the values are shares, and pairs
    that all agree are tested with Wilson's score test, as their interval is drawn, or
    with ``flat_share_p`` where that is larger (a handful of pairs: 4 deals all won read
    "decided" against 1/2, which gives them one time in 16). Net
    margins (not ``rate``) that all agree are NaN too: they have no interval (the report
    shows ``[no spread]``) and no test, as the fixed-sample test reads them
    "inconclusive" (docs/statistics.md). A p-value of 0 read "decided" after three deals
    of a strategy that forfeited every hand, beside the duel's "cannot decide" (a
    statistician's probe), and pairs of rare large losses look like that until the first
    loss."""
    x = np.asarray(values, dtype=float)
    n = int(x.size)
    if n < 2:
        return math.nan
    mean, sd = float(x.mean()), float(x.std(ddof=1))
    interval = t_interval(x)
    if interval.hi - interval.lo <= FLAT:  # no spread: the very test ``as_rate`` makes
        if rate and 0.0 < null < 1.0:  # and no smaller than the bound valid at any n
            z = (mean - null) / math.sqrt(null * (1.0 - null) / n)
            return max(float(2.0 * stats.norm.sf(abs(z))), flat_share_p(mean, null, n))
        if rate:  # a share at 0 or 1 under the null cannot leave it without spreading
            return 1.0 if mean == null else 0.0
        if largest:  # net margins that all agree, read against the game's bound
            def scaled(value: float) -> float:
                return (min(max(value, -largest), largest) + largest) / (2.0 * largest)

            return min(1.0, flat_share_p(scaled(mean), scaled(null), n) / FLAT_SPEND)
        return math.nan  # net margins that all agree, with no bound known: no test
    t = (mean - null) / (sd / math.sqrt(n))
    return float(2.0 * stats.t.sf(abs(t), n - 1))


def score_p_value(values: npt.ArrayLike, null: float) -> float:
    """Two-sided p-value of "the mean of ``values`` is ``null``", its spread taken about
    ``null`` rather than about the mean (a score test's: the spread the null implies).

    For Knock-out Whist's shares against the fair share. With few deals an entrant's
    values per deal index are skewed (a seventh of the games won in most deals, none in
    some), and a run of low values has both a low mean and a small spread about it, so
    Student's t read "below the fair share" too often: among seven equal entrants over
    10 deals Holm's "decided" came out 9.9% of the time at a family-wise 5% (a
    statistician's probe), 6.0% over 100. Taken about the null the spread is not fooled:
    0.0% over 10 deals, 2.6% over 30, 4.2% over 100 (2,000 runs each)."""
    x = np.asarray(values, dtype=float)
    n = int(x.size)
    if n < 2:
        return math.nan
    spread = math.sqrt(float(((x - null) ** 2).sum()) / (n - 1))
    if spread == 0.0:  # every value is the null itself
        return 1.0
    t = (float(x.mean()) - null) / (spread / math.sqrt(n))
    return float(2.0 * stats.t.sf(abs(t), n - 1))


def fewest_deals_to_decide(family: int, alpha: float = FAMILY_WISE_ALPHA) -> int:
    """The fewest values (deal indices) with which ``score_p_value`` can pass the first
    step of Holm's test over ``family`` comparisons. Its t is at most sqrt(n - 1), the
    spread about the null being at least the mean's distance from it, so below this
    number no share, however far from the fair one, reads decided: a run of 6 deals gave
    64.8% against a fair 33.3% "not decided", and the report says why."""
    n = 2
    while math.sqrt(n - 1) <= stats.t.isf(alpha / family / 2, n - 1):
        n += 1
    return n


def holm_next_level(family: int, decided: int, alpha: float = FAMILY_WISE_ALPHA) -> float:
    """The level at which Holm's step-down test over ``family`` comparisons, ``decided``
    of them decided, tests the next: alpha / (family - decided). An undecided comparison
    is decided once its p-value reaches it (the smallest p-value left is tested first),
    so the deals said to separate it are sized at this level; sized at alpha / family,
    Bonferroni's, they overstated what a comparison left alone among decided ones needs
    (a probe: "1,980 more deals ... at the level 5% / 3" where Holm tests it at 5%)."""
    if not 0 <= decided < family:
        raise ValueError(f"holm_next_level: decided = {decided!r} must be from 0 to"
                         f" family - 1 = {family - 1} (a comparison is left undecided)")
    return alpha / (family - decided)


def holm_level_text(family: int, decided: int) -> str:
    """``holm_next_level`` in words: "5% / 3", or "5% / 1, 2 of the 3 being decided"."""
    left = family - decided
    if decided == 0:
        return f"{100 * FAMILY_WISE_ALPHA:g}% / {family}"
    return (f"{100 * FAMILY_WISE_ALPHA:g}% / {left}, {decided:,} of the {family:,} being"
            " decided")


def holm(p_values: Sequence[float], alpha: float = FAMILY_WISE_ALPHA) -> list[bool]:
    """Which hypotheses Holm's step-down procedure rejects at family-wise ``alpha``.

    Sorted by p-value, the k-th smallest (from 0) of m is rejected while every p-value up
    to it is at most alpha / (m - k); the first that is not stops the procedure. A NaN
    (no test possible) counts among the m and is never rejected."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (math.isnan(p_values[i]), p_values[i]))
    rejected = [False] * m
    for k, i in enumerate(order):
        p = p_values[i]
        if math.isnan(p) or p > alpha / (m - k):
            break
        rejected[i] = True
    return rejected
