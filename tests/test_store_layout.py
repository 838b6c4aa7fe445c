"""Run folders written before the run columns (``run_id``, ``game``) and before the manifest
moved out of ``data/``: read where they lie, with the run columns filled in from run.json,
and brought to today's layout by the next writer (``--resume``), playing nothing and
changing no row."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.store_helpers import assert_documented_reads_equal, assert_tidy, manifest_path
from tests.tournament_helpers import assert_same_rows, make_run_without_ray, quick_config, run_rows
from whist_sim.store import RunFolder
from whist_sim.store.folder import old_run_id
from whist_sim.store.manifest import FileRecord, Manifest, UnitRecord
from whist_sim.tournament.runner import resume_tournament


def _as_written_before(run: Path) -> None:
    """Rewrite ``run`` as whist-sim wrote it before the run columns: unit files without
    ``run_id`` (and ``game`` but in ``deals``), run.json without ``run_id``, and
    ``data -> .snapshots/N`` holding the table folders and ``_manifest.json`` side by side."""
    meta = json.loads((run / "run.json").read_text())
    del meta["run_id"]
    meta["schema_version"] = 1
    (run / "run.json").write_text(json.dumps(meta))
    units: dict[str, UnitRecord] = {}
    for unit in sorted((run / ".units").iterdir()):
        record = json.loads((unit / "_unit.json").read_text())
        files = {}
        for table in record["files"]:
            path = unit / f"{table}.parquet"
            data = pq.read_table(path)
            drop = ["run_id"] + (["game"] if table != "deals" else [])
            sink = pa.BufferOutputStream()
            pq.write_table(data.drop_columns(drop), sink, compression="zstd")
            raw = sink.getvalue().to_pybytes()
            path.unlink()  # the snapshot's hard link keeps the old bytes, as it is removed
            path.write_bytes(raw)
            files[table] = FileRecord(data.num_rows, len(raw), hashlib.sha256(raw).hexdigest())
        units[unit.name] = UnitRecord(tuple(record["tasks"]), files)
        (unit / "_unit.json").write_text(units[unit.name].json)
    shutil.rmtree(run / ".snapshots")
    snapshot = run / ".snapshots" / "000007"
    snapshot.mkdir(parents=True)
    for table in _tables(units):
        (snapshot / table).mkdir()
        for name in units:
            os.link(run / ".units" / name / f"{table}.parquet",
                    snapshot / table / f"{name}.parquet")
    (snapshot / "_manifest.json").write_text(Manifest(7, units).to_json())
    (run / "data").unlink()
    (run / "data").symlink_to(".snapshots/000007")


def _tables(units: dict[str, UnitRecord]) -> list[str]:
    return list(next(iter(units.values())).files)


@pytest.fixture
def old_run(tmp_path: Path) -> tuple[Path, dict]:
    run = make_run_without_ray(tmp_path, quick_config(deals=6), per_task=2)
    reference = run_rows(run)
    _as_written_before(run)
    return run, reference


def test_a_run_from_before_the_run_columns_reads_as_before_with_them_filled_in(old_run):
    run, reference = old_run
    folder = RunFolder.open(run)  # every byte checked against its manifest in data/
    assert_same_rows(run_rows(run), reference)
    meta = json.loads((run / "run.json").read_text())
    for table in folder.tables():
        frame = folder.scan(table).collect()
        assert frame["run_id"].unique().to_list() == [old_run_id(meta)], table
        assert frame["game"].unique().to_list() == ["german_whist"], table
    assert (run / "data" / "_manifest.json").exists()  # a reader changes nothing
    assert "run_id" not in meta


def test_resuming_it_adds_the_run_columns_and_moves_the_manifest_out_of_data(
    old_run, capsys: pytest.CaptureFixture[str]
):
    run, reference = old_run
    derived = old_run_id(json.loads((run / "run.json").read_text()))
    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.tasks_run == 0
    assert f"added the columns run_id ({derived}) and game" in capsys.readouterr().err
    assert json.loads((run / "run.json").read_text())["run_id"] == derived
    assert not (run / "data" / "_manifest.json").exists()
    assert manifest_path(run).exists()
    RunFolder.open(run).verify()
    assert_same_rows(run_rows(run), reference)
    assert_documented_reads_equal(run, reference)
    for table in RunFolder.open(run).tables():
        for file in (run / "data" / table).iterdir():
            names = pq.read_schema(file).names
            assert names[:2] == ["run_id", "game"], (table, names)
    assert_tidy(run)


def test_a_copy_whose_data_is_a_real_folder_still_reads(tmp_path: Path):
    """``shutil.copytree`` follows the ``data`` link: the copy's ``data/`` is a real folder
    and the manifest lies in the copied snapshot."""
    run = make_run_without_ray(tmp_path, quick_config(deals=4), per_task=2)
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    assert not (copy / "data").is_symlink()
    assert_same_rows(run_rows(copy), run_rows(run))
