"""Error rates and lengths of the duel's tests that docs/statistics.md quotes, measured.

Every figure docs/statistics.md (and docs/reading-a-report.md) gives from simulated
tests of net margins, and that tests/test_sprt.py does not keep, is printed here by one
subcommand, as measured (nothing is hard-coded but the settings). No cards are played:
pairs are drawn from known distributions, shifted to the mean each hypothesis names
(in normalised Elo, at the distribution's own sd), and read in batches as a duel reads
them, as tests/test_sprt.py does. The tests are the project's own: the net model's LLR
with its skewness guard (``NetPairModel.llr_of_moments``, thousands of tests at once;
without the guard, the same with skewness 0), Wald's bounds of ``SprtSettings``,
``fixed_sample_pairs`` for the maxima, and the report's ``p_value`` and ``holm``.

- ``maximum``: "A maximum long enough". Normal pairs at nElo 0/40 (fixed-sample length
  411), a look every 20 pairs, the maximum at half, once and twice that length (the last
  look at the maximum itself), the truth at H0, midway and H1: % of duels inconclusive.
- ``maximum-knockout``: the same for Knock-out Whist's share model, as a duel at four
  seats plays it (A B A B, two seatings: a pair is A's share of two games, 0, 1/2 or 1)
  at the duel's default hypotheses, 0/10 Elo per seat (Luce). Two spreads of shares at
  each truth's Luce mean: tests/test_sprt.py's beta-binomial shares (a + b = 3: deals
  favour one side, sd 0.40 at H0) and duplicate-like shares (the games of a deal split
  one each in three pairs of four, sd 0.26 at H0, as a 150-pair duel of pimc(worlds=4)
  against heuristic read: sd 0.256 at a mean of 0.510), exponentially tilted to the
  mean. The maximum at half, once and twice the fixed-sample length of each spread
  (``fixed_length`` at the spread under H0), by the model's own LLR (``llr_of_counts``).
- ``limits``: "Limits", rare large losses. A binomial spread over -3..3 plus one loss
  of -9 (-15 for skewness -3 and beyond), as rare as gives the skewness (mirrored for a
  positive one), at each hypothesis pair, with and without the guard; the maximum five
  times the fixed-sample length. Prints false H1, false H0, runs at the maximum, the
  mean length (guarded over unguarded: the guard's cost) and the median sample skewness
  of the guarded false H1s. The default is the whole grid (skewness -1.5, -2.5, -3, -4
  x nElo 0/25, 5/30, 0/50, 0/100; about 10 s at ``--runs 4000``); ``--cells`` picks
  ``skewness@elo0/elo1`` cells (any skewness the mix can reach, 0 the spread alone),
  each drawn from its own stream of the seed, so a cell reads the same alone as in the
  grid, guarded or not; ``--told``, ``--alpha`` and ``--beta`` set the ``[sprt]``
  table's skewness and error rates.
- ``wide``: wide normalised-Elo bounds. Normal-like pairs at 0/600, pairs of rare large
  wins and of rare large losses (skewness +-2.5, kurtosis 11) at 0/300 and 0/600, the
  maximum five times the fixed-sample length (a few dozen pairs): % of runs reaching it,
  false H1 and false H0.
- ``stretch``: log-normal pairs of skewness 6 at the truth of H0, nElo 0/100 and 0/300,
  at most 4,000 pairs: mean length guarded and unguarded, % of guarded runs held at some
  look where the plain LLR was past a bound, % reaching the maximum.
- ``few``: hypotheses far apart, decided within a few pairs: normal pairs at nElo 0/300
  read every two pairs, and left-skewed gamma pairs (skewness -2, an exponential
  mirrored) read every five and every two, with and without the guard: false H1.
- ``holm``: the report's "decided" over comparisons of equal entrants, by the report's
  own ``p_value`` (Student's t over deal indices) and Holm's step-down ``holm``: six
  comparisons of four equal normal entrants over 200 deals (and each comparison alone,
  at 95%), and four entrants one of which loses rarely and heavily (the rare-loss mix of
  skewness -2.5; the others the binomial spread) over 30 deals: % of runs with any
  comparison decided.
- ``alike``: pairs that all agree, read against the largest value (docs/statistics.md,
  "Pairs that all agree"), at the bound's worst case: pair values at -24 or c only
  (Solo Whist's default largest net is 24), mean 0, a look every pair, at most 200
  pairs: false H1 on the same pairs without the bound and with it, at c = 16 and 8,
  net0/net1 0/2 and nElo 0/5.
- ``alike-shares``: German Whist's pentanomial test (fishtest's regularised GSPRT) at
  two-point worst cases of its own: pairs at 0.5 or 1 only with H1's mean (a long run
  of pairs all at 0.5 accepts H0), and at 0 or 1 only with H0's mean; elo 0/10 and
  0/50, a look every pair, at most 1,000 pairs: the wrong decision's rate.

``limits``, ``wide`` and ``few`` read their last batch whole, past the maximum, as
tests/test_sprt.py does (at 0/300 a maximum of 50 pairs is read at 20, 40 and 60);
``maximum``, ``maximum-knockout`` and ``stretch`` stop at the maximum itself, as a duel
does.

Rates carry their binomial standard error. Runs are split between the sides as
``--runs`` says (so many at H0 and as many at H1).

Usage: python benchmarks/verdict_error_rates.py SUBCOMMAND [--runs N]
       [--seed S] [--batch B] (limits also [--cells=-2.5@0/25,...] [--told G]
       [--alpha A] [--beta B])
Defaults (--runs 10000 for maximum, 2000 for few, 4000 for the others; --seed 1, --batch
20, where few reads every 2 and 5 pairs) each take 1-20 s of one core (limits about 10 s,
holm 5 s, maximum-knockout 20 s); the figures docs/statistics.md and
docs/reading-a-report.md quote name the command line that printed them.
"""

