"""Two budgets of one search strategy, unlabelled, are two entrants from config to report.

An entry with parameters and no label is named after them (``pimc(worlds=40)``), so a
config may enter ``pimc`` twice at different budgets without naming either. One small
Solo Whist tournament on Ray (2 deals), then its results and its report.
"""

from __future__ import annotations

import json

import polars as pl

from strategies.pimc import Pimc
from tests.tournament_helpers import run_rows, write_config
from whist_sim.reports.build import build_report
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

CONFIG = """
[tournament]
game = "solo_whist"
deals = 2
seed = 5
deals_per_task = 1
on_error = "abort"

[[strategies]]
use = "pimc"
params = {worlds = 2, compiled = false}

[[strategies]]
use = "pimc"
params = {worlds = 3, compiled = false}
"""
LOW = "pimc(compiled=False, worlds=2)"
HIGH = "pimc(compiled=False, worlds=3)"
PARAMS = {LOW: {"worlds": 2, "compiled": False}, HIGH: {"worlds": 3, "compiled": False}}


def entrant_rows(markdown: str) -> dict[str, list[str]]:
    """The Entrants table of report.md: label -> its cells (strategy, params, version)."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if "Entrants" in line)
    header = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    rows: dict[str, list[str]] = {}
    for line in lines[header + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


def test_two_budgets_of_pimc_are_two_entries_in_results_and_report(tmp_path, ray_cluster):
    config = load_config(write_config(tmp_path, CONFIG))
    assert [entry.name for entry in config.strategies] == [LOW, HIGH]
    assert config.labels() == [LOW, HIGH]

    summary = run_tournament(config, tmp_path / "run", workers=2, progress=False)

    # run.json: both entrants with their own parameters
    meta = json.loads((summary.path / "run.json").read_text())
    assert meta["status"] == "complete"
    assert set(meta["strategies"]) == {LOW, HIGH}
    for label, params in PARAMS.items():
        assert meta["strategies"][label]["use"] == "pimc"
        assert meta["strategies"][label]["params"] == params

    # the tables: every seat of every hand played by one of the two, each in two seats
    rows = run_rows(summary.path)
    seats = rows["seats"]
    assert set(seats["strategy"].unique()) == {LOW, HIGH}
    per_hand = seats.group_by("deal_key").agg(
        pl.col("strategy").filter(pl.col("strategy") == LOW).len().alias("low"),
        pl.col("strategy").filter(pl.col("strategy") == HIGH).len().alias("high"),
    )
    assert per_hand.height == rows["deals"].height > 0
    assert (per_hand["low"] == 2).all() and (per_hand["high"] == 2).all()
    assert (rows["deals"]["status"] == "ok").all()

    # the report: two entrants, each with its parameters, and no merged "pimc" entry
    paths = build_report(summary.path)
    markdown = paths.markdown.read_text()
    entrants = entrant_rows(markdown)
    for label, params in PARAMS.items():
        strategy, shown_params, version = entrants[label]
        assert strategy == "pimc"
        assert json.loads(shown_params) == params
        assert version == Pimc.version
        # a row of its own in the analyses too (standings, head to head, ...)
        assert sum(line.startswith(f"| {label} |") for line in markdown.splitlines()) >= 3
    assert set(entrants) == {LOW, HIGH}, entrants
