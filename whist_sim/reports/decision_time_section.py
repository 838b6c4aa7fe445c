"""The report section "Time per decision": how long strategies took, and forfeits on time.

Runs that do not record ``actions.seconds`` (older runs) get no such section.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from whist_sim.reports import analyses
from whist_sim.reports.document import Cell, Section, column, table_of
from whist_sim.reports.run_facts import RunFacts, seating_period
from whist_sim.rounding import fmt_time
from whist_sim.store import RUN_FILE, RunFolder


def decision_time_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    actions = folder.scan("actions")
    if "seconds" not in actions.collect_schema().names():
        return []
    period = seating_period(folder.meta(), folder.path / RUN_FILE)
    bins, on_time = facts.chunks.collect_all(lambda scan: [
        analyses.decision_time_bins(scan("actions"), scan("seats"), period),
        analyses.time_forfeit_counts(scan("deals"))])
    times = analyses.decision_times_of(bins.lazy(), on_time.lazy()).collect()

    times = times.with_columns((pl.col("median", "p95", "max") * 1000).name.suffix("_ms"))

    def ms(name: str) -> Cell:
        return Cell(lambda row: fmt_time(row[f"{name}_ms"]), (f"{name}_ms",))

    return [Section(
        "Time per decision",
        [
            "How long each strategy took per decision, in milliseconds, measured around its"
            " call (for a bot, the round trip through the protocol). These are measurements"
            " of this machine under this run's load, not results: two runs of the same plan"
            " give the same rows except these times. `forfeits on time`: hands lost to the"
            " decision limit, a chess clock, or the supervisor ending a decision that would"
            " not stop. Decisions and the max are exact; the median and the 95th percentile"
            f" are read off {analyses.TIME_BINS_PER_DECADE} logarithmic bins per factor of"
            " ten, so they are within 1.2% of the exact figure. `decisions` counts the timed"
            " ones: a German Whist hand whose every seat is `random` is played in compiled"
            " code, its decisions (nanoseconds each) not timed.",
        ],
        [table_of(times, [
            ("strategy", column("strategy")),
            ("decisions", column("decisions")),
            ("median ms", ms("median")),
            ("95th percentile ms", ms("p95")),
            ("max ms", ms("max")),
            ("forfeits on time", column("time_forfeits")),
        ], name="time_per_decision")],
    )]
