"""The Knock-out heuristic's card scoring, compiled with numba: the same decisions.

``KnockoutHeuristic._play`` (strategies/knockout_heuristic.py) is the readable
original and stays the reference; with ``compiled=True`` (its default) it hands the
scoring of its legal cards to ``play_choice`` here: ``Table.win_chance`` for each
card, ``worth`` for each card held, the survival term and the sure-trick margin, term
by term in the same order, so every value is the same float and every tie falls the
same way (the powers go through ``math.pow``, the C library's ``pow`` that Python's
``float ** int`` and ``float ** float`` call). The ``Table`` itself is still built in
Python.

tests/test_knockout_heuristic_compiled.py plays games with both paths and checks them
decision by decision; the outcome hash (tests/test_outcome_hash.py) covers the
compiled default. Importing this module imports numba (about a second); the heuristic
imports it on its first decision that needs it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from whist_sim.cards import SUIT_MASKS
from whist_sim.jit import cached_njit, lowest_bit
from whist_sim.jit import count_bits as _count

_compiled = cached_njit(allocates=False)
_SUIT = np.array(SUIT_MASKS, dtype=np.int64)
_ABOVE = np.array([SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52)], dtype=np.int64)


@_compiled
def _win_chance(card, unknown, trump, led, best, skill, later, n_later):
    """``Table.win_chance``: chance ``card`` played now wins the trick. ``later`` holds a
    row (share, voids, is a dog) per player still to play."""
    suit = card // 13
    if led < 0:
        led = suit
    elif suit == best // 13:
        if card < best:
            return 0.0
    elif suit != trump:
        return 0.0
    higher = _count(unknown & _ABOVE[card])
    led_cards = _count(unknown & _SUIT[led])
    trumps = higher if suit == trump else _count(unknown & _SUIT[trump])
    total = _count(unknown)
    if total == 0:
        total = 1
    off_suit = total - led_cards
    chance = 1.0
    for i in range(n_later):
        share = later[i, 0]
        void = np.int64(later[i, 1])
        if later[i, 2] != 0.0:  # a dog: one card, played anywhere
            chance *= 1.0 - (higher + (trumps if suit != trump else 0)) / total
            continue
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
def _worth(card, unknown, trump, base, weight, ruff_escape):
    """``KnockoutHeuristic.worth``, its constant parts (``base``, ``ruff_escape``) given."""
    chance = math.pow(base, _count(unknown & _ABOVE[card]) * weight)
    return chance if card // 13 == trump else chance * ruff_escape


@_compiled
def _play(hand, legal, unknown, trump, led, best, skill, later, n_later, base, weight,
          ruff_escape, need, survival_weight, keep_sure_margin, tie, sure):
    choice, best_value = -1, -math.inf
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        win = _win_chance(card, unknown, trump, led, best, skill, later, n_later)
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


_NO_LATER = np.zeros((1, 3), dtype=np.float64)


def play_choice(player: Any, view: Any, table: Any, tie: float, sure: float) -> int:
    """``player._play(view, table)``: the legal card with the best value."""
    later = table.later
    rows = np.array(later, dtype=np.float64) if later else _NO_LATER
    return _play(
        view.hand, view.legal, table.unknown, table.trump, table.led, table.best, table.skill,
        rows, len(later), 1.0 - table.held_share, player.higher_card_weight,
        player.side_worth ** table.opponents, view.round_tricks[view.seat] == 0,
        player.survival_weight, player.keep_sure_margin, tie, sure,
    )
