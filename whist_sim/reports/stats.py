"""Small statistics helpers for the reports: t-intervals, Wilson intervals, Bradley-Terry.

The unit of inference is the DEAL INDEX: every line-up and seat rotation of the
run plays its cards, so the hands and duplicate pairs of one deal index are not
independent, deal indices are; means and their intervals are taken over deal
indices, never over hands (a mean of per-deal means, or, where deal indices hold
different numbers of hands or contracts, a pooled ratio with a cluster standard
error: :func:`ratio_aggs`). Each helper comes in two forms where
reports need both: Polars expressions (used inside the lazy chains of
``analyses``) and plain NumPy functions (for tests and notebooks).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import choix
import numpy as np
import numpy.typing as npt
import polars as pl
import polars.selectors as cs
from scipy import stats as sps

from whist_sim.inference.estimate import wilson_bounds
from whist_sim.inference.fit_failure import FitDidNotConverge

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)

CONFIDENCE = 0.95
"""Level of every interval in the reports."""

ELO_PER_LOGIT = 400.0 / math.log(10.0)
"""Elo points per unit of Bradley-Terry log-strength: 400 Elo = odds of 10 to 1."""

_Z = float(sps.norm.ppf(0.5 + CONFIDENCE / 2))

BOOTSTRAP_BLOCKS = 1024
"""Blocks of deal indices the Bradley-Terry bootstrap resamples (deal index modulo this)."""

BRADLEY_TERRY_MAX_ITERATIONS = 10_000
"""Steps ``choix``'s ILSR may take; past them the fit raises ``FitDidNotConverge``."""


class Interval(NamedTuple):
    """A point estimate with its interval; ``lo``/``hi`` are NaN when undefined (n < 2)."""

    estimate: float
    lo: float
    hi: float
    n: int

    def as_rate(self) -> Interval:
        """The interval of a proportion: its bounds cut at 0 and 1, or, when the units
        showed no spread, Wilson's widened to :func:`flat_share_bounds` where those are
        wider (at a handful of units; see :func:`with_t_interval`; NaN bounds stay NaN)."""
        if self.n >= 2 and self.hi - self.lo <= FLAT:  # zero width: every unit the same
            lo, hi = no_spread_bounds(self.estimate, self.n)
            return self._replace(lo=lo, hi=hi)
        return self._replace(lo=min(max(self.lo, 0.0), 1.0) if self.lo == self.lo else self.lo,
                             hi=min(max(self.hi, 0.0), 1.0) if self.hi == self.hi else self.hi)


def no_spread_bounds(share: float, n: int) -> tuple[float, float]:
    """The 95% interval of a rate whose ``n`` units all gave ``share``: Wilson's over
    the units, widened to :func:`flat_share_bounds` where those are wider (a handful of
    units), within 0 and 1. Every rate of a report with no spread reads this."""
    lo, hi = _wilson(share, n)
    exact_lo, exact_hi = flat_share_bounds(share, n)
    return max(min(lo, exact_lo), 0.0), min(max(hi, exact_hi), 1.0)


def flat_share_bounds(share: float, n: int, alpha: float = 1.0 - CONFIDENCE) -> tuple[float, float]:
    """The 1 - ``alpha`` interval of a mean share whose ``n`` units (deals) all gave
    ``share``, whatever their values' distribution on [0, 1]: the means m that
    :func:`flat_share_p` does not reject. At a share of 1 its lower bound is
    Clopper-Pearson's, (alpha / 2) ** (1 / n).

    Wilson's interval, which assumes a binomial spread, read 51.0% to 100% over 4 deals all
    won and "decided" against 1/2, which gives 4 of 4 one time in 16 (a statistician's
    probe); the run's own fixed test had said it cannot decide."""
    shrink = (alpha / 2.0) ** (1.0 / n)
    return share * shrink, 1.0 - (1.0 - share) * shrink


