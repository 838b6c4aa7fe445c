"""The ``heuristic`` Minnesota Whist strategy: legal everywhere, sensible in set positions, strong.

The 2,000-game strength targets are measured by benchmarks/minnesota_heuristic_strength.py;
the statistical test here is a cheap sanity check on 100 games.
"""

from __future__ import annotations

import random

import pytest

from strategies.minnesota_heuristic import MinnesotaHeuristic, hand_value
from strategies.random_play import RandomStrategy
from whist_sim.cards import card_str, parse_card_list, parse_cards
from whist_sim.games import make_game
from whist_sim.games.minnesota_whist import GRAND, PASS, MinnesotaWhist, MinnesotaWhistVariant
from whist_sim.play import play_deal, play_match
from whist_sim.strategy import StrategyError, build_strategy

RNG = random.Random(0)  # the heuristic ignores its rng; any generator will do


def choose(state, seat: int, **params) -> int:
    view = state.view(seat)
    assert view.legal, f"seat {seat} is not to act"
    return MinnesotaHeuristic(**params).choose(view, RNG)


def choose_card(state, seat: int) -> str:
    return card_str(choose(state, seat))


def apply(state, cards: str) -> None:
    for card in parse_card_list(cards):
        state.apply(card)


def layout(seat1: str, dealer: int = 0, variant: MinnesotaWhistVariant | None = None):
    """A deal giving seat 1 the hand ``seat1`` and dealing the other cards in order."""
    rest = [c for c in range(52) if not parse_cards(seat1) >> c & 1]
    hands = [" ".join(card_str(c) for c in rest[13 * i : 13 * i + 13]) for i in range(3)]
    return MinnesotaWhist(variant or MinnesotaWhistVariant()).deal_from_layout(
        (hands[0], seat1, hands[1], hands[2]), dealer
    )


# -- legal play in every variant ---------------------------------------------------------

VARIANTS = [{}, {"scoring": "pagat"}, {"bid": "spoken"}, {"target": 5},
            {"bid": "spoken", "scoring": "pagat", "target": 5}]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: str(v) or "default")
def test_plays_only_legal_actions_in_every_variant(variant):
    game = make_game("minnesota_whist", variant)
    heuristic, rand = MinnesotaHeuristic(), RandomStrategy()
    line_ups = ([heuristic, rand, heuristic, rand], [rand, heuristic, rand, heuristic],
                [heuristic] * 4)
    for seed in range(12):
        for seats in line_ups:
            # on_error="abort" raises on any illegal action or exception
            play_deal(game, seats, seed, seed % 4, on_error="abort")
    _, result = play_match(game, line_ups[2], 99, on_error="abort")
    assert max(result["match_points"]) >= game.variant.target


def test_is_deterministic_and_ignores_its_rng():
    game = make_game("minnesota_whist", {})
    first = play_deal(game, [MinnesotaHeuristic()] * 4, 7, 0)
    again = play_deal(game, [MinnesotaHeuristic()] * 4, 7, 0)
    assert first.state.log == again.state.log


# -- bidding by laid cards ------------------------------------------------------------------

STRONG = "AS KS QS JS AH KH QH AD KD QD AC KC 2C"
WEAK = "2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 5D 6D 2C"


def test_grands_with_a_very_strong_hand_laying_its_lowest_black_card():
    assert hand_value(parse_cards(STRONG), 1.0) >= 30
    assert choose_card(layout(STRONG), 1) == "2C"


def test_passes_with_a_weak_hand_laying_a_low_card_of_its_longest_red_suit():
    assert choose_card(layout(WEAK), 1) == "2D"


def test_cannot_grand_without_a_black_card():
    assert choose_card(layout("AH KH QH JH TH 9H 8H AD KD QD JD TD 9D"), 1) == "8H"


def test_must_grand_without_a_red_card_laying_from_the_longer_black_suit():
    assert choose_card(layout("2S 3S 4S 5S 6S 7S 8S 2C 3C 4C 5C 6C 7C"), 1) == "2S"


# 13 high-card points and a fifth spade: value 14, one short of the default threshold 15.
# Seat 1's partner is seat 3; seats 0 and 2 are its opponents.
BORDERLINE = "AS KS QS 3S 2S AH 3H 2H 4D 3D 2D 3C 2C"


def test_lays_a_borderline_hand_as_if_the_players_turned_before_it_had_passed():
    assert hand_value(parse_cards(BORDERLINE), 1.0) == 14
    first = layout(BORDERLINE, dealer=0)  # seat 1's card is turned first
    assert choose_card(first, 1) == "2H"  # red: a pass
    second = layout(BORDERLINE, dealer=3)  # seat 0's card is turned before seat 1's
    apply(second, "4H")
    assert choose_card(second, 1) == "2S"  # black: a grand, since seat 0 must have passed
    assert card_str(choose(second, 1, bid_adjust=0)) == "2H"
    last = layout(BORDERLINE, dealer=1)  # seat 1 deals: both opponents and partner first
    apply(last, "9H KD 4H")  # laid by seats 2, 3, 0
    assert choose_card(last, 1) == "2S"


# -- spoken bidding -------------------------------------------------------------------------

def spoken(seat1: str, dealer: int = 0):
    return layout(seat1, dealer, MinnesotaWhistVariant(bid="spoken"))


def test_spoken_grand_and_pass():
    assert choose(spoken(STRONG), 1) == GRAND
    assert choose(spoken(WEAK), 1) == PASS


