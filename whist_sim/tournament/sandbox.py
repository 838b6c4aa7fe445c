"""A task played under supervision: a strategy that crashes, hangs or eats memory costs a deal.

Each Ray worker plays its tasks in a child process (``sandbox_child``) and
watches it from outside, where the strategies cannot reach:

- the child writes a heartbeat to a small shared file: which hand it is in,
  which entrant is deciding since when, and the actions the hand has seen;
- the supervisor polls it every ``POLL_SECONDS`` and ends the child (SIGKILL)
  when a decision overruns its time limit by more than the grace, whatever the
  strategy did to signals or exceptions, or when the child's memory passes the
  limit, or its threads pass ``THREAD_LIMIT`` (a probe's strategy started three
  threads a decision: 761 within a minute, the machine's load at 236 on 2 cores);
- when the child dies, by the supervisor's hand or its own (``os._exit``, a
  signal, the kernel's OOM killer), the heartbeat says in which hand and in whose
  decision: the supervisor records a ``CrashScript`` for that hand (its actions
  so far, and the cause: "process died: SIGKILL", "memory limit 2 GiB exceeded")
  and plays the task again in a new child, which replays the hands before it as
  before, replays that hand from its actions and forfeits it by the seat that
  died, and plays on. Every other deal of the task, and every other task,
  completes; the run ends ``complete``.

What the child prints at the level of file descriptors (C code, ``os.write``)
is read by a thread and capped (``PROCESS_OUTPUT_LIMIT``); what a strategy prints
through Python goes to its entrant's capped buffer (``entrants``). So neither the
run folder nor Ray's logs grow with a strategy's output.

The child is started once per worker and reused; only a death costs a new one.
It ignores Ctrl-C (the driver handles it) and dies with its supervisor
(``PR_SET_PDEATHSIG`` on Linux). It leads a process group of its own, which the
supervisor ends with it: a process a strategy forked is in it (a probe's strategy
forked a sleeper a decision, and a hundred outlived the run).
"""

from __future__ import annotations

import atexit
import contextlib
import mmap
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection

from whist_sim.play import StrategyFailure
from whist_sim.protocol.bot_process import KEEPER_SWEEP_SECONDS
from whist_sim.protocol.bot_tree import end_all, started_by, wait_ended
from whist_sim.tournament.entrants import CrashScript
from whist_sim.tournament.signed_frames import new_key, signed, verified
from whist_sim.tournament.worker import TaskResult, TaskSpec, node_address, task_code

POLL_SECONDS = 0.02
"""How often the supervisor reads the heartbeat and the child's memory."""

GRACE_SECONDS = 1.0
"""Time beyond a decision's limit before the supervisor ends it. The child's own alarm
stops an ordinary overrun at the limit exactly; the supervisor is the backstop for a
strategy that switched the alarm off or swallows it."""

DEFAULT_MEMORY_LIMIT = 2 << 30
"""Bytes of resident memory a worker's child may use (``tournament.memory_limit``)."""

THREAD_LIMIT = 256
"""Threads the child may run (its own few, and NumPy's or numba's pools, are far below)."""

BOT_POLL_SECONDS = 0.25
"""How often the supervisor weighs the bots the child started (isolated strategies and
external bots): each with what it started, a walk through /proc, less often than the
child itself."""

LIMIT_SWEEP_SECONDS = 0.2
"""How long a bot's keeper ended for its memory or threads may take to end what it
holds before its group is killed: the supervisor's watch waits so long."""

CLOSE_SECONDS = 2.0
"""How long a closing supervisor waits for its child to say ``quit`` to its bots and exit."""

PROCESS_OUTPUT_LIMIT = 1 << 20
"""Bytes of a child's descriptor-level output kept per task."""

MAX_ACTIONS = 4096
"""Actions one hand may record in the heartbeat (a Knock-out game has under 400)."""

