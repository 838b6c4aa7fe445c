"""A one-shot timer whose signal goes to the thread that made it, for the decision clock.

Why not ``signal.setitimer``: its SIGALRM is meant for the process, and Linux may
hand a process's signal to any of its threads that does not block it. A run has
threads besides the one deciding (numpy's, Polars', pyarrow's, Ray's), and a
signal taken by one of them leaves the deciding thread asleep: the Python handler
then runs only when the decision returns by itself. A probe saw a 0.3 s sleep
under a 0.1 s limit stopped at 0.300 s in about one decision in twenty;
``strace -f`` showed those SIGALRMs taken by another thread.

On 64-bit Linux, ``timer_create`` with ``SIGEV_THREAD_ID`` names the thread the
signal goes to; Python's ``signal`` module does not offer it, so it is called
through ctypes. Elsewhere (macOS, the BSDs, a libc without it) the timer falls
back to ``setitimer``, as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import signal
import sys
import threading
from typing import Protocol

CLOCK_MONOTONIC = 1
SIGEV_THREAD_ID = 4
"""From <linux/time.h> and <asm-generic/siginfo.h>: the same on every Linux architecture."""


class SignalTimer(Protocol):
    """A one-shot timer that raises ``signum`` in its thread once ``seconds`` have passed."""

    directed: bool
    """Whether the signal goes to the thread that made the timer (not any of the process)."""

    def set(self, seconds: float) -> None:
        """Ring once after ``seconds`` (> 0), or never (``math.inf``): replaces any setting."""

    def remaining(self) -> float:
        """Seconds until it rings (0: it is off)."""

    def close(self) -> None:
        """Switch it off and give it back."""


class ProcessTimer:
    """``setitimer(ITIMER_REAL)``: SIGALRM for the whole process (any thread may take it)."""

    directed = False

    def set(self, seconds: float) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0 if seconds == math.inf else max(seconds, 1e-6))

    def remaining(self) -> float:
        return signal.getitimer(signal.ITIMER_REAL)[0]

    def close(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _ITimerSpec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


class _SigEvent(ctypes.Structure):
    """glibc's ``struct sigevent`` on 64-bit Linux: 64 bytes, the thread id first in the
    union after the value, signal number and notification kind."""

    _fields_ = [("sigev_value", ctypes.c_void_p), ("sigev_signo", ctypes.c_int),
                ("sigev_notify", ctypes.c_int), ("tid", ctypes.c_int),
                ("_pad", ctypes.c_int * 11)]


def _posix_timers() -> ctypes.CDLL | None:
    """The C library holding ``timer_create`` (libc from glibc 2.34, librt before), or None
    where this module does not know the structures' layout."""
    if not sys.platform.startswith("linux") or sys.maxsize <= 2**32:
        return None
    for name in (None, ctypes.util.find_library("rt")):
        try:
            library = ctypes.CDLL(name, use_errno=True)
            library.timer_create  # noqa: B018 - the lookup is the test
        except (OSError, AttributeError):
            continue
        library.timer_create.argtypes = [ctypes.c_int, ctypes.POINTER(_SigEvent),
                                         ctypes.POINTER(ctypes.c_void_p)]
        library.timer_settime.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                          ctypes.POINTER(_ITimerSpec),
                                          ctypes.POINTER(_ITimerSpec)]
        library.timer_gettime.argtypes = [ctypes.c_void_p, ctypes.POINTER(_ITimerSpec)]
        library.timer_delete.argtypes = [ctypes.c_void_p]
        return library
    return None


_LIBRARY = _posix_timers()


class ThreadTimer:
    """A POSIX timer on the monotonic clock whose signal goes to one thread (Linux)."""

    directed = True

    def __init__(self, signum: int, thread_id: int, library: ctypes.CDLL) -> None:
        self._library = library
        self._id = ctypes.c_void_p()
        event = _SigEvent(sigev_signo=signum, sigev_notify=SIGEV_THREAD_ID, tid=thread_id)
        if library.timer_create(CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(self._id)):
            raise OSError(ctypes.get_errno(), "timer_create failed")
        self._spec = _ITimerSpec()
        self._closed = False

    def set(self, seconds: float) -> None:
        value = self._spec.it_value
        if seconds == math.inf:
            value.tv_sec = value.tv_nsec = 0
        else:
            whole = math.floor(seconds)
            value.tv_sec = whole
            value.tv_nsec = max(int((seconds - whole) * 1e9), 0 if whole else 1000)
        if self._library.timer_settime(self._id, 0, ctypes.byref(self._spec), None):
            raise OSError(ctypes.get_errno(), "timer_settime failed")

    def remaining(self) -> float:
        now = _ITimerSpec()
        self._library.timer_gettime(self._id, ctypes.byref(now))
        return now.it_value.tv_sec + now.it_value.tv_nsec / 1e9

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._library.timer_delete(self._id)


def thread_timer(signum: int = signal.SIGALRM) -> SignalTimer:
    """A timer whose ``signum`` goes to the calling thread where the system allows it;
    otherwise SIGALRM from ``setitimer``, for the process."""
    if _LIBRARY is not None:
        try:
            return ThreadTimer(signum, threading.get_native_id(), _LIBRARY)
        except OSError:  # a sandbox that forbids the call: the process timer still works
            pass
    if signum != signal.SIGALRM:
        raise ValueError("without POSIX thread timers only SIGALRM can be timed")
    return ProcessTimer()
