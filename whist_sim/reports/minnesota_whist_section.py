"""The Minnesota Whist sections of a report: granding and games, and when to grand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.reports import minnesota_whist as mw
from whist_sim.reports import plots
from whist_sim.reports.chunks import DealRanges, Scan
from whist_sim.reports.document import NO_SPREAD_NOTE, Cell, Section, fmt, fmt_ci
from whist_sim.reports.document import column as _col
from whist_sim.reports.document import count_interval as _count_ci
from whist_sim.reports.document import interval as _ci
from whist_sim.reports.document import table_of as _table
from whist_sim.store import RunFolder

HCP_BAND = 2
"""Width of the high-card-point bands of the Minnesota grand-value curves."""


def own_points_text(scoring: str) -> str:
    """What a side's own points in a deal are under ``scoring``: "0 when the other side
    scored" missed the negative points of a null hand under "pagat" (a probe)."""
    if scoring == "pagat":
        return ("0 when the other side won a grand; in a null hand the side with more"
                " tricks loses 1 per trick over six, a negative figure, and the other side"
                " scores 0")
    return "0 when the other side scored"


def failed_grand_text(scoring: str) -> str:
    """What a failed grand costs under ``scoring``, which the side's own points do not show:
    "2 per trick over six" is the default scoring's, and was said under "pagat" too."""
    if scoring == "pagat":
        return ("a failed grand scores 0 for the granders but 1 per trick over six for the"
                " other side.")
    return "a failed grand scores 0 for the granders but 2 per trick over six for the other side."


def hand_range_text(scoring: str) -> str:
    """The range of a hand's net and points under ``scoring`` (``HAND_RANGE``), in words."""
    (net_low, net_high), (low, high) = (mw.HAND_RANGE[scoring][measure]
                                        for measure in ("net", "points"))
    return f"net {net_low:g} to {net_high:g}, points {low:g} to {high:g} under this scoring"


