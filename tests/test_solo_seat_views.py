"""A Solo Whist strategy sees only what its seat may know.

The walk is ``tests.test_seat_views.reachable``: everything a strategy could get at
from the view it is handed (fields, properties, closures, class attributes, ...).
Every int met is judged by the field it sits in, as in that module:

- a card field (``upcard``, ``trick``, a trick's ``cards``): not a hidden card;
- a mask field (``hand``, ``legal``, ``played``, ``exposed``): holds none of the
  hidden cards or all of them (it cannot tell hidden cards apart);
- a counter field (seats, calls, contract index, trick counts, variant numbers):
  nothing to check;
- anything else: an error, so a new view field must be classified here.

Hidden from a seat, computed from the STATE: the unplayed cards of the other three
hands, except (a) the dealer's upcard while the dealer holds it (everyone saw it
turned) and (b) the Spread Misère declarer's remaining hand once the first trick is
complete (it lies exposed on the table).

And what a seat MAY know is checked to be there: the auction so far, the upcard and
whether it is still held, the declarer and partner, the exposed hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from strategies.random_play import RandomStrategy
from tests.test_seat_views import reachable
from tests.view_audit import FieldAudit, decision_problems, kinds
from whist_sim.cards import highest, parse_card, parse_cards
from whist_sim.games import make_game
from whist_sim.games.base import DealState
from whist_sim.games.solo_whist import (
    BIDS,
    CONTRACTS,
    SoloWhist,
    SoloWhistDeal,
    SoloWhistView,
)
from whist_sim.play import play_deal
from whist_sim.rng import derive_seed

CARD_FIELDS = {"upcard", "trick", "cards"}
MASK_FIELDS = {"legal", "hand", "played", "exposed"}
COUNTER_FIELDS = {
    "seat", "dealer", "bids", "contract", "declarer", "partner", "trump", "leader",
    "tricks_won", "number", "winner", "highest_call", "stake", "session_hands", "target",
}
DEALS = 12
VARIANTS = [
    {},
    {"upcard": False},
    {"prop_and_cop": False, "payments": "classic"},
    {"play_out": True, "stake": 2},
]
SUITS_LAYOUT = tuple(" ".join(rank + suit for rank in "AKQJT98765432") for suit in "SHDC")


def exposed_now(state: SoloWhistDeal) -> int:
    """The Spread Misère declarer's remaining hand once trick 1 is complete, else 0."""
    if state.contract < 0 or CONTRACTS[state.contract].name != "spread_misere":
        return 0
    return state.hands[state.declarer] if state.tricks else 0


def hidden_from(state: SoloWhistDeal, seat: int) -> int:
    hidden = 0
    for other in range(4):
        if other != seat:
            hidden |= state.hands[other]
    if state.upcard >= 0:
        hidden &= ~(1 << state.upcard)  # public while held; played once it is not
    return hidden & ~exposed_now(state)


class Audit(FieldAudit):
    """Leak findings over a run; class-level ints must stay constant across it."""

    def __init__(self) -> None:
        super().__init__(kinds(CARD_FIELDS, MASK_FIELDS, COUNTER_FIELDS), seed_floor=52)

    def leaks(self, view: Any, state: SoloWhistDeal, seat: int) -> list[str]:
        hidden = hidden_from(state, seat)
        forbidden = {
            id(state): "the deal state",
            id(state.hands): "the state's hands list",
            id(state.log): "the action log",
            id(state.initial_hands): "the initial hands",
            id(state.deck): "the shuffled deck",
            id(state.passed): "the state's passed list",
            id(state.won): "the state's won list",
        }
        return self.scan(
            view, hidden=hidden, forbidden=forbidden, hands=state.hands, seat=seat,
            seed=state.seed,
        )


def public_facts_problems(view: SoloWhistView, state: SoloWhistDeal, seat: int) -> list[str]:
    """What the seat MAY know must be in its view."""
    problems = []
    calls = tuple((s, action) for s, phase, action, _ in state.log if phase == "bid")
    if view.bids != calls:
        problems.append(f"seat {seat}: bids {view.bids} are not the auction so far {calls}")
    if view.upcard != state.upcard:
        problems.append(f"seat {seat}: upcard {view.upcard} is not {state.upcard}")
    held = state.upcard >= 0 and bool(state.hands[state.dealer] >> state.upcard & 1)
    if view.upcard_held != held:
        problems.append(f"seat {seat}: upcard_held {view.upcard_held}, should be {held}")
    if (view.contract, view.declarer, view.partner) != (
        state.contract, state.declarer, state.partner
    ):
        problems.append(f"seat {seat}: contract/declarer/partner not shown")
    if view.exposed != exposed_now(state):
        problems.append(f"seat {seat}: exposed {view.exposed:#x}, not {exposed_now(state):#x}")
    if view.hand != state.hands[seat]:
        problems.append(f"seat {seat}: hand is not its own hand")
    if view.tricks != state.tricks or view.trick != state.trick:
        problems.append(f"seat {seat}: the tricks played are not shown")
    return problems


