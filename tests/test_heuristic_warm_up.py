"""A compiled heuristic compiles when it is built, never in a decision.

Built in ``play_task`` before the decision clock starts, a heuristic loads its numba
path then and plays a few deals to compile (or load from numba's cache) every kernel
(``strategies.lazy_module``). A decision that compiled instead could pass the time
limit on a loaded machine and forfeit a hand another run of the same seed plays: found
when a resumed run under load forfeited two hands the reference run did not.
"""

from __future__ import annotations

import importlib

import numba
import pytest

from strategies.heuristic import IMPLEMENTATIONS
from whist_sim.games import make_game
from whist_sim.play import play_deal

PLAYERS = {"knockout_whist": 4}


def _compiled_signatures(module) -> dict[str, int]:
    """Each numba function of ``module`` and how many type signatures it has compiled."""
    return {name: len(value.signatures) for name, value in vars(module).items()
            if isinstance(value, numba.core.dispatcher.Dispatcher)}


@pytest.mark.parametrize("game_name", sorted(IMPLEMENTATIONS))
def test_no_decision_of_a_built_heuristic_compiles(game_name):
    module_name, _, class_name = IMPLEMENTATIONS[game_name].partition(":")
    strategy_type = getattr(importlib.import_module(module_name), class_name)
    game = make_game(game_name, None, PLAYERS.get(game_name))
    seated = [strategy_type() for _ in range(game.players)]
    compiled = importlib.import_module(module_name + "_compiled")
    before = _compiled_signatures(compiled)
    assert any(before.values()), "building the heuristic compiled nothing"
    for seed in range(100, 120):
        play_deal(game, seated, seed, seed % game.players, on_error="abort")
    assert _compiled_signatures(compiled) == before
