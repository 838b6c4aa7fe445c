"""The compiled encoders' kernels (numba): one per game, and the helpers they share.

Imported by ``whist_sim.env.compiled`` on first use, so importing ``whist_sim.env`` does
not import numba. Module-level functions, so numba's disk cache finds them again in the
next process (functions made inside another function were compiled afresh in every
process, about a second each). Each kernel writes every entry of ``obs`` and ``mask``
from a view's fields; ``compiled.py`` says what each argument is and the tests compare
the result with the reference encoders at every step.
"""

from __future__ import annotations

import numpy as np

from whist_sim.jit import cached_njit, lowest_bit

compiled = cached_njit(allocates=False)


@compiled
def plane(obs, offset, bits):  # pragma: no cover - compiled
    while bits:
        obs[offset + lowest_bit(bits)] = 1.0
        bits &= bits - 1


SCRATCH = 8
"""Entries at the end of a kernel's ``p`` where ``start`` gathers each seat's played
cards (room for Knock-out's seven seats): kernels compiled without numba's runtime make
no array of their own, and a separate scratch array was one more argument to cross
from Python at every observation (about 30 ns of a German Whist observation's 1.5
microseconds, timed alone). Each kernel takes them as ``p[len(p) - SCRATCH:]`` (a view
made inside the kernel: one without the runtime may not return it)."""


@compiled
def start(obs, mask, binary, played, scale, by_seat):  # pragma: no cover - compiled
    """Zero every entry; write the trick numbers of the completed tricks from ``played``
    (a ``CompiledHistory``'s) and the cards each seat played in them into ``by_seat``:
    one pass over the tricks, where a walk per seat had cost Minnesota Whist's learner
    loop about 140 ns a step (four walks more, 3% of a step).
    Returns the number of the trick in progress divided by ``scale``, the value its cards
    get."""
    obs[:] = 0.0
    mask[:] = 0
    by_seat[:] = 0
    i = done = 0
    while i < len(played):
        done += 1
        value = done / scale
        count = np.int64(played[i])
        for j in range(count):
            card = np.int64(played[i + 1 + count + j])
            obs[binary + card] = value
            by_seat[np.int64(played[i + 1 + j])] |= np.int64(1) << card
        i += 1 + 2 * count
    return (done + 1) / scale


@compiled
def trick_in_progress(obs, binary, trick, value):  # pragma: no cover - compiled
    """The trick in progress's cards get ``value`` among the trick numbers (at
    ``binary``). Returns them as a mask."""
    trick_mask = 0
    for i in range(len(trick)):
        card = np.int64(trick[i])
        obs[binary + card] = value
        trick_mask |= np.int64(1) << card
    return trick_mask


@compiled
def played_planes(obs, offset, by_seat, seat, leader, trick):  # pragma: no cover - compiled
    """At a four-seat table where play goes to the left: from ``offset``, a plane per seat
    from the observer on, the cards it played (``by_seat``, from ``start``), the trick in
    progress included."""
    for rel in range(4):
        who = (seat + rel) % 4
        cards = by_seat[who]
        player = leader
        for i in range(len(trick)):
            if player == who:
                cards |= np.int64(1) << np.int64(trick[i])
            player = (player + 1) % 4
        plane(obs, offset + rel * 52, cards)


@compiled
def legal_mask(obs, mask, legal, high, to_act):  # pragma: no cover - compiled
    """The mask from ``legal`` (actions 0..51) and ``high`` (actions 52.. from bit 0)."""
    if legal or high:
        obs[to_act] = 1.0
    while legal:
        mask[lowest_bit(legal)] = 1
        legal &= legal - 1
    while high:
        mask[52 + lowest_bit(high)] = 1
        high &= high - 1


@compiled
def german(obs, mask, played, p, seat, phase, legal, hand, trump, upcard, faceup,
           facedown_left, stage, dealer, leader, led, taken, drawn, won1,
           won2):  # pragma: no cover - compiled
    """``led``: the trick in progress's one card (the leader's), or -1 (two players: a
    trick's second card completes it)."""
    other = 1 - seat
    by_seat = p[len(p) - SCRATCH:]
    value = start(obs, mask, p[13], played, p[17], by_seat)
    mine, theirs = by_seat[seat], by_seat[other]
    trick_mask = 0
    if led >= 0:
        obs[p[13] + led] = value
        trick_mask = np.int64(1) << np.int64(led)
        if leader == seat:
            mine |= trick_mask
        else:
            theirs |= trick_mask
    seen = mine | theirs
    faceup_mask = 0
    for i in range(len(faceup)):
        card = np.int64(faceup[i])
        faceup_mask |= np.int64(1) << card
        obs[p[14] + card] = (i + 1) / p[16]
    taken_other = taken[other]
    plane(obs, p[0], hand)
    plane(obs, p[1], mine)
    plane(obs, p[1] + 52, theirs)
    plane(obs, p[2], trick_mask)
    obs[p[3] + upcard] = 1.0
    plane(obs, p[4], taken[seat])
    plane(obs, p[4] + 52, taken_other)
    plane(obs, p[5], drawn)
    plane(obs, p[5] + 52, taken_other & ~seen)
    plane(obs, p[5] + 104, ((np.int64(1) << 52) - 1)
          & ~(hand | seen | taken_other | faceup_mask))
    obs[p[6] + (trump if trump >= 0 else 4)] = 1.0
    if phase >= 0:
        obs[p[7] + phase] = 1.0
    obs[p[8] + stage - 1] = 1.0
    obs[p[9] + (dealer != seat)] = 1.0
    obs[p[10] + (leader != seat)] = 1.0
    obs[p[11] + seat] = 1.0
    legal_mask(obs, mask, legal, 0, p[12])
    counts = p[15]
    obs[counts] = facedown_left / p[18]
    obs[counts + 1] = won1[seat] / p[19]
    obs[counts + 2] = won1[other] / p[19]
    obs[counts + 3] = won2[seat] / p[19]
    obs[counts + 4] = won2[other] / p[19]