class PeekingGame(SoloWhist):
    """Solo Whist that lets the test see the state ``play_deal`` creates."""

    current: SoloWhistDeal

    def new_deal(self, seed: int, dealer: int = 0) -> SoloWhistDeal:
        self.current = super().new_deal(seed, dealer)
        return self.current


class Bidder:
    """Random play; in the auction passes 70% of the time, Cops half the time it may, and
    otherwise makes a random bid, so that every contract comes up."""

    def __init__(self) -> None:
        self.inner = RandomStrategy()

    def choose(self, view: Any, rng: random.Random) -> int:
        if view.phase == "bid":
            if view.legal >> BIDS["cop"] & 1 and rng.random() < 0.5:
                return BIDS["cop"]
            if rng.random() < 0.7:
                return BIDS["pass"]
        return self.inner.choose(view, rng)


class SpyStrategy:
    """Checks each view it is handed (and the other seats' views) against the state."""

    def __init__(self, game: PeekingGame, audit: Audit, seat: int, inner: Any) -> None:
        self.game = game
        self.audit = audit
        self.seat = seat
        self.inner = inner
        self.phases: set[str] = set()
        self.exposed_views = 0
        self.problems: list[str] = []

    def choose(self, view: Any, rng: Any) -> int:
        state = self.game.current
        self.phases.add(view.phase)
        self.exposed_views += view.exposed != 0
        self.problems += decision_problems(view, state, self.seat, self.audit, SoloWhistView,
                                           4, public_facts_problems)
        return self.inner.choose(view, rng)


def run_spies(variant: dict[str, Any], inner: Any, deals: int, tag: str):
    game = PeekingGame(make_game("solo_whist", variant).variant)
    audit = Audit()
    spies = [SpyStrategy(game, audit, seat, inner) for seat in range(4)]
    contracts = set()
    for i in range(deals):
        played = play_deal(game, spies, derive_seed(99, tag, i), dealer=i % 4, on_error="abort")
        assert played.outcome.forfeit_seat is None
        contracts.add(played.outcome.facts["contract"])
        for spy in spies:
            assert spy.problems == [], spy.problems[:5]
    return audit, spies, contracts


# -- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default"
)
@pytest.mark.slow
def test_strategy_sees_no_hidden_card(variant):
    audit, spies, contracts = run_spies(variant, Bidder(), DEALS, "views")
    assert audit.unclassified == set(), "classify these view ints in this test module"
    assert audit.changing_class_ints() == {}
    assert audit.views_checked > DEALS * 40
    assert audit.ints_checked > audit.views_checked * 20
    assert set().union(*(spy.phases for spy in spies)) >= {"bid", "play"}
    assert len(contracts) >= 3


class SpreadMisereFromSeat:
    """Seat ``declarer`` bids Spread Misère at once, the others pass; then random play."""

    def __init__(self, declarer: int) -> None:
        self.declarer = declarer
        self.inner = RandomStrategy()

    def choose(self, view: Any, rng: random.Random) -> int:
        if view.phase == "bid":
            return BIDS["spread_misere" if view.seat == self.declarer else "pass"]
        return self.inner.choose(view, rng)


@pytest.mark.parametrize("declarer", [0, 1, 2, 3])
def test_spread_misere_hand_is_seen_by_all_after_trick_one_and_nothing_else(declarer):
    audit, spies, contracts = run_spies(
        {"play_out": True}, SpreadMisereFromSeat(declarer), 2, f"spread{declarer}"
    )
    assert contracts == {"spread_misere"}
    assert all(spy.exposed_views > 0 for spy in spies)
    assert audit.unclassified == set()


def test_spread_misere_hand_is_hidden_until_trick_one_is_complete():
    game = make_game("solo_whist")
    state = game.deal_from_layout(SUITS_LAYOUT, 0)  # type: ignore[attr-defined]
    for text in ("pass", "spread_misere", "pass", "pass"):
        state.apply(game.parse_action(text))
    audit = Audit()
    diamonds = parse_cards(SUITS_LAYOUT[2])
    for card in ("AH", "AD", "AC"):
        for seat in (0, 1, 3):
            assert hidden_from(state, seat) & diamonds == state.hands[2]
            assert state.view(seat).exposed == 0
            assert audit.leaks(state.view(seat), state, seat) == []
        state.apply(parse_card(card))
    state.apply(parse_card("AS"))
    for seat in (0, 1, 3):
        assert state.view(seat).exposed == state.hands[2] == diamonds & ~(1 << parse_card("AD"))
        assert hidden_from(state, seat) & diamonds == 0
        assert audit.leaks(state.view(seat), state, seat) == []


def test_the_upcard_is_seen_by_all_while_the_dealer_holds_it():
    game = make_game("solo_whist")
    state = game.deal_from_layout(SUITS_LAYOUT, 0)  # type: ignore[attr-defined]
    upcard = parse_card("2S")
    for text in ("solo", "pass", "pass", "pass", "AH", "AD", "AC"):
        state.apply(game.parse_action(text))
        for seat in (1, 2, 3):
            view = state.view(seat)
            assert (view.upcard, view.upcard_held) == (upcard, True)
            assert not hidden_from(state, seat) >> upcard & 1
            assert hidden_from(state, seat) >> parse_card("3S") & 1  # the rest stays hidden
            assert Audit().leaks(view, state, seat) == []
    state.apply(upcard)
    assert all(state.view(seat).upcard_held is False for seat in range(4))
    assert all(state.view(seat).upcard == upcard for seat in range(4))


