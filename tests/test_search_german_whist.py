"""German Whist's SearchModel: determinized states play on exactly like the real deal,
payoffs rank results, and the exact stage-2 values agree with a minimax over the engine.

Deals are played by the real engine (random and heuristic players mixed, every variant
that changes the state or the scoring). At each decision the TRUE world is read off the
real state, the copy is built from the acting seat's view and that world only, and both
are played on with the real deal's remaining actions: every view must agree (but the
opponent's ``drawn``, its face-down draws before the copy was made, which the viewing
seat never saw) and the outcomes must be identical.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from strategies.german_heuristic import GermanHeuristic
from whist_sim.cards import FULL_DECK
from whist_sim.games import make_game
from whist_sim.games.german_whist import GermanWhist, GermanWhistDeal, GermanWhistView
from whist_sim.sampling import World, check_world, sample_world
from whist_sim.search.german_whist import MARGIN_WEIGHT, MODEL, stage2_best_card
from whist_sim.search.model import model_for, play_out
from whist_sim.solver import solve

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

VARIANTS = [
    {},
    {"dealer": 1},
    {"open_stock": 3},
    {"open_stock": 26},
    {"count": "all"},
    {"count": "weighted", "open_stock": 2},
    {"trumps": "none"},
    {"race_to": 7},
    {"race_to": 5, "count": "all"},
    {"race_to": 20, "count": "weighted"},
    {"match": "best_of_3"},
]
"""Variant settings (plus the dealer) covering every kind of decision and scoring."""

HEURISTIC = GermanHeuristic()


def _game_and_dealer(setting: dict[str, Any]) -> tuple[GermanWhist, int]:
    variant = dict(setting)
    dealer = variant.pop("dealer", 0)
    return make_game("german_whist", variant), dealer  # type: ignore[return-value]


def _bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _choose(state: GermanWhistDeal, style: str, rng: random.Random) -> int:
    """A real player's action: random, heuristic, or one of each by seat."""
    seat = state.to_act
    if style == "heuristic" or (style == "mixed" and seat == 0):
        return HEURISTIC.choose(state.view(seat), rng)
    return rng.choice(_bits(state.legal))


def _play(game: GermanWhist, seed: int, dealer: int, style: str) -> list[int]:
    """Play one real deal; the actions chosen, in order."""
    rng = random.Random(seed)
    state = game.new_deal(seed, dealer)
    actions = []
    while state.to_act >= 0:
        action = _choose(state, style, rng)
        actions.append(action)
        state.apply(action)
    return actions


def _replay(game: GermanWhist, seed: int, dealer: int, actions: list[int]) -> GermanWhistDeal:
    state = game.new_deal(seed, dealer)
    for action in actions:
        state.apply(action)
    return state


def _true_world(state: GermanWhistDeal) -> World:
    """The real present: both hands and the face-down stock, next to be drawn first."""
    return World(tuple(state.hands), tuple(state.stock[state.next_stock:]))


def _assert_views_equal(real: GermanWhistView, copied: GermanWhistView, skip: tuple = ()) -> None:
    for name in GermanWhistView._fields:
        if name not in skip:
            assert getattr(copied, name) == getattr(real, name), f"view field {name} differs"


def _clone(state: GermanWhistDeal) -> GermanWhistDeal:
    """An independent copy of a state (its mutable lists copied)."""
    twin = copy.copy(state)
    twin.hands = list(state.hands)
    twin.drawn = list(state.drawn)
    twin.log = list(state.log)
    return twin


def _minimax(state: GermanWhistDeal) -> tuple[float, float]:
    """Payoffs of best play by both seats, applying every legal action with the engine."""
    if state.to_act < 0:
        return MODEL.payoffs(state)
    seat = state.to_act
    best: tuple[float, float] | None = None
    for action in _bits(state.legal):
        child = _clone(state)
        child.apply(action)
        value = _minimax(child)
        if best is None or value[seat] > best[seat]:
            best = value
    assert best is not None
    return best


def _action_values(state: GermanWhistDeal, seat: int) -> dict[int, float]:
    values = {}
    for action in _bits(state.legal):
        child = _clone(state)
        child.apply(action)
        values[action] = _minimax(child)[seat]
    return values


# -- determinize -----------------------------------------------------------------------


