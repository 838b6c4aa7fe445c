"""Contain a bot in Linux namespaces of its own (``tournament.contain_bots``).

A bot runs as the engine's user, and what the operating system lets such a process do,
it can do: read the config's root seed and rebuild every deal, signal another
entrant's bot, write into the run, pass its hand to its other processes through
``/tmp`` or a socket, leave a daemon behind (docs/protocol.md, what isolation does not
stop). Contained, it runs where none of that reaches:

- a **user namespace** mapping the engine's user to itself, which lets an
  unprivileged engine make the others (no root, no setuid helper);
- a **PID namespace**, with its own ``/proc``: the bot is process 2 under a small
  init (process 1, forked from the keeper), sees only its own processes and can
  signal no other; when the init exits, as soon as the bot has, the kernel kills
  every process left in the namespace, a daemon's double fork included;
- a **mount namespace**: every file system read-only (``mount_setattr``, recursively,
  Linux 5.12), so no file it writes reaches another process; an empty ``/dev/shm`` of
  its own, its only writable place (``TMPDIR`` names it); ``/run``, where the
  machine's services keep their sockets, covered, and so are the paths it must not
  read (the run folder, the config, the deal set): a folder by an empty read-only
  one, a file by ``/dev/null``. ``/tmp`` is read-only, not emptied: the engine, its
  virtual environment or the bot's own program may live there. Every Unix socket
  bound to a path on the machine (``/proc/net/unix``) is covered by ``/dev/null``:
  a read-only file system does not stop a connect, and Ray's raylet, a desktop's
  X server or a container engine listen so;
- a **network namespace** with no interface up (no TCP, no UDP, no abstract Unix
  socket shared with another bot) and an **IPC namespace** (no System V shared memory
  or message queue shared with one).

Not contained: CPU time and memory (the machine's limits, a cgroup, do that), and the
files the engine's user can read outside what is covered.

Only the standard library: the keeper (``bot_keeper``) loads this file by path, in a
process that must start in milliseconds. The keeper calls :func:`enter_user_and_pid`
in itself (its next child is the namespace's process 1) and :func:`seal` in that
child; a step the kernel refuses raises :class:`Refused`, naming it.
"""

from __future__ import annotations

import ctypes
import json
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
SYS_MOUNT_SETATTR = 442
"""The system call's number, the same on every architecture Linux added it to (5.12)."""

PRIVATE_FOLDER = "/dev/shm"
"""The folder the bot gets empty and writable, its own (``TMPDIR``)."""

COVERED_ALWAYS = ("/run",)
"""Folders hidden from every contained bot: the machine's services' sockets (a Unix
socket is reached by its path, whatever the network namespace)."""

PRIVATE_FOLDER_OPTIONS = b"size=256m,mode=1777"
"""The private folder is memory (tmpfs), capped: a bot cannot fill the machine's RAM
with it."""

REFUSED_PREFIX = "contain:"
"""How the keeper's status pipe says a step was refused (an errno alone: exec failed)."""


class Refused(Exception):
    """The kernel refused a step; ``str`` says which and why."""

    def __init__(self, step: str, errno: int) -> None:
        super().__init__(f"{step}: {os.strerror(errno)} (errno {errno})")
        self.step = step
        self.errno = errno


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _call(step: str, result: int) -> None:
    if result != 0:
        raise Refused(step, ctypes.get_errno())


def _write(path: str, text: str, step: str) -> None:
    try:
        with open(path, "w") as handle:
            handle.write(text)
    except OSError as exc:
        raise Refused(step, exc.errno or 0) from None


def enter_user_and_pid() -> None:
    """In the keeper: a user namespace mapping this user to itself, and a PID namespace
    that this process's next child enters as its process 1 (this one stays outside it,
    where the engine can see and signal it). Before ``PR_SET_DUMPABLE`` is cleared: a
    process that is not dumpable cannot write its own maps."""
    uid, gid = os.getuid(), os.getgid()
    _call("unshare(CLONE_NEWUSER | CLONE_NEWPID)",
          _libc().unshare(CLONE_NEWUSER | CLONE_NEWPID))
    _write("/proc/self/setgroups", "deny", "writing /proc/self/setgroups")
    _write("/proc/self/uid_map", f"{uid} {uid} 1", "writing /proc/self/uid_map")
    _write("/proc/self/gid_map", f"{gid} {gid} 1", "writing /proc/self/gid_map")


