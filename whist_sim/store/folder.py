"""RunFolder: creating, opening, checking, committing to and reading a run folder.

Readers open a folder as it is and never change it, so they can read a run that
is still being written. One writer at a time (``create``, or ``open`` with
``repair``) holds the folder's lock; on opening it finishes or undoes what a
killed writer left, then commits units and compacts them. Every change a reader
can see is one atomic rename of ``data`` (snapshots.py); everything before it
happens out of sight, everything after it only removes what no snapshot shows.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from whist_sim.store import legacy
from whist_sim.store.crash_points import crash_point
from whist_sim.store.errors import RunFolderError
from whist_sim.store.integrity import (
    DAMAGED,
    MISSING,
    VIEW_DAMAGED,
    check_view,
    explain,
    foreign,
    repaired,
)
from whist_sim.store.kept_room import give_back_room, keep_room
from whist_sim.store.lock import LOCK_FILE, WriterLock
from whist_sim.store.manifest import (
    Manifest,
    UnitRecord,
    describe_tasks,
    rebuild,
)
from whist_sim.store.schema import SCHEMA_VERSION, stored_schema, tables_for
from whist_sim.store.snapshots import (
    DATA_DIR,
    SNAPSHOTS_DIR,
    STAGING_DIR,
    UNITS_DIR,
    View,
    build_snapshot,
    clear_staging,
    read_view,
    recover,
    remove_snapshots,
    remove_units,
    show,
    shown_snapshot,
    snapshot_numbers,
    unit_file,
)
from whist_sim.store.space import write_text_named
from whist_sim.store.units import merge_units, stage_unit, task_unit_name

RUN_FILE = "run.json"

RETIRED_KEEP_SECONDS = 60.0
"""How long the task units a compaction folded into a batch stay on disk: a reader that
opened the run before the compaction still reads them. The writer's last act removes
them all (a reader spanning the very end of a run may then have to read again)."""

SUPERSEDED_KEEP_SECONDS = 10.0
SUPERSEDED_KEPT = 32
"""A snapshot ``data/`` no longer shows stays on disk this long, the newest this many of
them: a reader that followed ``data/`` to it just before a swap still finds its manifest
and links. Removing each at once starved readers: a run committing a task every few
milliseconds swapped ``data/`` under every attempt of a reader on a busy machine. The
count bounds the links kept when commits come faster still. The writer's last act
removes them all, as it does the retired units."""

READ_ATTEMPTS = 20
"""Times a reader reads ``data/`` again when the snapshot it followed was removed while
it was being read (it then read for longer than ``SUPERSEDED_KEEP_SECONDS``, or
``SUPERSEDED_KEPT`` commits)."""

FRESH_ATTEMPTS = 5
"""Times a reader reads again when ``data/`` moved on while it read a snapshot that is
still whole, before it settles for that snapshot: the newest is preferred, since the
writer's close removes the units of the snapshots before its last (a reader that
settled for one at once then found a unit's file gone when it scanned, in CI), while
a writer that commits faster than the reader reads must not starve it."""


class RunFolder:
    """A run folder on disk: ``run.json``, the units of Parquet tables, and ``data/``."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock: WriterLock | None = None
        self._manifest: Manifest | None = None
        """The snapshot this object reads (None: a first-layout folder, read in place)."""
        self._tables: tuple[str, ...] | None = None
        self._run: tuple[str, str] | None = None
        self._retired: list[tuple[float, list[str]]] = []
        self._superseded: list[tuple[float, int]] = []
        """(when, number) of the snapshots ``data/`` showed before, kept for readers."""
        self._last_batch = 0
        """The highest batch number ``plan_compaction`` gave (its batches may not exist yet)."""
        self.repairs: list[str] = []
        """What ``open(repair=True)`` found and mended beyond a killed writer's leftovers
        (units gone, so their tasks are played again; a ``data/`` rebuilt; a conversion),
        one line each, for the writer to tell its user."""

    # -- creating and opening --------------------------------------------------------
    @classmethod
    def create(cls, path: Path | str, meta: Mapping[str, Any]) -> RunFolder:
        """Start a new run folder at ``path`` (missing or empty), holding its writer's lock."""
        path = folder_path(path)
        refusal = RunFolderError(taken(path))
        if path.exists() and not path.is_dir():
            raise RunFolderError(f"{path}: is a file; a run folder is a folder")
        if _has_content(path):
            raise refusal
        if "game" not in meta:
            raise RunFolderError(f"{path}: the run's metadata names no game")
        meta = {**meta, "run_id": meta.get("run_id") or new_run_id(),
                "schema_version": SCHEMA_VERSION}
        existed = path.is_dir()
        path.mkdir(parents=True, exist_ok=True)
        folder = cls(path)
        folder._lock = WriterLock.acquire(path, now_iso())
        if _has_content(path):  # another process created it meanwhile
            folder.close()
            raise refusal
        try:
            for name in (UNITS_DIR, SNAPSHOTS_DIR, STAGING_DIR):
                (path / name).mkdir()
            folder._tables = tables_for(str(meta["game"]))
            folder._run = (str(meta["run_id"]), str(meta["game"]))
            folder._manifest = Manifest(0)
            build_snapshot(path, folder._manifest, folder._tables, "create")
            show(path, 0)
            folder.write_meta(dict(meta))  # last: run.json is what makes a folder a run
            folder._keep_room()
        except BaseException:
            # a full disk, say: leave no half-made folder, which was neither empty
            # enough to run into again nor a run to resume
            folder.close()
            _remove_made(path, existed)
            raise
        return folder

    @classmethod
    def open(cls, path: Path | str, *, repair: bool = False, verify: bool = True) -> RunFolder:
        """Open an existing run for reading, or with ``repair`` for writing more to it.

        Opening checks the folder: every unit file against the manifest (row counts
        from the Parquet footers, and with ``verify``, the default, the SHA-256 of
        every byte), and that ``data/`` shows exactly those files; a problem is
        named, with the way out, in a RunFolderError. A reader takes the snapshot
        ``data/`` shows as it opens and reads that one, whatever a writer commits later.

        ``repair`` takes the writer's lock (refused, in one line naming the holder,
        while another process has it) and then finishes or undoes what a killed writer
        left: half-made files, a snapshot not yet shown, units no snapshot shows. It
        rebuilds a ``data/`` that lost or gained files, converts a first-layout folder,
        and drops units whose files are gone, so their tasks are played again. It never
        deletes a file whose bytes are wrong: that is for the user to remove.
        """
        path = folder_path(path)
        if path.is_file():
            raise RunFolderError(f"{path}: a file, not a run folder (a run folder holds"
                                 " run.json; --out of `whist-sim run` names one)")
        if not path.is_dir():
            raise RunFolderError(f"{path}: no such run folder")
        folder = cls(path)
        folder._tables = folder.tables()  # validates run.json
        if not repair:
            folder._read(checksum=verify)
            return folder
        folder._lock = WriterLock.acquire(path, now_iso())
        try:
            folder._repair()
            folder._keep_room()
        except BaseException:
            folder.close()
            raise
        return folder

    def close(self) -> None:
        """Let go of the folder: remove the units compaction retired and every unit no
        snapshot names (a worker's second attempt at a task, a batch never swapped in),
        release the lock."""
        if self._lock is None:
            return
        if self._manifest is not None:  # the retired units are among those no snapshot names
            self._remove_unnamed()
            shown = shown_snapshot(self.path)  # from disk, as for the units
            if shown is not None:
                remove_snapshots(self.path, keep={shown})
        self._retired.clear()
        self._superseded.clear()
        self.give_back_room()
        self._lock.release()
        self._lock = None

    def drop_unfinished(self) -> None:
        """Remove now what the folder's closing and the next writer's opening would: what
        is half made in ``.staging/`` and every unit no snapshot names. A run stopped by a
        full disk left the unit it was writing there, so the disk stayed full, the run.json
        saying the run failed could not be written (it still said "running"), and the room
        its user made went to the run's own leftovers first. Nothing committed is removed:
        a committed unit is in ``.units/``, named by the snapshot ``data/`` shows, read
        from disk."""
        self._writable()
        self._undo_unfinished()
        self._remove_unnamed()

    def _keep_room(self) -> None:
        """Hold room on the disk for the run.json that records how this session ended
        (``kept_room``)."""
        keep_room(self.path, (self.path / RUN_FILE).stat().st_size)

    def give_back_room(self) -> None:
        """Free the room this writer kept (``kept_room``), for the run.json that records
        a stop: call it just before that write, once nothing else is to be written."""
        give_back_room(self.path)

    def _undo_unfinished(self) -> None:
        """Give back a ``data/`` a swap left missing, then drop ``.staging/``."""
        recover(self.path)
        clear_staging(self.path)

    def _remove_unnamed(self) -> None:
        """Remove every unit the snapshot ``data/`` shows does not name (none, if it cannot
        be read)."""
        shown = self._shown_units_on_disk()
        if shown is not None:
            with contextlib.suppress(OSError):
                remove_units(self.path, [u for u in os.listdir(self.path / UNITS_DIR)
                                         if u not in shown])

    def _shown_units_on_disk(self) -> set[str] | None:
        """The units the snapshot ``data/`` shows, read from disk, not from this writer's
        memory: an interrupt (Ctrl-C) between showing a snapshot and noting it here must
        not make the units it names look unnamed. None if it cannot be read (nothing is
        removed then: a unit is never removed on a guess)."""
        try:
            return set(read_view(self.path, self.tables()).manifest.units)
        except (OSError, RunFolderError):
            return None

    def __enter__(self) -> RunFolder:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # -- run.json ----------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        file = self.path / RUN_FILE
        try:
            meta = json.loads(file.read_text())
        except FileNotFoundError:
            raise RunFolderError(f"{self.path}: not a run folder (no {RUN_FILE})"
                                 f"{runs_inside(self.path)}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RunFolderError(f"{file}: corrupt ({exc})") from None
        if not isinstance(meta, dict):
            raise RunFolderError(f"{file}: corrupt (not a JSON object)")
        for key in ("config", "root_seed", "status", "game"):
            if key not in meta:
                raise RunFolderError(f"{file}: corrupt (no {key!r} key)")
        return meta

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace run.json atomically."""
        tmp = self.path / f".{RUN_FILE}.tmp"
        write_text_named(tmp, json.dumps(meta, indent=2, sort_keys=True, default=str) + "\n")
        os.replace(tmp, self.path / RUN_FILE)

    def update_meta(self, **changes: Any) -> dict[str, Any]:
        meta = self.meta()
        meta.update(changes)
        self.write_meta(meta)
        return meta

    # -- reading -----------------------------------------------------------------------
    @property
    def data(self) -> Path:
        """The folder other tools read: ``data/<table>/*.parquet``."""
        return self.path / DATA_DIR

    @property
    def run_id(self) -> str:
        """The run's id (``run.json`` ``run_id``), in the ``run_id`` column of every table.
        A run from before the column has none in run.json until a writer opens it; until
        then its id is derived from run.json (``old_run_id``), the same one that writer
        records."""
        return self._identity()[0]

    @property
    def game(self) -> str:
        return self._identity()[1]

    def _identity(self) -> tuple[str, str]:
        if self._run is None:
            meta = self.meta()
            self._run = (str(meta.get("run_id") or old_run_id(meta)), str(meta["game"]))
        return self._run

    def tables(self) -> tuple[str, ...]:
        """The run's tables (its game's: they never change, so read once)."""
        if self._tables is None:
            self._tables = tables_for(self.meta()["game"])
        return self._tables

    def parquet_files(self, table: str) -> list[Path]:
        """The files of ``table`` in the snapshot this object opened (or last committed)."""
        if table not in self.tables():
            raise RunFolderError(
                f"{self.path}: no table {table!r}; tables: {', '.join(self.tables())}"
            )
        if self._manifest is None:
            return [unit / f"{table}.parquet" for unit in legacy.units(self.path)]
        return [unit_file(self.path, unit, table) for unit in self._manifest.units]

    def _why_no_results(self) -> str:
        """Why a run has no rows to read, and the way on: "the run has no results yet" was
        said of a run aborted or stopped before its first task, as of one still being
        played, with nothing of how to finish it (a newcomer's probe)."""
        meta = self.meta()
        status, error, path = meta.get("status"), meta.get("error"), str(self.path)
        if status == "aborted":
            return (f"the run was aborted before it committed any task, so it has no results"
                    f"{f' ({error})' if error else ''}; finish it with whist-sim run --resume"
                    f" {path} --on-error forfeit (its failing hands forfeited), or"
                    f" resume_tournament({path!r}, on_error='forfeit')")
        if status == "interrupted":
            return (f"the run was stopped before it committed any task, so it has no results;"
                    f" continue it with whist-sim run --resume {path}"
                    f" (resume_tournament({path!r}))")
        return "the run has no results yet: no task of it has been committed so far"

    def scan(self, table: str) -> pl.LazyFrame:
        """A lazy frame over every committed unit of ``table``, as of opening."""
        files = self.parquet_files(table)
        if not files:
            raise RunFolderError(f"{self.path}: {self._why_no_results()}")
        gone = next((file for file in files if not file.exists()), None)
        if gone is not None:  # Polars said only FileNotFoundError, on every collect
            raise RunFolderError(
                f"{self.path}: {gone.relative_to(self.path)}, of the snapshot this reader"
                " opened, is gone: a writer has committed or compacted since (its last"
                " compaction, as the run ends, retires every unit); open the run again,"
                f" RunFolder.open({str(self.path)!r}), to read it as it is now")
        # units written by an older version may lack a column added since (actions.seconds):
        # read with today's schema, such a column null there; a run from before the run
        # columns gets them from run.json (a writer's next open writes them in)
        schema = pl.Schema(pl.from_arrow(stored_schema(table, self.game).empty_table()).schema)
        frame = pl.scan_parquet([str(f) for f in files], schema=schema,
                                missing_columns="insert", extra_columns="ignore")
        if self._old_units(files[0]):
            frame = frame.with_columns(run_id=pl.lit(self.run_id), game=pl.lit(self.game))
        return frame

    def _old_units(self, file: Path) -> bool:
        """Whether the run's files predate the run columns (all or none of a run's units
        have them: the writer that adds them rewrites every unit before showing one)."""
        try:
            return "run_id" not in pq.read_schema(file).names
        except (OSError, pa.ArrowException):
            return False  # the scan itself reports an unreadable file

    def completed_tasks(self) -> set[int]:
        if self._manifest is None:
            return {t for unit in legacy.units(self.path) for t in legacy.tasks_of(unit)}
        return self._manifest.tasks()

    def verify(self) -> None:
        """Check every byte of the run against its manifest, as it is on disk now."""
        if self._lock is None:
            self._read(checksum=True)
            return
        view = self._view()
        problems = check_view(self.path, view, self.tables(), checksum=True)
        if problems:
            raise RunFolderError(explain(self.path, view, problems))

    def _read(self, checksum: bool) -> None:
        """Take the snapshot ``data/`` shows and check it; read again if a writer swapped it
        meanwhile (``FRESH_ATTEMPTS`` times, then a whole older snapshot will do) or removed
        it (see ``SUPERSEDED_KEEP_SECONDS``)."""
        tables = self.tables()
        if legacy.is_legacy(self.path):
            legacy.check(self.path, tables)
            self._manifest = None
            return
        if not os.path.lexists(self.data):
            raise RunFolderError(self._no_data())
        for attempt in range(READ_ATTEMPTS):
            shown = _target(self.data)
            try:
                view = read_view(self.path, tables)
                problems = check_view(self.path, view, tables, checksum=checksum)
            except FileNotFoundError as exc:
                if _target(self.data) != shown:
                    continue
                raise RunFolderError(
                    f"{self.path}: the manifest of the snapshot data/ shows is missing"
                    f" ({exc.filename or exc} is gone); run whist-sim run --resume"
                    f" {self.path} to rebuild it from the records each unit keeps") from None
            moved = _target(self.data) != shown
            if moved and (problems or attempt < FRESH_ATTEMPTS):
                continue
            if problems:
                raise RunFolderError(explain(self.path, view, problems))
            self._manifest = view.manifest
            return
        raise RunFolderError(f"{self.path}: data/ changed {READ_ATTEMPTS} times while being"
                             " read; try again")

    def _no_data(self) -> str:
        """Why a folder without ``data/`` cannot be read, and, for a run folder whose link
        alone is gone (run.json and the units are there), the way to restore it."""
        if (self.path / RUN_FILE).is_file():
            return (f"{self.path}: its {DATA_DIR}/ link is missing (run.json is there): run"
                    f" whist-sim run --resume {self.path} to restore it from the snapshots"
                    " and units the run keeps")
        return f"{self.path}: not a run folder (no {DATA_DIR}/ inside)"

    # -- writing -----------------------------------------------------------------------
    def commit_task(self, task: int, tables: Mapping[str, pa.Table]) -> None:
        """Write one finished task's tables as a unit and show it, atomically."""
        manifest = self._writable()
        if task in manifest.tasks():
            raise RunFolderError(f"{self.path}: task {task} is already committed")
        unit = task_unit_name(task)
        record = self._write_unit(unit, tables, [task], "commit")
        self._publish(manifest.next({unit: record}), "commit")
        crash_point("commit:done")

    def name_units(self, units: Mapping[str, UnitRecord]) -> None:
        """Show units written aside (``units.write_task_unit``, by workers) in one snapshot:
        a group commit. Each must be in ``.units/`` with the record given, and hold tasks no
        shown unit and no other of ``units`` holds: a task is committed exactly once."""
        manifest = self._writable()
        if not units:
            return
        held = manifest.tasks()
        for unit, record in units.items():
            if unit in manifest.units:
                raise RunFolderError(f"{self.path}: unit {unit} is already shown")
            if not (self.path / UNITS_DIR / unit).is_dir():
                raise RunFolderError(f"{self.path}: unit {unit} is not in {UNITS_DIR}/")
            if set(record.files) != set(self.tables()):
                raise RunFolderError(
                    f"{self.path}: unit {unit} has tables {sorted(record.files)}, a run of"
                    f" {self.game} has {sorted(self.tables())}")
            twice = held.intersection(record.tasks)
            if twice:
                raise RunFolderError(
                    f"{self.path}: unit {unit} holds {describe_tasks(twice)}, already committed")
            held.update(record.tasks)
        self._publish(manifest.next(units), "commit")
        crash_point("commit:done")

    def compact(self, min_units: int = 2, max_rows: int = 5_000_000) -> int:
        """Merge task units into batches so a long run is a handful of files.

        Returns how many task units were merged. The batches and the removal of the
        tasks they hold are shown in one swap of ``data``; the tasks' files stay on
        disk ``RETIRED_KEEP_SECONDS`` for readers that opened the run before it.
        """
        groups = self.plan_compaction(min_units, max_rows)
        if not groups:
            return 0
        run_id, game = self._identity()
        batches = {batch: merge_units(self.path, batch, self.records(group), self.tables(),
                                      run_id, game) for batch, group in groups}
        folded = [unit for _, group in groups for unit in group]
        self._publish(self._writable().next(batches, drop=folded), "compact")
        self._retired.append((time.monotonic(), folded))
        crash_point("compact:done")
        return len(folded)

    def plan_compaction(self, min_units: int = 2, max_rows: int = 5_000_000,
                        busy: Iterable[str] = ()) -> list[tuple[str, list[str]]]:
        """The batches a compaction would write now: (batch name, the task units it
        merges), each up to ``max_rows`` ``actions`` rows and at least ``min_units`` units,
        leaving out the units in ``busy`` (being merged elsewhere). Batch names are taken
        here and never given twice, so batches written at the same time never collide."""
        manifest = self._writable()
        skip = set(busy)
        tasks = [u for u in manifest.units if u.startswith("task-") and u not in skip]
        groups: list[list[str]] = []
        group: list[str] = []
        rows = 0
        for unit in tasks:
            group.append(unit)
            rows += manifest.units[unit].files["actions"].rows
            if rows >= max_rows:
                groups.append(group)
                group, rows = [], 0
        if len(group) >= min_units:
            groups.append(group)
        planned = []
        for group in groups:
            self._last_batch = max(self._last_batch, self._next_batch() - 1) + 1
            planned.append((f"batch-{self._last_batch:05d}", group))
        return planned

    def shown_units(self) -> tuple[str, ...]:
        """The names of the units the writer's snapshot shows."""
        return tuple(self._writable().units)

    def records(self, units: Iterable[str]) -> dict[str, UnitRecord]:
        """The shown records of ``units``, by name."""
        manifest = self._writable()
        return {unit: manifest.units[unit] for unit in units}

    def swap_in(self, batch: str, record: UnitRecord, group: Iterable[str]) -> None:
        """Show the batch ``batch`` (written by ``units.merge_units``) in place of the task
        units ``group`` it merged, in one swap; their files stay for readers a while."""
        manifest = self._writable()
        folded = list(group)
        missing = [unit for unit in folded if unit not in manifest.units]
        if missing or set(record.tasks) != {t for u in folded for t in manifest.units[u].tasks}:
            raise RunFolderError(
                f"{self.path}: batch {batch} does not hold exactly the tasks of the units it"
                f" replaces ({', '.join(missing) or 'tasks differ'})")
        self._publish(manifest.next({batch: record}, drop=folded), "compact")
        self._retired.append((time.monotonic(), folded))
        crash_point("compact:done")

    def _writable(self) -> Manifest:
        if self._lock is None or self._manifest is None:
            raise RunFolderError(
                f"{self.path}: opened for reading; RunFolder.open(..., repair=True) writes")
        return self._manifest

    def _write_unit(self, unit: str, tables: Mapping[str, pa.Table], tasks: Iterable[int],
                    op: str) -> UnitRecord:
        """Write a unit's files aside, then rename the unit into ``.units/`` whole."""
        expected = self.tables()
        if set(tables) != set(expected):
            raise RunFolderError(
                f"{self.path}: unit {unit} has tables {sorted(tables)}, a run of"
                f" {self.meta()['game']} has {sorted(expected)}")
        run_id, game = self._identity()
        return stage_unit(self.path, unit, expected, lambda table: iter([tables[table]]), tasks,
                          run_id, game, op)

    def _publish(self, manifest: Manifest, op: str) -> None:
        """Show ``manifest`` as the new snapshot, then remove what nothing shows any more."""
        build_snapshot(self.path, manifest, self.tables(), op)
        show(self.path, manifest.snapshot)
        before = self._manifest
        self._manifest = manifest  # at once (``close`` trusts only the disk, though)
        crash_point(f"{op}:swapped")
        now = time.monotonic()
        if before is not None and before.snapshot != manifest.snapshot:
            self._superseded.append((now, before.snapshot))
        self._superseded = [e for e in self._superseded[-SUPERSEDED_KEPT:]
                            if e[0] >= now - SUPERSEDED_KEEP_SECONDS]
        remove_snapshots(self.path, keep={manifest.snapshot, *(n for _, n in self._superseded)})
        cutoff = now - RETIRED_KEEP_SECONDS
        for entry in [e for e in self._retired if e[0] < cutoff]:
            remove_units(self.path, entry[1])
            self._retired.remove(entry)

    def _next_batch(self) -> int:
        """Batch numbers are never reused: a retired unit may still be read by its name."""
        names = os.listdir(self.path / UNITS_DIR)
        return 1 + max((int(n[6:]) for n in names if n.startswith("batch-")), default=0)

    # -- repair ------------------------------------------------------------------------
    def _repair(self) -> None:
        """Bring the folder to a shown, checked snapshot, as ``open(repair=True)`` promises."""
        tables = self.tables()
        if not os.path.lexists(self.data) and not (self.path / UNITS_DIR).is_dir():
            raise RunFolderError(self._no_data())
        for name in (UNITS_DIR, SNAPSHOTS_DIR):
            (self.path / name).mkdir(exist_ok=True)
        self._undo_unfinished()
        if legacy.is_legacy(self.path):
            first = legacy.convert(self.path, tables, self.game, self.run_id)
            build_snapshot(self.path, first, tables, "convert")
            show(self.path, first.snapshot)
            self.repairs.append(f"{self.path}: converted to the current layout (data/<table>/)")
        try:
            view = read_view(self.path, tables)
        except FileNotFoundError:  # the manifest data/ shows is lost
            self._rebuild_manifest("missing")
            view = self._view()
        except RunFolderError:
            self._rebuild_manifest("corrupt")
            view = self._view()
        self._manifest = view.manifest
        problems = check_view(self.path, view, tables, checksum=True)
        if any(p.kind in (DAMAGED, VIEW_DAMAGED) for p in problems):
            raise RunFolderError(explain(self.path, view, problems))
        if any(foreign(p) for p in problems):  # never removed with the old snapshot
            raise RunFolderError(explain(self.path, view, [p for p in problems if foreign(p)]))
        if problems or not self.data.is_symlink() or not view.current:
            self.repairs += repaired(self.path, view, problems)
            gone = {p.unit for p in problems if p.kind == MISSING}
            self._publish(view.manifest.next(drop=[u for u in gone if u]), "repair")
        self._add_run_columns()
        kept = set(self._manifest.units)
        remove_units(self.path, [u for u in os.listdir(self.path / UNITS_DIR) if u not in kept])
        remove_snapshots(self.path, keep={self._manifest.snapshot})

    def _add_run_columns(self) -> None:
        """Give a run from before the run columns its ``run_id`` (the one readers derived
        from run.json) and rewrite its units with ``run_id`` and ``game``, each as a new
        batch holding the same tasks, shown in one swap (units are never changed in place)."""
        meta = self.meta()
        if not meta.get("run_id"):
            self.update_meta(run_id=self.run_id)
        manifest = self._writable()
        old = [unit for unit in manifest.units
               if self._old_units(unit_file(self.path, unit, self.tables()[0]))]
        if not old:
            return
        number = self._next_batch()
        run_id, game = self._identity()
        batches = {f"batch-{number + offset:05d}": merge_units(
            self.path, f"batch-{number + offset:05d}", self.records([unit]), self.tables(),
            run_id, game, "upgrade")
            for offset, unit in enumerate(old)}
        self._publish(manifest.next(batches, drop=old), "upgrade")
        remove_units(self.path, old)  # the writer holds the lock: no reader of ours needs them
        self.repairs.append(
            f"{self.path}: added the columns run_id ({self.run_id}) and game to"
            f" {len(old)} unit{'s' * (len(old) != 1)} written before them")

    def _rebuild_manifest(self, why: str) -> None:
        """Show a snapshot of every unit whose own record reads, when the manifest is lost."""
        number = max(snapshot_numbers(self.path), default=0) + 1
        manifest = rebuild(self.path / UNITS_DIR, number)
        build_snapshot(self.path, manifest, self.tables(), "rebuild")
        show(self.path, number)
        self.repairs.append(
            f"{self.path}: the manifest of the snapshot data/ shows is {why}; rebuilt from"
            " the units' own records"
            f" ({len(manifest.units)} unit{'s' * (len(manifest.units) != 1)},"
            f" {describe_tasks(manifest.tasks())})")

    def _view(self) -> View:
        """What ``data/`` shows, for the writer (it holds the lock: nothing moves)."""
        try:
            return read_view(self.path, self.tables())
        except FileNotFoundError as exc:
            raise RunFolderError(
                f"{self.data}: {exc.filename or exc} is missing; the snapshot data/ shows"
                " is gone") from None


def _has_content(path: Path) -> bool:
    """Whether ``path`` holds anything but a writer's lock file."""
    return path.is_dir() and any(p.name != LOCK_FILE for p in path.iterdir())


def folder_path(path: Any) -> Path:
    """``path`` as a Path, or a RunFolderError naming the types taken. Every function that
    takes a run folder (``run_tournament``'s ``out``, ``build_report``'s ``run``, ...)
    reaches here first; pathlib's own TypeError ("expected str, bytes or os.PathLike
    object, not NoneType") named neither the argument nor what to give."""
    if isinstance(path, str | os.PathLike):
        return Path(path)
    raise RunFolderError(
        f"run folder = {path!r} is not a folder's path; give a str or a pathlib.Path"
        " (e.g. \"results/mine\")"
    )


def runs_under(path: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The run folders directly under ``path`` with their run.json, the most recently
    started first (only run.json is read: a results folder of many runs is looked through
    in moments); none if ``path`` cannot be listed."""
    found = []
    try:
        children = list(path.iterdir())
    except OSError:
        return []
    for child in children:
        try:
            meta = json.loads((child / RUN_FILE).read_text())
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict):
            found.append((str(meta.get("started") or ""), child, meta))
    found.sort(key=lambda item: item[0], reverse=True)
    return [(child, meta) for _, child, meta in found]


def runs_inside(path: Path, most: int = 3) -> str:
    """"; it holds run folders: ..." for a folder of runs given as a run (``results``:
    "not a run folder" alone left a newcomer to guess which folder was meant), the most
    recently started first; empty where it holds none."""
    found = [child for child, _ in runs_under(path)]
    if not found:
        return ""
    shown = ", ".join(str(child) for child in found[:most])
    more = f" and {len(found) - most:,} more" if len(found) > most else ""
    return f"; it holds run folders: give one of them, e.g. {shown}{more}"


def taken(path: Path | str) -> str:
    """Why a new run cannot start in ``path``, and the ways on, as the command line and
    Python say them (a notebook's user has no ``--out``). Resuming is offered only where
    there is a run to resume (its ``run.json``): a folder of other files was told to
    resume, and the resume then refused it as not a run folder (a probe)."""
    another = (f"{path} already exists and is not empty; choose another folder for the run"
               " (--out; run_tournament's out)")
    if not (Path(path) / RUN_FILE).is_file():
        return f"{another}: it holds no run ({RUN_FILE}) to continue"
    return (f"{another}, or continue the run there: whist-sim run --resume {path}"
            f" (resume_tournament({str(path)!r}))")


def is_fresh(path: Path | str) -> bool:
    """Whether a new run may be created at ``path``: nothing there, an empty folder, or one
    holding only a writer's lock file (what a killed or failed start can leave)."""
    path = folder_path(path)
    return not path.exists() or (path.is_dir() and not _has_content(path))


def _remove_made(path: Path, existed: bool) -> None:
    """Remove what a failed ``create`` made at ``path``: the folder, or its contents if the
    folder was there (empty) before. Nothing there is anyone's data yet."""
    with contextlib.suppress(OSError):
        if not existed:
            shutil.rmtree(path)
            return
        for child in path.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()


def _target(link: Path) -> str | None:
    try:
        return os.readlink(link)
    except OSError:
        return None


def run_part_holding(path: Path | str) -> Path | None:
    """The part of a run folder that ``path`` lies in (its ``data/`` and the folders
    behind it, whose every file the manifest names), or None. A file written there by
    another tool is not the run's: a report written into ``data/`` sat among the tables,
    and a deal set written into ``data/seats/`` made every reader refuse the run (a data
    analyst's probe)."""
    given = Path(path)
    for form in (given.absolute(), given.resolve()):
        for ancestor in (form, *form.parents):
            if (ancestor.name in (DATA_DIR, UNITS_DIR, SNAPSHOTS_DIR, STAGING_DIR)
                    and (ancestor.parent / RUN_FILE).is_file()):
                return ancestor
    return None


def new_run_id() -> str:
    """A new run's id: when it started (UTC) and 32 random bits, e.g. ``20261202-141500-
    9f3a61c2``: sorts by start, and two runs started in the same second still differ."""
    return f"{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}-{secrets.token_hex(4)}"


def old_run_id(meta: Mapping[str, Any]) -> str:
    """The id of a run from before ``run_id``: derived from what its run.json recorded, so
    every reader, and the writer that records it, derive the same one."""
    started = "".join(ch for ch in str(meta.get("started", "")) if ch.isdigit())[:14]
    digest = hashlib.sha256(json.dumps(
        [meta.get("started"), meta.get("root_seed"), meta.get("game"), meta.get("config")],
        sort_keys=True, default=str).encode()).hexdigest()[:8]
    return f"{started[:8]}-{started[8:]}-{digest}"


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
