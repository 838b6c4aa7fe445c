"""German Whist roll-outs through stage 1, compiled: both seats play the ``heuristic``.

A German ``pimc`` decision values each candidate card in each sampled world by playing
the rest of stage 1 with the heuristic at both seats, then settling stage 2 with the
solver. Profiled over six hands of ``pimc`` against ``solver``, the heuristic's stage-1
decisions and the engine's moves took about 60% of the time, the solver 20%. This module
plays the same roll-out in one compiled call: the same decisions, card for card, and
the same stage-2 start, which the caller then values as before.

What it mirrors, and where the readable original lives:
- the engine's stage 1 with one face-up stock card (``GermanWhistDeal.apply``,
  ``_complete_trick``, ``_take_single``): follow suit, the trick's winner takes the
  face-up card and the loser the next face-down one, then the next card is turned; the
  13th trick ends stage 1;
- ``GermanHeuristic._stage1``, through the compiled kernels of
  ``whist_sim.search.german_stage1`` (shared with the heuristic's own compiled path),
  which follow it term by term, so every value is the same float.

The heuristic is a parameter: ``play_stage1`` takes the player it copies, reads its
parameters (``trump_worth``, ``denial``, ``contest_margin``, ``trick_worth``) from it and
its tables (``SIDE_WORTH``, ``NO_TRUMP_WORTH``, ``RANK_TIE_BREAK``,
``STAGE1_TRICK_WORTH``) from the module that defines its class (``stage1_tables``).
whist_sim does not import the plug-in package ``strategies``: the strategy registry
says which class is German Whist's ``heuristic``, the only one this copy mirrors; for
any other player ``play_stage1`` returns None and the roll-out is played in Python.

Covered: ``open_stock = 1`` and no ``race_to`` (every other rule of the variant,
``count`` and ``trumps`` included, is a parameter). ``play_stage1`` returns None for
anything else and the caller plays the roll-out in Python. tests/test_german_rollout.py
checks the compiled roll-out against the engine and the heuristic on sampled worlds of
real hands, in both rule sets of ``trumps`` and every ``count``.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from whist_sim.games.german_whist import PLAY, GermanWhistDeal
from whist_sim.jit import cached_njit
from whist_sim.search import german_stage1
from whist_sim.search.german_stage1 import beats as _beats
from whist_sim.search.german_stage1 import choose as _choose
from whist_sim.search.policy import default_policy_class
from whist_sim.tricks import cards_played

_in_place = cached_njit(allocates=False)
"""For the roll-out loop, which only works in the arrays it is given: no reference counts."""

_SUIT, _FULL = german_stage1.SUIT, german_stage1.FULL


@dataclass(frozen=True, eq=False)
class Stage1Tables:
    """The constants of the German heuristic that its stage-1 play reads, as the compiled
    copy takes them (``GermanHeuristic`` keeps them in its module)."""

    side_worth: tuple[float, ...]
    """A side-suit card's worth by how many higher cards of its suit are out."""
    no_trump_worth: tuple[float, ...]
    """The same without a trump suit."""
    rank_tie_break: float
    """Added per rank, so of two otherwise equal cards the lower is given up."""
    stage1_trick_worth: Mapping[str, float]
    """A stage-1 trick's worth by the variant's ``count`` (when ``trick_worth`` is None)."""

    @functools.cached_property
    def arrays(self) -> dict[bool, np.ndarray]:
        """The worth tables as the compiled code reads them, by "is there a trump suit"."""
        return {True: np.array(self.side_worth, dtype=np.float64),
                False: np.array(self.no_trump_worth, dtype=np.float64)}


def stage1_tables(player: Any) -> Stage1Tables | None:
    """The tables of ``player`` if this compiled copy plays as it does, else None.

    It does for an instance of the class the strategy registry gives for German Whist's
    ``heuristic`` (not a subclass, which may play otherwise); the tables are that class's
    module constants, read from the module (already imported: it defines the class).
    """
    cls = type(player)
    if cls is not default_policy_class("german_whist"):
        return None
    return _tables_of(cls)


@functools.cache
def _tables_of(cls: type) -> Stage1Tables:
    module = sys.modules[cls.__module__]
    return Stage1Tables(
        side_worth=tuple(module.SIDE_WORTH),
        no_trump_worth=tuple(module.NO_TRUMP_WORTH),
        rank_tie_break=float(module.RANK_TIE_BREAK),
        stage1_trick_worth=dict(module.STAGE1_TRICK_WORTH),
    )


