"""The report section "Head to head": each strategy against each other one."""

from __future__ import annotations

from pathlib import Path

from whist_sim.reports import analyses, plots
from whist_sim.reports.document import Section, interval, matrix
from whist_sim.reports.run_facts import RunFacts
from whist_sim.store import RunFolder

EQUAL_NETS = {
    "solo_whist": "equal nets, e.g. two defenders of one contract,",
    "knockout_whist": "equal nets, e.g. two players who both lost the game, −1 each,",
}
"""Per game, an example of two seats with equal nets: the Solo one ("two defenders of one
contract") stood in the Minnesota and Knock-out reports too (a probe). Where the game has
none to give (Minnesota's opposite sides score opposite nets), just "equal nets"."""


def head_to_head_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    parts = facts.chunks.collect(
        lambda scan: analyses.head_to_head_parts(scan("seats"), facts.sides))
    h2h = analyses.head_to_head_of(parts.lazy()).collect()
    paragraphs = [
        "Row strategy against column strategy, over the hands in which the two met."
        " The win share counts a draw as half a win (the higher net in the"
        " hand wins); brackets are 95% t-intervals over the deal indices at which the two"
        " were compared, a deal index's duplicate pairs averaged into one value since they"
        " play the same cards (a share cut at 0 and 1, and Wilson's where every deal index"
        " gave the same share, widened at a handful of them). The second table is"
        " the row strategy's mean net points per hand against that opponent.",
    ]
    if not facts.two:
        paragraphs.append(
            "With more than two seats a hand is not one duel, so head to head is"
            " defined seat by seat: in each hand every seat of the row strategy is"
            " compared with every seat of the column strategy. The win share is the"
            " share of those comparisons in which the row strategy's net was higher"
            f" ({EQUAL_NETS.get(facts.game, 'equal nets')} count half); the"
            " margin is half the difference of the two nets, averaged over the"
            " comparisons (in a two-player game exactly the row strategy's net). Both"
            " are taken per duplicate pair first, then averaged over the pairs of a deal"
            " index and over the deal indices, as the intervals are: where one entrant"
            " holds two seats of a line-up, or where forfeits left some deal indices fewer"
            " comparisons than others, this can differ from the share of all the"
            " comparisons pooled. Both are antisymmetric: share(A, B) = 1 − share(B, A).")
        if not facts.sides:
            paragraphs.append(
                "A hand a forfeit stopped compares only the seat that forfeited, which lost"
                " to every other seat; the others are not compared with one another, since"
                " the forfeit stopped them before they played the hand out (it pays or"
                " scores them alike, which would read as level play).")
    if facts.sides:
        paragraphs.append(
            "In this partnership game only seats of opposite partnerships are"
            " compared: partners share every net, so a strategy partnered with"
            " another one is never compared with its partner.")
    margin = ("Mean net points per hand of the row strategy [95% CI]" if facts.two else
              "Mean net margin per comparison, half the difference of the two nets [95% CI]")
    return [Section(
        "Head to head", paragraphs,
        [matrix(h2h, interval("share"), "Win share of the row strategy [95% CI]",
                "head_to_head_share"),
         matrix(h2h, interval("net", 2), margin, "head_to_head_net")],
        [plots.plot_head_to_head(h2h, out / "head_to_head.png")],
    )]
