"""``benchmarks/knockout_greedy.py``: the plain rule player the Knock-out strength
figures are calibrated against does what its docstring says.

Its decisions are checked on hand-built views (it reads only ``legal``, ``hand``,
``phase``, ``trump``, ``trick`` and ``is_dog``), and whole games check it always
makes a legal move.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import SimpleNamespace

from strategies.knockout_heuristic import KNOCK, NAME_TRUMP
from whist_sim.cards import parse_card, parse_card_list, to_mask
from whist_sim.games import make_game
from whist_sim.play import play_deal
from whist_sim.strategy import build_strategy

SPADES, HEARTS, DIAMONDS, CLUBS = (parse_card(f"2{s}") // 13 for s in "SHDC")
RNG = random.Random(0)


def _load_greedy():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "knockout_greedy.py"
    spec = importlib.util.spec_from_file_location("knockout_greedy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GREEDY = _load_greedy().GreedyRules()


def view(hand: str, trick: str = "", trump: int = SPADES, *, legal: str | None = None,
         phase: str = "play", is_dog: bool = False, knock: bool = False):
    """A seat's view holding only what the rule player reads."""
    cards = to_mask(parse_card_list(hand))
    allowed = cards if legal is None else to_mask(parse_card_list(legal))
    if knock:
        allowed |= 1 << KNOCK
    return SimpleNamespace(hand=cards, legal=allowed, phase=phase, trump=trump,
                           trick=tuple(parse_card_list(trick)), is_dog=is_dog)


def test_names_its_longest_suit_trump():
    trump_view = view("AS 4H 5H 6H 2D", phase="trump")
    trump_view.legal = sum(1 << (NAME_TRUMP + suit) for suit in range(4))
    assert GREEDY.choose(trump_view, RNG) == NAME_TRUMP + HEARTS


def test_leads_its_highest_card():
    assert GREEDY.choose(view("AH 4H KD 2S"), RNG) == parse_card("AH")


def test_leads_a_side_card_before_a_trump_of_the_same_rank():
    assert GREEDY.choose(view("AS AH 4D"), RNG) == parse_card("AH")


def test_follows_with_the_cheapest_card_that_takes_the_trick():
    hand = "QH KH AH 3D"
    assert GREEDY.choose(view(hand, "JH", legal="QH KH AH"), RNG) == parse_card("QH")
    assert GREEDY.choose(view(hand, "JH QH", legal="QH KH AH"), RNG) == parse_card("KH")


def test_ruffs_with_its_lowest_trump_when_it_cannot_follow():
    assert GREEDY.choose(view("3S 9S 4D", "KH"), RNG) == parse_card("3S")


def test_plays_its_lowest_side_card_when_it_cannot_take_the_trick():
    assert GREEDY.choose(view("2S 5H 3D", "AH 4S", legal="5H"), RNG) == parse_card("5H")
    assert GREEDY.choose(view("2S 5C 3D", "AH 4S"), RNG) == parse_card("3D")


def test_a_dog_plays_only_on_a_trick_its_card_takes():
    assert GREEDY.choose(view("KH", "QH", is_dog=True, knock=True), RNG) == parse_card("KH")
    assert GREEDY.choose(view("KH", "AH", is_dog=True, knock=True), RNG) == KNOCK


def test_plays_whole_games_legally_at_every_table_size():
    """``on_error="abort"`` raises at the first illegal action."""
    heuristic = build_strategy("heuristic", {}, "knockout_whist")
    for players in range(2, 8):
        game = make_game("knockout_whist", {"dogs_life": "first_round"}, players)
        for seed in range(10):
            line_up = [GREEDY if seat % 2 == 0 else heuristic for seat in range(players)]
            outcome = play_deal(game, line_up, seed, seed % players, on_error="abort").outcome
            assert outcome.result.count("win") == 1
