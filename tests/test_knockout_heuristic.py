"""The Knock-out Whist ``heuristic``: legal everywhere, sensible in set positions, strong.

Positions are built by stacking the pack: ``shuffled_deck`` is replaced by a list of
decks, one per round, and the cards are dealt from them exactly as the engine deals
(one at a time from the dealer's left; round 1 then turns the next card for trump).
The 10,000-game strength targets are measured by benchmarks/knockout_heuristic_strength.py;
the statistical test here is a cheap check on a few hundred games.
"""

from __future__ import annotations

import random

import pytest

from strategies.knockout_heuristic import KNOCK, NAME_TRUMP, KnockoutHeuristic
from strategies.random_play import RandomStrategy
from whist_sim.cards import parse_card_list, suit_lengths
from whist_sim.games import knockout_whist, make_game
from whist_sim.play import play_deal
from whist_sim.strategy import StrategyError, build_strategy

RNG = random.Random(0)  # the heuristic ignores its rng; any generator will do


def shown(action: int) -> str:
    return knockout_whist.action_name(action)


def choose(state, seat: int) -> str:
    """The heuristic's choice for ``seat`` in a deal state, in notation."""
    view = state.view(seat)
    assert view.legal, f"seat {seat} is not to act"
    return shown(KnockoutHeuristic().choose(view, RNG))


def play(state, actions: str) -> None:
    """Apply actions in notation (cards, ``knock``, ``trump:H``) for whoever is to act."""
    game = state.game
    for token in actions.split():
        state.apply(game.parse_action(token))


def stacked_deck(order: list[int], hands: dict[int, str], turned: str = "") -> list[int]:
    """A deck that deals ``hands`` (seat: cards) one card at a time in ``order``, then
    ``turned`` (the trump card of round 1), then every other card."""
    cards = {seat: parse_card_list(hands[seat]) for seat in order}
    deck: list[int] = []
    for k in range(max(len(c) for c in cards.values())):
        deck += [cards[seat][k] for seat in order if k < len(cards[seat])]
    deck += parse_card_list(turned)
    return deck + [c for c in range(52) if c not in deck]


@pytest.fixture
def stack(monkeypatch):
    """Replace the engine's shuffle: each round takes the next of the decks given."""
    decks: list[list[int]] = []
    monkeypatch.setattr(knockout_whist, "shuffled_deck", lambda seed: decks.pop(0))
    return decks


# Round 1 of a three-player game (dealer 2, seat 0 leads, spades trump) in which seat 0
# takes six tricks, seat 1 one and seat 2 none, so seat 0 names trump for round 2.
ROUND1_HANDS = {
    0: "AS KS QS JS TS 2C 3C",
    1: "AC 4H 5H 6H 7H 8H 9H",
    2: "KC 4D 5D 6D 7D 8D 9D",
}
ROUND1_PLAY = "2C AC KC 4H 4D AS 3C 5H 5D KS 6H 6D QS 7H 7D JS 8H 8D TS 9H 9D"


def start_round2(stack, round2: dict[int, str], dogs_life: str = "off"):
    """Play ROUND1_PLAY, then deal ``round2`` (the dealer is now seat 0, seat 1 is dealt
    first, then seat 2 if it is on a dog's life, then seat 0)."""
    stack.append(stacked_deck([0, 1, 2], ROUND1_HANDS, "2S"))
    stack.append(stacked_deck([s for s in (1, 2, 0) if s in round2], round2))
    state = make_game("knockout_whist", {"dogs_life": dogs_life}, 3).new_deal(0, dealer=2)
    play(state, ROUND1_PLAY)
    assert state.round == 2 and state.view(0).phase == "trump"
    return state


# -- legal play in every variant ---------------------------------------------------------

VARIANTS = [
    {"tie_break": tie_break, "dogs_life": dogs}
    for tie_break in ("cut", "nearest_left")
    for dogs in ("off", "first_round", "first_knockout")
]


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v['tie_break']}-{v['dogs_life']}")
def test_plays_only_legal_actions_in_every_variant(players, variant):
    game = make_game("knockout_whist", variant, players)
    heuristic, rand = KnockoutHeuristic(), RandomStrategy()
    for seed in range(8):
        line_ups = ([heuristic] * players, [heuristic] + [rand] * (players - 1),
                    [rand] * (players - 1) + [heuristic])
        for line_up in line_ups:
            # on_error="abort" raises on any illegal action or exception
            play_deal(game, line_up, seed, seed % players, on_error="abort")


