"""``solver``: German Whist with the heuristic in stage 1 and exact play in stage 2.

Once the stock is gone a player who counts cards knows the opponent's hand (the 13
cards neither in its own hand nor played), so stage 2 is a game of perfect
information and the open-card solver plays it perfectly
(``whist_sim.search.german_whist.stage2_best_card``).

Stage 1 is the ``heuristic``'s, except its last ``stage1_tricks`` tricks: there the
only hidden cards are the opponent's hand and the last one or few stock cards, and
each candidate card is valued over ``worlds`` sampled worlds by playing to the end of
stage 1 and solving stage 2 exactly (``whist_sim.search.pimc`` with the heuristic's
choice as the incumbent). That is the edge a card counter has when the stock runs
out: what the last face-up card is worth against what the last face-down one may be.

Parameters:
- ``stage1_tricks`` (0..13): how many of the last stage-1 tricks are valued by
  simulation (0: the heuristic plays all of stage 1).
- ``worlds`` (budget, >= 1): sampled worlds per such decision.
- ``compiled``: use the numba-compiled solver rather than the pure Python one (same
  values; the compiled one is about fifty times faster).
"""

from __future__ import annotations

from random import Random
from typing import Any

from strategies.german_heuristic import GermanHeuristic
from whist_sim.games.base import as_toml, is_whole
from whist_sim.search.german_whist import stage2_best_card
from whist_sim.search.params import flag, solver_function, whole_number
from whist_sim.search.pimc import evaluate
from whist_sim.strategy import Strategy


class GermanSolver(Strategy):
    """The heuristic while the stock lasts (simulation at its very end), the solver after."""

    games = frozenset({"german_whist"})
    version = "2"

    def __init__(self, stage1_tricks: int = 1, worlds: int = 20, compiled: bool = True) -> None:
        if not is_whole(stage1_tricks) or not 0 <= stage1_tricks <= 13:  # one range, said once
            raise ValueError("parameter 'stage1_tricks' must be a whole number 0..13, not"
                             f" {as_toml(stage1_tricks)}")
        self.stage1_tricks = stage1_tricks
        self.worlds = whole_number("worlds", worlds, 1)
        self.compiled = flag("compiled", compiled)
        self._solve = solver_function(compiled)
        self._heuristic = GermanHeuristic()

    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        if view.stage == 2:
            return stage2_best_card(view, self._solve)
        heuristic = self._heuristic.choose(view, rng)
        stage1_left = (view.facedown_left + len(view.faceup)) // 2
        if stage1_left > self.stage1_tricks:
            return heuristic
        return evaluate(view, rng, worlds=self.worlds, exact_cards=13, solve=self._solve,
                        incumbent=heuristic, confidence=1.0, policy=self._heuristic).action
