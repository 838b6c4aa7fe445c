"""German Whist, one test per rule of docs/rules/german-whist.md, on hand-built deals.

Two kinds of layout are used (``GermanWhist.deal_from_layout``):

``MIXED`` (dealer 0, so seat 1 leads; upcard 9D, trump diamonds) for single tricks:
seat 0 is void in hearts and holds spades, diamonds and clubs; seat 1 holds four top
hearts and a few of every other suit.

``split_layout(w)`` for whole hands: seat 0 holds the 13 spades, seat 1 the 13 hearts,
the stock only diamonds and clubs. Both seats play the LOWEST legal card number
(spades < hearts < diamonds < clubs). Then in stage 1 seat 1 leads its hearts, seat 0
cannot follow and discards its spades (never a trump: trump is a diamond or a club),
so seat 1 wins all 13 stage-1 tricks, taking stock cards 0, 2, 4, ... while seat 0
draws 1, 3, 5, .... The stock is interleaved so that stage 2 starts with seat 1
holding the top ``w`` diamonds and the lowest ``13 - w`` clubs, seat 0 the lowest
``13 - w`` diamonds and the top ``w`` clubs, seat 1 to lead. Seat 1 cashes its
diamonds (seat 0 follows low, then discards low clubs), then leads a low club that
seat 0 overtakes; seat 0 wins every remaining trick. So stage 2 splits exactly
``w`` (seat 1) to ``13 - w`` (seat 0), for ``w`` in 1..13, with trump diamonds (a
void seat 1 discards clubs, never a trump). ``w = 0`` needs seat 0 to win the very
first stage-2 trick: seat 1 holds 2D..8D and 2C..7C, trump clubs, seat 0 the rest.
``test_split_layout_splits_stage2_as_designed`` checks the construction itself.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from strategies.random_play import RandomStrategy
from whist_sim.cards import (
    RANKS,
    bit,
    cards_str,
    highest,
    lowest,
    parse_card,
    parse_card_list,
    parse_cards,
)
from whist_sim.games import make_game
from whist_sim.games.base import DealOutcome, RuleError, VariantError, as_toml
from whist_sim.games.german_whist import GermanWhist, GermanWhistDeal, GermanWhistVariant
from whist_sim.play import play_deal, play_match
from whist_sim.rng import shuffled_deck

# -- layouts and helpers -------------------------------------------------------------

MIXED_HANDS = (
    "AS KS QS 4S 3S 2S 2D 3D 8D 2C 3C 4C 5C",
    "AH KH QH JH 5S 6S 7S 5D 6D 7D 6C 7C 8C",
)
MIXED_STOCK = (
    "9D JS TH 4D AC TS 9H KD KC 9S 8H QD QC 8S 7H JD JC 4H 6H TD TC 3H 5H AD 9C 2H"
)
SPADES = " ".join(r + "S" for r in RANKS)
HEARTS = " ".join(r + "H" for r in RANKS)


def c(text: str) -> int:
    return parse_card(text)


def game(**variant) -> GermanWhist:
    return make_game("german_whist", variant)  # type: ignore[return-value]


def mixed(dealer: int = 0, **variant) -> GermanWhistDeal:
    return game(**variant).deal_from_layout(MIXED_HANDS, MIXED_STOCK, dealer)


def play(state: GermanWhistDeal, *cards: str) -> None:
    for text in cards:
        state.apply(c(text))


def stage2_hands(w: int) -> tuple[list[str], list[str]]:
    """Seat 1's and seat 0's stage-2 hands; seat 1's first card becomes the upcard."""
    if w == 0:
        seat1 = ["2C", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "3C", "4C", "5C", "6C", "7C"]
        seat0 = ["9D", "TD", "JD", "QD", "KD", "AD", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
        return seat1, seat0
    diamonds = [r + "D" for r in reversed(RANKS)]  # AD first
    clubs = [r + "C" for r in RANKS]  # 2C first
    seat1 = diamonds[:w] + clubs[: 13 - w]
    seat0 = diamonds[w:] + clubs[13 - w:]
    return seat1, seat0


def split_layout(w: int) -> tuple[tuple[str, str], str]:
    seat1, seat0 = stage2_hands(w)
    stock = [card for pair in zip(seat1, seat0, strict=True) for card in pair]
    return (SPADES, HEARTS), " ".join(stock)


def split_deal(w: int, **variant) -> GermanWhistDeal:
    hands, stock = split_layout(w)
    return game(**variant).deal_from_layout(hands, stock, dealer=0)


def play_out(
    state: GermanWhistDeal, policy: Callable[[int], int] = lowest, until_tricks: int = 26
) -> None:
    """Play with ``policy(legal mask) -> card`` for both seats."""
    while not state.over and len(state.tricks) < until_tricks:
        state.apply(policy(state.view(state.to_act).legal))


def outcome_for(result0: str) -> DealOutcome:
    """A finished hand as the match sees it, from seat 0's result."""
    other = {"win": "loss", "loss": "win", "draw": "draw"}[result0]
    net = {"win": 1.0, "loss": -1.0, "draw": 0.0}[result0]
    return DealOutcome((14, 12), (max(net, 0), max(-net, 0)), (net, -net), (result0, other))


# -- the deal ------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_alternates_one_card_at_a_time_from_non_dealer(dealer):
    seed = 12345
    deck = shuffled_deck(seed)
    state = game().new_deal(seed, dealer)
    non_dealer = 1 - dealer
    assert state.hands[non_dealer] == sum(bit(card) for card in deck[0:26:2])
    assert state.hands[dealer] == sum(bit(card) for card in deck[1:26:2])
    assert list(state.stock) == deck[26:]
    record = state.deal_record()
    assert record["hands"][non_dealer] == cards_str(state.hands[non_dealer])
    assert record["stock"] == cards_str(deck[26:])
    assert record["dealer"] == dealer


def test_layout_puts_the_given_cards_in_each_hand_and_stock_in_order():
    for dealer in (0, 1):
        state = mixed(dealer)
        assert state.hands[0] == parse_cards(MIXED_HANDS[0])
        assert state.hands[1] == parse_cards(MIXED_HANDS[1])
        assert list(state.stock) == parse_card_list(MIXED_STOCK)


def test_layout_must_use_13_cards_each_and_all_52():
    g = game()
    with pytest.raises(VariantError, match="13 cards per seat and 26 stock"):
        g.deal_from_layout((MIXED_HANDS[0], "AH"), MIXED_STOCK)
    with pytest.raises(VariantError, match="each of the 52 cards exactly once"):
        g.deal_from_layout((MIXED_HANDS[0], MIXED_HANDS[0]), MIXED_STOCK)


def test_top_stock_card_is_turned_face_up():
    state = mixed()
    view = state.view(0)
    assert view.faceup == (c("9D"),)
    assert view.upcard == c("9D")
    assert view.facedown_left == 25
    assert view.stage == 1
    assert state.view(1).faceup == (c("9D"),)


def test_upcard_suit_is_trump():
    state = mixed()
    assert state.view(0).trump == 2  # diamonds, from 9D
    assert state.view(1).trump == 2
    assert state.deal_record()["trump"] == "D"
    assert state.deal_record()["upcard"] == "9D"


def test_trump_suit_stays_for_the_whole_hand():
    state = mixed()
    play(state, "AH", "2C")  # the 9D is taken, TH turned
    assert state.view(1).faceup == (c("TH"),)
    assert state.view(1).trump == 2
    # a low diamond still trumps the ace of hearts after the upcard is gone
    play(state, "KH", "2D")
    assert state.tricks[-1].winner == 0


def test_trumps_none_has_no_trump_suit():
    state = mixed(trumps="none")
    assert state.view(1).trump == -1
    assert state.deal_record()["trump"] == "none"
    play(state, "AH", "2D")  # a diamond is not a trump now
    assert state.tricks[-1].winner == 1


@pytest.mark.parametrize("dealer", [0, 1])
def test_non_dealer_leads_first_trick(dealer):
    state = mixed(dealer)
    assert state.to_act == 1 - dealer
    assert state.view(1 - dealer).legal == state.hands[1 - dealer]
    assert state.view(dealer).legal == 0
    assert state.view(0).leader == 1 - dealer


# -- a trick -------------------------------------------------------------------------


def test_leader_may_lead_any_card():
    state = mixed()
    assert state.view(1).legal == parse_cards(MIXED_HANDS[1])


def test_follower_must_follow_suit():
    state = mixed()
    play(state, "7S")
    assert state.view(0).legal == parse_cards("AS KS QS 4S 3S 2S")
    with pytest.raises(RuleError) as info:
        state.apply(c("2D"))
    assert info.value.rule == "follow suit"
    assert state.view(0).legal == parse_cards("AS KS QS 4S 3S 2S")  # nothing changed
    play(state, "2S")
    assert state.tricks[-1].cards == (c("7S"), c("2S"))


def test_follower_void_may_trump_or_discard():
    state = mixed()
    play(state, "AH")
    assert state.view(0).legal == parse_cards(MIXED_HANDS[0])  # void in hearts: any card
    play(state, "2D")  # trump
    assert state.tricks[-1].winner == 0
    state = mixed()
    play(state, "AH", "5C")  # discard
    assert state.tricks[-1].winner == 1


def test_highest_trump_wins():
    state = mixed()
    play(state, "6D", "8D")  # trump led, higher trump follows
    assert state.tricks[-1].winner == 0
    state = mixed()
    play(state, "6D", "3D")
    assert state.tricks[-1].winner == 1
    state = mixed()
    play(state, "AH", "2D")  # the lowest trump beats the ace of the suit led
    assert state.tricks[-1].winner == 0


def test_highest_card_of_led_suit_wins_without_trump():
    state = mixed()
    play(state, "7S", "AS")
    assert state.tricks[-1].winner == 0
    state = mixed()
    play(state, "6C", "5C")
    assert state.tricks[-1].winner == 1
    state = mixed()
    play(state, "5S", "2S")
    assert state.tricks[-1].winner == 1


def test_winner_leads_next_trick():
    state = mixed()
    play(state, "AH", "2C")
    assert state.tricks[-1].winner == 1
    assert state.to_act == 1
    assert state.view(1).leader == 1
    play(state, "5S", "AS")
    assert state.tricks[-1].winner == 0
    assert state.to_act == 0
    assert state.view(0).legal == state.hands[0]
    assert state.view(1).legal == 0


# -- stage 1: the stock --------------------------------------------------------------


def test_winner_takes_faceup_card_loser_takes_next_card():
    state = mixed()
    play(state, "AH", "2C")  # seat 1 wins
    assert state.hands[1] == parse_cards(MIXED_HANDS[1]) & ~bit(c("AH")) | bit(c("9D"))
    assert state.hands[0] == parse_cards(MIXED_HANDS[0]) & ~bit(c("2C")) | bit(c("JS"))
    assert state.log[-2:] == [(1, "take", c("9D"), False), (0, "draw", c("JS"), False)]
    play(state, "5S", "AS")  # seat 0 wins: takes TH, seat 1 draws 4D
    assert state.hands[0] >> c("TH") & 1
    assert state.hands[1] >> c("4D") & 1
    assert state.log[-2:] == [(0, "take", c("TH"), False), (1, "draw", c("4D"), False)]
    assert [h.bit_count() for h in state.hands] == [13, 13]


def test_winner_does_not_see_card_drawn_by_loser():
    state = mixed()
    play(state, "AH", "2C")  # seat 1 takes 9D (public), seat 0 draws JS (private)
    js = bit(c("JS"))
    winner, loser = state.view(1), state.view(0)
    assert loser.drawn == js
    assert loser.hand & js
    assert winner.drawn == 0
    assert not winner.hand & js
    assert c("JS") not in winner.faceup
    assert not winner.taken_faceup[0] & js
    assert not winner.opponent_known & js
    assert winner.unseen & js
    # the face-up card the winner took is public: the loser knows it is in that hand
    assert loser.taken_faceup[1] == bit(c("9D"))
    assert loser.opponent_known == bit(c("9D"))


def test_next_stock_card_turned_after_each_trick():
    state = mixed()
    stock = parse_card_list(MIXED_STOCK)
    play(state, "AH", "2C")
    assert state.view(0).faceup == (stock[2],)
    assert state.view(0).facedown_left == 23
    play(state, "5S", "AS")
    assert state.view(1).faceup == (stock[4],)
    assert state.view(1).facedown_left == 21


def test_stage2_starts_after_13_tricks_with_winner_of_13th_leading():
    state = mixed()
    play_out(state, highest, until_tricks=12)
    assert state.view(0).stage == 1
    assert state.view(0).faceup == (parse_card_list(MIXED_STOCK)[24],)
    play_out(state, highest, until_tricks=13)
    view = state.view(state.to_act)
    assert view.stage == 2
    assert view.faceup == ()
    assert view.facedown_left == 0
    assert state.to_act == state.tricks[12].winner
    assert [h.bit_count() for h in state.hands] == [13, 13]
    log_length = len(state.log)
    play_out(state, highest, until_tricks=14)
    assert state.log[log_length][0] == state.tricks[12].winner  # led trick 14
    assert state.tricks[13].leader == state.tricks[12].winner
    assert all(entry[1] == "play" for entry in state.log[log_length:])  # no drawing


def test_stage2_has_no_drawing():
    state = mixed()
    play_out(state, highest)
    stage2_log = state.log[-26:]
    assert all(entry[1] == "play" for entry in stage2_log)
    assert sum(1 for entry in state.log if entry[1] == "take") == 13
    assert sum(1 for entry in state.log if entry[1] == "draw") == 13


def test_hand_has_26_tricks():
    state = mixed()
    play_out(state, lowest)
    assert state.over
    assert len(state.tricks) == 26
    assert [t.number for t in state.tricks] == list(range(1, 27))
    assert state.hands == [0, 0]
    assert state.outcome().facts["tricks_played"] == 26
    with pytest.raises(RuleError, match="the hand is over"):
        state.apply(c("AS"))


@pytest.mark.parametrize("w", range(14))
def test_split_layout_splits_stage2_as_designed(w):
    state = split_deal(w)
    play_out(state)
    facts = state.outcome().facts
    assert facts["stage1_tricks"] == [0, 13]
    assert facts["stage2_tricks"] == [13 - w, w]


# -- scoring -------------------------------------------------------------------------


def test_count_stage2_scores_tricks_minus_6():
    state = split_deal(9)  # seat 1: 13 + 9 tricks, 9 of them in stage 2
    play_out(state)
    outcome = state.outcome()
    assert outcome.tricks == (4, 22)
    assert outcome.result == ("loss", "win")
    assert outcome.score == (0.0, 3.0)
    assert outcome.net == (-3.0, 3.0)
    state = split_deal(2)  # seat 0 wins no stage-1 trick but 11 of stage 2
    play_out(state)
    outcome = state.outcome()
    assert outcome.tricks == (11, 15)
    assert outcome.result == ("win", "loss")
    assert outcome.score == (5.0, 0.0)


def test_count_stage2_7_6_is_the_smallest_win():
    state = split_deal(6)
    play_out(state)
    assert state.outcome().score == (1.0, 0.0)
    assert state.outcome().result == ("win", "loss")


def test_count_all_scores_tricks_minus_13():
    state = split_deal(3, count="all")  # 16 tricks = +3, as in docs/rules/german-whist.md
    play_out(state)
    outcome = state.outcome()
    assert outcome.tricks == (10, 16)
    assert outcome.score == (0.0, 3.0)
    assert outcome.net == (-3.0, 3.0)
    assert outcome.result == ("loss", "win")


def test_count_all_13_13_is_a_draw():
    state = split_deal(0, count="all")
    play_out(state)
    outcome = state.outcome()
    assert outcome.tricks == (13, 13)
    assert outcome.result == ("draw", "draw")
    assert outcome.score == (0.0, 0.0)
    assert outcome.net == (0.0, 0.0)


def test_count_stage2_13_0_in_stage2_is_not_a_draw():
    state = split_deal(0)  # the same 13-13 hand under the classic count
    play_out(state)
    assert state.outcome().result == ("win", "loss")
    assert state.outcome().score == (7.0, 0.0)


def test_count_weighted_scores_half_the_difference_of_totals():
    # w = 3: seat 1 has 13 + 2*3 = 19 points, seat 0 has 2*10 = 20 (more tricks still lose)
    state = split_deal(3, count="weighted")
    play_out(state)
    outcome = state.outcome()
    assert outcome.tricks == (10, 16)
    assert outcome.result == ("win", "loss")
    assert outcome.score == (0.5, 0.0)
    assert outcome.net == (0.5, -0.5)
    # w = 7: 13 + 14 = 27 against 12
    state = split_deal(7, count="weighted")
    play_out(state)
    assert state.outcome().score == (0.0, 7.5)
    assert state.outcome().result == ("loss", "win")


def test_race_to_ends_hand_when_reached_and_scores_1():
    # w = 1: seat 1 wins stage-2 trick 1, seat 0 the rest; its 7th is trick 21
    state = split_deal(1, race_to=7)
    play_out(state)
    outcome = state.outcome()
    assert state.over
    assert len(state.tricks) == 21
    assert outcome.facts["tricks_played"] == 21
    assert outcome.facts["stage2_tricks"] == [7, 1]
    assert outcome.facts["race_winner"] == 0
    assert outcome.result == ("win", "loss")
    assert outcome.score == (1.0, 0.0)
    assert outcome.net == (1.0, -1.0)
    assert state.view(0).legal == 0
    with pytest.raises(RuleError):
        state.apply(lowest(state.hands[0]))


def test_race_to_counts_in_units_of_count():
    # under count = "stage2" seat 1's 13 stage-1 tricks count nothing towards 7
    state = split_deal(1, race_to=7)
    play_out(state, until_tricks=13)
    assert not state.over
    # under count = "weighted" seat 1 reaches 19 = 13 + 2*3 at trick 16, though it
    # would lose the whole hand 19-20
    state = split_deal(3, count="weighted", race_to=19)
    play_out(state)
    assert len(state.tricks) == 16
    assert state.outcome().result == ("loss", "win")
    assert state.outcome().score == (0.0, 1.0)


def test_race_to_reached_in_stage1_ends_without_drawing():
    state = split_deal(1, count="all", race_to=5)
    play_out(state)
    assert len(state.tricks) == 5
    assert state.log[-1][1] == "play"
    assert [h.bit_count() for h in state.hands] == [12, 12]
    assert state.outcome().facts["race_winner"] == 1
    assert state.outcome().score == (0.0, 1.0)


def test_race_to_not_reached_higher_units_wins_1():
    # documented reading: w = 6 splits stage 2 7-6, nobody reaches 9
    state = split_deal(6, race_to=9)
    play_out(state)
    outcome = state.outcome()
    assert len(state.tricks) == 26
    assert outcome.facts["race_winner"] is None
    assert outcome.score == (1.0, 0.0)
    assert outcome.result == ("win", "loss")


def test_race_to_not_reached_equal_units_is_a_draw():
    state = split_deal(0, count="all", race_to=20)
    play_out(state)
    assert state.outcome().result == ("draw", "draw")
    assert state.outcome().net == (0.0, 0.0)


def test_forfeit_loses_with_the_largest_score():
    class Broken:
        def choose(self, view, rng):
            raise RuntimeError("boom")

    for variant, amount in (({}, 7.0), ({"count": "all"}, 13.0),
                            ({"count": "weighted"}, 19.5), ({"race_to": 7}, 1.0)):
        played = play_deal(game(**variant), [RandomStrategy(), Broken()], seed=3, dealer=0)
        outcome = played.outcome
        assert outcome.result == ("win", "forfeit")
        assert outcome.forfeit_seat == 1
        assert outcome.score == (amount, 0.0)
        assert outcome.net == (amount, -amount)
        assert "seat 1" in outcome.error and "boom" in outcome.error


# -- open stock ----------------------------------------------------------------------


def test_open_stock_lays_top_k_cards_face_up_and_trump_is_first_stock_card():
    state = mixed(open_stock=3)
    stock = parse_card_list(MIXED_STOCK)
    view = state.view(1)
    assert view.faceup == tuple(stock[:3])
    assert view.facedown_left == 23
    assert view.trump == 2  # suit of 9D, the first stock card


def test_open_stock_winner_chooses_any_faceup():
    state = mixed(open_stock=3)
    stock = parse_card_list(MIXED_STOCK)  # 9D JS TH | 4D AC ...
    play(state, "AH", "2C")
    view = state.view(1)
    assert state.to_act == 1
    assert view.phase == "take"
    assert view.legal == bit(stock[0]) | bit(stock[1]) | bit(stock[2])
    assert state.view(0).legal == 0
    with pytest.raises(RuleError) as info:
        state.apply(c("KH"))  # a hand card is not a face-up card
    assert info.value.rule == "winner takes a face-up card"
    play(state, "TH")  # the third face-up card
    assert state.log[-2:] == [(1, "take", c("TH"), True), (0, "draw", c("4D"), False)]
    assert state.hands[1] >> c("TH") & 1
    assert state.hands[0] >> c("4D") & 1
    assert state.view(0).faceup == (c("9D"), c("JS"), c("AC"))  # refilled from the stock
    assert state.view(0).facedown_left == 21
    assert state.view(0).phase == "play"
    assert state.to_act == 1


def test_open_stock_loser_takes_earliest_faceup_when_no_facedown_left():
    state = mixed(open_stock=25)  # one face-down card
    stock = parse_card_list(MIXED_STOCK)
    assert state.view(0).facedown_left == 1
    play(state, "AH", "2C", "AC")  # seat 1 wins and takes AC
    assert state.log[-1] == (0, "draw", stock[25], False)  # the face-down card first
    assert state.view(0).facedown_left == 0
    assert state.view(1).taken_faceup[0] == 0
    play(state, "KH", "2H", "KD")  # seat 1 wins again (seat 0 drew 2H) and takes KD
    assert state.log[-1] == (0, "draw", stock[0], False)  # 9D was turned earliest
    assert state.view(1).taken_faceup[0] == bit(stock[0])  # now public
    assert state.view(1).faceup == tuple(
        card for card in stock[:25] if card not in (c("AC"), c("KD"), stock[0])
    )


def test_open_stock_last_faceup_card_is_taken_without_a_choice():
    state = mixed(open_stock=2)
    play_out(state, lowest, until_tricks=12)
    assert len(state.view(0).faceup) == 2
    play_out(state, lowest, until_tricks=13)
    assert state.view(state.to_act).phase == "take"
    winner = state.to_act
    state.apply(lowest(state.view(winner).legal))
    assert state.view(0).stage == 2
    assert state.view(0).faceup == ()
    assert [h.bit_count() for h in state.hands] == [13, 13]
    assert state.log[-1][0] == 1 - winner and state.log[-1][1] == "draw"


# -- errors --------------------------------------------------------------------------


def test_illegal_card_not_held_names_seat_card_rule():
    state = mixed()
    with pytest.raises(RuleError) as info:
        state.apply(c("AS"))  # seat 1 leads; AS is seat 0's
    error = info.value
    assert error.seat == 1
    assert error.action == "AS"
    assert error.rule == "card not held"
    assert "seat 1" in str(error) and "AS" in str(error) and "card not held" in str(error)


def test_revoke_error_names_seat_card_and_suit():
    state = mixed()
    play(state, "7S")
    with pytest.raises(RuleError) as info:
        state.apply(c("2D"))
    error = info.value
    assert error.seat == 0
    assert error.action == "2D"
    assert error.rule == "follow suit"
    message = str(error)
    assert "seat 0 played 2D but must follow spades" in message
    assert "holds AS KS QS 4S 3S 2S" in message


def test_out_of_turn_card_of_the_other_seat_is_refused():
    # the loop applies actions for ``to_act`` only: a card of the seat not to act is
    # "not held" by the seat to act, and the seat not to act has nothing legal
    state = mixed()
    play(state, "7S")
    assert state.view(1).legal == 0
    with pytest.raises(RuleError) as info:
        state.apply(c("8C"))  # seat 1's card while seat 0 is to act
    assert info.value.seat == 0
    assert info.value.rule == "card not held"


def test_wrong_phase_card_instead_of_take_is_refused():
    state = mixed(open_stock=3)
    play(state, "AH", "2C")
    with pytest.raises(RuleError, match="may only take a face-up stock card"):
        state.apply(c("AD"))  # a stock card that is still face down
    assert state.view(1).phase == "take"


@pytest.mark.parametrize("action", [-1, 52, 1000, "AS", 1.0, None])
def test_action_that_is_not_a_card_is_refused(action):
    state = mixed()
    with pytest.raises(RuleError) as info:
        state.apply(action)
    assert info.value.seat == 1
    assert "seat 1" in str(info.value)


def test_no_action_accepted_after_the_hand():
    state = mixed()
    play_out(state)
    with pytest.raises(RuleError, match="the hand is over"):
        state.apply(0)


def test_integer_like_card_is_accepted_or_refused_with_a_rule_error():
    # a strategy built on NumPy may return numpy.int64: the engine must either play
    # it as the card or refuse it with a RuleError, never fail with another error
    state = mixed()
    try:
        state.apply(np.int64(c("AH")))
    except RuleError:
        pass
    else:
        assert state.log[-1] == (1, "play", c("AH"), True)


def test_bool_is_not_taken_for_a_card():
    state = mixed()
    with pytest.raises(RuleError):
        state.apply(True)  # True == 1 == 3S, which seat 1 does not hold


# -- variants ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "key", "allowed"),
    [
        ({"count": "most"}, "count", '"stage2", "all", "weighted"'),
        ({"trumps": "hearts"}, "trumps", '"upcard", "none"'),
        ({"match": "best_of_4"}, "match", '"best_of_3", "best_of_5"'),
        ({"match": "best_of_1"}, "match", '"single"'),
        ({"match": "twice"}, "match", '"single"'),
        ({"open_stock": 0}, "open_stock", "1..26"),
        ({"open_stock": 27}, "open_stock", "1..26"),
        ({"open_stock": "2"}, "open_stock", "1..26"),
        ({"race_to": 0}, "race_to", "1..13"),
        ({"race_to": 14}, "race_to", "1..13"),
        ({"race_to": 27, "count": "all"}, "race_to", "1..26"),
        ({"race_to": 40, "count": "weighted"}, "race_to", "1..39"),
        ({"race_to": "7"}, "race_to", "1..13"),
    ],
)
def test_bad_variant_values_name_key_and_allowed_values(settings, key, allowed):
    with pytest.raises(VariantError) as info:
        make_game("german_whist", settings)
    message = str(info.value)
    assert f"variant.{key} = {as_toml(settings[key])}" in message  # "most", as TOML spells it
    assert "allowed values" in message
    assert allowed in message


