"""The Solo heuristic's compiled card play decides exactly as its plain Python, decision
by decision: every view of 1,200 deals, in several variants and with bidding
parameters that bring every contract (misère and Spread Misère, Abundance, Prop and
Cop), is put to both (``compiled=True`` and ``compiled=False``)."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from strategies.solo_heuristic import SoloHeuristic
from whist_sim.games import make_game
from whist_sim.games.solo_whist import CONTRACTS
from whist_sim.play import play_deal

VARIANTS = [
    {},
    {"upcard": False, "overtricks": True},
    {"payments": "classic", "prop_and_cop": False, "play_out": True},
]

PARAMS = [
    {},
    {"aggression": 2.0},  # bids more: Abundance, misères
    {"misere_risk": 0.9, "spread_risk": 0.6},  # misères and Spread Misères
    {"aggression": -1.0, "abundance_tricks": 7.0},
]


class BothPaths:
    """Asks the compiled and the plain heuristic, checks they agree, plays the action."""

    def __init__(self, **params) -> None:
        self.compiled = SoloHeuristic(compiled=True, **params)
        self.plain = SoloHeuristic(compiled=False, **params)
        self.decisions = 0
        self.contracts: Counter[str] = Counter()

    def choose(self, view, rng: Random) -> int:
        fast = self.compiled.choose(view, rng)
        slow = self.plain.choose(view, rng)
        assert fast == slow, f"compiled {fast} != plain {slow} for {view}"
        if view.phase == "play" and view.legal & (view.legal - 1):
            self.decisions += 1
            self.contracts[CONTRACTS[view.contract].name] += 1
        return fast


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v) or "default")
def test_compiled_agrees_with_plain_python(variant: dict) -> None:
    game = make_game("solo_whist", variant)
    seats = [BothPaths(**PARAMS[seat]) for seat in range(4)]
    for seed in range(400):
        played = play_deal(game, seats, seed, seed % 4, on_error="abort")
        assert played.outcome.forfeit_seat is None
    contracts = sum((seat.contracts for seat in seats), Counter())
    assert sum(seat.decisions for seat in seats) > 400 * 10
    # the misère, Spread Misère and trick-contract paths were all compared
    assert contracts["misere"] and contracts["spread_misere"] and contracts["solo"], contracts


def test_plain_python_path_is_a_parameter() -> None:
    assert SoloHeuristic().compiled is True
    assert SoloHeuristic(compiled=False).compiled is False
    with pytest.raises(ValueError, match="compiled = 1 is not allowed"):
        SoloHeuristic(compiled=1)


def test_hand_numbers_are_the_plain_values() -> None:
    """The bidder's numbers, compiled, are the plain functions' floats exactly."""
    from strategies.solo_heuristic import best_sure_tricks, estimate_tricks, misere_risk
    from strategies.solo_heuristic_compiled import hand_numbers

    rng = Random(5)
    deck = list(range(52))
    hands = [sum(1 << c for c in rng.sample(deck, 13)) for _ in range(3000)]
    hands += [sum(1 << c for c in range(13 * s, 13 * s + 13)) for s in range(4)]  # one suit
    for i, hand in enumerate(hands):
        eldest = i % 2 == 1
        estimates, risk, sure = hand_numbers(hand, eldest)
        assert estimates == [estimate_tricks(hand, suit) for suit in range(4)]
        assert risk == misere_risk(hand, eldest)
        assert sure == best_sure_tricks(hand)
