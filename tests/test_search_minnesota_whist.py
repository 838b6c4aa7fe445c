"""Minnesota Whist's SearchModel: a determinized deal is the real deal, seen from a view.

The spec of ``determinize``: at every decision point of real deals (laying, spoken
bidding, every lead and follow of every trick), the state built from the acting seat's
view and the TRUE world (every seat's current hand) has the same seat to act, phase and
legal actions, gives every seat the view the real deal gives it, and reaches the same
outcome when the rest of the real deal's actions are applied to it.

One thing a view and a world cannot give: the card a seat laid face down that was never
turned. The model takes it to be the card the heuristic would lay. In deals where the
heuristic laid the cards the copy is therefore exact (laid cards, log and outcome facts
included); where cards were laid at random, only the hidden laid cards differ: while the
cards are being laid they decide the hand, so from those points the copy is checked for
a valid deal played to its end, and from the play on (when they no longer matter) for
the real outcome.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from strategies.minnesota_heuristic import MinnesotaHeuristic
from whist_sim.cards import FULL_DECK, SUIT_MASKS, iter_cards
from whist_sim.games import make_game
from whist_sim.games.minnesota_whist import BLACK, PASS, MinnesotaWhistDeal
from whist_sim.sampling import World, check_world, sample_world
from whist_sim.search.match_equity import equity
from whist_sim.search.minnesota_whist import MODEL, NET_TIE_BREAK
from whist_sim.search.model import model_for, play_out
from whist_sim.solver import solve

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

VARIANTS = [
    {},
    {"bid": "spoken"},
    {"scoring": "pagat", "target": 7},
    {"scoring": "pagat", "bid": "spoken"},
]
HEURISTIC = MinnesotaHeuristic()


def variant_id(variant: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in variant.items()) or "default"


def random_card(legal: int, rng: random.Random) -> int:
    return rng.choice(list(iter_cards(legal)))


class Player:
    """Lays or bids with the heuristic or at random, then plays with either; or passes
    whenever it can (a red laid card, a spoken pass), which makes null hands."""

    def __init__(self, bid_randomly: bool, play_randomly: bool, passes: bool = False) -> None:
        self.bid_randomly = bid_randomly
        self.play_randomly = play_randomly
        self.passes = passes

    def choose(self, view: Any, rng: random.Random) -> int:
        if view.phase != "play" and self.passes:
            if view.phase == "bid":
                return PASS
            red = view.legal & ~BLACK
            return random_card(red or view.legal, rng)
        randomly = self.play_randomly if view.phase == "play" else self.bid_randomly
        return random_card(view.legal, rng) if randomly else HEURISTIC.choose(view, rng)


def true_world(state: MinnesotaWhistDeal) -> World:
    return World(tuple(state.hands))


def record_deal(variant: dict, seed: int, player: Player,
                score: tuple[int, int] = (0, 0)) -> tuple[Any, list[int]]:
    """The game, and the actions of one deal (dealer ``seed % 4``) played by ``player``."""
    game = make_game("minnesota_whist", variant)
    state = game.new_deal(seed, seed % 4, score)
    rng = random.Random(seed)
    actions = []
    while state.to_act >= 0:
        action = player.choose(state.view(state.to_act), rng)
        actions.append(action)
        state.apply(action)
    return game, actions


def outcome_key(state: MinnesotaWhistDeal, with_laid: bool) -> tuple:
    out = state.outcome()
    facts = dict(out.facts)
    if not with_laid:
        facts.pop("laid")
    return out.tricks, out.score, out.net, out.result, facts


def kind_of(state: MinnesotaWhistDeal) -> set[str]:
    """The kinds of decision point a state is at (for the coverage checks)."""
    if state.phase != "play":
        return {state.phase}
    kinds = {"lead" if not state.trick else "follow", "grand" if state.grand else "null"}
    if not state.tricks:
        kinds.add("first trick")
    if len(state.tricks) == 12:
        kinds.add("last trick")
    return kinds


def check_copy_matches(real: MinnesotaWhistDeal, twin: MinnesotaWhistDeal,
                       laid_known: bool) -> None:
    """The copy's decision point and every seat's view equal the real deal's."""
    seat = real.to_act
    assert (twin.to_act, twin.phase, twin.legal) == (real.to_act, real.phase, real.legal)
    assert type(twin) is type(real)
    assert twin.seed != real.seed
    real_view, twin_view = real.view(seat), twin.view(seat)
    for field in real_view._fields:
        assert getattr(twin_view, field) == getattr(real_view, field), field
    for other in range(4):
        expected = real.view(other)
        if not laid_known:  # another seat's own hidden laid card is not in the world
            own = real.laid[seat] if other == seat else twin.laid[other]
            expected = expected._replace(laid=own)
        assert twin.view(other) == expected, other
    assert twin.initial_hands == real.initial_hands
    assert twin.deal_record() == real.deal_record()
    assert MinnesotaWhistDeal(twin.game, -1, twin.dealer, twin.deck).initial_hands == (
        twin.initial_hands
    )
    for who, card in real.turned:
        assert twin.laid[who] == card
    for who, card in enumerate(twin.laid):
        assert (card >= 0) == (real.laid[who] >= 0)
        if card >= 0:
            assert twin.initial_hands[who] >> card & 1
    if laid_known:
        assert twin.laid == real.laid
        assert twin.log == real.log
    else:
        assert [e for e in twin.log if e[1] != "lay"] == [e for e in real.log if e[1] != "lay"]


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@pytest.mark.parametrize(
    "bid_randomly,play_randomly", [(False, False), (False, True), (True, True)],
    ids=["heuristic", "heuristic_bids_random_play", "random"],
)
def test_determinize_from_the_true_world_is_the_real_deal(variant, bid_randomly, play_randomly):
    """At every decision point: same decision, same views, same outcome after the same actions."""
    player = Player(bid_randomly, play_randomly)
    laid_known = not bid_randomly or variant.get("bid") == "spoken"
    kinds: set[str] = set()
    for seed in range(12):
        score = (seed % 5, 2 * seed % 7)
        game, actions = record_deal(variant, seed, player, score)
        real = game.new_deal(seed, seed % 4, score)
        twins = []
        for i, action in enumerate(actions):
            twin = MODEL.determinize(real.view(real.to_act), true_world(real), random.Random(i))
            check_copy_matches(real, twin, laid_known)
            kinds |= kind_of(real)
            twins.append((i, real.phase, twin))
            real.apply(action)
        for i, phase, twin in twins:
            if laid_known or phase == "play":
                for action in actions[i:]:
                    twin.apply(action)
                assert twin.to_act == -1
                assert outcome_key(twin, laid_known) == outcome_key(real, laid_known)
            else:
                # the hidden laid cards may differ from the real ones and decide the hand:
                # the copy must still be a deal that plays to a valid end
                rng = random.Random(i)
                while twin.to_act >= 0:
                    twin.apply(random_card(twin.legal, rng))
                assert sum(twin.outcome().tricks) == 13
    expected = {"lead", "follow", "first trick", "last trick", "grand"}
    expected.add("bid" if variant.get("bid") == "spoken" else "lay")
    assert expected <= kinds
    if not bid_randomly:  # random spoken bidding grands 15 deals in 16
        assert "null" in kinds