@pytest.mark.parametrize("setting", VARIANTS, ids=str)
def test_determinized_true_world_plays_on_exactly_like_the_real_deal(setting):
    game, dealer = _game_and_dealer(setting)
    rng = random.Random(7)
    phases = set()
    for seed, style in ((11, "random"), (12, "heuristic"), (13, "mixed")):
        actions = _play(game, seed, dealer, style)
        for i in range(len(actions)):
            real = _replay(game, seed, dealer, actions[:i])
            seat = real.to_act
            view = real.view(seat)
            state = MODEL.determinize(view, _true_world(real), rng)
            assert isinstance(state, GermanWhistDeal)
            assert state.seed != seed
            assert (state.to_act, state.phase, state.legal) == (seat, real.phase, real.legal)
            _assert_views_equal(view, state.view(seat))
            phases.add((real.phase, real.stage, len(real.trick)))
            # The opponent's earlier face-down draws are the one thing the copy lacks.
            skip = {1 - seat: ("drawn",), seat: ()}
            for action in actions[i:]:
                real.apply(action)
                state.apply(action)
                assert (state.to_act, state.phase, state.legal) == (
                    real.to_act, real.phase, real.legal)
                for s in (0, 1):
                    _assert_views_equal(real.view(s), state.view(s), skip[s])
            assert state.over and real.over
            got, want = state.outcome(), real.outcome()
            assert (got.tricks, got.score, got.net, got.result, dict(got.facts)) == (
                want.tricks, want.score, want.net, want.result, dict(want.facts))
    # Every kind of decision point was met: leads and follows in both stages.
    assert {("play", 1, 0), ("play", 1, 1)} <= phases
    if game.variant.race_to is None:
        assert {("play", 2, 0), ("play", 2, 1)} <= phases
    if game.variant.open_stock > 1:
        assert any(phase == "take" for phase, _, _ in phases)


@pytest.mark.parametrize("setting", VARIANTS, ids=str)
def test_determinized_sampled_worlds_play_out_with_cards_conserved(setting):
    game, dealer = _game_and_dealer(setting)
    rng = random.Random(3)
    for seed, style in ((21, "random"), (22, "heuristic")):
        actions = _play(game, seed, dealer, style)
        for i in range(0, len(actions), 3):
            real = _replay(game, seed, dealer, actions[:i])
            view = real.view(real.to_act)
            world = sample_world(view, rng)
            check_world(view, world)
            state = MODEL.determinize(view, world, rng)
            assert (state.to_act, state.phase, state.legal) == (real.to_act, real.phase,
                                                                real.legal)
            _assert_views_equal(view, state.view(view.seat))
            payoffs = play_out(MODEL, state, rng)
            assert state.over
            assert sum(payoffs) == pytest.approx(1.0)
            played = 0
            for record in state.tricks:
                for card in record.cards:
                    assert not played >> card & 1
                    played |= 1 << card
            rest = state.hands[0] | state.hands[1] | sum(1 << c for c in state.faceup)
            rest |= sum(1 << c for c in state.stock[state.next_stock:])
            assert not rest & played
            assert played | rest == FULL_DECK
            count = sum(h.bit_count() for h in state.hands) + len(state.faceup)
            count += len(state.stock) - state.next_stock + played.bit_count()
            assert count == 52
            if game.variant.race_to is None:
                assert len(state.tricks) == 26 and played == FULL_DECK


def test_determinize_refuses_a_view_of_the_seat_not_to_act():
    game = make_game("german_whist")
    real = game.new_deal(5, 0)
    idle = 1 - real.to_act
    with pytest.raises(ValueError, match="not a decision point"):
        MODEL.determinize(real.view(idle), _true_world(real), random.Random(0))


def test_determinize_refuses_a_world_that_contradicts_the_view():
    game = make_game("german_whist")
    real = game.new_deal(5, 0)
    view = real.view(real.to_act)
    world = _true_world(real)
    with pytest.raises(ValueError, match="stock"):
        MODEL.determinize(view, World(world.hands, world.stock[1:]), random.Random(0))
    swapped = World(world.hands[::-1], world.stock)
    with pytest.raises(ValueError, match="differs from its view"):
        MODEL.determinize(view, swapped, random.Random(0))


def test_model_for_finds_the_german_model():
    view = make_game("german_whist").new_deal(1, 0).view(1)
    assert model_for(view) is MODEL
    assert MODEL.game == "german_whist"


# -- payoffs and roll-out policies ----------------------------------------------------------


@pytest.mark.parametrize("setting", [{}, {"count": "all"}, {"count": "weighted"},
                                     {"race_to": 7}], ids=str)
