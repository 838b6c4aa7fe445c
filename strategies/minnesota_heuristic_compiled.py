"""The Minnesota heuristic's card play, compiled with numba: the same decisions.

``MinnesotaHeuristic`` (strategies/minnesota_heuristic.py) is the readable original and
stays the reference; with ``compiled=True`` (its default) it hands every card-play
decision with more than one legal card to ``play_choice``, which returns the card the
Python code returns: ``_Table`` (the cards out and who may hold them), the grand hand's
lead, follow, overtaking and discard, and the null hand's, function by function. The
choice between playing high and low (``view.grand`` or a null hand already lost) stays
in Python.

A set of seats is a 4-bit set: the Python code only asks whether any of them may hold
a card, which does not depend on their order. The scores compare in the Python order
of suits and cards, with the same strict comparisons, so every tie falls the same way.

tests/test_minnesota_heuristic_compiled.py plays deals with both paths and checks them
decision by decision, and the outcome hash (tests/test_outcome_hash.py) covers the
compiled default. Importing this module imports numba (about a second); the heuristic
imports it on its first card-play decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from strategies import minnesota_heuristic as plain
from strategies.heuristic_memo import TrickMemo
from whist_sim.cards import SUIT_MASKS
from whist_sim.jit import cached_njit, lowest_bit
from whist_sim.jit import count_bits as _count
from whist_sim.jit import highest_bit as _highest

_compiled = cached_njit(allocates=False)

_SUIT = np.array(SUIT_MASKS, dtype=np.int64)
_ABOVE = np.array(plain.ABOVE, dtype=np.int64)
_BELOW = np.array(plain.BELOW, dtype=np.int64)
_SUIT_OF_MASK = np.array(plain.SUIT_OF_MASK, dtype=np.int64)
_FULL_DECK = np.int64((1 << 52) - 1)


# -- _Table: (may_hold, out, last_led); may_hold a 4-tuple by seat -----------------------

@_compiled
def _nibble(packed, seat):
    return packed >> (4 * seat) & 15


@_compiled
def _table(hand, played, voids, turned, n_turned, n, t0, t1, t2, leader):
    if n:
        lead_suit = t0 // 13
        played |= np.int64(1) << t0
        seat = leader
        for i in range(1, n):
            card = t1 if i == 1 else t2
            played |= np.int64(1) << card
            seat = (seat + 1) % 4
            if card // 13 != lead_suit:
                voids |= np.int64(1 << lead_suit) << (4 * seat)
    out = _FULL_DECK & ~hand & ~played
    k0 = k1 = k2 = k3 = all_known = np.int64(0)
    for i in range(n_turned):
        pair = turned >> (8 * i) & 255
        seat, card = pair >> 6, pair & 63
        if out >> card & 1:
            bit = np.int64(1) << card
            if seat == 0:
                k0 |= bit
            elif seat == 1:
                k1 |= bit
            elif seat == 2:
                k2 |= bit
            else:
                k3 |= bit
            all_known |= bit
    free = out & ~all_known
    may_hold = (k0 | (free & ~_SUIT_OF_MASK[_nibble(voids, 0)]),
                k1 | (free & ~_SUIT_OF_MASK[_nibble(voids, 1)]),
                k2 | (free & ~_SUIT_OF_MASK[_nibble(voids, 2)]),
                k3 | (free & ~_SUIT_OF_MASK[_nibble(voids, 3)]))
    return may_hold, out


@_compiled
def _threatened(card, seats, may_hold):
    """``MinnesotaHeuristic._threatened``: may one of ``seats`` hold a higher card?"""
    above = _ABOVE[card]
    for s in range(4):  # noqa: SIM110 (no generators in numba's nopython code)
        if seats >> s & 1 and above & may_hold[s]:
            return True
    return False


@_compiled
def _threats(seats, may_hold):
    threats = np.int64(0)
    for s in range(4):
        if seats >> s & 1:
            threats |= may_hold[s]
    return threats


@_compiled
def _still_to_play(seat, played):
    """``STILL_TO_PLAY[seat][played]`` as a 4-bit set."""
    seats = 0
    for k in range(1, 4 - played):
        other = (seat + k) % 4
        if other != (seat + 2) % 4:
            seats |= 1 << other
    return seats


@_compiled
def _winning_index(n, t0, t1, t2):
    best, best_i = t0, 0
    lead_suit = t0 // 13
    for i in range(1, n):
        card = t1 if i == 1 else t2
        if card > best and card // 13 == lead_suit:
            best, best_i = card, i
    return best_i


@_compiled
def _bottom_of_sequence(card, cards, seats, may_hold):
    threats = _threats(seats, may_hold)
    while True:
        lower = _BELOW[card] & (cards | threats)
        if not lower:
            return card
        below = _highest(lower)
        if not cards >> below & 1:
            return card
        card = below


# -- grand hand (high) ---------------------------------------------------------------

@_compiled
def _play_high(hand, legal, may_hold, out, last_led, n, t0, t1, t2, leader, seat, partner):
    opponents = (1 << ((seat + 1) % 4)) | (1 << ((seat + 3) % 4))
    if not n:
        return _lead_high(hand, may_hold, out, last_led, partner, opponents)
    lead_suit = t0 // 13
    if not legal & _SUIT[lead_suit]:
        return _discard_high(legal, may_hold, opponents)
    win_index = _winning_index(n, t0, t1, t2)
    win_card = t0 if win_index == 0 else (t1 if win_index == 1 else t2)
    win_seat = (leader + win_index) % 4
    still = _still_to_play(seat, n)
    above = legal & _ABOVE[win_card]
    if win_seat == partner:
        if not _threatened(win_card, still, may_hold):
            return lowest_bit(legal)
        return _help_partner(legal, win_card, still, may_hold)
    if not above:
        return lowest_bit(legal)
    rest = above
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        if not _threatened(card, still, may_hold):
            return card
    if n == 1:
        return lowest_bit(above)
    return _bottom_of_sequence(_highest(above), legal, still, may_hold)


@_compiled
def _help_partner(legal, win_card, still, may_hold):
    above = legal & _ABOVE[win_card]
    rest = above
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        if not _threatened(card, still, may_hold):
            return card
    if above:
        top = _highest(above)
        beaten = _BELOW[top] & _ABOVE[win_card]
        if beaten & _threats(still, may_hold):
            return _bottom_of_sequence(top, legal, still, may_hold)
    return lowest_bit(legal)


@_compiled
def _lead_high(hand, may_hold, out, last_led, partner, opponents):
    best_safe, best_length = -1, -1
    for suit in range(4):
        cards = hand & _SUIT[suit]
        if not cards or _threatened(_highest(cards), opponents, may_hold):
            continue
        length = _count(cards)
        if length > best_length:
            best_safe = _bottom_of_sequence(_highest(cards), hand, opponents, may_hold)
            best_length = length
    if best_safe >= 0:
        return best_safe
    partner_suit = _nibble(last_led, partner) - 1
    if partner_suit >= 0 and hand & _SUIT[partner_suit]:
        return lowest_bit(hand & _SUIT[partner_suit])
    longest = np.int64(0)
    for suit in range(4):
        cards = hand & _SUIT[suit]
        if _count(cards) > _count(longest):
            longest = cards
    top = _highest(longest)
    second = _BELOW[top] & longest
    if second and top % 13 >= 9 and not _BELOW[top] & _ABOVE[_highest(second)] & out:
        return top
    return lowest_bit(longest)


@_compiled
def _discard_high(legal, may_hold, opponents):
    threats = _threats(opponents, may_hold)
    best, best_keep = -1, 1e9
    for suit in range(4):
        cards = legal & _SUIT[suit]
        if not cards:
            continue
        card = lowest_bit(cards)
        keep = card % 13 + 0.5 * _count(cards)
        if not _ABOVE[card] & threats:
            keep += 100.0
        if keep < best_keep:
            best, best_keep = card, keep
    return best


# -- null hand (low) -----------------------------------------------------------------

@_compiled
def _play_low(hand, legal, may_hold, out, n, t0, t1, t2, leader, seat, partner):
    if not n:
        return _lead_low(hand, may_hold, out, seat)
    lead_suit = t0 // 13
    if not legal & _SUIT[lead_suit]:
        return _discard_low(legal, out)
    win_index = _winning_index(n, t0, t1, t2)
    win_card = t0 if win_index == 0 else (t1 if win_index == 1 else t2)
    win_seat = (leader + win_index) % 4
    last = n == 3
    under = legal & _BELOW[win_card]
    if win_seat == partner and last:
        return _highest(legal)
    if under:
        return _highest(under)
    if last:
        return _highest(legal)
    low = lowest_bit(legal)
    return low if _threatened(low, _still_to_play(seat, n), may_hold) else _highest(legal)


@_compiled
def _lead_low(hand, may_hold, out, seat):
    opp_may = may_hold[(seat + 1) % 4] | may_hold[(seat + 3) % 4]
    best, best_risk = -1, 1e9
    for suit in range(4):
        mask = _SUIT[suit]
        cards = hand & mask
        if not cards:
            continue
        card = lowest_bit(cards)
        outside = out & mask
        while True:
            nxt = _ABOVE[card] & cards
            if not nxt:
                break
            higher = lowest_bit(nxt)
            if _ABOVE[card] & _BELOW[higher] & outside:
                break
            card = higher
        lower_out = _count(_BELOW[card] & outside)
        higher_opp = _count(_ABOVE[card] & opp_may)
        if not higher_opp:
            risk = 50.0 + lower_out
        else:
            risk = lower_out / (lower_out + higher_opp) + _count(cards)
        risk -= 0.001 * (card % 13)
        if risk < best_risk:
            best, best_risk = card, risk
    return best


@_compiled
def _discard_low(legal, out):
    best, best_danger = -1, -1e9
    for suit in range(4):
        cards = legal & _SUIT[suit]
        if not cards:
            continue
        card = _highest(cards)
        above = _count(_ABOVE[card] & out)
        below = _count(_BELOW[card] & out)
        if below:  # noqa: SIM108 (as the Python)
            danger = below / (below + above + 1) - 0.3 * _count(cards)
        else:
            danger = -10.0 - above
        if danger > best_danger:
            best, best_danger = card, danger
    return best


# -- the decision -----------------------------------------------------------------------

@_compiled
def _play(hand, legal, played, voids, last_led, turned, n_turned, n, t0, t1, t2, leader,
          seat, partner, high):
    may_hold, out = _table(hand, played, voids, turned, n_turned, n, t0, t1, t2, leader)
    if high:
        return _play_high(hand, legal, may_hold, out, last_led, n, t0, t1, t2, leader, seat,
                          partner)
    return _play_low(hand, legal, may_hold, out, n, t0, t1, t2, leader, seat, partner)


def _fold_packed(summary: tuple, record: Any) -> tuple:
    """``minnesota_heuristic._fold_trick`` packed 4 bits a seat: (cards played, the
    suits each seat has shown out of, 1 + the suit each seat last led or 0)."""
    played, voids, last_led = summary
    cards = record.cards
    lead = cards[0] // 13
    leader = record.leader
    last_led = last_led & ~(15 << (4 * leader)) | (lead + 1) << (4 * leader)
    for i, card in enumerate(cards):
        played |= 1 << card
        if card // 13 != lead:
            voids |= (1 << lead) << (4 * ((leader + i) % 4))
    return played, voids, last_led


_PACKED_TRICKS = TrickMemo(_fold_packed, (0, 0, 0))
"""The completed tricks' summary, packed, shared by every compiled player."""

_TURNED: tuple[Any, int, int] = ((), 0, 0)
"""The last ``view.turned`` met, packed (8 bits a card: its seat and number) and its
length: a view's tuple is the hand's own, the same object at every decision of the
hand. Replaced whole, so threads can only miss it, never mix two hands."""


def play_choice(view: Any, high: bool) -> int:
    """The card ``MinnesotaHeuristic`` plays at ``view`` (a card-play decision with more
    than one legal card): ``_play_high`` when ``high``, else ``_play_low``."""
    global _TURNED
    turned = view.turned
    last, pairs, n_turned = _TURNED
    if turned is not last or turned.__class__ is not tuple:  # a list may have changed
        pairs = 0
        for i, (seat, card) in enumerate(turned):
            pairs |= (seat << 6 | card) << (8 * i)
        n_turned = len(turned)
        _TURNED = (turned, pairs, n_turned)
    played, voids, last_led = _PACKED_TRICKS(view.tricks)
    trick = view.trick
    n = len(trick)
    return _play(
        view.hand, view.legal, played, voids, last_led, pairs, n_turned, n,
        trick[0] if n else -1, trick[1] if n > 1 else -1, trick[2] if n > 2 else -1,
        view.leader, view.seat, view.partner, high,
    )