def test_determinize_infers_hidden_laid_cards_with_the_heuristic():
    """While cards are laid, an earlier seat's laid card is the heuristic's from its world hand."""
    game = make_game("minnesota_whist", {})
    rng = random.Random(3)
    for seed in range(20):
        real = game.new_deal(seed, seed % 4)
        layers = []
        while real.phase == "lay":
            view = real.view(real.to_act)
            world = sample_world(view, rng)
            twin = MODEL.determinize(view, world, rng)
            for who in layers:
                assert twin.laid[who] == HEURISTIC.choose(
                    twin.view(who)._replace(
                        phase="lay", legal=world.hands[who], laid=-1,
                        laid_count=(who - real.dealer - 1) % 4,
                    ),
                    rng,
                )
                assert world.hands[who] >> twin.laid[who] & 1
            assert twin.laid[real.to_act] == -1
            layers.append(real.to_act)
            real.apply(random_card(real.legal, rng))


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_determinize_sampled_worlds_play_out_and_conserve_cards(variant):
    """Sampled worlds give valid states that the roll-out policies play to a scored end."""
    rng = random.Random(11)
    player = Player(bid_randomly=True, play_randomly=True)
    for seed in range(6):
        game, actions = record_deal(variant, seed, player)
        real = game.new_deal(seed, seed % 4)
        for action in actions:
            view = real.view(real.to_act)
            world = sample_world(view, rng)
            check_world(view, world)
            twin = MODEL.determinize(view, world, rng)
            assert twin.view(view.seat) == view
            assert (twin.to_act, twin.phase, twin.legal) == (real.to_act, real.phase, real.legal)
            payoffs = play_out(MODEL, twin, rng)
            played = [card for t in twin.tricks for card in t.cards]
            assert len(played) == 52 and sum(1 << card for card in played) == FULL_DECK
            initial = twin.initial_hands
            assert sum(initial) == FULL_DECK and all(h.bit_count() == 13 for h in initial)
            assert sum(twin.outcome().tricks) == 13
            assert payoffs == MODEL.payoffs(twin)
            assert [p > 0 for p in payoffs] == [n > 0 for n in twin.outcome().net]
            assert payoffs[0] == payoffs[2] == -payoffs[1] == -payoffs[3]
            real.apply(action)


