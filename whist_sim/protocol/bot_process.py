"""One bot process and its three pipes: lines out and in under a deadline, stderr kept.

Nothing here ever blocks without a deadline: stdin is non-blocking and written when
``poll`` says it has room (a bot that stops reading cannot stall the engine), stdout
is read with ``os.read`` after ``poll`` and split into lines here (a buffered
``readline`` could wait forever for a newline). A thread drains stderr all the time
(a bot writing to a full stderr pipe would otherwise hang on it), appending it to a
capped log file and keeping the last lines for error messages.

The process gets a session (process group) of its own: killing it kills whatever it
started (a shell script's children too), and Ctrl-C at the terminal reaches the
engine only, which then ends its bots. On Linux that process is the bot's keeper
(``bot_keeper``), a child subreaper that starts the bot on the same three pipes and
ends everything the bot left, a daemon's double fork included, when the bot exits or
the keeper is told to stop: the engine itself never becomes a subreaper (a Ray worker
or the command line starts other children, which are not the bots' business).

Problems are raised as the small exceptions below; ``ProcessStrategy`` words them as
``BotError``s naming the entrant.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from whist_sim.protocol.bot_containment import REFUSED_PREFIX, hidden_argument
from whist_sim.protocol.bot_tree import (
    MOST_FOUND,
    Found,
    children_of,
    end_all,
    outside_group,
    signal_all,
    started_by,
    stopped,
    wait_ended,
)

MAX_LINE = 8 << 20
"""Bytes of one line from a bot: a decide reply is tens of bytes, so 8 MiB is only a
guard against a bot that writes without end and no newline."""
READ_CHUNK = 1 << 16
FULL_LOG_PAUSE = 0.01
"""Seconds the stderr reader waits after each read while the bot's log is full: at most
a chunk (64 KiB) each time, 6.4 MB/s. A bot that writes without end then waits on its own
full pipe, where it had the reader, and the engine with it, busy with what is dropped:
a red-team bot's flood of empty lines slowed its in-process opponent's decisions 1.6 to
1.8 times, and the run 7 times. Only a bot past its cap waits so, in its own time."""

ANOTHER_PROCESS = ("another process of your user (docs/protocol.md, what isolation does not"
                   " stop)")
"""Who else may have signalled a bot, named in its errors: a hostile bot killed or
stopped its isolated opponent at every deal, and every error blamed the victim (a probe)."""


class LineSplitter:
    """Bytes in as they come, whole lines out (without their newline), each byte looked at
    a fixed number of times: a bot's stderr.

    A line longer than ``max_line`` is kept as its first ``keep`` bytes and `` [...]``,
    the rest of it up to its newline dropped. Joining each chunk to the bytes pending
    and splitting them all again cost the square of a line's length: a bot writing
    64 MB of stderr without a newline kept the engine's reader busy for 4.6 s against
    1.75 s with newlines, and one writing 200 MB ran out its own decision time (a probe).
    """

    def __init__(self, max_line: int = MAX_LINE, keep: int = 4096) -> None:
        self.max_line = max_line
        self.keep = min(keep, max_line)
        self.pending = bytearray()
        self.cut = False

    def feed(self, chunk: bytes) -> list[bytes]:
        """The lines ``chunk`` completes."""
        if b"\n" not in chunk:
            self._extend(chunk)
            return []
        first, *whole, rest = chunk.split(b"\n")  # each part's bytes copied once
        self._extend(first)
        lines = [self._line()]
        limit, keep = self.max_line, self.keep
        lines += [line if len(line) <= limit else line[:keep] + b" [...]" for line in whole]
        self._extend(rest)
        return lines

    def finish(self) -> list[bytes]:
        """The last line, if the stream ended without a newline."""
        return [self._line()] if self.pending or self.cut else []

    def _extend(self, part: bytes) -> None:
        if self.cut:
            return  # the rest of a line already cut
        if len(self.pending) + len(part) <= self.max_line:
            self.pending += part
            return
        self.pending += part[:max(0, self.keep - len(self.pending))]
        del self.pending[self.keep:]
        self.cut = True

    def _line(self) -> bytes:
        line = bytes(self.pending) + (b" [...]" if self.cut else b"")
        self.pending.clear()
        self.cut = False
        return line


class CannotStart(Exception):
    """The command cannot be started; the message says why (missing, not executable)."""

    hint = ("an executable program: check the command's path, its execute permission and"
            " the working folder")
    """What the engine expected, for ``BotStartError``."""


class CannotContain(CannotStart):
    """The bot was to be contained (``bot_containment``) and the kernel refused a step."""

    hint = ("a machine that lets an unprivileged process make user, PID, mount, network"
            " and IPC namespaces (Linux 5.12 or later)")


class PipeTimeout(Exception):
    """The deadline passed before a whole line came (or before a line could be written)."""


class PipeClosed(Exception):
    """The bot closed its end: it exited, or closed stdout or stdin."""


class LineTooLong(Exception):
    """The bot wrote more than ``MAX_LINE`` bytes without a newline."""


class LineLog:
    """Capped lines tagged by seat, in a file or in memory: the bots' stderr, or a
    transcript of the protocol (``>`` engine to bot, ``<`` bot to engine).

    Several seat processes of one entrant share one log; a lock keeps their lines whole.
    ``in_memory``: the lines are kept here until ``take`` hands them over (``limit``
    capping what is kept between takes), never written to a file. A tournament keeps its
    bots' stderr so: a file any process of the user can read is a file every other bot
    can read while the deal is played, and a bot's debug output may show its hand.
    """

    CUT = " [...]"
    """What ends the kept start of the line that passed the cap."""
    KEPT_AT_LEAST = 20
    """Characters of its own a line must keep to be kept cut, not dropped whole."""

    def __init__(self, path: str | Path | None, limit: int, *, in_memory: bool = False
                 ) -> None:
        self.path = None if path is None else Path(path)
        self.limit = limit
        self.written = 0
        self.dropped = 0
        """Characters of the lines' own text not kept (since the last ``take``)."""
        self.dropped_lines = 0
        """Lines cut or dropped whole (since the last ``take``)."""
        self._lock = threading.Lock()
        self._file: TextIO | None = None
        self._kept: list[str] | None = [] if in_memory else None

    def write(self, tag: str, line: str) -> None:
        if self.path is None and self._kept is None:
            return
        text = f"[{tag}] {line}\n"
        with self._lock:
            if self._full(tag):  # capped: the rest of the lines are counted, not kept
                self.dropped += len(line)
                self.dropped_lines += 1
                return
            room = self.limit - self.written
            if len(text) <= room:
                self.written += len(text)
                self._put(text)
                return
            # the line that passes the cap keeps its start, tagged: 1 MiB lines, each
            # longer than the whole cap, left a log of "[capped ...]" lines alone (a probe)
            own = room - len(text) + len(line) - len(self.CUT) - 1
            first = not self.dropped_lines
            if first and own >= self.KEPT_AT_LEAST:
                self.written = self.limit
                self._put(f"[{tag}] {line[:own]}{self.CUT}\n")
                self.dropped += len(line) - own
            else:
                self.dropped += len(line)
            self.dropped_lines += 1
            if first:
                self._put(f"[capped at {self.limit:,} characters]\n")

    def drop_many(self, tag: str, lines: Sequence[bytes]) -> bool:
        """Count ``lines`` as dropped, at once, if the log is full (``full``), and say
        so; False, counting nothing, while a line might still be kept. A bot
        writing empty lines without end had the reader look at each one after the log was
        full, slowing the whole engine and its opponent with it (a red-team probe)."""
        if self.path is None and self._kept is None:
            return True  # nothing is kept, so nothing to count
        with self._lock:
            if not self._full(tag):
                return False
            text = b"\n".join(lines).decode("utf-8", "replace")
            # each line's own text, as write counts it: no newline, no "\r" ending it
            ends = text.count("\r\n") + text.endswith("\r")
            if not self.dropped_lines:
                self._put(f"[capped at {self.limit:,} characters]\n")
            self.dropped += len(text) - (len(lines) - 1) - ends
            self.dropped_lines += len(lines)
            return True

    def full(self, tag: str) -> bool:
        """No line of ``tag`` is kept until the next ``take``: all it writes is dropped."""
        with self._lock:
            return self._full(tag)

    def _full(self, tag: str) -> bool:
        """Capped: a line was dropped (a shorter one had still been kept after it, so the
        lines kept were no longer the first ones), or none of ``tag``'s can fit."""
        return bool(self.dropped_lines) or self.limit - self.written < len(tag) + len("[] \n")

    def _dropped_note(self) -> str:
        """The last line of a capped log: how much of the lines' text went."""
        return (f"[dropped: {self.dropped:,} characters, in {self.dropped_lines:,} lines]\n"
                if self.dropped_lines else "")

    def _put(self, text: str) -> None:
        if self._kept is not None:
            self._kept.append(text)
            return
        if self._file is None:  # opened at the first line (again after a close)
            assert self.path is not None
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8", errors="replace")
        self._file.write(text)
        self._file.flush()

    def take(self) -> str:
        """An in-memory log's lines since the last ``take`` (empty for a file's); the cap
        applies to what is kept between takes, so it starts again."""
        with self._lock:
            if not self._kept:
                return ""
            text = "".join(self._kept) + self._dropped_note()
            self._kept.clear()
            self.written = self.dropped = self.dropped_lines = 0
            return text

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                note = self._dropped_note()
                if note:  # said once: a reopened file is still capped, and counts anew
                    self._file.write(note)
                    self.dropped = self.dropped_lines = 0
                self._file.close()
                self._file = None


