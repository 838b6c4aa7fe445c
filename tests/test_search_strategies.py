"""The search strategies as plug-ins: ``solver``, ``pimc``, ``ismcts``, ``simulation_bidder``.

Registration and construction (games and parameters checked with clear messages),
determinism, deciding from the view alone, legality over whole deals, the conformance
check, and the pieces of the two search engines (PIMC's ``evaluate`` and
``candidate_actions``, ISMCTS's ``search`` and ``best_action``). Budgets are tiny: these
tests check behaviour, not playing strength.
"""

from __future__ import annotations

import pickle
from random import Random
from typing import Any

import pytest

from whist_sim.cards import parse_card
from whist_sim.checking import check_strategy
from whist_sim.games import make_game
from whist_sim.games.base import TrickRecord, as_toml
from whist_sim.play import play_deal
from whist_sim.sampling import sample_world
from whist_sim.search import pimc as pimc_module
from whist_sim.search.ismcts import Node, best_action, search
from whist_sim.search.model import model_for
from whist_sim.search.params import exact_cards_for
from whist_sim.search.pimc import candidate_actions, evaluate
from whist_sim.strategy import (
    StrategyError,
    available_strategies,
    build_strategy,
    params_for,
)

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

ALL_GAMES = ("german_whist", "solo_whist", "minnesota_whist", "knockout_whist")
SUPPORTED = {
    "solver": ("german_whist",),
    "pimc": ALL_GAMES,
    "ismcts": ALL_GAMES,
    "simulation_bidder": ("solo_whist", "minnesota_whist", "knockout_whist"),
}
PLAYERS = {"knockout_whist": 3}
"""Table size per game (Knock-out at three players; the others have one size)."""

TINY = {
    "solver": {"worlds": 2, "compiled": False},
    # exact_cards = 4 keeps the pure Python solver cheap in German Whist stage 2;
    # min_make = 0 because min_make > 0 fails outside Solo Whist (see
    # test_pimc_with_default_min_make_plays_every_game).
    "pimc": {"worlds": 2, "bid_worlds": 2, "exact_cards": 4, "min_make": 0.0, "compiled": False},
    "ismcts": {"iterations": 10},
    "simulation_bidder": {"worlds": 2},
}
"""Tiny budgets for every strategy."""

PAIRS = [(name, game) for name, games in SUPPORTED.items() for game in games]
"""Every (strategy, game) the strategy plays."""


def game_of(name: str, variant: dict | None = None, players: int | None = None):
    return make_game(name, variant, players if players is not None else PLAYERS.get(name))


def tiny(name: str, game: str) -> Any:
    return build_strategy(name, params_for(name, TINY[name], game), game)


def play(strategy: Any, game_name: str, seed: int, dealer: int = 0, players: int | None = None):
    game = game_of(game_name, players=players)
    return play_deal(game, [strategy] * game.players, seed, dealer, on_error="abort")


def bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


# -- 1. registration and the games each strategy plays ---------------------------------


@pytest.mark.parametrize("name", sorted(SUPPORTED))
def test_registered_as_entry_point(name):
    registered = available_strategies()
    assert name in registered
    module, _, cls = registered[name].partition(":")
    assert module.startswith("strategies.") and cls


@pytest.mark.parametrize(("name", "game"), PAIRS)
def test_builds_for_each_game_it_plays(name, game):
    strategy = tiny(name, game)
    assert callable(strategy.choose)
    assert game in strategy.games
    assert set(strategy.games) == set(SUPPORTED[name])


@pytest.mark.parametrize(
    ("name", "game"),
    [(name, game) for name, games in SUPPORTED.items() for game in ALL_GAMES if game not in games],
)
def test_game_it_does_not_play_is_refused_naming_the_games_it_does(name, game):
    with pytest.raises(StrategyError) as caught:
        build_strategy(name, TINY[name], game)
    message = str(caught.value)
    assert repr(name) in message
    assert game in message
    supports = message.split("supports:", 1)[1]
    for supported in SUPPORTED[name]:
        assert supported in supports
    for other in set(ALL_GAMES) - set(SUPPORTED[name]):
        assert other not in supports


