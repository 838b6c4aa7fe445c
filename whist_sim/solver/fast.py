"""The search of ``search.py`` compiled with numba, with an explicit stack and a compact table.

``search.Search`` is the readable reference and tests/test_solver.py checks that both
give the same values. This copy keeps its algorithm (zero-window tests narrowed to the
exact value, bounds stored per trick start in relative ranks, one move per group of
equivalent cards, top-trump and quick-trick bounds, the same move ordering: leads the
fewest cards outrank first, the cheapest winner first when following) and adds what
only pays once the interpreter is gone:

- no recursion: the search walks an explicit stack of frames (one row per card played),
  so every compiled function can be cached on disk (numba 0.68 crashed loading a cached
  recursive function) and a new process loads the search in well under a second
  instead of compiling it;
- the table is one small array (``TABLE_BITS``: 2**15 rows of 32 bytes, 1 MB, a core's
  L2 cache on the development machine), direct-mapped: a row holds the relative-rank
  key (for two players the first hand's cards of each suit among the live ones; for
  more, the seat of every live card), a tag (the players, trump, sides and objective,
  and a generation that ``clear_table`` moves on) and the lower and upper bounds. A
  newer position replaces an older one, so nothing is ever wrong: a position is at
  worst searched again. Larger tables (up to 2**18 rows) searched the same number of
  positions, only more slowly;
- the table outlives a solve: what one solve learnt about a position serves every
  later solve with the same tag. Search strategies solve many close positions (each
  candidate card in each sampled world, then every card of stage 2): 20 German
  Whist hands of ``pimc`` against ``solver`` took a median of 1.25 s a hand instead
  of 1.75 s, at most 2.6 s instead of 4.5 s (benchmarks/search_speed.py, one run
  each on the same busy machine);
- stronger quick tricks: a top card of a side suit counts, when others hold trumps,
  for as many rounds as every other seat holding trumps must still follow the suit
  (``search.quick_bounds`` counts such suits only when nobody else holds a trump);
- all the zero-window tests of one solve run inside one compiled call, the first at
  the first guess, each later one a trick up or down from the last;
- bit tricks by LLVM intrinsics (popcount, leading and trailing zeros) and the small
  helpers inlined into the search loop;
- the search loop compiled without numba's runtime (``cached_njit(allocates=False)``):
  it keeps no reference counts on its arrays, which had cost 28% of its time.

Trying first the lead that decided a position in an earlier test (stored in the
table) was measured too and dropped: the ordering above already finds it, the count
of positions searched fell by 0.1 %.

The table is shared by the process: do not call ``solve_fast`` from several threads
at once.

``warm_up()`` compiles the search (or loads it from numba's disk cache) outside any
decision: a search strategy calls it when it is built (``search.params.solver_function``).
Compiled in its first decision instead, a fresh install's first solve (4-7 s, more on a
busy machine) passed a 5 s time limit and forfeited the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from whist_sim.jit import cached_njit as _jit
from whist_sim.jit import count_bits as _count
from whist_sim.jit import highest_bit as _high
from whist_sim.jit import lowest_bit as _low
from whist_sim.solver.inputs import check_position, check_target

_compiled = _jit()
_inlined = _jit(inline="always")
"""For the helpers of the search loop: numba inlines them, sparing a call with many arrays."""
_search_loop = _jit(allocates=False)
"""For the search loop, which only works in the arrays it is given: no reference counts."""

TABLE_BITS = 15
"""2**15 table rows of four int64 (1 MB): small enough to stay in a core's L2 cache."""

