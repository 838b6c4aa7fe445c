"""A determinized state has every field of the engine's own state, in every game.

Each search model builds its private states with ``__new__`` and sets the engine's
fields one by one (``SearchModel.determinize``), so a field the engine adds (a count
kept as the deal goes, say) must be set there too, or the search fails deep inside a
roll-out. This names the field instead.
"""

from __future__ import annotations

from random import Random

import pytest

from whist_sim.games import make_game
from whist_sim.sampling import sample_world
from whist_sim.search.model import model_for
from whist_sim.search.policy import default_policy

GAMES = {"german_whist": None, "solo_whist": None, "minnesota_whist": None,
         "knockout_whist": 3}


@pytest.mark.parametrize("game", GAMES)
def test_determinized_states_have_the_engines_fields(game):
    heuristic = default_policy(game)
    checked = 0
    for seed in range(3):
        state = make_game(game, None, GAMES[game]).new_deal(seed, 0)
        rng = Random(seed)
        decision = 0
        while state.to_act >= 0:
            view = state.view(state.to_act)
            if decision % 5 == 0:
                copy = model_for(view).determinize(view, sample_world(view, Random(1)),
                                                   Random(1))
                missing = sorted(set(vars(state)) - set(vars(copy)))
                extra = sorted(set(vars(copy)) - set(vars(state)))
                assert not missing and not extra, (
                    f"{game} seed {seed}, decision {decision} ({view.phase}): the search"
                    f" model's determinize misses {missing} and sets {extra} beyond the"
                    " engine's fields")
                checked += 1
            decision += 1
            state.apply(heuristic.choose(view, rng))
    assert checked >= 6
