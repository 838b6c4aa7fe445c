"""Cards as small integers, hands as integer bitmasks, and the two-character notation.

A card is an ``int`` 0..51: ``suit * 13 + rank`` where rank 0 is the two and rank 12
the ace, and suits are numbered in notation order S H D C. A set of cards (a hand,
the cards played, a suit) is an ``int`` bitmask with bit ``card`` set. Within a suit
a higher bit is a higher card, so the best card of a suit mask is its highest bit.

Plain ints keep the hot path free of objects (the approach of python-chess's
bitboards): set union is ``|``, membership ``mask >> card & 1``, counting
``int.bit_count``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
NUM_CARDS = 52

SUIT_BITS = 0x1FFF
SUIT_MASKS = tuple(SUIT_BITS << (13 * s) for s in range(4))
FULL_DECK = (1 << NUM_CARDS) - 1

Card = int
CardSet = int


class CardError(ValueError):
    """A card or list of cards that is not valid notation."""


def suit_of(card: Card) -> int:
    return card // 13


def rank_of(card: Card) -> int:
    return card % 13


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def card_str(card: Card) -> str:
    """``card_str(parse_card("TD")) == "TD"``."""
    if not 0 <= card < NUM_CARDS:
        raise CardError(f"{card!r} is not a card number (0..51)")
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text: str) -> Card:
    """Parse two-character notation, rank then suit: ``AS KH TD 9C 2S``."""
    token = text.strip().upper()
    if len(token) != 2 or token[0] not in RANKS or token[1] not in SUITS:
        raise CardError(
            f"{text!r} is not a card: write rank then suit, ranks {' '.join(RANKS)}"
            f" (T is the ten), suits {' '.join(SUITS)}, e.g. AS KH TD 9C"
        )
    return SUITS.index(token[1]) * 13 + RANKS.index(token[0])


def parse_suit(text: str) -> int:
    token = text.strip().upper()
    if len(token) != 1 or token not in SUITS:
        raise CardError(f"{text!r} is not a suit: allowed {', '.join(SUITS)}")
    return SUITS.index(token)


def bit(card: Card) -> CardSet:
    return 1 << card


def iter_cards(cards: CardSet) -> Iterator[Card]:
    """Cards of a mask, lowest card number first."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def cards_of(cards: CardSet) -> list[Card]:
    return list(iter_cards(cards))


def to_mask(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def parse_cards(text: str) -> CardSet:
    """Parse space-separated notation into a mask; a repeated card is an error."""
    mask = 0
    for token in text.split():
        card = parse_card(token)
        if mask >> card & 1:
            raise CardError(f"{token} appears twice in {text!r}")
        mask |= 1 << card
    return mask


def parse_card_list(text: str) -> list[Card]:
    """Parse space-separated notation keeping order (stock order, a trick)."""
    return [parse_card(token) for token in text.split()]


def display_order(cards: CardSet) -> list[Card]:
    """Suits in notation order S H D C, highest rank first: how a player fans a hand."""
    out: list[Card] = []
    for suit in range(4):
        suit_cards = (cards >> (13 * suit)) & SUIT_BITS
        for rank in range(12, -1, -1):
            if suit_cards >> rank & 1:
                out.append(suit * 13 + rank)
    return out


def cards_str(cards: CardSet | Iterable[Card]) -> str:
    """Notation for a mask (fanned in display order) or a sequence (kept in order)."""
    if isinstance(cards, int):
        return " ".join(card_str(c) for c in display_order(cards))
    return " ".join(card_str(c) for c in cards)


def highest(cards: CardSet) -> Card:
    """Highest card number in a non-empty mask (the best card when one suit is given)."""
    return cards.bit_length() - 1


def lowest(cards: CardSet) -> Card:
    return (cards & -cards).bit_length() - 1


def suit_cards(cards: CardSet, suit: int) -> CardSet:
    return cards & SUIT_MASKS[suit]


def suit_lengths(cards: CardSet) -> tuple[int, int, int, int]:
    return tuple((cards & m).bit_count() for m in SUIT_MASKS)  # type: ignore[return-value]
