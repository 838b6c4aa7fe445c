"""Strategies that fail on purpose, to test forfeits and aborts."""

from __future__ import annotations

import contextlib
import time
from random import Random
from typing import Any

from strategies.random_play import RandomStrategy

GAMES = frozenset({"german_whist"})


class RaisesOnTrick5(RandomStrategy):
    """Plays randomly, then raises when asked to play to the fifth trick."""

    games = GAMES

    def choose(self, view: Any, rng: Random) -> int:
        if len(view.tricks) == 4:
            raise ValueError("deliberate failure at trick 5")
        return super().choose(view, rng)


class PlaysIllegalCard(RandomStrategy):
    """Plays a card it does not hold when following in the first trick."""

    games = GAMES

    def choose(self, view: Any, rng: Random) -> int:
        if not view.tricks and view.trick:
            not_held = ((1 << 52) - 1) & ~view.hand & ~view.legal
            return (not_held & -not_held).bit_length() - 1
        return super().choose(view, rng)


class Slow(RandomStrategy):
    """Sleeps longer than any sensible time budget on its first decision of a deal."""

    games = GAMES

    def __init__(self, seconds: float = 0.5) -> None:
        self.seconds = seconds

    def choose(self, view: Any, rng: Random) -> int:
        if not view.tricks and len(view.trick) <= 1 and view.legal:
            time.sleep(self.seconds)
        return super().choose(view, rng)


class Hangs(RandomStrategy):
    """Never returns from its first decision (and swallows ordinary exceptions)."""

    games = GAMES

    def choose(self, view: Any, rng: Random) -> int:
        while True:
            with contextlib.suppress(Exception):  # a strategy this bad must still be stopped
                time.sleep(0.01)


class ExitsTheProcess(RandomStrategy):
    """Ends its whole process on its first decision, as a crashing native library would."""

    games = GAMES

    def choose(self, view: Any, rng: Random) -> int:
        import os

        os._exit(3)


class SteadilySlow(RandomStrategy):
    """Takes ``seconds`` over every decision: what a chess clock is for."""

    games = GAMES

    def __init__(self, seconds: float = 0.1) -> None:
        self.seconds = seconds

    def choose(self, view: Any, rng: Random) -> int:
        time.sleep(self.seconds)
        return super().choose(view, rng)


class RaisesHoldingTwoAces(RandomStrategy):
    """Plays randomly, but raises at its first decision of a hand dealt both the ace of
    spades and the ace of hearts (about one hand in seventeen): a run of it fails on some
    deals only."""

    games = GAMES

    def choose(self, view: Any, rng: Random) -> int:
        if not view.tricks and view.hand >> 12 & 1 and view.hand >> 25 & 1:
            raise ValueError("deliberate failure holding two aces")
        return super().choose(view, rng)


class RaisesEveryDecision:
    """Raises at its first decision, in every game: a newcomer's plug-in not written yet."""

    games = frozenset({"german_whist", "solo_whist", "minnesota_whist"})

    def choose(self, view: Any, rng: Random) -> int:
        raise RuntimeError("not written yet")
