"""The Solo Whist search model: determinized deals continue the real deal exactly.

The spec of ``determinize`` is the real engine: at every decision point of many
deals (random and heuristic auctions and play, every contract forced in turn, every
variant key that changes play or scoring) the copy built from the acting seat's view
and the true world must be the real deal in every engine field except the seed (-1,
a hand-built deal) and the order of cards within each seat's part of the deck (not
knowable, never read after dealing); then the same actions must give the same
outcome. ``exact_values`` is checked against an exhaustive minimax over the real
engine on small endings.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from strategies.random_play import RandomStrategy
from strategies.solo_heuristic import SoloHeuristic, estimate_tricks
from whist_sim.cards import FULL_DECK
from whist_sim.games import make_game
from whist_sim.games.solo_whist import (
    ABUNDANCE,
    ABUNDANCE_DECLARED,
    BIDS,
    CONTRACTS,
    COP,
    MISERE,
    PASS,
    PROP,
    ROYAL_ABUNDANCE,
    SOLO,
    SPREAD_MISERE,
    SoloWhistDeal,
)
from whist_sim.sampling import World, check_world, sample_world
from whist_sim.search import solo_whist as solo_model
from whist_sim.search.model import model_for, play_out
from whist_sim.search.solo_whist import MODEL, SoloWhistModel
from whist_sim.solver import solve

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

VARIANTS = [
    {},
    {"play_out": True},
    {"overtricks": True},
    {"upcard": False, "payments": "classic", "stake": 0.5},
    {"prop_and_cop": False, "overtricks": True, "stake": 2.0},
    {"session_hands": 20, "target": 10},
]
CALLS = [PROP, SOLO, MISERE, ABUNDANCE, ROYAL_ABUNDANCE, SPREAD_MISERE, ABUNDANCE_DECLARED]
HEURISTIC = SoloHeuristic()
BOLD = SoloHeuristic(aggression=2.5)
RANDOM = RandomStrategy()
NOT_KNOWABLE = {"seed", "deck", "game"}
"""Engine fields a copy cannot share with the real deal (checked separately)."""


# -- driving real deals ----------------------------------------------------------------

class Driver:
    """Chooses every action of one real deal: a forced contract or a free auction, then
    card play by the heuristic or at random, seat by seat."""

    def __init__(self, rng: random.Random, call: int | None, variant: dict) -> None:
        self.rng = rng
        self.call = call
        self.called = False
        self.order = self.partner_order = -1
        if call is not None:
            # The partner must come after the proposer in the auction to Cop.
            order = rng.randrange(3 if call == PROP else 4)
            self.order = order
            self.partner_order = rng.randrange(order + 1, 4) if call == PROP else -1
        self.bid_policy = rng.choice([RANDOM, BOLD, HEURISTIC])
        self.play = [rng.choice([RANDOM, HEURISTIC]) for _ in range(4)]

    def choose(self, state: SoloWhistDeal) -> int:
        view = state.view(state.to_act)
        rng = self.rng
        if view.phase == "bid":
            if self.call is None:
                if self.bid_policy is RANDOM and rng.random() < 0.6:
                    return PASS
                return self.bid_policy.choose(view, rng)
            eldest = (view.dealer + 1) % 4
            if view.seat == (eldest + self.order) % 4 and not self.called:
                self.called = True
                return self.call
            partner = (eldest + self.partner_order) % 4
            if self.partner_order >= 0 and view.seat == partner and view.legal >> COP & 1:
                return COP
            return PASS
        if view.phase == "trump":
            return RANDOM.choose(view, rng)
        return self.play[view.seat].choose(view, rng)


def callable_in(variant: dict, call: int) -> bool:
    return not (
        (call == PROP and variant.get("prop_and_cop") is False)
        or (call == ROYAL_ABUNDANCE and variant.get("upcard") is False)
    )


def real_deals(variant: dict, seeds: range) -> Iterator[tuple[SoloWhistDeal, Driver]]:
    """Fresh real deals: each seed a free auction, then every contract forced once."""
    game = make_game("solo_whist", variant)
    for seed in seeds:
        rng = random.Random(seed)
        yield game.new_deal(seed * 7919 + 1, seed % 4), Driver(rng, None, variant)
        for call in CALLS:
            if callable_in(variant, call):
                yield game.new_deal(seed * 7919 + call, (seed + call) % 4), Driver(
                    rng, call, variant
                )


def true_world(state: SoloWhistDeal) -> World:
    return World(tuple(state.hands))


def kind_of_point(state: SoloWhistDeal) -> str:
    if state.phase != "play":
        return state.phase
    where = "lead" if not state.trick else "follow"
    if len(state.tricks) == 0:
        return f"first trick {where}"
    if len(state.tricks) == 12:
        return f"last trick {where}"
    return f"play {where}"


def assert_same_deal(copy_: SoloWhistDeal, real: SoloWhistDeal) -> None:
    """Every engine field equal, but the seed and the order within each seat's deal."""
    mine, theirs = vars(copy_), vars(real)
    assert set(mine) == set(theirs)
    for name in theirs:
        if name not in NOT_KNOWABLE:
            assert mine[name] == theirs[name], name
    assert copy_.seed == -1 != real.seed
    assert copy_.game.variant == real.game.variant
    assert type(copy_.game) is type(real.game)
    # The copy's deck deals the same cards to each seat (from the dealer's left), with
    # the upcard last; only the order within a seat's cards is the copy's own (with
    # upcard = false even the dealer's last card is private).
    for k in range(4):
        assert sorted(copy_.deck[k::4]) == sorted(real.deck[k::4])
    if real.upcard >= 0:
        assert copy_.deck[51] == real.deck[51] == real.upcard


