"""Is A stronger than B? Wald's sequential test, a fixed-sample twin, and sample sizes.

The driver of a duel calls :func:`sequential_verdict` after every batch of duplicate
pairs with all pair values so far. The LLR of H1 (A stronger by at least elo1) against
H0 (by at most elo0) is compared with Wald's bounds: at or above log((1 - beta) / alpha)
H1 is accepted, at or below log(beta / (1 - alpha)) H0 is; in between the duel plays on,
and at its maximum number of pairs the answer is "inconclusive". Wald's bounds keep the
chance of a false H1 near alpha and of a false H0 near beta however often the LLR is
looked at, which is why the test may stop as soon as the evidence is clear.

:func:`fixed_verdict` answers the same question for a duel of fixed length from one-sided
confidence bounds, and :func:`fixed_sample_pairs` says how long such a duel must be: it
is the yardstick that shows what the sequential test saves. :func:`pairs_to_separate`
sizes the plain two-sided comparison that reports quote.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy import stats

from whist_sim.inference.estimate import (
    Estimate,
    digits_apart,
    json_safe,
    signed_mean,
    t_upper_quantile,
)
from whist_sim.inference.pair_models import (
    FLAT_SPEND,
    NetPairModel,
    PairModel,
    flat_steps,
)
from whist_sim.inference.settings import SprtError, SprtSettings
from whist_sim.inference.skewness import corrected_t_inverse, ratio_variance_factor

Decision = Literal["H1", "H0", "inconclusive", "continue"]

FEW_PAIRS = 30
"""A net-margin verdict reached with fewer pairs than this carries a caution."""

FLAT_LLR = 1e-3
"""|LLR| below which a test whose pairs all agree has not moved: the categorical LLR of
pairs all at 1/2 between hypotheses symmetric about it (a German Whist self-duel at
elo0=-10 elo1=10) is 0 in exact arithmetic but -1.8e-10 after 200 pairs and 2e-5 after
20,000 in floating point, where asymmetric ones move by 0.0026 a pair or more."""

SKEW_WARNING = 1.0
"""|skewness| of the pair values above which a verdict on points-per-hand hypotheses warns:
at 2.5 the measured false-H0 rate was 9% for beta = 5%, with the skewness guard
(docs/statistics.md, "Limits")."""
SKEW_STRONG = 2.5
"""|skewness| of the pair values beyond which a verdict on normalised-Elo hypotheses
warns: there the guard leaves false H1 well above alpha (7.1-9.2% at 5%, skewness -4,
nElo 0/25 to 0/50: ``python benchmarks/verdict_error_rates.py limits``)."""


@dataclass(frozen=True)
class Verdict:
    """The answer to "is A stronger than B?" after the pairs so far, and its evidence."""

    decision: Decision
    """H1 (A stronger by at least elo1), H0 (by at most elo0), continue (play on) or
    inconclusive (no more pairs to play, no decision)."""
    sequential: bool
    """True for the SPRT, False for the fixed-sample test."""
    llr: float
    """Log-likelihood ratio of H1 against H0 over all pairs."""
    lower: float
    """Wald's lower bound: accept H0 at or below it."""
    upper: float
    """Wald's upper bound: accept H1 at or above it."""
    estimate: Estimate
    """What the pairs say about the size of the difference."""
    settings: SprtSettings
    """The hypotheses and error rates tested."""
    model_name: str
    """The pair model, e.g. "pentanomial"."""
    scale: str
    """The scale the hypotheses are stated on, e.g. "logistic Elo per hand"."""
    means: tuple[float, float] = (math.nan, math.nan)
    """Mean pair value under H0 and under H1 (for normalised Elo, at the estimated sd)."""
    batch: int | None = None
    """Pairs between two looks of a sequential test, where the caller knows it (the text
    states it beside alpha and beta: where the test may stop is part of the test)."""
    fixed_pairs: float = math.nan
    """For a sequential test that reached its maximum undecided: the pairs a fixed-sample
    test of the hypotheses needs at the pairs' spread (:func:`fixed_length`; inf beyond
    counting), to say whether the maximum was too short for them; for an undecided
    fixed-sample test, the same, to say how many pairs it needs. NaN otherwise."""
    length_needs_spread: bool = True
    """Whether ``fixed_pairs`` depends on the pairs' spread (:func:`needs_spread`): not
    for hypotheses in normalised Elo, so the text says "at the spread seen" only where
    it does."""
    finished: bool = False
    """The pairs read are all a sequential test may read (its maximum): a decision with
    this False is an early stop (``stopped_early``)."""
    raise_maximum: str = "--max-deals"
    """What raises the maximum, as the advice to play more pairs names it: a run from a
    config has no --max-deals, and one from a deal set plays at most the set's deals (a
    probe was told "--max-deals" for a set of 6 deals)."""
    largest: float | None = None
    """The most a net-margin pair value can be from 0 (``NetPairModel.largest``), which
    pairs that all agree are read against; None: not known, or not a net margin."""

    @property
    def read_against_largest(self) -> bool:
        """The pairs all agree, in points, and were weighed against ``largest``
        (:func:`~whist_sim.inference.pair_models.flat_llr`)."""
        return (self.largest is not None and self.estimate.mean_unit != "share"
                and self.estimate.pairs >= 2 and self.estimate.sd == 0)

    def _spent(self, rate: float) -> float:
        """The error rate a fixed-sample bound was taken at: ``FLAT_SPEND`` of it for
        pairs that all agree, read against the largest value."""
        return FLAT_SPEND * rate if self.read_against_largest else rate

    def _largest_note(self) -> str:
        """Where the decision rests on pairs that all agree: what they were read against."""
        if not (self.read_against_largest and self.decision in ("H0", "H1")):
            return ""
        unit = self.estimate.mean_unit
        return (f" The pairs all agree, with no spread for a normal model to scale them by;"
                f" they were read against the most a pair can be from 0 under this variant,"
                f" {self.largest:g} {unit}, a bound that holds whatever the pairs'"
                " distribution, at half of alpha and beta (the other half is the normal"
                " model's, for pairs that differ: docs/statistics.md, \"Pairs that all"
                " agree\").")

    @property
    def maximum_too_short(self) -> bool:
        """A sequential test ran out of pairs, and not because the true difference lies
        between the hypotheses: its maximum was below ``ADVISED_MAXIMUM`` times the
        fixed-sample length of its hypotheses (the criterion of the console's note,
        :func:`short_maximum_warning`, applied to the maximum it reached), or its pairs
        cannot show that length (no spread, or an infinite estimate: every pair at the
        end of a share's range), or its whole 95% interval lies beyond both hypotheses.
        Without the last two, five pairs all won (+inf Elo, 95%: at least +46, against
        bounds 0/10) read "the true difference often lies between the two" (a
        statistician's probe)."""
        return self.sequential and self.decision == "inconclusive" and (
            is_short(self.estimate.pairs, self.fixed_pairs) or self._spread_unknown
            or self._interval_beyond() is not None)

    @property
    def stopped_early(self) -> bool:
        """A sequential test crossed a bound before its maximum. Its stop chose the pairs:
        it comes when they happen to lean far enough one way, so the estimate over them
        leans away from the hypothesis rejected and the 95% interval, a fixed sample's,
        covers the truth less often (90-91% in simulated pentanomial duels at 0/10 Elo:
        benchmarks/sprt_estimate_bias.py; docs/statistics.md, "After a sequential stop")."""
        return self.sequential and self.decision in ("H0", "H1") and not self.finished

    @property
    def _spread_unknown(self) -> bool:
        """The pairs show no spread (fewer than two, or all alike) or an infinite estimate,
        so they cannot say how many pairs the hypotheses need."""
        point = self.estimate.mean if self.settings.on_net_scale else self.estimate.elo
        return not self.estimate.sd > 0 or math.isinf(point)

    def _interval_beyond(self) -> str | None:
        """"above" when the whole 95% interval lies above H1, "below" when it lies below
        H0, on the hypotheses' scale; None otherwise, or with no interval shown."""
        if not self.estimate.has_interval:
            return None
        low, high = self.settings.bounds
        if self.settings.on_net_scale:
            lower, upper = self.estimate.mean_lo, self.estimate.mean_hi
        else:
            lower, upper = self.estimate.elo_lo, self.estimate.elo_hi
        return "above" if lower > high else "below" if upper < low else None

    def text(self, a: str, b: str) -> str:
        """One or two plain sentences on the verdict, naming A as ``a`` and B as ``b``."""
        low, high = self.settings.bounds
        if low >= 0:  # "stronger by at least 10 rather than at most 0"
            stronger, weaker = (f"stronger by at least {high:g} rather than at most {low:g}",
                                f"stronger by at most {low:g} rather than at least {high:g}")
        else:  # "stronger by at least -5" read as a typo (a statistician's probe)
            stronger = f"{_by('at least', high)} rather than {_by('at most', low)}"
            weaker = f"{_by('at most', low)} rather than {_by('at least', high)}"
        claims = (f"{a} {stronger}, in {self.scale}", f"{a} {weaker}, in {self.scale}")
        evidence = self.estimate.describe(
            a, ", not corrected for the early stop" if self.stopped_early else "")
        shown = self.estimate.has_interval
        unit = self.estimate.mean_unit if self.settings.on_net_scale else self.estimate.unit
        below, above = shown and self.estimate.elo_hi < 0, shown and self.estimate.elo_lo > 0
        if self.decision == "H1":
            head = f"{_h1_head(a, b, low, unit)}: {evidence}; "
            if low >= 0 and shown and self.estimate.elo_lo < 0:  # reaches below 0
                head += (f"the 95% interval shown is two-sided and reaches below 0, while the"
                         f" test is one-sided (a false \"stronger\" at most"
                         f" {self.settings.alpha:g}); ")
        elif self.decision == "H0":
            head = f"{_h0_head(a, b, high, unit)}: {evidence}; "
            if high >= 0 and below:  # say it: "not stronger" read as "perhaps stronger"
                head = (f"{_h0_head(a, b, high, unit)}, and weaker: its whole 95% interval lies"
                        f" below 0, {evidence}; ")
        elif self.decision == "continue":
            # an interim look of a test that looks every batch: its interval is no verdict
            # (an interrupted duel's headline read "weaker" before the test decided: a probe)
            head = f"{a} against {b}, so far: {evidence}; "
        else:
            head = f"{a} against {b}: {evidence}; "
            if below or above:
                head = (f"{a} against {b}: {'weaker' if below else 'stronger'} (its whole 95%"
                        f" interval lies {'below' if below else 'above'} 0), {evidence}; ")
        if self.sequential:
            tail = self._sequential_tail(*claims)
        else:  # a fixed test rejects one hypothesis; the other's bound only if its own
            # bound passes that mean too (a clearly weaker A read "not that it is stronger
            # by at most 0" beside an interval wholly below 0: a newcomer's probe)
            lower_bound, upper_bound = one_sided_bounds(self.estimate, self.settings,
                                                        self.largest)
            mean0, mean1 = self.means
            tail = self._fixed_tail(
                f"{a} {_by('more than', low)}, in {self.scale}: H0, at most {low:g},"
                + (f" rejected, and any advantage below {high:g} too"
                   if lower_bound > mean1 else
                   f" rejected; not that it is"
                   f" {f'stronger by {high:g} or more' if high >= 0 else _by('at least', high)}"),
                f"{a} {_by('less than', high)}, in {self.scale}: H1, at least {high:g},"
                + (f" rejected, and any advantage above {low:g} too"
                   if upper_bound < mean0 else
                   f" rejected; not that it is {_by('at most', low)}"))
        return (head + tail + self._skew_warning() + self._few_pairs_warning()
                + self._largest_note())

    def _skew_warning(self) -> str:
        """Tests of net margins are guarded against skewed pairs (module
        :mod:`~whist_sim.inference.skewness`), which in normalised Elo brings false H1
        on rare large losses close to alpha (5.0-6.9% at 5%, skewness -2.5) but not
        below it, and does little in points per hand, whose fixed means let a run short
        of the rare large values read as strong evidence (9.6% at 5%, skewness 2.5).
        Say so where the pairs show it; the runs that go wrong often do not show it
        (docs/statistics.md, Limits). Shares are bounded and not at risk."""
        skew = self.estimate.skewness
        if self.estimate.mean_unit == "share" or math.isnan(skew):
            return ""
        if self.settings.on_net_scale and abs(skew) > SKEW_WARNING:
            return (
                f" Caution: the pair values are skewed (skewness {skew:+.1f}), and with"
                " hypotheses in points per hand (net0/net1) the error rates can then exceed"
                " alpha and beta (measured 9.6% at 5%, skewness 2.5); prefer elo0/elo1"
                " (docs/statistics.md, Limits)."
            )
        if (not self.settings.on_net_scale and abs(skew) > SKEW_STRONG
                and self.decision != "H0"):  # the risk is a false H1: none in an H0
            return (
                f" Caution: the pair values are strongly skewed (skewness {skew:+.1f});"
                " the test's guard against skewness leaves false H1 above alpha on rare"
                " large losses (measured 7.1-9.2% at alpha 5%, skewness -4): confirm a"
                " verdict for A with more pairs or a lower alpha (docs/statistics.md,"
                " Limits)."
            )
        return ""

    def _few_pairs_warning(self) -> str:
        """A test of net margins decided within ``FEW_PAIRS`` pairs read the pairs' spread
        from a handful of them: hypotheses far apart read every two pairs made false H1
        14.3% at alpha 5%, 15.6% without the skewness guard (``python
        benchmarks/verdict_error_rates.py few``). Shares are bounded and not at risk, nor
        are net margins that all agree, read against the largest value (no spread is
        estimated: ``_largest_note`` says what they were read against)."""
        pairs = self.estimate.pairs
        if (self.estimate.mean_unit == "share" or self.decision not in ("H0", "H1")
                or pairs >= FEW_PAIRS or self.read_against_largest):
            return ""
        return (
            f" Caution: decided after only {_pairs(pairs)}; a test of net margins estimates"
            f" their spread from the pairs, and below about {FEW_PAIRS} pairs that estimate is"
            " loose enough for the error rates to exceed alpha and beta: play more pairs, or"
            " set hypotheses closer together (docs/statistics.md, Limits)."
        )

    def _rates(self) -> str:
        """The error rates tested, and a sequential test's batch where known: "(alpha
        0.05, beta 0.05, a look every 20 pairs)". A verdict that did not say them read
        the same at alpha 0.01 as at 0.2 (a probe)."""
        look = (f", a look every {_pairs(self.batch)}"
                if self.sequential and self.batch is not None else "")
        return f"(alpha {self.settings.alpha:g}, beta {self.settings.beta:g}{look})"

    def _sequential_tail(self, claim_h1: str, claim_h0: str) -> str:
        pairs = self.estimate.pairs
        bounds = f"{self.lower:.2f} and {self.upper:.2f}"
        if self.decision == "H1":
            return (
                f"SPRT accepted H1 ({claim_h1}) after {_pairs(pairs)} {self._rates()},"
                f" LLR {self.llr:z.2f} crossed the upper bound {self.upper:.2f}."
            )
        if self.decision == "H0":
            return (
                f"SPRT accepted H0 ({claim_h0}) after {_pairs(pairs)} {self._rates()},"
                f" LLR {self.llr:z.2f} crossed the lower bound {self.lower:.2f}."
            )
        if self.decision == "continue":
            return (
                f"not decided yet after {_pairs(pairs)} {self._rates()}: LLR {self.llr:z.2f}"
                f" lies between the bounds {bounds}, so the test needs more pairs, until they"
                f" clearly favour H1 ({claim_h1}) or H0 (the reverse)."
            )
        return (
            f"the SPRT reached its maximum of {_pairs(pairs)} without a decision"
            f" (LLR {self.llr:z.2f}, bounds {bounds}): the pairs cannot tell H1 ({claim_h1})"
            f" from H0 (the reverse) at the error rates asked for {self._rates()}"
            + self._why_undecided()
        )

    def _why_undecided(self) -> str:
        """Why a test that reached its maximum did not decide, as far as its pairs show it:
        the maximum too short (``maximum_too_short``) when it was below what the hypotheses
        need, when the pairs cannot show what they need, or when the whole interval lies
        beyond both hypotheses; otherwise the difference may well lie between them. A
        probe's duel was told "300 is short" at the start and, at the end, "the true
        difference often lies between the two"; so were five pairs all won (+inf Elo)."""
        low, high = self.settings.bounds
        key_low, key_high = ("net0", "net1") if self.settings.on_net_scale else ("elo0", "elo1")
        above = f"above H1 ({key_high} = {high:g})"
        below = f"below H0 ({key_low} = {low:g})"
        advice = f"; play more pairs ({self.raise_maximum}) or set them further apart."
        beyond = self._interval_beyond()
        lead = ";" if beyond is None else (
            f", though its whole 95% interval lies {above if beyond == 'above' else below}:")
        if self.estimate.pairs >= 2 and not self.estimate.sd > 0 and abs(self.llr) < FLAT_LLR:
            # a self-duel in points, or a share's at symmetric hypotheses: more pairs or
            # other bounds would leave it where it is
            if self.estimate.mean_unit != "share" and self.estimate.mean != 0:
                # a Solo plug-in that forfeited every hand (-8.00 in every pair) was said
                # to "play alike" with the heuristic it lost every hand to (a newcomer's probe)
                return ("; the pairs all agree, with no spread, and while they do the test"
                        " cannot move (its LLR stays 0 at any length): the same margin in"
                        f" every pair, {signed_mean(self.estimate.mean)}"
                        f" {self.estimate.mean_unit}, as when one side forfeits or loses every"
                        " hand alike, has no spread for this test to scale it by, however"
                        " many pairs are played; the margin itself is the evidence.")
            if self.estimate.pairs < FEW_PAIRS:
                # "play alike" of three pairs at +0.00 (a newcomer's probe): too few to say
                return (f"; the {self.estimate.pairs} pairs so far all agree, with no spread,"
                        " and while they do the test cannot move (its LLR stays 0): so few"
                        f" may agree by chance, so play more pairs ({self.raise_maximum});"
                        " strategies that play alike on every deal, as one against itself"
                        " does, would go on agreeing, and more pairs would not tell them"
                        " apart.")
            return ("; the pairs all agree, with no spread, and while they do the test cannot"
                    " move (its LLR stays 0 at any length): strategies that play alike on"
                    " every deal, as one against itself does, are not told apart by more"
                    " pairs.")
        if is_short(self.estimate.pairs, self.fixed_pairs):
            says_little = ("" if beyond is not None else ", so running out of pairs says"
                           " little of where the true difference lies")
            return (f"{lead} the maximum is too short for hypotheses this close together"
                    f"{self._needed()}{says_little}{advice}")
        too_short = (f"{lead} the maximum of {_pairs(self.estimate.pairs)} was too short"
                     " for the test to decide")
        if self._spread_unknown:
            blind = ("a spread needs two pairs or more, and without one the pairs cannot" if
                     self.estimate.pairs < 2 else
                     "the pairs all agree, with no spread, so they cannot")
            return f"{too_short} ({blind} show how many pairs these hypotheses need){advice}"
        if beyond is not None:
            return too_short + advice
        point = self.estimate.mean if self.settings.on_net_scale else self.estimate.elo
        if not low <= point <= high:  # the interval reaches back between the two
            return (f", though the estimate lies {above if point > high else below}; its 95%"
                    " interval reaches between the two, where the true difference may lie.")
        return ", which often means the true difference lies between the two."

    def _needed(self) -> str:
        """What the hypotheses need, as the console's note says it."""
        if math.isinf(self.fixed_pairs):
            return f" (a fixed-sample test of them needs more than {MOST_PAIRS:.0e} pairs)"
        fixed = int(self.fixed_pairs)
        return (f" (a fixed-sample test of them needs {fixed:,} pairs, and a sequential"
                f" test a maximum of at least {ADVISED_MAXIMUM * fixed:,} to end inconclusive"
                " rarely: docs/statistics.md, \"A maximum long enough\")")

    def _fixed_tail(self, claim_h1: str, claim_h0: str) -> str:
        pairs = self.estimate.pairs
        mean0, mean1 = self.means
        low_key, high_key = ("net0", "net1") if self.settings.on_net_scale else ("elo0", "elo1")
        low, high = self.settings.bounds
        lower_bound, upper_bound = one_sided_bounds(self.estimate, self.settings,
                                                    self.largest)
        if math.isnan(lower_bound) and self.decision not in ("H0", "H1"):
            # pairs all alike: "more pairs are needed" was said after 1,000 Solo pairs all
            # at -8.00, which more pairs of strategies that end every hand alike never
            # change (a newcomer's probe)
            why = ("a bound needs at least 2 pairs; more pairs are needed" if pairs < 2 else
                   "the pairs all agree (no spread), so the mean has no confidence bounds:"
                   " more pairs may show a spread, but strategies that end every hand alike"
                   " never will, and then these pairs are all the evidence there is")
            return (f"a fixed-sample test cannot decide after {_pairs(pairs)}"
                    f" {self._rates()}: {why}.")
        lower_shown, mean0_shown = self._apart(lower_bound, mean0)
        upper_shown, mean1_shown = self._apart(upper_bound, mean1)
        at_h0 = f"{mean0_shown}, the mean under H0 ({low_key} = {low:g})"
        at_h1 = f"{mean1_shown}, the mean under H1 ({high_key} = {high:g})"
        if self.decision == "H1":
            return (
                f"a fixed-sample test accepted H1 ({claim_h1}) after {_pairs(pairs)}"
                f" {self._rates()}: the"
                f" one-sided {confidence_percent(self._spent(self.settings.alpha))}% lower bound"
                " of the mean,"
                f" {lower_shown}, lies above {at_h0}."
            )
        if self.decision == "H0":
            return (
                f"a fixed-sample test accepted H0 ({claim_h0}) after {_pairs(pairs)}"
                f" {self._rates()}:"
                f" the one-sided {confidence_percent(self._spent(self.settings.beta))}% upper"
                " bound of the mean,"
                f" {upper_shown}, lies below {at_h1}."
            )
        both = (f"a fixed-sample test cannot decide after {_pairs(pairs)} {self._rates()}:"
                f" the one-sided bounds of the mean, {lower_shown} to {upper_shown},")
        if self.read_against_largest and math.isinf(self.fixed_pairs):
            # pairs all at 0 with net0 = -1, net1 = 1 were told "more pairs are needed,
            # beyond the 87 ..., as the pairs are skewed" (a review)
            where = (f"lie between {at_h0} and {at_h1}:"
                     if lower_bound > mean0 and upper_bound < mean1 else
                     f"take in both {at_h0} and {at_h1}, and")
            return (f"{both} {where} pairs all at this margin tell against the two alike,"
                    " so no number of them decides between them; strategies that end every"
                    " hand alike go on agreeing.")
        return (f"{both} take in both {at_h0} and {at_h1}; more pairs are"
                f" needed{self._fixed_needed()}.")

    def _fixed_needed(self) -> str:
        """How many pairs an inconclusive fixed-sample test needs, at the spread its pairs
        show (``fixed_length``): "more pairs are needed" named no number (a probe). At that
        length the bounds always part on pairs without skew; where the skewness guard
        widened them, more than that."""
        fixed = self.fixed_pairs
        if math.isnan(fixed):
            return ""
        if math.isinf(fixed):
            return (f": a fixed-sample test of these hypotheses needs more than"
                    f" {MOST_PAIRS:.0e} pairs")
        needed = int(fixed)
        # in normalised Elo the length is the hypotheses' alone; elsewhere the spread's too
        spread = " at the spread seen so far" if self.length_needs_spread else ""
        about = "about " if spread else ""
        if self.read_against_largest:
            spread, about = ", if they go on agreeing at the margin seen so far", ""
        if needed > self.estimate.pairs:
            # "pairs in all": "needs about 3,310" stood beside the comparison's "about 1,488
            # more deals", read as the same kind of count (a statistician's probe)
            return (f": a fixed-sample test of these hypotheses needs {about}{needed:,} pairs"
                    f" in all{spread}"
                    " (docs/statistics.md, \"Fixed-length duels and sample sizes\")")
        return (f", beyond the {needed:,} a fixed-sample test of these hypotheses needs{spread},"
                " as the pairs are skewed and the skewness guard widened their bounds"
                " (docs/statistics.md)")

    def _mean(self, value: float, extra: int = 0) -> str:
        """A mean or a bound of it as the text shows it: a share's bound, a t-bound of a
        value that lies in [0, 1], is cut there (the decision, against means inside it, is
        the same either way), as the reports' share intervals are. ``extra``: digits
        beyond the usual three of a share, two of a net."""
        if self.estimate.mean_unit == "share":
            return ("n/a" if math.isnan(value)
                    else f"{min(max(value, 0.0), 1.0):.{3 + extra}f}")
        return f"{signed_mean(value, 2 + extra)} {self.estimate.mean_unit}"

    def _apart(self, bound: float, mean: float) -> tuple[str, str]:
        """A bound and the hypothesis's mean it is compared with, as ``_mean`` shows them,
        with as many more digits as it takes (``digits_apart``) to show two different
        numbers differently: "the one-sided 95% upper bound of the mean, 0.503, lies below
        0.503, the mean under H1" read as a contradiction."""
        extra = digits_apart((bound, mean), self._mean)
        return self._mean(bound, extra), self._mean(mean, extra)

    def as_dict(self, a: str = "A") -> dict[str, object]:
        """JSON-safe, for run.json: infinities as "inf"/"-inf", NaN as None; A named ``a``
        where the estimate's words name it."""
        return {
            "decision": self.decision,
            "sequential": self.sequential,
            "llr": json_safe(self.llr),
            "lower": json_safe(self.lower),
            "upper": json_safe(self.upper),
            "model": self.model_name,
            "scale": self.scale,
            "settings": self.settings.as_dict(),
            "means": [json_safe(m) for m in self.means],
            "estimate": self.estimate.as_dict(a),
            "fixed_sample_pairs": (int(self.fixed_pairs) if math.isfinite(self.fixed_pairs)
                                   else json_safe(self.fixed_pairs)),
            "maximum_too_short": self.maximum_too_short,
            "stopped_early": self.stopped_early,
            # where the pairs all agree: the largest net they were read against
            "largest_net": self.largest if self.read_against_largest else None,
        }


