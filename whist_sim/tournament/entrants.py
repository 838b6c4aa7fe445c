"""What the play loop calls for an entrant: its ``choose``, timed, watched, its output kept.

``play_task`` seats each entrant's strategy as an :class:`Entrant` so that:

- whatever the strategy prints through ``sys.stdout``/``sys.stderr`` goes to that
  entrant's capped buffer instead of the terminal or a Ray log, so a strategy that
  prints megabytes per decision cannot fill a disk (``OUTPUT_LIMIT``). The streams
  are replaced once per task, and a write goes to the entrant of the seat to act in
  the hand being played (:class:`Table` knows it): nothing is done per decision;
- a supervisor (``sandbox``), if any, is told which entrant is deciding since when,
  and which actions the hand has seen: enough to end a decision that overruns its
  time and to rebuild the hand if the process dies inside a strategy;
- a hand that a supervisor has already seen die is replayed from its recorded
  actions (:class:`CrashScript`) and forfeited by the seat that died, without
  calling the strategy again, so one crashing strategy costs one deal.

Without a supervisor an entrant's ``choose`` is its strategy's own: decisions are
timed by the play loop (``play_deal(timed=True)``) and counted from the log, so
seating an entrant costs nothing per decision.

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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from whist_sim.budget import is_alarm
from whist_sim.games.base import DealState, Game
from whist_sim.play import DealSource, SeatFailure, hand_seed
from whist_sim.raised import raised_text

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

    def decision_failed(self) -> None:
        """The decision in progress ended in an exception: no action, and no longer timed."""


class _Router(io.TextIOBase):
    """sys.stdout and sys.stderr during a task: text goes to the entrant deciding."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        table = self.table
        state = table.state
        seat = -1 if state is None else state.to_act
        return (table.voices[seat] if seat >= 0 else table.stray).write(text)


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
    entrants: list[Entrant] = field(default_factory=list)
    """The task's entrants (each adds itself), whose ``choose`` a scripted hand replaces."""
    scripted: list[bool] = field(default_factory=list)
    """Per hand of the current match, whether it was replayed from a script (its decisions
    were not measured: the ``actions`` table's ``seconds`` are null)."""
    state: DealState | None = None
    """The hand being played (or the last one played): its seat to act is the seat
    deciding, whose entrant's buffer a strategy's printing goes to."""
    voices: list[CappedOutput] = field(default_factory=list)
    """The output buffer of each seat's entrant in the current match."""
    stray: CappedOutput = field(default_factory=CappedOutput)
    """What was printed during the task outside any decision (a bot's ``begin_deal``, say)."""

    @contextlib.contextmanager
    def printing(self) -> Iterator[None]:
        """For the task's length, Python's stdout and stderr go to the entrant deciding:
        installed once, and a write asks the hand being played whose turn it is, so a
        decision does nothing for it (swapping the streams around every decision cost a
        fifth of random play, naming the entrant deciding still a tenth)."""
        router = _Router(self)
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = router
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved

    def match(self, lineup: int, deal: int, rotation: int, source: DealSource | None,
              game: Game, match_seed: int, voices: list[CappedOutput]) -> DealSource:
        """The deal source for one match (``match_seed``, each seat's entrant printing to
        ``voices``): deals each hand (from ``source`` if given, else from its seed, as
        ``play_match`` would), announces it, and arms its script if any."""
        self._match = (lineup, deal, rotation)
        self.scripted = []
        self.voices = voices
        if self.monitor is not None:
            self.monitor.match_started(lineup, deal, rotation)

        def hand(
            number: int, dealer: int, context: Mapping[str, Any]
        ) -> tuple[DealState, int] | None:
            script = self.scripts.get((*self._match, number)) if self.scripts else None
            if script is not None or self._script is not None:
                self._arm(script)
            self.scripted.append(script is not None)
            if self.monitor is not None:
                self.monitor.hand_started(number)
            given = None if source is None else source(number, dealer, context)
            if given is None:
                seed = hand_seed(match_seed, number)
                given = (game.new_deal(seed, dealer, **context), seed)
            self.state = given[0]
            return given

        return hand

    def _arm(self, script: CrashScript | None) -> None:
        """Replay ``script`` in the hand starting (every entrant's ``choose`` replays its
        actions), or with None end the replay of the hand before."""
        self._script = iter(script.actions) if script is not None else None
        self._failure = script.message if script is not None else ""
        for entrant in self.entrants:
            entrant.choose = self.scripted_choice if script is not None else entrant.own

    def scripted_choice(self, view: Any, rng: Any) -> int:
        """The next recorded action of a scripted hand; its failure once they run out."""
        assert self._script is not None
        for action in self._script:
            return action
        raise SeatFailure(self._failure)


class Entrant:
    """One entrant of a task, as the play loop calls it: ``choose``, and for a strategy
    that listens (a bot behind the protocol) ``ready_seats``, ``begin_deal`` and
    ``end_deal``.

    ``choose`` is the strategy's own, or under a supervisor (``Table.monitor``) the same
    with the supervisor told of each decision; in a scripted hand, the script's."""

    __slots__ = ("begin_deal", "choose", "end_deal", "label", "output", "own", "ready_seats")

    def __init__(self, label: str, index: int, strategy: Any, table: Table) -> None:
        self.label = label
        self.output = CappedOutput()
        self.begin_deal = getattr(strategy, "begin_deal", None)
        self.end_deal = getattr(strategy, "end_deal", None)
        self.ready_seats = getattr(strategy, "ready_seats", None)  # a bot starts before a deal
        choose: Callable[[Any, Any], int] = strategy.choose
        monitor = table.monitor
        table.entrants.append(self)
        if monitor is None and not table.contain:
            self.own = self.choose = choose
            return

        def decide(view: Any, rng: Any) -> int:
            if monitor is not None:
                monitor.deciding(index)
            try:
                action = choose(view, rng)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt, ... from the strategy
                if monitor is not None:
                    monitor.decision_failed()
                if isinstance(exc, Exception) or not table.contain or is_alarm(exc):
                    raise
                raise SeatFailure(f"({label}) raised {raised_text(exc)}") from None
            if monitor is not None:
                monitor.decided(action)
            return action

        self.own = self.choose = decide
