"""A report table's CSV holds the numbers behind the page's cells.

The page prints ``0.512 [0.498, 0.526]``; a script reading standings.csv had to parse
that text back into three numbers, rounded to the page's decimals (a probe). Every table
built from a frame now writes the frame's columns, at full precision, row for row with
the page; text a cell makes up of its own stays text.
"""

from __future__ import annotations

import csv as csv_module
import math
from pathlib import Path

import polars as pl
import pytest

from tests import test_reports
from tests.report_fixtures import folder_with_rows
from whist_sim.reports import page, render
from whist_sim.reports.build import ReportPaths, build_report
from whist_sim.reports.document import (
    Section,
    Table,
    column,
    count_interval,
    interval,
    matrix,
    table_of,
)
from whist_sim.reports.points_section import summary_table
from whist_sim.rounding import fmt_time, percent

RATES = pl.DataFrame({
    "strategy": ["a", "b"],
    "hands": [1200, 40],
    "win_rate": [0.5123456789, float("nan")],
    "win_rate_lo": [0.49, None],
    "win_rate_hi": [0.53, None],
})


def written(table: Table, out: Path) -> pl.DataFrame:
    """``table`` laid out and written as the report writes it, read back as a frame."""
    laid = page.layout("T", [Section("S", [], [table])], out)
    [path] = render.write_tables(laid, out)
    return pl.read_csv(path)


def two_way_shares(first: str, second: str) -> pl.DataFrame:
    """Head-to-head shares of two entrants: ``first`` took 0.625 [0.5, 0.75] of its games
    against ``second``."""
    return pl.DataFrame({"strategy": [first, second], "opponent": [second, first],
                         "share": [0.625, 0.375], "share_lo": [0.5, 0.25],
                         "share_hi": [0.75, 0.5]})


def test_an_interval_cell_is_written_as_its_three_columns_at_full_precision(tmp_path):
    table = table_of(RATES, [("strategy", column("strategy")),
                             ("win rate [95% CI]", interval("win_rate"))], name="rates")
    assert table.rows[0] == ["a", "0.512 [0.490, 0.530]"]
    csv = written(table, tmp_path)
    assert csv.columns == ["strategy", "win_rate", "win_rate_lo", "win_rate_hi"]
    assert csv["win_rate"][0] == 0.5123456789
    assert csv["win_rate_lo"].dtype == pl.Float64


def test_a_missing_number_or_a_nan_is_left_empty(tmp_path):
    table = table_of(RATES, [("strategy", column("strategy")),
                             ("win rate [95% CI]", interval("win_rate"))], name="rates")
    assert table.rows[1] == ["b", "—"]
    csv = written(table, tmp_path)
    assert csv.row(1) == ("b", None, None, None)


def test_a_count_with_its_rate_is_written_as_four_columns(tmp_path):
    frame = RATES.with_columns(wins=pl.Series([615, 0]))
    table = table_of(frame, [("strategy", column("strategy")),
                             ("wins · rate", count_interval("wins", "win_rate"))], name="x")
    assert written(table, tmp_path).columns == [
        "strategy", "wins", "win_rate", "win_rate_lo", "win_rate_hi"]


def test_an_interval_without_bounds_in_the_frame_is_written_as_the_estimate_alone(tmp_path):
    table = table_of(RATES.select("strategy", "win_rate"),
                     [("strategy", column("strategy")), ("rate", interval("win_rate"))],
                     name="x")
    assert written(table, tmp_path).columns == ["strategy", "win_rate"]


def test_a_cell_of_its_own_making_is_written_as_the_page_prints_it(tmp_path):
    table = table_of(RATES, [("strategy", column("strategy")),
                             ("hands", column("hands")),
                             ("verdict", lambda row: f"{row['hands']} hands, enough")],
                     name="x")
    csv = written(table, tmp_path)
    assert csv.columns == ["strategy", "hands", "verdict"]
    assert csv["verdict"].to_list() == ["1200 hands, enough", "40 hands, enough"]
    assert csv["hands"].to_list() == [1200, 40]  # digits alone, where the page shows 1,200


