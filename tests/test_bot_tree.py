"""The processes a bot started, found in /proc: its session's and its descendants', each
ended only while its pid is still the process that was found."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from whist_sim.protocol.bot_tree import end_all, started_by

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

SPAWNS = """
import subprocess, sys, time
own_session = subprocess.Popen(["sleep", "60"], start_new_session=True)
grandparent = subprocess.Popen([sys.executable, "-c",
    "import subprocess, time; subprocess.Popen(['sleep', '60']); time.sleep(60)"])
print(own_session.pid, grandparent.pid, flush=True)
time.sleep(60)
"""


def _gone(pid: int, seconds: float = 5.0) -> bool:
    """Whether process ``pid`` ends within ``seconds``: gone, or a zombie (ended, its
    parent, the sleeping bot, not reaping it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                state = stat.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        time.sleep(0.02)
    return False


def _children_of(pid: int) -> list[int]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/task/{pid}/children") as listed:
            found = [int(p) for p in listed.read().split()]
        if found:
            return found
        time.sleep(0.02)
    return []


def test_a_child_in_a_session_of_its_own_and_a_grandchild_are_found_and_ended():
    bot = subprocess.Popen([sys.executable, "-c", SPAWNS], stdout=subprocess.PIPE,
                           start_new_session=True, text=True)
    try:
        own_session, grandparent = map(int, bot.stdout.readline().split())
        [grandchild] = _children_of(grandparent)
        found = dict(started_by(bot.pid))
        assert {own_session, grandparent, grandchild} <= set(found)
        assert bot.pid not in found and os.getpid() not in found
        assert os.getsid(own_session) == own_session  # left the bot's session
        end_all(started_by(bot.pid))
        for pid in (own_session, grandparent, grandchild):
            assert _gone(pid), f"process {pid} the bot started outlived end_all"
    finally:
        bot.kill()
        bot.wait()


def test_a_pid_found_earlier_and_running_another_process_now_is_not_signalled():
    """A process found as the bot was asked to quit may have ended since, and its pid be
    another's by the time the bot is killed: its start time tells them apart."""
    other = subprocess.Popen(["sleep", "60"])
    try:
        end_all([(other.pid, "0")])  # its pid, another start time
        time.sleep(0.1)
        assert other.poll() is None, "a process that was never found was killed"
    finally:
        other.kill()
        other.wait()
