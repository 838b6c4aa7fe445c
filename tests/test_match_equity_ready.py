"""A Minnesota Whist search strategy has its match equity measured when it is built,
outside every decision.

The equity (``whist_sim.search.match_equity.equity``) plays 2,000 heuristic deals of
the variant, one to two seconds, once per process. Measured in a decision, it passed
any time limit under that: the alarm stopped the measurement, so the cache never
filled and ``pimc`` (even with one world) forfeited every game it played under a
0.5 s limit, in process and in every Ray worker (a probe's finding).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import polars as pl
import pytest

from whist_sim.games import make_game
from whist_sim.play import play_deal
from whist_sim.search.match_equity import equity
from whist_sim.strategy import build_strategy

CONFIG = """
[tournament]
game = "minnesota_whist"
deals = 1
seed = 5
deals_per_task = 1
time_limit = 0.5

[variant]
target = 2

[[strategies]]
use = "pimc"
params = { worlds = 1, bid_worlds = 1 }

[[strategies]]
use = "heuristic"
"""


@pytest.mark.slow
def test_a_minnesota_search_player_built_for_a_variant_decides_within_half_a_second():
    game = make_game("minnesota_whist", {"target": 3})
    equity.cache_clear()
    search = build_strategy("pimc", {"worlds": 1, "bid_worlds": 1}, game)
    heuristic = build_strategy("heuristic", None, game)
    played = play_deal(game, [search, heuristic, search, heuristic], seed=1, time_limit=0.5)
    assert played.outcome.error is None, played.outcome.error


@pytest.mark.slow
def test_a_minnesota_run_of_pimc_under_half_a_second_a_decision_has_no_forfeits(tmp_path: Path):
    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.runner import run_tournament

    equity.cache_clear()
    summary = run_tournament(validate_config(tomllib.loads(CONFIG)), tmp_path / "run",
                             workers=0, progress=False)
    deals = pl.read_parquet(summary.path / "data" / "deals")
    assert deals["status"].to_list() == ["ok"] * deals.height, deals["error"].to_list()
