"""One invariant suite for every game and every variant (PettingZoo-style conformance).

Each test function is parametrised over ``CASES``: (game name, variant, players).
Every invariant is checked independently of the engine's code: the rules are
re-derived here from the log, the deal record and the outcome. Adding a game means
adding its cases to ``CASES`` and a ``Checks`` adapter to ``CHECKS`` (how to read its
card zones from a state, its legal actions, a replay of its log, its scoring);
``test_every_registered_game_has_cases`` fails until that is done.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies.random_play import RandomStrategy
from whist_sim.cards import FULL_DECK, SUIT_MASKS, cards_of, parse_card_list, parse_cards
from whist_sim.games import GAMES, make_game
from whist_sim.games.base import DealState, Game, RuleError
from whist_sim.play import PlayedDeal, play_deal, play_match, seat_seed
from whist_sim.rng import derive_seed, strategy_rng

DEALS_PER_CASE = 30
ROOT_SEED = 20240601


@dataclass(frozen=True)
class Case:
    game: str
    variant: dict[str, Any]
    players: int

    @property
    def id(self) -> str:
        settings_ = ",".join(f"{k}={v}" for k, v in sorted(self.variant.items()))
        return f"{self.game}[{settings_ or 'default'}]"

    def make(self) -> Game:
        return make_game(self.game, self.variant, self.players)


CASES = [
    Case("german_whist", {}, 2),
    Case("german_whist", {"count": "all"}, 2),
    Case("german_whist", {"count": "weighted"}, 2),
    Case("german_whist", {"trumps": "none"}, 2),
    Case("german_whist", {"open_stock": 2}, 2),
    Case("german_whist", {"open_stock": 5}, 2),
    Case("german_whist", {"race_to": 7}, 2),
    Case("german_whist", {"race_to": 9, "count": "stage2"}, 2),
    Case("german_whist", {"race_to": 20, "count": "all"}, 2),
    Case("german_whist", {"match": "best_of_3"}, 2),
    Case("german_whist", {"match": "best_of_5", "count": "all"}, 2),
    Case(
        "german_whist",
        {"open_stock": 5, "count": "weighted", "trumps": "none", "race_to": 20},
        2,
    ),
]
MATCH_CASES = [case for case in CASES if case.variant.get("match", "single") != "single"]


def cases(selection: list[Case] = CASES):
    return pytest.mark.parametrize("case", selection, ids=[c.id for c in selection])


# -- German Whist, re-derived from RULES.md section 1 ---------------------------------


@dataclass
class TrickFact:
    number: int
    leader: int
    cards: list[int]
    winner: int


@dataclass
class PlayFact:
    seat: int
    card: int
    hand_before: int
    led_suit: int  # -1 when leading
    expected_seat: int


@dataclass
class RefillFact:
    """What happened after a stage-1 trick, next to what the rules say should."""

    trick: int
    winner: int
    faceup_before: list[int]
    entries: list[tuple[int, str, int, bool]]
    expected_draw: int


@dataclass
class Replay:
    plays: list[PlayFact] = field(default_factory=list)
    tricks: list[TrickFact] = field(default_factory=list)
    refills: list[RefillFact] = field(default_factory=list)
    stage_wins: list[list[int]] = field(default_factory=lambda: [[0, 0], [0, 0]])
    race_reached_at: int | None = None
    leftover: list[tuple[int, str, int, bool]] = field(default_factory=list)


class GermanChecks:
    """German Whist's rules, written again from RULES.md without the engine's code."""

    @staticmethod
    def zones(state: Any) -> dict[str, list[int]]:
        played = [card for record in state.tricks for card in record.cards]
        return {
            "hand 0": cards_of(state.hands[0]),
            "hand 1": cards_of(state.hands[1]),
            "played": played + list(state.trick),
            "stock face down": list(state.stock[state.next_stock:]),
            "stock face up": list(state.faceup),
        }

    @staticmethod
    def expected_legal(state: Any) -> int:
        if state.phase == "take":
            return sum(1 << card for card in state.faceup)
        hand = state.hands[state.to_act]
        if not state.trick:
            return hand
        return hand & SUIT_MASKS[state.trick[0] // 13] or hand

    @staticmethod
    def units(variant: Any, stage1: int, stage2: int) -> int:
        return {"stage2": stage2, "all": stage1 + stage2, "weighted": stage1 + 2 * stage2}[
            variant.count
        ]

    @staticmethod
    def replay(state: Any) -> Replay:
        """Walk the log from the dealt cards, recording each fact the rules constrain."""
        variant = state.variant
        record = state.deal_record()
        hands = [parse_cards(h) for h in record["hands"]]
        stock = parse_card_list(record["stock"])
        trump = stock[0] // 13 if variant.trumps == "upcard" else None
        k = variant.open_stock
        faceup = stock[:k]
        next_stock = k
        leader = 1 - record["dealer"]
        trick: list[int] = []
        out = Replay()
        log = list(state.log)
        i = 0
        while i < len(log):
            seat, phase, card, _chosen = log[i]
            assert phase == "play", f"entry {i} {log[i]} where a play was due"
            expected_seat = leader if not trick else 1 - leader
            led = trick[0] // 13 if trick else -1
            out.plays.append(PlayFact(seat, card, hands[seat], led, expected_seat))
            hands[seat] &= ~(1 << card)
            trick.append(card)
            i += 1
            if len(trick) < 2:
                continue
            lead, follow = trick
            if follow // 13 == lead // 13:
                winner = 1 - leader if follow > lead else leader
            elif follow // 13 == trump:
                winner = 1 - leader
            else:
                winner = leader
            number = len(out.tricks) + 1
            out.tricks.append(TrickFact(number, leader, trick, winner))
            stage = 0 if number <= 13 else 1
            out.stage_wins[stage][winner] += 1
            leader, trick = winner, []
            if variant.race_to is not None and out.race_reached_at is None:
                s1, s2 = out.stage_wins
                if GermanChecks.units(variant, s1[winner], s2[winner]) >= variant.race_to:
                    out.race_reached_at = number
                    out.leftover = log[i:]
                    break
            if number > 13:
                continue
            entries = log[i:i + 2]
            i += 2
            expected_draw = stock[next_stock] if next_stock < len(stock) else -1
            out.refills.append(RefillFact(number, winner, list(faceup), entries, expected_draw))
            taker, _, taken, _ = entries[0]
            drawer, _, drawn, _ = entries[1]
            if taken in faceup:
                faceup.remove(taken)
            hands[taker] |= 1 << taken
            if next_stock < len(stock):
                next_stock += 1
            elif faceup:
                faceup.pop(0)
            hands[drawer] |= 1 << drawn
            while len(faceup) < k and next_stock < len(stock):
                faceup.append(stock[next_stock])
                next_stock += 1
        return out

    @staticmethod
    def expected_result(variant: Any, stage1: list[int], stage2: list[int]):
        """(result per seat, score per seat) from the trick counts, as RULES.md scores."""
        units = [GermanChecks.units(variant, stage1[s], stage2[s]) for s in (0, 1)]
        if variant.race_to is not None:
            reached = [s for s in (0, 1) if units[s] >= variant.race_to]
            assert len(reached) <= 1
            if reached:
                winner = reached[0]
            elif units[0] == units[1]:
                winner = -1
            else:
                winner = 0 if units[0] > units[1] else 1
            amount = 1.0
        else:
            assert variant.count != "stage2" or sum(units) == 13
            assert variant.count != "weighted" or sum(units) == 39
            winner = -1 if units[0] == units[1] else (0 if units[0] > units[1] else 1)
            top = max(units)
            amount = {
                "stage2": top - 6,
                "all": top - 13,
                "weighted": abs(units[0] - units[1]) / 2,
            }[variant.count]
        if winner < 0:
            return ("draw", "draw"), (0.0, 0.0)
        result = ("win", "loss") if winner == 0 else ("loss", "win")
        score = (float(amount), 0.0) if winner == 0 else (0.0, float(amount))
        return result, score

    @staticmethod
    def draw_possible(variant: Any) -> bool:
        # Units add up to 13 (stage2) or 39 (weighted) over a full hand: never equal.
        # Under "all" 13-13 can happen, unless a race_to <= 13 always ends it first.
        if variant.count != "all":
            return False
        return variant.race_to is None or variant.race_to > 13

    @staticmethod
    def full_tricks(variant: Any) -> int:
        return 26


CHECKS = {"german_whist": GermanChecks}


# -- driving deals ---------------------------------------------------------------------


def deal_seeds(case: Case) -> list[tuple[int, int]]:
    return [(derive_seed(ROOT_SEED, "deal", i), i % 2) for i in range(DEALS_PER_CASE)]


@cache
def played_deals(case_id: str) -> list[PlayedDeal]:
    case = next(c for c in CASES if c.id == case_id)
    game = case.make()
    strategies = [RandomStrategy() for _ in range(case.players)]
    return [play_deal(game, strategies, seed, dealer) for seed, dealer in deal_seeds(case)]


def step_through(game: Game, seed: int, dealer: int, on_step) -> DealState:
    """``play_deal``'s loop (same generators) with a check before every action."""
    state = game.new_deal(seed, dealer)
    rngs = [strategy_rng(seat_seed(seed, seat)) for seat in range(game.players)]
    strategy = RandomStrategy()
    while not state.over:
        seat = state.to_act
        on_step(state)
        state.apply(strategy.choose(state.view(seat), rngs[seat]))
    on_step(state)
    return state


