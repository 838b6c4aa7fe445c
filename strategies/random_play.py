"""``random``: uniform over the legal actions, for every game.

The baseline every other strategy is measured against. Uniform over the set
bits of ``view.legal``, drawn from the seat's seeded generator. Its rule is the one
``whist_sim.strategy.chooses_uniformly`` states, so a deal of ``random`` seats only may be
played in compiled code (German Whist), with the same draws and the same actions.
"""

from __future__ import annotations

from random import Random
from typing import Any

from whist_sim.strategy import Strategy, chooses_uniformly


def nth_set_bit(mask: int, n: int) -> int:
    """Index of the ``n``-th (from 0) set bit of ``mask``, lowest first."""
    base = 0
    while True:
        low = mask & 0x1FFF
        count = _POPCOUNT[low]
        if n < count:
            return base + _SET_BITS[low][n]
        n -= count
        mask >>= 13
        base += 13


# Per 13-bit block (a suit of cards): its set bits, so picking the n-th legal action
# takes at most one step per suit instead of one per card.
_SET_BITS = tuple(tuple(i for i in range(13) if m >> i & 1) for m in range(1 << 13))
_POPCOUNT = tuple(len(bits) for bits in _SET_BITS)


class RandomStrategy(Strategy):
    """Plays a legal action chosen uniformly at random."""

    games = frozenset({"german_whist", "solo_whist", "minnesota_whist", "knockout_whist"})
    version = "1"

    @chooses_uniformly  # so a deal of random seats only may be played compiled
    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        n = int(rng.random() * legal.bit_count())
        base = 0  # nth_set_bit(legal, n), inline: this runs for every random decision
        while True:
            low = legal & 0x1FFF
            count = _POPCOUNT[low]
            if n < count:
                return base + _SET_BITS[low][n]
            n -= count
            legal >>= 13
            base += 13
