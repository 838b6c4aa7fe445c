"""Minnesota Whist (4 players, 2 partnerships), as docs/rules/minnesota-whist.md describes.

Partners sit opposite (seats 0 and 2 against 1 and 3); there are never trumps.
The deal rotates left; 13 cards each, one at a time from the dealer's left.
Bidding by cards: every player lays one card face down (black grands, red
passes); from the dealer's left the cards are turned one by one until the first
black card: that player has granded and the hand is a grand (play high);
four red cards make a null hand (play low). The turned cards are public and go
back into their owners' hands. A grand is led by the grander's right-hand
neighbour, a null hand by the dealer's left. A game (whist_sim's match) is a
sequence of hands until a side reaches ``target`` points (13).

Actions: cards 0..51 (laid in the bidding phase "lay", then played); with
``bid = "spoken"``, ``pass`` = 52 and ``grand`` = 53.

Readings where the published rules are silent (also in docs/rules/minnesota-whist.md):
- Cards are laid in turn from the dealer's left; each player lays without seeing
  the others' cards (a laid card is private to its owner until turned).
- Scoring by ``scoring = "pagat"``: in a null hand the side with more tricks
  loses 1 per trick over 6, i.e. scores ``-(tricks - 6)``.
- ``net`` is the zero-sum form: a seat's side's points minus the other side's.
- A forfeiting seat's side loses the hand by ``target`` points (the other side
  scores ``target``), which ends the game: a failing strategy cannot win it.
- A game ends after ``HANDS_PER_TARGET_POINT`` x ``target`` hands (130 at 13) even if
  no side has reached the target; the side with more points wins it, equal points
  draw. Under the pagat scoring a null hand only takes points away, so strategies that
  never grand played one game for ever and hung their run (a probe: -345 to -405 after
  300 hands). Under the default scoring every hand gives a side at least 1 point, so a
  game ends within 2 x target - 1 hands and the limit never applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from whist_sim.cards import SUIT_MASKS, card_str, cards_str
from whist_sim.games.action_log import CodedLog, log_codes
from whist_sim.games.base import (
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
    check_whole,
    deck_from_hands,
    deck_from_seat_cards,
    describe_action,
    record_seat_cards,
)
from whist_sim.rng import shuffled_deck
from whist_sim.tricks import cards_played, revoke_message

PLAYERS = 4
_new_tuple = tuple.__new__
LAY = "lay"
BID = "bid"
PLAY = "play"
OVER = "over"
_LAY = log_codes(LAY)
"""``action_log.log_codes``: ``_LAY[seat][card]`` codes (seat, "lay", card, True)."""
_TURN = log_codes("turn", False)
_BID = log_codes(BID)
_PLAY = log_codes(PLAY)
PASS = 52
GRAND = 53
BLACK = SUIT_MASKS[0] | SUIT_MASKS[3]
"""Spades and clubs: a black laid card grands."""


def side_of(seat: int) -> int:
    """Partnership of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


MAX_TARGET = 1_000
"""A game is one (line-up, deal) item of a tournament, played whole by one task, so its
length is capped: a game to 1,000 is some hundreds of deals, against 13 by the rules."""

HANDS_PER_TARGET_POINT = 10
"""A game's hands are at most this many per point of ``target`` (see the module doc)."""


@dataclass(frozen=True)
class MinnesotaWhistVariant(Variant):
    """The variant keys (docs/rules/) of Minnesota Whist, with their defaults."""

    match_keys: ClassVar[tuple[str, ...]] = ("target",)

    scoring: str = "default"
    """"default" (granders 7+: tricks - 6; others 7+: 2 x (tricks - 6); null: 7 - tricks
    to the side with 6 or fewer) or "pagat"."""
    bid: str = "cards"
    """"cards": lay a card, black grands; "spoken": pass or grand in turn."""
    target: int = 13
    """Points that win the game."""

    def validate(self, where: str = "variant") -> None:
        check_choice(where, "scoring", self.scoring, ("default", "pagat"))
        check_choice(where, "bid", self.bid, ("cards", "spoken"))
        check_whole(where, "target", self.target, 1, MAX_TARGET)

    def largest_net(self) -> float:
        """The most a seat's side can win or lose by in one hand, under this variant: a
        duel's pair value (a mean of such nets) lies within it either way, which is what
        lets the duel's tests read pairs that all agree (docs/statistics.md). One side
        scores a hand: by default at most 14 (defenders who take all 13 tricks of a
        grand score 2 x 7), under "pagat" 7; a forfeit gives the other side ``target``."""
        return float(max(14 if self.scoring == "default" else 7, self.target))


