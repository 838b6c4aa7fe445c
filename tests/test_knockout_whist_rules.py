"""Knock-out Whist, one test per rule of docs/rules/knockout-whist.md, on stacked packs.

The engine deals every round from ``shuffled_deck(derive_seed(seed, "round", r))``.
``Rig`` monkeypatches that function so chosen rounds get a pack we stacked; the real
dealing code (one card at a time from the dealer's left, a dog's single card in the
first pass, the round-1 turn-up next) then produces the hands we want. Every round
that ``run`` plays is checked against the hands the stacked pack was meant to give.

Most whole rounds use ``blocks(winners, seats)``: trick ``t`` is a block of ``m``
consecutive ranks of one suit (spades, then hearts, then diamonds, never clubs); the
winner of trick ``t`` gets the top card of the block, the others its lower cards.
When every full player plays its LOWEST legal card and clubs are trump (round 1 turns
``2C``; ``run`` names clubs for later rounds), everyone plays block ``t`` to trick
``t``, whoever leads, so trick ``t`` goes to ``winners[t]``. A dog holding ``AC`` (a
trump) wins the trick it plays to; one holding a diamond that no block uses loses.
``test_blocks_deal_and_win_as_designed`` checks the construction itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from strategies.random_play import RandomStrategy
from whist_sim.cards import (
    SUITS,
    cards_str,
    lowest,
    make_card,
    parse_card,
    parse_card_list,
    parse_cards,
    to_mask,
)
from whist_sim.games import knockout_whist, make_game
from whist_sim.games.base import RuleError, VariantError
from whist_sim.games.knockout_whist import (
    KNOCK,
    NAME_TRUMP,
    KnockoutWhist,
    KnockoutWhistDeal,
)
from whist_sim.play import play_deal
from whist_sim.rng import derive_seed, shuffled_deck

SEED = 2024
TRUMP_ACTIONS = sum(1 << (NAME_TRUMP + suit) for suit in range(4))
CLUBS = NAME_TRUMP + SUITS.index("C")

# -- stacking the pack ------------------------------------------------------------------


def c(text: str) -> int:
    return parse_card(text)


def game(players: int = 3, **variant) -> KnockoutWhist:
    return make_game("knockout_whist", variant, players)  # type: ignore[return-value]


def stacked(
    dealer: int, players: int, hands: Mapping[int, Sequence[int]], upcard: int | None = None
) -> list[int]:
    """A pack that deals ``hands`` one card at a time from the dealer's left, then turns
    ``upcard``; the cards no one is dealt follow in order."""
    order = [(dealer + k) % players for k in range(1, players + 1)]
    pack = [
        hands[seat][k]
        for k in range(max(len(h) for h in hands.values()))
        for seat in order
        if seat in hands and k < len(hands[seat])
    ]
    if upcard is not None:
        pack.append(upcard)
    pack += [card for card in range(52) if card not in pack]
    assert sorted(pack) == list(range(52)), "a card is dealt twice"
    return pack


def blocks(winners: Sequence[int], seats: Sequence[int]) -> dict[int, list[int]]:
    """Hands in which trick t goes to ``winners[t]`` when all play their lowest card."""
    m = len(seats)
    per_suit = 13 // m
    hands: dict[int, list[int]] = {seat: [] for seat in seats}
    for t, winner in enumerate(winners):
        suit, block = divmod(t, per_suit)
        assert suit < 3, "clubs stay free for trump"
        others = [seat for seat in seats if seat != winner]
        hands[winner].append(make_card(block * m + m - 1, suit))
        for i, seat in enumerate(others):
            hands[seat].append(make_card(block * m + i, suit))
    return hands


def cycle(seats: Sequence[int], tricks: int) -> list[int]:
    """Trick winners taking turns: everyone wins a trick when there are enough."""
    return [seats[t % len(seats)] for t in range(tricks)]


class Rig:
    """Stacks the pack of chosen rounds of the games of ``seeds``; other rounds shuffle."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, players: int,
                 seeds: Sequence[int] = (SEED,)) -> None:
        self.players = players
        self.packs: dict[int, list[int]] = {}
        self.hands: dict[int, tuple[int, ...]] = {}
        self.round_of = {derive_seed(s, "round", r): r for s in seeds for r in range(1, 8)}
        monkeypatch.setattr(knockout_whist, "shuffled_deck", self.shuffled_deck)

    def deal(self, round_: int, dealer: int, hands: Mapping[int, Sequence[int] | str],
             upcard: str | None = None) -> None:
        cards = {
            seat: parse_card_list(h) if isinstance(h, str) else list(h)
            for seat, h in hands.items()
        }
        if round_ == 1 and upcard is None:
            upcard = "2C"  # clubs are trump
        turned = None if upcard is None else c(upcard)
        self.packs[round_] = stacked(dealer, self.players, cards, turned)
        self.hands[round_] = tuple(to_mask(cards.get(s, ())) for s in range(self.players))

    def shuffled_deck(self, seed: int) -> list[int]:
        round_ = self.round_of.get(seed)
        if round_ in self.packs:
            return list(self.packs[round_])
        return shuffled_deck(seed)

    def check(self, state: KnockoutWhistDeal) -> None:
        expected = self.hands.get(state.round)
        if expected is not None:
            assert state.round_start_hands == expected, (
                f"round {state.round} dealt {[cards_str(h) for h in state.round_start_hands]},"
                f" not the stacked {[cards_str(h) for h in expected]}"
            )


