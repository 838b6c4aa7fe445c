"""One invariant suite for every game and every variant (PettingZoo-style conformance).

Each test function is parametrised over cases: (game name, variant, players).
Every invariant is checked independently of the engine's code: the rules are
re-derived here from the log, the deal record and the outcome. Adding a game means
adding its cases to ``CASES`` and a ``Checks`` adapter to ``CHECKS`` (how to read its
card zones from a state, its legal actions, a replay of its log, its scoring);
``test_every_registered_game_has_cases`` fails until that is done.

Which invariant applies to which game:

=====================================================  ========  ====
invariant                                              German    Solo
=====================================================  ========  ====
52 cards conserved at every step                       yes       yes
legal actions never empty until the end, as re-derived yes       yes
every logged play followed suit (replay of the log)    yes       yes
every illegal action refused, naming seat and rule     yes       yes
trick winners, and the number of tricks played         yes       yes
scores / payments follow the rules                     yes       yes
net is zero-sum                                        yes       yes
draws only where the rules allow them                  yes       yes
same seed same game, different seeds different deals   yes       yes
stage-1 drawing from the stock                         yes       --
count = "all" draws about one hand in nine             yes       --
best-of-N matches, dealer alternating                  yes       --
every call legal and in turn, trumps named as allowed  --        yes
zero-sum and the payment table over thousands of deals --        yes
sessions: N hands or first to target, dealer rotating  --        yes
=====================================================  ========  ====

The game-specific invariants are in their own sections below, parametrised over
that game's cases only.
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
from whist_sim.cards import (
    FULL_DECK,
    SUIT_MASKS,
    cards_of,
    parse_card,
    parse_card_list,
    parse_cards,
)
from whist_sim.games import GAMES, make_game
from whist_sim.games.base import DealState, Game, RuleError
from whist_sim.games.solo_whist import BIDS, NAME_TRUMP
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


GERMAN_CASES = [
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
SOLO_CASES = [
    Case("solo_whist", {}, 4),
    Case("solo_whist", {"payments": "classic"}, 4),
    Case("solo_whist", {"prop_and_cop": False}, 4),
    Case("solo_whist", {"upcard": False}, 4),
    Case("solo_whist", {"stake": 2.5}, 4),
    Case("solo_whist", {"overtricks": True}, 4),
    Case("solo_whist", {"play_out": True}, 4),
    Case("solo_whist", {"session_hands": 4}, 4),
    Case("solo_whist", {"target": 20, "session_hands": 100}, 4),
    Case(
        "solo_whist",
        {"payments": "classic", "upcard": False, "prop_and_cop": False, "stake": 3,
         "overtricks": True, "play_out": True},
        4,
    ),
]
CASES = GERMAN_CASES + SOLO_CASES
MATCH_CASES = [case for case in GERMAN_CASES if case.variant.get("match", "single") != "single"]
SESSION_CASES = [case for case in SOLO_CASES if case.variant.get("session_hands", 1) > 1]


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
    def draw_possible(state: Any) -> bool:
        # Units add up to 13 (stage2) or 39 (weighted) over a full hand: never equal.
        # Under "all" 13-13 can happen, unless a race_to <= 13 always ends it first.
        variant = state.variant
        if variant.count != "all":
            return False
        return variant.race_to is None or variant.race_to > 13

    @staticmethod
    def expected_tricks(replay: Replay, variant: Any) -> int:
        """26, or the trick on which ``race_to`` was reached."""
        if replay.race_reached_at is None:
            return 26
        assert variant.race_to is not None
        return replay.race_reached_at

    @staticmethod
    def check_outcome(deal: PlayedDeal, replay: Replay) -> None:
        outcome, variant = deal.outcome, deal.state.variant
        stage1, stage2 = outcome.facts["stage1_tricks"], outcome.facts["stage2_tricks"]
        assert [stage1, stage2] == replay.stage_wins
        assert outcome.tricks == (stage1[0] + stage2[0], stage1[1] + stage2[1])
        result, score = GermanChecks.expected_result(variant, stage1, stage2)
        assert outcome.result == result, (stage1, stage2, variant)
        assert outcome.score == score, (stage1, stage2, variant)
        if variant.race_to is not None:
            winner = replay.tricks[-1].winner
            reached = replay.race_reached_at is not None
            assert outcome.facts["race_winner"] == (winner if reached else None)

    @staticmethod
    def check_net(outcome: Any) -> None:
        """Only the winner scores; net is own score minus the opponents' mean."""
        n = len(outcome.score)
        for seat in range(n):
            others = [outcome.score[s] for s in range(n) if s != seat]
            assert outcome.net[seat] == outcome.score[seat] - sum(others) / len(others)

    make_strategy = RandomStrategy
    action_space = (*range(52), 52, -1)
    min_steps_per_deal = 10
    min_plays_per_deal = 20


