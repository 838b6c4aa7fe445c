"""Decision times as the report and the console show them: short times keep their
significant digits (built-in strategies decide in about a microsecond)."""

from __future__ import annotations

from pathlib import Path

from tests.test_reports import play_small_run
from whist_sim.reports import analyses, build
from whist_sim.reports.run_facts import RunFacts
from whist_sim.rounding import fmt_time


def test_fmt_time_keeps_two_significant_digits_of_a_short_time():
    assert fmt_time(0.00052) == "0.00052"
    assert fmt_time(0.0013) == "0.0013"
    assert fmt_time(0.049) == "0.049"
    assert fmt_time(2.5) == "2.500"
    assert fmt_time(0.0) == "0.000"
    assert fmt_time(None) == "—"


def test_time_per_decision_cells_are_the_times_not_rounded_away(tmp_path: Path):
    folder = play_small_run(tmp_path / "run", deals=4)
    table = build.decision_time_section(folder, tmp_path, RunFacts.of(folder))[0].tables[0]
    got = analyses.decision_times(folder.scan("actions"), folder.scan("deals"),
                                  folder.scan("seats")).collect()
    column = table.header.index("median ms")
    for row, median in zip(table.rows, got["median"], strict=True):
        shown = float(row[column])
        assert abs(shown - 1000 * median) <= 0.06 * 1000 * median, (row, 1000 * median)
