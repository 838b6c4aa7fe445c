"""The German Whist sections of a report: contesting the face-up card, tricks by stage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.cards import RANKS
from whist_sim.reports import german_whist as gw
from whist_sim.reports import plots
from whist_sim.reports.chunks import DealRanges
from whist_sim.reports.document import Section, Table, fmt
from whist_sim.reports.document import column as _col
from whist_sim.reports.document import interval as _ci
from whist_sim.reports.document import table_of as _table
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


def german_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The German Whist section: contesting the face-up card, and tricks by stage."""
    counts, per_pair = DealRanges.of(folder).collect_all(lambda scan: [
        gw.contest_counts(gw.contest_decisions(scan("tricks"), scan("deals"), scan("seats"))),
        gw.stage_parts(scan("seats"), scan("deals"))])
    by_rank, by_type, stages = pl.collect_all(
        [gw.contest_summary_of(counts.lazy(), list(gw.RANK_KEYS)),
         gw.contest_summary_of(counts.lazy(), ["strategy", "trump_prize"]),
         gw.tricks_by_stage_of(per_pair.lazy())]
    )
    del counts, per_pair
    def suit_type(row: dict[str, Any]) -> str:
        return "trump" if row["trump_prize"] else "non-trump"

    return [
        Section(
            "German Whist: contesting the face-up card",
            [
                "In stage 1 the trick's winner takes the face-up stock card. When the"
                " follower (the seat that did not lead) could play a card that beat the lead"
                " (a higher card of the suit led, or a trump when it held none of that suit),"
                " it chose: contest (win the trick and take the face-up card) or duck (lose"
                " on purpose and draw the unseen card). These tables count only such choices"
                " (a trump held by a follower bound to follow suit is no choice), in hands"
                " that were not forfeited."
                " The prize is the card the winner took; trump means its suit was trump.",
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
                _table(by_type, [
                    ("strategy", _col("strategy")),
                    ("prize", suit_type),
                    ("decisions (contested / ducked)", lambda r:
                        f"{r['decisions']:,} ({r['contested']:,} / {r['ducked']:,})"),
                    ("contest rate", _col("contest_rate")),
                    ("stage-2 tricks contested / ducked",
                     lambda r: f"{fmt(r['stage2_contested'], 2)} / {fmt(r['stage2_ducked'], 2)}"),
                    ("net contested / ducked",
                     lambda r: f"{fmt(r['net_contested'], 2)} / {fmt(r['net_ducked'], 2)}"),
                    ("net gain", lambda r: shown_gain(r, 2)),
                ], "By suit type", "german_whist_contest_by_suit_type"),
                _rank_table(by_rank, "contest_rate", 2,
                            "Contest rate by rank of the prize (decisions in brackets), per"
                            " strategy and prize suit", "german_whist_contest_rate_by_rank"),
                _rank_table(by_rank, "net_gain", 1,
                            "Net gain (mean net contested minus ducked) by rank of the prize,"
                            f" per strategy and prize suit (— where contested or ducked fewer"
                            f" than {FEWEST_FOR_A_GAIN} times)", "german_whist_net_gain_by_rank"),
            ],
            [plots.plot_contest_by_rank(by_rank, out / "contest_by_rank.png")],
        ),
        Section(
            "German Whist: tricks by stage",
            [
                "Mean tricks per hand won in stage 1 (while the stock lasts) and in stage 2"
                " (the last 13, which the classic count scores), with 95% t-intervals over"
                " deal indices (each deal index's duplicate pairs averaged: with three or"
                " more entrants a strategy plays its cards in several line-ups).",
            ],
            [_table(stages, [
                ("strategy", _col("strategy")),
                ("hands", _col("hands")),
                ("pairs", _col("pairs")),
                ("deals", _col("deals")),
                ("stage-1 tricks [95% CI]", _ci("stage1", 2)),
                ("stage-2 tricks [95% CI]", _ci("stage2", 2)),
            ], name="german_whist_tricks_by_stage")],
        ),
    ]


def _rank_table(by_rank: pl.DataFrame, value: str, digits: int, caption: str,
                name: str) -> Table:
    """One row per rank of the prize, one column per strategy and prize suit type: thirteen
    rows and a few columns fit the page where thirteen rank columns did not."""
    cells = {
        (r["strategy"], r["trump_prize"], r["rank"]): r for r in by_rank.iter_rows(named=True)
    }
    keys = sorted({(r["strategy"], r["trump_prize"]) for r in by_rank.iter_rows(named=True)})
    rows = []
    for rank in RANKS:
        row = [rank]
        for strategy, trump in keys:
            cell = cells.get((strategy, trump, rank))
            if cell is None:
                row.append("—")
            elif value == "contest_rate":
                row.append(f"{fmt(cell[value], digits)} ({cell['decisions']})")
            elif value == "net_gain":
                row.append(shown_gain(cell, digits))
            else:
                row.append(fmt(cell[value], digits))
        rows.append(row)
    header = [f"{strategy} · {'trump' if trump else 'non-trump'}" for strategy, trump in keys]
    return Table(["prize rank", *header], rows, caption, name)