def confidence_percent(error_rate: float) -> str:
    """``100 * (1 - error_rate)`` written out exactly, in as many decimals as it needs: a
    bound at alpha = 1e-7 is "99.99999", where ``:g`` rounded it to "100" (a bound of
    certainty, which no finite sample gives)."""
    exact = (Decimal(100) - Decimal(repr(error_rate)) * 100).normalize()
    return format(exact, "f")


def _pairs(count: int) -> str:
    """"1 pair", "20 pairs", "4,120 pairs": grouped as the standings group hands."""
    return "1 pair" if count == 1 else f"{count:,} pairs"


OPPOSITE = {"at least": "at most", "at most": "at least", "more than": "less than",
            "less than": "more than"}
"""A bound's words for the difference the other way round: A at least 5 weaker is A
stronger by at most -5."""


def _by(bound: str, elo: float) -> str:
    """A's difference from B bounded by ``elo`` in words that keep the number positive:
    ``stronger by at least 5``, or for -5 ``weaker by at most 5``; 0 reads as stronger."""
    if elo < 0:
        return f"weaker by {OPPOSITE[bound]} {-elo:g}"
    return f"stronger by {bound} {elo:g}"


def _h1_head(a: str, b: str, low: float, unit: str) -> str:
    """What accepting H1 says in words: A's advantage is above ``low`` (in ``unit``, named
    at once: "by 10 or more" left the reader to find whether it was Elo or points)."""
    if low == 0:
        return f"{a} is stronger than {b}"
    if low > 0:
        return f"{a} is stronger than {b} by more than {low:g} {unit}"
    return f"{a} is not weaker than {b} by more than {-low:g} {unit}"


