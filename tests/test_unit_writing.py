"""Workers write their tasks' units, the driver only names them (docs/cluster.md,
"Sharded writing"): exactly once, whatever dies when, and the same rows as ever."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.store_helpers import (
    ROOT,
    assert_tidy,
    config_file,
    run_writer,
    shown_tasks,
)
from tests.tournament_helpers import assert_same_rows, quick_config, run_rows
from whist_sim.store import RunFolder, RunFolderError
from whist_sim.store.crash_points import KILL_AT
from whist_sim.store.manifest import rebuild
from whist_sim.store.snapshots import STAGING_DIR, UNITS_DIR
from whist_sim.store.units import merge_units
from whist_sim.tournament import unit_writing
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import _spec, load_plan, resume_tournament, run_tournament
from whist_sim.tournament.unit_writing import StoredTask, UnitTarget, store_task
from whist_sim.tournament.worker import play_task

pytestmark = pytest.mark.slow  # whole runs, some in other processes

BODY = quick_config(deals=12, per_task=3)  # 12 tasks of 3 items


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("reference")
    done = run_writer("run", folder / "run", config_file(folder, BODY))
    assert done.returncode == 0, done.stderr
    return run_rows(folder / "run")


def _stopped_after(tmp_path: Path, commits: int) -> Path:
    """A run whose driver was killed (SIGKILL) just after its ``commits``-th commit."""
    run = tmp_path / "run"
    killed = run_writer("run", run, config_file(tmp_path, BODY), kill_at=f"commit:done#{commits}")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert shown_tasks(run) == set(range(commits))
    return run


def _task_result(run: Path, task: int):
    """What a worker hands back for ``task`` of the run: played as the runner plays it."""
    folder = RunFolder.open(run)
    config, plan, seats, played = load_plan(folder)
    seeding = int(folder.meta()["seat_seeding"])
    return play_task(_spec(config, plan, seats, played, task, None, seeding))


def _target(run: Path) -> UnitTarget:
    return UnitTarget.of(RunFolder.open(run))


def test_a_unit_a_worker_wrote_but_the_dead_driver_never_named_is_removed_and_played_once(
    tmp_path, reference
):
    run = _stopped_after(tmp_path, 2)
    stored = store_task(_task_result(run, 2), _target(run))  # finished as the driver died
    assert isinstance(stored, StoredTask) and (run / UNITS_DIR / stored.unit).is_dir()
    reader = RunFolder.open(run)
    assert reader.completed_tasks() == {0, 1}, "an unnamed unit is not committed"
    assert not any(stored.unit in p.name for p in (run / "data").rglob("*.parquet"))

    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.tasks_run == 10
    assert not (run / UNITS_DIR / stored.unit).exists()
    assert_same_rows(run_rows(run), reference)  # task 2 once, not twice
    assert_tidy(run)


def test_two_attempts_at_one_task_exactly_one_is_named(tmp_path):
    run = _stopped_after(tmp_path, 2)
    target = _target(run)
    with RunFolder.open(run, repair=True) as folder:  # the driver, then its workers
        first = store_task(_task_result(run, 2), target)
        second = store_task(_task_result(run, 2), target)  # a retry that also finished
        assert first.unit != second.unit, "attempts never share a name"
        first.check(folder.tables())
        folder.name_units({first.unit: first.record})
        with pytest.raises(RunFolderError, match=r"holds task 2, already committed"):
            folder.name_units({second.unit: second.record})
        with pytest.raises(RunFolderError, match=r"already shown"):
            folder.name_units({first.unit: first.record})
    assert shown_tasks(run) == {0, 1, 2}
    assert not (run / UNITS_DIR / second.unit).exists(), "closing removes what no snapshot names"


def test_a_lost_manifest_is_rebuilt_with_one_unit_per_task(tmp_path):
    run = _stopped_after(tmp_path, 2)
    target = _target(run)
    for _ in range(2):  # both attempts renamed into .units/, neither named
        store_task(_task_result(run, 2), target)
    rebuilt = rebuild(run / UNITS_DIR, 99)
    held = [task for record in rebuilt.units.values() for task in record.tasks]
    assert sorted(held) == [0, 1, 2]


def test_a_group_commit_names_several_units_in_one_snapshot(tmp_path, reference):
    run = _stopped_after(tmp_path, 2)
    target = _target(run)
    with RunFolder.open(run, repair=True) as folder:
        stored = [store_task(_task_result(run, task), target) for task in (2, 3, 4)]
        before = folder._writable().snapshot
        folder.name_units({s.unit: s.record for s in stored})
        assert folder._writable().snapshot == before + 1
    assert shown_tasks(run) == {0, 1, 2, 3, 4}
    resume_tournament(run, workers=0, progress=False)
    assert_same_rows(run_rows(run), reference)


def test_a_record_that_does_not_match_what_the_worker_sent_is_refused(tmp_path):
    run = _stopped_after(tmp_path, 2)
    stored = store_task(_task_result(run, 2), _target(run))
    tables = RunFolder.open(run).tables()
    other = store_task(_task_result(run, 3), _target(run))
    mixed = StoredTask(stored.result, other.unit, other.record)
    with pytest.raises(RunFolderError, match=rf"{other.unit} .* holds tasks \[3\], not task 2"):
        mixed.check(tables)


KILLED_WORKER = """
import sys
from pathlib import Path
from whist_sim.store import RunFolder
from whist_sim.store.units import write_task_unit
from tests.test_unit_writing import _task_result

