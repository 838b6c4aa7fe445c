"""``simulation_bidder``: bids by simulation, plays like the ``heuristic``.

Isolates the value of bidding by simulation: every bidding decision (a Solo Whist
call or Abundance trump, the Minnesota laid card, a Knock-out trump) is chosen by
the expected value of each choice over ``worlds`` sampled deals, the rest of the
auction and all the play following the heuristics (``whist_sim.search.pimc``); card
play is the heuristic's own. Set against ``heuristic`` it measures the bidding alone.

Parameters:
- ``worlds`` (budget, >= 1): sampled deals per bidding decision.
"""

from __future__ import annotations

from random import Random
from typing import Any

from whist_sim.search.model import BIDDING_PHASES
from whist_sim.search.params import whole_number
from whist_sim.search.pimc import evaluate
from whist_sim.search.policy import default_policy_for
from whist_sim.strategy import Strategy


class SimulationBidder(Strategy):
    """Simulated bidding decisions, heuristic card play."""

    games = frozenset({"solo_whist", "minnesota_whist", "knockout_whist"})
    version = "2"

    def __init__(self, worlds: int = 40) -> None:
        self.worlds = whole_number("worlds", worlds, 1)

    def choose(self, view: Any, rng: Random) -> int:
        if view.legal & (view.legal - 1) == 0:
            return view.legal.bit_length() - 1
        heuristic = default_policy_for(view)
        if view.phase in BIDDING_PHASES:
            return evaluate(view, rng, worlds=self.worlds, exact_cards=0, solve=None,
                            policy=heuristic).action
        return heuristic.choose(view, rng)

