"""A Minnesota Whist strategy sees only what its seat may know.

The walk is ``tests.test_seat_views.reachable``: everything a strategy could get at
from the view it is handed (fields, NamedTuple fields, properties, containers,
closures, class attributes, ...). Every int met is judged by the field it sits in:

- a card field (``laid``, ``trick``, a trick's ``cards``, the card of a ``turned``
  pair): not a hidden card;
- a mask field (``hand``, ``legal``, ``played``): holds none of the hidden cards or
  all of them (it cannot tell hidden cards apart);
- a counter field (seats, calls, trick and point counts, variant numbers, the seat
  of a ``turned`` pair): nothing to check;
- anything else: an error, so a new view field must be classified here.

Hidden from a seat, computed from the STATE: the cards in the other three hands
(partner's included), except the laid cards that were turned face up (public, though
back in their owners' hands). A laid card that was not turned is in its owner's hand,
so it is hidden too, and so is every other seat's laid card while the cards are laid.

Beyond the walk, indistinguishability: two deals that differ only in what a seat
cannot know (another seat's laid card, the partner's hand) give that seat EQUAL views.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from strategies.random_play import RandomStrategy
from tests.test_minnesota_whist_rules import P_HAND, Q_HAND, split_hands
from tests.test_seat_views import field_name, reachable
from tests.view_audit import FieldAudit, decision_problems
from whist_sim.cards import SUIT_MASKS, highest, parse_card
from whist_sim.games import make_game
from whist_sim.games.minnesota_whist import (
    GRAND,
    PASS,
    MinnesotaWhist,
    MinnesotaWhistDeal,
    MinnesotaWhistView,
)
from whist_sim.play import play_deal
from whist_sim.rng import derive_seed

CARD_FIELDS = {"laid", "trick", "cards"}
MASK_FIELDS = {"legal", "hand", "played"}
COUNTER_FIELDS = {
    "seat", "dealer", "laid_count", "calls", "grander", "leader", "number", "winner",
    "side_tricks", "score", "target", "partner",
}
RED = SUIT_MASKS[1] | SUIT_MASKS[2]
DEALS = 5
VARIANTS = [{}, {"bid": "spoken"}, {"scoring": "pagat", "target": 7}]


def c(text: str) -> int:
    return parse_card(text)


def turned_mask(state: MinnesotaWhistDeal) -> int:
    mask = 0
    for _, card in state.turned:
        mask |= 1 << card
    return mask


def hidden_from(state: MinnesotaWhistDeal, seat: int) -> int:
    hidden = 0
    for other in range(4):
        if other != seat:
            hidden |= state.hands[other]
    return hidden & ~turned_mask(state)


def kind_of(path: str) -> str:
    """"card", "mask", "counter" or "other" for the int at ``path``."""
    name = field_name(path)
    if name == "turned":  # (seat, card) pairs
        return "card" if path.endswith("][1]") else "counter"
    if name in CARD_FIELDS:
        return "card"
    if name in MASK_FIELDS:
        return "mask"
    return "counter" if name in COUNTER_FIELDS else "other"


class Audit(FieldAudit):
    """Leak findings over a run; class-level ints must stay constant across it."""

    def __init__(self) -> None:
        super().__init__(kind_of, seed_floor=52)

    def leaks(self, view: Any, state: MinnesotaWhistDeal, seat: int) -> list[str]:
        hidden = hidden_from(state, seat)
        forbidden = {
            id(state): "the deal state",
            id(state.hands): "the state's hands list",
            id(state.laid): "the state's laid list",
            id(state.log): "the action log",
            id(state.initial_hands): "the initial hands",
            id(state.deck): "the dealt deck",
            id(state.side_tricks): "the state's side_tricks list",
        }
        return self.scan(
            view, hidden=hidden, forbidden=forbidden, hands=state.hands, seat=seat,
            seed=state.seed,
        )


def public_facts_problems(view: MinnesotaWhistView, state: MinnesotaWhistDeal,
                          seat: int) -> list[str]:
    """What the seat MAY know must be in its view."""
    problems = []
    if view.hand != state.hands[seat]:
        problems.append(f"seat {seat}: hand is not its own hand")
    if view.laid != state.laid[seat]:
        problems.append(f"seat {seat}: laid {view.laid} is not its own laid card")
    if view.laid_count != sum(card >= 0 for card in state.laid):
        problems.append(f"seat {seat}: laid_count {view.laid_count} is wrong")
    if view.turned != state.turned:
        problems.append(f"seat {seat}: turned {view.turned} is not {state.turned}")
    if view.calls != state.calls:
        problems.append(f"seat {seat}: calls {view.calls} are not {state.calls}")
    if (view.grander, view.grand) != (state.grander, state.grand):
        problems.append(f"seat {seat}: grander/grand not shown")
    if view.tricks != state.tricks or view.trick != state.trick:
        problems.append(f"seat {seat}: the tricks played are not shown")
    if view.side_tricks != tuple(state.side_tricks):
        problems.append(f"seat {seat}: side tricks not shown")
    return problems


class PeekingGame(MinnesotaWhist):
    """Minnesota Whist that lets the test see the state ``play_deal`` creates."""

    current: MinnesotaWhistDeal

    def new_deal(self, seed: int, dealer: int = 0,
                 score: tuple[int, int] = (0, 0)) -> MinnesotaWhistDeal:
        self.current = super().new_deal(seed, dealer, score)
        return self.current


class Bidder:
    """Random play; bids red (or passes) 80% of the time, so both hand types come up."""

    def __init__(self) -> None:
        self.inner = RandomStrategy()

    def choose(self, view: Any, rng: random.Random) -> int:
        if view.phase == "bid":
            return PASS if rng.random() < 0.8 else GRAND
        if view.phase == "lay" and view.hand & RED and rng.random() < 0.8:
            return self.inner.choose(view._replace(legal=view.hand & RED), rng)
        return self.inner.choose(view, rng)


class SpyStrategy:
    """Checks each view it is handed (and the other seats' views) against the state."""

    def __init__(self, game: PeekingGame, audit: Audit, seat: int) -> None:
        self.game = game
        self.audit = audit
        self.seat = seat
        self.inner = Bidder()
        self.phases: set[str] = set()
        self.problems: list[str] = []

    def choose(self, view: Any, rng: Any) -> int:
        state = self.game.current
        self.phases.add(view.phase)
        self.problems += decision_problems(view, state, self.seat, self.audit,
                                           MinnesotaWhistView, 4, public_facts_problems)
        return self.inner.choose(view, rng)


def layout_deal(hands: tuple[str, str, str, str], dealer: int,
                **variant) -> MinnesotaWhistDeal:
    game = make_game("minnesota_whist", variant)
    return game.deal_from_layout(hands, dealer)  # type: ignore[attr-defined]


def apply(state: MinnesotaWhistDeal, *texts: str) -> None:
    for text in texts:
        state.apply(c(text))


def differing_fields(a: MinnesotaWhistView, b: MinnesotaWhistView) -> set[str]:
    return {name for name in a._fields if getattr(a, name) != getattr(b, name)}


# -- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default"
)
@pytest.mark.slow
def test_strategy_sees_no_hidden_card(variant):
    game = PeekingGame(make_game("minnesota_whist", variant).variant)
    audit = Audit()
    spies = [SpyStrategy(game, audit, seat) for seat in range(4)]
    hand_types = set()
    for i in range(DEALS):
        played = play_deal(game, spies, derive_seed(99, "mn-views", i), dealer=i % 4,
                           on_error="abort")
        assert played.outcome.forfeit_seat is None
        hand_types.add(played.outcome.facts["hand_type"])
        for spy in spies:
            assert spy.problems == [], spy.problems[:5]
    assert audit.unclassified == set(), "classify these view ints in this test module"
    assert audit.changing_class_ints() == {}
    assert audit.views_checked > DEALS * 4 * 50
    assert audit.ints_checked > audit.views_checked * 20
    assert hand_types == {"grand", "null"}
    bidding = "bid" if variant.get("bid") == "spoken" else "lay"
    assert set().union(*(spy.phases for spy in spies)) == {bidding, "play"}


