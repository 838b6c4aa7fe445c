"""``benchmarks/knockout_information.py`` cheats only where and when it says it does.

Its honest setting must play the very games ``whist_sim.play.play_deal`` plays (so
its figures compare with ``search_strength.py``), its cheat must hand over the true
deal, and the search modules must get their own sampler back afterwards.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from whist_sim.games import make_game
from whist_sim.play import play_deal
from whist_sim.sampling import check_world
from whist_sim.search import ismcts as ismcts_search
from whist_sim.search import pimc as pimc_search
from whist_sim.strategy import build_strategy

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def info(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(
        "knockout_information", BENCHMARKS / "knockout_information.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def line_up(search_seat: int):
    game = make_game("knockout_whist", {}, 4)
    heuristic = build_strategy("heuristic", {}, game.name)
    player = build_strategy("ismcts", {"iterations": 4}, game.name)
    return game, [player if seat == search_seat else heuristic for seat in range(4)]


def test_the_honest_setting_plays_the_games_play_deal_plays(info):
    for seed in (3, 8):
        game, players = line_up(seed % 4)
        expected = play_deal(game, players, seed, seed % 4, on_error="abort").outcome
        with info._cheating_samplers():
            outcome = info.play_game(game, players, seed, seed % 4, "none")
        assert outcome.result == expected.result
        assert outcome.seat_facts == expected.seat_facts


def test_the_cheat_hands_over_the_true_deal_only_while_the_cheater_decides(info):
    game = make_game("knockout_whist", {}, 4)
    state = game.new_deal(5, 1)
    view = state.view(state.to_act)
    with info._cheating_samplers():
        info._TrueDeal.state = state
        try:
            world = pimc_search.sample_world(view, random.Random(0))
        finally:
            info._TrueDeal.state = None
        assert world.hands == tuple(state.hands)
        check_world(view, world)
        sampled = ismcts_search.sample_world(view, random.Random(0))
        assert sampled.hands[view.seat] == view.hand
        assert sampled.hands != tuple(state.hands)


def test_the_search_modules_get_their_sampler_back(info):
    before = (pimc_search.sample_world, ismcts_search.sample_world)
    with info._cheating_samplers():
        assert pimc_search.sample_world is not before[0]
    assert (pimc_search.sample_world, ismcts_search.sample_world) == before


def test_an_unknown_setting_is_refused_naming_the_allowed_ones(info):
    with pytest.raises(ValueError, match="allowed values: none, trump, play, all"):
        info.measure(1, "ismcts", {}, ("sometimes",), workers=1)