def flat_share_p(share: float, null: float, n: int) -> float:
    """Two-sided p-value of "the mean share is ``null``" when all ``n`` units gave
    ``share``: under a mean m a value in [0, 1] is at least ``share`` > m at most m /
    ``share`` of the time (Markov's inequality, reached by values of 0 and ``share``
    only), so n units all there come at most (m / share) ** n of the time; below m,
    mirrored. Valid for any values in [0, 1], not only for a binomial spread."""
    if share > null:
        bound = (null / share) ** n
    elif share < null:
        bound = ((1.0 - null) / (1.0 - share)) ** n
    else:
        return 1.0
    return min(1.0, 2.0 * bound)


FLAT = 1e-12
"""A spread over units this small is none: every unit gave the same value (a spread of
shares made of a few hands is far larger, or exactly zero)."""


# -- sums in one order ------------------------------------------------------------------
#
# A sum of fractions taken in another order can differ in its last bit, and a report's CSV
# tables carry every bit. The order a group's rows reach ``sum()``, ``mean()`` or ``std()``
# is whatever order they were stored in (which task was committed first) or another
# group-by's threads produced them in: two builds of one report wrote
# ``3.5082042940200724`` and ``3.508204294020072``. Sorting the frame first does not help:
# Polars' optimiser drops a sort before an aggregation it takes for order-free, as it
# takes a sum. These add the values up in order of value, the order that is the same
# whatever the rows' order, as a cumulative sum that the optimiser must keep in order (or,
# cheaper over many small groups, in lists gathered from the frame sorted by every
# column: :func:`gathered_in_value_order`). Use them wherever a report adds up values
# that are not whole numbers (pair means, deviations from a mean, products of them); a
# sum of whole numbers (wins, points, counts, a run's own tables) is exact in any order
# and needs none of this.


def ordered_sum(values: pl.Expr) -> pl.Expr:
    """``values.sum()``, added up in order of value: the same bits in any order of rows.
    Nulls are skipped, and a sum of none is 0, as ``sum()``'s."""
    return values.drop_nulls().sort().cum_sum().last().fill_null(0)


def ordered_sums(names: Sequence[str]) -> list[pl.Expr]:
    """``pl.col(*names).sum()``, the columns of fractions among them added up by
    :func:`ordered_sum` and those of whole numbers as they are (exact in any order, and
    not worth a sort). The sums come out fractions first: select them in the order
    wanted."""
    chosen = cs.by_name(*names)
    return [ordered_sum(chosen & cs.float()), (chosen - cs.float()).sum()]


def gathered_in_value_order(frame: FrameT, keys: Sequence[str], columns: Sequence[str],
                            *aggs: pl.Expr) -> FrameT:
    """``frame.group_by(keys).agg(*aggs)`` with each of ``columns`` gathered into a list per
    group, its values in one order (the frame sorted by every column): take ``.list.sum()``
    or ``.list.mean()`` of them for the sums of :func:`ordered_sum`. For many small
    groups (a deal index's pairs): a sort inside each group's aggregation costs there about
    ten times a plain sum, a sort of the whole frame about twice, and the optimiser keeps
    this one, since gathering a list observes its order."""
    return (frame.sort(pl.all(), nulls_last=True)
            .group_by(list(keys)).agg(*aggs, *[pl.col(column) for column in columns]))


def ordered_mean(values: pl.Expr) -> pl.Expr:
    """``values.mean()`` from :func:`ordered_sum` (null where every value is null)."""
    count = values.count()
    return pl.when(count > 0).then(ordered_sum(values) / count)


def ordered_squares(values: pl.Expr) -> pl.Expr:
    """The sum of squared deviations of ``values`` from their :func:`ordered_mean`."""
    return ordered_sum((values - ordered_mean(values)) ** 2)


def ordered_std(values: pl.Expr) -> pl.Expr:
    """``values.std()`` (one degree of freedom off) from :func:`ordered_squares` (null
    with fewer than two values)."""
    count = values.count()
    return pl.when(count > 1).then((ordered_squares(values) / (count - 1)).sqrt())


# -- means over units -------------------------------------------------------------------