# -- determinize: the key test -----------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={v[k]}" for k in v))
def test_determinize_with_the_true_world_continues_the_real_deal(variant):
    points: Counter[str] = Counter()
    contracts: Counter[str] = Counter()
    for real, driver in real_deals(variant, range(6)):
        actions: list[int] = []
        copies: list[tuple[int, SoloWhistDeal]] = []
        rng = random.Random(0)  # determinize draws nothing in Solo; any generator will do
        while real.to_act >= 0:
            view = real.view(real.to_act)
            det = MODEL.determinize(view, true_world(real), rng)
            assert det.to_act == real.to_act
            assert det.phase == real.phase
            assert det.legal == real.legal
            for seat in range(4):
                assert det.view(seat) == real.view(seat)
            assert_same_deal(det, real)
            copies.append((len(actions), det))
            points[kind_of_point(real)] += 1
            action = driver.choose(real)
            actions.append(action)
            real.apply(action)
        outcome = real.outcome()
        contracts[outcome.facts["contract"] or "throw-in"] += 1
        for start, det in copies:
            for action in actions[start:]:
                det.apply(action)
            assert det.to_act == -1
            assert det.outcome() == outcome
            assert det.log == real.log
            assert det.deal_record() == real.deal_record()
            seated = ("a", "b", "c", "d")
            assert det.extra_rows(seated) == real.extra_rows(seated)
    # The deals reached every kind of decision point and every contract the variant has.
    kinds = {"bid", "trump", "play lead", "play follow", "first trick lead",
             "first trick follow", "last trick lead", "last trick follow"}
    assert kinds <= set(points), points
    expected = {CONTRACTS[i].name for i, c in enumerate(CONTRACTS) if callable_in(variant, c.bid)}
    assert expected <= set(contracts), contracts


AUCTIONS = {
    "overcalled cop, proposer bids again": [PROP, COP, SOLO, PASS, MISERE, PASS, PASS],
    "prop nobody cops": [PROP, PASS, PASS, PASS],
    "all pass": [PASS, PASS, PASS, PASS],
    "solo over prop and cop": [PASS, PROP, COP, SOLO, PASS, PASS],
}


@pytest.mark.parametrize("calls", AUCTIONS.values(), ids=AUCTIONS.keys())
def test_determinize_follows_set_auctions(calls):
    """Auctions a random bidder seldom makes: every point of them, and the play after."""
    real = make_game("solo_whist").new_deal(4242, 1)
    rng = random.Random(0)
    actions = list(calls)
    copies = []
    while real.to_act >= 0:
        det = MODEL.determinize(real.view(real.to_act), true_world(real), rng)
        assert_same_deal(det, real)
        copies.append((len(real.log), det))
        step = len(real.log)
        real.apply(actions[step] if step < len(actions) else
                   HEURISTIC.choose(real.view(real.to_act), rng))
    assert [call for _, call in real.bids] == calls
    for start, det in copies:
        for _, _, action, _ in real.log[start:]:
            det.apply(action)
        assert det.outcome() == real.outcome()


