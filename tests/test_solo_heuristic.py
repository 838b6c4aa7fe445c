"""The Solo Whist ``heuristic``: legal in every variant, sensible in set positions, strong.

The 20,000-deal targets are measured by benchmarks/solo_heuristic_strength.py; the
statistical test here is a cheap sanity check on a few hundred duplicate deals.

Set positions are hand-built with ``SoloWhist().deal_from_layout``: the dealer's last
listed card is the upcard. ``layout`` fills the seats a test does not care about with
the remaining cards.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies.random_play import RandomStrategy
from strategies.solo_heuristic import (
    SoloHeuristic,
    best_sure_tricks,
    estimate_tricks,
    misere_risk,
    sure_tricks,
)
from whist_sim.cards import FULL_DECK, card_str, cards_str, parse_card, parse_cards
from whist_sim.checking import check_strategy
from whist_sim.games import make_game
from whist_sim.games.solo_whist import (
    ABUNDANCE,
    ABUNDANCE_DECLARED,
    COP,
    MISERE,
    NAME_TRUMP,
    PASS,
    PROP,
    ROYAL_ABUNDANCE,
    SOLO,
    SPREAD_MISERE,
    SoloWhist,
)
from whist_sim.play import play_deal, play_match
from whist_sim.strategy import StrategyError, build_strategy

RNG = random.Random(0)  # the heuristic ignores its rng; any generator will do
HEURISTIC = SoloHeuristic()


def layout(fixed: dict[int, str], upcard: str, dealer: int = 0):
    """A deal where the seats in ``fixed`` hold those cards, the dealer turned ``upcard``
    (it must be in the dealer's hand if the dealer is fixed) and the other seats share
    the remaining cards in order."""
    up = parse_card(upcard)
    rest = FULL_DECK & ~(1 << up)
    for seat, cards in fixed.items():
        mask = parse_cards(cards)
        if seat != dealer and mask >> up & 1:
            raise ValueError(f"the upcard {upcard} is the dealer's, not seat {seat}'s")
        if mask & ~rest & ~(1 << up):
            raise ValueError(f"seat {seat} holds {cards_str(mask & ~rest)}, dealt twice")
        rest &= ~mask
    spare = [c for c in range(52) if rest >> c & 1]
    hands = []
    for seat in range(4):
        if seat in fixed:
            cards = [card for card in fixed[seat].split() if card != upcard]
        else:
            need = 13 - (seat == dealer)
            cards, spare = [card_str(c) for c in spare[:need]], spare[need:]
        if seat == dealer:
            cards.append(upcard)
        hands.append(" ".join(cards))
    return SoloWhist().deal_from_layout(tuple(hands), dealer)


def choose(state, strategy: SoloHeuristic = HEURISTIC) -> int:
    """The heuristic's choice for the seat to act."""
    seat = state.to_act
    action = strategy.choose(state.view(seat), RNG)
    assert state.view(seat).legal >> action & 1, f"seat {seat} chose an illegal action"
    return action


def apply(state, *actions) -> None:
    for action in actions:
        state.apply(parse_card(action) if isinstance(action, str) else action)


# -- legal play in every variant ---------------------------------------------------------

VARIANTS = [
    {},
    {"payments": "classic", "stake": 2},
    {"prop_and_cop": False},
    {"upcard": False},
    {"upcard": False, "prop_and_cop": False},
    {"overtricks": True},
    {"play_out": True},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: str(v) or "default")
def test_plays_only_legal_actions_in_every_variant(variant):
    game = make_game("solo_whist", variant)
    heuristic, rand = SoloHeuristic(), RandomStrategy()
    line_ups = ([heuristic] * 4, [heuristic, rand, heuristic, rand], [rand, heuristic] * 2)
    for seed in range(40):
        for seats in line_ups:
            # on_error="abort" raises on any illegal action or exception
            play_deal(game, seats, seed, seed % 4, on_error="abort")


def test_plays_a_session():
    game = make_game("solo_whist", {"session_hands": 8})
    played, _ = play_match(game, [SoloHeuristic()] * 4, 3, on_error="abort")
    assert len(played) == 8


def test_passes_the_strategy_conformance_check():
    report = check_strategy("strategies.solo_heuristic:SoloHeuristic", games=["solo_whist"])
    assert report.decisions > 0


def test_bids_in_self_play_under_every_variant():
    """Solo and Misère are bid under every variant, Prop only where the variant allows it."""
    for variant in ({}, {"upcard": False}, {"prop_and_cop": False}):
        game = make_game("solo_whist", variant)
        contracts = set()
        for seed in range(300):
            deal = play_deal(game, [HEURISTIC] * 4, seed, seed % 4, on_error="abort")
            contracts.add(deal.outcome.facts["contract"])
        assert {"solo", "misere"} <= contracts
        assert ("prop_and_cop" in contracts) == variant.get("prop_and_cop", True)
        if not variant.get("upcard", True):
            assert "royal_abundance" not in contracts


# -- parameters --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("solo_tricks", -1), ("solo_tricks", "5"), ("prop_tricks", 25), ("cop_tricks", True),
        ("misere_risk", 1.5), ("spread_risk", -0.1), ("abundance_tricks", None),
        ("declared_tricks", 21), ("aggression", 6),
    ],
)
def test_rejects_a_bad_parameter_naming_it(name, value):
    with pytest.raises(ValueError, match=f"{name} = .* allowed values"):
        SoloHeuristic(**{name: value})


