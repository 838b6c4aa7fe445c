"""Strategies that attack the process they run in, to test that a tournament survives them.

Each plays like ``random`` except on the deals where it holds the ace of spades at its
first decision (about half of them), where it does its damage; so a test can check that
exactly those deals are forfeited and every other deal and pairing completes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from random import Random
from typing import Any

from strategies.random_play import RandomStrategy
from whist_sim.cards import parse_card

GAMES = frozenset({"german_whist"})
ACE_OF_SPADES = parse_card("AS")


def triggered(view: Any) -> bool:
    """The first decision of a deal (leading or following) in which this seat holds the ace
    of spades: about a quarter of the hands it plays."""
    first = not view.tricks and len(view.trick) == (0 if view.leader == view.seat else 1)
    return bool(first and view.hand >> ACE_OF_SPADES & 1)


class _Hostile(RandomStrategy):
    games = GAMES

    def choose(self, view: Any, rng: Random) -> int:
        if triggered(view):
            self.attack()
        return super().choose(view, rng)

    def attack(self) -> None:
        raise NotImplementedError


class RaisesOnTrigger(_Hostile):
    """The harmless twin: an ordinary exception on the same deals (the reference)."""

    def attack(self) -> None:
        raise ValueError("the twin's ordinary failure")


class ExitsTheProcess(_Hostile):
    def attack(self) -> None:
        os._exit(1)


class CallsSysExit(_Hostile):
    def attack(self) -> None:
        sys.exit(3)


class RaisesKeyboardInterrupt(_Hostile):
    def attack(self) -> None:
        raise KeyboardInterrupt


class _Escape(BaseException):
    pass


class RaisesBaseException(_Hostile):
    def attack(self) -> None:
        raise _Escape("not an Exception")


class _Unprintable(Exception):
    """An exception whose text cannot be made: its forfeit's reason still can."""

    def __str__(self) -> str:
        raise RuntimeError("str fails")

    def __repr__(self) -> str:
        raise RuntimeError("repr fails")


class RaisesUnprintable(_Hostile):
    def attack(self) -> None:
        raise _Unprintable()


class RaisesGeneratorExit(_Hostile):
    def attack(self) -> None:
        raise GeneratorExit


class StartsThreads(_Hostile):
    """Starts 300 threads that never end, then thinks for a second (so the supervisor,
    which polls the thread count, finds them in this seat's decision)."""

    def attack(self) -> None:
        import threading

        for _ in range(300):
            threading.Thread(target=time.sleep, args=(600,)).start()
        time.sleep(1.0)


SLEEPER_SECONDS = "61.2345"
"""How long a ForksSleepers child sleeps by default: its command line finds it."""


class ForksSleepers(RandomStrategy):
    """Forks a process that sleeps about a minute at its first decision of each deal.
    ``seconds``: how long, as ``sleep`` reads it; a test gives a number of its own, so
    that ``pgrep`` finds its sleepers and not those of the same test in another run on
    the machine."""

    games = GAMES

    def __init__(self, seconds: str = SLEEPER_SECONDS) -> None:
        self.seconds = seconds

    def choose(self, view: Any, rng: Random) -> int:
        first = not view.tricks and len(view.trick) == (0 if view.leader == view.seat else 1)
        if first and os.fork() == 0:  # the forked process: replaced by a sleeper
            os.execv("/bin/sleep", ["sleep", self.seconds])
        return super().choose(view, rng)


class KillsItsProcess(_Hostile):
    def attack(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)


class EatsMemory(_Hostile):
    """Allocates 64 MiB blocks, touched so they are resident, until something stops it."""

    def attack(self) -> None:
        hoard = []
        while True:
            hoard.append(bytearray(64 << 20))


class SwitchesOffTheAlarm(_Hostile):
    """Cancels the process's interval timer and ignores SIGALRM (the decision alarm's
    signal, whichever timer sends it), then never returns."""

    def attack(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            time.sleep(0.01)


class SwallowsEverything(_Hostile):
    """Busy-loops, catching every exception the alarm or anything else raises."""

    def attack(self) -> None:
        while True:
            with contextlib.suppress(BaseException):
                while True:
                    pass


class PrintsALot(RandomStrategy):
    """Prints 8 MB at every decision, through Python and below it."""

    games = GAMES
    block = "x" * (8 << 20)

    def choose(self, view: Any, rng: Random) -> int:
        print(self.block)
        os.write(2, b"y" * (1 << 20))
        return super().choose(view, rng)


class HugeError(_Hostile):
    """Raises an error whose text is 50 MB long."""

    def attack(self) -> None:
        raise ValueError("z" * (50 << 20))


class ReportsDumpable(RandomStrategy):
    """Writes, at its first decision, whether the process it plays in is dumpable
    (``prctl(PR_GET_DUMPABLE)``) to ``path``: a supervised child must not be, or a bot it
    starts can open its descriptors through ``/proc``."""

    games = GAMES

    def __init__(self, path: str) -> None:
        self.path = path

    def choose(self, view: Any, rng: Random) -> int:
        if not os.path.exists(self.path):
            import ctypes

            with open(self.path, "w") as out:
                out.write(str(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)))  # PR_GET_DUMPABLE
        return super().choose(view, rng)


class MimicsTheBench(_Hostile):
    """Fails with the words the runner uses for a table of benched entrants."""

    def attack(self) -> None:
        from whist_sim.play import EVERY_SEAT_FORFEITS

        raise ValueError(EVERY_SEAT_FORFEITS)
