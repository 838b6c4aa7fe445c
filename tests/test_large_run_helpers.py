"""The helpers of benchmarks/large_run.py, benchmarks/commit_rate.py and
benchmarks/pipeline_throughput.py: sizes, disk, fits, the pre-made results the
commit-rate benchmark feeds the runner's driver loop, and the parts a task's time is
split into."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections import namedtuple
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


large_run = _load("large_run")
commit_rate = _load("commit_rate")
pipeline = _load("pipeline_throughput")


def test_two_entrants_make_two_hands_per_deal_index():
    # one line-up, played in both seatings (duplicate deals), one hand a match
    assert large_run.hands_per_deal(["random", "heuristic"]) == 2


def test_three_entrants_make_six_hands_per_deal_index():
    assert large_run.hands_per_deal(["random", "heuristic", "random"]) == 6


@pytest.mark.parametrize("hands", [1, 2, 3, 10_000, 100_001])
def test_config_asks_for_the_fewest_deals_that_give_the_hands(hands):
    config = large_run.tournament_config(hands, ["random", "heuristic"])
    deals = config["tournament"]["deals"]
    assert 2 * deals >= hands
    assert deals == 1 or 2 * (deals - 1) < hands


def test_disk_size_counts_a_hard_linked_file_once_and_skips_the_report(tmp_path):
    (tmp_path / "units").mkdir()
    (tmp_path / "units" / "a.parquet").write_bytes(b"x" * 1000)
    (tmp_path / "data").mkdir()
    os.link(tmp_path / "units" / "a.parquet", tmp_path / "data" / "a.parquet")
    (tmp_path / "run.json").write_bytes(b"y" * 10)
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "report.html").write_bytes(b"z" * 5000)
    assert large_run.bytes_on_disk(tmp_path) == 1010


def test_a_run_too_big_for_the_disk_stops_before_it_starts_saying_what_it_needs(
    tmp_path, monkeypatch
):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(large_run.shutil, "disk_usage", lambda _: usage(10**9, 0, 10**8))
    with pytest.raises(SystemExit) as stopped:
        large_run.check_room(tmp_path, 1_000_000, 300.0)
    message = str(stopped.value)
    assert "1,000,000 hands need about 0.45 GB" in message
    assert "0.10 GB free" in message
    large_run.check_room(tmp_path, 1_000, 300.0)  # 450 kB fits


def test_a_line_is_fitted_exactly_and_extrapolated():
    points = [(10_000, 2.0), (100_000, 11.0), (300_000, 31.0)]  # 1 s + 0.1 ms a hand
    intercept, slope = large_run.fit_line([float(x) for x, _ in points], [y for _, y in points])
    assert intercept == pytest.approx(1.0)
    assert slope == pytest.approx(1e-4)
    value, exponent = large_run.extrapolate(points, 1_000_000)
    assert value == pytest.approx(101.0)
    assert 0.9 < exponent < 1.0  # the constant makes it a little below linear


def test_growth_exponent_reads_flat_linear_and_quadratic():
    assert large_run.growth_exponent(1e4, 5.0, 1e5, 5.0) == pytest.approx(0.0)
    assert large_run.growth_exponent(1e4, 5.0, 1e5, 50.0) == pytest.approx(1.0)
    assert large_run.growth_exponent(1e4, 5.0, 1e5, 500.0) == pytest.approx(2.0)


@pytest.mark.parametrize("stored", [False, True], ids=["driver writes", "workers write"])
def test_the_fed_driver_commits_every_task_of_the_plan(tmp_path, stored):
    """commit_rate's harness: real task results, fed again renumbered, are all committed
    by the runner's driver loop, each task's rows once, whether the driver writes the rows
    or the (simulated) workers wrote their units."""
    per_task = commit_rate.items_per_task(12)
    assert per_task % commit_rate.PAIRINGS == 0
    results, per_hand = commit_rate.make_results(12, 2)
    assert per_hand > 0
    hands = results[0].deals
    assert hands == per_task * commit_rate.hands_per_item()
    seconds = commit_rate.whole_driver(tmp_path, results, 5, per_task, stored=stored)
    assert seconds > 0
    from whist_sim.store import RunFolder

    folder = RunFolder.open(tmp_path / ("stored" if stored else "whole"))
    assert folder.completed_tasks() == set(range(5))
    assert folder.scan("deals").select("deal").collect().height == 5 * hands


def test_every_part_of_the_driver_is_timed_on_the_store_as_it_is(tmp_path):
    """commit_rate's parts use the store's commit halves (``_write_unit``, ``_publish``):
    if the store changes them, this says so instead of the benchmark printing less."""
    per_task = commit_rate.items_per_task(6)
    results, _ = commit_rate.make_results(6, 1)
    timed = commit_rate.parts(tmp_path, results, 3, per_task)
    assert set(timed) == {
        "transfer (unpickle a result)", "live standings", "store: commit_task",
        "store: compact", "split: write the unit (a worker's share if sharded)",
        "split: name it in a snapshot (the driver's share)",
        f"split: name {commit_rate.GROUP} units a snapshot (group commit)",
    }
    assert all(seconds >= 0 for seconds in timed.values())
    for name in ("store", "split", "group"):
        folder = commit_rate.RunFolder.open(tmp_path / name)
        assert folder.completed_tasks() == {0, 1, 2}


@pytest.mark.parametrize("game", ["german_whist", "knockout_whist"])
def test_the_pipeline_benchmark_times_every_part_of_a_task(game):
    """pipeline_throughput's measurement on a tiny task: the task plays the hands bare play
    plays, and every part of its time is measured; each repeat gives its paired ratio."""
    hands, bare, task, paired, parts = pipeline.measure(game, "random", 3, 2, 10.0)
    assert hands >= 6 and bare > 0 and task > 0
    assert len(paired) == 2 and all(ratio > 0 for ratio in paired)
    assert set(parts) == {"bare", "timed", "nothing", "kept", "tables"}
    assert all(seconds > 0 for seconds in parts.values())


def test_the_pipeline_benchmark_says_what_timing_and_the_loop_alone_leave():
    """The parts in microseconds a hand, their ratio, and the bound a recorder that cost
    nothing would reach: bare / (bare + timing + loop), the trade-off between timing each
    decision and the 0.85 target made a number."""
    spent = {"bare": 0.8, "timed": 0.9, "nothing": 1.0, "kept": 1.1, "tables": 0.1}
    micro, by_parts, if_free = pipeline.part_ratios(spent, 10_000)
    assert micro == pytest.approx({"bare": 80, "timing": 10, "loop": 10, "keeping": 10,
                                   "tables": 10})
    assert by_parts == pytest.approx(80 / 120)
    assert if_free == pytest.approx(80 / 100)
    noisy = pipeline.part_ratios({**spent, "timed": 0.7}, 10_000)[0]
    assert noisy["timing"] == 0 and noisy["loop"] == pytest.approx(30)


def test_the_pipeline_benchmark_says_how_much_room_the_recorder_has():
    """The microseconds a hand keeping the hands and building the tables may take for the
    task to reach the target: bare / 0.85 - (bare + timing + loop), negative where timing
    and the loop alone leave the target out of reach."""
    micro = {"bare": 85.0, "timing": 5.0, "loop": 2.0, "keeping": 4.0, "tables": 6.0}
    assert pipeline.recording_room(micro) == pytest.approx(100 - 92)
    assert pipeline.recording_room({**micro, "timing": 20.0}) == pytest.approx(100 - 107)
