"""The German heuristic's two hottest steps, compiled with numba: the same decisions.

``GermanHeuristic`` (strategies/german_heuristic.py) is the readable original and
stays the reference; with ``compiled=True`` (its default) it hands two steps to this
module, which returns the card the Python code would return:

- a stage-1 play with one face-up stock card and face-down cards left (the classic
  stock): ``stage1_choice``, the chance-times-stake scoring of ``_stage1`` with
  ``_stake``, ``_mean_unseen_worth`` and ``_lead_chances``, as the German roll-outs
  compile it too (``whist_sim.search.german_rollout``): term by term in the same order,
  so every value is the same float and every tie falls the same way (the powers go
  through ``math.pow``, the C library's ``pow`` that Python's ``float ** int`` calls);
- the stage-2 endgame search (``_solve_choice``): ``solve_choice`` searches the same
  candidate cards at the root in the same order and keeps the first of those winning
  most tricks; below the root it counts tricks exactly (without the Python search's
  cut-offs, which only skip cards that cannot be chosen), so the choice is the same.

tests/test_german_heuristic_compiled.py plays deals with both paths and checks them
decision by decision, and the outcome hash (tests/test_outcome_hash.py) covers the
compiled default. Importing this module imports numba (about a second); the heuristic
imports it on its first decision that needs it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from whist_sim.cards import FULL_DECK, SUIT_MASKS
from whist_sim.jit import cached_njit, lowest_bit
from whist_sim.jit import count_bits as _count
from whist_sim.jit import highest_bit as _highest

_compiled = cached_njit(allocates=False)
_inlined = cached_njit(inline="always")
_SUIT = np.array(SUIT_MASKS, dtype=np.int64)
_ABOVE = np.array([SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52)], dtype=np.int64)
"""``_ABOVE[c]``: the cards of c's suit that beat c (the heuristic's ``ABOVE``)."""
_FULL = np.int64(FULL_DECK)


# -- stage 1: the same functions as whist_sim/search/german_rollout.py's, which plays
# -- whole roll-outs with them; kept here too so the heuristic does not lean on another
# -- module's private names. Both are checked against GermanHeuristic (this copy by
# -- tests/test_german_heuristic_compiled.py, that one by tests/test_german_rollout.py).

@_inlined
def _worth(card, out, trump, trump_worth, table, tie):
    """``GermanHeuristic._worth``: estimated stage-2 tricks of ``card`` (``tie``: the
    rank tie-break)."""
    if card // 13 == trump:
        return trump_worth + (card % 13) * tie
    return table[_count(out & _ABOVE[card])] + (card % 13) * tie


@_inlined
def _mean_unseen_worth(unseen, out, trump, trump_worth, table):
    """``GermanHeuristic._mean_unseen_worth``: average worth of an unseen card."""
    count = _count(unseen)
    if count == 0:
        return 0.0
    total = 0.0
    for suit in range(4):
        mask = _SUIT[suit]
        hidden = unseen & mask
        if hidden == 0:
            continue
        if suit == trump:
            total += trump_worth * _count(hidden)
            continue
        others = out & mask
        higher = 0
        for card in range(13 * suit + 12, 13 * suit - 1, -1):
            if others >> card & 1:
                if hidden >> card & 1:
                    total += table[higher]
                higher += 1
    return total / count


@_inlined
def _lead_chance(card, known, unseen, miss, no_trump, trump):
    """``GermanHeuristic._lead_chances`` for one card: the chance the lead wins."""
    if known & _ABOVE[card]:
        return 0.0
    chance = math.pow(miss, float(_count(unseen & _ABOVE[card])))
    suit_mask = _SUIT[card // 13]
    if trump >= 0 and card // 13 != trump and not known & suit_mask:
        void = math.pow(miss, float(_count(unseen & suit_mask)))
        chance *= 1.0 - void * (1.0 - no_trump)
    return chance


@_inlined
def _choose(hand, legal, led, played, faceup, taken_by_opp, trump, trump_worth, stake_base,
            denial, contest_margin, table, tie):
    """``GermanHeuristic._stage1``: the card with the best chance times stake less worth.

    ``led`` is the card led to this trick, or -1 when the seat leads; ``stake_base`` is
    ``2 * trick worth``, the part of the stake that does not depend on the cards.
    """
    if legal & (legal - 1) == 0:
        return lowest_bit(legal)
    out = _FULL & ~hand & ~played
    prize = _worth(faceup, out, trump, trump_worth, table, tie)
    unseen = _FULL & ~(hand | played | taken_by_opp | (np.int64(1) << faceup))
    unknown = _mean_unseen_worth(unseen, out, trump, trump_worth, table)
    stake = (1.0 + denial) * (prize - unknown) + stake_base - contest_margin
    known = taken_by_opp & ~played
    miss, no_trump = 1.0, 1.0
    if led < 0:
        unseen_count = _count(unseen)
        share = (13 - _count(known)) / unseen_count if unseen_count else 0.0
        miss = 1.0 - share
        no_trump = 1.0
        if trump >= 0:
            trump_mask = _SUIT[trump]
            if known & trump_mask:
                no_trump = 0.0
            else:
                no_trump = math.pow(miss, float(_count(unseen & trump_mask)))
    best, best_value = -1, -math.inf
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        if led < 0:
            chance = _lead_chance(card, known, unseen, miss, no_trump, trump)
        else:
            chance = 1.0 if _beats(card, led, trump) else 0.0
        value = chance * stake - _worth(card, out, trump, trump_worth, table, tie)
        if value > best_value:
            best, best_value = card, value
    return best





@_compiled
def _stage1(hand, legal, led, played, faceup, taken_by_opp, trump, trump_worth, stake_base,
            denial, contest_margin, table, tie):
    return _choose(hand, legal, led, played, faceup, taken_by_opp, trump, trump_worth,
                   stake_base, denial, contest_margin, table, tie)


_TABLES: dict[int, tuple[tuple[float, ...], np.ndarray]] = {}


def _table(worths: tuple[float, ...]) -> np.ndarray:
    """``worths`` as the compiled code reads it, made once per table (found by identity:
    the heuristic passes its module's constants, so no tuple is hashed per decision)."""
    found = _TABLES.get(id(worths))
    if found is None or found[0] is not worths:
        found = _TABLES[id(worths)] = (worths, np.array(worths, dtype=np.float64))
    return found[1]


def stage1_choice(player: Any, view: Any, played: int, worths: tuple[float, ...],
                  tie: float, trick_worth: float) -> int:
    """``player._stage1(view, played)`` for one face-up card and face-down cards left.

    ``worths``: the worth table of the deal's trump rule; ``trick_worth``: what a
    stage-1 trick is worth now (``player._trick(view)``).
    """
    trick = view.trick
    return _stage1(
        view.hand, view.legal, trick[0] if trick else -1, played, view.faceup[0],
        view.taken_faceup[1 - view.seat], view.trump, player.trump_worth, 2.0 * trick_worth,
        player.denial, player.contest_margin, _table(worths), tie,
    )


@_compiled
def _beats(card, led, trump):
    """Does ``card`` played second beat ``led``?"""
    if card // 13 == led // 13:
        return card > led
    return card // 13 == trump


@_compiled
def _represents(card, cards, remaining):
    """``_distinct``: is ``card`` the one of its run of ``cards`` the search tries?"""
    below = remaining & _SUIT[card // 13] & ((np.int64(1) << card) - 1)
    return below == 0 or not (cards >> _highest(below)) & 1


@_compiled
def _lead_value(leader, other, trump):
    """Most tricks the player to lead with ``leader`` wins against ``other``, both best
    (``_lead_value`` with ``_after_lead`` inlined: numba compiles self-recursion)."""
    if leader == 0:
        return 0
    n = _count(leader)
    best = -1
    leads = leader
    while leads:
        card = lowest_bit(leads)
        leads &= leads - 1
        if not _represents(card, leader, leader | other):
            continue
        rest = leader & ~(np.int64(1) << card)
        follow = other & _SUIT[card // 13]
        if follow == 0:
            follow = other
        remaining = rest | other | (np.int64(1) << card)
        worst = n
        replies = follow
        while replies:
            reply = lowest_bit(replies)
            replies &= replies - 1
            if not _represents(reply, follow, remaining):
                continue
            left = other & ~(np.int64(1) << reply)
            if _beats(reply, card, trump):
                tricks = n - 1 - _lead_value(left, rest, trump)
            else:
                tricks = 1 + _lead_value(rest, left, trump)
            if tricks < worst:
                worst = tricks
        if worst > best:
            best = worst
            if best == n:
                break
    return best


@_compiled
def _after_lead(card, rest, opp, trump, n):
    """Tricks the leader wins out of ``n`` after leading ``card``, the follower best."""
    follow = opp & _SUIT[card // 13]
    if follow == 0:
        follow = opp
    remaining = rest | opp | (np.int64(1) << card)
    worst = n
    replies = follow
    while replies:
        reply = lowest_bit(replies)
        replies &= replies - 1
        if not _represents(reply, follow, remaining):
            continue
        left = opp & ~(np.int64(1) << reply)
        if _beats(reply, card, trump):
            tricks = n - 1 - _lead_value(left, rest, trump)
        else:
            tricks = 1 + _lead_value(rest, left, trump)
        if tricks < worst:
            worst = tricks
    return worst


@_compiled
def _solve(hand, opp, trump, led, legal):
    best, best_tricks = -1, -99
    if led >= 0:
        remaining = hand | opp | (np.int64(1) << led)
        left = _count(hand) - 1
        cards = legal
        while cards:
            card = lowest_bit(cards)
            cards &= cards - 1
            if not _represents(card, legal, remaining):
                continue
            rest = hand & ~(np.int64(1) << card)
            if _beats(card, led, trump):
                tricks = 1 + _lead_value(rest, opp, trump)
            else:
                tricks = left - _lead_value(opp, rest, trump)
            if tricks > best_tricks:
                best, best_tricks = card, tricks
        return best
    n = _count(hand)
    cards = hand
    while cards:
        card = lowest_bit(cards)
        cards &= cards - 1
        if not _represents(card, hand, hand | opp):
            continue
        tricks = _after_lead(card, hand & ~(np.int64(1) << card), opp, trump, n)
        if tricks > best_tricks:
            best, best_tricks = card, tricks
    return best


def solve_choice(view: Any, hand: int, opp: int, trump: int) -> int:
    """``_solve_choice(view, hand, opp, trump)``: the play winning most of the rest."""
    trick = view.trick
    return _solve(hand, opp, trump, trick[0] if trick else -1, view.legal)

