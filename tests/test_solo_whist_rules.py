"""Solo Whist, one test per rule of docs/rules/solo-whist.md, on hand-built deals.

Two layouts (``SoloWhist.deal_from_layout``; the dealer's LAST listed card is the
upcard) make every trick's winner known in advance:

``SUITS_LAYOUT``: seat ``s`` holds the whole of suit ``s`` (0 spades, 1 hearts,
2 diamonds, 3 clubs), ace first, so with dealer ``d`` the upcard is the two of suit
``d``. Every trick is led in one suit that nobody else holds: under a trump the
holder of the trump suit wins every trick it plays to; with no trump the leader wins,
and keeps the lead forever. With dealer 0 (upcard 2S, trump spades for the upcard
contracts) seat 0 wins every trick, and in a misère seat 1 (eldest) wins every trick.

``MIXED`` (dealer 0, upcard 8S): seat 0 holds AS..9S, 8S and six low hearts 2H..7H;
seat 1 the seven top hearts 8H..AH and 7S..2S; seats 2 and 3 all diamonds and all
clubs. Every seat playing its HIGHEST legal card (``play_highest``): seat 1 leads
AH..9H and wins tricks 1-6 while seat 0 follows low; on trick 7 (8H led) seat 0 is
void in hearts and plays AS; from trick 8 on seat 0 wins every trick with its spades.
So with spades trump seat 0 takes tricks 7-13 (7 tricks) and seat 1 tricks 1-6; with
no trump or hearts trump seat 1 takes tricks 1-7 and seat 0 tricks 8-13.
``test_mixed_layout_splits_tricks_as_designed`` checks that construction itself.

Calls are written as in logs (``"pass prop cop solo trump:H"``) and applied with
``game.parse_action``; the seat acting is always ``state.to_act``, starting with
eldest (the dealer's left).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import pytest

from strategies.random_play import RandomStrategy
from whist_sim.cards import FULL_DECK, bit, cards_str, highest, parse_card, parse_cards
from whist_sim.games import make_game
from whist_sim.games.base import DealOutcome, RuleError, VariantError
from whist_sim.games.solo_whist import (
    ABUNDANCE_DECLARED,
    BIDS,
    CONTRACTS,
    COP,
    NAME_TRUMP,
    PASS,
    PROP,
    ROYAL_ABUNDANCE,
    SoloWhist,
    SoloWhistDeal,
    SoloWhistSession,
    SoloWhistVariant,
)
from whist_sim.play import play_deal, play_match
from whist_sim.rng import shuffled_deck

S, H, D, C = 0, 1, 2, 3
NO_TRUMP = -1
ALL_SUITS = sum(1 << (NAME_TRUMP + suit) for suit in range(4))
SUITS_LAYOUT = tuple(" ".join(rank + suit for rank in "AKQJT98765432") for suit in "SHDC")
MIXED = (
    "AS KS QS JS TS 9S 2H 3H 4H 5H 6H 7H 8S",
    "AH KH QH JH TH 9H 8H 7S 6S 5S 4S 3S 2S",
    SUITS_LAYOUT[D],
    SUITS_LAYOUT[C],
)


def game(**variant: Any) -> SoloWhist:
    return make_game("solo_whist", variant)  # type: ignore[return-value]


def layout(hands: tuple[str, ...] = SUITS_LAYOUT, dealer: int = 0, **variant: Any) -> SoloWhistDeal:
    return game(**variant).deal_from_layout(hands, dealer)  # type: ignore[arg-type]


def call(state: SoloWhistDeal, calls: str) -> None:
    """Apply space-separated calls (``"prop pass cop"``, ``"trump:H"``) for whoever acts."""
    for text in calls.split():
        state.apply(state.game.parse_action(text))


def play(state: SoloWhistDeal, cards: str) -> None:
    for text in cards.split():
        state.apply(parse_card(text))


def play_highest(state: SoloWhistDeal, tricks: int = 13) -> None:
    """Every seat plays its highest legal card until ``tricks`` are complete or it is over."""
    while not state.over and len(state.tricks) < tricks:
        state.apply(highest(state.legal))


def refused(state: SoloWhistDeal, action: int) -> RuleError:
    """Apply an illegal action; check it is refused and changes nothing."""
    before = (list(state.log), state.to_act, state.legal, state.phase, state.view(0))
    with pytest.raises(RuleError) as info:
        state.apply(action)
    assert (list(state.log), state.to_act, state.legal, state.phase, state.view(0)) == before
    return info.value


def winners(state: SoloWhistDeal) -> list[int]:
    return [record.winner for record in state.tricks]


# -- the deal --------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_is_one_card_at_a_time_starting_left_of_the_dealer(dealer):
    seed = 4242
    deck = shuffled_deck(seed)
    state = game().new_deal(seed, dealer)
    for seat in range(4):
        expected = sum(bit(card) for card in deck[(seat - dealer - 1) % 4::4])
        assert state.hands[seat] == expected
        assert state.hands[seat].bit_count() == 13
    assert sum(state.hands) == FULL_DECK
    record = state.deal_record()
    assert record["hands"] == [cards_str(hand) for hand in state.hands]
    assert record["dealer"] == dealer
    assert record["stock"] is None


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_dealers_last_card_is_the_upcard_and_stays_in_the_dealers_hand(dealer):
    deck = shuffled_deck(99)
    state = game().new_deal(99, dealer)
    assert state.upcard == deck[51]
    assert state.hands[dealer] >> deck[51] & 1
    assert state.deal_record()["upcard"] == cards_str([deck[51]])
    built = layout(SUITS_LAYOUT, dealer)
    assert built.upcard == parse_card("2" + "SHDC"[dealer])
    assert built.hands[dealer] == parse_cards(SUITS_LAYOUT[dealer])


def test_layout_must_use_13_cards_each_and_all_52():
    with pytest.raises(VariantError, match="13 cards for each of the four seats"):
        game().deal_from_layout(("AS", *SUITS_LAYOUT[1:]), 0)  # type: ignore[arg-type]
    with pytest.raises(VariantError, match="each of the 52 cards exactly once"):
        game().deal_from_layout((SUITS_LAYOUT[0],) * 4, 0)  # type: ignore[arg-type]


def test_upcard_is_known_to_all_until_it_is_played():
    state = layout()  # dealer 0 holds all spades; the upcard is 2S
    call(state, "solo pass pass pass")  # seat 1's solo, spades trump
    for seat in range(4):
        view = state.view(seat)
        assert view.upcard == parse_card("2S")
        assert view.upcard_held is True
    play(state, "AH AD AC")
    assert all(state.view(seat).upcard_held for seat in range(4))
    play(state, "2S")  # the dealer trumps with the upcard itself
    for seat in range(4):
        assert state.view(seat).upcard == parse_card("2S")
        assert state.view(seat).upcard_held is False
    assert state.tricks[0].winner == 0


def test_upcard_suit_is_trump_for_the_upcard_contracts():
    state = layout(SUITS_LAYOUT, dealer=1)  # upcard 2H
    call(state, "solo pass pass pass")  # seat 2 (eldest) solos
    assert state.trump == H
    assert state.deal_record()["trump"] == "H"


# -- the auction -----------------------------------------------------------------------


def test_auction_starts_with_eldest_and_goes_clockwise_among_players_who_have_not_passed():
    state = layout(dealer=2)
    asked = []
    for text in ["prop", "pass", "solo", "pass", "misere", "pass"]:
        asked.append(state.to_act)
        call(state, text)
    # 3 props, 0 passes, 1 solos, 2 passes, 3 misère: seats 0 and 2 are skipped for good
    assert asked == [3, 0, 1, 2, 3, 1]
    assert state.phase == "play"  # 1 passed too: only the holder, seat 3, is left
    assert (CONTRACTS[state.contract].name, state.declarer) == ("misere", 3)


def test_a_pass_is_final_eldest_included():
    state = layout(dealer=0)
    call(state, "pass")  # eldest
    asked = []
    for text in ["solo", "misere", "pass", "abundance", "pass"]:
        asked.append(state.to_act)
        assert state.view(1).legal == 0
        call(state, text)
    assert asked == [2, 3, 0, 2, 3]  # seat 1 is skipped for good
    assert (CONTRACTS[state.contract].name, state.declarer) == ("abundance", 2)


def test_each_bid_must_be_higher_than_the_current_bid():
    state = layout()
    call(state, "misere")
    legal_calls = [name for name, action in BIDS.items() if state.legal >> action & 1]
    assert legal_calls == [
        "pass", "abundance", "royal_abundance", "spread_misere", "abundance_declared",
    ]
    for lower in ("prop", "solo", "misere"):
        error = refused(state, BIDS[lower])
        assert (error.seat, error.action, error.rule) == (2, lower, "bid higher")


def test_a_later_player_may_cop_a_prop_and_the_two_play_together():
    state = layout()
    call(state, "prop pass cop pass")  # 1 props, 3 cops
    assert state.phase == "play"
    assert (CONTRACTS[state.contract].name, state.declarer, state.partner) == (
        "prop_and_cop", 1, 3,
    )
    assert state.trump == S
    for seat in range(4):
        assert (state.view(seat).declarer, state.view(seat).partner) == (1, 3)


def test_cop_after_an_overcall_is_illegal():
    state = layout()
    call(state, "prop solo")
    assert not state.legal >> COP & 1
    error = refused(state, COP)
    assert (error.seat, error.action, error.rule) == (3, "cop", "cop")
    assert "overcalled" in str(error)


def test_a_prop_can_be_copped_only_once():
    state = layout()
    call(state, "prop cop")
    assert not state.legal >> COP & 1
    error = refused(state, COP)
    assert (error.seat, error.rule) == (3, "cop")
    assert "already copped" in str(error)


def test_cop_without_a_prop_is_illegal():
    state = layout()
    assert not state.legal >> COP & 1
    error = refused(state, COP)
    assert (error.seat, error.rule) == (1, "cop")
    assert "no Prop" in str(error)


def test_the_holder_of_an_overcalled_bid_may_bid_again_higher():
    state = layout()
    call(state, "solo misere pass pass")
    assert state.to_act == 1
    assert state.legal >> BIDS["abundance"] & 1
    call(state, "abundance pass")
    assert state.phase == "trump"
    assert (CONTRACTS[state.contract].name, state.declarer) == ("abundance", 1)


def test_a_prop_nobody_cops_with_no_higher_bid_is_thrown_in():
    state = layout()
    call(state, "prop pass pass pass")
    assert state.over
    assert state.contract == -1
    outcome = state.outcome()
    assert outcome.net == outcome.score == (0.0, 0.0, 0.0, 0.0)
    assert outcome.result == ("draw",) * 4
    assert outcome.facts["contract"] is None
    assert outcome.facts["made"] is None
    assert outcome.facts["tricks_played"] == 0
    assert outcome.facts["bids"] == "1:prop 2:pass 3:pass 0:pass"
    assert state.deal_record()["trump"] == "none"


def test_all_four_passing_is_a_throw_in():
    state = layout(dealer=3)
    call(state, "pass pass pass pass")
    assert state.over
    outcome = state.outcome()
    assert outcome.net == (0.0, 0.0, 0.0, 0.0)
    assert outcome.facts["contract"] is None
    assert outcome.facts["bids"] == "0:pass 1:pass 2:pass 3:pass"


def test_auction_ends_when_all_but_the_holders_have_passed():
    state = layout()
    call(state, "solo pass pass")
    assert state.phase == "bid" and state.to_act == 0
    call(state, "pass")
    assert state.phase == "play"  # seat 1, the holder, is not asked again
    copped = layout()
    call(copped, "prop cop pass")
    assert copped.phase == "bid" and copped.to_act == 0
    call(copped, "pass")
    assert copped.phase == "play"  # two holders: 1 and 2


# -- the whole auction tree (dealer 2, so eldest is seat 3) ------------------------------

TREE_DEALER = 2


@cache
def auction_tree() -> tuple[tuple[tuple[tuple[int, int], ...], SoloWhistDeal], ...]:
    """Every auction from one deal: (calls so far as (seat, call), the state after them)."""
    g = game()
    nodes = []

    def visit(calls: tuple[tuple[int, int], ...]) -> None:
        state = g.deal_from_layout(SUITS_LAYOUT, TREE_DEALER)  # type: ignore[arg-type]
        for _, action in calls:
            state.apply(action)
        nodes.append((calls, state))
        if state.phase != "bid":
            return
        for action in range(PASS, ABUNDANCE_DECLARED + 1):
            if state.legal >> action & 1:
                visit((*calls, (state.to_act, action)))

    visit(())
    return tuple(nodes)


def standing(calls: tuple[tuple[int, int], ...]) -> tuple[int, list[int], bool]:
    """(highest call or -1, its holders, copped) re-derived from the calls."""
    top, holders, copped = -1, [], False
    for seat, action in calls:
        if action == COP:
            holders.append(seat)
            copped = True
        elif action != PASS:
            top, holders, copped = action, [seat], False
    return top, holders, copped


def test_auction_tree_is_complete():
    nodes = auction_tree()
    assert len(nodes) > 5000
    ended = [state for _, state in nodes if state.phase != "bid"]
    assert {state.contract for state in ended} == set(range(7)) | {-1}


def test_every_auction_asks_eldest_first_then_the_next_player_clockwise_who_has_not_passed():
    for calls, state in auction_tree():
        if state.phase != "bid":
            continue
        if not calls:
            assert state.to_act == (TREE_DEALER + 1) % 4
            continue
        passed = {seat for seat, action in calls if action == PASS}
        last = calls[-1][0]
        expected = next(s % 4 for s in range(last + 1, last + 5) if s % 4 not in passed)
        assert state.to_act == expected, calls


def test_in_every_auction_a_player_who_passed_never_calls_again():
    for calls, _ in auction_tree():
        passed: set[int] = set()
        for seat, action in calls:
            assert seat not in passed, calls
            if action == PASS:
                passed.add(seat)


def test_in_every_auction_only_higher_bids_are_offered():
    for calls, state in auction_tree():
        if state.phase != "bid":
            continue
        top, _, _ = standing(calls)
        bids = {a for a in range(PROP, ABUNDANCE_DECLARED + 1) if a != COP and state.legal >> a & 1}
        assert bids == {a for a in range(PROP, ABUNDANCE_DECLARED + 1) if a != COP and a > top}
        assert state.legal >> PASS & 1


def test_in_every_auction_cop_only_accepts_a_standing_prop_of_another_player():
    own_prop_turns = 0
    for calls, state in auction_tree():
        if state.phase != "bid":
            continue
        top, holders, copped = standing(calls)
        may_cop = top == PROP and not copped and state.to_act not in holders
        assert bool(state.legal >> COP & 1) == may_cop, calls
        own_prop_turns += top == PROP and state.to_act in holders
    # A proposer is never asked while its Prop stands uncopped and unovercalled: every
    # other player must have acted, and passing all three would end the auction.
    assert own_prop_turns == 0


def test_every_auction_ends_exactly_when_all_but_the_holders_have_passed():
    for calls, state in auction_tree():
        top, holders, copped = standing(calls)
        passed = {seat for seat, action in calls if action == PASS}
        done = len(passed | set(holders)) == 4
        assert (state.phase != "bid") == done, calls
        if not done:
            continue
        if top == -1 or (top == PROP and not copped):
            assert state.over and state.contract == -1, calls
            continue
        assert CONTRACTS[state.contract].bid == top
        assert state.declarer == holders[0]
        assert state.partner == (holders[1] if top == PROP else -1)


# -- the seven contracts ------------------------------------------------------------------


def test_contract_table_lowest_first_with_targets_trumps_and_both_ladders():
    assert [(c.name, c.target, c.trump, c.pays, c.classic_pays) for c in CONTRACTS] == [
        ("prop_and_cop", 8, "upcard", 1, 1),
        ("solo", 5, "upcard", 3, 1),
        ("misere", 0, "none", 3, 2),
        ("abundance", 9, "named_other", 5, 3),
        ("royal_abundance", 9, "upcard", 5, 3),
        ("spread_misere", 0, "none", 6, 4),
        ("abundance_declared", 13, "named_any", 8, 6),
    ]
    assert [c.bid for c in CONTRACTS] == sorted(c.bid for c in CONTRACTS)


# One deal per contract won and per contract lost, on SUITS_LAYOUT with dealer 0
# (upcard 2S): (id, calls, declarer, partner, trump, first leader, tricks played when
# decided, declarer side's tricks, made, net on the default ladder, net on the classic).
SCENARIOS = [
    ("prop_and_cop made", "prop pass pass cop", 1, 0, S, 1, 8, 8, True,
     (2, 2, -2, -2), (2, 2, -2, -2)),
    ("prop_and_cop failed", "prop cop pass pass", 1, 2, S, 1, 6, 0, False,
     (2, -2, -2, 2), (2, -2, -2, 2)),
    ("solo made", "pass pass pass solo", 0, -1, S, 1, 5, 5, True,
     (9, -3, -3, -3), (3, -1, -1, -1)),
    ("solo failed", "solo pass pass pass", 1, -1, S, 1, 9, 0, False,
     (3, -9, 3, 3), (1, -3, 1, 1)),
    ("misere made", "pass misere pass pass", 2, -1, NO_TRUMP, 1, 13, 0, True,
     (-3, -3, 9, -3), (-2, -2, 6, -2)),
    ("misere failed", "misere pass pass pass", 1, -1, NO_TRUMP, 1, 1, 1, False,
     (3, -9, 3, 3), (2, -6, 2, 2)),
    ("abundance made", "abundance pass pass pass trump:H", 1, -1, H, 1, 9, 9, True,
     (-5, 15, -5, -5), (-3, 9, -3, -3)),
    ("abundance failed", "pass abundance pass pass trump:C", 2, -1, C, 1, 5, 0, False,
     (5, 5, -15, 5), (3, 3, -9, 3)),
    ("royal_abundance made", "pass pass pass royal_abundance", 0, -1, S, 1, 9, 9, True,
     (15, -5, -5, -5), (9, -3, -3, -3)),
    ("royal_abundance failed", "royal_abundance pass pass pass", 1, -1, S, 1, 5, 0, False,
     (5, -15, 5, 5), (3, -9, 3, 3)),
    ("spread_misere made", "pass spread_misere pass pass", 2, -1, NO_TRUMP, 1, 13, 0, True,
     (-6, -6, 18, -6), (-4, -4, 12, -4)),
    ("spread_misere failed", "spread_misere pass pass pass", 1, -1, NO_TRUMP, 1, 1, 1, False,
     (6, -18, 6, 6), (4, -12, 4, 4)),
    ("abundance_declared made", "abundance_declared pass pass pass trump:H", 1, -1, H, 1, 13,
     13, True, (-8, 24, -8, -8), (-6, 18, -6, -6)),
    ("abundance_declared failed", "pass abundance_declared pass pass trump:H", 2, -1, H, 2, 1,
     0, False, (8, 8, -24, 8), (6, 6, -18, 6)),
]


def scenarios(*fields: str):
    names = ("calls", "declarer", "partner", "trump", "leader", "stops", "side", "made",
             "net_default", "net_classic")
    rows = [tuple(row[1 + names.index(f)] for f in fields) for row in SCENARIOS]
    return pytest.mark.parametrize(",".join(fields), rows, ids=[row[0] for row in SCENARIOS])


@scenarios("calls", "declarer", "partner", "trump", "leader")
def test_each_contract_has_its_declarer_trump_and_lead(calls, declarer, partner, trump, leader):
    state = layout()
    call(state, calls)
    assert state.phase == "play"
    assert (state.declarer, state.partner, state.trump) == (declarer, partner, trump)
    assert state.to_act == state.leader == leader
    assert state.legal == state.hands[leader]
    view = state.view(3)
    assert (view.declarer, view.partner, view.trump, view.leader) == (
        declarer, partner, trump, leader,
    )


@scenarios("calls", "declarer", "stops", "side", "made")
def test_play_stops_as_soon_as_the_contract_is_decided(calls, declarer, stops, side, made):
    state = layout()
    call(state, calls)
    play_highest(state, stops - 1)
    assert not state.over
    play_highest(state, stops)
    assert state.over
    assert len(state.tricks) == stops
    facts = state.outcome().facts
    assert (facts["declarer"], facts["declarer_tricks"], facts["made"]) == (declarer, side, made)
    assert facts["tricks_played"] == stops


@pytest.mark.parametrize("payments", ["default", "classic"])
@scenarios("calls", "declarer", "partner", "made", "net_default", "net_classic")
def test_payments_follow_the_ladder_each_way(
    payments, calls, declarer, partner, made, net_default, net_classic
):
    state = layout(payments=payments)
    call(state, calls)
    play_highest(state)
    outcome = state.outcome()
    expected = net_default if payments == "default" else net_classic
    assert outcome.net == tuple(float(x) for x in expected)
    assert outcome.score == outcome.net
    assert sum(outcome.net) == 0
    side = {declarer, partner} - {-1}
    assert outcome.result == tuple(
        ("win" if made else "loss") if seat in side else ("loss" if made else "win")
        for seat in range(4)
    )


def test_prop_and_cop_pays_each_partner_per_defender():
    state = layout()
    call(state, "prop pass pass cop")
    play_highest(state)
    # each defender pays each partner 1: +2 to each partner, -2 to each defender
    assert state.outcome().net == (2.0, 2.0, -2.0, -2.0)


def test_solo_contracts_pay_the_declarer_three_times_the_amount():
    state = layout()
    call(state, "pass pass pass royal_abundance")
    play_highest(state)
    assert state.outcome().net == (15.0, -5.0, -5.0, -5.0)


def test_abundance_trump_is_named_when_the_auction_ends_and_differs_from_the_upcard():
    state = layout()  # upcard 2S
    call(state, "abundance pass pass")
    assert state.phase == "bid"  # not before the auction ends
    call(state, "pass")
    assert (state.phase, state.to_act) == ("trump", 1)
    assert state.legal == ALL_SUITS & ~(1 << (NAME_TRUMP + S))
    assert all(state.view(seat).legal == 0 for seat in (0, 2, 3))
    error = refused(state, state.game.parse_action("trump:S"))
    assert (error.seat, error.action, error.rule) == (1, "trump:S", "abundance trump")
    assert "seat 1" in str(error) and "trump:S" in str(error) and "upcard" in str(error)
    call(state, "trump:D")
    assert (state.phase, state.trump) == ("play", D)
    assert state.log[-1] == (1, "trump", NAME_TRUMP + D, True)


def test_royal_abundance_trump_is_the_upcard_suit():
    state = layout(dealer=1)  # upcard 2H; eldest is seat 2
    call(state, "royal_abundance pass pass pass")
    assert (state.phase, state.trump, state.declarer) == ("play", H, 2)
    assert [entry[1] for entry in state.log] == ["bid"] * 4  # no trump to name


def test_abundance_declared_declarer_names_any_suit_and_leads():
    state = layout()  # upcard 2S, eldest seat 1
    call(state, "pass pass abundance_declared pass")
    assert (state.phase, state.to_act) == ("trump", 3)
    assert state.legal == ALL_SUITS  # the upcard's suit too
    call(state, "trump:S")
    assert state.trump == S
    assert state.to_act == state.leader == 3


@pytest.mark.parametrize("bid", ["solo", "misere", "abundance", "spread_misere"])
def test_the_player_left_of_the_dealer_leads_every_other_contract(bid):
    state = layout(dealer=2)  # eldest is seat 3; seat 0 declares
    call(state, f"pass {bid} pass pass")
    if state.phase == "trump":
        call(state, "trump:H")
    assert state.declarer == 0
    assert state.to_act == state.leader == 3


@pytest.mark.parametrize("bid", ["misere", "spread_misere"])
def test_misere_contracts_have_no_trump(bid):
    state = layout()
    call(state, f"pass {bid} pass pass")
    assert state.trump == NO_TRUMP
    assert state.deal_record()["trump"] == "none"
    play(state, "AH AD AC AS")  # the upcard's suit does not trump
    assert state.tricks[0].winner == 1


def test_spread_misere_exposes_the_declarers_hand_after_trick_one_not_before():
    state = layout()
    call(state, "pass spread_misere pass pass")  # seat 2 holds the diamonds
    for cards in ("AH", "AD", "AC"):
        assert all(state.view(seat).exposed == 0 for seat in range(4))
        play(state, cards)
    assert all(state.view(seat).exposed == 0 for seat in range(4))
    play(state, "AS")  # trick 1 complete
    rest = parse_cards("KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D")
    assert [state.view(seat).exposed for seat in range(4)] == [rest] * 4
    play(state, "KH KD")
    assert all(state.view(seat).exposed == rest & ~bit(parse_card("KD")) for seat in range(4))


def test_other_contracts_expose_nothing():
    for calls in ("pass misere pass pass", "pass abundance pass pass trump:D"):
        state = layout()
        call(state, calls)
        while not state.over:
            state.apply(highest(state.legal))
            assert all(state.view(seat).exposed == 0 for seat in range(4))


# -- when play stops ------------------------------------------------------------------------


def test_mixed_layout_splits_tricks_as_designed():
    spades = layout(MIXED, play_out=True)
    call(spades, "pass pass pass solo")
    play_highest(spades)
    assert winners(spades) == [1] * 6 + [0] * 7
    hearts = layout(MIXED, play_out=True)
    call(hearts, "abundance pass pass pass trump:H")
    play_highest(hearts)
    assert winners(hearts) == [1] * 7 + [0] * 6
    no_trump = layout(MIXED, play_out=True)
    call(no_trump, "pass pass pass misere")
    play_highest(no_trump)
    assert winners(no_trump) == [1] * 7 + [0] * 6


def test_solo_made_at_five_tricks_stops_there():
    state = layout(MIXED)
    call(state, "pass pass pass solo")
    play_highest(state)
    assert len(state.tricks) == 11  # seat 0 wins tricks 7..11
    assert state.won == [5, 6, 0, 0]
    assert state.outcome().net == (9.0, -3.0, -3.0, -3.0)


def test_solo_stops_as_soon_as_it_cannot_be_made():
    state = layout()
    call(state, "solo pass pass pass")  # seat 1 has no spade: seat 0 wins every trick
    play_highest(state, 8)
    assert not state.over  # 0 taken, 5 left: still possible
    play_highest(state)
    assert len(state.tricks) == 9 and state.won == [9, 0, 0, 0]


def test_misere_is_lost_the_moment_the_declarer_takes_a_trick():
    state = layout(MIXED)
    call(state, "pass pass pass misere")
    play_highest(state)
    assert len(state.tricks) == 8 and state.won == [1, 7, 0, 0]
    assert state.outcome().facts["made"] is False
    assert state.outcome().net == (-9.0, 3.0, 3.0, 3.0)


def test_misere_is_made_only_after_trick_13():
    state = layout()
    call(state, "pass misere pass pass")  # seat 2 never wins a trick
    play_highest(state, 12)
    assert not state.over and state.made() is False
    play_highest(state)
    assert state.over and len(state.tricks) == 13 and state.made() is True


def test_abundance_declared_fails_on_its_first_lost_trick():
    state = layout(MIXED)
    call(state, "abundance_declared pass pass pass trump:H")
    play_highest(state)
    assert len(state.tricks) == 8 and state.won == [1, 7, 0, 0]
    assert state.outcome().net == (8.0, -24.0, 8.0, 8.0)


def test_play_out_plays_all_13_tricks_without_overtricks():
    state = layout(MIXED, play_out=True)
    call(state, "pass pass pass solo")
    play_highest(state)
    assert len(state.tricks) == 13 and state.won == [7, 6, 0, 0]
    assert state.outcome().net == (9.0, -3.0, -3.0, -3.0)
    lost = layout(MIXED, play_out=True)
    call(lost, "pass pass pass misere")
    play_highest(lost)
    assert len(lost.tricks) == 13 and lost.outcome().net == (-9.0, 3.0, 3.0, 3.0)


# -- overtricks, stake, variants ---------------------------------------------------------------


def test_overtricks_add_one_per_defender_for_each_trick_over_the_target():
    state = layout(MIXED, overtricks=True)
    call(state, "pass pass pass solo")
    play_highest(state)
    assert len(state.tricks) == 13  # overtricks implies play_out
    assert state.outcome().net == (15.0, -5.0, -5.0, -5.0)  # 3 + 2 over, from each


def test_overtricks_add_one_per_defender_for_each_trick_short_of_the_target():
    state = layout(MIXED, overtricks=True)
    call(state, "abundance pass pass pass trump:H")  # 7 tricks of 9
    play_highest(state)
    assert state.outcome().net == (7.0, -21.0, 7.0, 7.0)  # 5 + 2 short, to each


def test_overtricks_in_prop_and_cop_are_per_partner():
    made = layout(MIXED, overtricks=True)
    call(made, "prop pass pass cop")  # 1 and 0 take all 13: 5 over
    play_highest(made)
    assert made.outcome().net == (12.0, 12.0, -12.0, -12.0)
    failed = layout(MIXED, overtricks=True)
    call(failed, "prop cop pass pass")  # 1 and 2 take 6: 2 short
    play_highest(failed)
    assert failed.outcome().net == (6.0, -6.0, -6.0, 6.0)


def test_overtricks_apply_to_royal_abundance():
    state = layout(overtricks=True)
    call(state, "pass pass pass royal_abundance")  # 13 of 9
    play_highest(state)
    assert state.outcome().net == (27.0, -9.0, -9.0, -9.0)


@pytest.mark.parametrize(
    "calls,net",
    [
        ("pass misere pass pass", (-3, -3, 9, -3)),
        ("misere pass pass pass", (3, -9, 3, 3)),  # 13 tricks taken, still the base
        ("pass spread_misere pass pass", (-6, -6, 18, -6)),
        ("abundance_declared pass pass pass trump:H", (-8, 24, -8, -8)),
        ("pass abundance_declared pass pass trump:H", (8, 8, -24, 8)),
    ],
)
def test_overtricks_do_not_apply_to_misere_or_abundance_declared(calls, net):
    state = layout(overtricks=True)
    call(state, calls)
    play_highest(state)
    assert len(state.tricks) == 13
    assert state.outcome().net == tuple(float(x) for x in net)


def test_stake_multiplies_every_payment():
    state = layout(stake=2.5)
    call(state, "pass pass pass solo")
    play_highest(state)
    assert state.outcome().net == (22.5, -7.5, -7.5, -7.5)
    prop = layout(stake=2)
    call(prop, "prop pass pass cop")
    play_highest(prop)
    assert prop.outcome().net == (4.0, 4.0, -4.0, -4.0)
    over = layout(MIXED, stake=2, overtricks=True)
    call(over, "pass pass pass solo")
    play_highest(over)
    assert over.outcome().net == (30.0, -10.0, -10.0, -10.0)


def test_every_deal_is_zero_sum_at_a_decimal_stake():
    # docs/rules/solo-whist.md: "Every hand is zero-sum", at any stake (a session adds these up)
    state = layout(stake=0.1, payments="classic")
    call(state, "pass pass pass solo")  # 1 unit from each defender
    play_highest(state)
    net = state.outcome().net
    assert net == pytest.approx((0.3, -0.1, -0.1, -0.1))
    units = [round(x / 0.1) for x in net]  # exactly zero-sum in units of the stake
    assert units == [3, -1, -1, -1] and sum(units) == 0
    assert abs(math.fsum(net)) < 1e-12, net  # and in floats up to rounding


def test_prop_and_cop_false_removes_prop_and_cop():
    state = layout(prop_and_cop=False)
    assert not state.legal >> PROP & 1 and not state.legal >> COP & 1
    assert state.legal >> BIDS["solo"] & 1
    error = refused(state, PROP)
    assert (error.seat, error.rule) == (1, "prop_and_cop = false")
    call(state, "solo")
    assert not state.legal >> COP & 1
    error = refused(state, COP)
    assert (error.seat, error.rule) == (2, "prop_and_cop = false")


def test_upcard_false_turns_no_card():
    state = layout(upcard=False)
    assert state.upcard == -1
    assert state.deal_record()["upcard"] is None
    for seat in range(4):
        assert state.view(seat).upcard == -1 and state.view(seat).upcard_held is False


def test_upcard_false_royal_abundance_cannot_be_bid():
    state = layout(upcard=False)
    assert not state.legal >> ROYAL_ABUNDANCE & 1
    error = refused(state, ROYAL_ABUNDANCE)
    assert (error.seat, error.rule) == (1, "upcard = false")
    call(state, "abundance")
    assert not state.legal >> ROYAL_ABUNDANCE & 1


def test_upcard_false_the_proposer_names_trumps_for_prop_and_cop():
    state = layout(upcard=False)
    call(state, "prop pass cop pass")
    assert (state.phase, state.to_act, state.legal) == ("trump", 1, ALL_SUITS)
    call(state, "trump:D")
    assert (state.trump, state.declarer, state.partner) == (D, 1, 3)
    assert state.to_act == state.leader == 1


def test_upcard_false_the_soloist_names_trumps():
    state = layout(upcard=False, dealer=3)
    call(state, "pass solo pass pass")
    assert (state.phase, state.to_act, state.legal) == ("trump", 1, ALL_SUITS)
    call(state, "trump:C")
    assert state.trump == C
    assert state.to_act == 0  # eldest leads, as ever


def test_upcard_false_abundance_may_name_any_suit():
    state = layout(upcard=False)
    call(state, "abundance pass pass pass")
    assert (state.phase, state.legal) == ("trump", ALL_SUITS)
    call(state, "trump:S")
    assert state.trump == S


def test_upcard_false_misere_has_no_trump_to_name():
    state = layout(upcard=False)
    call(state, "misere pass pass pass")
    assert (state.phase, state.trump) == ("play", NO_TRUMP)


# -- sessions ------------------------------------------------------------------------------


class PassEverything:
    """Always passes (every deal is a throw-in); plays at random if ever asked to."""

    def __init__(self) -> None:
        self.inner = RandomStrategy()

    def choose(self, view: Any, rng: Any) -> int:
        return PASS if view.phase == "bid" else self.inner.choose(view, rng)


def outcome(net: tuple[float, ...]) -> DealOutcome:
    result = tuple("win" if x > 0 else "loss" if x < 0 else "draw" for x in net)
    return DealOutcome((0, 0, 0, 0), net, net, result)


def test_a_single_hand_is_the_default_session():
    deals, result = play_match(game(), [RandomStrategy()] * 4, 5)
    assert len(deals) == 1 and deals[0].dealer == 0
    assert result["match_points"] == deals[0].outcome.net


def test_session_plays_session_hands_with_the_dealer_rotating_clockwise():
    deals, result = play_match(game(session_hands=6), [RandomStrategy()] * 4, 11)
    assert [deal.dealer for deal in deals] == [0, 1, 2, 3, 0, 1]
    totals = tuple(sum(deal.outcome.net[seat] for deal in deals) for seat in range(4))
    assert result["match_points"] == totals
    assert sum(totals) == 0
    assert len({deal.seed for deal in deals}) == 6


def test_session_deal_rotates_after_a_throw_in_too():
    deals, result = play_match(game(session_hands=5), [PassEverything()] * 4, 3)
    assert [deal.dealer for deal in deals] == [0, 1, 2, 3, 0]
    assert all(deal.outcome.facts["contract"] is None for deal in deals)
    assert result["match_points"] == (0.0, 0.0, 0.0, 0.0)
    assert result["match_result"] == ("draw",) * 4


def test_session_winner_has_the_highest_net_units():
    session = SoloWhistSession(SoloWhistVariant(session_hands=3))
    for net in ((9.0, -3.0, -3.0, -3.0), (-5.0, 15.0, -5.0, -5.0), (2.0, 2.0, -2.0, -2.0)):
        assert session.next_dealer() is not None
        session.record(outcome(net))
    assert session.next_dealer() is None
    result = session.result()
    assert result["match_points"] == (6.0, 14.0, -10.0, -10.0)
    assert result["match_result"] == ("loss", "win", "loss", "loss")


def test_session_tied_on_top_is_a_draw_between_the_leaders():
    session = SoloWhistSession(SoloWhistVariant(session_hands=2))
    session.record(outcome((2.0, 2.0, -2.0, -2.0)))
    session.record(outcome((3.0, 3.0, -3.0, -3.0)))
    assert session.result()["match_result"] == ("draw", "draw", "loss", "loss")


def test_target_ends_the_session_when_a_player_reaches_plus_target():
    session = SoloWhistSession(SoloWhistVariant(session_hands=100, target=20))
    dealers = []
    for net in ((15.0, -5.0, -5.0, -5.0), (-3.0, 9.0, -3.0, -3.0), (8.0, -8.0, 8.0, -8.0)):
        dealers.append(session.next_dealer())
        session.record(outcome(net))
    assert dealers == [0, 1, 2]
    assert session.balance == [20.0, -4.0, 0.0, -16.0]  # exactly +20 ends it
    assert session.next_dealer() is None
    assert session.result()["match_result"] == ("win", "loss", "loss", "loss")


def test_target_session_played_out_stops_at_the_first_player_to_reach_it():
    deals, result = play_match(
        game(session_hands=100, target=20), [RandomStrategy()] * 4, 2024
    )
    balance = [0.0] * 4
    for deal in deals[:-1]:
        balance = [b + x for b, x in zip(balance, deal.outcome.net, strict=True)]
        assert max(balance) < 20
    assert max(result["match_points"]) >= 20 or len(deals) == 100
    assert [deal.dealer for deal in deals] == [i % 4 for i in range(len(deals))]


# -- variant errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings,fragments",
    [
        ({"payments": "modern"}, ["payments", '"default", "classic"']),
        ({"stake": 0}, ["stake", "a number > 0"]),
        ({"stake": -1.5}, ["stake", "a number > 0"]),
        ({"stake": "2"}, ["stake", "a number > 0"]),
        ({"stake": True}, ["stake", "a number > 0"]),
        ({"stake": math.nan}, ["stake", "a number > 0"]),
        ({"stake": math.inf}, ["stake", "a number > 0"]),
        ({"overtricks": True, "play_out": False}, ["overtricks", "play_out"]),
        ({"session_hands": 0}, ["session_hands", "whole numbers 1..1,000"]),
        ({"session_hands": 2.5}, ["session_hands", "whole numbers 1..1,000"]),
        ({"target": 50}, ["target", "session_hands"]),
        ({"target": 50, "session_hands": 1}, ["target", "session_hands"]),
        ({"target": 0, "session_hands": 10}, ["target", "> 0"]),
        ({"target": math.nan, "session_hands": 10}, ["target", "> 0"]),
        ({"prop_and_cop": "no"}, ["prop_and_cop", "true, false"]),
        ({"upcard": "yes"}, ["upcard", "true, false"]),
        ({"jokers": 2}, ["unknown key 'jokers'", "payments", "stake", "upcard"]),
    ],
    ids=lambda v: repr(v) if isinstance(v, dict) else None,
)
def test_bad_variant_values_raise_variant_error_naming_key_and_allowed_values(
    settings, fragments
):
    with pytest.raises(VariantError) as info:
        make_game("solo_whist", settings)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_good_variant_values_are_accepted():
    for settings in (
        {"payments": "classic"}, {"prop_and_cop": False}, {"upcard": False}, {"stake": 2.5},
        {"overtricks": True}, {"overtricks": True, "play_out": True}, {"play_out": True},
        {"session_hands": 4}, {"target": 20, "session_hands": 100},
    ):
        assert make_game("solo_whist", settings).variant.as_dict().items() >= settings.items()


def test_a_whole_stake_or_target_is_recorded_as_the_number_its_default_is():
    """``stake = 1`` was recorded as 1 and the default as 1.0: the same rules spelled two
    ways in the deals table's ``variant`` column (a probe)."""
    given = make_game("solo_whist", {"stake": 1, "target": 20, "session_hands": 100})
    default = make_game("solo_whist", {"target": 20.0, "session_hands": 100})
    assert given.variant.as_dict() == default.variant.as_dict()
    assert [type(given.variant.as_dict()[key]) for key in ("stake", "target")] == [float, float]
    assert type(given.variant.as_dict()["session_hands"]) is int  # whole-number keys stay so


