"""The run folder and its Parquet tables: the one schema every writer and reader shares.

A run folder holds ``run.json`` (config, seeds, versions, times, status) and
``data/<unit>/<table>.parquet``. A unit is the output of one finished task
(``task-00000042``) or of a compaction (``batch-00003``, with ``tasks.json``
naming the tasks it holds). A unit is written to a hidden temporary folder and
renamed into place, and a rename is atomic, so a run killed at any moment holds
only whole tasks: resuming re-plays exactly the tasks that have no unit.

Tables (see docs/results.md for every column):
- ``deals``: one row per deal (hand) played.
- ``seats``: one row per seat per deal.
- ``matches``: one row per seat per match (several deals under ``match``).
- ``actions``: every action of every deal, enough to replay it.
- ``tricks``: one row per trick.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from whist_sim.games.base import WhistSimError

TABLES = ("deals", "seats", "matches", "actions", "tricks")
RUN_FILE = "run.json"
DATA_DIR = "data"
SCHEMA_VERSION = 1

KEY_COLUMNS: dict[str, pa.DataType] = {
    "deal_key": pa.string(),
    "pairing": pa.int32(),
    "deal": pa.int64(),
    "rotation": pa.int16(),
    "hand": pa.int16(),
}
"""Identify a deal: pairing (line-up), deal index (common seeds), seat rotation, hand in match."""

MATCH_KEY = ("pairing", "deal", "rotation")

SCHEMAS: dict[str, pa.Schema] = {
    "deals": pa.schema(
        {
            **KEY_COLUMNS,
            "game": pa.string(),
            "game_version": pa.int32(),
            "variant": pa.string(),
            "seed": pa.int64(),
            "dealer": pa.int8(),
            "trump": pa.string(),
            "upcard": pa.string(),
            "hands": pa.list_(pa.string()),
            "stock": pa.string(),
            "strategies": pa.list_(pa.string()),
            "status": pa.string(),
            "forfeit_seat": pa.int8(),
            "error": pa.string(),
        }
    ),
    "seats": pa.schema(
        {
            **KEY_COLUMNS,
            "seat": pa.int8(),
            "strategy": pa.string(),
            "is_dealer": pa.bool_(),
            "tricks": pa.int16(),
            "score": pa.float64(),
            "net": pa.float64(),
            "result": pa.string(),
        }
    ),
    "matches": pa.schema(
        {
            "pairing": pa.int32(),
            "deal": pa.int64(),
            "rotation": pa.int16(),
            "seat": pa.int8(),
            "strategy": pa.string(),
            "hands_played": pa.int16(),
            "hands_won": pa.int16(),
            "points": pa.float64(),
            "result": pa.string(),
        }
    ),
    "actions": pa.schema(
        {
            **KEY_COLUMNS,
            "step": pa.int16(),
            "seat": pa.int8(),
            "phase": pa.string(),
            "action": pa.string(),
            "chosen": pa.bool_(),
        }
    ),
    "tricks": pa.schema(
        {
            **KEY_COLUMNS,
            "trick": pa.int16(),
            "leader": pa.int8(),
            "cards": pa.list_(pa.string()),
            "winner": pa.int8(),
        }
    ),
}
"""Columns every game writes. Games add their own facts after these (see GAME_COLUMNS)."""

GAME_COLUMNS: dict[str, dict[str, dict[str, pa.DataType]]] = {
    "german_whist": {
        "deals": {
            "stage1_tricks": pa.list_(pa.int16()),
            "stage2_tricks": pa.list_(pa.int16()),
            "tricks_played": pa.int16(),
            "race_winner": pa.int8(),
        },
        "tricks": {
            "stage": pa.int8(),
            "faceup": pa.string(),
            "taken": pa.string(),
            "follower_could_win": pa.bool_(),
        },
    },
    "solo_whist": {
        "deals": {
            "contract": pa.string(),
            "declarer": pa.int8(),
            "partner": pa.int8(),
            "target": pa.int8(),
            "declarer_tricks": pa.int8(),
            "made": pa.bool_(),
            "tricks_played": pa.int16(),
            "bids": pa.string(),
        },
    },
    "minnesota_whist": {
        "deals": {
            "hand_type": pa.string(),
            "grander": pa.int8(),
            "laid": pa.list_(pa.string()),
            "turned": pa.list_(pa.int8()),
            "calls": pa.string(),
            "side_tricks": pa.list_(pa.int16()),
            "side_points": pa.list_(pa.int16()),
            "score_before": pa.list_(pa.int16()),
        },
    },
    "knockout_whist": {
        "deals": {
            "rounds_played": pa.int8(),
            "winner": pa.int8(),
            "ended_by": pa.string(),
            "dogs_granted": pa.int8(),
            "tricks_played": pa.int16(),
            "players": pa.int8(),
        },
        "seats": {
            "out_round": pa.int8(),
            "placing": pa.int8(),
            "dog_used": pa.bool_(),
            "revived": pa.bool_(),
        },
        "tricks": {
            "round": pa.int8(),
            "players": pa.list_(pa.int8()),
        },
    },
}
"""Per game, the extra columns of its tables, named as in the game's facts."""

