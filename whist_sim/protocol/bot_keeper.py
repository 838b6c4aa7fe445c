"""The keeper: a small process that starts one bot, outlives it, and ends all it left (Linux).

Run by ``bot_process`` as ``python -I -S bot_keeper.py STATUS_FD COMMAND...``, in the
session of its own a bot used to get. It marks itself a child subreaper
(``PR_SET_CHILD_SUBREAPER``): a process the bot started whose parent exits is then
handed to the keeper, not to init. A daemon's double fork (fork, ``setsid``, fork,
the middle child exits) no longer leaves a process that nothing ties to the bot: it
is the keeper's child, found in ``/proc/<keeper>/task/*/children``.

It starts the bot with its own stdin, stdout and stderr (the engine's pipes), so the
protocol's lines never pass through it, then lets go of those pipes: a bot that closes
its stdout is seen to close it. It reaps what it adopts as it ends, and when the bot
exits, or it is told to stop (SIGTERM, from the engine or as its parent-death signal),
it kills every process below it until none is left, and exits as the bot did: the same
code, or killed by the same signal, so the engine words the bot's end as before.

Run as ``... STATUS_FD --contain JSON COMMAND...``, it contains the bot
(``bot_containment``, ``tournament.contain_bots``): the keeper enters a user namespace
and makes a PID namespace, whose process 1 is its child, a small init, which seals
the mounts, network and IPC, forks the bot (process 2), reaps what is left to it,
and tells the keeper how the bot ended (an init cannot end itself by the bot's
signal: the kernel shields process 1 from its own namespace). The kernel kills what
remains in the namespace as the init exits. A step the kernel refuses is written to
STATUS_FD after ``bot_containment.REFUSED_PREFIX``, naming it.

The bot (or, contained, its init) leads a process group of its own, which the keeper
is not in: the engine stops that group between the bot's decisions
(``BotProcess.hold``), and the keeper, never stopped, still ends it all when the engine
dies.

Only the standard library, and run by path with ``-I -S``: importing ``whist_sim`` cost
a start 200 ms and 40 MB; this costs about 25 ms and 11 MB. ``-I`` also keeps the
bot's ``PYTHON*`` variables from changing the keeper. The bot gets the environment the
keeper was started with, read from ``/proc/self/environ`` (Python may set
``LC_CTYPE`` in its own at start-up). Whether its command could be run is written to
STATUS_FD: nothing (the descriptor closes as ``execve`` succeeds) or the ``errno``.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys
import time
from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

EXEC_FAILED = 127
"""The bot's exit code when its command could not be run (the engine says why)."""


TOLD_TO_STOP = signal.SIGTERM
"""The engine ends the bot, or the keeper's parent died (its parent-death signal)."""

WATCHED = (TOLD_TO_STOP, signal.SIGCHLD)
"""Blocked in the keeper from before the bot is forked, and taken by ``sigwaitinfo``."""


def _prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL(None).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _environment() -> dict[bytes, bytes]:
    """The environment this process was started with (before Python changed any of it)."""
    with open("/proc/self/environ", "rb") as handle:
        pairs = handle.read().split(b"\0")
    return dict(pair.split(b"=", 1) for pair in pairs if b"=" in pair)


def _become_bot(command: list[str], env: dict[bytes, bytes], status_fd: int) -> None:
    """In the forked child: the signals as ``subprocess`` leaves them, the engine's
    parent-death signal, then the bot; on failure, the errno to STATUS_FD."""
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for name in ("SIGPIPE", "SIGXFSZ"):  # Python ignores them; exec would keep that
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the bot dies with its keeper
        os.execvpe(command[0], command, env)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.write(status_fd, str(exc.errno or 0).encode())
    finally:
        os._exit(EXEC_FAILED)


def _containment() -> Any:
    """``bot_containment``, loaded from beside this file (``-I`` leaves this file's folder
    off ``sys.path``, and importing ``whist_sim`` is what the keeper avoids)."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bot_containment.py")
    spec = importlib.util.spec_from_file_location("bot_containment", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _refused(status_fd: int, exc: Exception) -> None:
    """Say which step of containment the kernel refused, then end as a failed exec."""
    with contextlib.suppress(OSError):
        os.write(status_fd, f"{_CONTAINMENT.REFUSED_PREFIX}{exc}".encode())
    os._exit(EXEC_FAILED)


def _become_init(command: list[str], env: dict[bytes, bytes], status_fd: int,
                 hidden: list[str], report_fd: int) -> None:
    """In the forked child, process 1 of the bot's PID namespace: seal the namespace,
    fork the bot, reap until the bot ends, and write its wait status to ``report_fd``.
    Its exit then ends every process left in the namespace."""
    try:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the keeper decides; it kills
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # a keeper killed takes the namespace
        try:
            _CONTAINMENT.seal(hidden)
        except _CONTAINMENT.Refused as exc:
            _refused(status_fd, exc)
        env = {**env, b"TMPDIR": _CONTAINMENT.PRIVATE_FOLDER.encode()}
        try:
            bot = os.fork()
        except OSError as exc:
            os.write(status_fd, str(exc.errno or 0).encode())
            os._exit(EXEC_FAILED)
        if bot == 0:
            _become_bot(command, env, status_fd)
        os.close(status_fd)
        _let_go_of_the_pipes()
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
        while True:
            reaped, code = os.waitpid(-1, 0)
            if reaped == bot:
                os.write(report_fd, str(code).encode())
                break
    finally:
        os._exit(0)


def _reported(report_fd: int, status: int) -> int:
    """The bot's wait status as its init wrote it, or the init's own (killed before)."""
    said = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(report_fd, 64):
            said += chunk
    return int(said) if said.strip().isdigit() else status


_CONTAINMENT: Any = None
"""``bot_containment``, loaded when the bot is contained."""


def _let_go_of_the_pipes() -> None:
    """Point stdin, stdout and stderr at /dev/null: the keeper holds no end of the
    engine's pipes, so they close when the bot's last process closes them."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError, ValueError):
        for thread in os.listdir(f"/proc/{pid}/task"):  # each thread lists its own
            with open(f"/proc/{pid}/task/{thread}/children") as handle:
                found += [int(word) for word in handle.read().split()]
    return found