def test_determinize_refuses_a_view_without_a_decision_or_a_wrong_world():
    game = make_game("minnesota_whist", {})
    state = game.new_deal(5, 1)
    seat = state.to_act
    world = true_world(state)
    with pytest.raises(ValueError, match="not a decision point"):
        MODEL.determinize(state.view((seat + 1) % 4), world, random.Random(0))
    hands = list(world.hands)
    hands[seat], hands[(seat + 1) % 4] = hands[(seat + 1) % 4], hands[seat]
    with pytest.raises(ValueError, match="hand of its view"):
        MODEL.determinize(state.view(seat), World(tuple(hands)), random.Random(0))


def test_model_for_finds_this_model():
    state = make_game("minnesota_whist", {}).new_deal(0, 0)
    assert model_for(state.view(state.to_act)) is MODEL
    assert MODEL.game == "minnesota_whist"


# -- payoffs and roll-outs -----------------------------------------------------------------


def finished(variant: dict, seed: int, score: tuple[int, int]) -> MinnesotaWhistDeal:
    """A deal played to its end by random players, from game score ``score``."""
    game, actions = record_deal(variant, seed, Player(True, True), score)
    state = game.new_deal(seed, seed % 4, score)
    for action in actions:
        state.apply(action)
    return state


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_payoffs_are_each_sides_match_equity_after_the_deal_with_net_points_as_tie_break(
        variant):
    """2 x the side's chance of winning the game from the score after the deal - 1,
    plus ``NET_TIE_BREAK`` per net point; zero-sum, partners alike."""
    for seed in range(8):
        for score in ((0, 0), (12, 0), (0, 6), (9, 11)):
            state = finished(variant, seed, score)
            points = state.points()
            table = equity(state.variant)
            chance = table.chance(score[0] + points[0], score[1] + points[1])
            side0 = 2 * chance - 1 + NET_TIE_BREAK * (points[0] - points[1])
            assert MODEL.payoffs(state) == pytest.approx((side0, -side0, side0, -side0))


def test_a_deal_is_valued_by_what_it_does_to_the_chance_of_winning_the_game():
    """The same points are worth more to a side they take to the target than at 0-0,
    and once a side reaches the target its extra points are only a tie-break."""
    checked = 0
    for seed in range(16):
        level, brink = finished({}, seed, (0, 0)), finished({}, seed, (12, 0))
        points = level.points()
        if points != brink.points() or points[0] <= 0:  # side 0 must score, alike at both
            continue
        assert MODEL.payoffs(brink)[0] > MODEL.payoffs(level)[0]
        assert MODEL.payoffs(brink)[0] == pytest.approx(1 + NET_TIE_BREAK * points[0])
        checked += 1
    assert checked >= 3


def test_rollout_policies_are_one_stateless_heuristic_per_seat():
    state = make_game("minnesota_whist", {}).new_deal(2, 2)
    policies = MODEL.rollout_policies(state)
    assert len(policies) == 4
    assert all(isinstance(p, MinnesotaHeuristic) for p in policies)
    assert MODEL.rollout_policies(state) is policies
    world, view = true_world(state), state.view(state.to_act)
    first = play_out(MODEL, MODEL.determinize(view, world, random.Random(1)), random.Random(1))
    again = play_out(MODEL, MODEL.determinize(view, world, random.Random(2)), random.Random(2))
    assert first == again


