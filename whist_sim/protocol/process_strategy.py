"""The engine's side of the protocol: a strategy object whose decisions a bot process makes.

``ProcessStrategy(command)`` is used like any strategy: ``play_deal`` calls
``choose(view, rng)`` and gets an action int. Behind it, each seat it is asked to play
has its own bot process (an entrant seated twice in a four-seat line-up runs two):
one process plays one seat of one deal at a time, as one player at a real table, so
a bot keeps no bookkeeping of several seats, and two seats of one entrant share no
memory the engine has not sent them both.

Per seat, the process is started at the seat's first decision (or by ``start()``),
greets (``hello``), and then hears a ``deal`` at its first decision of each new deal,
a ``decide`` per decision, and a ``result`` when the engine calls ``end_deal``. A new
deal is recognised by the generator ``play_deal`` hands the seat: one per seat per
deal, never reused, so nothing in the play loop has to announce a deal; an engine
that does (``begin_deal``) adds the match state to the ``deal`` message.

No process is dealt the same cards twice. Duplicate play deals every deal to an
entrant once in each line-up and seating, and a process that had played it would know,
the second time, every card it saw played the first (the stock's order, the other
hands): a memory no sandbox takes away. So each seat keeps a pool of processes, each
remembering the hands it was dealt (``_Seat.seen``), and a deal goes to one that has
not seen its hand, else to a fresh process (``ready_seats`` keeps one started for each
seat the entrant holds, outside the decisions' time). A round robin's pool settles at
one process per line-up an entrant plays a seat in, up to ``PROCESSES_PER_SEAT`` a seat
and ``PROCESSES_IN_ALL`` across its seats; past that, the least recently used is ended
for a fresh one (a start-up per deal: correct, slower).

Every message is built from ``view`` alone (``state.view(seat)``): no hidden card can
be sent because none is at hand.

Any failure in an exchange (a reply that is not JSON, an illegal action, a timeout,
a crash, the play loop's own alarm) ends the seat's process: after it the bot and the
engine may disagree about where the deal stands, and a fresh process at the next deal
is cheaper than any attempt to resynchronise. The failure is raised as a ``BotError``
naming the entrant, the command, what happened and what was expected; the play loop
records it as the seat's forfeit. A command that cannot be started at all fails the
same way on every later deal, at once, without trying again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import time
import weakref
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whist_sim.budget import ClockLeft
from whist_sim.games.base import DealOutcome, MatchState
from whist_sim.protocol.bot_process import (
    ANOTHER_PROCESS,
    MAX_LINE,
    BotProcess,
    CannotStart,
    LineLog,
    LineTooLong,
    PipeClosed,
    PipeTimeout,
)
from whist_sim.protocol.errors import (
    BotCrashed,
    BotError,
    BotHandshakeError,
    BotHandshakeTimeout,
    BotIllegalAction,
    BotReplyError,
    BotStartError,
    BotTimeout,
    BotUnsupportedGame,
    IllegalActionReply,
    ProtocolError,
)
from whist_sim.protocol.match_info import match_summary
from whist_sim.protocol.messages import (
    ACTION_EXAMPLE,
    HELLO_EXAMPLE,
    ILLEGAL_ACTION,
    MAX_NAME,
    BotHello,
    deal_message,
    decide_message,
    encode_line,
    hello_message,
    one_line,
    quit_message,
    read_action,
    read_bot_hello,
    read_message,
    result_message,
    shown,
    unsupported,
)
from whist_sim.protocol.seeding import seat_randomness
from whist_sim.protocol.views import game_of

LOG_TEXT = 2000
"""Characters of a bot's ``log`` or ``error`` text kept."""

PROCESSES_PER_SEAT = 16
"""Bot processes one seat of an entrant may keep (see the module's docstring): a round
robin of up to 17 entrants of a two-seat game needs no more; a larger one restarts
processes rather than let one see a deal twice."""

PROCESSES_IN_ALL = 32
"""Bot processes one entrant may keep across all its seats: sixteen a seat at a table of
seven (Knock-out Whist) were 112 processes; a Python bot holds about 160 MB, and
``whist-sim check --isolate random`` ran 88 at once."""

