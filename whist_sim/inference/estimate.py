"""What the pairs so far say about A against B: the mean, its interval, an Elo, the LOS.

Every figure is computed over duplicate pairs, the unit of inference: the values of
the hands inside one pair share a deal and are not independent, the pairs are.
The interval of the mean is Student's t over pairs (exact for normal pair values and
close to it for any distribution once there are a few dozen pairs); the Elo interval
maps the ends of the mean's interval through the model's scale. The likelihood of
superiority is the normal approximation P(true mean > fair mean) = Phi((mean - fair) / se),
the figure chess engine testers quote as LOS.

Nothing here raises on thin data: fewer than two pairs give NaN for what needs a
spread, a spread of zero gives a zero-width interval, and a mean at the end of a
share's range gives an infinite Elo, printed as ``+inf``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats

from whist_sim.rounding import fmt

CONFIDENCE = 0.95
Z_CONFIDENCE = float(stats.norm.ppf(0.5 + CONFIDENCE / 2))
"""The normal quantile of a two-sided ``CONFIDENCE`` interval (1.96)."""
"""Two-sided level of every interval an Estimate reports."""


@dataclass(frozen=True)
class Estimate:
    """The pairs so far, summarised on the mean's own units and on the model's Elo scale."""

    pairs: int
    """Duplicate pairs played."""
    mean: float
    """Mean pair value: A's share (categorical models) or net points per hand."""
    mean_lo: float
    """Lower end of the 95% interval of the mean over pairs."""
    mean_hi: float
    """Upper end of the 95% interval of the mean over pairs."""
    sd: float
    """Standard deviation of one pair's value (NaN below two pairs)."""
    elo: float
    """The mean on the model's Elo-like scale (normalised Elo for net margins)."""
    elo_lo: float
    """The Elo of ``mean_lo``."""
    elo_hi: float
    """The Elo of ``mean_hi``."""
    los: float
    """Likelihood of superiority: P(true mean > fair mean), normal approximation."""
    unit: str
    """What ``elo`` is measured in, e.g. "Elo per hand" or "normalised Elo"."""
    fair_mean: float = 0.5
    """The mean at Elo 0: the fair share, or 0 points for net margins."""
    mean_unit: str = "share"
    """What ``mean`` is measured in: "share" or "points per hand"."""
    share_of: str = ""
    """What a share is of, e.g. "the pair's two hands" (empty: not said); ``{a}`` stands
    for A's name (:meth:`share_of_text` fills it in)."""
    skewness: float = math.nan
    """Sample skewness of the pair values (NaN below three pairs or with no spread): the
    verdict warns when hypotheses in points per hand meet strongly skewed pairs, and the
    tests of net margins guard against it (:mod:`whist_sim.inference.skewness`)."""
    kurtosis: float = math.nan
    """Sample kurtosis, m4 / m2^2 (3 for a normal; NaN below four pairs or with no
    spread): with the skewness, the spread of mean / sd that a fixed-sample test in
    normalised Elo allows for."""

    @property
    def has_interval(self) -> bool:
        """Whether ``describe`` shows a 95% interval (two pairs or more, with a spread or
        of shares, whose bounds come from the binomial)."""
        return self.pairs >= 2 and (self.mean_unit == "share" or self.sd != 0)

    def describe(self, a: str = "A", caveat: str = "") -> str:
        """One clause a reader takes in at a glance, e.g.
        ``+310 Elo per hand (95%: +290 to +330), mean share of the pair's two hands 0.860
        against a fair 0.500, likelihood of superiority 100.0%``; ``a`` names entrant A
        where the share's words do. ``caveat`` follows "95%" on the first interval shown
        ("95%, not corrected for the early stop: +290 to +330"): the interval is that of a
        fixed sample, and a verdict whose pairs a sequential stop chose says so.
        """
        if self.pairs == 0:
            return "no pairs played yet"
        if self.pairs < 2:
            return f"1 pair so far: {self._mean_phrase(a)} (too few pairs for an interval)"
        if self.mean_unit != "share" and self.sd == 0:
            # every pair the same margin: an interval of no width, and Elo scaled by a
            # spread of 0 (0/0, or unbounded), would read as certainty it is not
            return (f"{signed_mean(self.mean)} {self.mean_unit} in every one of the {self.pairs}"
                    f" pairs [no spread], so no interval and no {self.unit} yet (they are"
                    " scaled by the spread between pairs), likelihood of superiority n/a")
        finite = [abs(x) for x in (self.elo, self.elo_lo, self.elo_hi) if math.isfinite(x)]
        digits = 0 if finite and max(finite) >= 10 else 1
        level = f"95%{caveat}" if self.mean_unit == "share" else "95%"
        elo = f"{signed(self.elo, digits)} {self.unit} ({self._elo_interval(digits, level)})"
        if self.mean_unit == "share":
            parts = [elo, self._mean_phrase(a)]
        else:
            mean = (
                # "over pairs": the standings beside it give the net per hand pooled over
                # hands (5.32 beside this 5.65 in a newcomer's duel, with no word why;
                # "over pairs" alone still read as the same figure to a later probe)
                f"{signed_mean(self.mean)} {self.mean_unit} over pairs, each pair weighing"
                f" the same (95%{caveat}: {signed_mean(self.mean_lo)} to"
                f" {signed_mean(self.mean_hi)};"
                " the standings pool hands, so a pair of more hands weighs more there)"
            )
            parts = [mean, elo]
        if math.isinf(self.elo):
            parts.append(
                "every pair at the end of the range, so no finite Elo fits"
                if self.mean_unit == "share"
                else "no spread between pairs, so the normalised Elo is unbounded"
            )
        parts.append(f"likelihood of superiority {self.los:.1%}" if math.isfinite(self.los)
                     else "likelihood of superiority n/a (the pairs all agree)")
        return ", ".join(parts)

    def _elo_interval(self, digits: int, level: str = "95%") -> str:
        """The Elo interval in words where a bound is infinite: an interval of shares that
        reaches 0 or 1 has no finite Elo at that end, and "95%: -inf to -477" left a
        newcomer guessing. ``level`` names the interval ("95%" and any caveat)."""
        lo, hi = self.elo_lo, self.elo_hi
        if math.isfinite(lo) and math.isfinite(hi):
            return f"{level}: {signed(lo, digits)} to {signed(hi, digits)}"
        ends = (("a share of 0", "a share of 1") if self.mean_unit == "share"
                else ("no spread", "no spread"))
        if math.isinf(lo) and math.isfinite(hi):
            return (f"{level}: at most {signed(hi, digits)}, no finite lower bound: the interval"
                    f" reaches {ends[0]}")
        if math.isfinite(lo) and math.isinf(hi):
            return (f"{level}: at least {signed(lo, digits)}, no finite upper bound: the interval"
                    f" reaches {ends[1]}")
        return f"{level}: no finite bound"

    def share_of_text(self, a: str = "A") -> str:
        """``share_of`` with A's name ``a`` filled in: "the deal's games won by one of
        heuristic's seats"."""
        return self.share_of.replace("{a}", a)

    def _mean_phrase(self, a: str = "A") -> str:
        if self.mean_unit == "share":  # of what: a Knock-out share was read as a win rate
            of = f" of {self.share_of_text(a)}" if self.share_of else ""
            # rounded as the report's tables round (half to even on the number as written):
            # 37 of 80 hands read 0.463 here beside 0.462 in the standings (a probe)
            # and to as many more digits as tell it from the fair share: "0.500 against a
            # fair 0.500" beside a verdict that A is stronger read as a contradiction
            extra = digits_apart((self.mean, self.fair_mean), lambda v, e: fmt(v, 3 + e))
            return (f"mean share{of} {fmt(self.mean, 3 + extra)} against a fair"
                    f" {fmt(self.fair_mean, 3 + extra)}")
        return f"{signed_mean(self.mean)} {self.mean_unit}"

    def as_dict(self, a: str = "A") -> dict[str, object]:
        """JSON-safe: infinities as the strings "inf"/"-inf", NaN as None; ``share_of``
        with A's name ``a`` filled in (run.json recorded the template, "won by one of
        {a}'s seats")."""
        values = {key: json_safe(value) for key, value in asdict(self).items()}
        values["share_of"] = self.share_of_text(a)
        return values


