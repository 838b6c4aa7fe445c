"""The report section on seats: dealer and non-dealer at two seats, position round the
table at more."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from whist_sim.reports import analyses, plots
from whist_sim.reports.document import Section, column, interval, table_of
from whist_sim.reports.run_facts import RunFacts
from whist_sim.store import RunFolder

ELDEST = {
    "solo_whist": "`eldest` sits left of the dealer (in Solo Whist it calls first and leads"
    " the first trick), then `dealer+2`, `dealer+3`; the dealer calls last.",
    "minnesota_whist": "`eldest` sits left of the dealer (in Minnesota Whist it bids first"
    " and leads a null hand; a grand is led by the seat on the grander's right), then"
    " `dealer+2`, `dealer+3`; the dealer bids last.",
    "knockout_whist": "the dealer is the first dealer, seat 0, who deals round 1 (the deal"
    " then passes left); `eldest` sits on its left and leads the first trick, then"
    " `dealer+2`, `dealer+3` and so on clockwise. After round 1 the player who took most"
    " tricks leads, wherever it sits.",
    "": "`eldest` sits left of the dealer, then `dealer+2`, `dealer+3` and so on clockwise.",
}
"""Per game, what the positions are and what each does first: the Knock-out and Minnesota
reports read "in Solo Whist it calls first ... the dealer calls last" (a probe)."""


def seat_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    counts = facts.chunks.collect(lambda scan: analyses.dealer_counts(scan("seats")))
    dealer = analyses.dealer_effect_of(counts.lazy()).collect()
    two, several = facts.two, len(facts.sizes) > 1
    paragraphs = [
        "Win rate of each strategy when it dealt and when it did not (wins over hands),"
        " and its mean net per hand, with 95% intervals over deal indices: every"
        " line-up and seating of one deal index is one unit, since they share its cards"
        " (a ratio's interval over units; a rate's cut at 0 and 1, Wilson's where every"
        " unit gave the same rate)."
        if two else
        "Win rate and mean net per hand of each strategy by its seat's position"
        " relative to the dealer: " + ELDEST.get(facts.game, ELDEST[""]) + " The figures"
        " are totals over hands (wins over hands, net per hand), with 95% intervals over"
        " deal indices: every line-up and seating of one deal index is one unit, since a"
        " strategy can hold the same cards in several of them"
        + (" (up to once per seat at the table: each deal index's cards go to the same"
           " seats in every seating)." if facts.game == "knockout_whist" else "."),
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
