"""German Whist (2 players), as docs/rules/german-whist.md describes.

Rules in short: 13 cards each dealt one at a time from the non-dealer; the other
26 form the stock whose top card is turned face up and gives trump. Stage 1: after
each trick the winner takes the face-up card, the loser the next (face-down) card,
and a new card is turned. Stage 2: the last 13 tricks with no drawing. Scoring by
``count`` (stage2, all, weighted); ``match``, ``open_stock``, ``race_to``,
``trumps`` are the other variants.

Readings where the published rules are silent (also in docs/rules/german-whist.md):
- Seat 0 deals the first hand of a match; the deal alternates each hand.
- ``open_stock = k``: when only one face-up card is left to take, the winner takes
  it without a decision (logged as a forced "take").
- ``race_to = N``: if no player reaches N before the 26th trick (possible, e.g.
  race to 9 on stage-2 tricks), the player with more counted units wins and scores
  1 point; equal units are a draw. ``race_to`` must be reachable: at most 13
  (stage2), 26 (all) or 39 (weighted).
- ``match = "best_of_N"`` allows any odd N from 3 to 99 (``MAX_BEST_OF``).
- A forfeited hand (a strategy failed) is lost by the forfeiting seat with the
  largest score the variant allows (7, 13, 19.5, or 1 under ``race_to``).

Scores follow the rules (only the winner scores); ``net`` is own score minus the
opponent's, so every hand is zero-sum in ``net``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from whist_sim.cards import SUIT_MASKS, SUITS, card_str, cards_str, iter_cards, parse_card_list
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
    as_action,
    as_toml,
    check_choice,
    check_each_card_once,
    check_whole,
    deck_from_seat_cards,
    is_whole,
    named_action,
    record_card,
    record_card_list,
    record_seat_cards,
)
from whist_sim.rng import shuffled_deck
from whist_sim.tricks import NO_TRUMP, beats, cards_played, revoke_message

PLAY = "play"
TAKE = "take"
DRAW = "draw"
_PLAYED = log_codes(PLAY)
"""``action_log.log_codes``: ``_PLAYED[seat][card]`` codes (seat, "play", card, True)."""
_TAKEN = {True: log_codes(TAKE), False: log_codes(TAKE, False)}
_DRAWN = log_codes(DRAW, False)
COUNTS = ("stage2", "all", "weighted")
MAX_UNITS = {"stage2": 13, "all": 26, "weighted": 39}
MAX_BEST_OF = 99
"""The longest match: best of 99 hands, far beyond any published variant, keeps one
(line-up, deal) item of a tournament a bounded amount of work."""


@dataclass(frozen=True)
class GermanWhistVariant(Variant):
    """The variant keys (docs/rules/) of German Whist, with their defaults."""

    match_keys: ClassVar[tuple[str, ...]] = ("match",)

    count: str = "stage2"
    """Tricks that count: "stage2" (classic), "all", or "weighted" (stage-1 1, stage-2 2)."""
    match: str = "single"
    """"single" hands, or "best_of_3", "best_of_5", ... hands with the dealer alternating."""
    open_stock: int = 1
    """How many stock cards lie face up for the trick winner to choose from."""
    race_to: int | None = None
    """End the hand as soon as a player has this many counted units (None: off)."""
    trumps: str = "upcard"
    """"upcard": the first stock card's suit is trump; "none": no trump suit."""

    def validate(self, where: str = "variant") -> None:
        check_choice(where, "count", self.count, COUNTS)
        check_choice(where, "trumps", self.trumps, ("upcard", "none"))
        if self.best_of is None:
            raise VariantError(
                f"{where}.match = {as_toml(self.match)} is not allowed; allowed values: \"single\","
                f" \"best_of_3\", \"best_of_5\", ... \"best_of_{MAX_BEST_OF}\" (odd numbers)"
            )
        check_whole(where, "open_stock", self.open_stock, 1, 26)
        top = MAX_UNITS[self.count]
        race_to = self.race_to
        if race_to is not None and (not is_whole(race_to) or not 1 <= race_to <= top):
            raise VariantError(
                f"{where}.race_to = {as_toml(self.race_to)} is not allowed; allowed values:"
                f" whole numbers 1..{top} for count = {as_toml(self.count)}, or leave it out (off)"
            )

    @property
    def best_of(self) -> int | None:
        """Hands in a match (1 for "single"), or None if ``match`` is not an allowed value."""
        if self.match == "single":
            return 1
        # digits without a leading zero: "best_of_03" would be a second name for best_of_3
        found = re.fullmatch(r"best_of_([1-9][0-9]{0,5})", self.match) if isinstance(
            self.match, str) else None
        if found is None:
            return None
        n = int(found[1])
        return n if 3 <= n <= MAX_BEST_OF and n % 2 == 1 else None


