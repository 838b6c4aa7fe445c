"""Solo Whist's observation tensor: layout and encoder, from a ``SoloWhistView`` only.

Seats are relative to the observer (itself, then around the table to its left), so
one policy plays any seat; the absolute seat is a one-hot of its own. Every field of
the view is recoverable from the tensor with the rules: the auction call by call
(who made it and what), the trick history through who played each card and its
trick number (leaders and winners follow from the rules), the exposed Spread Misère
hand, the upcard and whether the dealer still holds it.
"""

from __future__ import annotations

import numpy as np

from whist_sim.env.history import PlayHistory, RealValues
from whist_sim.env.layout import (
    Layout,
    card_values,
    cards,
    flags,
    numbers,
    onehot,
    relative_seats,
    seat_cards,
)
from whist_sim.games.solo_whist import BID_NAMES, CONTRACTS, PASS, SoloWhist, SoloWhistView

PLAYERS = 4
ACTIONS = 65
"""Cards 0..51, the auction's calls 52..60 (pass, prop, cop, solo, misere, abundance,
royal_abundance, spread_misere, abundance_declared), trump names 61..64 (S H D C)."""

MAX_CALLS = 12
"""Auction slots in the observation. The longest auction has 11 calls (an exhaustive
search of the engine's auctions finds no longer one): seven raises (every contract
from Prop up), one Cop and three passes, since the auction ends once every seat but
the holders has passed. The twelfth slot, from a first count that allowed four
passes, stays empty; it is kept so that policies trained on this layout still fit."""

CALL_NAMES = tuple(BID_NAMES[PASS + i] for i in range(len(BID_NAMES)))
PHASES = {"bid": 0, "trump": 1, "play": 2}
SUITS_OR_NONE = ("S", "H", "D", "C", "none")


def solo_whist_layout(game: SoloWhist) -> Layout:
    seats = relative_seats(PLAYERS)
    return Layout("solo_whist", (
        cards("hand", "own hand"),
        seat_cards("played", seats,
                   "cards each seat played this hand, the trick in progress included"),
        cards("trick", "cards in the trick in progress"),
        cards("upcard", "the dealer's turned card (empty under upcard = false)"),
        cards("exposed", "the Spread Misere declarer's remaining cards once exposed"),
        flags("call_seat", tuple(f"{k}:{s}" for k in range(1, MAX_CALLS + 1) for s in seats),
              "call k of the auction (k = 1..12) was made by this seat"),
        flags("call", tuple(f"{k}:{c}" for k in range(1, MAX_CALLS + 1) for c in CALL_NAMES),
              "call k of the auction was this call"),
        flags("passed", seats, "the seat has passed (it is never asked again)"),
        onehot("contract", (*(c.name for c in CONTRACTS), "none"),
               "the contract once the auction is won"),
        onehot("declarer", (*seats, "none"), "the declarer (the proposer in Prop and Cop)"),
        onehot("partner", (*seats, "none"), "the Cop partner in Prop and Cop"),
        onehot("trump", SUITS_OR_NONE, "trump suit (none: no trumps, or not yet known)"),
        onehot("phase", tuple(PHASES), "what the seat to act does; none once the hand is over"),
        onehot("dealer", seats, "who dealt"),
        onehot("leader", seats, "who led the trick in progress (or leads next)"),
        onehot("seat", ("0", "1", "2", "3"), "this seat's number at the table"),
        flags("upcard_held", ("upcard_held",), "the dealer still holds the upcard"),
        flags("to_act", ("to_act",), "1 when this seat acts now (its action mask is not empty)"),
        card_values("trick_number", 13,
                    "each card played: the number (1..13) of its trick, current trick included"),
        numbers("tricks_won", seats, 13, "tricks each seat has won"),
    ), ACTIONS)