class MinnesotaWhistView(NamedTuple):
    """What one seat may know. Immutable; holds no card hidden from this seat."""

    seat: int
    phase: str
    """"lay" (lay a card face down), "bid" (spoken: pass or grand) or "play"."""
    legal: int
    hand: int
    dealer: int
    laid: int
    """The card this seat laid face down (-1 before it lays or when bidding is spoken)."""
    laid_count: int
    """How many players have laid a card so far."""
    turned: tuple[tuple[int, int], ...]
    """(seat, card) of every laid card turned face up, in turning order (public)."""
    calls: tuple[tuple[int, int], ...]
    """Spoken bidding: (seat, PASS or GRAND) so far."""
    grander: int
    """The seat that granded, or -1 (a null hand, or bidding not over)."""
    grand: bool
    """True in a grand hand (play high), False in a null hand (play low) or before play."""
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[TrickRecord, ...]
    side_tricks: tuple[int, int]
    """Tricks taken by side 0 (seats 0, 2) and side 1 (seats 1, 3)."""
    score: tuple[int, int]
    """Game score of side 0 and side 1 before this deal."""
    variant: MinnesotaWhistVariant

    @property
    def partner(self) -> int:
        return (self.seat + 2) % PLAYERS

    @property
    def played(self) -> int:
        return cards_played(self.tricks, self.trick)