def check_conserved(case: Case, state: DealState) -> None:
    zones = CHECKS[case.game].zones(state)
    union = 0
    total = 0
    for name, cards in zones.items():
        mask = 0
        for card in cards:
            assert 0 <= card < 52, f"{name} holds {card}"
            assert not mask >> card & 1, f"{name} holds {card} twice"
            mask |= 1 << card
        assert not union & mask, f"{name} shares cards with another zone: {zones}"
        union |= mask
        total += len(cards)
    assert total == 52
    assert union == FULL_DECK


# -- the invariants ----------------------------------------------------------------------


def test_every_registered_game_has_cases():
    assert {case.game for case in CASES} == set(GAMES)
    assert set(CHECKS) == set(GAMES)


def test_cases_cover_every_german_whist_variant_value():
    german = [case.variant for case in CASES if case.game == "german_whist"]
    assert {v.get("count", "stage2") for v in german} == {"stage2", "all", "weighted"}
    assert {v.get("trumps", "upcard") for v in german} == {"upcard", "none"}
    assert {v.get("open_stock", 1) for v in german} >= {1, 2, 5}
    assert {v.get("race_to") for v in german} >= {None, 7, 9, 20}
    assert {v.get("match", "single") for v in german} == {"single", "best_of_3", "best_of_5"}


