"""The supervised child of ``sandbox``: plays the tasks it is sent, one after another.

Started as ``python -m whist_sim.tournament.sandbox_child HEARTBEAT_FD IN_FD OUT_FD``.
It reads pickled ``TaskSpec`` objects from IN_FD, plays each with ``play_task``
(reporting to the heartbeat, strategies' ``BaseException`` contained), and writes
back ``("result", TaskResult)``, ``("abort", (seat, message))`` when a strategy
failed under ``on_error = "abort"``, or ``("error", traceback)`` for anything else.

It ignores Ctrl-C (the driver handles it) and asks the kernel to kill it when its
supervisor dies, so no orphan plays on.
"""

from __future__ import annotations

import contextlib
import ctypes
import pickle
import signal
import sys
import traceback
from multiprocessing.connection import Connection

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # a libc without prctl
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _out_of_the_bots_reach() -> None:
    """Make this process not dumpable (Linux): its ``/proc/<pid>/fd`` and ``mem`` are then
    closed to other processes of the same user that lack CAP_SYS_PTRACE. The bots it
    starts are such processes, and through ``/proc/<their parent>/fd`` an attacker's
    bot wrote into this child's pipe to its supervisor, which unpickles what it reads
    there: code of the bot's choosing ran in the engine (a hostile bot author's probe).
    ``status``, ``statm`` and ``task/*/children``, which the supervisor reads, stay
    readable. Root, and a bot run as root, keep every access: docs/protocol.md says to
    run untrusted bots under a user of their own."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    _out_of_the_bots_reach()
    from whist_sim.play import StrategyFailure
    from whist_sim.tournament.sandbox import Heartbeat
    from whist_sim.tournament.signed_frames import ForgedFrame, signed, verified
    from whist_sim.tournament.worker import play_task

    heartbeat = Heartbeat(int(argv[0]))
    inbox = Connection(int(argv[1]), writable=False)
    outbox = Connection(int(argv[2]), readable=False)
    try:
        key = inbox.recv_bytes()  # the supervisor's first frame (signed_frames)
    except EOFError:
        return 0
    while True:
        try:
            frame = inbox.recv_bytes()
        except EOFError:
            return 0
        try:
            spec = pickle.loads(verified(key, frame, "the supervised child's input pipe"))
        except ForgedFrame as forged:  # never unpickled; the supervisor sees this child die
            print(forged, file=sys.stderr, flush=True)
            return 3
        try:
            reply = ("result", play_task(spec, monitor=heartbeat, contain=True))
        except StrategyFailure as exc:
            reply = ("abort", (exc.seat, exc.message))
        except Exception:  # an engine or plug-in-loading error: the task fails, loudly
            reply = ("error", traceback.format_exc())
        outbox.send_bytes(signed(key, pickle.dumps(reply)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