def test_spoken_bidding_counts_the_passes_heard():
    assert choose(spoken(BORDERLINE), 1) == PASS  # first to speak
    after_opponent = spoken(BORDERLINE, dealer=3)
    after_opponent.apply(PASS)  # seat 0, an opponent: the bar drops
    assert choose(after_opponent, 1) == GRAND
    assert choose(after_opponent, 1, bid_adjust=0) == PASS
    after_partner = spoken(BORDERLINE, dealer=2)
    after_partner.apply(PASS)  # seat 3, the partner: the bar rises again
    after_partner.apply(PASS)  # seat 0, an opponent
    assert choose(after_partner, 1) == PASS


# -- play in a grand hand -------------------------------------------------------------------

# Seat 1 grands (its 2S is turned first); seat 0, the grander's right-hand neighbour, leads.
GRAND_DEAL = (
    "QS 5S 4S AH KH QH JH TH 9H 8H 7H 6H 5H",
    "2S 4H 3H 2H AD KD QD JD TD 9D 8D 7D 6D",
    "AS KS 3S 5D 4D 3D 2D AC KC QC JC TC 9C",
    "JS TS 9S 8S 7S 6S 8C 7C 6C 5C 4C 3C 2C",
)


def grand_deal():
    state = MinnesotaWhist().deal_from_layout(GRAND_DEAL, dealer=0)
    apply(state, "2S 5D 8C AH")  # laid by seats 1, 2, 3, 0: the first, black, grands
    view = state.view(0)
    assert view.grand and view.grander == 1 and view.leader == 0
    return state


def test_grand_does_not_overtake_a_partner_card_that_holds():
    state = grand_deal()
    apply(state, "QS 2S")  # seat 2 holds AS KS: partner's queen cannot be beaten
    assert choose_card(state, 2) == "3S"


def test_grand_third_hand_wins_cheaply_over_a_partner_card_that_may_be_beaten():
    state = grand_deal()
    apply(state, "4S 2S")  # seat 3 may hold spades above the four
    assert choose_card(state, 2) == "KS"  # the king is as safe as the ace


def test_grand_last_hand_wins_as_cheaply_as_it_can():
    state = grand_deal()
    apply(state, "4S 2S 3S")
    assert choose_card(state, 3) == "6S"


def test_grand_discards_the_lowest_card_that_is_not_safe():
    state = grand_deal()
    apply(state, "AH 4H")
    assert choose_card(state, 2) == "2D"  # not the 9C, which no one can beat
    apply(state, "2D")
    assert choose_card(state, 3) == "2C"


def test_grand_cashes_the_lowest_of_its_run_of_safe_cards():
    # AH down to 5H cannot be beaten; the grander holds 4H 3H 2H
    assert choose_card(grand_deal(), 0) == "5H"


# -- play in a null hand --------------------------------------------------------------------

# All four lay red: a null hand, led by the dealer's left (seat 1).
NULL_DEAL = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2D",
    "9H 2S AC KC QC JC TC 9C 8C 7C 6C 5C AD",
    "KH TH 8H 2H KD QD JD TD 9D 8D 7D 4C 3C",
    "AH QH JH 7H 6H 5H 4H 3H 6D 5D 4D 3D 2C",
)


def null_deal():
    state = MinnesotaWhist().deal_from_layout(NULL_DEAL, dealer=0)
    apply(state, "9H 2H 3H 2D")
    view = state.view(1)
    assert not view.grand and view.grander == -1 and view.leader == 1
    return state


def test_null_leads_the_surest_loser_of_a_short_suit():
    assert choose_card(null_deal(), 1) == "2S"  # every other spade is higher


def test_null_ducks_with_the_highest_card_that_still_loses():
    state = null_deal()
    apply(state, "9H")
    assert choose_card(state, 2) == "8H"


def test_null_lets_a_partner_card_stand_by_ducking_under_it():
    state = null_deal()
    apply(state, "9H 8H")  # partner (seat 1) is winning; seat 0 still to play
    assert choose_card(state, 3) == "7H"


def test_null_void_discards_a_dangerous_card_not_an_exit_card():
    state = null_deal()
    apply(state, "9H 8H 7H")
    assert choose_card(state, 0) == "AS"  # keeps the 2D, which can never win a trick


def test_null_takes_a_trick_it_cannot_lose_with_its_highest_card():
    state = null_deal()
    apply(state, "9H 8H 7H AS")  # seat 1 wins and leads the two of spades
    apply(state, "2S KD AH")  # seats 2 and 3 hold no spade
    assert choose_card(state, 0) == "KS"


# -- strength and parameters ---------------------------------------------------------------

def test_beats_random_over_100_duplicate_games():
    game = make_game("minnesota_whist", {})
    heuristic, rand = MinnesotaHeuristic(), RandomStrategy()
    won = net = deals = 0
    for seed in range(50):
        for side, seats in enumerate(([heuristic, rand] * 2, [rand, heuristic] * 2)):
            played, result = play_match(game, seats, seed, on_error="abort")
            won += result["match_result"][side] == "win"
            net += sum(deal.outcome.net[side] for deal in played)
            deals += len(played)
    assert won >= 95
    assert net / deals >= 3.5


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"grand_threshold": -1}, "grand_threshold"),
        ({"grand_threshold": "high"}, "grand_threshold"),
        ({"length_points": True}, "length_points"),
        ({"bid_adjust": 20}, "bid_adjust"),
    ],
)
def test_rejects_bad_parameters_naming_them(params, named):
    with pytest.raises(ValueError, match=f"{named} = .* allowed values"):
        MinnesotaHeuristic(**params)
    with pytest.raises(StrategyError, match=named):
        build_strategy("heuristic", params, "minnesota_whist")


def test_is_registered_as_heuristic_with_parameters():
    strategy = build_strategy("heuristic", {"grand_threshold": 18}, "minnesota_whist")
    assert isinstance(strategy, MinnesotaHeuristic)
    assert strategy.grand_threshold == 18