def t_critical(n: pl.Expr) -> pl.Expr:
    """Two-sided Student t quantile for a mean of ``n`` units (null when n < 2).

    Computed per row with SciPy through ``map_batches`` so it stays inside a lazy chain.
    """

    def quantile(counts: pl.Series) -> pl.Series:
        df = counts.cast(pl.Float64).to_numpy() - 1.0
        with np.errstate(invalid="ignore"):
            values = np.where(df >= 1, sps.t.ppf(0.5 + CONFIDENCE / 2, np.maximum(df, 1)), np.nan)
        return pl.Series(counts.name, values, dtype=pl.Float64).fill_nan(None)

    return n.map_batches(quantile, return_dtype=pl.Float64)


def mean_ci_aggs(column: str, name: str | None = None) -> list[pl.Expr]:
    """Aggregations for a mean over units: ``<name>`` and its standard deviation ``<name>_sd``.

    Use inside ``group_by(...).agg(...)`` where each row is one unit (a duplicate
    pair), next to a count of the units, then add the interval with
    :func:`with_t_interval`.
    """
    name = name or column
    return [
        ordered_mean(pl.col(column)).alias(name),
        ordered_std(pl.col(column)).alias(f"{name}_sd"),
    ]


def with_t_interval(name: str, n: str = "pairs", rate: bool = False) -> list[pl.Expr]:
    """``<name>_lo`` and ``<name>_hi``: the 95% t-interval of the mean ``name`` over ``n`` units.

    Expects the columns made by :func:`mean_ci_aggs` and a unit count column ``n``.
    ``rate``: ``name`` is a proportion, so its bounds are cut at 0 and 1 (a t-interval of
    a rate near either end reaches past it, as far as a rate cannot go; cut there it still
    covers every value it covered). And where every unit gave the same value, the
    t-interval has no width, which would read as certainty (30 pairs all won: "100% to
    100%"); a rate then gets Wilson's score interval over its units instead, the
    interval of that many independent all-or-nothing units with that share, widened to
    :func:`flat_share_bounds` where those are wider, at a handful of units (30 pairs all
    won: 88.4% to 100%; 4: 39.8% to 100%, where Wilson's alone read 51.0%)."""
    half = t_critical(pl.col(n)) * pl.col(f"{name}_sd") / pl.col(n).cast(pl.Float64).sqrt()
    lo, hi = pl.col(name) - half, pl.col(name) + half
    if rate:
        lo, hi = _rate_bounds(pl.col(name), lo, hi, pl.col(f"{name}_sd"), pl.col(n))
    return [lo.alias(f"{name}_lo"), hi.alias(f"{name}_hi")]


def with_rate_bounds(name: str) -> list[pl.Expr]:
    """``<name>_lo``/``<name>_hi`` of a pooled proportion (:func:`ratio_aggs`,
    :func:`with_ratio_interval`) as a rate's: cut at 0 and 1, or Wilson's interval over
    the units where they showed no spread (a zero standard error), as
    :func:`with_t_interval` does for a mean."""
    lo, hi = _rate_bounds(pl.col(name), pl.col(f"{name}_lo"), pl.col(f"{name}_hi"),
                          pl.col(f"{name}_se"), pl.col(f"{name}_units"))
    return [lo.alias(f"{name}_lo"), hi.alias(f"{name}_hi")]


def _rate_bounds(p: pl.Expr, lo: pl.Expr, hi: pl.Expr, spread: pl.Expr, units: pl.Expr
                 ) -> tuple[pl.Expr, pl.Expr]:
    flat = spread <= FLAT
    count = units.cast(pl.Float64)
    wilson_lo, wilson_hi = _wilson_bounds(p, count)
    shrink = (math.log((1.0 - CONFIDENCE) / 2) / count).exp()  # flat_share_bounds, as an expression
    flat_lo = pl.min_horizontal(wilson_lo, p * shrink).clip(0.0, 1.0)
    flat_hi = pl.max_horizontal(wilson_hi, 1.0 - (1.0 - p) * shrink).clip(0.0, 1.0)
    return (pl.when(flat).then(flat_lo).otherwise(lo.clip(0.0, 1.0)),
            pl.when(flat).then(flat_hi).otherwise(hi.clip(0.0, 1.0)))


