"""Benching: after bench_after forfeits, in plan order, an entrant sits out the run."""

from __future__ import annotations

import json

import polars as pl
import pytest

from tests.tournament_helpers import assert_same_rows, run_rows, write_config
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.runner import run_tournament

CONFIG = """
[tournament]
game = "german_whist"
deals = 12
seed = 8
deals_per_task = {per_task}
bench_after = 3

[[strategies]]
use = "tests.plugins.hostile:RaisesOnTrigger"
label = "flaky"

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
"""


def _play(tmp_path, name: str, per_task: int, workers: int = 0):
    config = load_config(write_config(tmp_path, CONFIG.format(per_task=per_task),
                                      f"{name}.toml"))
    return run_tournament(config, tmp_path / name, workers=workers, progress=False)


@pytest.mark.slow
def test_an_entrant_is_benched_after_its_nth_forfeit_in_plan_order(tmp_path):
    summary = _play(tmp_path, "bench", per_task=4)
    deals = run_rows(summary.path)["deals"].sort("deal", "pairing", "rotation")
    mine = deals.filter(pl.col("strategies").list.contains("flaky"))
    errors = mine.filter(pl.col("status") == "forfeit")["error"].to_list()
    played = [e for e in errors if "benched" not in e]
    benched = [e for e in errors if "benched after 3 forfeits" in e]
    assert len(played) == 3  # its own three failures, then it sits out
    assert benched and all("(flaky)" in e for e in benched)
    first_benched = mine.with_row_index().filter(
        pl.col("error").str.contains("benched").fill_null(False))["index"].min()
    assert (mine[:first_benched]["error"].str.contains("benched").fill_null(False)).sum() == 0
    assert (mine[first_benched:]["status"] == "forfeit").all()
    meta = json.loads((summary.path / "run.json").read_text())
    assert meta["benched"]["flaky"]["forfeits"] == 3
    # the entrants it never met play on untouched
    others = deals.filter(~pl.col("strategies").list.contains("flaky"))
    assert (others["status"] == "ok").all()


def test_benching_gives_the_same_rows_for_any_task_size_and_workers(tmp_path, ray_cluster):
    one = _play(tmp_path, "one", per_task=1)
    five = _play(tmp_path, "five", per_task=5)
    on_ray = _play(tmp_path, "ray", per_task=3, workers=2)
    rows = run_rows(one.path)
    assert_same_rows(rows, run_rows(five.path))
    assert_same_rows(rows, run_rows(on_ray.path))


def test_bench_after_must_be_a_positive_whole_number(tmp_path):
    body = CONFIG.format(per_task=2).replace("bench_after = 3", "bench_after = 0")
    with pytest.raises(ConfigError, match="bench_after"):
        load_config(write_config(tmp_path, body))


def test_a_resumed_run_benches_from_the_same_item(tmp_path, monkeypatch):
    from whist_sim.tournament import executors
    from whist_sim.tournament.runner import resume_tournament

    reference = _play(tmp_path, "reference", per_task=2)
    real = executors.InProcessExecutor.next_result
    calls = {"n": 0}

    def interrupted(self):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(executors.InProcessExecutor, "next_result", interrupted)
    stopped = _play(tmp_path, "stopped", per_task=2)
    assert stopped.status == "interrupted"
    monkeypatch.setattr(executors.InProcessExecutor, "next_result", real)
    resumed = resume_tournament(stopped.path, workers=0, progress=False)
    assert resumed.status == "complete"
    assert_same_rows(run_rows(resumed.path), run_rows(reference.path))
    meta = json.loads((resumed.path / "run.json").read_text())
    assert meta["benched"] == json.loads((reference.path / "run.json").read_text())["benched"]


TWO_FLAKY = """
[tournament]
game = "german_whist"
deals = 16
seed = 8
deals_per_task = 4
bench_after = 2

[variant]
match = "best_of_3"

[[strategies]]
use = "tests.plugins.hostile:RaisesOnTrigger"
label = "flaky_a"

[[strategies]]
use = "tests.plugins.hostile:RaisesOnTrigger"
label = "flaky_b"

[[strategies]]
use = "random"
"""


def test_a_table_of_benched_entrants_forfeits_every_seat_and_pays_no_one(tmp_path):
    """Two benched entrants at one table: the seat to act forfeited and the other was paid a
    win it never played for (a bot that never finished a hand read a win rate of 0.30, a
    probe). Every seat now forfeits, no one scores, the match ends (a best-of-3 of ties
    would deal for ever), and a replay reproduces the deal."""
    from whist_sim.replay import replay_deal

    config = load_config(write_config(tmp_path, TWO_FLAKY, "two.toml"))
    summary = run_tournament(config, tmp_path / "two", workers=0, progress=False)
    assert summary.status == "complete"
    rows = run_rows(summary.path)
    both = rows["deals"].filter(pl.col("error").str.contains("every seat forfeits")
                                .fill_null(False))
    assert both.height, "no table of two benched entrants: play more deals"
    assert {tuple(lineup) for lineup in both["strategies"].list.sort().to_list()} == {
        ("flaky_a", "flaky_b")}
    seats = rows["seats"].join(both.select("deal_key"), on="deal_key")
    assert (seats["result"] == "forfeit").all()
    assert (seats["net"] == 0).all() and (seats["score"] == 0).all()
    matches = rows["matches"].join(both.select("pairing", "deal", "rotation").unique(),
                                   on=["pairing", "deal", "rotation"])
    assert (matches["hands_played"] == 1).all()  # the match ended with its first, unplayed hand
    for key in both["deal_key"].to_list()[:3]:
        assert replay_deal(summary.path, key).state.outcome().result == ("forfeit", "forfeit")
    # a benched entrant against one that plays is still an ordinary forfeit: the other wins
    single = rows["deals"].filter(pl.col("error").str.contains("benched").fill_null(False)
                                  & ~pl.col("error").str.contains("every seat").fill_null(False))
    paid = rows["seats"].join(single.select("deal_key"), on="deal_key")
    assert single.height and (paid.filter(pl.col("strategy") == "random")["result"]
                              == "win").all()


def test_the_console_and_the_report_say_that_an_entrant_was_benched(tmp_path):
    """A probe: an entrant benched after 2 forfeits showed "forfeited 20 of 20 hands" and its
    first error, on the console and in the report, with not a word of the 18 hands it sat
    out; the report's settings did not name the time limit, the clock or bench_after."""
    from whist_sim.reports.build import build_report

    body = CONFIG.format(per_task=4).replace("bench_after = 3", (
        "bench_after = 3\ntime_limit = 2.5\n"
        'clock = { base = 60, increment = 0.5, per = "match" }'))
    config = load_config(write_config(tmp_path, body))
    summary = run_tournament(config, tmp_path / "bench", workers=0, progress=False)
    benched = json.loads((tmp_path / "bench" / "run.json").read_text())["benched"]
    assert list(benched) == ["flaky"]
    unplayed = pl.read_parquet(tmp_path / "bench" / "data" / "deals").filter(
        pl.col("error").str.contains("benched after")).height
    line = next(line for line in summary.forfeit_lines() if line.startswith("flaky"))
    assert f"{unplayed} of them unplayed: benched after 3 forfeits" in line, line
    report = build_report(tmp_path / "bench").markdown.read_text()
    assert "benched after 3 forfeits" in report and f"| {unplayed} |" in report
    assert "| time limit per decision | 2.5 s |" in report
    assert "| chess clock | 60 s + 0.5 s a decision, per match |" in report
    assert "| bench after | 3 forfeits |" in report