def test_payoffs_are_the_result_plus_a_small_margin_tie_break(setting):
    game, _ = _game_and_dealer(setting)
    results = set()
    for seed in range(60):
        actions = _play(game, seed, seed % 2, "random")
        state = _replay(game, seed, seed % 2, actions)
        outcome = state.outcome()
        payoffs = MODEL.payoffs(state)
        assert sum(payoffs) == pytest.approx(1.0)
        for seat in (0, 1):
            base = {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome.result[seat]]
            margin = MARGIN_WEIGHT * (outcome.net[seat] - outcome.net[1 - seat])
            assert payoffs[seat] == pytest.approx(base + margin)
            # The margin never turns a result around: a win is worth more than a draw
            # (0.5), a loss less, whatever the margins.
            assert (payoffs[seat] - 0.5) * (base - 0.5) > 0 or base == 0.5
        results.add(outcome.result)
        if outcome.result[0] == "win":
            assert payoffs[0] > payoffs[1]
    assert ("win", "loss") in results and ("loss", "win") in results


def test_rollout_policies_are_the_heuristic_built_once():
    state = make_game("german_whist").new_deal(3, 0)
    policies = MODEL.rollout_policies(state)
    assert len(policies) == 2
    assert all(isinstance(p, GermanHeuristic) for p in policies)
    assert MODEL.rollout_policies(state) is policies


# -- exact values ------------------------------------------------------------------------

EXACT_VARIANTS = [
    ({}, "solver"),
    ({"count": "all"}, "solver"),
    ({"count": "weighted"}, "solver"),
    ({"trumps": "none"}, "solver"),
    ({"race_to": 7}, "solver"),
    ({"race_to": 16, "count": "all"}, "solver"),
    ({"race_to": 22, "count": "weighted"}, "solver"),
    ({"race_to": 6}, "race"),
    ({"race_to": 13, "count": "all"}, "race"),
    ({"race_to": 19, "count": "weighted"}, "race"),
]
"""Variants for stage-2 endings, and whether their small endings are solved or real races.

Under ``race_to`` a 3-4 card ending is a real race (both seats can still reach the
target) when the target is low enough; otherwise at most one seat can reach it.
"""


def _endings(game: GermanWhist, seeds: range, sizes: tuple[int, ...]) -> list[GermanWhistDeal]:
    """Real stage-2 states with at most max(sizes) cards a hand, leading and following."""
    out = []
    for seed in seeds:
        style = ("random", "heuristic", "mixed")[seed % 3]
        rng = random.Random(seed)
        state = game.new_deal(seed, seed % 2)
        while state.to_act >= 0:
            if state.stage == 2 and state.hands[state.to_act].bit_count() in sizes:
                out.append(_clone(state))
            state.apply(_choose(state, style, rng))
    return out


