"""``TrickMemo``: what the heuristics read off the completed tricks, folded once per trick.

Each heuristic summarises the public tricks of its view (cards played, suits a seat
has shown out of, the suit a seat last led) at every decision. Recomputing that from
every trick of the deal made it the largest part of a decision; the tricks only grow
by one record per trick, and every seat sees the same ones, so a ``TrickMemo`` keeps
the summary of the last tricks tuple it was given and folds in only the records added
since.

The memo is a cache, not a memory of play: it returns exactly what folding every
record from the start returns. A tricks tuple that is not the one remembered, nor
that one with records added (compared by value, ``tricks[:n] == remembered``), is
folded from the start, so views of other deals (search roll-outs, tests building
views by hand) get their own summary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class TrickMemo:
    """``memo(tricks)`` is ``step`` folded over ``tricks`` from ``start``, incrementally.

    ``step(summary, record) -> summary`` must be pure and its summaries immutable
    (tuples, ints), since a summary is shared by every later call. With ``seats`` (a
    sequence parallel to ``tricks``, Knock-out Whist's ``trick_players``), the step is
    ``step(summary, record, seats_of_record)`` and both sequences make the key.

    One memo may serve every player of a heuristic (the seats of a deal see the same
    tricks): what it remembers is one tuple, replaced whole, so calls from several
    threads can only miss the cache, never mix two deals.
    """

    __slots__ = ("_start", "_state", "_step")

    def __init__(self, step: Callable[..., Any], start: Any) -> None:
        self._step = step
        self._start = start
        self._state: tuple = ((), (), start)

    def __call__(self, tricks: Sequence, seats: Sequence | None = None) -> Any:
        known, known_seats, summary = self._state
        if tricks is known and seats is known_seats:
            return summary
        if tricks.__class__ is not tuple or (seats is not None and seats.__class__ is not tuple):
            return self._fold(self._start, tricks, seats)  # a list may change: not kept
        n = len(known)
        m = len(tricks)
        if m >= n and tricks[:n] == known and (seats is None or seats[:n] == known_seats):
            if m == n + 1 and (seats is None or len(seats) == m):  # the usual step in play
                summary = (self._step(summary, tricks[n]) if seats is None
                           else self._step(summary, tricks[n], seats[n]))
            else:
                summary = self._fold(summary, tricks[n:], None if seats is None else seats[n:])
        else:
            summary = self._fold(self._start, tricks, seats)
        self._state = (tricks, seats, summary)
        return summary

    def _fold(self, summary: Any, tricks: Sequence, seats: Sequence | None) -> Any:
        step = self._step
        if seats is None:
            for record in tricks:
                summary = step(summary, record)
        else:
            for record, players in zip(tricks, seats, strict=True):
                summary = step(summary, record, players)
        return summary

    def __getstate__(self) -> tuple:  # pickled empty: a copy starts afresh
        return (self._step, self._start)

    def __setstate__(self, state: tuple) -> None:
        self._step, self._start = state
        self._state = ((), (), self._start)
