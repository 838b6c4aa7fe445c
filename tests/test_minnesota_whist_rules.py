"""Minnesota Whist, one test per rule of docs/rules/minnesota-whist.md, on hand-built deals.

One family of layouts (``MinnesotaWhist.deal_from_layout``) makes every trick's
winner known in advance. ``split_hands(k, leader)``, for ``k`` in 1..12, with L the
seat that leads trick 1, O its LEFT-hand neighbour (an opponent), P its partner and
Q the fourth seat:

- L: the top ``k`` clubs (AC down) and the low ``13 - k`` hearts (2H up);
- O: the low ``13 - k`` clubs and the top ``k`` hearts;
- P: AD..8D and AS..9S;  Q: 7D..2D and 8S..2S (P and Q never hold a club or a heart).

Every seat plays its HIGHEST legal card number (clubs > diamonds > hearts > spades,
``play_highest``). L leads its clubs from the ace down and wins tricks 1..k: O can
only follow with lower clubs (or, once out of clubs, discards its top hearts), P and
Q discard. On trick k + 1 L leads a low heart; O still holds min(k, 13 - k) >= 1
hearts, all higher, and wins; from then on O leads clubs nobody else holds or hearts
above L's, and wins tricks k + 1..13. So L's side takes exactly ``k`` tricks and O's
side ``13 - k`` (``test_split_layout_splits_tricks_as_designed`` checks this).

Every seat holds a red and a black card, so the bidding can turn out any way:

- ``grand_deal(k, grander, dealer)``: the grander's right-hand neighbour leads, so
  L = grander - 1 and the GRANDERS take ``13 - k`` tricks, the others ``k``;
- ``null_deal(k, dealer)``: the dealer's left leads, so L = dealer + 1 and the side of
  the dealer's left takes ``k`` tricks.
"""

from __future__ import annotations

import numpy as np
import pytest

from strategies.random_play import RandomStrategy
from whist_sim.cards import RANKS, SUIT_MASKS, bit, cards_str, highest, lowest, parse_card
from whist_sim.cards import parse_cards as cards
from whist_sim.games import make_game
from whist_sim.games.base import DealOutcome, RuleError, VariantError, as_toml
from whist_sim.games.minnesota_whist import (
    GRAND,
    PASS,
    MinnesotaWhist,
    MinnesotaWhistDeal,
    MinnesotaWhistGame,
    MinnesotaWhistVariant,
)
from whist_sim.play import play_deal, play_match
from whist_sim.rng import shuffled_deck

RED = SUIT_MASKS[1] | SUIT_MASKS[2]
BLACK = SUIT_MASKS[0] | SUIT_MASKS[3]
P_HAND = "AD KD QD JD TD 9D 8D AS KS QS JS TS 9S"
Q_HAND = "7D 6D 5D 4D 3D 2D 8S 7S 6S 5S 4S 3S 2S"


# -- layouts and helpers -------------------------------------------------------------


def c(text: str) -> int:
    return parse_card(text)


def game(**variant) -> MinnesotaWhist:
    return make_game("minnesota_whist", variant)  # type: ignore[return-value]


def split_hands(k: int, leader: int) -> tuple[str, str, str, str]:
    clubs_down = [rank + "C" for rank in reversed(RANKS)]  # AC first
    hearts_up = [rank + "H" for rank in RANKS]  # 2H first
    hands = [""] * 4
    hands[leader] = " ".join(clubs_down[:k] + hearts_up[: 13 - k])
    hands[(leader + 1) % 4] = " ".join(clubs_down[k:] + hearts_up[13 - k:])
    hands[(leader + 2) % 4] = P_HAND
    hands[(leader + 3) % 4] = Q_HAND
    return hands[0], hands[1], hands[2], hands[3]


def split_deal(k: int, leader: int, dealer: int, **variant) -> MinnesotaWhistDeal:
    return game(**variant).deal_from_layout(split_hands(k, leader), dealer)


def lay_colours(state: MinnesotaWhistDeal, colours: str) -> None:
    """Each seat in turn lays its lowest red ("r") or lowest black ("b") card."""
    for colour in colours:
        hand = state.hands[state.to_act]
        state.apply(lowest(hand & (RED if colour == "r" else BLACK)))


def turn_order(dealer: int) -> list[int]:
    return [(dealer + i) % 4 for i in range(1, 5)]