@cases()
def test_52_cards_conserved_at_every_step(case):
    game = case.make()
    steps = 0

    def check(state):
        nonlocal steps
        steps += 1
        check_conserved(case, state)

    for seed, dealer in deal_seeds(case):
        step_through(game, seed, dealer, check)
    assert steps >= DEALS_PER_CASE * 10


@cases()
def test_legal_actions_exist_until_the_end_and_match_the_rules(case):
    game = case.make()
    checks = CHECKS[case.game]

    def check(state):
        if state.over:
            assert state.legal == 0
            assert all(state.view(s).legal == 0 for s in range(case.players))
            return
        assert state.legal != 0
        assert state.legal == checks.expected_legal(state)
        assert state.view(state.to_act).legal == state.legal
        for seat in range(case.players):
            if seat != state.to_act:
                assert state.view(seat).legal == 0

    for seed, dealer in deal_seeds(case):
        step_through(game, seed, dealer, check)


@cases()
def test_every_logged_play_followed_suit(case):
    checks = CHECKS[case.game]
    plays = 0
    for deal in played_deals(case.id):
        replay = checks.replay(deal.state)
        for fact in replay.plays:
            plays += 1
            assert fact.seat == fact.expected_seat, fact
            assert fact.hand_before >> fact.card & 1, f"{fact}: card not held"
            if fact.led_suit >= 0 and fact.hand_before & SUIT_MASKS[fact.led_suit]:
                assert fact.card // 13 == fact.led_suit, f"{fact}: revoke"
        assert replay.leftover == []
    assert plays > DEALS_PER_CASE * 20


