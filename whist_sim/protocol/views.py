"""Each game's seat view <-> a JSON object in notation, field for field.

``encode_view(view)`` gives the JSON-safe dict a ``decide`` message carries: every
field of the game's ``...View`` NamedTuple under its own name, in notation.
``decode_view(game, data)`` rebuilds the very same NamedTuple (ints, bitmasks, nested
``TrickRecord``s and the variant dataclass), so a Python strategy behind the protocol
gets exactly the object it would get in process: ``decode_view(g, encode_view(v)) ==
v``, with the same types.

The codec of a game is a table: view field -> ``notation.Field``. A field added to a
view and not to its table is refused by name at the first encode (``check_fields``),
never silently left out of what bots are sent; a field the table names that the view
lacks is refused the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from whist_sim.games.german_whist import GermanWhistVariant, GermanWhistView
from whist_sim.games.knockout_whist import KnockoutWhistVariant, KnockoutWhistView
from whist_sim.games.minnesota_whist import MinnesotaWhistVariant, MinnesotaWhistView
from whist_sim.games.solo_whist import CONTRACTS, SoloWhistVariant, SoloWhistView
from whist_sim.protocol.errors import ProtocolError
from whist_sim.protocol.notation import (
    ACTION,
    ACTIONS,
    CARD,
    CARD_SEQUENCE,
    CARD_SET,
    FLAG,
    FLAGS,
    NUMBER,
    NUMBERS,
    OPTIONAL_CARD,
    OPTIONAL_SEAT,
    SUIT,
    TEXT,
    TEXTS,
    TRICKS,
    Field,
    named,
    notation_of,
    seat_and,
    tuple_of,
    variant_field,
)


@dataclass
class ViewCodec:
    """One game's view table and what the ``deal`` message needs to say about a view."""

    game: str
    view_type: type
    fields: Mapping[str, Field]
    players: Callable[[Any], int]
    """The table size, read from a view (Knock-out Whist's varies)."""
    _checked: bool = field(default=False, repr=False)

    def check_fields(self) -> None:
        """Refuse a view whose fields differ from the table, naming each field."""
        view_fields = set(self.view_type._fields)
        missing = sorted(view_fields - set(self.fields))
        extra = sorted(set(self.fields) - view_fields)
        if missing or extra:
            raise ProtocolError(
                f"{self.view_type.__name__} and its protocol table differ: "
                + "; ".join(
                    part for part in (
                        f"view fields with no encoding: {', '.join(missing)}" if missing else "",
                        f"encoded fields the view lacks: {', '.join(extra)}" if extra else "",
                    ) if part
                ),
                "every view field encoded (whist_sim/protocol/views.py) and docs/protocol.md"
                " updated",
            )
        self._checked = True

    def encode(self, view: Any) -> dict[str, Any]:
        if not self._checked:
            self.check_fields()
        notation = notation_of(self.game)
        return {
            name: encode(value, notation)
            for (name, (encode, _)), value in zip(self.fields.items(), view, strict=True)
        }

    def decode(self, data: Mapping[str, Any]) -> Any:
        if not self._checked:
            self.check_fields()
        notation = notation_of(self.game)
        values = []
        for name, (_, decode) in self.fields.items():
            if name not in data:
                raise ProtocolError(
                    f"the {self.game} view has no field {name!r}",
                    f"every field of {self.view_type.__name__} (docs/protocol.md)",
                )
            values.append(decode(data[name], notation, name))
        return self.view_type._make(values)


_SEAT_CARD = seat_and("card", CARD)
_SEAT_CALL = seat_and("call", ACTION)

GERMAN_WHIST = ViewCodec(
    "german_whist",
    GermanWhistView,
    {
        "seat": NUMBER,
        "phase": TEXT,
        "legal": ACTIONS,
        "hand": CARD_SET,
        "trump": SUIT,
        "upcard": CARD,
        "faceup": CARD_SEQUENCE,
        "facedown_left": NUMBER,
        "stage": NUMBER,
        "dealer": NUMBER,
        "leader": NUMBER,
        "trick": CARD_SEQUENCE,
        "tricks": TRICKS,
        "taken_faceup": tuple_of(CARD_SET),
        "drawn": CARD_SET,
        "stage1_tricks": NUMBERS,
        "stage2_tricks": NUMBERS,
        "variant": variant_field(GermanWhistVariant),
    },
    players=lambda view: 2,
)

