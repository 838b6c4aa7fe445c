"""What docs/results.md says the columns mean, checked on runs of each game: what
``matches.points`` sums, what a won hand is, which nulls spoken bidding leaves, what
``upcard`` holds, which ``ended_by`` a game ends with when both could apply."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tests.tournament_helpers import make_run_without_ray
from whist_sim.store import RunFolder

BODY = """
[tournament]
game = "{game}"
deals = {deals}
seed = 3
{extra}

[variant]
{variant}

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
"""

MATCH = ["pairing", "deal", "rotation"]


def _run(tmp_path: Path, game: str, deals: int = 3, extra: str = "",
         variant: str = "") -> RunFolder:
    folder = tmp_path / game
    folder.mkdir(parents=True, exist_ok=True)
    run = make_run_without_ray(folder, BODY.format(game=game, deals=deals, extra=extra,
                                                   variant=variant), per_task=50)
    return RunFolder.open(run)


def _sums(run: RunFolder) -> pl.DataFrame:
    seats = run.scan("seats").collect()
    sums = seats.group_by([*MATCH, "seat"]).agg(
        pl.col("net").sum().alias("sum_net"), pl.col("score").sum().alias("sum_score"),
        (pl.col("result") == "win").sum().alias("won"))
    return run.scan("matches").collect().join(sums, on=[*MATCH, "seat"])


@pytest.mark.parametrize("game,extra", [("german_whist", 'match = "best_of_3"'),
                                        ("solo_whist", "")])
def test_match_points_are_the_sum_of_net_and_hands_won_count_won_hands(tmp_path, game, extra):
    if game == "german_whist":
        matches = _sums(_run(tmp_path, game, variant=extra))
    else:
        matches = _sums(_run(tmp_path, game, deals=1))
    assert (matches["points"] == matches["sum_net"]).all()
    assert (matches["hands_won"] == matches["won"]).all()


def test_minnesota_match_points_are_the_sides_final_score_not_the_sum_of_net(tmp_path):
    matches = _sums(_run(tmp_path, "minnesota_whist", deals=4))
    assert (matches["points"] == matches["sum_score"]).all()
    differs = matches.filter(pl.col("points") != pl.col("sum_net"))
    assert differs.height > 0  # they agree only where the other side scored nothing
    assert (matches["hands_won"] == matches["won"]).all()  # deals with net > 0


def test_minnesota_spoken_bidding_leaves_laid_as_four_nulls_and_card_bidding_calls_empty(
    tmp_path,
):
    spoken = _run(tmp_path / "spoken", "minnesota_whist", deals=2, variant='bid = "spoken"')
    deals = spoken.scan("deals").collect()
    assert all(laid == [None] * 4 for laid in deals["laid"].to_list())
    assert all(turned == [] for turned in deals["turned"].to_list())
    assert all(call.count(":") >= 1 for call in deals["calls"].to_list())
    cards = _run(tmp_path / "cards", "minnesota_whist", deals=2).scan("deals").collect()
    assert set(cards["calls"].to_list()) == {""}
    assert deals["upcard"].null_count() == deals.height


def test_solo_play_out_not_set_is_null_in_the_variant(tmp_path):
    deals = _run(tmp_path, "solo_whist", deals=1).scan("deals").collect()
    variant = json.loads(deals["variant"][0])
    assert variant["play_out"] is None and variant["overtricks"] is False


def test_upcard_is_the_first_stock_card_in_german_whist(tmp_path):
    deals = _run(tmp_path, "german_whist").scan("deals").collect()
    for upcard, stock, trump in deals.select("upcard", "stock", "trump").iter_rows():
        assert stock.split()[0] == upcard and trump == upcard[-1]


def test_knockout_upcard_is_round_ones_trump_and_final_round_wins_over_last_player(tmp_path):
    run = _run(tmp_path, "knockout_whist", deals=20, extra="players = 3")
    deals = run.scan("deals").collect()
    rounds = run.scan("rounds").collect()
    first = rounds.filter(pl.col("round") == 1).group_by("deal_key").agg(pl.col("trump").first())
    joined = deals.join(first, on="deal_key")
    assert (joined["upcard"].str.slice(-1) == joined["trump_right"]).all()
    # a game whose seventh round leaves one full player ended by the final round
    last = rounds.filter(pl.col("round") == 7).group_by("deal_key").agg(
        (~pl.col("knocked_out")).sum().alias("left"))
    seventh = deals.join(last, on="deal_key")
    assert (seventh["left"] == 1).any()  # both rules could apply
    assert set(seventh["ended_by"]) == {"final_round"}
    assert set(deals.filter(pl.col("rounds_played") < 7)["ended_by"]) <= {"last_player"}