def test_determinize_reaches_prop_and_cop_with_neighbours_and_opposite():
    """Partners may sit next to each other or opposite; both continue exactly."""
    gaps = set()
    for real, driver in real_deals({}, range(12)):
        if driver.call != PROP:
            continue
        while real.to_act >= 0:
            view = real.view(real.to_act)
            if real.phase == "play":
                det = MODEL.determinize(view, true_world(real), random.Random(1))
                assert_same_deal(det, real)
                gaps.add((real.partner - real.declarer) % 4)
            real.apply(driver.choose(real))
    assert gaps == {1, 2, 3}


def test_repeated_determinizations_of_one_view_are_independent():
    """The per-view cache shares only immutable parts: playing one copy on leaves the
    other copies, the real deal and the view untouched."""
    real, driver = next(real_deals({"play_out": True}, range(1)))
    while real.phase != "play" or len(real.tricks) < 3:
        real.apply(driver.choose(real))
    view = real.view(real.to_act)
    before = copy.deepcopy(vars(real) | {"game": None, "variant": None})
    rng = random.Random(3)
    first = MODEL.determinize(view, true_world(real), rng)
    second = MODEL.determinize(view, true_world(real), rng)
    snapshot = {k: list(v) if isinstance(v, list) else v for k, v in vars(second).items()}
    while first.to_act >= 0:
        first.apply(HEURISTIC.choose(first.view(first.to_act), rng))
    assert vars(second) == snapshot
    assert vars(real) | {"game": None, "variant": None} == before
    assert real.view(real.to_act) == view


def test_determinize_refuses_a_view_without_a_decision_and_a_world_that_does_not_fit():
    real, _ = next(real_deals({}, range(1)))
    waiting = (real.to_act + 1) % 4
    with pytest.raises(ValueError, match="not a decision point"):
        SoloWhistModel().determinize(real.view(waiting), true_world(real), random.Random(0))
    hands = list(real.hands)
    hands[real.to_act], hands[waiting] = hands[waiting], hands[real.to_act]
    with pytest.raises(ValueError, match="do not fit"):
        MODEL.determinize(real.view(real.to_act), World(tuple(hands)), random.Random(0))


@pytest.mark.parametrize("variant", VARIANTS[:4], ids=["default", "play_out", "overtricks",
                                                      "no_upcard"])
def test_sampled_worlds_determinize_and_play_out(variant):
    """Worlds the sampler draws give copies at the same decision point, with the same
    view for the acting seat, that the heuristics play to a zero-sum end, every card
    dealt once and played at most once."""
    checked = 0
    for real, driver in real_deals(variant, range(2)):
        rng = random.Random(checked)
        step = 0
        while real.to_act >= 0:
            view = real.view(real.to_act)
            if step % 5 == 0:
                world = sample_world(view, rng)
                check_world(view, world)
                det = MODEL.determinize(view, world, rng)
                assert (det.to_act, det.phase, det.legal) == (real.to_act, real.phase, real.legal)
                assert det.view(det.to_act) == view
                dealt = det.initial_hands
                assert sum(h.bit_count() for h in dealt) == 52
                assert dealt[0] | dealt[1] | dealt[2] | dealt[3] == FULL_DECK
                assert sorted(det.deck) == list(range(52))
                payoffs = play_out(MODEL, det, rng)
                assert payoffs == det.outcome().net
                assert abs(sum(payoffs)) < 1e-9
                played = [card for record in det.tricks for card in record.cards]
                assert len(played) == len(set(played))
                held = det.hands[0] | det.hands[1] | det.hands[2] | det.hands[3]
                assert sum(1 << c for c in played) | held == FULL_DECK
                assert not sum(1 << c for c in played) & held
                checked += 1
            step += 1
            real.apply(driver.choose(real))
    assert checked > 100


# -- payoffs and roll-outs --------------------------------------------------------------

def test_payoffs_are_each_seats_net_units_and_zero_on_a_throw_in():
    game = make_game("solo_whist", {"stake": 2.0})
    throw_in = game.new_deal(5, 0)
    while throw_in.to_act >= 0:
        throw_in.apply(PASS)
    assert MODEL.payoffs(throw_in) == (0.0, 0.0, 0.0, 0.0)
    for real, driver in real_deals({"stake": 2.0}, range(2)):
        while real.to_act >= 0:
            real.apply(driver.choose(real))
        assert MODEL.payoffs(real) == real.outcome().net