def json_safe(value: object) -> object:
    """Floats JSON can carry: ``inf`` and ``-inf`` as strings, NaN as None."""
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
    return value


POSITIONAL_DOWN_TO = 1e-9
"""The smallest size ``decimals_or_digits`` writes out in decimals; below it, exponent
notation: net1 = 1e-300 wrote a mean with 300 zeros (a hostile probe)."""


def _shows_as_zero(value: float, decimals: int) -> bool:
    """Whether ``decimals`` decimals would write a finite ``value`` that is not 0 as 0."""
    return math.isfinite(value) and 0 < abs(value) < 0.5 * 10.0**-decimals


def decimals_or_digits(value: float, decimals: int) -> str:
    """``value`` to ``decimals`` decimals, or to two significant digits where those would
    show a value that is not 0 as 0: written out ("0.00035") down to
    ``POSITIONAL_DOWN_TO``, in exponent notation ("1.0e-300") below it."""
    if not _shows_as_zero(value, decimals):
        return f"{value:.{decimals}f}"
    if abs(value) < POSITIONAL_DOWN_TO:
        return f"{value:.1e}"
    return np.format_float_positional(value, precision=2, fractional=False, trim="-")


def digits_apart(values: Iterable[float], show: Callable[[float, int], str],
                 most: int = 6) -> int:
    """The fewest extra digits, up to ``most``, at which ``show(value, extra)`` writes every
    two different ``values`` differently: an interval read "(95%: 0.001 to 0.001)", and a
    bound "0.503, lies below 0.503, the mean under H1" (probes). Values within rounding
    of each other (1e-9 of either, or 1e-12) are the same value: a pooled share of 1/3
    and the fair 1/3 differ by 5.6e-17."""
    values = [value for value in values if not math.isnan(value)]
    for extra in range(most + 1):
        shown: dict[str, float] = {}
        if all(math.isclose(shown.setdefault(show(value, extra), value), value,
                            rel_tol=1e-9, abs_tol=1e-12) for value in values):
            return extra
    return most