def test_variant_defaults_are_the_rules_md_defaults():
    variant = game().variant
    assert (variant.payments, variant.prop_and_cop, variant.upcard, variant.stake) == (
        "default", True, True, 1.0,
    )
    assert (variant.overtricks, variant.plays_out, variant.session_hands, variant.target) == (
        False, False, 1, None,
    )


# -- illegal calls and plays name the seat, the action and the rule -----------------------------


@pytest.mark.parametrize(
    "variant,setup,bad,seat,rule,fragments",
    [
        ({}, "solo", "prop", 2, "bid higher", ["seat 2", "prop", "solo"]),
        ({}, "solo", "solo", 2, "bid higher", ["seat 2", "solo", "higher"]),
        ({}, "prop solo", "cop", 3, "cop", ["seat 3", "Cop", "overcalled"]),
        ({}, "", "cop", 1, "cop", ["seat 1", "Cop"]),
        ({}, "", "AS", 1, "auction call", ["seat 1", "AS"]),
        ({}, "", "trump:H", 1, "auction call", ["seat 1", "trump:H"]),
        ({"prop_and_cop": False}, "", "prop", 1, "prop_and_cop = false", ["seat 1", "Prop"]),
        ({"upcard": False}, "", "royal_abundance", 1, "upcard = false",
         ["seat 1", "Royal Abundance"]),
    ],
    ids=["below", "equal", "cop-after-overcall", "cop-no-prop", "card-in-auction",
         "trump-in-auction", "prop-when-off", "royal-without-upcard"],
)
def test_illegal_call_error_names_seat_call_and_rule(variant, setup, bad, seat, rule, fragments):
    state = layout(**variant)
    call(state, setup)
    error = refused(state, state.game.parse_action(bad))
    assert (error.seat, error.action, error.rule) == (seat, bad, rule)
    for fragment in fragments:
        assert fragment in str(error)
    assert f"[rule: {rule}]" in str(error)