def run(
    state: KnockoutWhistDeal,
    rig: Rig | None = None,
    dogs: Mapping[tuple[int, int], int] | None = None,
    until_round: int | None = None,
) -> list[int]:
    """Play on: full players play their lowest legal card, a trump chooser names clubs,
    the dog in ``seat`` in round ``r`` knocks until trick ``dogs[r, seat]`` (default the
    last). Stops when the game is over or round ``until_round`` has been dealt.
    Returns the dealer of each round played."""
    dogs = dogs or {}
    dealers = {state.round: state.dealer}
    while not state.over:
        if rig is not None:
            rig.check(state)
        dealers[state.round] = state.dealer
        if until_round is not None and state.round >= until_round:
            break
        seat = state.to_act
        if state.phase == "trump":
            state.apply(CLUBS)
        elif state.status[seat] == "dog":
            plays_at = dogs.get((state.round, seat), state.cards_dealt)
            now = len(state.tricks) + 1
            state.apply(lowest(state.hands[seat]) if now >= plays_at else KNOCK)
        else:
            state.apply(lowest(state.legal))
    return [dealers[r] for r in sorted(dealers)]


def play(state: KnockoutWhistDeal, *actions: str) -> None:
    for text in actions:
        state.apply(state.game.parse_action(text))


def rows_by_seat(state: KnockoutWhistDeal, round_: int) -> dict[int, dict]:
    return {row["seat"]: row for row in state.round_rows if row["round"] == round_}


# A round-1 layout for single tricks: 3 players, dealer 0 (seat 1 leads), 2D turned so
# diamonds are trump; seat 0 is void in hearts.
TRICK_HANDS = {
    1: "KS 5S 3H 4H 6C 7C 8C",
    2: "QS 2S AH 5H 9D 9C TC",
    0: "JS 3D 4D JC QC KC AC",
}


@pytest.fixture
def tricks_deal(monkeypatch) -> KnockoutWhistDeal:
    rig = Rig(monkeypatch, 3)
    rig.deal(1, 0, TRICK_HANDS, upcard="2D")
    state = game(3).new_deal(SEED, 0)
    rig.check(state)
    return state


# -- the construction --------------------------------------------------------------------


@pytest.mark.parametrize("seats", [[0, 1], [0, 1, 2], [0, 1, 2, 3]])
def test_blocks_deal_and_win_as_designed(monkeypatch, seats):
    n = len(seats)
    winners = [seats[(3 * t + 1) % n] for t in range(7)]
    rig = Rig(monkeypatch, n)
    rig.deal(1, n - 1, blocks(winners, seats))
    state = game(n).new_deal(SEED, n - 1)
    run(state, rig, until_round=2)
    assert [t.winner for t in state.all_tricks] == winners


# -- players and rounds ------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_two_to_seven_players_are_dealt_seven_cards_each(players):
    state = game(players).new_deal(SEED, 0)
    assert state.players == players
    assert [h.bit_count() for h in state.hands] == [7] * players
    assert sum(state.hands).bit_count() == 7 * players  # no card twice
    assert not sum(state.hands) >> state.upcard & 1


@pytest.mark.parametrize("players", [0, 1, 8, 9])
def test_one_or_eight_players_are_refused_naming_the_range(players):
    with pytest.raises(VariantError, match=r"knockout_whist is played by 2\.\.7 players"):
        game(players)


@pytest.mark.parametrize("players, dealer", [(2, 1), (4, 0), (4, 3), (7, 5)])
def test_round_one_deals_one_card_at_a_time_from_the_dealers_left(players, dealer):
    pack = shuffled_deck(derive_seed(SEED, "round", 1))
    state = game(players).new_deal(SEED, dealer)
    for i in range(players):
        seat = (dealer + 1 + i) % players
        assert state.hands[seat] == to_mask(pack[i : 7 * players : players])
    assert state.upcard == pack[7 * players]


def test_round_one_trump_is_the_suit_of_the_turned_card(tricks_deal):
    for seat in range(3):
        view = tricks_deal.view(seat)
        assert view.upcard == c("2D")
        assert view.trump == SUITS.index("D")
    record = tricks_deal.deal_record()
    assert (record["upcard"], record["trump"], record["dealer"]) == ("2D", "D", 0)
    assert record["hands"] == [cards_str(parse_cards(TRICK_HANDS[s])) for s in range(3)]
    for seed in range(5):  # and with the real shuffle
        state = game(5).new_deal(seed, 2)
        assert state.trump == state.upcard // 13


@pytest.mark.parametrize("players, dealer", [(2, 0), (2, 1), (4, 2), (4, 3), (7, 6)])
def test_player_left_of_dealer_leads_round_one(players, dealer):
    state = game(players).new_deal(SEED, dealer)
    leader = (dealer + 1) % players
    assert state.phase == "play"
    assert state.to_act == leader == state.leader
    assert state.view(leader).legal == state.hands[leader]
    assert all(state.view(s).legal == 0 for s in range(players) if s != leader)


