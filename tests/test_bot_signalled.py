"""A bot that another process of the user stops or kills: its errors say so.

A hostile bot found its isolated opponent in ``/proc`` and sent it SIGKILL (or SIGSTOP)
at every deal: the opponent forfeited 10 hands and was benched for the rest of a
``--workers 0`` run, and every error blamed it, read as a memory limit that no supervisor
had set ("a supervised run ends a bot so past tournament.memory_limit ...") or as
slowness ("did not reply to decide 1 within 0.95 s"). The errors now name the other
possibility, so an organiser reading the forfeits knows to look at the other entrants.
"""

from __future__ import annotations

import random
import sys

import pytest

from whist_sim.games import make_game
from whist_sim.protocol import BotCrashed, BotTimeout, ProcessStrategy

HELLO = ("import json, os, signal, sys\n"
         "sys.stdin.readline()\n"
         "print(json.dumps({'type': 'hello', 'name': 'victim', 'version': '1',"
         " 'protocol': '1.0', 'games': ['german_whist']}), flush=True)\n"
         "sys.stdin.readline()\n"  # the deal
         "sys.stdin.readline()\n")  # the decide


def _error(tmp_path, then: str, kind: type[Exception], time_limit: float) -> str:
    """The error of a bot that receives ``then``'s signal while it is asked to decide
    (sent by itself here, as another process of the user could send it)."""
    script = tmp_path / "victim.py"
    script.write_text(HELLO + then)
    state = make_game("german_whist").new_deal(3, 0)
    with (ProcessStrategy([sys.executable, str(script)], label="victim",
                          time_limit=time_limit) as bot, pytest.raises(kind) as raised):
        bot.choose(state.view(state.to_act), random.Random(1))
    return str(raised.value)


def test_a_bot_killed_by_sigkill_names_other_processes_of_the_user(tmp_path):
    error = _error(tmp_path, "os.kill(os.getpid(), signal.SIGKILL)\n", BotCrashed, 5.0)
    assert "was killed by SIGKILL" in error
    assert "another process of your user" in error, error


def test_a_bot_stopped_when_its_time_ran_out_is_named_as_stopped(tmp_path):
    error = _error(tmp_path, "os.kill(os.getpid(), signal.SIGSTOP)\n", BotTimeout, 0.5)
    assert "did not reply to decide" in error
    assert "it was stopped, by SIGSTOP" in error and "another process of your user" in error, error


def test_a_bot_that_is_only_slow_is_not_said_to_be_stopped(tmp_path):
    error = _error(tmp_path, "import time; time.sleep(30)\n", BotTimeout, 0.5)
    assert "did not reply to decide" in error
    assert "stopped" not in error, error
