"""Keeping a run to a handful of files while it plays: merges handed to workers.

Every task adds a unit (a file per table). ``Compaction`` merges the task units a
snapshot shows into batches once ``every`` of them wait, and once more when the run
is complete. The merging is per-row work, so it goes where the tasks go: to a Ray
worker (``unit_writing.merge_batch``), or done at once in process. The driver only
plans the batches (names never given twice) and swaps each finished one in for the
units it merged, in one snapshot (``RunFolder.swap_in``). A merge lost with its
worker or its driver leaves the task units shown; its batch, never named, is removed
by the next writer.
"""

from __future__ import annotations

from whist_sim.store import RunFolder
from whist_sim.tournament.executors import Executor, Finished
from whist_sim.tournament.unit_writing import MergedBatch, StoredTask, UnitTarget, merge_batch
from whist_sim.tournament.worker import TaskResult


class Compaction:
    """The merges of one session of a run: planned here, played by ``executor``."""

    def __init__(self, folder: RunFolder, executor: Executor, target: UnitTarget,
                 every: int) -> None:
        self._folder = folder
        self._executor = executor
        self._target = target
        self._every = every
        self._merging: set[str] = set()
        """Task units a merge in flight holds: never planned into a second batch."""

    def after_commit(self) -> None:
        """Merge when ``every`` task units wait that no merge holds yet."""
        waiting = sum(unit.startswith("task-") and unit not in self._merging
                      for unit in self._folder.shown_units())
        if waiting >= self._every:
            self.start(min_units=2)

    def start(self, min_units: int) -> None:
        """Hand every batch the folder would write now to the executor."""
        for batch, group in self._folder.plan_compaction(min_units, busy=self._merging):
            self._merging.update(group)
            done = self._executor.submit_merge(batch, self._folder.records(group))
            if done is not None:
                self._swap(done)

    def tasks_of(self, finished: list[Finished]) -> list[TaskResult | StoredTask]:
        """The tasks among ``finished``; the merges among them are swapped in on the way."""
        for item in finished:
            if isinstance(item, MergedBatch):
                self._swap(item)
        return [item for item in finished if not isinstance(item, MergedBatch)]

    def finish(self) -> None:
        """Wait for the merges in flight and swap them in (the run's plays are done)."""
        while self._executor.merging:
            self.tasks_of([self._executor.next_result()])

    def _swap(self, merged: MergedBatch) -> None:
        record = merged.record
        if record is None:  # the worker could not reach the folder: the driver merges
            record = merge_batch(self._target, merged.batch,
                                 self._folder.records(merged.group)).record
        assert record is not None  # the driver reaches its own run folder
        self._folder.swap_in(merged.batch, record, merged.group)
        self._merging.difference_update(merged.group)