def signed_mean(value: float, decimals: int = 2) -> str:
    """A mean net margin, or a bound of one, for text: two decimals (or ``decimals``), or
    two significant digits where they would show a mean that is not 0 as 0: with net1 =
    0.001 a fixed-sample test accepted H0 as "the one-sided 95% upper bound of the mean,
    +0.00 units per hand, lies below +0.00 units per hand, the mean under H1" (a probe)."""
    if _shows_as_zero(value, decimals):
        text = decimals_or_digits(value, decimals)
        return text if value < 0 else f"+{text}"
    return signed(value, decimals)


def signed(value: float, decimals: int | None = None) -> str:
    """A signed number for text: whole Elo from 10 up, one decimal below; inf and n/a spelt."""
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if decimals is None:
        decimals = 0 if abs(value) >= 10 else 1
    text = f"{value:+.{decimals}f}"
    # a small negative rounds to "-0" ("95%: -0 to +20"): written as the zero it shows
    return text.replace("-", "+", 1) if float(text) == 0 else text


def t_quantile(probability: float, pairs: int) -> float:
    """Student's t quantile with pairs - 1 degrees of freedom (needs pairs >= 2)."""
    return float(stats.t.ppf(probability, pairs - 1))


def t_upper_quantile(tail: float, pairs: int) -> float:
    """The t quantile with upper tail ``tail`` (pairs - 1 degrees of freedom), from the
    tail itself: ``t_quantile(1 - tail, pairs)`` is infinite below a tail of about 1e-16,
    where 1 - tail rounds to 1 (alpha = 1e-20 needed "more than 1e+15 pairs")."""
    return float(stats.t.isf(tail, pairs - 1))


