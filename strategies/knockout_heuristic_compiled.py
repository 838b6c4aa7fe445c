"""The Knock-out heuristic's card play, compiled with numba: the same decisions.

``KnockoutHeuristic`` (strategies/knockout_heuristic.py) is the readable original and
stays the reference; with ``compiled=True`` (its default) it hands every card-play
decision of a seat that is not a dog to ``decide`` here: ``Table.__init__`` (the
unknown cards, who holds how many, voids, the seats still to play),
``Table.win_chance`` for each card, ``worth`` for each card held, the survival term and
the sure-trick margin, term by term in the same order, so every value is the same float
and every tie falls the same way (the powers go through ``math.pow``, the C library's
``pow`` that Python's ``float ** int`` and ``float ** float`` call). A dog's one
decision stays in Python.

tests/test_knockout_heuristic_compiled.py plays games with both paths and checks them
decision by decision; the outcome hash (tests/test_outcome_hash.py) covers the
compiled default. Importing this module imports numba (about a second); the heuristic
imports it on its first decision that needs it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from strategies.heuristic_memo import TrickMemo
from strategies.knockout_heuristic import RANK_TIE_BREAK, SURE
from whist_sim.cards import SUIT_MASKS
from whist_sim.games.knockout_whist import DOG, IN
from whist_sim.jit import cached_njit, lowest_bit
from whist_sim.jit import count_bits as _count

_compiled = cached_njit(allocates=False)
_SUIT = np.array(SUIT_MASKS, dtype=np.int64)
_ABOVE = np.array([SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52)], dtype=np.int64)


@_compiled
def _worth(card, unknown, trump, base, weight, ruff_escape):
    """``KnockoutHeuristic.worth``, its constant parts (``base``, ``ruff_escape``) given."""
    chance = math.pow(base, _count(unknown & _ABOVE[card]) * weight)
    return chance if card // 13 == trump else chance * ruff_escape


# -- the whole card-play decision: ``Table`` built compiled too ----------------------------
# A seat's facts travel packed in ints: 4 bits a seat (seat s at bits 4s..4s+3) for the
# suits it has not followed and the cards it has played this round, a bit a seat for
# the seats in (``ins``), the dogs and the seats on the current trick; the trick's
# cards 6 bits each and their seats 3 bits each, in playing order.

@_compiled
def _nibble(packed, seat):
    return packed >> (4 * seat) & 15


@_compiled
def _held(seat, ins, dogs, dealt, plays, on_trick):
    """``Table``'s ``held[seat]``: the cards ``seat`` still holds."""
    cards = dealt if ins >> seat & 1 else (1 if dogs >> seat & 1 else 0)
    return cards - _nibble(plays, seat) - (on_trick >> seat & 1)


@_compiled
def _win_chance_of(card, unknown, trump, led, best, skill, n, later, voids, dogs, ins, dealt,
                   plays, on_trick):
    """``Table.win_chance``, the seats still to play (``later``, a bit per seat) walked
    in seat order as ``Table.later`` lists them, each one's ``share`` worked out here."""
    suit = card // 13
    if led < 0:
        led = suit
    elif suit == best // 13:
        if card < best:
            return 0.0
    elif suit != trump:
        return 0.0
    pool_total = _count(unknown)
    higher = _count(unknown & _ABOVE[card])
    led_cards = _count(unknown & _SUIT[led])
    trumps = higher if suit == trump else _count(unknown & _SUIT[trump])
    total = pool_total if pool_total else 1
    off_suit = total - led_cards
    chance = 1.0
    for seat in range(n):
        if not later >> seat & 1:
            continue
        if dogs >> seat & 1:  # a dog: one card, played anywhere
            chance *= 1.0 - (higher + (trumps if suit != trump else 0)) / total
            continue
        void = _nibble(voids, seat)
        pool = pool_total  # the unknown cards of the suits it may still hold
        if void:
            for other in range(4):
                if void >> other & 1:
                    pool -= _count(unknown & _SUIT[other])
        cards_held = _held(seat, ins, dogs, dealt, plays, on_trick)
        share = cards_held / pool if pool > 0 else 0.0
        miss = 1.0 - share
        void_led = 1.0 if void >> led & 1 else math.pow(miss, float(led_cards))
        if void >> trump & 1:
            can_ruff = 0.0
            ruff_pick = 0.0
        else:
            can_ruff = 1.0 - math.pow(miss, float(trumps))
            ruff_pick = trumps / off_suit if off_suit else 0.0
        if suit == led:
            able = 0.0 if void >> led & 1 else 1.0 - math.pow(miss, float(higher))
            pick = (1.0 - void_led) * higher / led_cards if led_cards else 0.0
            if led != trump:
                able += void_led * can_ruff
                pick += void_led * ruff_pick
        else:
            able = void_led * can_ruff
            pick = void_led * ruff_pick
        chance *= 1.0 - (skill * able + (1.0 - skill) * pick)
    return chance


