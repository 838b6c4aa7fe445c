"""``ismcts``: Information Set Monte Carlo Tree Search for every game (``whist_sim.search.ismcts``).

Each decision runs ``iterations`` iterations of single-observer ISMCTS: a world
consistent with the seat's view per iteration, a tree over the actions every seat
takes from here, upper confidence bounds with availability counts, heuristic
roll-outs (this strategy hands its game's ``heuristic`` to the search as the policy of
the other seats and the roll-outs). Bidding decisions are searched the same way (the
tree then spans the rest of the auction).

Parameters:
- ``iterations`` (budget, >= 1): iterations per decision.
- ``exploration`` (> 0): the UCB constant, as a fraction of the spread of payoffs seen.
- ``exact_cards`` (>= 0): roll-outs stop at a state the solver settles once no hand
  holds more than this many cards (German Whist stage 2; default 13 there, else 0).
- ``compiled``: use the numba-compiled solver rather than the pure Python one (compiled,
  or loaded from numba's disk cache, when the strategy is built unless ``exact_cards =
  0``: never in a decision).
"""

from __future__ import annotations

from random import Random
from typing import Any

from whist_sim.games import GAMES
from whist_sim.search.ismcts import best_action, search
from whist_sim.search.params import (
    exact_cards_for,
    flag,
    positive_number,
    solver_function,
    whole_number,
)
from whist_sim.search.policy import default_policy_for
from whist_sim.strategy import Strategy


class Ismcts(Strategy):
    """Searches a tree of information sets over sampled worlds; plays the most visited action."""

    games = frozenset(GAMES)
    version = "2"

    def __init__(self, iterations: int = 200, exploration: float = 0.7,
                 exact_cards: int | None = None, compiled: bool = True) -> None:
        self.iterations = whole_number("iterations", iterations, 1)
        self.exploration = positive_number("exploration", exploration)
        if exact_cards is not None:
            exact_cards = whole_number("exact_cards", exact_cards, 0)
        self.exact_cards = exact_cards
        self.compiled = flag("compiled", compiled)
        self._solve = solver_function(compiled, exact_cards)

    def choose(self, view: Any, rng: Random) -> int:
        if view.legal & (view.legal - 1) == 0:
            return view.legal.bit_length() - 1
        exact_cards = exact_cards_for(view, self.exact_cards, elsewhere=0)
        children = search(view, rng, iterations=self.iterations, exploration=self.exploration,
                          exact_cards=exact_cards, solve=self._solve,
                          policy=default_policy_for(view))
        return best_action(children)
