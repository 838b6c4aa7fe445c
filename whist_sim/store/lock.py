"""One writer per run folder: an exclusive ``flock`` on ``RUN/.writer.lock``.

Two writers on one folder would each commit, compact and clean up as if alone
(two ``--resume`` of one run, or a ``--resume`` of a run still playing). The
lock is taken before the writer changes anything, and a second writer is
refused in one line naming the process that holds it.

Why ``flock``: the kernel releases it when the holding process dies, however it
dies, so a writer killed with ``kill -9`` leaves no lock to clean up, and no PID
has to be guessed stale. The file is never removed (removing a lock file races
with the next writer opening it); what it holds, the holder's PID, host, start
time and command, is only for the refusal message. Readers take no lock and are
never blocked. Over NFS ``flock`` works where the server supports byte-range
locks (NFSv4); on a file system without locking, one writer is up to the user.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shlex
import socket
import sys
import weakref
from pathlib import Path

from whist_sim.store.errors import RunFolderError

LOCK_FILE = ".writer.lock"


class WriterLock:
    """The writer's hold on a run folder, released by ``release`` or when the process ends."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd
        # a writer dropped without release (a test fixture, a notebook) still lets go
        self._finalizer = weakref.finalize(self, os.close, fd)

    @classmethod
    def acquire(cls, run: Path, started: str) -> WriterLock:
        """Take the folder's lock, or raise naming the process that holds it."""
        fd = os.open(run / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _describe(os.pread(fd, 65536, 0))
            os.close(fd)
            raise RunFolderError(
                f"{run} is being written by {holder}; one writer at a time: wait for it"
                f" to end (or stop it) before whist-sim run --resume {run}"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        holder = {"pid": os.getpid(), "host": socket.gethostname(), "started": started,
                  "command": _command()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(holder).encode(), 0)
        return cls(fd)

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)  # the next refusal must not name a process long gone
        self._finalizer()  # closes the file: the kernel drops the lock
        self._fd = None


COMMAND_LIMIT = 300
"""Characters of the holder's command kept: the refusal is one line, not a script."""


def _command() -> str:
    """This process's command line as a user would recognise it, on one line."""
    argv = list(getattr(sys, "orig_argv", sys.argv))
    if len(argv) > 1 and not argv[1].startswith("-"):  # python path/to/whist-sim run ...
        argv = argv[1:]
    if argv:
        argv[0] = Path(argv[0]).name
    command = " ".join(shlex.join(argv).split())
    return command if len(command) <= COMMAND_LIMIT else command[:COMMAND_LIMIT] + " ..."


def _describe(raw: bytes) -> str:
    try:
        holder = json.loads(raw)
        return (f"process {holder['pid']} ({holder['command']}) on {holder['host']}"
                f" since {holder['started']}")
    except (ValueError, KeyError, TypeError):
        return "another process (it has not yet said which)"


def writer_gone(run: Path) -> bool:
    """Whether the run's last writer has ended: its lock file names a process on this
    host that no longer exists, or no process (released). A run killed by ``kill -9``
    or a crash keeps ``running`` in run.json; a reader tells it from a live run this
    way, without touching the lock (taking it, even to test it, could refuse a writer
    starting that instant). A writer on another host cannot be checked: not gone."""
    return _writer(run)[0] == "gone"


def live_writer(run: Path) -> str | None:
    """The process writing the run now, as a refusal names it, if its lock file names
    a live process on this host; None otherwise (none, ended, or on another host)."""
    state, raw = _writer(run)
    return _describe(raw) if state == "live" else None


def _writer(run: Path) -> tuple[str, bytes]:
    """What the lock file says of the run's writer, read without taking the lock:
    "gone", "live" (a process on this host that exists) or "unknown", and its text."""
    try:
        raw = (run / LOCK_FILE).read_bytes()
    except OSError:
        return "unknown", b""
    if not raw.strip():
        return "gone", raw
    try:
        holder = json.loads(raw)
        pid, host = int(holder["pid"]), holder["host"]
    except (ValueError, KeyError, TypeError):
        return "unknown", raw
    if host != socket.gethostname():
        return "unknown", raw
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return "gone", raw
    except OSError:  # another user's process: alive
        return "live", raw
    return "live", raw


def shown_status(run: Path, status: str) -> str:
    """A run's status as a reader should see it: ``running`` whose writer has ended is
    a run that was stopped without recording it."""
    if status == "running" and writer_gone(run):
        return "stopped (run.json says running, but its writer has ended: killed or crashed)"
    return status