def test_rounds_deal_seven_six_down_to_one_card(monkeypatch):
    rig = Rig(monkeypatch, 2)
    for r in range(1, 8):  # both win a trick every round, so the game runs to round 7
        winners = [1] if r == 7 else [0] * (7 - r) + [1]
        rig.deal(r, (r - 1) % 2, blocks(winners, [0, 1]))
    state = game(2).new_deal(SEED, 0)
    run(state, rig)
    assert state.round == 7
    per_round = sorted({(row["round"], row["cards_dealt"]) for row in state.round_rows})
    assert per_round == [(1, 7), (2, 6), (3, 5), (4, 4), (5, 3), (6, 2), (7, 1)]
    assert len(state.all_tricks) == 28
    assert state.outcome().facts["rounds_played"] == 7


# -- a trick -----------------------------------------------------------------------------


def test_follower_must_follow_suit(tricks_deal):
    play(tricks_deal, "KS")
    assert tricks_deal.view(2).legal == parse_cards("QS 2S")
    with pytest.raises(RuleError, match="seat 2 played AH but must follow spades") as info:
        play(tricks_deal, "AH")
    assert info.value.rule == "follow suit"
    play(tricks_deal, "2S")
    assert tricks_deal.view(0).legal == parse_cards("JS")


def test_follower_void_in_suit_led_may_play_any_card(tricks_deal):
    play(tricks_deal, "3H", "AH")
    assert tricks_deal.view(0).legal == parse_cards(TRICK_HANDS[0])


def test_highest_trump_wins_and_winner_leads_next_trick(tricks_deal):
    play(tricks_deal, "3H", "AH", "3D")
    assert tricks_deal.tricks[-1].winner == 0
    assert tricks_deal.to_act == tricks_deal.leader == 0
    play(tricks_deal, "4D")
    assert tricks_deal.view(1).legal == parse_cards("KS 5S 4H 6C 7C 8C")  # void in diamonds
    play(tricks_deal, "5S", "9D")  # seat 2 holds the higher trump
    assert tricks_deal.tricks[-1].winner == 2


def test_highest_card_of_suit_led_wins_without_a_trump(tricks_deal):
    play(tricks_deal, "KS", "2S", "JS")
    assert tricks_deal.tricks[-1].winner == 1
    play(tricks_deal, "6C", "TC", "AC")
    assert tricks_deal.tricks[-1].winner == 0
    assert tricks_deal.round_tricks == [1, 1, 0]


def test_a_non_dog_knocking_is_refused_naming_seat_and_rule(tricks_deal):
    with pytest.raises(RuleError, match="seat 1 is not on a dog's life") as info:
        tricks_deal.apply(KNOCK)
    assert info.value.rule == "only a dog knocks"
    play(tricks_deal, "KS")
    with pytest.raises(RuleError, match="seat 2") as info:
        tricks_deal.apply(KNOCK)
    assert info.value.rule == "only a dog knocks"


# -- after each round: trump and the lead ----------------------------------------------------


def test_most_tricks_sees_new_hand_then_chooses_trump_and_leads(monkeypatch):
    rig = Rig(monkeypatch, 3)
    rig.deal(1, 0, blocks([0, 1, 2, 0, 1, 2, 1], [0, 1, 2]))  # seat 1 takes 3
    rig.deal(2, 1, blocks(cycle([0, 1, 2], 6), [0, 1, 2]))
    state = game(3).new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.round_tricks == [0, 0, 0]  # a fresh round
    view = state.view(1)
    assert (view.phase, view.round, view.cards_dealt, view.trump) == ("trump", 2, 6, -1)
    assert view.hand == rig.hands[2][1] and view.hand.bit_count() == 6
    assert view.legal == TRUMP_ACTIONS
    assert state.view(0).legal == state.view(2).legal == 0
    assert state.to_act == 1
    play(state, "trump:H")
    assert state.trump == 1
    assert (state.phase, state.to_act, state.leader) == ("play", 1, 1)
    assert state.view(1).legal == state.hands[1]
    run(state, rig, until_round=3)
    assert rows_by_seat(state, 2)[1]["chose_trump"] is True
    assert {row["trump_chooser"] for row in state.round_rows if row["round"] == 2} == {1}
    assert {row["trump"] for row in state.round_rows if row["round"] == 2} == {"H"}


def test_a_trump_choice_that_is_not_a_suit_is_refused(monkeypatch):
    rig = Rig(monkeypatch, 3)
    rig.deal(1, 0, blocks([0, 0, 0, 1, 1, 2, 2], [0, 1, 2]))
    state = game(3).new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.phase == "trump" and state.to_act == 0
    for action in (lowest(state.hands[0]), KNOCK, NAME_TRUMP + 4):
        with pytest.raises(RuleError, match="seat 0 must name trump") as info:
            state.apply(action)
        assert info.value.rule == "choose trump"
    assert state.phase == "trump" and state.trump == -1


def test_tie_break_cut_is_a_draw_among_the_tied_reproducible_from_the_seed(monkeypatch):
    seeds = range(24)
    rig = Rig(monkeypatch, 3, seeds)
    rig.deal(1, 0, blocks([0, 1, 0, 1, 0, 1, 2], [0, 1, 2]))  # seats 0 and 1 tie on 3

    def chooser(seed: int) -> int:
        state = game(3).new_deal(seed, 0)
        run(state, rig, until_round=2)
        assert state.phase == "trump"
        return state.to_act

    first = [chooser(seed) for seed in seeds]
    assert set(first) == {0, 1}  # a draw, never seat 2 with one trick
    assert [chooser(seed) for seed in seeds] == first  # same seed, same cut