DEALS_PER_PROCESS = 100_000
"""Deals a process plays before it is ended for a fresh one: bounds what the engine
remembers of the hands it was dealt."""

SEND_SECONDS = 5.0
"""How long a line without a reply (``deal``, ``result``) may take to write: a bot
that reads nothing for this long while the engine has something to say is hung."""


@dataclass
class _Seat:
    """One seat's bot process and where it stands."""

    process: BotProcess
    hello: BotHello
    rng: Any = None
    """The generator of the seat's current deal: a different one marks a new deal."""
    decisions: int = 0
    """Decisions of the current deal answered so far."""
    in_deal: bool = False
    """A ``deal`` was sent and its ``result`` not yet."""
    seen: set[Any] = field(default_factory=set)
    """The hands it was dealt (its cards at its first decision of each deal) and the
    identities of the deals announced (``("deal", identity)``): a deal whose hand or identity
    is here goes to another process."""
    deals: int = 0
    """Deals it was given (``DEALS_PER_PROCESS`` at most)."""
    used: int = 0
    """When it was last given a deal (``ProcessStrategy``'s count of deals given out):
    the least recently used of all seats' resting processes is ended first."""


HANDSHAKE_TIMEOUTS = 2
"""Handshakes in a row that may time out before a bot is not started again in this
process: each costs ``handshake_timeout`` (10 s), and a bot that never answers ``hello``
cost it in every deal it sat in, not only in the ones charged to it (a five-bot Solo
run took 7 minutes to forfeit 120 matches). Two, not one: a bot slow once under load
gets another try."""


SILENT_BOT_HINT = (
    "a bot that says nothing often buffers: it must read stdin a line at a time"
    " (mawk only with -W interactive) and flush stdout after each line it writes"
    " (fflush in C and awk, flush=True in Python)")
"""Why a bot that runs never greets, as a newcomer's awk bot showed: the timeout alone
did not say what to change (docs/protocol.md#lines)."""