def test_unknown_variant_key_names_key_and_allowed_keys():
    with pytest.raises(VariantError) as info:
        make_game("german_whist", {"jokers": 2}, where="configs/x.toml")
    message = str(info.value)
    assert "configs/x.toml" in message
    assert "'jokers'" in message
    assert "count, match, open_stock, race_to, trumps" in message


def test_variant_defaults_are_the_classic_rules():
    variant = game().variant
    assert variant == GermanWhistVariant()
    assert variant.as_dict() == {
        "count": "stage2",
        "match": "single",
        "open_stock": 1,
        "race_to": None,
        "trumps": "upcard",
    }


def test_good_variant_values_are_accepted():
    for settings in (
        {"count": "all", "race_to": 26},
        {"count": "weighted", "race_to": 39},
        {"match": "best_of_7"},
        {"open_stock": 26},
        {"trumps": "none", "race_to": 13},
    ):
        assert make_game("german_whist", settings).variant.as_dict().items() >= settings.items()


def test_german_whist_has_two_players_and_dealer_0_or_1():
    with pytest.raises(VariantError, match="german_whist is played by 2 players, not 3"):
        make_game("german_whist", {}, players=3)
    with pytest.raises(VariantError, match="dealer must be seat 0 or 1"):
        game().new_deal(1, dealer=2)


