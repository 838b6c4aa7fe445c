"""How a duplicate pair's value is distributed, and the log-likelihood ratio of two hypotheses.

A duel's unit is the duplicate pair (one deal under every seat rotation), so each
model describes one pair's value:

- **pentanomial** (German Whist): A's share of the two hands, on 0, 1/4, ..., 1, with
  the logistic Elo scale mean = 1 / (1 + 10^(-elo/400)), as fishtest models game pairs.
- **knockout share** (Knock-out Whist, A holding k of n seats, R seatings): A's share of
  the R games, on 0, 1/R, ..., 1. By Luce's choice axiom each seat wins with chance
  proportional to its strength; A's strength over B's is r = 10^(elo/400), so the mean
  is k r / (k r + n - k), the fair share k/n at elo 0. The pentanomial is the case
  k = 1, n = 2 on a grid of quarters. With several line-ups (A B A and B A B, or tables
  of several sizes) the mean is each line-up's, weighted by its share of the R games.
- **normal on net** (Solo and Minnesota Whist): A's mean net margin per hand, a real
  number, tested on its mean with the variance estimated from the pairs, and guarded
  against skewed pairs (:mod:`whist_sim.inference.skewness`). Its Elo-like scale is
  normalised Elo, nElo = mean / (sqrt(2) sd_pair) * 800 / ln(10).

The two categorical models use the generalised SPRT of fishtest (Michel Van den Bergh):
under each hypothesis the distribution of a pair is the maximum-likelihood one on the
same grid whose mean is the hypothesis' mean, found by tilting the empirical
distribution, p_i = phat_i / (1 + lambda (v_i - mu)). The solve is vectorised over rows
(one row per test) so that thousands of simulated tests run at once.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import optimize, special

from whist_sim.inference.estimate import Estimate, summarise
from whist_sim.inference.settings import NET_GAMES, SprtError, SprtSettings
from whist_sim.inference.skewness import (
    corrected_t,
    ratio_variance_factor,
    sample_skewness,
)

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Logistic Elo is 400 log10 of the odds, that is ELO_PER_NAT times the natural log."""
NELO_PER_T = 800.0 / math.log(10.0)
"""nElo per unit of mean / (sqrt(2) sd_pair), the scale fastchess and fishtest use."""
EMPTY_CATEGORY_COUNT = 1e-3
"""Count given to a grid value no pair has taken yet, as fishtest does: it keeps every
category possible under both hypotheses, so one unseen value cannot make the LLR infinite,
and is small enough to leave the LLR unchanged once a few dozen pairs are in."""
TILT_TOLERANCE = 1e-6
"""How far a fitted distribution's mean may be from its target before the fit is redone:
wide of the rounding of a steep tilt (a weight of 1e-4 among thousands lifted to half the
mass lands within about 1e-9), narrow beside any miss worth a second solve."""
GAMES = ("german_whist", "knockout_whist", *NET_GAMES)


class PairModel(ABC):
    """A model of one duplicate pair's value: its scale, its estimate, its LLR."""

    name: str
    """Short name for reports, e.g. "pentanomial"."""
    scale: str
    """The Elo-like scale, as the verdict names it."""
    unit: str
    """Unit of the Estimate's ``elo``."""
    fair_mean: float
    """Mean pair value when A and B are equally strong (elo 0)."""
    takes_net: bool
    """Whether hypotheses may be given in points per hand (``net0``/``net1``)."""

    @abstractmethod
    def mean_at(self, elo: float, sd: float | None = None) -> float:
        """Mean pair value at ``elo``; ``sd`` (per pair) is needed by normalised Elo only."""

    @abstractmethod
    def elo_of(self, mean: float, sd: float | None = None) -> float:
        """The Elo-like value of a mean pair value; inverse of :meth:`mean_at`."""

    @abstractmethod
    def hypothesis_means(
        self, settings: SprtSettings, sd: float | None = None
    ) -> tuple[float, float]:
        """Mean pair value under H0 and under H1."""

    @abstractmethod
    def llr(self, values: npt.ArrayLike, settings: SprtSettings) -> float:
        """Log-likelihood ratio of H1 against H0 given every pair value so far."""

    @abstractmethod
    def estimate(self, values: npt.ArrayLike) -> Estimate:
        """Mean, interval, Elo and LOS of the pair values."""

    @abstractmethod
    def check_bounds(self, settings: SprtSettings, where: str = "sprt") -> None:
        """Refuse hypotheses this model cannot represent, naming ``where`` they came from."""

    def scale_for(self, settings: SprtSettings) -> str:
        """The scale the hypotheses of ``settings`` are stated on."""
        return self.scale


