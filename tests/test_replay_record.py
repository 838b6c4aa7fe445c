"""Replay checks the record: seats and tricks rows that contradict the deal's own action
log (a forged winner) are flagged, naming the deal and the seat or trick."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from whist_sim.cli import app
from whist_sim.replay import replay_deal
from whist_sim.store import RunFolder, RunFolderError, to_arrow
from whist_sim.tournament.schedule import Plan
from whist_sim.tournament.worker import TaskSpec, play_task

GAME = "german_whist"
META = {
    "config": {"tournament": {"game": GAME, "deals": 2, "seed": 7}, "variant": {},
               "strategies": [{"use": "heuristic", "label": "a", "params": {}},
                              {"use": "random", "label": "b", "params": {}}]},
    "root_seed": 7, "status": "complete", "game": GAME,
}
KEY = "0-0-0-0"

Rows = list[dict[str, Any]]


def _run_with(tmp_path: Path, table: str, forge: Callable[[Rows], None]) -> Path:
    """A run of two deals whose ``table`` rows went through ``forge`` before the commit:
    checksums and footers all agree, only the content lies."""
    spec = TaskSpec(task=0, game=GAME, variant={}, players=None, root_seed=7,
                    plan=Plan(pairings=1, deals=2, deals_per_task=2), lineups=[("a", "b")],
                    strategies={"a": ("heuristic", {}), "b": ("random", {})},
                    time_limit=None, on_error="forfeit")
    tables: dict[str, pa.Table] = dict(play_task(spec).tables)
    rows = tables[table].to_pylist()
    forge(rows)
    tables[table] = to_arrow(table, GAME, rows)
    with RunFolder.create(tmp_path / "run", META) as folder:
        folder.commit_task(0, tables)
    return tmp_path / "run"


def _swap_seat_outcomes(rows: Rows) -> None:
    """Seat 0 takes seat 1's outcome: what a strategy that rewrote its result would record."""
    first, second = (r for r in rows if r["deal_key"] == KEY)
    for column in ("tricks", "score", "net", "result"):
        first[column], second[column] = second[column], first[column]


def test_a_forged_seats_row_is_flagged_naming_the_deal_and_seat(tmp_path: Path):
    run = _run_with(tmp_path, "seats", _swap_seat_outcomes)
    with pytest.raises(RunFolderError) as caught:
        replay_deal(run, KEY)
    message = str(caught.value)
    assert message.startswith(f"deal {KEY} of {run}: the record disagrees with its own action")
    assert "seat 0 (a) is recorded with tricks" in message and "the replay gives" in message
    assert "(and 1 more disagreement)" in message  # seat 1 too
    replay_deal(run, "0-1-0-0")  # the other deals are as played


def test_a_forged_trick_winner_is_flagged_naming_the_trick(tmp_path: Path):
    def move_trick_5(rows: Rows) -> None:
        trick = next(r for r in rows if r["deal_key"] == KEY and r["trick"] == 5)
        trick["winner"] = 1 - trick["winner"]

    run = _run_with(tmp_path, "tricks", move_trick_5)
    with pytest.raises(RunFolderError, match=rf"deal {KEY} .* trick 5 is recorded as led by"):
        replay_deal(run, KEY)


def test_the_replay_command_refuses_a_forged_deal_in_one_line(tmp_path: Path):
    run = _run_with(tmp_path, "seats", _swap_seat_outcomes)
    result = CliRunner().invoke(app, ["replay", str(run), KEY])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "disagrees with its own action log" in result.output
