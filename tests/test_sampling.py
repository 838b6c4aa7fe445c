"""World sampling: consistent with the view, the true deal among the worlds, and uniform.

Consistency is checked on real random-play deals: a spy strategy samples worlds from
every view it is handed, and the deal is then replayed from its seed to compare each
sample with the TRUE state at that decision. Uniformity is checked by counting on small
positions met in real play, whose consistent worlds the test enumerates by itself
(for German Whist it counts the opponent's possible histories by replaying them).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from scipy.stats import chisquare

from strategies.random_play import RandomStrategy
from whist_sim.cards import FULL_DECK, SUIT_MASKS, cards_of, cards_str
from whist_sim.games import make_game
from whist_sim.games.base import DealState, Game
from whist_sim.games.german_whist import GermanWhistView
from whist_sim.games.knockout_whist import KnockoutWhistView
from whist_sim.games.minnesota_whist import MinnesotaWhistView
from whist_sim.games.solo_whist import CONTRACTS, SoloWhistView
from whist_sim.play import PlayedDeal, play_deal
from whist_sim.sampling import SamplingError, World, check_world, sample_world

ALPHA = 0.001
"""Chi-square significance level: a correct sampler fails one seeded run in a thousand."""


class Spy(RandomStrategy):
    """Plays at random and samples worlds from every view it is handed."""

    def __init__(self, samples: int = 0) -> None:
        self.samples = samples
        self.rng = random.Random(2024)
        self.seen: list[tuple[Any, list[World]]] = []

    def choose(self, view: Any, rng: random.Random) -> int:
        worlds = [sample_world(view, self.rng) for _ in range(self.samples)]
        self.seen.append((view, worlds))
        return super().choose(view, rng)


def play_spied(game: Game, seed: int, samples: int) -> tuple[PlayedDeal, Spy]:
    spy = Spy(samples)
    return play_deal(game, [spy] * game.players, seed, on_error="abort"), spy


def replay(game: Game, deal: PlayedDeal) -> Iterator[DealState]:
    """The true state before each chosen action of ``deal`` (the spy's decisions, in order)."""
    state = game.new_deal(deal.seed, deal.dealer)
    for _seat, _phase, action, chosen in deal.state.log:
        if chosen:
            yield state
            state.apply(action)


def true_world(state: Any) -> World:
    if hasattr(state, "stock"):  # German Whist: the face-down rest of the stock
        return World(tuple(state.hands), tuple(state.stock[state.next_stock:]))
    if hasattr(state, "round_start_hands"):  # Knock-out: this round's undealt pack
        dealt = 0
        for hand in state.round_start_hands:
            dealt |= hand
        return World(tuple(state.hands), (), FULL_DECK & ~dealt)
    return World(tuple(state.hands))


# -- what a test can read off a view, written from the rules ----------------------------


def plays(view: Any) -> list[tuple[int, list[tuple[int, int]]]]:
    """(trick number, [(seat, card), ...]) of every trick so far, the current one last."""
    if isinstance(view, KnockoutWhistView):
        out = [
            (r.number, list(zip(who, r.cards, strict=True)))
            for r, who in zip(view.tricks, view.trick_players, strict=True)
        ]
        current = list(zip(view.trick_seats, view.trick, strict=True))
    else:
        n = players_of(view)
        out = [
            (r.number, [((r.leader + i) % n, c) for i, c in enumerate(r.cards)])
            for r in view.tricks
        ]
        current = [((view.leader + i) % n, c) for i, c in enumerate(view.trick)]
    if current:
        out.append((len(view.tricks) + 1, current))
    return out


def players_of(view: Any) -> int:
    return 2 if isinstance(view, GermanWhistView) else getattr(view, "players", 4)


def shown_out(view: Any) -> list[tuple[int, int, int]]:
    """(seat, suit, trick) for every card that did not follow the suit led."""
    out = []
    for number, cards in plays(view):
        led = cards[0][1] // 13
        for seat, card in cards[1:]:
            if card // 13 != led:
                if isinstance(view, KnockoutWhistView) and view.status[seat] != "in":
                    continue  # a dog need not follow suit: it shows nothing
                out.append((seat, led, number))
    return out


def known_cards(view: Any) -> dict[int, int]:
    """Cards another seat is known to hold now."""
    played = view.played
    known: dict[int, int] = {}
    if isinstance(view, GermanWhistView):
        known[1 - view.seat] = view.taken_faceup[1 - view.seat] & ~played
    elif isinstance(view, SoloWhistView):
        if view.upcard >= 0 and view.upcard_held:
            known[view.dealer] = 1 << view.upcard
        if view.contract >= 0 and CONTRACTS[view.contract].name == "spread_misere" and view.tricks:
            known[view.declarer] = known.get(view.declarer, 0) | view.exposed
    elif isinstance(view, MinnesotaWhistView):
        for seat, card in view.turned:
            if not played >> card & 1:
                known[seat] = known.get(seat, 0) | 1 << card
    return known


def check_against_truth(view: Any, world: World, truth: World) -> None:
    seat = view.seat
    assert world.hands[seat] == truth.hands[seat] == view.hand
    assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in truth.hands]
    assert len(world.stock) == len(truth.stock)
    assert world.undealt.bit_count() == truth.undealt.bit_count()
    for other, cards in known_cards(view).items():
        assert cards & world.hands[other] == cards
    everything = view.played | world.undealt
    if isinstance(view, GermanWhistView):
        for card in (*view.faceup, *world.stock):
            assert not everything >> card & 1
            everything |= 1 << card
    for hand in world.hands:
        assert not everything & hand
        everything |= hand
    assert everything == FULL_DECK
    if isinstance(view, GermanWhistView):
        check_german_voids(view, world)
    else:
        for other, suit, _trick in shown_out(view):
            assert not world.hands[other] & SUIT_MASKS[suit]
    check_world(view, world)
    check_world(view, truth)  # the true deal meets every constraint the sampler uses