def grand_deal(k: int, grander: int, dealer: int, **variant) -> MinnesotaWhistDeal:
    """Granders take 13 - k tricks, the other side k (the leader is the grander's right)."""
    state = split_deal(k, (grander - 1) % 4, dealer, **variant)
    lay_colours(state, "".join("b" if s == grander else "r" for s in turn_order(dealer)))
    assert (state.grand, state.grander, state.phase) == (True, grander, "play")
    return state


def null_deal(k: int, dealer: int, **variant) -> MinnesotaWhistDeal:
    """The dealer's left's side takes k tricks, the dealer's side 13 - k."""
    state = split_deal(k, (dealer + 1) % 4, dealer, **variant)
    lay_colours(state, "rrrr")
    assert (state.grand, state.grander, state.phase) == (False, -1, "play")
    return state


def spoken_deal(k: int, leader: int, dealer: int, calls: str, **variant) -> MinnesotaWhistDeal:
    state = split_deal(k, leader, dealer, bid="spoken", **variant)
    for call in calls.split():
        state.apply(game().parse_action(call))
    return state


def play(state: MinnesotaWhistDeal, *texts: str) -> None:
    for text in texts:
        state.apply(c(text))


def play_highest(state: MinnesotaWhistDeal) -> None:
    while not state.over:
        state.apply(highest(state.legal))


def per_seat(side_values: tuple[float, float]) -> tuple[float, ...]:
    return tuple(float(side_values[seat % 2]) for seat in range(4))


def assert_scored(state: MinnesotaWhistDeal, side_tricks: tuple[int, int],
                  side_points: tuple[int, int]) -> None:
    """Side tricks and points, and the per-seat score, net and result they give."""
    outcome = state.outcome()
    assert tuple(state.side_tricks) == side_tricks
    assert state.points() == side_points
    assert outcome.score == per_seat(side_points)
    net0 = side_points[0] - side_points[1]
    assert outcome.net == per_seat((net0, -net0))
    words = ("win", "loss") if net0 > 0 else ("loss", "win") if net0 < 0 else ("draw", "draw")
    assert outcome.result == tuple(words[seat % 2] for seat in range(4))
    assert outcome.facts["side_tricks"] == list(side_tricks)
    assert outcome.facts["side_points"] == list(side_points)


# -- partnerships and the deal -------------------------------------------------------


def test_partners_sit_opposite():
    g = game()
    assert MinnesotaWhist.partnerships is True
    assert g.players == 4
    state = grand_deal(3, grander=1, dealer=0)  # seat 0 (side 0) takes 3, seat 1 takes 10
    assert [state.view(seat).partner for seat in range(4)] == [2, 3, 0, 1]
    play_highest(state)
    outcome = state.outcome()
    assert outcome.tricks == (3, 10, 0, 0)
    # seat 2 took no trick but shares seat 0's 3; seat 3 shares seat 1's 10
    assert tuple(state.side_tricks) == (3, 10)
    assert outcome.score == (0.0, 4.0, 0.0, 4.0)
    assert outcome.result == ("loss", "win", "loss", "win")


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_is_13_cards_each_one_at_a_time_from_the_dealers_left(dealer):
    seed = 2024
    deck = shuffled_deck(seed)
    state = game().new_deal(seed, dealer)
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        assert state.hands[seat] == sum(bit(card) for card in deck[i::4])
        assert state.hands[seat].bit_count() == 13
    assert state.deal_record()["hands"] == [cards_str(h) for h in state.hands]
    assert state.deal_record()["dealer"] == dealer


def test_layout_puts_the_given_cards_in_each_hand():
    hands = split_hands(5, 2)
    for dealer in range(4):
        state = game().deal_from_layout(hands, dealer)
        assert [state.hands[s] for s in range(4)] == [cards(h) for h in hands]
    with pytest.raises(VariantError, match="13 cards for each of the four seats"):
        game().deal_from_layout((hands[0], hands[1], hands[2], "2S"))
    with pytest.raises(VariantError, match="each of the 52 cards exactly once"):
        game().deal_from_layout((hands[0], hands[0], hands[2], hands[3]))