DECIDING, ENTRANT, STARTED, LINEUP, DEAL, ROTATION, HAND, ACTIONS = range(8)
"""Slots of the heartbeat (64-bit integers); the actions follow from slot HEADER."""
HEADER = 8
SLOTS = HEADER + MAX_ACTIONS

CHILD_MODULE = "whist_sim.tournament.sandbox_child"


class Heartbeat:
    """The shared file the child writes and the supervisor reads (``entrants.Monitor``).

    A file with no name: the supervisor makes it and removes its name at once, and the
    child inherits the open descriptor. Nothing is left in the temporary folder however
    the worker ends (Ray ends its workers without running their exit handlers, and each
    left a folder behind: an operator found 900 in /tmp)."""

    def __init__(self, fd: int) -> None:
        self._file = os.fdopen(fd, "r+b")  # open as long as the mapping
        self._map = mmap.mmap(self._file.fileno(), SLOTS * 8)
        self.slots = memoryview(self._map).cast("q")

    @classmethod
    def create(cls) -> Heartbeat:
        fd, path = tempfile.mkstemp(prefix="whist-sim-heartbeat-")
        os.unlink(path)
        os.ftruncate(fd, SLOTS * 8)
        return cls(fd)

    def fileno(self) -> int:
        """The descriptor a child inherits (``pass_fds``) to open the same file."""
        return self._file.fileno()

    # -- the child's side (entrants.Monitor) --------------------------------------
    def match_started(self, lineup: int, deal: int, rotation: int) -> None:
        slots = self.slots
        slots[LINEUP], slots[DEAL], slots[ROTATION], slots[HAND] = lineup, deal, rotation, -1

    def hand_started(self, hand: int) -> None:
        self._clear_actions()
        self.slots[HAND] = hand
        self.slots[ACTIONS] = 0

    def _clear_actions(self) -> None:
        """Zero the last hand's actions. The file stays open in the supervisor, whose
        descriptors a bot of the same user can open through /proc: left in place, the
        previous hand's later actions (in duplicate play, the same deal in the other
        seating: every card, the stock's order) could be read behind the current ones."""
        used = min(self.slots[ACTIONS], MAX_ACTIONS)
        if used > 0:
            self._map[HEADER * 8:(HEADER + used) * 8] = bytes(used * 8)

    def deciding(self, entrant: int) -> None:
        slots = self.slots
        slots[ENTRANT] = entrant
        slots[STARTED] = time.monotonic_ns()
        slots[DECIDING] = 1

    def decided(self, action: int) -> None:
        slots = self.slots
        slots[DECIDING] = 0
        count = slots[ACTIONS]
        if count < MAX_ACTIONS:
            slots[HEADER + count] = action
            slots[ACTIONS] = count + 1

    def decision_failed(self) -> None:
        """The decision ended in an exception (its forfeit): no longer timed. Left set, the
        flag went on timing what came after it as if the decision still ran, and a bot's
        next start-up (``ready_seats``, whose handshake has a timeout of its own) was
        ended as a decision overrunning ``time_limit``, outside any hand: the task failed
        twice and took the run with it."""
        self.slots[DECIDING] = 0

    # -- the supervisor's side ----------------------------------------------------
    def reset(self) -> None:
        self._clear_actions()
        self.slots[DECIDING] = 0
        self.slots[HAND] = -1
        self.slots[ACTIONS] = 0

    def deciding_since(self) -> float | None:
        """Seconds the current decision has run, or None between decisions."""
        if not self.slots[DECIDING]:
            return None
        return (time.monotonic_ns() - self.slots[STARTED]) / 1e9

    def where(self) -> tuple[tuple[int, int, int, int], int, tuple[int, ...]] | None:
        """(hand key, deciding entrant, the hand's actions), or None outside a decision."""
        slots = self.slots
        if not slots[DECIDING] or slots[HAND] < 0:
            return None
        key = (slots[LINEUP], slots[DEAL], slots[ROTATION], slots[HAND])
        actions = tuple(slots[HEADER:HEADER + min(slots[ACTIONS], MAX_ACTIONS)])
        return key, slots[ENTRANT], actions

    def close(self) -> None:
        self.slots.release()
        self._map.close()
        self._file.close()


