"""The ``heuristic`` German Whist strategy: legal everywhere, sensible in set positions, strong.

The 10,000-hand strength target is measured by benchmarks/german_heuristic_strength.py;
the statistical test here is a cheap sanity check on a few hundred duplicate hands.
"""

from __future__ import annotations

import random

import pytest

from strategies.german_heuristic import GermanHeuristic
from strategies.random_play import RandomStrategy
from whist_sim.cards import card_str, parse_card, parse_card_list, parse_cards
from whist_sim.games import make_game
from whist_sim.games.german_whist import GermanWhist, GermanWhistVariant
from whist_sim.play import play_deal
from whist_sim.strategy import StrategyError, build_strategy

RNG = random.Random(0)  # the heuristic ignores its rng; any generator will do


def choose(state, seat: int) -> str:
    """The heuristic's choice for ``seat`` in a deal state, in notation."""
    view = state.view(seat)
    assert view.legal, f"seat {seat} is not to act"
    return card_str(GermanHeuristic().choose(view, RNG))


def play(state, cards: str) -> None:
    for card in parse_card_list(cards):
        state.apply(card)


# -- legal play in every variant ---------------------------------------------------------

VARIANTS = [
    {},
    {"count": "all"},
    {"count": "weighted"},
    {"open_stock": 3},
    {"open_stock": 3, "count": "all"},
    {"trumps": "none"},
    {"race_to": 7},
    {"race_to": 7, "count": "all"},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: str(v) or "default")
def test_plays_only_legal_actions_in_every_variant(variant):
    game = make_game("german_whist", variant)
    heuristic, rand = GermanHeuristic(), RandomStrategy()
    for seed in range(15):
        for seats in ([heuristic, rand], [rand, heuristic], [heuristic, heuristic]):
            # on_error="abort" raises on any illegal action or exception
            play_deal(game, seats, seed, seed % 2, on_error="abort")


def test_is_deterministic_and_ignores_its_rng():
    game = make_game("german_whist", {})
    first = play_deal(game, [GermanHeuristic(), GermanHeuristic()], 7, 0)
    again = play_deal(game, [GermanHeuristic(), GermanHeuristic()], 7, 0)
    assert first.state.log == again.state.log


# -- stage 1: what the face-up card is worth -----------------------------------------------

def test_ducks_cheaply_under_a_worthless_faceup_card():
    # Trump is spades (AS turned). Trick 1 gives the upcard away; then 2C lies face up.
    state = GermanWhist().deal_from_layout(
        (
            "AH 7H 2H 2D 3C 4C 5C 6C 7C 8C 9C TC JC",
            "KD 5H 4H 3D 4D 5D 6D 7D 8D 9D TD JD QD",
        ),
        "AS 3S 2C KS QS JS TS 9S 8S 7S 6S 5S 4S 2S KH QH JH TH 9H 8H 6H 3H AD QC KC AC",
        dealer=0,
    )
    play(state, "KD 2D 5H")  # seat 1 wins trick 1, then leads 5H with 2C face up
    assert state.view(0).faceup == (parse_card("2C"),)
    assert choose(state, 0) == "2H"