# -- categorical models (pentanomial, knockout share) ---------------------------------


def tilted_distribution(
    weights: npt.ArrayLike, grid: npt.ArrayLike, target: npt.ArrayLike
) -> np.ndarray:
    """The maximum-likelihood distribution on ``grid`` with mean ``target``, row by row.

    ``weights`` is (tests, categories) of positive counts; ``target`` one mean per row (or
    one for all), strictly inside the grid's range. Returns p_i = phat_i / (1 + lambda a_i),
    a_i = v_i - target, with lambda the root of g(lambda) = sum phat_i a_i / (1 + lambda a_i).
    g falls from +inf to -inf on (-1/max a, -1/min a): Newton's steps, safeguarded by
    bisection inside that bracket, find the root in a few steps. A Newton step can land
    within rounding of the bracket's end, where g's pole makes the next step vanishingly
    small: that stop is no root (weights 0.2, 3, 0.2, ... on sixths, mean 1/2, put all
    the mass on 1), so a row whose fit misses its mean is solved again by bisection alone,
    which cannot miss.
    """
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    v = np.asarray(grid, dtype=float)
    mu = np.broadcast_to(np.asarray(target, dtype=float), (w.shape[0],))
    phat = w / w.sum(axis=1, keepdims=True)
    a = v[None, :] - mu[:, None]
    if not ((a.max(axis=1) > 0) & (a.min(axis=1) < 0)).all():
        raise ValueError("every target mean must lie strictly inside the grid's range")
    low, high = -1.0 / a.max(axis=1), -1.0 / a.min(axis=1)
    lam = np.zeros(w.shape[0])
    for _ in range(200):
        denominator = 1.0 + lam[:, None] * a
        g = (phat * a / denominator).sum(axis=1)
        slope = -(phat * a * a / denominator**2).sum(axis=1)
        low = np.where(g > 0, lam, low)
        high = np.where(g < 0, lam, high)
        newton = lam - g / slope
        inside = (newton > low) & (newton < high)
        step = np.where(inside, newton, 0.5 * (low + high))
        done = (g == 0) | (np.abs(step - lam) <= 1e-14 * np.maximum(1.0, np.abs(lam)))
        lam = np.where(g == 0, lam, step)
        if done.all():
            break
    p = phat / (1.0 + lam[:, None] * a)
    p /= p.sum(axis=1, keepdims=True)
    missed = ~(np.abs(p @ v - mu) <= TILT_TOLERANCE)  # a NaN misses too
    if missed.any():
        lam[missed] = _bisected_root(phat[missed], a[missed])
        again = phat[missed] / (1.0 + lam[missed, None] * a[missed])
        p[missed] = again / again.sum(axis=1, keepdims=True)
    return p