def test_deal_rotates_left_from_deal_to_deal():
    played, _ = play_match(game(), [RandomStrategy()] * 4, match_seed=16)
    assert len(played) >= 5
    assert [deal.dealer for deal in played] == [i % 4 for i in range(len(played))]
    assert [deal.state.dealer for deal in played] == [i % 4 for i in range(len(played))]


# -- no trumps -----------------------------------------------------------------------


def test_there_are_never_trumps():
    for variant in ({}, {"bid": "spoken"}, {"scoring": "pagat"}):
        state = game(**variant).new_deal(5, 2)
        assert state.deal_record()["trump"] == "none"
        assert state.deal_record()["upcard"] is None


def test_higher_card_of_the_suit_led_wins():
    state = grand_deal(6, grander=1, dealer=0)  # seat 0 leads: AC..9C 2H..8H
    play(state, "2H", "9H", "AS", "2D")  # seat 1 follows higher; seats 2, 3 discard
    assert state.tricks[-1].winner == 1
    assert state.tricks[-1].cards == (c("2H"), c("9H"), c("AS"), c("2D"))
    play(state, "2C", "AD", "3D", "9C")  # seat 1 leads 2C; seat 0 (last) follows 9C
    assert state.tricks[-1].winner == 0
    assert state.to_act == 0


def test_an_off_suit_card_never_wins_even_an_ace():
    state = grand_deal(6, grander=1, dealer=0)
    play(state, "9C", "2C", "AS", "7D")  # aces of other suits lose to the nine led
    assert state.tricks[-1].winner == 0
    # null hands play the same tricks
    state = null_deal(6, dealer=3)  # seat 0 leads again
    play(state, "9C", "8C", "AD", "8S")
    assert state.tricks[-1].winner == 0


def test_winner_of_a_trick_leads_the_next():
    state = grand_deal(6, grander=1, dealer=0)
    play(state, "2H", "9H", "AS", "2D")
    assert state.to_act == 1 and state.view(1).leader == 1
    assert state.view(1).legal == state.hands[1]  # the leader may lead any card
    assert all(state.view(seat).legal == 0 for seat in (0, 2, 3))


def test_a_hand_is_13_tricks():
    state = grand_deal(6, grander=1, dealer=0)
    play_highest(state)
    assert [t.number for t in state.tricks] == list(range(1, 14))
    assert state.hands == [0, 0, 0, 0]
    assert sum(state.outcome().tricks) == 13


# -- bidding by cards ----------------------------------------------------------------


def test_every_player_lays_a_card_from_hand_starting_left_of_the_dealer():
    state = split_deal(6, leader=0, dealer=1)
    order = []
    for card in ("8D", "2D", "2H", "9H"):  # seats 2, 3, 0, 1 in turn
        order.append(state.to_act)
        assert state.phase == "lay"
        assert state.view(state.to_act).legal == state.hands[state.to_act]
        state.apply(c(card))
    assert order == [2, 3, 0, 1]
    assert state.laid == [c("2H"), c("9H"), c("8D"), c("2D")]


def test_laying_a_card_not_held_is_refused_naming_seat_and_rule():
    state = split_deal(6, leader=0, dealer=3)  # seat 0 lays first
    with pytest.raises(RuleError) as info:
        state.apply(c("AD"))  # seat 2's card
    error = info.value
    assert (error.seat, error.action, error.rule) == (0, "AD", "lay a card held")
    assert "seat 0" in str(error) and "AD" in str(error) and "lay a card held" in str(error)
    assert state.laid == [-1, -1, -1, -1] and state.to_act == 0
    with pytest.raises(RuleError) as info:
        state.apply(PASS)  # a spoken call is not a laid card
    assert info.value.seat == 0 and info.value.action == "pass"


@pytest.mark.parametrize(
    ("card", "grand"), [("2C", True), ("AC", True), ("2S", True), ("2H", False), ("2D", False)]
)
def test_a_black_card_grands_a_red_card_passes(card, grand):
    hands = ("2C AC 2S 2H 2D AS AH AD 3C 3S 3H 3D 4C",
             "4S 4H 4D 5C 5S 5H 5D 6C 6S 6H 6D 7C 7S",
             "7H 7D 8C 8S 8H 8D 9C 9S 9H 9D TC TS TH",
             "TD JC JS JH JD QC QS QH QD KC KS KH KD")
    state = game().deal_from_layout(hands, dealer=3)  # seat 0 is turned first
    state.apply(c(card))
    play(state, "4H", "7H", "TD")  # red for the others
    assert state.grand is grand
    assert state.grander == (0 if grand else -1)
    assert state.turned[0] == (0, c(card))