def likelihood_of_superiority(mean: float, sd: float, pairs: int, fair_mean: float) -> float:
    """P(true mean > fair mean) by Student's t over pairs, the distribution of the 95%
    interval shown beside it (the normal one for many pairs); NaN below two pairs, and NaN
    when the pairs all agree: with no spread there is no standard error to divide by, and
    its limit (100% after three pairs won) contradicted the interval shown beside it (a
    share of 44 to 100%). The normal curve read 0.1% for two pairs of -1.00 and -0.50
    units beside an interval of -3.93 to +2.43 (a probe); t with one degree of freedom
    reads 10.2%."""
    if pairs < 2 or math.isnan(sd) or sd == 0.0:
        return math.nan
    return float(stats.t.cdf((mean - fair_mean) / (sd / math.sqrt(pairs)), pairs - 1))


def wilson_bounds(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's score bounds of a proportion ``p`` over ``n`` units at normal quantile ``z``.

    What a share gets when its units all agree (no spread, so Student's t would give no
    width at all: "100% (95%: 100 to 100%)" after three pairs); the report's intervals
    use it the same way (``reports.stats``)."""
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # at p = 0 or 1 the near bound is p itself, which rounding can miss by a hair
    return (0.0 if p <= 0 else centre - half), (1.0 if p >= 1 else centre + half)


def summarise(
    values: npt.ArrayLike,
    *,
    fair_mean: float,
    elo_of: Callable[[float, float], float],
    unit: str,
    mean_unit: str,
    value_range: tuple[float, float] | None = None,
    share_of: str = "",
) -> Estimate:
    """The Estimate of pair values; ``elo_of(mean, sd)`` maps a mean to the model's scale.

    ``value_range`` clips the interval of a share to what a share can be.
    """
    x = np.asarray(values, dtype=float).ravel()
    pairs = int(x.size)
    alike = pairs >= 2 and np.ptp(x) == 0  # no spread exactly: 0.1 three times had a mean
    # of 0.10000000000000002 and an sd of 1.7e-17, read as a spread
    mean = float(x[0]) if alike else float(x.mean()) if pairs else math.nan
    sd = 0.0 if alike else float(x.std(ddof=1)) if pairs >= 2 else math.nan
    if pairs >= 2 and sd == 0 and value_range == (0.0, 1.0):  # a share, every pair alike
        mean_lo, mean_hi = wilson_bounds(mean, pairs, Z_CONFIDENCE)
    elif pairs >= 2:
        half = t_quantile(0.5 + CONFIDENCE / 2, pairs) * sd / math.sqrt(pairs)
        mean_lo, mean_hi = mean - half, mean + half
    else:
        mean_lo, mean_hi = -math.inf, math.inf
    if value_range is not None:
        mean_lo, mean_hi = max(mean_lo, value_range[0]), min(mean_hi, value_range[1])
    skewness = (float(stats.skew(x, bias=False)) if pairs >= 3 and sd and sd > 0
                else math.nan)
    kurtosis = (float(stats.kurtosis(x, fisher=False)) if pairs >= 4 and sd and sd > 0
                else math.nan)
    return Estimate(
        pairs=pairs,
        mean=mean,
        mean_lo=mean_lo,
        mean_hi=mean_hi,
        sd=sd,
        elo=elo_of(mean, sd),
        elo_lo=elo_of(mean_lo, sd),
        elo_hi=elo_of(mean_hi, sd),
        los=likelihood_of_superiority(mean, sd, pairs, fair_mean),
        unit=unit,
        fair_mean=fair_mean,
        mean_unit=mean_unit,
        skewness=skewness,
        kurtosis=kurtosis,
        share_of=share_of,
    )
