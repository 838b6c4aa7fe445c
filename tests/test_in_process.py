"""A fast start: small runs play in the driver's process, with the same rows as on Ray.

The trade-off with crash containment is explicit: a run plays in process on its
own only when every entrant is a built-in strategy; a plug-in always goes to
Ray, and a run forced in process (``--workers 0``) dies with a strategy that
ends the process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament_helpers import assert_same_rows, quick_config, run_rows, write_config
from whist_sim.tournament import runner
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import choose_in_process, run_tournament

pytestmark = pytest.mark.slow  # every test here plays whole runs (seconds each)

ROOT = Path(__file__).resolve().parents[1]


def _config(tmp_path: Path, body: str, name: str = "c.toml"):
    return load_config(write_config(tmp_path, body, name))


QUICK_LINEUPS = [("random", "heuristic"), ("random", "random_b"), ("heuristic", "random_b")]
"""``quick_config``'s three line-ups."""


def _timing_sample(config) -> float:
    """The seconds an item takes by the timing sample of a ``quick_config`` run."""
    return runner._seconds_per_item(config, QUICK_LINEUPS, [0, 1, 2])


def test_in_process_run_has_the_same_rows_as_on_ray(tmp_path, ray_cluster):
    body = quick_config(deals=10, per_task=3)
    here = run_tournament(_config(tmp_path, body), tmp_path / "here", workers=0, progress=False)
    ray = run_tournament(_config(tmp_path, body), tmp_path / "ray", workers=2, progress=False)
    assert here.where == "in process" and ray.where == "ray"
    assert_same_rows(run_rows(here.path), run_rows(ray.path))
    assert json.loads((here.path / "run.json").read_text())["where"] == "in process"


def test_in_process_run_needs_no_ray(tmp_path):
    script = (
        "import sys\n"
        "from whist_sim.tournament.config import load_config\n"
        "from whist_sim.tournament.runner import run_tournament\n"
        f"config = load_config({str(write_config(tmp_path, quick_config(deals=3)))!r})\n"
        f"summary = run_tournament(config, {str(tmp_path / 'run')!r}, workers=0, progress=False)\n"
        "assert summary.status == 'complete', summary\n"
        "print('ray' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


@pytest.fixture
def no_ray_yet(monkeypatch):
    monkeypatch.setattr(runner, "ray_running", lambda: False)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)


def test_small_run_of_built_ins_plays_in_process(tmp_path, no_ray_yet):
    config = _config(tmp_path, quick_config(deals=10))
    assert choose_in_process(config, None, None, play_seconds=0.5)


def test_a_first_item_that_pays_the_process_start_up_is_timed_again(tmp_path, monkeypatch):
    """The first item a process plays also pays one-time costs (numba loading a
    heuristic's compiled code took a second): timed alone it made the quickstart look
    like 50 minutes of play and sent it to Ray in tasks of two items."""
    import time

    config = _config(tmp_path, quick_config(deals=10))
    real = runner.play_task
    calls = []

    def start_up_then_play(spec):
        calls.append(spec)
        if len(calls) == 1:
            time.sleep(runner.SAMPLE_SECONDS)  # the process's one-time cost
        return real(spec)

    monkeypatch.setattr(runner, "play_task", start_up_then_play)
    per_item = _timing_sample(config)
    assert len(calls) >= 2, "the first item is timed again"
    assert per_item < runner.SAMPLE_SECONDS / 4, per_item


def test_the_timing_sample_plays_deals_of_its_own_not_the_plans(tmp_path, monkeypatch):
    """It played the plan's first deals: a bot met a scored deal before it was scored,
    and two processes of one entrant could pass each other its cards."""
    config = _config(tmp_path, quick_config(deals=10))
    real = runner.play_task
    seeds = []

    def recorded(spec):
        seeds.append(spec.root_seed)
        return real(spec)

    monkeypatch.setattr(runner, "play_task", recorded)
    _timing_sample(config)
    assert seeds and config.tournament.seed not in seeds


def test_no_two_passes_of_the_timing_sample_play_the_same_deal(tmp_path, monkeypatch):
    """A bot process is never dealt a hand twice (``protocol.process_strategy``): when
    every pass of the sample replayed the plan's first deals from one seed, each pass
    started every bot's processes afresh (about 0.6 s each), start-ups that a run's
    workers, dealing each hand once, do not pay again. Each pass deals from a seed of
    its own."""
    import time

    config = _config(tmp_path, quick_config(deals=10))
    real = runner.play_task
    seeds = []

    def recorded(spec):
        seeds.append(spec.root_seed)
        if len(seeds) == 1:
            time.sleep(runner.SAMPLE_SECONDS)  # the process's one-time cost: timed again
        return real(spec)

    monkeypatch.setattr(runner, "play_task", recorded)
    _timing_sample(config)
    assert len(seeds) >= 3, "timed again, then tasks of more items: three passes at least"
    assert len(set(seeds)) == len(seeds), seeds
    assert config.tournament.seed not in seeds


