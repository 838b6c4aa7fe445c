"""An observation tensor's layout: named segments, their offsets, bounds, decoding and docs.

Every game's observation is one flat ``float32`` vector cut into named segments, binary
segments first (card planes, one-hots, flags), then real-valued ones (trick numbers,
counts). Keeping the binary part contiguous is what makes encoding fast: an encoder
ORs every binary segment into one Python int at its offset (the card-set bitmasks the
views already hold go in whole, with one shift) and unpacks that int once with NumPy,
rather than writing 52 floats per plane. The legal-action mask rides in the same int,
after the binary segments, so one unpack gives both.

The layout is data, so the same table drives the encoder's offsets, the Box bounds of
the observation space, ``decode`` (tensor -> named fields, for tests, debugging and the
seat-view audit) and the field-by-field tables of docs/environment.md.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from whist_sim.cards import NUM_CARDS

BINARY_KINDS = ("cards", "seat_cards", "onehot", "flags")
REAL_KINDS = ("card_values", "numbers", "squashed")


@dataclass(frozen=True)
class Segment:
    """One named stretch of the observation vector."""

    name: str
    kind: str
    """"cards": a 52-card plane (1 = the card is in the set); "seat_cards": one plane per
    seat, this seat first then to its left; "onehot": one entry set (or none);
    "flags": independent 0/1 entries; "card_values": a real value per card (0 = none);
    "numbers": reals, value / scale; "squashed": a signed count v as v / (|v| + scale)."""
    width: int
    doc: str
    labels: tuple[str, ...] = ()
    """What each entry means (one-hots and flags), for the docs and ``decode``."""
    scale: float = 1.0
    """Real-valued kinds: the divisor that brings the value into [0, 1] (or (-1, 1))."""

    @property
    def binary(self) -> bool:
        return self.kind in BINARY_KINDS

    @property
    def bounds(self) -> tuple[float, float]:
        return (-1.0, 1.0) if self.kind == "squashed" else (0.0, 1.0)


def cards(name: str, doc: str) -> Segment:
    return Segment(name, "cards", NUM_CARDS, doc)


def seat_cards(name: str, seats: Sequence[str], doc: str) -> Segment:
    return Segment(name, "seat_cards", NUM_CARDS * len(seats), doc, tuple(seats))


def onehot(name: str, labels: Sequence[str], doc: str) -> Segment:
    return Segment(name, "onehot", len(labels), doc, tuple(labels))


def flags(name: str, labels: Sequence[str], doc: str) -> Segment:
    return Segment(name, "flags", len(labels), doc, tuple(labels))


def card_values(name: str, scale: float, doc: str) -> Segment:
    return Segment(name, "card_values", NUM_CARDS, doc, scale=scale)


def numbers(name: str, labels: Sequence[str], scale: float, doc: str) -> Segment:
    return Segment(name, "numbers", len(labels), doc, tuple(labels), scale)


def squashed(name: str, labels: Sequence[str], scale: float, doc: str) -> Segment:
    return Segment(name, "squashed", len(labels), doc, tuple(labels), scale)


def relative_seats(players: int) -> tuple[str, ...]:
    """Seat labels relative to the observer: itself, then around the table to its left."""
    if players == 2:
        return ("self", "opponent")
    if players == 4:
        return ("self", "left", "across", "right")
    return ("self", *(f"left_{k}" for k in range(1, players)))


_DECODED: dict[str, Any] = {}
"""Each game's decoded-observation type, by its name (``GermanWhistObservation``), made
once and named as an attribute of this module, so decoded fields pickle (multiprocessing,
a replay buffer saved to disk)."""


def _decoded_type(game: str, names: tuple[str, ...]) -> Any:
    type_name = "".join(part.title() for part in game.split("_")) + "Observation"
    made = _DECODED.get(type_name)
    if made is None or made._fields != names:
        made = _DECODED[type_name] = namedtuple(type_name, names, module=__name__)
    return made


def __getattr__(name: str) -> Any:
    """A decoded-observation type pickle asks for before this process built its layout:
    every game's layout is built, at each table size (their fields are the same under
    every variant)."""
    if name.endswith("Observation") and name not in _DECODED:
        from whist_sim.env.encoders import layout_for
        from whist_sim.games import GAMES, make_game

        for game, kind in GAMES.items():
            for players in range(kind.min_players, kind.max_players + 1):
                layout_for(make_game(game, None, players))
    try:
        return _DECODED[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


@dataclass
class Layout:
    """One game's observation: its segments in order, binary ones first."""

    game: str
    segments: tuple[Segment, ...]
    actions: int
    """Size of the game's action space (the mask's length)."""
    offsets: dict[str, int] = field(init=False)
    size: int = field(init=False)
    binary_size: int = field(init=False)
    _decoded_type: Any = field(init=False, repr=False)

    def __post_init__(self) -> None:
        kinds = [s.binary for s in self.segments]
        if kinds != sorted(kinds, reverse=True):
            raise ValueError(f"{self.game} layout: binary segments must come first")
        names = [s.name for s in self.segments]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.game} layout: a segment name is used twice")
        self.offsets = {}
        offset = 0
        for segment in self.segments:
            self.offsets[segment.name] = offset
            offset += segment.width
        self.size = offset
        self.binary_size = sum(s.width for s in self.segments if s.binary)
        self._decoded_type = _decoded_type(self.game, tuple(names))

    def segment(self, name: str) -> Segment:
        for segment in self.segments:
            if segment.name == name:
                return segment
        raise KeyError(f"{self.game} observation has no segment {name!r};"
                       f" segments: {', '.join(s.name for s in self.segments)}")

    def slice(self, name: str) -> slice:
        segment = self.segment(name)  # an unknown name: the error lists the segments
        start = self.offsets[name]
        return slice(start, start + segment.width)

    @property
    def packed_bits(self) -> int:
        """Bits an encoder unpacks: the binary segments, then the action mask."""
        return self.binary_size + self.actions

    @property
    def packed_bytes(self) -> int:
        return (self.packed_bits + 7) // 8

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The observation Box's ``low`` and ``high``, entry by entry."""
        low = np.zeros(self.size, np.float32)
        high = np.ones(self.size, np.float32)
        for segment in self.segments:
            low[self.slice(segment.name)], high[self.slice(segment.name)] = segment.bounds
        return low, high

    def decode(self, tensor: np.ndarray) -> Any:
        """The named fields a tensor holds: card planes as bitmask ints, one-hots as the
        index set (-1 for none), flags as 0/1 ints, card values as ``(card, value)``
        pairs, numbers back in their own units (tricks, not fractions)."""
        values = np.asarray(tensor, dtype=np.float64)
        if values.shape != (self.size,):
            raise ValueError(
                f"a {self.game} observation has shape ({self.size},), not {values.shape}"
            )
        return self._decoded_type._make(
            _decode_segment(s, values[self.slice(s.name)]) for s in self.segments
        )

    def markdown(self) -> str:
        """The layout as a Markdown table, as docs/environment.md shows it."""
        rows = ["| offset | size | field | kind | meaning |", "|---:|---:|---|---|---|"]
        for segment in self.segments:
            meaning = segment.doc
            if segment.labels and segment.kind != "seat_cards":
                labels = segment.labels
                shown = labels if len(labels) <= 16 else (*labels[:4], "...", labels[-1])
                meaning += f" [{', '.join(shown)}]"
            elif segment.kind == "seat_cards":
                meaning += f" (planes: {', '.join(segment.labels)})"
            if segment.kind in REAL_KINDS:
                meaning += f"; scale {_number(segment.scale)}"
            rows.append(
                f"| {self.offsets[segment.name]} | {segment.width} | `{segment.name}` |"
                f" {segment.kind} | {meaning} |"
            )
        rows.append(
            f"| | **{self.size}** | | | total; the action mask has {self.actions} entries |"
        )
        return "\n".join(rows)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _mask_of(bits: np.ndarray) -> int:
    mask = 0
    for card in np.flatnonzero(bits > 0.5):
        mask |= 1 << int(card)
    return mask


def _decode_segment(segment: Segment, values: np.ndarray) -> Any:
    kind = segment.kind
    if kind == "cards":
        return _mask_of(values)
    if kind == "seat_cards":
        return tuple(_mask_of(values[i * NUM_CARDS:(i + 1) * NUM_CARDS])
                     for i in range(len(segment.labels)))
    if kind == "onehot":
        on = np.flatnonzero(values > 0.5)
        return int(on[0]) if len(on) else -1
    if kind == "flags":
        return tuple(int(v > 0.5) for v in values)
    if kind == "card_values":
        return tuple((int(card), round(float(values[card] * segment.scale), 4))
                     for card in np.flatnonzero(values))
    if kind == "numbers":
        return tuple(round(float(v * segment.scale), 4) for v in values)
    # squashed: x = v / (|v| + s)  =>  v = s * x / (1 - |x|), a whole count: float32 keeps
    # about 7 digits of x, so a score of -200 at scale 1 came back as -199.999
    return tuple(round(float(segment.scale * x / (1.0 - abs(x)))) for x in values)


def squash(value: float, scale: float) -> float:
    """A signed count mapped into (-1, 1), monotonic, so unbounded scores stay in a Box."""
    return value / (abs(value) + scale)
