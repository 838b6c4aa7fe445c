"""An encoder's packed int written out as the observation's binary entries, its trick
numbers and the action mask: one compiled call, or NumPy (the reference).

Every encoder ORs the binary segments of its observation and then the legal-action
bitmask into one Python int (``Layout.packed_bits`` bits, layout.py). Bit ``i``
(``i < binary_size``) is ``obs[i]`` (0.0 or 1.0) and bit ``binary_size + a`` is
``mask[a]`` (0 or 1). The first real-valued segment is always ``trick_number``: a
``PlayHistory``'s per-card numbers for the completed tricks, and the current trick's
number for the cards of the trick in progress, which the packed int holds too (its
``trick`` plane).

``unpack_numpy`` writes the binary part and the mask with NumPy (four NumPy calls; the
trick numbers are kept by ``RealValues.numbers``); ``kernel()`` is one numba function
that writes all three from the packed bytes in one call, about 0.6 microsecond where a
single NumPy call costs 0.3 to 0.7 (measured on a loaded 2-core machine). They give the
same values: ``tests/test_env_fast_path.py`` compares them at every step of random hands
of every game. numba is imported, and the kernel compiled or loaded from its disk
cache, on first use, so importing ``whist_sim.env`` stays quick.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_kernel: Any = None


def unpack_numpy(bits: int, nbytes: int, obs: np.ndarray, mask: np.ndarray, binary: int,
                 actions: int) -> None:
    """``obs[:binary]`` and ``mask`` from ``bits`` with NumPy (the reference)."""
    raw = np.unpackbits(np.frombuffer(bits.to_bytes(nbytes, "little"), np.uint8),
                        bitorder="little")
    obs[:binary] = raw[:binary]
    mask[:] = raw[binary:binary + actions]


def kernel() -> Any:
    """``write(packed, numbers, value, params, tail, obs, mask)``, compiled: ``packed``
    the int's bytes (little-endian), ``numbers`` the history's 52 trick numbers
    (float32), ``value`` the current trick's number, ``params`` int64 ``[binary_size,
    actions, offset of the trick plane]``, ``tail`` the real-valued entries as the
    encoder keeps them (its first 52, the trick numbers, are written from ``numbers``
    instead), ``obs`` and ``mask`` the arrays to fill, every entry."""
    global _kernel
    if _kernel is None:
        _kernel = _compile()
    return _kernel


def _compile() -> Any:
    from whist_sim.jit import cached_njit

    @cached_njit(allocates=False)
    def write(packed: bytes, numbers: np.ndarray, value: float, params: np.ndarray,
              tail: np.ndarray, obs: np.ndarray, mask: np.ndarray
              ) -> None:  # pragma: no cover - compiled
        binary, actions, o_trick = params[0], params[1], params[2]
        for i in range(52, tail.shape[0]):
            obs[binary + i] = tail[i]
        whole = binary >> 3
        for byte in range(whole):  # eight entries a byte, a loop the compiler unrolls
            eight = packed[byte]
            base = byte << 3
            for bit in range(8):
                obs[base + bit] = (eight >> bit) & 1
        for i in range(whole << 3, binary):
            obs[i] = (packed[i >> 3] >> (i & 7)) & 1
        for a in range(actions):
            i = binary + a
            mask[a] = (packed[i >> 3] >> (i & 7)) & 1
        for card in range(52):
            i = o_trick + card
            if (packed[i >> 3] >> (i & 7)) & 1:
                obs[binary + card] = value
            else:
                obs[binary + card] = numbers[card]

    return write
