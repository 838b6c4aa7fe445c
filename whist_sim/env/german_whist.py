"""German Whist's observation tensor: layout and encoder, from a ``GermanWhistView`` only.

Seats are relative to the observer (itself, then the opponent), so one policy plays
either seat. Every field of the view is recoverable from the tensor (with the rules):
the trick history through who played each card and its trick number, the face-up row
through its turning order; the variant is fixed per environment and not encoded.
"""

from __future__ import annotations

import numpy as np

from whist_sim.cards import FULL_DECK, NUM_CARDS
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
from whist_sim.games.german_whist import GermanWhist, GermanWhistView

ACTIONS = 52
"""Cards 0..51: play a card, or in the "take" phase take that face-up card."""

SUITS_OR_NONE = ("S", "H", "D", "C", "none")
PHASES = {"play": 0, "take": 1}


def german_whist_layout(game: GermanWhist) -> Layout:
    seats = relative_seats(2)
    return Layout("german_whist", (
        cards("hand", "own hand"),
        seat_cards("played", seats,
                   "cards each seat played this hand, the trick in progress included"),
        cards("trick", "cards in the trick in progress"),
        cards("upcard", "the first face-up stock card, which fixed trump"),
        seat_cards("taken", seats, "face-up stock cards each seat took (public)"),
        cards("drawn", "face-down stock cards this seat drew (only it saw them)"),
        cards("opponent_known", "derived: face-up cards the opponent took and still holds"),
        cards("unseen", "derived: cards this seat never saw (opponent's others, face-down stock)"),
        onehot("trump", SUITS_OR_NONE, "trump suit (none under trumps = \"none\")"),
        onehot("phase", tuple(PHASES), "what the seat to act does; none once the hand is over"),
        onehot("stage", ("1", "2"), "stage 1 while the stock lasts, then 2"),
        onehot("dealer", seats, "who dealt"),
        onehot("leader", seats, "who led the trick in progress (or leads next)"),
        onehot("seat", ("0", "1"), "this seat's number at the table"),
        flags("to_act", ("to_act",), "1 when this seat acts now (its action mask is not empty)"),
        card_values("trick_number", 26,
                    "each card played: the number (1..26) of its trick, current trick included"),
        card_values("faceup", game.variant.open_stock,
                    "face-up stock cards: place in turning order, 1 = turned earliest"),
        numbers("facedown_left", ("facedown_left",), 26, "stock cards still face down"),
        numbers("stage1_tricks", seats, 13, "tricks won in stage 1"),
        numbers("stage2_tricks", seats, 13, "tricks won in stage 2"),
    ), ACTIONS)


class GermanWhistEncoder:
    """Tensors for one seat's views; keeps that seat's trick history between calls."""

    def __init__(self, game: GermanWhist, history: PlayHistory | None = None) -> None:
        self.layout = layout = german_whist_layout(game)
        self.history = history if history is not None else PlayHistory(2, 26)
        self.open_stock = game.variant.open_stock
        binary = layout.binary_size
        self.reals = RealValues(layout, self.history)
        o = layout.offsets
        if not o["drawn"] + NUM_CARDS == o["opponent_known"] == o["unseen"] - NUM_CARDS:
            raise ValueError("german_whist layout: drawn, opponent_known and unseen are"
                             " written as one stretch, so they must follow each other")
        small = o["trump"]
        """The fields from trump to to_act, then the mask, are ORed into a small int at
        their offsets from here, and that is shifted into place once."""
        self._offsets = (
            o["hand"], o["played"], o["trick"], o["upcard"], o["taken"], o["drawn"], small,
            o["phase"] - small, o["stage"] - small,
            o["dealer"] - small, o["leader"] - small, o["seat"] - small, o["to_act"] - small,
            binary - small, o["faceup"] - binary, o["facedown_left"] - binary,
        )

    def reset(self) -> None:
        self.history.reset()

    def encode(self, view: GermanWhistView) -> tuple[np.ndarray, np.ndarray]:
        """The observation vector and the action mask (int8) of ``view``."""
        (o_hand, o_played, o_trick, o_upcard, o_taken, o_drawn, small,
         r_phase, r_stage, r_dealer, r_leader, r_seat, r_to_act, r_legal, o_faceup,
         o_counts) = self._offsets
        seat = view.seat
        other = 1 - seat
        history = self.history
        tricks = view.tricks
        if tricks is not history.synced:
            history.sync(tricks)
        mine, theirs = history.played[seat], history.played[other]
        trick = view.trick
        trick_mask = 0
        if trick:
            player = view.leader
            for card in trick:
                if player == seat:
                    mine |= 1 << card
                else:
                    theirs |= 1 << card
                trick_mask |= 1 << card
                player = 1 - player
        taken = view.taken_faceup
        faceup = view.faceup
        faceup_mask = 0
        for card in faceup:
            faceup_mask |= 1 << card
        played = mine | theirs
        hand = view.hand
        legal = view.legal
        trump = view.trump
        phase = PHASES.get(view.phase)
        taken_other = taken[other]
        bits = (
            hand << o_hand | (mine | theirs << NUM_CARDS) << o_played
            | trick_mask << o_trick | 1 << (o_upcard + view.upcard)
            | (taken[seat] | taken_other << NUM_CARDS) << o_taken
            | (view.drawn | (taken_other & ~played) << NUM_CARDS
               | (FULL_DECK & ~(hand | played | taken_other | faceup_mask)) << 2 * NUM_CARDS
               ) << o_drawn
            | (1 << (trump if trump >= 0 else 4)
               | (0 if phase is None else 1 << (r_phase + phase))
               | 1 << (r_stage + view.stage - 1)
               | 1 << (r_dealer + (view.dealer != seat)) | 1 << (r_leader + (view.leader != seat))
               | 1 << (r_seat + seat) | (legal != 0) << r_to_act | legal << r_legal) << small
        )
        reals = self.reals
        reals.card_values(o_faceup, faceup, self.open_stock)
        won1, won2 = view.stage1_tricks, view.stage2_tricks
        if reals.stale(o_counts, (view.facedown_left, won1, won2, seat)):
            reals.buffer[o_counts:o_counts + 5] = (
                view.facedown_left / 26, won1[seat] / 13, won1[other] / 13,
                won2[seat] / 13, won2[other] / 13)
        return reals.emit(bits, trick, (len(tricks) + 1) / 26)
