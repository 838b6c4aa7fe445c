"""Search over sampled worlds: what PIMC and ISMCTS strategies need from each game.

A search strategy never sees a deal's state. It samples a world consistent with its
view (``whist_sim.sampling``), builds from view and world a private state of its own
(``SearchModel.determinize``), and plays that state forward with the rules engine.
``model_for(view)`` gives the game's ``SearchModel``.

The player search puts in the other seats and its roll-outs (the roll-out policy) is a
parameter, or else the strategy registered as ``heuristic``, found through the
registry (``whist_sim.search.policy``): this package imports no strategy.
"""

from whist_sim.search.model import SearchModel, model_for

__all__ = ["SearchModel", "model_for"]