def _h0_head(a: str, b: str, high: float, unit: str) -> str:
    """What accepting H0 says in words: A's advantage is below ``high`` (in ``unit``)."""
    if high == 0:
        return f"{a} is not stronger than {b}"
    if high > 0:
        return f"{a} is not stronger than {b} by {high:g} {unit} or more"
    return f"{a} is weaker than {b} by more than {-high:g} {unit}"


def one_sided_bounds(estimate: Estimate, settings: SprtSettings,
                     largest: float | None = None) -> tuple[float, float]:
    """The one-sided (1 - alpha) lower and (1 - beta) upper confidence bounds of the mean.

    Net margins that all agree, each within ``largest`` of 0 (``NetPairModel.largest``),
    get the bounds of :func:`flat_net_bounds`, valid for any distribution within it.

    Student's t over pairs; NaN below two pairs, and NaN for pairs in points that all
    agree (no spread: Student's t gives a bound of no width, and two pairs of +1 read
    "A is stronger", where the sequential test, at LLR 0, had no evidence either way;
    pairs of rare large losses and frequent small wins show no spread for a while). A
    share whose pairs all agree gets
    Clopper and Pearson's exact binomial bounds over its pairs instead: Student's t
    gives it no width, and a fixed-sample test decided after two pairs of one outcome,
    against the report's own interval (0 of 2: 0 to 66%). A pair's share lies in
    [0, 1], so n pairs all at 0 have chance at most (1 - mean)^n, the binomial's: at the
    ends of the range (every pair lost, or won) the exact bound keeps the error rate
    asked for whatever the pairs' distribution; Wilson's, which the report shows, does
    not at a handful of pairs.
    """
    if estimate.pairs < 2 or math.isnan(estimate.sd):
        return math.nan, math.nan
    if estimate.sd == 0 and estimate.mean_unit == "share":
        n = estimate.pairs
        x = estimate.mean * n
        lower = 0.0 if x <= 0 else float(stats.beta.ppf(settings.alpha, x, n - x + 1))
        upper = 1.0 if x >= n else float(stats.beta.isf(settings.beta, x + 1, n - x))
        return lower, upper
    if estimate.sd == 0 and largest is not None:
        return flat_net_bounds(estimate.mean, estimate.pairs, largest, settings.alpha,
                               settings.beta)
    if estimate.sd == 0:
        return math.nan, math.nan
    error = estimate.sd / math.sqrt(estimate.pairs)
    below = t_upper_quantile(settings.alpha, estimate.pairs)
    above = t_upper_quantile(settings.beta, estimate.pairs)
    if estimate.mean_unit != "share":
        below, above = _guarded_reach(estimate, settings, below, above)
    return estimate.mean - below * error, estimate.mean + above * error