def check_german_voids(view: GermanWhistView, world: World) -> None:
    """A hidden card of a suit the opponent showed out of was drawn face down since."""
    opp = 1 - view.seat
    hidden = world.hands[opp] & ~view.taken_faceup[opp]
    draws = [r.number for r in view.tricks[:13] if r.winner == view.seat]
    for other, suit, trick in shown_out(view):
        if other == opp:
            later = sum(1 for t in draws if t >= trick)
            assert (hidden & SUIT_MASKS[suit]).bit_count() <= later


# -- consistency on real deals --------------------------------------------------------------

CASES = [
    ("german_whist", {}, None, 40),
    ("german_whist", {"open_stock": 3, "count": "all"}, None, 20),
    ("german_whist", {"open_stock": 26, "trumps": "none"}, None, 12),
    ("solo_whist", {}, None, 150),
    ("solo_whist", {"upcard": False, "play_out": True}, None, 40),
    ("minnesota_whist", {}, None, 30),
    ("minnesota_whist", {"bid": "spoken"}, None, 20),
    ("knockout_whist", {"dogs_life": "first_round"}, 4, 30),
    ("knockout_whist", {"dogs_life": "first_knockout"}, 7, 15),
    ("knockout_whist", {}, 2, 40),
]


@pytest.mark.parametrize(("name", "variant", "players", "deals"), CASES)
@pytest.mark.slow
def test_sampled_worlds_match_the_true_deal(name, variant, players, deals):
    game = make_game(name, variant, players)
    checked = 0
    for seed in range(deals):
        deal, spy = play_spied(game, seed, samples=3)
        states = replay(game, deal)
        for (view, worlds), state in zip(spy.seen, states, strict=True):
            truth = true_world(state)
            for world in worlds:
                check_against_truth(view, world, truth)
                checked += 1
    assert checked >= 2000


def test_the_true_deal_is_always_consistent_including_stage_two():
    """Stage 2 of German Whist: the opponent's hand is determined; the sample is the truth."""
    game = make_game("german_whist")
    deal, spy = play_spied(game, 7, samples=2)
    for (view, worlds), state in zip(spy.seen, replay(game, deal), strict=True):
        if view.stage == 2:
            assert all(w == true_world(state) for w in worlds)