# -- Solo Whist, re-derived from RULES.md section 2 ------------------------------------

SOLO_LADDER = (
    "prop", "solo", "misere", "abundance", "royal_abundance", "spread_misere",
    "abundance_declared",
)
"""The auction's bids, lowest first (a Prop wins the contract Prop and Cop)."""
SOLO_TABLE = {
    # contract: (target, trump, units per defender on the default and classic ladders)
    "prop_and_cop": (8, "upcard", 1, 1),
    "solo": (5, "upcard", 3, 1),
    "misere": (0, "none", 3, 2),
    "abundance": (9, "named, not the upcard's suit", 5, 3),
    "royal_abundance": (9, "upcard", 5, 3),
    "spread_misere": (0, "none", 6, 4),
    "abundance_declared": (13, "named, any suit", 8, 6),
}
OVERTRICK_CONTRACTS = {"prop_and_cop", "solo", "abundance", "royal_abundance"}
CALL_NAMES = {action: name for name, action in BIDS.items()}  # the log's notation


def contract_of(bid: str) -> str:
    return "prop_and_cop" if bid == "prop" else bid


@dataclass
class SoloAuction:
    """The auction as RULES.md runs it: from eldest, clockwise among those who have not
    passed, each call a pass, a higher bid or a Cop of a standing Prop; over when every
    player but the holder(s) of the highest bid has passed."""

    variant: Any
    dealer: int
    passed: set[int] = field(default_factory=set)
    top: str | None = None
    holders: list[int] = field(default_factory=list)
    copped: bool = False
    to_act: int = -1
    over: bool = False

    def __post_init__(self) -> None:
        self.to_act = (self.dealer + 1) % 4

    def allowed(self) -> set[str]:
        level = SOLO_LADDER.index(self.top) if self.top else -1
        calls = {"pass"}
        for name in SOLO_LADDER[level + 1:]:
            if name == "prop" and not self.variant.prop_and_cop:
                continue
            if name == "royal_abundance" and not self.variant.upcard:
                continue
            calls.add(name)
        if self.top == "prop" and not self.copped and self.to_act not in self.holders:
            calls.add("cop")
        return calls

    def call(self, name: str) -> None:
        seat = self.to_act
        if name == "pass":
            self.passed.add(seat)
        elif name == "cop":
            self.holders.append(seat)
            self.copped = True
        else:
            self.top, self.holders, self.copped = name, [seat], False
        if self.passed | set(self.holders) == {0, 1, 2, 3}:
            self.over, self.to_act = True, -1
            return
        seat = (seat + 1) % 4
        while seat in self.passed:
            seat = (seat + 1) % 4
        self.to_act = seat

    def contract(self) -> str | None:
        if self.top is None or (self.top == "prop" and not self.copped):
            return None  # a throw-in
        return contract_of(self.top)


@dataclass
class CallFact:
    seat: int
    call: str
    expected_seat: int
    allowed: set[str]


@dataclass
class TrumpFact:
    seat: int
    suit: int
    expected_seat: int
    allowed: set[int]


@dataclass
class SoloReplay:
    auction: SoloAuction
    hands: list[int]
    calls: list[CallFact] = field(default_factory=list)
    trump_named: list[TrumpFact] = field(default_factory=list)
    pending_trump: TrumpFact | None = None
    plays: list[PlayFact] = field(default_factory=list)
    tricks: list[TrickFact] = field(default_factory=list)
    trick: list[int] = field(default_factory=list)
    leader: int = -1
    contract: str | None = None
    declarer: int = -1
    partner: int = -1
    trump: int = -1
    won: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    stopped_at: int | None = None
    """The trick after which the rules end the hand (0: thrown in), once reached."""
    leftover: list[tuple[int, str, int, bool]] = field(default_factory=list)

    @property
    def side_tricks(self) -> int:
        return sum(self.won[s] for s in (self.declarer, self.partner) if s >= 0)

    @property
    def made(self) -> bool | None:
        if self.contract is None:
            return None
        target = SOLO_TABLE[self.contract][0]
        if target == 0:
            return self.side_tricks == 0 and len(self.tricks) == 13
        return self.side_tricks >= target