def test_tie_break_nearest_left_counts_from_the_dealer_of_the_tied_round(monkeypatch):
    rig = Rig(monkeypatch, 3)
    # dealer 0, seats 1 and 2 tie: seat 1 is nearest the dealer's left (counting from
    # the next round's dealer, seat 1, would give seat 2)
    rig.deal(1, 0, blocks([1, 2, 1, 2, 1, 2, 0], [0, 1, 2]))
    state = game(3, tie_break="nearest_left").new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.dealer == 1
    assert state.to_act == 1


def test_tie_break_nearest_left_counts_the_dealer_last(monkeypatch):
    rig = Rig(monkeypatch, 3)
    rig.deal(1, 0, blocks([0, 2, 0, 2, 0, 2, 1], [0, 1, 2]))  # the dealer and seat 2 tie
    state = game(3, tie_break="nearest_left").new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.to_act == 2


# -- knocking out, the deal, the end -----------------------------------------------------


def test_players_with_no_trick_are_knocked_out(monkeypatch):
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks(cycle([0, 1], 7), [0, 1, 2, 3]))
    rig.deal(2, 1, blocks(cycle([0, 1], 6), [0, 1]))
    state = game(4).new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.status == ["in", "in", "out", "out"]
    assert state.out_round == [None, None, 1, 1]
    assert state.round_start_hands[2] == state.round_start_hands[3] == 0
    assert [h.bit_count() for h in state.round_start_hands] == [6, 6, 0, 0]
    assert state.view(0).status == ("in", "in", "out", "out")
    rows = rows_by_seat(state, 1)
    assert [rows[s]["knocked_out"] for s in range(4)] == [False, False, True, True]
    assert [rows[s]["tricks"] for s in range(4)] == [4, 3, 0, 0]
    run(state, rig)
    assert 2 not in state.dealt_in and 3 not in state.dealt_in
    assert all(2 not in seats and 3 not in seats for seats in state.all_trick_players[7:])


def test_deal_passes_to_the_left_among_players_still_in(monkeypatch):
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks([0, 2, 3, 0, 2, 3, 0], [0, 1, 2, 3]))  # seat 1 goes out
    rig.deal(2, 2, blocks([0, 2, 0, 2, 0, 2], [0, 2, 3]))  # seat 3 goes out
    rig.deal(3, 0, blocks(cycle([0, 2], 5), [0, 2]))
    state = game(4).new_deal(SEED, 0)
    dealers = run(state, rig, until_round=4)
    assert dealers[:4] == [0, 2, 0, 2]


def test_deal_passes_to_a_dog_too(monkeypatch):
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks([0, 2, 3, 0, 2, 3, 0], [0, 1, 2, 3]))  # seat 1 gets a dog's life
    rig.deal(2, 1, {**blocks(cycle([0, 2, 3], 6), [0, 2, 3]), 1: "2D"})
    state = game(4, dogs_life="first_round").new_deal(SEED, 0)
    dealers = run(state, rig, until_round=3)
    assert dealers[:3] == [0, 1, 2]  # the dog deals round 2; it lost and is passed over


def test_game_ends_when_one_player_remains(monkeypatch):
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks(cycle([0, 1], 7), [0, 1, 2, 3]))
    rig.deal(2, 1, blocks([0] * 6, [0, 1]))
    state = game(4).new_deal(SEED, 0)
    run(state, rig)
    assert state.over and state.phase == "over" and state.to_act == -1
    assert (state.round, state.winner, state.ended_by) == (2, 0, "last_player")
    assert state.status == ["in", "out", "out", "out"]
    with pytest.raises(RuleError, match="the game is over") as info:
        state.apply(0)
    assert info.value.rule == "game over"


def test_a_player_taking_every_trick_knocks_everyone_else_out_at_once(monkeypatch):
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 3, blocks([2] * 7, [0, 1, 2, 3]))
    state = game(4).new_deal(SEED, 3)
    run(state, rig)
    assert (state.round, state.winner, state.ended_by) == (1, 2, "last_player")
    assert state.round_tricks == [0, 0, 7, 0]
    assert state.out_round == [1, 1, None, 1]
    assert state.placings() == [2, 2, 1, 2]
    assert state.outcome().net == (-1.0, -1.0, 3.0, -1.0)


def test_game_ends_after_the_one_card_round_whose_trick_winner_wins(monkeypatch):
    rig = Rig(monkeypatch, 2)
    for r in range(1, 8):
        winners = [1] if r == 7 else [0] * (7 - r) + [1]
        rig.deal(r, (r - 1) % 2, blocks(winners, [0, 1]))
    state = game(2).new_deal(SEED, 0)
    dealers = run(state, rig)
    assert dealers == [0, 1, 0, 1, 0, 1, 0]
    assert (state.round, state.winner, state.ended_by) == (7, 1, "final_round")
    outcome = state.outcome()
    assert outcome.tricks == (21, 7)  # most tricks overall is not what wins
    assert outcome.result == ("loss", "win")
    assert outcome.net == (-1.0, 1.0)
    assert rows_by_seat(state, 7)[0]["knocked_out"] is True
    assert state.placings() == [2, 1]


