"""The German heuristic's card play, compiled with numba: the same decisions.

``GermanHeuristic`` (strategies/german_heuristic.py) is the readable original and
stays the reference; with ``compiled=True`` (its default) it hands its card-play
decisions to ``decide`` here, which returns the card the Python code would return:

- a stage-1 play with one face-up stock card and face-down cards left (the classic
  stock): the chance-times-stake scoring of ``_stage1`` with ``_stake``,
  ``_mean_unseen_worth`` and ``_lead_chances``, through the kernels the German
  roll-outs use too (``whist_sim.search.german_stage1``): term by term in the same
  order, so every value is the same float and every tie falls the same way;
- stage-2 play before the endgame: the rules of ``_follow2`` and ``_lead2``, with
  ``min`` and ``max``'s tie-breaks (the first of equal keys);
- the stage-2 endgame search (``_solve_choice``): ``_solve`` searches the same
  candidate cards at the root in the same order and keeps the first of those winning
  most tricks; below the root it counts tricks exactly (without the Python search's
  cut-offs, which only skip cards that cannot be chosen), so the choice is the same.

Taking a face-up card (an open stock) and stage 1 once the face-down cards are gone or
with several face-up cards stay in Python (``decide`` returns -1 there).

tests/test_german_heuristic_compiled.py plays deals with both paths and checks them
decision by decision, and the outcome hash (tests/test_outcome_hash.py) covers the
compiled default. Importing this module imports numba (about a second); the heuristic
imports it on its first decision that needs it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from strategies.german_heuristic import NO_TRUMP_WORTH, RANK_TIE_BREAK, SIDE_WORTH
from whist_sim.jit import cached_njit, lowest_bit
from whist_sim.jit import count_bits as _count
from whist_sim.jit import highest_bit as _highest
from whist_sim.search import german_stage1
from whist_sim.search.german_stage1 import beats as _beats
from whist_sim.search.german_stage1 import choose as _choose
from whist_sim.search.german_stage1 import worth as _worth

_compiled = cached_njit(allocates=False)
_SUIT = german_stage1.SUIT


# -- stage 1: the heuristic's stage-1 scoring, shared with the German roll-outs
# -- (whist_sim.search.german_stage1).

@_compiled
def _stage1(hand, legal, led, played, faceup, taken_by_opp, trump, trump_worth, stake_base,
            denial, contest_margin, table, tie):
    return _choose(hand, legal, led, played, faceup, taken_by_opp, trump, trump_worth,
                   stake_base, denial, contest_margin, table, tie)


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


# -- stage 2 before the endgame: the rules of ``_follow2`` and ``_lead2``.

@_compiled
def _follow2(hand, legal, opp, led, trump, trump_worth, table, tie):
    """``GermanHeuristic._follow2``: the winner worth least, else the discard worth least
    (between equal worths, from the shorter suit); ``min``'s first on ties."""
    best, best_worth = -1, 0.0
    cards = legal
    while cards:
        card = lowest_bit(cards)
        cards &= cards - 1
        if _beats(card, led, trump):
            worth = _worth(card, opp, trump, trump_worth, table, tie)
            if best < 0 or worth < best_worth:
                best, best_worth = card, worth
    if best >= 0:
        return best
    best_length = 0
    cards = legal
    while cards:
        card = lowest_bit(cards)
        cards &= cards - 1
        worth = _worth(card, opp, trump, trump_worth, table, tie)
        length = _count(hand & _SUIT[card // 13])
        if best < 0 or worth < best_worth or (worth == best_worth and length < best_length):
            best, best_worth, best_length = card, worth, length
    return best


@_compiled
def _lead2(hand, opp, trump):
    """``GermanHeuristic._lead2``: safe winners, trumps when in control, a long suit."""
    trump_mask = _SUIT[trump] if trump >= 0 else np.int64(0)
    my_trumps, opp_trumps = hand & trump_mask, opp & trump_mask
    best, best_theirs, best_mine = -1, -1, -1
    for suit in range(4):
        if suit == trump:
            continue
        mine = hand & _SUIT[suit]
        if not mine:
            continue
        theirs = opp & _SUIT[suit]
        top = _highest(mine)
        if (theirs and top > _highest(theirs)) or (not theirs and not opp_trumps):
            n_theirs, n_mine = _count(theirs), _count(mine)
            if best < 0 or n_theirs > best_theirs or (
                    n_theirs == best_theirs and n_mine > best_mine):
                best, best_theirs, best_mine = top, n_theirs, n_mine
    if best >= 0:
        return best
    if my_trumps:
        top = _highest(my_trumps)
        if opp_trumps and top > _highest(opp_trumps):
            if _count(my_trumps) >= _count(opp_trumps):
                return top
        elif not opp_trumps and hand == my_trumps:
            return top
    side = hand & ~trump_mask
    if side:
        # ``max`` by (length, -highest card): the first suit of the greatest key
        best_suit, best_length, best_top = -1, -1, 0
        for suit in range(4):
            cards = side & _SUIT[suit]
            if not cards:
                continue
            length, top = _count(cards), _highest(cards)
            if best_suit < 0 or length > best_length or (
                    length == best_length and top < best_top):
                best_suit, best_length, best_top = suit, length, top
        return lowest_bit(side & _SUIT[best_suit])
    if opp_trumps and _highest(my_trumps) > _highest(opp_trumps):
        return _highest(my_trumps)
    return lowest_bit(my_trumps)


_SIDE_TABLE = np.array(SIDE_WORTH, dtype=np.float64)
_NO_TRUMP_TABLE = np.array(NO_TRUMP_WORTH, dtype=np.float64)
_FULL = (1 << 52) - 1


def decide(player: Any, view: Any, played: int) -> int:
    """The card ``player`` (a ``GermanHeuristic``) plays at ``view``, ``played`` being the
    cards of the completed tricks, or -1 where the plain Python decides (a face-up card
    to take, or stage 1 with no face-down card left or an open stock)."""
    hand = view.hand
    trump = view.trump
    trick = view.trick
    if trick:  # two players: the card led at most
        led = trick[0]
        played |= 1 << led
    else:
        led = -1
    table = _SIDE_TABLE if trump >= 0 else _NO_TRUMP_TABLE
    if view.stage == 1:
        if view.phase != "play" or not view.facedown_left or len(view.faceup) != 1:
            return -1
        return _stage1(
            hand, view.legal, led, played, view.faceup[0], view.taken_faceup[1 - view.seat],
            trump, player.trump_worth, 2.0 * player._trick(view), player.denial,
            player.contest_margin, table, RANK_TIE_BREAK,
        )
    opp = _FULL & ~hand & ~played
    if hand.bit_count() <= player.endgame_cards:
        return _solve(hand, opp, trump, led, view.legal)
    if led >= 0:
        return _follow2(hand, view.legal, opp, led, trump, player.trump_worth, table,
                        RANK_TIE_BREAK)
    return _lead2(hand, opp, trump)
