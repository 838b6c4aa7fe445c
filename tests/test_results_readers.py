"""Results any tool can read: every table of a run folder reads directly with pandas, DuckDB
and Polars (``data/`` holds table folders of Parquet files and nothing else), every table
names its run and game, and several runs read as one with pandas and with DuckDB."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest

from tests.tournament_helpers import make_run_without_ray, quick_config
from whist_sim.store import RUN_COLUMNS, RunFolder, RunFolderError

KNOCKOUT = """
[tournament]
game = "knockout_whist"
players = 3
deals = 4
seed = 5

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three runs in one results folder: two German Whist runs of the same plan (the same
    rows but for the run id) and a Knock-out Whist run."""
    root = tmp_path_factory.mktemp("results")
    made = []
    for name, body in (("german-a", quick_config(deals=4)), ("german-b", quick_config(deals=4)),
                       ("knockout", KNOCKOUT)):
        (root / name).mkdir()
        run = make_run_without_ray(root / name, body, per_task=2)
        made.append(run.rename(root / f"{name}-run"))
    return made


def _meta(run: Path) -> dict:
    return json.loads((run / "run.json").read_text())


def test_data_holds_table_folders_of_parquet_files_and_nothing_else(runs: list[Path]):
    for run in runs:
        tables = RunFolder.open(run).tables()
        assert sorted(p.name for p in (run / "data").iterdir()) == sorted(tables)
        for table in tables:
            names = [p.name for p in (run / "data" / table).iterdir()]
            assert names and all(n.endswith(".parquet") for n in names), (table, names)


def test_every_table_reads_directly_with_pandas_duckdb_and_polars(runs: list[Path]):
    for run in runs:
        folder = RunFolder.open(run)
        meta = _meta(run)
        for table in folder.tables():
            rows = folder.scan(table).collect().height
            assert rows > 0, table
            where = run / "data" / table
            frames = {
                "pandas": pl.from_pandas(pd.read_parquet(where)),
                "duckdb": pl.from_arrow(duckdb.read_parquet(f"{where}/*.parquet").arrow()),
                "polars": pl.scan_parquet(where).collect(),
            }
            for tool, frame in frames.items():
                assert frame.height == rows, (tool, table)
                assert frame.columns[:2] == list(RUN_COLUMNS), (tool, table)
                assert frame["run_id"].unique().to_list() == [meta["run_id"]], (tool, table)
                assert frame["game"].unique().to_list() == [meta["game"]], (tool, table)


def test_each_run_has_its_own_id(runs: list[Path]):
    ids = [_meta(run)["run_id"] for run in runs]
    assert len(set(ids)) == len(ids)


def test_several_runs_read_as_one_with_pandas(runs: list[Path]):
    seats = pd.concat([pd.read_parquet(run / "data" / "seats") for run in runs],
                      ignore_index=True)
    per_run = seats.groupby(["run_id", "game"]).size().to_dict()
    assert per_run == {(_meta(r)["run_id"], _meta(r)["game"]):
                       RunFolder.open(r).scan("seats").collect().height for r in runs}
    wins = (seats[seats.game == "german_whist"]
            .groupby(["run_id", "strategy"])["net"].sum().unstack("run_id"))
    first, second = (_meta(r)["run_id"] for r in runs[:2])
    assert wins[first].equals(wins[second])  # the same plan, the same results, two ids


def test_several_runs_read_as_one_with_duckdb(runs: list[Path]):
    root = runs[0].parent
    counts = duckdb.sql(
        f"SELECT run_id, game, count(*) AS hands FROM read_parquet('{root}/*/data/deals/"
        "*.parquet', union_by_name = true) GROUP BY run_id, game ORDER BY run_id").fetchall()
    assert counts == sorted(
        (_meta(r)["run_id"], _meta(r)["game"],
         RunFolder.open(r).scan("deals").collect().height) for r in runs)
    by_game = dict(duckdb.sql(
        f"SELECT game, count(DISTINCT run_id) FROM read_parquet('{root}/*/data/actions/"
        "*.parquet', union_by_name = true) GROUP BY game").fetchall())
    assert by_game == {"german_whist": 2, "knockout_whist": 1}


def test_a_query_across_runs_joins_tables_on_the_run_and_the_deal(runs: list[Path]):
    """The run id is part of every key: joined without it, two runs' deals would pair up."""
    root = runs[0].parent
    joined = duckdb.sql(
        f"SELECT count(*) FROM read_parquet('{root}/*/data/seats/*.parquet',"
        " union_by_name = true) s JOIN read_parquet("
        f"'{root}/*/data/deals/*.parquet', union_by_name = true) d"
        " USING (run_id, deal_key)").fetchall()[0][0]
    seats = sum(RunFolder.open(r).scan("seats").collect().height for r in runs)
    assert joined == seats


def test_a_reader_whose_snapshot_went_is_told_to_open_the_run_again(tmp_path: Path):
    """A RunFolder opened while the run played keeps the snapshot of that moment; once the
    run ended (its last compaction folds the units into a batch and removes them), its
    scan failed with a bare FileNotFoundError from inside Polars, on every collect, and
    nothing said that opening the run again reads it (an analyst's probe)."""
    run = make_run_without_ray(tmp_path, quick_config(deals=4, per_task=1))
    reader = RunFolder.open(run)
    reader.parquet_files("seats")[0].unlink()  # as a compaction retires a unit
    with pytest.raises(RunFolderError) as caught:
        reader.scan("seats")
    message = str(caught.value)
    assert str(run) in message and "RunFolder.open" in message, message