@_compiled
def _decide(hand, legal, played, shown_out, plays, ins, dogs, dealt, trick, trick_seats,
            n_trick, upcard, trump, me, n, leader, skill, weight, side_worth, need,
            survival_weight, keep_sure_margin, tie, sure):
    # ``Table.__init__``
    voids = np.int64(0)
    for seat in range(n):
        if ins >> seat & 1:
            voids |= np.int64(_nibble(shown_out, seat)) << (4 * seat)
    led, best = -1, -1
    on_trick = 0
    if n_trick:
        best = trick & 63
        led = best // 13
        for i in range(n_trick):
            card = trick >> (6 * i) & 63
            seat = trick_seats >> (3 * i) & 7
            on_trick |= 1 << seat
            played |= np.int64(1) << card
            if card // 13 != led and ins >> seat & 1:
                voids |= np.int64(1 << led) << (4 * seat)
            if i and ((card // 13 == best // 13 and card > best) or (
                    card // 13 == trump and trump != best // 13)):
                best = card
    unknown = _FULL & ~hand & ~played
    if upcard >= 0:
        unknown &= ~(np.int64(1) << upcard)
    total = _count(unknown)
    position = (me - leader) % n
    later = 0
    opponents = 0
    others_held = 0
    for seat in range(n):
        cards_held = _held(seat, ins, dogs, dealt, plays, on_trick)
        if seat == me or cards_held <= 0:
            continue
        opponents += 1
        others_held += cards_held
        if (seat - leader) % n <= position:
            continue  # played (or knocked) before us
        later |= 1 << seat
    held_share = others_held / total if total else 0.0
    # ``KnockoutHeuristic._play``
    base = 1.0 - held_share
    ruff_escape = math.pow(side_worth, float(opponents))
    choice, best_value = -1, -math.inf
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        win = _win_chance_of(card, unknown, trump, led, best, skill, n, later, voids, dogs, ins,
                             dealt, plays, on_trick)
        worth = _worth(card, unknown, trump, base, weight, ruff_escape)
        value = win - worth - (card % 13) * tie
        if need:
            miss_later = 1.0
            others = hand
            while others:
                other = lowest_bit(others)
                others &= others - 1
                if other != card:
                    miss_later *= 1.0 - _worth(other, unknown, trump, base, weight, ruff_escape)
            value += survival_weight * (1.0 - (1.0 - win) * miss_later)
        if worth >= sure and win > 0.0:
            value -= keep_sure_margin
        if value > best_value:
            choice, best_value = card, value
    return choice


_FULL = np.int64((1 << 52) - 1)


def _fold_packed(summary: tuple, record: Any, seats: tuple[int, ...]) -> tuple:
    """``knockout_heuristic._fold_trick`` with the seats' facts packed, 4 bits a seat:
    (cards played, suits each seat did not follow, cards each seat played)."""
    played, shown_out, plays = summary
    cards = record.cards
    led = cards[0] // 13
    for card, seat in zip(cards, seats, strict=True):
        plays += 1 << (4 * seat)
        played |= 1 << card
        if card // 13 != led:
            shown_out |= (1 << led) << (4 * seat)
    return played, shown_out, plays


_PACKED_TRICKS = TrickMemo(_fold_packed, (0, 0, 0))
"""The completed tricks' summary, packed, shared by every compiled player."""

_STATUS: dict[tuple[str, ...], tuple[int, int]] = {}
"""A view's ``status`` -> (the seats in, the dogs), a bit a seat; filled as met."""


def decide(player: Any, view: Any) -> int:
    """``player._play(view, Table(view, ...))``: the legal card with the best value, for a
    seat that is not a dog."""
    status = view.status
    found = _STATUS.get(status) if status.__class__ is tuple else None
    if found is None:
        found = (sum(1 << s for s, state in enumerate(status) if state == IN),
                 sum(1 << s for s, state in enumerate(status) if state == DOG))
        if status.__class__ is tuple:  # at most 3 ** 7 of them
            _STATUS[status] = found
    played, shown_out, plays = _PACKED_TRICKS(view.tricks, view.trick_players)
    trick = view.trick
    cards = seats = 0
    if trick:
        for i, (card, seat) in enumerate(zip(trick, view.trick_seats, strict=True)):
            cards |= card << (6 * i)
            seats |= seat << (3 * i)
    seat = view.seat
    return _decide(
        view.hand, view.legal, played, shown_out, plays, found[0], found[1], view.cards_dealt,
        cards, seats, len(trick), view.upcard, view.trump, seat, view.players, view.leader,
        player.opponent_skill, player.higher_card_weight, player.side_worth,
        view.round_tricks[seat] == 0, player.survival_weight, player.keep_sure_margin,
        RANK_TIE_BREAK, SURE,
    )
