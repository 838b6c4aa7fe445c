"""A view crosses the protocol unchanged: decode(encode(view)) is the very same view.

Every decision of seeded random deals, in every game under several variants, is
encoded, sent through ``json.dumps``/``json.loads`` and decoded: the result must equal
the view and have the same types all the way down (a list where a tuple was, or 1
where True was, would make a strategy behind the protocol see something else).
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies.random_play import RandomStrategy
from whist_sim.games import make_game
from whist_sim.games.base import TrickRecord
from whist_sim.play import play_deal
from whist_sim.protocol import ProtocolError, decode_view, encode_view
from whist_sim.protocol.notation import CARD_SET, TRICKS, notation_of
from whist_sim.protocol.views import CODECS, ViewCodec, codec_for_view

CASES = [
    ("german_whist", {}, None),
    ("german_whist", {"trumps": "none", "count": "all"}, None),
    ("german_whist", {"open_stock": 3, "count": "weighted"}, None),
    ("german_whist", {"open_stock": 26, "match": "best_of_3"}, None),
    ("german_whist", {"race_to": 7}, None),
    ("solo_whist", {}, None),
    ("solo_whist", {"upcard": False}, None),
    ("solo_whist", {"prop_and_cop": False, "payments": "classic"}, None),
    ("solo_whist", {"overtricks": True, "stake": 0.5}, None),
    ("solo_whist", {"session_hands": 3, "target": 5.0}, None),
    ("minnesota_whist", {}, None),
    ("minnesota_whist", {"bid": "spoken"}, None),
    ("minnesota_whist", {"scoring": "pagat", "target": 7}, None),
    ("knockout_whist", {}, 2),
    ("knockout_whist", {"dogs_life": "first_round"}, 4),
    ("knockout_whist", {"dogs_life": "first_knockout", "tie_break": "nearest_left"}, 7),
]
CONTEXTS = {"minnesota_whist": {"score": (5, 11)}}


def same_types(a: Any, b: Any, path: str = "view") -> list[str]:
    """Where ``a`` and ``b`` differ in type, all the way down."""
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} vs {type(b).__name__}"]
    if isinstance(a, tuple):
        names = getattr(a, "_fields", range(len(a)))
        return [p for i, name in enumerate(names) for p in same_types(a[i], b[i], f"{path}.{name}")]
    if dataclasses.is_dataclass(a):
        return [p for f in dataclasses.fields(a)
                for p in same_types(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")]
    return []


class RoundTrips(RandomStrategy):
    """Random play that sends each view it is given through the protocol's codec first."""

    def __init__(self) -> None:
        self.checked = 0

    def choose(self, view: Any, rng: Any) -> int:
        game = codec_for_view(view).game
        wire = json.loads(json.dumps(encode_view(view), allow_nan=False))
        back = decode_view(game, wire)
        assert back == view, f"{game}: {back} != {view}"
        assert not same_types(back, view), same_types(back, view)
        self.checked += 1
        return super().choose(view, rng)


def play_round_trips(name: str, variant: dict, players: int | None, seed: int) -> int:
    game = make_game(name, variant, players)
    checker = RoundTrips()
    played = play_deal(game, [checker] * game.players, seed, seed % game.players,
                       on_error="abort", context=CONTEXTS.get(name))
    assert played.outcome.forfeit_seat is None
    return checker.checked


@pytest.mark.parametrize(("name", "variant", "players"), CASES)
def test_every_decision_of_random_deals_round_trips(name, variant, players):
    checked = sum(play_round_trips(name, variant, players, seed) for seed in range(12))
    assert checked > 12


@pytest.mark.parametrize("name", sorted(CODECS))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1))
def test_views_round_trip_for_any_seed(name, seed):
    players = 3 if name == "knockout_whist" else None
    assert play_round_trips(name, {}, players, seed) > 0


@pytest.mark.parametrize("name", sorted(CODECS))
def test_every_view_field_has_an_encoding(name):
    codec = CODECS[name]
    assert list(codec.fields) == list(codec.view_type._fields)
    codec.check_fields()


def test_a_view_field_without_an_encoding_is_refused_by_name():
    class GrownView(NamedTuple):
        seat: int
        secret_new_field: int

    codec = ViewCodec("german_whist", GrownView, {"seat": CODECS["german_whist"].fields["seat"]},
                      players=lambda view: 2)
    with pytest.raises(ProtocolError, match="secret_new_field"):
        codec.encode(GrownView(0, 1))


def first_view(name: str) -> Any:
    game = make_game(name)
    state = game.new_deal(3, 0)
    return state.view(state.to_act)