def test_wins_a_faceup_ace_of_trumps_with_its_cheapest_winner():
    state = GermanWhist().deal_from_layout(
        (
            "AH 7H 2H 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
            "5H 4H 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        ),
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S KH QH JH TH 9H 8H 6H 3H AD 2D QC KC AC",
        dealer=0,
    )
    play(state, "5H")
    assert choose(state, 0) == "7H"  # wins the ace of trumps, keeps the ace of hearts


def test_pays_with_an_ace_for_the_ace_of_trumps_when_nothing_cheaper_wins():
    state = GermanWhist().deal_from_layout(
        (
            "AH 3H 2H 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
            "5H 4H 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        ),
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S KH QH JH TH 9H 8H 7H 6H AD 2D QC KC AC",
        dealer=0,
    )
    play(state, "5H")
    assert choose(state, 0) == "AH"


def test_open_stock_takes_the_most_valuable_faceup_card():
    variant = GermanWhistVariant(open_stock=3)
    state = GermanWhist(variant).deal_from_layout(
        (
            "AH 7H 2H 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
            "5H 4H 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        ),
        "QS 3H QC KS AS JS TS 9S 8S 7S 6S 5S 4S 3S 2S KH QH JH TH 9H 8H 6H AD 2D KC AC",
        dealer=0,
    )
    play(state, "5H 7H")  # seat 0 wins and must take one of QS 3H QC
    view = state.view(0)
    assert view.phase == "take"
    assert choose(state, 0) == "QS"


# -- stage 2: perfect information ----------------------------------------------------------

def stage2_state(leader_hand: str, other_hand: str):
    """A deal reaching stage 2 with seat 1 to lead ``leader_hand`` against seat 0's ``other_hand``.

    The first card of ``leader_hand`` is the upcard, so its suit is trump; the two hands
    hold no club and every trump. Seat 1 starts with all the clubs and seat 0 with the
    other 13 cards (no trump), so seat 1 wins every stage-1 trick by leading clubs: it
    takes the face-up cards (even stock places) and seat 0 draws the others.
    """
    leader, other = parse_card_list(leader_hand), parse_card_list(other_hand)
    stock = " ".join(card_str(c) for pair in zip(leader, other, strict=True) for c in pair)
    clubs = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"
    rest = [c for c in range(39) if c not in leader and c not in other]  # suits S H D
    assert all(c // 13 != leader[0] // 13 for c in rest), "the stage-2 hands hold every trump"
    state = GermanWhist().deal_from_layout(
        (" ".join(card_str(c) for c in rest), clubs), stock, dealer=0
    )
    for club, card in zip(clubs.split(), rest, strict=True):
        play(state, f"{club} {card_str(card)}")
    view = state.view(1)
    assert view.stage == 2 and view.hand == parse_cards(leader_hand)
    return state


def test_stage2_keeps_the_top_trump_while_it_has_other_winners():
    state = stage2_state(
        "AS 5S 4S 3S 2S AH KH QH 6H 5H 4H 3H 2H",
        "KS QS JS TS 9S 8S 7S 6S JH TH 9H 8H 7H",
    )
    lead = choose(state, 1)
    assert lead != "AS"
    assert lead in ("AH", "KH", "QH")


def test_stage2_draws_trumps_when_in_control():
    # No side winner (the opponent holds the top hearts), but the top trumps and more of them.
    state = stage2_state(
        "AS KS QS JS TS 9S 8S 6H 5H 4H 3H 2H 7H",
        "7S 6S 5S 4S 3S 2S AH KH QH JH TH 9H 8H",
    )
    assert choose(state, 1) in ("AS", "KS", "QS", "JS", "TS", "9S", "8S")


def test_stage2_ruffs_with_its_lowest_trump():
    # Hearts are trump; seat 0 has no spade left and twelve trumps.
    state = stage2_state(
        "2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H AD",
    )
    play(state, "KS")
    assert choose(state, 0) == "3H"


# -- strength and parameters ---------------------------------------------------------------

def test_beats_random_on_400_duplicate_hands():
    game = make_game("german_whist", {})
    heuristic, rand = GermanHeuristic(), RandomStrategy()
    wins = 0
    for seed in range(200):
        first = play_deal(game, [heuristic, rand], seed, seed % 2, on_error="abort")
        second = play_deal(game, [rand, heuristic], seed, seed % 2, on_error="abort")
        wins += (first.outcome.result[0] == "win") + (second.outcome.result[1] == "win")
    assert wins / 400 >= 0.80


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"trump_worth": -1}, "trump_worth"),
        ({"contest_margin": "high"}, "contest_margin"),
        ({"denial": 2}, "denial"),
        ({"trick_worth": 9}, "trick_worth"),
        ({"endgame_cards": 9}, "endgame_cards"),
    ],
)
def test_rejects_bad_parameters_naming_them(params, named):
    with pytest.raises(ValueError, match=f"{named} = .* allowed values"):
        GermanHeuristic(**params)
    with pytest.raises(StrategyError, match=named):
        build_strategy("heuristic", params, "german_whist")


def test_is_registered_as_heuristic_with_parameters():
    strategy = build_strategy("heuristic", {"contest_margin": 0.5}, "german_whist")
    assert isinstance(strategy, GermanHeuristic)
    assert strategy.contest_margin == 0.5
