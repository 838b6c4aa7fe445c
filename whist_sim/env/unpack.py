"""A reference encoder's packed int written out as the observation's binary entries and
the action mask, with NumPy.

Every reference encoder (``german_whist.py`` and the others) ORs the binary segments of
its observation and then the legal-action bitmask into one Python int
(``Layout.packed_bits`` bits, layout.py). Bit ``i`` (``i < binary_size``) is ``obs[i]``
(0.0 or 1.0) and bit ``binary_size + a`` is ``mask[a]`` (0 or 1). The real-valued tail
is kept by ``RealValues`` (history.py). The environment's compiled encoders
(``whist_sim.env.compiled``) write the same values without the packed int;
``tests/test_env_fast_path.py`` compares the two at every step of random hands of every
game.
"""

from __future__ import annotations

import numpy as np


def unpack_numpy(bits: int, nbytes: int, obs: np.ndarray, mask: np.ndarray, binary: int,
                 actions: int) -> None:
    """``obs[:binary]`` and ``mask`` from ``bits`` with NumPy."""
    raw = np.unpackbits(np.frombuffer(bits.to_bytes(nbytes, "little"), np.uint8),
                        bitorder="little")
    obs[:binary] = raw[:binary]
    mask[:] = raw[binary:binary + actions]
