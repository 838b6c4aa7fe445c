"""One invariant suite for every game and every variant (PettingZoo-style conformance).

Each test function is parametrised over cases: (game name, variant, players).
Every invariant is checked independently of the engine's code: the rules are
re-derived here from the log, the deal record and the outcome. Adding a game means
adding its cases to ``CASES`` and a ``Checks`` adapter to ``CHECKS`` (how to read its
card zones from a state, its legal actions, a replay of its log, its scoring);
``test_every_registered_game_has_cases`` fails until that is done.

Which invariant applies to which game (Minn. = Minnesota Whist, KO = Knock-out Whist):

=====================================================  ======  ====  =====  =========
invariant                                              German  Solo  Minn.  KO
=====================================================  ======  ====  =====  =========
52 cards conserved at every step                       yes     yes   yes    per round
legal actions never empty until the end, as re-derived yes     yes   yes    yes
every logged play followed suit (replay of the log)    yes     yes   yes    full [1]
every illegal action refused, naming seat and rule     yes     yes   yes    yes
trick winners, and the number of tricks played         yes     yes   yes    yes
scores / payments follow the rules                     yes     yes   yes    yes
net is zero-sum                                        yes     yes   yes    yes
draws only where the rules allow them                  yes     yes   never  never
same seed same game, different seeds different deals   yes     yes   yes    yes
stage-1 drawing from the stock                         yes     --    --     --
count = "all" draws about one hand in nine             yes     --    --     --
best-of-N matches, dealer alternating                  yes     --    --     --
every call legal and in turn, trumps named as allowed  --      yes   --     --
zero-sum and the payment table over thousands of deals --      yes   --     --
sessions: N hands or first to target, dealer rotating  --      yes   --     --
laid / spoken bids in turn, first black card grands    --      --    yes    --
points by hand type and scoring over hundreds of deals --      --    yes    --
games to target, dealer rotating                       --      --    yes    --
rounds deal 7, 6, ... 1 cards, a dog 1, all played     --      --    --     yes
knocks only by a dog and never on the last trick       --      --    --     yes
knock-outs, dog's lives and revivals as dogs_life says --      --    --     yes
trump chosen by most tricks (tie_break), who leads     --      --    --     yes
game ends: one player left or after one-card round     --      --    --     yes
one winner, +(n-1) / -1, placings                      --      --    --     yes
views show round, dealer, trump, status, hands         --      --    --     yes
=====================================================  ======  ====  =====  =========

[1] A player on a dog's life is not bound to follow suit (docs/rules/knockout-whist.md).

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
    SUITS,
    card_str,
    cards_of,
    parse_card,
    parse_card_list,
    parse_cards,
    to_mask,
)
from whist_sim.games import GAMES, make_game
from whist_sim.games.base import DealState, Game, RuleError
from whist_sim.games.solo_whist import BIDS, NAME_TRUMP
from whist_sim.play import PlayedDeal, play_deal, play_match, seat_seed
from whist_sim.rng import derive_seed, shuffled_deck, strategy_rng

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

DEALS_PER_CASE = 30
ROOT_SEED = 20240601


@dataclass(frozen=True)
class Case:
    game: str
    variant: dict[str, Any]
    players: int

    @property
    def id(self) -> str:
        items = sorted(self.variant.items())
        game_type = GAMES[self.game]
        if game_type.min_players != game_type.max_players:  # the player count is a setting
            items.insert(0, ("players", self.players))
        settings_ = ",".join(f"{k}={v}" for k, v in items)
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
MINNESOTA_CASES = [
    Case("minnesota_whist", {}, 4),
    Case("minnesota_whist", {"scoring": "pagat"}, 4),
    Case("minnesota_whist", {"bid": "spoken"}, 4),
    Case("minnesota_whist", {"target": 5}, 4),
    Case("minnesota_whist", {"scoring": "pagat", "bid": "spoken", "target": 5}, 4),
]
KNOCKOUT_CASES = [Case("knockout_whist", {}, players) for players in range(2, 8)] + [
    Case("knockout_whist", variant, players)
    for players in (4, 7)
    for variant in (
        {"tie_break": "nearest_left"},
        {"dogs_life": "first_round"},
        {"dogs_life": "first_knockout"},
    )
] + [
    # with two or three players the first knock-out usually leaves one full player and a
    # dog: the game goes on, and a dog granted in round 6 plays the one-card round
    Case("knockout_whist", {"dogs_life": "first_knockout"}, 2),
    Case("knockout_whist", {"dogs_life": "first_knockout"}, 3),
]
CASES = GERMAN_CASES + SOLO_CASES + MINNESOTA_CASES + KNOCKOUT_CASES
MATCH_CASES = [case for case in GERMAN_CASES if case.variant.get("match", "single") != "single"]
SESSION_CASES = [case for case in SOLO_CASES if case.variant.get("session_hands", 1) > 1]


def cases(selection: list[Case] = CASES):
    return pytest.mark.parametrize("case", selection, ids=[c.id for c in selection])


# -- German Whist, re-derived from docs/rules/german-whist.md ------------------------


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
    """German Whist's rules, written again from docs/rules/ without the engine's code."""

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
        """(result per seat, score per seat) from the trick counts, as docs/rules/ scores."""
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
    probe_rate = 0.15
    """Share of the steps at which every illegal action is tried."""
    min_steps_per_deal = 10
    min_plays_per_deal = 20


# -- Solo Whist, re-derived from docs/rules/solo-whist.md ----------------------------

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
    """The auction as docs/rules/solo-whist.md runs it: from eldest, clockwise among those
    who have not passed, each call a pass, a higher bid or a Cop of a standing Prop; over when every
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
    """Solo Whist's rules, written again from docs/rules/ without the engine's code."""

    make_strategy = VariedBidder
    action_space = (*range(65), 65, -1)
    probe_rate = 0.15
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


