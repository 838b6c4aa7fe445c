"""Workers write their tasks' results into the run folder; the driver only names them.

Encoding a task's rows as Parquet, compressing and hashing them is per-row work:
done by the driver it capped a run at the few thousand hands a second one process
can write (docs/cluster.md measures it), whatever the number of workers. So a
worker that can reach the run folder (the driver's own machine, or storage every
node mounts) writes its task's unit there itself (``store.units``) and sends back
only the unit's name and record, with the two small tables the driver reads as the
run goes (``seats`` for the live standings and benching, ``matches`` for a
sequential test). The driver checks the record and names the unit in the next
snapshot, several units at once when several arrived (``RunFolder.name_units``).
Compaction runs the same way: a worker merges units into a batch
(``merge_batch``), the driver swaps it in. The driver never reads or writes a row.

A worker that cannot reach the folder (nodes without shared storage) sends the
tables back as before and the driver writes them: the run is the same, only
slower. A worker whose write fails (a full disk) fails its task with the error,
and the driver stops the run with it in one line, every named unit kept.

Exactly once: a task is committed when, and only when, a snapshot names a unit
holding it. A unit a worker wrote that is never named (the driver died first, a
retried attempt, a task cancelled after it finished) is invisible to readers and
removed when the writer closes the folder or the next one opens it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from whist_sim.store import RunFolder, RunFolderError, UnitRecord
from whist_sim.store.units import merge_units, write_task_unit
from whist_sim.tournament.sandbox import play_task_supervised
from whist_sim.tournament.worker import TaskResult, TaskSpec

DRIVER_TABLES = ("seats", "matches")
"""The tables a worker still sends with a unit it wrote: the driver reads them as the run
goes (live standings, benching, a sequential test). Small: a row per seat, a row per match."""


@dataclass(frozen=True)
class UnitTarget:
    """Where a worker writes: the run folder, named by path and checked by ``run_id``."""

    path: str
    run_id: str
    game: str
    tables: tuple[str, ...]

    @classmethod
    def of(cls, folder: RunFolder) -> UnitTarget:
        return cls(str(folder.path.resolve()), folder.run_id, folder.game, folder.tables())

    def reachable(self) -> bool:
        """This process sees the run folder itself (not another run at the same path)."""
        return _is_run(self.path, self.run_id)


@functools.lru_cache(maxsize=8)
def _is_run(path: str, run_id: str) -> bool:
    try:
        meta = json.loads((Path(path) / "run.json").read_text())
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("run_id") == run_id


@dataclass
class StoredTask:
    """A task whose worker wrote its unit: the result with only ``DRIVER_TABLES``, and the
    unit the driver is to name."""

    result: TaskResult
    unit: str
    record: UnitRecord

    def check(self, tables: tuple[str, ...]) -> None:
        """The record holds this task, every table of the run, and the rows sent with it."""
        record, result = self.record, self.result
        problem = None
        if record.tasks != (result.task,):
            problem = f"holds tasks {list(record.tasks)}, not task {result.task}"
        elif set(record.files) != set(tables):
            problem = f"has tables {sorted(record.files)}, the run has {sorted(tables)}"
        else:
            for name, table in result.tables.items():
                if record.files[name].rows != table.num_rows:
                    problem = (f"has {record.files[name].rows} {name} rows, the worker sent"
                               f" {table.num_rows}")
        if problem:
            raise RunFolderError(f"unit {self.unit} written by a worker {problem}")


@dataclass(frozen=True)
class MergedBatch:
    """A batch a worker wrote from the units ``group``, for the driver to swap in."""

    batch: str
    group: tuple[str, ...]
    record: UnitRecord | None
    """None: the worker could not reach the run folder, so the driver merges it."""


def store_task(result: TaskResult, target: UnitTarget | None) -> TaskResult | StoredTask:
    """Write ``result``'s tables as an unnamed unit of the run when this process can reach
    it; otherwise hand the tables back for the driver to write."""
    if target is None or not target.reachable():
        return result
    # a failed write (a full disk) fails the task: the driver would fail on the same disk,
    # so it stops the run cleanly and says so (what it writes too is kept)
    unit, record = write_task_unit(Path(target.path), result.task, result.tables,
                                   target.tables, target.run_id, target.game)
    small = {name: result.tables[name] for name in DRIVER_TABLES if name in result.tables}
    return StoredTask(dataclasses.replace(result, tables=small), unit, record)


def play_and_store(spec: TaskSpec, target: UnitTarget | None) -> TaskResult | StoredTask:
    """What a Ray worker runs: the task in its supervised child, then its unit written."""
    return store_task(play_task_supervised(spec), target)


def merge_batch(target: UnitTarget, batch: str, group: Mapping[str, UnitRecord]) -> MergedBatch:
    """Write the units ``group`` as the batch ``batch`` (``store.units.merge_units``);
    a worker that cannot reach the run folder leaves it to the driver (record None)."""
    if not target.reachable():
        return MergedBatch(batch, tuple(group), None)
    record = merge_units(Path(target.path), batch, group, target.tables, target.run_id,
                         target.game)
    return MergedBatch(batch, tuple(group), record)
