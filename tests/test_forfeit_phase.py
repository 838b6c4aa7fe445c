"""A forfeit's text says in which phase of the deal the strategy failed.

A Solo Whist plug-in's author read "strategy raised KeyError" for a strategy that bid
without fault and failed only when its contract asked it to name trumps; the
text now ends with the phase (``[phase trump]``), as the view it was given had it.
"""

from __future__ import annotations

import time

from whist_sim.games import make_game
from whist_sim.games.solo_whist import PASS
from whist_sim.play import play_deal
from whist_sim.strategy import build_strategy


class Passes:
    """Passes in the auction, plays randomly after."""

    def __init__(self) -> None:
        self.random = build_strategy("random", {}, "solo_whist")

    def choose(self, view, rng):
        return PASS if view.phase == "bid" else self.random.choose(view, rng)


class FailsIn:
    """Plays randomly until asked in ``phase``; bids Abundance, whose declarer names
    trumps, where it may; raises KeyError."""

    def __init__(self, game: str, phase: str, sleep: float = 0.0) -> None:
        self.random = build_strategy("random", {}, game)
        self.phase = phase
        self.sleep = sleep

    def choose(self, view, rng):
        if view.phase == self.phase:
            if self.sleep:
                time.sleep(self.sleep)
            raise KeyError("trumps")
        if view.phase == "bid":
            abundance = make_game("solo_whist").parse_action("abundance")
            return abundance if view.legal >> abundance & 1 else PASS
        return self.random.choose(view, rng)


def _error(game: str, strategies, **options) -> str:
    played = play_deal(make_game(game), strategies, 3, **options)
    assert played.outcome.error is not None
    return played.outcome.error


def test_a_strategy_that_raises_naming_trumps_is_said_to_have_raised_in_the_trump_phase():
    error = _error("solo_whist", [FailsIn("solo_whist", "trump"), Passes(), Passes(), Passes()])
    assert "strategy raised KeyError: 'trumps'" in error
    assert error.endswith("[phase trump]"), error


def test_a_strategy_that_raises_in_play_is_said_to_have_raised_in_play():
    error = _error("german_whist", [FailsIn("german_whist", "play"),
                                    build_strategy("random", {}, "german_whist")])
    assert error.endswith("[phase play]"), error


def test_a_strategy_out_of_time_is_said_in_which_phase():
    error = _error("german_whist", [FailsIn("german_whist", "play", sleep=0.3),
                                    build_strategy("random", {}, "german_whist")],
                   time_limit=0.05)
    assert "DecisionTimeout" in error and error.endswith("[phase play]"), error
