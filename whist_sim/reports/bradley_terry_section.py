"""The report section "Ratings" of a two-seat game: Bradley-Terry, every hand one game of
the fit.

Tables of three to seven seats are rated from their finishing order instead
(``ratings_section``): pairing their seats into duels squashes the gaps.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from whist_sim.inference.fit_failure import FitDidNotConverge
from whist_sim.reports import plots
from whist_sim.reports.document import Cell, Section, column, fmt_ci, table_of
from whist_sim.reports.rating_notes import rating_notes
from whist_sim.reports.ratings_section import names_in_words as _names
from whist_sim.reports.ratings_section import unfitted_section
from whist_sim.reports.run_facts import RunFacts
from whist_sim.reports.stats import BOOTSTRAP_BLOCKS, bradley_terry
from whist_sim.store import RunFolder

BOOTSTRAP = 200
"""Bootstrap resamples for the rating intervals."""
BOOTSTRAP_SEED = 0


def bradley_terry_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    try:
        ratings = bradley_terry(facts.pair_summaries(facts.sides).blocks, bootstrap=BOOTSTRAP,
                                seed=BOOTSTRAP_SEED)
    except FitDidNotConverge as exc:
        return [unfitted_section("Ratings", exc)]
    swept = swept_in_hands(folder.scan("seats"))
    bound = {name: "at most" for name in swept["never_ahead"]}
    bound.update({name: "at least" for name in swept["never_behind"]})
    warnings = [
        f"{_names(names)} {verb} against any other entrant: by the data alone"
        f" {'its' if len(names) == 1 else 'each'} rating is {infinite}, and the figure shown"
        " is held by the virtual drawn hands, so it moves with them and with the run's"
        f" length, not with the play. Read the rating as \"{reading} this much\", and every"
        " gap to it as \"at least this much\"."
        for names, verb, infinite, reading in (
            (swept["never_ahead"], "never won or drew a hand", "minus infinity", "at most"),
            (swept["never_behind"], "never lost or drew a hand", "infinite", "at least"))
        if names
    ]
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
            *rating_notes(folder.meta(), ratings["strategy"].to_list()),
            *warnings,
        ],
        [table_of(ratings.with_columns(rating_bound=pl.col("strategy").replace_strict(
            bound, default=None, return_dtype=pl.String)), [
            ("strategy", column("strategy")),
            ("rating [95% CI]", Cell(lambda row: _bounded(row, bound),
                                     ("rating", "rating_lo", "rating_hi", "rating_bound"))),
            ("hands", column("hands")),
        ], name="ratings")],
        [plots.plot_ratings(ratings, out / "ratings.png")],
    )]


def swept_in_hands(seats: pl.LazyFrame) -> dict[str, list[str]]:
    """Entrants whose Bradley-Terry rating the hands cannot place: ``never_ahead``, no hand
    won or drawn against another entrant (a forfeit is a loss); ``never_behind``, none
    lost or drawn. A probe's entrant that forfeited every hand read -441 [no spread]:
    the virtual drawn hand's figure, shown as if certain."""
    counts = (
        seats.group_by("strategy")
        .agg(ahead=pl.col("result").is_in(["win", "draw"]).sum(),
             behind=pl.col("result").is_in(["loss", "draw", "forfeit"]).sum())
        .sort("strategy").collect()
    )
    if counts.height < 2:
        return {"never_ahead": [], "never_behind": []}
    return {"never_ahead": counts.filter(pl.col("ahead") == 0)["strategy"].to_list(),
            "never_behind": counts.filter(pl.col("behind") == 0)["strategy"].to_list()}


def _bounded(row: dict, bound: dict[str, str]) -> str:
    shown = fmt_ci(row, "rating", 0)
    reading = bound.get(row["strategy"])
    return shown if reading is None else f"{shown} ({reading}: never {_never(reading)})"


def _never(reading: str) -> str:
    return "won or drew a hand" if reading == "at most" else "lost or drew a hand"