def test_builds_from_a_config_and_rejects_unknown_parameters():
    spec = "strategies.solo_heuristic:SoloHeuristic"
    strategy = build_strategy(spec, {"solo_tricks": 6, "aggression": -0.5}, "solo_whist")
    assert strategy.solo_tricks == 6.0 and strategy.aggression == -0.5
    with pytest.raises(StrategyError, match="unknown parameter 'boldness'"):
        build_strategy(spec, {"boldness": 1}, "solo_whist")
    with pytest.raises(StrategyError, match="does not play german_whist"):
        build_strategy(spec, {}, "german_whist")


def test_is_deterministic_and_ignores_its_rng():
    game = make_game("solo_whist", {})
    for seed in range(5):
        first = play_deal(game, [SoloHeuristic()] * 4, seed, seed % 4)
        again = play_deal(game, [SoloHeuristic()] * 4, seed, seed % 4)
        assert first.state.log == again.state.log


def test_aggression_bids_more():
    game = make_game("solo_whist", {})
    def contracts(strategy):
        return sum(
            play_deal(game, [strategy] * 4, s, s % 4).outcome.facts["contract"] is not None
            for s in range(200)
        )
    assert contracts(SoloHeuristic(aggression=1)) > contracts(SoloHeuristic())
    assert contracts(SoloHeuristic(aggression=-1)) < contracts(SoloHeuristic())


# -- hand evaluation -----------------------------------------------------------------------

def test_estimates_more_tricks_for_more_trumps_and_honours():
    hand = parse_cards("AS KS QS JS 5S AH KH 4D 3D 2D 4C 3C 2C")
    assert estimate_tricks(hand, 0) > estimate_tricks(hand, 1) + 2
    weaker = parse_cards("AS KS QS 6S 5S AH KH 4D 3D 2D 4C 3C 2C")
    assert estimate_tricks(hand, 0) > estimate_tricks(weaker, 0)


def test_misere_risk_grows_with_high_cards():
    low = parse_cards("2S 3S 4S 2H 3H 5H 2D 3D 4D 6D 2C 3C 4C")
    spotted = parse_cards("2S 5S 8S 2H 4H 7H 3D 6D 9D 2C 4C 6C 8C")
    lone_king = parse_cards("2S 3S 4S 2H 3H 5H 2D 3D 4D 6D 2C 3C KC")
    assert misere_risk(low) < 0.01
    assert misere_risk(low) < misere_risk(spotted) < misere_risk(lone_king)
    assert misere_risk(spotted, eldest=True) > misere_risk(spotted)


def test_sure_tricks_counts_suits_that_run_whatever_the_split():
    assert sure_tricks(parse_cards("AS KS QS JS TS 9S AH KH QH AD KD AC KC"), 0) == 13
    # spades A K Q and four small: the defenders may hold six, so only three are sure,
    # and the side suits may be ruffed: only their top sequences count
    assert sure_tricks(parse_cards("AS KS QS 5S 4S 3S 2S AH KH QH JH AD AC"), 0) == 9


@given(st.sets(st.integers(0, 51), max_size=13))
def test_best_sure_tricks_is_sure_tricks_in_the_best_trump_suit(cards):
    hand = sum(1 << card for card in cards)
    assert best_sure_tricks(hand) == max(sure_tricks(hand, suit) for suit in range(4))


# -- the auction -----------------------------------------------------------------------------

SOLO_HAND = "AS KS QS JS 5S AH KH 4D 3D 2D 4C 3C 2C"
WEAK_HAND = "QS 9S 7S JH TH 8H QD JD 9D KC 8C 7C 6C"
MISERE_HAND = "2S 5S 8S 2H 4H 7H 3D 6D 9D 2C 4C 6C 8C"
SPREAD_HAND = "2S 3S 4S 2H 3H 5H 2D 3D 4D 6D 2C 3C 4C"
HEARTS_HAND = "AH KH QH JH TH 9H 8H AD KD AC KC 3S 2S"


