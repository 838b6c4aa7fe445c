"""A worker keeps the memory a task frees for its next task, instead of handing it back.

A task builds its Arrow tables from columns of all its hands at once: arrays of one
to twenty-odd megabytes (a German Whist task of 20,000 hands has 2.2 million action
rows), made and freed once a task. glibc gives a block that large a mapping of its
own and unmaps it when freed, and gives the top of its heap back too, so every task's
arrays are fresh pages the kernel has to fault in and zero, which costs a virtual
machine dearly (a 17 MB array took 3 ms to make afresh, 0.6 ms in reused memory).
Measured in separate processes with and without this on this project's 2-core
machine, a task of random German Whist took 63.8 against 66.3 microseconds a hand
(``benchmarks/pipeline_throughput.py``'s task, 6 December), a Knock-out Whist game
1 to 2% less.

Raising glibc's mmap and trim thresholds keeps such blocks in the heap, where the
next task's arrays reuse them. The cost: the memory the worker's malloc holds stays at
the largest it has been (its peak is unchanged), rather than falling between tasks;
what the next task allocates through malloc (NumPy's arrays, Arrow's are its own pool's)
comes from it first. Python's small objects live in arenas of their own, unaffected.
Elsewhere than glibc (musl, macOS) nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

MMAP_THRESHOLD = 256 << 20
"""Blocks below this many bytes come from the heap, not a mapping of their own."""
TRIM_THRESHOLD = 512 << 20
"""Free bytes at the heap's top kept before any is given back."""

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # malloc.h


@functools.cache
def keep_freed_memory() -> bool:
    """Set glibc's thresholds, once a process; whether they are set (glibc only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