class GermanWhistView(NamedTuple):
    """What one seat may know. Immutable; holds no card hidden from this seat.

    Cards are ints and card sets are bitmasks (see ``whist_sim.cards``).
    """

    seat: int
    """The seat this view belongs to (0 or 1)."""
    phase: str
    """"play" (play a card) or "take" (choose one of the face-up stock cards)."""
    legal: int
    """Bitmask of the legal actions now (cards)."""
    hand: int
    """Own hand."""
    trump: int
    """Trump suit 0..3 (S H D C) or -1 for none."""
    upcard: int
    """The first face-up stock card, which fixed trump."""
    faceup: tuple[int, ...]
    """Face-up stock cards, earliest turned first (empty in stage 2)."""
    facedown_left: int
    """How many stock cards are still face down."""
    stage: int
    """1 while the stock lasts, then 2."""
    dealer: int
    leader: int
    """Seat that led the current trick."""
    trick: tuple[int, ...]
    """Cards played to the current trick so far, in play order."""
    tricks: tuple[TrickRecord, ...]
    """Every completed trick: leader, cards, winner."""
    taken_faceup: tuple[int, int]
    """Per seat, the face-up cards it took (public knowledge)."""
    drawn: int
    """Face-down cards this seat drew (only it knows them)."""
    stage1_tricks: tuple[int, int]
    stage2_tricks: tuple[int, int]
    variant: GermanWhistVariant

    @property
    def played(self) -> int:
        """Every card played so far, including the current trick."""
        return cards_played(self.tricks, self.trick)

    @property
    def opponent_known(self) -> int:
        """Cards known to be in the opponent's hand: face-up cards it took and has not played."""
        return self.taken_faceup[1 - self.seat] & ~self.played

    @property
    def unseen(self) -> int:
        """Cards this seat has never seen: the opponent's other cards and the face-down stock."""
        seen = self.hand | self.played | self.taken_faceup[1 - self.seat]
        for card in self.faceup:
            seen |= 1 << card
        return ((1 << 52) - 1) & ~seen