# -- exact values ---------------------------------------------------------------------------


def clone(state: MinnesotaWhistDeal) -> MinnesotaWhistDeal:
    twin = copy.copy(state)
    twin.hands = list(state.hands)
    twin.side_tricks = list(state.side_tricks)
    twin.laid = list(state.laid)
    twin.log = list(state.log)
    return twin


def minimax(state: MinnesotaWhistDeal, seat: int, memo: dict) -> float:
    """``seat``'s payoff with every seat maximising its own side's payoff, by the engine."""
    if state.to_act < 0:
        return MODEL.payoffs(state)[seat]
    key = (tuple(state.hands), state.trick, state.leader, tuple(state.side_tricks))
    if key not in memo:
        values = [minimax(after(state, card), seat, memo) for card in iter_cards(state.legal)]
        memo[key] = max(values) if state.to_act % 2 == seat % 2 else min(values)
    return memo[key]


def after(state: MinnesotaWhistDeal, card: int) -> MinnesotaWhistDeal:
    twin = clone(state)
    twin.apply(card)
    return twin


def endings(variant: dict, cards: int, deals: int) -> list[MinnesotaWhistDeal]:
    """Play positions (leads and follows) where every hand holds at most ``cards`` cards."""
    out = []
    for seed in range(deals):
        game = make_game("minnesota_whist", variant)
        state = game.new_deal(seed, seed % 4)
        rng = random.Random(seed)
        player = Player(bid_randomly=seed % 3 == 0, play_randomly=seed % 2 == 0,
                        passes=seed % 3 == 1)
        while state.to_act >= 0:
            if state.phase == "play" and max(h.bit_count() for h in state.hands) <= cards:
                out.append(clone(state))
            state.apply(player.choose(state.view(state.to_act), rng))
    return out


@pytest.mark.parametrize("variant", VARIANTS[:3], ids=variant_id)
@pytest.mark.parametrize("cards,deals", [(3, 10), (4, 3)])
def test_exact_values_equal_an_exhaustive_minimax_over_the_engine(variant, cards, deals):
    hand_types = set()
    for state in endings(variant, cards, deals):
        seat = state.to_act
        values = MODEL.exact_values(state, seat, cards, solve)
        memo: dict = {}
        expected = {card: minimax(after(state, card), seat, memo)
                    for card in iter_cards(state.legal)}
        assert values == expected
        hand_types.add(state.grand)
    assert hand_types == {True, False}


def test_exact_values_in_the_last_trick_need_no_solver():
    for state in endings({}, 1, 4):
        def refuse(*args, **kwargs):
            raise AssertionError("the last trick is decided by the cards on the table")

        seat = state.to_act
        if len(state.trick) == 3:
            values = MODEL.exact_values(state, seat, 1, refuse)
            assert values == {card: minimax(after(state, card), seat, {})
                              for card in iter_cards(state.legal)}


def test_exact_values_apply_only_to_card_play_of_small_hands_by_the_seat_to_act():
    game = make_game("minnesota_whist", {})
    state = game.new_deal(4, 0)
    assert MODEL.exact_values(state, state.to_act, 13, solve) is None  # laying cards
    spoken = make_game("minnesota_whist", {"bid": "spoken"}).new_deal(4, 0)
    assert MODEL.exact_values(spoken, spoken.to_act, 13, solve) is None  # bidding
    while state.phase != "play":
        state.apply(HEURISTIC.choose(state.view(state.to_act), random.Random(0)))
    while max(h.bit_count() for h in state.hands) > 3:
        state.apply(HEURISTIC.choose(state.view(state.to_act), random.Random(0)))
    seat = state.to_act
    assert MODEL.exact_values(state, seat, 2, solve) is None  # a hand too large
    assert MODEL.exact_values(state, (seat + 1) % 4, 3, solve) is None  # not to act
    values = MODEL.exact_values(state, seat, 3, solve)
    assert values is not None and set(values) == set(iter_cards(state.legal))
    lead = state.trick[0] // 13 if state.trick else -1
    if lead >= 0 and state.hands[seat] & SUIT_MASKS[lead]:
        assert all(card // 13 == lead for card in values)