class ProcessStrategy:
    """A strategy played by an external bot process over the protocol (docs/protocol.md).

    - ``command``: the program and its arguments (no shell); ``cwd``, ``env``: where and
      with what environment it runs (None: the engine's).
    - ``label``: the entrant's name in errors (default: the bot's own name once it has
      said it, else the program's file name).
    - ``params``: sent in ``hello`` as the bot's parameters.
    - ``game``, ``variant`` (a dict of variant keys): what the engine will ask, checked
      against the bot's ``hello`` at the handshake (each deal's view is checked too).
    - ``time_limit``: seconds per decision, from sending ``decide`` to the whole
      ``action`` line; always finite, so the engine never waits on a bot without end.
    - ``handshake_timeout``: seconds from starting the process to its ``hello`` reply.
    - ``stderr_path``: a file the bots' stderr is appended to, lines tagged by seat,
      capped at ``stderr_limit`` characters; ``stderr_log``: a ``LineLog`` to write them
      to instead (a tournament's, in memory); ``stderr_lines``: lines kept for errors.
    - ``exact_rng``: send the seat generator's exact state, so that a Python client
      reproduces in-process play (``seeding``; docs/protocol.md, "Randomness").
    - ``transcript_path``: a file every line sent (``>``) and received (``<``) is
      appended to, tagged by seat: for debugging a bot (docs/protocol.md's transcripts
      were recorded so).
    - ``contain``: run each of its processes contained (``bot_containment``: namespaces
      of its own, the file systems read-only), with these paths hidden from it (the
      run, the config); None: as the engine's user sees the machine.
    - ``pause``: stop each of its processes (SIGSTOP) from its reply until the engine
      next writes to it, so that it computes only on its own time
      (``BotProcess.hold``, ``tournament.pause_bots``).
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        label: str | None = None,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        game: str | None = None,
        variant: Mapping[str, Any] | None = None,
        time_limit: float = 10.0,
        handshake_timeout: float = 10.0,
        stderr_path: str | Path | None = None,
        stderr_log: LineLog | None = None,
        stderr_lines: int = 40,
        stderr_limit: int = 1 << 20,
        exact_rng: bool = True,
        quit_timeout: float = 1.0,
        kept_logs: int = 200,
        transcript_path: str | Path | None = None,
        run_limit: float | None = None,
        contain: Sequence[str] | None = None,
        pause: bool = True,
    ) -> None:
        if isinstance(command, str) or not command or not all(
            isinstance(part, str) for part in command
        ):
            raise ValueError(
                f"command = {command!r} is not allowed; allowed values: a non-empty list of"
                ' strings, the program then its arguments, e.g. ["./bot", "--fast"]'
            )
        for name, seconds in (("time_limit", time_limit),
                              ("handshake_timeout", handshake_timeout)):
            if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not (
                0 < seconds < float("inf")
            ):
                raise ValueError(f"{name} = {seconds!r} is not allowed; allowed values:"
                                 " a number of seconds > 0")
        self.command = tuple(command)
        self.label = label
        self.cwd = cwd
        self.env = env
        self.params = dict(params or {})
        self.game = game
        self.variant = None if variant is None else dict(variant)
        self.time_limit = time_limit
        self.run_limit = run_limit
        """The run's limit per decision, when ``time_limit`` is a share of it (a tournament
        keeps the rest for the engine): what a timeout names as the limit set."""
        self.contain = None if contain is None else tuple(contain)
        """Run each process contained (``bot_containment``), these paths hidden from it;
        None: not contained."""
        self.pause = pause
        """Stop each process between its reply and the engine's next message."""
        self.handshake_timeout = handshake_timeout
        self.stderr_lines = stderr_lines
        self.exact_rng = exact_rng
        self.quit_timeout = quit_timeout
        self.logs: deque[str] = deque(maxlen=kept_logs)
        """The last ``log`` lines the bots sent, tagged by seat."""
        self.hello: BotHello | None = None
        """The last ``hello`` reply (None before the first process started)."""
        self.exchanges = 0
        """Decisions the bots answered."""
        self.exchange_seconds = 0.0
        """Seconds they took, from writing ``decide`` to reading the whole ``action``."""
        self.exchange_log: list[float] | None = None
        """Set to a list to have each exchange's seconds appended (benchmarks)."""
        self.start_seconds = 0.0
        """Seconds spent starting processes and greeting them, failed starts included:
        what a worker pays once a process, not once a deal (a run's timing sample leaves
        it out of the time a deal takes)."""
        self._log = stderr_log if stderr_log is not None else LineLog(stderr_path, stderr_limit)
        self._transcript = None if transcript_path is None else LineLog(transcript_path, 1 << 30)
        self._seats: dict[int, _Seat] = {}
        """Seat number -> its process, the one playing or last to play it."""
        self._spares: list[_Seat] = []
        """Fresh processes (``start``, ``ready_seats``), for the first seats that need one."""
        self._resting: dict[int, list[_Seat]] = {}
        """Seat number -> its other processes, least recently used first."""
        self._deals_given = 0
        """Deals given to a process so far (``_Seat.used`` reads it)."""
        self._cannot_start: BotError | None = None
        """Why no process of this bot is started any more: a command that cannot run, or
        ``HANDSHAKE_TIMEOUTS`` handshakes in a row that timed out."""
        self._handshake_timeouts = 0
        """Handshakes in a row that timed out (a successful one resets it)."""
        self._failed_start: dict[int, BotError] = {}
        """Seats whose process ``ready_seats`` could not start: the error, for the seat's
        next decision to raise."""
        self._announced: tuple[int | None, Mapping[str, Any] | None] = (None, None)
        self._deal: int | None = None
        """The announced deal's identity (``begin_deal(deal=...)``), engine side only."""
        self._finalizer = weakref.finalize(self, _end_all, self._seats, self._resting,
                                           self._spares, [self._log, self._transcript])

    # -- what the registry and the config check read -----------------------------------
    @property
    def entrant(self) -> str:
        """The name errors give: the label, else the bot's own name, else the program's."""
        if self.label:
            return self.label
        if self.hello is not None:
            return self.hello.name
        return os.path.basename(self.command[0])

    @property
    def games(self) -> frozenset[str]:
        """The games the bot says it plays (empty before its first ``hello``)."""
        return frozenset() if self.hello is None else self.hello.games

    @property
    def version(self) -> str:
        """The bot's version by its ``hello`` ("" before it)."""
        return "" if self.hello is None else self.hello.version

    # -- the engine's calls ---------------------------------------------------------------
    def start(self) -> BotHello:
        """Start a process and complete the handshake now (the next seat to play takes it):
        how a config check learns, before any deal, that the bot runs and plays the game."""
        if not self._spares:
            self._spares.append(self._open(tag="new"))
        return self._spares[0].hello

    def ready_seats(self, seats: Sequence[int]) -> None:
        """Start a process for each of ``seats`` that has none running, before the deal
        (``play_match`` calls this outside every decision's time limit): a process started
        in a seat's first decision spent its start-up in that decision's budget, so a bot
        slower to start than the limit forfeited every deal, restarted each time. A start
        that fails is kept and raised at that seat's first decision, its forfeit. A fresh
        process is kept ready too for each of the seats, for a deal none of a seat's
        processes may play (its hand seen before: see the module's docstring): with one
        for all, an entrant holding two seats (Knock-out's X A X, a Minnesota pair of
        itself) started the second seat's in its first decision, and a bot slower to
        start than the limit forfeited."""
        for number in seats:
            self._failed_start.pop(number, None)  # a deal that ended first: try again
            found = self._seats.get(number)
            if found is not None and found.process.alive:
                continue
            try:
                self._seat(number)
            except BotError as exc:
                self._failed_start[number] = exc
        if self._cannot_start is None and not self._failed_start:
            for dead in [spare for spare in self._spares if not spare.process.alive]:
                dead.process.kill()  # reaped, and its group ended
                self._spares.remove(dead)
            # a start that fails here: the seat whose deal needs a fresh one tries again
            with contextlib.suppress(BotError):
                while len(self._spares) < len(seats):
                    self._spares.append(self._open(tag="new"))

    def begin_deal(self, *, hand: int | None = None, match: Any = None,
                   deal: int | None = None) -> None:
        """Announce the next deal: its number in the match and the match state (a
        ``MatchState``, as ``play_match`` passes it, or its ``match_info.match_summary``),
        sent in each seat's ``deal`` message, and ``deal``, the identity of its cards
        (``play.deal_identity``), never sent: no process is given a deal whose identity
        it has played, whatever the hand it holds in it. Optional; forgotten at
        ``end_deal``.

        The hand alone did not say it: a Knock-out deal index is dealt from one deck at
        every table size, so a process that played the three-seat table was handed the
        four-seat table of the same deck with another hand, and named 15-17 of its
        opponents' 21 cards (an adversarial bot author's probe)."""
        if isinstance(match, MatchState):
            match = match_summary(match)
        self._announced = (hand, match)
        self._deal = deal

    def choose(self, view: Any, rng: Any) -> int:
        """The bot's action for ``view``: a ``deal`` first if this is the seat's first
        decision of a deal, then ``decide`` and its ``action`` reply."""
        seat_number = view.seat
        failed = self._failed_start.pop(seat_number, None)
        if failed is not None:  # ready_seats could not start it before this deal
            raise failed
        seat = self._seats.get(seat_number)
        new_deal = seat is None or seat.rng is not rng
        if seat is not None and not new_deal and not seat.process.alive:
            self._fail(seat_number, BotCrashed, f"{seat.process.exit_status()} during a deal",
                       "a process that answers every decide of the deal", tail=True)
        if new_deal:
            seat = self._seat_for_deal(seat_number, view.hand)
        waiting = "deal"
        try:
            if new_deal:
                self._send_deal(seat, view, rng)
            waiting = "decide"
            return self._decide(seat, view)
        except (PipeClosed, PipeTimeout, LineTooLong, ProtocolError) as exc:
            error = self._error_from(seat, exc, waiting)  # before the kill: how it ended
            self._drop(seat_number)
            raise error from None
        except BaseException:  # the play loop's alarm too: the bot is out of step now
            self._drop(seat_number)
            raise

    def end_deal(self, outcome: DealOutcome) -> None:
        """Tell every seat that played the deal how it ended (``result``). A bot that has
        died meanwhile is dropped quietly: the deal is over, and its next deal restarts it."""
        for number, seat in list(self._seats.items()):
            if not seat.in_deal:
                continue
            seat.in_deal = False
            try:
                seat.process.send(encode_line(result_message(number, outcome)),
                                  time.monotonic() + SEND_SECONDS)
            except (PipeClosed, PipeTimeout):
                self._log.write(f"seat {number}", "[engine] the bot did not take its result")
                self._drop(number)
            else:
                seat.process.hold()
        self._announced = (None, None)
        self._deal = None

    def close(self) -> None:
        """Say ``quit`` to every bot, give them ``quit_timeout`` seconds, then end them."""
        seats = [*self._seats.values(), *(s for pool in self._resting.values() for s in pool),
                 *self._spares]
        self._seats.clear()
        self._resting.clear()
        self._spares.clear()
        line = encode_line(quit_message())
        for seat in seats:
            seat.process.ask_to_quit(line)
        deadline = time.monotonic() + self.quit_timeout  # one wait for all, not one each
        for seat in seats:
            seat.process.end_by(deadline)
        self._log.close()
        if self._transcript is not None:
            self._transcript.close()

    def __enter__(self) -> ProcessStrategy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pids(self) -> list[int]:
        """Process ids of the running bots (each leads a process group of its own): what a
        supervisor ends if the engine's process dies without closing them."""
        seats = [*self._seats.values(), *(s for pool in self._resting.values() for s in pool),
                 *self._spares]
        return [seat.process.popen.pid for seat in seats if seat.process.alive]

    def source(self) -> dict[str, Any]:
        """Where the bot came from, for run.json: the command, its folder, the bot's own
        name, version and protocol (after a handshake), and the SHA-256 of every argument
        that names a file (the program, a script), so a result traces to the code."""
        files = {}
        for part in self.command:
            path = Path(self.cwd or ".") / part  # an absolute part stays itself
            if not path.is_file() and part == self.command[0]:  # a program found on PATH
                path = Path(shutil.which(part) or path)
            if path.is_file():
                files[part] = hashlib.sha256(path.read_bytes()).hexdigest()
        hello = self.hello
        return {
            "command": list(self.command),
            "cwd": None if self.cwd is None else str(self.cwd),
            "name": None if hello is None else hello.name,
            "version": None if hello is None else hello.version,
            "protocol": None if hello is None else f"{hello.protocol[0]}.{hello.protocol[1]}",
            "sha256": files,
        }

    def stderr_tail(self, seat: int) -> list[str]:
        """The last stderr lines of the process playing ``seat`` (empty if none runs)."""
        found = self._seats.get(seat)
        return [] if found is None else found.process.stderr_tail()

    # -- processes ----------------------------------------------------------------------------
    def _seat(self, number: int) -> _Seat:
        """A process for seat ``number``: a spare one ``start`` or ``ready_seats`` made, or
        a new one."""
        self._drop(number)  # a process that died between deals: reaped before its successor
        seat = None
        while self._spares and seat is None:
            seat = self._spares.pop(0)
            if not seat.process.alive:
                seat.process.kill()
                seat = None
        if seat is None:
            seat = self._open(tag=f"seat {number}")
        seat.process.tag = f"seat {number}"
        self._seats[number] = seat
        return seat

    def _seat_for_deal(self, number: int, hand: int) -> _Seat:
        """The process to play seat ``number`` of a deal in which it holds ``hand``: the
        seat's last one, else one of its resting ones, that has not been dealt ``hand``
        and has played fewer than ``DEALS_PER_PROCESS`` deals; else a fresh one (the
        spare ``ready_seats`` started, or one started now). The last one rests, and the
        pool keeps at most ``PROCESSES_PER_SEAT``, the least recently used ended first."""
        pool = self._resting.setdefault(number, [])
        current = self._seats.pop(number, None)
        if current is not None:
            pool.append(current)
        chosen = None
        dealt = (hand,) if self._deal is None else (hand, ("deal", self._deal))
        for candidate in reversed(pool):  # the most recently used first
            if (candidate.process.alive and candidate.seen.isdisjoint(dealt)
                    and candidate.deals < DEALS_PER_PROCESS):
                chosen = candidate
                break
        if chosen is not None:
            pool.remove(chosen)
            self._seats[number] = chosen
        for seat in [s for s in pool if not s.process.alive
                     or s.deals >= DEALS_PER_PROCESS]:
            seat.process.kill()
            pool.remove(seat)
        while len(pool) >= PROCESSES_PER_SEAT:  # with the one playing: at most the cap
            pool.pop(0).process.kill()
        self._keep_in_all(PROCESSES_IN_ALL - len(self._seats) - (chosen is None))
        if chosen is None:
            chosen = self._seat(number)
        chosen.seen.update(dealt)
        chosen.deals += 1
        self._deals_given += 1
        chosen.used = self._deals_given
        return chosen

    def _keep_in_all(self, resting: int) -> None:
        """End the least recently used resting processes, of any seat, until at most
        ``resting`` are left."""
        pools = [pool for pool in self._resting.values() if pool]
        while sum(map(len, pools)) > max(resting, 0):
            oldest = min(pools, key=lambda pool: pool[0].used)  # each pool's first: its oldest
            oldest.pop(0).process.kill()
            pools = [pool for pool in pools if pool]

    def _open(self, tag: str) -> _Seat:
        """Start the command and complete the handshake, or raise the BotError that says why
        (the time it takes is added to ``start_seconds``)."""
        started = time.perf_counter()
        try:
            return self._start_and_greet(tag)
        finally:
            self.start_seconds += time.perf_counter() - started

    def _start_and_greet(self, tag: str) -> _Seat:
        if self._cannot_start is not None:
            raise self._cannot_start
        try:
            process = BotProcess(self.command, cwd=self.cwd, env=self.env, log=self._log,
                                 tag=tag, tail_lines=self.stderr_lines,
                                 transcript=self._transcript, contain=self.contain,
                                 pause=self.pause)
        except CannotStart as exc:
            self._cannot_start = BotStartError(self.entrant, self.command, str(exc), exc.hint)
            raise self._cannot_start from None
        try:
            hello = self._handshake(process)
        except BotHandshakeTimeout as exc:
            process.kill()
            self._handshake_timeouts += 1
            if self._handshake_timeouts >= HANDSHAKE_TIMEOUTS:
                self._cannot_start = BotHandshakeTimeout(
                    exc.entrant, exc.command,
                    f"{exc.message}, {HANDSHAKE_TIMEOUTS} times in a row: not started again"
                    " in this worker", exc.expected, exc.stderr_tail)
            raise
        except BaseException:
            process.kill()
            raise
        self._handshake_timeouts = 0
        process.hold()  # a spare, or a seat's process before its first deal
        return _Seat(process, hello)

    def _handshake(self, process: BotProcess) -> BotHello:
        deadline = time.monotonic() + self.handshake_timeout
        expected = f"a hello reply within {self.handshake_timeout:g} s, such as {HELLO_EXAMPLE}"
        try:
            process.send(encode_line(hello_message(self.params, self.game)), deadline)
            while True:
                line = process.read_line(deadline)
                if not line.strip():
                    continue
                message = read_message(line, "bot", "hello")
                kind = message["type"]
                if kind == "hello":
                    hello = read_bot_hello(message)
                    break
                self._other_message(process, message, "hello")
        except PipeTimeout:
            raise BotHandshakeTimeout(
                self.entrant, self.command,
                f"did not complete the handshake within {self.handshake_timeout:g} s"
                f"{self._ignored(process)}", f"{expected}; {SILENT_BOT_HINT}",
                process.stderr_tail(0),
            ) from None
        except (PipeClosed, LineTooLong) as exc:
            raise self._pipe_error(BotHandshakeError, process, exc, "hello", expected) from None
        except ProtocolError as exc:
            raise BotHandshakeError(self.entrant, self.command, exc.problem, exc.expected,
                                    process.stderr_tail(0)) from None
        self.hello = hello
        if self.game is not None:
            why = unsupported(hello, self.game, self.variant)
            if why is not None:
                raise BotUnsupportedGame(
                    self.entrant, self.command, f"cannot play what it is entered for: {why}",
                    f"{self.game} among the games of its hello (and the variant's values"
                    " among its variants)",
                )
        return hello

    def _drop(self, number: int) -> None:
        seat = self._seats.pop(number, None)
        if seat is not None:
            seat.process.kill()

    # -- one deal, one decision -----------------------------------------------------------------
    def _send_deal(self, seat: _Seat, view: Any, rng: Any) -> None:
        game = game_of(view)
        why = unsupported(seat.hello, game, view.variant.as_dict())
        if why is not None:
            raise BotUnsupportedGame(
                self.entrant, self.command, f"was asked to play a deal it cannot: {why}",
                f"{game} among the games of its hello" if game not in seat.hello.games
                else f"the variant's values among the {game} variants of its hello",
            )
        hand, match = self._announced
        if match is None and game == "minnesota_whist":
            match = {"hand": hand, "score": list(view.score)}  # the score is in every view
        seed, python_rng = seat_randomness(rng, self.exact_rng)
        message = deal_message(view, seed=seed, hand=hand, match=match, python_rng=python_rng)
        seat.process.send(encode_line(message), time.monotonic() + SEND_SECONDS)
        seat.rng = rng
        seat.decisions = 0
        seat.in_deal = True

    def _decide(self, seat: _Seat, view: Any) -> int:
        limit = self.time_limit
        share = limit / self.run_limit if self.run_limit else 1.0
        told = min(limit, max(ClockLeft.seconds, 0.0) * share)  # a chess clock's time left
        line = encode_line(decide_message(view, seat.decisions, int(told * 1000)))
        started = time.monotonic()
        deadline = started + limit
        process = seat.process
        self._read_unasked(process, seat.decisions, first=seat.deals == 1)
        process.send(line, deadline)
        while True:
            reply = process.read_line(deadline)
            if not reply.strip():  # a stray newline is no answer, and no error either
                continue
            message = read_message(reply, "bot", "decide")
            if message["type"] == "action":
                break
            self._other_message(process, message,
                                "decide" if seat.decisions else "the deal (its first decide)")
        action = read_action(message, view, seat.decisions)
        spent = time.monotonic() - started
        process.hold()
        self.exchange_seconds += spent
        if self.exchange_log is not None:
            self.exchange_log.append(spent)
        self.exchanges += 1
        seat.decisions += 1
        return action

    def _read_unasked(self, process: BotProcess, decision: int, first: bool = False) -> None:
        """What the bot sent since its last reply, read before the next ``decide``: a
        second ``action`` is an error of its own (it had been read as the reply to the
        next decide and named "a card not held"). One written after this ``decide`` went
        out is still taken for its reply; a ``decision`` field tells the two apart.
        ``first``: the process is in its first deal, so before decision 0 it has been
        sent no decide at all (its action was "a second reply to the last decide")."""
        for line in process.lines_waiting():
            if not line.strip():
                continue
            message = read_message(line, "bot")
            before_any = first and not decision
            asked = (f"decision {decision - 1}" if decision
                     else "the deal, before any decide" if before_any else "the last decide")
            if message["type"] == "action":
                said = ("an action before any decide was sent to it" if before_any
                        else f"a second reply to {asked}")
                raise ProtocolError(f"sent {shown(line)} with no decide waiting: {said}",
                                    "one action per decide")
            self._other_message(process, message, asked)

    def _other_message(self, process: BotProcess, message: Mapping[str, Any], waiting: str
                       ) -> None:
        """A line that is not the reply awaited: a ``log`` is kept, an ``error`` raised,
        anything else ignored (a newer MINOR version may send it)."""
        kind = message["type"]
        if kind == "log":
            text = one_line(str(message.get("text", ""))[:LOG_TEXT])
            self.logs.append(f"[{process.tag}] {text}")
            self._log.write(process.tag, f"[log] {text}")
        elif kind == "error":
            text = one_line(str(message.get("message", ""))[:LOG_TEXT])
            # no example reply here: beside the bot's own account of its failure, a fixed
            # one ("QS") read as the card it should have played; nor "expected an action"
            # after a decide: the bot said why it gave none
            kind_of = IllegalActionReply if text.startswith(ILLEGAL_ACTION) else ProtocolError
            raise kind_of(f"reported an error in reply to {waiting}: {text}",
                          "a hello" if waiting == "hello" else "")
        else:
            process.ignored = one_line(kind[:MAX_NAME])

    @staticmethod
    def _ignored(process: BotProcess) -> str:
        """What a timeout adds when the bot sent messages of a type the engine passed over:
        a misspelt type waited out the whole limit and read as slowness (an adversarial
        probe's "Action", "helo")."""
        if process.ignored is None:
            return ""
        return (f"; meanwhile it sent a message of type {process.ignored!r}, which the engine"
                " does not know and passed over (the types a bot sends: hello, action, log,"
                " error)")

    # -- errors ----------------------------------------------------------------------------------
    def _error_from(self, seat: _Seat, exc: BaseException, waiting: str) -> BotError:
        """The BotError that words a failed exchange with ``seat``'s process."""
        process = seat.process
        expected = f"an action reply, such as {ACTION_EXAMPLE}"
        if isinstance(exc, PipeTimeout) and waiting == "deal":
            return BotTimeout(
                self.entrant, self.command,
                f"did not read the deal message within {SEND_SECONDS:g} s; the engine ended it",
                "a bot that reads its stdin", process.stderr_tail(0),
            )
        if isinstance(exc, PipeTimeout):
            # a bot that exited while a process it started holds its stdout open: the pipe
            # never closes, so the wait ends at the limit, but the bot is gone
            gone = "" if process.alive else (
                f" (it {process.exit_status(0)}; a process it started still held its"
                " output open)")
            if process.stopped:  # no slowness: stopped by itself or another process
                gone = (" (it was stopped, by SIGSTOP or a debugger, when its time ran"
                        f" out: by itself or by {ANOTHER_PROCESS})")
            share = "" if self.run_limit is None else (
                f" ({self.time_limit / self.run_limit:.0%} of the time limit of"
                f" {self.run_limit:g} s, the rest kept for the engine)")
            return BotTimeout(
                self.entrant, self.command,
                f"did not reply to decide {seat.decisions} within {self.time_limit:g} s"
                f"{share}{gone}{self._ignored(process)}; the engine ended it",
                f"an action within the time limit of {self.run_limit or self.time_limit:g} s"
                " per decision",
                process.stderr_tail(0),
            )
        if isinstance(exc, IllegalActionReply):
            return BotIllegalAction(self.entrant, self.command, exc.problem, exc.expected,
                                    process.stderr_tail(0))
        if isinstance(exc, ProtocolError):  # what it said on stderr often says why
            return BotReplyError(self.entrant, self.command, exc.problem, exc.expected,
                                 process.stderr_tail(0))
        return self._pipe_error(BotCrashed, process, exc, waiting, expected)

    def _pipe_error(self, kind: type[BotError], process: BotProcess, exc: BaseException,
                    waiting: str, expected: str) -> BotError:
        if isinstance(exc, LineTooLong):
            return kind(self.entrant, self.command,
                        f"wrote a line of more than {MAX_LINE:,} bytes", expected)
        status = process.exit_status()
        what = "closed its pipes" if status == "is still running" else status
        when = ("while the engine was sending it the deal" if waiting == "deal"
                else f"while the engine waited for its reply to {waiting}")
        return kind(self.entrant, self.command, f"{what} {when}", expected,
                    process.stderr_tail())

    def _fail(self, number: int, kind: type[BotError], message: str, expected: str,
              tail: bool = False) -> None:
        seat = self._seats.get(number)
        lines = seat.process.stderr_tail() if tail and seat is not None else []
        self._drop(number)
        raise kind(self.entrant, self.command, message, expected, lines)


def _end_all(seats: dict[int, _Seat], resting: dict[int, list[_Seat]], spares: list[_Seat],
             logs: list[LineLog | None]) -> None:
    """At garbage collection or exit: no bot outlives the strategy that started it."""
    for seat in [*seats.values(), *(s for pool in resting.values() for s in pool), *spares]:
        seat.process.kill()
    seats.clear()
    resting.clear()
    spares.clear()
    for log in logs:
        if log is not None:
            log.close()
