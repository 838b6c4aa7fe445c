"""The Knock-out heuristic's compiled card scoring decides exactly as its plain Python,
decision by decision: every view of a few hundred games, at several table sizes,
variants and parameters, is put to both (``compiled=True`` and ``compiled=False``)."""

from __future__ import annotations

from random import Random

import pytest

from strategies.knockout_heuristic import KnockoutHeuristic
from whist_sim.games import make_game
from whist_sim.play import play_deal

TABLES = [
    ({}, 2),
    ({}, 4),
    ({"dogs_life": "first_round"}, 3),
    ({"dogs_life": "first_knockout", "tie_break": "nearest_left"}, 7),
]


class BothPaths:
    """Asks the compiled and the plain heuristic, checks they agree, plays the action."""

    def __init__(self, **params) -> None:
        self.compiled = KnockoutHeuristic(compiled=True, **params)
        self.plain = KnockoutHeuristic(compiled=False, **params)
        self.decisions = 0

    def choose(self, view, rng: Random) -> int:
        fast = self.compiled.choose(view, rng)
        slow = self.plain.choose(view, rng)
        assert fast == slow, f"compiled {fast} != plain {slow} for {view}"
        self.decisions += 1
        return fast


@pytest.mark.parametrize(("variant", "players"), TABLES,
                         ids=[f"{players}p-{','.join(v.values()) or 'default'}"
                              for v, players in TABLES])
def test_compiled_agrees_with_plain_python(variant: dict, players: int) -> None:
    game = make_game("knockout_whist", variant, players)
    params = [{}, {"opponent_skill": 0.9, "higher_card_weight": 1.0, "survival_weight": 0.5},
              {"side_worth": 0.3, "keep_sure_margin": 0.5}]
    seats = [BothPaths(**params[seat % 3]) for seat in range(players)]
    for seed in range(40):
        played = play_deal(game, seats, seed, seed % players, on_error="abort")
        assert played.outcome.forfeit_seat is None
    assert sum(seat.decisions for seat in seats) > 40 * 20


def test_plain_python_path_is_a_parameter() -> None:
    assert KnockoutHeuristic().compiled is True
    assert KnockoutHeuristic(compiled=False).compiled is False
    with pytest.raises(ValueError, match="compiled = 1 is not allowed"):
        KnockoutHeuristic(compiled=1)


def test_longest_suit_reads_the_ranks_summed() -> None:
    """The trump choice's strength table is each suit's ranks summed (two = 1)."""
    from strategies.knockout_heuristic import longest_suit

    rng = Random(3)
    for _ in range(2000):
        hand = sum(1 << c for c in rng.sample(range(52), rng.randint(1, 7)))
        keys = []
        for suit in range(4):
            bits = hand >> (13 * suit) & 0x1FFF
            keys.append((bits.bit_count(), sum(r + 1 for r in range(13) if bits >> r & 1)))
        assert longest_suit(hand) == keys.index(max(keys))
