"""A report read a range of deal indices at a time (``whist_sim.reports.chunks``) gives the
figures of the whole-table queries: every analysis collected range by range and combined
equals the same analysis on the whole table, and a whole report built from ranges of one
deal index reads exactly as one built in one range."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from tests.test_reports import hand_built_run, play_small_run  # noqa: F401 (a fixture)
from whist_sim.reports import analyses, build, chunks
from whist_sim.reports import german_whist as gw
from whist_sim.reports.chunks import DealRanges
from whist_sim.reports.run_facts import RunFacts
from whist_sim.store import RunFolder


def same(got: pl.DataFrame, want: pl.DataFrame, keys: list[str]) -> None:
    """Equal rows (sorted by ``keys``): counts exactly, floats to 1e-12 (a sum taken in
    another order may differ in its last bit)."""
    assert got.height > 0
    assert_frame_equal(got.sort(keys, nulls_last=True), want.sort(keys, nulls_last=True),
                       check_exact=False, rel_tol=1e-12, abs_tol=1e-12)


def chunked(folder: RunFolder, hands: int) -> DealRanges:
    ranges = DealRanges.of(folder, hands)
    assert len(ranges.bounds) > 1, "the test needs several ranges"
    return ranges


@pytest.fixture(params=["hand_built", "played"])
def run(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[RunFolder, DealRanges]:
    """The hand-built run (forfeits, contested face-up cards) cut into one range per deal
    index, and a small played run (3 entrants, 20 deal indices, timed decisions) cut into
    ranges of about 25 hands."""
    if request.param == "hand_built":
        folder = request.getfixturevalue("hand_built_run")
        return folder, chunked(folder, 6)
    folder = play_small_run(tmp_path / "played", deals=20)
    return folder, chunked(folder, 25)


def test_ranges_cover_every_deal_index_once(run: tuple[RunFolder, DealRanges]):
    folder, ranges = run
    deals = folder.scan("deals").select("deal").collect()["deal"]
    bounds = ranges.bounds
    assert bounds[0][0] == deals.min() and bounds[-1][1] == deals.max() + 1
    assert all(low < high for low, high in bounds)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    per_range = ranges.collect(lambda scan: scan("deals").select(pl.len()))["len"]
    assert per_range.sum() == deals.len()


def test_every_analysis_from_ranges_equals_the_whole_table(run: tuple[RunFolder, DealRanges]):
    folder, ranges = run
    seats, deals = folder.scan("seats"), folder.scan("deals")

    def from_ranges(query):
        return ranges.collect(query).lazy()

    # means and intervals over pairs: from each range's parts, against the per-pair rows of
    # the whole table averaged in one go (over_pairs)
    # the standings: over deal indices, each the strategy's totals there (as many hands
    # at every deal index here, so the ratio is the mean of the per-deal means)
    deal_means = analyses.standings_deals(analyses.pair_outcomes(seats)).select(
        "deal", "strategy", "hands", "forfeits", pl.col("pairs").alias("pair_count"),
        *[pl.col(c) / pl.col("hands") for c in analyses.STANDINGS_MEANS])
    same(analyses.standings_of(from_ranges(lambda s: analyses.standings_parts(s("seats"))))
         .collect(), analyses.over_pairs(deal_means, ["strategy"], analyses.STANDINGS_MEANS,
                                         ("forfeits", "pair_count"), analyses.STANDINGS_RATES)
         .rename({"pairs": "deals", "pair_count": "pairs"})
         .select(analyses.standings(seats).collect_schema().names()).collect(),
         ["strategy"])
    # head to head: over deal indices, each the mean of its duplicate pairs
    per_deal = analyses.head_to_head_pairs(seats).group_by(
        ["deal", *analyses.HEAD_TO_HEAD_KEYS]).agg(
        pl.col("hands").sum(), pl.col("comparisons").sum(), pl.len().alias("pair_count"),
        pl.col("share").mean(), pl.col("net").mean())
    same(analyses.head_to_head_of(from_ranges(lambda s: analyses.head_to_head_parts(s("seats"))))
         .collect(), analyses.over_pairs(per_deal, analyses.HEAD_TO_HEAD_KEYS,
                                         analyses.HEAD_TO_HEAD_MEANS,
                                         ("comparisons", "pair_count"),
                                         analyses.HEAD_TO_HEAD_RATES)
         .rename({"pairs": "deals", "pair_count": "pairs"})
         .select(analyses.head_to_head(seats).collect_schema().names()).collect(),
         ["strategy", "opponent"])
    same(analyses.dealer_effect_of(from_ranges(lambda s: analyses.dealer_counts(s("seats"))))
         .collect(), analyses.dealer_effect(seats).collect(), list(analyses.DEALER_KEYS))
    same(analyses.points_distribution_of(from_ranges(lambda s: analyses.points_counts(s("seats"))))
         .collect(), analyses.points_distribution(seats).collect(), ["strategy", "net"])
    same(analyses.forfeits_of(from_ranges(lambda s: analyses.forfeit_counts(s("seats"),
                                                                           s("deals"))))
         .collect(), analyses.forfeits(seats, deals).collect(), ["strategy"])
    same(analyses.table_sizes_of(from_ranges(lambda s: analyses.table_size_counts(s("seats"))))
         .collect(), analyses.table_sizes(seats).collect(), ["players"])
    comparisons = ["pairing", "deal", "strategy", "opponent"]
    same(from_ranges(lambda s: analyses.pair_comparisons(s("seats"))).collect(),
         analyses.pair_comparisons(seats).collect(), comparisons)
    # tricks by stage: over deal indices too, each the mean of its pairs
    stage_deals = gw.stage_pairs(seats, deals).group_by(["deal", "strategy"]).agg(
        pl.col("hands").sum(), pl.len().alias("pair_count"), pl.col("stage1").mean(),
        pl.col("stage2").mean())
    same(gw.tricks_by_stage_of(from_ranges(lambda s: gw.stage_parts(s("seats"), s("deals"))))
         .collect(), analyses.over_pairs(stage_deals, ["strategy"], gw.STAGE_MEANS,
                                         ("pair_count",))
         .rename({"pairs": "deals", "pair_count": "pairs"})
         .select(gw.tricks_by_stage(seats, deals).collect_schema().names()).collect(),
         ["strategy"])
    counts = from_ranges(lambda s: gw.contest_counts(
        gw.contest_decisions(s("tricks"), s("deals"), s("seats"))))
    decisions = gw.contest_decisions(folder.scan("tricks"), deals, seats)
    same(gw.contest_summary_of(counts, list(gw.RANK_KEYS)).collect(),
         gw.contest_by_rank(decisions).collect(), list(gw.RANK_KEYS))
    same(gw.contest_summary_of(counts, ["strategy", "trump_prize"]).collect(),
         gw.contest_by_suit_type(decisions).collect(), ["strategy", "trump_prize"])


def test_forfeits_from_ranges_keep_the_first_error_in_play_order(hand_built_run: RunFolder):  # noqa: F811
    ranges = chunked(hand_built_run, 6)
    counts = ranges.collect(lambda s: analyses.forfeit_counts(s("seats"), s("deals")))
    row = analyses.forfeits_of(counts.lazy()).collect().row(0, named=True)
    # B forfeited on deal index 0 ("first boom") and on 1: the first range holds the first
    assert (row["strategy"], row["forfeits"], row["first_error"]) == ("B", 2, "first boom")


def test_decision_times_from_ranges_equal_the_whole_table(tmp_path: Path):
    folder = play_small_run(tmp_path / "played", deals=20)
    ranges = chunked(folder, 25)
    bins, on_time = ranges.collect_all(lambda s: [
        analyses.decision_time_bins(s("actions"), s("seats")),
        analyses.time_forfeit_counts(s("deals"))])
    got = analyses.decision_times_of(bins.lazy(), on_time.lazy()).collect()
    want = analyses.decision_times(folder.scan("actions"), folder.scan("deals"),
                                   folder.scan("seats")).collect()
    same(got, want, ["strategy"])


def test_run_facts_read_in_ranges_match_the_whole_table(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch):
    folder = play_small_run(tmp_path / "played", deals=20)
    whole = RunFacts.of(folder)
    monkeypatch.setattr(chunks, "CHUNK_HANDS", 7)
    cut = RunFacts.of(folder)
    assert len(cut.chunks.bounds) > 1 and len(whole.chunks.bounds) == 1
    assert cut.sizes == whole.sizes
    key = ["pairing", "deal", "strategy", "opponent"]
    same(cut.pair_comparisons().collect(), whole.pair_comparisons().collect(), key)


def test_a_report_read_one_deal_index_at_a_time_reads_as_one_read_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = play_small_run(tmp_path / "played", deals=20)
    whole = build.build_report(folder.path, tmp_path / "whole")
    monkeypatch.setattr(chunks, "CHUNK_HANDS", 1)  # one range per deal index: 20 ranges
    assert len(DealRanges.of(folder).bounds) == 20
    cut = build.build_report(folder.path, tmp_path / "cut")
    # the page names the folder it was written for: the same run, so the same text
    assert cut.markdown.read_text() == whole.markdown.read_text()
    assert cut.html.read_text() == whole.html.read_text()
    assert [t.name for t in cut.tables] == [t.name for t in whole.tables]
    for mine, theirs in zip(cut.tables, whole.tables, strict=True):
        same_numbers(pl.read_csv(mine), pl.read_csv(theirs), mine.name)


def test_a_range_without_rows_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Deal indices need not be contiguous (a deal set, a stopped duel): a range may hold no
    rows at all, and the report reads the same."""
    folder = play_small_run(tmp_path / "played", deals=6)
    whole = build.build_report(folder.path, tmp_path / "whole")
    made, calls = DealRanges.of, []

    def with_empty(folder: RunFolder, hands: int | None = None) -> DealRanges:
        calls.append(folder)
        ranges = made(folder, 1)
        high = ranges.bounds[-1][1]
        return DealRanges(folder, ((-10, 0), *ranges.bounds, (high, high + 10)))

    monkeypatch.setattr(DealRanges, "of", with_empty)
    cut = build.build_report(folder.path, tmp_path / "cut")
    assert calls, "the report did not read the run in ranges"
    assert cut.markdown.read_text() == whole.markdown.read_text()


