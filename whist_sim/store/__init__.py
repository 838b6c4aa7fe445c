"""The run folder and its Parquet tables: what every writer and reader of results shares.

A run folder::

    run.json                 config, seeds, versions, times, status, totals
    data -> .snapshots/N/data  what readers read: data/<table>/<unit>.parquet, one folder
                             per table, exactly the committed units, nothing else; every
                             table leads with the run's run_id and game
    .snapshots/N/_manifest.json  lists those units with row counts and SHA-256 of every file
    .units/<unit>/           each unit's files, written once, never changed, and its own
                             record (_unit.json), from which a lost manifest is rebuilt
    .snapshots/N/            the snapshot data/ shows (older ones go within seconds)
    .staging/                work in progress, never read
    .writer.lock             held (flock) by the one process writing the run

A unit is one finished task (``task-00000042``; ``task-00000042-1f2e3d4c`` when a
worker wrote it) or a compaction of many
(``batch-00003``). Each commit and each compaction builds a new snapshot aside
and swaps the ``data`` link to it in one rename, so a reader, whatever tool it
uses and whenever it reads, killed writer or live one, sees whole committed units
only. See docs/results.md.

Modules: ``schema`` (tables and columns), ``folder`` (RunFolder), ``units`` (writing
a unit aside, without the lock: what a worker does for the writer), ``manifest``
(what each unit holds, checksums), ``snapshots`` (data/ and its swaps),
``integrity`` (checking a snapshot, the way out of each problem), ``lock`` (one
writer), ``legacy`` (the first layout), ``totals`` (run.json totals as a session
goes), ``crash_points`` (where tests kill the writer).
"""

from whist_sim.store.errors import RunFolderError
from whist_sim.store.folder import RUN_FILE, RunFolder, new_run_id, now_iso, run_part_holding
from whist_sim.store.manifest import MANIFEST_FILE, FileRecord, Manifest, UnitRecord
from whist_sim.store.schema import (
    GAME_COLUMNS,
    GAME_TABLES,
    KEY_COLUMNS,
    MATCH_KEY,
    RUN_COLUMNS,
    SCHEMA_VERSION,
    SCHEMAS,
    TABLES,
    stored_schema,
    table_schema,
    tables_for,
    to_arrow,
)
from whist_sim.store.snapshots import DATA_DIR
from whist_sim.store.totals import SessionClock

__all__ = [
    "DATA_DIR",
    "GAME_COLUMNS",
    "GAME_TABLES",
    "KEY_COLUMNS",
    "MANIFEST_FILE",
    "MATCH_KEY",
    "RUN_COLUMNS",
    "RUN_FILE",
    "SCHEMAS",
    "SCHEMA_VERSION",
    "TABLES",
    "FileRecord",
    "Manifest",
    "RunFolder",
    "RunFolderError",
    "SessionClock",
    "UnitRecord",
    "new_run_id",
    "now_iso",
    "run_part_holding",
    "stored_schema",
    "table_schema",
    "tables_for",
    "to_arrow",
]
