"""The search of ``search.py`` compiled with numba: same algorithm, arrays instead of dicts.

``search.Search`` is the readable reference; this module follows it step by step
(zero-window tests, bounds stored per trick start in relative ranks, one move per
group of equivalent cards, top-trump and quick-trick bounds, the same move
ordering) and tests/test_solver.py checks that both agree. Differences forced by
numba: the table is a fixed-size array, direct-mapped, a newer entry replacing an
older one (so nothing is ever wrong, a position is at worst searched again), and
it is cleared between solves by a generation stamp rather than reallocated.

The recursive ``_search`` is compiled in every process (about 25 s on first use): with
numba 0.68 a cached recursive function crashed the next process that loaded it, so
only the small helpers use ``cache=True``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from whist_sim.solver.inputs import check_position

TABLE_BITS = 18
"""2**18 table entries (about 12 MB), allocated once per process."""

_SUIT = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.int64)
_BELOW = np.array([(0x1FFF << (13 * (c // 13))) & ((1 << c) - 1) for c in range(52)],
                  dtype=np.int64)


@njit(cache=True)
def _high(x: int) -> int:
    """Index of the highest set bit of a non-zero mask."""
    n = 0
    if x >> 32:
        x >>= 32
        n += 32
    if x >> 16:
        x >>= 16
        n += 16
    if x >> 8:
        x >>= 8
        n += 8
    if x >> 4:
        x >>= 4
        n += 4
    if x >> 2:
        x >>= 2
        n += 2
    if x >> 1:
        n += 1
    return n


@njit(cache=True)
def _count(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _beats(card: int, best: int, trump: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


@njit(cache=True)
def _reps(cards: int, live: int, out: np.ndarray) -> int:
    """``search.representatives`` into ``out``; returns how many."""
    n = 0
    rest = cards
    while rest:
        low = rest & -rest
        card = _high(low)
        rest ^= low
        below = live & _BELOW[card]
        if below == 0 or not (cards >> _high(below)) & 1:
            out[n] = card
            n += 1
    return n


@njit(cache=True)
def _sort(cards: np.ndarray, scores: np.ndarray, n: int) -> None:
    """Insertion sort of the first ``n`` cards by score (stable)."""
    for i in range(1, n):
        card, score = cards[i], scores[i]
        j = i - 1
        while j >= 0 and scores[j] > score:
            cards[j + 1], scores[j + 1] = cards[j], scores[j]
            j -= 1
        cards[j + 1], scores[j + 1] = card, score


@njit(cache=True)
def _bounds(hands, players, leader, n, trump, sides, want_win):
    """``Search.quick_bounds``."""
    lo, hi = 0, n
    if trump >= 0:
        tmask = _SUIT[trump]
        trumps = 0
        for i in range(players):
            trumps |= hands[i] & tmask
        if trumps:
            top = _high(trumps)
            seat = 0
            for i in range(players):
                if (hands[i] >> top) & 1:
                    seat = i
            hand = hands[seat]
            count = 0
            while trumps and (hand >> _high(trumps)) & 1:
                count += 1
                trumps ^= 1 << _high(trumps)
            if sides[seat] == 0:
                lo = count
            else:
                hi = n - count
    if not want_win:
        return lo, hi
    others = 0
    for i in range(players):
        if i != leader:
            others |= hands[i]
    hand = hands[leader]
    ruffs = others & _SUIT[trump] if trump >= 0 else 0
    quick = 0
    for suit in range(4):
        mine = hand & _SUIT[suit]
        if mine == 0 or (ruffs and suit != trump):
            continue
        theirs = others & _SUIT[suit]
        if theirs:
            mine &= ~((1 << (_high(theirs) + 1)) - 1)
        quick += _count(mine)
    if sides[leader] == 0:
        return max(lo, quick), hi
    return lo, min(hi, n - quick)


@njit(cache=True)
def _relative(hand: int, live: int) -> int:
    """``hand`` with each card renumbered by its rank among the live cards of its suit."""
    out = 0
    for suit in range(4):
        rest = live & _SUIT[suit]
        bit = 1 << (13 * suit)
        while rest:
            low = rest & -rest
            if hand & low:
                out |= bit
            bit <<= 1
            rest ^= low
    return out


@njit
def _search(hands, players, leader, pos, live, led, best_card, best_seat, target,
            trump, sides, max_side, want_win, keys, lows, highs, stamps, stamp, buffers, depth):
    """``Search.move`` and, at ``pos == 0`` with no card led, ``Search.at_least``.

    ``buffers`` rows ``2 * depth`` and ``2 * depth + 1`` hold this node's moves and
    their order scores (no allocation per node).
    """
    if pos == players:
        won = 1 if sides[best_seat] == 0 else 0
        return _search(hands, players, best_seat, 0, 0, -1, -1, -1, target - won,
                       trump, sides, max_side, want_win, keys, lows, highs, stamps, stamp,
                       buffers, depth)
    slot = -1
    lo, hi = 0, 0
    if pos == 0:
        if target <= 0:
            return True
        n = _count(hands[leader])
        if target > n:
            return False
        live = 0
        for i in range(players):
            live |= hands[i]
        key = buffers[2 * depth]  # free until the moves are generated
        key[4] = leader
        h = np.uint64(leader + 1)
        for i in range(players):
            key[i] = _relative(hands[i], live)
            h = (h ^ np.uint64(key[i])) * np.uint64(0x9E3779B97F4A7C15)
        slot = np.int64(h >> np.uint64(64 - TABLE_BITS))
        found = stamps[slot] == stamp and keys[slot, 4] == leader
        if found:
            for i in range(players):
                if keys[slot, i] != key[i]:
                    found = False
        if found:
            lo, hi = lows[slot], highs[slot]
        else:
            lo, hi = _bounds(hands, players, leader, n, trump, sides, want_win)
        if lo >= target or hi < target:
            for i in range(5):
                keys[slot, i] = key[i]
            stamps[slot] = stamp
            lows[slot], highs[slot] = lo, hi
            return lo >= target
    seat = (leader + pos) % players
    hand = hands[seat]
    maximise = sides[seat] == max_side
    moves = buffers[2 * depth]
    scores = buffers[2 * depth + 1]
    if pos == 0:
        count = _reps(hand, live, moves)
        others = live & ~hand
        for i in range(count):
            card = moves[i]
            if want_win:
                suit = _SUIT[card // 13]
                scores[i] = ((_count(others & suit & ~_BELOW[card]) * 2
                              + (1 if card // 13 == trump else 0)) * 16
                             + _count(others & suit))
            else:
                scores[i] = card % 13
    else:
        legal = hand & _SUIT[led]
        if legal == 0:
            legal = hand
        count = _reps(legal, live, moves)
        partner_wins = sides[best_seat] == sides[seat]
        for i in range(count):
            card = moves[i]
            wins = _beats(card, best_card, trump)
            if want_win:
                if partner_wins:
                    scores[i] = card % 13
                elif wins:
                    scores[i] = card
                else:
                    scores[i] = 100 + card % 13
            elif wins:
                scores[i] = 100 - card
            else:
                scores[i] = -(card % 13) - 20
    _sort(moves, scores, count)
    result = not maximise
    for i in range(count):
        card = moves[i]
        hands[seat] = hand ^ (1 << card)
        if pos == 0:
            r = _search(hands, players, leader, 1, live, card // 13, card, seat, target,
                        trump, sides, max_side, want_win, keys, lows, highs, stamps, stamp,
                        buffers, depth + 1)
        elif _beats(card, best_card, trump):
            r = _search(hands, players, leader, pos + 1, live, led, card, seat, target,
                        trump, sides, max_side, want_win, keys, lows, highs, stamps, stamp,
                        buffers, depth + 1)
        else:
            r = _search(hands, players, leader, pos + 1, live, led, best_card, best_seat,
                        target, trump, sides, max_side, want_win, keys, lows, highs,
                        stamps, stamp, buffers, depth + 1)
        hands[seat] = hand
        if r == maximise:
            result = r
            break
    if slot >= 0 and pos == 0:
        if result:
            lo = target
        else:
            hi = target - 1
        # written after the search: a deeper position may have taken the slot meanwhile
        for i in range(players):
            keys[slot, i] = _relative(hands[i], live)
        keys[slot, 4] = leader
        stamps[slot] = stamp
        lows[slot], highs[slot] = lo, hi
    return result


class _Table:
    """The process's table arrays and the current generation stamp."""

    keys = np.zeros((1 << TABLE_BITS, 5), dtype=np.int64)
    lows = np.zeros(1 << TABLE_BITS, dtype=np.int64)
    highs = np.zeros(1 << TABLE_BITS, dtype=np.int64)
    stamps = np.zeros(1 << TABLE_BITS, dtype=np.int64)
    stamp = 0


