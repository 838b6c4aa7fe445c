"""A strategy sees only what its seat may know.

``reachable`` walks EVERYTHING a strategy could get at from the view object it is
handed: attributes, ``__dict__``, ``__slots__``, tuple/list/set/dict items (keys too),
NamedTuple fields, properties (evaluated), closures (cell contents), defaults,
``__self__``/``__func__`` of methods, and the class attributes of every non-builtin
class met on the way. It does not follow ``__globals__`` or modules: those are shared
code, not deal data.

Every int met is then judged by what it is, so that small numbers cannot give false
alarms (a seat number 1 is also the card 3S):

- at a card field (``upcard``, ``faceup``, ``trick``, trick ``cards``): the card must
  not be hidden from the seat;
- at a mask field (``hand``, ``legal``, ``drawn``, ``played``, ``taken_faceup``,
  ``opponent_known``, ``unseen``): the mask must not tell hidden cards apart, i.e.
  it holds none of them or all of them (``unseen`` is exactly the hidden set: the
  cards the seat has not seen, which says nothing about where each one lies);
- at a counter field (seat, trick numbers, ...): nothing to check;
- anywhere else on the view: an error, so a new field must be classified here;
- under a class attribute: it must never change during the run (a class-level value
  that changes from deal to deal would be a channel for deal state), and an int big
  enough to be a mask must not tell hidden cards apart either.

Hidden cards are computed from the STATE: the opponent's hand except the face-up
cards it took (public), plus the face-down stock.
"""

from __future__ import annotations

import contextlib
import functools
import re
import types
from typing import Any

import pytest

from strategies.random_play import RandomStrategy
from whist_sim.cards import FULL_DECK
from whist_sim.games import make_game
from whist_sim.games.base import DealState
from whist_sim.games.german_whist import GermanWhist, GermanWhistDeal, GermanWhistView
from whist_sim.play import play_deal
from whist_sim.rng import derive_seed

LEAVES = (type(None), bool, int, float, complex, str, bytes)
CARD_FIELDS = {"upcard", "faceup", "trick", "cards"}
MASK_FIELDS = {"legal", "hand", "drawn", "played", "opponent_known", "taken_faceup", "unseen"}
COUNTER_FIELDS = {
    "seat", "trump", "facedown_left", "stage", "dealer", "leader", "number", "winner",
    "stage1_tricks", "stage2_tricks", "open_stock", "race_to", "best_of",
}
DEALS = 10
VARIANTS = [
    {},
    {"trumps": "none", "count": "all"},
    {"open_stock": 5, "count": "weighted"},
    {"open_stock": 26},
    {"race_to": 7},
]


# -- the walk ----------------------------------------------------------------------------


def _class_path(cls: type) -> str:
    return f"<{cls.__module__}.{cls.__qualname__}>"


def _is_builtin_type(cls: type) -> bool:
    return cls.__module__ == "builtins"


def _children(path: str, obj: Any):
    """(path, object) pairs directly reachable from ``obj``."""
    if isinstance(obj, types.ModuleType):
        return
    if isinstance(obj, type):
        if _is_builtin_type(obj):
            return
        for name, value in vars(obj).items():
            yield f"{_class_path(obj)}.{name}", value
        for base in obj.__mro__[1:]:
            yield _class_path(base), base
        return
    if isinstance(obj, types.CellType):
        with contextlib.suppress(ValueError):  # an empty cell has no contents
            yield f"{path}.<cell>", obj.cell_contents
        return
    if isinstance(obj, types.FunctionType):
        for name, cell in zip(obj.__code__.co_freevars, obj.__closure__ or (), strict=True):
            yield f"{path}.<closure {name}>", cell
        yield f"{path}.__defaults__", obj.__defaults__
        yield f"{path}.__kwdefaults__", obj.__kwdefaults__
        yield f"{path}.__dict__", obj.__dict__
        return
    if isinstance(obj, types.MethodType):
        yield f"{path}.__self__", obj.__self__
        yield f"{path}.__func__", obj.__func__
        return
    if isinstance(obj, (types.BuiltinFunctionType, types.MethodWrapperType)):
        yield f"{path}.__self__", getattr(obj, "__self__", None)
        return
    if isinstance(obj, (classmethod, staticmethod)):
        yield f"{path}.__func__", obj.__func__
        return
    if isinstance(obj, property):
        yield f"{path}.fget", obj.fget
        yield f"{path}.fset", obj.fset
        yield f"{path}.fdel", obj.fdel
        return
    if isinstance(obj, functools.partial):
        yield f"{path}.func", obj.func
        yield f"{path}.args", obj.args
        yield f"{path}.keywords", obj.keywords
        return

    cls = type(obj)
    if not _is_builtin_type(cls):
        yield _class_path(cls), cls
        for klass in cls.__mro__:
            if _is_builtin_type(klass):
                continue
            for name, attr in vars(klass).items():
                if isinstance(attr, (property, functools.cached_property)):
                    try:
                        yield f"{path}.{name}", getattr(obj, name)
                    except Exception as exc:  # a failing property shows nothing
                        yield f"{path}.{name}!", repr(exc)
            for name in getattr(klass, "__slots__", ()):
                if isinstance(name, str) and hasattr(obj, name):
                    yield f"{path}.{name}", getattr(obj, name)
        instance_dict = getattr(obj, "__dict__", None)
        if isinstance(instance_dict, dict):
            for name, value in instance_dict.items():
                yield f"{path}.{name}", value

    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        for name, value in zip(obj._fields, obj, strict=True):
            yield f"{path}.{name}", value
    elif isinstance(obj, (tuple, list)):
        for i, value in enumerate(obj):
            yield f"{path}[{i}]", value
    elif isinstance(obj, (set, frozenset)):
        for value in obj:
            yield f"{path}{{}}", value
    elif isinstance(obj, (dict, types.MappingProxyType)):
        for key, value in obj.items():
            yield f"{path}.<key>", key
            yield f"{path}[{key!r}]", value