def test_bids_solo_on_a_clear_solo_hand():
    state = layout({1: SOLO_HAND}, upcard="TS")  # spades trumps; seat 1 is eldest
    assert choose(state) == SOLO


def test_passes_a_weak_hand():
    state = layout({1: WEAK_HAND}, upcard="TS")
    assert choose(state) == PASS


def test_bids_misere_on_a_clear_misere_hand():
    state = layout({2: MISERE_HAND}, upcard="TS")
    apply(state, PASS)  # seat 1
    assert choose(state) == MISERE


def test_bids_spread_misere_only_on_an_overwhelming_hand():
    state = layout({2: SPREAD_HAND}, upcard="TS")
    apply(state, PASS)
    assert choose(state) == SPREAD_MISERE


def test_abundance_names_its_long_suit_not_the_upcard_suit():
    state = layout({1: HEARTS_HAND}, upcard="TS")
    assert choose(state) == ABUNDANCE
    apply(state, ABUNDANCE, PASS, PASS, PASS)
    assert state.view(1).phase == "trump"
    assert choose(state) == NAME_TRUMP + 1  # hearts


def test_royal_abundance_when_the_long_suit_is_the_upcard_suit():
    state = layout({1: HEARTS_HAND}, upcard="4H")
    assert choose(state) == ROYAL_ABUNDANCE


def test_abundance_declared_only_with_all_thirteen_sure():
    state = layout({1: "AS KS QS JS TS 9S AH KH QH AD KD AC KC"}, upcard="2H")
    assert choose(state) == ABUNDANCE_DECLARED
    apply(state, ABUNDANCE_DECLARED, PASS, PASS, PASS)
    assert choose(state) == NAME_TRUMP + 0  # spades, the suit that makes all 13 sure
    assert state.view(1).legal  # the declarer leads
    state = layout({1: "AS KS QS 5S 4S 3S 2S AH KH QH JH AD AC"}, upcard="2H")
    assert choose(state) != ABUNDANCE_DECLARED


def test_cops_a_prop_with_support_and_not_without():
    support = "AH KH 5H 4H AD KD 6D 5D 4C 3C 2C 3S 2S"  # upcard hearts
    state = layout({2: support}, upcard="9H")
    apply(state, PROP)  # seat 1 proposes
    assert choose(state) == COP
    state = layout({2: WEAK_HAND}, upcard="9H")
    apply(state, PROP)
    assert choose(state) == PASS


def test_names_trumps_for_prop_and_solo_without_an_upcard():
    game = make_game("solo_whist", {"upcard": False})
    for seed in range(200):
        deal = play_deal(game, [HEURISTIC] * 4, seed, seed % 4, on_error="abort")
        facts = deal.outcome.facts
        if facts["contract"] in ("solo", "prop_and_cop"):
            hand = deal.state.initial_hands[facts["declarer"]]
            best = max(range(4), key=lambda suit: estimate_tricks(hand, suit))
            assert deal.state.trump == best, cards_str(hand)


# -- card play -----------------------------------------------------------------------------

def test_does_not_overtake_a_partners_winning_card_in_prop_and_cop():
    # seat 1 proposes, seat 3 cops; clubs are trumps (upcard 2C)
    state = layout(
        {
            1: "KH QH 5H AS 7S 6S AD 7D 6D AC QC 5C 4C",
            2: "2H 6H 7H 8H 2S 3S 4S 2D 3D 4D 3C 6C 7C",
            3: "AH 4H 3H KS QS 5S KD QD 5D KC JC 9C 8C",
        },
        upcard="2C",
    )
    apply(state, PROP, PASS, COP, PASS)
    apply(state, "KH", "2H")  # seat 1 leads the king, seat 2 follows low
    assert state.to_act == 3
    assert card_str(choose(state)) == "3H"  # the king holds: keep the ace


def test_wins_cheaply_when_an_opponent_is_winning():
    state = layout(
        {1: "QH 5H 4H AS 7S 6S AD 7D 6D AC QC 5C 4C",
         2: "AH KH JH 3H KS QS KD QD 5D KC JC 9C 8C"},
        upcard="2C",
    )
    apply(state, PASS, SOLO, PASS, PASS)  # seat 2 plays a Solo in clubs
    apply(state, "QH")  # eldest leads the queen of hearts
    assert card_str(choose(state)) == "KH"  # the king does it; the ace stays


