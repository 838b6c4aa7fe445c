"""The complete plug-in of docs/writing-a-strategy.md, taken from the page itself: it
conforms (``check_strategy``) and beats ``random`` in a duplicate duel, as the page says."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import polars as pl
import pytest

from whist_sim.checking import check_strategy
from whist_sim.store import RunFolder
from whist_sim.tournament.duel import duel_config, run_duel

PAGE = Path(__file__).resolve().parent.parent / "docs" / "writing-a-strategy.md"


@pytest.fixture
def greedy_package(tmp_path, monkeypatch):
    """``mywhist.greedy`` written from the page's code block, importable."""
    blocks = re.findall(r"```python\n(# mywhist/greedy\.py\n.*?)```", PAGE.read_text(), re.DOTALL)
    assert len(blocks) == 1, "the page must show mywhist/greedy.py once"
    package = tmp_path / "mywhist"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "greedy.py").write_text(blocks[0])
    monkeypatch.syspath_prepend(str(tmp_path))
    path = [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))  # the supervised sample's child
    yield "mywhist.greedy:Greedy"
    for name in [m for m in sys.modules if m == "mywhist" or m.startswith("mywhist.")]:
        del sys.modules[name]


def test_the_example_conforms(greedy_package):
    report = check_strategy(greedy_package, deals=4)
    assert report.games == ("german_whist",)


def test_the_example_beats_random(greedy_package, tmp_path):
    config = duel_config(greedy_package, "random", "german_whist", max_deals=100, seed=0,
                         time_limit=10.0)
    summary = run_duel(config, tmp_path / "duel", workers=0, progress=False)
    assert summary.status == "complete"
    seats = RunFolder.open(tmp_path / "duel").scan("seats").collect()
    won = seats.group_by("strategy").agg(pl.col("result").eq("win").mean())
    rates = dict(zip(won["strategy"], won["result"], strict=True))
    greedy = summary.labels[0]
    assert set(rates) == {greedy, "random"}
    assert rates[greedy] > 0.75 > rates["random"], rates  # the page measures 0.944 on 4,000
    assert summary.verdict is not None and "is stronger than random" in summary.verdict_text()
