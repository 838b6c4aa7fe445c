"""Helpers the per-game report tests share: a run folder of hand-built rows, rows by key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.store import RunFolder, tables_for, to_arrow


def folder_with_rows(path: Path, meta: dict[str, Any], game: str,
                     rows: dict[str, list[dict[str, Any]]]) -> RunFolder:
    """A run folder at ``path`` holding ``rows`` (per table) as one committed task."""
    folder = RunFolder.create(path, meta)
    folder.commit_task(0, {t: to_arrow(t, game, rows[t]) for t in tables_for(game)})
    return RunFolder.open(folder.path)


def rows_by(df: pl.DataFrame, *keys: str) -> dict[Any, dict[str, Any]]:
    """The rows of ``df`` by the value of ``keys`` (one key: the value; several: a tuple)."""
    return {
        (row[keys[0]] if len(keys) == 1 else tuple(row[k] for k in keys)): row
        for row in df.iter_rows(named=True)
    }
