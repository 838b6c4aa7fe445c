"""Helpers for the run-folder tests: a writer in another process, the documented reads of
each table by Polars, DuckDB and pandas, and a reference run's rows task by task."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl

from tests.tournament_helpers import SORT_KEYS, write_config
from whist_sim.store import TABLES, RunFolder
from whist_sim.store.crash_points import KILL_AT
from whist_sim.tournament.schedule import Plan

ROOT = Path(__file__).resolve().parents[1]

WRITER = """
import sys
from whist_sim.store import totals
from whist_sim.tournament import runner
from whist_sim.tournament.config import load_config

mode, target, compact_every, totals_every, config = sys.argv[1:6]
runner.COMPACT_EVERY = int(compact_every)
totals.TOTALS_EVERY = float(totals_every)
if mode == "run":
    runner.run_tournament(load_config(config), target, workers=0, progress=False)
else:
    runner.resume_tournament(target, workers=0, progress=False)
"""
"""A writer as ``whist-sim run`` runs one (in process, no Ray), with the compaction
interval and the totals interval a test wants."""


def start_writer(mode: str, run: Path, config: Path | None = None, *,
                 kill_at: str | None = None, compact_every: int = 64,
                 totals_every: float = 1.0) -> subprocess.Popen:
    """Start ``run`` (a new run of ``config``) or ``resume`` of ``run`` in another process;
    ``kill_at`` names the crash point (``crash_points.CRASH_POINTS``) it dies at."""
    env = {k: v for k, v in os.environ.items() if k != KILL_AT}
    if kill_at:
        env[KILL_AT] = kill_at
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, mode, str(run), str(compact_every), str(totals_every),
         str(config or "")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def run_writer(*args, **kwargs) -> subprocess.CompletedProcess:
    process = start_writer(*args, **kwargs)
    out, err = process.communicate(timeout=300)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def config_file(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_config(folder, body)


def manifest_path(run: Path) -> Path:
    """The manifest of the snapshot ``data/`` shows: beside its ``data/``, not in it."""
    return (run / "data").resolve().parent / "_manifest.json"


def shown_tasks(run: Path) -> set[int]:
    """The tasks ``data/`` shows, from its own manifest (what any reader may count on)."""
    manifest = json.loads(manifest_path(run).read_text())
    return {t for unit in manifest["units"].values() for t in unit["tasks"]}


def task_of_item(plan: Plan) -> dict[tuple[int, int], int]:
    """(pairing, deal) -> the task that plays it (round robins: pairing is the line-up index)."""
    return {item: task for task in range(plan.tasks) for item in plan.task_items(task)}


def rows_for_tasks(reference: dict[str, pl.DataFrame], plan: Plan,
                   tasks: set[int]) -> dict[str, pl.DataFrame]:
    """The reference run's rows that ``tasks`` produce, table by table."""
    items = [item for item, task in task_of_item(plan).items() if task in tasks]
    keep = pl.DataFrame({"pairing": [p for p, _ in items], "deal": [d for _, d in items]},
                        schema={"pairing": pl.Int32, "deal": pl.Int64})
    return {table: frame.join(keep, on=["pairing", "deal"], how="semi")
            for table, frame in reference.items()}


def keys(frame: pl.DataFrame, table: str) -> list[tuple]:
    """A table's rows as sorted key tuples: equal lists, same rows, none twice."""
    columns = SORT_KEYS[table]
    return sorted(frame.select(columns).iter_rows())


def polars_read(run: Path, table: str) -> pl.DataFrame:
    return pl.scan_parquet(run / "data" / table / "*.parquet").collect()


def duckdb_read(run: Path, table: str) -> pl.DataFrame:
    columns = ", ".join(SORT_KEYS[table])
    query = f"SELECT {columns} FROM read_parquet('{run}/data/{table}/*.parquet')"
    return pl.from_arrow(duckdb.sql(query).arrow())


def pandas_read(run: Path, table: str) -> pl.DataFrame:
    frame = pd.read_parquet(run / "data" / table, columns=SORT_KEYS[table])
    return pl.from_pandas(frame)


DOCUMENTED_READS = {"polars": polars_read, "duckdb": duckdb_read, "pandas": pandas_read}


def assert_documented_reads_equal(run: Path, expected: dict[str, pl.DataFrame]) -> None:
    """Polars, DuckDB and pandas, reading ``data/<table>`` as docs/results.md says, each
    see exactly ``expected``: the same keys, none twice (and Polars the very same rows)."""
    for table in TABLES:
        want = keys(expected[table], table)
        for name, read in DOCUMENTED_READS.items():
            got = read(run, table)
            assert keys(got, table) == want, f"{name} reads other {table} rows"
        sort = SORT_KEYS[table]
        got = polars_read(run, table)
        assert got["run_id"].n_unique() == 1, table  # the run columns: one run, one game
        assert got["game"].n_unique() == 1, table
        got = got.select(expected[table].columns)  # the columns a task records
        assert got.sort(sort).equals(expected[table].sort(sort)), table


def assert_tidy(run: Path) -> None:
    """Nothing a writer leaves behind: no staging, one snapshot, only the units it shows,
    and each table folder holds unit files and nothing else."""
    manifest = json.loads(manifest_path(run).read_text())
    assert sorted(p.name for p in (run / "data").iterdir()) == sorted(
        RunFolder.open(run, verify=False).tables()), "data/ holds table folders only"
    assert list((run / ".staging").iterdir()) == []
    assert len(list((run / ".snapshots").iterdir())) == 1
    assert sorted(p.name for p in (run / ".units").iterdir()) == sorted(manifest["units"])
    for table in RunFolder.open(run, verify=False).tables():
        names = sorted(p.name for p in (run / "data" / table).iterdir())
        assert names == sorted(f"{unit}.parquet" for unit in manifest["units"]), table
