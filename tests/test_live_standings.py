"""Live standings: every few seconds each entrant's score with its interval, forfeits and
time used; the last lines equal the report's standings."""

from __future__ import annotations

import polars as pl

from tests.tournament_helpers import quick_config, write_config
from whist_sim.reports.analyses import standings
from whist_sim.store import RunFolder
from whist_sim.tournament import runner
from whist_sim.tournament.config import load_config
from whist_sim.tournament.live import LiveStandings
from whist_sim.tournament.runner import run_tournament


def test_standings_are_printed_while_the_run_plays_with_forfeits_and_time(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(runner, "LIVE_SECONDS", 0.0)  # print after every task
    body = quick_config(deals=6, per_task=2).replace(
        'use = "heuristic"', 'use = "tests.plugins.faulty:RaisesOnTrick5"\nlabel = "raiser"')
    config = load_config(write_config(tmp_path, body))
    run_tournament(config, tmp_path / "live", workers=0, progress=True)
    err = capsys.readouterr().err
    blocks = err.count("entrant ")
    assert blocks >= 9  # one per task (9 tasks) and the final one
    assert "win rate [95% CI]" in err and "ms/decision" in err
    last = err[err.rindex("entrant "):].splitlines()
    raiser = next(line for line in last if line.startswith("raiser"))
    assert raiser.split()[-3] == "24"  # every hand it played was forfeited, and it shows


def test_final_live_standings_equal_the_reports_standings(tmp_path):
    config = load_config(write_config(tmp_path, quick_config(deals=8, per_task=3)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    table = standings(RunFolder.open(summary.path).scan("seats")).collect()
    for row in table.iter_rows(named=True):
        line = next(x for x in summary.standings if x.startswith(row["strategy"] + " "))
        assert f"{row['win_rate']:.3f} [{row['win_rate_lo']:.3f}, {row['win_rate_hi']:.3f}]" in line
        assert f"{row['net']:.2f} [{row['net_lo']:.2f}, {row['net_hi']:.2f}]" in line


def test_live_standings_resume_from_the_rows_already_committed(tmp_path):
    config = load_config(write_config(tmp_path, quick_config(deals=4, per_task=2)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    live = LiveStandings(config.labels())
    live.add_rows(RunFolder.open(summary.path).scan("seats"))
    assert live.pairs == 12  # 3 line-ups x 4 deals
    def without_time(lines: list[str]) -> list[list[str]]:
        return [line.split()[:-2] for line in lines[1:]]

    assert without_time(live.lines()) == without_time(summary.standings)
    assert pl.Series(summary.standings).str.contains("duplicate pairs so far").any()