def test_rollout_policies_are_one_reused_heuristic_per_seat():
    real, _ = next(real_deals({}, range(1)))
    policies = MODEL.rollout_policies(real)
    assert len(policies) == 4
    assert all(isinstance(p, SoloHeuristic) for p in policies)
    assert MODEL.rollout_policies(real) is policies
    assert model_for(real.view(0)) is MODEL
    assert MODEL.game == "solo_whist"


# -- exact values against a minimax over the real engine ----------------------------------

def plays_out_in(variant: dict) -> bool:
    return bool(variant.get("play_out") or variant.get("overtricks"))


def clone(state: SoloWhistDeal) -> SoloWhistDeal:
    """An independent copy of a real deal (its lists are the only fields ``apply``
    changes in place)."""
    twin = copy.copy(state)
    twin.hands, twin.won, twin.passed, twin.log = (
        list(state.hands), list(state.won), list(state.passed), list(state.log)
    )
    return twin


def minimax(state: SoloWhistDeal, memo: dict) -> tuple[float, ...]:
    """Net units of every seat when each seat in turn plays the card best for itself,
    trying every legal card with the real engine to the end of the deal."""
    if state.to_act < 0:
        return state.outcome().net
    key = (tuple(state.hands), state.trick, tuple(state.won), state.leader)
    if key not in memo:
        seat = state.to_act
        best = None
        for card in range(52):
            if state.legal >> card & 1:
                child = clone(state)
                child.apply(card)
                value = minimax(child, memo)
                if best is None or value[seat] > best[seat]:
                    best = value
        memo[key] = best
    return memo[key]


def endings(variant: dict, seeds: range, cards: int) -> Iterator[SoloWhistDeal]:
    """Card-play positions where no hand holds more than ``cards`` cards, at a trick's
    lead or part-way through it."""
    for real, driver in real_deals(variant, seeds):
        stop = driver.rng.randrange(4)
        while real.to_act >= 0 and (
            real.phase != "play" or max(h.bit_count() for h in real.hands) > cards
        ):
            real.apply(driver.choose(real))
        for _ in range(stop):
            if real.to_act >= 0:
                real.apply(driver.choose(real))
        if real.to_act >= 0:
            yield real


@pytest.mark.parametrize("variant", VARIANTS[:5], ids=["default", "play_out", "overtricks",
                                                      "classic", "no_prop"])
def test_exact_values_equal_a_minimax_over_the_real_engine(variant):
    covered: Counter[tuple[str, int]] = Counter()
    places: Counter[int] = Counter()
    for cards in (1, 2, 3, 4):
        for state in endings(variant, range(80), cards):
            name = CONTRACTS[state.contract].name
            if covered[name, cards] >= (1 if cards == 4 else 2):
                continue
            seat = state.to_act
            values = MODEL.exact_values(state, seat, cards, solve)
            assert values is not None
            memo: dict = {}
            expected = {}
            for card in range(52):
                if state.legal >> card & 1:
                    child = clone(state)
                    child.apply(card)
                    expected[card] = minimax(child, memo)[seat]
            assert values == expected
            covered[name, cards] += 1
            places[len(state.trick)] += 1
    # Every contract the variant has, at every size of ending. Without play_out the
    # deal stops once decided, so an Abundance rarely lasts to its last tricks: there,
    # the contracts with the fewest tricks to make or defeat must be covered.
    names = {c.name for c in CONTRACTS if callable_in(variant, c.bid)}
    if not plays_out_in(variant):
        names &= {"prop_and_cop", "solo", "misere", "spread_misere"}
    for cards in (1, 2, 3, 4):
        assert names <= {name for name, n in covered if n == cards}, (cards, covered)
    assert set(places) == {0, 1, 2, 3}, places  # leads and each place in a trick


def test_exact_values_apply_only_to_card_play_within_max_cards():
    real, _ = next(real_deals({}, range(1)))
    assert real.phase == "bid"
    assert MODEL.exact_values(real, real.to_act, 13, solve) is None
    game = make_game("solo_whist")
    state = game.new_deal(11, 0)
    state.apply(BIDS["abundance"])
    while state.phase == "bid":
        state.apply(PASS)
    assert state.phase == "trump"
    assert MODEL.exact_values(state, state.to_act, 13, solve) is None
    state.apply(next(a for a in range(61, 65) if state.legal >> a & 1))
    assert state.phase == "play"
    assert MODEL.exact_values(state, state.to_act, 12, solve) is None
    state.apply(HEURISTIC.choose(state.view(state.to_act), random.Random(0)))
    # Mid-trick, the seats still to play hold 13: a bound of 12 is still too small.
    assert MODEL.exact_values(state, state.to_act, 12, solve) is None
    with pytest.raises(ValueError, match="not to act"):
        MODEL.exact_values(state, (state.to_act + 1) % 4, 13, solve)