def t_interval(values: npt.ArrayLike) -> Interval:
    """Mean of ``values`` (one per unit) with its 95% Student t-interval."""
    x = np.asarray(values, dtype=float)
    n = int(x.size)
    mean = float(x.mean()) if n else math.nan
    if n < 2:
        return Interval(mean, math.nan, math.nan, n)
    half = float(sps.t.ppf(0.5 + CONFIDENCE / 2, n - 1) * x.std(ddof=1) / math.sqrt(n))
    return Interval(mean, mean - half, mean + half, n)


@dataclass
class RunningRatio:
    """A ratio ``sum(y) / sum(n)`` over units added batch by batch, with its interval as
    :func:`ratio_interval` gives it, in constant memory: counts, sums and the co-moments
    of ``y`` and ``n`` over units, batches merged by Chan et al.'s formula (the report's
    standings combine their parts the same way, ``analyses.standings_of``)."""

    k: int = 0
    total_y: float = 0.0
    total_n: float = 0.0
    cyy: float = 0.0
    cyn: float = 0.0
    cnn: float = 0.0

    def add(self, y: npt.ArrayLike, n: npt.ArrayLike) -> None:
        ys = np.asarray(y, dtype=float).ravel()
        ns = np.asarray(n, dtype=float).ravel()
        if not ys.size:
            return
        j = int(ys.size)
        my, mn = float(ys.mean()), float(ns.mean())
        cyy, cyn, cnn = (float(((ys - my) ** 2).sum()), float(((ys - my) * (ns - mn)).sum()),
                         float(((ns - mn) ** 2).sum()))
        if self.k:
            k = self.k
            dy, dn = my - self.total_y / k, mn - self.total_n / k
            weight = k * j / (k + j)
            cyy += weight * dy * dy
            cyn += weight * dy * dn
            cnn += weight * dn * dn
        self.cyy += cyy
        self.cyn += cyn
        self.cnn += cnn
        self.k += j
        self.total_y += float(ys.sum())
        self.total_n += float(ns.sum())

    def interval(self) -> Interval:
        k = self.k
        ratio = self.total_y / self.total_n if k and self.total_n else math.nan
        if k < 2:
            return Interval(ratio, math.nan, math.nan, k)
        residuals = max(self.cyy - 2 * ratio * self.cyn + ratio * ratio * self.cnn, 0.0)
        se = math.sqrt(k / (k - 1) * residuals) / self.total_n
        half = float(sps.t.ppf(0.5 + CONFIDENCE / 2, k - 1)) * se
        return Interval(ratio, ratio - half, ratio + half, k)


# -- ratios over units ------------------------------------------------------------------


def ratio_aggs(name: str, y: pl.Expr, n: pl.Expr) -> list[pl.Expr]:
    """Aggregations for a ratio ``sum(y) / sum(n)`` over units, with its standard error.

    Use inside ``group_by(...).agg(...)`` where each row is one unit (a
    duplicate set) holding a total ``y`` (e.g. units won) and a count ``n``
    (e.g. contracts played, or hands dealt). Makes ``<name>`` (the pooled
    ratio), ``<name>_se`` and ``<name>_units`` (how many units); add the
    interval with :func:`with_ratio_interval`.

    The standard error is the usual one of a ratio estimator under cluster
    sampling (the delta method): with R the ratio, k units and N = sum(n),
    ``se = sqrt(k / (k - 1) * sum((y - R n)^2)) / N``. Unlike a mean of per-unit
    ratios, every hand or contract weighs the same, and unlike a t-interval over
    hands, hands that share a duplicate set are not taken as independent.
    """
    total = n.sum().cast(pl.Float64)  # a count: whole numbers add up exactly
    ratio = ordered_sum(y).cast(pl.Float64) / total
    k = n.len().cast(pl.Float64)
    residuals = ordered_sum((y.cast(pl.Float64) - ratio * n.cast(pl.Float64)) ** 2)
    return [
        ratio.alias(name),
        ((k / (k - 1) * residuals).sqrt() / total).alias(f"{name}_se"),
        n.len().cast(pl.Int64).alias(f"{name}_units"),
    ]