def test_spread_misere_exposed_hand_is_the_declarers_in_every_world():
    game = make_game("solo_whist")
    rng = random.Random(5)
    found = 0
    for seed in range(3000):
        deal, spy = play_spied(game, seed, samples=0)
        for (view, _), state in zip(spy.seen, replay(game, deal), strict=True):
            if view.exposed and view.declarer != view.seat:
                found += 1
                for _ in range(20):
                    world = sample_world(view, rng)
                    assert world.hands[view.declarer] == view.exposed
                    check_against_truth(view, world, true_world(state))
        if found >= 30:
            break
    assert found >= 30


def test_dog_discard_shows_no_void_but_full_players_do():
    game = make_game("knockout_whist", {"dogs_life": "first_round"}, 5)
    dog_discards = 0
    for seed in range(40):
        _deal, spy = play_spied(game, seed, samples=0)
        for view, _ in spy.seen:
            for number, cards in plays(view):
                led = cards[0][1] // 13
                for seat, card in cards[1:]:
                    if view.status[seat] == "dog" and card // 13 != led:
                        dog_discards += 1
                        assert (seat, led, number) not in shown_out(view)
    assert dog_discards > 0


# -- errors ------------------------------------------------------------------------------------


def test_an_impossible_view_names_the_seat_and_the_void():
    game = make_game("solo_whist")
    view, _ = find_view(game, lambda v, _state: bool(shown_out(v)), range(100))
    seat, suit, trick = shown_out(view)[0]
    # Claim the seat holds a card of the suit it showed out of: the dealer's upcard.
    unseen = FULL_DECK & ~view.hand & ~view.played & SUIT_MASKS[suit]
    bad = view._replace(upcard=cards_of(unseen)[0], upcard_held=True, dealer=seat)
    with pytest.raises(SamplingError, match=rf"seat {seat} .* showed out of .* at trick {trick}"):
        sample_world(bad, random.Random(0))


def test_a_stock_holding_a_card_twice_is_named_not_miscounted():
    """It read "the stock has 25 cards, not 25"."""
    state = make_game("german_whist").new_deal(3, 0)
    view = state.view(state.to_act)
    world = sample_world(view, random.Random(1))
    stock = (*world.stock[:-1], world.stock[0])
    with pytest.raises(SamplingError, match=r"the stock holds .* more than once"):
        check_world(view, World(world.hands, stock, world.undealt))


def test_a_view_that_is_not_a_game_view_is_refused():
    with pytest.raises(TypeError, match="does not know views of type dict"):
        sample_world({}, random.Random(0))


@pytest.mark.parametrize(("name", "variant", "players"),
                         [("solo_whist", {}, None), ("minnesota_whist", {}, None),
                          ("knockout_whist", {}, 5)])
def test_repeated_draws_from_one_view_are_those_of_a_fresh_equal_view(name, variant, players):
    """The sampler keeps what draws from the last view share; the worlds must not depend
    on it: draws alternating between two views (each draw preparing its view afresh)
    give what repeated draws from an equal copy of each (prepared once) give."""
    game = make_game(name, variant, players)
    _, spy = play_spied(game, 3, samples=0)
    views = [view for view, _ in spy.seen][::7]
    for first, second in itertools.pairwise(views):
        copy_first, copy_second = first._replace(), second._replace()
        alone = [sample_world(copy_first, random.Random(k)) for k in range(4)]
        alone_second = [sample_world(copy_second, random.Random(k)) for k in range(4)]
        for k in range(4):
            assert sample_world(first, random.Random(k)) == alone[k]
            assert sample_world(second, random.Random(k)) == alone_second[k]


# -- uniformity by counting --------------------------------------------------------------------


def find_view(game: Game, wanted, seeds: range) -> tuple[Any, DealState]:
    """The first decision of random play, (view, true state), where ``wanted`` holds."""
    for seed in seeds:
        deal, spy = play_spied(game, seed, samples=0)
        for (view, _), state in zip(spy.seen, replay(game, deal), strict=True):
            if wanted(view, state):
                return view, state
    raise AssertionError("no such position in the seeds tried")