def _bisected_root(phat: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The root of g(lambda) = sum phat_i a_i / (1 + lambda a_i) by bisection alone, row by
    row, down to adjacent floats: g falls on the open bracket, so halving it cannot fail."""
    low, high = -1.0 / a.max(axis=1), -1.0 / a.min(axis=1)
    for _ in range(1100):  # float64 spans 2**-1074 to 2**1024: enough halvings for any end
        middle = 0.5 * (low + high)
        if ((middle == low) | (middle == high)).all():  # no float left between them
            break
        g = (phat * a / (1.0 + middle[:, None] * a)).sum(axis=1)
        low = np.where(g > 0, middle, low)
        high = np.where(g > 0, high, middle)
    return 0.5 * (low + high)


def categorical_llr(
    counts: npt.ArrayLike, grid: npt.ArrayLike, mean0: float, mean1: float
) -> np.ndarray:
    """The generalised-SPRT LLR of mean1 against mean0 for each row of ``counts``.

    LLR = sum_i n_i log(p1_i / p0_i), both distributions fitted to the row's own counts
    (empty categories count as EMPTY_CATEGORY_COUNT). A row without pairs has LLR 0.
    """
    n = np.atleast_2d(np.asarray(counts, dtype=float))
    regularised = np.where(n > 0, n, EMPTY_CATEGORY_COUNT)
    p0 = tilted_distribution(regularised, grid, mean0)
    p1 = tilted_distribution(regularised, grid, mean1)
    llr = (regularised * (np.log(p1) - np.log(p0))).sum(axis=1)
    return np.where(n.sum(axis=1) > 0, llr, 0.0)


@dataclass(frozen=True)
class CategoricalPairModel(PairModel):
    """A's share of a pair's games on the grid 0, 1/steps, ..., 1, on Luce's Elo scale.

    With k = ``seats_of_a`` of n = ``players`` seats, mean(elo) = k r / (k r + n - k),
    r = 10^(elo/400); for k = 1, n = 2 that is the logistic Elo curve. A duel at an odd
    Knock-out table plays two line-ups (A B A and B A B), and a run at several table
    sizes a line-up or two at each: ``mix`` then lists each line-up's (k, n, share of the
    pair's games), and the mean is their weighted sum. Luce's one strength per strategy
    whatever the table is what puts every size's share on one Elo.
    """

    name: str
    scale: str
    unit: str
    players: int
    """The table size (the first line-up's, where ``mix`` holds several)."""
    seats_of_a: int
    steps: int
    takes_net: bool = False
    mix: tuple[tuple[int, int, float], ...] = ()
    """(seats of A, table size, share of the games) per line-up; empty: one line-up of
    ``seats_of_a`` seats of ``players``."""
    share_of: str = "a pair's games"
    """What a pair value is A's share of, in the verdict's words ("mean share of ..."; ``{a}``
    stands for A's name)."""

    @property
    def _lineups(self) -> tuple[tuple[int, int, float], ...]:
        return self.mix or ((self.seats_of_a, self.players, 1.0),)

    @property
    def fair_mean(self) -> float:
        """The share of equal strengths: k / n, averaged over the line-ups."""
        return sum(weight * k / n for k, n, weight in self._lineups)

    @property
    def grid(self) -> np.ndarray:
        """The values a pair can take."""
        return np.arange(self.steps + 1) / self.steps

    def mean_at(self, elo: float, sd: float | None = None) -> float:
        return float(
            sum(
                weight * special.expit(math.log(k / (n - k)) + elo / ELO_PER_NAT)
                for k, n, weight in self._lineups
            )
        )

    def elo_of(self, mean: float, sd: float | None = None) -> float:
        if math.isnan(mean):
            return math.nan
        if mean <= 0.0 or mean >= 1.0:
            return math.inf if mean >= 1.0 else -math.inf
        if len(self._lineups) == 1:
            k, n, _ = self._lineups[0]
            odds = math.log(k / (n - k))
            return ELO_PER_NAT * (math.log(mean / (1.0 - mean)) - odds)
        # a weighted sum of logistic curves: increasing in elo, so a bracketed root
        return float(optimize.brentq(lambda elo: self.mean_at(elo) - mean, -1e5, 1e5, xtol=1e-9))

    def hypothesis_means(
        self, settings: SprtSettings, sd: float | None = None
    ) -> tuple[float, float]:
        self.check_bounds(settings)
        elo0, elo1 = settings.elo_bounds
        return self.mean_at(elo0), self.mean_at(elo1)

    def check_bounds(self, settings: SprtSettings, where: str = "sprt") -> None:
        if settings.on_net_scale:
            raise SprtError(
                f"{where}: net0/net1 (points per hand) apply to {' and '.join(NET_GAMES)}"
                f" only; the {self.name} model takes elo0/elo1"
            )
        if settings.skewness is not None:
            raise SprtError(
                f"{where}: skewness applies to net margins ({' and '.join(NET_GAMES)}) only;"
                f" the {self.name} model's pair values are shares, on a bounded grid that"
                " its test already models whole")
        for key, elo in zip(("elo0", "elo1"), settings.elo_bounds, strict=True):
            if not 0.0 < self.mean_at(elo) < 1.0:
                raise SprtError(
                    f"{where}: {key} = {elo:g} puts the {self.name} mean at"
                    f" {self.mean_at(elo):g}, the end of its range; choose |{key}| well"
                    " below 2000"
                )

    def counts_of(self, values: npt.ArrayLike) -> np.ndarray:
        """How many pairs took each grid value; refuses values off the grid."""
        x = np.asarray(values, dtype=float).ravel()
        index = np.rint(x * self.steps)
        off = (np.abs(x * self.steps - index) > 1e-6) | (index < 0) | (index > self.steps)
        if off.any():
            raise SprtError(
                f"pair value {x[off][0]!r} is not on the {self.name} grid 0, 1/{self.steps}, ..., 1"
            )
        return np.bincount(index.astype(int), minlength=self.steps + 1)

    def llr_of_counts(self, counts: npt.ArrayLike, settings: SprtSettings) -> np.ndarray:
        """The LLR of each row of counts (one row per test): the vectorised :meth:`llr`."""
        mean0, mean1 = self.hypothesis_means(settings)
        return categorical_llr(counts, self.grid, mean0, mean1)

    def llr(self, values: npt.ArrayLike, settings: SprtSettings) -> float:
        return float(self.llr_of_counts(self.counts_of(values), settings)[0])

    def estimate(self, values: npt.ArrayLike) -> Estimate:
        self.counts_of(values)
        return summarise(
            values,
            fair_mean=self.fair_mean,
            elo_of=self.elo_of,
            unit=self.unit,
            mean_unit="share",
            value_range=(0.0, 1.0),
            share_of=self.share_of,
        )


# -- normal model on net margins ------------------------------------------------------


def normal_llr(
    pairs: npt.ArrayLike,
    mean: npt.ArrayLike,
    variance: npt.ArrayLike,
    mean0: npt.ArrayLike,
    mean1: npt.ArrayLike,
) -> np.ndarray:
    """LLR of a normal mean1 against mean0 with the variance plugged in, per test.

    N (mu1 - mu0) (2 xbar - mu0 - mu1) / (2 var); 0 where there are fewer than two pairs
    or no spread, since then the data say nothing about how far apart the means are.
    """
    n, xbar, var, mu0, mu1 = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (pairs, mean, variance, mean0, mean1))
    )
    usable = (n >= 2) & (var > 0)
    safe_var = np.where(usable, var, 1.0)
    llr = n * (mu1 - mu0) * (2.0 * xbar - mu0 - mu1) / (2.0 * safe_var)
    return np.where(usable, llr, 0.0)


