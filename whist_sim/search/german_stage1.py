"""German Whist's stage-1 scoring, compiled: the heuristic's choice of a stage-1 card.

``GermanHeuristic._stage1`` (strategies/german_heuristic.py) is the readable original:
the card with the best chance of winning times the stake, less the card's own worth in
stage 2, with ``_worth``, ``_mean_unseen_worth``, ``_stake`` and ``_lead_chances`` term by
term in the same order, so every value is the same float and every tie falls the same
way (the powers go through ``math.pow``, the C library's ``pow`` that Python's
``float ** int`` calls too).

Two compiled callers share these kernels: the German roll-outs of search
(``whist_sim.search.german_rollout``, which plays whole stages with them) and the
heuristic's own compiled path (``strategies/german_heuristic_compiled.py``). They live
here, below both, because strategies may import whist_sim but not the other way round.
tests/test_german_rollout.py and tests/test_german_heuristic_compiled.py check both
callers against the Python heuristic decision by decision.

Every kernel is inlined into its caller. numba's disk cache keys a compiled function on
its own file, not on the files of the functions it inlines: after editing this module,
clear the callers' caches (``find . -name '*.nbi' -delete``) or touch their files.
"""

from __future__ import annotations

import math

import numpy as np

from whist_sim.cards import FULL_DECK, SUIT_MASKS
from whist_sim.jit import cached_njit, lowest_bit
from whist_sim.jit import count_bits as _count

_inlined = cached_njit(inline="always")

SUIT = np.array(SUIT_MASKS, dtype=np.int64)
"""``SUIT[s]``: the mask of suit ``s``."""
ABOVE = np.array([SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52)], dtype=np.int64)
"""``ABOVE[c]``: the cards of c's suit that beat c (the heuristic's ``ABOVE``)."""
FULL = np.int64(FULL_DECK)
"""Every card."""


@_inlined
def worth(card, out, trump, trump_worth, table, tie):
    """``GermanHeuristic._worth``: estimated stage-2 tricks of ``card`` (``tie``: the
    rank tie-break)."""
    if card // 13 == trump:
        return trump_worth + (card % 13) * tie
    return table[_count(out & ABOVE[card])] + (card % 13) * tie


@_inlined
def mean_unseen_worth(unseen, out, trump, trump_worth, table):
    """``GermanHeuristic._mean_unseen_worth``: average worth of an unseen card."""
    count = _count(unseen)
    if count == 0:
        return 0.0
    total = 0.0
    for suit in range(4):
        mask = SUIT[suit]
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
def lead_chance(card, known, unseen, miss, no_trump, trump):
    """``GermanHeuristic._lead_chances`` for one card: the chance the lead wins."""
    if known & ABOVE[card]:
        return 0.0
    chance = math.pow(miss, float(_count(unseen & ABOVE[card])))
    suit_mask = SUIT[card // 13]
    if trump >= 0 and card // 13 != trump and not known & suit_mask:
        void = math.pow(miss, float(_count(unseen & suit_mask)))
        chance *= 1.0 - void * (1.0 - no_trump)
    return chance


@_inlined
def beats(card, led, trump):
    """Does ``card`` played second beat ``led``?"""
    if card // 13 == led // 13:
        return card > led
    return card // 13 == trump


@_inlined
def choose(hand, legal, led, played, faceup, taken_by_opp, trump, trump_worth, stake_base,
            denial, contest_margin, table, tie):
    """``GermanHeuristic._stage1``: the card with the best chance times stake less worth.

    ``led`` is the card led to this trick, or -1 when the seat leads; ``stake_base`` is
    ``2 * trick worth``, the part of the stake that does not depend on the cards.
    """
    if legal & (legal - 1) == 0:
        return lowest_bit(legal)
    out = FULL & ~hand & ~played
    prize = worth(faceup, out, trump, trump_worth, table, tie)
    unseen = FULL & ~(hand | played | taken_by_opp | (np.int64(1) << faceup))
    unknown = mean_unseen_worth(unseen, out, trump, trump_worth, table)
    stake = (1.0 + denial) * (prize - unknown) + stake_base - contest_margin
    known = taken_by_opp & ~played
    miss, no_trump = 1.0, 1.0
    if led < 0:
        unseen_count = _count(unseen)
        share = (13 - _count(known)) / unseen_count if unseen_count else 0.0
        miss = 1.0 - share
        no_trump = 1.0
        if trump >= 0:
            trump_mask = SUIT[trump]
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
            chance = lead_chance(card, known, unseen, miss, no_trump, trump)
        else:
            chance = 1.0 if beats(card, led, trump) else 0.0
        value = chance * stake - worth(card, out, trump, trump_worth, table, tie)
        if value > best_value:
            best, best_value = card, value
    return best