class SoloWhistEncoder:
    """Tensors for one seat's views; keeps that seat's trick history between calls."""

    def __init__(self, game: SoloWhist, history: PlayHistory | None = None) -> None:
        self.layout = layout = solo_whist_layout(game)
        self.history = history if history is not None else PlayHistory(PLAYERS, 13)
        self.o = o = layout.offsets
        self.reals = RealValues(layout, self.history)
        self._auction: tuple[object, int, int] = ((), -1, 0)
        """(bids, seat) -> their bits: the auction is the same tuple all through the play."""
        small = o["passed"]
        """The fields from passed to to_act, then the mask, are ORed into a small int at
        their offsets from here, and that is shifted into place once."""
        self._offsets = (
            o["hand"], o["played"], o["trick"], o["upcard"], o["exposed"], small,
            o["contract"] - small, o["declarer"] - small, o["partner"] - small,
            o["trump"] - small, o["phase"] - small, o["dealer"] - small,
            o["leader"] - small, o["seat"] - small, o["upcard_held"] - small,
            o["to_act"] - small, layout.binary_size - small,
            o["tricks_won"] - layout.binary_size,
        )

    def reset(self) -> None:
        self.history.reset()

    def encode(self, view: SoloWhistView) -> tuple[np.ndarray, np.ndarray]:
        """The observation vector and the action mask (int8) of ``view``."""
        (o_hand, o_played, o_trick, o_upcard, o_exposed, small, r_contract, r_declarer,
         r_partner, r_trump, r_phase, r_dealer, r_leader, r_seat, r_upcard_held, r_to_act,
         r_legal, o_won) = self._offsets
        seat = view.seat
        history = self.history
        tricks = view.tricks
        if tricks is not history.synced:
            history.sync(tricks)
        trick = view.trick
        planes, trick_mask = history.planes(trick, view.leader, seat)
        bits = (view.hand << o_hand | planes << o_played | trick_mask << o_trick
                | view.exposed << o_exposed)
        if view.upcard >= 0:
            bits |= 1 << (o_upcard + view.upcard)
        bids = view.bids
        cached_bids, cached_seat, auction = self._auction
        if bids is not cached_bids or cached_seat != seat:
            o = self.o
            auction = 0
            o_seat, o_call = o["call_seat"], o["call"]
            for k, (who, call) in enumerate(bids):
                auction |= 1 << (o_seat + k * PLAYERS + (who - seat) % PLAYERS)
                auction |= 1 << (o_call + k * len(CALL_NAMES) + call - PASS)
            self._auction = (bids, seat, auction)
        bits |= auction
        low = 0
        for who, passed in enumerate(view.passed):
            if passed:
                low |= 1 << (who - seat) % PLAYERS
        contract, declarer, partner, trump = view.contract, view.declarer, view.partner, view.trump
        legal = view.legal
        low |= (1 << (r_contract + (contract if contract >= 0 else len(CONTRACTS)))
                | 1 << (r_declarer + ((declarer - seat) % PLAYERS if declarer >= 0 else PLAYERS))
                | 1 << (r_partner + ((partner - seat) % PLAYERS if partner >= 0 else PLAYERS))
                | 1 << (r_trump + (trump if trump >= 0 else 4)))
        phase = PHASES.get(view.phase)
        if phase is not None:
            low |= 1 << (r_phase + phase)
        low |= (1 << (r_dealer + (view.dealer - seat) % PLAYERS)
                | 1 << (r_leader + (view.leader - seat) % PLAYERS)
                | 1 << (r_seat + seat) | view.upcard_held << r_upcard_held
                | (legal != 0) << r_to_act | legal << r_legal)
        bits |= low << small
        reals = self.reals
        won = view.tricks_won
        if reals.stale(o_won, (won, seat)):
            reals.buffer[o_won:o_won + PLAYERS] = [won[(seat + rel) % PLAYERS] / 13
                                                   for rel in range(PLAYERS)]
        return reals.emit(bits, trick, (len(tricks) + 1) / 13)
