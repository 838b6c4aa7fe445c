"""A German Whist deal played to its end in one compiled loop, every seat choosing
uniformly at random: the random baseline at compiled speed.

Random play is the baseline of every comparison and the roll-out of many searches, and
in the Python loop most of its time goes to what surrounds a decision (a view built, a
strategy called, a trick recorded as objects) rather than to the rules. A seat whose
strategy chooses as ``strategy.chooses_uniformly`` states (``strategies/random_play.py``)
needs none of that: it reads only the legal actions and its generator. ``play_uniformly``
plays such a deal here, the rules of ``german_whist.GermanWhistDeal`` written once more
over ints, each seat drawing from a compiled copy of its own ``random.Random``
(``whist_sim.twister``), and leaves the state exactly as the Python loop leaves it: the
same log, tricks, hands, counts and outcome. ``tests/test_uniform_play.py`` plays both
ways, deal by deal, over every variant; the Python loop stays the reference, and the
rules are read there.
"""

from __future__ import annotations

import numpy as np

from whist_sim.games.base import TrickRecord
from whist_sim.jit import cached_njit, count_bits, lowest_bit
from whist_sim.twister import FIRST_STATE, TWISTER_WORDS, next_double, seed_twister, twister_key

_STOCK = 26
_TRICKS = 26
_COUNTS = {"stage2": 0, "all": 1, "weighted": 2}

# The kernel's input: the deal's settings, each seat's twister key, the log's code bases,
# the hands and the stock; its output: the final state's numbers, the tricks and the log.
_DEALER, _OPEN, _TRUMP, _RACE, _COUNT, _KEYS, _BASES, _DEALT, _STOCK_AT = (
    0, 1, 2, 3, 4, 5, 11, 15, 17)
_GIVEN = _STOCK_AT + 26
_N_CODES, _TRICK_NO, _WON1, _WON2, _FACEUP_TAKEN, _DRAWS, _HANDS = 0, 1, 2, 4, 6, 8, 10
_NEXT_STOCK, _STAGE, _RACE_WINNER, _LEADER, _N_FACEUP, _FACEUP = 12, 13, 14, 15, 16, 17
_TRICK_ROWS = _FACEUP + _STOCK
_CODES = _TRICK_ROWS + 4 * _TRICKS
_MOST_CODES = 2 * 52
_RESULT = _CODES + _MOST_CODES


@cached_njit(allocates=False)
def _choose(twister, legal):  # pragma: no cover - compiled
    """What ``strategies/random_play.py`` chooses: the n-th lowest legal action, n drawn
    as ``int(rng.random() * count)``."""
    n = int(next_double(twister) * count_bits(legal))
    for _ in range(n):
        legal &= legal - 1
    return lowest_bit(legal)


@cached_njit(allocates=False)
def _units(out, seat, count):  # pragma: no cover - compiled
    """``GermanWhistDeal.units``: counted units of ``seat``."""
    if count == 0:
        return out[_WON2 + seat]
    if count == 1:
        return out[_WON1 + seat] + out[_WON2 + seat]
    return out[_WON1 + seat] + 2 * out[_WON2 + seat]


@cached_njit(allocates=False)
def _log(out, code):  # pragma: no cover - compiled
    out[_CODES + out[_N_CODES]] = code
    out[_N_CODES] += 1


@cached_njit(allocates=False)
def _take(given, out, winner, card, chosen):  # pragma: no cover - compiled
    """``GermanWhistDeal._take``: the winner takes ``card`` from the face-up row, the
    loser draws, and the row is refilled."""
    n = out[_N_FACEUP]
    at = 0
    while out[_FACEUP + at] != card:
        at += 1
    for i in range(at, n - 1):
        out[_FACEUP + i] = out[_FACEUP + i + 1]
    n -= 1
    out[_HANDS + winner] |= 1 << card
    out[_FACEUP_TAKEN + winner] |= 1 << card
    _log(out, given[_BASES + (1 if chosen else 2)] + 128 * winner + card)
    loser = 1 - winner
    if out[_NEXT_STOCK] < _STOCK:
        drawn = given[_STOCK_AT + out[_NEXT_STOCK]]
        out[_NEXT_STOCK] += 1
        out[_DRAWS + loser] |= 1 << drawn
    else:  # no face-down card left: the loser takes the face-up card turned earliest
        drawn = out[_FACEUP]
        for i in range(n - 1):
            out[_FACEUP + i] = out[_FACEUP + i + 1]
        n -= 1
        out[_FACEUP_TAKEN + loser] |= 1 << drawn
    out[_HANDS + loser] |= 1 << drawn
    _log(out, given[_BASES + 3] + 128 * loser + drawn)
    while n < given[_OPEN] and out[_NEXT_STOCK] < _STOCK:
        out[_FACEUP + n] = given[_STOCK_AT + out[_NEXT_STOCK]]
        out[_NEXT_STOCK] += 1
        n += 1
    out[_N_FACEUP] = n
    if out[_TRICK_NO] == 13:
        out[_STAGE] = 2


