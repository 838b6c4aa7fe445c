"""Where a run's tasks are played: in this process, or on Ray workers.

Both executors take ``TaskSpec`` objects and hand back ``TaskResult`` objects
one at a time in completion order; the runner does not know which one it has,
so a run's rows are the same either way (a row depends only on its line-up,
deal and rotation).

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
from collections.abc import Iterator
from typing import Any, Protocol

from whist_sim.play import StrategyFailure
from whist_sim.tournament.bots import close_bots
from whist_sim.tournament.sandbox import play_task_supervised
from whist_sim.tournament.worker import TaskResult, TaskSpec, play_task


class Executor(Protocol):
    """Plays tasks; the runner keeps at most ``2 * slots`` of them submitted."""

    slots: int
    """Tasks that can play at the same time (CPUs of the Ray cluster, 1 in process)."""
    where: str
    """"in process" or "ray", for run.json and the console."""

    def submit(self, spec: TaskSpec) -> None: ...

    def next_result(self) -> TaskResult:
        """The next finished task; raises ``StrategyFailure`` if a strategy aborted the run."""
        ...

    def cancel(self) -> None:
        """Drop every submitted task that has not been handed back."""
        ...


class InProcessExecutor:
    """Plays each submitted task in this process when its result is asked for."""

    slots = 1
    where = "in process"

    def __init__(self) -> None:
        self._queue: deque[TaskSpec] = deque()

    def submit(self, spec: TaskSpec) -> None:
        self._queue.append(spec)

    def next_result(self) -> TaskResult:
        return play_task(self._queue.popleft())

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
        self._remote = remote(play_task_supervised)
        self._in_flight: dict[Any, int] = {}

    def submit(self, spec: TaskSpec) -> None:
        self._in_flight[self._remote.remote(spec)] = spec.task

    def next_result(self) -> TaskResult:
        ray = self._ray
        ready, _ = ray.wait(list(self._in_flight), num_returns=1)
        ref = ready[0]
        self._in_flight.pop(ref)
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, StrategyFailure):
                raise cause from None  # on_error = "abort": one clear line, not a traceback
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

    with ray_session(address, workers) as slots:
        yield RayExecutor(slots)


def ray_running() -> bool:
    """Ray is already initialised in this process (a notebook, a test session)."""
    ray = sys.modules.get("ray")
    return bool(ray is not None and ray.is_initialized())
