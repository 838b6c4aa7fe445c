"""The German heuristic's compiled steps decide exactly as its plain Python, decision by
decision: every view of a few hundred hands, under several variants and parameters, is
put to both (``compiled=True`` and ``compiled=False``) and their cards compared."""

from __future__ import annotations

from random import Random

import pytest

from strategies.german_heuristic import GermanHeuristic
from whist_sim.games import make_game
from whist_sim.play import play_deal

VARIANTS = [
    {},
    {"trumps": "none"},
    {"count": "all", "race_to": 15},
    {"count": "weighted"},
    {"open_stock": 3},
]


class BothPaths:
    """Asks the compiled and the plain heuristic, checks they agree, plays the card."""

    def __init__(self, **params) -> None:
        self.compiled = GermanHeuristic(compiled=True, **params)
        self.plain = GermanHeuristic(compiled=False, **params)
        self.decisions = 0

    def choose(self, view, rng: Random) -> int:
        fast = self.compiled.choose(view, rng)
        slow = self.plain.choose(view, rng)
        assert fast == slow, f"compiled {fast} != plain {slow} for {view}"
        self.decisions += 1
        return fast


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={v[k]}" for k in v)
                         or "default")
def test_compiled_agrees_with_plain_python(variant: dict) -> None:
    game = make_game("german_whist", variant)
    seats = [BothPaths(), BothPaths(endgame_cards=5, denial=0.5, contest_margin=0.3)]
    for seed in range(60):
        played = play_deal(game, seats, seed, seed % 2, on_error="abort")
        assert played.outcome.forfeit_seat is None
    assert seats[0].decisions > 60 * 20


def test_plain_python_path_is_a_parameter() -> None:
    assert GermanHeuristic().compiled is True
    assert GermanHeuristic(compiled=False).compiled is False
    with pytest.raises(ValueError, match="compiled = 'yes' is not allowed"):
        GermanHeuristic(compiled="yes")
