"""Minnesota Whist's observation tensor: layout and encoder, from a ``MinnesotaWhistView``.

Seats are relative to the observer (itself, left, partner, right); sides too (own
side first). Every field of the view is recoverable from the tensor with the rules:
the turned cards in turning order (it runs from the dealer's left), the spoken calls
(also in turn from the dealer's left), the trick history through who played each
card and its trick number. The game score before the deal is squashed into (-1, 1)
(it may go below zero under ``scoring = "pagat"``).
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
    squash,
    squashed,
)
from whist_sim.games.minnesota_whist import GRAND, MinnesotaWhist, MinnesotaWhistView

PLAYERS = 4
ACTIONS = 54
"""Cards 0..51 (laid in the bidding, then played); spoken bidding: pass = 52, grand = 53."""

PHASES = {"lay": 0, "bid": 1, "play": 2}
SIDES = ("own_side", "other_side")


def minnesota_whist_layout(game: MinnesotaWhist) -> Layout:
    seats = relative_seats(PLAYERS)
    return Layout("minnesota_whist", (
        cards("hand", "own hand"),
        seat_cards("played", seats,
                   "cards each seat played this deal, the trick in progress included"),
        cards("trick", "cards in the trick in progress"),
        cards("laid", "the card this seat laid face down (bid = \"cards\")"),
        seat_cards("turned", seats, "laid cards turned face up, by whose they were"),
        flags("called_pass", seats, "the seat said pass (bid = \"spoken\")"),
        flags("called_grand", seats, "the seat said grand (bid = \"spoken\")"),
        onehot("laid_count", ("0", "1", "2", "3", "4"), "how many players have laid a card"),
        onehot("grander", (*seats, "none"), "the seat that granded"),
        flags("grand", ("grand",), "1 in a grand (play high), 0 in a null hand or before play"),
        onehot("phase", tuple(PHASES), "what the seat to act does; none once the deal is over"),
        onehot("dealer", seats, "who dealt"),
        onehot("leader", seats, "who led the trick in progress (or leads next)"),
        onehot("seat", ("0", "1", "2", "3"), "this seat's number at the table"),
        flags("to_act", ("to_act",), "1 when this seat acts now (its action mask is not empty)"),
        card_values("trick_number", 13,
                    "each card played: the number (1..13) of its trick, current trick included"),
        numbers("side_tricks", SIDES, 13, "tricks each side has won this deal"),
        squashed("score", SIDES, game.variant.target,
                 "the game score of each side before this deal, v / (|v| + target)"),
    ), ACTIONS)


class MinnesotaWhistEncoder:
    """Tensors for one seat's views; keeps that seat's trick history between calls."""

    def __init__(self, game: MinnesotaWhist, history: PlayHistory | None = None) -> None:
        self.layout = layout = minnesota_whist_layout(game)
        self.history = history if history is not None else PlayHistory(PLAYERS, 13)
        self.target = game.variant.target
        self.reals = RealValues(layout, self.history)
        o = layout.offsets
        small = o["called_pass"]
        """The fields from called_pass to to_act, then the mask, are ORed into a small
        int at their offsets from here, and that is shifted into place once."""
        self._offsets = (
            o["hand"], o["played"], o["trick"], o["laid"], o["turned"], small,
            o["called_grand"] - small, o["laid_count"] - small, o["grander"] - small,
            o["grand"] - small, o["phase"] - small, o["dealer"] - small,
            o["leader"] - small, o["seat"] - small, o["to_act"] - small,
            layout.binary_size - small, o["side_tricks"] - layout.binary_size,
        )

    def reset(self) -> None:
        self.history.reset()

    def encode(self, view: MinnesotaWhistView) -> tuple[np.ndarray, np.ndarray]:
        """The observation vector and the action mask (int8) of ``view``."""
        (o_hand, o_played, o_trick, o_laid, o_turned, small, r_grand_call, r_laid_count,
         r_grander, r_grand, r_phase, r_dealer, r_leader, r_seat, r_to_act, r_legal,
         o_tricks) = self._offsets
        seat = view.seat
        history = self.history
        tricks = view.tricks
        if tricks is not history.synced:
            history.sync(tricks)
        trick = view.trick
        planes, trick_mask = history.planes(trick, view.leader, seat)
        bits = view.hand << o_hand | planes << o_played | trick_mask << o_trick
        if view.laid >= 0:
            bits |= 1 << (o_laid + view.laid)
        turned = view.turned
        if turned:
            turned_bits = 0
            for who, card in turned:
                turned_bits |= 1 << ((who - seat) % PLAYERS * NUM_CARDS + card)
            bits |= turned_bits << o_turned
        legal = view.legal
        low = 1 << (r_laid_count + view.laid_count)
        for who, call in view.calls:
            low |= 1 << ((r_grand_call if call == GRAND else 0) + (who - seat) % PLAYERS)
        grander = view.grander
        low |= 1 << (r_grander + ((grander - seat) % PLAYERS if grander >= 0 else PLAYERS))
        low |= view.grand << r_grand
        phase = PHASES.get(view.phase)
        if phase is not None:
            low |= 1 << (r_phase + phase)
        low |= (1 << (r_dealer + (view.dealer - seat) % PLAYERS)
                | 1 << (r_leader + (view.leader - seat) % PLAYERS)
                | 1 << (r_seat + seat) | (legal != 0) << r_to_act | legal << r_legal)
        bits |= low << small
        reals = self.reals
        side = seat % 2
        tricks_won, score = view.side_tricks, view.score
        if reals.stale(o_tricks, (tricks_won, score, side)):
            target = self.target
            reals.buffer[o_tricks:o_tricks + 4] = (
                tricks_won[side] / 13, tricks_won[1 - side] / 13,
                squash(score[side], target), squash(score[1 - side], target))
        return reals.emit(bits, trick, (len(tricks) + 1) / 13)
