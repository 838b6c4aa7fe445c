"""Writing a unit out of sight: what the writer does before a commit, and what a worker
may do for it.

A unit becomes part of a run only when a snapshot names it (``RunFolder.name_units``,
by the one process holding the folder's lock). Writing its files is different: it
touches nothing a reader sees, so any process that can reach the folder may do it
without the lock. That is what lets Ray workers write their own tasks' Parquet files
(``tournament.unit_writing``): the per-row work (encoding, compressing, hashing)
moves off the driver, which is left naming units (docs/cluster.md).

A unit is written in ``.staging/<unit>/`` and renamed into ``.units/<unit>/`` whole,
with its record (``_unit.json``), so ``.units/`` never holds half a unit. A unit a
worker wrote but no snapshot ever named (the driver died first, or it was a second
attempt at the same task) is invisible to readers and removed by the next writer, or by
the writer itself as a failure stops it (``RunFolder.drop_unfinished``: a full disk).
Units a worker writes carry a random suffix (``task-00000042-1f2e3d4c``), so two
attempts at one task never collide on a name.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import pyarrow as pa

from whist_sim.store.crash_points import crash_point
from whist_sim.store.manifest import (
    UNIT_FILE,
    UnitRecord,
    read_table_checked,
    write_table_file,
)
from whist_sim.store.schema import stored_schema, with_run_columns
from whist_sim.store.snapshots import STAGING_DIR, UNITS_DIR, unit_file
from whist_sim.store.space import write_text_named


def task_unit_name(task: int, attempt: bool = False) -> str:
    """The unit of task ``task``: ``task-00000042``, or with ``attempt`` a name no other
    attempt at the task shares (``task-00000042-1f2e3d4c``), for a writer without the lock."""
    name = f"task-{task:08d}"
    return f"{name}-{secrets.token_hex(4)}" if attempt else name


def stage_unit(run: Path, unit: str, tables: Iterable[str],
               parts: Callable[[str], Iterator[pa.Table]], tasks: Iterable[int],
               run_id: str, game: str, op: str) -> UnitRecord:
    """Write each table of a unit from its ``parts`` (the run columns added to each part)
    in ``.staging/``, with the unit's record, then rename the unit into ``.units/``."""
    stage = run / STAGING_DIR / unit
    stage.mkdir()
    files = {}
    for index, table in enumerate(tables):
        stored = (with_run_columns(part, table, game, run_id) for part in parts(table))
        files[table] = write_table_file(stage / f"{table}.parquet", stored,
                                        stored_schema(table, game))
        if index == 0:
            crash_point(f"{op}:staging")
    record = UnitRecord(tuple(sorted(tasks)), files)
    write_text_named(stage / UNIT_FILE, record.json)
    crash_point(f"{op}:staged")
    os.rename(stage, run / UNITS_DIR / unit)
    crash_point(f"{op}:unit")
    return record


def write_task_unit(run: Path, task: int, tables: Mapping[str, pa.Table], names: Iterable[str],
                    run_id: str, game: str) -> tuple[str, UnitRecord]:
    """Write one finished task's ``tables`` as a unit under a name of its own, unnamed:
    what a worker does for the driver. Returns the unit's name and record."""
    unit = task_unit_name(task, attempt=True)
    record = stage_unit(run, unit, tuple(names), lambda table: iter([tables[table]]), [task],
                        run_id, game, "commit")
    return unit, record


def merge_units(run: Path, batch: str, group: Mapping[str, UnitRecord], tables: Iterable[str],
                run_id: str, game: str, op: str = "compact") -> UnitRecord:
    """Write the units ``group`` (name -> record, each file checked against its record as
    it is read) as the one unit ``batch``, each table streamed unit by unit (each unit's
    rows become row groups of the new file), so a batch of millions of rows is never whole
    in memory: one unit's rows and the compressed file are. Units of an older version may
    lack a newer column (filled with nulls) or the run columns (written in)."""
    def parts(table: str) -> Iterator[pa.Table]:
        for name, record in group.items():
            yield read_table_checked(unit_file(run, name, table), record.files[table])

    held = [task for record in group.values() for task in record.tasks]
    return stage_unit(run, batch, tuple(tables), parts, held, run_id, game, op)