class GermanWhistDeal(CodedLog, DealState):
    """One hand of German Whist in progress."""

    compiled_uniform_play = True

    def __init__(self, game: GermanWhist, seed: int, dealer: int, deck: list[int] | None = None):
        variant = game.variant
        if deck is None:
            deck = shuffled_deck(seed)
        self.game = game
        self.deck = deck
        self.variant = variant
        self.seed = seed
        self.dealer = dealer
        non_dealer = 1 - dealer
        hands = [0, 0]
        for i in range(26):
            hands[non_dealer if i % 2 == 0 else dealer] |= 1 << deck[i]
        self.initial_hands = tuple(hands)
        self.hands = hands
        self.stock = tuple(deck[26:])
        self.upcard = self.stock[0]
        self.trump = self.upcard // 13 if variant.trumps == "upcard" else NO_TRUMP
        k = variant.open_stock
        self.faceup: tuple[int, ...] = self.stock[:k]
        self.next_stock = k
        self.stage = 1
        self.leader = non_dealer
        self.to_act = non_dealer
        self.phase = PLAY
        self.legal = hands[non_dealer]
        self.trick: tuple[int, ...] = ()
        self.trick_no = 0
        self.tricks: tuple[TrickRecord, ...] = ()
        self.won1 = (0, 0)  # stage-1 tricks per seat
        self.won2 = (0, 0)  # stage-2 tricks per seat
        self.race_to = variant.race_to
        self.taken_faceup = (0, 0)  # per seat, face-up cards taken (public)
        self.drawn = [0, 0]
        self.codes: list[int] = []  # the log (CodedLog)
        self.race_winner = -1
        self._outcome: DealOutcome | None = None

    # -- what a seat may see -------------------------------------------------------
    def view(self, seat: int) -> GermanWhistView:
        # tuple.__new__ skips the NamedTuple constructor's Python frame: this runs
        # for every decision of every simulated hand.
        return _new_tuple(GermanWhistView, (
            seat,
            self.phase,
            self.legal if seat == self.to_act else 0,
            self.hands[seat],
            self.trump,
            self.upcard,
            self.faceup,
            len(self.stock) - self.next_stock,
            self.stage,
            self.dealer,
            self.leader,
            self.trick,
            self.tricks,
            self.taken_faceup,
            self.drawn[seat],
            self.won1,
            self.won2,
            self.variant,
        ))

    # -- applying actions ----------------------------------------------------------
    def apply(self, action: int) -> None:
        seat = self.to_act
        if action.__class__ is not int or seat < 0 or action < 0 or not self.legal >> action & 1:
            action = self._checked(seat, action)
        if self.phase is not PLAY:
            self._take(seat, action, chosen=True)
            return
        # Playing a card is the hot path of every simulation, so it is inline here.
        hands = self.hands
        hands[seat] &= ~(1 << action)
        self.codes.append(_PLAYED[seat][action])
        if not self.trick:
            self.trick = (action,)
            other = 1 - seat
            self.to_act = other
            hand = hands[other]
            self.legal = hand & SUIT_MASKS[action // 13] or hand
            return
        self._complete_trick(seat, action)

    def _checked(self, seat: int, action: Any) -> int:
        """``action`` as an int if the seat to act may take it (a NumPy integer is
        converted), else the RuleError that says why not."""
        if action.__class__ is not int:
            action = as_action(seat, action, named_action(
                self.game, action, "a card number (an int 0..51)"))
        if seat < 0:
            shown = _shown(action)
            raise RuleError(seat, shown, "deal over", f"the hand is over; {shown} cannot be played")
        if not 0 <= action < 52 or not self.legal >> action & 1:
            self._refuse(seat, action)
        return action

    def _raise_illegal(self, seat: int, action: int) -> None:
        if not 0 <= action < 52:
            raise RuleError(
                seat, repr(action), "action is a card",
                f"seat {seat} returned {action!r}, which is not a card (0..51)",
            )
        shown = card_str(action)
        if self.phase == TAKE:
            raise RuleError(
                seat, shown, "winner takes a face-up card",
                f"seat {seat} chose {shown} but may only take a face-up stock card"
                f" ({cards_str(self.faceup)})",
            )
        hand = self.hands[seat]
        if not hand >> action & 1:
            raise RuleError(
                seat, shown, "card not held", f"seat {seat} played {shown}, which it does not hold"
            )
        raise RuleError(
            seat, shown, "follow suit", revoke_message(seat, action, hand, self.trick[0] // 13)
        )

    def _complete_trick(self, seat: int, card: int) -> None:
        """The second card of a trick was played: score it, then draw or lead on."""
        lead = self.trick[0]
        if card // 13 == lead // 13:
            winner = seat if card > lead else 1 - seat
        else:
            winner = seat if card // 13 == self.trump else 1 - seat
        trick_no = self.trick_no = self.trick_no + 1
        self.tricks = (*self.tricks, _new_tuple(
            TrickRecord, (trick_no, self.leader, (lead, card), winner)))
        self.trick = ()
        stage1 = self.stage == 1
        if stage1:
            won = self.won1
            self.won1 = (won[0] + 1, won[1]) if winner == 0 else (won[0], won[1] + 1)
        else:
            won = self.won2
            self.won2 = (won[0] + 1, won[1]) if winner == 0 else (won[0], won[1] + 1)
        if self.race_to is not None and self.units(winner) >= self.race_to:
            self.race_winner = winner
            self._finish()
            return
        self.leader = winner
        if not stage1:
            if trick_no == 26:
                self._finish()
                return
            self.to_act = winner
            self.legal = self.hands[winner]
            return
        faceup = self.faceup
        if len(faceup) > 1:
            self.to_act = winner
            self.phase = TAKE
            self.legal = sum(1 << c for c in faceup)
            return
        if self.variant.open_stock != 1:
            self._take(winner, faceup[0], chosen=False)
            return
        # the classic one-face-up-card stock, inline: the winner takes the face-up card,
        # the loser draws the next face-down one, and the card after it is turned
        card = faceup[0]
        loser = 1 - winner
        next_stock = self.next_stock
        drawn = self.stock[next_stock]
        hands = self.hands
        hands[winner] |= 1 << card
        hands[loser] |= 1 << drawn
        taken = self.taken_faceup
        self.taken_faceup = (taken[0] | 1 << card, taken[1]) if winner == 0 else (
            taken[0], taken[1] | 1 << card)
        self.drawn[loser] |= 1 << drawn
        log = self.codes
        log.append(_TAKEN[False][winner][card])
        log.append(_DRAWN[loser][drawn])
        if trick_no == 13:
            self.faceup = ()
            self.next_stock = 26
            self.stage = 2
        else:
            self.faceup = (self.stock[next_stock + 1],)
            self.next_stock = next_stock + 2
        self.to_act = winner
        self.legal = hands[winner]

    def _take(self, winner: int, card: int, chosen: bool) -> None:
        faceup = list(self.faceup)
        faceup.remove(card)
        self.hands[winner] |= 1 << card
        self.taken_faceup = _add_card(self.taken_faceup, winner, card)
        self.codes.append(_TAKEN[chosen][winner][card])
        loser = 1 - winner
        if self.next_stock < len(self.stock):
            drawn = self.stock[self.next_stock]
            self.next_stock += 1
            self.drawn[loser] |= 1 << drawn
        else:  # no face-down card left: the loser takes the face-up card turned earliest
            drawn = faceup.pop(0)
            self.taken_faceup = _add_card(self.taken_faceup, loser, drawn)
        self.hands[loser] |= 1 << drawn
        self.codes.append(_DRAWN[loser][drawn])
        while len(faceup) < self.variant.open_stock and self.next_stock < len(self.stock):
            faceup.append(self.stock[self.next_stock])
            self.next_stock += 1
        self.faceup = tuple(faceup)
        if self.trick_no == 13:
            self.stage = 2
        self.phase = PLAY
        self._next_lead(winner)

    def _next_lead(self, leader: int) -> None:
        if self.trick_no == 26:
            self._finish()
            return
        self.to_act = leader
        self.legal = self.hands[leader]

    def units(self, seat: int) -> int:
        """Counted units of ``seat`` under the variant's ``count``."""
        stage1, stage2 = self.won1[seat], self.won2[seat]
        count = self.variant.count
        if count == "stage2":
            return stage2
        if count == "all":
            return stage1 + stage2
        return stage1 + 2 * stage2

    def _finish(self) -> None:
        self.to_act = -1
        self.legal = 0
        self.phase = "over"
        self._outcome = self._score()

    def play_uniformly(self, seat_seeds: Sequence[int]) -> bool:
        if type(self) is not GermanWhistDeal or not self._untouched():  # rules of its own,
            return False  # or a deal begun, forfeited or rebuilt mid-hand (a search's copy)
        global _play_uniformly  # numba is imported with the first deal played this way
        if _play_uniformly is None:
            try:
                from whist_sim.games.german_whist_uniform import play_uniformly
            except ImportError:  # numba is a dependency: a broken install plays the loop
                _play_uniformly = False
                return False
            _play_uniformly = play_uniformly
        if _play_uniformly is False:
            return False
        _play_uniformly(self, seat_seeds)
        return True

    def _untouched(self) -> bool:
        """Whether the deal stands as dealt: no action logged, no trick, the non-dealer to
        lead, the stock whole with its first cards face up, nothing counted. A state with an
        empty log is not always one: a search's copy rebuilt mid-hand has none, and a deal
        forfeited before its first action neither (both were played from scratch)."""
        k = self.variant.open_stock
        return (not self.codes and self._outcome is None and self.trick_no == 0
                and not self.trick and self.phase is PLAY and self.stage == 1
                and self.to_act == self.leader == 1 - self.dealer
                and self.legal == self.hands[self.to_act]
                and len(self.stock) == 26 and self.next_stock == k
                and self.faceup == tuple(self.stock[:k])
                and self.won1 == self.won2 == self.taken_faceup == (0, 0)
                and self.drawn == [0, 0] and self.race_winner == -1
                and (self.hands[0] | self.hands[1]).bit_count() == 26)

    # -- results -------------------------------------------------------------------
    def _score(self) -> DealOutcome:
        units = (self.units(0), self.units(1))
        variant = self.variant
        if variant.race_to is not None:
            winner = self.race_winner if self.race_winner >= 0 else _higher(units)
            amount = 1.0
        elif variant.count == "stage2":
            winner, amount = _higher(units), float(max(units) - 6)
        elif variant.count == "all":
            winner, amount = _higher(units), float(max(units) - 13)
        else:
            winner, amount = _higher(units), abs(units[0] - units[1]) / 2
        tricks = (self.won1[0] + self.won2[0], self.won1[1] + self.won2[1])
        return _outcome(tricks, winner, amount, self._facts())

    def _facts(self) -> dict[str, Any]:
        return {
            "stage1_tricks": list(self.won1),
            "stage2_tricks": list(self.won2),
            "tricks_played": self.trick_no,
            "race_winner": self.race_winner if self.race_winner >= 0 else None,
        }

    def outcome(self) -> DealOutcome:
        if self._outcome is None:
            raise RuntimeError("the hand is not over")
        return self._outcome

    def forfeit(self, seat: int, error: str) -> DealOutcome:
        self.to_act = -1
        self.legal = 0
        self.phase = "over"
        variant = self.variant
        if variant.race_to is not None:
            amount = 1.0
        else:
            amount = {"stage2": 7.0, "all": 13.0, "weighted": 19.5}[variant.count]
        tricks = (self.won1[0] + self.won2[0], self.won1[1] + self.won2[1])
        base = _outcome(tricks, 1 - seat, amount, self._facts())
        result = tuple("forfeit" if s == seat else r for s, r in enumerate(base.result))
        self._outcome = DealOutcome(
            base.tricks, base.score, base.net, result, seat, error, base.facts
        )
        return self._outcome

    def trick_facts(self) -> list[dict[str, Any]]:
        """Per completed trick, what was at stake: for analysis, computed after the hand.

        ``faceup`` is the face-up row when the trick was led, ``taken`` the card its
        winner took (None in stage 2), and ``follower_could_win`` whether the second
        player held a card that beat the lead, so that ducking was a choice.

        Read off the log with the hands as bitmasks, not by replaying the deal
        through the engine (which took as long as playing it): a play leaves its
        hand, a take and a draw join theirs, the face-up row refills from the stock.
        """
        hands = list(self.initial_hands)
        stock = self.stock
        open_stock = self.variant.open_stock
        faceup = list(stock[:open_stock])
        next_stock = open_stock
        trump = self.trump
        facts: list[dict[str, Any]] = []
        lead = -1
        for seat, phase, card, _ in self.log:
            if phase == PLAY:
                hand = hands[seat]
                if lead < 0:
                    lead = card
                    row = cards_str(faceup) if faceup else None
                    facts.append({"stage": 1 if len(facts) < 13 else 2, "faceup": row,
                                  "taken": None})
                else:
                    suit = lead // 13
                    higher = hand & SUIT_MASKS[suit] & ~((2 << lead) - 1)
                    trumps = hand & SUIT_MASKS[trump] if 0 <= trump != suit else 0
                    facts[-1]["follower_could_win"] = bool(higher or trumps)
                    # a trump wins only for a follower void in the suit led
                    facts[-1]["follower_could_win_legally"] = bool(
                        higher or (trumps and not hand & SUIT_MASKS[suit]))
                    lead = -1
                hands[seat] = hand & ~(1 << card)
            elif phase == TAKE:
                facts[-1]["taken"] = card_str(card)
                hands[seat] |= 1 << card
                faceup.remove(card)
            else:  # DRAW: the next face-down card, or once none is left the earliest face-up
                hands[seat] |= 1 << card
                if next_stock < len(stock):
                    next_stock += 1
                else:
                    faceup.remove(card)
                while len(faceup) < open_stock and next_stock < len(stock):
                    faceup.append(stock[next_stock])
                    next_stock += 1
        return facts

    def trick_facts_by_replay(self) -> list[dict[str, Any]]:
        """``trick_facts`` by replaying the deal through the engine: the slow, obvious
        reading, kept as the reference the fast one is tested against."""
        replay = GermanWhistDeal(self.game, self.seed, self.dealer, list(self.deck))
        facts: list[dict[str, Any]] = []
        for seat, phase, card, chosen in self.log:
            if phase == PLAY:
                if not replay.trick:
                    row = cards_str(replay.faceup) if replay.faceup else None
                    facts.append({"stage": replay.stage, "faceup": row, "taken": None})
                else:
                    lead = replay.trick[0]
                    facts[-1]["follower_could_win"] = any(
                        beats(c, lead, self.trump) for c in iter_cards(replay.hands[seat])
                    )
                    facts[-1]["follower_could_win_legally"] = any(
                        beats(c, lead, self.trump) for c in iter_cards(replay.legal)
                    )
            elif phase == TAKE:
                facts[-1]["taken"] = card_str(card)
            if chosen and replay.to_act >= 0:
                replay.apply(card)
        return facts

    def deal_record(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "trump": SUITS[self.trump] if self.trump >= 0 else "none",
            "upcard": card_str(self.upcard),
            "hands": [cards_str(h) for h in self.initial_hands],
            "stock": cards_str(self.stock),
        }


_new_tuple = tuple.__new__
_play_uniformly: Any = None
"""``german_whist_uniform.play_uniformly``, once a deal has been played that way (False:
numba could not be imported)."""



def _shown(action: int) -> str:
    return card_str(action) if 0 <= action < 52 else repr(action)


def _add_card(per_seat: tuple[int, int], seat: int, card: int) -> tuple[int, int]:
    """``per_seat`` with ``card`` added to ``seat``'s mask (kept immutable for the views)."""
    return (per_seat[0] | 1 << card, per_seat[1]) if seat == 0 else (
        per_seat[0], per_seat[1] | 1 << card)


def _higher(units: tuple[int, int]) -> int:
    """Seat with more units, or -1 for equal."""
    if units[0] == units[1]:
        return -1
    return 0 if units[0] > units[1] else 1


def _outcome(
    tricks: tuple[int, int], winner: int, amount: float, facts: dict[str, Any]
) -> DealOutcome:
    if winner < 0:
        return DealOutcome(tricks, (0.0, 0.0), (0.0, 0.0), ("draw", "draw"), facts=facts)
    score = (amount, 0.0) if winner == 0 else (0.0, amount)
    net = (amount, -amount) if winner == 0 else (-amount, amount)
    result = ("win", "loss") if winner == 0 else ("loss", "win")
    return DealOutcome(tricks, score, net, result, facts=facts)


def dealer_of_hand(hand: int) -> int:
    """Seat 0 deals the first hand of a match, and the deal alternates."""
    return hand % 2


class GermanWhistMatch(MatchState):
    """Single hands or best-of-N, the dealer alternating from seat 0."""

    def __init__(self, best_of: int) -> None:
        self.best_of = best_of
        self.hands_played = 0
        self.hands_won = [0, 0]
        self.points = [0.0, 0.0]

    def next_dealer(self) -> int | None:
        if self._decided():
            return None
        return dealer_of_hand(self.hands_played)

    def _decided(self) -> bool:
        played, (a, b) = self.hands_played, self.hands_won
        if played == 0:
            return False
        if self.best_of == 1:
            return True  # a single hand stands as played, a draw included
        if played >= self.best_of:
            return a != b
        remaining = self.best_of - played
        return a + remaining < b or b + remaining < a

    def record(self, outcome: DealOutcome) -> None:
        self.hands_played += 1
        for seat in (0, 1):
            if outcome.result[seat] == "win":
                self.hands_won[seat] += 1
            self.points[seat] += outcome.net[seat]

    def result(self) -> dict[str, tuple]:
        a, b = self.hands_won
        results = ("draw", "draw") if a == b else ("win", "loss") if a > b else ("loss", "win")
        return {
            "match_hands_won": tuple(self.hands_won),
            "match_points": tuple(self.points),
            "match_result": results,
        }


class GermanWhist(Game):
    """German Whist under one variant."""

    name = "german_whist"
    title = "German Whist"
    version = 1
    min_players = 2
    max_players = 2
    variant_type = GermanWhistVariant

    variant: GermanWhistVariant

    def new_deal(self, seed: int, dealer: int = 0) -> GermanWhistDeal:
        if dealer not in (0, 1):
            raise VariantError(f"german_whist dealer must be seat 0 or 1, not {dealer!r}")
        return GermanWhistDeal(self, seed, dealer)

    def deal_from_layout(
        self, hands: tuple[str, str], stock: str, dealer: int = 0
    ) -> GermanWhistDeal:
        """A hand-built deal: each seat's 13 cards and the 26 stock cards, top first, in notation.

        For tests and analysis of set positions; ``seed`` is recorded as -1.
        """
        if dealer not in (0, 1):
            raise VariantError(f"german_whist dealer must be seat 0 or 1, not {dealer!r}")
        seat_cards = [parse_card_list(h) for h in hands]
        stock_cards = parse_card_list(stock)
        if [len(c) for c in seat_cards] != [13, 13] or len(stock_cards) != 26:
            raise VariantError("a German Whist layout is 13 cards per seat and 26 stock cards")
        deck = deck_from_seat_cards(seat_cards, dealer) + stock_cards
        if len(set(deck)) != 52:
            raise VariantError("a German Whist layout must use each of the 52 cards exactly once")
        return GermanWhistDeal(self, -1, dealer, deck)

    def deal_from_record(
        self, record: Mapping[str, Any], dealer: int, seed: int
    ) -> GermanWhistDeal:
        """The hand whose cards ``record`` gives (see ``Game.deal_from_record``).

        ``hands``: 13 cards per seat; ``stock``: the 26 others, top first; ``upcard``
        may be left out (null): it is the stock's top card, and when given it must be.
        The hand plays exactly like a shuffle that dealt these cards: play reads only
        the hands (as sets) and the stock order.
        """
        dealer = self.checked_dealer(dealer)
        seat_cards = record_seat_cards(self.title, record, 2, 13)
        stock = record.get("stock")
        if stock is None:
            raise DealError("German Whist needs the stock: its 26 cards, top first")
        stock_cards = record_card_list("the stock", stock)
        if len(stock_cards) != 26:
            raise DealError(
                f"the stock holds {len(stock_cards)} cards; a German Whist stock is 26"
            )
        check_each_card_once(
            [("seat 0", seat_cards[0]), ("seat 1", seat_cards[1]), ("the stock", stock_cards)]
        )
        if record.get("upcard") is not None:
            upcard = record_card("the upcard", record["upcard"])
            if upcard != stock_cards[0]:
                raise DealError(
                    f"the upcard {card_str(upcard)} is not the top stock card"
                    f" {card_str(stock_cards[0])}; German Whist turns the stock's first card"
                )
        return GermanWhistDeal(self, seed, dealer, deck_from_seat_cards(seat_cards, dealer)
                               + stock_cards)

    def hand_dealer(self, hand: int) -> int | None:
        """Single hands: only hand 0 (seat 0 deals). Best-of-N has no last hand (hands
        level after N go on until they differ); the deal alternates from seat 0."""
        if hand < 0 or (self.variant.best_of == 1 and hand > 0):
            return None
        return dealer_of_hand(hand)

    def new_match(self) -> GermanWhistMatch:
        return GermanWhistMatch(self.variant.best_of or 1)