_SUIT = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.int64)
_BELOW = np.array([(0x1FFF << (13 * (c // 13))) & ((1 << c) - 1) for c in range(52)],
                  dtype=np.int64)
_SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
_RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)
_DEPTH = 54
"""Stack rows: one per card still to play (at most 52) and the root."""

# Fields of a stack frame (one row of ``frames`` per depth).
_LEADER, _POS, _LIVE, _LED, _BEST_CARD, _BEST_SEAT, _TARGET = 0, 1, 2, 3, 4, 5, 6
_SEAT, _HAND, _MAXIMISE, _COUNT, _INDEX, _SLOT, _LO, _HI, _KEY0, _KEY1 = range(7, 17)
_FIELDS = 17

_MIX0 = 0x2545F4914F6CDD1D
_MIX1 = 0x1B873593B3C1A7D5
"""Odd multipliers of the table hash (any odd 63-bit constants spread the keys)."""


@_compiled
def _beats(card: int, best: int, trump: int) -> bool:
    suit = _SUIT_OF[card]
    if suit == _SUIT_OF[best]:
        return card > best
    return suit == trump


@_inlined
def _reps(cards: int, live: int, out: np.ndarray) -> int:
    """``search.representatives`` into ``out``; returns how many."""
    n = 0
    rest = cards
    while rest:
        card = _low(rest)
        rest &= rest - 1
        below = live & _BELOW[card]
        if below == 0 or not (cards >> _high(below)) & 1:
            out[n] = card
            n += 1
    return n


@_inlined
def _sort(cards: np.ndarray, scores: np.ndarray, n: int) -> None:
    """Insertion sort of the first ``n`` cards by score (stable; n is at most 13)."""
    for i in range(1, n):
        card, score = cards[i], scores[i]
        j = i - 1
        while j >= 0 and scores[j] > score:
            cards[j + 1], scores[j + 1] = cards[j], scores[j]
            j -= 1
        cards[j + 1], scores[j + 1] = card, score


@_inlined
def _bounds(hands, players, leader, n, trump, sides, want_win):
    """``Search.quick_bounds``, with side-suit winners counted against ruffers too.

    A top card of a side suit (above every other seat's card of it) wins a round for
    as long as every other seat holding trumps must still follow that suit, so the
    leader cashes ``min(tops, shortest such holding)`` of them, suit after suit,
    before its top trumps (which win whenever they are played). Between two players
    the trump tricks each is sure of are counted as in ``Search.quick_bounds``.
    """
    lo, hi = 0, n
    tmask = _SUIT[trump] if trump >= 0 else 0
    if tmask:
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
            theirs = 0
            if players == 2:  # lower trumps too: see Search.quick_bounds
                mine = _count(hand & tmask)
                theirs = _count(hands[1 - seat] & tmask)
                count += max(0, mine - count - theirs)
                theirs = max(0, theirs - mine)
            if sides[seat] == 0:
                lo, hi = count, n - theirs
            else:
                lo, hi = theirs, n - count
    if not want_win:
        return lo, hi
    others = 0
    for i in range(players):
        if i != leader:
            others |= hands[i]
    hand = hands[leader]
    quick = 0
    for suit in range(4):
        mine = hand & _SUIT[suit]
        if mine == 0:
            continue
        theirs = others & _SUIT[suit]
        if theirs:
            mine &= ~((1 << (_high(theirs) + 1)) - 1)
        tops = _count(mine)
        if tops and tmask and suit != trump and others & tmask:
            for i in range(players):
                if i != leader and hands[i] & tmask:
                    tops = min(tops, _count(hands[i] & _SUIT[suit]))
        quick += tops
    if sides[leader] == 0:
        return max(lo, quick), hi
    return lo, min(hi, n - quick)


def _pext_table(bits: int) -> np.ndarray:
    """``table[live << bits | hand]``: the bits of ``hand`` packed by their rank in ``live``."""
    table = np.zeros(1 << (2 * bits), dtype=np.int64)
    for live in range(1 << bits):
        for hand in range(1 << bits):
            if hand & ~live:
                continue
            out, rank = 0, 0
            for bit in range(bits):
                if live >> bit & 1:
                    out |= (hand >> bit & 1) << rank
                    rank += 1
            table[live << bits | hand] = out
    return table


_PEXT_LOW = _pext_table(7)
_PEXT_HIGH = _pext_table(6)
"""Relative ranks of a suit's low 7 and high 6 cards by lookup (160 KB, built at import)."""


@_inlined
def _key(hands, players, live):
    """The hands in relative ranks as two ints, from which the position can be rebuilt.

    Two players: for each suit, its live cards count (as a leading 1 above them) and
    which of them the first hand holds, 14 bits a suit, all in the first int. More
    players: suit by suit, the seat of each live card (2 bits), two suits to an int.
    Two positions with the same key play alike.
    """
    if players == 2:
        hand = hands[0]
        k0 = 0
        for suit in range(4):
            suit_live = (live >> (13 * suit)) & 0x1FFF
            suit_hand = (hand >> (13 * suit)) & 0x1FFF
            low = suit_live & 127
            rel = (_PEXT_LOW[(low << 7) | (suit_hand & 127)]
                   | (_PEXT_HIGH[((suit_live >> 7) << 6) | (suit_hand >> 7)] << _count(low)))
            k0 = (k0 << 14) | (1 << _count(suit_live)) | rel
        return k0, 0
    k0 = 0
    k1 = 0
    for suit in range(4):
        code = 1
        rest = live & _SUIT[suit]
        while rest:
            low = rest & -rest
            rest ^= low
            seat = 0
            while not hands[seat] & low:
                seat += 1
            code = (code << 2) | seat
        if suit < 2:
            k0 = (k0 << 27) | code
        else:
            k1 = (k1 << 27) | code
    return k0, k1


@_inlined
def _last_trick(hands, players, leader, trump):
    """The seat that wins the trick when every hand holds one card."""
    best_seat = leader
    best = _high(hands[leader])
    for pos in range(1, players):
        seat = leader + pos
        if seat >= players:
            seat -= players
        card = _high(hands[seat])
        if _beats(card, best, trump):
            best, best_seat = card, seat
    return best_seat


@_inlined
def _moves(frames, d, hands, players, trump, sides, want_win, moves, scores):
    """Fill ``moves[d]`` for frame ``d`` in the order of ``Search.move``; returns how many."""
    leader = frames[d, _LEADER]
    pos = frames[d, _POS]
    live = frames[d, _LIVE]
    seat = leader + pos
    if seat >= players:
        seat -= players
    hand = hands[seat]
    out = moves[d]
    if pos == 0:
        count = _reps(hand, live, out)
        others = live & ~hand
        for i in range(count):
            card = out[i]
            if want_win:
                suit = _SUIT[_SUIT_OF[card]]
                scores[i] = ((_count(others & suit & ~_BELOW[card]) * 2
                              + (1 if _SUIT_OF[card] == trump else 0)) * 16
                             + _count(others & suit))
            else:
                scores[i] = _RANK_OF[card]
    else:
        legal = hand & _SUIT[frames[d, _LED]]
        if legal == 0:
            legal = hand
        count = _reps(legal, live, out)
        best_card = frames[d, _BEST_CARD]
        partner_wins = sides[frames[d, _BEST_SEAT]] == sides[seat]
        for i in range(count):
            card = out[i]
            wins = _beats(card, best_card, trump)
            if want_win:
                if partner_wins:
                    scores[i] = _RANK_OF[card]
                elif wins:
                    scores[i] = card
                else:
                    scores[i] = 100 + _RANK_OF[card]
            elif wins:
                scores[i] = 100 - card
            else:
                scores[i] = -(_RANK_OF[card]) - 20
    _sort(out, scores, count)
    return count


@_search_loop
def _test(hands, players, trump, sides, max_side, want_win, table, tag, frames, moves,
          scores):
    """Does side 0 take ``frames[0, _TARGET]`` tricks or more? (``Search.move``.)

    Frame 0 holds the root. Each frame is entered once (a trick start may be decided by
    the table or its bounds without a move), then gets back one child result per move
    tried until a move gives its player what it wants (a cut-off) or none does.
    """
    mask = (1 << TABLE_BITS) - 1
    nodes = 0
    d = 0
    while True:
        # -- enter frame d: decide it at once, or set up its moves and descend ------
        result = -1
        pos = frames[d, _POS]
        if pos == 0:
            leader = frames[d, _LEADER]
            target = frames[d, _TARGET]
            n = _count(hands[leader])
            if target <= 0:
                result = 1
            elif target > n:
                result = 0
            elif n == 1:
                result = 1 if sides[_last_trick(hands, players, leader, trump)] == 0 else 0
            else:
                live = 0
                for i in range(players):
                    live |= hands[i]
                k0, k1 = _key(hands, players, live)
                k1 |= leader << 56
                slot = ((k0 * _MIX0 + k1 * _MIX1) >> (64 - TABLE_BITS)) & mask  # high bits mix all
                if table[slot, 0] == k0 and table[slot, 1] == k1 and table[slot, 2] == tag:
                    info = table[slot, 3]
                    lo, hi = info & 255, info >> 8
                else:
                    lo, hi = _bounds(hands, players, leader, n, trump, sides, want_win)
                if lo >= target:
                    result = 1
                elif hi < target:
                    result = 0
                frames[d, _LIVE] = live
                frames[d, _SLOT] = slot
                frames[d, _LO] = lo
                frames[d, _HI] = hi
                frames[d, _KEY0] = k0
                frames[d, _KEY1] = k1
        if result < 0:
            nodes += 1
            seat = frames[d, _LEADER] + pos
            if seat >= players:
                seat -= players
            frames[d, _SEAT] = seat
            frames[d, _HAND] = hands[seat]
            frames[d, _MAXIMISE] = 1 if sides[seat] == max_side else 0
            frames[d, _COUNT] = _moves(frames, d, hands, players, trump, sides, want_win,
                                       moves, scores)
            frames[d, _INDEX] = 0
            _descend(frames, d, hands, players, trump, sides, moves)
            d += 1
            continue
        # -- give the result back up the stack until a frame has a move to try -----
        while d > 0:
            d -= 1
            hands[frames[d, _SEAT]] = frames[d, _HAND]
            maximise = frames[d, _MAXIMISE]
            index = frames[d, _INDEX]
            if result != maximise:
                index += 1
                if index < frames[d, _COUNT]:
                    frames[d, _INDEX] = index
                    _descend(frames, d, hands, players, trump, sides, moves)
                    d += 1
                    break
                result = 1 - maximise
            if frames[d, _POS] == 0:
                _store(frames, d, table, tag, result)
        else:
            return result == 1, nodes


@_inlined
def _descend(frames, d, hands, players, trump, sides, moves):
    """Frame ``d`` plays ``moves[d, index]``; frame ``d + 1`` gets the position after it."""
    card = moves[d, frames[d, _INDEX]]
    seat = frames[d, _SEAT]
    hands[seat] = frames[d, _HAND] ^ (1 << card)
    c = d + 1
    pos = frames[d, _POS] + 1
    if pos == 1:
        led, best_card, best_seat = _SUIT_OF[card], card, seat
    else:
        led, best_card, best_seat = frames[d, _LED], frames[d, _BEST_CARD], frames[d, _BEST_SEAT]
        if _beats(card, best_card, trump):
            best_card, best_seat = card, seat
    target = frames[d, _TARGET]
    if pos == players:  # the trick is complete: its winner leads the next
        frames[c, _LEADER] = best_seat
        frames[c, _POS] = 0
        frames[c, _TARGET] = target - (1 if sides[best_seat] == 0 else 0)
    else:
        frames[c, _LEADER] = frames[d, _LEADER]
        frames[c, _POS] = pos
        frames[c, _TARGET] = target
        frames[c, _LIVE] = frames[d, _LIVE]
        frames[c, _LED] = led
        frames[c, _BEST_CARD] = best_card
        frames[c, _BEST_SEAT] = best_seat


@_inlined
def _store(frames, d, table, tag, result):
    """Write what the test of trick start ``d`` learnt: its bounds."""
    if frames[d, _SLOT] < 0:
        return
    lo, hi = frames[d, _LO], frames[d, _HI]
    if result:
        lo = frames[d, _TARGET]
    else:
        hi = frames[d, _TARGET] - 1
    slot = frames[d, _SLOT]
    table[slot, 0] = frames[d, _KEY0]
    table[slot, 1] = frames[d, _KEY1]
    table[slot, 2] = tag
    table[slot, 3] = lo | (hi << 8)


@_inlined
def _set_root(frames, leader, pos, live, led, best_card, best_seat):
    """Frame 0 holds the position: who led, how many have played, the trick so far."""
    frames[0, _LEADER] = leader
    frames[0, _POS] = pos
    frames[0, _LIVE] = live
    frames[0, _LED] = led
    frames[0, _BEST_CARD] = best_card
    frames[0, _BEST_SEAT] = best_seat


@_compiled
def _first_guess(hands, players, leader, pos, live, led, best_card, best_seat, trump, sides,
                 want_win, frames, moves, scores):
    """``Search.first_guess``: side 0's tricks when every seat plays its first move.

    Uses frame 0 and ``moves[0]`` as scratch and leaves ``hands`` as it found them.
    """
    saved = hands.copy()
    won = 0
    while True:
        seat = leader + pos
        if seat >= players:
            seat -= players
        if hands[seat] == 0:
            break
        _set_root(frames, leader, pos, live, led, best_card, best_seat)
        _moves(frames, 0, hands, players, trump, sides, want_win, moves, scores)
        card = moves[0, 0]
        hands[seat] ^= 1 << card
        if pos == 0:
            led, best_card, best_seat = _SUIT_OF[card], card, seat
        elif _beats(card, best_card, trump):
            best_card, best_seat = card, seat
        pos += 1
        if pos == players:
            if sides[best_seat] == 0:
                won += 1
            leader, pos, led = best_seat, 0, -1
            live = 0
            for i in range(players):
                live |= hands[i]
    for i in range(players):
        hands[i] = saved[i]
    return won


@_compiled
def _value(hands, players, leader, pos, live, led, best_card, best_seat, trump, sides,
           want_win, table, tag):
    """Exact tricks of side 0 from the root position, by zero-window tests.

    As ``Search.exact``: the first test asks for the first guess (``_first_guess``),
    each later one a trick up after a success or down after a failure, so the last two
    tests straddle the value and the table makes the steps between them cheap.
    """
    frames = np.empty((_DEPTH, _FIELDS), dtype=np.int64)
    moves = np.empty((_DEPTH, 13), dtype=np.int64)
    scores = np.empty(13, dtype=np.int64)
    lo, hi = _root_bounds(hands, players, leader, pos, trump, sides, want_win)
    nodes = 0
    if lo == hi:
        return lo, nodes
    guess = _first_guess(hands, players, leader, pos, live, led, best_card, best_seat, trump,
                         sides, want_win, frames, moves, scores)
    target = min(max(guess, lo + 1), hi)
    while lo < hi:
        found, searched = _root_test(hands, players, leader, pos, live, led, best_card,
                                     best_seat, trump, sides, want_win, table, tag, target,
                                     frames, moves, scores)
        nodes += searched
        if found:
            lo = target
            target += 1
        else:
            hi = target - 1
            target -= 1
    return lo, nodes


@_compiled
def _at_least(hands, players, leader, pos, live, led, best_card, best_seat, trump, sides,
              want_win, table, tag, target):
    """One zero-window test from the root: does side 0 take ``target`` or more tricks?"""
    lo, hi = _root_bounds(hands, players, leader, pos, trump, sides, want_win)
    if lo >= target:
        return True, 0
    if hi < target:
        return False, 0
    return _root_test(hands, players, leader, pos, live, led, best_card, best_seat, trump,
                      sides, want_win, table, tag, target,
                      np.empty((_DEPTH, _FIELDS), dtype=np.int64),
                      np.empty((_DEPTH, 13), dtype=np.int64), np.empty(13, dtype=np.int64))


@_inlined
def _root_bounds(hands, players, leader, pos, trump, sides, want_win):
    """Bounds on side 0's tricks from the root: the quick ones at a trick's start."""
    lo, hi = 0, _count(hands[(leader + pos) % players])
    if pos == 0 and hi > 1:
        lo, hi = _bounds(hands, players, leader, hi, trump, sides, want_win)
    return lo, hi


@_inlined
def _root_test(hands, players, leader, pos, live, led, best_card, best_seat, trump, sides,
               want_win, table, tag, target, frames, moves, scores):
    """One zero-window test at ``target`` from the root, in the given work arrays."""
    _set_root(frames, leader, pos, live, led, best_card, best_seat)
    frames[0, _TARGET] = target
    frames[0, _SLOT] = -1
    return _test(hands, players, trump, sides, 0 if want_win else 1, want_win, table, tag,
                 frames, moves, scores)


class _Table:
    """The process's table and its generation (rows of older generations are empty)."""

    rows = np.zeros((1 << TABLE_BITS, 4), dtype=np.int64)
    generation = 1
    nodes = 0
    """Positions searched (with moves tried) by the last solve, for benchmarks."""


def clear_table() -> None:
    """Forget every position solved so far (at once: rows of older generations are stale).

    Values never depend on the table; only the time does. Benchmarks clear it to time
    each solve from nothing.
    """
    _Table.generation += 1


def _tag(players: int, trump: int, sides: Sequence[int], objective: str) -> int:
    """What a stored bound depends on beyond the position: the setting and the generation."""
    side_bits = sum(side << seat for seat, side in enumerate(sides))
    return (_Table.generation << 12 | side_bits << 7 | (objective == "most") << 6
            | (trump + 1) << 3 | players)


def _root(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
          trick: Sequence[int]) -> tuple:
    """The compiled search's root arguments: hand and side arrays, and the trick so far."""
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
    side_array = np.zeros(4, dtype=np.int64)
    side_array[:players] = sides
    return (hand_array, players, leader, len(trick), live, led, best_card, best_seat, trump,
            side_array)


_WARM_POSITION = ([1 << 12, 1 << 11], 0, 0, [0, 1])
"""A one-card ending (ace against king of spades, spades trump): solving it runs each
kernel once. Every solve passes the kernels the same argument types (int64 arrays, ints,
a bool), whatever the game, so one call per kernel compiles all a process will need."""
WARM_UP_ATTEMPTS = 3
"""Calls per kernel before ``warm_up`` gives up (see there)."""


def warm_up() -> None:
    """Compile ``solve_fast``'s and ``takes_at_least_fast``'s kernels now, or load them
    from numba's disk cache: about half a second from the cache, 4-7 s without one, and
    nothing once done in the process.

    A numba error while it writes the cache (``RuntimeError``, e.g. "no compiled object
    yet for <Library '_value'>", numba's words for a function it compiled but could not
    serialise) comes after numba has kept the compiled function, so the next call runs:
    each kernel is tried up to ``WARM_UP_ATTEMPTS`` times, and if it still fails the
    error says, in one line, which cache files to delete.
    """
    hands, leader, trump, sides = _WARM_POSITION
    calls = (("solve_fast", lambda: fast_value(hands, leader, trump, sides, "most")),
             ("takes_at_least_fast",
              lambda: fast_at_least(hands, leader, trump, sides, "most", (), 1)))
    for name, call in calls:
        for attempt in range(1, WARM_UP_ATTEMPTS + 1):
            try:
                call()
                break
            except RuntimeError as exc:
                if attempt == WARM_UP_ATTEMPTS:
                    folder = Path(__file__).parent / "__pycache__"
                    raise RuntimeError(
                        f"the compiled solver could not be built ({name}: {exc}); delete"
                        f" numba's cache of it ({folder}/fast.*.nbi and fast.*.nbc) and"
                        " try again"
                    ) from None


def fast_value(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
               objective: str, trick: Sequence[int] = ()) -> int:
    """Tricks of side 0 as ``Search.value``; the position must be checked beforehand."""
    value, _Table.nodes = _value(*_root(hands, leader, trump, sides, trick),
                                 objective == "most", _Table.rows,
                                 _tag(len(hands), trump, sides, objective))
    return int(value)


def fast_at_least(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
                  objective: str, trick: Sequence[int], target: int) -> bool:
    """``search.takes_at_least`` compiled; the position must be checked beforehand."""
    found, _Table.nodes = _at_least(*_root(hands, leader, trump, sides, trick),
                                    objective == "most", _Table.rows,
                                    _tag(len(hands), trump, sides, objective), target)
    return bool(found)


def takes_at_least_fast(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
                        objective: str, trick: Sequence[int], target: int) -> bool:
    """``takes_at_least`` compiled: the same arguments, checks and result."""
    check_position(hands, leader, trump, sides, objective, trick)
    check_target(target)
    return fast_at_least(hands, leader, trump, sides, objective, trick, target)


def solve_fast(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
               objective: str = "most", trick: Sequence[int] = ()) -> int:
    """``solve`` compiled: the same arguments, checks and result.

    The first process after an install or an edit of this file compiles the search
    (4-7 s) and caches it on disk; later processes load it in about half a second.
    """
    check_position(hands, leader, trump, sides, objective, trick)
    return fast_value(hands, leader, trump, sides, objective, trick)
