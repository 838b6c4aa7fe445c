"""The supervisor and its child stay in step whatever interrupts a task.

A clean clone's suite failed with "task 5: its process replied for task 9": Ray
cancelled task 9 (its entrant benched) just after the spec was written to the
child and before the supervisor began to wait, so the child played task 9 and
its reply met the next task. These tests interrupt each step of the exchange.
"""

from __future__ import annotations

import pytest

from whist_sim.tournament.sandbox import Supervisor
from whist_sim.tournament.schedule import Plan
from whist_sim.tournament.worker import TaskSpec


def _spec(task: int) -> TaskSpec:
    return TaskSpec(task=task, game="german_whist", variant={}, players=None, root_seed=3,
                    plan=Plan(pairings=1, deals=10, deals_per_task=1), lineups=[("a", "random")],
                    strategies={"a": ("random", {}), "random": ("random", {})},
                    time_limit=5.0, on_error="forfeit")


@pytest.fixture
def supervisor():
    made = Supervisor()
    yield made
    made.close()


def _interrupt_after_sending(supervisor: Supervisor) -> None:
    """The next spec reaches the child whole; then the task is cancelled."""
    supervisor._start()
    connection = supervisor._to_child
    send = connection.send_bytes

    def sent_then_cancelled(frame: bytes) -> None:
        send(frame)
        connection.send_bytes = send  # once
        raise KeyboardInterrupt

    connection.send_bytes = sent_then_cancelled


def test_a_task_cancelled_after_its_spec_was_sent_leaves_no_reply_for_the_next(supervisor):
    _interrupt_after_sending(supervisor)
    with pytest.raises(KeyboardInterrupt):
        supervisor.play(_spec(9))
    result = supervisor.play(_spec(5))
    assert result.task == 5
    assert result.deals == 2  # one deal, both rotations


def test_a_task_cancelled_while_its_child_was_starting_leaves_a_child_that_plays(
        supervisor, monkeypatch):
    """Cancelled after the child started and before it had its key: the next task's
    spec would have been read as the key, and both ends would have waited for ever."""
    start = Supervisor._start

    def started_then_cancelled(self):
        start(self)
        monkeypatch.setattr(Supervisor, "_start", start)
        raise KeyboardInterrupt

    monkeypatch.setattr(Supervisor, "_start", started_then_cancelled)
    with pytest.raises(KeyboardInterrupt):
        supervisor.play(_spec(9))
    assert supervisor._child is None  # ended with the cancelled task
    assert supervisor.play(_spec(5)).task == 5