def test_is_deterministic_and_ignores_its_rng():
    game = make_game("knockout_whist", {"dogs_life": "first_knockout"}, 5)
    first = play_deal(game, [KnockoutHeuristic()] * 5, 11, 0)
    again = play_deal(game, [KnockoutHeuristic()] * 5, 11, 0)
    assert first.state.log == again.state.log


# -- choosing trump ------------------------------------------------------------------------

def test_names_its_longest_suit_as_trump_not_the_suit_of_its_best_card(stack):
    state = start_round2(stack, {0: "AS KS 9H 7H 5H 3H", 1: "2D 3D 4D 5D 6D 7D"})
    assert choose(state, 0) == "trump:H"


def test_between_suits_of_equal_length_names_the_stronger(stack):
    state = start_round2(stack, {0: "AD QD 2H 3H 4C 5C", 1: "2D 3D 4D 5D 6D 7D"})
    assert choose(state, 0) == "trump:D"


def test_always_names_a_longest_suit():
    game = make_game("knockout_whist", {}, 4)
    heuristic, rand = KnockoutHeuristic(), RandomStrategy()
    named = 0

    class Watch:
        def choose(self, view, rng):
            action = heuristic.choose(view, rng)
            if view.phase == "trump":
                nonlocal named
                named += 1
                assert suit_lengths(view.hand)[action - NAME_TRUMP] == max(suit_lengths(view.hand))
            return action

    for seed in range(40):
        play_deal(game, [Watch(), rand, rand, rand], seed, seed % 4, on_error="abort")
    assert named > 10


# -- a dog's life ------------------------------------------------------------------------

def test_a_dog_holding_a_trump_plays_it_on_a_trick_it_can_win(stack):
    state = start_round2(
        stack,
        {0: "5D AD 4C 3C 2C 6S", 1: "KD 9S 8S 7S 6C 5C", 2: "2H"},
        dogs_life="first_round",
    )
    assert state.view(2).is_dog
    play(state, "trump:H 5D KD")  # the dog plays last to the trick: its 2H ruffs the KD
    assert not state.view(2).last_trick
    assert choose(state, 2) == "2H"


def test_a_dog_knocks_on_a_trick_it_cannot_win(stack):
    state = start_round2(
        stack,
        {0: "5D AD 4C 3C 2C 6S", 1: "KD 9S 8S 7S 6C 5C", 2: "QC"},
        dogs_life="first_round",
    )
    play(state, "trump:H 5D KD")  # diamonds led: the QC cannot win this trick
    assert choose(state, 2) == "knock"


def test_a_dog_waits_for_a_trick_its_card_can_win(stack):
    state = start_round2(
        stack,
        {0: "5D AD 4C 3C 2C 6S", 1: "KD 9S 8S 7S 6C 5C", 2: "QC"},
        dogs_life="first_round",
    )
    play(state, "trump:H AD KD")
    assert choose(state, 2) == "knock"
    play(state, "knock 2C 5C")  # seat 0 won and leads a club; the dog plays last again
    assert choose(state, 2) == "QC"


def cards_left(view, seat: int) -> int:
    """Cards ``seat`` still holds, counted from what it was dealt and has played."""
    dealt = {"in": view.cards_dealt, "dog": 1}.get(view.status[seat], 0)
    plays = sum(seats.count(seat) for seats in view.trick_players)
    return dealt - plays - view.trick_seats.count(seat)