def test_turning_stops_at_the_first_black_card_and_that_player_granded():
    state = split_deal(6, leader=2, dealer=0)
    play(state, "2D", "2H", "2C", "AS")  # seats 1 red, 2 red, 3 black, 0 black
    assert state.turned == ((1, c("2D")), (2, c("2H")), (3, c("2C")))  # 0's AS not turned
    assert (state.grand, state.grander) == (True, 3)
    assert state.log[-4:] == [(0, "lay", c("AS"), True), (1, "turn", c("2D"), False),
                              (2, "turn", c("2H"), False), (3, "turn", c("2C"), False)]
    for seat in range(4):
        view = state.view(seat)
        assert view.turned == state.turned
        assert (view.grand, view.grander, view.phase) == (True, 3, "play")


def test_the_first_card_turned_black_grands_even_if_others_are_black():
    state = split_deal(6, leader=0, dealer=0)
    play(state, "2C", "AS", "2S", "AC")  # all black: only seat 1's card is turned
    assert state.turned == ((1, c("2C")),)
    assert state.grander == 1


def test_four_red_cards_make_a_null_hand():
    state = split_deal(6, leader=2, dealer=1)
    play(state, "2H", "9H", "AD", "2D")  # seats 2, 3, 0, 1
    assert state.turned == ((2, c("2H")), (3, c("9H")), (0, c("AD")), (1, c("2D")))
    assert (state.grand, state.grander, state.phase) == (False, -1, "play")
    assert state.view(0).grand is False and state.view(0).grander == -1


def test_turned_cards_are_public_and_go_back_into_their_owners_hands():
    state = split_deal(6, leader=2, dealer=1)
    before = list(state.hands)
    play(state, "2H", "9H", "AS", "2D")  # seats 2 red, 3 red, 0 black (grand); 1 not turned
    turned = ((2, c("2H")), (3, c("9H")), (0, c("AS")))
    assert state.turned == turned
    assert state.hands == before  # laid cards are back: every hand still holds 13
    assert all(hand.bit_count() == 13 for hand in state.hands)
    for seat in range(4):
        assert state.view(seat).turned == turned
    # the grander's right-hand neighbour (seat 3) leads; it may lead the 9H it turned
    assert state.to_act == 3 and state.view(3).legal >> c("9H") & 1
    play(state, "9H")
    assert state.trick == (c("9H"),)
    play(state, "AS")  # and the grander (void in hearts) plays the AS it laid and turned
    assert state.trick == (c("9H"), c("AS"))


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
@pytest.mark.parametrize("grander_offset", [1, 2, 3, 4])
def test_in_a_grand_the_player_right_of_the_grander_leads(dealer, grander_offset):
    grander = (dealer + grander_offset) % 4
    state = grand_deal(6, grander, dealer)
    right = (grander + 3) % 4  # play goes left (seat + 1), so the right is seat - 1
    assert state.to_act == right
    assert state.leader == right
    assert state.view(right).legal == state.hands[right]
    assert all(state.view(s).legal == 0 for s in range(4) if s != right)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_in_a_null_hand_the_player_left_of_the_dealer_leads(dealer):
    state = null_deal(6, dealer)
    left = (dealer + 1) % 4
    assert state.to_act == left == state.leader
    assert state.view(left).legal == state.hands[left]


# -- scoring ---------------------------------------------------------------------------


@pytest.mark.parametrize("k", range(1, 13))
def test_split_layout_splits_tricks_as_designed(k):
    for leader in range(4):
        state = split_deal(k, leader, dealer=(leader + 3) % 4)
        lay_colours(state, "rrrr")
        play_highest(state)
        winners = [t.winner for t in state.tricks]
        assert winners == [leader] * k + [(leader + 1) % 4] * (13 - k)


@pytest.mark.parametrize(("k", "grander", "dealer"), [(6, 1, 0), (3, 3, 1), (1, 2, 0)])
def test_grand_granders_taking_7_or_more_score_tricks_minus_6(k, grander, dealer):
    state = grand_deal(k, grander, dealer)
    play_highest(state)
    granders = grander % 2
    tricks = [0, 0]
    tricks[granders], tricks[1 - granders] = 13 - k, k
    points = [0, 0]
    points[granders] = 13 - k - 6
    assert_scored(state, (tricks[0], tricks[1]), (points[0], points[1]))


