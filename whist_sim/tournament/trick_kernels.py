"""Compiled readings of a task's log: its tricks, and German Whist's trick facts.

``recording._log_tricks`` and ``recording.german_trick_facts`` read every completed
trick of a task off the log in NumPy, whole-array operation after whole-array operation:
some forty passes over the task's rows (a German hand has about 104), which cost about
as much as a third of playing a random hand. These kernels make one pass each, hand by
hand and row by row, as the rules read: a trick is ``size`` consecutive plays, its
leader the first card's seat, its winner the highest trump or else the highest card of
the suit led; a German Whist follower could win when its hand as it followed held a
higher card of the suit led or a trump (as ``GermanWhistDeal.trick_facts`` reads it).

The NumPy readings stay: they are the reference these kernels are tested against
(``tests/test_trick_kernels.py``, on tasks with forfeits and every German variant the
recorder reads by arrays), and the path taken where numba cannot load. Importing this
module imports numba (``whist_sim.jit``): the recorder imports it once a process has
recorded enough hands for the kernels to pay for loading it
(``recording.COMPILED_AFTER_HANDS``), or at once where numba is loaded already.
"""

from __future__ import annotations

import numpy as np

from whist_sim.jit import cached_njit

_compiled = cached_njit()


@_compiled
def completed_tricks(phase_codes, play_code, log_counts, size):
    """Per hand, its completed tricks: its plays, ``size`` to a trick, rounded down."""
    counts = np.zeros(log_counts.size, np.int64)
    row = 0
    for hand in range(log_counts.size):
        plays = 0
        for _ in range(log_counts[hand]):
            if phase_codes[row] == play_code:
                plays += 1
            row += 1
        counts[hand] = plays // size
    return counts


@_compiled
def tricks_from_log(phase_codes, play_code, actions, seats, log_counts, trumps, size):
    """Every completed trick of every hand: (trick number, leader, cards (``size`` per
    trick, flat), winner, completed tricks per hand). A hand's plays after its last
    complete trick (a forfeited hand's partial trick) are left out."""
    hands = log_counts.size
    counts = completed_tricks(phase_codes, play_code, log_counts, size)
    total = counts.sum()
    number = np.empty(total, np.int16)
    leader = np.empty(total, np.int8)
    cards = np.empty(total * size, np.int64)
    winner = np.empty(total, np.int8)
    trick = 0
    row = 0
    for hand in range(hands):
        end = row + log_counts[hand]
        trump = trumps[hand]
        for k in range(counts[hand]):
            best = -1
            lead_suit = -1
            for place in range(size):
                while phase_codes[row] != play_code:
                    row += 1
                card = actions[row]
                suit = card // 13
                if place == 0:
                    lead_suit = suit
                    leader[trick] = seats[row]
                if trump >= 0 and suit == trump:
                    strength = 200 + card % 13
                elif suit == lead_suit:
                    strength = 100 + card % 13
                else:
                    strength = 0
                if strength > best:
                    best = strength
                    winner[trick] = seats[row]
                cards[trick * size + place] = card
                row += 1
            number[trick] = k + 1
            trick += 1
        row = end
    return number, leader, cards, winner, counts


@_compiled
def german_facts(phase_codes, play_code, take_code, actions, seats, log_counts,
                 initial, trumps, faceup_cards):
    """German Whist's facts of every completed trick under the classic one face-up card:
    (stage, the face-up card as the trick was led or -1 in stage 2, the card its winner
    took or -1, whether the follower held a card that beats the lead, whether it could
    play one). ``initial``: each hand's dealt hands
    (hands x 2 masks); ``faceup_cards``: per hand the stock cards turned face up in
    stage 1, in order (the stock's even places: hands x 13). A card's bit is flipped in
    its seat's hand at every row naming it (a card enters a hand once and leaves once),
    so the follower's hand as it follows is read as the hand plays."""
    hands = log_counts.size
    total = completed_tricks(phase_codes, play_code, log_counts, 2).sum()
    stage = np.empty(total, np.int64)
    faceup = np.empty(total, np.int64)
    taken = np.full(total, -1, np.int64)
    could_win = np.zeros(total, np.bool_)
    could_win_legally = np.zeros(total, np.bool_)
    trick = 0
    row = 0
    for hand in range(hands):
        held0 = initial[hand, 0]
        held1 = initial[hand, 1]
        trump = trumps[hand]
        first = trick
        takes = 0
        lead = -1
        for _ in range(log_counts[hand]):
            code = phase_codes[row]
            card = actions[row]
            seat = seats[row]
            bit = np.uint64(1) << np.uint64(card)
            held = held0 if seat == 0 else held1
            if code == play_code:
                if lead < 0:
                    lead = card
                else:
                    index = trick - first
                    stage[trick] = 1 if index < 13 else 2
                    faceup[trick] = faceup_cards[hand, index] if index < 13 else -1
                    suit = lead // 13
                    suit_cards = np.uint64(0x1FFF) << np.uint64(13 * suit)
                    above = ~((np.uint64(2) << np.uint64(lead)) - np.uint64(1))
                    higher = held & suit_cards & above
                    trumping = np.uint64(0)
                    if trump >= 0 and trump != suit:
                        trumping = held & (np.uint64(0x1FFF) << np.uint64(13 * trump))
                    could_win[trick] = (higher | trumping) != 0
                    # a trump wins only for a follower void in the suit led
                    could_win_legally[trick] = higher != 0 or (
                        trumping != 0 and held & suit_cards == 0)
                    trick += 1
                    lead = -1
            elif code == take_code:
                if first + takes < trick:  # a take follows the trick its taker won
                    taken[first + takes] = card
                takes += 1
            if seat == 0:
                held0 = held ^ bit
            else:
                held1 = held ^ bit
            row += 1
    return stage, faceup, taken, could_win, could_win_legally