def reachable(root: Any, root_path: str = "view") -> list[tuple[str, Any]]:
    """Every (path, object) reachable from ``root``; each non-leaf object expanded once."""
    found: list[tuple[str, Any]] = []
    expanded: set[int] = set()
    stack = [(root_path, root)]
    while stack:
        path, obj = stack.pop()
        found.append((path, obj))
        if isinstance(obj, LEAVES) or id(obj) in expanded:
            continue
        expanded.add(id(obj))
        stack.extend(_children(path, obj))
    return found


_INDEX = re.compile(r"(\[[^\]]*\]|\{\})+$")


def field_name(path: str) -> str:
    """The field an int sits in: ``view.tricks[3].cards[1]`` -> ``cards``."""
    return _INDEX.sub("", path.rsplit(".", 1)[-1])


# -- what is hidden, and what would leak it -------------------------------------------------


def hidden_from(state: GermanWhistDeal, seat: int) -> int:
    opponent = 1 - seat
    facedown = 0
    for card in state.stock[state.next_stock:]:
        facedown |= 1 << card
    return (state.hands[opponent] & ~state.taken_faceup[opponent]) | facedown


def tells_hidden_apart(mask: int, hidden: int) -> bool:
    common = mask & hidden
    return bool(common) and common != hidden


class Audit:
    """Leak findings over a run; class-level ints must stay constant across it."""

    def __init__(self) -> None:
        self.class_ints: dict[str, set[int]] = {}
        self.unclassified: set[str] = set()
        self.views_checked = 0
        self.ints_checked = 0

    def leaks(self, view: Any, state: GermanWhistDeal, seat: int) -> list[str]:
        hidden = hidden_from(state, seat)
        opponent_hand = state.hands[1 - seat]
        forbidden = {
            id(state): "the deal state",
            id(state.hands): "the state's hands list",
            id(state.log): "the action log",
            id(state.drawn): "the state's drawn list",
            id(state.initial_hands): "the initial hands",
        }
        if not isinstance(state.taken_faceup, tuple):
            # an immutable tuple of public masks may be shared; a mutable list may not
            forbidden[id(state.taken_faceup)] = "the state's taken_faceup list"
        if any(hidden >> card & 1 for card in state.stock):
            # (with open_stock = 26 the whole stock lies face up: the tuple is public)
            forbidden[id(state.stock)] = "the stock tuple"
        if opponent_hand > 256:  # small ints are shared objects; identity means nothing
            forbidden[id(opponent_hand)] = "the opponent's hand int"
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
            if obj == state.seed and state.seed > 52:
                found.append(f"{path} is the deal seed (the deck can be reshuffled from it)")
            if obj == opponent_hand and tells_hidden_apart(opponent_hand, hidden):
                found.append(f"{path} equals the opponent's hand mask")
            name = field_name(path)
            if path.startswith("<"):
                self.class_ints.setdefault(path, set()).add(obj)
                if 52 <= obj <= FULL_DECK and tells_hidden_apart(obj, hidden):
                    found.append(f"class attribute {path} = {obj:#x} marks hidden cards")
            elif obj < 0:
                pass  # no card or card set is negative
            elif name in CARD_FIELDS:
                if hidden >> obj & 1:
                    found.append(f"{path} shows the hidden card {obj}")
            elif name in MASK_FIELDS:
                if tells_hidden_apart(obj, hidden):
                    found.append(f"{path} = {obj:#x} marks hidden cards {obj & hidden:#x}")
                if name == "unseen" and obj != hidden:
                    found.append(f"{path} = {obj:#x} is not the unseen set {hidden:#x}")
            elif name not in COUNTER_FIELDS:
                self.unclassified.add(path)
                if (obj < 52 and hidden >> obj & 1) or (
                    obj >= 52 and tells_hidden_apart(obj, hidden)
                ):
                    found.append(f"unclassified {path} = {obj} may show hidden cards")
        return found

    def changing_class_ints(self) -> dict[str, set[int]]:
        return {path: values for path, values in self.class_ints.items() if len(values) > 1}


