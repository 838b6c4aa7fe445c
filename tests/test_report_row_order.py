"""A report depends on a run's rows, not on the order they are stored or read in.

The same tournament played with another task size, on more workers or resumed halfway
stores the same rows in another order (units are committed as tasks finish), and Polars
hands a group's rows to an aggregation in whatever order its threads produced them. A sum
of fractions taken in another order can differ in its last bit, and a report's CSV tables
carry every bit: two builds on one run folder wrote ``3.5082042940200724`` and
``3.508204294020072`` in ``seat_position.csv``. A reader who diffs two reports of one
tournament must see no difference, so here every table a report writes, and its page, is
the same byte for byte when every table of the run is read in a shuffled order.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from whist_sim.reports.build import build_report
from whist_sim.store import RunFolder
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
GAMES = {
    "german_whist": ("quickstart.toml", {"deals": 30}),
    "solo_whist": ("solo_bidding.toml", {"deals": 6}),
    "minnesota_whist": ("minnesota.toml", {"deals": 6}),
    "knockout_whist": ("knockout_survival.toml", {"deals": 6}),
}


def report_files(run: Path, out: Path) -> dict[str, bytes]:
    """Every table the report writes and its Markdown page, by name."""
    paths = build_report(run, out)
    files = {path.name: path.read_bytes() for path in paths.tables}
    files["report.md"] = paths.markdown.read_bytes()
    return files


def read_shuffled(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make every table of every run read in an order shuffled by ``seed``."""
    in_stored_order = RunFolder.scan

    def shuffled(folder: RunFolder, table: str) -> pl.LazyFrame:
        rows = in_stored_order(folder, table).collect()
        return rows.sample(fraction=1.0, shuffle=True, seed=seed).lazy()

    monkeypatch.setattr(RunFolder, "scan", shuffled)


@pytest.mark.parametrize("game", GAMES)
def test_a_report_is_the_same_byte_for_byte_whatever_order_its_rows_are_read_in(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    config_file, overrides = GAMES[game]
    config = load_config(CONFIGS / config_file, {**overrides, "deals_per_task": 4})
    run = run_tournament(config, tmp_path / "run", workers=0, progress=False).path
    stored = report_files(run, tmp_path / "stored")
    assert any(name.endswith(".csv") for name in stored)
    for seed in (1, 2):
        read_shuffled(monkeypatch, seed)
        shuffled = report_files(run, tmp_path / f"shuffled_{seed}")
        assert shuffled.keys() == stored.keys()
        differing = sorted(name for name in stored if shuffled[name] != stored[name])
        assert not differing, f"read in order {seed}, these differ: {differing}"
