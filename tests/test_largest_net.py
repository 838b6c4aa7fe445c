"""The most a seat can win or lose by in one hand, which a duel's tests lean on.

A Solo or Minnesota duel's pair value is a mean of nets, so it lies within the game's
``largest_net``; pairs that all agree are read against that bound (docs/statistics.md,
"Pairs that all agree"). A bound too small would make those tests decide too soon,
so every net a played hand gives must lie within it, under every scoring variant, and
the bound must be met where the rules reach it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies.random_play import RandomStrategy
from whist_sim.games import make_game
from whist_sim.play import play_deal

NET_VARIANTS = [
    ("solo_whist", {}, 24.0),
    ("solo_whist", {"payments": "classic"}, 18.0),
    ("solo_whist", {"overtricks": True}, 42.0),
    ("solo_whist", {"stake": 0.5, "prop_and_cop": False}, 12.0),
    ("minnesota_whist", {}, 14.0),
    ("minnesota_whist", {"scoring": "pagat"}, 13.0),
    ("minnesota_whist", {"scoring": "pagat", "target": 5}, 7.0),
    ("minnesota_whist", {"target": 30}, 30.0),
]


@pytest.mark.parametrize(("game", "variant", "largest"), NET_VARIANTS)
def test_the_largest_net_follows_the_scoring_rules(game, variant, largest):
    """Solo: three defenders pay a lone declarer (Abundance Declared, 8 units, the most;
    classic 6), overtricks add up to 9 to Abundance's 5, a forfeit pays three times the
    Abundance Declared amount. Minnesota: defenders who take all 13 tricks of a grand
    score 14 by default (7 under pagat), a forfeit gives the other side the target."""
    assert make_game(game, variant).variant.largest_net() == largest


def test_games_not_scored_in_net_points_have_no_largest_net():
    assert make_game("german_whist").variant.largest_net() is None
    assert make_game("knockout_whist", players=3).variant.largest_net() is None


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(NET_VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_no_hand_nets_more_than_the_largest_net(case, seed):
    game_name, variant, _largest = case
    game = make_game(game_name, variant)
    played = play_deal(game, [RandomStrategy() for _ in range(4)], seed)
    largest = game.variant.largest_net()
    assert all(abs(net) <= largest for net in played.outcome.net), played.outcome.net


@pytest.mark.parametrize(("game", "variant", "largest"), NET_VARIANTS)
def test_a_forfeit_nets_no_more_than_the_largest_net(game, variant, largest):
    """A forfeit is where Solo's default bound is met: the forfeiter pays 24."""
    deal = make_game(game, variant).new_deal(seed=5, dealer=0)
    outcome = deal.forfeit(0, "broken")
    assert max(abs(net) for net in outcome.net) <= largest
    if game == "solo_whist" and not variant.get("overtricks"):
        assert max(abs(net) for net in outcome.net) == largest
