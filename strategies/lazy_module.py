"""``LazyModule``: a heuristic's compiled path, imported and warmed when it is built.

Each heuristic keeps its numba path in a module of its own (``*_heuristic_compiled``),
which imports numba (about a second): importing it only when a heuristic that plays
compiled is built keeps numba out of every process that never plays one. Loading it is
also when numba compiles the kernels (or loads them from its disk cache), which the
module's ``warm_up()`` calls once: a heuristic is built outside any decision (``play_task``
builds its entrants before the decision clock starts), so no decision waits for the
compiler. A first decision that did (several seconds of compiling, longer on a loaded
machine) could pass the tournament's time limit and forfeit its hand, which a second
run of the same seed would not: the same seed would no longer give the same rows.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class LazyModule:
    """The module ``name``, imported and warmed on the first ``load()``; read
    ``module or load()`` per decision (an attribute read, where an ``import`` statement
    costs about half a microsecond)."""

    __slots__ = ("module", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.module: ModuleType | None = None

    def load(self) -> ModuleType:
        """The module, imported and its ``warm_up()`` (if it has one) run, once."""
        if self.module is None:
            module = importlib.import_module(self.name)
            self.module = module  # first: the warm-up's own players find it loaded
            warm_up = getattr(module, "warm_up", None)
            if warm_up is not None:
                warm_up()
        return self.module


def play_to_warm(game_name: str, strategy_type: type, deals: int = 3,
                 players: int | None = None) -> None:
    """A compiled module's ``warm_up``: play ``deals`` deals of ``game_name`` (default
    variant) with a ``strategy_type()`` in every seat, so that every kernel those deals
    call is compiled (or loaded from numba's cache) now. A failure is raised, not
    forfeited: the strategy is broken, and the task building it should say so."""
    from whist_sim.games import make_game
    from whist_sim.play import play_deal

    game = make_game(game_name, None, players)
    seated = [strategy_type() for _ in range(game.players)]
    for seed in range(deals):
        play_deal(game, seated, seed, seed % game.players, on_error="abort")