class MinnesotaWhistDeal(CodedLog, DealState):
    """One deal of Minnesota Whist: the bidding, then 13 tricks at no trumps."""

    def __init__(
        self,
        game: MinnesotaWhist,
        seed: int,
        dealer: int,
        deck: list[int] | None = None,
        score: tuple[int, int] = (0, 0),
    ):
        variant: MinnesotaWhistVariant = game.variant
        if deck is None:
            deck = shuffled_deck(seed)
        self.game = game
        self.variant = variant
        self.seed = seed
        self.dealer = dealer
        self.deck = deck
        self.score_before = score
        hands = [0, 0, 0, 0]
        for i, card in enumerate(deck):
            hands[(dealer + 1 + i) % PLAYERS] |= 1 << card
        self.initial_hands = tuple(hands)
        self.hands = hands
        self.laid = [-1, -1, -1, -1]
        self.laid_count = 0
        self.turned: tuple[tuple[int, int], ...] = ()
        self.calls: tuple[tuple[int, int], ...] = ()
        self.grander = -1
        self.grand = False
        self.bidding_over = False
        self.codes: list[int] = []  # the log (CodedLog)
        self.trick: tuple[int, ...] = ()
        self.tricks: tuple[TrickRecord, ...] = ()
        self.side_tricks = [0, 0]
        self.side_view = (0, 0)  # side_tricks as the views show it, kept with it
        self.leader = (dealer + 1) % PLAYERS
        self.to_act = self.leader
        if variant.bid == "cards":
            self.phase = LAY
            self.legal = hands[self.to_act]
        else:
            self.phase = BID
            self.legal = 1 << PASS | 1 << GRAND
        self._outcome: DealOutcome | None = None

    def view(self, seat: int) -> MinnesotaWhistView:
        # tuple.__new__ skips the NamedTuple constructor's Python frame: this runs
        # for every decision of every simulated deal.
        return _new_tuple(MinnesotaWhistView, (
            seat,
            self.phase,
            self.legal if seat == self.to_act else 0,
            self.hands[seat],
            self.dealer,
            self.laid[seat],
            self.laid_count,
            self.turned,
            self.calls,
            self.grander,
            self.grand,
            self.leader,
            self.trick,
            self.tricks,
            self.side_view,
            self.score_before,
            self.variant,
        ))

    # -- bidding -------------------------------------------------------------------
    def _lay(self, seat: int, card: int) -> None:
        self.laid[seat] = card
        self.laid_count += 1
        self.codes.append(_LAY[seat][card])
        nxt = (seat + 1) % PLAYERS
        if self.laid[nxt] < 0:
            self.to_act = nxt
            self.legal = self.hands[nxt]
            return
        self._turn_cards()

    def _turn_cards(self) -> None:
        """Turn the laid cards from the dealer's left until the first black one."""
        for offset in range(1, PLAYERS + 1):
            seat = (self.dealer + offset) % PLAYERS
            card = self.laid[seat]
            self.turned = (*self.turned, (seat, card))
            self.codes.append(_TURN[seat][card])
            if BLACK >> card & 1:
                self._start_play(grander=seat)
                return
        self._start_play(grander=-1)

    def _call(self, seat: int, call: int) -> None:
        self.calls = (*self.calls, (seat, call))
        self.codes.append(_BID[seat][call])
        if call == GRAND:
            self._start_play(grander=seat)
        elif len(self.calls) == PLAYERS:
            self._start_play(grander=-1)
        else:
            self.to_act = (seat + 1) % PLAYERS

    def _start_play(self, grander: int) -> None:
        self.bidding_over = True
        self.grander = grander
        self.grand = grander >= 0
        # a grand is led by the grander's right-hand neighbour (play goes to the left)
        self.leader = (grander - 1) % PLAYERS if self.grand else (self.dealer + 1) % PLAYERS
        self.phase = PLAY
        self.to_act = self.leader
        self.legal = self.hands[self.leader]

    # -- applying actions ----------------------------------------------------------
    def apply(self, action: int) -> None:
        seat = self.to_act
        if action.__class__ is not int or seat < 0 or action < 0 or not self.legal >> action & 1:
            seat, action = self.checked_action(action)  # converts, or says what is wrong
        if self.phase == PLAY:
            self._play(seat, action)
        elif self.phase == LAY:
            self._lay(seat, action)
        else:
            self._call(seat, action)

    def _raise_illegal(self, seat: int, action: int) -> None:
        shown = _shown(action)
        if self.phase == BID:
            raise RuleError(
                seat, shown, "spoken bidding",
                f"seat {seat} must say pass or grand, not {shown}",
            )
        if not 0 <= action < 52:
            raise RuleError(
                seat, shown, f"{self.phase} a card",
                f"seat {seat} must {self.phase} a card now, not {shown}",
            )
        hand = self.hands[seat]
        if not hand >> action & 1:
            rule = "lay a card held" if self.phase == LAY else "card not held"
            raise RuleError(seat, shown, rule, f"seat {seat} chose {shown}, which it does not hold")
        raise RuleError(
            seat, shown, "follow suit", revoke_message(seat, action, hand, self.trick[0] // 13)
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
        best = trick[0]
        lead_suit, best_i = best // 13, 0
        for i in (1, 2, 3):  # the highest card of the suit led wins (no trumps)
            card = trick[i]
            if card > best and card // 13 == lead_suit:
                best, best_i = card, i
        winner = (self.leader + best_i) % PLAYERS
        self.tricks = (*self.tricks, _new_tuple(
            TrickRecord, (len(self.tricks) + 1, self.leader, trick, winner)))
        self.trick = ()
        side_tricks = self.side_tricks
        side_tricks[side_of(winner)] += 1
        self.side_view = (side_tricks[0], side_tricks[1])
        if len(self.tricks) == 13:
            self._finish()
            return
        self.leader = winner
        self.to_act = winner
        self.legal = self.hands[winner]

    def _finish(self) -> None:
        self.to_act = -1
        self.legal = 0
        self.phase = OVER
        self._outcome = self._score()

    # -- results -------------------------------------------------------------------
    def points(self) -> tuple[int, int]:
        """Points each side scores for this deal, under the variant's scoring."""
        tricks = self.side_tricks
        more = 0 if tricks[0] > tricks[1] else 1
        points = [0, 0]
        if self.variant.scoring == "pagat":
            over = tricks[more] - 6
            points[more] = over if self.grand else -over
            return points[0], points[1]
        if self.grand:
            granders = side_of(self.grander)
            if tricks[granders] >= 7:
                points[granders] = tricks[granders] - 6
            else:
                points[1 - granders] = 2 * (tricks[1 - granders] - 6)
        else:
            fewer = 1 - more
            points[fewer] = 7 - tricks[fewer]
        return points[0], points[1]

    def _score(self) -> DealOutcome:
        points = self.points()
        return self._outcome_from(points, self._facts(points))

    def _outcome_from(
        self, points: tuple[int, int], facts: dict[str, Any], forfeit: tuple[int, str] | None = None
    ) -> DealOutcome:
        tricks = tuple(
            sum(1 for t in self.tricks if t.winner == seat) for seat in range(PLAYERS)
        )
        score = tuple(float(points[side_of(s)]) for s in range(PLAYERS))
        net = tuple(float(points[side_of(s)] - points[1 - side_of(s)]) for s in range(PLAYERS))
        result = tuple("win" if n > 0 else "loss" if n < 0 else "draw" for n in net)
        if forfeit is not None:
            result = tuple("forfeit" if s == forfeit[0] else r for s, r in enumerate(result))
            return DealOutcome(tricks, score, net, result, forfeit[0], forfeit[1], facts)
        return DealOutcome(tricks, score, net, result, facts=facts)

    def _facts(self, points: tuple[int, int]) -> dict[str, Any]:
        return {
            "hand_type": ("grand" if self.grand else "null") if self.bidding_over else None,
            "grander": self.grander if self.grander >= 0 else None,
            "laid": [card_str(c) if c >= 0 else None for c in self.laid],
            "turned": [seat for seat, _ in self.turned],
            "calls": " ".join(f"{s}:{'grand' if c == GRAND else 'pass'}" for s, c in self.calls),
            "side_tricks": list(self.side_tricks),
            "side_points": list(points),
            "score_before": list(self.score_before),
        }

    def outcome(self) -> DealOutcome:
        if self._outcome is None:
            raise RuntimeError("the deal is not over")
        return self._outcome

    def forfeit(self, seat: int, error: str) -> DealOutcome:
        self.to_act = -1
        self.legal = 0
        self.phase = OVER
        points = [0, 0]
        points[1 - side_of(seat)] = self.variant.target
        facts = self._facts((points[0], points[1]))
        self._outcome = self._outcome_from((points[0], points[1]), facts, (seat, error))
        return self._outcome

    def _facts_of_no_score(self, facts: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**facts, "side_points": [0, 0]}

    def deal_record(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "trump": "none",
            "upcard": None,
            "hands": [cards_str(h) for h in self.initial_hands],
            "stock": None,
        }



def action_name(action: int) -> str:
    if 0 <= action < 52:
        return card_str(action)
    if action == PASS:
        return "pass"
    if action == GRAND:
        return "grand"
    raise ValueError(f"minnesota_whist has no action number {action}")


def _shown(action: int) -> str:
    return describe_action(action_name, action)


def dealer_of_hand(hand: int) -> int:
    """Seat 0 deals the first deal of a game, and the deal rotates to the left."""
    return hand % PLAYERS


class MinnesotaWhistGame(MatchState):
    """A game to ``target`` points: deals until a side reaches it, the deal rotating."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.hand_limit = HANDS_PER_TARGET_POINT * target
        """Hands after which the game ends without a side at ``target`` (module doc)."""
        self.deals = 0
        self.score = [0, 0]
        self.deals_won = [0, 0]

    def next_dealer(self) -> int | None:
        if max(self.score) >= self.target or self.deals >= self.hand_limit:
            return None
        return dealer_of_hand(self.deals)

    def deal_context(self) -> dict[str, Any]:
        """The game score so far, which every seat sees during the next deal."""
        return {"score": (self.score[0], self.score[1])}

    def record(self, outcome: DealOutcome) -> None:
        self.deals += 1
        for side in (0, 1):
            self.score[side] += int(outcome.score[side])
            if outcome.net[side] > 0:
                self.deals_won[side] += 1

    def result(self) -> dict[str, tuple]:
        a, b = self.score
        side_result = ("draw", "draw") if a == b else ("win", "loss") if a > b else ("loss", "win")
        return {
            "match_hands_won": tuple(self.deals_won[side_of(s)] for s in range(PLAYERS)),
            "match_points": tuple(float(self.score[side_of(s)]) for s in range(PLAYERS)),
            "match_result": tuple(side_result[side_of(s)] for s in range(PLAYERS)),
        }


class MinnesotaWhist(Game):
    """Minnesota Whist under one variant."""

    name = "minnesota_whist"
    title = "Minnesota Whist"
    version = 2
    """2: a game ends after 10 hands per target point (module doc)."""
    min_players = 4
    max_players = 4
    variant_type = MinnesotaWhistVariant
    partnerships = True
    duplicate_rotations = (0, 1)
    """Each deal is played twice, the partnerships swapping pairs of seats."""

    variant: MinnesotaWhistVariant

    def new_deal(
        self, seed: int, dealer: int = 0, score: tuple[int, int] = (0, 0)
    ) -> MinnesotaWhistDeal:
        if dealer not in range(PLAYERS):
            raise VariantError(f"minnesota_whist dealer must be a seat 0..3, not {dealer!r}")
        return MinnesotaWhistDeal(self, seed, dealer, score=score)

    def deal_from_layout(
        self, hands: tuple[str, str, str, str], dealer: int = 0
    ) -> MinnesotaWhistDeal:
        """A hand-built deal from each seat's 13 cards in notation (seed recorded as -1)."""
        if [len(h.split()) for h in hands] != [13] * PLAYERS:
            raise VariantError("a Minnesota Whist layout is 13 cards for each of the four seats")
        deck = deck_from_hands(self.name, hands, dealer)
        return MinnesotaWhistDeal(self, -1, dealer, deck)

    def deal_from_record(
        self, record: Mapping[str, Any], dealer: int, seed: int, score: tuple[int, int] = (0, 0)
    ) -> MinnesotaWhistDeal:
        """The deal whose cards ``record`` gives (see ``Game.deal_from_record``): 13 cards
        per seat in ``hands``; nothing is turned and there is no stock, so ``upcard`` and
        ``stock`` must be null. ``score`` is the game score so far, as for ``new_deal``."""
        dealer = self.checked_dealer(dealer)
        seat_cards = record_seat_cards(self.title, record, PLAYERS, 13)
        check_absent(self.title, record, "stock", "stock")
        check_absent(self.title, record, "upcard", "turned card")
        check_each_card_once([(f"seat {seat}", cards) for seat, cards in enumerate(seat_cards)])
        deck = deck_from_seat_cards(seat_cards, dealer)
        return MinnesotaWhistDeal(self, seed, dealer, deck, score=score)

    def hand_dealer(self, hand: int) -> int | None:
        """A game to ``target`` has no last deal; the deal rotates from seat 0."""
        return dealer_of_hand(hand) if hand >= 0 else None

    def new_match(self) -> MinnesotaWhistGame:
        return MinnesotaWhistGame(self.variant.target)

    def action_str(self, action: int) -> str:
        return action_name(action)

    def parse_action(self, text: str) -> int:
        token = text.strip().lower()
        if token == "pass":
            return PASS
        if token == "grand":
            return GRAND
        return super().parse_action(text)