def kept_lines(lines: Sequence[bytes], tag: str, log: LineLog, tail: deque[str]) -> None:
    """A chunk's whole lines of a bot's stderr into its ``log`` and ``tail``: line by line
    while the log has room; past it, those the tail will not keep are counted in bulk
    (``LineLog.drop_many``), so a flood costs the reader a few operations a chunk, not
    a few a line."""
    keep = tail.maxlen if tail.maxlen is not None else len(lines)
    if len(lines) > keep and log.drop_many(tag, lines[:len(lines) - keep]):
        lines = lines[len(lines) - keep:]
    for raw in lines:
        line = raw.rstrip(b"\r").decode("utf-8", "replace")
        tail.append(line if len(line) <= 1000 else f"{line[:1000]} [...]")
        log.write(tag, line)


class BotProcess:
    """A running bot: ``send`` a line, ``read_line`` a line, ``kill``; ``tail`` of stderr."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        cwd: str | Path | None,
        env: Mapping[str, str] | None,
        log: LineLog,
        tag: str,
        tail_lines: int,
        transcript: LineLog | None = None,
        contain: Sequence[str] | None = None,
        pause: bool = False,
    ) -> None:
        """``contain``: run the bot contained (``bot_containment``), with these paths
        hidden from it; None: as the engine's user sees the machine. ``pause``: ``hold``
        stops it until the engine next writes to it (``tournament.pause_bots``)."""
        self.command = tuple(command)
        self.pause = pause
        self._held = False
        """Its process group is stopped (``hold``) and not yet continued."""
        self._escaped: list[Found] = []
        """What ``hold`` stops outside the group, found at its last walk of /proc, for
        ``release`` to continue."""
        self._walked = -float("inf")
        """When ``hold`` last looked for processes outside the group (``time.monotonic``)."""
        self.log = log
        self.transcript = transcript
        self.tag = tag
        self.ignored: str | None = None
        """The type of the last message it sent that the engine does not know and passed
        over (a later MINOR version's): a timeout then names it ("Action" for "action"
        read as slowness)."""
        self.tail: deque[str] = deque(maxlen=tail_lines)
        self._buffer = bytearray()
        self._started: list[Found] = []
        """The processes it had started when it was asked to quit (``bot_tree``)."""
        self._check_startable(cwd)
        keeper = _keeper_command()
        self.kept = keeper is not None
        """The bot runs under a keeper (``bot_keeper``), which ``popen`` is: Linux."""
        if contain is not None:
            if keeper is None:
                raise CannotContain("it cannot be contained (tournament.contain_bots) on"
                                    f" {sys.platform}: containment uses Linux namespaces")
            keeper = [*keeper, "--contain", hidden_argument(list(contain))]
        try:
            self.popen = self._start(keeper, cwd, env)
        except FileNotFoundError:
            raise CannotStart(f"the command {command[0]!r} was not found"
                              f"{_where_looked(command[0], cwd, folder=False)}") from None
        except PermissionError:
            raise CannotStart(f"the command {command[0]!r} is not executable") from None
        except OSError as exc:
            raise CannotStart(f"the command {command[0]!r} cannot be started: {exc}") from None
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self._group = self._bot_group()
        """The process group ``hold`` stops: the bot's own under a keeper, which leaves
        the keeper out of it (``bot_keeper``); else the bot's, which it leads."""
        self._stdin = self.popen.stdin.fileno()
        self._stdout = self.popen.stdout.fileno()
        os.set_blocking(self._stdin, False)
        self._can_write = select.poll()
        self._can_write.register(self._stdin, select.POLLOUT)
        self._can_read = select.poll()
        self._can_read.register(self._stdout, select.POLLIN)
        self._drain = threading.Thread(
            target=self._drain_stderr, name=f"bot stderr {tag}", daemon=True
        )
        self._drain.start()

    def _start(self, keeper: list[str] | None, cwd: str | Path | None,
               env: Mapping[str, str] | None) -> subprocess.Popen[bytes]:
        """The process: the bot itself, or its keeper once the keeper has run the bot's
        command (an ``OSError`` as ``Popen`` raises it when the command cannot run)."""
        status_r, status_w = os.pipe() if keeper else (-1, -1)
        try:
            popen = subprocess.Popen(
                [*keeper[:KEEPER_PROGRAM], str(status_w), *keeper[KEEPER_PROGRAM:],
                 *self.command] if keeper else list(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=None if env is None else dict(env),
                bufsize=0,
                start_new_session=True,
                preexec_fn=_die_with_engine if sys.platform.startswith("linux") else None,
                pass_fds=(status_w,) if keeper else (),
            )
        finally:
            if keeper:
                os.close(status_w)
        if not keeper:
            return popen
        try:
            error = _keeper_status(status_r)
        finally:
            os.close(status_r)
        if error is None:
            return popen
        for stream in (popen.stdin, popen.stdout, popen.stderr):
            stream.close()  # type: ignore[union-attr]
        if error == "late":
            popen.kill()
            popen.wait()
            raise CannotStart(f"its keeper did not start the command {self.command[0]!r}"
                              f" within {KEEPER_START_SECONDS:g} s (is the machine"
                              " overloaded?)")
        popen.wait()  # the keeper exits as soon as the command has failed
        if isinstance(error, str):
            raise CannotContain(_refusal_text(error))
        raise OSError(error, os.strerror(error), self.command[0])

    def _bot_group(self) -> int | None:
        """The process group the bot leads: under a keeper, that of the keeper's one child
        once the command runs (the bot, or its init when contained); else the bot's own
        (``start_new_session``). None under a keeper whose child is not found (a bot that
        exited as it started): ``hold`` then stops nothing, never the keeper."""
        if not self.kept:
            return self.popen.pid
        children = children_of(self.popen.pid)
        return children[0] if len(children) == 1 else None

    def _check_startable(self, cwd: str | Path | None) -> None:
        """Name the problem before ``Popen`` does: its error for a missing cwd names the
        program, not the folder."""
        if not self.command:
            raise CannotStart("the command is empty")
        if cwd is not None and not Path(cwd).is_dir():
            raise CannotStart(f"the working folder {str(cwd)!r} does not exist"
                              f"{_where_looked(str(cwd), None, folder=True)}")

    # -- between decisions ---------------------------------------------------------------
    def hold(self) -> None:
        """Stop the bot (SIGSTOP to its process group: the bot and what it started there,
        not its keeper) until the engine next writes to it, when ``pause`` is set: a bot
        that computed between its decisions took a core from the seats deciding then, whose
        timed decisions it slowed, and thought on their time. What it started in a group
        or a session of its own (``setpgid``, ``setsid``) is found below the keeper (or
        the bot) in /proc and stopped one by one: it computed through the other seats'
        time as if not paused (docs/protocol.md). /proc is walked at most every
        ``ESCAPE_WALK_SECONDS`` while no such process has been found (walked at every
        hold, the whole ``choose`` call of a paused C bot took 290 microseconds where it
        took 140), and at every hold once one has: a chain of processes each living 20
        ms, each new when looked for, computed through the other seats' time."""
        if (not self.pause or self._held or self._group is None
                or self.popen.poll() is not None):
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._group, signal.SIGSTOP)
            self._held = True
        if not self._held:
            return
        if not self._escaped and time.monotonic() - self._walked < ESCAPE_WALK_SECONDS:
            return
        self._walked = time.monotonic()
        outside: dict[Found, None] = {}  # stopped, in the order found
        while len(outside) < MOST_FOUND and (new := [
                found for found in outside_group(self.popen.pid, self._group)
                if found not in outside]):  # again: one may fork as it is stopped
            signal_all(new, signal.SIGSTOP)
            outside.update(dict.fromkeys(new))
        self._escaped = list(outside)

    def release(self) -> None:
        """Continue what ``hold`` stopped (SIGCONT to the group, and to each process it
        stopped outside the group)."""
        if not self._held:
            return
        self._held = False
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._group, signal.SIGCONT)
        signal_all(self._escaped, signal.SIGCONT)

    @property
    def held(self) -> bool:
        """Whether ``hold`` has stopped it and nothing has continued it since."""
        return self._held

    # -- lines ---------------------------------------------------------------------------
    def send(self, data: bytes, deadline: float | None) -> None:
        """Write ``data`` whole before ``deadline`` (``time.monotonic``), else PipeTimeout.
        A held bot is continued once the first part is in its pipe, so that it wakes once,
        to a line waiting, rather than once to nothing and again to the line."""
        if self.transcript is not None:
            self.transcript.write(self.tag, "> " + data.decode("utf-8", "replace").rstrip("\n"))
        view = memoryview(data)
        try:
            while view:
                try:
                    written = os.write(self._stdin, view)
                except BlockingIOError:
                    written = 0
                except (BrokenPipeError, ValueError, OSError):
                    raise PipeClosed from None
                view = view[written:]
                self.release()
                if view and not _ready(self._can_write, deadline):
                    raise PipeTimeout
        finally:
            self.release()

    def read_line(self, deadline: float | None) -> bytes:
        """The next line from stdout (without its newline) before ``deadline``."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end]).rstrip(b"\r")
                del self._buffer[: end + 1]
                if self.transcript is not None:
                    self.transcript.write(self.tag, "< " + line.decode("utf-8", "replace"))
                return line
            if len(self._buffer) > MAX_LINE:
                raise LineTooLong
            if not self._wait_readable(deadline):
                raise PipeTimeout
            chunk = os.read(self._stdout, READ_CHUNK)
            if not chunk:
                raise PipeClosed
            self._buffer += chunk

    def _wait_readable(self, deadline: float | None) -> bool:
        """Wait for output, in slices of ``EXIT_CHECK_SECONDS``, as long as the bot runs;
        True when there is output (or the pipe hung up), False at ``deadline``. A bot that
        exited while a process it started holds its stdout open is found at the next
        slice, not at the deadline: it was charged the whole limit, as a timeout."""
        while True:
            step = time.monotonic() + EXIT_CHECK_SECONDS
            if _ready(self._can_read, step if deadline is None else min(step, deadline)):
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False
            if self.popen.poll() is not None and not self._can_read.poll(0):
                raise PipeClosed  # it has exited: nothing more will come from it

    def lines_waiting(self) -> list[bytes]:
        """The whole lines the bot has sent that nobody has read yet, without waiting:
        what it said unasked (a ``log``, or a second reply to the last ``decide``)."""
        while len(self._buffer) <= MAX_LINE and self._can_read.poll(0):
            chunk = os.read(self._stdout, READ_CHUNK)
            if not chunk:  # it hung up: the next read_line says so
                break
            self._buffer += chunk
        lines = []
        while self._buffer.find(b"\n") >= 0:
            lines.append(self.read_line(None))
        return lines

    # -- stderr ----------------------------------------------------------------------------
    def _drain_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        lines = LineSplitter()
        while True:
            try:
                chunk = os.read(stream.fileno(), READ_CHUNK)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            kept_lines(lines.feed(chunk), self.tag, self.log, self.tail)
            if self.log.full(self.tag):
                time.sleep(FULL_LOG_PAUSE)
        kept_lines(lines.finish(), self.tag, self.log, self.tail)

    def stderr_tail(self, settle: float = 0.5) -> list[str]:
        """The last lines of stderr; once the process has exited, after the drain has read
        all of it (up to ``settle`` seconds)."""
        if self.popen.poll() is not None:
            self._drain.join(settle)
        return list(self.tail)

    # -- life -------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    @property
    def stopped(self) -> bool:
        """Whether the bot, or a process it started, is stopped by a signal (``bot_tree``)."""
        return self.popen.poll() is None and stopped(self.popen.pid)

    def exit_status(self, wait: float = 0.5) -> str:
        """How the process ended ("exited with code 3", "was killed by SIGSEGV"), waiting
        up to ``wait`` seconds for it to end; "is still running" if it has not."""
        try:
            code = self.popen.wait(wait)
        except subprocess.TimeoutExpired:
            return "is still running"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            if code == -signal.SIGKILL:  # say who does that, besides the bot itself
                return (f"was killed by {name} (a supervised run ends a bot so past"
                        " tournament.memory_limit or the thread limit, the system's OOM"
                        f" killer when memory runs out, and so can {ANOTHER_PROCESS})")
            return f"was killed by {name}"
        return f"exited with code {code}"

    def kill(self) -> None:
        """End the process and every process it started, now; close the pipes.

        Under a keeper (Linux), what the bot started is the keeper's too, a daemon's
        double fork included (``bot_keeper``): what is found below the keeper is killed,
        and the keeper is told to stop, ending what forked meanwhile, and given
        ``KEEPER_SWEEP_SECONDS`` to exit. Then, keeper or not, what it started is ended
        even when the bot itself has exited (a bot that quits when asked): its process
        group and its session (a child in a group of its own, ``setpgid``), and its
        descendants (a child in a session of its own, ``setsid``), found before it was
        asked to quit and again now (``bot_tree``). Without a keeper, a process whose
        parent exited before it was looked for, outside the session (a double fork),
        escapes: docs/protocol.md says so."""
        pid = self.popen.pid
        self.release()  # what it left stopped would not take a SIGTERM until continued
        # its pid is still the bot's (not reaped) or no one's: its session and children
        # are the bot's; once reaped, a process running under the pid may be another's
        ours = self.popen.returncode is None or not os.path.exists(f"/proc/{pid}")
        found = [*self._started, *(started_by(pid) if ours else ())]
        if self.kept and self.popen.returncode is None:
            end_all(entry for entry in found if entry[0] != pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGTERM)
            wait_ended([pid], KEEPER_SWEEP_SECONDS)  # not reaped: its pid stays its own
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        end_all(found)
        if ours:
            end_all(started_by(pid))  # what joined the session as the first were ended
        if self.popen.poll() is None:
            self.popen.kill()
        self._reap()

    def ask_to_quit(self, line: bytes) -> None:
        """Send ``line`` (``quit``) and close stdin: the end of input says it a second way.
        What the bot started is looked for first: a bot that quits leaves its children to
        init, and a child in a session of its own could not be found after that."""
        if self.popen.poll() is None:
            self._started = started_by(self.popen.pid)
        try:
            self.send(line, time.monotonic() + 0.1)
            self.popen.stdin.close()  # type: ignore[union-attr]
        except (PipeClosed, PipeTimeout, OSError):
            pass

    def end_by(self, deadline: float) -> None:
        """Wait for the process to exit until ``deadline``, then kill it."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(max(0.0, deadline - time.monotonic()))
        self.kill()

    def _reap(self) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL is not refused
            self.popen.wait(5)
        for stream in (self.popen.stdin, self.popen.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._drain.join(0.5)
        if not self._drain.is_alive() and self.popen.stderr is not None:
            self.popen.stderr.close()


def _where_looked(path: str, cwd: str | Path | None, *, folder: bool) -> str:
    """Where a relative working folder or program path was looked for, said in the
    error: a config's relative paths are not taken from the config's folder, and "does
    not exist" alone sends a newcomer to the folder beside the config, which does.

    A relative working folder is taken from the folder whist-sim runs in; a relative
    program path (one with a ``/``) from the working folder when there is one."""
    if Path(path).is_absolute() or (not folder and "/" not in path):
        return ""  # an absolute path names itself; a bare program name is searched on PATH
    here = Path.cwd()
    if folder or cwd is None:
        return (f" (looked for {here / path}: a relative path is taken from the folder"
                f" whist-sim runs in, {here})")
    base = here / cwd
    return (f" (looked for {base / path}: a relative program path is taken from the"
            f" working folder, {base})")


EXIT_CHECK_SECONDS = 0.1
"""How often a wait for a bot's reply checks that the bot still runs."""


def _ready(poller: select.poll, deadline: float | None) -> bool:
    """Wait until the pipe ``poller`` watches is ready (or has hung up: the next read or
    write then says so), or until ``deadline``: False if the deadline came first.

    ``poll`` rather than ``select``: a worker running many bots may hold descriptors
    above ``select``'s limit of 1024.
    """
    while True:
        if deadline is None:
            timeout_ms = None
        else:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            timeout_ms = max(1, int(left * 1000 + 0.999))
        if poller.poll(timeout_ms):
            return True


KEEPER = Path(__file__).with_name("bot_keeper.py")
"""The keeper's program, run by path (not ``-m``: see its docstring)."""

ESCAPE_WALK_SECONDS = 0.1
"""How often ``BotProcess.hold`` looks in /proc for processes a bot started outside its
process group while it has found none: a bot that has never had one pays no walk at
most holds. Once one is found, every hold looks (``BotProcess.hold``)."""

KEEPER_START_SECONDS = 30.0
"""How long a keeper may take to say whether it could run the bot's command: a
Python start-up, tens of milliseconds, on a machine that is not overloaded."""

KEEPER_SWEEP_SECONDS = 1.0
"""How long a keeper told to stop may take to end what it holds and exit before its
process group is killed (milliseconds, unless a bot stopped it: SIGSTOP)."""


def _keeper_command() -> list[str] | None:
    """The keeper's command line, the status descriptor and the bot's command to follow;
    None where there is no keeper: off Linux (no subreapers), or no known Python."""
    if not sys.platform.startswith("linux") or not sys.executable or not KEEPER.is_file():
        return None
    return [sys.executable, "-I", "-S", str(KEEPER)]


KEEPER_PROGRAM = 4
"""How many words of ``_keeper_command`` come before the status descriptor."""


def _refusal_text(said: str) -> str:
    """The error of a bot its keeper could not contain, from what the keeper said."""
    step = said[len(REFUSED_PREFIX):]
    return (f"it could not be contained (tournament.contain_bots): the kernel refused {step}."
            " This machine does not let an unprivileged process make the namespaces"
            " containment needs: allow user namespaces (sysctl user.max_user_namespaces,"
            " kernel.unprivileged_userns_clone, or AppArmor's"
            " kernel.apparmor_restrict_unprivileged_userns; mount_setattr needs Linux 5.12),"
            " or set tournament.contain_bots = false and run each bot in a sandbox of your"
            " own (docs/protocol.md)")


def _keeper_status(status: int) -> int | str | None:
    """What the keeper's status pipe says: None when the bot's command runs (the pipe
    closed empty), the ``errno`` that stopped it, the step of containment the kernel
    refused (``bot_containment.REFUSED_PREFIX`` and its text), or "late" past
    ``KEEPER_START_SECONDS``."""
    poller = select.poll()
    poller.register(status, select.POLLIN)
    deadline = time.monotonic() + KEEPER_START_SECONDS
    said = b""
    while True:
        if not _ready(poller, deadline):
            return "late"
        chunk = os.read(status, 64)
        if not chunk:
            if said.startswith(REFUSED_PREFIX.encode()):
                return said.decode("utf-8", "replace")
            return int(said) if said.strip().isdigit() else None
        said += chunk


def _die_with_engine() -> None:  # pragma: no cover - runs in the bot's process, before exec
    """Ask the kernel to end the bot when the engine's process dies (a supervised child
    killed for memory or time leaves no bot behind). A keeper trades the SIGKILL for a
    SIGTERM, which it waits for to end the bot and what it holds, once it runs: until
    then, killed, it has started nothing."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