@cases()
def test_every_illegal_action_is_refused_at_random_points(case):
    game = case.make()
    pick = random.Random(7)
    tried = 0

    def check(state):
        nonlocal tried
        if state.over or pick.random() > 0.15:
            return
        before = (list(state.log), state.to_act, state.legal, state.phase, state.view(0))
        for action in [*range(52), 52, -1]:
            if 0 <= action < 52 and state.legal >> action & 1:
                continue
            with pytest.raises(RuleError) as info:
                state.apply(action)
            tried += 1
            assert info.value.seat == state.to_act
            assert f"seat {state.to_act}" in str(info.value)
            assert info.value.rule
        after = (list(state.log), state.to_act, state.legal, state.phase, state.view(0))
        assert after == before  # a refused action changes nothing

    for seed, dealer in deal_seeds(case):
        step_through(game, seed, dealer, check)
    assert tried > 1000


@cases()
def test_stage1_winner_takes_faceup_card_and_loser_the_next_stock_card(case):
    checks = CHECKS[case.game]
    refills = 0
    for deal in played_deals(case.id):
        replay = checks.replay(deal.state)
        expected = min(13, replay.race_reached_at or 13)
        if replay.race_reached_at is not None and replay.race_reached_at <= 13:
            expected -= 1  # the racing trick draws nothing
        assert len(replay.refills) == expected
        for fact in replay.refills:
            refills += 1
            (taker, take, taken, _), (drawer, draw, drawn, chosen) = fact.entries
            assert (take, draw) == ("take", "draw"), fact
            assert taker == fact.winner and drawer == 1 - fact.winner, fact
            assert taken in fact.faceup_before, fact
            assert not chosen, fact  # the draw is never a choice
            if fact.expected_draw >= 0:
                assert drawn == fact.expected_draw, fact
            else:  # no face-down card: the face-up card turned earliest
                rest = [card for card in fact.faceup_before if card != taken]
                assert drawn == rest[0], fact
    assert refills > DEALS_PER_CASE * 5


@cases()
def test_trick_winners_and_count_of_tricks(case):
    checks = CHECKS[case.game]
    for deal in played_deals(case.id):
        state, variant = deal.state, deal.state.variant
        replay = checks.replay(state)
        assert [(t.number, t.leader, tuple(t.cards), t.winner) for t in replay.tricks] == [
            tuple(record) for record in state.tricks
        ]
        tricks = len(replay.tricks)
        if replay.race_reached_at is None:
            assert tricks == checks.full_tricks(variant)
        else:
            assert variant.race_to is not None
            assert tricks == replay.race_reached_at <= checks.full_tricks(variant)
        assert deal.outcome.facts["tricks_played"] == tricks
        assert sum(deal.outcome.tricks) == tricks


@cases()
def test_scores_follow_the_rules(case):
    checks = CHECKS[case.game]
    for deal in played_deals(case.id):
        outcome, variant = deal.outcome, deal.state.variant
        replay = checks.replay(deal.state)
        stage1, stage2 = outcome.facts["stage1_tricks"], outcome.facts["stage2_tricks"]
        assert [stage1, stage2] == replay.stage_wins
        assert outcome.tricks == (stage1[0] + stage2[0], stage1[1] + stage2[1])
        result, score = checks.expected_result(variant, stage1, stage2)
        assert outcome.result == result, (stage1, stage2, variant)
        assert outcome.score == score, (stage1, stage2, variant)
        if variant.race_to is not None:
            winner = replay.tricks[-1].winner
            reached = replay.race_reached_at is not None
            assert outcome.facts["race_winner"] == (winner if reached else None)
        assert outcome.forfeit_seat is None and outcome.error is None