def minnesota_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The Minnesota Whist sections: granding and games per partnership and strategy, and the
    value of granding by hand strength."""
    def per_set(scan: Scan) -> list[pl.LazyFrame]:
        rows = mw.seat_deals(scan("seats"), scan("deals"))
        return [*mw.summary_sets(rows, scan("matches")), mw.grand_value_sets(rows, HCP_BAND)]

    scoring = str((folder.meta().get("variant") or {}).get("scoring") or "default")
    deal_sets, game_sets, value_sets = DealRanges.of(folder).collect_all(per_set)
    values = mw.grand_value_of(value_sets.lazy(), HCP_BAND, scoring)
    summary, curves, side_by_side, threshold = pl.collect_all(
        [mw.summary_of(deal_sets.lazy(), game_sets.lazy(), scoring), values,
         mw.grand_vs_pass(values), mw.grand_threshold(values)]
    )
    del deal_sets, game_sets, value_sets

    def band(row: dict[str, Any]) -> str:
        lo, hi = row["hcp"], row["hcp_hi"]
        return str(lo) if lo == hi else f"{lo}–{hi}"

    def choice(prefix: str) -> Cell:
        def cell(row: dict[str, Any]) -> str:
            if row[f"{prefix}_seats"] is None:
                return "—"
            return (f"{row[f'{prefix}_seats']} · {fmt_ci(row, f'{prefix}_net', 2)}"
                    f" · {fmt(row[f'{prefix}_points'], 2)}")
        return Cell(cell, tuple(f"{prefix}_{name}" for name in (
            "seats", "net", "net_lo", "net_hi", "points")))

    return [
        Section(
            "Minnesota Whist: granding and games",
            [
                "One row per partnership (`A+B`: the strategies of its two seats, partners"
                " opposite) and per strategy. A partnership counts once per hand; a strategy"
                " once per seat it held, so a strategy partnered with itself counts each hand"
                " twice (with the same result, which leaves the rates unchanged): the"
                " `hands / seat-hands` column holds hands for a partnership and seat-hands"
                " for a strategy.",
                "`grand rate`: share of hands in which its side granded (a seat of the side"
                " turned the first black card, or said grand). `success`: of those grands,"
                " the share in which the side took 7 tricks or more. `points per own"
                " grand`, `per opponents' grand` and `per null hand`: the side's own points"
                f" in the deal ({own_points_text(scoring)}), averaged over the hands its"
                " side granded (those of `success`), the hands the other side granded, and"
                " the null hands. `game win rate`: share of games to `target` won; a game is a row"
                " group of the `matches` table (one line-up, deal index and rotation).",
                "Intervals are 95% t-intervals over deal indices: every line-up plays a deal"
                " index in both rotations, the partnerships swapping seats on the same"
                " cards. Rates and means are pooled ratios (every hand weighs the same)"
                " with a cluster standard error; the points' intervals are cut to what one"
                f" hand can give ({hand_range_text(scoring)}). Forfeited hands are left out"
                " of the hand columns; the games keep them." + NO_SPREAD_NOTE,
            ],
            [_table(summary, [
                ("kind", _col("kind")),
                ("name", _col("name")),
                ("hands / seat-hands", _col("deals")),
                ("deal indices", _col("deal_indices")),
                ("grands · rate [95% CI]", _count_ci("grands", "grand_rate")),
                ("made 7+ · success [95% CI]", _count_ci("successes", "grand_success")),
                ("points per own grand [95% CI]", _ci("own_grand_points", 2)),
                ("points per opponents' grand [95% CI]", _ci("their_grand_points", 2)),
                ("points per null hand [95% CI]", _ci("null_points", 2)),
            ], "Granding", "minnesota_granding"),
             _table(summary, [
                ("kind", _col("kind")),
                ("name", _col("name")),
                ("games", _col("games")),
                ("game win rate [95% CI]", _ci("game_win_rate")),
            ], "Games", "minnesota_games")],
        ),
        Section(
            "Minnesota Whist: when to grand",
            [
                "The value of granding by hand strength. For every seat that made a bidding"
                " choice: `grand` if it granded, `pass` if it declined (a red card of its"
                " turned up, or said pass). Seats whose choice never came into play, because"
                " an earlier seat granded before their card was turned (red or black) or"
                " their turn came, are left out. Strength is"
                " the seat's high-card points, counted from `deals.hands` (A=4 K=3 Q=2 J=1,"
                f" 40 in the pack), in bands of {HCP_BAND}.",
                "Each cell reads `seats · mean net [95% CI] · mean points`: `net` is the"
                " seat's side's points minus the other side's in that hand, `points` the"
                " side's own points. Net is the figure to decide by: "
                + failed_grand_text(scoring) + " Intervals"
                " are 95% t-intervals over deal indices (pooled ratio, cluster standard"
                " error), cut to what one hand can give"
                f" ({hand_range_text(scoring)}): with few deal indices the t-interval alone"
                " is wider than that. One table per strategy; `all strategies` pools every"
                " seat, of strategies that grand different hands and play them differently:"
                " a band's grands may be one strategy's and its passes another's, so read"
                " its curves, and its threshold, against the strategies' own tables.",
                "Read where the `grand` curve rises above the `pass` curve: seats with that"
                " many points did better granding. The threshold table gives the lowest"
                " band from which the grand net is above the pass net in that band and every"
                " higher band where both occurred (a point estimate: check it against the"
                " bands of the figure); its `grands` and `passes` count the seats of the"
                " bands compared, those where both choices occurred, not every seat of the"
                " tables below, and `from it` the seats of the bands at and above the"
                " threshold, which are all the threshold rests on: a handful of passes there"
                " is a handful of evidence. This is an association: each strategy's own choices"
                " decide which hands land in each curve, and a passing seat's deal may be"
                " granded by another seat.",
            ],
            [
                _table(threshold, [
                    ("strategy", _col("strategy")),
                    ("grand from (HCP)", _col("threshold")),
                    ("bands compared", _col("bands")),
                    ("grands", _col("grands")),
                    ("passes", _col("passes")),
                    ("grands from it", _col("grands_from")),
                    ("passes from it", _col("passes_from")),
                ], "Estimated grand threshold", "minnesota_grand_threshold"),
                *(_table(side_by_side.filter(pl.col("strategy") == name), [
                    ("HCP", band),
                    ("grand: seats · net [95% CI] · points", choice("grand")),
                    ("pass: seats · net [95% CI] · points", choice("pass")),
                    ("grand net minus pass net", _col("gain", 2)),
                ], f"Grand against pass by high-card points: {name}",
                    f"minnesota_grand_vs_pass_{name}")
                  for name in side_by_side["strategy"].unique(maintain_order=True)),
            ],
            [plots.plot_grand_value_by_hcp(curves, out / "minnesota_grand_value.png")]
            if curves.height else [],
        ),
    ]