def flat_net_bounds(value: float, pairs: int, largest: float, alpha: float,
                    beta: float) -> tuple[float, float]:
    """The one-sided lower and upper bounds of the mean of pair values in [-largest,
    largest] when ``pairs`` of them all gave ``value``, at ``FLAT_SPEND`` times the error
    rates ``alpha`` and ``beta`` (the rest is the normal model's, for pairs that differ):
    a value at least ``value`` comes with chance at most (M + mu) / (M + value) under a
    mean mu (Markov's inequality on X + M, reached by values at -M and ``value`` only),
    so ``pairs`` of them at most that to the power ``pairs``; the lower bound is the mean
    at which that is FLAT_SPEND alpha, and mirrored for the upper. ``flat_llr``'s twin
    for a fixed sample."""
    m = float(largest)
    c = min(max(float(value), -m), m)
    low, high = FLAT_SPEND * alpha, FLAT_SPEND * beta
    return (m + c) * low ** (1.0 / pairs) - m, m - (m - c) * high ** (1.0 / pairs)


def _guarded_reach(
    estimate: Estimate, settings: SprtSettings, below: float, above: float
) -> tuple[float, float]:
    """How many standard errors the one-sided bounds of a net margin reach below and
    above the mean once guarded against skewed pairs (:mod:`whist_sim.inference.skewness`):
    never less than Student's t's. The lower bound is the one compared with H0's mean,
    so it is widened for the spread of mean / sd at H0's ratio, and the upper bound for
    H1's; with hypotheses in points the means do not move with the sd and only the
    skewness term applies."""
    pairs = estimate.pairs
    reach_below = reach_above = 0.0
    for skew in (float(g) for g in settings.guard_skewness(estimate.skewness)):
        if settings.on_net_scale:
            spread0 = spread1 = 1.0
        else:  # the hypotheses' ratios mean / sd, NetPairModel's mean at an sd of 1
            spread0, spread1 = (
                math.sqrt(float(ratio_variance_factor(NetPairModel().mean_at(elo, 1.0), skew,
                                                      estimate.kurtosis)))
                for elo in settings.elo_bounds)
        reach_below = max(reach_below, spread0 * max(
            below, float(corrected_t_inverse(below, skew, pairs))))
        reach_above = max(reach_above, spread1 * max(
            above, -float(corrected_t_inverse(-above, skew, pairs))))
    return reach_below, reach_above