@compiled
def solo(obs, mask, played, p, seat, phase, legal, high, hand, dealer, upcard,
         upcard_held, bids, passed, contract, declarer, partner, trump, leader, trick,
         won, exposed):  # pragma: no cover - compiled
    by_seat = p[len(p) - SCRATCH:]
    value = start(obs, mask, p[17], played, p[20], by_seat)
    trick_mask = trick_in_progress(obs, p[17], trick, value)
    plane(obs, p[0], hand)
    played_planes(obs, p[1], by_seat, seat, leader, trick)
    plane(obs, p[2], trick_mask)
    if upcard >= 0:
        obs[p[3] + upcard] = 1.0
    plane(obs, p[4], exposed)
    for k in range(len(bids) // 2):
        who, call = np.int64(bids[2 * k]), np.int64(bids[2 * k + 1])
        obs[p[5] + k * 4 + (who - seat) % 4] = 1.0
        obs[p[6] + k * p[23] + call - p[24]] = 1.0
    for who in range(4):
        if passed[who]:
            obs[p[7] + (who - seat) % 4] = 1.0
    obs[p[8] + (contract if contract >= 0 else p[22])] = 1.0
    obs[p[9] + ((declarer - seat) % 4 if declarer >= 0 else 4)] = 1.0
    obs[p[10] + ((partner - seat) % 4 if partner >= 0 else 4)] = 1.0
    obs[p[11] + (trump if trump >= 0 else 4)] = 1.0
    if phase >= 0:
        obs[p[12] + phase] = 1.0
    obs[p[13] + (dealer - seat) % 4] = 1.0
    obs[p[14] + (leader - seat) % 4] = 1.0
    obs[p[15] + seat] = 1.0
    if upcard_held:
        obs[p[16]] = 1.0
    legal_mask(obs, mask, legal, high, p[18])
    for rel in range(4):
        obs[p[19] + rel] = won[(seat + rel) % 4] / p[21]


@compiled
def minnesota(obs, mask, played, p, seat, phase, legal, hand, dealer, laid, laid_count,
              turned, calls, grander, grand, leader, trick, side_tricks,
              squashed):  # pragma: no cover - compiled
    by_seat = p[len(p) - SCRATCH:]
    value = start(obs, mask, p[15], played, p[17], by_seat)
    trick_mask = trick_in_progress(obs, p[15], trick, value)
    plane(obs, p[0], hand)
    played_planes(obs, p[1], by_seat, seat, leader, trick)
    plane(obs, p[2], trick_mask)
    if laid >= 0:
        obs[p[3] + laid] = 1.0
    for k in range(len(turned) // 2):
        who, card = np.int64(turned[2 * k]), np.int64(turned[2 * k + 1])
        obs[p[4] + (who - seat) % 4 * 52 + card] = 1.0
    for k in range(len(calls) // 2):
        who, call = np.int64(calls[2 * k]), np.int64(calls[2 * k + 1])
        obs[(p[6] if call == p[19] else p[5]) + (who - seat) % 4] = 1.0
    obs[p[7] + laid_count] = 1.0
    obs[p[8] + ((grander - seat) % 4 if grander >= 0 else 4)] = 1.0
    if grand:
        obs[p[9]] = 1.0
    if phase >= 0:
        obs[p[10] + phase] = 1.0
    obs[p[11] + (dealer - seat) % 4] = 1.0
    obs[p[12] + (leader - seat) % 4] = 1.0
    obs[p[13] + seat] = 1.0
    legal_mask(obs, mask, legal, 0, p[14])
    side = seat % 2
    obs[p[16]] = side_tricks[side] / p[18]
    obs[p[16] + 1] = side_tricks[1 - side] / p[18]
    obs[p[16] + 2] = squashed[side]
    obs[p[16] + 3] = squashed[1 - side]


@compiled
def knockout(obs, mask, played, p, seat, phase, legal, hand, round_, dealer, trump,
             upcard, leader, trick, trick_seats, won, full, dog,
             used):  # pragma: no cover - compiled
    n = p[16]
    by_seat = p[len(p) - SCRATCH:]
    value = start(obs, mask, p[14], played, p[17], by_seat)
    trick_mask = trick_in_progress(obs, p[14], trick, value)
    plane(obs, p[0], hand)
    for rel in range(n):
        who = (seat + rel) % n
        cards = by_seat[who]
        for i in range(len(trick)):
            if trick_seats[i] == who:
                cards |= np.int64(1) << np.int64(trick[i])
        plane(obs, p[1] + rel * 52, cards)
        if full >> who & 1:
            obs[p[4] + rel] = 1.0
        elif dog >> who & 1:
            obs[p[5] + rel] = 1.0
        if used >> who & 1:
            obs[p[6] + rel] = 1.0
        obs[p[15] + rel] = won[who] / p[17]
    plane(obs, p[2], trick_mask)
    if upcard >= 0:
        obs[p[3] + upcard] = 1.0
    obs[p[7] + (trump if trump >= 0 else 4)] = 1.0
    if phase >= 0:
        obs[p[8] + phase] = 1.0
    obs[p[9] + round_ - 1] = 1.0
    obs[p[10] + (dealer - seat) % n] = 1.0
    obs[p[11] + (leader - seat) % n] = 1.0
    obs[p[12] + seat] = 1.0
    legal_mask(obs, mask, legal, 0, p[13])


KERNELS = {"german_whist": german, "solo_whist": solo, "minnesota_whist": minnesota,
           "knockout_whist": knockout}