def with_ratio_interval(name: str, scale: float = 1.0) -> list[pl.Expr]:
    """``<name>``, ``<name>_lo``, ``<name>_hi``: the ratio of :func:`ratio_aggs` with its 95%
    t-interval (``units - 1`` degrees of freedom), all multiplied by ``scale``.

    Null ratio without any count; null bounds with fewer than two units.
    """
    half = t_critical(pl.col(f"{name}_units")) * pl.col(f"{name}_se").fill_nan(None)
    mid = pl.col(name).fill_nan(None)
    return [
        (mid * scale).alias(name),
        ((mid - half) * scale).alias(f"{name}_lo"),
        ((mid + half) * scale).alias(f"{name}_hi"),
    ]


def ratio_interval(y: npt.ArrayLike, n: npt.ArrayLike) -> Interval:
    """NumPy twin of :func:`ratio_aggs` and :func:`with_ratio_interval`: one (y, n) per unit
    (:class:`RunningRatio` given them all at once)."""
    ratio = RunningRatio()
    ratio.add(y, n)
    return ratio.interval()


# -- proportions ------------------------------------------------------------------------


def wilson_interval(successes: float, n: int) -> Interval:
    """Proportion ``successes / n`` with its 95% Wilson score interval.

    Only for independent units: the interval assumes n independent Bernoulli trials.
    """
    if n <= 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    p = successes / n
    lo, hi = _wilson(p, n)
    return Interval(p, lo, hi, n)


def _wilson(p: float, n: float) -> tuple[float, float]:
    return wilson_bounds(p, n, _Z)


def with_wilson_interval(name: str, n: str) -> list[pl.Expr]:
    """``<name>_lo``/``<name>_hi``: the 95% Wilson interval of proportion ``name`` over ``n``."""
    lo, hi = _wilson_bounds(pl.col(name), pl.col(n).cast(pl.Float64))
    return [lo.alias(f"{name}_lo"), hi.alias(f"{name}_hi")]