# -- incremental replays, for the checks made before every action ------------------------

_live: list[Any] = [None, None]
"""The state ``step_through`` is driving and its replay so far (one slot is enough)."""


def live_replay(state: Any, make: Any) -> Any:
    """``make(state)``'s replay of the log so far, fed only the entries new since last time.

    A full replay before every action would cost the square of the log's length.
    """
    state_seen, replay = _live
    if state_seen is not state or type(replay) is not make or replay.consumed > len(state.log):
        replay = make(state, feed_log=False)
        _live[0], _live[1] = state, replay
    replay.feed_all(state.log[replay.consumed:])
    return replay


# -- Minnesota Whist, re-derived from docs/rules/minnesota-whist.md ------------------

MN_PASS, MN_GRAND = 52, 53
"""Spoken bids, numbered as the game module's docstring says."""
BLACK_SUITS = (0, 3)
"""Spades and clubs (suits are numbered S H D C)."""


def side(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat % 2


def minnesota_points(scoring: str, grander: int, side_tricks: list[int]) -> tuple[int, int]:
    """Points of side 0 and side 1 for a hand, as docs/rules/minnesota-whist.md scores it."""
    points = [0, 0]
    more = 0 if side_tricks[0] > side_tricks[1] else 1  # 13 tricks: never equal
    if scoring == "pagat":
        over = side_tricks[more] - 6
        points[more] = over if grander >= 0 else -over  # a null hand: more tricks lose
    elif grander >= 0:
        granders = side(grander)
        if side_tricks[granders] >= 7:
            points[granders] = side_tricks[granders] - 6
        else:
            points[1 - granders] = 2 * (side_tricks[1 - granders] - 6)
    else:
        points[1 - more] = 7 - side_tricks[1 - more]
    return points[0], points[1]


@dataclass
class BidFact:
    """A laid card or a spoken bid, next to who should have acted and what was allowed."""

    seat: int
    phase: str
    action: int
    expected_seat: int
    allowed: int


class MinnesotaReplay:
    """A Minnesota Whist deal walked from its dealt hands and log, entry by entry."""

    def __init__(self, state: Any, feed_log: bool = True) -> None:
        record = state.deal_record()
        self.variant = state.variant
        self.dealer: int = record["dealer"]
        self.hands = [parse_cards(h) for h in record["hands"]]
        self.order = [(self.dealer + k) % 4 for k in range(1, 5)]
        """Bidding order: from the dealer's left, clockwise."""
        self.phase = "lay" if self.variant.bid == "cards" else "bid"
        self.bids: list[BidFact] = []
        self.laid: dict[int, int] = {}
        self.expected_turns: list[tuple[int, str, int, bool]] = []
        self.turned: list[tuple[int, int]] = []
        self.grander = -1
        self.leader = -1
        self.trick: list[int] = []
        self.plays: list[PlayFact] = []
        self.tricks: list[TrickFact] = []
        self.side_tricks = [0, 0]
        self.leftover: list[tuple[int, str, int, bool]] = []
        self.consumed = 0
        if feed_log:
            self.feed_all(state.log)

    def feed_all(self, entries: Any) -> None:
        for entry in entries:
            self.feed(tuple(entry))

    def feed(self, entry: tuple[int, str, int, bool]) -> None:
        self.consumed += 1
        seat, phase, action, _chosen = entry
        if self.phase == "over":
            self.leftover.append(entry)
        elif self.phase == "turn":
            expected = self.expected_turns[len(self.turned)]
            assert entry == expected, f"entry {entry}: the cards are turned {self.expected_turns}"
            self.turned.append((seat, action))
            if len(self.turned) == len(self.expected_turns):
                self._start_play(seat if action // 13 in BLACK_SUITS else -1)
        elif self.phase == "lay":
            assert phase == "lay", f"entry {entry} where a laid card was due"
            expected_seat = self.order[len(self.bids)]
            self.bids.append(BidFact(seat, phase, action, expected_seat, self.hands[expected_seat]))
            self.laid[seat] = action
            if len(self.bids) == 4:
                # turned from the dealer's left until the first black card
                for turner in self.order:
                    card = self.laid.get(turner, -1)
                    self.expected_turns.append((turner, "turn", card, False))
                    if card // 13 in BLACK_SUITS:
                        break
                self.phase = "turn"
        elif self.phase == "bid":
            assert phase == "bid", f"entry {entry} where a spoken bid was due"
            allowed = 1 << MN_PASS | 1 << MN_GRAND
            self.bids.append(BidFact(seat, phase, action, self.order[len(self.bids)], allowed))
            if action == MN_GRAND:
                self._start_play(seat)
            elif len(self.bids) == 4:
                self._start_play(-1)
        else:
            assert phase == "play", f"entry {entry} where a card was due"
            led = self.trick[0] // 13 if self.trick else -1
            expected_seat = (self.leader + len(self.trick)) % 4
            self.plays.append(PlayFact(seat, action, self.hands[seat], led, expected_seat))
            self.hands[seat] &= ~(1 << action)
            self.trick.append(action)
            if len(self.trick) < 4:
                return
            # no trumps, ever: the highest card of the suit led wins
            winner = (self.leader + solo_trick_winner(self.trick, -1)) % 4
            self.tricks.append(TrickFact(len(self.tricks) + 1, self.leader, self.trick, winner))
            self.side_tricks[side(winner)] += 1
            self.leader, self.trick = winner, []
            if len(self.tricks) == 13:
                self.phase = "over"

    def _start_play(self, grander: int) -> None:
        self.grander = grander
        # a grand is led by the grander's right-hand neighbour (play goes to the left),
        # a null hand by the dealer's left
        self.leader = (grander - 1) % 4 if grander >= 0 else (self.dealer + 1) % 4
        self.phase = "play"

    @property
    def grand(self) -> bool:
        return self.grander >= 0

    def expected(self) -> tuple[set[int], int]:
        """Who may act now and the actions the rules allow them."""
        assert self.phase != "turn", "the laid cards were not turned"
        if self.phase == "over":
            return set(), 0
        if self.phase == "lay":  # lay any card held
            seat = self.order[len(self.bids)]
            return {seat}, self.hands[seat]
        if self.phase == "bid":
            return {self.order[len(self.bids)]}, 1 << MN_PASS | 1 << MN_GRAND
        seat = (self.leader + len(self.trick)) % 4
        hand = self.hands[seat]
        if not self.trick:
            return {seat}, hand
        return {seat}, hand & SUIT_MASKS[self.trick[0] // 13] or hand


class MinnesotaChecks:
    """Minnesota Whist's rules, written again from docs/rules/ without the engine's code."""

    make_strategy = RandomStrategy
    action_space = (*range(54), 54, -1)
    probe_rate = 0.15
    min_steps_per_deal = 53  # a bid and 52 cards, at the least
    min_plays_per_deal = 51

    @staticmethod
    def zones(state: Any) -> dict[str, list[int]]:
        # a laid card stays in its owner's hand: there is no zone for it
        played = [card for record in state.tricks for card in record.cards]
        zones = {f"hand {seat}": cards_of(state.hands[seat]) for seat in range(4)}
        zones["played"] = played + list(state.trick)
        return zones

    @staticmethod
    def replay(state: Any) -> MinnesotaReplay:
        return MinnesotaReplay(state)

    @staticmethod
    def expected_legal(state: Any) -> int:
        seats, legal = live_replay(state, MinnesotaReplay).expected()
        assert state.to_act in seats, (state.to_act, seats)
        return legal

    @staticmethod
    def expected_tricks(replay: MinnesotaReplay, variant: Any) -> int:
        return 13

    @staticmethod
    def check_outcome(deal: PlayedDeal, replay: MinnesotaReplay) -> None:
        outcome, variant = deal.outcome, deal.state.variant
        facts = outcome.facts
        points = minnesota_points(variant.scoring, replay.grander, replay.side_tricks)
        assert facts["hand_type"] == ("grand" if replay.grand else "null")
        assert facts["grander"] == (replay.grander if replay.grand else None)
        assert facts["side_tricks"] == replay.side_tricks
        assert list(facts["side_points"]) == list(points), (replay.side_tricks, replay.grander)
        assert outcome.tricks == tuple(
            sum(t.winner == seat for t in replay.tricks) for seat in range(4)
        )
        assert outcome.score == tuple(float(points[side(s)]) for s in range(4))
        net = tuple(float(points[side(s)] - points[1 - side(s)]) for s in range(4))
        assert outcome.net == net
        assert outcome.result == tuple("win" if n > 0 else "loss" for n in net)

    @staticmethod
    def check_net(outcome: Any) -> None:
        """Partners score alike; net is the own side's points minus the other side's."""
        for seat in range(4):
            assert outcome.score[seat] == outcome.score[(seat + 2) % 4]
            assert outcome.net[seat] == outcome.score[seat] - outcome.score[(seat + 1) % 4]

    @staticmethod
    def draw_possible(state: Any) -> bool:
        return False  # one side always scores a non-zero number of points


# -- Knock-out Whist, re-derived from docs/rules/knockout-whist.md ------------------

KO_KNOCK, KO_NAME_TRUMP = 52, 53
"""A dog's knock, and naming trump (53 + suit), numbered as the game module says."""
KO_ROUNDS = 7
FULL, DOG, OUT = "in", "dog", "out"
"""A player's status, named as the view names it."""


def knockout_pack(seed: int, round_number: int) -> list[int]:
    """The fresh pack of a round (a reading: the published rules are silent)."""
    return shuffled_deck(derive_seed(seed, "round", round_number))


@dataclass
class KoRound:
    """One round as the rules run it."""

    number: int
    dealer: int
    size: int
    """Cards each full player is dealt: 8 - round."""
    dealt_in: list[int]
    """Players dealt in (full players and dogs), from the dealer's left."""
    dogs: set[int]
    dealt: list[int]
    """Each seat's hand as dealt."""
    undealt: int
    tied: set[int]
    """Players with most tricks in the round before (who may choose trump)."""
    nearest_left: int
    """The tied player nearest the previous dealer's left (-1 in round 1)."""
    trump: int = -1
    chooser: int = -1
    won: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    tricks: int = 0
    knocked: list[int] = field(default_factory=list)
    """Full players who took no trick."""
    granted: set[int] = field(default_factory=set)
    revived: set[int] = field(default_factory=set)
    failed: set[int] = field(default_factory=set)
    """Dogs that took no trick."""


@dataclass
class KnockFact:
    seat: int
    round: int
    trick: int
    """Number of the trick within its round, from 1."""
    expected_seat: int
    dog: bool
    last_trick: bool


@dataclass
class ChoiceFact:
    seat: int
    round: int
    suit: int
    tied: set[int]
    nearest_left: int


class KnockoutReplay:
    """A Knock-out Whist game walked from its seed, first dealer and log, entry by entry."""

    def __init__(self, state: Any, feed_log: bool = True) -> None:
        self.players: int = state.players
        self.variant = state.variant
        self.seed: int = state.seed
        self.dealer: int = state.deal_record()["dealer"]
        n = self.players
        self.status = [FULL] * n
        self.dog_used = [False] * n
        self.out_round: list[int | None] = [None] * n
        self.out_tricks = [0] * n
        self.knockout_seen = False
        self.rounds: list[KoRound] = []
        self.hands = [0] * n
        self.upcard = -1
        self.trick: list[tuple[int, int]] = []
        self.order: list[int] = []
        """Who plays to the current trick, in turn: from the leader, everyone holding cards."""
        self.turn = 0
        self.leader = -1
        self.plays: list[PlayFact] = []
        self.knocks: list[KnockFact] = []
        self.choices: list[ChoiceFact] = []
        self.tricks: list[TrickFact] = []
        self.winner = -1
        self.ended_by: str | None = None
        self.leftover: list[tuple[int, str, int, bool]] = []
        self.consumed = 0
        self._deal(set(), -1)
        if feed_log:
            self.feed_all(state.log)

    @property
    def round(self) -> KoRound:
        return self.rounds[-1]

    @property
    def over(self) -> bool:
        return self.winner >= 0

    def _deal(self, tied: set[int], nearest_left: int) -> None:
        """One card at a time from the dealer's left; a dog gets one, in the first pass."""
        number = len(self.rounds) + 1
        size = KO_ROUNDS + 1 - number
        pack = knockout_pack(self.seed, number)
        n = self.players
        dealt_in = [
            (self.dealer + k) % n for k in range(1, n + 1)
            if self.status[(self.dealer + k) % n] != OUT
        ]
        dogs = {s for s in dealt_in if self.status[s] == DOG}
        hands = [0] * n
        position = 0
        for k in range(size):
            for seat in dealt_in:
                if k == 0 or seat not in dogs:
                    hands[seat] |= 1 << pack[position]
                    position += 1
        self.rounds.append(KoRound(
            number, self.dealer, size, dealt_in, dogs, list(hands), to_mask(pack[position:]),
            tied, nearest_left, won=[0] * n, played=[0] * n,
        ))
        self.hands = hands
        if number == 1:  # the next card is turned for trump; the dealer's left leads
            self.upcard = pack[position]
            self.round.trump = self.upcard // 13
            self._start_trick((self.dealer + 1) % n)

    def _start_trick(self, leader: int) -> None:
        n = self.players
        self.leader = leader
        self.order = [(leader + k) % n for k in range(n) if self.hands[(leader + k) % n]]
        self.turn = 0
        self.trick = []

    def feed_all(self, entries: Any) -> None:
        for entry in entries:
            self.feed(tuple(entry))

    def feed(self, entry: tuple[int, str, int, bool]) -> None:
        self.consumed += 1
        seat, phase, action, _chosen = entry
        rnd = self.round
        if self.over:
            self.leftover.append(entry)
            return
        if rnd.trump < 0:
            assert phase == "trump", f"entry {entry} where trump was to be named"
            suit = action - KO_NAME_TRUMP
            self.choices.append(ChoiceFact(seat, rnd.number, suit, rnd.tied, rnd.nearest_left))
            rnd.trump, rnd.chooser = suit, seat
            self._start_trick(seat)  # the chooser leads the round's first trick
            return
        expected_seat = self.order[self.turn]
        dog = seat in rnd.dogs
        if phase == "knock":
            last = rnd.tricks == rnd.size - 1
            fact = KnockFact(seat, rnd.number, rnd.tricks + 1, expected_seat, dog, last)
            self.knocks.append(fact)
        else:
            assert phase == "play", f"entry {entry} where a card or a knock was due"
            # a dog is not bound to follow suit
            led = self.trick[0][1] // 13 if self.trick and not dog else -1
            self.plays.append(PlayFact(seat, action, self.hands[seat], led, expected_seat))
            self.hands[seat] &= ~(1 << action)
            rnd.played[seat] += 1
            self.trick.append((seat, action))
        self.turn += 1
        if self.turn == len(self.order):
            self._complete_trick()

    def _complete_trick(self) -> None:
        rnd, n = self.round, self.players
        cards = [card for _, card in self.trick]
        winner = self.trick[solo_trick_winner(cards, rnd.trump)][0]
        self.tricks.append(TrickFact(len(self.tricks) + 1, self.leader, cards, winner))
        rnd.won[winner] += 1
        rnd.tricks += 1
        if rnd.tricks == rnd.size:
            self._end_round()
            return
        leader = winner
        if winner in rnd.dogs:  # a dog never leads: the next full player to its left
            leader = next(
                seat for seat in ((winner + k) % n for k in range(1, n))
                if self.hands[seat] and seat not in rnd.dogs
            )
        self._start_trick(leader)

    def _end_round(self) -> None:
        rnd, n = self.round, self.players
        final = rnd.number == KO_ROUNDS
        rnd.knocked = [s for s in rnd.dealt_in if s not in rnd.dogs and rnd.won[s] == 0]
        setting = self.variant.dogs_life
        if final or setting == "off":
            grants = False  # the one-card round gives none
        elif setting == "first_round":
            grants = rnd.number == 1
        else:  # "first_knockout": the first round in which anyone is knocked out
            grants = not self.knockout_seen
        if grants:
            rnd.granted = {s for s in rnd.knocked if not self.dog_used[s]}
        for seat in rnd.dogs:  # revived iff it won a trick
            if rnd.won[seat]:
                rnd.revived.add(seat)
                self.status[seat] = FULL
            else:
                rnd.failed.add(seat)
                self._go_out(seat)
        for seat in rnd.knocked:
            if seat in rnd.granted:
                self.status[seat] = DOG
                self.dog_used[seat] = True
            else:
                self._go_out(seat)
        self.knockout_seen = self.knockout_seen or bool(rnd.knocked)
        full = [s for s in range(n) if self.status[s] == FULL]
        dogs = [s for s in range(n) if self.status[s] == DOG]
        if final:
            self._end_game(self.tricks[-1].winner, "final_round")
        elif len(full) == 1 and not dogs:
            self._end_game(full[0], "last_player")
        else:
            most = max(rnd.won)
            tied = {s for s in rnd.dealt_in if rnd.won[s] == most}
            nearest = next((rnd.dealer + k) % n for k in range(1, n + 1)
                           if (rnd.dealer + k) % n in tied)
            self.dealer = next((rnd.dealer + k) % n for k in range(1, n + 1)
                               if self.status[(rnd.dealer + k) % n] != OUT)
            self._deal(tied, nearest)

    def _go_out(self, seat: int) -> None:
        self.status[seat] = OUT
        self.out_round[seat] = self.round.number
        self.out_tricks[seat] = self.round.won[seat]

    def _end_game(self, winner: int, how: str) -> None:
        self.winner, self.ended_by = winner, how
        for seat in range(self.players):
            if seat != winner and self.status[seat] != OUT:
                self._go_out(seat)
        self.order, self.turn = [], 0

    def expected(self) -> tuple[set[int], int]:
        """Who may act now and the actions the rules allow them."""
        if self.over:
            return set(), 0
        rnd = self.round
        if rnd.trump < 0:
            may_choose = {rnd.nearest_left} if self.variant.tie_break == "nearest_left" else (
                rnd.tied)
            return may_choose, sum(1 << (KO_NAME_TRUMP + suit) for suit in range(4))
        seat = self.order[self.turn]
        hand = self.hands[seat]
        if seat in rnd.dogs:  # any card, or a knock except on the round's last trick
            return {seat}, hand if rnd.tricks == rnd.size - 1 else hand | 1 << KO_KNOCK
        if not self.trick:
            return {seat}, hand
        return {seat}, hand & SUIT_MASKS[self.trick[0][1] // 13] or hand

    def placings(self) -> list[int]:
        """The winner 1st; the others by the round they went out in (later is better), then
        by tricks taken in it; equal players share a place."""
        def key(seat: int) -> tuple[int, int]:
            if seat == self.winner:
                return (KO_ROUNDS + 1, 0)
            return (self.out_round[seat] or 0, self.out_tricks[seat])

        keys = [key(s) for s in range(self.players)]
        return [1 + sum(k > keys[s] for k in keys) for s in range(self.players)]


class KnockoutChecks:
    """Knock-out Whist's rules, written again from docs/rules/ without the engine's code."""

    make_strategy = RandomStrategy
    action_space = (*range(57), 57, -1)
    probe_rate = 0.05  # long games of up to 7 players: still thousands of refusals
    min_steps_per_deal = 14  # two players, seven tricks
    min_plays_per_deal = 10

    @staticmethod
    def zones(state: Any) -> dict[str, list[int]]:
        """Every round is dealt from a fresh pack: hands, this round's played cards and the
        cards of its pack nobody was dealt (the round-1 turn-up among them)."""
        replay = live_replay(state, KnockoutReplay)
        zones = {f"hand {seat}": cards_of(state.hands[seat]) for seat in range(state.players)}
        zones["played this round"] = [c for t in state.tricks for c in t.cards] + list(state.trick)
        zones["undealt"] = cards_of(replay.round.undealt)
        return zones

    @staticmethod
    def replay(state: Any) -> KnockoutReplay:
        return KnockoutReplay(state)

    @staticmethod
    def expected_legal(state: Any) -> int:
        seats, legal = live_replay(state, KnockoutReplay).expected()
        assert state.to_act in seats, (state.to_act, seats)
        return legal

    @staticmethod
    def expected_tricks(replay: KnockoutReplay, variant: Any) -> int:
        """Each round played all its tricks: 7 + 6 + ... for the rounds the game lasted."""
        assert replay.over
        return sum(rnd.size for rnd in replay.rounds)

    @staticmethod
    def check_outcome(deal: PlayedDeal, replay: KnockoutReplay) -> None:
        outcome, n = deal.outcome, replay.players
        assert replay.over
        winner = replay.winner
        assert outcome.facts["winner"] == winner
        assert outcome.facts["ended_by"] == replay.ended_by
        assert outcome.facts["rounds_played"] == len(replay.rounds)
        assert outcome.facts["dogs_granted"] == sum(replay.dog_used)
        assert outcome.tricks == tuple(
            sum(t.winner == seat for t in replay.tricks) for seat in range(n)
        )
        assert outcome.result == tuple("win" if s == winner else "loss" for s in range(n))
        assert outcome.net == tuple(float(n - 1) if s == winner else -1.0 for s in range(n))
        assert outcome.score == tuple(1.0 if s == winner else 0.0 for s in range(n))

    @staticmethod
    def check_net(outcome: Any) -> None:
        """The winner takes 1 from each of the others."""
        n = len(outcome.net)
        assert sorted(outcome.net) == [-1.0] * (n - 1) + [float(n - 1)]

    @staticmethod
    def draw_possible(state: Any) -> bool:
        return False  # exactly one player wins


CHECKS: dict[str, Any] = {
    "german_whist": GermanChecks,
    "solo_whist": SoloChecks,
    "minnesota_whist": MinnesotaChecks,
    "knockout_whist": KnockoutChecks,
}


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
    others = GERMAN_CASES + SOLO_CASES + MINNESOTA_CASES + KNOCKOUT_CASES
    assert {case.game for case in CASES if case not in others} == set()


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
def test_every_illegal_action_is_refused_at_random_points_naming_the_legal_ones(case):
    game = case.make()
    actions = CHECKS[case.game].action_space
    rate = CHECKS[case.game].probe_rate
    pick = random.Random(7)
    tried = 0

    def check(state):
        nonlocal tried
        if state.over or pick.random() > rate:
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
            # and what it may do instead, so a strategy's author need not look it up
            legal = [game.action_str(a) for a in actions if a >= 0 and state.legal >> a & 1]
            if info.value.rule == "follow suit":  # "must follow hearts (holds 7H 6H)"
                assert all(name in info.value.message for name in legal)
            else:
                assert info.value.legal.split(", ") == legal
                assert f"; legal now: {info.value.legal} [rule: " in str(info.value)
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
            tuple(record) for record in state.completed_tricks()
        ]
        tricks = len(replay.tricks)
        assert tricks == checks.expected_tricks(replay, variant)
        if "tricks_played" in deal.outcome.facts:  # Minnesota Whist always plays 13
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
    # docs/rules/german-whist.md: about one hand in nine; 300 hands make "none at all"
    # astronomically rare
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
            # before the N-th hand a lead the remaining hands cannot catch ends the match;
            # after it, hands level (draws, under count = "all") go on until they differ
            out_of_reach = played < best_of and lead[0] - lead[1] > best_of - played
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


# -- Minnesota Whist only ----------------------------------------------------------------------

MINNESOTA_DEALS = 200


def test_cases_cover_every_minnesota_whist_variant_value():
    minnesota = [case.variant for case in MINNESOTA_CASES]
    assert {v.get("scoring", "default") for v in minnesota} == {"default", "pagat"}
    assert {v.get("bid", "cards") for v in minnesota} == {"cards", "spoken"}
    assert {v.get("target", 13) for v in minnesota} == {13, 5}
    assert any(len(v) == 3 for v in minnesota)  # every setting changed at once


def test_minnesota_scoring_matches_the_examples_of_the_rules():
    # "granded, 10 tricks: +4 to the granders"
    assert minnesota_points("default", 0, [10, 3]) == (4, 0)
    # "Granded, granders 5, others 8: others +4"
    assert minnesota_points("default", 1, [8, 5]) == (4, 0)
    # "Null, 9-4: the side with 4 scores +3"
    assert minnesota_points("default", -1, [9, 4]) == (0, 3)
    # pagat: a grand pays the side with more tricks, whoever granded; a null costs it
    assert minnesota_points("pagat", 1, [9, 4]) == (3, 0)
    assert minnesota_points("pagat", 0, [9, 4]) == (3, 0)
    assert minnesota_points("pagat", -1, [4, 9]) == (0, -3)


@cases(MINNESOTA_CASES)
def test_minnesota_bids_in_turn_the_first_black_card_turned_grands_and_who_leads(case):
    game = case.make()
    for deal in played_deals(case.id):
        state, facts = deal.state, deal.outcome.facts
        replay = MinnesotaChecks.replay(state)
        order = [(deal.dealer + k) % 4 for k in range(1, 5)]
        for fact in replay.bids:
            assert fact.seat == fact.expected_seat, fact
            assert fact.allowed >> fact.action & 1, fact
        if game.variant.bid == "cards":
            assert [fact.seat for fact in replay.bids] == order
            laid = {fact.seat: fact.action for fact in replay.bids}
            grander = next((s for s in order if laid[s] // 13 in BLACK_SUITS), -1)
            turned = order[: order.index(grander) + 1] if grander >= 0 else order
            assert facts["turned"] == turned
            assert facts["laid"] == [card_str(laid[s]) for s in range(4)]
            # the turned cards are public, and every laid card went back into its hand
            for seat in range(4):
                assert state.view(seat).turned == tuple((s, laid[s]) for s in turned)
        else:
            calls = [fact.action for fact in replay.bids]
            assert calls.count(MN_GRAND) <= 1 and MN_GRAND not in calls[:-1]  # first decides
            assert len(calls) == 4 or calls[-1] == MN_GRAND
            grander = replay.bids[-1].seat if calls[-1] == MN_GRAND else -1
            assert [fact.seat for fact in replay.bids] == order[: len(calls)]
        assert facts["grander"] == (grander if grander >= 0 else None)
        assert facts["hand_type"] == ("grand" if grander >= 0 else "null")
        # a grand: the grander's right-hand neighbour leads; a null hand: the dealer's left
        leader = (grander + 3) % 4 if grander >= 0 else (deal.dealer + 1) % 4
        assert state.completed_tricks()[0].leader == leader


@cases(MINNESOTA_CASES)
def test_minnesota_points_follow_hand_type_and_scoring_over_hundreds_of_deals(case):
    game = case.make()
    strategies = strategies_for(case)
    seen = set()
    for i in range(MINNESOTA_DEALS):
        deal = play_deal(game, strategies, derive_seed(ROOT_SEED, "minnesota", i), i % 4)
        replay = MinnesotaChecks.replay(deal.state)
        MinnesotaChecks.check_outcome(deal, replay)
        assert sum(replay.side_tricks) == 13
        if replay.grand:
            granders = side(replay.grander)
            seen.add("grand made" if replay.side_tricks[granders] >= 7 else "grand set")
        else:
            seen.add("null")
    assert seen == {"grand made", "grand set", "null"}


@cases(MINNESOTA_CASES)
def test_minnesota_game_ends_when_a_side_reaches_target_with_dealer_rotating(case):
    game = case.make()
    target = game.variant.target
    strategies = strategies_for(case)
    for match_seed in range(5):
        deals, result = play_match(game, strategies, derive_seed(ROOT_SEED, "mn game", match_seed))
        score = [0, 0]
        for number, deal in enumerate(deals):
            assert max(score) < target, (number, score)  # the game was not yet decided
            assert deal.dealer == number % 4
            assert all(deal.state.view(seat).score == tuple(score) for seat in range(4))
            replay = MinnesotaChecks.replay(deal.state)
            points = minnesota_points(game.variant.scoring, replay.grander, replay.side_tricks)
            score = [score[0] + points[0], score[1] + points[1]]
        assert max(score) >= target
        winners = 0 if score[0] >= target else 1
        assert result["match_points"] == tuple(float(score[side(s)]) for s in range(4))
        assert result["match_result"] == tuple(
            "win" if side(s) == winners else "loss" for s in range(4)
        )
        assert len({deal.seed for deal in deals}) == len(deals)


# -- Knock-out Whist only ----------------------------------------------------------------------


def knockout_rows(state: Any) -> dict[tuple[int, int], dict[str, Any]]:
    """The ``rounds`` table of a game, by (round, seat)."""
    seated = tuple(f"s{seat}" for seat in range(state.players))
    rows = state.extra_rows(seated)["rounds"]
    by_key = {(row["round"], row["seat"]): row for row in rows}
    assert len(by_key) == len(rows), "a player has two rows for one round"
    return by_key


def test_cases_cover_every_knockout_whist_player_count_and_variant_value():
    assert {case.players for case in KNOCKOUT_CASES if not case.variant} == set(range(2, 8))
    for players in (4, 7):
        variants = [case.variant for case in KNOCKOUT_CASES if case.players == players]
        assert {v.get("tie_break", "cut") for v in variants} == {"cut", "nearest_left"}
        assert {v.get("dogs_life", "off") for v in variants} == {
            "off", "first_round", "first_knockout",
        }


@cases(KNOCKOUT_CASES)
def test_knockout_rounds_deal_seven_six_down_to_one_card_and_a_dog_one(case):
    for deal in played_deals(case.id):
        state = deal.state
        replay = KnockoutChecks.replay(state)
        rows = knockout_rows(state)
        for number, rnd in enumerate(replay.rounds, start=1):
            assert rnd.number == number and rnd.size == KO_ROUNDS + 1 - number
            for seat in range(case.players):
                dealt = 0 if seat not in rnd.dealt_in else 1 if seat in rnd.dogs else rnd.size
                # every card dealt is played by the end of the round, and no other
                assert rnd.played[seat] == dealt, (number, seat, rnd)
                if dealt and seat not in rnd.dogs:  # a dog's row: see the test below
                    assert rows[number, seat]["cards_dealt"] == dealt
            assert {seat for r, seat in rows if r == number} == set(rnd.dealt_in)
        record = state.deal_record()
        assert [parse_cards(h) for h in record["hands"]] == replay.rounds[0].dealt
        assert parse_card(record["upcard"]) == replay.upcard
        assert record["trump"] == SUITS[replay.upcard // 13]


def test_knockout_rounds_table_records_the_single_card_a_dog_was_dealt():
    """Every player and round records its cards dealt; a dog is dealt one."""
    wrong = []
    for case in KNOCKOUT_CASES:
        if case.variant.get("dogs_life", "off") == "off":
            continue
        for deal in played_deals(case.id):
            rows = knockout_rows(deal.state)
            for rnd in KnockoutChecks.replay(deal.state).rounds:
                for dog in sorted(rnd.dogs):
                    row = rows[rnd.number, dog]
                    if row["cards_dealt"] != 1:
                        wrong.append((case.id, deal.seed, deal.dealer, rnd.number, dog, row))
    assert wrong == [], f"{len(wrong)} dog rows, the first: {wrong[0]}"


@cases(KNOCKOUT_CASES)
def test_knockout_only_a_dog_knocks_never_on_the_last_trick_and_it_plays_once(case):
    knocks = dog_rounds = 0
    for deal in played_deals(case.id):
        replay = KnockoutChecks.replay(deal.state)
        for fact in replay.knocks:
            knocks += 1
            assert fact.seat == fact.expected_seat, fact
            assert fact.dog, f"{fact}: only a dog knocks"
            assert not fact.last_trick, f"{fact}: a dog must play on the round's last trick"
        for rnd in replay.rounds:
            for dog in rnd.dogs:
                dog_rounds += 1
                assert rnd.played[dog] == 1, (rnd.number, dog)
    if case.variant.get("dogs_life", "off") == "off":
        assert knocks == dog_rounds == 0
    else:
        assert knocks > 0 and dog_rounds > 0


@cases(KNOCKOUT_CASES)
def test_knockout_knockouts_dogs_lives_and_revivals_follow_the_variant(case):
    dogs_life = case.variant.get("dogs_life", "off")
    seen = {"granted": 0, "revived": 0, "failed": 0}
    for deal in played_deals(case.id):
        state = deal.state
        replay = KnockoutChecks.replay(state)
        rows = knockout_rows(state)
        lives = [0] * case.players
        for rnd in replay.rounds:
            seen["granted"] += len(rnd.granted)
            seen["revived"] += len(rnd.revived)
            seen["failed"] += len(rnd.failed)
            if dogs_life == "off":
                assert not rnd.dogs and not rnd.granted
            for dog in rnd.dogs:  # revived iff it won a trick
                lives[dog] += 1
                assert (dog in rnd.revived) == (rnd.won[dog] > 0)
            for seat in rnd.dealt_in:
                row = rows[rnd.number, seat]
                took_none = rnd.won[seat] == 0
                assert row["tricks"] == rnd.won[seat]
                assert row["dog"] == (seat in rnd.dogs)
                assert row["knocked_out"] == took_none, (rnd.number, seat, row)
                assert row["dog_granted"] == (seat in rnd.granted), (rnd.number, seat, row)
                assert row["revived"] == (seat in rnd.revived)
        assert max(lives) <= 1  # one dog's life per player per game
        for seat, seat_facts in enumerate(deal.outcome.seat_facts):
            assert seat_facts["dog_used"] == replay.dog_used[seat]
            assert seat_facts["revived"] == any(seat in rnd.revived for rnd in replay.rounds)
    if dogs_life != "off":
        assert min(seen.values()) > 0, seen


@cases(KNOCKOUT_CASES)
def test_knockout_trump_is_chosen_by_most_tricks_and_the_chooser_leads(case):
    nearest_left = case.variant.get("tie_break") == "nearest_left"
    ties = 0
    for deal in played_deals(case.id):
        state = deal.state
        replay = KnockoutChecks.replay(state)
        tricks = state.completed_tricks()
        first = replay.rounds[0]
        assert first.trump == replay.upcard // 13
        assert tricks[0].leader == (deal.dealer + 1) % case.players
        assert len(replay.choices) == len(replay.rounds) - 1
        rows = knockout_rows(state)
        start = first.size
        for choice, rnd in zip(replay.choices, replay.rounds[1:], strict=True):
            ties += len(choice.tied) > 1
            assert choice.seat in choice.tied, choice
            if nearest_left:
                assert choice.seat == choice.nearest_left, choice
            assert 0 <= choice.suit < 4
            assert tricks[start].leader == choice.seat  # the chooser leads the first trick
            assert rows[rnd.number, choice.seat]["chose_trump"]
            assert rows[rnd.number, choice.seat]["trump"] == SUITS[choice.suit]
            start += rnd.size
    assert ties > 0


@cases(KNOCKOUT_CASES)
def test_knockout_game_ends_when_one_player_remains_or_after_the_one_card_round(case):
    dog_pending = 0
    for deal in played_deals(case.id):
        replay = KnockoutChecks.replay(deal.state)
        dog_pending += sum(
            len(rnd.dealt_in) - len(rnd.dogs) == 1 for rnd in replay.rounds if rnd.dogs
        )
        assert replay.over, "the engine ended the game before the rules do"
        assert replay.leftover == [], "the engine played on after the rules end the game"
        assert deal.state.over
        last = replay.rounds[-1]
        if replay.ended_by == "final_round":
            assert last.number == KO_ROUNDS and last.size == 1
            assert replay.winner == replay.tricks[-1].winner
        else:
            assert last.number < KO_ROUNDS
            assert replay.status.count(FULL) == 1 and DOG not in replay.status
        for seat, seat_facts in enumerate(deal.outcome.seat_facts):
            assert seat_facts["out_round"] == replay.out_round[seat]
    if case.players == 2 and case.variant.get("dogs_life") == "first_knockout":
        assert dog_pending > 0  # one full player and a dog: the game went on


@cases(KNOCKOUT_CASES)
def test_knockout_one_winner_net_and_placings(case):
    n = case.players
    for deal in played_deals(case.id):
        outcome = deal.outcome
        replay = KnockoutChecks.replay(deal.state)
        assert outcome.result.count("win") == 1
        winner = outcome.result.index("win")
        assert winner == replay.winner
        assert outcome.net[winner] == n - 1 and sum(outcome.net) == 0
        placings = [facts["placing"] for facts in outcome.seat_facts]
        assert placings == replay.placings()
        assert placings[winner] == 1 and placings.count(1) == 1
        for a in range(n):
            for b in range(n):
                if a == winner or b == winner:
                    continue
                went_out = (replay.out_round[a], replay.out_tricks[a])
                other = (replay.out_round[b], replay.out_tricks[b])
                if went_out > other:
                    assert placings[a] < placings[b]
                elif went_out == other:
                    assert placings[a] == placings[b]


@cases(KNOCKOUT_CASES)
def test_knockout_views_show_the_round_dealer_trump_statuses_and_hands(case):
    game = case.make()
    checked = 0

    def check(state):
        nonlocal checked
        if state.over:
            return
        replay = live_replay(state, KnockoutReplay)
        rnd = replay.round
        for seat in range(case.players):
            view = state.view(seat)
            assert view.round == rnd.number and view.cards_dealt == rnd.size
            assert view.dealer == rnd.dealer
            assert view.trump == rnd.trump
            assert view.upcard == (replay.upcard if rnd.number == 1 else -1)
            assert view.hand == replay.hands[seat]
            assert view.status == tuple(replay.status)
            assert view.dog_used == tuple(replay.dog_used)
        checked += 1

    for seed, dealer in deal_seeds(case)[:10]:
        step_through(game, seed, dealer, check)
    assert checked >= 10 * KnockoutChecks.min_steps_per_deal
