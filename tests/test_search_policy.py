"""The roll-out policy reaches search as a parameter or from the registry (whist_sim.search.policy).

Search plays its sampled worlds with a strategy in every seat. whist_sim does not import
the built-in strategies: without a ``policy`` the search finds the strategy registered
as ``heuristic``; with one, that player rolls out, models the other seats, lays
Minnesota's unturned cards and fits Solo's worlds (or not, without a bidder).
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from whist_sim.games import make_game
from whist_sim.sampling import sample_world
from whist_sim.search import ismcts, pimc
from whist_sim.search.german_rollout import play_stage1, stage1_tables
from whist_sim.search.model import model_for, play_out, rollout_function
from whist_sim.search.policy import (
    DEFAULT_POLICY,
    default_policy,
    default_policy_class,
    default_policy_for,
)
from whist_sim.solver import solve, solve_fast
from whist_sim.strategy import strategy_class

GAMES = {"german_whist": None, "solo_whist": None, "minnesota_whist": None,
         "knockout_whist": 3}


class Lowest:
    """Plays its lowest legal action: a roll-out policy unlike any heuristic."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: Any, rng: Random) -> int:
        self.calls += 1
        legal = view.legal
        return (legal & -legal).bit_length() - 1


def first_choice(game: str, phase: str | None = None, after: int = 0):
    """A view with a choice for search (in ``phase``, if given) after at least ``after``
    decisions of the first deal of ``game`` (seeds from 4) that has one, played by the
    registry's heuristic."""
    heuristic = default_policy(game)
    for seed in range(4, 40):
        state = make_game(game, None, GAMES[game]).new_deal(seed, 0)
        rng = Random(seed)
        decisions = 0
        while state.to_act >= 0:
            view = state.view(state.to_act)
            wanted = phase is None or view.phase == phase
            if (wanted and decisions >= after
                    and len(pimc.candidate_actions(view, model_for(view))) > 1):
                return view
            decisions += 1
            state.apply(heuristic.choose(view, rng))
    raise AssertionError(f"no decision in phase {phase} of {game}")


@pytest.mark.parametrize("game", GAMES)
def test_the_default_policy_is_the_strategy_registered_as_heuristic(game):
    assert DEFAULT_POLICY == "heuristic"
    policy = default_policy(game)
    assert type(policy) is strategy_class("heuristic", game) is default_policy_class(game)
    assert default_policy(game) is policy  # built once per process
    view = first_choice(game)
    model = model_for(view)
    assert default_policy_for(view) is policy
    assert model.policy is policy
    assert model_for(view, policy) is model  # the default, passed in: the game's MODEL


@pytest.mark.parametrize("game", GAMES)
def test_a_policy_given_plays_every_seat_of_the_rollouts(game):
    view = first_choice(game, "play")
    lowest = Lowest()
    model = model_for(view, lowest)
    assert model is not model_for(view) and model.game == model_for(view).game
    assert model_for(view, lowest) is model  # kept while the policy is in use
    rng = Random(1)
    state = model.determinize(view, sample_world(view, rng), rng)
    policies = model.rollout_policies(state)
    assert policies and all(p is lowest for p in policies)
    play_out(model, state, rng)
    assert state.to_act < 0 and lowest.calls > 0


@pytest.mark.parametrize("game", GAMES)
def test_pimc_and_ismcts_roll_out_with_the_policy_passed(game):
    view = first_choice(game, "play")
    lowest = Lowest()
    given = pimc.evaluate(view, Random(3), worlds=3, exact_cards=0, solve=None, policy=lowest)
    assert lowest.calls > 0
    default = pimc.evaluate(view, Random(3), worlds=3, exact_cards=0, solve=None)
    assert given.values != default.values  # another player in the seats, other values
    calls = lowest.calls
    ismcts.search(view, Random(3), iterations=8, policy=lowest)
    assert lowest.calls > calls


def test_minnesota_unturned_laid_cards_come_from_the_policy():
    view = first_choice("minnesota_whist", "lay", after=1)  # someone laid before this seat
    lowest = Lowest()
    model = model_for(view, lowest)
    rng = Random(2)
    world = sample_world(view, rng)
    state = model.determinize(view, world, rng)
    earlier = [s for s in range(4) if state.laid[s] >= 0 and s != view.seat]
    assert earlier
    for seat in earlier:  # the lowest card of the hand it held: what Lowest lays
        held = state.initial_hands[seat]
        assert state.laid[seat] == (held & -held).bit_length() - 1


def test_solo_worlds_fit_the_auction_only_with_a_policy_that_bids():
    state = make_game("solo_whist").new_deal(6, 0)
    heuristic = default_policy("solo_whist")
    rng = Random(6)
    while state.to_act >= 0 and not (state.phase == "play" and state.bids):
        state.apply(heuristic.choose(state.view(state.to_act), rng))
    view = state.view(state.to_act)
    assert hasattr(heuristic, "call_for") and not hasattr(Lowest(), "call_for")
    uniform = sample_world(view, Random(9))
    assert model_for(view, Lowest()).sample_world(view, Random(9)) == uniform


def test_the_compiled_german_rollout_copies_the_registrys_heuristic_only():
    heuristic = default_policy("german_whist")
    tables = stage1_tables(heuristic)
    assert tables is not None and tables.rank_tie_break > 0
    assert len(tables.side_worth) == len(tables.no_trump_worth) == 13

    class Variant(type(heuristic)):
        """Same class family, possibly other play: not copied."""

    view = first_choice("german_whist", "play")
    assert stage1_tables(Variant()) is None and stage1_tables(Lowest()) is None
    assert model_for(view).compiled_rollout(13, solve_fast) is not None
    assert model_for(view, Variant()).compiled_rollout(13, solve_fast) is None
    rng = Random(5)
    state = model_for(view).determinize(view, sample_world(view, rng), rng)
    assert play_stage1(state, Lowest()) is None
    assert play_stage1(state, heuristic) is not None
    # Another policy's roll-outs are the Python ones, whichever solver is asked.
    lowest = Lowest()
    model = model_for(view, lowest)
    fast = rollout_function(model, view, 13, solve_fast)
    pure = rollout_function(model, view, 13, solve)
    twin = model.determinize(view, sample_world(view, Random(7)), Random(7))
    other = model.determinize(view, sample_world(view, Random(7)), Random(7))
    assert fast(twin, Random(0)) == pure(other, Random(0))