# -- dog's life: who gets one ----------------------------------------------------------------


def first_round_knockout(rig: Rig) -> None:
    """3 players, dealer 0: seat 2 takes no trick in round 1."""
    rig.deal(1, 0, blocks(cycle([0, 1], 7), [0, 1, 2]))


def test_dogs_life_off_gives_none(monkeypatch):
    rig = Rig(monkeypatch, 3)
    first_round_knockout(rig)
    state = game(3).new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.status == ["in", "in", "out"]
    assert state.dog_used == [False, False, False]
    assert rows_by_seat(state, 1)[2]["dog_granted"] is False


def test_dogs_life_first_round_gives_one_to_players_knocked_out_in_round_one(monkeypatch):
    rig = Rig(monkeypatch, 3)
    first_round_knockout(rig)
    state = game(3, dogs_life="first_round").new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.status == ["in", "in", "dog"]
    assert state.dog_used == [False, False, True]
    assert state.out_round == [None, None, None]
    assert rows_by_seat(state, 1)[2]["dog_granted"] is True
    assert rows_by_seat(state, 1)[2]["knocked_out"] is True
    assert [h.bit_count() for h in state.round_start_hands] == [6, 6, 1]
    assert state.view(0).status == ("in", "in", "dog")


def test_dogs_life_first_round_gives_none_for_a_later_first_knockout(monkeypatch):
    rig = Rig(monkeypatch, 3)
    rig.deal(1, 0, blocks(cycle([0, 1, 2], 7), [0, 1, 2]))
    rig.deal(2, 1, blocks(cycle([0, 1], 6), [0, 1, 2]))
    state = game(3, dogs_life="first_round").new_deal(SEED, 0)
    run(state, rig, until_round=3)
    assert state.status == ["in", "in", "out"]
    assert state.dog_used == [False, False, False]


def test_dogs_life_first_knockout_gives_one_to_each_player_out_that_round_not_later(
    monkeypatch,
):
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks(cycle([0, 1, 2, 3], 7), [0, 1, 2, 3]))  # nobody goes out
    rig.deal(2, 1, blocks(cycle([0, 1], 6), [0, 1, 2, 3]))  # seats 2 and 3 go out
    # round 3: the dog in seat 2 trumps trick 2 with AC, the dog in seat 3 throws AD on
    # a spade; seat 1 takes nothing, the first knockout is past, so it is out for good
    rig.deal(3, 2, {**blocks([0] * 5, [0, 1]), 2: "AC", 3: "AD"})
    state = game(4, dogs_life="first_knockout").new_deal(SEED, 0)
    run(state, rig, dogs={(3, 2): 2, (3, 3): 1}, until_round=3)
    assert state.status == ["in", "in", "dog", "dog"]
    assert state.dog_used == [False, False, True, True]
    run(state, rig, dogs={(3, 2): 2, (3, 3): 1}, until_round=4)
    assert state.status == ["in", "out", "in", "out"]
    assert state.dog_used == [False, False, True, True]
    assert state.revived == [False, False, True, False]
    assert state.out_round == [None, 3, None, 3]
    assert rows_by_seat(state, 3)[1]["dog_granted"] is False
    assert state.dealer == 0  # after the dog in seat 2 dealt round 3
    assert [h.bit_count() for h in state.round_start_hands] == [4, 0, 4, 0]


def test_a_dog_is_dealt_a_single_card_in_the_first_pass(monkeypatch):
    rig = Rig(monkeypatch, 3)
    first_round_knockout(rig)
    rig.packs[2] = list(range(51, -1, -1))  # AC KC QC JC ... from the top
    state = game(3, dogs_life="first_round").new_deal(SEED, 0)
    run(state, rig, until_round=2)
    assert state.dealer == 1  # deals seat 2 (the dog), 0, 1, 2 (skipped), 0, 1 ...
    assert state.hands[2] == parse_cards("AC")
    assert state.hands[0] == parse_cards("KC JC 9C 7C 5C 3C")
    assert state.hands[1] == parse_cards("QC TC 8C 6C 4C 2C")
    assert state.view(2).cards_dealt == 6 and state.view(2).hand.bit_count() == 1


# -- dog's life: the play ------------------------------------------------------------------


def dog_round(monkeypatch, dog_card: str, winners: Sequence[int] = (0, 1, 1, 0, 1, 0)):
    """Seat 2 is on a dog's life in round 2 (dealer 1, seat 0 chooses and leads)."""
    rig = Rig(monkeypatch, 3)
    first_round_knockout(rig)
    rig.deal(2, 1, {**blocks(winners, [0, 1]), 2: dog_card})
    state = game(3, dogs_life="first_round").new_deal(SEED, 0)
    run(state, rig, until_round=2)
    play(state, "trump:C")
    return rig, state