# -- match play ----------------------------------------------------------------------


def match_after(match: str, results0: list[str]):
    m = game(match=match).new_match()
    for r in results0:
        assert m.next_dealer() is not None, f"match over before {results0}"
        m.record(outcome_for(r))
    return m


def test_single_hand_match_is_one_hand():
    assert match_after("single", ["win"]).next_dealer() is None
    assert match_after("single", ["loss"]).result()["match_result"] == ("loss", "win")


def test_match_best_of_3_ends_when_leader_cannot_be_caught():
    assert match_after("best_of_3", ["win"]).next_dealer() is not None
    assert match_after("best_of_3", ["win", "win"]).next_dealer() is None
    assert match_after("best_of_3", ["win", "loss"]).next_dealer() is not None
    assert match_after("best_of_3", ["win", "loss", "loss"]).next_dealer() is None
    # 1-0 with a draw: the trailer can still level, so the third hand is played
    assert match_after("best_of_3", ["win", "draw"]).next_dealer() is not None
    done = match_after("best_of_3", ["loss", "loss"])
    assert done.result()["match_result"] == ("loss", "win")
    assert done.result()["match_hands_won"] == (0, 2)


def test_match_best_of_5_ends_when_leader_cannot_be_caught():
    assert match_after("best_of_5", ["win", "win"]).next_dealer() is not None
    assert match_after("best_of_5", ["win", "win", "win"]).next_dealer() is None
    assert match_after("best_of_5", ["win", "loss", "win", "loss"]).next_dealer() is not None
    assert match_after("best_of_5", ["win", "win", "loss", "win"]).next_dealer() is None