def test_a_column_two_cells_print_is_written_once(tmp_path):
    table = table_of(RATES, [("strategy", column("strategy")),
                             ("rate", column("win_rate")), ("rate [CI]", interval("win_rate"))],
                     name="x")
    assert written(table, tmp_path).columns == [
        "strategy", "win_rate", "win_rate_lo", "win_rate_hi"]


def test_a_nested_column_is_written_as_the_page_prints_it(tmp_path):
    frame = pl.DataFrame({"strategy": ["a"], "hands": [[1, 2]]})
    table = table_of(frame, [("strategy", column("strategy")), ("hands", column("hands"))],
                     name="x")
    assert written(table, tmp_path)["hands"].to_list() == ["[1, 2]"]


def test_a_table_without_numbers_is_written_as_the_page_prints_it(tmp_path):
    table = Table(["setting", "value"], [["hands", "8240"], ["status", "complete"]], name="x")
    csv = written(table, tmp_path)
    assert csv.columns == ["setting", "value"]
    assert csv["value"].to_list() == ["8240", "complete"]


def test_a_grid_writes_its_numbers_in_the_same_grid(tmp_path):
    pairs = two_way_shares("a", "b")
    table = matrix(pairs, interval("share"), "Share", "grid")
    assert table.rows == [["a", "—", "0.625 [0.500, 0.750]"],
                          ["b", "0.375 [0.250, 0.500]", "—"]]
    csv = written(table, tmp_path)
    assert csv.columns == ["strategy", "a", "a_lo", "a_hi", "b", "b_lo", "b_hi"]
    assert csv.row(0) == ("a", None, None, None, 0.625, 0.5, 0.75)
    assert csv.row(1) == ("b", 0.375, 0.25, 0.5, None, None, None)


@pytest.fixture(scope="module")
def hand_built(tmp_path_factory) -> tuple[pl.DataFrame, ReportPaths]:
    """The seats of the reports' small hand-built German Whist run, and its report."""
    folder = folder_with_rows(tmp_path_factory.mktemp("csv") / "run", test_reports.META,
                              test_reports.GAME, test_reports.hand_built_rows())
    return folder.scan("seats").collect(), build_report(folder.path)


def test_the_standings_csv_holds_the_standings_as_numbers(hand_built):
    seats, report = hand_built
    standings = pl.read_csv(report.folder / page.TABLES_DIR / "standings.csv")
    for row in standings.iter_rows(named=True):
        mine = seats.filter(pl.col("strategy") == row["strategy"])
        assert row["hands"] == mine.height
        assert math.isclose(row["win_rate"], (mine["result"] == "win").mean())
        assert math.isclose(row["net"], mine["net"].mean())
        assert row["win_rate_lo"] <= row["win_rate"] <= row["win_rate_hi"]
    markdown = report.markdown.read_text(encoding="utf-8")
    best = standings.row(0, named=True)
    assert f"| {best['strategy']} |" in markdown
    assert f"{best['win_rate']:.3f} [" in markdown  # the page prints the same number



def test_the_points_distribution_csv_holds_each_share_whole(tmp_path):
    """The page's whole distribution printed each share at four decimals: 0.3333."""
    points = pl.DataFrame({"strategy": ["a", "a"], "net": [-1, 2], "hands": [2, 1],
                           "share": [2 / 3, 1 / 3]})
    details = summary_table(points, "hands").details
    assert details is not None and details.rows[1][-1] == "0.3333"
    assert written(details, tmp_path)["share"].to_list() == [2 / 3, 1 / 3]


def test_the_time_per_decision_csv_holds_milliseconds_as_the_page_heads_them(tmp_path):
    """The page's times are in ms, the analysis's in seconds: the CSV writes the ms."""
    from tests.tournament_helpers import make_run_without_ray, quick_config

    run = make_run_without_ray(tmp_path, quick_config(deals=4))
    report = build_report(run)
    times = pl.read_csv(report.folder / page.TABLES_DIR / "time_per_decision.csv")
    assert times.height >= 2 and {"median_ms", "p95_ms", "max_ms"} <= set(times.columns)
    markdown = report.markdown.read_text(encoding="utf-8")
    for row in times.iter_rows(named=True):
        assert 0 < row["median_ms"] <= row["p95_ms"] <= row["max_ms"]
        line = next(line for line in markdown.splitlines()
                    if line.startswith(f"| {row['strategy']} | {row['decisions']:,} |"))
        assert f"| {fmt_time(row['max_ms'])} |" in line