def test_a_dog_may_knock_even_holding_the_suit_led(monkeypatch):
    _rig, state = dog_round(monkeypatch, "AS")
    play(state, "3S", "2S")  # seat 0 leads, seat 1 follows; the dog holds a spade
    assert state.to_act == 2
    assert state.view(2).legal == parse_cards("AS") | 1 << KNOCK
    play(state, "knock")
    record = state.tricks[-1]
    assert record.cards == (c("3S"), c("2S")) and record.winner == 0
    assert state.trick_players[-1] == (0, 1)
    assert state.log[-1] == (2, "knock", KNOCK, True)
    assert state.hands[2] == parse_cards("AS")


def test_a_dog_is_not_bound_to_follow_suit(monkeypatch):
    _rig, state = dog_round(monkeypatch, "2D")
    play(state, "3S", "2S")
    assert state.view(2).legal == parse_cards("2D") | 1 << KNOCK
    play(state, "2D")  # no spade, no trump: a discard that loses
    assert state.tricks[-1].winner == 0


def test_a_dog_may_play_to_any_trick_it_chooses(monkeypatch):
    for trick in range(1, 7):
        rig, state = dog_round(monkeypatch, "AS")
        run(state, rig, dogs={(2, 2): trick}, until_round=3)
        played = [n for n, seats in enumerate(state.all_trick_players[7:13], 1) if 2 in seats]
        assert played == [trick]
        assert state.all_tricks[6 + trick].winner == 2


def test_a_dog_must_play_on_the_last_trick_knock_refused_naming_seat_and_rule(monkeypatch):
    rig, state = dog_round(monkeypatch, "AS")
    for _ in range(5):
        while state.to_act != 2:
            state.apply(lowest(state.legal))
        assert state.view(2).last_trick is False
        play(state, "knock")
    while state.to_act != 2:
        state.apply(lowest(state.legal))
    assert len(state.tricks) == 5 and state.view(2).last_trick
    assert state.view(2).legal == parse_cards("AS")
    with pytest.raises(RuleError, match="seat 2 is on a dog's life and must play") as info:
        play(state, "knock")
    assert info.value.rule == "a dog plays on the last trick"
    play(state, "AS")
    run(state, rig, until_round=3)
    assert state.status == ["in", "in", "in"] and state.round_tricks == [0, 0, 0]


def test_a_dog_plays_only_once(monkeypatch):
    _rig, state = dog_round(monkeypatch, "AS")
    play(state, "3S", "2S", "AS")  # the dog plays to trick 1
    asked = []
    while state.round == 2:
        asked.append(state.to_act)
        assert state.view(2).legal == 0 and state.view(2).hand == 0
        with pytest.raises(RuleError, match="which it does not hold"):
            play(state, "AS")
        state.apply(lowest(state.legal))
    assert 2 not in asked
    assert all(seats == (0, 1) or seats == (1, 0) for seats in state.all_trick_players[8:13])


def test_a_dog_that_wins_its_trick_is_back_in_with_a_full_hand(monkeypatch):
    rig, state = dog_round(monkeypatch, "AS")
    run(state, rig, dogs={(2, 2): 3}, until_round=3)
    assert state.round_tricks == [0, 0, 0]
    assert state.status == ["in", "in", "in"]
    assert state.revived == [False, False, True]
    assert [h.bit_count() for h in state.round_start_hands] == [5, 5, 5]
    row = rows_by_seat(state, 2)[2]
    assert (row["dog"], row["tricks"], row["revived"], row["knocked_out"]) == (True, 1, True, False)


def test_a_dog_that_loses_is_out(monkeypatch):
    rig, state = dog_round(monkeypatch, "2D")
    run(state, rig, dogs={(2, 2): 1}, until_round=3)
    assert state.status == ["in", "in", "out"]
    assert state.out_round == [None, None, 2]
    assert state.revived == [False, False, False]
    row = rows_by_seat(state, 2)[2]
    assert (row["dog"], row["tricks"], row["revived"], row["knocked_out"]) == (True, 0, False, True)


def test_a_dog_winning_a_trick_passes_the_lead_to_its_left(monkeypatch):
    # trick 2 goes to seat 1, who leads trick 3; the dog wins trick 3 with AS, so trick 4
    # is led by seat 0, on the dog's left, not by seat 1
    rig, state = dog_round(monkeypatch, "AS")
    run(state, rig, dogs={(2, 2): 3}, until_round=3)
    round2 = state.all_tricks[7:13]
    assert [t.winner for t in round2] == [0, 1, 2, 0, 1, 0]
    assert [t.leader for t in round2] == [0, 0, 1, 0, 0, 1]
    assert state.all_trick_players[7 + 3] == (0, 1)


def test_the_dogs_life_is_once_per_player(monkeypatch):
    for dogs_life in ("first_round", "first_knockout"):
        rig = Rig(monkeypatch, 3)
        first_round_knockout(rig)
        rig.deal(2, 1, {**blocks(cycle([0, 1], 6), [0, 1]), 2: "AS"})  # the dog wins
        rig.deal(3, 2, blocks([0, 1, 0, 1, 0], [0, 1, 2]))  # and takes nothing again
        state = game(3, dogs_life=dogs_life).new_deal(SEED, 0)
        run(state, rig, until_round=4)
        assert state.status == ["in", "in", "out"]
        assert state.dog_used == [False, False, True]
        assert state.out_round == [None, None, 3]
        assert rows_by_seat(state, 3)[2]["dog_granted"] is False


