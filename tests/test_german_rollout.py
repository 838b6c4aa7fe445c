"""The compiled German stage-1 roll-out plays the engine's rules and the heuristic's cards.

``whist_sim.search.german_rollout.play_stage1`` is a compiled copy of two readable
originals (``GermanWhistDeal`` and ``GermanHeuristic._stage1``); these tests play the
same roll-outs both ways, from sampled worlds at every stage-1 decision of hands played
by a mix of the heuristic and random cards, and want the same start of stage 2.
"""

from __future__ import annotations

from random import Random

import pytest

from strategies.german_heuristic import GermanHeuristic
from whist_sim.games import make_game
from whist_sim.sampling import World, sample_world
from whist_sim.search.german_rollout import play_stage1
from whist_sim.search.german_whist import MODEL
from whist_sim.search.model import rollout_function
from whist_sim.solver import solve, solve_fast

HEURISTIC = GermanHeuristic()


def stage1_states(rules: dict, seeds: range):
    """(view, determinized state) at every stage-1 decision of hands played by a mix of
    heuristic and random cards (so the roll-outs start from varied positions)."""
    game = make_game("german_whist", rules)
    for seed in seeds:
        rng = Random(seed)
        deal = game.new_deal(seed, seed % 2)
        while deal.to_act >= 0 and deal.stage == 1:
            view = deal.view(deal.to_act)
            yield view, MODEL.determinize(view, sample_world(view, rng), rng)
            if rng.random() < 0.3:
                legal = [c for c in range(52) if view.legal >> c & 1]
                deal.apply(rng.choice(legal))
            else:
                deal.apply(HEURISTIC.choose(view, rng))


def python_stage2_start(state) -> tuple[list[int], int, tuple[int, int]]:
    """Play ``state`` with the heuristic at both seats, in Python, to stage 2's start."""
    while state.stage == 1:
        state.apply(HEURISTIC.choose(state.view(state.to_act), Random(0)))
    return list(state.hands), state.leader, state.won1


@pytest.mark.parametrize("rules", [{}, {"count": "all"}, {"count": "weighted"},
                                   {"trumps": "none"}])
def test_compiled_stage1_reaches_the_same_stage2_start_as_the_engine(rules):
    checked = 0
    for view, state in stage1_states(rules, range(12)):
        expected = python_stage2_start(MODEL.determinize(view, _world_of(state), Random(0)))
        assert play_stage1(state, HEURISTIC) == expected
        checked += 1
    assert checked >= 12 * 20  # every stage-1 decision of twelve hands: 26 each


def test_compiled_stage1_follows_a_card_already_led():
    followed = 0
    for view, state in stage1_states({}, range(3)):
        if not view.trick:
            continue
        assert play_stage1(state, HEURISTIC) == python_stage2_start(
            MODEL.determinize(view, _world_of(state), Random(0)))
        followed += 1
    assert followed >= 3 * 13  # the second card of every stage-1 trick of three hands


@pytest.mark.slow
def test_compiled_rollout_gives_the_payoffs_of_the_python_rollout():
    for view, state in stage1_states({}, range(4)):
        python = rollout_function(MODEL, view, 13, solve)  # the pure solver: no compiled copy
        compiled = rollout_function(MODEL, view, 13, solve_fast)
        twin = MODEL.determinize(view, _world_of(state), Random(0))
        assert compiled(state, Random(0)) == python(twin, Random(0))


def test_variants_the_compiled_copy_does_not_cover_are_left_to_python():
    for rules in ({"open_stock": 3}, {"race_to": 7, "count": "all"}):
        view, state = next(iter(stage1_states(rules, range(1))))
        assert play_stage1(state, HEURISTIC) is None
        rollout = rollout_function(MODEL, view, 13, solve_fast)
        twin = MODEL.determinize(view, _world_of(state), Random(0))
        leaf = rollout_function(MODEL, view, 13, solve)
        assert rollout(state, Random(0)) == leaf(twin, Random(0))


def test_compiled_rollout_needs_the_compiled_solver_and_a_stop_at_stage2():
    assert MODEL.compiled_rollout(13, solve) is None
    assert MODEL.compiled_rollout(12, solve_fast) is None
    assert MODEL.compiled_rollout(13, solve_fast) is not None


def test_play_stage1_leaves_the_state_unchanged():
    _, state = next(iter(stage1_states({}, range(1))))
    before = (list(state.hands), state.trick, state.won1, state.next_stock, state.faceup)
    play_stage1(state, HEURISTIC)
    assert (list(state.hands), state.trick, state.won1, state.next_stock, state.faceup) == before


def _world_of(state):
    """The world a determinized state holds (hands and the face-down stock)."""
    return World(tuple(state.hands), tuple(state.stock[state.next_stock:]))
