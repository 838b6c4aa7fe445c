"""``cached_njit``: numba's ``njit`` cached on disk, and the bit helpers compiled code shares.

Every compiled hot loop of the project (the solver, German roll-outs) is built with
``cached_njit`` and counts and finds cards with ``count_bits``, ``lowest_bit`` and
``highest_bit``. Importing this module imports numba (about a second), so modules that
only sometimes need a compiled path import theirs on first use.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic


def cached_njit(*, allocates: bool = True, **options):
    """``njit`` cached on disk, or, where no cache folder is writable, compiled per process.

    numba writes the cache next to the compiled module (``__pycache__``, ignored by git),
    else in ``NUMBA_CACHE_DIR`` or the user's cache folder; with none of them writable it
    refuses ``cache=True`` outright, so a read-only install falls back to compiling.
    ``error_model="numpy"`` drops the zero-division checks of ``//`` and ``%``.

    ``allocates=False`` compiles without numba's runtime (NRT): the function may create
    no array, and in exchange keeps no reference counts on the arrays it is given. NRT
    counts a reference, with an atomic instruction, each time an array passes into an
    inlined helper and out again; in the solver's search loop those counts took 28% of
    the time (``perf`` on 14,338 zero-window tests of German Whist hands: 1.73 s with
    them, 1.25 s without, the same positions searched). ``_nrt`` is numba's own target
    option for this (listed among njit's known options, though not in its user guide).
    """
    options = dict(options, error_model="numpy", _nrt=allocates)

    def wrap(function):
        try:
            return njit(cache=True, **options)(function)
        except RuntimeError:
            return njit(**options)(function)

    return wrap


_compiled = cached_njit()

MASK64 = (1 << 64) - 1
"""A mask as the 64 bits compiled code holds (a negative int64 is bit 63 set)."""


@_compiled
def highest_bit(x: int) -> int:
    """Index of the highest set bit of a non-zero mask."""
    return 63 - leading_zeros(np.int64(x))


@_compiled
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return trailing_zeros(np.int64(x))


@intrinsic
def _popcount(typingctx, x):
    """LLVM's ``ctpop``: one instruction where the processor has it (numba has no popcount)."""
    if x != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@_compiled
def count_bits(x: int) -> int:
    """Set bits of a mask."""
    return _popcount(np.int64(x))


if config.DISABLE_JIT:  # numba's debugging switch runs compiled code as Python, where
    # its intrinsics (trailing_zeros, ctpop) cannot run: the same helpers, in Python, so
    # every compiled path (the environment's encoders, the solver) still works, slowly
    # (an RL user's probe found no environment could be built under the switch)

    def highest_bit(x: int) -> int:
        """Index of the highest set bit of a non-zero mask."""
        return (int(x) & MASK64).bit_length() - 1

    def lowest_bit(x: int) -> int:
        """Index of the lowest set bit of a non-zero mask."""
        x = int(x) & MASK64
        return (x & -x).bit_length() - 1

    def count_bits(x: int) -> int:
        """Set bits of a mask."""
        return (int(x) & MASK64).bit_count()
