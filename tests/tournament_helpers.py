"""Helpers for tournament tests: write configs, read a run's rows in a canonical order."""

from __future__ import annotations

import tomllib
from pathlib import Path

import polars as pl

from whist_sim.store import RunFolder, table_schema

KEYS = ["pairing", "deal", "rotation", "hand"]
SORT_KEYS = {
    "bids": ["pairing", "deal", "rotation", "hand", "step"],
    "deals": ["pairing", "deal", "rotation", "hand"],
    "seats": ["pairing", "deal", "rotation", "hand", "seat"],
    "matches": ["pairing", "deal", "rotation", "seat"],
    "actions": ["pairing", "deal", "rotation", "hand", "step"],
    "tricks": ["pairing", "deal", "rotation", "hand", "trick"],
}


def write_config(folder: Path, body: str, name: str = "config.toml") -> Path:
    path = folder / name
    path.write_text(body)
    return path


def quick_config(deals: int = 12, per_task: int | str = 3, seed: int = 11, extra: str = "") -> str:
    task = f'"{per_task}"' if isinstance(per_task, str) else per_task
    return f"""
[tournament]
game = "german_whist"
deals = {deals}
seed = {seed}
deals_per_task = {task}
{extra}

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
label = "random_b"
"""


def knockout_sizes_config(per_task: int) -> str:
    """``random`` against ``heuristic`` at Knock-out tables of 3 and 4, six deals: a run of
    two entrants at several table sizes, whose verdict reads every size's games of a deal
    index (one line-up of four, A B A B, and two of three, A B A and B A B)."""
    return f"""
[tournament]
game = "knockout_whist"
players = [3, 4]
deals = 6
seed = 9
deals_per_task = {per_task}

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
"""


MEASURED = {"actions": ["seconds"]}
"""Columns that measure the machine, not the play (time per decision): the one thing two
runs of the same plan may differ in. Left out of ``run_rows``."""

RUN_IDENTITY = ["run_id"]
"""The column that names the run, in every table: two runs of the same plan differ there by
design. ``run_rows`` leaves it out, with the other column the store adds (``game``, but
where a task records it, in ``deals``)."""


def recorded_columns(table: str, game: str) -> list[str]:
    """A table's columns as a task records them (the store adds the run columns when it
    writes a unit), without the measured ones."""
    return [c for c in table_schema(table, game).names if c not in MEASURED.get(table, [])]


def run_rows(run: Path) -> dict[str, pl.DataFrame]:
    """Every table of a run, sorted by its key, with the columns a task records and without
    the measured ones: equal dicts mean equal results, and a task's own tables
    (``play_task``) compare with them directly."""
    folder = RunFolder.open(run)
    return {t: folder.scan(t).select(recorded_columns(t, folder.game)).collect()
            .sort(SORT_KEYS.get(t, KEYS))
            for t in folder.tables()}


def assert_same_rows(a: dict[str, pl.DataFrame], b: dict[str, pl.DataFrame]) -> None:
    assert set(a) == set(b)
    for table in a:
        assert a[table].columns == b[table].columns, table
        if not a[table].equals(b[table]):
            assert a[table].height == b[table].height, f"table {table}: other row counts"
            differs = [c for c in a[table].columns if not a[table][c].equals(b[table][c])]
            raise AssertionError(f"table {table} differs in columns {differs}")


def make_run_without_ray(folder: Path, body: str, per_task: int = 10) -> Path:
    """A complete run folder played in this process (no Ray): fast fixtures for readers."""
    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.runner import run_tournament

    raw = tomllib.loads(body)
    raw["tournament"]["deals_per_task"] = per_task
    summary = run_tournament(validate_config(raw), folder / "run", workers=0, progress=False)
    assert summary.status == "complete", summary
    return summary.path


def interrupt_in_process_at(monkeypatch, call: int) -> None:
    """A Ctrl-C in the middle of an in-process run: the executor's ``call``-th
    ``next_result`` raises KeyboardInterrupt (``monkeypatch.undo()`` puts it back)."""
    from whist_sim.tournament import executors

    real = executors.InProcessExecutor.next_result
    calls = [0]

    def interrupted(self):
        calls[0] += 1
        if calls[0] == call:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(executors.InProcessExecutor, "next_result", interrupted)