def fast_value(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
               objective: str, trick: Sequence[int] = ()) -> int:
    """Tricks of side 0 as ``Search.value``; the position must be checked beforehand."""
    players = len(hands)
    hand_array = np.zeros(4, dtype=np.int64)
    live = 0
    for i, hand in enumerate(hands):
        hand_array[i] = hand
        live |= hand
    led, best_card, best_seat = -1, -1, -1
    for i, card in enumerate(trick):
        live |= 1 << card
        if i == 0 or (card // 13 == best_card // 13 and card > best_card) or (
            card // 13 == trump and best_card // 13 != trump
        ):
            best_card, best_seat = card, (leader + i) % players
        led = trick[0] // 13
    side_array = np.array(list(sides), dtype=np.int64)
    max_side = 0 if objective == "most" else 1
    want_win = objective == "most"
    table = _Table
    table.stamp += 1
    buffers = np.zeros((2 * 53, 13), dtype=np.int64)
    lo, hi = 0, hands[(leader + len(trick)) % players].bit_count()
    while lo < hi:
        target = (lo + hi + 1) // 2
        if _search(hand_array, players, leader, len(trick), live, led, best_card, best_seat,
                   target, trump, side_array, max_side, want_win, table.keys, table.lows,
                   table.highs, table.stamps, table.stamp, buffers, 0):
            lo = target
        else:
            hi = target - 1
    return lo


def solve_fast(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
               objective: str = "most", trick: Sequence[int] = ()) -> int:
    """``solve`` compiled: the same arguments, checks and result.

    The first call in a process compiles the search (about 25 s); the table is shared
    by the process, so do not call it from several threads at once.
    """
    check_position(hands, leader, trump, sides, objective, trick)
    return fast_value(hands, leader, trump, sides, objective, trick)
