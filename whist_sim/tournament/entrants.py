"""What the play loop calls for an entrant: its ``choose``, timed, watched, its output kept.

``play_task`` wraps each entrant's strategy in an :class:`Entrant` so that, around
every decision:

- the decision is counted and timed (the live standings' time per decision);
- whatever the strategy prints through ``sys.stdout``/``sys.stderr`` goes to that
  entrant's capped buffer instead of the terminal or a Ray log, so a strategy that
  prints megabytes per decision cannot fill a disk (``OUTPUT_LIMIT``);
- a supervisor (``sandbox``), if any, is told which entrant is deciding since when,
  and which actions the hand has seen: enough to end a decision that overruns its
  time and to rebuild the hand if the process dies inside a strategy;
- a hand that a supervisor has already seen die is replayed from its recorded
  actions (:class:`CrashScript`) and forfeited by the seat that died, without
  calling the strategy again, so one crashing strategy costs one deal.

In a supervised process (``contain=True``) a strategy that raises ``SystemExit``,
``KeyboardInterrupt`` or another ``BaseException`` forfeits the deal like any other
error (the supervised process ignores Ctrl-C, so such an exception can only come
from a strategy). In the driver's own process they are left alone: there Ctrl-C
must stop the run.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from whist_sim.budget import is_alarm
from whist_sim.games.base import DealState
from whist_sim.play import DealSource, SeatFailure

OUTPUT_LIMIT = 1 << 20
"""Characters of one entrant's printed output kept per task (the run keeps a few MB more
at most; ``runner`` caps the total per entrant)."""


@dataclass(frozen=True)
class CrashScript:
    """A hand to replay without strategies: the actions it saw, then its seat's failure."""

    actions: tuple[int, ...]
    """The actions chosen in the hand, in order, until the failure."""
    message: str
    """What happened, naming the entrant: "(pimc) process died: SIGKILL"."""


HandKey = tuple[int, int, int, int]
"""(line-up index in the task spec, deal, rotation, hand): one hand of a task."""


class Monitor(Protocol):
    """A supervisor's view of the play: where it is and what it has done."""

    def match_started(self, lineup: int, deal: int, rotation: int) -> None: ...

    def hand_started(self, hand: int) -> None: ...

    def deciding(self, entrant: int) -> None: ...

    def decided(self, action: int) -> None: ...


class _Router(io.TextIOBase):
    """sys.stdout and sys.stderr during a task: text goes to the entrant deciding."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        target = self.table.speaking
        return (target if target is not None else self.table.stray).write(text)


class CappedOutput(io.TextIOBase):
    """A text stream that keeps its first ``limit`` characters and counts the rest."""

    def __init__(self, limit: int = OUTPUT_LIMIT) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.kept = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = self.limit - self.kept
        if room > 0:
            part = text[:room]
            self.parts.append(part)
            self.kept += len(part)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def text(self) -> str:
        """What was kept, and a line saying how much was dropped."""
        kept = "".join(self.parts)
        if self.dropped:
            kept += f"\n[{self.dropped:,} more characters dropped: output is capped]\n"
        return kept


@dataclass
class Table:
    """The play of one task as the entrants see it: which hand, scripted or not."""

    monitor: Monitor | None = None
    scripts: Mapping[HandKey, CrashScript] = field(default_factory=dict)
    contain: bool = False
    """Turn a strategy's ``BaseException`` into a forfeit (only in a supervised process)."""
    _match: tuple[int, int, int] = (0, 0, 0)
    _script: Iterator[int] | None = None
    _failure: str = ""
    hand_times: list[list[float | None]] = field(default_factory=list)
    """Per hand of the current match, the seconds each decision took, in order (None for
    an action replayed from a script): the ``actions`` table's ``seconds``."""
    times: list[float | None] = field(default_factory=list)
    """The current hand's list in ``hand_times`` (what a decision appends to)."""
    speaking: CappedOutput | None = None
    """The output buffer of the entrant deciding now, where ``printing`` sends its text."""
    stray: CappedOutput = field(default_factory=CappedOutput)
    """What was printed outside any decision (a strategy's constructor, say)."""

    @contextlib.contextmanager
    def printing(self) -> Iterator[None]:
        """For the task's length, Python's stdout and stderr go to the entrant deciding:
        installed once, so a decision only names its entrant (one attribute), where
        swapping the streams around every decision cost a fifth of random play."""
        router = _Router(self)
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = router
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved

    def match(self, lineup: int, deal: int, rotation: int, source: DealSource | None) -> DealSource:
        """The deal source for one match: announces each hand, and arms its script if any."""
        self._match = (lineup, deal, rotation)
        self.hand_times = []
        if self.monitor is not None:
            self.monitor.match_started(lineup, deal, rotation)

        def hand(
            number: int, dealer: int, context: Mapping[str, Any]
        ) -> tuple[DealState, int] | None:
            self.times = []
            self.hand_times.append(self.times)
            script = self.scripts.get((*self._match, number))
            self._script = iter(script.actions) if script is not None else None
            self._failure = script.message if script is not None else ""
            if self.monitor is not None:
                self.monitor.hand_started(number)
            return None if source is None else source(number, dealer, context)

        return hand

    def scripted(self) -> int:
        """The next recorded action of a scripted hand; its failure once they run out."""
        assert self._script is not None
        for action in self._script:
            self.times.append(None)  # replayed: its time was not measured here
            return action
        self._script = None
        raise SeatFailure(self._failure)


class Entrant:
    """One entrant of a task, as the play loop calls it: ``choose``, and for a strategy
    that listens (a bot behind the protocol) ``begin_deal`` and ``end_deal``."""

    __slots__ = ("begin_deal", "choose", "end_deal", "label", "output", "seconds")

    def __init__(self, label: str, index: int, strategy: Any, table: Table) -> None:
        self.label = label
        self.seconds = 0.0
        self.output = CappedOutput()
        self.begin_deal = getattr(strategy, "begin_deal", None)
        self.end_deal = getattr(strategy, "end_deal", None)
        choose: Callable[[Any, Any], int] = strategy.choose
        clock = time.perf_counter
        monitor = table.monitor
        output = self.output

        def decide(view: Any, rng: Any) -> int:
            if table._script is not None:
                return table.scripted()
            if monitor is not None:
                monitor.deciding(index)
            table.speaking = output
            started = clock()
            try:
                action = choose(view, rng)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt, ... from the strategy
                if isinstance(exc, Exception) or not table.contain or is_alarm(exc):
                    raise
                raise SeatFailure(f"({label}) raised {type(exc).__name__}: {exc}") from None
            finally:
                spent = clock() - started
                table.speaking = None
                table.times.append(spent)
                self.seconds += spent
            if monitor is not None:
                monitor.decided(action)
            return action

        self.choose = decide
