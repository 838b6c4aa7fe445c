"""The manifest: which units a snapshot of a run holds, and how to tell their files are intact.

A unit is the output of one finished task (``task-00000042``) or of a compaction
(``batch-00003``). For each unit the manifest keeps the tasks it holds and, for
each of its tables, the file's row count, size and SHA-256, taken from the bytes
as they were written. Row counts are checked against the Parquet footers on every
open (cheap); checksums catch what a footer cannot: bytes changed inside a file
whose footer still reads (a disk error, an edit, a bad copy).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from whist_sim.store.errors import RunFolderError
from whist_sim.store.space import writing

MANIFEST_FILE = "_manifest.json"
"""Inside each snapshot, beside its table folders: it swaps with the files it describes.
The leading underscore keeps it out of the datasets pyarrow and pandas discover."""

MANIFEST_FORMAT = 1


@dataclass(frozen=True)
class FileRecord:
    """What one table file of a unit held when it was written."""

    rows: int
    bytes: int
    sha256: str


@dataclass(frozen=True)
class UnitRecord:
    """One committed unit: the tasks it holds and a record of each table's file."""

    tasks: tuple[int, ...]
    files: Mapping[str, FileRecord]

    @cached_property
    def json(self) -> str:
        """The unit as a line of JSON, made once: every commit rewrites the whole manifest."""
        return json.dumps({
            "tasks": list(self.tasks),
            "files": {table: {"rows": f.rows, "bytes": f.bytes, "sha256": f.sha256}
                      for table, f in self.files.items()},
        })


@dataclass(frozen=True)
class Manifest:
    """The units of one snapshot (``snapshot`` numbers them in commit order)."""

    snapshot: int
    units: Mapping[str, UnitRecord] = field(default_factory=dict)

    def tasks(self) -> set[int]:
        """Every task some unit holds."""
        return {task for unit in self.units.values() for task in unit.tasks}

    def next(
        self, add: Mapping[str, UnitRecord] | None = None, drop: Iterable[str] = ()
    ) -> Manifest:
        """The manifest of the following snapshot: ``add`` committed, ``drop`` removed."""
        dropped = set(drop)
        units = {name: unit for name, unit in self.units.items() if name not in dropped}
        units.update(add or {})
        return Manifest(self.snapshot + 1, dict(sorted(units.items())))

    def to_json(self) -> str:
        """One unit a line: readable by a person, small enough to rewrite at every commit."""
        units = [f" {json.dumps(name)}: {unit.json}" for name, unit in self.units.items()]
        body = ",\n".join(units)
        return (f'{{"format": {MANIFEST_FORMAT}, "snapshot": {self.snapshot}, "units": {{\n'
                f"{body}{chr(10) if units else ''}}}}}\n")

    @classmethod
    def read(cls, file: Path, shown_as: Path | None = None) -> Manifest:
        """Parse a manifest file; a damaged one is named (as ``shown_as``, the path users
        know it by), never half-read.

        A missing file raises FileNotFoundError: a reader racing a writer sees that
        when the snapshot it was reading is removed, and reads the new one.
        """
        data = file.read_bytes()
        try:
            raw = json.loads(data)
            units = {name: _unit_record(unit) for name, unit in raw["units"].items()}
            return cls(int(raw["snapshot"]), units)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RunFolderError(
                f"{shown_as or file}: corrupt manifest ({type(exc).__name__}: {exc})") from None


UNIT_FILE = "_unit.json"
"""Each unit keeps its own record beside its files, as the manifest has it: the manifest
lives in the snapshot, and if it is lost the units' records rebuild it (``rebuild``)."""


def _unit_record(raw: dict) -> UnitRecord:
    return UnitRecord(
        tuple(int(t) for t in raw["tasks"]),
        {table: FileRecord(int(f["rows"]), int(f["bytes"]), str(f["sha256"]))
         for table, f in raw["files"].items()},
    )


