"""Match equity (whist_sim.search.match_equity): win chances of a game to a target."""

from __future__ import annotations

import pytest

from whist_sim.games import make_game
from whist_sim.search.match_equity import MatchEquity, equity, points_distribution

ONE_POINT = {1: 1.0}
"""Every deal scores one point for one side: a game to ``target`` is a coin-flip race."""


def test_a_side_that_reached_the_target_has_won_and_one_the_other_reached_has_lost():
    table = MatchEquity(3, ONE_POINT)
    assert table.chance(3, 1) == 1.0
    assert table.chance(1, 3) == 0.0


def test_one_point_deals_give_the_chances_of_a_coin_flip_race():
    """First to 2 points, one point a deal: 1-1 is even, 1-0 wins unless the next two
    deals both go the other way (3/4), 0-0 is even."""
    table = MatchEquity(2, ONE_POINT)
    assert table.chance(1, 1) == pytest.approx(0.5)
    assert table.chance(1, 0) == pytest.approx(0.75)
    assert table.chance(0, 1) == pytest.approx(0.25)
    assert table.chance(0, 0) == pytest.approx(0.5)


@pytest.mark.parametrize("points", [{1: 0.5, 2: 0.3, 4: 0.2}, {1: 0.4, 3: 0.3, -2: 0.3}],
                         ids=["points_only_added", "points_also_lost"])
def test_chances_are_even_at_level_scores_and_the_two_sides_chances_sum_to_one(points):
    table = MatchEquity(13, points)
    for ours in range(-13, 13):
        assert table.chance(ours, ours) == pytest.approx(0.5)
        for theirs in range(-13, 13):
            assert table.chance(ours, theirs) + table.chance(theirs, ours) == pytest.approx(1)


@pytest.mark.parametrize("points", [{1: 0.5, 2: 0.3, 4: 0.2}, {1: 0.4, 3: 0.3, -2: 0.3}],
                         ids=["points_only_added", "points_also_lost"])
def test_more_points_never_lower_a_sides_chance(points):
    table = MatchEquity(13, points)
    for theirs in range(-13, 13):
        chances = [table.chance(ours, theirs) for ours in range(-13, 14)]
        assert chances == sorted(chances)


def test_a_distribution_that_is_not_one_of_non_zero_scores_is_refused():
    with pytest.raises(ValueError, match="distribution over non-zero scores"):
        MatchEquity(13, {1: 0.5, 2: 0.4})
    with pytest.raises(ValueError, match="distribution over non-zero scores"):
        MatchEquity(13, {0: 0.5, 2: 0.5})
    with pytest.raises(ValueError, match="target must be at least 1"):
        MatchEquity(0, ONE_POINT)


@pytest.mark.parametrize("scoring", ["default", "pagat"])
def test_the_points_distribution_is_measured_from_heuristic_deals_of_the_variant(scoring):
    game = make_game("minnesota_whist", {"scoring": scoring})
    shares = points_distribution(game, deals=60, first_seed=0)
    assert sum(shares.values()) == pytest.approx(1)
    assert 0 not in shares
    assert any(p < 0 for p in shares) == (scoring == "pagat")  # pagat: null hands lose points
    assert points_distribution(game, deals=60, first_seed=0) == shares


@pytest.mark.slow
def test_equity_is_built_once_per_variant_and_follows_its_target():
    short = make_game("minnesota_whist", {"target": 7}).variant
    assert equity(short) is equity(short)
    assert equity(short).target == 7
    assert equity(short).chance(6, 0) > equity(make_game("minnesota_whist").variant).chance(6, 0)
