"""A deal in progress pickles and plays on exactly as the original (Ray, multiprocessing,
snapshots for search): German Whist once read an unpickled "play" phase as "take"."""

from __future__ import annotations

import pickle
import random

import pytest

from whist_sim.games import make_game

TABLES = [("german_whist", None), ("german_whist", {"open_stock": 3}), ("solo_whist", None),
          ("minnesota_whist", None), ("knockout_whist", None)]


@pytest.mark.parametrize(("game_name", "variant"), TABLES)
@pytest.mark.parametrize("after", [0, 5, 17])
def test_a_pickled_deal_plays_on_as_the_original(game_name, variant, after):
    game = make_game(game_name, variant)
    state = game.new_deal(7, 0)
    rng = random.Random(after)
    actions = 0
    while state.to_act >= 0 and actions < after:
        state.apply(rng.choice([a for a in range(64) if state.legal >> a & 1]))
        actions += 1
    copy = pickle.loads(pickle.dumps(state))
    while state.to_act >= 0:
        assert copy.to_act == state.to_act and copy.legal == state.legal
        action = rng.choice([a for a in range(64) if state.legal >> a & 1])
        state.apply(action)
        copy.apply(action)
    assert copy.outcome() == state.outcome() and copy.log == state.log