@pytest.mark.parametrize(("setting", "kind"), EXACT_VARIANTS, ids=str)
def test_exact_values_agree_with_minimax_over_the_engine(setting, kind):
    game, _ = _game_and_dealer(setting)
    race = game.variant.race_to
    solved = skipped = 0
    for state in _endings(game, range(12), (3, 4)):
        seat = state.to_act
        exact = MODEL.exact_values(state, seat, 4, solve)
        if exact is None:
            # Only a race both seats can still win is left to the roll-outs.
            assert race is not None
            units = [state.units(s) for s in (0, 1)]
            weight = 2 if game.variant.count == "weighted" else 1
            left = 26 - state.trick_no
            needs = [-(-(race - u) // weight) for u in units]
            assert sum(needs) <= left
            skipped += 1
            continue
        assert exact == _action_values(state, seat)
        solved += 1
    if kind == "race":
        assert skipped >= 5
    else:
        assert solved >= 10 and not skipped


def test_exact_values_on_five_card_endings():
    game = make_game("german_whist")
    endings = _endings(game, range(4), (5,))
    assert endings
    for state in endings:
        seat = state.to_act
        assert MODEL.exact_values(state, seat, 5, solve) == _action_values(state, seat)


def _result_values(payoffs: tuple[float, float]) -> tuple[float, float]:
    """The hand's result (1 won, 0.5 drawn, 0 lost) read off ``payoffs`` with the margin."""
    def result(payoff: float) -> float:
        return 1.0 if payoff > 0.75 else 0.5 if payoff > 0.25 else 0.0

    return result(payoffs[0]), result(payoffs[1])


@pytest.mark.parametrize("setting", [{}, {"count": "all"}, {"count": "weighted"}], ids=str)
def test_exact_payoffs_are_the_result_of_best_play(setting):
    """Where a roll-out reaches stage 2 it stops with the result of best play by both (a
    draw possible under ``count = "all"``), settled by zero-window tests: the same as
    the engine's minimax, with the pure and the compiled solver."""
    from whist_sim.solver import solve_fast

    game = make_game("german_whist", setting)
    endings = _endings(game, range(8), (3, 4, 5))
    assert len(endings) >= 20
    results = set()
    for state in endings:
        expected = _result_values(_minimax(state))
        assert MODEL.exact_payoffs(state, 5, solve) == expected
        assert MODEL.exact_payoffs(state, 5, solve_fast) == expected
        results.add(expected)
    assert {(1.0, 0.0), (0.0, 1.0)} <= results


def test_exact_payoffs_settle_a_stage2_position_once():
    """A position reached again (another world, another candidate card) is not solved
    again; a solver other than the library's is asked for the exact count."""
    game = make_game("german_whist", {"count": "weighted"})
    calls = []

    def counting_solve(*args):
        calls.append(args)
        return solve(*args)

    endings = _endings(game, range(6), (3, 4))
    assert len(endings) >= 20
    for state in endings:
        payoffs = MODEL.exact_payoffs(state, 4, counting_solve)
        assert payoffs == _result_values(_minimax(state))
        solved = len(calls)
        assert MODEL.exact_payoffs(_clone(state), 4, counting_solve) == payoffs
        assert len(calls) == solved
    assert calls
    assert MODEL.exact_payoffs(endings[0], 2, counting_solve) is None  # over max_cards


def test_exact_values_is_none_outside_stage_2_or_above_max_cards():
    game = make_game("german_whist", {"open_stock": 2})
    actions = _play(game, 41, 0, "random")
    phases = set()
    for i in range(len(actions)):
        state = _replay(game, 41, 0, actions[:i])
        seat = state.to_act
        exact = MODEL.exact_values(state, seat, 13, solve)
        if state.phase == "take" or state.stage == 1:
            assert exact is None
        else:
            assert exact is not None and set(exact) == set(_bits(state.legal))
            small = MODEL.exact_values(state, seat, 12, solve)
            assert (small is None) == (max(h.bit_count() for h in state.hands) > 12)
        phases.add((state.phase, state.stage))
    assert {("take", 1), ("play", 1), ("play", 2)} <= phases


def test_exact_values_refuses_a_seat_not_to_act():
    game = make_game("german_whist")
    state = _endings(game, range(1), (3,))[0]
    with pytest.raises(ValueError, match="to act"):
        MODEL.exact_values(state, 1 - state.to_act, 4, solve)


def test_exact_values_on_a_determinized_state_match_the_real_state():
    game = make_game("german_whist", {"count": "weighted"})
    for real in _endings(game, range(3), (6,)):
        seat = real.to_act
        state = MODEL.determinize(real.view(seat), _true_world(real), random.Random(0))
        assert MODEL.exact_values(state, seat, 6, solve) == MODEL.exact_values(
            real, seat, 6, solve)


# -- stage2_best_card ----------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "kind"), EXACT_VARIANTS, ids=str)
def test_stage2_best_card_is_a_minimax_best_card(setting, kind):
    game, _ = _game_and_dealer(setting)
    # A race stops early, so its endings are searched from 5 cards a hand as well.
    endings = _endings(game, range(12), (3, 4, 5) if kind == "race" else (3, 4))
    assert len(endings) >= 5
    for state in endings:
        seat = state.to_act
        values = _action_values(state, seat)
        card = stage2_best_card(state.view(seat), solve)
        assert values[card] == max(values.values())


def test_stage2_best_card_prefers_the_bigger_win():
    """Where several cards all win the hand, the margin tie-break picks the one winning most."""
    game = make_game("german_whist", {"count": "all"})
    margin_decided = 0
    for state in _endings(game, range(12), (4,)):
        seat = state.to_act
        values = _action_values(state, seat)
        winning = {v for v in values.values() if v > 0.75}
        card = stage2_best_card(state.view(seat), solve)
        assert values[card] == max(values.values())
        if len(winning) > 1:
            margin_decided += 1
            assert values[card] == max(winning)
    assert margin_decided


def test_stage2_best_card_refuses_stage_1():
    view = make_game("german_whist").new_deal(2, 0).view(1)
    with pytest.raises(ValueError, match="stage-2"):
        stage2_best_card(view, solve)
