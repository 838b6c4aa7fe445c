"""``LazyModule``: a heuristic's compiled path, imported and warmed when it is built.

Each heuristic keeps its numba path in a module of its own (``*_heuristic_compiled``),
which imports numba (about a second): importing it only when a heuristic that plays
compiled is built keeps numba out of every process that never plays one. Loading it is
also when numba compiles the kernels (or loads them from its disk cache): the warm-up
plays a few deals with the heuristic (``playing``). A heuristic is built outside any
decision (``play_task`` builds its entrants before the decision clock starts), so no
decision waits for the compiler. A first decision that did (several seconds of
compiling, longer on a loaded machine) could pass the tournament's time limit and
forfeit its hand, which a second run of the same seed would not: the same seed would
no longer give the same rows.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType


class LazyModule:
    """The module ``name``, imported and warmed (``warm_up()``) on the first ``load()``;
    read ``module or load()`` per decision (an attribute read, where an ``import``
    statement costs about half a microsecond)."""

    __slots__ = ("module", "name", "warm_up")

    def __init__(self, name: str, warm_up: Callable[[], None] | None = None) -> None:
        self.name = name
        self.warm_up = warm_up
        self.module: ModuleType | None = None

    def load(self) -> ModuleType:
        """The module, imported and warmed, once."""
        if self.module is None:
            self.module = importlib.import_module(self.name)
            if self.warm_up is not None:  # after: the warm-up's own players find it loaded
                self.warm_up()
        return self.module


def playing(game_name: str, strategy_type: type, deals: int,
            players: int | None = None) -> Callable[[], None]:
    """A warm-up: play ``deals`` deals of ``game_name`` (default variant) with a
    ``strategy_type()`` in every seat, so that every kernel those deals call is compiled
    (or loaded from numba's cache). A failure is raised, not forfeited: the strategy is
    broken, and the task building it should say so."""

    def warm_up() -> None:
        from whist_sim.games import make_game
        from whist_sim.play import play_deal

        game = make_game(game_name, None, players)
        seated = [strategy_type() for _ in range(game.players)]
        for seed in range(deals):
            play_deal(game, seated, seed, seed % game.players, on_error="abort")

    return warm_up