def test_decoding_names_a_missing_field():
    wire = encode_view(first_view("solo_whist"))
    del wire["upcard_held"]
    with pytest.raises(ProtocolError, match="no field 'upcard_held'"):
        decode_view("solo_whist", wire)


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("hand", ["AS", "XX"], "hand[1]"),
        ("hand", ["AS", "AS"], "twice"),
        ("legal", ["AS", "bid:7"], "legal[1]"),
        ("trump", "spades", "trump"),
        ("stage", "1", "stage"),
        ("tricks", [{"number": 1, "leader": 0, "cards": ["AS", 5], "winner": 0}],
         "tricks[0].cards[1]"),
        ("variant", {"count": "most"}, "variant.count"),
    ],
)
def test_decoding_names_the_malformed_field(field, value, named):
    wire = encode_view(first_view("german_whist"))
    wire[field] = value
    with pytest.raises(ProtocolError, match=re.escape(named)):
        decode_view("german_whist", wire)


def test_cards_travel_in_notation_and_sets_as_lists():
    notation = notation_of("german_whist")
    assert CARD_SET.encode(0b101, notation) == ["4S", "2S"]
    record = TrickRecord(1, 0, (12, 11), 0)
    assert TRICKS.encode((record,), notation) == [
        {"number": 1, "leader": 0, "cards": ["AS", "KS"], "winner": 0}
    ]


def test_actions_other_than_cards_travel_in_the_games_notation():
    view = first_view("solo_whist")
    assert encode_view(view)["legal"][0] == "pass"
    assert "abundance_declared" in encode_view(view)["legal"]


def test_notation_is_exact_so_one_action_has_one_spelling():
    notation = notation_of("solo_whist")
    assert notation.action_number("trump:H", "a") == 62
    for wrong in ("qs", "TRUMP:H", "Pass", " QS"):
        with pytest.raises(ProtocolError):
            notation.action_number(wrong, "a")


# -- the fast decoders agree with the strict ones -------------------------------------------

_NAMES = ["AS", "KS", "2C", "TD", "QH", "XX", "qs", "", "AS "]
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 60) | st.floats(allow_nan=False)
    | st.sampled_from(_NAMES),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(["number", "leader", "cards", "winner", "x"]), inner,
                      max_size=5),
    max_leaves=12,
)
_TRICK = st.fixed_dictionaries(
    {"number": st.integers(0, 13) | st.booleans() | st.floats(0, 2),
     "leader": st.integers(0, 3), "cards": st.lists(st.sampled_from(_NAMES), max_size=4),
     "winner": st.integers(0, 3) | st.none()},
    optional={"x": st.integers()})


def _outcome(decode, value: Any) -> tuple[str, Any]:
    try:
        return ("decoded", decode(value, notation_of("german_whist"), "here"))
    except ProtocolError as error:
        return ("refused", str(error))


@pytest.mark.parametrize("field", ["CARD_SET", "CARD_SEQUENCE", "TRICKS"])
@settings(max_examples=300, deadline=None)
@given(value=_JSON | st.lists(st.sampled_from(_NAMES), max_size=6)
       | st.lists(_TRICK, max_size=3))
def test_a_fast_decoder_takes_refuses_and_names_exactly_what_the_strict_one_does(field, value):
    """The hot fields of a view (a hand, a trick's cards, the tricks so far) decode
    without building a place name for each card; the strict decoder they fall back on
    names a fault. Both must take the same values, decode them alike (types too), and
    refuse the rest with the same words."""
    from whist_sim.protocol import notation

    decode = getattr(notation, field).decode
    fast, strict = _outcome(decode, value), _outcome(decode.strict, value)
    assert fast == strict
    assert not same_types(fast[1], strict[1])


def test_a_variant_is_decoded_once_per_spelling_and_a_bad_one_still_named():
    """Every view of a run carries the same variant, built once; ``true`` is not ``1.0``
    though the two are alike as dictionary keys."""
    from whist_sim.games.solo_whist import SoloWhistVariant
    from whist_sim.protocol.notation import variant_field

    decode = variant_field(SoloWhistVariant).decode
    notation = notation_of("solo_whist")
    first = decode({"stake": 1.0}, notation, "variant")
    assert decode({"stake": 1.0}, notation, "variant") is first
    assert decode({"stake": 1}, notation, "variant") == first
    with pytest.raises(ProtocolError, match=r"variant\.stake = true is not allowed"):
        decode({"stake": True}, notation, "variant")
    with pytest.raises(ProtocolError, match=r"^view\.variant: "):
        decode({"stake": "x"}, notation, "view.variant")
