"""A writer killed with SIGKILL at any moment of a commit or a compaction leaves only
committed states: every documented read (Polars, DuckDB, pandas) sees exactly the
committed rows, and a resume ends with exactly the rows of a run never stopped."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests.store_helpers import (
    assert_documented_reads_equal,
    assert_tidy,
    config_file,
    rows_for_tasks,
    run_writer,
    shown_tasks,
)
from tests.tournament_helpers import assert_same_rows, quick_config, run_rows
from whist_sim.store.crash_points import CRASH_POINTS
from whist_sim.tournament.runner import resume_tournament
from whist_sim.tournament.schedule import Plan

pytestmark = pytest.mark.slow  # every test here plays whole runs (seconds each)

BODY = quick_config(deals=12, per_task=3)
PLAN = Plan(pairings=3, deals=12, deals_per_task=3, rotations=None)
COMPACT_EVERY = 5
"""Compactions after commits 5 and 10 and at the end (12 tasks): kills land in a run that
already holds a batch beside task units."""


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("reference")
    done = run_writer("run", folder / "run", config_file(folder, BODY),
                      compact_every=COMPACT_EVERY)
    assert done.returncode == 0, done.stderr
    return run_rows(folder / "run")


def _pass_of(point: str) -> str:
    """The 7th commit (after the first compaction) or the 2nd compaction."""
    return f"{point}#7" if point.startswith("commit:") else f"{point}#2"


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_a_kill_at_any_point_leaves_committed_rows_and_resume_completes_them(
    tmp_path: Path, reference: dict, point: str
):
    run = tmp_path / "run"
    killed = run_writer("run", run, config_file(tmp_path, BODY), kill_at=_pass_of(point),
                        compact_every=COMPACT_EVERY)
    assert killed.returncode == -signal.SIGKILL, killed.stderr

    committed = shown_tasks(run)
    before_swap = point.split(":")[1] in ("staging", "staged", "unit", "linking", "snapshot")
    if point.startswith("commit:"):
        assert len(committed) == (6 if before_swap else 7)
    else:
        assert len(committed) == 10  # a compaction adds no task and loses none
    assert_documented_reads_equal(run, rows_for_tasks(reference, PLAN, committed))

    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.status == "complete"
    assert resumed.tasks_run == PLAN.tasks - len(committed)
    assert_same_rows(run_rows(run), reference)
    assert_documented_reads_equal(run, reference)
    assert_tidy(run)


def test_totals_add_up_over_a_killed_session_and_the_resumed_one(tmp_path: Path):
    run = tmp_path / "run"
    killed = run_writer("run", run, config_file(tmp_path, BODY), kill_at="commit:done#5",
                        totals_every=0.0)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    before = json.loads((run / "run.json").read_text())["totals"]
    assert before["task_seconds"] > 0 and before["wall_seconds"] >= before["task_seconds"]

    resumed = resume_tournament(run, workers=0, progress=False)
    after = json.loads((run / "run.json").read_text())["totals"]
    assert after["task_seconds"] == pytest.approx(before["task_seconds"] + resumed.task_seconds)
    assert after["wall_seconds"] >= before["wall_seconds"] + resumed.wall_seconds


def test_a_run_resumed_to_its_end_carries_no_earlier_sessions_error(tmp_path: Path):
    run = tmp_path / "run"
    killed = run_writer("run", run, config_file(tmp_path, BODY), kill_at="commit:done#2")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    meta = json.loads((run / "run.json").read_text())
    meta.update(status="failed", error="ConnectionError: node 10.0.0.7 lost")
    (run / "run.json").write_text(json.dumps(meta))
    resume_tournament(run, workers=0, progress=False)
    meta = json.loads((run / "run.json").read_text())
    assert meta["status"] == "complete" and meta["error"] is None
