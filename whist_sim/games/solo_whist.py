"""Solo Whist (4 players), as docs/rules/solo-whist.md describes.

The deal rotates clockwise; 13 cards each, one at a time from the dealer's left,
and the dealer's last card is turned face up (the upcard: its suit is the
"upcard trump", and everyone knows the dealer holds it until it is played). An
auction from the dealer's left (eldest) chooses one of seven contracts; a
throw-in (all pass, or a Prop nobody Cops) is recorded with no contract and no
payment. Play stops as soon as the contract is decided unless ``play_out``.

Actions: cards are 0..51; the auction's calls and the trump choice are numbered
from 52 (see ``BIDS`` and ``NAME_TRUMP``), written ``pass``, ``prop``, ``cop``,
``solo``, ``misere``, ``abundance``, ``royal_abundance``, ``spread_misere``,
``abundance_declared`` and ``trump:S`` in logs.

Readings where the published rules are silent (also in docs/rules/solo-whist.md):
- The holder of an overcalled bid may bid again, higher, on their next turn;
  only a pass is final (a player who passed is never asked again, so cannot bid).
- A player may Cop only a Prop made by an earlier player in the auction and only
  while it stands uncopped and unovercalled (the published rule: "while no higher bid").
- ``upcard = false``: Prop and Cop and Solo trumps are named by the proposer or
  soloist when the auction ends; Abundance may then name any suit.
- ``session_hands`` (a session of N hands, dealer rotating; default 1, single
  hands) and ``target`` (first to +target units ends the session; then
  ``session_hands`` caps its length and must be above 1) are the session keys.
- A forfeiting seat (its strategy failed) pays each other player the Abundance
  Declared amount at the hand's stake, so a hand stays zero-sum.
- Overtricks apply to Prop and Cop, Solo, Abundance and Royal Abundance only;
  misères and Abundance Declared have no trick to spare.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from whist_sim.cards import SUIT_MASKS, SUITS, card_str, cards_str, parse_suit
from whist_sim.games.action_log import CodedLog, log_codes
from whist_sim.games.base import (
    DealError,
    DealOutcome,
    DealState,
    Game,
    MatchState,
    RuleError,
    TrickRecord,
    Variant,
    VariantError,
    check_absent,
    check_choice,
    check_each_card_once,
    check_positive,
    check_whole,
    deck_from_hands,
    deck_from_seat_cards,
    describe_action,
    record_card,
    record_seat_cards,
)
from whist_sim.rng import shuffled_deck
from whist_sim.tricks import NO_TRUMP, cards_played, revoke_message, winning_index

PLAYERS = 4
_new_tuple = tuple.__new__
BID = "bid"
TRUMP = "trump"
PLAY = "play"
OVER = "over"
_BID = log_codes(BID)
"""``action_log.log_codes``: ``_BID[seat][call]`` codes (seat, "bid", call, True)."""
_TRUMP = log_codes(TRUMP)
_PLAY = log_codes(PLAY)

PASS = 52
PROP = 53
COP = 54
SOLO = 55
MISERE = 56
ABUNDANCE = 57
ROYAL_ABUNDANCE = 58
SPREAD_MISERE = 59
ABUNDANCE_DECLARED = 60
NAME_TRUMP = 61
"""``NAME_TRUMP + suit`` names trumps (suits 0..3 are S H D C)."""

BIDS = {
    "pass": PASS, "prop": PROP, "cop": COP, "solo": SOLO, "misere": MISERE,
    "abundance": ABUNDANCE, "royal_abundance": ROYAL_ABUNDANCE,
    "spread_misere": SPREAD_MISERE, "abundance_declared": ABUNDANCE_DECLARED,
}
BID_NAMES = {action: name for name, action in BIDS.items()}


@dataclass(frozen=True)
class Contract:
    """One row of the contract table (docs/rules/solo-whist.md)."""

    name: str
    bid: int
    """The auction call that wins it (Prop for Prop and Cop)."""
    target: int
    """Tricks the declarer side must take (0: a misère, which must take none)."""
    trump: str
    """"upcard", "none", "named_other" (a suit other than the upcard's) or "named_any"."""
    pays: int
    """Units per defender (per partner in Prop and Cop), the default ladder."""
    classic_pays: int
    """The same under ``payments = "classic"``."""

    @property
    def misere(self) -> bool:
        return self.target == 0

    @property
    def overtricks_apply(self) -> bool:
        return 0 < self.target < 13


CONTRACTS = (
    Contract("prop_and_cop", PROP, 8, "upcard", 1, 1),
    Contract("solo", SOLO, 5, "upcard", 3, 1),
    Contract("misere", MISERE, 0, "none", 3, 2),
    Contract("abundance", ABUNDANCE, 9, "named_other", 5, 3),
    Contract("royal_abundance", ROYAL_ABUNDANCE, 9, "upcard", 5, 3),
    Contract("spread_misere", SPREAD_MISERE, 0, "none", 6, 4),
    Contract("abundance_declared", ABUNDANCE_DECLARED, 13, "named_any", 8, 6),
)
"""Lowest first: the auction's order."""

CONTRACT_BY_NAME = {c.name: c for c in CONTRACTS}
LEVEL_OF_BID = {c.bid: level for level, c in enumerate(CONTRACTS)}


MAX_STAKE = 1_000_000
"""``stake`` is a number > 0 and <= 1,000,000: a hand moves fewer than 100 units (at
most 8 per defender, plus 1 per trick over or short, three defenders), so a session
of ``MAX_SESSION_HANDS`` stays below 10**11 x the stake's unit, exact in a float and
an Arrow int64. A stake of 1e300 made every balance infinite, and a large whole one
overflowed Arrow's int64."""

MAX_SESSION_HANDS = 1_000
"""A session is one (line-up, deal) item of a tournament, played whole by one task and
timed whole when tasks are sized, so its length is capped: 1,000 hands (a few seconds
and some tens of MB of rows per seating with the built-in strategies)."""

MAX_TARGET = 1_000_000_000
"""A ``target`` beyond any reachable balance only leaves sessions to ``session_hands``."""


@dataclass(frozen=True)
class SoloWhistVariant(Variant):
    """The variant keys (docs/rules/) of Solo Whist, with their defaults."""

    match_keys: ClassVar[tuple[str, ...]] = ("session_hands", "target")

    payments: str = "default"
    """"default" ladder 1/3/3/5/5/6/8 units, or "classic" 1/1/2/3/3/4/6."""
    prop_and_cop: bool = True
    """False: no partnership bids."""
    upcard: bool = True
    """False: no card turned; the auction winner names trumps for Prop, Solo, Abundance."""
    stake: float = 1.0
    """Multiplies every payment."""
    overtricks: bool = False
    """Each trick over (under) the target adds 1 per defender; needs play_out."""
    play_out: bool | None = None
    """Play all 13 tricks even once the contract is decided (None: only if overtricks)."""
    session_hands: int = 1
    """Hands in a session, dealer rotating."""
    target: float | None = None
    """End the session as soon as a player is up this many units (None: off)."""

    def validate(self, where: str = "variant") -> None:
        check_choice(where, "payments", self.payments, ("default", "classic"))
        for key in ("prop_and_cop", "upcard", "overtricks"):
            check_choice(where, key, getattr(self, key), (True, False))
        if self.play_out is not None:
            check_choice(where, "play_out", self.play_out, (True, False))
        check_positive(where, "stake", self.stake, MAX_STAKE)
        if self.overtricks and self.play_out is False:
            raise VariantError(
                f"{where}: overtricks = true needs every trick played; set play_out = true"
                " or leave play_out out (overtricks implies it)"
            )
        check_whole(where, "session_hands", self.session_hands, 1, MAX_SESSION_HANDS)
        check_positive(where, "target", self.target, MAX_TARGET, off=True)
        if self.target is not None and self.session_hands == 1:
            raise VariantError(
                f"{where}: target = {self.target!r} ends a session early, so session_hands"
                " must cap it above 1 (e.g. session_hands = 200)"
            )

    @property
    def plays_out(self) -> bool:
        return bool(self.play_out) or self.overtricks

    def pays(self, contract: Contract) -> float:
        units = contract.classic_pays if self.payments == "classic" else contract.pays
        return units * self.stake

    def largest_net(self) -> float:
        """The most a seat can win or lose in one hand, under this variant: a duel's pair
        value (a mean of such nets) lies within it either way, which is what lets the
        duel's tests read pairs that all agree (docs/statistics.md). A lone declarer is
        paid by three defenders, Prop and Cop's partners by two each; with overtricks a
        contract's amount grows by a unit for each trick over or under its target (at
        most 8 for Prop and Cop, 9 for Abundance); a forfeit pays three times the
        Abundance Declared amount."""
        largest = 3 * self.pays(CONTRACTS[-1])
        for contract in CONTRACTS:
            amount = self.pays(contract)
            if self.overtricks and contract.overtricks_apply:
                amount += max(contract.target, 13 - contract.target) * self.stake
            payers = 2 if contract.bid == PROP else 3
            largest = max(largest, payers * amount)
        return largest

    def biddable(self) -> tuple[int, ...]:
        """Auction calls above a pass that this variant allows, lowest first."""
        calls = [c.bid for c in CONTRACTS]
        if not self.prop_and_cop:
            calls.remove(PROP)
        if not self.upcard:
            calls.remove(ROYAL_ABUNDANCE)
        return tuple(calls)


Auction = tuple[int, tuple[int, ...], bool]
"""Where an auction stands: the level (index into ``CONTRACTS``) of the highest call,
the seats holding it (the proposer and the Cop partner, or the one bidder) and whether
the Prop was copped."""

NO_CALL_YET: Auction = (-1, (), False)


def legal_calls(variant: SoloWhistVariant, auction: Auction, seat: int) -> int:
    """The calls ``seat`` may make now: pass, any biddable contract above the highest
    call, and Cop while an uncopped Prop by another seat is the highest."""
    level, holders, copped = auction
    legal = 1 << PASS
    for call in variant.biddable():
        if LEVEL_OF_BID[call] > level:
            legal |= 1 << call
    if level == 0 and not copped and seat not in holders:
        legal |= 1 << COP
    return legal


def after_call(auction: Auction, seat: int, call: int) -> Auction:
    """The auction once ``seat`` has made ``call`` (a pass changes nothing here; the
    deal records who passed)."""
    if call == PASS:
        return auction
    if call == COP:
        level, holders, _ = auction
        return level, (*holders, seat), True
    return LEVEL_OF_BID[call], (seat,), False


class SoloWhistView(NamedTuple):
    """What one seat may know. Immutable; holds no card hidden from this seat."""

    seat: int
    phase: str
    """"bid", "trump" (name trumps) or "play"."""
    legal: int
    """Bitmask of legal actions now: cards 0..51, calls 52..60, trump names 61..64."""
    hand: int
    dealer: int
    upcard: int
    """The dealer's turned card, or -1 (``upcard = false``)."""
    upcard_held: bool
    """The dealer still holds the upcard (it has not been played)."""
    bids: tuple[tuple[int, int], ...]
    """The auction so far: (seat, call) in order."""
    passed: tuple[bool, bool, bool, bool]
    contract: int
    """Index into CONTRACTS once the auction is won, else -1."""
    declarer: int
    partner: int
    """The Cop partner in Prop and Cop, else -1."""
    trump: int
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[TrickRecord, ...]
    tricks_won: tuple[int, int, int, int]
    exposed: int
    """The Spread Misère declarer's remaining cards once exposed (public), else 0."""
    variant: SoloWhistVariant

    @property
    def played(self) -> int:
        return cards_played(self.tricks, self.trick)

    @property
    def highest_call(self) -> int:
        """The highest call made so far (PROP..ABUNDANCE_DECLARED), or -1."""
        calls = [call for _, call in self.bids if call not in (PASS, COP)]
        return max(calls, default=-1)


class SoloWhistDeal(CodedLog, DealState):
    """One hand of Solo Whist: the auction, a trump choice if any, then the play."""

    def __init__(self, game: SoloWhist, seed: int, dealer: int, deck: list[int] | None = None):
        variant: SoloWhistVariant = game.variant
        if deck is None:
            deck = shuffled_deck(seed)
        self.game = game
        self.variant = variant
        self.seed = seed
        self.dealer = dealer
        self.deck = deck
        hands = [0, 0, 0, 0]
        for i, card in enumerate(deck):
            hands[(dealer + 1 + i) % PLAYERS] |= 1 << card
        self.initial_hands = tuple(hands)
        self.hands = hands
        self.upcard = deck[51] if variant.upcard else -1
        self.codes: list[int] = []  # the log (CodedLog)
        self.bids: tuple[tuple[int, int], ...] = ()
        self.passed = [False] * PLAYERS
        self.level = -1  # index into CONTRACTS of the highest call
        self.holders: tuple[int, ...] = ()
        self.copped = False
        self.contract = -1
        self.declarer = -1
        self.partner = -1
        self.trump = NO_TRUMP
        self.trick: tuple[int, ...] = ()
        self.tricks: tuple[TrickRecord, ...] = ()
        self.won = [0, 0, 0, 0]
        self.exposed = False
        self.leader = (dealer + 1) % PLAYERS
        self.phase = BID
        self.to_act = self.leader
        self.legal = self._legal_calls(self.to_act)
        self._outcome: DealOutcome | None = None

    # -- what a seat may see -------------------------------------------------------
    def view(self, seat: int) -> SoloWhistView:
        exposed = self.hands[self.declarer] if self.exposed else 0
        # tuple.__new__ skips the NamedTuple constructor's Python frame: this runs
        # for every decision of every simulated deal.
        return _new_tuple(SoloWhistView, (
            seat,
            self.phase,
            self.legal if seat == self.to_act else 0,
            self.hands[seat],
            self.dealer,
            self.upcard,
            self.upcard >= 0 and bool(self.hands[self.dealer] >> self.upcard & 1),
            self.bids,
            tuple(self.passed),  # type: ignore[arg-type]
            self.contract,
            self.declarer,
            self.partner,
            self.trump,
            self.leader,
            self.trick,
            self.tricks,
            tuple(self.won),  # type: ignore[arg-type]
            exposed,
            self.variant,
        ))

    # -- the auction ---------------------------------------------------------------
    def _legal_calls(self, seat: int) -> int:
        return legal_calls(self.variant, (self.level, self.holders, self.copped), seat)

    def _call(self, seat: int, call: int) -> None:
        self.codes.append(_BID[seat][call])
        self.bids = (*self.bids, (seat, call))
        if call == PASS:
            self.passed[seat] = True
        self.level, self.holders, self.copped = after_call(
            (self.level, self.holders, self.copped), seat, call
        )
        if all(self.passed[s] for s in range(PLAYERS) if s not in self.holders):
            self._close_auction()
            return
        nxt = (seat + 1) % PLAYERS
        while self.passed[nxt]:
            nxt = (nxt + 1) % PLAYERS
        self.to_act = nxt
        self.legal = self._legal_calls(nxt)

    def _close_auction(self) -> None:
        if self.level < 0 or (self.level == 0 and not self.copped):
            self._finish()  # a throw-in: recorded with no contract and no payment
            return
        self.contract = self.level
        self.declarer = self.holders[0]
        if self.level == 0:
            self.partner = self.holders[1]
        contract = CONTRACTS[self.contract]
        rule = contract.trump
        if rule == "upcard" and self.upcard >= 0:
            self.trump = self.upcard // 13
        elif rule == "none":
            self.trump = NO_TRUMP
        else:  # named by the declarer (the proposer in Prop and Cop)
            self.phase = TRUMP
            self.to_act = self.declarer
            self.legal = 0
            for suit in range(4):
                if rule == "named_other" and self.upcard >= 0 and suit == self.upcard // 13:
                    continue
                self.legal |= 1 << (NAME_TRUMP + suit)
            return
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        if CONTRACTS[self.contract].name == "abundance_declared":
            self.leader = self.declarer
        else:
            self.leader = (self.dealer + 1) % PLAYERS
        self.to_act = self.leader
        self.legal = self.hands[self.leader]

    # -- applying actions ----------------------------------------------------------
    def apply(self, action: int) -> None:
        seat = self.to_act
        if action.__class__ is not int or seat < 0 or action < 0 or not self.legal >> action & 1:
            seat, action = self.checked_action(action)  # converts, or says what is wrong
        if self.phase == PLAY:
            self._play(seat, action)
        elif self.phase == BID:
            self._call(seat, action)
        else:
            self.codes.append(_TRUMP[seat][action])
            self.trump = action - NAME_TRUMP
            self._start_play()

    def _raise_illegal(self, seat: int, action: int) -> None:
        shown = _shown(action)
        if self.phase == BID:
            self._raise_illegal_call(seat, action, shown)
        if self.phase == TRUMP:
            contract = CONTRACTS[self.contract]
            if contract.trump == "named_other" and self.upcard >= 0:
                allowed = f"a suit other than the upcard's ({SUITS[self.upcard // 13]})"
            else:
                allowed = "one of the four suits"
            raise RuleError(
                seat, shown, f"{contract.name} trump",
                f"seat {seat} must name trumps for {contract.name} with trump:S/H/D/C,"
                f" {allowed}; {shown} is not allowed",
            )
        if not 0 <= action < 52:
            raise RuleError(
                seat, shown, "play a card", f"seat {seat} must play a card now, not {shown}"
            )
        hand = self.hands[seat]
        if not hand >> action & 1:
            raise RuleError(
                seat, shown, "card not held", f"seat {seat} played {shown}, which it does not hold"
            )
        raise RuleError(
            seat, shown, "follow suit", revoke_message(seat, action, hand, self.trick[0] // 13)
        )

    def _raise_illegal_call(self, seat: int, action: int, shown: str) -> None:
        if not PASS <= action <= ABUNDANCE_DECLARED:
            raise RuleError(
                seat, shown, "auction call", f"seat {seat} must pass or bid now, not {shown}"
            )
        if action in (PROP, COP) and not self.variant.prop_and_cop:
            raise RuleError(
                seat, shown, "prop_and_cop = false",
                f"seat {seat} called {shown}, but Prop and Cop is not played in this variant",
            )
        if action == COP:
            reason = (
                "there is no Prop to accept" if self.level < 0
                else "the Prop has been overcalled" if self.level > 0
                else "the Prop is already copped" if self.copped
                else "a player cannot Cop their own Prop"
            )
            raise RuleError(seat, shown, "cop", f"seat {seat} may not Cop: {reason}")
        if action == ROYAL_ABUNDANCE and not self.variant.upcard:
            raise RuleError(
                seat, shown, "upcard = false",
                f"seat {seat} called {shown}: Royal Abundance needs an upcard, and with"
                " upcard = false it cannot be bid",
            )
        current = CONTRACTS[self.level].name
        raise RuleError(
            seat, shown, "bid higher",
            f"seat {seat} bid {shown} but must bid higher than {current} or pass",
        )

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        self.codes.append(_PLAY[seat][card])
        trick = (*self.trick, card)
        if len(trick) < PLAYERS:
            self.trick = trick
            nxt = (seat + 1) % PLAYERS
            hand = self.hands[nxt]
            self.to_act = nxt
            self.legal = hand & SUIT_MASKS[trick[0] // 13] or hand
            return
        winner = (self.leader + winning_index(trick, self.trump)) % PLAYERS
        self.tricks = (*self.tricks, _new_tuple(
            TrickRecord, (len(self.tricks) + 1, self.leader, trick, winner)))
        self.trick = ()
        self.won[winner] += 1
        if len(self.tricks) == 1 and CONTRACTS[self.contract].name == "spread_misere":
            self.exposed = True
        if len(self.tricks) == 13 or (not self.variant.plays_out and self._decided()):
            self._finish()
            return
        self.leader = winner
        self.to_act = winner
        self.legal = self.hands[winner]

    def declarer_tricks(self) -> int:
        side = self.won[self.declarer]
        if self.partner >= 0:
            side += self.won[self.partner]
        return side

    def _decided(self) -> bool:
        contract = CONTRACTS[self.contract]
        taken = self.declarer_tricks()
        if contract.misere:
            return taken > 0
        left = 13 - len(self.tricks)
        return taken >= contract.target or taken + left < contract.target

    def _finish(self) -> None:
        self.to_act = -1
        self.legal = 0
        self.phase = OVER
        self._outcome = self._score()

    # -- results -------------------------------------------------------------------
    def made(self) -> bool | None:
        if self.contract < 0:
            return None
        contract = CONTRACTS[self.contract]
        taken = self.declarer_tricks()
        if contract.misere:
            return taken == 0 and len(self.tricks) == 13
        return taken >= contract.target

    def _score(self) -> DealOutcome:
        tricks = tuple(self.won)
        if self.contract < 0:
            zero = (0.0,) * PLAYERS
            return DealOutcome(tricks, zero, zero, ("draw",) * PLAYERS, facts=self._facts())
        contract = CONTRACTS[self.contract]
        made = bool(self.made())
        amount = self.variant.pays(contract)
        if self.variant.overtricks and contract.overtricks_apply:
            amount += abs(self.declarer_tricks() - contract.target) * self.variant.stake
        # Payments are whole units times the stake: zero-sum exactly in units, and to
        # within floating-point rounding (1e-15) at a stake like 0.1.
        side = {self.declarer, self.partner} - {-1}
        per_defender = amount if made else -amount
        net = [0.0] * PLAYERS
        for seat in range(PLAYERS):
            if seat in side:
                net[seat] = per_defender * (PLAYERS - len(side))
            else:
                net[seat] = -per_defender * len(side)
        result = tuple(
            ("win" if made else "loss") if seat in side else ("loss" if made else "win")
            for seat in range(PLAYERS)
        )
        return DealOutcome(tricks, tuple(net), tuple(net), result, facts=self._facts())

    def _facts(self) -> dict[str, Any]:
        contract = CONTRACTS[self.contract] if self.contract >= 0 else None
        return {
            "contract": contract.name if contract else None,
            "declarer": self.declarer if contract else None,
            "partner": self.partner if self.partner >= 0 else None,
            "target": contract.target if contract else None,
            "declarer_tricks": self.declarer_tricks() if contract else None,
            "made": self.made(),
            "tricks_played": len(self.tricks),
            "bids": " ".join(f"{seat}:{BID_NAMES[call]}" for seat, call in self.bids),
        }

    def outcome(self) -> DealOutcome:
        if self._outcome is None:
            raise RuntimeError("the hand is not over")
        return self._outcome

    def forfeit(self, seat: int, error: str) -> DealOutcome:
        self.to_act = -1
        self.legal = 0
        self.phase = OVER
        top = self.variant.pays(CONTRACTS[-1])
        net = tuple(-top * (PLAYERS - 1) if s == seat else top for s in range(PLAYERS))
        result = tuple("forfeit" if s == seat else "win" for s in range(PLAYERS))
        self._outcome = DealOutcome(
            tuple(self.won), net, net, result, seat, error, self._facts()
        )
        return self._outcome

    def extra_rows(self, seated: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
        """Rows of the ``contracts`` and ``bids`` tables for this deal."""
        return {"contracts": [self._contract_row(seated)], "bids": self._bid_rows(seated)}

    def _contract_row(self, seated: tuple[str, ...]) -> dict[str, Any]:
        outcome = self.outcome()
        row: dict[str, Any] = {
            "dealer": self.dealer,
            "contract": None, "declarer": None, "declarer_strategy": None, "partner": None,
            "partner_strategy": None, "target": None, "declarer_tricks": None, "made": None,
            "trump": SUITS[self.trump] if self.trump >= 0 else "none",
            "tricks_played": len(self.tricks),
            "payments": list(outcome.net),
        }
        if self.contract >= 0:
            hand = self.initial_hands[self.declarer]
            trump_suit = self.trump if self.trump >= 0 else NO_TRUMP
            trumps = (hand & SUIT_MASKS[trump_suit]).bit_count() if trump_suit >= 0 else 0
            row.update(
                contract=CONTRACTS[self.contract].name,
                declarer=self.declarer,
                declarer_strategy=seated[self.declarer],
                partner=self.partner if self.partner >= 0 else None,
                partner_strategy=seated[self.partner] if self.partner >= 0 else None,
                target=CONTRACTS[self.contract].target,
                declarer_tricks=self.declarer_tricks(),
                made=self.made(),
                declarer_hand=cards_str(hand),
                declarer_sure_tricks=sure_tricks(hand, trump_suit),
                declarer_trumps=trumps,
                declarer_high_cards=high_cards(hand),
            )
        return row

    def _bid_rows(self, seated: tuple[str, ...]) -> list[dict[str, Any]]:
        """Each call with the auction as the caller saw it."""
        rows = []
        highest: str | None = None
        copped = False
        passed = 0
        upcard_trump = self.upcard // 13 if self.upcard >= 0 else NO_TRUMP
        for step, (seat, call) in enumerate(self.bids):
            rows.append({
                "step": step, "seat": seat, "strategy": seated[seat], "call": BID_NAMES[call],
                "highest_before": highest, "copped_before": copped, "passed_before": passed,
                "sure_tricks": sure_tricks(self.initial_hands[seat], upcard_trump),
            })
            if call == PASS:
                passed += 1
            elif call == COP:
                copped = True
            else:
                highest, copped = BID_NAMES[call], False
        return rows

    def deal_record(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "trump": SUITS[self.trump] if self.trump >= 0 else "none",
            "upcard": card_str(self.upcard) if self.upcard >= 0 else None,
            "hands": [cards_str(h) for h in self.initial_hands],
            "stock": None,
        }




def action_name(action: int) -> str:
    """Notation of any Solo Whist action: a card, a call, or ``trump:S``."""
    if 0 <= action < 52:
        return card_str(action)
    if action in BID_NAMES:
        return BID_NAMES[action]
    if NAME_TRUMP <= action < NAME_TRUMP + 4:
        return f"trump:{SUITS[action - NAME_TRUMP]}"
    raise ValueError(f"solo_whist has no action number {action}")


def _shown(action: int) -> str:
    return describe_action(action_name, action)


def dealer_of_hand(hand: int) -> int:
    """Seat 0 deals the first hand of a session, and the deal rotates to the left."""
    return hand % PLAYERS


class SoloWhistSession(MatchState):
    """A session: ``session_hands`` hands (or first to ``target``), the deal rotating."""

    def __init__(self, variant: SoloWhistVariant) -> None:
        self.variant = variant
        self.hands_played = 0
        self.balance = [0.0] * PLAYERS
        self.contracts_made = [0] * PLAYERS

    def next_dealer(self) -> int | None:
        if self.hands_played >= self.variant.session_hands:
            return None
        target = self.variant.target
        if target is not None and max(self.balance) >= target:
            return None
        return dealer_of_hand(self.hands_played)

    def record(self, outcome: DealOutcome) -> None:
        self.hands_played += 1
        for seat in range(PLAYERS):
            self.balance[seat] += outcome.net[seat]
            if outcome.result[seat] == "win":
                self.contracts_made[seat] += 1

    def result(self) -> dict[str, tuple]:
        top = max(self.balance)
        leaders = [s for s in range(PLAYERS) if self.balance[s] == top]
        results = tuple(
            ("win" if len(leaders) == 1 else "draw") if s in leaders else "loss"
            for s in range(PLAYERS)
        )
        return {
            "match_hands_won": tuple(self.contracts_made),
            "match_points": tuple(self.balance),
            "match_result": results,
        }


class SoloWhist(Game):
    """Solo Whist under one variant."""

    name = "solo_whist"
    title = "Solo Whist"
    version = 1
    min_players = 4
    max_players = 4
    variant_type = SoloWhistVariant

    variant: SoloWhistVariant

    def new_deal(self, seed: int, dealer: int = 0) -> SoloWhistDeal:
        if dealer not in range(PLAYERS):
            raise VariantError(f"solo_whist dealer must be a seat 0..3, not {dealer!r}")
        return SoloWhistDeal(self, seed, dealer)

    def deal_from_layout(self, hands: tuple[str, str, str, str], dealer: int = 0) -> SoloWhistDeal:
        """A hand-built deal: each seat's 13 cards in notation; the dealer's LAST card
        listed is the upcard. For tests and set positions; ``seed`` is recorded as -1."""
        if [len(h.split()) for h in hands] != [13] * PLAYERS:
            raise VariantError("a Solo Whist layout is 13 cards for each of the four seats")
        deck = deck_from_hands(self.name, hands, dealer)
        return SoloWhistDeal(self, -1, dealer, deck)

    def deal_from_record(
        self, record: Mapping[str, Any], dealer: int, seed: int
    ) -> SoloWhistDeal:
        """The hand whose cards ``record`` gives (see ``Game.deal_from_record``).

        ``hands``: 13 cards per seat; ``upcard``: the dealer's turned card, which must
        be one of the dealer's 13. With ``upcard = false`` nothing is turned, but a
        record that names an upcard (say, a deal set exported under ``upcard = true``)
        is still checked and then ignored, so one set of deals serves both variants;
        with ``upcard = true`` the upcard is required. ``stock`` must be null.
        """
        dealer = self.checked_dealer(dealer)
        seat_cards = record_seat_cards(self.title, record, PLAYERS, 13)
        check_absent(self.title, record, "stock", "stock")
        check_each_card_once([(f"seat {seat}", cards) for seat, cards in enumerate(seat_cards)])
        if record.get("upcard") is not None:
            upcard = record_card("the upcard", record["upcard"])
            held = seat_cards[dealer]
            if upcard not in held:
                raise DealError(
                    f"the upcard {card_str(upcard)} is not in the dealer's (seat {dealer})"
                    " hand; Solo Whist turns the dealer's last card"
                )
            held.remove(upcard)
            held.append(upcard)  # the deck's last card is the dealer's last, turned
        elif self.variant.upcard:
            raise DealError(
                "Solo Whist with upcard = true needs the upcard: the dealer's turned card,"
                " one of the dealer's 13"
            )
        return SoloWhistDeal(self, seed, dealer, deck_from_seat_cards(seat_cards, dealer))

    def hand_dealer(self, hand: int) -> int | None:
        """Hands 0..session_hands - 1 (a ``target`` may end a session sooner); the deal
        rotates from seat 0."""
        if not 0 <= hand < self.variant.session_hands:
            return None
        return dealer_of_hand(hand)

    def new_match(self) -> SoloWhistSession:
        return SoloWhistSession(self.variant)

    def action_str(self, action: int) -> str:
        return action_name(action)

    def parse_action(self, text: str) -> int:
        token = text.strip().lower()
        if token in BIDS:
            return BIDS[token]
        if token.startswith("trump:"):
            return NAME_TRUMP + parse_suit(token[6:])
        return super().parse_action(text)


def top_sequence(suit_bits: int) -> int:
    """How many cards from the ace down a 13-bit suit holds without a gap."""
    count = 0
    rank = 12
    while rank >= 0 and suit_bits >> rank & 1:
        count += 1
        rank -= 1
    return count


def sure_tricks(hand: int, trump: int) -> int:
    """A simple measure of hand strength: tricks that need no help from partner or luck.

    Each suit's unbroken top sequence (A, A-K, A-K-Q, ...) counts one trick per
    card, and in the trump suit every card beyond the fourth counts too (long
    trumps win once the others are drawn), unless its top sequence counted it
    already: A-K-Q-J-10-9 of trumps is 6, the ace and five small ones 3. The
    reports plot make rates against it.
    """
    total = 0
    for suit in range(4):
        bits = (hand >> (13 * suit)) & 0x1FFF
        top = top_sequence(bits)
        if suit == trump:
            top += max(0, bits.bit_count() - max(top, 4))
        total += top
    return min(total, 13)


def high_cards(hand: int) -> int:
    """Aces, kings and queens held."""
    return sum(((hand >> (13 * suit)) & 0x1C00).bit_count() for suit in range(4))