def test_example_granded_10_tricks_scores_4_to_the_granders():
    state = grand_deal(3, grander=2, dealer=1)  # seat 1 leads; seats 0+2 granded
    play_highest(state)
    assert_scored(state, (10, 3), (4, 0))
    assert state.outcome().score == (4.0, 0.0, 4.0, 0.0)
    assert state.outcome().facts["hand_type"] == "grand"
    assert state.outcome().facts["grander"] == 2


@pytest.mark.parametrize(("k", "points"), [(7, 2), (8, 4), (10, 8), (12, 12)])
def test_grand_other_side_taking_7_or_more_scores_twice_tricks_minus_6(k, points):
    state = grand_deal(k, grander=0, dealer=2)  # seat 3 leads; seats 1+3 take k
    play_highest(state)
    assert_scored(state, (13 - k, k), (0, points))


def test_example_granders_5_others_8_scores_4_to_the_others():
    state = grand_deal(8, grander=3, dealer=0)  # seat 2 leads; seats 0+2 take 8
    play_highest(state)
    assert_scored(state, (8, 5), (4, 0))
    assert state.outcome().score == (4.0, 0.0, 4.0, 0.0)
    assert state.outcome().net == (4.0, -4.0, 4.0, -4.0)


@pytest.mark.parametrize(("k", "dealer", "side_tricks", "side_points"), [
    (1, 3, (1, 12), (6, 0)),
    (3, 0, (10, 3), (0, 4)),
    (5, 2, (8, 5), (0, 2)),
    (11, 1, (11, 2), (0, 5)),
])
def test_null_the_side_with_6_or_fewer_tricks_scores_7_minus_tricks(
    k, dealer, side_tricks, side_points
):
    state = null_deal(k, dealer)
    play_highest(state)
    assert_scored(state, side_tricks, side_points)


def test_example_null_9_4_scores_3_to_the_side_with_4():
    state = null_deal(4, dealer=0)  # seat 1 leads; seats 1+3 take 4, seats 0+2 take 9
    play_highest(state)
    assert_scored(state, (9, 4), (0, 3))
    assert state.outcome().facts["hand_type"] == "null"
    assert state.outcome().facts["grander"] is None


@pytest.mark.parametrize(("k", "side_tricks", "side_points"), [
    (6, (6, 7), (1, 0)),
    (7, (7, 6), (0, 1)),
])
def test_null_won_7_6_scores_1_to_the_side_with_6(k, side_tricks, side_points):
    state = null_deal(k, dealer=3)  # seat 0 leads: side 0 takes k
    play_highest(state)
    assert_scored(state, side_tricks, side_points)


def test_pagat_grand_the_side_with_more_tricks_scores_1_per_trick_over_6_whoever_granded():
    state = grand_deal(3, grander=2, dealer=1, scoring="pagat")  # granders take 10
    play_highest(state)
    assert_scored(state, (10, 3), (4, 0))
    state = grand_deal(8, grander=3, dealer=0, scoring="pagat")  # others take 8: not doubled
    play_highest(state)
    assert_scored(state, (8, 5), (2, 0))
    state = grand_deal(6, grander=1, dealer=0, scoring="pagat")  # granders 7-6
    play_highest(state)
    assert_scored(state, (6, 7), (0, 1))


def test_pagat_null_the_side_with_more_tricks_loses_1_per_trick_over_6():
    state = null_deal(4, dealer=0, scoring="pagat")  # 9-4
    play_highest(state)
    assert_scored(state, (9, 4), (-3, 0))
    assert state.outcome().score == (-3.0, 0.0, -3.0, 0.0)
    assert state.outcome().result == ("loss", "win", "loss", "win")
    state = null_deal(6, dealer=3, scoring="pagat")  # 6-7
    play_highest(state)
    assert_scored(state, (6, 7), (0, -1))


# -- spoken bidding --------------------------------------------------------------------


