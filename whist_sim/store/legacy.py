"""Run folders of the first layout: ``data/<unit>/<table>.parquet``, batches with ``tasks.json``.

Such a folder is read where it lies (a reader never writes, and its writer may
be an older whist-sim still running), and converted to the current layout by
the next writer (``RunFolder.open(repair=True)``, as ``--resume`` does): its
units' files are hard-linked into ``.units/`` with a manifest, then ``data``
becomes the link to the first snapshot. A conversion killed half way is done
again from the start; the old files stay until the link is in place.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from whist_sim.store.errors import RunFolderError
from whist_sim.store.manifest import (
    MANIFEST_FILE,
    UNIT_FILE,
    FileRecord,
    Manifest,
    UnitRecord,
)
from whist_sim.store.schema import with_run_columns
from whist_sim.store.snapshots import (
    DATA_DIR,
    STAGING_DIR,
    UNITS_DIR,
    snapshot_dir,
    snapshot_numbers,
)


def is_legacy(run: Path) -> bool:
    """A real ``data`` folder with no manifest in it or in any snapshot: the first layout.
    (A real ``data`` folder beside snapshots is a copy of a later run that followed the
    ``data`` link.)"""
    data = run / DATA_DIR
    return (data.is_dir() and not data.is_symlink() and not (data / MANIFEST_FILE).exists()
            and not any((snapshot_dir(run, n) / MANIFEST_FILE).exists()
                        for n in snapshot_numbers(run)))


def units(run: Path) -> list[Path]:
    """Committed units, leaving out temporary folders and tasks a batch already holds
    (what a compaction killed between writing the batch and removing its tasks left)."""
    data = run / DATA_DIR
    found = sorted(p for p in data.iterdir() if p.is_dir() and not p.name.startswith("."))
    batched = {t for unit in found if unit.name.startswith("batch-") for t in tasks_of(unit)}
    return [u for u in found
            if not (u.name.startswith("task-") and int(u.name[5:]) in batched)]


def tasks_of(unit: Path) -> set[int]:
    if unit.name.startswith("task-"):
        return {int(unit.name[5:])}
    try:
        return set(json.loads((unit / "tasks.json").read_text()))
    except (OSError, ValueError) as exc:
        raise RunFolderError(f"{unit}: corrupt batch ({exc})") from None


def check(run: Path, tables: Iterable[str]) -> None:
    """Every unit holds every table with a readable footer, or we say which does not.
    (The first layout kept no checksums: a footer is all there is to check.)"""
    for unit in units(run):
        for table in tables:
            file = unit / f"{table}.parquet"
            try:
                pq.read_metadata(file)
            except (OSError, pa.ArrowException) as exc:
                raise RunFolderError(
                    f"{file}: unreadable ({exc}); remove the folder {unit} and run"
                    f" whist-sim run --resume {run} to play its deals again"
                ) from None


def convert(run: Path, tables: tuple[str, ...], game: str, run_id: str) -> Manifest:
    """Move a first-layout run's units into ``.units/`` and return their manifest (the
    caller shows it as the first snapshot). Only the writer, holding the lock, calls this.

    Every file is rewritten with today's schema: the run columns (``run_id``, ``game``)
    added, and a column added since it was written (``actions.seconds``) null, so a plain
    ``data/<table>/*.parquet`` read of any tool sees one schema."""
    check(run, tables)
    staging = run / STAGING_DIR / "convert"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    (run / UNITS_DIR).mkdir(exist_ok=True)
    records: dict[str, UnitRecord] = {}
    for unit in units(run):
        stage = staging / unit.name
        stage.mkdir()
        files = {}
        for table in tables:
            _carry(unit / f"{table}.parquet", stage / f"{table}.parquet", table, game,
                   run_id)
            files[table] = _record(stage / f"{table}.parquet")
        records[unit.name] = UnitRecord(tuple(sorted(tasks_of(unit))), files)
        (stage / UNIT_FILE).write_text(records[unit.name].json)
        target = run / UNITS_DIR / unit.name
        shutil.rmtree(target, ignore_errors=True)  # from a conversion killed half way
        os.rename(stage, target)
    staging.rmdir()
    return Manifest(1, dict(sorted(records.items())))


def _carry(source: Path, target: Path, table: str, game: str, run_id: str) -> None:
    """``source`` (a file of ``table``) into the current layout as ``target``."""
    stored = with_run_columns(pq.read_table(source), table, game, run_id)
    pq.write_table(stored, target, compression="zstd")


def _record(file: Path) -> FileRecord:
    with open(file, "rb") as data:
        digest = hashlib.file_digest(data, "sha256").hexdigest()
    return FileRecord(pq.read_metadata(file).num_rows, file.stat().st_size, digest)