def test_a_dog_never_leads_the_next_seat_without_cards_is_passed_over(monkeypatch):
    # 4 players, seats 1 and 2 on a dog's life; the dog in seat 2 throws 2D on trick 1,
    # the dog in seat 1 trumps trick 2: trick 3 is led by seat 3
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks(cycle([0, 3], 7), [0, 1, 2, 3]))
    rig.deal(2, 1, {**blocks(cycle([0, 3], 6), [0, 3]), 1: "AC", 2: "2D"})
    state = game(4, dogs_life="first_round").new_deal(SEED, 0)
    run(state, rig, dogs={(2, 1): 2, (2, 2): 1}, until_round=3)
    round2 = state.all_tricks[7:13]
    assert round2[1].winner == 1
    assert round2[2].leader == 3


def test_a_dog_never_leads_even_when_the_next_seat_is_a_dog_holding_its_card(monkeypatch):
    # as above, but the dog in seat 1 trumps trick 1 while the dog in seat 2 still holds
    # its card: seat 2 is a dog, so trick 2 is led by seat 3
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks(cycle([0, 3], 7), [0, 1, 2, 3]))
    rig.deal(2, 1, {**blocks(cycle([0, 3], 6), [0, 3]), 1: "AC", 2: "2D"})
    state = game(4, dogs_life="first_round").new_deal(SEED, 0)
    run(state, rig, dogs={(2, 1): 1}, until_round=2)
    play(state, "trump:C", "3S", "AC")  # seat 0 leads, the dog in seat 1 trumps
    play(state, "knock", "2S")  # the dog in seat 2 waits, seat 3 follows
    assert state.tricks[-1].winner == 1
    assert state.leader == 3
    assert state.to_act == 3


def test_a_dogs_winning_trick_counts_towards_most_tricks(monkeypatch):
    # 3 players, first dealer 1: nobody goes out until round 5, when seat 2 does and gets
    # the first-knockout dog's life. Round 6 (dealer 0): seat 0 takes trick 1, the dog
    # trumps trick 2; seat 0 and the dog tie on one trick, and the dog (revived) is
    # nearest the dealer's left. Without its trick seat 0 would choose.
    rig = Rig(monkeypatch, 3)
    for r in range(1, 5):
        rig.deal(r, r % 3, blocks(cycle([0, 1, 2], 8 - r), [0, 1, 2]))
    rig.deal(5, 2, blocks([0, 0, 1], [0, 1, 2]))
    rig.deal(6, 0, {**blocks([0, 0], [0, 1]), 2: "AC"})
    state = game(3, tie_break="nearest_left", dogs_life="first_knockout").new_deal(SEED, 1)
    dealers = run(state, rig, until_round=7)
    assert dealers == [1, 2, 0, 1, 2, 0, 2]
    assert [rows_by_seat(state, 6)[s]["tricks"] for s in range(3)] == [1, 0, 1]
    assert state.status == ["in", "out", "in"]
    assert (state.phase, state.to_act) == ("trump", 2)


def test_the_game_goes_on_while_a_dog_is_pending_with_one_full_player_left(monkeypatch):
    for dog_card, winner in (("AS", None), ("2D", 0)):
        rig = Rig(monkeypatch, 2)
        rig.deal(1, 0, blocks([0] * 7, [0, 1]))
        rig.deal(2, 1, {0: blocks([0] * 6, [0])[0], 1: dog_card})
        state = game(2, dogs_life="first_round").new_deal(SEED, 0)
        run(state, rig, until_round=2)
        assert not state.over
        assert (state.round, state.status) == (2, ["in", "dog"])
        run(state, rig, dogs={(2, 1): 1}, until_round=3)
        if winner is None:  # the dog took trick 1 with AS: both are in for round 3
            assert (state.round, state.status, state.over) == (3, ["in", "in"], False)
        else:
            assert (state.round, state.winner, state.ended_by) == (2, 0, "last_player")
            assert state.placings() == [1, 2]


def test_no_dogs_life_after_the_final_one_card_round(monkeypatch):
    rig = Rig(monkeypatch, 2)
    for r in range(1, 8):
        winners = [1] if r == 7 else cycle([0, 1], 8 - r)
        rig.deal(r, (r - 1) % 2, blocks(winners, [0, 1]))
    state = game(2, dogs_life="first_knockout").new_deal(SEED, 0)
    run(state, rig)
    assert state.round == 7  # the first knockout is seat 0 in round 7
    assert (state.winner, state.ended_by) == (1, "final_round")
    assert state.dog_used == [False, False]
    assert not any(row["dog_granted"] for row in state.round_rows)


