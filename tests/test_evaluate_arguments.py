"""``whist_sim.search.pimc.evaluate`` checks its arguments before any world is drawn:
a bad one raises an error naming the argument, the value and the values allowed."""

from __future__ import annotations

from random import Random

import pytest

from tests.test_search_strategies import views_with_choices
from whist_sim.search.pimc import evaluate
from whist_sim.solver import solve


@pytest.fixture(scope="module")
def view():
    return next(iter(views_with_choices("german_whist", seed=41)))


GOOD = {"worlds": 2, "exact_cards": 0, "solve": None}


@pytest.mark.parametrize(("changes", "error", "words"), [
    ({"exact_cards": 6}, ValueError,
     "solve = None needs exact_cards = 0 (roll-outs only), not 6; to solve endings of up to"
     " that many cards pass solve=whist_sim.solver.solve"),
    ({"exact_cards": 6, "solve": "solve"}, TypeError,
     "solve = 'solve' is not allowed; allowed values: whist_sim.solver.solve,"
     " whist_sim.solver.solve_fast"),
    ({"worlds": 0}, ValueError, "worlds = 0 is not allowed; allowed values: whole numbers >= 1"),
    ({"worlds": 2.5}, ValueError, "worlds = 2.5 is not allowed"),
    ({"worlds": True}, ValueError, "worlds = True is not allowed"),
    ({"exact_cards": -1}, ValueError,
     "exact_cards = -1 is not allowed; allowed values: whole numbers >= 0"),
    ({"candidates": []}, ValueError,
     "candidates = [] is not allowed; allowed values: None (every legal action) or a"
     " non-empty list of actions"),
    ({"candidates": "AS"}, ValueError, "candidates = 'AS' is not allowed"),
    ({"confidence": -1.0}, ValueError,
     "confidence = -1.0 is not allowed; allowed values: numbers >= 0"),
    ({"confidence": float("nan")}, ValueError, "confidence = nan is not allowed"),
    ({"min_make": 1.5}, ValueError,
     "min_make = 1.5 is not allowed; allowed values: numbers from 0 to 1"),
    ({"budget_candidates": 0}, ValueError,
     "budget_candidates = 0 is not allowed; allowed values: None (no cap) or whole numbers >= 1"),
    ({"candidates": [99]}, ValueError, "candidates = [99]: [99] not among seat"),
    ({"incumbent": 99}, ValueError, "incumbent = [99]: [99] not among seat"),
])
def test_a_bad_argument_is_named_with_the_values_allowed(view, changes, error, words):
    with pytest.raises(error) as caught:
        evaluate(view, Random(1), **{**GOOD, **changes})
    assert str(caught.value).startswith("evaluate: ")
    assert words in str(caught.value)


def test_a_candidate_the_seat_may_not_play_is_refused_with_its_legal_actions(view):
    """A card not held was returned as the choice, with no world drawn."""
    illegal = next(a for a in range(52) if not view.legal >> a & 1)
    allowed = [a for a in range(52) if view.legal >> a & 1]
    with pytest.raises(ValueError, match=rf"allowed values: \[{allowed[0]}, "):
        evaluate(view, Random(1), **GOOD, candidates=[illegal])


@pytest.mark.parametrize(("changes", "words"), [
    ({"iterations": 0}, "iterations = 0 is not allowed; allowed values: whole numbers >= 1"),
    ({"iterations": -5}, "iterations = -5 is not allowed"),
    ({"exploration": -1}, "exploration = -1 is not allowed; allowed values: finite numbers >= 0"),
    ({"exploration": float("nan")}, "exploration = nan is not allowed"),
    ({"exact_cards": 13}, "solve = None needs exact_cards = 0"),
])
def test_ismcts_search_refuses_a_bad_budget_naming_it(view, changes, words):
    """An empty or negative budget returned no children; a NaN exploration ran."""
    from whist_sim.search.ismcts import search

    with pytest.raises(ValueError) as caught:
        search(view, Random(1), **{"iterations": 4, **changes})
    assert str(caught.value).startswith("search: ") and words in str(caught.value)


def test_good_arguments_still_evaluate(view):
    rolled = evaluate(view, Random(1), **GOOD)
    solved = evaluate(view, Random(1), worlds=2, exact_cards=26, solve=solve,
                      budget_candidates=2, min_make=1, confidence=0)
    for result in (rolled, solved):
        assert view.legal >> result.action & 1


@pytest.mark.parametrize("rng", [1, None, "seed"])
def test_a_seed_given_as_rng_is_refused_naming_rng(view, rng):
    """``evaluate(view, 1, ...)`` (a seed where a Random goes) failed deep in the sampler:
    "'int' object has no attribute 'randrange'"; search and sample_world alike."""
    from whist_sim.sampling import sample_world
    from whist_sim.search.ismcts import search

    allowed = "is not allowed; allowed values: a random.Random"
    with pytest.raises(TypeError, match=f"evaluate: rng = {rng!r} {allowed}"):
        evaluate(view, rng, **GOOD)
    with pytest.raises(TypeError, match=f"search: rng = {rng!r} {allowed}"):
        search(view, rng, iterations=2)
    with pytest.raises(TypeError, match=f"sample_world: rng = {rng!r} {allowed}"):
        sample_world(view, rng)


def test_a_deal_state_given_as_view_is_refused_asking_for_a_view():
    """A notebook user passes the deal state itself; the error said only "no search model
    for views of type GermanWhistDeal"."""
    from whist_sim.games import make_game

    state = make_game("german_whist").new_deal(5, 0)
    with pytest.raises(TypeError, match=r"GermanWhistDeal; give a seat's view, state\.view"):
        evaluate(state, Random(1), **GOOD)