def test_the_timing_sample_leaves_the_bots_start_ups_out(tmp_path, monkeypatch):
    """A bot's processes start once a worker, not once a deal: timed as play, the start-ups
    of three isolated entrants (5.3 s in a pass of four items) made a 40-deal run's tasks
    one item each (160 tasks), where its items took 0.03 s each. A task says how long its
    bots took to start (``TaskResult.bot_start_seconds``), and the sample takes it off."""
    import time

    config = _config(tmp_path, quick_config(deals=10))
    real = runner.play_task

    def starting_a_bot_each_pass(spec):
        time.sleep(runner.SAMPLE_SECONDS / 2)  # a bot's start-up in this pass
        result = real(spec)
        result.bot_start_seconds += runner.SAMPLE_SECONDS / 2
        return result

    monkeypatch.setattr(runner, "play_task", starting_a_bot_each_pass)
    per_item = _timing_sample(config)
    assert per_item < runner.SAMPLE_SECONDS / 10, per_item


def test_the_timing_sample_stops_growing_once_its_clock_is_spent(tmp_path, monkeypatch):
    """With the bots' start-ups taken off, each pass that reaches new line-ups starts their
    bots untimed, so a round robin of many bots could start all its processes before the
    run did; a pass that would end past ``SAMPLE_WALL_SECONDS`` on the clock is not
    played, and the last pass's rate stands."""
    import time

    monkeypatch.setattr(runner, "SAMPLE_WALL_SECONDS", 1.0)
    config = _config(tmp_path, quick_config(deals=100))
    real = runner.play_task
    sizes = []

    def starting_bots_each_pass(spec):
        sizes.append(len(spec.plan.task_items(spec.task)))
        time.sleep(0.4)  # bots started for the line-ups this pass reaches
        result = real(spec)
        result.bot_start_seconds += 0.4
        return result

    monkeypatch.setattr(runner, "play_task", starting_bots_each_pass)
    per_item = _timing_sample(config)
    # the first item took 0.4 s on the clock: four would end past 1 s
    assert sizes == [1], sizes
    assert 0 < per_item < 0.1, per_item


def test_long_run_goes_to_ray(tmp_path, no_ray_yet):
    config = _config(tmp_path, quick_config(deals=10))
    assert not choose_in_process(config, None, None, runner.IN_PROCESS_SECONDS * 2)


def test_plug_in_always_goes_to_ray_unless_asked(tmp_path, no_ray_yet):
    body = quick_config(deals=2).replace('use = "heuristic"',
                                         'use = "tests.plugins.faulty:RaisesOnTrick5"')
    config = _config(tmp_path, body)
    assert not choose_in_process(config, None, None, play_seconds=0.01)
    assert choose_in_process(config, 0, None, play_seconds=0.01)


def test_workers_address_or_running_ray_choose_ray(tmp_path, no_ray_yet, monkeypatch):
    config = _config(tmp_path, quick_config(deals=2))
    assert not choose_in_process(config, 2, None, 0.01)
    assert not choose_in_process(config, None, "127.0.0.3:6379", 0.01)
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.3:6379")
    assert not choose_in_process(config, None, None, 0.01)
    monkeypatch.delenv("RAY_ADDRESS")
    monkeypatch.setattr(runner, "ray_running", lambda: True)
    assert not choose_in_process(config, None, None, 0.01)


def test_a_strategy_that_ends_the_process_ends_an_in_process_run(tmp_path, no_ray_yet):
    """The price of a fast start, kept visible: no containment in process."""
    body = quick_config(deals=2, per_task=1).replace(
        'use = "heuristic"', 'use = "tests.plugins.faulty:ExitsTheProcess"')
    config = write_config(tmp_path, body)
    out = tmp_path / "dies"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "run", str(config), "--out", str(out),
         "--workers", "0", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 3  # the strategy's exit code: the driver died with it
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    # ... which is why the default never plays a plug-in in process
    assert not choose_in_process(_config(tmp_path, body, "again.toml"), None, None, 0.01)


def test_cli_run_in_process_prints_standings(tmp_path):
    config = write_config(tmp_path, quick_config(deals=4))
    out = tmp_path / "cli"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "run", str(config), "--out", str(out),
         "--workers", "0", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "in process" in result.stdout
    assert "win rate [95% CI]" in result.stdout
    for label in ("random", "heuristic", "random_b"):
        assert f"  {label} " in result.stdout


def test_a_slow_line_up_after_a_fast_one_keeps_the_timing_sample_short(tmp_path, monkeypatch):
    """Sized from the first line-up's deal 0 alone, the sample of a run with one slow
    plug-in played the whole tournament, 530 s, before any play (a probe: random and
    heuristic quick, a plug-in sleeping 0.1 s a decision). Here a line-up holding the
    slow entrant costs 0.2 s an item: the sample plays a handful of them, not all."""
    import time

    config = _config(tmp_path, quick_config(deals=50))
    real = runner.play_task
    slow_items = []

    def slow_line_ups(spec):
        slow = sum(1 for pairing, _ in spec.plan.task_items(0)
                   if "random_b" in spec.lineups[pairing])
        slow_items.append(slow)
        time.sleep(0.2 * slow)
        return real(spec)

    monkeypatch.setattr(runner, "play_task", slow_line_ups)
    started = time.perf_counter()
    per_item = _timing_sample(config)
    assert time.perf_counter() - started < 10 * runner.SAMPLE_SECONDS
    assert sum(slow_items) <= 8  # of the 100 slow items in the plan
    assert per_item > 0.05  # two line-ups in three are slow: the estimate knows it