FLAT_SPEND = 0.5
"""The part of alpha and of beta a test spends on pairs that all agree, read against
the largest value (:func:`flat_llr`); pairs that differ are read by the normal model,
at the full rates. In the worst case for the bound (pairs at -24 or c units only, mean
0, a look every pair, at most 200), false H1 at alpha 5% was 1.4% without the bound
(c = 16, net0 = 0, net1 = 2), 5.7% spending all of alpha on such pairs too and 3.0%
spending half; at c = 8, 4.7%, 7.6% and 6.2% (``python
benchmarks/verdict_error_rates.py alike --runs 10000``; docs/statistics.md, "Pairs that
all agree")."""


def flat_llr(
    pairs: npt.ArrayLike, value: npt.ArrayLike, largest: npt.ArrayLike,
    above: npt.ArrayLike, below: npt.ArrayLike, *, alpha: npt.ArrayLike = 0.05,
    beta: npt.ArrayLike = 0.05,
) -> np.ndarray:
    """The evidence of ``pairs`` pairs that all gave ``value``, each within ``largest`` of
    0 either way, against a mean at most ``above`` (positive: towards H1) or at least
    ``below`` (negative: towards H0), as the log of a bettor's wealth.

    A normal model has no spread to scale such pairs by, and its LLR stays 0 however
    many there are: a Solo entrant that forfeited every hand, +16 units in every pair,
    was never decided. A pair value X lies in [-M, M]; whatever its distribution, with
    mean mu <= ``above`` = a, the stake 1 + (X - a) / (M + a) = (M + X) / (M + a) has a
    mean of at most 1, so the product of n of them is a nonnegative supermartingale and,
    by Ville's inequality, ever reaches 1 / alpha with chance at most alpha. Pairs all at
    c > a make that product ((M + c) / (M + a))^n; mirrored, ((M - c) / (M - b))^n
    against a mean at least ``below`` = b > c. Its log is read against Wald's bounds
    like an LLR (log((1 - beta) / alpha), a little inside 1 / alpha), less
    log(1 / ``FLAT_SPEND``): the false-H1 and false-H0 rates of such pairs stay near
    ``FLAT_SPEND`` times alpha and beta for any distribution of pair values within the
    bound (docs/statistics.md, "Pairs that all agree"). 0 for fewer than two pairs.

    A value between a and b tells against both. The stronger reading is given, each
    measured against the wealth its error rate asks of the fixed-sample test
    (``alpha`` against H0, ``beta`` against H1, :func:`~whist_sim.inference.sprt.flat_net_bounds`),
    so the two tests never contradict each other; 0 where the two are as strong (a value
    midway between symmetric hypotheses: two entrants that always tie are neither). Read
    against H0 alone, 90 pairs at 1 with a = 0, b = 2 accepted H1 where the fixed-sample
    test accepted H0. Either way H1 is said only once H0's bettor has won, so the error
    rates hold as they did."""
    n = np.asarray(pairs, dtype=float)
    step0, step1, asked0, asked1 = flat_steps(value, largest, above, below, alpha, beta)
    spent = math.log(1.0 / FLAT_SPEND)
    against_h0 = np.maximum(n * step0 - spent, 0.0)
    against_h1 = np.minimum(-n * step1 + spent, 0.0)
    stronger = step0 / asked0 - step1 / asked1
    return np.where(n < 2, 0.0, np.where(stronger > 0, against_h0,
                                         np.where(stronger < 0, against_h1, 0.0)))


