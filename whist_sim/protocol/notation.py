"""Codecs for one view field each: an engine value (ints, bitmasks, tuples) <-> JSON in notation.

A view holds cards as ints 0..51 and sets of cards as int bitmasks; on the wire a card
is its two-character notation ("QS"), a set of cards a list of them (in display order,
suits S H D C, high cards first: how a person reads a hand; a bot must not rely on the
order of a set), "none" (-1: no card, no trump, no seat) is ``null``, a trump suit is
"S".."D".."C". Actions other than cards are the game's own notation ("pass",
"trump:H"), so the codecs of actions take the game's ``Notation``.

Each ``Field`` decodes strictly: a JSON value of the wrong kind raises ProtocolError
naming the field and the kind expected, so a broken engine (or a hand-written
transcript) is caught at the field, not later inside a strategy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from whist_sim.cards import (
    NUM_CARDS,
    RANKS,
    SUITS,
    CardError,
    card_str,
    display_order,
)
from whist_sim.games import GAMES
from whist_sim.games.base import TrickRecord
from whist_sim.protocol.errors import ProtocolError

_CARD_NAMES = tuple(card_str(card) for card in range(NUM_CARDS))
_CARD_NUMBERS = {name: card for card, name in enumerate(_CARD_NAMES)}
_SUIT_BITS = (1 << 13) - 1


@dataclass(frozen=True)
class Notation:
    """A game's action names both ways (``Game.action_str`` and ``Game.parse_action``)."""

    game: str
    action_str: Callable[[int], str]
    parse_action: Callable[[str], int]

    def action_name(self, action: int) -> str:
        """Cards through a table (the hot path), other actions through the game."""
        return _CARD_NAMES[action] if 0 <= action < NUM_CARDS else self.action_str(action)

    def action_number(self, text: str, where: str) -> int:
        """The action ``text`` names exactly as the engine writes it, or ProtocolError.

        Exact spelling only ("QS", "trump:H"): the engine writes one spelling, and a
        decoder that also took "qs" would let two transcripts that differ decode alike.
        """
        if not isinstance(text, str):
            raise ProtocolError(f"{where} is {text!r}", "an action in notation (a string)")
        card = _CARD_NUMBERS.get(text)
        if card is not None:
            return card
        try:
            action = self.parse_action(text)
        except (CardError, ValueError):
            action = -1
        if action < NUM_CARDS or self.action_str(action) != text:
            raise ProtocolError(
                f"{where} is {text!r}, which is not a {self.game} action",
                "a card such as 'QS' or one of the game's other actions such as 'pass'",
            )
        return action


@cache
def notation_of(game: str) -> Notation:
    """The action notation of ``game`` (a ``whist_sim.games.GAMES`` key)."""
    try:
        rules = GAMES[game]()
    except KeyError:
        raise ProtocolError(f"game {game!r} is unknown", f"one of {', '.join(GAMES)}") from None
    return Notation(game, rules.action_str, rules.parse_action)


class Field(NamedTuple):
    """How one view field travels: ``encode(value, notation)``, ``decode(json, notation,
    where)``."""

    encode: Callable[[Any, Notation], Any]
    decode: Callable[[Any, Notation, str], Any]


# -- checks shared by the decoders -----------------------------------------------------


def _whole(value: Any, where: str) -> int:
    if value.__class__ is not int:
        raise ProtocolError(f"{where} is {value!r}", "a whole number")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if value.__class__ is not list:
        raise ProtocolError(f"{where} is {value!r}", "a list")
    return value


