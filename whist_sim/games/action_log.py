"""A deal's action log kept as ints: one code per entry, read as entries only when asked.

Every engine logs each action as the entry ``(seat, phase, action, chosen)``
(``base.LoggedAction``'s fields). Appending an int the engine looks up in a table
(``log_codes``) costs the hot path what appending a shared tuple did, and a worker's
recorder turns a whole task's codes into columns with a few NumPy operations
(``log_fields``): it had found each shared tuple by its ``id`` among all of them, about 40
ns an entry, 109 entries a German Whist hand, against some 14 ns to read an int.

A code packs the entry's fields into bits: ``action`` (7 bits, below ``LOG_ACTIONS``),
``seat`` (3 bits, below ``LOG_SEATS``), then the phase's place in ``LOG_PHASES`` times two,
plus one when the rules made the move rather than a player (``chosen`` false). The phases'
order is fixed here, so a code means the same entry in every process (a state pickled to
another process reads the same log).

``CodedLog`` gives a state ``codes`` (the ints, which the engines append to) and ``log``
(the entries, decoded into the one tuple this module keeps per code, so a decoded log
allocates a list, not a tuple per entry).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import numpy as np

LOG_SEATS = 8
"""Seats a code can name (the games have at most 7)."""
LOG_ACTIONS = 128
"""Actions a code can name (the games number theirs below 70)."""
_SEAT_BITS, _ACTION_BITS = 3, 7
_BLOCK = LOG_SEATS * LOG_ACTIONS
"""Codes per (phase, chosen): one block of seats and actions."""

LOG_PHASES: list[str] = ["play", "take", "draw", "bid", "trump", "lay", "turn", "knock"]
"""The phases, in the order that numbers them in a code (the four games' phases; one no
game here has is added at the end the first time it is logged)."""

Entry = tuple[int, str, int, bool]

_ENTRIES: list[Entry | None] = []
"""code -> its entry tuple, one shared tuple per code, filled a block at a time."""
_CODE_OF: dict[Entry, int] = {}
"""entry -> its code, for logs given as entries (``encode_log``)."""


def _block(phase: str, chosen: bool) -> int:
    """The block of (phase, chosen), its entries made on first use."""
    if phase not in LOG_PHASES:
        LOG_PHASES.append(sys.intern(phase))
    block = 2 * LOG_PHASES.index(phase) + (not chosen)
    start = block * _BLOCK
    if len(_ENTRIES) < start + _BLOCK:
        _ENTRIES.extend([None] * (start + _BLOCK - len(_ENTRIES)))
    if _ENTRIES[start] is None:
        name = sys.intern(LOG_PHASES[block >> 1])
        for seat in range(LOG_SEATS):
            for action in range(LOG_ACTIONS):
                entry = (seat, name, action, bool(chosen))
                code = start + seat * LOG_ACTIONS + action
                _ENTRIES[code] = entry
                _CODE_OF[entry] = code
    return block


def log_codes(phase: str, chosen: bool = True) -> tuple[tuple[int, ...], ...]:
    """``codes[seat][action]``: the code of the entry ``(seat, phase, action, chosen)``, the
    table an engine appends from (for seats below ``LOG_SEATS``, actions below
    ``LOG_ACTIONS``)."""
    start = _block(phase, chosen) * _BLOCK
    return tuple(tuple(range(start + seat * LOG_ACTIONS, start + (seat + 1) * LOG_ACTIONS))
                 for seat in range(LOG_SEATS))


def decode_log(codes: Iterable[int]) -> list[Entry]:
    """The entries of ``codes``, as ``(seat, phase, action, chosen)`` tuples."""
    codes = codes if isinstance(codes, list) else list(codes)
    try:
        entries = list(map(_ENTRIES.__getitem__, codes))
    except IndexError:  # a block this process has not made yet (a state from another one)
        entries = None
    if entries is None or None in entries:
        for code in codes:
            block = code // _BLOCK
            if not 0 <= block < 2 * len(LOG_PHASES):
                raise ValueError(f"log code {code} names no phase; phases: "
                                 + ", ".join(LOG_PHASES))
            _block(LOG_PHASES[block >> 1], not block & 1)
        entries = list(map(_ENTRIES.__getitem__, codes))
    return entries  # type: ignore[return-value]


def encode_log(entries: Iterable[Entry]) -> list[int]:
    """The codes of ``entries`` (``(seat, phase, action, chosen)`` tuples or ``LoggedAction``);
    a ValueError names an entry no code can hold."""
    codes = []
    code_of = _CODE_OF
    for entry in entries:
        code = code_of.get(tuple(entry))  # type: ignore[arg-type]
        if code is None:
            seat, phase, action, chosen = entry
            if not (0 <= seat < LOG_SEATS and 0 <= action < LOG_ACTIONS
                    and isinstance(phase, str)):
                raise ValueError(
                    f"log entry {tuple(entry)!r}: a log holds seats 0..{LOG_SEATS - 1}, actions"
                    f" 0..{LOG_ACTIONS - 1} and a phase name")
            code = _block(phase, bool(chosen)) * _BLOCK + seat * LOG_ACTIONS + action
        codes.append(code)
    return codes


def log_fields(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray,
                                         np.ndarray]:
    """Every entry's fields as columns, from an array of codes: seats, phase codes (into
    the phase names returned), actions and chosen flags."""
    codes = np.asarray(codes, np.int64)
    block = codes >> (_SEAT_BITS + _ACTION_BITS)
    return ((codes >> _ACTION_BITS) & (LOG_SEATS - 1), block >> 1, list(LOG_PHASES),
            codes & (LOG_ACTIONS - 1), (block & 1) == 0)


class CodedLog:
    """A state's log as ``codes``, the ints its engine appends (``log_codes``), read as
    entries through ``log``. Setting ``log`` (a search model's determinization, a test)
    encodes the entries given."""

    codes: list[int]

    @property
    def log(self) -> list[Entry]:
        """Every action so far as ``(seat, phase, action, chosen)`` tuples, decoded afresh:
        appending to the list returned changes nothing (append to ``codes``)."""
        return decode_log(self.codes)

    @log.setter
    def log(self, entries: Iterable[Entry]) -> None:
        self.codes = encode_log(entries)