from __future__ import annotations

import argparse
import math
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from whist_sim.inference import (
    CategoricalPairModel,
    NetPairModel,
    SprtSettings,
    fixed_sample_pairs,
    knockout_model,
    model_for,
    net_model,
)
from whist_sim.inference.skewness import sample_skewness
from whist_sim.inference.sprt import fixed_length
from whist_sim.reports.multiplicity import holm, p_value

Draw = Callable[[np.random.Generator, tuple[int, ...]], np.ndarray]
"""Draws pair values of mean 0 in the shape asked."""

BINOMIAL_SPREAD = (np.arange(-3.0, 4.0), np.array([1, 6, 15, 20, 15, 6, 1.0]) / 64)
"""A symmetric spread over -3..3: the ordinary pairs of the rare-large-loss mixes."""


# -- distributions of pair values --------------------------------------------------------


def moments(support: np.ndarray, chances: np.ndarray) -> tuple[float, float, float]:
    """Mean, sd and skewness of a discrete distribution."""
    mean = float(chances @ support)
    sd = math.sqrt(float(chances @ (support - mean) ** 2))
    return mean, sd, float(chances @ (support - mean) ** 3) / sd**3


def rare_loss_mix(skewness: float) -> tuple[np.ndarray, np.ndarray]:
    """The binomial spread over -3..3 and one rare loss of -9 (-15 from |skewness| 3 on),
    as rare as gives ``skewness``; a positive skewness mirrors it (a rare large win)."""
    loss = -9.0 if abs(skewness) < 3 else -15.0
    base, spread = BINOMIAL_SPREAD
    support = np.concatenate([[loss], base])

    def mix(p: float) -> np.ndarray:
        return np.concatenate([[p], (1 - p) * spread])

    if skewness == 0:
        return base, spread

    def excess(p: float) -> float:
        return moments(support, mix(p))[2] + abs(skewness)

    # the skewness falls from 0 to a least value and rises again as the loss grows
    # common: the rarest loss that gives it lies below that turning point
    turning = optimize.minimize_scalar(lambda p: moments(support, mix(p))[2],
                                       bounds=(1e-6, 0.5), method="bounded").x
    p = optimize.brentq(excess, 1e-6, turning)
    return (support if skewness < 0 else -support), mix(p)


def normal_like_pairs() -> tuple[np.ndarray, np.ndarray]:
    """A normal curve on 33 points from -4 to 4 (tests/test_sprt.py's normal-like pairs)."""
    support = np.linspace(-4.0, 4.0, 33)
    chances = np.exp(-support * support / 2)
    return support, chances / chances.sum()