PAIR_VALUE_LIMIT = 1e12
"""The largest |pair value| taken (a game's margins are a few dozen points): squares of
larger ones overflow the variance, and the LLR became NaN, read as "continue" to the end."""


def finite_pair_values(values: npt.ArrayLike) -> np.ndarray:
    """The pair values as floats, or a SprtError naming the first that is not a finite
    number (a NaN read as an unrelated NumPy error in one model, a NaN verdict in another)
    or is beyond ``PAIR_VALUE_LIMIT``."""
    x = np.asarray(values, dtype=float).ravel()
    bad = ~np.isfinite(x)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise SprtError(f"pair value {float(x[first])!r} (pair {first}) is not a finite number")
    huge = np.abs(x) > PAIR_VALUE_LIMIT
    if huge.any():
        first = int(np.flatnonzero(huge)[0])
        raise SprtError(f"pair value {float(x[first]):g} (pair {first}) is out of range; allowed"
                        f" values: -{PAIR_VALUE_LIMIT:g} to {PAIR_VALUE_LIMIT:g}")
    return x


def sequential_verdict(
    model: PairModel, settings: SprtSettings, values: npt.ArrayLike, *, finished: bool,
    batch: int | None = None, raise_maximum: str = "--max-deals",
) -> Verdict:
    """The SPRT's decision from the LLR of every pair value so far.

    "H1" at or above the upper bound, "H0" at or below the lower one; otherwise
    "continue", or "inconclusive" when ``finished`` (the duel has no more pairs to play:
    the pairs so far are its maximum, weighed against the hypotheses' fixed-sample
    length, ``Verdict.maximum_too_short``). ``batch``: the pairs between two looks, for
    the text to state (None: not said). ``raise_maximum``: what raises the maximum, for the
    advice of a test that ran out of pairs.
    """
    settings.check_model(model)
    values = finite_pair_values(values)
    estimate = model.estimate(values)
    llr = model.llr(values, settings)
    decision: Decision
    if llr >= settings.upper:
        decision = "H1"
    elif llr <= settings.lower:
        decision = "H0"
    else:
        decision = "inconclusive" if finished else "continue"
    fixed = (_length_for(model, settings, estimate) if decision == "inconclusive"
             else math.nan)
    return _verdict(model, settings, estimate, llr, decision, sequential=True, batch=batch,
                    fixed_pairs=fixed, finished=finished, raise_maximum=raise_maximum)