# -- 2. bad parameters -----------------------------------------------------------------

WORLDS_STRATEGIES = [("pimc", "solo_whist"), ("solver", "german_whist"),
                     ("simulation_bidder", "solo_whist")]
BAD_PARAMS = [
    *[(name, game, "worlds", value, ">= 1")
      for name, game in WORLDS_STRATEGIES for value in (0, -1, 1.5, True)],
    ("pimc", "solo_whist", "bid_worlds", 0, ">= 1"),
    ("pimc", "solo_whist", "exact_cards", -1, ">= 0"),
    ("ismcts", "solo_whist", "iterations", 0, ">= 1"),
    ("ismcts", "solo_whist", "iterations", 2.5, ">= 1"),
    ("ismcts", "solo_whist", "exploration", 0, "> 0"),
    ("ismcts", "solo_whist", "exploration", -0.5, "> 0"),
    ("ismcts", "solo_whist", "exploration", float("inf"), "a finite number > 0"),
    ("pimc", "solo_whist", "confidence", -1, ">= 0"),
    ("pimc", "solo_whist", "confidence", float("inf"), "a finite number >= 0"),
    ("pimc", "solo_whist", "bid_confidence", -1, ">= 0"),
    *[("pimc", "solo_whist", "min_make", value, "a number from 0 to 1")
      for value in (2, -0.1, True, "high")],
    ("pimc", "solo_whist", "bidding", "maybe", "simulation, heuristic"),
    ("pimc", "solo_whist", "fit_calls", "maybe", "never, bidding, always"),
    ("pimc", "german_whist", "budget_candidates", 0, ">= 1"),
    ("pimc", "german_whist", "budget_candidates", 2.5, ">= 1"),
    ("pimc", "solo_whist", "incumbent", "no", "true or false"),
    ("solver", "german_whist", "stage1_tricks", 14, "0..13"),
    ("solver", "german_whist", "stage1_tricks", -1, "0..13"),
    ("solver", "german_whist", "stage1_tricks", 2.0, "0..13"),
    ("pimc", "solo_whist", "compiled", "yes", "true or false"),
    ("solver", "german_whist", "compiled", "yes", "true or false"),
]


@pytest.mark.parametrize(("name", "game", "param", "value", "allowed"), BAD_PARAMS)
def test_bad_parameter_names_strategy_parameter_and_allowed_values(name, game, param, value,
                                                                   allowed):
    with pytest.raises(StrategyError) as caught:
        build_strategy(name, {param: value}, game)
    message = str(caught.value)
    assert f"strategy {name!r}" in message
    assert repr(param) in message
    assert allowed in message
    assert f"not {as_toml(value)}" in message  # as the config spells it: true, not True


@pytest.mark.parametrize(("name", "game"), [(name, games[0]) for name, games in SUPPORTED.items()])
def test_unknown_parameter_names_strategy_and_lists_the_allowed_ones(name, game):
    with pytest.raises(StrategyError) as caught:
        build_strategy(name, {"depth": 3}, game)
    message = str(caught.value)
    assert f"strategy {name!r}" in message
    assert "'depth'" in message
    allowed = message.split("allowed parameters:", 1)[1]
    for param in TINY[name]:
        assert param in allowed


# -- 3. determinism --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "game"), PAIRS)
def test_same_seed_same_actions_other_seeds_differ(name, game):
    strategy = tiny(name, game)
    # Deals of seeds 7, 8, ... until one plays differently from seed 7 (with tiny budgets
    # Solo Whist auctions are often four passes, the same for every seed).
    plays = [play(strategy, game, 7)]
    for seed in range(8, 16):
        plays.append(play(strategy, game, seed))
        if plays[-1].state.log != plays[0].state.log:
            break
    assert plays[-1].state.log != plays[0].state.log
    # The longest deal again, by the same instance (after other deals) and a fresh one.
    longest = max(plays, key=lambda p: len(p.state.log))
    for replayer in (strategy, tiny(name, game)):
        replay = play(replayer, game, longest.seed)
        assert replay.state.log == longest.state.log
        assert replay.outcome == longest.outcome