def rare_win_pairs() -> tuple[np.ndarray, np.ndarray]:
    """Rare large wins, skewness about 2.5 and kurtosis about 11 (tests/test_sprt.py's
    strongly skewed pairs); negate the support for rare large losses."""
    support = np.array([-6, -3, -1, 0, 1, 3, 12, 24.0])
    chances = np.array([0.08, 0.15, 0.25, 0.12, 0.2, 0.12, 0.06, 0.02])
    return support, chances / chances.sum()


def discrete(support: np.ndarray, chances: np.ndarray) -> tuple[Draw, float]:
    """A draw of the distribution centred on 0, and its sd."""
    centre, sd, _ = moments(support, chances)
    centred = support - centre
    cumulative = np.cumsum(chances)
    cumulative[-1] = 1.0

    def draw(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        return centred[np.searchsorted(cumulative, rng.random(shape), side="right")]

    return draw, sd


def log_normal(skewness: float) -> tuple[Draw, float]:
    """Log-normal pairs of ``skewness`` (right-skewed), centred on 0, and their sd."""
    s2 = optimize.brentq(lambda v: (math.exp(v) + 2) * math.sqrt(math.expm1(v)) - skewness,
                         1e-6, 10.0)
    s = math.sqrt(s2)
    centre, sd = math.exp(s2 / 2), math.sqrt(math.expm1(s2) * math.exp(s2))

    def draw(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        return rng.lognormal(0.0, s, shape) - centre

    return draw, sd


def mirrored_gamma(skewness: float) -> tuple[Draw, float]:
    """Gamma pairs of skewness -|skewness| (shape 4 / skewness^2), centred, and their sd."""
    shape_k = 4.0 / skewness**2

    def draw(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        return shape_k - rng.gamma(shape_k, 1.0, shape)

    return draw, math.sqrt(shape_k)


KNOCKOUT_SPREAD = 3.0
"""a + b of the beta-binomial shares of a Knock-out pair's games (tests/test_sprt.py's):
the games of a deal agree more often than independent games would."""

DUPLICATE_LIKE_SHARES = np.array([0.13, 0.74, 0.13])
"""A B A B's two games of a deal (shares 0, 1/2, 1) split one each in 74% of pairs: sd
0.255 at 1/2, as a duel of near-equal strategies read (``whist-sim duel "pimc(worlds=4)"
heuristic --game knockout_whist --players 4 --max-deals 150 --seed 4``: sd 0.256, mean
0.510 over 150 pairs): each deal's luck, played both ways, cancels."""


def beta_binomial_shares(games: int, mean: float, spread: float = KNOCKOUT_SPREAD
                         ) -> np.ndarray:
    """Chances of 0, 1, ..., ``games`` games won of a pair, of mean share ``mean``,
    over-dispersed as deals favour one side (tests/test_sprt.py's ``beta_binomial``)."""
    return stats.betabinom.pmf(np.arange(games + 1), games, mean * spread,
                               (1 - mean) * spread)


def tilted_shares(base: np.ndarray, grid: np.ndarray, mean: float) -> np.ndarray:
    """``base`` exponentially tilted (p_i ~ base_i e^(theta v_i)) to have ``mean``: not the
    model's own tilt, so the test is not graded on pairs shaped by its model (as
    tests/test_sprt.py's ``tilt_to_mean``)."""

    def tilted(theta: float) -> np.ndarray:
        weights = base * np.exp(theta * grid)
        return weights / weights.sum()

    return tilted(optimize.brentq(lambda t: tilted(t) @ grid - mean, -60, 60))


def normal() -> tuple[Draw, float]:
    def draw(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        return rng.standard_normal(shape)

    return draw, 1.0


# -- the sequential test, many at once ----------------------------------------------------


@dataclass
class Runs:
    """How each simulated sequential test ended."""

    decision: np.ndarray
    """1 accepted H1, -1 accepted H0, 0 reached the maximum undecided."""
    pairs: np.ndarray
    """Pairs read when it ended."""
    skewness: np.ndarray
    """The pairs' sample skewness when it ended."""
    held: np.ndarray
    """At some look the guarded LLR was held at 0 where the plain one was past a bound."""
    longest_hold: np.ndarray
    """The most pairs over which the guarded LLR stayed so held, look after look."""


def sequential(settings: SprtSettings, draw: Draw, shift: np.ndarray, max_pairs: int,
               batch: int, rng: np.random.Generator, guarded: bool = True,
               whole_batches: bool = False, model: NetPairModel | None = None) -> Runs:
    """One SPRT per entry of ``shift`` (the true mean of its pairs), read every ``batch``
    pairs, by the net model's LLR of the pairs' moments: with the skewness guard (the
    pairs' own skewness and kurtosis, as ``NetPairModel.llr`` computes them) or without
    it (skewness 0). The last look is at ``max_pairs`` itself, as a duel's is; with
    ``whole_batches`` the last batch is whole (the first multiple of ``batch`` at or past
    ``max_pairs``), as tests/test_sprt.py reads its runs. ``model``: the net model read
    by (default: one with no largest value, so pairs that all agree move no test)."""
    model = model if model is not None else net_model()
    runs = shift.size
    n, s1, s2, s3, s4 = (np.zeros(runs) for _ in range(5))
    skew = np.zeros(runs)
    decision = np.zeros(runs, dtype=int)
    done = np.zeros(runs, dtype=bool)
    held = np.zeros(runs, dtype=bool)
    hold, longest = np.zeros(runs), np.zeros(runs)
    end = 0
    while end < max_pairs:
        step = batch if whole_batches else min(batch, max_pairs - end)
        end += step
        live = np.flatnonzero(~done)
        if live.size == 0:
            break
        values = draw(rng, (live.size, step)) + shift[live, None]
        n[live] += step
        s1[live] += values.sum(axis=1)
        s2[live] += (values * values).sum(axis=1)
        s3[live] += (values**3).sum(axis=1)
        s4[live] += (values**4).sum(axis=1)
        count, mean = n[live], s1[live] / n[live]
        m2, m3, m4 = (s[live] / count for s in (s2, s3, s4))
        second = np.maximum(m2 - mean**2, 0.0)
        variance = second * count / np.maximum(count - 1, 1)
        third = m3 - 3 * mean * m2 + 2 * mean**3
        fourth = m4 - 4 * mean * m3 + 6 * mean**2 * m2 - 3 * mean**4
        g = sample_skewness(count, variance, third)
        skew[live] = g
        plain = model.llr_of_moments(count, mean, variance, settings)
        if guarded:
            with np.errstate(divide="ignore", invalid="ignore"):
                k = np.where(second > 0, fourth / second**2, math.nan)
            llr = model.llr_of_moments(count, mean, variance, settings, g, k)
        else:
            llr = plain
        decided = np.where(llr >= settings.upper, 1, np.where(llr <= settings.lower, -1, 0))
        past = (plain >= settings.upper) | (plain <= settings.lower)
        at_zero = past & (llr == 0)
        held[live] |= at_zero
        hold[live] = np.where(at_zero, hold[live] + step, 0.0)
        longest[live] = np.maximum(longest[live], hold[live])
        decision[live] = decided
        done[live] = decided != 0
    return Runs(decision, n, skew, held, longest)


def sequential_shares(model: CategoricalPairModel, settings: SprtSettings,
                      chances: np.ndarray, runs: int, max_pairs: int, batch: int,
                      rng: np.random.Generator) -> np.ndarray:
    """``runs`` SPRTs of a categorical model's pairs drawn with ``chances`` on its grid,
    read every ``batch`` pairs by the model's LLR of their counts, the last look at
    ``max_pairs`` itself, as a duel's is: each one's decision (1 H1, -1 H0, 0 none)."""
    counts = np.zeros((runs, chances.size))
    decision = np.zeros(runs, dtype=int)
    end = 0
    while end < max_pairs:
        step = min(batch, max_pairs - end)
        end += step
        live = np.flatnonzero(decision == 0)
        if live.size == 0:
            break
        counts[live] += rng.multinomial(step, chances, size=live.size)
        llr = model.llr_of_counts(counts[live], settings)
        decision[live] = np.where(llr >= settings.upper, 1,
                                  np.where(llr <= settings.lower, -1, 0))
    return decision


def percent(hits: int | np.integer, runs: int) -> str:
    """A rate in percent with its binomial standard error."""
    rate = hits / runs if runs else math.nan
    error = math.sqrt(rate * (1 - rate) / runs) if runs else math.nan
    digits = 2 if 0 < rate < 0.01 else 1  # 3 runs of 8,000 read "0.0%" beside "0.04%"
    return f"{100 * rate:.{digits}f}% (+-{100 * error:.{digits}f})"


def bounds_of(text: str) -> tuple[float, float]:
    low, high = text.split("/")
    return float(low), float(high)


def at_both_hypotheses(settings: SprtSettings, draw: Draw, sd: float, runs: int,
                       max_pairs: int, batch: int, rng: np.random.Generator,
                       guarded: bool = True) -> Runs:
    """``runs`` tests with the truth at H0, then ``runs`` at H1, in whole batches."""
    model = net_model()
    means = [model.mean_at(elo, sd) for elo in settings.elo_bounds]
    return sequential(settings, draw, np.repeat(means, runs), max_pairs, batch, rng, guarded,
                      whole_batches=True)


# -- subcommands --------------------------------------------------------------------------


def maximum(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    settings = SprtSettings.create(elo0=0, elo1=40)
    model = net_model()
    fixed = fixed_sample_pairs(model, settings, 1.0)
    draw, sd = normal()
    print(f"normal pairs, nElo 0/40 (fixed-sample length {fixed}), a look every {args.batch}"
          f" pairs, alpha = beta = 0.05; {args.runs:,} duels a cell: % inconclusive")
    print("| maximum | truth at H0 | truth midway | truth at H1 |")
    print("|---|---|---|---|")
    for label, cap in (("half the fixed-sample length", fixed // 2),
                       ("the fixed-sample length", fixed), ("twice it", 2 * fixed)):
        cells = []
        for elo in (0.0, 20.0, 40.0):
            shift = np.full(args.runs, model.mean_at(elo, sd))
            ended = sequential(settings, draw, shift, cap, args.batch, rng)
            cells.append(percent(np.sum(ended.decision == 0), args.runs))
        print(f"| {label} ({cap}) | " + " | ".join(cells) + " |")


def maximum_knockout(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    model = knockout_model(4, 2, 2)  # a duel's A B A B: seatings 0 and 1 (duel_model)
    settings = SprtSettings.create()  # the duel's default hypotheses, 0/10
    elo0, elo1 = settings.elo_bounds
    grid = model.grid
    spreads = (("beta-binomial", lambda mean: beta_binomial_shares(model.steps, mean)),
               ("duplicate-like", lambda mean: tilted_shares(DUPLICATE_LIKE_SHARES, grid,
                                                             mean)))
    print(f"Knock-out share pairs, four seats, A B A B (two seatings: shares 0, 1/2, 1),"
          f" Elo per seat (Luce) {elo0:g}/{elo1:g}, a look every {args.batch} pairs,"
          f" alpha = beta = 0.05; beta-binomial shares (a + b = {KNOCKOUT_SPREAD:g}) and"
          f" duplicate-like ones ({', '.join(f'{p:g}' for p in DUPLICATE_LIKE_SHARES)} at"
          f" 1/2, tilted); {args.runs:,} duels a cell: % inconclusive")
    print("| shares (sd at H0) | maximum | truth at H0 | truth midway | truth at H1 |")
    print("|---|---|---|---|---|")
    for name, shares in spreads:
        truths = [shares(model.mean_at(elo)) for elo in (elo0, (elo0 + elo1) / 2, elo1)]
        sd = moments(grid, truths[0])[1]
        fixed = int(fixed_length(model, settings, sd))
        for label, cap in (("half the fixed-sample length", fixed // 2),
                           ("the fixed-sample length", fixed), ("twice it", 2 * fixed)):
            cells = [percent(np.sum(sequential_shares(model, settings, chances, args.runs,
                                                      cap, args.batch, rng) == 0), args.runs)
                     for chances in truths]
            print(f"| {name} ({sd:.3f}) | {label} ({cap:,}) | " + " | ".join(cells) + " |")


def limits(args: argparse.Namespace) -> None:
    model = net_model()
    told = "" if args.told is None else f", told skewness {args.told:g}"
    print(f"rare large losses: the binomial spread over -3..3 and one loss of -9 (-15 from"
          f" |skewness| 3; a win for a positive skewness), alpha {args.alpha:g}, beta"
          f" {args.beta:g}{told}, a look every {args.batch} pairs, at most 5 x the"
          f" fixed-sample length; {args.runs:,} runs a side; guarded (unguarded)")
    print("| skewness | nElo | false H1 | false H0 | at the maximum | mean length"
          " | median skewness at a false H1 |")
    print("|---|---|---|---|---|---|---|")
    for cell in args.cells:
        skew_text, bounds_text = cell.split("@")
        elo0, elo1 = bounds_of(bounds_text)
        settings = SprtSettings.create(elo0=elo0, elo1=elo1, alpha=args.alpha,
                                       beta=args.beta, skewness=args.told)
        support, chances = rare_loss_mix(float(skew_text))
        draw, sd = discrete(support, chances)
        cap = 5 * fixed_sample_pairs(model, settings, sd)
        # a cell's own stream, the same with and without the guard, so that a cell reads
        # the same alone as in the grid
        ended = {guarded: at_both_hypotheses(
            settings, draw, sd, args.runs, cap, args.batch,
            np.random.default_rng([args.seed, zlib.crc32(cell.encode())]), guarded)
            for guarded in (True, False)}

        runs = args.runs
        false_h1, false_h0, capped = (
            f"{percent(np.sum(ended[True].decision[side] == wrong), count)}"
            f" ({percent(np.sum(ended[False].decision[side] == wrong), count)})"
            for side, wrong, count in ((slice(0, runs), 1, runs),  # at H0
                                       (slice(runs, None), -1, runs),  # at H1
                                       (slice(None), 0, 2 * runs)))
        guarded_length, plain_length = (ended[g].pairs.mean() for g in (True, False))
        wrong = ended[True].skewness[:args.runs][ended[True].decision[:args.runs] == 1]
        median = f"{np.median(wrong):+.2f}" if wrong.size else "n/a"
        print(f"| {float(skew_text):+g} | {elo0:g}/{elo1:g} | {false_h1} | {false_h0} |"
              f" {capped} | {guarded_length:.0f} ({plain_length:.0f}),"
              f" {100 * (guarded_length / plain_length - 1):+.0f}% | {median} |")


def wide(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    model = net_model()
    wins = rare_win_pairs()
    cases = [("normal-like", normal_like_pairs(), 600.0),
             ("rare large wins", wins, 300.0), ("rare large losses", (-wins[0], wins[1]), 300.0),
             ("rare large wins", wins, 600.0), ("rare large losses", (-wins[0], wins[1]), 600.0)]
    print(f"wide normalised-Elo bounds, a look every {args.batch} pairs, at most 5 x the"
          f" fixed-sample length, alpha = beta = 0.05; {args.runs:,} runs a side")
    print("| pairs | nElo | maximum (last look) | reached it | false H1 | false H0 |")
    print("|---|---|---|---|---|---|")
    for label, (support, chances), elo1 in cases:
        settings = SprtSettings.create(elo0=0, elo1=elo1)
        draw, sd = discrete(support, chances)
        cap = 5 * fixed_sample_pairs(model, settings, sd)
        ended = at_both_hypotheses(settings, draw, sd, args.runs, cap, args.batch, rng)
        last = -(-cap // args.batch) * args.batch
        print(f"| {label} | 0/{elo1:g} | {cap} ({last})"
              f" | {percent(np.sum(ended.decision == 0), 2 * args.runs)}"
              f" | {percent(np.sum(ended.decision[:args.runs] == 1), args.runs)}"
              f" | {percent(np.sum(ended.decision[args.runs:] == -1), args.runs)} |")


def stretch(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    model = net_model()
    draw, sd = log_normal(6.0)
    cap = 4000
    print(f"log-normal pairs, skewness 6, truth at H0, a look every {args.batch} pairs, at"
          f" most {cap:,}; {args.runs:,} runs")
    print("| nElo | mean length guarded (unguarded) | held at 0 at a look past a bound"
          " | longest hold | reached the maximum | false H1 guarded (unguarded) |")
    print("|---|---|---|---|---|---|")
    for elo1 in (100.0, 300.0):
        settings = SprtSettings.create(elo0=0, elo1=elo1)
        shift = np.full(args.runs, model.mean_at(0.0, sd))
        guarded = sequential(settings, draw, shift, cap, args.batch, rng, whole_batches=True)
        plain = sequential(settings, draw, shift, cap, args.batch, rng, guarded=False,
                           whole_batches=True)
        print(f"| 0/{elo1:g} | {guarded.pairs.mean():.0f} ({plain.pairs.mean():.0f})"
              f" | {percent(guarded.held.sum(), args.runs)}"
              f" | {guarded.longest_hold.max():.0f} pairs"
              f" | {percent(np.sum(guarded.decision == 0), args.runs)}"
              f" | {percent(np.sum(guarded.decision == 1), args.runs)}"
              f" ({percent(np.sum(plain.decision == 1), args.runs)}) |")


def few(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    model = net_model()
    settings = SprtSettings.create(elo0=0, elo1=300)
    cases = [("normal", normal(), 2), ("gamma, skewness -2", mirrored_gamma(-2.0), 5),
             ("gamma, skewness -2", mirrored_gamma(-2.0), 2)]
    print(f"nElo 0/300, alpha = beta = 0.05, at most 5 x the fixed-sample length"
          f" ({5 * fixed_sample_pairs(model, settings, 1.0)} pairs); {args.runs:,} runs at H0")
    print("| pairs | a look every | false H1 guarded (unguarded) | mean length |")
    print("|---|---|---|---|")
    cap = 5 * fixed_sample_pairs(model, settings, 1.0)
    for label, (draw, sd), batch in cases:
        shift = np.full(args.runs, model.mean_at(0.0, sd))
        guarded = sequential(settings, draw, shift, cap, batch, rng, whole_batches=True)
        plain = sequential(settings, draw, shift, cap, batch, rng, guarded=False,
                           whole_batches=True)
        print(f"| {label} | {batch} | {percent(np.sum(guarded.decision == 1), args.runs)}"
              f" ({percent(np.sum(plain.decision == 1), args.runs)})"
              f" | {guarded.pairs.mean():.1f} |")


def holm_family(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    comparisons = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    print(f"the report's comparisons of four equal entrants (six comparisons), Student's t"
          f" p-values over deal indices, Holm's step-down test at 5%; {args.runs:,} runs")
    print("| entrants | deals | any decided at 95% each | any decided by Holm |")
    print("|---|---|---|---|")
    loss_draw, loss_sd = discrete(*rare_loss_mix(-2.5))
    base_draw, base_sd = discrete(*BINOMIAL_SPREAD)
    for label, deals, skewed in (("normal", 200, False),
                                 ("one with rare large losses (skewness -2.5)", 30, True)):
        alone = together = 0
        for _ in range(args.runs):
            if skewed:
                result = np.vstack([loss_draw(rng, (1, deals)) / loss_sd,
                                    base_draw(rng, (3, deals)) / base_sd])
            else:
                result = rng.standard_normal((4, deals))
            result += rng.standard_normal(deals)  # the deal's luck, shared
            ps = [p_value(result[a] - result[b], 0.0, rate=False) for a, b in comparisons]
            alone += any(p < 0.05 for p in ps)
            together += any(holm(ps))
        print(f"| {label} | {deals} | {percent(alone, args.runs)} |"
              f" {percent(together, args.runs)} |")


def alike(args: argparse.Namespace) -> None:
    """Pairs that all agree, read against the largest value, at the worst case for that
    bound: pair values at -24 and at c only (Solo Whist's default largest net is 24),
    with mean 0, the edge of H0; a look every pair, at most 200. False H1 without the
    bound and with it, on the same pairs (the runs part where the bound decides on pairs
    all alike)."""
    largest = 24.0
    print(f"pairs at -{largest:g} or c, mean 0 (H0's edge), a look every pair, at most 200"
          f" pairs; {args.runs:,} runs a cell")
    print("| c | hypotheses | false H1 without the bound | with it |")
    print("|---|---|---|---|")
    for c in (16.0, 8.0):
        support = np.array([-largest, c])
        chances = np.array([c, largest]) / (largest + c)  # mean 0
        draw = discrete(support, chances)[0]
        for spec in ("net0=0 net1=2", "elo0=0 elo1=5"):
            settings = SprtSettings.parse(spec)
            rates = []
            for model in (net_model(), net_model(largest=largest)):
                seed = zlib.crc32(f"{c}{spec}".encode()) + args.seed
                runs = sequential(settings, draw, np.zeros(args.runs), 200, 1,
                                  np.random.default_rng(seed), model=model)
                rates.append(percent(np.sum(runs.decision == 1), args.runs))
            print(f"| {c:g} | {spec} | {rates[0]} | {rates[1]} |")


def alike_shares(args: argparse.Namespace) -> None:
    """German Whist's pentanomial test at two-point distributions on its grid, at each
    hypothesis's edge: pairs at 0.5 (each seating won once) or 1 only, with H1's mean, and
    at 0 or 1 only, with H0's; a look every pair, at most 1,000. A run of pairs all at
    one value is where the regularised GSPRT is least sure of its rates
    (docs/statistics.md, "Limits")."""
    model = model_for("german_whist", 2, 1, 2)
    grid = model.grid
    print(f"German Whist pentanomial pairs, a look every pair, at most 1,000 pairs;"
          f" {args.runs:,} runs a cell")
    print("| hypotheses | pairs | mean | wrong decision | rate | undecided |")
    print("|---|---|---|---|---|---|")
    for spec in ("elo0=0 elo1=10", "elo0=0 elo1=50"):
        settings = SprtSettings.parse(spec)
        mean0, mean1 = model.hypothesis_means(settings)
        at_h1 = np.zeros(grid.size)
        at_h1[grid == 0.5], at_h1[-1] = 2 * (1 - mean1), 2 * mean1 - 1  # mean: mean1
        at_h0 = np.zeros(grid.size)
        at_h0[0], at_h0[-1] = 1 - mean0, mean0
        for label, chances, mean, wrong in (("0.5 or 1", at_h1, mean1, -1),
                                            ("0 or 1", at_h0, mean0, 1)):
            seed = zlib.crc32(f"{spec}{label}".encode()) + args.seed
            decision = sequential_shares(model, settings, chances, args.runs, 1000, 1,
                                         np.random.default_rng(seed))
            print(f"| {spec} | {label} | {mean:.4f} | {'H0' if wrong < 0 else 'H1'} |"
                  f" {percent(np.sum(decision == wrong), args.runs)} |"
                  f" {percent(np.sum(decision == 0), args.runs)} |")


LIMITS_CELLS = [f"{g}@{b}" for g in ("-1.5", "-2.5", "-3", "-4")
                for b in ("0/25", "5/30", "0/50", "0/100")]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    runs = {"maximum": 10_000, "maximum-knockout": 4000, "limits": 4000, "wide": 4000,
            "stretch": 4000, "few": 2000, "holm": 4000, "alike": 2000,
            "alike-shares": 4000}
    for name, function in (("maximum", maximum), ("maximum-knockout", maximum_knockout),
                           ("limits", limits), ("wide", wide), ("stretch", stretch),
                           ("few", few), ("holm", holm_family), ("alike", alike),
                           ("alike-shares", alike_shares)):
        command = commands.add_parser(name)
        command.set_defaults(run=function)
        command.add_argument("--runs", type=int, default=runs[name],
                             help="simulated tests per side or cell")
        command.add_argument("--seed", type=int, default=1)
        command.add_argument("--batch", type=int, default=20, help="pairs between two looks")
        if name == "limits":
            command.add_argument("--cells", type=lambda text: text.split(","),
                                 default=LIMITS_CELLS, metavar="SKEWNESS@ELO0/ELO1,...",
                                 help="cells to measure, comma-separated (default: the"
                                 " whole grid); write --cells=-2.5@0/25 for a leading minus")
            command.add_argument("--told", type=float, default=None,
                                 help="the [sprt] skewness told to the test")
            command.add_argument("--alpha", type=float, default=0.05)
            command.add_argument("--beta", type=float, default=0.05)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    args.run(args)
    print(f"({time.perf_counter() - started:.0f} s; seed {args.seed})")


if __name__ == "__main__":
    main()