def enumerate_worlds(view: Any, truth: World) -> list[World]:
    """Every world of a game without draws meeting the rules' constraints, by brute force."""
    seat = view.seat
    others = [s for s in range(len(truth.hands)) if s != seat]
    known = known_cards(view)
    voids = shown_out(view)
    seen = view.hand | view.played
    for cards in known.values():
        seen |= cards
    if isinstance(view, KnockoutWhistView) and view.upcard >= 0:
        seen |= 1 << view.upcard
    unseen = cards_of(FULL_DECK & ~seen)
    needs = [truth.hands[s].bit_count() - known.get(s, 0).bit_count() for s in others]
    worlds = []

    def rec(i: int, left: list[int], hands: list[int]) -> None:
        if i == len(others):
            undealt = sum(1 << c for c in left)
            if isinstance(view, KnockoutWhistView) and view.upcard >= 0:
                undealt |= 1 << view.upcard
            world = World(tuple(hands), (), undealt)
            if all(not world.hands[s] & SUIT_MASKS[suit] for s, suit, _ in voids):
                worlds.append(world)
            return
        for combo in itertools.combinations(left, needs[i]):
            hand = known.get(others[i], 0) | sum(1 << c for c in combo)
            rest = [c for c in left if c not in combo]
            rec(i + 1, rest, [*hands[:others[i]], hand, *hands[others[i] + 1:]])

    start = [0] * len(truth.hands)
    start[seat] = view.hand
    rec(0, unseen, start)
    return worlds


def assert_frequencies(view: Any, expected: dict[World, float], draws: int, seed: int) -> None:
    rng = random.Random(seed)
    counts = Counter(sample_world(view, rng) for _ in range(draws))
    assert set(counts) <= set(expected), "a sampled world is not among the consistent ones"
    worlds = list(expected)
    total = sum(expected.values())
    observed = [counts[w] for w in worlds]
    wanted = [draws * expected[w] / total for w in worlds]
    assert min(wanted) >= 5, "too few draws for a chi-square test"
    assert chisquare(observed, wanted).pvalue > ALPHA


def small_with_void(low: int, high: int):
    def wanted(view: Any, state: DealState) -> bool:
        truth = true_world(state)
        voids = [s for s, _, _ in shown_out(view) if s != view.seat and truth.hands[s]]
        if not voids or view.legal == 0:
            return False
        return low <= len(enumerate_worlds(view, truth)) <= high
    return wanted


def cheap_filter(max_unseen: int):
    def wanted(view: Any, state: DealState) -> bool:
        truth = true_world(state)
        hidden = sum(h.bit_count() for s, h in enumerate(truth.hands) if s != view.seat)
        return 0 < hidden <= max_unseen and truth.undealt.bit_count() <= 1
    return wanted


@pytest.mark.parametrize(
    ("name", "variant", "players"),
    [("solo_whist", {}, None), ("minnesota_whist", {}, None)],
)
def test_four_hand_worlds_are_uniform_with_a_known_void(name, variant, players):
    game = make_game(name, variant, players)
    small = small_with_void(6, 300)
    view, state = find_view(
        game, lambda v, t: cheap_filter(8)(v, t) and small(v, t), range(200)
    )
    worlds = enumerate_worlds(view, true_world(state))
    assert true_world(state) in worlds
    assert_frequencies(view, dict.fromkeys(worlds, 1.0), 60 * len(worlds), seed=11)


def test_knockout_worlds_with_an_undealt_pack_are_uniform():
    """Two players left: the opponent's cards or the undealt pack, after a shown void."""
    game = make_game("knockout_whist", {}, 3)

    def wanted(view: Any, state: DealState) -> bool:
        truth = true_world(state)
        hidden = sum(h.bit_count() for s, h in enumerate(truth.hands) if s != view.seat)
        if hidden != 1 or not any(s != view.seat for s, _, _ in shown_out(view)):
            return False
        return view.legal != 0
    view, state = find_view(game, wanted, range(300))
    worlds = enumerate_worlds(view, true_world(state))
    assert true_world(state) in worlds and len(worlds) < 52
    assert_frequencies(view, dict.fromkeys(worlds, 1.0), 100 * len(worlds), seed=12)


# German Whist: worlds weighted by the opponent's histories, counted by replaying them.


