"""Isolated strategies cannot cheat: nothing of the deal is in their process.

Three cheaters (tests/plugins/cheaters.py) are the German heuristic plus a cheat: a
peeker looks for the hidden cards up its callers' frames and in the garbage collector,
a forger rewrites its deal's outcome, a patcher rewrites the engine's scoring. Played
with ``isolate = true`` against ``random`` on 100 deals (200 duplicate hands each),
they find nothing, change nothing, and their rows equal their honest twin's. In the
engine's process the same code does cheat: that is what "trusted code" means.
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.tournament_helpers import run_rows, write_config
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

pytestmark = pytest.mark.slow  # every test here plays whole runs (seconds each)

CHEATERS = ("peeker", "forger", "patcher")
DEALS = 100
"""Deals each cheater plays against random: a cheat that worked would show at the first."""

CONFIG = """
[tournament]
game = "german_whist"
deals = {deals}
seed = 5
format = "gauntlet"
candidates = ["random"]

[[strategies]]
use = "heuristic"
label = "twin"
{entries}
[[strategies]]
use = "random"
"""

ENTRY = """
[[strategies]]
use = "tests.plugins.cheaters:{cls}"
label = "{label}"
{extra}
"""


def _body(deals: int, isolate: bool, log: str) -> str:
    extra = f'isolate = true\nenv = {{ WHIST_SIM_CHEAT_LOG = "{log}" }}' if isolate else ""
    entries = "".join(ENTRY.format(cls=label.capitalize(), label=label, extra=extra)
                      for label in CHEATERS)
    return CONFIG.format(deals=deals, entries=entries)


def _as_played_by(rows: dict[str, pl.DataFrame], label: str) -> dict[str, pl.DataFrame]:
    """The rows of ``label``'s line-up against random, without names or line-up numbers."""
    deals = rows["deals"].filter(pl.col("strategies").list.contains(label))
    keys = deals.select("deal_key", "deal", "rotation", "hand")
    out = {}
    for table, columns in (("deals", ["status", "hands", "stock"]),
                           ("seats", ["seat", "tricks", "net", "result"]),
                           ("actions", ["step", "seat", "action"])):
        frame = rows[table].join(keys, on=["deal_key", "deal", "rotation", "hand"])
        out[table] = frame.select("deal", "rotation", "hand", *columns).sort(
            "deal", "rotation", "hand", *columns[:1])
    return out


@pytest.fixture(scope="module")
def isolated(tmp_path_factory, ray_cluster):
    folder = tmp_path_factory.mktemp("isolated")
    log = folder / "cheats.log"
    config = load_config(write_config(folder, _body(DEALS, True, str(log))))
    summary = run_tournament(config, folder / "run", progress=False)
    assert summary.status == "complete"
    return run_rows(summary.path), log.read_text().splitlines()


def test_isolated_cheaters_find_and_change_nothing(isolated):
    _, log = isolated
    assert log, "the cheaters ran"
    peeks = [line for line in log if line.startswith("peek")]
    forges = [line for line in log if line.startswith("forge")]
    assert peeks and set(peeks) == {"peek nothing"}
    assert forges and set(forges) == {"forge nothing"}
    assert "patch done" in log  # it patched the copy of the engine in its own process...


@pytest.mark.parametrize("label", CHEATERS)
def test_an_isolated_cheater_plays_exactly_as_its_honest_twin(isolated, label):
    rows, _ = isolated
    mine, twin = _as_played_by(rows, label), _as_played_by(rows, "twin")
    assert mine["deals"].height == 2 * DEALS  # both seatings of each deal
    for table in mine:
        assert mine[table].equals(twin[table]), table  # ...which scored nothing here


def test_in_the_engines_process_the_same_code_does_cheat(tmp_path, monkeypatch):
    from whist_sim.games import german_whist

    # the patcher rewrites the engine of the process it runs in, this one: undo it after
    monkeypatch.setattr(german_whist, "_outcome", german_whist._outcome)
    log = tmp_path / "cheats.log"
    monkeypatch.setenv("WHIST_SIM_CHEAT_LOG", str(log))
    config = load_config(write_config(tmp_path, _body(6, False, "")))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    lines = log.read_text().splitlines()
    assert any(line.startswith("peek opponent") for line in lines)  # it saw hidden cards
    assert "forge done" in lines and "patch done" in lines
    rows = run_rows(summary.path)
    drawn = rows["seats"].filter(pl.col("result") == "draw")
    assert drawn.height > 0  # the patched scoring reached deals it did not even play
