"""The trick-taking core every whist game shares: following suit and who wins a trick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from whist_sim.cards import SUIT_MASKS, SUIT_NAMES, Card, CardSet, card_str, cards_str

NO_TRUMP = -1


def legal_plays(hand: CardSet, led_suit: int) -> CardSet:
    """Cards that may be played: any card to lead, else the suit led if held, else any."""
    if led_suit < 0:
        return hand
    return hand & SUIT_MASKS[led_suit] or hand


def revoke_message(seat: int, card: Card, hand: CardSet, led_suit: int) -> str:
    """The error for a card that does not follow suit, naming what the seat holds."""
    return f"seat {seat} played {card_str(card)} but {follow_suit_reason(hand, led_suit)}"


def follow_suit_reason(hand: CardSet, led_suit: int) -> str:
    """``must follow hearts (holds AH 7H)``: why a card off the led suit is refused."""
    return f"must follow {SUIT_NAMES[led_suit]} (holds {cards_str(hand & SUIT_MASKS[led_suit])})"


def beats(card: Card, best: Card, trump: int) -> bool:
    """Does ``card`` beat the card currently winning the trick?"""
    suit, best_suit = card // 13, best // 13
    if suit == best_suit:
        return card > best
    return suit == trump


def winning_index(cards: Sequence[Card], trump: int) -> int:
    """Index in play order of the card that wins a complete trick."""
    best_i = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best_i], trump):
            best_i = i
    return best_i


def cards_played(tricks: Sequence[Any], trick: Sequence[Card]) -> CardSet:
    """Every card in the completed ``tricks`` (records with ``.cards``) and the current one."""
    mask = 0
    for record in tricks:
        for card in record.cards:
            mask |= 1 << card
    for card in trick:
        mask |= 1 << card
    return mask