@pytest.mark.parametrize("dog_card, winner", [("AC", 2), ("2D", 0)])
def test_a_dog_granted_in_round_six_plays_round_seven(monkeypatch, dog_card, winner):
    rig = Rig(monkeypatch, 3)
    for r in range(1, 6):
        rig.deal(r, (r - 1) % 3, blocks(cycle([0, 1, 2], 8 - r), [0, 1, 2]))
    rig.deal(6, 2, blocks([0, 1], [0, 1, 2]))  # seat 2: the first knockout
    rig.deal(7, 0, {**blocks([0], [0, 1]), 2: dog_card})
    state = game(3, dogs_life="first_knockout").new_deal(SEED, 0)
    run(state, rig, until_round=7)
    assert (state.round, state.status) == (7, ["in", "in", "dog"])
    play(state, "trump:C")
    while state.to_act != 2:
        state.apply(lowest(state.legal))
    with pytest.raises(RuleError) as info:  # the only trick is the last
        play(state, "knock")
    assert info.value.rule == "a dog plays on the last trick"
    run(state, rig)
    assert (state.winner, state.ended_by) == (winner, "final_round")
    assert rows_by_seat(state, 7)[2]["tricks"] == int(winner == 2)
    assert state.placings()[winner] == 1
    assert sorted(state.placings()) == [1, 2, 2]


# -- the record and the score ---------------------------------------------------------------


def test_rounds_table_and_final_placing(monkeypatch):
    # round 1: seat 2 takes nothing and gets a dog's life; round 2: the dog trumps trick 1
    # (seat 1's block) and seat 1 is out; round 3: the revived seat 2 takes nothing
    rig = Rig(monkeypatch, 3)
    first_round_knockout(rig)
    rig.deal(2, 1, {**blocks([1, 0, 0, 0, 0, 0], [0, 1]), 2: "AC"})
    rig.deal(3, 2, blocks([0] * 5, [0, 2]))
    state = game(3, dogs_life="first_round").new_deal(SEED, 0)
    dealers = run(state, rig, dogs={(2, 2): 1})
    assert dealers == [0, 1, 2]
    assert (state.round, state.winner, state.ended_by) == (3, 0, "last_player")

    def row(round_, seat, dealt, tricks, chooser=0, longest=None, **flags) -> dict:
        return {
            "round": round_, "cards_dealt": dealt, "trump": "C", "trump_chooser": chooser,
            "seat": seat, "tricks": tricks, "dog": False, "knocked_out": False,
            "revived": False, "dog_granted": False, "chose_trump": seat == chooser,
            "trump_length": 0, "longest_suit": longest or dealt, "strategy": "abc"[seat],
            **flags,
        }

    expected = [
        row(1, 0, 7, 4, chooser=-1, longest=4),
        row(1, 1, 7, 3, chooser=-1, longest=4),
        row(1, 2, 7, 0, chooser=-1, longest=4, knocked_out=True, dog_granted=True),
        row(2, 0, 6, 5),
        row(2, 1, 6, 0, knocked_out=True),
        row(2, 2, 1, 1, longest=1, dog=True, revived=True, trump_length=1),  # a dog: 1 card
        row(3, 0, 5, 5),
        row(3, 2, 5, 0, knocked_out=True),
    ]
    rows = state.extra_rows(("a", "b", "c"))["rounds"]
    # each round's dealer and the cards dealt (tests/test_results_knockout_rounds.py reads
    # those in full): here the dealer of every row, and the rest of the row as expected
    assert [row.pop("dealer") for row in rows] == [dealers[r["round"] - 1] for r in rows]
    assert all(len(row.pop("dealt_cards").split()) == row["cards_dealt"] for row in rows)
    assert sorted(rows, key=lambda r: (r["round"], r["seat"])) == expected

    assert state.placings() == [1, 3, 2]  # seat 2 went out in round 3, seat 1 in round 2
    outcome = state.outcome()
    assert outcome.tricks == (14, 3, 1)
    assert outcome.result == ("win", "loss", "loss")
    assert [f["out_round"] for f in outcome.seat_facts] == [None, 2, 3]
    assert [f["placing"] for f in outcome.seat_facts] == [1, 3, 2]
    assert [f["dog_used"] for f in outcome.seat_facts] == [False, False, True]
    assert [f["revived"] for f in outcome.seat_facts] == [False, False, True]
    assert outcome.facts == {
        "rounds_played": 3, "winner": 0, "ended_by": "last_player", "dogs_granted": 1,
        "tricks_played": 18, "players": 3,
    }


def test_players_out_in_the_same_round_share_a_place(monkeypatch):
    rig = Rig(monkeypatch, 4)
    rig.deal(1, 0, blocks(cycle([0, 1], 7), [0, 1, 2, 3]))
    rig.deal(2, 1, blocks([0] * 6, [0, 1]))
    state = game(4).new_deal(SEED, 0)
    run(state, rig)
    assert state.out_round == [None, 2, 1, 1]
    assert state.placings() == [1, 2, 3, 3]
    assert state.outcome().net == (3.0, -1.0, -1.0, -1.0)


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("dogs_life", ["off", "first_round", "first_knockout"])
def test_net_is_zero_sum_winner_players_minus_one_others_minus_one(players, dogs_life):
    g = game(players, dogs_life=dogs_life)
    for seed in range(3):
        played = play_deal(g, [RandomStrategy()] * players, seed, dealer=seed % players,
                           on_error="abort")
        outcome = played.outcome
        winner = played.state.winner
        assert sum(outcome.net) == 0
        assert outcome.net == tuple(
            float(players - 1) if s == winner else -1.0 for s in range(players)
        )
        assert outcome.result.count("win") == 1 and outcome.result[winner] == "win"
        assert played.state.placings()[winner] == 1
        assert played.state.placings().count(1) == 1