def test_spoken_bidding_asks_each_player_in_turn_from_the_dealers_left():
    state = split_deal(6, leader=0, dealer=2, bid="spoken")
    assert state.phase == "bid"
    asked = []
    for _ in range(3):
        asked.append(state.to_act)
        assert state.view(state.to_act).legal == bit(PASS) | bit(GRAND)
        assert all(state.view(s).legal == 0 for s in range(4) if s != state.to_act)
        state.apply(PASS)
    assert asked == [3, 0, 1]
    assert state.view(0).calls == ((3, PASS), (0, PASS), (1, PASS))
    assert state.view(0).laid == -1 and state.view(0).laid_count == 0


def test_spoken_bidding_the_first_grand_decides():
    state = spoken_deal(6, leader=0, dealer=3, calls="pass grand")  # seat 0 passes, 1 grands
    assert (state.grand, state.grander, state.phase) == (True, 1, "play")
    assert state.calls == ((0, PASS), (1, GRAND))  # seats 2 and 3 are not asked
    assert state.to_act == 0  # the grander's right leads
    assert state.turned == ()
    play_highest(state)
    assert_scored(state, (6, 7), (0, 1))


@pytest.mark.parametrize("dealer", [0, 3])
@pytest.mark.parametrize("passes", [0, 1, 2, 3])
def test_spoken_bidding_a_grand_is_led_by_the_granders_right(dealer, passes):
    state = split_deal(6, 0, dealer, bid="spoken")
    for _ in range(passes):
        state.apply(PASS)
    state.apply(GRAND)
    grander = (dealer + 1 + passes) % 4
    assert (state.grand, state.grander, state.leader) == (True, grander, (grander + 3) % 4)
    assert state.to_act == (grander + 3) % 4
    assert len(state.calls) == passes + 1


def test_spoken_bidding_all_pass_is_a_null_hand():
    state = spoken_deal(4, leader=1, dealer=0, calls="pass pass pass pass")
    assert (state.grand, state.grander, state.phase) == (False, -1, "play")
    assert state.to_act == 1  # the dealer's left leads
    play_highest(state)
    assert_scored(state, (9, 4), (0, 3))


def test_spoken_bidding_a_grand_after_the_bidding_closed_is_refused():
    state = spoken_deal(6, leader=0, dealer=3, calls="grand")
    assert state.grander == 0 and state.to_act == 3
    with pytest.raises(RuleError) as info:
        state.apply(GRAND)  # seat 1 wanted to grand too: too late
    assert info.value.seat == 3 and info.value.action == "grand"
    assert "seat 3" in str(info.value) and "grand" in str(info.value)
    state = spoken_deal(6, leader=0, dealer=3, calls="pass pass pass pass")
    with pytest.raises(RuleError):
        state.apply(GRAND)
    assert (state.grand, state.grander, state.calls[-1]) == (False, -1, (3, PASS))


def test_spoken_bidding_a_card_is_not_a_call():
    state = split_deal(6, leader=0, dealer=3, bid="spoken")
    with pytest.raises(RuleError) as info:
        state.apply(c("AC"))  # seat 0 holds it, but must say pass or grand
    assert (info.value.seat, info.value.action, info.value.rule) == (0, "AC", "spoken bidding")


# -- the game to 13 ----------------------------------------------------------------------


def test_a_game_is_deals_with_the_dealer_rotating_until_a_side_reaches_13():
    played, result = play_match(game(), [RandomStrategy()] * 4, match_seed=3)
    score = [0, 0]
    for i, deal in enumerate(played):
        assert max(score) < 13  # no deal is played once the game is won
        assert deal.dealer == i % 4
        assert deal.state.view(0).score == (score[0], score[1])  # the game score so far
        side_points = deal.outcome.facts["side_points"]
        score = [score[0] + side_points[0], score[1] + side_points[1]]
    assert max(score) >= 13
    winner = 0 if score[0] > score[1] else 1
    assert result["match_points"] == per_seat((score[0], score[1]))
    assert result["match_result"] == tuple(
        "win" if seat % 2 == winner else "loss" for seat in range(4)
    )


