"""A worker keeps the memory a task frees for the next one (whist_sim.tournament.freed_memory)."""

from __future__ import annotations

import platform
import resource
import sys

import numpy as np
import pytest

from whist_sim.tournament.freed_memory import keep_freed_memory

GLIBC = sys.platform.startswith("linux") and "glibc" in " ".join(platform.libc_ver())


def _faults_of(make) -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    make()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.skipif(not GLIBC, reason="the thresholds are glibc's")
def test_an_array_as_large_as_a_tasks_columns_reuses_the_memory_the_last_one_freed():
    """After ``keep_freed_memory``, a 20 MB array made again after one was freed takes
    almost no page fault: its memory is the freed one's, not fresh pages (without it,
    glibc unmapped such a block when freed: hundreds of faults each time)."""
    assert keep_freed_memory() is True
    size = 2_500_000  # 20 MB of float64, as a German task's seconds column
    _faults_of(lambda: np.ones(size))  # made and freed
    faults = [_faults_of(lambda: np.ones(size)) for _ in range(3)]
    assert max(faults) < 20, faults


def test_it_is_set_once_a_process():
    assert keep_freed_memory() is keep_freed_memory()
