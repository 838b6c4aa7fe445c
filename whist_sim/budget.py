"""Time budgets: per decision, and chess clocks per deal or match; measured always, enforced
by an alarm where possible.

A strategy that overruns its budget forfeits the deal. Measuring after the call
catches a slow decision; an endless loop would never return, so on the main
thread of a POSIX process (a Ray task runs there) a SIGALRM timer also
interrupts the decision once the budget is spent; on Linux the timer signals
that thread and no other (``thread_timer``). Elsewhere (a notebook thread)
only the measurement applies. (A strategy that switches the alarm off is stopped
by its supervisor instead: ``tournament.sandbox``.)

A time control (``TimeControl``: base + increment, per deal or per match) gives
each seat a chess clock on top of the limit per decision: a decision may take at
most what is left on the seat's clock, its time is taken off, the increment is
added, and a seat whose clock runs out loses on time.
"""

from __future__ import annotations

import _signal  # getsignal without the enum conversion: ``check`` runs once a deal
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from whist_sim.thread_timer import SignalTimer, thread_timer


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


class _ClockLeft(threading.local):
    """The time left on the chess clock of the seat deciding now (inf: no clock), for a
    strategy that must tell its bot how long it may think (``clock.remaining_ms``): a bot
    under a clock of 0.5 s was told 4,750 ms, 95% of the limit per decision, and lost on
    time (a probe). Set by the play loop around each decision under a clock, for its own
    thread: deals played in threads (a notebook's) each tell their bots their own clock."""

    seconds: float = math.inf


ClockLeft = _ClockLeft()
"""The time left of the seat deciding now in this thread (``_ClockLeft``)."""


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
        if spent > self.remaining[seat]:  # before taking it off: the error says what was left
            raise self.flag_fell(seat, spent)
        self.remaining[seat] += self.control.increment - spent

    def spend(self, seat: int, spent: float) -> None:
        """Take a forfeited decision's time off the seat's clock, down to zero: a match
        clock that ran out was otherwise as full in the next hand as when the losing
        decision began (a probe)."""
        self.remaining[seat] = max(self.remaining[seat] - spent, 0.0)

    def flag_fell(self, seat: int, spent: float) -> TimeForfeit:
        """The seat's loss on time, with what its clock held when the decision began: a seat
        that came to a hand with its match clock already spent read "ran out during a
        decision of 0.001 s", as if that decision had used it up (a probe)."""
        left = max(self.remaining[seat], 0.0)
        return TimeForfeit(
            f"seat {seat} lost on time: its clock ({self.control.describe()}) ran out during"
            f" a decision of {spent:.3f} s; {left:.3f} s were left on it when this decision"
            " began"
        )


def _describe(seat: int, spent: float, budget: float, stopped: bool) -> str:
    if stopped:  # the alarm cut the decision short: say when, not how long it would have run
        return (f"seat {seat} had not decided after {spent:.3f} s, past its budget of"
                f" {budget:g} s per decision, and was stopped")
    return f"seat {seat} took {spent:.3f} s to decide; the budget is {budget:g} s per decision"