def _parents() -> dict[int, list[int]]:
    """Every readable process's children, from each one's ``/proc/PID/stat``: where a
    kernel lists no ``children`` (built without ``CONFIG_PROC_CHILDREN``)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat") as handle:
                    text = handle.read()
                parent = int(text[text.rfind(")") + 2:].split()[1])
                children.setdefault(parent, []).append(int(entry))
    return children


def _below(me: int) -> list[int]:
    """Every process below this one: children, theirs, and so on."""
    listed = os.path.exists(f"/proc/{me}/task/{me}/children")
    table = None if listed else _parents()
    found, waiting = [], [me]
    while waiting:
        pid = waiting.pop()
        children = _children(pid) if table is None else table.get(pid, [])
        found += children
        waiting += children
    return found


def _wait_for_the_bot() -> int | None:
    """Reap what the keeper adopted as it ends, until the bot ends (its wait status) or
    the keeper is told to stop (None).

    Both signals stay blocked and are taken here, where the keeper asks for them, never
    by a handler. A handler's exception is raised wherever Python next looks for signals:
    under a full test run's load the SIGTERM of a supervisor that had just killed the bot
    (SIGKILL) once landed after the bot was reaped, outside the code that caught it. The
    keeper died of it with code 1 (its stderr is /dev/null), and the forfeit said the
    bot had exited with code 1."""
    while True:
        try:
            reaped, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # nothing left to wait for: the bot was reaped elsewhere
            return None
        if reaped == _bot:
            return code
        if reaped == 0 and signal.sigwaitinfo(WATCHED).si_signo == TOLD_TO_STOP:
            return None


def _end_everything_below() -> int | None:
    """SIGKILL every process below this one, and reap, until it has no child left: one
    that forks as it is killed leaves its child to this process, found at the next
    round. Returns the bot's wait status if it is reaped here."""
    signal.signal(TOLD_TO_STOP, signal.SIG_IGN)  # told twice: already stopping
    me = os.getpid()
    status = None
    while True:
        for pid in _below(me):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        try:
            reaped, code = os.waitpid(-1, 0)
        except ChildProcessError:
            return status
        if reaped == _bot:
            status = code


def _exit_as(status: int | None) -> None:
    """End this process as the bot's wait status says: its exit code, or its signal
    (re-raised here, with no core dump: the bot's own dump was its business)."""
    if status is None or os.WIFSIGNALED(status):
        number = signal.SIGKILL if status is None else os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(OSError, ValueError):  # SIGKILL's cannot be set
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, (number,))
        os.kill(os.getpid(), number)
        time.sleep(0.1)  # a signal whose default is not to end a process: a code instead
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))


_bot = 0
"""The bot's pid, once forked."""


def main(argv: list[str]) -> None:
    global _bot, _CONTAINMENT
    status_fd, command = int(argv[0]), argv[1:]
    # first: once it is not dumpable, a process's /proc files are root's, and only root
    # could read this one (no bot of another user started)
    env = _environment()
    hidden = None
    report_r = report_w = -1
    if command[:1] == ["--contain"]:
        _CONTAINMENT = _containment()
        hidden, command = _CONTAINMENT.hidden_paths(command[1]), command[2:]
        try:
            _CONTAINMENT.enter_user_and_pid()  # first: a new user's credentials clear prctls
        except _CONTAINMENT.Refused as exc:
            _refused(status_fd, exc)
        report_r, report_w = os.pipe()
    signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)  # before its parent can die unseen
    _prctl(PR_SET_PDEATHSIG, TOLD_TO_STOP)  # was SIGKILL: now the keeper cleans up
    _prctl(PR_SET_CHILD_SUBREAPER, 1)  # failing (an old kernel), the bot is kept as before
    _prctl(PR_SET_DUMPABLE, 0)  # a bot of the same user cannot trace it into doing less
    os.set_inheritable(status_fd, False)  # closed in the bot as its exec succeeds
    try:
        _bot = os.fork()
    except OSError as exc:  # said as Popen would have said it
        os.write(status_fd, str(exc.errno or 0).encode())
        os._exit(EXEC_FAILED)
    if _bot == 0:
        # a process group of its own, the keeper outside it: the engine stops the
        # group between decisions (tournament.pause_bots), and a stopped keeper
        # would not end the bot when the engine dies (its SIGTERM waits for a SIGCONT)
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)
        if hidden is None:
            _become_bot(command, env, status_fd)
        os.close(report_r)
        _become_init(command, env, status_fd, hidden, report_w)
    os.close(status_fd)
    if hidden is not None:
        os.close(report_w)
    _let_go_of_the_pipes()
    status = _wait_for_the_bot()
    if status is not None and hidden is not None:
        status = _reported(report_r, status)
    swept = _end_everything_below()
    _exit_as(status if swept is None else swept)


if __name__ == "__main__":
    main(sys.argv[1:])
