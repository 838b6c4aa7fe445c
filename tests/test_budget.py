"""A strategy that overruns its time budget forfeits the deal, even one that never returns."""

from __future__ import annotations

import time

import pytest

from strategies.random_play import RandomStrategy
from tests.plugins.faulty import Hangs, Slow, SteadilySlow
from whist_sim.budget import DecisionTimeout, decision_clock
from whist_sim.games import make_game
from whist_sim.play import StrategyFailure, play_deal


def test_a_strategy_that_never_returns_is_stopped_and_forfeits():
    started = time.perf_counter()
    played = play_deal(make_game("german_whist"), [Hangs(), RandomStrategy()], 3, time_limit=0.2)
    assert time.perf_counter() - started < 5
    assert played.outcome.forfeit_seat == 0  # seat 1, the non-dealer, led; seat 0 hung
    assert "budget of 0.2 s per decision" in played.outcome.error
    assert played.outcome.result[played.outcome.forfeit_seat] == "forfeit"


def test_a_slow_decision_forfeits_after_it_returns():
    played = play_deal(
        make_game("german_whist"), [RandomStrategy(), Slow(seconds=0.3)], 4, time_limit=0.1
    )
    assert played.outcome.forfeit_seat == 1
    assert "DecisionTimeout" in played.outcome.error
    # the alarm cut the 0.3 s sleep short: the text says so, not that it "took" 0.1 s
    assert "had not decided after 0.1" in played.outcome.error
    assert "and was stopped" in played.outcome.error


def test_abort_turns_a_timeout_into_a_strategy_failure():
    with pytest.raises(StrategyFailure, match=r"budget of 0\.1 s"):
        play_deal(make_game("german_whist"), [Hangs(), Hangs()], 5, time_limit=0.1,
                  on_error="abort")


def test_the_alarm_is_disarmed_after_each_decision():
    with decision_clock(0.05) as clock:
        assert clock.call(0, lambda view, rng: 7, None, None) == 7
        time.sleep(0.1)  # no alarm may ring now that the decision is over
        with pytest.raises(DecisionTimeout):
            clock.call(0, lambda view, rng: time.sleep(1), None, None)


# -- chess clocks ------------------------------------------------------------------------


def test_a_seat_whose_clock_runs_out_loses_on_time():
    from whist_sim.budget import TimeControl

    control = TimeControl(base=0.25, increment=0.0, per="deal")
    played = play_deal(make_game("german_whist"), [SteadilySlow(seconds=0.05), RandomStrategy()], 4,
                       time_limit=1.0, time_control=control)
    # 0.05 s a decision: the sixth runs past 0.25 s, well before the deal's end
    assert played.outcome.forfeit_seat == 0
    assert "lost on time" in played.outcome.error
    assert "0.25 s + 0 s a decision, per deal" in played.outcome.error


def test_the_increment_keeps_a_steady_player_in_time():
    from whist_sim.budget import TimeControl

    control = TimeControl(base=0.25, increment=0.1, per="deal")
    played = play_deal(make_game("german_whist"), [SteadilySlow(seconds=0.05), RandomStrategy()], 4,
                       time_limit=1.0, time_control=control)
    assert played.outcome.forfeit_seat is None


def test_a_match_clock_runs_over_every_hand_of_the_match():
    from whist_sim.budget import TimeControl
    from whist_sim.play import play_match

    game = make_game("german_whist", {"match": "best_of_3"})
    per_hand = TimeControl(base=0.4, per="deal")
    per_match = TimeControl(base=0.4, per="match")
    players = [SteadilySlow(seconds=0.01), RandomStrategy()]
    hands, _ = play_match(game, players, 9, time_limit=1.0, time_control=per_hand)
    # a hand is 26 decisions of 0.01 s: 0.26 s fit 0.4 s
    assert all(h.outcome.forfeit_seat is None for h in hands)
    hands, _ = play_match(game, players, 9, time_limit=1.0, time_control=per_match)
    assert any("lost on time" in (h.outcome.error or "") for h in hands)  # two hands do not
