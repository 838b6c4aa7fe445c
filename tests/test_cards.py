"""Cards, notation and masks (whist_sim.cards); seeds and shuffles (whist_sim.rng).

The golden values pin the shuffle: a deal is a pure function of its seed forever
(docs/rules/README.md), so any change to SplitMix64, the factorial decoding or the seed
derivation must fail here before it silently changes every recorded deal.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.cards import (
    FULL_DECK,
    NUM_CARDS,
    RANKS,
    SUIT_MASKS,
    SUITS,
    CardError,
    bit,
    card_str,
    cards_of,
    cards_str,
    display_order,
    highest,
    iter_cards,
    lowest,
    make_card,
    parse_card,
    parse_card_list,
    parse_cards,
    parse_suit,
    rank_of,
    suit_cards,
    suit_lengths,
    suit_of,
    to_mask,
)
from whist_sim.rng import (
    SplitMix64,
    _splitmix_words,
    derive_seed,
    shuffled_deck,
    splitmix64,
    strategy_rng,
)

# -- notation ------------------------------------------------------------------------


def test_every_card_round_trips_through_notation():
    texts = {card_str(card) for card in range(NUM_CARDS)}
    assert len(texts) == NUM_CARDS
    for card in range(NUM_CARDS):
        assert parse_card(card_str(card)) == card
    for rank, suit in itertools.product(RANKS, SUITS):
        assert card_str(parse_card(rank + suit)) == rank + suit


def test_notation_examples_rank_then_suit():
    assert parse_card("AS") == make_card(12, 0)
    assert parse_card("KH") == make_card(11, 1)
    assert parse_card("TD") == make_card(8, 2)
    assert parse_card("9C") == make_card(7, 3)
    assert parse_card("2S") == 0
    assert card_str(make_card(8, 2)) == "TD"
    assert cards_str(parse_card_list("AS KH TD 9C")) == "AS KH TD 9C"


def test_card_number_is_suit_times_13_plus_rank_ace_high():
    for card in range(NUM_CARDS):
        assert card == suit_of(card) * 13 + rank_of(card)
        assert make_card(rank_of(card), suit_of(card)) == card
    assert rank_of(parse_card("AH")) == 12
    assert rank_of(parse_card("2H")) == 0
    assert suit_of(parse_card("5C")) == 3


def test_lower_case_and_surrounding_space_accepted():
    assert parse_card("as") == parse_card("AS")
    assert parse_card("tD") == parse_card("TD")
    assert parse_card(" qc ") == parse_card("QC")
    assert parse_cards("as kh td 9c") == parse_cards("AS KH TD 9C")
    assert parse_suit("h") == 1


@pytest.mark.parametrize("token", ["1S", "AX", "10H", "", "A", "ASK", "S A", "0D"])
def test_bad_card_token_raises_card_error_naming_token_ranks_and_suits(token):
    with pytest.raises(CardError) as info:
        parse_card(token)
    message = str(info.value)
    assert repr(token) in message
    assert "ranks 2 3 4 5 6 7 8 9 T J Q K A" in message
    assert "suits S H D C" in message


def test_bad_token_inside_a_list_names_that_token():
    with pytest.raises(CardError, match="'10H'"):
        parse_cards("AS 10H KD")
    with pytest.raises(CardError, match="'AX'"):
        parse_card_list("AS AX")


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_duplicate_card_in_parse_cards_raises_naming_card():
    with pytest.raises(CardError, match="AS appears twice"):
        parse_cards("AS KH AS")
    with pytest.raises(CardError, match="appears twice"):
        parse_cards("as AS")


def test_parse_card_list_keeps_order_and_duplicates():
    assert parse_card_list("2S AS 2S") == [0, 12, 0]
    assert parse_card_list("") == []


def test_bad_suit_names_token_and_allowed_suits():
    with pytest.raises(CardError) as info:
        parse_suit("X")
    assert "'X'" in str(info.value)
    assert "S, H, D, C" in str(info.value)


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_str_rejects_numbers_outside_the_deck(number):
    with pytest.raises(CardError, match=str(number)):
        card_str(number)


# -- masks ---------------------------------------------------------------------------


def test_suit_masks_partition_the_deck():
    assert FULL_DECK == (1 << 52) - 1
    union = 0
    for suit, mask in enumerate(SUIT_MASKS):
        assert mask.bit_count() == 13
        assert union & mask == 0
        union |= mask
        assert all(suit_of(card) == suit for card in iter_cards(mask))
    assert union == FULL_DECK


def test_parse_cards_gives_a_mask_and_cards_str_fans_it():
    mask = parse_cards("9C TD KH AS 2S")
    assert mask == bit(parse_card("9C")) | bit(parse_card("TD")) | bit(parse_card("KH")) | 1 | (
        1 << 12
    )
    assert mask.bit_count() == 5
    # a mask prints fanned: suits S H D C, highest rank first
    assert cards_str(mask) == "AS 2S KH TD 9C"
    # a sequence prints in its own order
    assert cards_str([parse_card("9C"), parse_card("AS")]) == "9C AS"
    assert cards_str(0) == ""


def test_iter_cards_lowest_first_and_to_mask_inverse():
    mask = parse_cards("AC 2S KH 3D")
    assert list(iter_cards(mask)) == sorted(parse_card_list("AC 2S KH 3D"))
    assert cards_of(mask) == sorted(parse_card_list("AC 2S KH 3D"))
    assert to_mask(cards_of(mask)) == mask
    assert to_mask([]) == 0
    assert cards_of(FULL_DECK) == list(range(52))


def test_display_order_suits_in_notation_order_highest_first():
    mask = parse_cards("2C AC 3H 4S QS TD")
    assert [card_str(c) for c in display_order(mask)] == ["QS", "4S", "3H", "TD", "AC", "2C"]


def test_highest_and_lowest():
    hearts = parse_cards("3H QH 7H")
    assert card_str(highest(hearts)) == "QH"
    assert card_str(lowest(hearts)) == "3H"
    assert card_str(highest(FULL_DECK)) == "AC"
    assert card_str(lowest(FULL_DECK)) == "2S"


def test_suit_cards_and_suit_lengths():
    hand = parse_cards("AS KS 2H TD 9D 8D 3C")
    assert suit_cards(hand, 0) == parse_cards("AS KS")
    assert suit_cards(hand, 1) == parse_cards("2H")
    assert suit_cards(hand, 2) == parse_cards("TD 9D 8D")
    assert suit_cards(hand, 3) == parse_cards("3C")
    assert suit_lengths(hand) == (2, 1, 3, 1)
    assert suit_lengths(0) == (0, 0, 0, 0)
    assert suit_lengths(FULL_DECK) == (13, 13, 13, 13)


def test_higher_bit_is_higher_card_within_a_suit():
    for suit in range(4):
        cards = [make_card(rank, suit) for rank in range(13)]
        assert cards == sorted(cards)
        assert card_str(cards[-1])[0] == "A"


# -- rng: shuffles -------------------------------------------------------------------

SEED_0_DECK = (
    "6S JC 8H QD 7C 9H AC QH KD 5H 2D 2C 6C KS 7S JD 2S AS JH 9D 4C 8S 6D 9S TS KC"
    " 7D 4D TH 3C 8D 4H AD QS 3H 7H JS AH 5C TC 6H 2H 3S 5D QC 3D TD 9C 5S 4S 8C KH"
)
SEED_12345_DECK = (
    "2H 6S QH JS AC QC KH QS QD 2C 7C TD 9S JD 4H 8H 5H 6H 2S 9H KD 7H KS 8D 4C AD"
    " 5S 7S 3D TH JC 9D 3S 8S AH KC 5D AS TC 6D 5C 8C 3C 3H TS 9C 6C 4D 4S 2D 7D JH"
)


def test_shuffled_deck_is_a_permutation():
    for seed in range(50):
        deck = shuffled_deck(seed)
        assert len(deck) == 52
        assert sorted(deck) == list(range(52))


def test_shuffled_deck_is_a_pure_function_of_the_seed():
    assert shuffled_deck(7) == shuffled_deck(7)
    assert shuffled_deck(2**63 - 1) == shuffled_deck(2**63 - 1)
    decks = {tuple(shuffled_deck(seed)) for seed in range(200)}
    assert len(decks) == 200


def test_shuffled_deck_golden_seed_0():
    assert cards_str(shuffled_deck(0)) == SEED_0_DECK


def test_shuffled_deck_golden_seed_12345():
    assert cards_str(shuffled_deck(12345)) == SEED_12345_DECK


def test_shuffled_deck_small_sizes_are_uniform_permutations():
    counts = Counter(tuple(shuffled_deck(seed, 3)) for seed in range(6000))
    assert set(counts) == set(itertools.permutations(range(3)))
    # 1000 expected per permutation; 6 binomial sd is about 220
    assert all(800 < n < 1200 for n in counts.values())
    assert shuffled_deck(5, 1) == [0]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**63 - 1))
def test_shuffled_deck_is_always_a_permutation(seed):
    deck = shuffled_deck(seed)
    assert sorted(deck) == list(range(52))


# -- rng: SplitMix64 and seed derivation ---------------------------------------------


def test_splitmix64_matches_the_published_reference_vector():
    # Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    assert _splitmix_words(0, 3) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert splitmix64(0) == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 - 1, 2**64 - 1, 2**64 + 5])
def test_splitmix64_class_matches_inlined_words(seed):
    generator = SplitMix64(seed)
    assert [generator.next64() for _ in range(20)] == _splitmix_words(seed, 20)
    assert splitmix64(seed) == _splitmix_words(seed, 1)[0]


def test_splitmix64_below_is_in_range_and_covers_it():
    generator = SplitMix64(99)
    draws = [generator.below(7) for _ in range(700)]
    assert set(draws) == set(range(7))
    assert all(SplitMix64(s).below(1) == 0 for s in range(10))


def test_derive_seed_golden_values():
    assert derive_seed(0) == 4761921975702974394
    assert derive_seed(12345, "hand", 0) == 8623405340540062798
    assert derive_seed(7, "deal", 3, "x") == 6304323686653467847


def test_derive_seed_is_63_bit_and_depends_on_the_whole_path_in_order():
    seeds = {
        derive_seed(1),
        derive_seed(1, 0),
        derive_seed(1, "hand", 0),
        derive_seed(1, "hand", 1),
        derive_seed(1, 0, "hand"),
        derive_seed(2, "hand", 0),
    }
    assert len(seeds) == 6
    for root in range(100):
        assert 0 <= derive_seed(root, "x") < 2**63
    assert derive_seed(5, "a", 3) == derive_seed(5, "a", 3)


def test_strategy_rng_is_seeded_reproducibly():
    a, b = strategy_rng(42), strategy_rng(42)
    assert [a.random() for _ in range(5)] == [b.random() for _ in range(5)]
    assert strategy_rng(42).random() != strategy_rng(43).random()