def test_a_game_to_a_custom_target():
    # the same deals as to 13 (same match seed), but the game stops at 3 points:
    # side points 0-2, 2-0, then 0-4 on the third deal
    played, result = play_match(game(target=3), [RandomStrategy()] * 4, match_seed=16)
    assert [deal.outcome.facts["side_points"] for deal in played] == [[0, 2], [2, 0], [0, 4]]
    assert [deal.dealer for deal in played] == [0, 1, 2]
    assert result["match_points"] == (2.0, 6.0, 2.0, 6.0)
    assert result["match_result"] == ("loss", "win", "loss", "win")
    to_13, _ = play_match(game(), [RandomStrategy()] * 4, match_seed=16)
    assert len(to_13) == 5
    assert [d.outcome.facts["side_points"] for d in to_13[:3]] == [[0, 2], [2, 0], [0, 4]]


def _outcome(side_points: tuple[int, int]) -> DealOutcome:
    net0 = float(side_points[0] - side_points[1])
    return DealOutcome((0,) * 4, per_seat(side_points), per_seat((net0, -net0)), ("draw",) * 4)


def test_the_game_ends_as_soon_as_a_side_has_exactly_the_target():
    match = MinnesotaWhistGame(13)
    dealers = []
    for points in ((4, 0), (0, 8), (4, 0), (4, 0)):  # 12 - 8 after four deals
        dealers.append(match.next_dealer())
        assert match.deal_context() == {"score": tuple(match.score)}
        match.record(_outcome(points))
    assert dealers == [0, 1, 2, 3]
    assert match.next_dealer() == 0  # 12 is not yet 13: deal five, dealer 0 again
    match.record(_outcome((0, 3)))  # 12 - 11
    assert match.next_dealer() == 1
    match.record(_outcome((1, 0)))  # 13 - 11
    assert match.next_dealer() is None
    result = match.result()
    assert result["match_points"] == (13.0, 11.0, 13.0, 11.0)
    assert result["match_result"] == ("win", "loss", "win", "loss")


class _NeverGrands(RandomStrategy):
    """Passes at every spoken bid; plays at random."""

    def choose(self, view, rng):
        return PASS if view.legal >> PASS & 1 else super().choose(view, rng)


def test_a_game_ends_after_ten_hands_per_target_point_if_no_side_reaches_the_target():
    """Under pagat scoring a null hand only takes points away: strategies that never grand
    played one game for ever (a probe's run hung). The side with more points wins it."""
    played, result = play_match(game(scoring="pagat", bid="spoken", target=2),
                                [_NeverGrands()] * 4, match_seed=5)
    assert len(played) == 20
    assert all(deal.outcome.facts["side_points"][0] <= 0 for deal in played)
    score = [sum(deal.outcome.facts["side_points"][side] for deal in played) for side in (0, 1)]
    assert max(score) < 2
    assert result["match_points"] == per_seat((score[0], score[1]))
    expected = ("draw", "draw") if score[0] == score[1] else (
        ("win", "loss") if score[0] > score[1] else ("loss", "win"))
    assert result["match_result"] == tuple(expected[seat % 2] for seat in range(4))


def test_under_the_default_scoring_the_hand_limit_never_applies():
    match = MinnesotaWhistGame(13)
    for _ in range(25):  # the longest game: 12 - 12 in 24 one-point hands, then 13
        match.record(_outcome((1, 0) if match.deals % 2 == 0 else (0, 1)))
    assert match.score == [13, 12] and match.deals < match.hand_limit


def test_the_game_score_is_passed_into_each_deal():
    state = game().new_deal(9, 2, score=(7, 11))
    assert all(state.view(seat).score == (7, 11) for seat in range(4))
    assert state.view(0).dealer == 2


# -- illegal plays -----------------------------------------------------------------------


def test_playing_a_card_not_held_is_refused_naming_seat_card_and_rule():
    state = grand_deal(6, grander=1, dealer=0)  # seat 0 leads
    with pytest.raises(RuleError) as info:
        state.apply(c("AD"))  # seat 2's card
    error = info.value
    assert (error.seat, error.action, error.rule) == (0, "AD", "card not held")
    assert "seat 0" in str(error) and "AD" in str(error) and "card not held" in str(error)
    assert state.trick == () and state.to_act == 0


def test_playing_out_of_turn_is_refused():
    # the loop applies actions for ``to_act`` only: a card of another seat is not held
    # by the seat to act, and every seat not to act has nothing legal
    state = grand_deal(6, grander=1, dealer=0)
    play(state, "AC")
    assert state.to_act == 1
    assert all(state.view(seat).legal == 0 for seat in (0, 2, 3))
    with pytest.raises(RuleError) as info:
        state.apply(c("AS"))  # seat 2's card, played before seat 1
    assert (info.value.seat, info.value.action, info.value.rule) == (1, "AS", "card not held")
    assert state.trick == (c("AC"),)


