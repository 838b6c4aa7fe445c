"""A timeout message gives the time the decision took and the budget it had: a 0.3 s
decision under a 0.1 s budget says 0.3 s where it ran to the end (no alarm: a thread, a
notebook), and says it was stopped at 0.1 s where the alarm cut it short."""

from __future__ import annotations

import re
import threading

from strategies.random_play import RandomStrategy
from tests.plugins.faulty import Slow
from whist_sim.games import make_game
from whist_sim.play import play_deal


def _error_of_slow_seat(on_main_thread: bool) -> str:
    def play() -> None:
        played.append(play_deal(make_game("german_whist"), [RandomStrategy(), Slow(seconds=0.3)],
                                4, time_limit=0.1))

    played: list = []
    if on_main_thread:
        play()
    else:  # off the main thread no alarm can be set: the decision runs to its end
        worker = threading.Thread(target=play)
        worker.start()
        worker.join()
    outcome = played[0].outcome
    assert outcome.forfeit_seat == 1 and outcome.error
    return outcome.error


def test_a_decision_that_ran_to_the_end_says_how_long_it_took_and_the_budget():
    error = _error_of_slow_seat(on_main_thread=False)
    took = re.search(r"seat 1 took (\d+\.\d+) s to decide; the budget is 0\.1 s per decision",
                     error)
    assert took, error
    assert 0.3 <= float(took[1]) < 1.0, error  # the 0.3 s it slept, not the 0.1 s budget


def test_a_decision_the_alarm_stopped_says_when_and_the_budget():
    error = _error_of_slow_seat(on_main_thread=True)
    stopped = re.search(r"seat 1 had not decided after (\d+\.\d+) s, past its budget of 0\.1 s"
                        r" per decision, and was stopped", error)
    assert stopped, error
    assert 0.1 <= float(stopped[1]) < 0.3, error  # stopped at the budget, before its 0.3 s
    assert " took " not in error
