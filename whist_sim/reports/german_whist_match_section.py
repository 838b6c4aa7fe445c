"""The German Whist section "matches": who wins the best-of-N matches, not only the hands.

Shown only for runs whose variant plays matches (``match = "best_of_N"``): under ``match =
"single"`` a match is one hand, and the standings already say everything this would. The
standings, head to head and ratings count hands; a strategy can win more hands than it
wins matches (its wins bunched in matches it lost anyway), so the match figures are their
own table, read from the ``matches`` table (one row per seat per match).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from whist_sim.reports import german_whist as gw
from whist_sim.reports.chunks import DealRanges
from whist_sim.reports.document import Section, matrix
from whist_sim.reports.document import column as _col
from whist_sim.reports.document import interval as _ci
from whist_sim.reports.document import table_of as _table
from whist_sim.store import RunFolder

SINGLE = "single"
"""The ``match`` of a run of single hands: no Matches section."""


def plays_matches(variant: dict[str, Any]) -> bool:
    """Whether run.json's ``variant`` plays matches of several hands (``match`` other than
    "single"; a run.json without the key played single hands, the default)."""
    return str(variant.get("match") or SINGLE) != SINGLE


def match_sections(folder: RunFolder, variant: dict[str, Any]) -> list[Section]:
    """The Matches section of a run that played best-of-N matches; none otherwise."""
    if not plays_matches(variant):
        return []
    parts, pairwise_parts = DealRanges.of(folder).collect_all(lambda scan: [
        gw.match_parts(scan("matches"), scan("seats")),
        gw.match_pairwise_parts(scan("matches"), scan("seats"))])
    results, pairwise = pl.collect_all([gw.match_results_of(parts.lazy()),
                                        gw.match_pairwise_of(pairwise_parts.lazy())])
    drawn = bool((results["draw_rate"] > 0).any())
    tables = [_table(results, [
        ("strategy", _col("strategy")),
        ("matches", _col("matches")),
        ("pairs", _col("pairs")),
        ("deals", _col("deals")),
        ("match win rate [95% CI]", _ci("win_rate")),
        *([("draw rate [95% CI]", _ci("draw_rate"))] if drawn else []),
        ("points per match [95% CI]", _ci("points", 2)),
        ("hands per match [95% CI]", _ci("hands_per_match", 2)),
        ("forfeited in", _col("forfeited")),
    ], "Match results", "german_whist_matches")]
    if results.height >= 3:
        tables.append(matrix(pairwise, _ci("win_rate"),
                             "Match win rate of the row strategy against the column strategy"
                             " [95% CI]", "german_whist_match_win_rate"))
    return [Section("German Whist: matches", match_intro(variant, results.height, drawn), tables)]


def match_intro(variant: dict[str, Any], entrants: int, drawn: bool) -> list[str]:
    """What the Matches section counts, said for the run's ``match``, entrants and whether
    any match was drawn: a best-of-N match is drawn only when every seat forfeited, so the
    draw rate is left out where it is 0 everywhere (it read ``0.000 [0.000, 0.096]`` in
    every row, as if a draw could have happened)."""
    match = str(variant.get("match"))
    best_of = match.removeprefix("best_of_")
    paragraphs = [
        f"This run plays `match = \"{match}\"`: a match is up to {best_of} hands between the"
        " two seats, the dealer alternating, ending as soon as one seat has won more hands"
        " than the other can catch up (hands level after all of them: more hands until they"
        " differ). Its winner is the seat that won more hands; the standings, head to head"
        " and ratings above count hands; this section counts matches. `matches` counts the"
        " strategy's matches, `pairs` the duplicate pairs (a line-up and deal index played"
        " in both seatings) and `deals` the deal indices.",
        "As in the standings a draw is not half a win: the match win rate counts matches"
        " won, and drawn matches have their own rate. A match is drawn only when it was"
        " stopped level, by the forfeit of every seat at the table"
        + (" (the draw rate column)." if drawn else
           "; no match of this run was, so the table has no draw rate.")
        + " `points per match` is"
        " the sum of the strategy's net points over the match's hands, and `hands per match`"
        " how many hands it lasted. Each figure is the strategy's total over its matches by"
        " their number, with the 95% interval of that ratio over deal indices: every"
        " line-up and seating of a deal index plays its cards, so its matches are not"
        " independent (a rate's interval cut at 0 and 1, and Wilson's where every deal"
        " index gave the same rate).",
        "Forfeits: a forfeited hand counts in its match as lost by the seat that forfeited"
        " (the other seat wins it, by the largest score the variant allows, which stays in"
        " the points), and the match goes on; the `matches` table decides it on hands won,"
        " so a forfeit loses a hand, not by itself the match. `forfeited in` counts the"
        " matches in which the strategy forfeited at least one hand.",
    ]
    if entrants >= 3:
        paragraphs.append(
            "The second table is the row strategy's match win rate against each other"
            " strategy, over the matches the two played, with its interval over the deal"
            " indices at which they met. Drawn matches count in neither direction, so"
            " win rate(A, B) + win rate(B, A) is 1 less their draw rate.")
    return paragraphs