class PeekingGame(GermanWhist):
    """German Whist that lets the test see the state ``play_deal`` creates."""

    current: GermanWhistDeal

    def new_deal(self, seed: int, dealer: int = 0) -> GermanWhistDeal:
        self.current = super().new_deal(seed, dealer)
        return self.current


class SpyStrategy:
    """Checks each view it is handed against the state, then plays at random."""

    def __init__(self, game: PeekingGame, audit: Audit, seat: int) -> None:
        self.game = game
        self.audit = audit
        self.seat = seat
        self.inner = RandomStrategy()
        self.received: list[GermanWhistView] = []
        self.problems: list[str] = []

    def choose(self, view: Any, rng: Any) -> int:
        state = self.game.current
        self.received.append(view)
        if type(view) is not GermanWhistView:
            self.problems.append(f"got a {type(view).__name__}, not a GermanWhistView")
        if state.to_act != self.seat or view.seat != self.seat:
            self.problems.append(f"seat {self.seat} asked while seat {state.to_act} acts")
        if view != state.view(self.seat):
            self.problems.append("the view differs from state.view(seat)")
        self.problems += self.audit.leaks(view, state, self.seat)
        other = 1 - self.seat
        other_view = state.view(other)
        if other_view.legal != 0:
            self.problems.append(f"seat {other} not to act has legal {other_view.legal:#x}")
        self.problems += self.audit.leaks(other_view, state, other)
        if view.stage == 2:
            rest = FULL_DECK & ~view.hand & ~view.played
            if rest != state.hands[other]:
                self.problems.append("stage 2: 52 - own - played is not the opponent's hand")
            if rest != view.unseen | view.opponent_known:
                self.problems.append("stage 2: unseen | opponent_known is not the rest")
        return self.inner.choose(view, rng)


# -- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default"
)
@pytest.mark.slow
def test_strategy_sees_no_hidden_card(variant):
    game = PeekingGame(make_game("german_whist", variant).variant)
    audit = Audit()
    spies = [SpyStrategy(game, audit, seat) for seat in (0, 1)]
    stage2_views = 0
    for i in range(DEALS):
        seed = derive_seed(99, "views", i)
        played = play_deal(game, spies, seed, dealer=i % 2, on_error="abort")
        assert played.outcome.forfeit_seat is None
        for spy in spies:
            assert spy.problems == [], spy.problems[:5]
            stage2_views += sum(v.stage == 2 for v in spy.received)
            spy.received.clear()
    assert audit.unclassified == set(), "classify these view ints in this test module"
    assert audit.changing_class_ints() == {}
    assert audit.views_checked > DEALS * 40
    assert audit.ints_checked > audit.views_checked * 20
    if variant.get("race_to") is None:
        assert stage2_views > DEALS * 10


def test_the_walk_reaches_fields_properties_classes_and_variant():
    game = make_game("german_whist")
    state = game.new_deal(5, 0)
    for _ in range(2):  # one whole trick, so taken_faceup is not the shared (0, 0) constant
        state.apply((state.legal & -state.legal).bit_length() - 1)
    view = state.view(1)
    paths = {path for path, _ in reachable(view)}
    for expected in (
        "view.hand", "view.legal", "view.faceup[0]", "view.taken_faceup[1]",
        "view.variant.open_stock", "view.variant.best_of",  # a dataclass property
        "view.played", "view.unseen", "view.opponent_known",  # NamedTuple properties
        "<whist_sim.games.german_whist.GermanWhistView>._fields",
        "<whist_sim.games.german_whist.GermanWhistVariant>.__dataclass_fields__",
    ):
        assert expected in paths, expected


class _Holder:
    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


class _Slotted:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class _ClassCache:
    seen: dict[str, int] = {}  # noqa: RUF012 - a planted leak, mutated on purpose