class DecisionClock:
    """Calls strategies within a budget of seconds per decision, for a deal or a whole task.

    The alarm is lazy: a decision only writes its deadline (``deadline``) and reads
    ``perf_counter``; the timer is set (a system call) only when the decision's deadline
    comes before the time it is already set to ring (``armed``). When it rings, the
    handler compares the clock with the deadline of the decision in progress: past it,
    the decision is stopped (``_AlarmRang``); before it (or between decisions), the
    timer is set again for that deadline (or switched off). So a decision that overruns
    is stopped at its deadline exactly, as by a timer set for each decision, while the
    timer is touched about once per budget of wall time instead of twice a decision
    (which cost more than the recording of a whole hand).
    """

    def __init__(self, budget: float, timer: SignalTimer | None) -> None:
        self.budget = budget
        self.timer = timer
        """What rings SIGALRM (None: nothing does; only the measurement applies)."""
        alarm = self.alarm = timer is not None
        self.deadline = math.inf
        """``perf_counter`` time the decision in progress must end by (inf: none is)."""
        self.armed = math.inf if alarm else -math.inf
        """``perf_counter`` time the timer is set to ring at (inf: it is off; -inf: there is
        no timer, so no deadline ever asks for one)."""
        self.handler = self._ring
        """The SIGALRM handler (one bound method, so ``check`` can tell it is still ours)."""

    # -- the decision loop's side ------------------------------------------------------------
    def start(self, started: float, budget: float) -> None:
        """A decision starts at ``started`` (``perf_counter``) with ``budget`` seconds."""
        deadline = self.deadline = started + budget  # first, so a ring now sees it
        if deadline < self.armed and self.alarm:
            self._arm(deadline, started)

    def check(self) -> None:
        """At the start of each deal of a clock shared by many: the handler is still ours
        and the timer still set, whatever a strategy did to them (a strategy that switched
        them off goes unstopped for the rest of its deal at most; the supervisor, if any,
        is the backstop)."""
        if not self.alarm:
            return
        if _signal.getsignal(signal.SIGALRM) is not self.handler:
            signal.signal(signal.SIGALRM, self.handler)
            self.armed = math.inf
        elif self.armed < math.inf and self.timer.remaining() == 0:
            self.armed = math.inf

    def stopped(self, seat: int, started: float, budget: float) -> DecisionTimeout:
        """The timeout of a decision the alarm stopped."""
        self.deadline = math.inf
        return DecisionTimeout(_describe(seat, time.perf_counter() - started, budget, True))

    @staticmethod
    def overran(seat: int, spent: float, budget: float) -> DecisionTimeout:
        """The timeout of a decision that returned after its budget."""
        return DecisionTimeout(_describe(seat, spent, budget, False))

    def call(self, seat: int, choose: Callable[[Any, Any], int], view: Any, rng: Any,
             budget: float | None = None) -> int:
        """The strategy's action within ``budget`` seconds (default: the clock's own)."""
        budget = self.budget if budget is None else budget
        started = time.perf_counter()
        try:  # the alarm may ring inside the strategy or just as it returns
            self.start(started, budget)
            action = choose(view, rng)
            spent = time.perf_counter() - started
            self.deadline = math.inf
        except _AlarmRang:
            raise self.stopped(seat, started, budget) from None
        finally:
            self.deadline = math.inf
        if spent > budget:
            raise self.overran(seat, spent, budget)
        return action

    # -- the timer -------------------------------------------------------------------------
    def _arm(self, at: float, now: float) -> None:
        self.armed = at
        self.timer.set(at if at == math.inf else max(at - now, 1e-6))

    def _ring(self, signum: int, frame: Any) -> None:
        now = time.perf_counter()
        if now >= self.deadline:
            self.armed = math.inf
            raise _AlarmRang
        self._arm(self.deadline, now)  # the decision in progress's deadline, or off

    def disarm(self) -> None:
        self.deadline = math.inf
        if self.timer is not None:
            self.armed = math.inf
            self.timer.set(math.inf)


class _AlarmRang(BaseException):
    """Raised inside the strategy by the timer; BaseException so ``except Exception`` in a
    strategy cannot swallow it."""


def is_alarm(exc: BaseException) -> bool:
    """Whether ``exc`` is the decision clock's own alarm, which must pass through any
    wrapper on its way to the clock."""
    return isinstance(exc, _AlarmRang)


@contextmanager
def decision_clock(budget: float) -> Iterator[DecisionClock]:
    """A clock for the decisions of a deal, a match or a task (``play_task`` opens one for
    all of its deals); installs the alarm handler when it can, and restores the previous
    handler when done."""
    on_main_thread = threading.current_thread() is threading.main_thread()
    if not (hasattr(signal, "setitimer") and on_main_thread):
        yield DecisionClock(budget, timer=None)
        return
    timer = thread_timer(signal.SIGALRM)
    clock = DecisionClock(budget, timer)
    previous = signal.signal(signal.SIGALRM, clock.handler)
    try:
        yield clock
    finally:
        clock.disarm()
        timer.close()
        signal.signal(signal.SIGALRM, previous)