run = Path(sys.argv[1])
folder = RunFolder.open(run)
write_task_unit(run, 2, _task_result(run, 2).tables, folder.tables(), folder.run_id, folder.game)
"""


def test_a_worker_killed_mid_write_leaves_nothing_visible_and_its_task_is_played_again(
    tmp_path, reference
):
    run = _stopped_after(tmp_path, 2)
    env = {**os.environ, KILL_AT: "commit:staging", "PYTHONPATH": str(ROOT)}
    killed = subprocess.run([sys.executable, "-c", KILLED_WORKER, str(run)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert list((run / STAGING_DIR).iterdir()), "the half-written unit is in .staging/"
    assert RunFolder.open(run).completed_tasks() == {0, 1}
    resume_tournament(run, workers=0, progress=False)
    assert_same_rows(run_rows(run), reference)
    assert_tidy(run)


def test_a_batch_written_but_never_swapped_in_leaves_the_task_units_shown(tmp_path, reference):
    run = _stopped_after(tmp_path, 4)
    with RunFolder.open(run, repair=True) as folder:
        [(batch, group)] = folder.plan_compaction(min_units=2, max_rows=10**9)
        assert folder.plan_compaction(min_units=2, busy=group) == []  # nothing left to merge
        merge_units(run, batch, folder.records(group), folder.tables(), folder.run_id,
                    folder.game)  # the merge task finished; its driver died before the swap
        assert (run / UNITS_DIR / batch).is_dir()
        shown = folder.shown_units()
    assert shown_tasks(run) == {0, 1, 2, 3} and batch not in shown
    assert not (run / UNITS_DIR / batch).exists(), "an unswapped batch goes with the writer"
    resume_tournament(run, workers=0, progress=False)
    assert_same_rows(run_rows(run), reference)


def test_batches_planned_while_another_is_being_merged_get_their_own_names(tmp_path):
    run = _stopped_after(tmp_path, 4)
    with RunFolder.open(run, repair=True) as folder:
        first = folder.plan_compaction(min_units=1, max_rows=1)  # a batch per task unit
        busy = [unit for _, units in first[:2] for unit in units]  # two of them being merged
        more = folder.plan_compaction(min_units=1, max_rows=1, busy=busy)
    names = [batch for batch, _ in first + more]
    assert len(first) == 4 and len(more) == 2 and len(set(names)) == 6, names
    assert not set(busy) & {unit for _, units in more for unit in units}


def test_a_ray_run_never_writes_or_merges_a_row_in_the_driver(tmp_path, ray_cluster, reference,
                                                              monkeypatch):
    """Under Ray the workers write every task unit and every batch: the driver's own
    writing paths fail if called, and the run still completes with the reference rows."""
    def refuse(*args, **kwargs):
        raise AssertionError("the driver wrote rows")

    monkeypatch.setattr(RunFolder, "commit_task", refuse)
    monkeypatch.setattr(unit_writing, "merge_units", refuse)
    monkeypatch.setattr("whist_sim.store.folder.merge_units", refuse)
    monkeypatch.setattr("whist_sim.tournament.runner.COMPACT_EVERY", 4)
    config = load_config(config_file(tmp_path, BODY))
    summary = run_tournament(config, tmp_path / "ray", workers=2, progress=False)
    assert summary.status == "complete" and summary.tasks_run == 12
    batches = [p.name for p in (tmp_path / "ray" / "data" / "deals").iterdir()]
    assert batches and all(name.startswith("batch-") for name in batches), batches
    assert_same_rows(run_rows(tmp_path / "ray"), reference)
    assert_tidy(tmp_path / "ray")


def test_an_interrupt_just_after_a_snapshot_is_shown_loses_no_unit_it_names(
    tmp_path, monkeypatch, reference
):
    """Ctrl-C lands after ``data/`` was switched to the snapshot naming a worker's unit
    and before the writer noted it in memory: closing the folder must read what the disk
    shows, not remove the unit as unnamed (found under load: the next reader said the
    unit's files were gone)."""
    from whist_sim.store import folder as folder_module

    run = _stopped_after(tmp_path, 2)
    writer = RunFolder.open(run, repair=True)
    stored = store_task(_task_result(run, 2), _target(run))  # a worker, as the driver runs
    shown_for_real = folder_module.show

    def interrupted(path, number):
        shown_for_real(path, number)
        raise KeyboardInterrupt

    monkeypatch.setattr(folder_module, "show", interrupted)
    with pytest.raises(KeyboardInterrupt):
        writer.name_units({stored.unit: stored.record})
    monkeypatch.setattr(folder_module, "show", shown_for_real)
    writer.close()
    assert (run / UNITS_DIR / stored.unit).is_dir()
    assert RunFolder.open(run).completed_tasks() == {0, 1, 2}
    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.tasks_run == 9
    assert_same_rows(run_rows(run), reference)
