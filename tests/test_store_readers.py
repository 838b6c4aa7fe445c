"""Readers see whole committed units only, while a writer commits and compacts in another
process; each table reads directly with Polars, DuckDB and pandas; a folder of the
first layout still reads, and a resume converts it."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.store_helpers import (
    DOCUMENTED_READS,
    assert_documented_reads_equal,
    assert_tidy,
    config_file,
    rows_for_tasks,
    run_writer,
    start_writer,
)
from tests.tournament_helpers import assert_same_rows, quick_config, run_rows
from whist_sim.store import RunFolder, RunFolderError, stored_schema
from whist_sim.tournament.runner import resume_tournament
from whist_sim.tournament.schedule import Plan

pytestmark = pytest.mark.slow  # every test here plays whole runs (seconds each)

UNIT_FILE = re.compile(r"(task-\d{8}(-[0-9a-f]{8})?|batch-\d{5})\.parquet")
"""A unit the driver wrote, or one a worker wrote (its name carries the attempt's suffix)."""
ROWS_PER_ITEM = {"deals": 2, "seats": 4, "matches": 4}
"""German Whist, single hands: an item (line-up, deal) is played in 2 seatings of 2 seats."""


def _whole_units(frame: pl.DataFrame, table: str) -> bool:
    """Every (line-up, deal) present has all its rows, once (one task per item here)."""
    counts = frame.group_by("pairing", "deal").len()["len"]
    return bool((counts == ROWS_PER_ITEM[table]).all())


def test_readers_never_see_a_partial_or_doubled_unit_while_a_writer_commits_and_compacts(
    tmp_path: Path,
):
    body = quick_config(deals=40, per_task=1)  # 120 one-item tasks: 240 hands
    hands = 40 * 3 * 2  # deals x line-ups x seatings
    writer = start_writer("run", tmp_path / "run", config_file(tmp_path, body), compact_every=7)
    run = tmp_path / "run"
    seen: Counter[str] = Counter()
    partial_runs = 0
    try:
        while writer.poll() is None:
            if not (run / "run.json").exists():  # written last by RunFolder.create
                continue
            try:
                folder = RunFolder.open(run, verify=False)
                deals = folder.scan("deals").collect()
                seats = folder.scan("seats").collect()
            except RunFolderError as exc:
                assert "no results yet" in str(exc)
                continue
            except FileNotFoundError as exc:
                # the one read the store does not promise (folder.RETIRED_KEEP_SECONDS):
                # a scan spanning the writer's close, which removes the retired units
                assert "/.units/task-" in str(exc), exc
                writer.wait(timeout=10)  # the run was ending: its writer exits at once
                seen["scan spanning the writer's close"] += 1
                break
            # whist_sim's reader holds one snapshot: its tables agree with each other
            assert _whole_units(deals, "deals") and _whole_units(seats, "seats")
            assert deals.select("pairing", "deal").unique().sort("pairing", "deal").equals(
                seats.select("pairing", "deal").unique().sort("pairing", "deal"))
            partial_runs += 0 < deals.height < hands
            seen["whist_sim"] += 1
            for (name, read), table in zip(DOCUMENTED_READS.items(), ROWS_PER_ITEM,
                                           strict=True):
                names = {p.name for p in (run / "data" / table).iterdir()}
                assert all(UNIT_FILE.fullmatch(n) for n in names), names
                try:
                    frame = read(run, table)
                except (OSError, duckdb.Error) as exc:
                    # a read that spans a compaction may miss a file it globbed; never wrong
                    assert "No such file" in str(exc) or "not found" in str(exc).lower() \
                        or "No files found" in str(exc), exc
                    seen[f"{name} retried"] += 1
                    continue
                assert _whole_units(frame, table), f"{name} saw part of a unit in {table}"
                seen[name] += 1
    finally:
        writer.kill()
        _, err = writer.communicate()
    assert writer.returncode == 0, err
    assert partial_runs >= 5, seen
    assert min(seen[name] for name in ("whist_sim", *DOCUMENTED_READS)) >= 5, seen
    assert RunFolder.open(run).scan("deals").collect().height == hands


def test_each_table_reads_directly_with_polars_duckdb_and_pandas(tmp_path: Path):
    run = tmp_path / "run"
    done = run_writer("run", run, config_file(tmp_path, quick_config(deals=6, per_task=2)),
                      compact_every=4)
    assert done.returncode == 0, done.stderr
    expected = run_rows(run)
    assert_documented_reads_equal(run, expected)
    every_column = pd.read_parquet(run / "data" / "deals")
    assert len(every_column) == expected["deals"].height
    assert list(every_column.columns) == stored_schema("deals", "german_whist").names
    assert set(every_column["run_id"]) == {json.loads((run / "run.json").read_text())["run_id"]}
    assert_tidy(run)


# -- the first layout ---------------------------------------------------------------------

def _first_layout(run: Path, to: Path, plan: Plan, units: dict[str, set[int]]) -> Path:
    """A copy of ``run`` in the first layout: data/<unit>/<table>.parquet, tasks.json in
    batches, with ``units`` (name -> tasks) as the folder holds them."""
    rows = run_rows(run)
    to.mkdir()
    meta = json.loads((run / "run.json").read_text())
    meta.update(status="running", ended=None)
    (to / "run.json").write_text(json.dumps(meta))
    for name, tasks in units.items():
        unit = to / "data" / name
        unit.mkdir(parents=True)
        for table, frame in rows_for_tasks(rows, plan, tasks).items():
            full = pq.read_schema(next((run / "data" / table).glob("*.parquet")))
            schema = pa.schema([full.field(name) for name in frame.columns])  # as written then
            pq.write_table(frame.to_arrow().cast(schema), unit / f"{table}.parquet")
        if name.startswith("batch-"):
            (unit / "tasks.json").write_text(json.dumps(sorted(tasks)))
    return to


@pytest.fixture
def first_layout(tmp_path: Path) -> tuple[Path, Path, Plan]:
    run = tmp_path / "reference"
    done = run_writer("run", run, config_file(tmp_path, quick_config(deals=12, per_task=3)))
    assert done.returncode == 0, done.stderr
    plan = Plan(pairings=3, deals=12, deals_per_task=3)
    old = _first_layout(run, tmp_path / "old", plan, {
        "batch-00001": {0, 1, 2},
        "task-00000001": {1},  # already in the batch: a compaction killed before removing it
        "task-00000004": {4},
        "task-00000007": {7},
        ".batch-00002.tmp": {4, 7},  # a compaction killed before its rename
    })
    return run, old, plan


def test_a_first_layout_folder_reads_as_before(first_layout):
    reference, old, plan = first_layout
    folder = RunFolder.open(old)
    assert folder.completed_tasks() == {0, 1, 2, 4, 7}
    expected = rows_for_tasks(run_rows(reference), plan, {0, 1, 2, 4, 7})
    assert_same_rows(run_rows(old), expected)
    assert not (old / "data").is_symlink()  # a reader changes nothing


def test_resuming_a_first_layout_folder_converts_it_and_completes_it(first_layout):
    reference, old, plan = first_layout
    resumed = resume_tournament(old, workers=0, progress=False)
    assert resumed.status == "complete" and resumed.tasks_run == plan.tasks - 5
    assert (old / "data").is_symlink()
    assert_same_rows(run_rows(old), run_rows(reference))
    assert_documented_reads_equal(old, run_rows(reference))
    assert_tidy(old)


def test_a_first_layout_conversion_killed_half_way_is_done_again(first_layout, monkeypatch):
    reference, old, _ = first_layout
    from whist_sim.store import snapshots

    def dies(*args, **kwargs):
        raise KeyboardInterrupt  # the conversion stops before data/ changes

    monkeypatch.setattr("whist_sim.store.folder.build_snapshot", dies)
    with pytest.raises(KeyboardInterrupt):
        RunFolder.open(old, repair=True)
    monkeypatch.setattr("whist_sim.store.folder.build_snapshot", snapshots.build_snapshot)
    assert RunFolder.open(old).completed_tasks() == {0, 1, 2, 4, 7}  # still the first layout
    resume_tournament(old, workers=0, progress=False)
    assert_same_rows(run_rows(old), run_rows(reference))