def fixed_verdict(model: PairModel, settings: SprtSettings, values: npt.ArrayLike) -> Verdict:
    """The verdict of a fixed-sample test at the same error rates.

    "H1" if the one-sided (1 - alpha) lower confidence bound of the mean lies above the
    mean under H0 (so a false H1 happens with chance alpha at H0); "H0" if the one-sided
    (1 - beta) upper bound lies below the mean under H1 (a false H0 has chance beta at
    H1). When both hold (a sample longer than needed) the sign of the LLR decides, as the
    SPRT would; when neither holds the answer is "inconclusive". Bounds are Student's t
    over pairs; for normalised Elo the means under H0 and H1 use the estimated sd.
    """
    settings.check_model(model)
    values = finite_pair_values(values)
    estimate = model.estimate(values)
    llr = model.llr(values, settings)
    mean0, mean1 = _means(model, settings, estimate)
    lower_bound, upper_bound = one_sided_bounds(estimate, settings, _largest(model))
    favours_h1 = lower_bound > mean0
    favours_h0 = upper_bound < mean1
    decision: Decision
    if favours_h1 and favours_h0:
        decision = "H1" if llr > 0 else "H0" if llr < 0 else "inconclusive"
    elif favours_h1:
        decision = "H1"
    elif favours_h0:
        decision = "H0"
    else:
        decision = "inconclusive"
    fixed = (_length_for(model, settings, estimate) if decision == "inconclusive"
             else math.nan)  # how many pairs it would need, which its text names
    return _verdict(model, settings, estimate, llr, decision, sequential=False,
                    fixed_pairs=fixed)