def solo_trick_winner(cards: list[int], trump: int) -> int:
    """Index of the winner: the highest trump, else the highest card of the suit led."""
    led = cards[0] // 13

    def strength(card: int) -> int:
        rank = card % 13
        if card // 13 == trump:
            return 200 + rank
        return 100 + rank if card // 13 == led else rank

    return max(range(len(cards)), key=lambda i: strength(cards[i]))


def solo_payments(variant: Any, contract: str, declarer: int, partner: int, made: bool,
                  side_tricks: int) -> tuple[float, ...]:
    """Each defender pays each member of the declarer side the amount, or the reverse."""
    target, _, default_units, classic_units = SOLO_TABLE[contract]
    units = classic_units if variant.payments == "classic" else default_units
    if variant.overtricks and contract in OVERTRICK_CONTRACTS:
        units += abs(side_tricks - target)
    units *= variant.stake
    side = [s for s in (declarer, partner) if s >= 0]
    each_way = units if made else -units
    return tuple(
        each_way * (4 - len(side)) if seat in side else -each_way * len(side)
        for seat in range(4)
    )


class VariedBidder:
    """Random play, but an auction that reaches every contract and throw-ins.

    Uniformly random calls escalate: almost every auction ends in Abundance Declared.
    This one Cops half the times it may, passes 70% of the rest, and otherwise bids
    the lowest allowed bid with probability 0.4, the next with 0.4 of the rest, ...
    """

    def __init__(self) -> None:
        self.inner = RandomStrategy()

    def choose(self, view: Any, rng: random.Random) -> int:
        if view.phase != "bid":
            return self.inner.choose(view, rng)
        legal = view.legal
        if legal >> BIDS["cop"] & 1 and rng.random() < 0.5:
            return BIDS["cop"]
        bids = legal & ~(1 << BIDS["pass"]) & ~(1 << BIDS["cop"])
        if not bids or rng.random() < 0.7:
            return BIDS["pass"]
        while True:
            low = (bids & -bids).bit_length() - 1
            bids ^= 1 << low
            if not bids or rng.random() < 0.4:
                return low


