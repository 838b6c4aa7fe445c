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

from whist_sim.cards import NUM_CARDS
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
"""The longest auction: each seat passes once (4), every other call but Cop raises the
level (7 contracts) and Cop is made at most once."""

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

    def __init__(self, game: SoloWhist) -> None:
        self.layout = layout = solo_whist_layout(game)
        self.history = PlayHistory(PLAYERS, 13)
        self.o = layout.offsets
        self.reals = RealValues(layout, self.history)
        self._bytes = layout.packed_bytes
        self._auction: tuple[object, int, int] = ((), -1, 0)
        """(bids, seat) -> their bits: the auction is the same tuple all through the play."""

    def reset(self) -> None:
        self.history.reset()

    def encode(self, view: SoloWhistView) -> tuple[np.ndarray, np.ndarray]:
        """The observation vector and the action mask (int8) of ``view``."""
        o = self.o
        layout = self.layout
        seat = view.seat
        history = self.history
        tricks = view.tricks
        if tricks is not history.synced:
            history.sync(tricks)
        played = list(history.played)
        trick = view.trick
        trick_mask = 0
        player = view.leader
        for card in trick:
            played[player] |= 1 << card
            trick_mask |= 1 << card
            player = (player + 1) % PLAYERS
        bits = view.hand << o["hand"] | trick_mask << o["trick"] | view.exposed << o["exposed"]
        base = o["played"]
        for rel in range(PLAYERS):
            bits |= played[(seat + rel) % PLAYERS] << (base + rel * NUM_CARDS)
        if view.upcard >= 0:
            bits |= 1 << (o["upcard"] + view.upcard)
        bids = view.bids
        cached_bids, cached_seat, auction = self._auction
        if bids is not cached_bids or cached_seat != seat:
            auction = 0
            o_seat, o_call = o["call_seat"], o["call"]
            for k, (who, call) in enumerate(bids):
                auction |= 1 << (o_seat + k * PLAYERS + (who - seat) % PLAYERS)
                auction |= 1 << (o_call + k * len(CALL_NAMES) + call - PASS)
            self._auction = (bids, seat, auction)
        bits |= auction
        for who, passed in enumerate(view.passed):
            if passed:
                bits |= 1 << (o["passed"] + (who - seat) % PLAYERS)
        bits |= 1 << (o["contract"] + (view.contract if view.contract >= 0 else len(CONTRACTS)))
        for name, who in (("declarer", view.declarer), ("partner", view.partner)):
            bits |= 1 << (o[name] + ((who - seat) % PLAYERS if who >= 0 else PLAYERS))
        bits |= 1 << (o["trump"] + (view.trump if view.trump >= 0 else 4))
        phase = PHASES.get(view.phase)
        if phase is not None:
            bits |= 1 << (o["phase"] + phase)
        bits |= 1 << (o["dealer"] + (view.dealer - seat) % PLAYERS)
        bits |= 1 << (o["leader"] + (view.leader - seat) % PLAYERS)
        bits |= 1 << (o["seat"] + seat)
        bits |= view.upcard_held << o["upcard_held"] | (view.legal != 0) << o["to_act"]
        binary = layout.binary_size
        bits |= view.legal << binary
        raw = np.unpackbits(np.frombuffer(bits.to_bytes(self._bytes, "little"), np.uint8),
                            bitorder="little")
        reals = self.reals
        reals.numbers(trick, (len(tricks) + 1) / 13)
        won = view.tricks_won
        o_won = o["tricks_won"] - binary
        if reals.stale(o_won, (won, seat)):
            reals.buffer[o_won:o_won + PLAYERS] = [won[(seat + rel) % PLAYERS] / 13
                                                   for rel in range(PLAYERS)]
        obs = np.concatenate((raw[:binary], reals.buffer), dtype=np.float32)
        return obs, raw[binary:binary + ACTIONS].view(np.int8)