def _verdict(
    model: PairModel,
    settings: SprtSettings,
    estimate: Estimate,
    llr: float,
    decision: Decision,
    *,
    sequential: bool,
    batch: int | None = None,
    fixed_pairs: float = math.nan,
    finished: bool = False,
    raise_maximum: str = "--max-deals",
) -> Verdict:
    return Verdict(
        decision=decision,
        sequential=sequential,
        llr=llr,
        lower=settings.lower,
        upper=settings.upper,
        estimate=estimate,
        settings=settings,
        model_name=model.name,
        scale=model.scale_for(settings),
        means=_means(model, settings, estimate),
        batch=batch,
        fixed_pairs=fixed_pairs,
        length_needs_spread=needs_spread(model, settings),
        finished=finished,
        raise_maximum=raise_maximum,
        largest=_largest(model),
    )


def _length_for(model: PairModel, settings: SprtSettings, estimate: Estimate) -> float:
    """``fixed_length`` at the pairs' spread; for net margins that all agree, read against
    the largest value, the pairs at that margin that would decide (``flat_pairs_needed``):
    a Solo duel whose pairs were all -8.00 was told a fixed-sample test needs 6,534 pairs,
    where 11 at that margin decide it."""
    largest = _largest(model)
    if largest is not None and estimate.pairs >= 2 and estimate.sd == 0:
        mean0, mean1 = _means(model, settings, estimate)
        return flat_pairs_needed(estimate.mean, largest, mean0, mean1, settings.alpha,
                                 settings.beta)
    return fixed_length(model, settings, estimate.sd)


def flat_pairs_needed(value: float, largest: float, mean0: float, mean1: float,
                      alpha: float, beta: float) -> float:
    """The fewest pairs all at ``value`` whose ``flat_net_bounds`` clear ``mean0`` (from
    above) or ``mean1`` (from below), whichever needs fewer (a value between the two can
    clear either); inf where no number of them would decide: a value that tells against
    both means exactly as strongly (midway between symmetric hypotheses: both bounds
    clear together, and the tie is no decision, :func:`flat_llr`), or one at a
    hypothesis's mean or so near it that the two do not differ in floating point (1e-33
    above a mean of 0 divided by zero)."""
    step0, step1, asked0, asked1 = (
        float(x) for x in flat_steps(value, largest, mean0, mean1, alpha, beta))
    stronger = step0 / asked0 - step1 / asked1
    if stronger == 0:
        return math.inf
    asked, step = (asked0, step0) if stronger > 0 else (asked1, step1)
    return float(math.floor(asked / step) + 1)


def _largest(model: PairModel) -> float | None:
    return model.largest if isinstance(model, NetPairModel) else None


def _means(model: PairModel, settings: SprtSettings, estimate: Estimate
           ) -> tuple[float, float]:
    """The means under H0 and H1 the pairs are weighed against: for net margins that all
    agree, read against the largest value, ``NetPairModel.flat_means`` (in normalised Elo
    the sd they do not show moves the hypotheses' means)."""
    if isinstance(model, NetPairModel) and estimate.pairs >= 2 and estimate.sd == 0:
        flat = model.flat_means(settings)
        if flat is not None:
            return flat
    return model.hypothesis_means(settings, estimate.sd)


MOST_PAIRS = 1e15
"""The longest fixed-sample length counted; hypotheses closer together are said to need
more (no run plays that many pairs)."""


def fixed_sample_pairs(model: PairModel, settings: SprtSettings, sd: float) -> int:
    """Pairs a fixed-sample test needs for the same alpha and beta.

    The smallest N with (t_{1-alpha} + t_{1-beta}) sd / sqrt(N) <= mu1 - mu0 (Student's t
    with N - 1 degrees of freedom, so it is the N at which :func:`fixed_verdict` always
    decides on pairs that show no skewness; the skewness guard widens the bounds of skewed
    pairs, which can then be inconclusive there); for large N that is
    ((z_{1-alpha} + z_{1-beta}) sd / (mu1 - mu0))^2. With hypotheses in normalised Elo
    the gap mu1 - mu0 is itself proportional to sd, so N does not depend on ``sd``. At
    least 2.
    """
    settings.check_model(model)
    if isinstance(model, NetPairModel) and not settings.on_net_scale:
        mean0, mean1 = model.hypothesis_means(settings, 1.0)
        gap_in_sd = mean1 - mean0
    else:
        if not (math.isfinite(sd) and sd >= 0):
            raise SprtError(f"fixed_sample_pairs: sd = {sd!r} must be a finite number >= 0")
        if sd == 0:
            return 2
        mean0, mean1 = model.hypothesis_means(settings, sd)
        gap_in_sd = (mean1 - mean0) / sd
    # quantiles from the tails themselves: 1 - 1e-20 rounds to 1, whose quantile is inf
    normal = float(stats.norm.isf(settings.alpha) + stats.norm.isf(settings.beta))
    ratio = normal / gap_in_sd if gap_in_sd > 0 else math.inf
    approximate = ratio * ratio  # inf past the floats, where ** raised
    if not approximate <= MOST_PAIRS:  # elo1 = 1e-300 overflowed into a traceback
        raise SprtError(f"hypotheses this close together need more than {MOST_PAIRS:.0e}"
                        " pairs for a fixed-sample test")
    pairs = max(2, math.ceil(approximate))
    while (
        t_upper_quantile(settings.alpha, pairs) + t_upper_quantile(settings.beta, pairs)
    ) / math.sqrt(pairs) > gap_in_sd:
        pairs += 1
    return pairs


