"""Seeds and shuffles that are the same on every machine, worker and Python version.

Python's ``random`` and NumPy's generators promise no stable streams across
versions, and a deal must be a pure function of its seed forever (results and
replays name seeds). So deals use SplitMix64, fully specified here, and child
seeds are derived by hashing names, so a deal's seed depends only on what it is
(root seed, deal index, hand number), never on the order work was done in.
"""

from __future__ import annotations

import _random
import hashlib
import math
import random
from collections.abc import Callable
from typing import Any

MASK64 = (1 << 64) - 1

DEAL_SEEDS = range(2**63)
"""The seeds a deal may be shuffled from: those a tournament deals from (``derive_seed``'s,
and a config's ``seed``). The shuffle reads a seed modulo 2**64, so one outside would
deal another seed's cards (-1 those of 2**64 - 1); the callers that take a seed from a
user (``play_deal``, the environment's ``reset``) refuse it."""

DEAL_SEEDS_SAID = "whole numbers 0..2**63 - 1, the seeds a tournament deals from"
"""``DEAL_SEEDS`` in an error's words."""


def derive_seed(root: int, *path: int | str) -> int:
    """A 63-bit child seed named by ``path`` under ``root`` (stable, order-free)."""
    text = ":".join([str(root), *map(str, path)]).encode()
    return seed_of_hash(hashlib.blake2b(text, digest_size=8))


def seat_seed_hash(deal_seed: int, seat: int) -> Any:
    """``derive_seed(deal_seed, "seat", seat)``'s hash, not yet finished: it gives the seed
    (``seed_of_hash``) and holds nothing that gives the deal's seed back, so a seat's
    generator can be handed over before it is seeded (``play.seat_generators``). Its
    text is ``derive_seed``'s, formatted directly: the generic join cost 0.3 µs more a
    seat, on every deal (``tests/test_lazy_rng.py`` holds the two equal)."""
    return hashlib.blake2b(b"%d:seat:%d" % (deal_seed, seat), digest_size=8)


def seed_of_hash(hashed: Any) -> int:
    """The seed a ``seed_hash`` stands for."""
    return int.from_bytes(hashed.digest(), "big") >> 1


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, well-mixed, fully specified."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection, so no modulo bias."""
        limit = MASK64 - (MASK64 + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n


def _splitmix_words(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of SplitMix64(seed), inlined for speed."""
    words = []
    state = seed & MASK64
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        words.append(z ^ (z >> 31))
    return words


def splitmix64(seed: int) -> int:
    """The first output of SplitMix64(seed): a cheap, well-mixed seed derivation."""
    return _splitmix_words(seed, 1)[0]


def _permutation_index(seed: int, size: int) -> int:
    """A uniform integer in [0, size!) built from 64-bit SplitMix64 words by rejection.

    52! is about 2**225.6, so four words (256 bits) are rejected with probability
    under 2**-30: exact uniformity at the cost of one big-integer remainder.
    """
    total = math.factorial(size)
    words_needed = max(1, (total.bit_length() + 63) // 64)
    span = 1 << (64 * words_needed)
    limit = span - span % total
    state_seed = seed
    while True:
        words = _splitmix_words(state_seed, words_needed)
        value = 0
        for word in words:
            value = (value << 64) | word
        if value < limit:
            return value % total
        state_seed = words[-1]  # redraw (practically never) from a fresh stream


def shuffled_deck(seed: int, size: int = 52) -> list[int]:
    """A uniformly random permutation of ``range(size)``, a pure function of ``seed``.

    One uniform number below ``size!`` is decoded digit by digit (factorial base) into
    the swaps of a Fisher-Yates shuffle: about five times faster in Python than a
    draw per card, and a deal is shuffled for every hand played.
    """
    deck = list(range(size))
    index = _permutation_index(seed, size)
    for i in range(size - 1, 0, -1):
        index, j = divmod(index, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def strategy_rng(seed: int) -> random.Random:
    """The generator a strategy gets for one seat of one deal (``play_deal`` gives it as a
    ``LazyRandom``, seeded at its first use: the same draws).

    Strategies may use ``random.Random`` freely; results stay reproducible
    because every seat of every deal gets its own generator seeded from the
    deal seed, whatever worker or task plays it.
    """
    return random.Random(seed)


class LazyRandom(random.Random):
    """A ``random.Random`` seeded only when first used: ``LazyRandom(seed_of, *args)`` draws
    exactly what ``random.Random(seed_of(*args))`` draws.

    Seeding a Mersenne Twister costs about 5 us, and most strategies (the heuristics among
    them) never draw from the generator each seat of each deal is given: the seed is
    derived and the twister seeded at the first draw, state read or pickling, when the
    object becomes a plain ``random.Random`` (its class switched), so every later call is
    the C generator's own. ``isinstance(rng, random.Random)`` holds throughout.
    """

    def __init__(self, seed_of: Callable[..., int], *args: Any) -> None:
        # random.Random.__init__ is not called: seeding it is what is put off
        self._seed_from = (seed_of, args)
        self.gauss_next = None

    def random(self) -> float:
        _seed_now(self)
        return random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        _seed_now(self)
        return random.Random.getrandbits(self, k)

    def randbytes(self, n: int) -> bytes:
        _seed_now(self)
        return random.Random.randbytes(self, n)

    def getstate(self) -> tuple[Any, ...]:
        _seed_now(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _seed_now(self)
        random.Random.setstate(self, state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self.__dict__.pop("_seed_from", None)
        self.__class__ = random.Random
        random.Random.seed(self, a, version)
        self.gauss_next = None

    def __reduce__(self) -> tuple[Any, ...]:
        _seed_now(self)
        return random.Random.__reduce__(self)


def _seed_now(rng: random.Random) -> None:
    """Seed a ``LazyRandom`` not yet seeded, as ``random.Random(seed)`` would, and make it a
    ``random.Random`` (a method bound before, as ``shuffle`` binds ``getrandbits``, may
    still call in after: then there is nothing left to do)."""
    pending = rng.__dict__.pop("_seed_from", None)
    if pending is not None:
        seed_of, args = pending
        rng.__class__ = random.Random
        seed = seed_of(*args)
        if seed.__class__ is int:  # what random.Random.seed does with an int, without its checks
            _random.Random.seed(rng, seed)
        else:
            random.Random.seed(rng, seed)
        rng.gauss_next = None

