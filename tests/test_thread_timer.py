"""The decision clock's timer signals the thread that set it, not whichever thread of the
process the kernel picks: a SIGALRM taken by another thread left a sleeping decision
running three times its limit (thread_timer's docstring)."""

from __future__ import annotations

import math
import signal
import sys
import threading
import time

import pytest

from whist_sim.budget import decision_clock
from whist_sim.thread_timer import thread_timer

linux = pytest.mark.skipif(not sys.platform.startswith("linux"),
                           reason="thread-directed timers are Linux's; elsewhere setitimer")


@linux
def test_the_signal_goes_to_the_thread_that_made_the_timer_and_no_other():
    """The helper thread blocks SIGUSR2 and waits for it; the main thread has a handler.
    A signal for the process would go to the main thread (the only one not blocking
    it); the timer's goes to the helper."""
    caught_by_main: list[int] = []
    previous = signal.signal(signal.SIGUSR2, lambda signum, frame: caught_by_main.append(signum))
    taken: list[object] = []

    def helper() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
        timer = thread_timer(signal.SIGUSR2)
        try:
            timer.set(0.05)
            taken.append(signal.sigtimedwait({signal.SIGUSR2}, 5.0))
        finally:
            timer.close()

    try:
        thread = threading.Thread(target=helper)
        thread.start()
        thread.join()
        time.sleep(0.05)  # a handler of the main thread's would have run by now
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert taken and taken[0] is not None, "the helper thread received its timer's signal"
    assert caught_by_main == []


@linux
def test_the_decision_clock_times_its_own_thread():
    with decision_clock(0.05) as clock:
        assert clock.timer is not None and clock.timer.directed


def test_a_timer_set_then_switched_off_reports_what_is_left():
    timer = thread_timer(signal.SIGALRM)
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    try:
        timer.set(30.0)
        assert 29.0 < timer.remaining() <= 30.0
        timer.set(math.inf)
        assert timer.remaining() == 0
    finally:
        timer.close()
        signal.signal(signal.SIGALRM, previous)