def test_the_auction_and_the_partnership_are_seen_by_all():
    game = make_game("solo_whist")
    state = game.deal_from_layout(SUITS_LAYOUT, 2)  # type: ignore[attr-defined]
    for text in ("prop", "pass", "solo", "pass", "pass"):
        state.apply(game.parse_action(text))
    calls = ((3, BIDS["prop"]), (0, BIDS["pass"]), (1, BIDS["solo"]), (2, BIDS["pass"]),
             (3, BIDS["pass"]))
    assert all(state.view(seat).bids == calls for seat in range(4))
    assert all(state.view(seat).highest_call == BIDS["solo"] for seat in range(4))
    assert all(state.view(seat).passed == (True, False, True, True) for seat in range(4))
    copped = game.deal_from_layout(SUITS_LAYOUT, 2)  # type: ignore[attr-defined]
    for text in ("prop", "pass", "cop", "pass"):
        copped.apply(game.parse_action(text))
    for seat in range(4):
        view = copped.view(seat)
        assert (CONTRACTS[view.contract].name, view.declarer, view.partner) == (
            "prop_and_cop", 3, 1,
        )
        assert Audit().leaks(view, copped, seat) == []


def test_the_seat_not_to_act_has_no_legal_action_in_every_phase():
    game = make_game("solo_whist")
    state = game.deal_from_layout(SUITS_LAYOUT, 0)  # type: ignore[attr-defined]
    for text in ("abundance", "pass", "pass", "pass"):
        state.apply(game.parse_action(text))
    phases = []
    while not state.over:
        phases.append(state.phase)
        for seat in range(4):
            expected = state.legal if seat == state.to_act else 0
            assert state.view(seat).legal == expected
        assert state.legal != 0
        state.apply(highest(state.legal))
    assert phases[0] == "trump" and set(phases) == {"trump", "play"}
    assert all(state.view(seat).legal == 0 for seat in range(4))


def _planted(state: SoloWhistDeal, seat: int) -> dict[str, Any]:
    """Ways a careless Solo view could leak, each of which the audit must catch."""
    other = (seat + 1) % 4
    hidden = hidden_from(state, seat)
    hidden_card = (hidden & -hidden).bit_length() - 1
    view = state.view(seat)
    return {
        "hand field holds another hand": view._replace(hand=state.hands[other]),
        "exposed before trick 1": view._replace(exposed=state.hands[other]),
        "upcard field holds a hidden card": view._replace(upcard=hidden_card),
        "trick holds a hidden card": view._replace(trick=(hidden_card,)),
        "legal marks one hidden card": view._replace(legal=1 << hidden_card),
        "the hands list": (state.hands,),
        "the state itself": [state],
    }


PLANTED = [
    "hand field holds another hand", "exposed before trick 1",
    "upcard field holds a hidden card", "trick holds a hidden card",
    "legal marks one hidden card", "the hands list", "the state itself",
]


@pytest.mark.parametrize("kind", PLANTED)
def test_the_audit_finds_planted_leaks(kind):
    game = make_game("solo_whist")
    state = game.deal_from_layout(SUITS_LAYOUT, 0)  # type: ignore[attr-defined]
    for text in ("pass", "misere", "pass", "pass"):
        state.apply(game.parse_action(text))
    seat = 2
    leaky = _planted(state, seat)[kind]
    assert Audit().leaks(leaky, state, seat), f"{kind} was not detected"


def test_the_walk_reaches_every_solo_view_field():
    game = make_game("solo_whist")
    state = game.deal_from_layout(SUITS_LAYOUT, 0)  # type: ignore[attr-defined]
    for text in ("pass", "spread_misere", "pass", "pass", "AH", "AD", "AC", "AS"):
        state.apply(game.parse_action(text))
    paths = {path for path, _ in reachable(state.view(1))}
    for expected in (
        "view.hand", "view.legal", "view.upcard", "view.exposed", "view.bids[1][1]",
        "view.tricks[0].cards[3]", "view.tricks_won[1]", "view.variant.stake",
        "view.variant.plays_out", "view.played", "view.highest_call",
        "<whist_sim.games.solo_whist.SoloWhistView>._fields",
        "<whist_sim.games.solo_whist.SoloWhistVariant>.__dataclass_fields__",
    ):
        assert expected in paths, expected


def test_view_holds_no_deal_state_attribute():
    state = make_game("solo_whist").new_deal(8, 0)
    view = state.view(0)
    assert isinstance(view, SoloWhistView)
    assert not hasattr(view, "__dict__")
    for name in view._fields:
        value = getattr(view, name)
        assert not isinstance(value, DealState), name
        assert value is not state.hands and value is not state.passed, name
        assert value is not state.won and value is not state.deck, name