def _wilson_bounds(p: pl.Expr, count: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    z2 = _Z * _Z
    centre = (p + z2 / (2 * count)) / (1 + z2 / count)
    half = _Z / (1 + z2 / count) * (p * (1 - p) / count + z2 / (4 * count * count)).sqrt()
    # at p = 0 or 1 the near bound is p itself, which rounding can miss by a hair
    return (pl.when(p <= 0).then(0.0).otherwise((centre - half).clip(0.0, 1.0)),
            pl.when(p >= 1).then(1.0).otherwise((centre + half).clip(0.0, 1.0)))


# -- Bradley-Terry ----------------------------------------------------------------------


def bradley_terry(
    results: pl.DataFrame,
    *,
    prior_draws: float = 1.0,
    bootstrap: int = 200,
    seed: int = 0,
) -> pl.DataFrame:
    """Bradley-Terry ratings on the Elo scale, with 95% bootstrap intervals.

    ``results`` has one row per (deal, strategy, opponent) with ``wins``: the
    hands ``strategy`` won against ``opponent`` on that deal index, a draw
    counting half a win each way (``analyses.pairwise_results`` makes it).

    Fit: maximum likelihood with ``choix.ilsr_pairwise_dense`` on the matrix of
    win counts, plus ``prior_draws`` virtual drawn hands between every two
    entrants (half a win each way). That small prior keeps the estimate finite
    when one strategy wins every hand against another (the plain MLE is then
    infinite) and links entrants that never met; against thousands of hands it
    moves the ratings by little.

    Scale: ``rating = 400 / ln 10 * theta``, centred so the ratings average 0
    (no entrant is privileged as the reference; a difference of 400 means odds
    of 10 to 1 of winning a hand).

    Intervals: percentile bootstrap over deal indices (``bootstrap`` resamples,
    generator seeded with ``seed`` so reports are reproducible). A deal index is
    the right unit to resample: it holds every duplicate pair that used those
    cards, in every line-up, so the resampling keeps what they share. The
    observed Fisher information would treat every hand as independent and
    ignore exactly that sharing, giving intervals that are too narrow. Deal
    indices are resampled in :data:`BOOTSTRAP_BLOCKS` blocks (deal index modulo
    the number of blocks): the wins are summed per block first, so a resample
    costs the same at any run size. Deal indices are seeds, exchangeable, so a
    block is a random set of them, and resampling blocks estimates the same
    spread as resampling deal indices; with deal indices below that number each
    block is one deal index and nothing changes.

    Returns one row per entrant, best first: strategy, rating, rating_lo,
    rating_hi (null without a bootstrap or with a single deal index), hands.
    The fit is numerical, not a Polars expression, so this takes the collected
    frame rather than a LazyFrame.
    """
    names = sorted(set(results["strategy"].to_list()) | set(results["opponent"].to_list()))
    k = len(names)
    if k < 2:
        return pl.DataFrame(
            {"strategy": names, "rating": [0.0] * k, "rating_lo": [None] * k,
             "rating_hi": [None] * k, "hands": [0] * k},
            schema={"strategy": pl.String, "rating": pl.Float64, "rating_lo": pl.Float64,
                    "rating_hi": pl.Float64, "hands": pl.Int64},
        )
    index = {name: i for i, name in enumerate(names)}
    blocks = (
        results.group_by((pl.col("deal") % BOOTSTRAP_BLOCKS).alias("block"), "strategy",
                         "opponent")
        .agg(pl.col("wins").cast(pl.Float64).sum())
        .sort("block", "strategy", "opponent")  # the same sums in the same order every time
    )
    codes = blocks.select(
        pl.col(side).replace_strict(index, return_dtype=pl.Int64) for side in ("strategy",
                                                                              "opponent"))
    cell = (codes["strategy"] * k + codes["opponent"]).to_numpy()
    wins = blocks["wins"].to_numpy()
    deals, deal_of_row = np.unique(blocks["block"].to_numpy(), return_inverse=True)

    def fit(weights: np.ndarray) -> np.ndarray:
        counts = np.bincount(cell, weights=wins * weights, minlength=k * k).reshape(k, k)
        counts = counts + prior_draws / 2 * (1 - np.eye(k))
        try:
            theta = choix.ilsr_pairwise_dense(counts, max_iter=BRADLEY_TERRY_MAX_ITERATIONS,
                                              tol=1e-10)
        except RuntimeError as exc:
            if "converge" not in str(exc):  # choix's text for running out of iterations
                raise
            raise FitDidNotConverge(
                f"Bradley-Terry (choix's ILSR) did not converge in"
                f" {BRADLEY_TERRY_MAX_ITERATIONS:,} iterations") from None
        rating = ELO_PER_LOGIT * theta
        return rating - rating.mean()

    point = fit(np.ones_like(wins))
    lo = hi = np.full(k, np.nan)
    if bootstrap > 0 and deals.size > 1:
        rng = np.random.default_rng(seed)
        draws = np.empty((bootstrap, k))
        for b in range(bootstrap):
            multiplicity = np.bincount(rng.integers(0, deals.size, deals.size),
                                       minlength=deals.size)
            draws[b] = fit(multiplicity[deal_of_row].astype(float))
        lo, hi = np.percentile(draws, [50 * (1 - CONFIDENCE), 50 * (1 + CONFIDENCE)], axis=0)
    played = np.bincount(cell, weights=wins, minlength=k * k).reshape(k, k)
    hands = np.rint(played.sum(axis=0) + played.sum(axis=1)).astype(np.int64)
    return pl.DataFrame(
        {"strategy": names, "rating": point, "rating_lo": lo, "rating_hi": hi, "hands": hands}
    ).sort("rating", descending=True)
