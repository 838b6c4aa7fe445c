"""The report section on seats: dealer and non-dealer at two seats, position round the
table at more."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from whist_sim.reports import analyses, plots
from whist_sim.reports.document import Section, column, interval, table_of
from whist_sim.reports.run_facts import RunFacts
from whist_sim.store import RunFolder


def seat_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    counts = facts.chunks.collect(lambda scan: analyses.dealer_counts(scan("seats")))
    dealer = analyses.dealer_effect_of(counts.lazy()).collect()
    two, several = facts.two, len(facts.sizes) > 1
    paragraphs = [
        "Win rate of each strategy when it dealt and when it did not, with 95% Wilson"
        " intervals over hands, and its mean net per hand with a 95% t-interval over"
        " hands. Treating hands as independent is fair here because a strategy deals"
        " one hand of each two-player duplicate pair; hands of different line-ups on"
        " the same deal index still share cards."
        if two else
        "Win rate and mean net per hand of each strategy by its seat's position"
        " relative to the dealer: `eldest` sits left of the dealer (in Solo Whist it"
        " calls first and leads the first trick), then `dealer+2`, `dealer+3`; the"
        " dealer calls last. Win rates have 95% Wilson intervals, mean nets 95%"
        " t-intervals, both over hands: a strategy holds a position once per hand,"
        " and in line-ups such as A B C D or A B A B every seating of a duplicate"
        " set moves it to other cards. In a line-up such as A B C A, and across"
        " line-ups on the same deal index, it holds some cards twice, which the"
        " intervals ignore.",
    ]
    if several:
        paragraphs.append(
            "Tables of each size are kept apart, one table each: `dealer+3` is the"
            " dealer's right-hand neighbour at four seats but not at seven.")
    columns = [
        ("strategy", column("strategy")),
        ("role" if two else "position", column("role")),
        ("hands", column("hands")),
        ("wins", column("wins")),
        ("win rate [95% CI]", interval("win_rate")),
        ("mean net [95% CI]", interval("net", 2)),
    ]
    if several:
        tables = [table_of(dealer.filter(pl.col("players") == size), columns, f"{size} seats",
                           f"seat_position_{size}_seats") for size in facts.sizes]
    else:
        tables = [table_of(dealer, columns, name="seat_position")]
    return [Section("Dealer and non-dealer" if two else "Seat position", paragraphs, tables,
                    [plots.plot_dealer(dealer, out / "dealer.png")])]
