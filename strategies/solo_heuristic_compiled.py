"""The Solo heuristic's card play and hand evaluation, compiled with numba: the same decisions.

``SoloHeuristic`` (strategies/solo_heuristic.py) is the readable original and stays
the reference; with ``compiled=True`` (its default) it hands two steps to this module:

- every card-play decision with more than one legal card, to ``play_choice``, which
  returns the card the Python code returns: ``_Seen`` (who may hold each unseen card),
  ``_follow``, ``_discard``, the declarer's and the defenders' leads and the misère
  play, function by function;
- the numbers the bidder reads off a hand (``hand_numbers``): ``estimate_tricks`` in
  each suit, the misère hazard that ``misere_risk`` turns into a chance (the ``exp``
  stays in Python) and ``best_sure_tricks``.

Floats are computed term by term in the Python order (products over seats in the same
seat order, the same tables), so every score is the same float and every tie falls the
same way. A list of seats is a 4-bit set walked from the seat after ours, which is the
order of every seat list the Python code builds (the seats still to play), or from
seat 0 where the Python walks ``range(4)``.

tests/test_solo_heuristic_compiled.py plays deals with both paths and checks them
decision by decision, and the outcome hash (tests/test_outcome_hash.py) covers the
compiled default. Importing this module imports numba (about a second); the heuristic
imports it on its first card-play decision.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from strategies import solo_heuristic as plain
from whist_sim.cards import SUIT_MASKS
from whist_sim.games.solo_whist import CONTRACTS
from whist_sim.jit import cached_njit, lowest_bit
from whist_sim.jit import count_bits as _count
from whist_sim.jit import highest_bit as _highest

_compiled = cached_njit(allocates=False)

_SUIT = np.array(SUIT_MASKS, dtype=np.int64)
_ABOVE = np.array(plain.ABOVE, dtype=np.int64)
_BELOW = np.array(plain.BELOW, dtype=np.int64)
_SUIT_OF_MASK = np.array(plain.SUIT_OF_MASK, dtype=np.int64)
_HALF = np.array(plain.HALF, dtype=np.float64)
_TWO_THIRDS = np.array(plain.TWO_THIRDS, dtype=np.float64)
_SIDE_WORTH = np.array(plain.SIDE_WORTH, dtype=np.float64)
_TRUMP_WORTH = np.array(plain.TRUMP_WORTH, dtype=np.float64)
_NO_TRUMP_WORTH = np.array(plain.NO_TRUMP_WORTH, dtype=np.float64)
_DISCARD_HAZARD = np.array(plain.DISCARD_HAZARD, dtype=np.float64)
_FULL_DECK = (1 << 52) - 1
_KEEP_WEIGHT = plain.KEEP_WEIGHT
_LAST_PARTNER = plain.LAST_PARTNER
_DRAW_WITH = plain.DRAW_WITH
_RUFFED_WORTH = plain.RUFFED_WORTH
_MISERE_LEAD_DANGER = plain.MISERE_LEAD_DANGER
_RANK_TIE_BREAK = plain.RANK_TIE_BREAK


# -- _Seen: the seat's knowledge, as a tuple (poss, voids, unseen, only, two, three) ----
# ``poss`` and ``voids`` are 4-tuples indexed by seat.

@_compiled
def _seen(hand, played, voids_packed, n, t0, t1, t2, leader, me, declarer, exposed,
          upcard_known, dealer):
    v0 = voids_packed & 15
    v1 = voids_packed >> 4 & 15
    v2 = voids_packed >> 8 & 15
    v3 = voids_packed >> 12 & 15
    if n:
        led = t0 // 13
        played |= np.int64(1) << t0
        for i in range(1, n):
            card = t1 if i == 1 else t2
            played |= np.int64(1) << card
            if card // 13 != led:
                seat = (leader + i) & 3
                if seat == 0:
                    v0 |= 1 << led
                elif seat == 1:
                    v1 |= 1 << led
                elif seat == 2:
                    v2 |= 1 << led
                else:
                    v3 |= 1 << led
    unseen = _FULL_DECK & ~hand & ~played
    k0 = k1 = k2 = k3 = np.int64(0)
    if exposed:
        if declarer == 0:
            k0 = exposed
        elif declarer == 1:
            k1 = exposed
        elif declarer == 2:
            k2 = exposed
        else:
            k3 = exposed
    if upcard_known >= 0:
        bit = np.int64(1) << upcard_known
        if dealer == 0:
            k0 |= bit
        elif dealer == 1:
            k1 |= bit
        elif dealer == 2:
            k2 |= bit
        else:
            k3 |= bit
    free = unseen & ~(k0 | k1 | k2 | k3)
    p0 = _possible(0, me, exposed, declarer, k0, free, v0)
    p1 = _possible(1, me, exposed, declarer, k1, free, v1)
    p2 = _possible(2, me, exposed, declarer, k2, free, v2)
    p3 = _possible(3, me, exposed, declarer, k3, free, v3)
    poss = (p0, p1, p2, p3)
    a, b, c = poss[(me + 1) & 3], poss[(me + 2) & 3], poss[(me + 3) & 3]
    three = a & b & c
    two = ((a & b) | (a & c) | (b & c)) & ~three
    only = (a | b | c) & ~two & ~three
    return poss, (v0, v1, v2, v3), unseen, only, two, three


@_compiled
def _possible(seat, me, exposed, declarer, known, free, void):
    if seat == me:
        return np.int64(0)
    if exposed and seat == declarer:
        return exposed
    return known | (free & ~_SUIT_OF_MASK[void])


@_compiled
def _p_none(seen, seat, cards):
    """``_Seen.p_none``: chance ``seat`` holds none of ``cards``."""
    poss, _, _, only, two, three = seen
    cards &= poss[seat]
    if not cards:
        return 1.0
    if cards & only:
        return 0.0
    return _HALF[_count(cards & two)] * _TWO_THIRDS[_count(cards & three)]


@_compiled
def _p_beat(seen, seat, card, led, trump):
    """``_Seen.p_beat``."""
    suit = card // 13
    led_cards = _SUIT[led]
    if suit == led:
        has_higher = 1.0 - _p_none(seen, seat, _ABOVE[card])
        if trump < 0 or trump == led:
            return has_higher
        void = _p_none(seen, seat, led_cards)
        return has_higher + void * (1.0 - _p_none(seen, seat, _SUIT[trump]))
    return _p_none(seen, seat, led_cards) * (1.0 - _p_none(seen, seat, _ABOVE[card]))


@_compiled
def _holds(seen, card, led, trump, seats, me):
    """``_Seen.holds`` over the seats of the 4-bit set ``seats``, from the seat after ``me``."""
    chance = 1.0
    for k in range(1, 4):
        seat = (me + k) & 3
        if seats >> seat & 1:
            chance *= 1.0 - _p_beat(seen, seat, card, led, trump)
    return chance


# -- trick contracts ------------------------------------------------------------------

@_compiled
def _winner(n, t0, t1, t2, trump):
    best, top = 0, t0
    for i in range(1, n):
        card = t1 if i == 1 else t2
        if (card // 13 == top // 13 and card > top) or (
                card // 13 == trump and trump != top // 13):
            best, top = i, card
    return best


@_compiled
def _beats(card, best, trump):
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


@_compiled
def _worth(card, out, trump, ruffed):
    higher = _count(out & _ABOVE[card])
    suit = card // 13
    if trump < 0:
        worth = _NO_TRUMP_WORTH[higher]
    elif suit == trump:
        worth = _TRUMP_WORTH[higher]
    else:
        worth = _SIDE_WORTH[higher]
        if ruffed >> suit & 1:
            worth *= _RUFFED_WORTH
    return worth + (card % 13) * _RANK_TIE_BREAK


@_compiled
def _ruffed_suits(seen, side, trump):
    if trump < 0:
        return 0
    poss, voids = seen[0], seen[1]
    trumps = _SUIT[trump]
    suits = 0
    for seat in range(4):
        if not side >> seat & 1 and poss[seat] & trumps:
            suits |= voids[seat]
    return suits & ~(1 << trump)


@_compiled
def _follow(seen, hand, legal, n, t0, t1, t2, leader, me, side, trump):
    led = t0 // 13
    best_i = _winner(n, t0, t1, t2, trump)
    best = t0 if best_i == 0 else (t1 if best_i == 1 else t2)
    later = 0
    last = -1
    for k in range(1, 4 - n):
        last = (me + k) & 3
        later |= 1 << last
    opponents = later & ~side
    if side >> ((leader + best_i) & 3) & 1:
        keep_chance = _holds(seen, best, led, trump, opponents, me)
    elif later and not opponents:
        keep_chance = 1.0 - _holds(seen, best, led, trump, later, me)
    elif later and side >> last & 1:
        keep_chance = _LAST_PARTNER * (1.0 - _holds(seen, best, led, trump, 1 << last, me))
    else:
        keep_chance = 0.0
    out = seen[2]
    ruffed = _ruffed_suits(seen, side, trump)
    choice, choice_score = -1, -9.0
    losers = np.int64(0)
    loser_worth = 9.0
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        worth = _KEEP_WEIGHT * _worth(card, out, trump, ruffed)
        if _beats(card, best, trump):
            chance = _holds(seen, card, led, trump, opponents, me)
            if keep_chance > chance:
                chance = keep_chance
            if chance - worth > choice_score:
                choice, choice_score = card, chance - worth
        else:
            losers |= np.int64(1) << card
            if worth < loser_worth:
                loser_worth = worth
    if choice >= 0 and (not losers or choice_score > keep_chance - loser_worth):
        return choice
    return _discard(hand, losers, seen, ruffed, trump)


@_compiled
def _discard(hand, cards, seen, ruffed, trump):
    out = seen[2]
    has_trumps = trump >= 0 and (hand & _SUIT[trump]) != 0
    best, best_key = -1, 9.0
    rest = cards
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        suit = card // 13
        key = _worth(card, out, trump, ruffed)
        if has_trumps and suit != trump:
            key += 0.01 * _count(hand & _SUIT[suit])
        if key < best_key:
            best, best_key = card, key
    return best


@_compiled
def _opponent_trumps(seen, side, trump):
    if trump < 0:
        return np.int64(0)
    poss = seen[0]
    mask = np.int64(0)
    for seat in range(4):
        if not side >> seat & 1:
            mask |= poss[seat]
    return mask & _SUIT[trump]


@_compiled
def _safe_master(seen, hand, trump, side, opp_trumps):
    voids = seen[1]
    out = seen[2]
    best, best_key = -1, -1
    for suit in range(4):
        if suit == trump:
            continue
        mine = hand & _SUIT[suit]
        if not mine:
            continue
        top = _highest(mine)
        if out & _ABOVE[top]:
            continue
        if opp_trumps:
            ruffable = False
            for s in range(4):
                if not side >> s & 1 and voids[s] >> suit & 1:
                    ruffable = True
            if ruffable:
                continue
        theirs = _count(out & _SUIT[suit])
        if opp_trumps and not theirs:
            continue
        key = theirs * 16 + _count(mine)
        if key > best_key:
            best, best_key = top, key
    return best


@_compiled
def _establishing_card(mine, out):
    top = _highest(mine)
    rest = mine & ~(np.int64(1) << top)
    if rest and _count(out & _ABOVE[top]) == 1:
        second = _highest(rest)
        if not out & _ABOVE[second] & _BELOW[top]:
            return top
    return lowest_bit(mine)


@_compiled
def _declarer_lead(seen, hand, trump, side):
    out = seen[2]
    trump_mask = _SUIT[trump] if trump >= 0 else np.int64(0)
    mine = hand & trump_mask
    opp_trumps = _opponent_trumps(seen, side, trump)
    if mine and opp_trumps:
        top = _highest(mine)
        n, m = _count(mine), _count(opp_trumps)
        if not out & _ABOVE[top]:
            return top
        if n >= m or n >= _DRAW_WITH:
            return _establishing_card(mine, out)
    master = _safe_master(seen, hand, trump, side, opp_trumps)
    if master >= 0:
        return master
    side_cards = hand & ~trump_mask
    if side_cards:
        best_suit, best_n, best_top = -1, -1, -1
        for suit in range(4):
            cards = side_cards & _SUIT[suit]
            if not cards:
                continue
            n = _count(cards)
            top = _highest(cards)
            if n > best_n or (n == best_n and top > best_top):
                best_suit, best_n, best_top = suit, n, top
        return _establishing_card(side_cards & _SUIT[best_suit], out)
    return _highest(mine)


@_compiled
def _defender_lead(seen, hand, me, trump, side, declarer, partner, long_contract):
    poss, voids, out = seen[0], seen[1], seen[2]
    trump_mask = _SUIT[trump] if trump >= 0 else np.int64(0)
    opp_trumps = _opponent_trumps(seen, side, trump)
    mine = hand & trump_mask
    if long_contract and mine and opp_trumps:
        top = _highest(mine)
        return top if not out & _ABOVE[top] else lowest_bit(mine)
    master = _safe_master(seen, hand, trump, side, opp_trumps)
    if master >= 0:
        return master
    side_cards = hand & ~trump_mask
    if not side_cards:
        top = _highest(mine)
        return top if not out & _ABOVE[top] else lowest_bit(mine)
    declarer_voids = voids[declarer] | (voids[partner] if partner >= 0 else 0)
    partners = side & ~(1 << me)
    best, best_key = -1, -9.0
    for suit in range(4):
        cards = side_cards & _SUIT[suit]
        if not cards:
            continue
        n = _count(cards)
        key = 0.0
        if opp_trumps and declarer_voids >> suit & 1:
            key -= 3.0
        if trump >= 0:
            ruffs = False
            for p in range(4):
                if partners >> p & 1 and voids[p] >> suit & 1 and poss[p] & trump_mask:
                    ruffs = True
            if ruffs:
                key += 2.0
        if mine and n <= 2:
            key += 1.0 - 0.3 * n
        key -= 0.05 * n
        if key > best_key:
            best_key = key
            best = _establishing_card(cards, out) if n >= 3 else _highest(cards)
    return best


# -- misère -------------------------------------------------------------------------------

@_compiled
def _misere_declarer(seen, hand, legal, n, t0, t1, t2, me):
    out = seen[2]
    if not n:
        return _misere_safe_lead(seen, hand, legal, me)
    led = t0 // 13
    best_i = _winner(n, t0, t1, t2, -1)
    best = t0 if best_i == 0 else (t1 if best_i == 1 else t2)
    if legal & _SUIT[led]:
        under = legal & _BELOW[best]
        if under:
            return _highest(under)
        return lowest_bit(legal) if n < 3 else _highest(legal)
    return _most_dangerous(hand, out, legal)


@_compiled
def _misere_safe_lead(seen, hand, legal, me):
    out = seen[2]
    best, best_key = -1, 9.0
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        suit_cards = _SUIT[card // 13]
        below = out & _BELOW[card]
        wins = 1.0
        for seat in range(4):
            if seat != me:
                wins *= 1.0 - (_p_none(seen, seat, below) - _p_none(seen, seat, suit_cards))
        own = hand & suit_cards
        danger = (card % 13) / 12.0 + (0.5 if _count(own) == 1 else 0.0)
        key = wins - _MISERE_LEAD_DANGER * danger
        if key < best_key:
            best, best_key = card, key
    return best


@_compiled
def _most_dangerous(hand, out, legal):
    live = hand | out
    best, best_hazard = -1, -1.0
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        place = _count(hand & _BELOW[card])
        rank = _count(live & _BELOW[card])
        hazard = _DISCARD_HAZARD[place if place < 3 else 3, rank] + (card % 13) * 1e-3
        if hazard > best_hazard:
            best, best_hazard = card, hazard
    return best


@_compiled
def _misere_defender(seen, hand, legal, n, t0, t1, t2, leader, me, declarer, exposed):
    poss = seen[0]
    if not n:
        return _misere_attack_lead(seen, hand, me, declarer, exposed)
    led = t0 // 13
    best_i = _winner(n, t0, t1, t2, -1)
    best = t0 if best_i == 0 else (t1 if best_i == 1 else t2)
    declarer_played = False
    for i in range(n):
        if (leader + i) & 3 == declarer:
            declarer_played = True
    following = legal & _SUIT[led]
    if declarer_played:
        if (leader + best_i) & 3 == declarer and following:
            under = following & _BELOW[best]
            return _highest(under) if under else _highest(following)
        return _throw_high(hand, seen[2], legal)
    if not following:
        return _throw_high(hand, seen[2], legal)
    his = poss[declarer] & _SUIT[led]
    if not his & _ABOVE[best]:
        return _highest(following)
    if exposed and his:
        under_his = following & _BELOW[lowest_bit(his)]
        if under_his:
            return _highest(under_his)
    return lowest_bit(following)


@_compiled
def _throw_high(hand, out, legal):
    best, best_below, best_length = -1, -1, -1
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        below = _count(out & _BELOW[card])
        length = _count(hand & _SUIT[card // 13])
        # the Python key (-below, -length), smallest first
        if best < 0 or below > best_below or (below == best_below and length > best_length):
            best, best_below, best_length = card, below, length
    return best


@_compiled
def _misere_attack_lead(seen, hand, me, declarer, exposed):
    if exposed:
        return _spread_attack_lead(seen, hand, me, declarer, exposed)
    theirs = seen[0][declarer]
    best, best_key = -1, np.int64(0)
    for suit in range(4):
        mine = hand & _SUIT[suit]
        if not mine:
            continue
        card = lowest_bit(mine)
        his = theirs & _SUIT[suit]
        # the Python key, a tuple of four small numbers, as one integer
        if his:
            his_low_beats = not his & _BELOW[card]
            key = ((0 if his_low_beats else 1) * 10000 + _count(his & _BELOW[card]) * 100
                   + card % 13 + 50)
        else:
            key = 1000000 + 50 - card % 13
        if best < 0 or key < best_key:
            best, best_key = card, key
    return best


@_compiled
def _spread_attack_lead(seen, hand, me, declarer, exposed):
    out = seen[2] & ~exposed
    best, best_chance = -1, -1.0
    for suit in range(4):
        if not hand & _SUIT[suit]:
            continue
        his = exposed & _SUIT[suit]
        if not his:
            continue
        his_low = lowest_bit(his)
        mine = hand & _BELOW[his_low]
        if not mine:
            continue
        chance = 1.0
        below = out & _BELOW[his_low]
        for seat in range(4):
            if seat != me and seat != declarer:
                chance *= 1.0 - (_p_none(seen, seat, below) - _p_none(seen, seat, _SUIT[suit]))
        if chance > best_chance:
            best, best_chance = _highest(mine), chance
    if best >= 0:
        return best
    rest = hand
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        if exposed & _SUIT[card // 13]:
            return card
    return _throw_high(hand, seen[2], hand)


# -- hand evaluation (the auction) ----------------------------------------------------

_TRUMP_LENGTH = np.array(plain.TRUMP_LENGTH, dtype=np.float64)
_TRUMP_HONOURS = np.array(plain.TRUMP_HONOURS, dtype=np.float64)
_SIDE_HONOURS = np.array(plain.SIDE_HONOURS, dtype=np.float64)
_SIDE_LENGTH = np.array(plain.SIDE_LENGTH, dtype=np.float64)
_SHORT_RUFFS = np.array(plain.SHORT_RUFFS, dtype=np.float64)
_MISERE_HAZARD = np.array(plain.MISERE_HAZARD, dtype=np.float64)
_MISERE_ELDEST = plain.MISERE_ELDEST


@_compiled
def _estimate_tricks(hand, trump):
    """``estimate_tricks``, term by term."""
    bits = hand >> (13 * trump) & 0x1FFF
    trump_len = _count(bits)
    total = _TRUMP_LENGTH[min(trump_len, 10)] + _TRUMP_HONOURS[bits >> 9]
    spare = max(0, trump_len - 2)
    for suit in range(4):
        if suit == trump:
            continue
        bits = hand >> (13 * suit) & 0x1FFF
        n = _count(bits)
        total += _SIDE_HONOURS[bits >> 10] + _SIDE_LENGTH[min(n, 6)]
        if n <= 2:
            total += _SHORT_RUFFS[n] * spare
    return total


@_compiled
def _misere_hazard(hand, eldest):
    """``misere_risk``'s total hazard (the risk is ``1 - exp(-hazard)``)."""
    hazard = _MISERE_ELDEST if eldest else 0.0
    for suit in range(4):
        bits = hand >> (13 * suit) & 0x1FFF
        k = 0
        while bits:
            hazard += _MISERE_HAZARD[k if k < 3 else 3, lowest_bit(bits)]
            bits &= bits - 1
            k += 1
    return hazard