def pairs_to_separate(sd: float, difference: float, power: float = 0.8,
                      alpha: float = 0.05) -> int:
    """Pairs needed so that a true mean ``difference`` makes the two-sided (1 - alpha)
    interval exclude zero with chance ``power``: ((z_{1-alpha/2} + z_power) sd /
    difference)^2, at least 2. A report making m comparisons, d of them decided, asks
    alpha = 0.05 / (m - d), the level Holm's step-down test applies next: a comparison
    that clears it is decided by Holm's test over all m.

    Normal approximation; the chance of excluding zero on the wrong side is ignored.
    """
    if not (math.isfinite(sd) and sd >= 0):
        raise SprtError(f"pairs_to_separate: sd = {sd!r} must be a finite number >= 0")
    if not (math.isfinite(difference) and difference != 0):
        raise SprtError(
            f"pairs_to_separate: difference = {difference!r} must be a finite number other"
            " than 0 (no number of pairs separates a difference of 0)"
        )
    if not 0 < power < 1:
        raise SprtError(f"pairs_to_separate: power = {power!r} must be in (0, 1)")
    if not 0 < alpha < 1:
        raise SprtError(f"pairs_to_separate: alpha = {alpha!r} must be in (0, 1)")
    z = stats.norm.isf(alpha / 2) + stats.norm.ppf(power)
    return max(2, math.ceil((z * sd / abs(difference)) ** 2))


ADVISED_MAXIMUM = 2
"""A sequential test's maximum should be at least this many times the fixed-sample
length of its hypotheses (:func:`fixed_sample_pairs`). Simulated duels of normal pairs
at nElo 0/40, 1,000 a setting (docs/statistics.md, "A maximum long enough"), with the
truth at H0 or H1, ended inconclusive 44-45% of the time with the maximum at half the
fixed-sample length, 12-14% at the fixed-sample length and 1% at twice it."""

INCONCLUSIVE_AT_SHORT_MAXIMUM = {
    "pentanomial": ("9-12%", "39-40%", "German Whist-like pentanomial pairs at 0/10 Elo"),
    "knockout share": ("9-11%", "38-40%",
                       "Knock-out Whist-like share pairs (four seats, A B A B) at 0/10 Elo"
                       " per seat"),
}
"""Per pair model, the share of simulated duels with the truth at a hypothesis that ended
inconclusive with the maximum at the fixed-sample length and at half of it, and what was
simulated (docs/statistics.md, "A maximum long enough"): pentanomial pairs by
``benchmarks/sprt_estimate_bias.py --runs 1000 --seed 9 --max-deals N``; Knock-out share
pairs of a duel at four seats (two games a pair), beta-binomial and duplicate-like
shares, by ``benchmarks/verdict_error_rates.py maximum-knockout --runs 10000 --seed 5``
(9.0-10.6% and 37.8-40.1%, standard error 0.3-0.5 points). A model not named here quotes
``NORMAL_PAIRS_AT_SHORT_MAXIMUM``: the console quoted normal pairs' figures for German
Whist too, whose own ran lower (a statistician's probe)."""

NORMAL_PAIRS_AT_SHORT_MAXIMUM = ("12-14%", "44-45%", "normal pairs at nElo 0/40")
"""The same for normal pairs (``ADVISED_MAXIMUM``'s simulation): what the net model's
duels are quoted."""


def needs_spread(model: PairModel, settings: SprtSettings) -> bool:
    """Whether the fixed-sample length of these hypotheses depends on the pairs' spread:
    it does not for hypotheses in normalised Elo, whose gap is counted in spreads, so
    that length is known before a card is dealt."""
    return not (isinstance(model, NetPairModel) and not settings.on_net_scale)


def fixed_length(model: PairModel, settings: SprtSettings, sd: float | None) -> float:
    """The pairs a fixed-sample test of the hypotheses needs (:func:`fixed_sample_pairs`)
    at the pairs' spread ``sd`` where the length depends on it (``needs_spread``): inf
    for hypotheses too close to count pairs for, NaN while the spread tells nothing yet
    (None, NaN or 0: every pair alike would make it 2)."""
    if needs_spread(model, settings):
        if sd is None or not math.isfinite(sd) or sd <= 0:
            return math.nan
    else:
        sd = 1.0
    try:
        return float(fixed_sample_pairs(model, settings, sd))
    except SprtError:  # beyond counting: every maximum is short
        return math.inf


def is_short(maximum: int, fixed: float) -> bool:
    """Whether a sequential test's ``maximum`` is below ``ADVISED_MAXIMUM`` times the
    fixed-sample length ``fixed`` (:func:`fixed_length`; NaN, not known: not short). The
    one criterion of the console's note and of the verdict's "the maximum is too short"."""
    return not math.isnan(fixed) and maximum < ADVISED_MAXIMUM * fixed


def short_maximum_warning(model: PairModel, settings: SprtSettings, maximum: int,
                          where: str, sd: float | None = None,
                          seen: int | None = None) -> str | None:
    """What to say when a sequential test's ``maximum`` (``where``: the key or option that
    set it) is shorter than ``ADVISED_MAXIMUM`` times the fixed-sample length (``is_short``),
    or None when it is long enough or the length is not known yet (``sd``: the pairs'
    spread so far, over ``seen`` pairs, needed unless ``needs_spread`` says otherwise; a
    spread of 0 tells nothing yet).

    The verdict of a test that ran out says so at the end ("the maximum is too short"),
    after every pair was played; this says it at the start, or at the first look."""
    fixed = fixed_length(model, settings, sd)
    if not is_short(maximum, fixed):
        return None
    spread = f" at the spread of the first {_pairs(seen or 0)}" if needs_spread(
        model, settings) else ""
    if math.isinf(fixed):
        return (f"{where} = {maximum:,} is short for these hypotheses: a fixed-sample test"
                f" of them needs more than {MOST_PAIRS:.0e} pairs{spread}; set them further"
                " apart (docs/statistics.md, \"A maximum long enough\")")
    advised = ADVISED_MAXIMUM * int(fixed)
    at_length, at_half, simulated = INCONCLUSIVE_AT_SHORT_MAXIMUM.get(
        model.name, NORMAL_PAIRS_AT_SHORT_MAXIMUM)
    return (f"{where} = {maximum:,} is short for these hypotheses: a fixed-sample test of"
            f" them needs {int(fixed):,} pairs{spread}, and a sequential test whose maximum is"
            f" below twice that often ends inconclusive ({at_length} of simulated duels of"
            f" {simulated} with the truth at a hypothesis and the maximum at the fixed-sample"
            f" length, {at_half} at half of it); set at least {advised:,}, or hypotheses"
            " further apart (docs/statistics.md, \"A maximum long enough\")")