# -- 4. deciding from the view only ----------------------------------------------------

SEARCHERS = {game: [name for name, games in SUPPORTED.items() if game in games]
             for game in ALL_GAMES}


def decision_points(game_name: str, seed: int, wanted: int = 3):
    """States of a heuristic-played deal at a few decisions with several legal actions.

    Yields fresh states (the deal is replayed to each point), so a caller may use them
    as it likes.
    """
    game = game_of(game_name)
    heuristic = build_strategy("heuristic", None, game_name)
    state = game.new_deal(seed, 0)
    rng = Random(seed)
    several = []  # indices of the decisions with more than one legal action
    step = 0
    while state.to_act >= 0:
        if state.legal & (state.legal - 1):
            several.append(step)
        state.apply(heuristic.choose(state.view(state.to_act), rng))
        step += 1
    picks = sorted({several[0], several[len(several) // 2], several[(2 * len(several)) // 3]})
    for pick in picks[:wanted]:
        state = game.new_deal(seed, 0)
        rng = Random(seed)
        for _ in range(pick):
            state.apply(heuristic.choose(state.view(state.to_act), rng))
        yield state


def two_worlds(view: Any):
    """Two sampled worlds whose hidden hands differ, or None if the view allows only one."""
    rng = Random(2024)
    first = sample_world(view, rng)
    for _ in range(30):
        other = sample_world(view, rng)
        if other.hands != first.hands:
            return first, other
    return None


@pytest.mark.parametrize("game_name", ALL_GAMES)
def test_same_view_from_different_hidden_cards_gives_the_same_choice(game_name):
    model = None
    checked = 0
    for real in decision_points(game_name, seed=31):
        seat = real.to_act
        view = real.view(seat)
        model = model_for(view)
        worlds = two_worlds(view)
        if worlds is None:
            continue
        states = [model.determinize(view, world, Random(5)) for world in worlds]
        views = [state.view(seat) for state in states]
        assert views[0] == views[1] == view
        hidden = [[hand for s, hand in enumerate(state.hands) if s != seat] for state in states]
        assert hidden[0] != hidden[1]
        assert states[0].hands[seat] == states[1].hands[seat] == real.hands[seat]
        for name in SEARCHERS[game_name]:
            strategy = tiny(name, game_name)
            actions = [strategy.choose(state.view(seat), Random(99)) for state in states]
            assert actions[0] == actions[1], (name, game_name, real.phase)
            assert view.legal >> actions[0] & 1
        checked += 1
    assert checked >= 2, f"too few decision points with hidden cards in {game_name}"


@pytest.mark.parametrize("game_name", ALL_GAMES)
def test_choose_leaves_the_real_state_and_its_view_unchanged(game_name):
    for real in decision_points(game_name, seed=32, wanted=2):
        seat = real.to_act
        before = (real.to_act, real.phase, real.legal, list(real.hands), len(real.log))
        view = real.view(seat)
        frozen = pickle.dumps(view)
        for name in SEARCHERS[game_name]:
            action = tiny(name, game_name).choose(view, Random(3))
            assert view.legal >> action & 1
            assert (real.to_act, real.phase, real.legal, list(real.hands), len(real.log)) \
                == before, name
            assert pickle.dumps(view) == frozen, name
            assert real.view(seat) == view, name


# -- 5. legal over whole deals ---------------------------------------------------------

LEGALITY = [
    *[(name, game, None) for name, game in PAIRS if game != "knockout_whist"],
    *[(name, "knockout_whist", n) for name in SUPPORTED if name != "solver" for n in (2, 4)],
]


@pytest.mark.parametrize(("name", "game", "players"), LEGALITY)
def test_every_choice_is_legal_over_whole_deals(name, game, players):
    strategy = tiny(name, game)
    heuristic = build_strategy("heuristic", None, game)
    table = game_of(game, players=players)
    for seed, dealer in ((101, 1), (102, 2 % table.players)):
        # all seats the strategy, then the strategy in one seat against heuristics
        for seats in ([strategy] * table.players,
                      [strategy] + [heuristic] * (table.players - 1)):
            played = play_deal(table, seats, seed, dealer, on_error="abort")
            assert played.state.to_act == -1
            assert "forfeit" not in played.outcome.result
            assert any(entry[3] for entry in played.state.log)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_pimc_with_default_min_make_plays_every_game(game):
    """``min_make`` (and ``fit_calls``) have Solo defaults in every game, so they must work
    for every game."""
    params = {k: v for k, v in TINY["pimc"].items() if k != "min_make"}
    strategy = build_strategy("pimc", params_for("pimc", params, game), game)
    played = play(strategy, game, 103)
    assert played.state.to_act == -1
    assert "forfeit" not in played.outcome.result


# -- 6. the conformance check ----------------------------------------------------------


def test_check_strategy_passes_for_pimc_on_solo_whist():
    # One deal per variant and seat (check_strategy's smallest setting), on Solo Whist only.
    report = check_strategy(tiny("pimc", "solo_whist"), games=["solo_whist"], deals=1)
    assert report.games == ("solo_whist",)
    assert report.variants == 7
    assert report.deals == 7 * 4
    assert report.decisions > 0


def test_check_strategy_passes_for_ismcts_on_german_whist():
    report = check_strategy(tiny("ismcts", "german_whist"), games=["german_whist"], deals=1)
    assert report.games == ("german_whist",)
    assert report.deals == report.variants * 2
    assert report.decisions > 0


# -- 7. PIMC evaluation ----------------------------------------------------------------


def views_with_choices(game_name: str, seed: int):
    for state in decision_points(game_name, seed, wanted=3):
        yield state.view(state.to_act)


@pytest.mark.parametrize("game_name", ALL_GAMES)
def test_evaluate_returns_a_legal_candidate_deterministically(game_name):
    for view in views_with_choices(game_name, seed=41):
        result = evaluate(view, Random(1), worlds=3, exact_cards=0, solve=None)
        assert view.legal >> result.action & 1
        candidates = candidate_actions(view, model_for(view))
        assert result.action in candidates
        assert set(result.values) == set(candidates)
        assert result.worlds >= 1
        assert evaluate(view, Random(1), worlds=3, exact_cards=0, solve=None) == result


@pytest.mark.parametrize("game_name", ALL_GAMES)
def test_evaluate_keeps_the_incumbent_when_confidence_is_huge(game_name, monkeypatch):
    """Another action overturns the incumbent only by a gain of many standard errors.

    At confidence 1e9 that never happens while the gain varies from world to world; the
    one way left is a gain that is positive and the same in every world (a standard error
    of zero), which the recorded per-world values must then show.
    """
    recorded: list[dict[int, float]] = []
    real_values = pimc_module._world_values

    def recording(*args: Any, **kwargs: Any) -> dict[int, float]:
        values = real_values(*args, **kwargs)
        recorded.append(dict(values))
        return values

    monkeypatch.setattr(pimc_module, "_world_values", recording)
    kept = 0
    for view in views_with_choices(game_name, seed=42):
        candidates = candidate_actions(view, model_for(view))
        for incumbent in candidates:
            recorded.clear()
            result = evaluate(view, Random(2), worlds=4, exact_cards=0, solve=None,
                              incumbent=incumbent, confidence=1e9)
            assert view.legal >> result.action & 1
            if result.action == incumbent:
                kept += 1
                continue
            gains = {v[result.action] - v[incumbent] for v in recorded}
            assert len(gains) == 1 and gains.pop() > 0, (incumbent, result)
    assert kept > 0


@pytest.mark.parametrize(("game_name", "expected"), [
    ("german_whist", 13), ("solo_whist", 8), ("minnesota_whist", 6), ("knockout_whist", 6),
])
def test_pimc_solves_exactly_from_its_per_game_default_unless_told(game_name, expected):
    from strategies.pimc import EXACT_CARDS

    view = next(views_with_choices(game_name, seed=5))
    assert exact_cards_for(view, None, elsewhere=6, by_game=EXACT_CARDS) == expected
    assert exact_cards_for(view, 3, elsewhere=6, by_game=EXACT_CARDS) == 3


@pytest.mark.parametrize(("game_name", "expected"), [
    ("german_whist", 100), ("solo_whist", 32), ("minnesota_whist", 40), ("knockout_whist", 20),
])
def test_pimc_card_play_worlds_come_from_its_per_game_default_unless_told(
    game_name, expected, monkeypatch
):
    assert pimc_settings(game_name, {}, monkeypatch)["worlds"] == expected
    assert pimc_settings(game_name, {"worlds": 7}, monkeypatch)["worlds"] == 7


def pimc_settings(game_name: str, params: dict, monkeypatch) -> dict[str, Any]:
    """What ``pimc`` with ``params`` passes to ``evaluate`` for a card play of the game."""
    import strategies.pimc as strategy_module

    asked: list[dict[str, Any]] = []

    def recording(view, rng, **settings):
        asked.append(settings)
        return pimc_module.Evaluation(view.legal.bit_length() - 1, {}, 0, 0)

    monkeypatch.setattr(strategy_module, "evaluate", recording)
    view = next(v for v in views_with_choices(game_name, seed=5) if v.phase == "play")
    build_strategy("pimc", {**params, "compiled": False}, game_name).choose(view, Random(0))
    assert len(asked) == 1
    return asked[0]


def test_evaluate_spends_at_most_budget_candidates_worth_of_worlds(monkeypatch):
    """A decision's roll-outs (one per candidate still racing, per world) stop once they
    reach ``worlds`` x ``budget_candidates``; without the cap, ``worlds`` per candidate.

    Five worlds of at least six candidates end before the race drops any (it starts at
    ``RACE_FROM`` = 6 worlds), so every world values every candidate."""
    rolled: list[int] = []
    real_values = pimc_module._world_values

    def counting(model, view, world, seat, actions, *args: Any, **kwargs: Any):
        rolled.append(len(actions))
        return real_values(model, view, world, seat, actions, *args, **kwargs)

    monkeypatch.setattr(pimc_module, "_world_values", counting)
    views = [v for v in views_with_choices("german_whist", seed=3)
             if v.stage == 1 and len(candidate_actions(v, model_for(v))) >= 6]
    assert views
    for view in views[:4]:
        many = len(candidate_actions(view, model_for(view)))
        for cap, worlds_valued in ((3, -(-5 * 3 // many)), (None, 5)):
            rolled.clear()
            evaluate(view, Random(4), worlds=5, exact_cards=0, solve=None,
                     budget_candidates=cap)
            assert rolled == [many] * worlds_valued


@pytest.mark.parametrize(("game_name", "expected"), [
    ("german_whist", 8), ("solo_whist", None), ("minnesota_whist", None),
    ("knockout_whist", None),
])
def test_pimc_budget_candidates_come_from_its_per_game_default_unless_told(
    game_name, expected, monkeypatch
):
    assert pimc_settings(game_name, {}, monkeypatch)["budget_candidates"] == expected
    told = pimc_settings(game_name, {"budget_candidates": 3}, monkeypatch)
    assert told["budget_candidates"] == 3


def solo_bidding_views(seeds: range):
    """Solo Whist auction views (several calls legal) from heuristic deals."""
    game = game_of("solo_whist")
    heuristic = build_strategy("heuristic", None, "solo_whist")
    for seed in seeds:
        state = game.new_deal(seed, seed % 4)
        while state.phase == "bid":
            view = state.view(state.to_act)
            if view.legal & (view.legal - 1):
                yield view
            state.apply(heuristic.choose(view, Random(0)))


@pytest.mark.parametrize("game_name", ["german_whist", "minnesota_whist", "knockout_whist"])
def test_fit_calls_changes_nothing_outside_solo_whist(game_name):
    for view in views_with_choices(game_name, seed=43):
        plain = evaluate(view, Random(4), worlds=3, exact_cards=0, solve=None)
        assert evaluate(view, Random(4), worlds=3, exact_cards=0, solve=None,
                        fit_calls=True) == plain


def record_fitted_draws(monkeypatch, model: Any) -> list[Any]:
    """The views for which ``model.sample_world`` (worlds fitting the auction) is called."""
    drawn: list[Any] = []
    real = model.sample_world

    def counting(view: Any, rng: Random):
        drawn.append(view)
        return real(view, rng)

    monkeypatch.setattr(model, "sample_world", counting)
    return drawn


def test_fit_calls_draws_solo_worlds_from_the_models_sampler(monkeypatch):
    view = next(solo_bidding_views(range(1)))
    drawn = record_fitted_draws(monkeypatch, model_for(view))
    evaluate(view, Random(1), worlds=2, exact_cards=0, solve=None)
    assert not drawn
    result = evaluate(view, Random(1), worlds=2, exact_cards=0, solve=None, fit_calls=True)
    assert drawn and view.legal >> result.action & 1


def test_pimc_card_play_in_solo_draws_worlds_that_fit_the_auction_unless_told(monkeypatch):
    """Default ``fit_calls = "always"``: card play too draws from the model's sampler;
    ``"bidding"`` keeps card play on uniform worlds."""
    views = [state.view(state.to_act) for seed in (44, 45, 46)
             for state in decision_points("solo_whist", seed, 3) if state.phase == "play"]
    model = model_for(views[0])
    play_views = [view for view in views if len(candidate_actions(view, model)) > 1]
    assert play_views
    drawn = record_fitted_draws(monkeypatch, model)
    params = {**TINY["pimc"], "incumbent": False}
    for view in play_views:
        build_strategy("pimc", {**params, "fit_calls": "bidding"}, "solo_whist").choose(
            view, Random(2))
    assert not drawn
    for view in play_views:
        build_strategy("pimc", params, "solo_whist").choose(view, Random(2))
    assert set(map(id, drawn)) == set(map(id, play_views))


def german_view(**fields: Any):
    """A German Whist view (the first decision of a deal) with some fields replaced."""
    state = game_of("german_whist").new_deal(1, 0)
    return state.view(state.to_act)._replace(**fields)


def cards(text: str) -> int:
    mask = 0
    for token in text.split():
        mask |= 1 << parse_card(token)
    return mask


def test_candidate_actions_keeps_one_card_per_run_of_equivalent_cards():
    hand = cards("8S 6S AH")
    seven_gone = (TrickRecord(0, 1, (parse_card("7S"), parse_card("2D")), 1),)
    view = german_view(hand=hand, legal=hand, trick=(), tricks=seven_gone)
    model = model_for(view)
    assert candidate_actions(view, model) == [parse_card("6S"), parse_card("AH")]
    # the 7 still out: 8 and 6 are different cards
    live = german_view(hand=hand, legal=hand, trick=(), tricks=())
    assert candidate_actions(live, model) == sorted(bits(hand))
    # the 7 in the trick now being played: the 8 beats it, the 6 does not
    on_table = german_view(hand=hand, legal=cards("8S 6S"), trick=(parse_card("7S"),),
                           tricks=())
    assert candidate_actions(on_table, model) == [parse_card("6S"), parse_card("8S")]


# -- 8. ISMCTS -------------------------------------------------------------------------


@pytest.mark.parametrize("game_name", ALL_GAMES)
def test_ismcts_root_visits_sum_to_iterations_and_best_is_most_visited(game_name):
    iterations = 25
    searched = 0
    for view in views_with_choices(game_name, seed=43):
        children = search(view, Random(4), iterations=iterations, exploration=0.7)
        candidates = candidate_actions(view, model_for(view))
        assert sorted(children) == candidates
        best = best_action(children)
        assert view.legal >> best & 1
        if len(candidates) == 1:  # several legal cards, all equivalent: nothing to search
            assert children[best].visits == 0
            continue
        searched += 1
        assert sum(child.visits for child in children.values()) == iterations
        # every root action is available in every iteration (the root is the view itself)
        assert all(child.available == iterations for child in children.values())
        assert children[best].visits == max(child.visits for child in children.values())
    assert searched > 0


def test_best_action_breaks_ties_to_the_lowest_action():
    children = {}
    for action, visits in ((30, 5), (12, 5), (7, 2), (40, 4)):
        node = Node()
        node.visits = visits
        children[action] = node
    assert best_action(children) == 12
    children[7].visits = 6
    assert best_action(children) == 7


def test_ismcts_search_is_deterministic_for_a_seed():
    view = next(iter(views_with_choices("solo_whist", seed=44)))
    one = search(view, Random(5), iterations=20)
    two = search(view, Random(5), iterations=20)
    assert {a: (n.visits, n.total) for a, n in one.items()} == {
        a: (n.visits, n.total) for a, n in two.items()
    }


# -- the compiled solver ---------------------------------------------------------------


def test_solver_picks_the_same_cards_compiled_or_not():
    """The numba solver (compiled once, then cached on disk) agrees with the pure one."""
    pure = build_strategy("solver", {"worlds": 2, "compiled": False}, "german_whist")
    fast = build_strategy("solver", {"worlds": 2, "compiled": True}, "german_whist")
    for seed in (1, 2, 3):
        a = play(pure, "german_whist", seed)
        b = play(fast, "german_whist", seed)
        assert a.state.log == b.state.log
        assert a.outcome == b.outcome


@pytest.mark.parametrize(("game", "param", "value", "applies"), [
    ("german_whist", "min_make", 0.1, "solo_whist"),
    ("german_whist", "bid_worlds", 5, "knockout_whist, minnesota_whist, solo_whist"),
    ("german_whist", "bidding", "heuristic", "knockout_whist, minnesota_whist, solo_whist"),
    ("minnesota_whist", "fit_calls", "never", "solo_whist"),
])
def test_a_parameter_that_does_nothing_in_the_game_is_refused(game, param, value, applies):
    """Two German Whist entrants, pimc and pimc with min_make, bidding and bid_worlds set,
    played every pair even: the parameters of a game's bidding do nothing in a game without
    one, and the run compared a strategy with itself unawares (a probe)."""
    with pytest.raises(StrategyError) as caught:
        build_strategy("pimc", {"worlds": 2, param: value}, game)
    assert str(caught.value) == (
        f"strategy 'pimc': parameter {param!r} does nothing in {game} (it applies in {applies}"
        " only); leave it out")


def test_a_parameter_that_applies_in_the_game_is_taken():
    assert build_strategy("pimc", {"worlds": 2, "min_make": 0.5}, "solo_whist").min_make == 0.5
    assert build_strategy("pimc", {"worlds": 2, "bid_worlds": 3},
                          "knockout_whist").bid_worlds == 3


@pytest.mark.parametrize("declared", [["bid_worlds"], {"bid_worlds": "solo_whist"},
                                      {"bid_worlds": 3}])
def test_a_malformed_game_parameters_is_refused_naming_the_form(declared, monkeypatch):
    """A plug-in's game_parameters as a list ended the build in an AttributeError, and a
    text for a set of games was read letter by letter ("it applies in _, h, i, l, ...
    only"), a hostile review's findings."""
    from strategies.pimc import Pimc

    monkeypatch.setattr(Pimc, "game_parameters", declared)
    with pytest.raises(StrategyError) as caught:
        build_strategy("pimc", {"worlds": 2, "bid_worlds": 3}, "german_whist")
    assert ("its game_parameters must map a parameter's name to a set of game names, e.g."
            " {'bid_worlds': frozenset({'solo_whist'})}") in str(caught.value)
