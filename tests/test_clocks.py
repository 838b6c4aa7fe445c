"""Chess clocks in a tournament, and the time of every decision in results and report."""

from __future__ import annotations

import polars as pl
import pytest

from tests.tournament_helpers import write_config
from whist_sim.reports.build import build_report
from whist_sim.store import RunFolder
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.runner import run_tournament

CONFIG = """
[tournament]
game = "german_whist"
deals = 3
seed = 2
deals_per_task = 3
{clock}

[[strategies]]
use = "tests.plugins.faulty:SteadilySlow"
label = "slow"
params = {{ seconds = 0.02 }}

[[strategies]]
use = "random"
"""


def _run(tmp_path, clock: str):
    config = load_config(write_config(tmp_path, CONFIG.format(clock=clock)))
    return run_tournament(config, tmp_path / "run", workers=0, progress=False).path


@pytest.mark.slow
def test_a_deal_clock_forfeits_the_slow_seat_on_time_and_the_report_counts_it(tmp_path):
    run = _run(tmp_path, "clock = { base = 0.3, increment = 0.0, per = \"deal\" }")
    folder = RunFolder.open(run)
    deals = folder.scan("deals").collect()
    slow = deals.filter(pl.col("strategies").list.contains("slow"))
    assert (slow["status"] == "forfeit").all()
    assert slow["error"].str.contains("lost on time").all()
    actions = folder.scan("actions").collect()
    chosen = actions.filter(pl.col("chosen"))
    assert chosen["seconds"].is_not_null().all() and (chosen["seconds"] >= 0).all()
    assert actions.filter(~pl.col("chosen"))["seconds"].is_null().all()
    text = build_report(run).markdown.read_text()
    section = text[text.index("## Time per decision"):]
    row = next(line for line in section.splitlines() if line.startswith("| slow "))
    assert row.split("|")[-2].strip() == str(slow.height)  # forfeits on time
    median_ms = float(row.split("|")[3])
    assert 15 < median_ms < 200  # it sleeps 20 ms a decision


@pytest.mark.slow
def test_an_increment_keeps_it_in_time(tmp_path):
    run = _run(tmp_path, "clock = { base = 0.3, increment = 0.05 }")
    deals = RunFolder.open(run).scan("deals").collect()
    assert (deals["status"] == "ok").all()


@pytest.mark.parametrize(("clock", "fragment"), [
    ("clock = { base = 0 }", "tournament.clock.base"),
    ("clock = { base = 1, increment = -1 }", "tournament.clock.increment"),
    ("clock = { base = 1, per = \"hour\" }", "tournament.clock.per"),
    ("clock = { base = 1, extra = 2 }", "extra"),
])
def test_a_bad_clock_is_one_line(tmp_path, clock, fragment):
    with pytest.raises(ConfigError, match=fragment):
        load_config(write_config(tmp_path, CONFIG.format(clock=clock)))
