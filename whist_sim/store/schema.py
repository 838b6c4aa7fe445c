"""The tables of a run and their columns: the one schema every writer and reader shares.

Tables (see docs/results.md for every column):
- ``deals``: one row per deal (hand) played.
- ``seats``: one row per seat per deal.
- ``matches``: one row per seat per match (several deals under ``match``).
- ``actions``: every action of every deal, enough to replay it.
- ``tricks``: one row per trick.
Some games add columns (``GAME_COLUMNS``) or tables of their own (``GAME_TABLES``).

A task records its tables with ``table_schema``'s columns; the store adds the run's
own (``RUN_COLUMNS``: ``run_id``, ``game``) as constant columns when it writes a unit
(``stored_schema``, ``with_run_columns``), so every stored table says which run and
game its rows come from and several runs read as one, without the hot recording loop
building a column it does not need.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

TABLES = ("deals", "seats", "matches", "actions", "tricks")
SCHEMA_VERSION = 2
"""1: tables as tasks record them; 2: ``run_id`` and ``game`` lead every table, and the
Knock-out Whist ``rounds`` table has each round's ``dealer`` and ``hand``."""

RUN_COLUMNS: dict[str, pa.DataType] = {"run_id": pa.string(), "game": pa.string()}
"""Lead every stored table: the run (``run.json`` ``run_id``) and the game its rows belong
to. Added by the store when it writes a unit, never by the recording."""

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
            "seconds": pa.float64(),
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
            "follower_could_win_legally": pa.bool_(),
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
                "dealer": pa.int8(),
                "seat": pa.int8(),
                "strategy": pa.string(),
                "cards_dealt": pa.int8(),
                "dealt_cards": pa.string(),
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


def tables_for(game: str) -> tuple[str, ...]:
    """Every table a run of ``game`` writes."""
    return TABLES + tuple(GAME_TABLES.get(game, {}))


def table_schema(table: str, game: str) -> pa.Schema:
    """The columns ``table`` has in a run of ``game``: the shared ones, then the game's own."""
    if table in GAME_TABLES.get(game, {}):
        return GAME_TABLES[game][table]
    schema = SCHEMAS[table]
    for name, dtype in GAME_COLUMNS.get(game, {}).get(table, {}).items():
        schema = schema.append(pa.field(name, dtype))
    return schema


def stored_schema(table: str, game: str) -> pa.Schema:
    """The columns ``table`` has on disk: ``RUN_COLUMNS``, then ``table_schema``'s (the
    ``game`` a task records in ``deals`` moves to the front with ``run_id``)."""
    recorded = [field for field in table_schema(table, game) if field.name not in RUN_COLUMNS]
    return pa.schema([pa.field(name, dtype) for name, dtype in RUN_COLUMNS.items()] + recorded)


def constant_strings(value: str, rows: int) -> pa.Array:
    """A string column holding ``value`` in each of ``rows`` rows, built from two buffers
    (no Python object per row: a batch can hold millions of rows)."""
    data = value.encode()
    if rows * len(data) >= 2**31:  # beyond 32-bit offsets: the slow way, still correct
        return pa.array([value] * rows, pa.string())
    offsets = np.arange(rows + 1, dtype=np.int32) * len(data)
    return pa.StringArray.from_buffers(rows, pa.py_buffer(offsets.tobytes()),
                                       pa.py_buffer(data * rows))


def with_run_columns(table: pa.Table, name: str, game: str, run_id: str) -> pa.Table:
    """``table`` (of table ``name``) as the store keeps it: ``run_id`` and ``game`` set
    for every row (whatever they held: a table copied from another run gets this run's),
    columns in ``stored_schema`` order, and a column the rows lack (one added since they
    were written, like ``actions.seconds``) null."""
    schema = stored_schema(name, game)
    rows = table.num_rows
    present = set(table.column_names)
    columns = []
    for field in schema:
        if field.name == "run_id":
            columns.append(constant_strings(run_id, rows))
        elif field.name == "game":
            columns.append(constant_strings(game, rows))
        elif field.name in present:
            columns.append(table.column(field.name))
        else:
            columns.append(pa.nulls(rows, field.type))
    return pa.Table.from_arrays(columns, names=schema.names).cast(schema)


def to_arrow(table: str, game: str, rows: list[dict[str, Any]]) -> pa.Table:
    """Rows (dicts) as an Arrow table with the declared schema, in column order."""
    schema = table_schema(table, game)
    columns = {name: [row.get(name) for row in rows] for name in schema.names}
    return pa.Table.from_pydict(columns, schema=schema)
