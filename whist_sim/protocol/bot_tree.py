"""The processes a bot started, found in ``/proc`` (Linux), to end with it.

A bot runs in a session of its own, which also holds what it starts in a process group
of its own (``setpgid``). A child that starts a session of its own (``setsid``) leaves
both, but it is still the bot's child, or its child's: it is found by its parents.
So every process of the bot's session and every descendant of the bot is found, and
found while the bot still runs: a bot that exits leaves its children to init, and
nothing then ties them to it. Without a keeper (``bot_keeper``: off Linux), what
escapes is a process whose parent exited before it was looked for, outside the
session (a daemon's double fork); under one, such a process is handed to the keeper,
a subreaper, and so is found here as a descendant of the keeper, whose pid is the
session's.

Each process found is kept with its start time (``/proc/PID/stat``, clock ticks since
boot), and is ended only if the process of that pid still has it: a pid found earlier
and reused since by another process is never signalled.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

PROC = Path("/proc")

Found = tuple[int, str]
"""A process found: its pid and its start time as ``/proc/PID/stat`` gives it."""


def _stat(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after ``pid (comm)``, from ``state`` on (index 1:
    ppid, 3: session, 19: start time), or None if the process is gone or not ours to read."""
    try:
        with open(f"{PROC}/{pid}/stat") as handle:
            text = handle.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return fields if len(fields) > 19 else None


def _processes() -> Iterator[tuple[int, int, str, str]]:
    """Every process readable in ``/proc``: pid, parent's pid, session, start time."""
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (fields := _stat(entry.name)) is not None:
            yield int(entry.name), int(fields[1]), fields[3], fields[19]


def started_by(bot: int) -> list[Found]:
    """The processes of session ``bot`` and the descendants of process ``bot`` (the bot's
    pid, which is its session's id), the bot left out; none where there is no ``/proc``.
    Call it while the bot's pid is still the bot's (before it is reaped)."""
    if not PROC.is_dir():
        return []
    children: dict[int, list[Found]] = {}
    found: dict[int, str] = {}
    for pid, parent, session, started in _processes():
        children.setdefault(parent, []).append((pid, started))
        if session == str(bot) and pid != bot:
            found[pid] = started
    waiting = [bot]
    while waiting:
        for pid, started in children.get(waiting.pop(), ()):
            if pid not in found:
                found[pid] = started
                waiting.append(pid)
    return sorted(found.items())


_CHILDREN_LISTED = os.path.exists(f"{PROC}/{os.getpid()}/task/{os.getpid()}/children")
"""Whether this kernel lists children in /proc: a process already gone lists nothing,
and is not then read as a kernel that lists none (a walk of every process)."""


def children_of(parent: int) -> list[int]:
    """The pids of ``parent``'s children: from ``/proc/PID/task/*/children``, or, where
    the kernel lists none there (built without ``CONFIG_PROC_CHILDREN``), from every
    process's parent; none where there is no ``/proc``. Read with plain ``os`` calls:
    ``BotProcess.hold`` walks a bot's tree with it."""
    tasks = f"{PROC}/{parent}/task"
    if os.path.exists(f"{tasks}/{parent}/children") or _CHILDREN_LISTED:
        found: list[int] = []
        with contextlib.suppress(OSError):
            for thread in os.listdir(tasks):  # each thread lists its own
                with (contextlib.suppress(OSError, ValueError),
                      open(f"{tasks}/{thread}/children", "rb") as handle):
                    found += [int(word) for word in handle.read().split()]
        return found
    if not PROC.is_dir():
        return []
    return [pid for pid, ppid, _, _ in _processes() if ppid == parent]


def ended(pid: int) -> bool:
    """Whether process ``pid`` has ended: gone, or a zombie its parent has not reaped."""
    fields = _stat(pid)
    return fields is None or fields[0] in ("Z", "X")


def stopped(bot: int) -> bool:
    """Whether process ``bot`` or a process it started is stopped (``/proc`` state ``T``,
    ``t``: SIGSTOP, a terminal's stop or a debugger): a timeout then is no slowness. Any
    process of the user can stop it (a hostile bot stopped its isolated opponent at every
    deal, which was charged its time and benched, a probe)."""
    return any((fields := _stat(pid)) is not None and fields[0] in ("T", "t")
               for pid in [bot, *(pid for pid, _ in started_by(bot))])


def wait_ended(pids: Iterable[int], seconds: float) -> None:
    """Wait until each of ``pids`` has ended, up to ``seconds``; a keeper
    (``bot_keeper``) told to stop is given so long to end what it holds."""
    waiting = list(pids)
    deadline = time.monotonic() + seconds
    while waiting and time.monotonic() < deadline:
        waiting = [pid for pid in waiting if not ended(pid)]
        if waiting:
            time.sleep(0.002)


def outside_group(root: int, group: int) -> list[Found]:
    """The processes below ``root`` (its children, theirs, and so on) that are not in
    process group ``group``: what a bot started in a group or a session of its own
    (``setpgid``, ``setsid``), which stopping the bot's group leaves running. Under a
    keeper, a subreaper, that is everything the bot started, orphans included. Read
    with ``os`` rather than ``pathlib``: it runs as a bot is held (``BotProcess.hold``)."""
    found: list[Found] = []
    waiting = children_of(root)
    while waiting and len(found) < MOST_FOUND:
        pid = waiting.pop()
        fields = _stat(pid)
        if fields is None:
            continue
        if fields[2] != str(group):
            found.append((pid, fields[19]))
        waiting += children_of(pid)
    return found


MOST_FOUND = 10_000
"""A fork bomb's tree is not walked for ever."""


def signal_all(found: Iterable[Found], signum: int) -> None:
    """Send ``signum`` to each process found that still runs under the pid it was found
    with (a pid reused since by another process is never signalled)."""
    for pid, started in found:
        fields = _stat(pid)
        if fields is not None and fields[19] == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signum)


def end_all(found: Iterable[Found]) -> None:
    """SIGKILL each process found that still runs under the pid it was found with."""
    signal_all(found, signal.SIGKILL)