def test_defenders_lead_trumps_against_abundance():
    # seat 2 bids Abundance in hearts; seat 1, the eldest defender, leads first
    state = layout(
        {1: "5H 4H AS 7S 6S QD 7D 6D 5D QC JC 5C 4C", 2: HEARTS_HAND},
        upcard="TS",
    )
    apply(state, PASS)
    assert choose(state) == ABUNDANCE
    apply(state, ABUNDANCE, PASS, PASS)
    apply(state, choose(state))  # seat 2 names hearts
    assert state.view(2).trump == 1 and state.to_act == 1
    assert choose(state) // 13 == 1  # a trump, not the ace of spades


def test_declarer_draws_trumps_with_the_master():
    state = layout({1: SOLO_HAND}, upcard="TS")
    apply(state, SOLO, PASS, PASS, PASS)
    assert state.to_act == 1 and state.view(1).trump == 0
    assert card_str(choose(state)) == "AS"


def test_misere_declarer_plays_the_highest_card_that_still_loses():
    state = layout({2: MISERE_HAND, 1: "AS QS 9S 3S AH KH QH AD KD AC KC QC JC"}, upcard="TH")
    apply(state, PASS, MISERE, PASS, PASS)
    apply(state, "9S")  # eldest leads the nine of spades
    assert card_str(choose(state)) == "8S"


def test_misere_declarer_discards_its_most_dangerous_card_when_void():
    state = layout(
        {2: "2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 2D QD",  # void in clubs
         1: "AS KS QS AH KH QH AD KD AC KC QC 3C 2C"},
        upcard="TH",
    )
    apply(state, PASS, MISERE, PASS, PASS)
    apply(state, "2C")
    assert card_str(choose(state)) == "QD"  # only the king and ace are above it


def test_misere_defenders_play_under_the_declarer():
    state = layout(
        {1: "2C AS KS QS AH KH QH AD KD QD JD TD 9D",
         2: "2S 3S 5S 2H 3H 4H 5H 2D 3D 4D 6D 7C 9C",  # the declarer
         3: "3C 5C KC 4S 6S 7S 8S 6H 7H 8H 9H 5D 7D"},
        upcard="TH",
    )
    apply(state, PASS, MISERE, PASS, PASS)
    apply(state, "2C", "7C")  # the declarer must go over the two
    assert card_str(choose(state)) == "5C"  # under him: he wins unless seat 0 overtakes


def test_misere_defenders_play_low_before_the_declarer():
    state = layout(
        {1: "5H AS KS QS AH KH QH AD KD JD TD KC QC",
         2: "6H 9H TH 9S TS 4D 5D 7D 8D 3C 5C 7C 9C",
         3: MISERE_HAND},  # the declarer plays after seat 2
        upcard="JC",
    )
    apply(state, PASS, PASS, MISERE, PASS)
    apply(state, "5H")
    assert card_str(choose(state)) == "6H"  # the lowest: the bar stays low for him


def test_misere_defenders_avoid_the_declarers_void_suits():
    state = layout(
        {1: "AS KS QS AH KH QH AD KD JD TD 8D 3C 2C",
         2: "2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 2D QD",  # the declarer, void in clubs
         3: "8S 9S 7H 8H 9H 3D 4D 5D 6D 7D 4C 5C 6C"},
        upcard="TH",
    )
    apply(state, PASS, MISERE, PASS, PASS)
    apply(state, "AS")  # eldest leads; the declarer, second, plays the highest under it
    assert card_str(choose(state)) == "7S"
    apply(state, "7S", "9S")
    apply(state, choose(state))  # seat 0 plays
    assert state.view(1).tricks[0].winner == 1
    # seat 1 leads again: the declarer still holds every suit but clubs
    apply(state, "2C")
    assert card_str(choose(state)) == "QD"  # void: he throws his most dangerous card
    apply(state, "QD", "4C")
    apply(state, choose(state))  # seat 0 throws a high club and wins the trick
    assert state.to_act in (0, 3)
    assert choose(state) // 13 != 3  # the winner does not lead his void suit again


# -- strength --------------------------------------------------------------------------------

def test_heuristic_seats_win_clearly_against_random():
    """Line-up heuristic, random, heuristic, random in both distinct rotations."""
    game = make_game("solo_whist", {})
    heuristic, rand = SoloHeuristic(), RandomStrategy()
    totals = []
    for seed in range(200):
        total = 0.0
        for seats in ([heuristic, rand, heuristic, rand], [rand, heuristic, rand, heuristic]):
            deal = play_deal(game, seats, seed, seed % 4, on_error="abort")
            total += sum(deal.outcome.net[s] for s in range(4) if seats[s] is heuristic)
        totals.append(total / 4)
    mean = sum(totals) / len(totals)
    assert mean > 4.0, f"heuristic seats won only {mean:+.2f} units per deal against random"