def flat_steps(
    value: npt.ArrayLike, largest: npt.ArrayLike, above: npt.ArrayLike,
    below: npt.ArrayLike, alpha: npt.ArrayLike, beta: npt.ArrayLike,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What each pair at ``value`` (within ``largest`` of 0) adds to the log-wealth of
    :func:`flat_llr`'s bettors, against H0's mean ``above`` and against H1's ``below``
    (0 where the value does not tell against that side), and the log-wealth each side's
    rate asks of the fixed-sample test, log(1 / (FLAT_SPEND rate)): the one rule by
    which the SPRT and ``sprt.flat_pairs_needed`` choose the stronger side."""
    c, m, a, b, alpha, beta = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (value, largest, above, below, alpha, beta)))
    c = np.clip(c, -m, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        step0 = np.where((c > a) & (a > -m), np.log((m + c) / (m + a)), 0.0)
        step1 = np.where((c < b) & (b < m), np.log((m - c) / (m - b)), 0.0)
    return (step0, step1, np.log(1.0 / (FLAT_SPEND * alpha)),
            np.log(1.0 / (FLAT_SPEND * beta)))


@dataclass(frozen=True)
class NetPairModel(PairModel):
    """A's mean net margin per hand over a pair, tested as a normal mean.

    Hypotheses in points per hand (net0, net1) are used as they are; in normalised Elo
    they become means through the estimated sd: mu = nElo sqrt(2) sd / NELO_PER_T.
    """

    name: str = "normal on net"
    scale: str = "normalised Elo"
    unit: str = "normalised Elo"
    fair_mean: float = 0.0
    takes_net: bool = True
    points: str = "points"
    """What the game scores in: Solo Whist is played for "units" (of money), and its
    verdict read "points per hand" beside a report in units (a probe)."""
    largest: float | None = None
    """The most a pair value can be from 0, either way: the game's largest net of a
    seat in one hand (``Variant.largest_net``), as a pair value is a mean of such nets.
    Pairs that all agree are read against it (:func:`flat_llr`); None: not known, and
    such pairs move no test."""

    def scale_for(self, settings: SprtSettings) -> str:
        return f"{self.points} per hand" if settings.on_net_scale else self.scale

    def check_bounds(self, settings: SprtSettings, where: str = "sprt") -> None:
        """Refuse net0 or net1 that no mean can reach: a pair value, and so its mean,
        lies strictly within ``largest`` of 0 unless every hand ends at that extreme.
        net1 = 40 in Solo Whist (largest 24 units) asked for an entrant no play can make,
        and the two tests disagreed on it: the fixed-sample test accepted H0 at once
        from pairs that all agreed, the SPRT's reading of them (:func:`flat_llr`) never
        moved and ended "inconclusive". Normalised Elo maps onto the whole real line."""
        if self.largest is None or not settings.on_net_scale:
            return
        m = self.largest
        beyond = [f"{key} = {value:.12g}" for key, value in zip(
            ("net0", "net1"), settings.bounds, strict=True) if not -m < value < m]
        if beyond:
            raise SprtError(
                f"{where}: {' and '.join(beyond)} {self.points} per hand: a seat wins or"
                f" loses at most {m:g} {self.points} in one hand of this game and variant,"
                " so no entrant's mean can reach"
                f" {'them' if len(beyond) > 1 else 'it'}; allowed: net0 and net1 between"
                f" -{m:g} and {m:g}, not at either end")

    def mean_at(self, elo: float, sd: float | None = None) -> float:
        if sd is None:
            raise SprtError("normalised Elo needs the per-pair sd to give a mean")
        return elo * math.sqrt(2.0) * sd / NELO_PER_T

    def elo_of(self, mean: float, sd: float | None = None) -> float:
        if sd is None or math.isnan(sd) or math.isnan(mean):
            return math.nan
        if sd == 0.0:
            return 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
        return mean / (math.sqrt(2.0) * sd) * NELO_PER_T

    def hypothesis_means(
        self, settings: SprtSettings, sd: float | None = None
    ) -> tuple[float, float]:
        if settings.net0 is not None and settings.net1 is not None:
            return settings.net0, settings.net1
        elo0, elo1 = settings.elo_bounds
        return self.mean_at(elo0, sd), self.mean_at(elo1, sd)

    def flat_means(self, settings: SprtSettings) -> tuple[float, float] | None:
        """What pairs that all agree must lie beyond to tell against H0 (above the
        first) or against H1 (below the second); None where ``largest`` is not known.

        On the points scale these are net0 and net1. In normalised Elo a hypothesis fixes
        mean / sd, not the mean, and pairs with no spread do not show the sd: H0 allows
        any mean from 0 up to elo0's at the largest sd a pair value within ``largest``
        can have (``largest`` itself), so the first is that (0 for elo0 <= 0); H1 allows
        means down to 0 (elo1 >= 0), so pairs all at 0 never tell against it: two
        strategies that end every hand alike are not shown to be equal in normalised Elo,
        only within net0 and net1."""
        if self.largest is None:
            return None
        if settings.net0 is not None and settings.net1 is not None:
            return settings.net0, settings.net1
        ratio0, ratio1 = (self.mean_at(elo, 1.0) for elo in settings.elo_bounds)
        return max(ratio0, 0.0) * self.largest, min(ratio1, 0.0) * self.largest

    def llr_of_moments(
        self,
        pairs: npt.ArrayLike,
        mean: npt.ArrayLike,
        variance: npt.ArrayLike,
        settings: SprtSettings,
        skewness: npt.ArrayLike = 0.0,
        kurtosis: npt.ArrayLike = math.nan,
    ) -> np.ndarray:
        """The LLR of many tests at once from their pair counts, means, variances,
        skewnesses (:func:`~whist_sim.inference.skewness.sample_skewness`) and kurtoses
        (m4 / m2^2); a skewness of 0 leaves the plain normal LLR, unless the settings
        give the pairs' skewness (``SprtSettings.skewness``: see ``guard_skewness``).

        With skewed pairs the LLR is guarded (docs/statistics.md, "The skewness
        guard"): Student's t of the mean against each hypothesis' mean is standardised
        by the spread of mean / sd at that hypothesis (in normalised Elo, Mertens'
        factor) and corrected for the skewness (Johnson's term); the LLR of two normals
        of that widened spread draws the plain one towards 0 (never past it) when it
        says the pairs are weaker evidence than they look; it is never pushed away
        from 0.
        """
        n, xbar, var, g, k = np.broadcast_arrays(
            *(np.asarray(x, dtype=float) for x in (pairs, mean, variance, skewness, kurtosis)))
        # the pairs' own skewness, and the settings' if given: each side of the guard
        # keeps whichever asks it for more evidence (a value given only adds caution)
        tried = settings.guard_skewness(g)
        if settings.on_net_scale:
            mean0, mean1 = (np.full_like(xbar, m) for m in self.hypothesis_means(settings))
            ratio0 = ratio1 = None
        else:
            sd = np.sqrt(np.maximum(var, 0.0))
            ratio0, ratio1 = (self.mean_at(elo, 1.0) for elo in settings.elo_bounds)
            mean0, mean1 = ratio0 * sd, ratio1 * sd
        plain = normal_llr(n, xbar, var, mean0, mean1)
        if not any(np.any(skew) for skew in tried):
            return self._flat_where_alike(n, xbar, var, settings, plain)
        error = np.sqrt(np.maximum(var, 0.0) / np.maximum(n, 1.0))
        safe_error = np.where(error > 0, error, 1.0)

        def guarded(reference: np.ndarray, ratio: float | None, skew: np.ndarray
                    ) -> np.ndarray:
            # distances in units of the standard error widened by the spread at the
            # reference hypothesis, the mean's corrected for skewness; the LLR of two
            # normals of that common spread (the plain one over spread^2). Evaluating
            # the plain LLR at a mean drawn towards the reference instead had held the
            # LLR at 0 once the spread passed 2 (wide bounds): H0 was never accepted.
            spread = 1.0 if ratio is None else np.sqrt(ratio_variance_factor(ratio, skew, k))
            t = (xbar - reference) / (safe_error * spread)
            seen = reference + corrected_t(t, skew, n) * safe_error * spread
            return normal_llr(n, seen, var, mean0, mean1) / spread**2

        toward_h1 = np.min([guarded(mean0, ratio0, skew) for skew in tried], axis=0)
        toward_h0 = np.max([guarded(mean1, ratio1, skew) for skew in tried], axis=0)
        return self._flat_where_alike(
            n, xbar, var, settings,
            np.where(plain > 0, np.maximum(np.minimum(plain, toward_h1), 0.0),
                     np.minimum(np.maximum(plain, toward_h0), 0.0)))

    def _flat_where_alike(self, n: np.ndarray, xbar: np.ndarray, var: np.ndarray,
                          settings: SprtSettings, llr: np.ndarray) -> np.ndarray:
        """``llr``, but :func:`flat_llr` for tests whose pairs all agree (a variance of
        0), where ``largest`` is known."""
        means = self.flat_means(settings)
        if means is None:
            return llr
        alike = flat_llr(n, xbar, self.largest, *means, alpha=settings.alpha,
                         beta=settings.beta)
        return np.where((n >= 2) & (var == 0), alike, llr)

    def llr(self, values: npt.ArrayLike, settings: SprtSettings) -> float:
        x = np.asarray(values, dtype=float).ravel()
        if x.size < 2:
            return 0.0
        means = self.flat_means(settings)
        if means is not None and np.ptp(x) == 0:  # every pair alike: no spread to scale by
            return float(flat_llr(x.size, x[0], self.largest, *means, alpha=settings.alpha,
                                  beta=settings.beta))
        variance = x.var(ddof=1)
        deviations = x - x.mean()
        second = float(np.mean(deviations**2))
        third = float(np.mean(deviations**3))
        skewness = sample_skewness(x.size, variance, third)
        kurtosis = float(np.mean(deviations**4)) / second**2 if second > 0 else math.nan
        return float(self.llr_of_moments(x.size, x.mean(), variance, settings, skewness,
                                         kurtosis))

    def estimate(self, values: npt.ArrayLike) -> Estimate:
        return summarise(
            values,
            fair_mean=self.fair_mean,
            elo_of=self.elo_of,
            unit=self.unit,
            mean_unit=f"{self.points} per hand",
        )


# -- constructors ---------------------------------------------------------------------


def pentanomial_model(per: str = "hand") -> CategoricalPairModel:
    """German Whist: A's share of the two hands of a pair, logistic Elo per hand; ``per =
    "match"`` under a match variant (best of N), where a pair is two matches."""
    return CategoricalPairModel(
        name="pentanomial",
        scale=f"logistic Elo per {per}",
        unit=f"Elo per {per}",
        players=2,
        seats_of_a=1,
        steps=4,
        share_of=f"the pair's two {per}es" if per == "match" else f"the pair's two {per}s",
    )


FORFEITED_AS_WON = " (a game the other entrant forfeited counting as won)"
"""How a Knock-out duel's share counts a forfeit: lost by the forfeiter, so won by A."""


def knockout_model(
    players: int | Sequence[int], seats_of_a: int | Sequence[int],
    seatings: int | Sequence[int],
) -> CategoricalPairModel:
    """Knock-out Whist: A's share of a deal's games, Luce's Elo per seat.

    One line-up: A holds ``seats_of_a`` of ``players`` seats and the deal is played under
    ``seatings`` seatings. Several (a duel at an odd table: A B A and B A B; a run at
    several table sizes): one entry per line-up in each sequence (``players`` may be one
    size for all), and the pair is every game of the deal index, at every size.
    """
    ks = [seats_of_a] if isinstance(seats_of_a, int) else list(seats_of_a)
    rs = [seatings] if isinstance(seatings, int) else list(seatings)
    ns = [players] * len(ks) if isinstance(players, int) else list(players)

    def whole(x: object) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    valid = (
        len(ks) == len(rs) == len(ns) >= 1
        and all(whole(n) and n >= 2 for n in ns)
        and all(whole(k) and whole(n) and 1 <= k < n for k, n in zip(ks, ns, strict=True))
        and all(whole(r) and r >= 1 for r in rs)
    )
    if not valid:
        raise SprtError(
            f"knockout model: players = {players!r}, seats_of_a = {seats_of_a!r}, seatings ="
            f" {seatings!r}: whole numbers with players >= 2, 1 <= seats_of_a < players and"
            " seatings >= 1, one of each per line-up"
        )
    total = sum(rs)
    several = len(set(ns)) > 1
    return CategoricalPairModel(
        name="knockout share",
        scale="Elo of the win odds per seat (Luce)",
        unit="Elo per seat (Luce)",
        players=ns[0],
        seats_of_a=ks[0],
        steps=total,
        mix=tuple((k, n, r / total) for k, n, r in zip(ks, ns, rs, strict=True))
        if len(ks) > 1 else (),
        # a game B forfeited counts as A's (a probe read 0.950 "won by one of heuristic's
        # seats" where they had won 63 of 200 games and B forfeited 127)
        share_of=("the deal's games at every table size won by one of {a}'s seats" if several
                  else "the deal's games won by one of {a}'s seats") + FORFEITED_AS_WON,
    )


def net_model(points: str = "points", largest: float | None = None) -> NetPairModel:
    """Solo and Minnesota Whist: A's mean net margin per hand, a normal mean; ``points``:
    what the game scores in ("units" in Solo Whist); ``largest``: the most a pair value
    can be from 0 (``NetPairModel.largest``)."""
    return NetPairModel(points=points, largest=largest)


def model_for(
    game: str, players: int | Sequence[int], seats_of_a: int | Sequence[int],
    seatings: int | Sequence[int], per: str = "hand", largest_net: float | None = None,
) -> PairModel:
    """The pair model of a game's duel; ``players``, ``seats_of_a``, ``seatings`` matter
    to Knock-out Whist only (the others have one shape of pair; see :func:`knockout_model`
    for several line-ups or table sizes). ``per``: what German Whist's pair values are shares of, a
    "hand", or a "match" under a best-of-N variant. ``largest_net``: Solo's and
    Minnesota's largest net of a seat in one hand under the run's variant
    (``Variant.largest_net``), which their tests read pairs that all agree against."""
    if game == "german_whist":
        return pentanomial_model(per)
    if game == "knockout_whist":
        return knockout_model(players, seats_of_a, seatings)
    if game in NET_GAMES:
        return net_model("units" if game == "solo_whist" else "points", largest_net)
    raise SprtError(f"sprt: no pair model for game {game!r}; allowed games: {', '.join(GAMES)}")