def _planted(state: GermanWhistDeal, seat: int) -> dict[str, Any]:
    """Ways a careless view could leak, each hidden somewhere the walk must reach."""
    opponent = 1 - seat
    hidden = hidden_from(state, seat)
    hidden_card = (hidden & -hidden).bit_length() - 1
    opponent_hand = state.hands[opponent]
    one_hidden = 1 << hidden_card

    def closure() -> int:
        return opponent_hand

    last_stock_card = state.stock[-1]

    class WithProperty(_Holder):
        @property
        def peek(self) -> int:
            return last_stock_card

    _ClassCache.seen = {"x": opponent_hand | 0}
    return {
        "state in __dict__": _Holder(ok=1, secret=state),
        "stock in __slots__": _Slotted(state.stock),
        "hand int in a closure": (closure,),
        "bound method of the state": state.view,
        "class attribute cache": _ClassCache(),
        "property shows a stock card": WithProperty(),
        "hand field holds opponent hand": state.view(seat)._replace(hand=opponent_hand),
        "faceup field holds a hidden card": state.view(seat)._replace(faceup=(hidden_card,)),
        "dict key is a hidden mask": {one_hidden | 1 << 60: "x"},
        "list holding the hands list": [state.hands],
        "partial over the state": functools.partial(print, state),
    }


@pytest.mark.parametrize(
    "kind",
    [
        "state in __dict__", "stock in __slots__", "hand int in a closure",
        "bound method of the state", "class attribute cache",
        "property shows a stock card", "hand field holds opponent hand",
        "faceup field holds a hidden card", "dict key is a hidden mask",
        "list holding the hands list", "partial over the state",
    ],
)
def test_the_audit_finds_planted_leaks(kind):
    state = make_game("german_whist").new_deal(17, 0)
    for _ in range(6):  # a few tricks in, so every zone is populated
        state.apply((state.legal & -state.legal).bit_length() - 1)
    seat = state.to_act
    leaky = _planted(state, seat)[kind]
    found = Audit().leaks(leaky, state, seat)
    assert found, f"{kind} was not detected"


def test_the_audit_flags_class_attributes_that_change():
    class Counter:
        last = 0

    state = make_game("german_whist").new_deal(4, 0)
    audit = Audit()
    for value in (5, 6):
        Counter.last = value
        audit.leaks(Counter(), state, 1)
    assert list(audit.changing_class_ints().values()) == [{5, 6}]


def test_the_audit_is_quiet_on_honest_views_at_every_step():
    state = make_game("german_whist", {"open_stock": 3}).new_deal(3, 1)
    audit = Audit()
    while not state.over:
        for seat in (0, 1):
            assert audit.leaks(state.view(seat), state, seat) == []
        state.apply((state.legal & -state.legal).bit_length() - 1)
    assert audit.unclassified == set()


def test_view_holds_no_deal_state_attribute():
    state = make_game("german_whist").new_deal(8, 0)
    view = state.view(0)
    assert isinstance(view, GermanWhistView)
    assert not hasattr(view, "__dict__")
    for name in view._fields:
        value = getattr(view, name)
        assert not isinstance(value, DealState), name
        assert value is not state.hands and value is not state.stock, name


def test_view_of_the_seat_not_to_act_has_no_legal_action():
    state = make_game("german_whist", {"open_stock": 2}).new_deal(21, 0)
    phases = set()
    while not state.over:
        phases.add(state.phase)
        other = 1 - state.to_act
        assert state.view(other).legal == 0
        assert state.view(state.to_act).legal == state.legal != 0
        state.apply((state.legal & -state.legal).bit_length() - 1)
    assert phases == {"play", "take"}
    assert state.view(0).legal == state.view(1).legal == 0


def test_stage2_view_determines_the_opponent_hand_exactly():
    game = make_game("german_whist")
    for seed in range(20):
        state = game.new_deal(seed, seed % 2)
        while not state.over:
            if state.stage == 2:
                for seat in (0, 1):
                    view = state.view(seat)
                    known = FULL_DECK & ~view.hand & ~view.played
                    assert known == state.hands[1 - seat]
                    assert view.facedown_left == 0 and view.faceup == ()
            state.apply((state.legal & -state.legal).bit_length() - 1)


def test_winner_view_never_shows_the_card_the_loser_drew():
    game = make_game("german_whist")
    draws = 0
    for seed in range(20):
        state = game.new_deal(seed, 0)
        while not state.over:
            logged = len(state.log)
            state.apply((state.legal & -state.legal).bit_length() - 1)
            for drawer, phase, card, _ in state.log[logged:]:
                if phase != "draw":
                    continue
                draws += 1
                view = state.view(1 - drawer)
                if not state.hands[drawer] >> card & 1:
                    continue
                assert not view.hand >> card & 1
                assert card not in view.faceup and card not in view.trick
                assert not (view.taken_faceup[0] | view.taken_faceup[1]) >> card & 1
                assert view.unseen >> card & 1
                assert view.drawn == state.drawn[1 - drawer]
                assert Audit().leaks(view, state, 1 - drawer) == []
    assert draws == 20 * 13
