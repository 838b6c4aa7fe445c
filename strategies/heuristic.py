"""``heuristic``: the rule-based player of each game, under one name.

Each game's heuristic is its own class with its own parameters
(``GermanHeuristic``, ``SoloHeuristic``); ``for_game`` tells whist_sim which one
plays a given game, so a config says ``use = "heuristic"`` whatever the game.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

IMPLEMENTATIONS = {
    "german_whist": "strategies.german_heuristic:GermanHeuristic",
    "solo_whist": "strategies.solo_heuristic:SoloHeuristic",
    "minnesota_whist": "strategies.minnesota_heuristic:MinnesotaHeuristic",
    "knockout_whist": "strategies.knockout_heuristic:KnockoutHeuristic",
}
"""Game name -> ``module:Class`` of its heuristic (imported only when that game is played)."""


class Heuristic:
    """Dispatches to the heuristic strategy of the game being played."""

    games: ClassVar[frozenset[str]] = frozenset(IMPLEMENTATIONS)

    @classmethod
    def for_game(cls, game: str) -> type:
        module, _, name = IMPLEMENTATIONS[game].partition(":")
        return getattr(importlib.import_module(module), name)


def heuristic_for(view: Any, cache: dict[type, Any]) -> Any:
    """The heuristic player of ``view``'s game (one instance per game kept in ``cache``)."""
    player = cache.get(type(view))
    if player is None:
        from whist_sim.search.model import model_for  # only search strategies need it

        game = model_for(view).game
        player = cache[type(view)] = Heuristic.for_game(game)()
    return player
