"""A snapshot ``data/`` stopped showing stays a while for the readers that followed the link
to it: a reader is never starved by a writer that commits faster than it reads, and
the writer's close leaves one snapshot."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from tests.store_helpers import assert_tidy
from whist_sim.store import RunFolder
from whist_sim.store import folder as folder_module
from whist_sim.store.snapshots import snapshot_numbers
from whist_sim.tournament.schedule import Plan
from whist_sim.tournament.worker import TaskSpec, play_task

GAME = "german_whist"
META = {
    "config": {"tournament": {"game": GAME, "deals": 1, "seed": 3}, "variant": {},
               "strategies": [{"use": "random", "label": "a", "params": {}},
                              {"use": "random", "label": "b", "params": {}}]},
    "root_seed": 3, "status": "running", "game": GAME,
}


@pytest.fixture(scope="module")
def tables() -> dict[str, pa.Table]:
    """One task's tables; the store checks files against manifests, not rows against
    tasks, so every commit here may reuse them under its own task number."""
    spec = TaskSpec(task=0, game=GAME, variant={}, players=None, root_seed=3,
                    plan=Plan(pairings=1, deals=1, deals_per_task=1), lineups=[("a", "b")],
                    strategies={"a": ("random", {}), "b": ("random", {})},
                    time_limit=None, on_error="forfeit")
    return dict(play_task(spec).tables)


def test_a_reader_that_followed_data_before_a_commit_still_reads_that_snapshot(
    tmp_path: Path, tables
):
    writer = RunFolder.create(tmp_path / "run", META)
    writer.commit_task(0, tables)
    followed = (tmp_path / "run" / "data").resolve()
    writer.commit_task(1, tables)
    writer.commit_task(2, tables)
    assert (followed.parent / "_manifest.json").is_file()
    assert [f.name for f in (followed / "deals").iterdir()] == ["task-00000000.parquet"]
    writer.close()
    assert_tidy(tmp_path / "run")  # one snapshot left, the one data/ shows


def test_a_reader_is_not_starved_by_a_writer_committing_under_every_read(
    tmp_path: Path, tables, monkeypatch: pytest.MonkeyPatch
):
    """What a busy machine did in CI: a commit landed while each of the reader's 20
    attempts was checking the snapshot it had followed."""
    writer = RunFolder.create(tmp_path / "run", META)
    writer.commit_task(0, tables)
    check_view = folder_module.check_view
    commits = iter(range(1, 100))

    def commit_then_check(*args, **kwargs):
        writer.commit_task(next(commits), tables)
        return check_view(*args, **kwargs)

    monkeypatch.setattr(folder_module, "check_view", commit_then_check)
    reader = RunFolder.open(tmp_path / "run", verify=False)
    done = reader.completed_tasks()
    assert done == set(range(len(done))), "a snapshot the reader followed, whole"
    assert len(done) < next(commits), "an older one than data/ shows now: it settled"
    assert reader.scan("deals").collect().height == len(done) * tables["deals"].num_rows
    writer.close()


def test_a_reader_reads_the_newer_snapshot_when_data_moved_once_while_it_read(
    tmp_path: Path, tables, monkeypatch: pytest.MonkeyPatch
):
    """The snapshot before the last may lose its units when the writer closes: a reader
    settling for it at once found a unit's file gone when it scanned (CI, at the end of
    a run). Moved once, the reader reads again and gets the newest."""
    writer = RunFolder.create(tmp_path / "run", META)
    writer.commit_task(0, tables)
    check_view = folder_module.check_view
    commits = iter([1])

    def commit_once_then_check(*args, **kwargs):
        for task in commits:
            writer.commit_task(task, tables)
        return check_view(*args, **kwargs)

    monkeypatch.setattr(folder_module, "check_view", commit_once_then_check)
    assert RunFolder.open(tmp_path / "run", verify=False).completed_tasks() == {0, 1}
    writer.close()


def test_at_most_the_newest_superseded_snapshots_are_kept(tmp_path: Path, tables):
    writer = RunFolder.create(tmp_path / "run", META)
    for task in range(folder_module.SUPERSEDED_KEPT + 5):
        writer.commit_task(task, tables)
    numbers = snapshot_numbers(tmp_path / "run")
    assert len(numbers) == folder_module.SUPERSEDED_KEPT + 1
    assert numbers == list(range(numbers[0], numbers[-1] + 1)), "the newest ones"
    writer.close()
    assert len(snapshot_numbers(tmp_path / "run")) == 1


def test_a_superseded_snapshot_goes_once_older_than_the_grace_period(
    tmp_path: Path, tables, monkeypatch: pytest.MonkeyPatch
):
    now = [0.0]
    monkeypatch.setattr(folder_module.time, "monotonic", lambda: now[0])
    writer = RunFolder.create(tmp_path / "run", META)
    for task in range(5):
        now[0] += 6.0  # each commit 6 s after the last
        writer.commit_task(task, tables)
    assert folder_module.SUPERSEDED_KEEP_SECONDS == 10.0
    kept = len(snapshot_numbers(tmp_path / "run")) - 1
    assert kept == 2, "those superseded 0 and 6 s ago; the one superseded 12 s ago is gone"
    monkeypatch.undo()
    writer.close()