def test_a_player_who_passed_is_never_asked_so_cannot_call_again():
    # ``apply`` always acts for ``to_act``; the auction never makes a passed player act.
    state = layout()
    call(state, "pass prop solo pass")
    assert state.to_act == 2  # skips seat 1, who passed first
    call(state, "pass")
    assert state.phase == "play" and state.declarer == 3


def test_playing_a_card_not_held_names_seat_card_and_rule():
    state = layout()
    call(state, "solo pass pass pass")
    error = refused(state, parse_card("AS"))
    assert (error.seat, error.action, error.rule) == (1, "AS", "card not held")
    assert "seat 1" in str(error) and "AS" in str(error)


def test_revoke_names_seat_card_and_the_suit_to_follow():
    state = layout(MIXED)
    call(state, "pass pass pass solo")
    play(state, "AH AD AC")
    error = refused(state, parse_card("AS"))
    assert (error.seat, error.action, error.rule) == (0, "AS", "follow suit")
    assert str(error) == (
        "seat 0 played AS but must follow hearts (holds 7H 6H 5H 4H 3H 2H) [rule: follow suit]"
    )


def test_a_call_during_play_is_refused():
    state = layout()
    call(state, "solo pass pass pass")
    error = refused(state, PASS)
    assert (error.seat, error.rule) == (1, "play a card")


