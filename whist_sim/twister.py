"""Python's own Mersenne Twister in compiled code: the same draws as ``random.Random``.

A strategy's generator is a ``random.Random`` (``play.seat_generators``), and a compiled
loop that plays a seat's decisions for it (``games.german_whist_uniform``) must draw what
that generator would have drawn, or the decisions, and every row after them, would change.
This is MT19937 (Matsumoto and Nishimura 1998) as CPython seeds and reads it:

- ``random.Random(n)`` for a whole number n takes the 32-bit words of ``abs(n)``, lowest
  first, as the key of ``init_by_array`` (one word for 0);
- ``random()`` is ``(a * 2**26 + b) / 2**53`` of two outputs, ``a`` their first shifted
  right by 5 bits, ``b`` the second by 6.

A generator is an ``int64`` array of ``TWISTER_WORDS``: 624 words of state, then the index
of the next word to read. Words are kept in int64, masked to 32 bits after every step:
numba turns arithmetic that mixes unsigned and signed 64-bit integers into floats.
``tests/test_uniform_play.py`` holds every draw equal to CPython's.
"""

from __future__ import annotations

import numpy as np

from whist_sim.jit import cached_njit

_N = 624
_M = 397
TWISTER_WORDS = _N + 1
"""An array of this many int64 holds a generator: its state, then its read index."""
KEY_WORDS = 2
"""Key words ``twister_key`` gives: enough for every seed below 2**64."""
_WORD = 0xFFFFFFFF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX_A = 0x9908B0DF


def twister_key(seed: int) -> tuple[int, int, int]:
    """``(words, low word, high word)``: the key ``random.Random(seed)`` seeds its twister
    with, for a whole number below 2**64 (a seat's seed always is)."""
    n = abs(seed)
    if n >> 64:
        raise ValueError(f"seed {seed} has more than {32 * KEY_WORDS} bits")
    return (1 if n >> 32 == 0 else 2), n & _WORD, n >> 32


def _first_state() -> np.ndarray:
    """The state every seeding starts from (``init_genrand(19650218)``), whatever the key:
    computed once here rather than for every seat of every deal."""
    state = np.zeros(_N, np.int64)
    state[0] = 19650218
    for i in range(1, _N):
        previous = int(state[i - 1])
        state[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & _WORD
    return state


FIRST_STATE = _first_state()


@cached_njit(allocates=False)
def seed_twister(state, first, words, low, high):  # pragma: no cover - compiled
    """Seed ``state`` as ``random.Random`` seeds itself from the key (``twister_key``);
    ``first`` is ``FIRST_STATE``."""
    for i in range(_N):
        state[i] = first[i]
    i = 1
    j = 0
    for _ in range(_N):  # max(_N, words) rounds
        previous = state[i - 1]
        key = low if j == 0 else high
        state[i] = ((state[i] ^ ((previous ^ (previous >> 30)) * 1664525)) + key + j) & _WORD
        i += 1
        j += 1
        if i >= _N:
            state[0] = state[_N - 1]
            i = 1
        if j >= words:
            j = 0
    for _ in range(_N - 1):
        previous = state[i - 1]
        state[i] = ((state[i] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _WORD
        i += 1
        if i >= _N:
            state[0] = state[_N - 1]
            i = 1
    state[0] = _UPPER
    state[_N] = _N  # read index: the first draw twists


@cached_njit(allocates=False)
def _twist(state):  # pragma: no cover - compiled
    for k in range(_N):
        y = (state[k] & _UPPER) | (state[(k + 1) % _N] & _LOWER)
        following = state[(k + _M) % _N] ^ (y >> 1)
        state[k] = following ^ _MATRIX_A if y & 1 else following
    state[_N] = 0


@cached_njit(allocates=False)
def next_word(state):  # pragma: no cover - compiled
    """The next 32-bit output (CPython's ``genrand_uint32``)."""
    if state[_N] >= _N:
        _twist(state)
    index = state[_N]
    y = state[index]
    state[_N] = index + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _WORD


@cached_njit(allocates=False)
def next_double(state):  # pragma: no cover - compiled
    """``random.Random.random()``: a float in [0, 1) from 53 bits of two outputs."""
    a = next_word(state) >> 5
    b = next_word(state) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def new_twister(seed: int) -> np.ndarray:
    """A generator that draws what ``random.Random(seed)`` draws (for tests and tools)."""
    state = np.zeros(TWISTER_WORDS, np.int64)
    seed_twister(state, FIRST_STATE, *twister_key(seed))
    return state