def test_while_laying_only_own_laid_card_and_the_count_are_seen():
    hands = split_hands(6, 0)  # seat 0: AC..9C 2H..8H, 1: 8C..2C 9H..AH, 2: P, 3: Q
    first = layout_deal(hands, dealer=3)  # seats lay 0, 1, 2, 3
    second = layout_deal(hands, dealer=3)
    audit = Audit()
    for one, other in (("2H", "2H"), ("AH", "2C"), ("AD", "AS")):  # seats 0, 1, 2
        layer = first.to_act
        apply(first, one)
        apply(second, other)
        for seat in range(4):
            view = first.view(seat)
            assert view.laid == (first.laid[seat] if seat <= layer else -1)
            assert view.laid_count == layer + 1
            assert view.turned == () and view.grander == -1
            assert audit.leaks(view, first, seat) == []
            assert audit.leaks(second.view(seat), second, seat) == []
            # seats 1 and 2 lay different cards in the two deals: only they can tell
            expected = {"laid"} if seat in (1, 2) and seat <= layer else set()
            assert differing_fields(view, second.view(seat)) == expected, (seat, layer)
    assert hidden_from(first, 3) >> c("AH") & 1  # seat 1's laid card is hidden from 3
    assert hidden_from(first, 0) >> c("AD") & 1