@pytest.mark.parametrize("game", ["german_whist", "solo_whist", "minnesota_whist",
                                  "knockout_whist"])
def test_every_games_report_reads_the_same_in_ranges(game: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch):
    """Each game's hand-built run (tests/test_page_report.py's fixtures): its report read
    one deal index at a time reads as its report read whole."""
    from tests.test_page_report import FIXTURES

    folder = FIXTURES[game](tmp_path / game)
    whole = build.build_report(folder.path, tmp_path / "whole")
    monkeypatch.setattr(chunks, "CHUNK_HANDS", 1)
    assert len(DealRanges.of(folder).bounds) > 1
    cut = build.build_report(folder.path, tmp_path / "cut")
    assert cut.markdown.read_text() == whole.markdown.read_text()
    for mine, theirs in zip(cut.tables, whole.tables, strict=True):
        same_numbers(pl.read_csv(mine), pl.read_csv(theirs), mine.name)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["solo", "minnesota", "knockout"])
def test_a_played_runs_report_reads_the_same_in_ranges(game: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    """A small played run of each game with several seats (its report test's config): read
    in ranges of about five hands, its report reads as read whole."""
    import importlib

    from tests.tournament_helpers import make_run_without_ray

    config = importlib.import_module(f"tests.test_{game}_report").CONFIG
    run = make_run_without_ray(tmp_path, config)
    whole = build.build_report(run, tmp_path / "whole")
    monkeypatch.setattr(chunks, "CHUNK_HANDS", 5)
    assert len(DealRanges.of(RunFolder.open(run)).bounds) > 1
    cut = build.build_report(run, tmp_path / "cut")
    assert cut.markdown.read_text() == whole.markdown.read_text()
    for mine, theirs in zip(cut.tables, whole.tables, strict=True):
        same_numbers(pl.read_csv(mine), pl.read_csv(theirs), mine.name)


def same_numbers(cut: pl.DataFrame, whole: pl.DataFrame, name: str) -> None:
    """The same table, but for a CSV's full-precision floats, which may differ in their
    last digit or two of 17 with the order they were summed in: every other cell exactly."""
    assert cut.schema == whole.schema, name
    for column in cut.columns:
        if cut.schema[column].is_float():
            assert np.allclose(cut[column].to_numpy(), whole[column].to_numpy(), rtol=1e-12,
                               atol=1e-12, equal_nan=True), (name, column)
        else:
            assert cut[column].to_list() == whole[column].to_list(), (name, column)