@_compiled
def _best_sure_tricks(hand):
    """``best_sure_tricks``."""
    full_total, top_total, any_runs = 0, 0, False
    for suit in range(4):
        bits = hand >> (13 * suit) & 0x1FFF
        n = _count(bits)
        top = 0
        rank = 12
        while rank >= 0 and bits >> rank & 1:
            top += 1
            rank -= 1
        runs = top >= min(n, 13 - n)
        full_total += n if runs else top
        top_total += top
        any_runs = any_runs or runs
    return full_total if any_runs else top_total


@_compiled
def _hand_numbers(hand, eldest):
    return (_estimate_tricks(hand, 0), _estimate_tricks(hand, 1), _estimate_tricks(hand, 2),
            _estimate_tricks(hand, 3), _misere_hazard(hand, eldest), _best_sure_tricks(hand))


def hand_numbers(hand: int, eldest: bool) -> tuple[list[float], float, int]:
    """``[estimate_tricks(hand, s) for s in 0..3]``, ``misere_risk(hand, eldest)`` and
    ``best_sure_tricks(hand)``, the same values."""
    e0, e1, e2, e3, hazard, sure = _hand_numbers(hand, eldest)
    return [e0, e1, e2, e3], 1.0 - math.exp(-hazard), sure


# -- the decision -----------------------------------------------------------------------