SOLO_WHIST = ViewCodec(
    "solo_whist",
    SoloWhistView,
    {
        "seat": NUMBER,
        "phase": TEXT,
        "legal": ACTIONS,
        "hand": CARD_SET,
        "dealer": NUMBER,
        "upcard": OPTIONAL_CARD,
        "upcard_held": FLAG,
        "bids": tuple_of(_SEAT_CALL),
        "passed": FLAGS,
        "contract": named(tuple(contract.name for contract in CONTRACTS)),
        "declarer": OPTIONAL_SEAT,
        "partner": OPTIONAL_SEAT,
        "trump": SUIT,
        "leader": NUMBER,
        "trick": CARD_SEQUENCE,
        "tricks": TRICKS,
        "tricks_won": NUMBERS,
        "exposed": CARD_SET,
        "variant": variant_field(SoloWhistVariant),
    },
    players=lambda view: 4,
)

MINNESOTA_WHIST = ViewCodec(
    "minnesota_whist",
    MinnesotaWhistView,
    {
        "seat": NUMBER,
        "phase": TEXT,
        "legal": ACTIONS,
        "hand": CARD_SET,
        "dealer": NUMBER,
        "laid": OPTIONAL_CARD,
        "laid_count": NUMBER,
        "turned": tuple_of(_SEAT_CARD),
        "calls": tuple_of(_SEAT_CALL),
        "grander": OPTIONAL_SEAT,
        "grand": FLAG,
        "leader": NUMBER,
        "trick": CARD_SEQUENCE,
        "tricks": TRICKS,
        "side_tricks": NUMBERS,
        "score": NUMBERS,
        "variant": variant_field(MinnesotaWhistVariant),
    },
    players=lambda view: 4,
)

KNOCKOUT_WHIST = ViewCodec(
    "knockout_whist",
    KnockoutWhistView,
    {
        "seat": NUMBER,
        "phase": TEXT,
        "legal": ACTIONS,
        "hand": CARD_SET,
        "players": NUMBER,
        "round": NUMBER,
        "cards_dealt": NUMBER,
        "dealer": NUMBER,
        "trump": SUIT,
        "upcard": OPTIONAL_CARD,
        "leader": NUMBER,
        "trick": CARD_SEQUENCE,
        "trick_seats": NUMBERS,
        "tricks": TRICKS,
        "trick_players": tuple_of(NUMBERS),
        "round_tricks": NUMBERS,
        "status": TEXTS,
        "dog_used": FLAGS,
        "variant": variant_field(KnockoutWhistVariant),
    },
    players=lambda view: view.players,
)

CODECS: dict[str, ViewCodec] = {
    codec.game: codec for codec in (GERMAN_WHIST, SOLO_WHIST, MINNESOTA_WHIST, KNOCKOUT_WHIST)
}
"""Game name -> its view codec; every game of ``whist_sim.games.GAMES`` has one."""

_BY_VIEW_TYPE = {codec.view_type: codec for codec in CODECS.values()}


def codec_for_view(view: Any) -> ViewCodec:
    """The codec of the game ``view`` belongs to, or ProtocolError naming its type."""
    codec = _BY_VIEW_TYPE.get(type(view))
    if codec is None:
        raise ProtocolError(
            f"a {type(view).__name__} is not a view the protocol knows",
            f"one of {', '.join(t.__name__ for t in _BY_VIEW_TYPE)}",
        )
    return codec


def codec_for_game(game: str) -> ViewCodec:
    """The codec of ``game``, or ProtocolError naming the games there are."""
    codec = CODECS.get(game)
    if codec is None:
        raise ProtocolError(f"game {game!r} is unknown", f"one of {', '.join(CODECS)}")
    return codec


def game_of(view: Any) -> str:
    """The name of the game ``view`` belongs to."""
    return codec_for_view(view).game


def encode_view(view: Any) -> dict[str, Any]:
    """Every field of ``view`` in notation: a dict ``json.dumps`` takes as it is."""
    return codec_for_view(view).encode(view)


def decode_view(game: str, data: Mapping[str, Any]) -> Any:
    """The ``game``'s view that ``data`` encodes (other keys, such as a message's ``type``,
    are ignored); ProtocolError naming the first field that is missing or malformed."""
    return codec_for_game(game).decode(data)
