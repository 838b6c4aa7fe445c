"""Time budgets: per decision, and chess clocks per deal or match; measured always, enforced
by an alarm where possible.

A strategy that overruns its budget forfeits the deal. Measuring after the call
catches a slow decision; an endless loop would never return, so on the main
thread of a POSIX process (a Ray task runs there) a SIGALRM timer also
interrupts the decision once the budget is spent. Elsewhere (a notebook thread)
only the measurement applies. (A strategy that switches the alarm off is stopped
by its supervisor instead: ``tournament.sandbox``.)

A time control (``TimeControl``: base + increment, per deal or per match) gives
each seat a chess clock on top of the limit per decision: a decision may take at
most what is left on the seat's clock, its time is taken off, the increment is
added, and a seat whose clock runs out loses on time.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


class DecisionTimeout(TimeoutError):
    """A strategy took longer than its budget for one decision."""


class TimeForfeit(DecisionTimeout):
    """A seat's chess clock ran out: it loses on time."""


@dataclass(frozen=True)
class TimeControl:
    """Chess-clock time: ``base`` seconds per ``per`` ("deal" or "match"), plus
    ``increment`` seconds after every decision made in time."""

    base: float
    increment: float = 0.0
    per: str = "deal"

    def describe(self) -> str:
        return f"{self.base:g} s + {self.increment:g} s a decision, per {self.per}"


class ChessClock:
    """Each seat's time left under a ``TimeControl``, for one deal or one match."""

    def __init__(self, control: TimeControl, players: int) -> None:
        self.control = control
        self.remaining = [control.base] * players

    def budget(self, seat: int, limit: float) -> float:
        """What the seat's next decision may take: its time left, within the limit."""
        return min(limit, max(self.remaining[seat], 0.0))

    def charge(self, seat: int, spent: float) -> None:
        """Take a decision's time off the seat's clock, then add the increment."""
        self.remaining[seat] -= spent
        if self.remaining[seat] < 0:
            raise self.flag_fell(seat, spent)
        self.remaining[seat] += self.control.increment

    def flag_fell(self, seat: int, spent: float) -> TimeForfeit:
        return TimeForfeit(
            f"seat {seat} lost on time: its clock ({self.control.describe()}) ran out during"
            f" a decision of {spent:.3f} s"
        )


def _describe(seat: int, spent: float, budget: float, stopped: bool) -> str:
    if stopped:  # the alarm cut the decision short: say when, not how long it would have run
        return (f"seat {seat} had not decided after {spent:.3f} s, past its budget of"
                f" {budget:g} s per decision, and was stopped")
    return f"seat {seat} took {spent:.3f} s to decide; the budget is {budget:g} s per decision"


class DecisionClock:
    """Calls a strategy for one decision within a budget of seconds."""

    def __init__(self, budget: float, alarm: bool) -> None:
        self.budget = budget
        self.alarm = alarm

    def call(self, seat: int, choose: Callable[[Any, Any], int], view: Any, rng: Any,
             budget: float | None = None) -> int:
        """The strategy's action within ``budget`` seconds (default: the clock's own)."""
        budget = self.budget if budget is None else budget
        started = time.perf_counter()
        if self.alarm:
            try:  # the alarm may ring inside the strategy or just as it returns
                signal.setitimer(signal.ITIMER_REAL, max(budget, 1e-6))
                try:
                    action = choose(view, rng)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except _AlarmRang:
                spent = time.perf_counter() - started
                raise DecisionTimeout(_describe(seat, spent, budget, stopped=True)) from None
        else:
            action = choose(view, rng)
        spent = time.perf_counter() - started
        if spent > budget:
            raise DecisionTimeout(_describe(seat, spent, budget, stopped=False))
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
