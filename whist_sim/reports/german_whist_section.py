"""The German Whist sections of a report: contesting the face-up card, tricks by stage, and
(for best-of-N runs) matches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.cards import RANKS
from whist_sim.reports import german_whist as gw
from whist_sim.reports import plots
from whist_sim.reports.chunks import DealRanges
from whist_sim.reports.document import Cell, Section, Table, fmt, grid_data
from whist_sim.reports.document import column as _col
from whist_sim.reports.document import interval as _ci
from whist_sim.reports.document import table_of as _table
from whist_sim.reports.german_whist_match_section import match_sections
from whist_sim.store import RunFolder

FEWEST_FOR_A_GAIN = 10
"""Decisions each side (contested, ducked) needs before a gain is shown: a strategy that
contested 749 of 750 times showed a net gain of 4.56 over its one duck, beside a count
of 750 (a probe)."""


def shown_gain(row: dict[str, Any], digits: int) -> str:
    """A row's net gain, or "—" where either side had fewer than ``FEWEST_FOR_A_GAIN``
    decisions, so a difference of means over a handful is never read as an effect."""
    if min(row["contested"], row["ducked"]) < FEWEST_FOR_A_GAIN:
        return "—"
    return fmt(row["net_gain"], digits)


def gains_shown(summary: pl.DataFrame) -> pl.DataFrame:
    """``summary`` with ``net_gain`` empty where :func:`shown_gain` prints "—": the CSV
    holds no gain the page withholds, for a script to read as an effect."""
    enough = pl.min_horizontal("contested", "ducked") >= FEWEST_FOR_A_GAIN
    return summary.with_columns(net_gain=pl.when(enough).then(pl.col("net_gain")))


def _pair(first: str, second: str) -> Cell:
    """Cell function: two means side by side, ``7.00 / 8.00``, written as their columns."""
    return Cell(lambda r: f"{fmt(r[first], 2)} / {fmt(r[second], 2)}", (first, second))


def contest_intro(variant: dict[str, Any]) -> list[str]:
    """What the contest tables count, said for the rules ``variant`` (run.json's) played:
    the default rules' words ("the face-up stock card", "a trump") were printed of runs
    with an open stock and with no trumps (a probe)."""
    open_stock = int(variant.get("open_stock") or 1)
    no_trumps = variant.get("trumps") == "none"
    beats = ("a higher card of the suit led; this variant has no trumps" if no_trumps
             else "a higher card of the suit led, or a trump when it held none of that suit")
    bound = ("" if no_trumps
             else " (a trump held by a follower bound to follow suit is no choice)")
    if open_stock > 1:
        take = (f"In stage 1 the top {open_stock} stock cards lie face up and the trick's"
                " winner takes one of them, its choice; the loser takes the top face-down card (the"
                " earliest face-up card once none is face down).")
        duck = "lose on purpose and leave the choice of the face-up cards to the other player"
        contest = "win the trick and choose a face-up card"
    else:
        take = "In stage 1 the trick's winner takes the face-up stock card."
        duck = "lose on purpose and draw the unseen card"
        contest = "win the trick and take the face-up card"
    prize = ("The prize is the card the winner took; every prize is counted as non-trump,"
             " there being no trump suit." if no_trumps
             else "The prize is the card the winner took; trump means its suit was trump.")
    paragraphs = [
        f"{take} When the follower (the seat that did not lead) could play a card that beat"
        f" the lead ({beats}), it chose: contest ({contest}) or duck ({duck}). These tables"
        f" count only such choices{bound}, in hands that were not forfeited. {prize}"]
    if open_stock > 1:
        paragraphs.append(
            f"With `open_stock = {open_stock}` the prize is not what was at stake when the"
            " follower chose: after a contest it is the card the follower chose, after a"
            " duck the card its opponent chose, among the face-up cards. So a contest rate"
            " by prize mixes the two choosers: against an opponent that takes the best card,"
            " a follower's ducks pile up at high prizes whatever it meant. Read the rates by"
            " prize, and the figure's \"face-up card at stake\", with that in mind.")
    return paragraphs


STAGE_COUNTS = {
    "stage2": ", the only tricks this variant's `count = \"stage2\"` scores",
    "all": ": under this variant's `count = \"all\"` the tricks of both stages count",
    "weighted": ": under this variant's `count = \"weighted\"` a stage-1 trick counts 1 and"
                " a stage-2 trick 2",
}
"""What each ``count`` makes of the two stages, for the tricks-by-stage section."""


def stage_intro(variant: dict[str, Any]) -> str:
    """The tricks-by-stage section's opening, said for the rules ``variant`` played: "the
    last 13" was printed of races, whose hands stop as soon as a player reaches the
    target (a probe: 6.1 stage-2 tricks a hand under `race_to = 5`)."""
    count = str(variant.get("count") or "stage2")
    counts = STAGE_COUNTS.get(count, f", under this variant's `count = \"{count}\"`")
    race = variant.get("race_to")
    text = ("Mean tricks taken per hand in stage 1 (while the stock lasts) and in stage 2"
            f" (tricks 14 to 26{counts}), with 95% t-intervals over deal indices (each deal"
            " index's duplicate pairs averaged: with three or more entrants a strategy plays"
            " its cards in several line-ups).")
    if race is not None:
        text += (f" Under `race_to = {race}` a hand stops as soon as a player reaches {race}"
                 " counted units, so fewer tricks are played than the stage holds: a"
                 " strategy's two columns count the tricks it took before the hand ended, and"
                 " the two players' columns need not add up to 13.")
    return text


def german_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The German Whist sections: contesting the face-up card, tricks by stage, and the
    matches of a run that played best-of-N (``german_whist_match_section``)."""
    counts, per_pair = DealRanges.of(folder).collect_all(lambda scan: [
        gw.contest_counts(gw.contest_decisions(scan("tricks"), scan("deals"), scan("seats"))),
        gw.stage_parts(scan("seats"), scan("deals"))])
    by_rank, by_type, stages = pl.collect_all(
        [gw.contest_summary_of(counts.lazy(), list(gw.RANK_KEYS)),
         gw.contest_summary_of(counts.lazy(), ["strategy", "trump_prize"]),
         gw.tricks_by_stage_of(per_pair.lazy())]
    )
    del counts, per_pair
    variant = folder.meta().get("variant")
    variant = variant if isinstance(variant, dict) else {}
    def suit_type(row: dict[str, Any]) -> str:
        return "trump" if row["trump_prize"] else "non-trump"

    return [
        Section(
            "German Whist: contesting the face-up card",
            [
                *contest_intro(variant),
                "`net` and `stage-2 tricks` are the follower's results in that hand, averaged"
                " over decisions when it contested and when it ducked; the gain is the"
                " difference. This is an ASSOCIATION, not an effect: hands in which a"
                " strategy contested differ in other ways from those in which it ducked"
                " (for a start, it had a winner to spare). No intervals are given because"
                " the decisions of one hand are not independent; counts are shown instead,"
                f" of each side, and a gain only where each side has {FEWEST_FOR_A_GAIN} or"
                " more decisions (— elsewhere).",
                *([] if by_type.height else [
                    "No such choice was made in this run (every hand was forfeited, or no"
                    " follower could beat a lead in a hand played out): the tables below are"
                    " empty."]),
            ],
            [
                _table(gains_shown(by_type), [
                    ("strategy", _col("strategy")),
                    ("prize", suit_type),
                    ("decisions (contested / ducked)", Cell(lambda r:
                        f"{r['decisions']:,} ({r['contested']:,} / {r['ducked']:,})",
                        ("decisions", "contested", "ducked"))),
                    ("contest rate", _col("contest_rate")),
                    ("stage-2 tricks contested / ducked",
                     _pair("stage2_contested", "stage2_ducked")),
                    ("net contested / ducked", _pair("net_contested", "net_ducked")),
                    ("net gain", Cell(lambda r: shown_gain(r, 2), ("net_gain",))),
                ], "By suit type", "german_whist_contest_by_suit_type"),
                rank_table(by_rank, "contest_rate", 2,
                           "Contest rate by rank of the prize (decisions in brackets), per"
                           " strategy and prize suit", "german_whist_contest_rate_by_rank"),
                rank_table(by_rank, "net_gain", 1,
                           "Net gain (mean net contested minus ducked) by rank of the prize,"
                           f" per strategy and prize suit (— where contested or ducked fewer"
                           f" than {FEWEST_FOR_A_GAIN} times)", "german_whist_net_gain_by_rank"),
            ],
            [plots.plot_contest_by_rank(by_rank, out / "contest_by_rank.png")],
        ),
        Section(
            "German Whist: tricks by stage",
            [stage_intro(variant)],
            [_table(stages, [
                ("strategy", _col("strategy")),
                ("hands", _col("hands")),
                ("pairs", _col("pairs")),
                ("deals", _col("deals")),
                ("stage-1 tricks [95% CI]", _ci("stage1", 2)),
                ("stage-2 tricks [95% CI]", _ci("stage2", 2)),
            ], name="german_whist_tricks_by_stage")],
        ),
        *match_sections(folder, variant),
    ]


def rank_table(by_rank: pl.DataFrame, value: str, digits: int, caption: str,
               name: str) -> Table:
    """One row per rank of the prize, one column per strategy and prize suit type: thirteen
    rows and a few columns fit the page where thirteen rank columns did not.

    ``value`` is ``contest_rate`` (printed with its decisions in brackets, which the CSV
    holds in a column of their own beside each) or ``net_gain`` (only where the page shows
    a gain: :func:`gains_shown`)."""
    shown = gains_shown(by_rank) if value == "net_gain" else by_rank
    cells = {(r["strategy"], r["trump_prize"], r["rank"]): r
             for r in shown.iter_rows(named=True)}
    keys = sorted({(r["strategy"], r["trump_prize"]) for r in shown.iter_rows(named=True)})
    labels = [f"{strategy} · {'trump' if trump else 'non-trump'}" for strategy, trump in keys]

    def printed(cell: dict[str, Any] | None) -> str:
        if cell is None:
            return "—"
        number = fmt(cell[value], digits)
        return f"{number} ({cell['decisions']})" if value == "contest_rate" else number

    rows = [[rank, *(printed(cells.get((*key, rank))) for key in keys)] for rank in RANKS]
    figures = [value, "decisions"] if value == "contest_rate" else [value]
    columns = [(label if figure == value else f"{label} {figure}",
                [None if (cell := cells.get((*key, rank))) is None else cell[figure]
                 for rank in RANKS])
               for key, label in zip(keys, labels, strict=True) for figure in figures]
    return Table(["prize rank", *labels], rows, caption, name,
                 data=grid_data(("rank", list(RANKS)), columns))