class SoloChecks:
    """Solo Whist's rules, written again from RULES.md without the engine's code."""

    make_strategy = VariedBidder
    action_space = (*range(65), 65, -1)
    min_steps_per_deal = 5  # four calls and the end, for a throw-in
    min_plays_per_deal = 8

    @staticmethod
    def zones(state: Any) -> dict[str, list[int]]:
        played = [card for record in state.tricks for card in record.cards]
        zones = {f"hand {seat}": cards_of(state.hands[seat]) for seat in range(4)}
        zones["played"] = played + list(state.trick)
        return zones

    @staticmethod
    def replay(state: Any) -> SoloReplay:
        """Walk the log (complete or not) from the dealt cards."""
        variant = state.variant
        record = state.deal_record()
        dealer = record["dealer"]
        upcard = parse_card(record["upcard"]) if record["upcard"] else None
        auction = SoloAuction(variant, dealer)
        out = SoloReplay(auction, [parse_cards(h) for h in record["hands"]])
        log = list(state.log)
        i = 0
        while i < len(log) and not auction.over:
            seat, phase, action, _ = log[i]
            assert phase == "bid", f"entry {i} {log[i]} where a call was due"
            name = CALL_NAMES[action]
            out.calls.append(CallFact(seat, name, auction.to_act, auction.allowed()))
            auction.call(name)
            i += 1
        if not auction.over:
            return out
        out.contract = auction.contract()
        if out.contract is None:
            out.stopped_at, out.leftover = 0, log[i:]
            return out
        out.declarer = auction.holders[0]
        out.partner = auction.holders[1] if out.contract == "prop_and_cop" else -1
        target, trump_rule, _, _ = SOLO_TABLE[out.contract]
        if trump_rule == "none":
            out.trump = -1
        elif trump_rule == "upcard" and upcard is not None:
            out.trump = upcard // 13
        else:  # named by the declarer (the proposer), upcard = false included
            allowed = set(range(4))
            if trump_rule.startswith("named, not") and upcard is not None:
                allowed.discard(upcard // 13)
            out.pending_trump = TrumpFact(-1, -1, out.declarer, allowed)
            if i == len(log):
                return out
            seat, phase, action, _ = log[i]
            i += 1
            assert phase == "trump", f"entry {i} {log[i - 1]} where trumps were due"
            out.trump_named.append(TrumpFact(seat, action - NAME_TRUMP, out.declarer, allowed))
            out.trump, out.pending_trump = action - NAME_TRUMP, None
        out.leader = out.declarer if out.contract == "abundance_declared" else (dealer + 1) % 4
        plays_out = bool(variant.play_out) or variant.overtricks
        while i < len(log):
            seat, phase, card, _ = log[i]
            assert phase == "play", f"entry {i} {log[i]} where a card was due"
            led = out.trick[0] // 13 if out.trick else -1
            expected = (out.leader + len(out.trick)) % 4
            out.plays.append(PlayFact(seat, card, out.hands[seat], led, expected))
            out.hands[seat] &= ~(1 << card)
            out.trick.append(card)
            i += 1
            if len(out.trick) < 4:
                continue
            winner = (out.leader + solo_trick_winner(out.trick, out.trump)) % 4
            number = len(out.tricks) + 1
            out.tricks.append(TrickFact(number, out.leader, out.trick, winner))
            out.won[winner] += 1
            out.leader, out.trick = winner, []
            taken, left = out.side_tricks, 13 - number
            # "decided" on trick counts: a misère is lost on the declarer's first trick
            misere_lost = target == 0 and taken > 0
            decided = misere_lost or 0 < target <= taken or taken + left < target
            if number == 13 or (decided and not plays_out):
                out.stopped_at, out.leftover = number, log[i:]
                break
        return out

    @staticmethod
    def expected_legal(state: Any) -> int:
        replay = SoloChecks.replay(state)
        if not replay.auction.over:
            assert state.to_act == replay.auction.to_act
            return sum(1 << BIDS[name] for name in replay.auction.allowed())
        if replay.pending_trump is not None:
            assert state.to_act == replay.pending_trump.expected_seat
            return sum(1 << (NAME_TRUMP + suit) for suit in replay.pending_trump.allowed)
        seat = (replay.leader + len(replay.trick)) % 4
        assert state.to_act == seat
        hand = replay.hands[seat]
        if not replay.trick:
            return hand
        return hand & SUIT_MASKS[replay.trick[0] // 13] or hand

    @staticmethod
    def expected_tricks(replay: SoloReplay, variant: Any) -> int | None:
        return replay.stopped_at

    @staticmethod
    def check_outcome(deal: PlayedDeal, replay: SoloReplay) -> None:
        outcome, state = deal.outcome, deal.state
        facts = outcome.facts
        assert facts["contract"] == replay.contract
        assert facts["tricks_played"] == len(replay.tricks)
        assert outcome.tricks == tuple(replay.won)
        assert state.deal_record()["trump"] == ("SHDC"[replay.trump] if replay.trump >= 0
                                                else "none")
        if replay.contract is None:
            assert outcome.net == outcome.score == (0.0,) * 4
            assert outcome.result == ("draw",) * 4
            assert facts["made"] is None
            return
        assert (facts["declarer"], facts["partner"]) == (
            replay.declarer, replay.partner if replay.partner >= 0 else None,
        )
        assert facts["declarer_tricks"] == replay.side_tricks
        assert facts["made"] == replay.made
        assert outcome.net == solo_payments(
            state.variant, replay.contract, replay.declarer, replay.partner,
            bool(replay.made), replay.side_tricks,
        )
        side = {replay.declarer, replay.partner}
        made = replay.made
        assert outcome.result == tuple(
            ("win" if made else "loss") if seat in side else ("loss" if made else "win")
            for seat in range(4)
        )

    @staticmethod
    def check_net(outcome: Any) -> None:
        """Solo's payments are already zero-sum: the score is the net."""
        assert outcome.net == outcome.score

    @staticmethod
    def draw_possible(state: Any) -> bool:
        return SoloChecks.replay(state).contract is None  # only a throw-in


CHECKS: dict[str, Any] = {"german_whist": GermanChecks, "solo_whist": SoloChecks}


# -- driving deals ---------------------------------------------------------------------


def deal_seeds(case: Case) -> list[tuple[int, int]]:
    return [(derive_seed(ROOT_SEED, "deal", i), i % case.players) for i in range(DEALS_PER_CASE)]


def strategies_for(case: Case) -> list[Any]:
    return [CHECKS[case.game].make_strategy() for _ in range(case.players)]


@cache
def played_deals(case_id: str) -> list[PlayedDeal]:
    case = next(c for c in CASES if c.id == case_id)
    game = case.make()
    strategies = strategies_for(case)
    return [play_deal(game, strategies, seed, dealer) for seed, dealer in deal_seeds(case)]


def step_through(game: Game, seed: int, dealer: int, on_step) -> DealState:
    """``play_deal``'s loop (same generators and strategy) with a check before every action."""
    state = game.new_deal(seed, dealer)
    rngs = [strategy_rng(seat_seed(seed, seat)) for seat in range(game.players)]
    strategy = CHECKS[game.name].make_strategy()
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


# -- the invariants of every game ----------------------------------------------------------


def test_every_registered_game_has_cases():
    assert {case.game for case in CASES} == set(GAMES)
    assert set(CHECKS) == set(GAMES)


def test_cases_cover_every_german_whist_variant_value():
    german = [case.variant for case in GERMAN_CASES]
    assert {v.get("count", "stage2") for v in german} == {"stage2", "all", "weighted"}
    assert {v.get("trumps", "upcard") for v in german} == {"upcard", "none"}
    assert {v.get("open_stock", 1) for v in german} >= {1, 2, 5}
    assert {v.get("race_to") for v in german} >= {None, 7, 9, 20}
    assert {v.get("match", "single") for v in german} == {"single", "best_of_3", "best_of_5"}


def test_cases_cover_every_solo_whist_variant_value():
    solo = [case.variant for case in SOLO_CASES]
    assert {v.get("payments", "default") for v in solo} == {"default", "classic"}
    assert {v.get("prop_and_cop", True) for v in solo} == {True, False}
    assert {v.get("upcard", True) for v in solo} == {True, False}
    assert {v.get("stake", 1) for v in solo} >= {1, 2.5}
    assert {v.get("overtricks", False) for v in solo} == {True, False}
    assert {v.get("play_out") for v in solo} == {None, True}
    assert {v.get("session_hands", 1) for v in solo} >= {1, 4, 100}
    assert {v.get("target") for v in solo} == {None, 20}
    assert {case.game for case in CASES if case not in GERMAN_CASES + SOLO_CASES} == set()


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
    assert steps >= DEALS_PER_CASE * CHECKS[case.game].min_steps_per_deal


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
    assert plays > DEALS_PER_CASE * checks.min_plays_per_deal


@cases()
def test_every_illegal_action_is_refused_at_random_points(case):
    game = case.make()
    actions = CHECKS[case.game].action_space
    pick = random.Random(7)
    tried = 0

    def check(state):
        nonlocal tried
        if state.over or pick.random() > 0.15:
            return
        before = (list(state.log), state.to_act, state.legal, state.phase, state.view(0))
        for action in actions:
            if action >= 0 and state.legal >> action & 1:
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
def test_trick_winners_and_count_of_tricks(case):
    checks = CHECKS[case.game]
    for deal in played_deals(case.id):
        state, variant = deal.state, deal.state.variant
        replay = checks.replay(state)
        assert [(t.number, t.leader, tuple(t.cards), t.winner) for t in replay.tricks] == [
            tuple(record) for record in state.tricks
        ]
        tricks = len(replay.tricks)
        assert tricks == checks.expected_tricks(replay, variant)
        assert deal.outcome.facts["tricks_played"] == tricks
        assert sum(deal.outcome.tricks) == tricks


@cases()
def test_scores_follow_the_rules(case):
    checks = CHECKS[case.game]
    for deal in played_deals(case.id):
        checks.check_outcome(deal, checks.replay(deal.state))
        assert deal.outcome.forfeit_seat is None and deal.outcome.error is None


@cases()
def test_net_is_zero_sum(case):
    for deal in played_deals(case.id):
        assert sum(deal.outcome.net) == 0
        CHECKS[case.game].check_net(deal.outcome)


@cases()
def test_draws_only_where_the_rules_allow_them(case):
    checks = CHECKS[case.game]
    for deal in played_deals(case.id):
        outcome = deal.outcome
        if "draw" in outcome.result:
            assert outcome.result == ("draw",) * len(outcome.result)
            assert checks.draw_possible(deal.state), (deal.state.variant, outcome)
            assert outcome.score == (0.0,) * len(outcome.score)


@cases()
def test_same_seed_same_game_different_seeds_different_deals(case):
    game = case.make()
    strategies = strategies_for(case)
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


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    case=st.sampled_from(CASES),
    dealer=st.integers(min_value=0, max_value=3),
)
def test_random_game_never_errors_and_conserves_cards(seed, case, dealer):
    game = case.make()
    state = step_through(game, seed, dealer % case.players, lambda s: check_conserved(case, s))
    outcome = state.outcome()
    assert outcome.forfeit_seat is None
    assert sum(outcome.net) == 0
    assert set(outcome.result) <= {"win", "loss", "draw"}


# -- German Whist only ---------------------------------------------------------------------


@cases(GERMAN_CASES)
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




# -- Solo Whist only -------------------------------------------------------------------------

THOUSANDS = 4000


@cases(SOLO_CASES)
def test_solo_every_call_was_legal_and_in_turn_and_trumps_named_as_allowed(case):
    calls = named = 0
    for deal in played_deals(case.id):
        replay = SoloChecks.replay(deal.state)
        assert replay.auction.over
        for fact in replay.calls:
            calls += 1
            assert fact.seat == fact.expected_seat, fact
            assert fact.call in fact.allowed, fact
        for fact in replay.trump_named:
            named += 1
            assert fact.seat == fact.expected_seat, fact
            assert fact.suit in fact.allowed, fact
        assert replay.pending_trump is None
    assert calls >= DEALS_PER_CASE * 4
    assert named > 0


@cases(SOLO_CASES)
def test_solo_every_deal_is_zero_sum_and_pays_by_the_contract_table(case):
    """Thousands of random deals: zero-sum, and payments recomputed from the outcome's
    (contract, made, declarer_tricks) and the variant, with no replay (fast)."""
    game = case.make()
    variant = game.variant
    strategies = strategies_for(case)
    seen = set()
    for i in range(THOUSANDS):
        outcome = play_deal(game, strategies, derive_seed(ROOT_SEED, "zero", i), i % 4).outcome
        assert sum(outcome.net) == 0, outcome
        facts = outcome.facts
        contract = facts["contract"]
        seen.add(contract)
        if contract is None:
            assert outcome.net == (0.0,) * 4
            continue
        target, taken = SOLO_TABLE[contract][0], facts["declarer_tricks"]
        made = taken >= target if target else taken == 0 and facts["tricks_played"] == 13
        assert facts["made"] == made, facts
        partner = facts["partner"] if facts["partner"] is not None else -1
        expected = solo_payments(variant, contract, facts["declarer"], partner, made,
                                 facts["declarer_tricks"])
        assert outcome.net == expected, facts
    allowed = {contract_of(bid) for bid in SOLO_LADDER}
    if not variant.prop_and_cop:
        allowed.discard("prop_and_cop")
    if not variant.upcard:
        allowed.discard("royal_abundance")
    assert seen == allowed | {None}  # every contract the variant has, and throw-ins


@cases(SESSION_CASES)
def test_solo_session_plays_its_hands_with_the_dealer_rotating(case):
    game = case.make()
    variant = game.variant
    strategies = strategies_for(case)
    lengths = set()
    for match_seed in range(4):
        deals, result = play_match(game, strategies, derive_seed(ROOT_SEED, "session", match_seed))
        lengths.add(len(deals))
        assert [deal.dealer for deal in deals] == [i % 4 for i in range(len(deals))]
        balance = [0.0] * 4
        for number, deal in enumerate(deals, start=1):
            balance = [b + x for b, x in zip(balance, deal.outcome.net, strict=True)]
            reached = variant.target is not None and max(balance) >= variant.target
            last = number == len(deals)
            assert last == (reached or number == variant.session_hands), (number, balance)
        assert result["match_points"] == tuple(balance)
        assert sum(result["match_points"]) == 0
        top = max(balance)
        leaders = [s for s in range(4) if balance[s] == top]
        assert result["match_result"] == tuple(
            ("win" if len(leaders) == 1 else "draw") if s in leaders else "loss"
            for s in range(4)
        )
        assert len({deal.seed for deal in deals}) == len(deals)
    if variant.target is None:
        assert lengths == {variant.session_hands}
