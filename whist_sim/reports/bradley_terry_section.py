"""The report section "Ratings" of a two-seat game: Bradley-Terry, every hand one game of
the fit.

Tables of three to seven seats are rated from their finishing order instead
(``ratings_section``): pairing their seats into duels squashes the gaps.
"""

from __future__ import annotations

from pathlib import Path

from whist_sim.reports import plots
from whist_sim.reports.document import Section, column, interval, table_of
from whist_sim.reports.run_facts import RunFacts
from whist_sim.reports.stats import BOOTSTRAP_BLOCKS, bradley_terry
from whist_sim.store import RunFolder

BOOTSTRAP = 200
"""Bootstrap resamples for the rating intervals."""
BOOTSTRAP_SEED = 0


def bradley_terry_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    ratings = bradley_terry(facts.pair_summaries(facts.sides).blocks, bootstrap=BOOTSTRAP,
                            seed=BOOTSTRAP_SEED)
    return [Section(
        "Ratings",
        [
            "Bradley-Terry ratings fitted to every hand between two different strategies"
            " (a draw is half a win each way, a forfeit a loss), with one virtual drawn"
            " hand between every two entrants to keep the fit finite. On the Elo scale:"
            " the ratings average 0, and a gap of 400 means odds of 10 to 1 of winning a"
            " hand. Intervals are 95% percentile-bootstrap intervals from"
            f" {BOOTSTRAP} resamples of deal indices (seed {BOOTSTRAP_SEED}), so the"
            " duplicate pairs that share cards are resampled together; past"
            f" {BOOTSTRAP_BLOCKS:,} deal indices they are resampled in {BOOTSTRAP_BLOCKS:,}"
            " blocks (deal index modulo the number of blocks).",
        ],
        [table_of(ratings, [
            ("strategy", column("strategy")),
            ("rating [95% CI]", interval("rating", 0)),
            ("hands", column("hands")),
        ], name="ratings")],
        [plots.plot_ratings(ratings, out / "ratings.png")],
    )]