@cached_njit(allocates=False)
def _play(given, out, twisters, first):  # pragma: no cover - compiled
    """Play the deal ``given`` describes to its end into ``out`` (the layout above)."""
    for seat in range(2):
        key = _KEYS + 3 * seat
        seed_twister(twisters[seat], first, given[key], given[key + 1], given[key + 2])
    non_dealer = 1 - given[_DEALER]
    out[_HANDS] = given[_DEALT]
    out[_HANDS + 1] = given[_DEALT + 1]
    for i in range(_N_CODES, _HANDS):
        out[i] = 0
    k = given[_OPEN]
    for i in range(k):
        out[_FACEUP + i] = given[_STOCK_AT + i]
    out[_N_FACEUP] = k
    out[_NEXT_STOCK] = k
    out[_STAGE] = 1
    out[_RACE_WINNER] = -1
    out[_LEADER] = non_dealer
    trump, race_to, count = given[_TRUMP], given[_RACE], given[_COUNT]
    seat = non_dealer
    legal = out[_HANDS + seat]
    taking = False
    lead = -1
    while True:
        card = _choose(twisters[seat], legal)
        if taking:
            taking = False
            _take(given, out, seat, card, True)
            legal = out[_HANDS + seat]
            continue
        out[_HANDS + seat] &= ~(1 << card)
        _log(out, given[_BASES] + 128 * seat + card)
        if lead < 0:
            lead = card
            seat = 1 - seat
            hand = out[_HANDS + seat]
            follow = hand & (0x1FFF << (13 * (lead // 13)))
            legal = follow if follow else hand
            continue
        if card // 13 == lead // 13:
            winner = seat if card > lead else 1 - seat
        else:
            winner = seat if card // 13 == trump else 1 - seat
        out[_TRICK_NO] += 1
        row = _TRICK_ROWS + 4 * (out[_TRICK_NO] - 1)
        out[row] = out[_LEADER]
        out[row + 1] = lead
        out[row + 2] = card
        out[row + 3] = winner
        lead = -1
        won = _WON1 if out[_STAGE] == 1 else _WON2
        out[won + winner] += 1
        if race_to >= 0 and _units(out, winner, count) >= race_to:
            out[_RACE_WINNER] = winner
            return
        out[_LEADER] = winner
        seat = winner
        if out[_STAGE] == 2:
            if out[_TRICK_NO] == _TRICKS:
                return
        elif out[_N_FACEUP] > 1:
            taking = True
            legal = 0
            for i in range(out[_N_FACEUP]):
                legal |= 1 << out[_FACEUP + i]
            continue
        else:
            _take(given, out, winner, out[_FACEUP], False)
        legal = out[_HANDS + seat]


_new_tuple = tuple.__new__


def play_uniformly(state, seat_seeds: tuple[int, int]) -> None:
    """Play ``state``, a German Whist deal as dealt (``GermanWhistDeal._untouched``: its
    hands and stock are read, not its deck), to its end with both seats
    choosing uniformly at random, seat s drawing from ``random.Random(seat_seeds[s])``:
    the state is then what ``play.play_deal`` leaves with ``random`` in both seats."""
    from whist_sim.games.german_whist import _DRAWN, _PLAYED, _TAKEN

    variant = state.variant
    given = np.empty(_GIVEN, np.int64)
    given[:_KEYS] = (state.dealer, variant.open_stock, state.trump,
                     -1 if variant.race_to is None else variant.race_to, _COUNTS[variant.count])
    given[_KEYS:_BASES] = (*twister_key(seat_seeds[0]), *twister_key(seat_seeds[1]))
    given[_BASES:_DEALT] = (_PLAYED[0][0], _TAKEN[True][0][0], _TAKEN[False][0][0],
                            _DRAWN[0][0])
    given[_DEALT:_STOCK_AT] = state.hands
    given[_STOCK_AT:] = state.stock
    out = np.empty(_RESULT, np.int64)
    _play(given, out, np.empty((2, TWISTER_WORDS), np.int64), FIRST_STATE)
    numbers = out[:_CODES].tolist()
    tricks = numbers[_TRICK_ROWS:_CODES]
    state.codes = out[_CODES:_CODES + numbers[_N_CODES]].tolist()
    trick_no = state.trick_no = numbers[_TRICK_NO]
    state.tricks = tuple([_new_tuple(TrickRecord, (
        n + 1, tricks[4 * n], (tricks[4 * n + 1], tricks[4 * n + 2]), tricks[4 * n + 3]))
        for n in range(trick_no)])
    state.won1 = (numbers[_WON1], numbers[_WON1 + 1])
    state.won2 = (numbers[_WON2], numbers[_WON2 + 1])
    state.taken_faceup = (numbers[_FACEUP_TAKEN], numbers[_FACEUP_TAKEN + 1])
    state.drawn = [numbers[_DRAWS], numbers[_DRAWS + 1]]
    state.hands = [numbers[_HANDS], numbers[_HANDS + 1]]
    state.next_stock = numbers[_NEXT_STOCK]
    state.stage = numbers[_STAGE]
    state.race_winner = numbers[_RACE_WINNER]
    state.leader = numbers[_LEADER]
    state.faceup = tuple(numbers[_FACEUP:_FACEUP + numbers[_N_FACEUP]])
    state.trick = ()
    state._finish()