def test_a_grid_whose_labels_would_name_two_columns_alike_is_written_as_printed(tmp_path):
    """An entrant labelled ``b_lo`` beside one labelled ``b``: the grid's ``b_lo`` column
    would be both b's lower bound and entrant b_lo's share."""
    pairs = pl.DataFrame({"strategy": ["b", "b_lo"], "opponent": ["b_lo", "b"],
                          "share": [0.6, 0.4], "share_lo": [0.5, 0.3], "share_hi": [0.7, 0.5]})
    csv = written(matrix(pairs, interval("share"), "Share", "grid"), tmp_path)
    assert csv.columns == ["strategy \\ opponent", "b", "b_lo"]
    assert csv.row(0) == ("b", "—", "0.600 [0.500, 0.700]")


def test_the_verdict_ranking_csv_holds_the_figure_each_entrant_is_ranked_by(hand_built):
    """The ranking CSV gave ``68.8%``: a share as text, rounded to the page's tenth."""
    _, report = hand_built
    ranking = pl.read_csv(report.folder / page.TABLES_DIR / "verdict_ranking.csv")
    assert ranking.columns == ["rank", "entrant", "share_of_hands_won",
                               "decided ahead of the next"]
    assert ranking["share_of_hands_won"].dtype == pl.Float64
    markdown = report.markdown.read_text(encoding="utf-8")
    line = next(line for line in markdown.splitlines() if line.startswith("Ranked by share"))
    for row in ranking.iter_rows(named=True):
        assert f"{row['entrant']} ({percent(row['share_of_hands_won'])})" in line


def test_the_knockout_survival_and_elimination_csvs_hold_their_shares_as_numbers(tmp_path):
    """Both tables are pivoted for the page (a column per strategy and table size, a
    column per round): their CSVs keep the page's grid, in numbers."""
    from tests import test_knockout_report
    from whist_sim.reports import knockout_whist as kw

    folder = test_knockout_report.make_folder(tmp_path / "run")
    report = build_report(folder.path)
    survival = pl.read_csv(report.folder / page.TABLES_DIR / "knockout_whist_survival.csv")
    assert survival["after_round"].to_list() == list(range(1, kw.ROUNDS + 1))
    games = kw.player_games(folder.scan("seats"), folder.scan("deals"))
    want = kw.survival_of(kw.survival_units(games)).collect()
    for row in want.filter(pl.col("round") >= 1).iter_rows(named=True):
        table = "all tables" if row["table"] == kw.ALL else f"{row['table']} seats"
        got = survival.row(row["round"] - 1, named=True)
        column = f"{row['strategy']} · {table}"
        assert got[column] == row["survival"]
        for bound in ("_lo", "_hi"):  # none where the rules fix the share (round 1: all in)
            assert got[column + bound] in (None, row[f"survival{bound}"])
    assert survival.row(1, named=True)["A · all tables_lo"] is not None
    eliminated = pl.read_csv(report.folder / page.TABLES_DIR / "knockout_whist_elimination.csv",
                             schema_overrides={"table": pl.String})
    outcomes = [f"out_in_{r}" for r in range(1, 8)] + ["won"]
    assert eliminated.columns == ["strategy", "table", "players", *outcomes]
    for shares in eliminated.select(outcomes).iter_rows():
        assert math.isclose(sum(shares), 1.0)  # every player went out in a round, or won


def test_the_points_per_hand_csv_holds_shares_and_quantiles_as_numbers(hand_built):
    seats, report = hand_built
    points = pl.read_csv(report.folder / page.TABLES_DIR / "points_per_hand.csv")
    assert points.columns == ["strategy", "hands", "below_0", "at_0", "above_0", "lowest",
                              "q25", "median", "q75", "highest", "most_frequent"]
    for row in points.iter_rows(named=True):
        nets = seats.filter(pl.col("strategy") == row["strategy"])["net"]
        assert math.isclose(row["below_0"], (nets < 0).mean())
        assert math.isclose(row["below_0"] + row["at_0"] + row["above_0"], 1.0)
        assert (row["lowest"], row["highest"]) == (nets.min(), nets.max())


