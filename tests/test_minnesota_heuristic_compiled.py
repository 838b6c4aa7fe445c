"""The Minnesota heuristic's compiled card play decides exactly as its plain Python,
decision by decision: every view of 1,000 hands, under both biddings and both
scorings and with thresholds that bring grand and null hands alike, is put to both
(``compiled=True`` and ``compiled=False``)."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from strategies.minnesota_heuristic import MinnesotaHeuristic
from whist_sim.games import make_game
from whist_sim.play import play_deal

VARIANTS = [
    {},
    {"bid": "spoken", "scoring": "pagat"},
]

PARAMS = [
    {},
    {"grand_threshold": 13.0},  # grands more often
    {"grand_threshold": 22.0, "bid_adjust": 3.0},
    {"length_points": 2.0},
]


class BothPaths:
    """Asks the compiled and the plain heuristic, checks they agree, plays the action."""

    def __init__(self, **params) -> None:
        self.compiled = MinnesotaHeuristic(compiled=True, **params)
        self.plain = MinnesotaHeuristic(compiled=False, **params)
        self.decisions: Counter[str] = Counter()

    def choose(self, view, rng: Random) -> int:
        fast = self.compiled.choose(view, rng)
        slow = self.plain.choose(view, rng)
        assert fast == slow, f"compiled {fast} != plain {slow} for {view}"
        if view.phase == "play" and view.legal & (view.legal - 1):
            self.decisions["grand" if view.grand else "null"] += 1
        return fast


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v.values()) or "default")
def test_compiled_agrees_with_plain_python(variant: dict) -> None:
    game = make_game("minnesota_whist", variant)
    seats = [BothPaths(**PARAMS[seat]) for seat in range(4)]
    for seed in range(500):
        played = play_deal(game, seats, seed, seed % 4, on_error="abort")
        assert played.outcome.forfeit_seat is None
    decisions = sum((seat.decisions for seat in seats), Counter())
    assert decisions["grand"] > 1000 and decisions["null"] > 1000, decisions


def test_plain_python_path_is_a_parameter() -> None:
    assert MinnesotaHeuristic().compiled is True
    assert MinnesotaHeuristic(compiled=False).compiled is False
    with pytest.raises(ValueError, match="compiled = 1 is not allowed"):
        MinnesotaHeuristic(compiled=1)