@cases()
def test_net_is_zero_sum(case):
    for deal in played_deals(case.id):
        outcome = deal.outcome
        assert sum(outcome.net) == 0
        n = len(outcome.score)
        for seat in range(n):
            others = [outcome.score[s] for s in range(n) if s != seat]
            assert outcome.net[seat] == outcome.score[seat] - sum(others) / len(others)


@cases()
def test_draws_only_where_the_rules_allow_them(case):
    checks = CHECKS[case.game]
    for deal in played_deals(case.id):
        outcome, variant = deal.outcome, deal.state.variant
        if "draw" in outcome.result:
            assert outcome.result == ("draw",) * len(outcome.result)
            assert checks.draw_possible(variant), (variant, outcome)
            assert outcome.score == (0.0,) * len(outcome.score)


def test_count_all_produces_draws_under_random_play():
    # RULES.md: about one hand in nine; 300 hands make "none at all" astronomically rare
    game = make_game("german_whist", {"count": "all"})
    strategies = [RandomStrategy(), RandomStrategy()]
    draws = sum(
        play_deal(game, strategies, derive_seed(ROOT_SEED, "draws", i)).outcome.result[0]
        == "draw"
        for i in range(300)
    )
    assert 10 <= draws <= 70


@cases()
def test_same_seed_same_game_different_seeds_different_deals(case):
    game = case.make()
    strategies = [RandomStrategy() for _ in range(case.players)]
    records = set()
    for deal in played_deals(case.id)[:10]:
        again = play_deal(game, strategies, deal.seed, deal.dealer)
        assert again.state.log == deal.state.log
        assert again.outcome == deal.outcome
        assert again.state.deal_record() == deal.state.deal_record()
        # the checked loop above is the same game as play_deal's
        stepped = step_through(game, deal.seed, deal.dealer, lambda state: None)
        assert stepped.log == deal.state.log
        records.add(str(deal.state.deal_record()["hands"]))
    assert len(records) == 10
    all_hands = {str(d.state.deal_record()["hands"]) for d in played_deals(case.id)}
    assert len(all_hands) == DEALS_PER_CASE


@cases(MATCH_CASES)
def test_match_plays_until_decided_with_dealer_alternating(case):
    game = case.make()
    best_of = int(case.variant["match"].removeprefix("best_of_"))
    strategies = [RandomStrategy() for _ in range(case.players)]
    for match_seed in range(10):
        deals, result = play_match(game, strategies, derive_seed(ROOT_SEED, "match", match_seed))
        wins = [0] * case.players
        for played, deal in enumerate(deals):
            lead = sorted(wins, reverse=True)
            caught_up = played >= best_of and lead[0] != lead[1]
            out_of_reach = lead[0] - lead[1] > best_of - played
            assert played == 0 or not (caught_up or out_of_reach), (played, wins)
            assert deal.dealer == played % case.players
            for seat in range(case.players):
                wins[seat] += deal.outcome.result[seat] == "win"
        lead = sorted(wins, reverse=True)
        assert lead[0] != lead[1]
        assert lead[0] - lead[1] > best_of - len(deals) or len(deals) >= best_of
        assert result["match_hands_won"] == tuple(wins)
        assert sum(result["match_points"]) == 0
        assert len({deal.seed for deal in deals}) == len(deals)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    case=st.sampled_from(CASES),
    dealer=st.integers(min_value=0, max_value=1),
)
def test_random_game_never_errors_and_conserves_cards(seed, case, dealer):
    game = case.make()
    state = step_through(game, seed, dealer, lambda s: check_conserved(case, s))
    outcome = state.outcome()
    assert outcome.forfeit_seat is None
    assert sum(outcome.net) == 0
    assert set(outcome.result) <= {"win", "loss", "draw"}
