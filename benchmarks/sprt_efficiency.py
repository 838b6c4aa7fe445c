"""How many deals a sequential test saves: real duels, SPRT against a fixed sample.

Plays each duel as ``whist-sim duel`` does (``run_duel``: duplicate pairs in
batches, the SPRT read after each batch, a stop as soon as it decides) and
prints, per duel:

- the SPRT's verdict and the pairs (deal indices) it played to reach it;
- the pairs a fixed-sample test needs for the same hypotheses and error rates
  (``fixed_sample_pairs``: ((z_{1-alpha} + z_{1-beta}) sd / (mu1 - mu0))^2, with
  the per-pair standard deviation measured in the same duel);
- their ratio (SPRT / fixed): the share of the deals the fixed test would play.

The duels (``--duels``, default all three):

    german-pimc      German Whist, pimc against solver
    german-solver    German Whist, solver against heuristic
    solo-pimc        Solo Whist, pimc against heuristic (normalised Elo on net)

Hypotheses are the defaults, elo0 = 0 and elo1 = 10 (``--sprt`` to change them),
alpha = beta = 0.05, batches of 20 pairs. A fixed sample is a single number for
given hypotheses; the SPRT's length depends on the true difference (far from
both hypotheses it stops early), which is the point of the comparison. Every
figure is measured in the run.

Usage: python benchmarks/sprt_efficiency.py [--duels german-solver ...] [--workers 2]
       [--max-deals 20000] [--seed 0] [--sprt "elo0=0 elo1=10"]
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from whist_sim.inference import fixed_sample_pairs
from whist_sim.inference.duel_pairs import duel_pair_values
from whist_sim.store import RunFolder
from whist_sim.tournament.config import duel_model
from whist_sim.tournament.duel import duel_config, parse_settings, run_duel

DUELS = {
    "german-pimc": ("pimc", "solver", "german_whist"),
    "german-solver": ("solver", "heuristic", "german_whist"),
    "solo-pimc": ("pimc", "heuristic", "solo_whist"),
}


def measure(name: str, args: argparse.Namespace, tmp: Path) -> dict[str, object]:
    a, b, game = DUELS[name]
    sprt = {**parse_settings(args.sprt.replace(",", " ").split(), "--sprt"),
            "batch": args.batch}
    config = duel_config(a, b, game, sprt=sprt, max_deals=args.max_deals, seed=args.seed,
                         time_limit=60.0)
    started = time.perf_counter()
    summary = run_duel(config, tmp / name, workers=args.workers, progress=False)
    seconds = time.perf_counter() - started
    verdict = summary.verdict
    folder = RunFolder.open(summary.path)
    values = duel_pair_values(folder.scan("seats"), folder.scan("matches"), a, game).collect()
    sd = float(np.std(values["value"].to_numpy(), ddof=1))
    fixed = fixed_sample_pairs(duel_model(config), config.sprt.settings(), sd)
    hands = folder.scan("deals").select(pl.len()).collect().item()
    return {
        "duel": f"{a} vs {b} ({game})",
        "verdict": verdict.decision,
        "estimate": verdict.estimate.describe(),
        "llr": f"{verdict.llr:.2f} [{verdict.lower:.2f}, {verdict.upper:.2f}]",
        "sprt_pairs": verdict.estimate.pairs,
        "fixed_pairs": fixed,
        "sd": sd,
        "hands": hands,
        "seconds": seconds,
        "where": summary.where,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", nargs="+", choices=sorted(DUELS), default=list(DUELS))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--max-deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--sprt", default="elo0=0 elo1=10 alpha=0.05 beta=0.05")
    args = parser.parse_args()
    print(f"SPRT {args.sprt}, batches of {args.batch} pairs, at most {args.max_deals:,} pairs,"
          f" seed {args.seed}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.duels:
            row = measure(name, args, Path(tmp))
            ratio = row["sprt_pairs"] / row["fixed_pairs"] if row["fixed_pairs"] else math.nan
            print(f"\n{row['duel']}  ({row['hands']:,} hands in {row['seconds']:.0f} s,"
                  f" {row['where']})")
            print(f"  verdict            {row['verdict']}: {row['estimate']}")
            print(f"  LLR [bounds]       {row['llr']}")
            print(f"  SPRT pairs         {row['sprt_pairs']:,}")
            print(f"  fixed-sample pairs {row['fixed_pairs']:,}  (same alpha, beta, hypotheses;"
                  f" per-pair sd {row['sd']:.3f} measured here)")
            print(f"  ratio SPRT / fixed {ratio:.3f}  ({1 - ratio:.1%} of the deals saved)")


if __name__ == "__main__":
    main()