def test_nothing_is_accepted_after_the_hand():
    state = layout()
    call(state, "pass pass pass pass")
    with pytest.raises(RuleError, match="deal over"):
        state.apply(PASS)


def test_a_non_number_action_is_refused_naming_the_seat():
    state = layout()
    error = refused(state, "solo")  # type: ignore[arg-type]
    assert (error.seat, error.rule) == (1, "action is a number")


def test_action_notation_round_trips():
    g = game()
    for text in [*BIDS, "trump:S", "trump:H", "trump:D", "trump:C", "AS", "TD", "2C"]:
        assert g.action_str(g.parse_action(text)) == text
    assert g.parse_action("trump:H") == NAME_TRUMP + H == 62
    assert [BIDS[name] for name in BIDS] == list(range(52, 61))


def test_dealer_must_be_a_seat():
    with pytest.raises(VariantError, match=r"0\.\.3"):
        game().new_deal(1, 4)


def test_a_random_deal_is_zero_sum_and_replays_from_its_seed():
    g = game()
    first = play_deal(g, [RandomStrategy()] * 4, 77, 1)
    again = play_deal(g, [RandomStrategy()] * 4, 77, 1)
    assert first.state.log == again.state.log
    assert first.outcome == again.outcome
    assert sum(first.outcome.net) == 0
