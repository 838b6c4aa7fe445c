"""The time budget of one decision: measured always, enforced by an alarm where possible.

A strategy that overruns its budget forfeits the deal. Measuring after the call
catches a slow decision; an endless loop would never return, so on the main
thread of a POSIX process (a Ray task runs there) a SIGALRM timer also
interrupts the decision once the budget is spent. Elsewhere (a notebook thread)
only the measurement applies.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class DecisionTimeout(TimeoutError):
    """A strategy took longer than its budget for one decision."""


def _describe(seat: int, spent: float, budget: float) -> str:
    return f"seat {seat} took {spent:.3f} s to decide; the budget is {budget:g} s per decision"


class DecisionClock:
    """Calls a strategy for one decision within ``budget`` seconds."""

    def __init__(self, budget: float, alarm: bool) -> None:
        self.budget = budget
        self.alarm = alarm

    def call(self, seat: int, choose: Callable[[Any, Any], int], view: Any, rng: Any) -> int:
        started = time.perf_counter()
        if self.alarm:
            try:  # the alarm may ring inside the strategy or just as it returns
                signal.setitimer(signal.ITIMER_REAL, self.budget)
                try:
                    action = choose(view, rng)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except _AlarmRang:
                spent = time.perf_counter() - started
                raise DecisionTimeout(_describe(seat, spent, self.budget)) from None
        else:
            action = choose(view, rng)
        spent = time.perf_counter() - started
        if spent > self.budget:
            raise DecisionTimeout(_describe(seat, spent, self.budget))
        return action


class _AlarmRang(BaseException):
    """Raised inside the strategy by the timer; BaseException so ``except Exception`` in a
    strategy cannot swallow it."""


def is_alarm(exc: BaseException) -> bool:
    """Whether ``exc`` is the decision clock's own alarm, which must pass through any
    wrapper on its way to the clock."""
    return isinstance(exc, _AlarmRang)


def _ring(signum: int, frame: Any) -> None:
    raise _AlarmRang


@contextmanager
def decision_clock(budget: float) -> Iterator[DecisionClock]:
    """A clock for the decisions of one deal; installs the alarm handler when it can."""
    on_main_thread = threading.current_thread() is threading.main_thread()
    if not (hasattr(signal, "setitimer") and on_main_thread):
        yield DecisionClock(budget, alarm=False)
        return
    previous = signal.signal(signal.SIGALRM, _ring)
    try:
        yield DecisionClock(budget, alarm=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