GAME_TABLES: dict[str, dict[str, pa.Schema]] = {
    "solo_whist": {
        "contracts": pa.schema(
            {
                **KEY_COLUMNS,
                "dealer": pa.int8(),
                "contract": pa.string(),
                "declarer": pa.int8(),
                "declarer_strategy": pa.string(),
                "partner": pa.int8(),
                "partner_strategy": pa.string(),
                "trump": pa.string(),
                "target": pa.int8(),
                "declarer_tricks": pa.int8(),
                "tricks_played": pa.int16(),
                "made": pa.bool_(),
                "payments": pa.list_(pa.float64()),
                "declarer_hand": pa.string(),
                "declarer_sure_tricks": pa.int8(),
                "declarer_trumps": pa.int8(),
                "declarer_high_cards": pa.int8(),
            }
        ),
        "bids": pa.schema(
            {
                **KEY_COLUMNS,
                "step": pa.int16(),
                "seat": pa.int8(),
                "strategy": pa.string(),
                "call": pa.string(),
                "highest_before": pa.string(),
                "copped_before": pa.bool_(),
                "passed_before": pa.int8(),
                "sure_tricks": pa.int8(),
            }
        ),
    },
    "knockout_whist": {
        "rounds": pa.schema(
            {
                **KEY_COLUMNS,
                "round": pa.int8(),
                "seat": pa.int8(),
                "strategy": pa.string(),
                "cards_dealt": pa.int8(),
                "tricks": pa.int8(),
                "trump": pa.string(),
                "trump_chooser": pa.int8(),
                "chose_trump": pa.bool_(),
                "trump_length": pa.int8(),
                "longest_suit": pa.int8(),
                "dog": pa.bool_(),
                "knocked_out": pa.bool_(),
                "revived": pa.bool_(),
                "dog_granted": pa.bool_(),
            }
        ),
    },
}
"""Tables only some games write, with their full schemas."""


class RunFolderError(WhistSimError):
    """A run folder that is missing, incomplete or corrupt."""


def tables_for(game: str) -> tuple[str, ...]:
    """Every table a run of ``game`` writes."""
    return TABLES + tuple(GAME_TABLES.get(game, {}))


def table_schema(table: str, game: str) -> pa.Schema:
    if table in GAME_TABLES.get(game, {}):
        return GAME_TABLES[game][table]
    schema = SCHEMAS[table]
    for name, dtype in GAME_COLUMNS.get(game, {}).get(table, {}).items():
        schema = schema.append(pa.field(name, dtype))
    return schema


def to_arrow(table: str, game: str, rows: list[dict[str, Any]]) -> pa.Table:
    """Rows (dicts) as an Arrow table with the declared schema, in column order."""
    schema = table_schema(table, game)
    columns = {name: [row.get(name) for row in rows] for name in schema.names}
    return pa.Table.from_pydict(columns, schema=schema)