def beats(card: int, trick: tuple[int, ...], trump: int) -> bool:
    best = trick[0]
    for other in trick[1:]:
        if (other // 13 == best // 13 and other > best) or other // 13 == trump != best // 13:
            best = other
    return (card // 13 == best // 13 and card > best) or card // 13 == trump != best // 13


def test_a_dog_plays_its_card_when_it_wins_the_trick_for_sure():
    """Over many games: a dog last to play whose card beats the trick never knocks."""
    game = make_game("knockout_whist", {"dogs_life": "first_knockout"}, 5)
    heuristic, rand = KnockoutHeuristic(), RandomStrategy()
    checked = 0

    class Watch:
        def choose(self, view, rng):
            action = heuristic.choose(view, rng)
            if view.is_dog and view.trick:
                n, me = view.players, view.seat
                after = [s for s in range(n) if (s - view.leader) % n > (me - view.leader) % n]
                card = view.hand.bit_length() - 1
                if not any(cards_left(view, s) for s in after) and beats(card, view.trick,
                                                                          view.trump):
                    nonlocal checked
                    checked += 1
                    assert action == card
            return action

    for seed in range(120):
        for seat in range(5):
            line_up = [rand] * 5
            line_up[seat] = Watch()
            play_deal(game, line_up, seed, seed % 5, on_error="abort")
    assert checked >= 5


# -- keeping a sure trick ---------------------------------------------------------------

def test_ruffs_low_and_keeps_the_ace_of_trumps(stack):
    # Seat 3 (no heart, no trick yet) plays last: the 4S wins as surely as the AS.
    hands = {
        0: "KH 2D 3D 4D 5D 6D 7D",
        1: "QH 8D TD JD QD KD 2C",
        2: "JH 3C 4C 8C 9C TC JC",
        3: "AS 4S AD 9D 5C 6C 7C",
    }
    state = round1_position(stack, hands, "KH QH JH")
    assert choose(state, 3) == "4S"


def test_cashes_a_side_ace_and_keeps_the_ace_of_trumps(stack):
    hands = {
        0: "AS 4S AH 9D 5C 6C 7C",
        1: "QH 8D TD JD QD KD 2C",
        2: "JH 3C 4C 8C 9C TC JC",
        3: "KH 2D 3D 4D 5D 6D 7D",
    }
    state = round1_position(stack, hands, "")
    assert choose(state, 0) == "AH"  # ruffed more easily later; the AS wins whenever played


def round1_position(stack, hands: dict[int, str], played: str):
    """Four players, dealer 3 (seat 0 leads), spades trump (the 3S turned)."""
    stack.append(stacked_deck([0, 1, 2, 3], hands, "3S"))
    state = make_game("knockout_whist", {}, 4).new_deal(0, dealer=3)
    play(state, played)
    return state


def test_wins_a_trick_with_its_cheapest_sure_winner(stack):
    hands = {
        0: "9H 2D 3D 4D 5D 6D 7D",
        1: "5H 8D TD JD QD KD 2C",
        2: "TH 3C 4C 8C 9C TC JC",
        3: "AH JH 2H 9S 5C 6C 7C",
    }
    state = round1_position(stack, hands, "9H 5H TH")
    assert choose(state, 3) == "JH"  # last to play: the jack wins as surely as the ace


def test_ducks_with_its_lowest_card_when_the_trick_is_lost(stack):
    hands = {
        0: "KH 2D 3D 4D 5D 6D 7D",
        1: "AH 8D TD JD QD KD 2C",
        2: "TH 3C 4C 8C 9C TC JC",
        3: "QH JH 2H 9S 5C 6C 7C",
    }
    state = round1_position(stack, hands, "KH AH TH")
    assert choose(state, 3) == "2H"


# -- strength and parameters ---------------------------------------------------------------

@pytest.mark.parametrize(("players", "seeds", "floor"), [(4, 100, 0.45), (7, 50, 0.28)])
def test_wins_well_over_its_fair_share_against_random(players, seeds, floor):
    """Expected about 64% (4 players) and 48% (7 players); fair shares are 25% and 14%."""
    game = make_game("knockout_whist", {}, players)
    heuristic, rand = KnockoutHeuristic(), RandomStrategy()
    wins = 0
    for seed in range(seeds):
        for seat in range(players):
            line_up = [rand] * players
            line_up[seat] = heuristic
            played = play_deal(game, line_up, seed, seed % players, on_error="abort")
            wins += played.outcome.result[seat] == "win"
    assert wins / (seeds * players) >= floor


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"survival_weight": -1}, "survival_weight"),
        ({"side_worth": 1.5}, "side_worth"),
        ({"higher_card_weight": "low"}, "higher_card_weight"),
        ({"opponent_skill": 2}, "opponent_skill"),
        ({"dog_patience": True}, "dog_patience"),
        ({"keep_sure_margin": -0.5}, "keep_sure_margin"),
    ],
)
def test_rejects_bad_parameters_naming_them(params, named):
    with pytest.raises(ValueError, match=named) as caught:
        KnockoutHeuristic(**params)
    assert "allowed values" in str(caught.value)


def test_is_the_heuristic_entry_point_for_knockout_whist():
    strategy = build_strategy("heuristic", {"side_worth": 0.6}, "knockout_whist")
    assert isinstance(strategy, KnockoutHeuristic)
    assert strategy.side_worth == 0.6
    with pytest.raises(StrategyError, match="unknown parameter"):
        build_strategy("heuristic", {"bluff": 1}, "knockout_whist")


def test_knock_and_trump_actions_match_the_engine():
    assert KNOCK == knockout_whist.KNOCK
    assert NAME_TRUMP == knockout_whist.NAME_TRUMP