def seal(hidden: list[str]) -> None:
    """In the namespace's process 1, before it forks the bot: its own mounts, network
    and IPC; ``/proc`` of its PID namespace; the private folder; ``hidden`` and the
    machine's Unix sockets covered; every file system read-only but the private
    folder."""
    libc = _libc()
    sockets = _socket_paths()  # the machine's: read before the network is its own
    _call("unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC)",
          libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC))
    _call("making the mounts private", libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None))
    _call("mounting /proc", libc.mount(b"proc", b"/proc", b"proc",
                                       MS_NOSUID | MS_NODEV | MS_NOEXEC, None))
    _call(f"mounting a private {PRIVATE_FOLDER}",
          libc.mount(b"tmpfs", PRIVATE_FOLDER.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                     PRIVATE_FOLDER_OPTIONS))
    for path in [*COVERED_ALWAYS, *hidden]:
        _cover(libc, path)
    for path in sockets:
        _cover_socket(libc, path)
    _set_read_only(libc, "/", True, recursive=True)
    _set_read_only(libc, PRIVATE_FOLDER, False, recursive=False)
    # the working folder is held by its directory, not its name: a covered one (the run
    # folder, say) stays readable through "." until it is entered again by name
    try:
        os.chdir(os.getcwd())
    except OSError as exc:
        raise Refused("entering the working folder again", exc.errno or 0) from None


def _cover(libc: ctypes.CDLL, path: str) -> None:
    """Hide ``path`` from the bot: an empty read-only folder over a folder, ``/dev/null``
    over a file; a path that does not exist (on this node) has nothing to hide."""
    if os.path.isdir(path):
        _call(f"covering {path}", libc.mount(b"tmpfs", path.encode(), b"tmpfs",
                                             MS_RDONLY | MS_NOSUID | MS_NODEV, b"size=4k"))
    elif os.path.exists(path):
        _call(f"covering {path}", libc.mount(b"/dev/null", path.encode(), None, MS_BIND, None))


def _socket_paths() -> list[str]:
    """The paths Unix sockets are bound to in this network namespace (abstract ones,
    ``@...``, are the namespace's own and need no cover)."""
    try:
        with open("/proc/net/unix") as handle:
            lines = handle.read().splitlines()[1:]
    except OSError as exc:
        raise Refused("reading /proc/net/unix", exc.errno or 0) from None
    paths = {line.split(None, 7)[7] for line in lines if len(line.split(None, 7)) == 8}
    return sorted(path for path in paths if path.startswith("/"))


def _cover_socket(libc: ctypes.CDLL, path: str) -> None:
    """``/dev/null`` over the socket at ``path``: a connect is then refused. One gone
    since it was listed, or in a folder this user cannot enter, needs no cover."""
    if not os.path.exists(path) or os.path.isdir(path):
        return
    if libc.mount(b"/dev/null", path.encode(), None, MS_BIND, None) != 0:
        errno = ctypes.get_errno()
        if errno not in (2, 13):  # ENOENT, EACCES
            raise Refused(f"covering the socket {path}", errno)


def _set_read_only(libc: ctypes.CDLL, path: str, read_only: bool, recursive: bool) -> None:
    attr = _MountAttr(MOUNT_ATTR_RDONLY if read_only else 0,
                      0 if read_only else MOUNT_ATTR_RDONLY, 0, 0)
    flags = AT_RECURSIVE if recursive else 0
    _call(f"mount_setattr({path}, {'read-only' if read_only else 'writable'})",
          libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), flags,
                       ctypes.byref(attr), ctypes.sizeof(attr)))


def hidden_argument(hidden: list[str]) -> str:
    """The keeper's ``--contain`` value: the paths to cover, as JSON."""
    return json.dumps({"hidden": [os.path.abspath(path) for path in hidden]})


def hidden_paths(argument: str) -> list[str]:
    """The paths to cover, from the keeper's ``--contain`` value."""
    return [str(path) for path in json.loads(argument).get("hidden", [])]