def test_exact_values_of_a_determinized_deal_match_the_real_deals():
    """The solver sees the same position through a copy as through the real deal."""
    compared = 0
    for real in endings({"overtricks": True}, range(3), 3):
        view = real.view(real.to_act)
        det = MODEL.determinize(view, true_world(real), random.Random(0))
        assert MODEL.exact_values(det, det.to_act, 3, solve) == MODEL.exact_values(
            real, real.to_act, 3, solve
        )
        compared += 1
    assert compared > 5


# -- worlds that fit the auction ---------------------------------------------------------

def heuristic_points(seeds: range) -> Iterator[SoloWhistDeal]:
    """Decision points (auction and play) of heuristic deals where another seat has bid."""
    game = make_game("solo_whist")
    for seed in seeds:
        real = game.new_deal(seed, seed % 4)
        while real.to_act >= 0:
            if any(call != PASS and seat != real.to_act for seat, call in real.bids):
                yield real
            real.apply(HEURISTIC.choose(real.view(real.to_act), random.Random(0)))


def calls_fit(view, world: World) -> bool:
    """Replayed on the real engine from the world's hands as dealt, does the heuristic
    make every call the other seats made?"""
    dealt = list(world.hands)
    for record in view.tricks:
        for i, card in enumerate(record.cards):
            dealt[(record.leader + i) % 4] |= 1 << card
    for i, card in enumerate(view.trick):
        dealt[(view.leader + i) % 4] |= 1 << card
    deal = SoloWhistDeal(make_game("solo_whist"), -1, view.dealer,
                         solo_model._deck(tuple(dealt), view.dealer, view.upcard))
    for seat, call in view.bids:
        if seat != view.seat and HEURISTIC.choose(deal.view(seat), random.Random(0)) != call:
            return False
        deal.apply(call)
    return True


def test_fitted_worlds_are_legal_worlds_that_mostly_fit_every_call():
    """``sample_world`` draws from the uniform sampler, so its worlds fit the view; and
    it keeps one where the heuristic makes every other seat's call whenever one of its
    tries does: far more often than a uniform world does."""
    points = fitted = uniform = 0
    for real in heuristic_points(range(12)):
        view = real.view(real.to_act)
        world = MODEL.sample_world(view, random.Random(points))
        check_world(view, world)
        assert world == MODEL.sample_world(view, random.Random(points))  # the rng decides
        assert calls_fit(view, true_world(real))
        fitted += calls_fit(view, world)
        uniform += calls_fit(view, sample_world(view, random.Random(points)))
        points += 1
    assert points > 100
    assert fitted > 0.6 * points
    assert fitted > uniform + 0.2 * points


def test_fitted_worlds_give_a_proposer_a_proposers_hand():
    """After a Prop, the proposer's hand in fitted worlds is worth about what the
    heuristic asks of a Prop; in uniform worlds it is an average hand."""
    fitted, uniform = [], []
    game = make_game("solo_whist")
    for seed in range(40):
        real = game.new_deal(seed, seed % 4)
        while real.phase == "bid" and not any(call == PROP for _, call in real.bids):
            real.apply(HEURISTIC.choose(real.view(real.to_act), random.Random(0)))
        if real.phase != "bid":
            continue
        view = real.view(real.to_act)
        proposer = next(seat for seat, call in view.bids if call == PROP)
        trump = view.upcard // 13
        rng = random.Random(seed)
        for _ in range(5):
            fitted.append(estimate_tricks(MODEL.sample_world(view, rng).hands[proposer], trump))
            uniform.append(estimate_tricks(sample_world(view, rng).hands[proposer], trump))
    assert len(fitted) >= 50
    assert sum(fitted) / len(fitted) > HEURISTIC.prop_tricks - 0.5
    assert sum(fitted) / len(fitted) > sum(uniform) / len(uniform) + 1.0


def test_without_other_calls_fitted_worlds_are_the_uniform_ones():
    real = make_game("solo_whist").new_deal(7, 3)
    view = real.view(real.to_act)
    assert not view.bids
    assert MODEL.sample_world(view, random.Random(5)) == sample_world(view, random.Random(5))