def test_match_tied_is_decided_by_extra_hand():
    m = match_after("best_of_3", ["win", "loss", "draw"])
    assert m.next_dealer() is not None  # level after 3: an extra hand
    m.record(outcome_for("draw"))
    assert m.next_dealer() is not None  # still level: another one
    m.record(outcome_for("loss"))
    assert m.next_dealer() is None
    assert m.result()["match_result"] == ("loss", "win")
    assert m.result()["match_hands_won"] == (1, 2)
    assert m.hands_played == 5


def test_match_points_add_up_the_nets():
    m = match_after("best_of_3", ["win", "draw", "loss", "loss"])
    assert m.result()["match_points"] == (-1.0, 1.0)


def test_dealer_alternates_in_match():
    m = game(match="best_of_5").new_match()
    dealers = []
    for r in ["draw", "draw", "draw", "draw", "draw", "draw", "win"]:
        dealers.append(m.next_dealer())
        m.record(outcome_for(r))
    assert dealers == [0, 1, 0, 1, 0, 1, 0]
    assert m.next_dealer() is None


def decided(wins: list[int], played: int, best_of: int) -> bool:
    """Over when the leader cannot be caught, or when level no more after N."""
    if played >= best_of:
        return wins[0] != wins[1]
    return abs(wins[0] - wins[1]) > best_of - played


def test_played_match_alternates_dealer_and_ends_as_the_rules_say():
    g = game(match="best_of_5", count="all")
    for match_seed in range(8):
        deals, result = play_match(g, [RandomStrategy(), RandomStrategy()], match_seed)
        assert [d.dealer for d in deals] == [i % 2 for i in range(len(deals))]
        assert len({d.seed for d in deals}) == len(deals)
        wins = [0, 0]
        for i, d in enumerate(deals):
            assert not decided(wins, i, 5)
            for s in (0, 1):
                wins[s] += d.outcome.result[s] == "win"
        assert decided(wins, len(deals), 5)
        assert result["match_hands_won"] == tuple(wins)
        assert result["match_points"] == tuple(
            sum(d.outcome.net[s] for d in deals) for s in (0, 1)
        )
