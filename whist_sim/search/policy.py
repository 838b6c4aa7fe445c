"""The roll-out policy: the player search puts in the other seats and in its roll-outs.

Search plays sampled worlds forward with a fast player at every seat (PIMC's roll-outs,
ISMCTS's model of the other seats, Solo's fit of worlds to the auction, Minnesota's
unturned laid cards). That player is a strategy like any other, so the library does not
import it: whist_sim never imports the plug-in package ``strategies`` (layers point one
way, and a user's strategy can be the roll-out policy as well as a built-in one can).
It reaches search in one of two ways:

- as a parameter: ``pimc.evaluate(..., policy=...)``, ``ismcts.search(..., policy=...)``
  and ``model_for(view, policy)``; the built-in search strategies pass their game's
  heuristic this way (the registry's instance, ``default_policy_for(view)``, with
  which each game's ``MODEL`` and its memos serve them);
- by name, where no parameter reaches (a search called without one, the models' own
  ``MODEL``, match equity's measured distribution): the strategy whist_sim registers as
  ``DEFAULT_POLICY`` (``heuristic``), built for the game with its default parameters
  through the strategy registry (``whist_sim.strategy.build_strategy``). whist_sim's
  own registration, not whatever else is registered by that name: a plug-in that
  registers ``heuristic`` too would otherwise have made every search strategy forfeit
  (the registry refuses to guess between the two), in runs that never named it.

A roll-out policy must be deterministic in what it reads and keep no state between
calls that changes its choices (one instance plays every seat of every roll-out),
which every built-in heuristic is.
"""

from __future__ import annotations

import functools
from random import Random
from typing import Any, Protocol

from whist_sim.strategy import build_strategy, built_in_spec, strategy_class

DEFAULT_POLICY = "heuristic"
"""Registry name of the built-in roll-out policy used when none is given."""


class RolloutPolicy(Protocol):
    """A strategy that search may put in any seat of a sampled world."""

    def choose(self, view: Any, rng: Random) -> int:
        """The action for ``view`` (a seat's view of the search's own state)."""
        ...


@functools.cache
def default_policy(game: str) -> RolloutPolicy:
    """The strategy whist_sim registers as ``DEFAULT_POLICY``, for ``game`` (a name; a game
    is taken by its name), built once per process (``built_in_spec``)."""
    return build_strategy(built_in_spec(DEFAULT_POLICY), None, getattr(game, "name", game))


def default_policy_for(view: Any) -> RolloutPolicy:
    """``default_policy`` of the game ``view`` belongs to: the instance each game's
    ``MODEL`` rolls out with, so a search given it uses ``MODEL`` itself."""
    from whist_sim.search.model import model_for  # model imports this module

    return default_policy(model_for(view).game)


@functools.cache
def default_policy_class(game: str) -> type:
    """The class that plays ``game`` for whist_sim's ``DEFAULT_POLICY``."""
    return strategy_class(built_in_spec(DEFAULT_POLICY), game)