@_compiled
def _play(hand, legal, played, voids_packed, n, t0, t1, t2, leader, me, declarer, partner,
          trump, exposed, upcard_known, dealer, misere, long_contract):
    seen = _seen(hand, played, voids_packed, n, t0, t1, t2, leader, me, declarer, exposed,
                 upcard_known, dealer)
    if misere:
        if me == declarer:
            return _misere_declarer(seen, hand, legal, n, t0, t1, t2, me)
        return _misere_defender(seen, hand, legal, n, t0, t1, t2, leader, me, declarer,
                                exposed)
    # ``_side_of``: the seats playing with ours, as a 4-bit set
    declarers = 1 << declarer
    if partner >= 0:
        declarers |= 1 << partner
    side = declarers if declarers >> me & 1 else 15 & ~declarers
    if n:
        return _follow(seen, hand, legal, n, t0, t1, t2, leader, me, side, trump)
    if declarers >> me & 1:
        return _declarer_lead(seen, hand, trump, side)
    return _defender_lead(seen, hand, me, trump, side, declarer, partner, long_contract)


_MISERE = tuple(contract.misere for contract in CONTRACTS)
_LONG = tuple(contract.target >= 9 for contract in CONTRACTS)


def play_choice(view: Any, played: int, voids: tuple[int, int, int, int]) -> int:
    """The card ``SoloHeuristic`` plays at ``view`` (a card-play decision with more than
    one legal card); ``played`` and ``voids``: the completed tricks' summary (its memo's)."""
    trick = view.trick
    n = len(trick)
    upcard_known = view.upcard if view.upcard_held and view.dealer != view.seat else -1
    contract = view.contract
    return _play(
        view.hand, view.legal, played, voids[0] | voids[1] << 4 | voids[2] << 8 | voids[3] << 12,
        n, trick[0] if n else -1, trick[1] if n > 1 else -1, trick[2] if n > 2 else -1,
        view.leader, view.seat, view.declarer, view.partner, view.trump, view.exposed,
        upcard_known, view.dealer, _MISERE[contract], _LONG[contract],
    )