def german_histories(view: GermanWhistView, state: Any, world: World) -> int:
    """How many ways the opponent's dealt hand and hidden draws produce ``world``,
    replaying the public play trick by trick (timings of face-up takes from the log)."""
    opp = 1 - view.seat
    # After which trick the opponent took each face-up card (public, read off the log).
    took: dict[int, int] = {}
    completed = 0
    in_trick = 0
    for seat, phase, card, _chosen in state.log:
        if phase == "play":
            in_trick += 1
            if in_trick == 2:
                completed += 1
                in_trick = 0
        elif phase in ("take", "draw") and seat == opp and view.taken_faceup[opp] >> card & 1:
            took[completed] = card
    draws = [r.number for r in view.tricks[:13] if r.winner == view.seat]
    hidden_now = world.hands[opp] & ~view.taken_faceup[opp]
    opp_played = [(n, c) for n, cards in plays(view) for s, c in cards if s == opp]
    pool = [c for _, c in opp_played if not view.taken_faceup[opp] >> c & 1]
    pool += cards_of(hidden_now)
    count = 0
    for drawn in itertools.permutations(pool, len(draws)):
        dealt = sum(1 << c for c in pool) & ~sum(1 << c for c in drawn)
        if legal_history(view, opp, dealt, dict(zip(draws, drawn, strict=True)), took):
            count += 1
    return count


def legal_history(
    view: GermanWhistView, opp: int, hand: int, drawn: dict[int, int], took: dict[int, int]
) -> bool:
    for number, cards in plays(view):
        led = cards[0][1] // 13
        for i, (seat, card) in enumerate(cards):
            if seat != opp:
                continue
            if not hand >> card & 1:
                return False  # played a card it did not yet hold
            if i and card // 13 != led and hand & SUIT_MASKS[led]:
                return False  # revoked
            hand &= ~(1 << card)
        if number in drawn:
            hand |= 1 << drawn[number]
        if number in took:
            hand |= 1 << took[number]
    return True


def german_weights(view: GermanWhistView, state: Any) -> dict[World, float]:
    """Each world with one face-down card left (which unseen card it is), by histories."""
    opp = 1 - view.seat
    weights: dict[World, float] = {}
    for card in cards_of(view.unseen):
        hands = [0, 0]
        hands[view.seat] = view.hand
        hands[opp] = view.opponent_known | view.unseen & ~(1 << card)
        world = World(tuple(hands), (card,))
        n = german_histories(view, state, world)
        if n:
            weights[world] = float(n)
    return weights


def german_void_positions() -> Iterator[tuple[GermanWhistView, Any]]:
    """Random play from layouts where seat 1 is dealt no spades and the stock holds nine:
    seat 1 shows out of spades early and may draw spades later. Yields seat 0's view at
    trick 13 (one face-down card left) when seat 1 has drawn face down at most 3 times."""
    game = make_game("german_whist")
    for seed in itertools.count():
        rng = random.Random(seed)
        spades, rest = list(range(13)), list(range(13, 52))
        rng.shuffle(spades)
        rng.shuffle(rest)
        stock = spades[4:] + rest[22:]
        rng.shuffle(stock)
        if stock[0] < 13:
            continue  # keep spades plain: a spade upcard would make them trumps
        state = game.deal_from_layout(
            (cards_str(spades[:4] + rest[:9]), cards_str(rest[9:22])), cards_str(stock), dealer=1
        )
        while state.to_act >= 0:
            view = state.view(state.to_act)
            late = view.stage == 1 and view.facedown_left == 1 and view.legal
            if view.seat == 0 and late and sum(r.winner == 0 for r in view.tricks) <= 3:
                yield view, state
            state.apply(rng.choice(cards_of(view.legal)))


def test_german_worlds_are_weighted_by_the_deals_behind_them():
    """Late in stage 1 with one face-down card left each world is which unseen card lies
    there. After the opponent showed out of spades, its hidden spades must be later draws,
    so worlds differ in how many deals lie behind them; the sampler follows the deals."""
    for view, state in german_void_positions():
        weights = german_weights(view, state)
        if len(set(weights.values())) > 1:
            break
    assert true_world(state) in weights
    share = max(weights.values()) / sum(weights.values())
    assert share > 2 / len(weights), "a world far likelier than under equal weights"
    assert_frequencies(view, weights, 20000, seed=13)