def test_follow_suit_is_enforced():
    state = grand_deal(6, grander=1, dealer=0)
    play(state, "AC")
    assert state.view(1).legal == cards("8C 7C 6C 5C 4C 3C 2C")
    with pytest.raises(RuleError) as info:
        state.apply(c("AH"))
    error = info.value
    assert (error.seat, error.action, error.rule) == (1, "AH", "follow suit")
    assert "seat 1 played AH but must follow clubs (holds 8C 7C 6C 5C 4C 3C 2C)" in str(error)
    assert state.trick == (c("AC"),)
    play(state, "2C")
    assert state.view(2).legal == cards(P_HAND)  # void in clubs: any card
    play(state, "AS", "2D")
    assert state.tricks[-1].winner == 0


@pytest.mark.parametrize("action", [-1, PASS, GRAND, 1000, "AC", 1.0, None, True])
def test_an_action_that_is_not_a_card_is_refused(action):
    state = grand_deal(6, grander=1, dealer=0)
    with pytest.raises(RuleError) as info:
        state.apply(action)
    assert info.value.seat == 0
    assert "seat 0" in str(info.value)


def test_a_numpy_integer_card_is_played():
    state = grand_deal(6, grander=1, dealer=0)
    state.apply(np.int64(c("AC")))
    assert state.log[-1] == (0, "play", c("AC"), True)


def test_no_action_is_accepted_after_the_hand():
    state = grand_deal(6, grander=1, dealer=0)
    play_highest(state)
    assert state.to_act == -1 and all(state.view(seat).legal == 0 for seat in range(4))
    with pytest.raises(RuleError, match="the deal is over"):
        state.apply(c("AC"))


def test_a_failing_strategy_forfeits_and_its_side_loses_by_the_target():
    class Broken:
        def choose(self, view, rng):
            raise RuntimeError("boom")

    strategies = [RandomStrategy(), RandomStrategy(), RandomStrategy(), Broken()]
    outcome = play_deal(game(), strategies, seed=4, dealer=1).outcome  # seat 2 lays first
    assert outcome.forfeit_seat == 3
    assert outcome.score == (13.0, 0.0, 13.0, 0.0)
    assert outcome.result == ("win", "loss", "win", "forfeit")
    assert "boom" in outcome.error


# -- variants ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "key", "allowed"),
    [
        ({"scoring": "bridge"}, "scoring", '"default", "pagat"'),
        ({"scoring": None}, "scoring", '"default", "pagat"'),
        ({"bid": "cards_open"}, "bid", '"cards", "spoken"'),
        ({"bid": "Spoken"}, "bid", '"cards", "spoken"'),
        ({"target": 0}, "target", "whole numbers 1..1,000"),
        ({"target": -13}, "target", "whole numbers 1..1,000"),
        ({"target": "13"}, "target", "whole numbers 1..1,000"),
        ({"target": 7.5}, "target", "whole numbers 1..1,000"),
        ({"target": True}, "target", "whole numbers 1..1,000"),
    ],
)
def test_bad_variant_values_name_key_and_allowed_values(settings, key, allowed):
    with pytest.raises(VariantError) as info:
        make_game("minnesota_whist", settings)
    message = str(info.value)
    assert f"variant.{key} = {as_toml(settings[key])}" in message  # `true`, as TOML spells it
    assert "allowed values" in message
    assert allowed in message


def test_unknown_variant_key_names_key_and_allowed_keys():
    with pytest.raises(VariantError) as info:
        make_game("minnesota_whist", {"trumps": "upcard"}, where="configs/m.toml")
    message = str(info.value)
    assert "configs/m.toml" in message and "'trumps'" in message
    assert "bid, scoring, target" in message


def test_variant_defaults_are_cards_default_scoring_and_13():
    assert game().variant == MinnesotaWhistVariant()
    assert game().variant.as_dict() == {"scoring": "default", "bid": "cards", "target": 13}
    assert game().new_match().target == 13
    assert game(target=21).new_match().target == 21