@dataclass
class RunFolder:
    """A run folder on disk: ``run.json`` plus atomic units of Parquet tables."""

    path: Path

    # -- creating and opening --------------------------------------------------------
    @classmethod
    def create(cls, path: Path, meta: Mapping[str, Any]) -> RunFolder:
        if path.exists() and any(path.iterdir()):
            raise RunFolderError(
                f"{path} already exists and is not empty; choose another --out or"
                f" continue it with --resume {path}"
            )
        (path / DATA_DIR).mkdir(parents=True, exist_ok=True)
        folder = cls(path)
        folder.write_meta(dict(meta))
        return folder

    @classmethod
    def open(cls, path: Path | str, *, repair: bool = False) -> RunFolder:
        """Open an existing run for reading, or with ``repair`` for writing more to it.

        ``repair`` removes what an interrupted writer left behind (temporary
        folders, task units already folded into a batch); only the writer may do
        that, since a reader can open a run that is still being written.
        """
        path = Path(path)
        if not path.is_dir():
            raise RunFolderError(f"{path}: no such run folder")
        folder = cls(path)
        folder.meta()  # validates run.json
        if not (path / DATA_DIR).is_dir():
            raise RunFolderError(f"{path}: not a run folder (no {DATA_DIR}/ inside)")
        if repair:
            folder._remove_debris()
        folder._check_units()
        return folder

    def meta(self) -> dict[str, Any]:
        file = self.path / RUN_FILE
        try:
            meta = json.loads(file.read_text())
        except FileNotFoundError:
            raise RunFolderError(f"{self.path}: not a run folder (no {RUN_FILE})") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RunFolderError(f"{file}: corrupt ({exc})") from None
        for key in ("config", "root_seed", "status", "game"):
            if key not in meta:
                raise RunFolderError(f"{file}: corrupt (no {key!r} key)")
        return meta

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace run.json atomically."""
        tmp = self.path / f".{RUN_FILE}.tmp"
        tmp.write_text(json.dumps(meta, indent=2, sort_keys=True, default=str) + "\n")
        os.replace(tmp, self.path / RUN_FILE)

    def update_meta(self, **changes: Any) -> dict[str, Any]:
        meta = self.meta()
        meta.update(changes)
        self.write_meta(meta)
        return meta

    # -- units -------------------------------------------------------------------------
    @property
    def data(self) -> Path:
        return self.path / DATA_DIR

    def _units(self) -> list[Path]:
        """Committed units, leaving out tasks a batch already holds (a compaction in flight)."""
        units = sorted(p for p in self.data.iterdir() if p.is_dir() and not p.name.startswith("."))
        batched: set[int] = set()
        for unit in units:
            if unit.name.startswith("batch-"):
                batched |= self._batch_tasks(unit)
        return [u for u in units if not (u.name.startswith("task-") and int(u.name[5:]) in batched)]

    def _batch_tasks(self, unit: Path) -> set[int]:
        try:
            return set(json.loads((unit / "tasks.json").read_text()))
        except (OSError, json.JSONDecodeError) as exc:
            raise RunFolderError(f"{unit}: corrupt batch ({exc})") from None

    def _remove_debris(self) -> None:
        """Drop temporary folders and task units already folded into a batch."""
        for tmp in self.data.glob(".*"):
            shutil.rmtree(tmp, ignore_errors=True)
        live = set(self._units())
        for unit in self.data.iterdir():
            if unit.name.startswith("task-") and unit not in live:
                shutil.rmtree(unit)

    def _check_units(self) -> None:
        """Every unit holds every table with a readable Parquet footer, or we say which not."""
        tables = self.tables()
        for unit in self._units():
            for table in tables:
                file = unit / f"{table}.parquet"
                try:
                    pq.ParquetFile(file).metadata  # noqa: B018 - reading the footer is the check
                except (OSError, pa.ArrowException) as exc:
                    raise RunFolderError(
                        f"{file}: unreadable ({exc}); remove the folder {unit} and run"
                        f" whist-sim run --resume {self.path} to play its deals again"
                    ) from None

    def completed_tasks(self) -> set[int]:
        done: set[int] = set()
        for unit in self._units():
            if unit.name.startswith("task-"):
                done.add(int(unit.name[5:]))
            elif unit.name.startswith("batch-"):
                done |= self._batch_tasks(unit)
        return done

    def commit_task(self, task: int, tables: Mapping[str, pa.Table]) -> None:
        """Write one finished task's tables as a unit, atomically."""
        self._commit_unit(f"task-{task:08d}", tables, None)

    def _commit_unit(
        self, name: str, tables: Mapping[str, pa.Table], tasks: Iterable[int] | None
    ) -> None:
        tmp = self.data / f".{name}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        for table, data in tables.items():
            pq.write_table(data, tmp / f"{table}.parquet", compression="zstd")
        if tasks is not None:
            (tmp / "tasks.json").write_text(json.dumps(sorted(tasks)))
        os.replace(tmp, self.data / name)

    def compact(self, min_units: int = 2, max_rows: int = 5_000_000) -> int:
        """Merge task units into batches so a long run is a handful of files.

        Returns how many task units were merged. Safe at any moment: the batch is
        committed (atomic rename) before the tasks it covers are removed, and
        ``open`` removes tasks that a batch already covers.
        """
        tasks = [u for u in self._units() if u.name.startswith("task-")]
        if len(tasks) < min_units:
            return 0
        batches = [u for u in self._units() if u.name.startswith("batch-")]
        number = 1 + max((int(u.name[6:]) for u in batches), default=0)
        merged = 0
        group: list[Path] = []
        rows = 0
        for unit in tasks:
            group.append(unit)
            rows += pq.ParquetFile(unit / "actions.parquet").metadata.num_rows
            if rows >= max_rows:
                self._merge(group, number)
                merged += len(group)
                number, group, rows = number + 1, [], 0
        if len(group) >= min_units:
            self._merge(group, number)
            merged += len(group)
        return merged

    def _merge(self, units: list[Path], number: int) -> None:
        names = sorted({f.stem for u in units for f in u.glob("*.parquet")})
        tables = {
            table: pa.concat_tables(pq.read_table(u / f"{table}.parquet") for u in units)
            for table in names
        }
        self._commit_unit(f"batch-{number:05d}", tables, (int(u.name[5:]) for u in units))
        for unit in units:
            shutil.rmtree(unit)

    def tables(self) -> tuple[str, ...]:
        return tables_for(self.meta()["game"])

    def parquet_files(self, table: str) -> list[Path]:
        if table not in self.tables():
            raise RunFolderError(
                f"{self.path}: no table {table!r}; tables: {', '.join(self.tables())}"
            )
        return [u / f"{table}.parquet" for u in self._units()]

    def scan(self, table: str) -> pl.LazyFrame:
        """A lazy frame over every unit of ``table``."""
        files = self.parquet_files(table)
        if not files:
            raise RunFolderError(f"{self.path}: the run has no results yet")
        return pl.scan_parquet([str(f) for f in files])


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
