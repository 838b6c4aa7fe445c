"""A Knock-out Whist strategy sees only what its seat may know.

The walk is ``tests.test_seat_views.reachable``: everything a strategy could get at
from the view it is handed (fields, properties, closures, class attributes, ...).
Every int met is judged by the field it sits in, as in that module:

- a card field (``upcard``, ``trick``, a trick's ``cards``): not a hidden card;
- a mask field (``hand``, ``legal``, ``played``): holds none of the hidden cards or
  all of them (it cannot tell hidden cards apart);
- a counter field (seats, round, cards dealt, trump, trick counts): nothing to check;
- anything else: an error, so a new view field must be classified here.

Hidden from a seat, computed from the STATE: every card of this round's pack that
the seat has not seen, i.e. all but its own hand, the cards played this round and
(in round 1) the turned card. That is the other seats' unplayed cards and the
undealt rest of the pack. Every round is a fresh pack, so earlier rounds show none.

And what a seat MAY know is checked to be there: its hand, trump, the cards played
this round, every player's trick count and status (in, dog, out).
"""

from __future__ import annotations

from typing import Any

import pytest

from strategies.random_play import RandomStrategy
from tests.view_audit import FieldAudit, decision_problems, kinds
from whist_sim.cards import FULL_DECK, lowest
from whist_sim.games import make_game
from whist_sim.games.knockout_whist import (
    KNOCK,
    NAME_TRUMP,
    KnockoutWhist,
    KnockoutWhistDeal,
    KnockoutWhistView,
)
from whist_sim.play import play_deal
from whist_sim.rng import derive_seed

CARD_FIELDS = {"upcard", "trick", "cards"}
MASK_FIELDS = {"legal", "hand", "played"}
COUNTER_FIELDS = {
    "seat", "players", "round", "cards_dealt", "dealer", "trump", "leader", "trick_seats",
    "number", "winner", "trick_players", "round_tricks",
}
VARIANTS = [
    {"tie_break": tie_break, "dogs_life": dogs_life}
    for tie_break in ("cut", "nearest_left")
    for dogs_life in ("off", "first_round", "first_knockout")
]
GAMES = {2: 4, 4: 2, 7: 1}
"""Games played per table size (a 7-player game asks for many more views)."""
WALK_OTHERS_EVERY = 5
"""Every decision walks the view handed to the strategy; the other seats' views are
checked at every decision but walked at every fifth only (the walk dominates the run)."""


def played_this_round(state: KnockoutWhistDeal) -> int:
    mask = 0
    for record in state.tricks:
        for card in record.cards:
            mask |= 1 << card
    for card in state.trick:
        mask |= 1 << card
    return mask


def hidden_from(state: KnockoutWhistDeal, seat: int) -> int:
    seen = state.hands[seat] | played_this_round(state)
    if state.round == 1:
        seen |= 1 << state.upcard
    return FULL_DECK & ~seen


class Audit(FieldAudit):
    """Leak findings over a run; class-level ints must stay constant across it."""

    def __init__(self) -> None:
        super().__init__(kinds(CARD_FIELDS, MASK_FIELDS, COUNTER_FIELDS), seed_floor=56)

    def leaks(self, view: Any, state: KnockoutWhistDeal, seat: int) -> list[str]:
        hidden = hidden_from(state, seat)
        forbidden = {
            id(state): "the deal state",
            id(state.hands): "the state's hands list",
            id(state.round_start_hands): "the round's dealt hands",
            id(state.first_hands): "the round-1 hands",
            id(state.log): "the action log",
            id(state.all_tricks): "the state's trick list",
            id(state.round_records): "the rounds table",
            id(state.status): "the state's status list",
        }
        return self.scan(
            view, hidden=hidden, forbidden=forbidden, hands=state.hands, seat=seat,
            seed=state.seed,
        )


def public_facts_problems(view: KnockoutWhistView, state: KnockoutWhistDeal, seat: int):
    """What the seat MAY know must be in its view."""
    expected = {
        "hand": state.hands[seat],
        "trump": state.trump,
        "upcard": state.upcard if state.round == 1 else -1,
        "round": state.round,
        "cards_dealt": state.cards_dealt,
        "dealer": state.dealer,
        "trick": state.trick,
        "trick_seats": state.trick_seats,
        "tricks": state.tricks,
        "played": played_this_round(state),
        "round_tricks": tuple(state.round_tricks),
        "status": tuple(state.status),
        "dog_used": tuple(state.dog_used),
    }
    return [
        f"seat {seat}: {name} is {getattr(view, name)!r}, not {value!r}"
        for name, value in expected.items()
        if getattr(view, name) != value
    ]


class PeekingGame(KnockoutWhist):
    """Knock-out Whist that lets the test see the state ``play_deal`` creates."""

    current: KnockoutWhistDeal

    def new_deal(self, seed: int, dealer: int = 0) -> KnockoutWhistDeal:
        self.current = super().new_deal(seed, dealer)
        return self.current


class SpyStrategy:
    """Checks each view it is handed (and every other seat's view) against the state."""

    def __init__(self, game: PeekingGame, audit: Audit, seat: int) -> None:
        self.game = game
        self.audit = audit
        self.seat = seat
        self.inner = RandomStrategy()
        self.phases: set[str] = set()
        self.statuses: set[str] = set()
        self.problems: list[str] = []

    def choose(self, view: Any, rng: Any) -> int:
        state = self.game.current
        walk_others = len(state.log) % WALK_OTHERS_EVERY == 0
        self.phases.add(view.phase)
        self.statuses.update(view.status)
        self.problems += decision_problems(view, state, self.seat, self.audit,
                                           KnockoutWhistView, state.players,
                                           public_facts_problems, walk_others)
        return self.inner.choose(view, rng)


