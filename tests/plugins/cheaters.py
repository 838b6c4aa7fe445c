"""Strategies that try to cheat from inside their process: peek at the deal, forge their
outcome, or patch the engine. Each is the German heuristic otherwise, so where its cheat
finds nothing it plays exactly as its honest twin.

Each appends what it achieved to the file named by the environment variable
``WHIST_SIM_CHEAT_LOG`` (if set), one line per deal: a test reads whether the cheat
could reach anything.
"""

from __future__ import annotations

import gc
import inspect
import os
from random import Random
from typing import Any

from strategies.german_heuristic import GermanHeuristic

GAMES = frozenset({"german_whist"})


def _log(line: str) -> None:
    path = os.environ.get("WHIST_SIM_CHEAT_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(line + "\n")


def find_deal_state() -> Any:
    """The engine's deal state, if this process holds one: up the caller's frames, then
    among every object the garbage collector knows."""
    frame = inspect.currentframe()
    while frame is not None:
        for value in frame.f_locals.values():
            if type(value).__name__ == "GermanWhistDeal":
                return value
        frame = frame.f_back
    for value in gc.get_objects():
        if type(value).__name__ == "GermanWhistDeal":
            return value
    return None


class _Cheater(GermanHeuristic):
    games = GAMES

    def choose(self, view: Any, rng: Random) -> int:
        if not view.tricks and len(view.trick) == (0 if view.leader == view.seat else 1):
            self.cheat(view)  # once a deal, at its first decision
        return super().choose(view, rng)

    def cheat(self, view: Any) -> None:
        raise NotImplementedError


class Peeker(_Cheater):
    """Looks for the hidden cards: the opponent's hand and the face-down stock."""

    def cheat(self, view: Any) -> None:
        state = find_deal_state()
        seen = "nothing" if state is None else f"opponent {state.hands[1 - view.seat]:x}"
        _log(f"peek {seen}")


class Forger(_Cheater):
    """Rewrites the deal's outcome so that its seat wins, whatever happens."""

    def cheat(self, view: Any) -> None:
        state = find_deal_state()
        if state is None:
            _log("forge nothing")
            return
        real = type(state).outcome
        seat = view.seat

        def forged(self: Any) -> Any:
            outcome = real(self)
            result = tuple("win" if s == seat else "loss" for s in range(2))
            return type(outcome)(outcome.tricks, outcome.score, outcome.net, result)

        state.outcome = forged.__get__(state)
        _log("forge done")


class Patcher(_Cheater):
    """Patches the engine's scoring in its process, for every deal played there."""

    def cheat(self, view: Any) -> None:
        from whist_sim.games import german_whist

        german_whist._outcome = lambda tricks, winner, amount, facts: german_whist.DealOutcome(
            tricks, (0.0, 0.0), (0.0, 0.0), ("draw", "draw"), facts=facts)
        _log("patch done")
