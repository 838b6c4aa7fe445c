"""Where a run's tasks are played: in this process, or on Ray workers.

Both executors take ``TaskSpec`` objects and hand back their results one at a
time in completion order; the runner does not know which one it has, so a run's
rows are the same either way (a row depends only on its line-up, deal and
rotation). Told where the run folder is (``store_to``), an executor has each
task's unit written where the task was played and hands back a ``StoredTask``
for the runner to name (``unit_writing``); it also merges units into batches
(``submit_merge``), on a worker under Ray.

- ``InProcessExecutor`` plays tasks one after another in the calling process. It
  starts in milliseconds where an embedded Ray takes seconds, so small runs
  finish before Ray would have started. The price is containment: a strategy
  that ends or crashes the process ends the run with it, and nothing stands
  between the strategy and the driver's memory. That is why the runner picks it
  on its own only for small runs of whist_sim's built-in strategies
  (``runner.choose_executor``; docs/cluster.md).
- ``RayExecutor`` ships tasks to Ray workers (an embedded Ray on loopback, or a
  cluster) and waits for whichever finishes first.

Ray is imported only by the Ray executor, so an in-process run never pays for it.
"""

from __future__ import annotations

import contextlib
import sys
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from whist_sim.play import StrategyFailure
from whist_sim.store import UnitRecord
from whist_sim.tournament.bots import close_bots
from whist_sim.tournament.unit_writing import (
    MergedBatch,
    StoredTask,
    UnitTarget,
    merge_batch,
    play_and_store,
    store_task,
)
from whist_sim.tournament.worker import TaskResult, TaskSpec, play_task

Finished = TaskResult | StoredTask | MergedBatch
"""What an executor hands back: a task's tables, a task's unit written, or a batch."""


class Executor(Protocol):
    """Plays tasks; the runner keeps at most ``2 * slots`` of them submitted."""

    slots: int
    """Tasks that can play at the same time (CPUs of the Ray cluster, 1 in process)."""
    where: str
    """"in process" or "ray", for run.json and the console."""
    merging: int
    """Merges submitted and not yet handed back."""

    def store_to(self, target: UnitTarget) -> None:
        """Write each task's unit into this run folder where the task is played."""
        ...

    def submit(self, spec: TaskSpec) -> None: ...

    def submit_merge(self, batch: str, group: Mapping[str, UnitRecord]) -> MergedBatch | None:
        """Merge ``group`` into ``batch``: done at once (the batch returned) or later (handed
        back by ``next_result``)."""
        ...

    def next_result(self) -> Finished:
        """The next finished task or merge; raises ``StrategyFailure`` if a strategy aborted
        the run."""
        ...

    def ready_results(self) -> list[Finished]:
        """Every task or merge already finished, without waiting (a group commit's extra)."""
        ...

    def cancel(self) -> None:
        """Drop every submitted task that has not been handed back (merges go on)."""
        ...


class InProcessExecutor:
    """Plays each submitted task in this process when its result is asked for."""

    slots = 1
    where = "in process"
    merging = 0

    def __init__(self) -> None:
        self._queue: deque[TaskSpec] = deque()
        self._target: UnitTarget | None = None

    def store_to(self, target: UnitTarget) -> None:
        self._target = target

    def submit(self, spec: TaskSpec) -> None:
        self._queue.append(spec)

    def submit_merge(self, batch: str, group: Mapping[str, UnitRecord]) -> MergedBatch:
        assert self._target is not None, "store_to names the run folder first"
        return merge_batch(self._target, batch, group)

    def next_result(self) -> Finished:
        return store_task(play_task(self._queue.popleft()), self._target)

    def ready_results(self) -> list[Finished]:
        return []  # a task here plays only when asked for

    def cancel(self) -> None:
        self._queue.clear()


class RayExecutor:
    """Ships tasks to Ray workers, spread over every node."""

    where = "ray"

    def __init__(self, slots: int) -> None:
        import ray

        self.slots = slots
        self._ray = ray
        # SPREAD: tasks go to every node from the start instead of filling the node
        # whose workers happen to be warm first. Each worker plays its tasks in a
        # supervised child (sandbox), so a strategy's crash costs a deal, not the run.
        remote = ray.remote(num_cpus=1, scheduling_strategy="SPREAD")
        self._play = remote(play_and_store)
        self._merge = ray.remote(num_cpus=1)(merge_batch)
        self._target: UnitTarget | None = None
        self._in_flight: dict[Any, int] = {}
        self._merges: dict[Any, str] = {}

    @property
    def merging(self) -> int:
        return len(self._merges)

    def store_to(self, target: UnitTarget) -> None:
        self._target = target

    def submit(self, spec: TaskSpec) -> None:
        self._in_flight[self._play.remote(spec, self._target)] = spec.task

    def submit_merge(self, batch: str, group: Mapping[str, UnitRecord]) -> None:
        assert self._target is not None, "store_to names the run folder first"
        self._merges[self._merge.remote(self._target, batch, dict(group))] = batch

    def next_result(self) -> Finished:
        ready, _ = self._ray.wait([*self._in_flight, *self._merges], num_returns=1)
        return self._get(ready[0])

    def ready_results(self) -> list[Finished]:
        pending = [*self._in_flight, *self._merges]
        if not pending:
            return []
        ready, _ = self._ray.wait(pending, num_returns=len(pending), timeout=0)
        return [self._get(ref) for ref in ready]

    def _get(self, ref: Any) -> Finished:
        ray = self._ray
        self._in_flight.pop(ref, None)
        self._merges.pop(ref, None)
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, StrategyFailure | OSError):
                raise cause from None  # on_error = "abort", a full disk: one clear line
            raise

    def cancel(self) -> None:
        for ref in self._in_flight:
            with contextlib.suppress(Exception):  # a task that just finished cannot be cancelled
                self._ray.cancel(ref)
        self._in_flight.clear()


@contextlib.contextmanager
def open_executor(in_process: bool, address: str | None, workers: int | None) -> Iterator[Executor]:
    """The executor for a run: in this process, or Ray (joined or embedded) for the run's length."""
    if in_process:
        try:
            yield InProcessExecutor()
        finally:
            close_bots()  # the bots this process started for isolated entrants
        return
    from whist_sim.tournament.cluster import ray_session

    # the bots of the timing sample, played in this process (built-in entrants, isolated):
    # the workers start their own, and these sat idle in the driver for the whole run
    # (ten isolated entrants' were 1 GB)
    close_bots()
    with ray_session(address, workers) as slots:
        yield RayExecutor(slots)


def ray_running() -> bool:
    """Ray is already initialised in this process (a notebook, a test session)."""
    ray = sys.modules.get("ray")
    return bool(ray is not None and ray.is_initialized())