def test_turned_cards_are_public_in_every_view():
    state = layout_deal(split_hands(6, 2), dealer=0)  # lay and turn 1, 2, 3, 0
    apply(state, "2D", "2H", "2C", "AS")  # red, red, black (grand), black (not turned)
    turned = ((1, c("2D")), (2, c("2H")), (3, c("2C")))
    audit = Audit()
    for seat in range(4):
        view = state.view(seat)
        assert view.turned == turned
        assert (view.grand, view.grander, view.leader) == (True, 3, 2)
        for owner, card in turned:  # public, and back in its owner's hand
            assert state.hands[owner] >> card & 1
            assert not hidden_from(state, seat) >> card & 1
        assert audit.leaks(view, state, seat) == []
    apply(state, "AC", "2C")  # the turned 2C is played; the rest stay public
    assert all(state.view(seat).turned == turned for seat in range(4))
    assert all(audit.leaks(state.view(s), state, s) == [] for s in range(4))


def test_laid_cards_that_were_not_turned_stay_private():
    hands = split_hands(6, 0)
    first = layout_deal(hands, dealer=3)  # seat 0 lays first: black, so only it is turned
    second = layout_deal(hands, dealer=3)
    apply(first, "AC", "AH", "AD", "2S")
    apply(second, "AC", "2C", "9S", "7D")
    assert first.turned == second.turned == ((0, c("AC")),)
    for seat in range(4):
        view = first.view(seat)
        for owner, card in ((1, c("AH")), (2, c("AD")), (3, c("2S"))):
            if owner != seat:
                assert hidden_from(first, seat) >> card & 1
                assert card not in (other for _, other in view.turned)
        assert Audit().leaks(view, first, seat) == []
        # what seats 1-3 laid does not change what any other seat sees
        expected = {"laid"} if seat in (1, 2, 3) else set()
        assert differing_fields(view, second.view(seat)) == expected
    assert [first.view(s).laid for s in range(4)] == [c(x) for x in ("AC", "AH", "AD", "2S")]