def _object(value: Any, where: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if value.__class__ is not dict or any(key not in value for key in keys):
        raise ProtocolError(f"{where} is {value!r}", f"an object with {', '.join(keys)}")
    return value


def _card(value: Any, where: str) -> int:
    card = _CARD_NUMBERS.get(value) if isinstance(value, str) else None
    if card is None:
        raise ProtocolError(
            f"{where} is {value!r}",
            f"a card in notation: rank ({' '.join(RANKS)}) then suit ({' '.join(SUITS)}),"
            " e.g. 'QS'",
        )
    return card


# -- the field kinds ---------------------------------------------------------------------


def _decode_text(value: Any, notation: Notation, where: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{where} is {value!r}", "a string")
    return value


def _decode_flag(value: Any, notation: Notation, where: str) -> bool:
    if value.__class__ is not bool:
        raise ProtocolError(f"{where} is {value!r}", "true or false")
    return value


TEXT = Field(lambda value, notation: value, _decode_text)
"""A string as it is (``phase``, a Knock-out ``status`` entry)."""

FLAG = Field(lambda value, notation: value, _decode_flag)
"""A bool as JSON true/false."""

NUMBER = Field(lambda value, notation: value, lambda value, notation, where: _whole(value, where))
"""A whole number as it is: seats, counts, trick numbers."""

OPTIONAL_SEAT = Field(
    lambda value, notation: None if value < 0 else value,
    lambda value, notation, where: -1 if value is None else _whole(value, where),
)
"""A seat, or -1 (no such seat yet: no declarer, no grander) as null."""

CARD = Field(
    lambda value, notation: _CARD_NAMES[value],
    lambda value, notation, where: _card(value, where),
)
"""A card that is always there (German Whist's upcard)."""

OPTIONAL_CARD = Field(
    lambda value, notation: None if value < 0 else _CARD_NAMES[value],
    lambda value, notation, where: -1 if value is None else _card(value, where),
)
"""A card, or -1 (none: no upcard, nothing laid yet) as null."""


def _decode_suit(value: Any, notation: Notation, where: str) -> int:
    if value is None:
        return -1
    if not isinstance(value, str) or len(value) != 1 or value not in SUITS:
        raise ProtocolError(f"{where} is {value!r}", f"a suit ({', '.join(SUITS)}) or null")
    return SUITS.index(value)


SUIT = Field(lambda value, notation: None if value < 0 else SUITS[value], _decode_suit)
"""A trump suit 0..3 as "S" "H" "D" "C", or -1 (no trump, or not chosen yet) as null."""


@cache
def _suit_names(suit: int, bits: int) -> tuple[str, ...]:
    """The cards of ``suit`` whose ranks ``bits`` holds (13 bits, the ace highest), high
    first, in notation: a hand's suits repeat from view to view, so each is spelled once."""
    return tuple(_CARD_NAMES[card] for card in display_order(bits << (13 * suit)))


def _names_in_display_order(mask: int) -> list[str]:
    """The cards of ``mask`` as ``display_order`` lists them, in notation."""
    names: list[str] = []
    for suit in range(4):
        bits = (mask >> (13 * suit)) & _SUIT_BITS
        if bits:
            names += _suit_names(suit, bits)
    return names


def _encode_card_set(mask: int, notation: Notation) -> list[str]:
    return _names_in_display_order(mask)


_REFUSED = object()
"""What a fast decoder returns for a value it does not take as it is: the strict one
then decodes it again, and names the fault."""


def fast_then_strict(fast: Callable[[Any], Any],
                     strict: Callable[[Any, Notation, str], Any]
                     ) -> Callable[[Any, Notation, str], Any]:
    """A decoder that tries ``fast`` (no place names built: one string for each card of
    each trick cost more than the rest of a view) and, where it refuses the value, runs
    ``strict``, which raises the ProtocolError naming the place. The two take exactly the
    same values and decode them alike (tests/test_protocol_views.py)."""

    def decode(value: Any, notation: Notation, where: str) -> Any:
        decoded = fast(value)
        return strict(value, notation, where) if decoded is _REFUSED else decoded

    decode.strict = strict  # type: ignore[attr-defined]  # for the tests that compare them
    return decode


def _fast_cards(value: Any) -> Any:
    if value.__class__ is not list:
        return _REFUSED
    try:
        return tuple([_CARD_NUMBERS[item] for item in value])
    except (KeyError, TypeError):  # not a card's name; unhashable
        return _REFUSED


def _fast_card_set(value: Any) -> Any:
    cards = _fast_cards(value)
    if cards is _REFUSED:
        return _REFUSED
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask if mask.bit_count() == len(cards) else _REFUSED


def _decode_card_set(value: Any, notation: Notation, where: str) -> int:
    mask = 0
    for i, item in enumerate(_list(value, where)):
        card = _card(item, f"{where}[{i}]")
        if mask >> card & 1:
            raise ProtocolError(f"{where} lists {item} twice", "a set: each card once")
        mask |= 1 << card
    return mask


CARD_SET = Field(_encode_card_set, fast_then_strict(_fast_card_set, _decode_card_set))
"""A bitmask of cards as a list of cards (a set: order means nothing)."""

CARD_SEQUENCE = Field(
    lambda cards, notation: [_CARD_NAMES[card] for card in cards],
    fast_then_strict(_fast_cards, lambda value, notation, where: tuple(
        _card(item, f"{where}[{i}]") for i, item in enumerate(_list(value, where))
    )),
)
"""A tuple of cards in order (a trick, the face-up stock) as a list."""


def _encode_actions(mask: int, notation: Notation) -> list[str]:
    names = _names_in_display_order(mask & ((1 << NUM_CARDS) - 1))
    others = mask >> NUM_CARDS
    action = NUM_CARDS
    while others:
        if others & 1:
            names.append(notation.action_str(action))
        others >>= 1
        action += 1
    return names


def _decode_actions(value: Any, notation: Notation, where: str) -> int:
    mask = 0
    for i, item in enumerate(_list(value, where)):
        action = notation.action_number(item, f"{where}[{i}]")
        if mask >> action & 1:
            raise ProtocolError(f"{where} lists {item} twice", "a set: each action once")
        mask |= 1 << action
    return mask


ACTIONS = Field(_encode_actions, _decode_actions)
"""A bitmask of actions (``legal``) as a list in the game's notation: cards in display
order, then the other actions in number order."""


def tuple_of(item: Field) -> Field:
    """A tuple whose items all travel as ``item`` does, as a JSON list."""
    encode_item, decode_item = item

    def encode(values: tuple[Any, ...], notation: Notation) -> list[Any]:
        return [encode_item(value, notation) for value in values]

    def decode(value: Any, notation: Notation, where: str) -> tuple[Any, ...]:
        return tuple(
            decode_item(entry, notation, f"{where}[{i}]")
            for i, entry in enumerate(_list(value, where))
        )

    return Field(encode, decode)


NUMBERS = tuple_of(NUMBER)
"""Per-seat (or per-side) counts, a trick's seats."""

FLAGS = tuple_of(FLAG)
TEXTS = tuple_of(TEXT)


def _encode_trick(record: TrickRecord, notation: Notation) -> dict[str, Any]:
    return {
        "number": record.number,
        "leader": record.leader,
        "cards": [_CARD_NAMES[card] for card in record.cards],
        "winner": record.winner,
    }


def _decode_trick(value: Any, notation: Notation, where: str) -> TrickRecord:
    data = _object(value, where, TrickRecord._fields)
    return TrickRecord(
        _whole(data["number"], f"{where}.number"),
        _whole(data["leader"], f"{where}.leader"),
        CARD_SEQUENCE.decode(data["cards"], notation, f"{where}.cards"),
        _whole(data["winner"], f"{where}.winner"),
    )


def _fast_tricks(value: Any) -> Any:
    if value.__class__ is not list:
        return _REFUSED
    tricks = []
    for trick in value:
        if trick.__class__ is not dict:
            return _REFUSED
        number, leader = trick.get("number"), trick.get("leader")
        cards, winner = trick.get("cards"), trick.get("winner")
        if not (number.__class__ is leader.__class__ is winner.__class__ is int):
            return _REFUSED
        played = _fast_cards(cards)
        if played is _REFUSED:
            return _REFUSED
        tricks.append(TrickRecord(number, leader, played, winner))
    return tuple(tricks)


_EACH_TRICK = tuple_of(Field(_encode_trick, _decode_trick))
TRICKS = Field(_EACH_TRICK.encode, fast_then_strict(_fast_tricks, _EACH_TRICK.decode))
"""Completed tricks as objects ``{"number", "leader", "cards", "winner"}``."""


def seat_and(key: str, item: Field) -> Field:
    """A (seat, value) pair, e.g. a call in an auction, as ``{"seat": s, key: value}``."""
    encode_item, decode_item = item

    def encode(pair: tuple[int, Any], notation: Notation) -> dict[str, Any]:
        return {"seat": pair[0], key: encode_item(pair[1], notation)}

    def decode(value: Any, notation: Notation, where: str) -> tuple[int, Any]:
        data = _object(value, where, ("seat", key))
        return (
            _whole(data["seat"], f"{where}.seat"),
            decode_item(data[key], notation, f"{where}.{key}"),
        )

    return Field(encode, decode)


ACTION = Field(
    lambda action, notation: notation.action_name(action),
    lambda value, notation, where: notation.action_number(value, where),
)
"""One action (a call: "pass", "prop", "grand") in the game's notation."""


def named(names: tuple[str, ...]) -> Field:
    """An index into ``names`` (Solo Whist's contract), or -1, as the name or null."""

    def decode(value: Any, notation: Notation, where: str) -> int:
        if value is None:
            return -1
        if value not in names:
            raise ProtocolError(f"{where} is {value!r}", f"null or one of {', '.join(names)}")
        return names.index(value)

    return Field(lambda index, notation: None if index < 0 else names[index], decode)


def variant_field(variant_type: type) -> Field:
    """The game's variant dataclass as a JSON object of its variant keys (docs/rules/)."""

    def strict(value: Any, notation: Notation, where: str) -> Any:
        if value.__class__ is not dict:
            raise ProtocolError(f"{where} is {value!r}", "an object of variant keys")
        try:
            return variant_type.from_mapping(value, where)
        except (TypeError, ValueError) as exc:
            raise ProtocolError(f"{where}: {exc}", "the variant keys of the game") from None

    @lru_cache(maxsize=64)
    def known(spelling: tuple[tuple[str, type, Any], ...], notation: Notation) -> Any:
        return strict({key: value for key, _, value in spelling}, notation, "variant")

    def decode(value: Any, notation: Notation, where: str) -> Any:
        """Every view of a run carries the same variant: built and checked once for each
        spelling (``strict`` names the fault, at ``where``, where one is wrong)."""
        if value.__class__ is dict and all(item.__class__ in _PLAIN for item in value.values()):
            try:
                return known(tuple((key, item.__class__, item) for key, item in value.items()),
                             notation)
            except ProtocolError:
                pass
        return strict(value, notation, where)

    return Field(lambda variant, notation: dict(_variant_dict(variant)), decode)


_PLAIN = (str, int, float, bool, type(None))
"""The kinds of a variant's values a spelling may be cached by (hashable; ``1``, ``1.0``
and ``True`` are alike as keys, so a value's class is part of the key too)."""


@cache
def _variant_dict(variant: Any) -> dict[str, Any]:
    """A variant's keys as the wire carries them: the same for every view of a run."""
    return variant.as_dict()
