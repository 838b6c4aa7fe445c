"""The leak audit shared by the seat-view tests of the four-seat and many-seat games.

Every int reachable from a view (``tests.test_seat_views.reachable``) is judged by
the kind of field it sits in, which each game's test names:

- "card": must not be a hidden card;
- "mask": must hold none of the hidden cards or all of them (cannot tell them apart);
- "counter": seats, counts, variant numbers: nothing to check;
- "other": an unclassified field, reported so that a new view field gets classified.

Besides: the view must not reach any object in ``forbidden`` (the state and its
containers), no int may equal another seat's hand mask while that mask tells hidden
cards apart, no int may be the deal seed, and class-level ints must stay constant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tests.test_seat_views import field_name, reachable, tells_hidden_apart
from whist_sim.cards import FULL_DECK
from whist_sim.games.base import DealState


def kinds(card: set[str], mask: set[str], counter: set[str]) -> Callable[[str], str]:
    """The usual classification: by the name of the field an int sits in."""

    def kind_of(path: str) -> str:
        name = field_name(path)
        if name in card:
            return "card"
        if name in mask:
            return "mask"
        return "counter" if name in counter else "other"

    return kind_of


class FieldAudit:
    """Leak findings over a run of views."""

    def __init__(self, kind_of: Callable[[str], str], seed_floor: int = 52) -> None:
        self.kind_of = kind_of
        self.seed_floor = seed_floor
        """Seeds at or below this are small ints that fields hold for other reasons."""
        self.class_ints: dict[str, set[int]] = {}
        self.unclassified: set[str] = set()
        self.views_checked = 0
        self.ints_checked = 0

    def scan(
        self,
        view: Any,
        *,
        hidden: int,
        forbidden: dict[int, str],
        hands: Sequence[int],
        seat: int,
        seed: int,
    ) -> list[str]:
        """Everything reachable from ``view`` that shows a card hidden from ``seat``."""
        forbidden = dict(forbidden)
        other_hands = {}
        for other, hand in enumerate(hands):
            if other != seat and tells_hidden_apart(hand, hidden):
                other_hands[hand] = other
                if hand > 256:  # small ints are shared objects; identity means nothing
                    forbidden[id(hand)] = f"seat {other}'s hand int"
        found = []
        self.views_checked += 1
        for path, obj in reachable(view):
            if id(obj) in forbidden:
                found.append(f"{path} is {forbidden[id(obj)]}")
                continue
            if isinstance(obj, DealState):
                found.append(f"{path} is a DealState")
                continue
            if obj.__class__ is not int:
                continue
            self.ints_checked += 1
            if obj == seed and seed > self.seed_floor:
                found.append(f"{path} is the deal seed (the cards can be reshuffled from it)")
            kind = self.kind_of(path)
            # late in a deal a hand mask can be a small number: a card, a counter or a
            # class constant of the same value is no leak (cards are checked one by one,
            # class-level ints must stay constant)
            small_number = obj < 1 << 13 and (kind in ("card", "counter") or path.startswith("<"))
            if obj in other_hands and not small_number:
                found.append(f"{path} equals seat {other_hands[obj]}'s hand mask")
            if path.startswith("<"):
                self.class_ints.setdefault(path, set()).add(obj)
                if 52 <= obj <= FULL_DECK and tells_hidden_apart(obj, hidden):
                    found.append(f"class attribute {path} = {obj:#x} marks hidden cards")
            elif obj < 0:
                pass  # no card or card set is negative (-1: none)
            elif kind == "card":
                if hidden >> obj & 1:
                    found.append(f"{path} shows the hidden card {obj}")
            elif kind == "mask":
                if tells_hidden_apart(obj, hidden):
                    found.append(f"{path} = {obj:#x} marks hidden cards {obj & hidden:#x}")
            elif kind == "other":
                self.unclassified.add(path)
                if (obj < 52 and hidden >> obj & 1) or (
                    obj >= 52 and tells_hidden_apart(obj, hidden)
                ):
                    found.append(f"unclassified {path} = {obj} may show hidden cards")
        return found

    def changing_class_ints(self) -> dict[str, set[int]]:
        return {path: values for path, values in self.class_ints.items() if len(values) > 1}


def decision_problems(
    view: Any,
    state: DealState,
    seat: int,
    audit: Any,
    view_type: type,
    players: int,
    public: Callable[[Any, DealState, int], list[str]],
    walk_others: bool = True,
) -> list[str]:
    """What is wrong at one decision: the view ``seat`` was given, and every other seat's.

    The acting seat's view must be of ``view_type``, its own, equal to
    ``state.view(seat)``, with the state's legal actions; every other seat's view must
    offer no action. Every view must pass ``audit.leaks`` (the others' only when
    ``walk_others``: walking is slow at big tables) and ``public`` (the game's
    public-fact checks).
    """
    problems = []
    if type(view) is not view_type:
        problems.append(f"got a {type(view).__name__}, not a {view_type.__name__}")
    if state.to_act != seat or view.seat != seat:
        problems.append(f"seat {seat} asked while seat {state.to_act} acts")
    if view != state.view(seat):
        problems.append("the view differs from state.view(seat)")
    if view.legal != state.legal or view.legal == 0:
        problems.append(f"seat {seat} to act has legal {view.legal:#x}")
    problems += audit.leaks(view, state, seat)
    problems += public(view, state, seat)
    for other in range(players):
        if other == seat:
            continue
        other_view = state.view(other)
        if other_view.legal != 0:
            problems.append(f"seat {other} not to act has legal {other_view.legal:#x}")
        if walk_others:
            problems += audit.leaks(other_view, state, other)
        problems += public(other_view, state, other)
    return problems
