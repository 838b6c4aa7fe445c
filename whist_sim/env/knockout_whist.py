"""Knock-out Whist's observation tensor: layout and encoder, from a ``KnockoutWhistView``.

The table size is fixed per environment (2..7 players), so the layout has one plane
or entry per seat, relative to the observer (itself, then around the table to its
left). The pack is reshuffled every round: card planes and trick numbers cover the
current round only, as the view does. Every field of the view is recoverable from
the tensor with the rules: who played each card and in which trick (a knocking dog
is the seat that held a card and did not play to the trick), the round's leaders
and winners, who is in, on a dog's life or out.
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
from whist_sim.games.knockout_whist import DOG, IN, ROUNDS, KnockoutWhist, KnockoutWhistView

ACTIONS = 57
"""Cards 0..51, knock = 52 (a dog passes a trick), trump names 53..56 (S H D C)."""

PHASES = {"play": 0, "trump": 1}
SUITS_OR_NONE = ("S", "H", "D", "C", "none")


def knockout_whist_layout(game: KnockoutWhist) -> Layout:
    players = game.players
    seats = relative_seats(players)
    return Layout(f"knockout_whist_{players}p", (
        cards("hand", "own hand"),
        seat_cards("played", seats,
                   "cards each seat played this round, the trick in progress included"),
        cards("trick", "cards in the trick in progress"),
        cards("upcard", "the card turned for trump in round 1 (empty in later rounds)"),
        flags("full", seats, "the seat is in as a full player"),
        flags("dog", seats, "the seat is on a dog's life this round (neither: out)"),
        flags("dog_used", seats, "the seat has had its dog's life"),
        onehot("trump", SUITS_OR_NONE, "trump suit of the round (none while being chosen)"),
        onehot("phase", tuple(PHASES), "what the seat to act does; none once the game is over"),
        onehot("round", tuple(str(r) for r in range(1, ROUNDS + 1)),
               "the round (round r deals 8 - r cards)"),
        onehot("dealer", seats, "who dealt this round"),
        onehot("leader", seats, "who led the trick in progress (or leads next)"),
        onehot("seat", tuple(str(s) for s in range(players)), "this seat's number at the table"),
        flags("to_act", ("to_act",), "1 when this seat acts now (its action mask is not empty)"),
        card_values("trick_number", ROUNDS,
                    "each card played this round: the number (1..7) of its trick,"
                    " current trick included"),
        numbers("round_tricks", seats, ROUNDS, "tricks each seat has taken this round"),
    ), ACTIONS)


class KnockoutWhistEncoder:
    """Tensors for one seat's views; keeps that seat's trick history between calls."""

    def __init__(self, game: KnockoutWhist, history: PlayHistory | None = None) -> None:
        self.layout = layout = knockout_whist_layout(game)
        self.players = game.players
        self.history = history if history is not None else PlayHistory(game.players, ROUNDS)
        self.reals = RealValues(layout, self.history)
        o = layout.offsets
        small = o["full"]
        """The fields from full to to_act, then the mask, are ORed into a small int at
        their offsets from here, and that is shifted into place once."""
        self._offsets = (
            o["hand"], o["played"], o["trick"], o["upcard"], small, o["dog"] - small,
            o["dog_used"] - small, o["trump"] - small, o["phase"] - small,
            o["round"] - small, o["dealer"] - small, o["leader"] - small,
            o["seat"] - small, o["to_act"] - small, layout.binary_size - small,
            o["round_tricks"] - layout.binary_size,
        )

    def reset(self) -> None:
        self.history.reset()

    def encode(self, view: KnockoutWhistView) -> tuple[np.ndarray, np.ndarray]:
        """The observation vector and the action mask (int8) of ``view``."""
        (o_hand, o_played, o_trick, o_upcard, small, r_dog, r_used, r_trump, r_phase,
         r_round, r_dealer, r_leader, r_seat, r_to_act, r_legal, o_won) = self._offsets
        n = self.players
        seat = view.seat
        history = self.history
        tricks = view.tricks
        if tricks is not history.synced:
            history.sync(tricks, view.trick_players)
        played = list(history.played)
        trick_mask = 0
        for who, card in zip(view.trick_seats, view.trick, strict=True):
            played[who] |= 1 << card
            trick_mask |= 1 << card
        status, used = view.status, view.dog_used
        planes = 0
        low = 0
        for rel in range(n):
            who = (seat + rel) % n
            planes |= played[who] << rel * NUM_CARDS
            if status[who] == IN:
                low |= 1 << rel
            elif status[who] == DOG:
                low |= 1 << (r_dog + rel)
            if used[who]:
                low |= 1 << (r_used + rel)
        bits = view.hand << o_hand | planes << o_played | trick_mask << o_trick
        if view.upcard >= 0:
            bits |= 1 << (o_upcard + view.upcard)
        trump, legal = view.trump, view.legal
        low |= 1 << (r_trump + (trump if trump >= 0 else 4))
        phase = PHASES.get(view.phase)
        if phase is not None:
            low |= 1 << (r_phase + phase)
        low |= (1 << (r_round + view.round - 1) | 1 << (r_dealer + (view.dealer - seat) % n)
                | 1 << (r_leader + (view.leader - seat) % n)
                | 1 << (r_seat + seat) | (legal != 0) << r_to_act | legal << r_legal)
        bits |= low << small
        reals = self.reals
        won = view.round_tricks
        if reals.stale(o_won, (won, seat)):
            reals.buffer[o_won:o_won + n] = [won[(seat + rel) % n] / ROUNDS for rel in range(n)]
        return reals.emit(bits, view.trick, (len(tricks) + 1) / ROUNDS)