def test_partners_see_nothing_of_each_others_hands():
    # two deals that differ only in seat 2's and seat 3's hands (AD, AS swapped with 2D, 2S):
    # seat 0 (seat 2's partner) and seat 1 hold the same cards in both
    base = split_hands(6, 0)
    swapped = (base[0], base[1], P_HAND.replace("AD", "2D").replace("AS", "2S"),
               Q_HAND.replace("2D", "AD").replace("2S", "AS"))
    first = layout_deal(base, dealer=3)
    second = layout_deal(swapped, dealer=3)
    assert first.hands[0] == second.hands[0] and first.hands[2] != second.hands[2]
    actions = ["2H", "9H", "KD", "7D",  # four reds: a null hand, seat 0 leads
               "AC", "2C", "KS", "8S",
               "9C", "8C", "QD", "3D"]
    audit = Audit()
    for text in actions:
        for seat in (0, 1):
            assert first.view(seat) == second.view(seat), (seat, text)
            assert audit.leaks(first.view(seat), first, seat) == []
            assert first.view(seat).hand & first.hands[(seat + 2) % 4] == 0
        apply(first, text)
        apply(second, text)
    assert first.view(0) == second.view(0) and first.view(1) == second.view(1)
    assert first.view(2) != second.view(2)
    assert hidden_from(first, 0) & first.hands[2] == first.hands[2] & ~turned_mask(first)


@pytest.mark.parametrize("variant", [{}, {"bid": "spoken"}])
def test_the_seat_not_to_act_has_no_legal_action_in_every_phase(variant):
    phases = set()
    for seed in range(4):
        state = make_game("minnesota_whist", variant).new_deal(seed, seed % 4)
        while not state.over:
            phases.add(state.phase)
            for seat in range(4):
                expected = state.legal if seat == state.to_act else 0
                assert state.view(seat).legal == expected
            assert state.legal != 0
            state.apply(PASS if state.phase == "bid" else highest(state.legal))
        assert all(state.view(seat).legal == 0 for seat in range(4))
    assert phases == ({"bid", "play"} if variant else {"lay", "play"})


def test_the_walk_reaches_fields_properties_classes_and_variant():
    state = layout_deal(split_hands(6, 2), dealer=0)
    apply(state, "2D", "2H", "2C", "AS", "AC")
    paths = {path for path, _ in reachable(state.view(3))}
    for expected in (
        "view.hand", "view.legal", "view.laid", "view.turned[0][1]", "view.turned[2][0]",
        "view.trick[0]", "view.variant.target", "view.variant.scoring",
        "view.played", "view.partner",  # NamedTuple properties
        "<whist_sim.games.minnesota_whist.MinnesotaWhistView>._fields",
        "<whist_sim.games.minnesota_whist.MinnesotaWhistVariant>.__dataclass_fields__",
    ):
        assert expected in paths, expected
    assert kind_of("view.turned[0][1]") == "card"
    assert kind_of("view.turned[0][0]") == "counter"


def _planted(state: MinnesotaWhistDeal, seat: int) -> dict[str, Any]:
    """Ways a careless Minnesota view could leak, each of which the audit must catch."""
    partner = (seat + 2) % 4
    view = state.view(seat)
    unturned = state.laid[partner]  # laid, never turned: hidden
    return {
        "hand field holds the partner's hand": view._replace(hand=state.hands[partner]),
        "laid field holds the partner's laid card": view._replace(laid=unturned),
        "turned holds a card that was not turned": view._replace(
            turned=(*view.turned, (partner, unturned))
        ),
        "trick holds a hidden card": view._replace(trick=(unturned,)),
        "legal marks one hidden card": view._replace(legal=1 << unturned),
        "the laid list": (state.laid,),
        "the state itself": [state],
    }


PLANTED = [
    "hand field holds the partner's hand", "laid field holds the partner's laid card",
    "turned holds a card that was not turned", "trick holds a hidden card",
    "legal marks one hidden card", "the laid list", "the state itself",
]


@pytest.mark.parametrize("kind", PLANTED)
def test_the_audit_finds_planted_leaks(kind):
    state = layout_deal(split_hands(6, 0), dealer=3)
    apply(state, "AC", "AH", "AD", "2S")  # seat 0 grands; seats 1-3 laid cards unturned
    seat = 0
    assert state.laid[2] == c("AD") and hidden_from(state, seat) >> c("AD") & 1
    leaky = _planted(state, seat)[kind]
    assert Audit().leaks(leaky, state, seat), f"{kind} was not detected"