@dataclass
class _Death:
    """How the child died, in the words of a forfeit."""

    cause: str


class Supervisor:
    """One child process playing tasks, watched from outside (one per Ray worker)."""

    def __init__(self) -> None:
        self.heartbeat = Heartbeat.create()
        self._child: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._output = bytearray()
        self._output_dropped = 0
        self._lock = threading.Lock()

    # -- the child ------------------------------------------------------------------
    def _start(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        output_r, output_w = os.pipe()
        self._child = subprocess.Popen(
            [sys.executable, "-m", CHILD_MODULE, str(self.heartbeat.fileno()),
             str(to_child_r), str(from_child_w)],
            pass_fds=(self.heartbeat.fileno(), to_child_r, from_child_w),
            stdin=subprocess.DEVNULL, stdout=output_w, stderr=output_w,
            start_new_session=True,  # its group holds what a strategy forks: ended with it
        )
        for fd in (to_child_r, from_child_w, output_w):
            os.close(fd)
        self._to_child = Connection(to_child_w, readable=False)
        self._conn = Connection(from_child_r, writable=False)
        self._key = new_key()
        self._to_child.send_bytes(self._key)  # the first frame, before any task or bot
        threading.Thread(target=self._read_output, args=(output_r,), daemon=True).start()

    def _read_output(self, fd: int) -> None:
        """Keep the first PROCESS_OUTPUT_LIMIT bytes of the child's output, drop the rest."""
        with os.fdopen(fd, "rb", buffering=0) as stream:
            while chunk := stream.read(1 << 16):
                with self._lock:
                    room = PROCESS_OUTPUT_LIMIT - len(self._output)
                    self._output += chunk[:max(room, 0)]
                    self._output_dropped += max(0, len(chunk) - max(room, 0))

    def _stop(self) -> None:
        """End the child now, and the process groups of the bots it started: a bot dies
        with the child (``PR_SET_PDEATHSIG``), but what it started in the background
        lives on in its group (the run's timing sample left two such processes).

        On Linux each group is led by a bot's keeper (``bot_keeper``), which the child's
        death tells to stop: what was found below each is killed here, and the keepers
        are given ``KEEPER_SWEEP_SECONDS`` to end what forked meanwhile (a daemon's
        double fork is theirs) before their groups are killed."""
        child = self._child
        if child is not None:
            groups = _session_children(child.pid) if child.poll() is None else []
            found = [entry for group in groups for entry in started_by(group)]
            if child.poll() is None:
                child.kill()
            child.wait()
            end_all(entry for entry in found if entry[0] not in groups)
            wait_ended(groups, KEEPER_SWEEP_SECONDS)
            for group in [child.pid, *groups]:  # its own group: what a strategy forked
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(group, signal.SIGKILL)
        for conn in (self._conn, getattr(self, "_to_child", None)):
            if conn is not None:
                conn.close()
        self._child = None
        self._conn = None

    def close(self) -> None:
        """End the child: asked first (its input closed, it says ``quit`` to its bots and
        exits), ended after ``CLOSE_SECONDS`` if it has not, with its bots' groups."""
        child = self._child
        if child is not None and child.poll() is None:
            self._to_child.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(CLOSE_SECONDS)
        self._stop()
        self.heartbeat.close()

    # -- a task -----------------------------------------------------------------------
    def play(self, spec: TaskSpec) -> TaskResult:
        """Play ``spec`` in the child; every strategy death becomes that hand's forfeit."""
        memory_limit = spec.memory_limit or DEFAULT_MEMORY_LIMIT
        scripts = dict(spec.scripts)
        died_outside: str | None = None
        while True:
            try:
                outcome = self._exchange(replace(spec, scripts=scripts), memory_limit)
            except BaseException:
                # interrupted (Ray cancelled the task, Ctrl-C) or failed: the child may be
                # playing this spec, or half started, and its next reply must never be
                # taken for the next task's
                self._stop()
                raise
            if isinstance(outcome, TaskResult):
                return self._with_process_output(outcome)
            where = self.heartbeat.where()
            self._stop()
            if where is None:
                if died_outside == outcome.cause:  # twice, outside any strategy: not theirs
                    raise RuntimeError(
                        f"task {spec.task}: its process died outside any strategy decision"
                        f" ({outcome.cause}), twice"
                    )
                died_outside = outcome.cause
                continue
            key, entrant, actions = where
            if key in scripts:
                raise RuntimeError(f"task {spec.task}: its process died again replaying hand"
                                   f" {key} ({outcome.cause})")
            label = list(spec.strategies)[entrant]
            scripts[key] = CrashScript(actions, f"({label}) {outcome.cause}")

    def _exchange(self, spec: TaskSpec, memory_limit: int) -> TaskResult | _Death:
        """Send ``spec`` to the child (started first if it is not running) and wait.

        One step for ``play`` to guard as a whole: an interruption anywhere in it, even
        between the spec's last byte written and the wait (a benched entrant's tasks
        cancelled by Ray, in a clean clone's suite), leaves a child out of step."""
        if self._child is None or self._child.poll() is not None:
            self._stop()
            self._start()
        self.heartbeat.reset()
        self._to_child.send_bytes(signed(self._key, pickle.dumps(spec)))
        return self._wait(spec, memory_limit)

    def _wait(self, spec: TaskSpec, memory_limit: int) -> TaskResult | _Death:
        assert self._child is not None and self._conn is not None
        limit = spec.time_limit
        bots_weighed = time.monotonic()
        while True:
            if self._conn.poll(POLL_SECONDS):
                try:
                    frame = self._conn.recv_bytes()
                except (EOFError, OSError):
                    return _Death(self._death_cause())
                kind, payload = pickle.loads(verified(
                    self._key, frame, f"task {spec.task}: the pipe from its process"))
                if kind == "result":
                    if payload.task != spec.task:  # never another task's rows
                        raise RuntimeError(f"task {spec.task}: its process replied for task"
                                           f" {payload.task}")
                    return payload
                if kind == "abort":
                    raise StrategyFailure(*payload)
                raise RuntimeError(f"task {spec.task} failed in its process:\n{payload}")
            if self._child.poll() is not None:
                return _Death(self._death_cause())
            running = self.heartbeat.deciding_since()
            if limit is not None and running is not None and running > limit + GRACE_SECONDS:
                self._child.kill()
                return _Death(
                    f"took more than its time limit of {limit:g} s to decide; the supervisor"
                    f" ended it after {running:.1f} s (signals and exceptions could not stop it)"
                )
            used = _resident_bytes(self._child.pid)
            if used > memory_limit:
                self._child.kill()
                return _Death(f"memory limit {_size(memory_limit)} exceeded"
                              f" ({_size(used)} in use)")
            threads = _thread_count(self._child.pid)
            if threads > THREAD_LIMIT:
                self._child.kill()
                return _Death(f"thread limit {THREAD_LIMIT} exceeded ({threads} threads"
                              " running: a strategy that starts threads must end them)")
            if time.monotonic() - bots_weighed >= BOT_POLL_SECONDS:
                bots_weighed = time.monotonic()
                self._limit_bots(memory_limit)

    def _limit_bots(self, memory_limit: int) -> None:
        """Hold each bot the child started (an isolated strategy's process or an external
        bot, with every process it started) to the same limits as the child: past
        ``memory_limit`` or ``THREAD_LIMIT`` every process below its leader is killed
        (SIGKILL), the leader (its keeper, on Linux, counted with it: about 11 MB) is
        told to stop, then its process group is ended, so its seat forfeits the deal it
        is in ("was killed by SIGKILL"), and the reason is kept in the run's
        ``logs/output/(process).log``. They were not weighed at all: six
        isolated strategies of 742 MB and 300 threads each played a run whose limit was
        300 MiB, unnoticed (an adversarial probe)."""
        assert self._child is not None
        for leader in _session_children(self._child.pid):
            tree = _descendants(leader)
            used = sum(map(_resident_bytes, tree))
            threads = sum(map(_thread_count, tree))
            if used > memory_limit:
                why = f"memory limit {_size(memory_limit)} exceeded ({_size(used)} in use)"
            elif threads > THREAD_LIMIT:
                why = f"thread limit {THREAD_LIMIT} exceeded ({threads} threads running)"
            else:
                continue
            for pid in tree[1:]:  # what left the group (setsid), and a keeper's adoptees
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            # a keeper ends what forked meanwhile, and exits as its bot did (SIGKILL)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(leader, signal.SIGTERM)
            wait_ended([leader], LIMIT_SWEEP_SECONDS)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(leader, signal.SIGKILL)
            note = (f"[supervisor] ended bot process {leader} and the {len(tree) - 1}"
                    f" process(es) it started: {why}\n")
            with self._lock:
                room = PROCESS_OUTPUT_LIMIT - len(self._output)
                self._output += note.encode()[:max(room, 0)]

    def _death_cause(self) -> str:
        assert self._child is not None
        code = self._child.wait()
        if code < 0:
            return f"process died: {signal.Signals(-code).name}"
        return f"process exited with code {code}"

    def _with_process_output(self, result: TaskResult) -> TaskResult:
        with self._lock:
            text = bytes(self._output).decode("utf-8", "replace")
            if self._output_dropped:
                text += f"\n[{self._output_dropped:,} more bytes dropped: output is capped]\n"
            self._output.clear()
            self._output_dropped = 0
        if text:
            result.output[PROCESS_OUTPUT] = text
        return result


PROCESS_OUTPUT = "(process)"
"""The ``TaskResult.output`` key of what the child printed below Python (no entrant known)."""

_supervisor: Supervisor | None = None


def play_task_supervised(spec: TaskSpec) -> TaskResult:
    """``play_task`` in this worker's supervised child: what the Ray executor ships."""
    global _supervisor
    if _supervisor is None:
        _supervisor = Supervisor()
        atexit.register(_supervisor.close)  # a worker that exits ends its child's bots
    result = _supervisor.play(spec)
    result.node = node_address()  # the child knows nothing of Ray; this worker does
    result.code = task_code(spec)  # so it sent no fingerprint: this worker's disk is its
    return result


def _session_children(pid: int) -> list[int]:
    """The children of ``pid`` that lead a session of their own: the bots its isolated
    entrants started (``start_new_session``), each its process group's leader. Linux
    lists a process's children in /proc; elsewhere there is nothing to read (the bots
    still die with the child, their background children do not)."""
    found, children = [], []
    with contextlib.suppress(OSError, ValueError):
        for thread in os.listdir(f"/proc/{pid}/task"):  # each thread lists its own children
            with open(f"/proc/{pid}/task/{thread}/children") as handle:
                children += [int(word) for word in handle.read().split()]
    for child in children:
        with contextlib.suppress(OSError):
            if os.getsid(child) == child:
                found.append(child)
    return found


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (children, theirs, ...), from /proc; just
    ``pid`` where /proc cannot say."""
    found, waiting = [], [pid]
    while waiting and len(found) < 10_000:  # a fork bomb's tree is not walked for ever
        current = waiting.pop()
        found.append(current)
        with contextlib.suppress(OSError, ValueError):
            for thread in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{thread}/children") as handle:
                    waiting += [int(word) for word in handle.read().split()]
    return found


def _thread_count(pid: int) -> int:
    """Threads of ``pid`` (0 where /proc cannot say)."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _resident_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _size(count: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count:g} {unit}" if unit == "bytes" else f"{count:.3g} {unit}"
        count /= 1024
    raise AssertionError("unreachable")