def test_the_solo_make_rate_csv_holds_its_counts_and_rates_as_numbers(tmp_path):
    from tests import test_solo_report

    report = build_report(test_solo_report.make_folder(tmp_path / "run").path)
    rates = pl.read_csv(report.folder / page.TABLES_DIR / "solo_whist_make_rate.csv")
    assert rates["make_rate"].dtype == pl.Float64 and rates.height
    for row in rates.iter_rows(named=True):
        assert row["strength_min"] <= row["strength_max"]
        assert math.isclose(row["make_rate"], row["made"] / row["contracts"])


def test_the_minnesota_grand_against_pass_csv_holds_each_choice_as_numbers(tmp_path):
    from tests import test_minnesota_report

    report = build_report(test_minnesota_report.make_folder(tmp_path / "run").path)
    paths = sorted((report.folder / page.TABLES_DIR).glob("minnesota_grand_vs_pass_*.csv"))
    compared = 0
    for path in paths:
        grand = pl.read_csv(path)
        assert grand.columns == ["HCP", *(f"{choice}_{name}" for choice in ("grand", "pass")
                                          for name in ("seats", "net", "net_lo", "net_hi",
                                                       "points")), "gain"]
        both = grand.drop_nulls(["grand_net", "pass_net"])
        assert [math.isclose(gain, g - p) for gain, g, p in both.select(
            "gain", "grand_net", "pass_net").iter_rows()] == [True] * both.height
        compared += both.height
    assert paths and compared  # the fixture has bands where seats granded and passed


FORMULAS = ['=HYPERLINK("http://127.0.0.9/x","click")', "+1+cmd|' /C calc'!A0",
            "-2+3", "@SUM(A1:A9)", "\tTAB", "\rCR"]
"""Text a spreadsheet opening the CSV would run as a formula (OWASP's list of first
characters): an entrant's label, a bot's program file, a strategy's error."""

HARMLESS = ["plain", "-3", "-0.25", "+1.5e-3", "a=b", "", "-", "="]
"""Text that begins otherwise, is a number a spreadsheet reads as one, or is one sign
alone (a table's "-" for no next entrant)."""


def test_a_text_cell_a_spreadsheet_would_run_as_a_formula_is_written_as_text(tmp_path):
    frame = pl.DataFrame({"strategy": FORMULAS + HARMLESS,
                          "hands": list(range(len(FORMULAS + HARMLESS)))})
    table = table_of(frame, [("strategy", column("strategy")), ("hands", column("hands"))],
                     name="x")
    assert table.data is not None
    written_cells = written(table, tmp_path)["strategy"].fill_null("").to_list()
    assert written_cells == ["'" + text for text in FORMULAS] + HARMLESS


def test_a_text_cell_of_a_table_without_numbers_is_guarded_as_well(tmp_path):
    table = Table(["setting", "value"], [[text, text] for text in FORMULAS + HARMLESS],
                  name="x")
    csv = written(table, tmp_path)
    expected = ["'" + text for text in FORMULAS] + HARMLESS
    assert csv["setting"].fill_null("").to_list() == expected
    assert csv["value"].fill_null("").to_list() == expected


def test_a_label_a_spreadsheet_would_run_is_written_as_text_in_the_standings_csv(tmp_path):
    from tests.tournament_helpers import write_config
    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.runner import run_tournament

    label = '=HYPERLINK("http://127.0.0.9/x","click")'
    config = load_config(write_config(tmp_path, f"""
[tournament]
game = "german_whist"
deals = 2
seed = 5

[[strategies]]
use = "random"
label = '{label}'

[[strategies]]
use = "heuristic"
"""))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    paths = build_report(summary.path)
    [path] = [path for path in paths.tables if path.name == "standings.csv"]
    standings = pl.read_csv(path)
    assert "'" + label in standings["strategy"].to_list()
    assert label not in standings["strategy"].to_list()