def variant_id(variant: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in variant.items())


# -- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", sorted(GAMES))
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@pytest.mark.slow
def test_strategy_sees_no_card_of_another_seat(players, variant):
    game = PeekingGame(make_game("knockout_whist", variant, players).variant, players)
    audit = Audit()
    spies = [SpyStrategy(game, audit, seat) for seat in range(players)]
    for i in range(GAMES[players]):
        seed = derive_seed(99, "knockout views", players, i)
        played = play_deal(game, spies, seed, dealer=i % players, on_error="abort")
        assert played.outcome.forfeit_seat is None
        for spy in spies:
            assert spy.problems == [], spy.problems[:5]
    assert audit.unclassified == set(), "classify these view ints in this test module"
    assert audit.changing_class_ints() == {}
    assert audit.views_checked > GAMES[players] * 30
    assert audit.ints_checked > audit.views_checked * 10
    assert set().union(*(spy.phases for spy in spies)) == {"play", "trump"}
    statuses = set().union(*(spy.statuses for spy in spies))
    if variant["dogs_life"] == "off":
        assert "dog" not in statuses
    if players > 2:  # with two, a player out ends the game unless it is a dog
        assert "out" in statuses


def step(state: KnockoutWhistDeal) -> None:
    """Trump: clubs; a dog knocks until the round's last trick; others play lowest."""
    legal = state.legal
    if state.phase == "trump":
        state.apply(NAME_TRUMP + 3)
    elif legal >> KNOCK & 1:
        state.apply(KNOCK)
    else:
        state.apply(lowest(legal))


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_the_seat_not_to_act_has_no_legal_action(players, variant):
    game = make_game("knockout_whist", variant, players)
    phases = set()
    for seed in range(3):
        state = game.new_deal(seed, seed % players)
        while not state.over:
            phases.add(state.phase)
            assert state.legal != 0
            for seat in range(players):
                expected = state.legal if seat == state.to_act else 0
                assert state.view(seat).legal == expected
            step(state)
        assert all(state.view(seat).legal == 0 for seat in range(players))
    assert phases == {"play", "trump"}


def find_dog_game(players: int, dogs_life: str) -> KnockoutWhistDeal:
    """A game under ``step`` play that reaches a round with a dog in it (seeds in order)."""
    game = make_game("knockout_whist", {"dogs_life": dogs_life}, players)
    for seed in range(200):
        state = game.new_deal(seed, 0)
        while not state.over and "dog" not in state.status:
            step(state)
        if not state.over:
            return state
    raise AssertionError("no dog's life in 200 games")


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("dogs_life", ["first_round", "first_knockout"])
def test_everyone_sees_who_is_in_on_a_dogs_life_or_out_and_no_dog_card(players, dogs_life):
    state = find_dog_game(players, dogs_life)
    audit = Audit()
    dogs = [s for s in range(players) if state.status[s] == "dog"]
    while not state.over and state.status.count("dog"):
        for seat in range(players):
            view = state.view(seat)
            assert view.status == tuple(state.status)
            assert view.round_tricks == tuple(state.round_tricks)
            assert audit.leaks(view, state, seat) == []
            assert public_facts_problems(view, state, seat) == []
            for dog in dogs:
                if seat != dog and state.hands[dog]:
                    assert not view.hand & state.hands[dog]
                    assert not view.played & state.hands[dog]
        for dog in dogs:
            if state.phase == "play":
                assert state.view(dog).is_dog
                assert state.view(dog).hand == state.hands[dog]
                assert state.hands[dog].bit_count() <= 1
        step(state)
    assert audit.unclassified == set()


def test_a_knocking_dog_is_not_listed_among_the_trick_seats():
    state = find_dog_game(4, "first_round")
    dog = state.status.index("dog")
    while state.phase == "trump" or state.to_act != dog:
        step(state)
    step(state)  # the dog knocks
    for seat in range(4):
        view = state.view(seat)
        assert dog not in view.trick_seats
        assert all(dog not in seats for seats in view.trick_players)


def _planted(state: KnockoutWhistDeal, seat: int) -> dict[str, Any]:
    """Ways a careless view could leak, each of which the audit must catch."""
    other = next(s for s in range(state.players) if s != seat and state.hands[s])
    hidden = hidden_from(state, seat)
    hidden_card = lowest(hidden & state.hands[other])
    view = state.view(seat)
    return {
        "hand field holds another hand": view._replace(hand=state.hands[other]),
        "trick holds a hidden card": view._replace(trick=(hidden_card,)),
        "upcard field holds a hidden card": view._replace(upcard=hidden_card),
        "legal marks one hidden card": view._replace(legal=1 << hidden_card),
        "the hands list": (state.hands,),
        "the state itself": [state],
        "the round's dealt hands": {"x": state.round_start_hands},
    }


PLANTED = [
    "hand field holds another hand", "trick holds a hidden card",
    "upcard field holds a hidden card", "legal marks one hidden card",
    "the hands list", "the state itself",
    "the round's dealt hands",
]


@pytest.mark.parametrize("kind", PLANTED)
def test_the_audit_finds_planted_leaks(kind):
    state = make_game("knockout_whist", {}, 4).new_deal(5, 0)
    for _ in range(6):
        step(state)
    seat = state.to_act
    leaky = _planted(state, seat)[kind]
    assert Audit().leaks(leaky, state, seat), f"{kind} was not detected"