@_in_place
def _play_stage1(hands, stock, next_stock, faceup, led, to_act, won, played, taken, trick_no,
                 trump, trump_worth, stake_base, denial, contest_margin, table, tie):
    """Play stage 1 to its end in place (``hands``, ``won``); return stage 2's leader.

    ``led`` is the card on the current trick (-1 if none), ``taken`` each seat's face-up
    cards taken so far, ``played`` every card played; the engine's attributes otherwise.
    """
    while True:
        seat = to_act
        hand = hands[seat]
        legal = hand
        if led >= 0 and hand & _SUIT[led // 13]:
            legal = hand & _SUIT[led // 13]
        card = _choose(hand, legal, led, played, faceup, taken[1 - seat], trump,
                       trump_worth, stake_base, denial, contest_margin, table, tie)
        hands[seat] = hand & ~(np.int64(1) << card)
        played |= np.int64(1) << card
        if led < 0:
            led = card
            to_act = 1 - seat
            continue
        winner = 1 - seat
        if _beats(card, led, trump):
            winner = seat
        trick_no += 1
        won[winner] += 1
        hands[winner] |= np.int64(1) << faceup
        taken[winner] |= np.int64(1) << faceup
        hands[1 - winner] |= np.int64(1) << stock[next_stock]
        if trick_no == 13:
            return winner
        faceup = stock[next_stock + 1]
        next_stock += 2
        led = -1
        to_act = winner


def play_stage1(state: GermanWhistDeal, heuristic: Any
                ) -> tuple[list[int], int, tuple[int, int]] | None:
    """Play ``state`` to the start of stage 2 with ``heuristic`` at both seats.

    Returns the hands, the leader and the stage-1 tricks (``won1``) at the start of
    stage 2, as the engine would reach them, or None where the compiled copy does not
    apply: not a stage-1 card to play, a variant with an open stock of several cards
    or a race (``race_to``), or a ``heuristic`` it does not copy (``stage1_tables``).
    ``state`` itself is not changed.
    """
    tables = stage1_tables(heuristic)
    return None if tables is None else stage1_start(state, heuristic, tables)


def stage1_start(state: GermanWhistDeal, heuristic: Any, tables: Stage1Tables
                 ) -> tuple[list[int], int, tuple[int, int]] | None:
    """``play_stage1`` with ``heuristic``'s tables already found (``stage1_tables``): what
    a decision's roll-outs call, once per roll-out."""
    variant = state.variant
    if (state.stage != 1 or state.to_act < 0 or state.phase is not PLAY
            or variant.open_stock != 1 or variant.race_to is not None):
        return None
    trick_worth = heuristic.trick_worth
    if trick_worth is None:
        trick_worth = tables.stage1_trick_worth[variant.count]
    hands = np.array(state.hands, dtype=np.int64)
    won = np.array(state.won1, dtype=np.int64)
    taken = np.array(state.taken_faceup, dtype=np.int64)
    stock = np.array(state.stock, dtype=np.int64)
    table = tables.arrays[state.trump >= 0]
    led = state.trick[0] if state.trick else -1
    leader = _play_stage1(
        hands, stock, state.next_stock, state.faceup[0], led, state.to_act,
        won, cards_played(state.tricks, state.trick), taken, state.trick_no, state.trump,
        heuristic.trump_worth, 2.0 * trick_worth, heuristic.denial, heuristic.contest_margin,
        table, tables.rank_tie_break,
    )
    return [int(hands[0]), int(hands[1])], int(leader), (int(won[0]), int(won[1]))


def warm_up() -> None:
    """Compile ``_play_stage1`` now (or load it from numba's disk cache), outside any
    decision: a search strategy that may roll out through it calls this when it is built
    (``whist_sim.search.params.solver_function``), as the compiled heuristic does for its
    own kernels. Compiled in the first German Whist decision instead, it added a second
    or two to the solver's own compiling there.

    It plays stage 1 of a dealt hand with stand-in tables of the right sizes: the
    values do not matter, only the argument types, which are the same for every roll-out
    (``stage1_start`` passes int64 arrays, ints and floats; the heuristic keeps its
    parameters as floats).
    """
    from types import SimpleNamespace

    from whist_sim.games import make_game

    state = make_game("german_whist", None, None).new_deal(0, 0)
    player = SimpleNamespace(trump_worth=1.5, denial=1.0, contest_margin=0.0, trick_worth=1.0)
    tables = Stage1Tables(side_worth=(0.0,) * 13, no_trump_worth=(0.0,) * 13,
                          rank_tie_break=0.0, stage1_trick_worth={})
    stage1_start(state, player, tables)