def rebuild(units: Path, snapshot: int) -> Manifest:
    """A manifest of every unit in ``units`` whose own record reads, for a run whose
    manifest was lost. A task unit a batch also holds (a compaction killed before its
    tasks were removed) is left out, and so is a second unit of one task (two workers'
    attempts, both written, one named); a unit without a readable record is left out too,
    so its tasks are played again rather than trusted unchecked."""
    records: dict[str, UnitRecord] = {}
    for unit in sorted(p for p in units.iterdir() if p.is_dir()):
        try:
            records[unit.name] = _unit_record(json.loads((unit / UNIT_FILE).read_bytes()))
        except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError,
                AttributeError):
            continue
    held = {t for name, r in records.items() if name.startswith("batch-") for t in r.tasks}
    kept = {}
    for name, record in records.items():  # batches first: "batch-" sorts before "task-"
        if name.startswith("task-") and held.intersection(record.tasks):
            continue  # in a batch already, or a second attempt at a task (units.py)
        kept[name] = record
        held.update(record.tasks)
    return Manifest(snapshot, kept)


def write_table_file(path: Path, table: pa.Table | Iterable[pa.Table],
                     schema: pa.Schema | None = None) -> FileRecord:
    """Write ``table`` as Parquet at ``path`` and return the record of the bytes written.

    ``table`` may be parts given one after the other (a compaction's units, with
    ``schema``): each is encoded as it comes and let go, so only the compressed file is
    held whole. The file is encoded in memory first, so its checksum is taken from
    exactly the bytes that go to disk, with no second read. A write that fails (a full
    disk) removes what it wrote and raises an OSError naming ``path`` (``space.writing``).
    """
    parts = [table] if isinstance(table, pa.Table) else table
    sink = pa.BufferOutputStream()
    rows = 0
    writer: pq.ParquetWriter | None = None
    for part in parts:
        if writer is None:
            writer = pq.ParquetWriter(sink, schema or part.schema, compression="zstd")
        writer.write_table(part)
        rows += part.num_rows
    if writer is None:  # no parts: a file of no rows, with the schema
        writer = pq.ParquetWriter(sink, schema, compression="zstd")
    writer.close()
    data = sink.getvalue()
    with writing(path), open(path, "wb") as out:  # a full disk's error names the file
        out.write(data)
    return FileRecord(rows, data.size, hashlib.sha256(data).hexdigest())


def read_table_checked(path: Path, record: FileRecord) -> pa.Table:
    """Read a unit's file after checking its bytes against ``record`` (compaction reads this
    way, so a damaged file is never folded into a batch with a fresh, matching checksum)."""
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != record.sha256:
        raise RunFolderError(f"{path}: {CHECKSUM_PROBLEM}")
    return pq.read_table(pa.BufferReader(data))


CHECKSUM_PROBLEM = (
    "corrupt: its SHA-256 differs from the one recorded when it was written"
    " (bytes changed after the commit)"
)


def file_problem(path: Path, record: FileRecord, checksum: bool) -> str | None:
    """What is wrong with the file at ``path`` against its record, or None if nothing.

    Raises FileNotFoundError if there is no file: a missing file is not damage but
    a missing unit, and the caller says so differently.
    """
    size = path.stat().st_size
    try:
        rows = pq.read_metadata(path).num_rows
    except (OSError, pa.ArrowException) as exc:
        return f"unreadable ({exc})"
    if size != record.bytes:
        return f"is {size:,} bytes, the manifest says {record.bytes:,}"
    if rows != record.rows:
        return f"holds {rows:,} rows, the manifest says {record.rows:,}"
    if checksum:
        with open(path, "rb") as data:
            if hashlib.file_digest(data, "sha256").hexdigest() != record.sha256:
                return CHECKSUM_PROBLEM
    return None


def describe_tasks(tasks: Iterable[int]) -> str:
    """``tasks 0-35, 72`` for humans: runs of consecutive tasks as ranges."""
    ordered = sorted(set(tasks))
    if not ordered:
        return "no tasks"
    spans: list[str] = []
    start = previous = ordered[0]
    for task in [*ordered[1:], None]:
        if task is not None and task == previous + 1:
            previous = task
            continue
        spans.append(str(start) if start == previous else f"{start}-{previous}")
        if task is not None:
            start = previous = task
    return ("task " if len(ordered) == 1 else "tasks ") + ", ".join(spans)