def test_a_grid_column_named_after_a_formula_label_is_headed_as_text(tmp_path):
    label = "=1+1"
    pairs = two_way_shares("a", label)
    csv = written(matrix(pairs, interval("share"), "Share", "grid"), tmp_path)
    assert csv.columns == ["strategy", "'=1+1", "'=1+1_lo", "'=1+1_hi", "a", "a_lo", "a_hi"]
    assert csv["strategy"].to_list() == ["'=1+1", "a"]


def test_a_grid_whose_guarded_names_would_clash_is_written_as_printed(tmp_path):
    pairs = two_way_shares("=x", "'=x")
    table = matrix(pairs, interval("share"), "Share", "grid")
    assert table.data is not None
    laid = page.layout("T", [Section("S", [], [table])], tmp_path)
    [path] = render.write_tables(laid, tmp_path)
    with path.open(newline="", encoding="utf-8") as handle:
        header, *rows = list(csv_module.reader(handle))
    assert header == [table.header[0], "'=x", "'=x"]  # the page's grid, each label guarded
    assert [row[0] for row in rows] == ["'=x", "'=x"]
    assert rows[0][2] == "0.375 [0.250, 0.500]"  # the entrant '=x against =x


def _german_table(report: ReportPaths, name: str) -> pl.DataFrame:
    return pl.read_csv(report.folder / page.TABLES_DIR / f"{name}.csv")


def test_the_german_contest_by_suit_type_csv_holds_its_counts_and_means_as_numbers(
    hand_built
):
    csv = _german_table(hand_built[1], "german_whist_contest_by_suit_type")
    assert csv.columns == ["strategy", "prize", "decisions", "contested", "ducked",
                           "contest_rate", "stage2_contested", "stage2_ducked",
                           "net_contested", "net_ducked", "net_gain"]
    a = csv.row(0, named=True)  # the page: 3 (1 / 2), 7.00 / 8.00, 2.00 / 2.00, —
    assert (a["strategy"], a["prize"], a["decisions"], a["contested"], a["ducked"]) == (
        "A", "non-trump", 3, 1, 2)
    assert (a["stage2_contested"], a["stage2_ducked"]) == (7.0, 8.0)
    assert a["net_gain"] is None  # a gain over fewer than FEWEST_FOR_A_GAIN is not given
    assert csv.row(2, named=True)["net_contested"] == -1.0


def test_the_german_contest_rate_by_rank_csv_holds_rates_and_decisions_as_numbers(
    hand_built
):
    csv = _german_table(hand_built[1], "german_whist_contest_rate_by_rank")
    assert csv.columns[:5] == ["rank", "A · non-trump", "A · non-trump decisions",
                               "A · trump", "A · trump decisions"]
    assert csv["rank"].to_list() == list("23456789TJQKA")
    three, king = csv.row(1, named=True), csv.row(11, named=True)  # 1.00 (1); 0.00 (2)
    assert (three["A · non-trump"], three["A · non-trump decisions"]) == (1.0, 1)
    assert (king["A · non-trump"], king["A · non-trump decisions"]) == (0.0, 2)
    assert csv.row(0, named=True)["A · non-trump"] is None  # —: no decision at a 2
    assert csv["A · non-trump decisions"].dtype == pl.Int64


def test_a_german_net_gain_is_in_the_csv_only_where_the_page_shows_it(tmp_path):
    from whist_sim.reports.german_whist_section import FEWEST_FOR_A_GAIN, rank_table

    enough, few = FEWEST_FOR_A_GAIN, FEWEST_FOR_A_GAIN - 1
    by_rank = pl.DataFrame({
        "strategy": ["a", "a"], "trump_prize": [False, False], "rank": ["2", "3"],
        "decisions": [2 * enough, enough + few], "contested": [enough, enough],
        "ducked": [enough, few], "contest_rate": [0.5, enough / (enough + few)],
        "net_gain": [1.25, 4.5]})
    table = rank_table(by_rank, "net_gain", 1, "gain", "gain")
    assert table.rows[0][1] == "1.2" and table.rows[1][1] == "—"
    csv = written(table, tmp_path)
    assert csv.columns == ["rank", "a · non-trump"]
    assert csv["a · non-trump"].to_list()[:2] == [1.25, None]
