"""run.json ``totals`` kept up to date while a session plays, so a killed session still counts.

Totals written only at the end of a session lose every session that never
reaches its end (``kill -9``, a lost node, a power cut): a run resumed three
times would report the wall time of its last session alone. The clock adds the
session's seconds to the totals the run had when the session started, and writes
them every ``every`` seconds as tasks are committed, and at the end.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

TOTALS_EVERY = 1.0
"""Seconds between two writes of run.json: a kill loses at most this much of the totals.
(A write costs well under a millisecond, but a commit can come every few milliseconds.)"""


class _Meta(Protocol):
    def meta(self) -> dict[str, Any]: ...
    def update_meta(self, **changes: Any) -> dict[str, Any]: ...


class SessionClock:
    """Wall and task seconds of this session, added to the run's earlier totals."""

    def __init__(self, folder: _Meta, every: float | None = None,
                 also: Callable[[], dict[str, Any]] | None = None) -> None:
        """``every``: seconds between writes (default ``TOTALS_EVERY``); ``also``: more
        run.json keys to write with the totals (say, decision counts that, like the
        totals, cover the sessions so far)."""
        before = folder.meta().get("totals") or {}
        self._folder = folder
        self._wall_before = float(before.get("wall_seconds", 0.0))
        self._task_before = float(before.get("task_seconds", 0.0))
        self._every = TOTALS_EVERY if every is None else every
        self._also = also
        self._started = self._written = time.perf_counter()
        self.task_seconds = 0.0
        """Seconds the tasks committed in this session took to play."""

    def add_task(self, seconds: float) -> None:
        """Count a committed task; write the totals if the last write is ``every`` old."""
        self.task_seconds += seconds
        if time.perf_counter() - self._written >= self._every:
            self.write()

    def totals(self) -> dict[str, float]:
        """The run's totals as of now, this session included."""
        return {
            "wall_seconds": self._wall_before + time.perf_counter() - self._started,
            "task_seconds": self._task_before + self.task_seconds,
        }

    def write(self) -> None:
        self._written = time.perf_counter()
        self._folder.update_meta(totals=self.totals(), **(self._also() if self._also else {}))
