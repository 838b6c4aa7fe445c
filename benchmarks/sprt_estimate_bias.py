"""How far a sequential stop moves the estimate and the 95% interval a verdict prints.

The verdict's Elo and its 95% Student-t interval are those of a fixed sample of pairs.
After a sequential stop the sample is not fixed: the test stops when the pairs so far
happen to lean far enough one way, so the estimate leans that way too and the interval
covers the truth less often than 95%. This measures by how much, with the project's own
pentanomial model and LLR (``CategoricalPairModel.llr_of_counts``) and its own estimate
(``CategoricalPairModel.estimate``), on simulated German Whist-like pairs (no cards
played): a spread of draws common and sweeps rarer, exponentially tilted to the mean of
each true Elo, read in batches as a duel reads them, with the duel's default maximum.

For each true Elo it prints how the duels ended, the mean Elo reported by those that
accepted H1 and by those that accepted H0, and how often the 95% interval covered the
truth: over all duels, over those stopped early, and, for comparison, over samples of
a fixed length (the SPRT's mean length at that truth), where it should be 95%.

Usage: PYTHONPATH=. python benchmarks/sprt_estimate_bias.py [--runs 2000] [--seed 1]
       [--elo0 0] [--elo1 10] [--batch 20] [--max-deals 20000]
Defaults take about 20 s of CPU (half a minute on a busy 2-core machine);
docs/statistics.md, "After a sequential stop", quotes ``--runs 4000 --seed 2``.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import optimize

from whist_sim.inference import SprtSettings, pentanomial_model
from whist_sim.inference.estimate import CONFIDENCE, t_quantile
from whist_sim.inference.pair_models import CategoricalPairModel

GERMAN_LIKE = np.array([0.05, 0.2, 0.45, 0.22, 0.08])
"""A pair's chance of each share 0, 1/4, ..., 1 before tilting: draws common, sweeps rarer
(the spread tests/test_sprt.py measures error rates on)."""


def tilt_to_mean(base: np.ndarray, grid: np.ndarray, mean: float) -> np.ndarray:
    """``base`` exponentially tilted (p_i ~ base_i e^(theta v_i)) to have ``mean``: a
    family other than the model's own ML tilt, so the model is not graded on its own."""

    def tilted(theta: float) -> np.ndarray:
        weights = base * np.exp(theta * grid)
        return weights / weights.sum()

    theta = optimize.brentq(lambda t: tilted(t) @ grid - mean, -60, 60)
    return tilted(theta)


def run_duels(model: CategoricalPairModel, settings: SprtSettings, chances: np.ndarray,
              args: argparse.Namespace, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """``args.runs`` sequential tests at once: each run's counts of pair values when it
    stopped, its decision (1 H1, -1 H0, 0 inconclusive) and whether it stopped early."""
    counts = np.zeros((args.runs, chances.size))
    decision = np.zeros(args.runs, dtype=int)
    for end in range(args.batch, args.max_deals + args.batch, args.batch):
        running = np.flatnonzero(decision == 0)
        if running.size == 0:
            break
        counts[running] += rng.multinomial(min(args.batch, args.max_deals - end + args.batch),
                                           chances, size=running.size)
        llr = model.llr_of_counts(counts[running], settings)
        decision[running] = np.where(llr >= settings.upper, 1,
                                     np.where(llr <= settings.lower, -1, 0))
    pairs = counts.sum(axis=1)
    return counts, decision, (decision != 0) & (pairs < args.max_deals)


def estimates(model: CategoricalPairModel, counts: np.ndarray) -> np.ndarray:
    """(Elo, lower, upper) of each run's pairs, as the verdict prints them: the Student-t
    interval of ``summarise`` from the counts (the project's estimate of a few thousand
    values, with its skewness and kurtosis, took 16 ms a run), checked against
    ``model.estimate`` on the first run."""
    pairs = counts.sum(axis=1)
    mean = counts @ model.grid / pairs
    sd = np.sqrt((counts @ model.grid**2 - pairs * mean**2) / (pairs - 1))
    half = np.array([t_quantile(0.5 + CONFIDENCE / 2, n) for n in pairs.astype(int)])
    half *= sd / np.sqrt(pairs)
    rows = np.array([[model.elo_of(m), model.elo_of(max(m - h, 0.0)),
                      model.elo_of(min(m + h, 1.0))] for m, h in zip(mean, half, strict=True)])
    check = model.estimate(np.repeat(model.grid, counts[0].astype(int)))
    assert np.allclose(rows[0], (check.elo, check.elo_lo, check.elo_hi)), (rows[0], check)
    return rows


def covered(elo: np.ndarray, truth: float) -> str:
    """The share of intervals (rows of ``estimates``) that hold the truth."""
    if elo.size == 0:
        return "n/a"
    return f"{np.mean((elo[:, 1] <= truth) & (truth <= elo[:, 2])):.1%}"


def describe(label: str, values: np.ndarray) -> str:
    if values.size == 0:
        return f"{label}: none"
    return f"{label}: {values.size} duels, mean Elo {values.mean():+.1f}"


def measure(truth: float, args: argparse.Namespace, rng: np.random.Generator) -> None:
    model = pentanomial_model()
    settings = SprtSettings.create(elo0=args.elo0, elo1=args.elo1)
    chances = tilt_to_mean(GERMAN_LIKE, model.grid, model.mean_at(truth))
    counts, decision, early = run_duels(model, settings, chances, args, rng)
    elo = estimates(model, counts)
    length = round(float(counts.sum(axis=1).mean()))
    fixed = estimates(model, rng.multinomial(length, chances, size=args.runs))
    print(f"true Elo {truth:+g}: H1 {np.mean(decision == 1):.1%}, H0"
          f" {np.mean(decision == -1):.1%}, inconclusive {np.mean(decision == 0):.1%},"
          f" mean length {length:,} pairs")
    print(f"  {describe('all', elo[:, 0])}; {describe('accepted H1', elo[decision == 1, 0])};"
          f" {describe('accepted H0', elo[decision == -1, 0])}")
    print(f"  95% interval covered the truth: {covered(elo, truth)} of all duels,"
          f" {covered(elo[early], truth)} of those stopped early;"
          f" {covered(fixed, truth)} of fixed samples of {length:,} pairs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2000, help="duels per true Elo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--batch", type=int, default=20, help="pairs between two looks")
    parser.add_argument("--max-deals", type=int, default=20_000, help="the most pairs")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"pentanomial SPRT, elo0 {args.elo0:g}, elo1 {args.elo1:g}, alpha = beta = 0.05,"
          f" a look every {args.batch} pairs, at most {args.max_deals:,};"
          f" {args.runs:,} duels per true Elo")
    for truth in (args.elo0, (args.elo0 + args.elo1) / 2, args.elo1):
        measure(truth, args, rng)


if __name__ == "__main__":
    main()
