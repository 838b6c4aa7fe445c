"""A strategy that overruns its time budget forfeits the deal, even one that never returns."""

from __future__ import annotations

import time

import pytest

from strategies.random_play import RandomStrategy
from tests.plugins.faulty import Hangs, Slow
from whist_sim.budget import DecisionTimeout, decision_clock
from whist_sim.games import make_game
from whist_sim.play import StrategyFailure, play_deal


def test_a_strategy_that_never_returns_is_stopped_and_forfeits():
    started = time.perf_counter()
    played = play_deal(make_game("german_whist"), [Hangs(), RandomStrategy()], 3, time_limit=0.2)
    assert time.perf_counter() - started < 5
    assert played.outcome.forfeit_seat == 0  # seat 1, the non-dealer, led; seat 0 hung
    assert "budget is 0.2 s per decision" in played.outcome.error
    assert played.outcome.result[played.outcome.forfeit_seat] == "forfeit"


def test_a_slow_decision_forfeits_after_it_returns():
    played = play_deal(
        make_game("german_whist"), [RandomStrategy(), Slow(seconds=0.3)], 4, time_limit=0.1
    )
    assert played.outcome.forfeit_seat == 1
    assert "DecisionTimeout" in played.outcome.error


def test_abort_turns_a_timeout_into_a_strategy_failure():
    with pytest.raises(StrategyFailure, match=r"budget is 0\.1 s"):
        play_deal(make_game("german_whist"), [Hangs(), Hangs()], 5, time_limit=0.1,
                  on_error="abort")


def test_the_alarm_is_disarmed_after_each_decision():
    with decision_clock(0.05) as clock:
        assert clock.call(0, lambda view, rng: 7, None, None) == 7
        time.sleep(0.1)  # no alarm may ring now that the decision is over
        with pytest.raises(DecisionTimeout):
            clock.call(0, lambda view, rng: time.sleep(1), None, None)
