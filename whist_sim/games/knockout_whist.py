"""Knock-out Whist (2-7 players), as docs/rules/knockout-whist.md describes.

Round 1 deals seven cards each and turns the next card for trump; the dealer's
left leads. After each round every player who took no trick is knocked out; the
player with most tricks sees their new hand, chooses trump and leads. Rounds
deal 7, 6, ... 1 cards; the deal passes to the left among the players dealt in.
The game ends when one player remains, or after the one-card round, whose single
trick's winner wins. ``dogs_life`` gives a knocked-out player one more card.

A whole game (all its rounds) is one hand and one match in whist_sim's terms
(docs/glossary.md): the rounds depend on each other (who is in, who chooses
trump), so they are played and recorded together; the ``rounds`` table has one
row per player per round.

Actions: cards 0..51; ``knock`` = 52 (a dog passes a trick); ``trump:S`` ...
``trump:C`` = 53..56 (the round leader names trump).

Readings where the published rules are silent (also in docs/rules/knockout-whist.md):
- Every round is dealt from a freshly shuffled pack (its seed derives from the
  game's seed and the round number), one card at a time from the dealer's left;
  a dog gets its single card in the first pass.
- A dog may play its card to any trick it is asked to, following suit or not;
  the trick is led by a full player, and the suit led is the leader's.
- "cut" ties are drawn with SplitMix64 seeded by the game seed and the round,
  so the same seed always cuts the same way, on any machine.
- "A dog never leads": after a dog wins a trick the next trick is led by the
  next FULL player to its left who holds cards (another dog is skipped too).
- Placing's "then tricks in that round" never separates anyone (every player
  going out took no trick in that round), so players out in the same round
  share a place.
- Final placing: the winner is 1st; the others rank by the round they went out
  in (later is better), then by tricks taken in that round; equal players share
  a place. ``net`` is +(players - 1) for the winner and -1 for everyone else.
- A forfeiting seat (its strategy failed) ends the game: it scores -(players - 1)
  and every other seat +1, recorded as a draw among them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from whist_sim.cards import SUIT_MASKS, SUITS, card_str, cards_str, parse_suit, suit_lengths
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
    describe_action,
    record_card,
    record_seat_cards,
)
from whist_sim.rng import SplitMix64, derive_seed, shuffled_deck
from whist_sim.tricks import cards_played, revoke_message

PLAY = "play"
TRUMP = "trump"
KNOCK_PHASE = "knock"
OVER = "over"
_TRUMP = log_codes(TRUMP)
"""``action_log.log_codes``: ``_TRUMP[seat][suit]`` codes (seat, "trump", suit, True)."""
_KNOCK = log_codes(KNOCK_PHASE)
_PLAY = log_codes(PLAY)
KNOCK = 52
NAME_TRUMP = 53
"""``NAME_TRUMP + suit`` names trump for the round (suits 0..3 are S H D C)."""
ROUNDS = 7
_new_tuple = tuple.__new__
IN, DOG, OUT = "in", "dog", "out"

ROUND_FIELDS = ("round", "cards_dealt", "trump", "trump_chooser", "seat", "tricks", "dog",
                "knocked_out", "revived", "dog_granted", "chose_trump", "trump_length",
                "longest_suit")
"""The fields of a ``KnockoutWhistDeal.round_records`` tuple: the ``rounds`` table's own
columns, in order (the table adds strategy, dealer and dealt_cards)."""
ROUND_SEAT = ROUND_FIELDS.index("seat")


@dataclass(frozen=True)
class KnockoutWhistVariant(Variant):
    """The variant keys (docs/rules/) of Knock-out Whist, with their defaults."""

    tie_break: str = "cut"
    """Ties for most tricks: "cut" (a draw from the seed) or "nearest_left" (of the dealer)."""
    dogs_life: str = "off"
    """"off", "first_round" (knocked out in round 1) or "first_knockout" (the first time
    anyone is knocked out)."""

    def validate(self, where: str = "variant") -> None:
        check_choice(where, "tie_break", self.tie_break, ("cut", "nearest_left"))
        check_choice(where, "dogs_life", self.dogs_life, ("off", "first_round", "first_knockout"))


class KnockoutWhistView(NamedTuple):
    """What one seat may know. Immutable; holds no card hidden from this seat."""

    seat: int
    phase: str
    """"play" (play a card, or knock as a dog) or "trump" (name trump for the round)."""
    legal: int
    hand: int
    players: int
    round: int
    """1..7."""
    cards_dealt: int
    """Cards each full player was dealt this round (8 - round)."""
    dealer: int
    trump: int
    """Trump suit 0..3 (-1 while the round's trump is being chosen)."""
    upcard: int
    """The card turned for trump in round 1 (-1 in later rounds)."""
    leader: int
    trick: tuple[int, ...]
    """Cards played to the current trick, in order."""
    trick_seats: tuple[int, ...]
    """Who played them (a dog that knocked is not listed)."""
    tricks: tuple[TrickRecord, ...]
    """This round's completed tricks."""
    trick_players: tuple[tuple[int, ...], ...]
    """For each of this round's tricks, the seats that played to it, in order."""
    round_tricks: tuple[int, ...]
    """Tricks each seat has taken this round."""
    status: tuple[str, ...]
    """Each seat: "in", "dog" (on a dog's life this round) or "out"."""
    dog_used: tuple[bool, ...]
    """Each seat has had its dog's life."""
    variant: KnockoutWhistVariant

    @property
    def is_dog(self) -> bool:
        return self.status[self.seat] == DOG

    @property
    def played(self) -> int:
        """Cards played this round (the pack is reshuffled every round)."""
        return cards_played(self.tricks, self.trick)

    @property
    def last_trick(self) -> bool:
        """The current trick is the round's last: a dog must play now."""
        return len(self.tricks) == self.cards_dealt - 1


class KnockoutWhistDeal(CodedLog, DealState):
    """A whole game of Knock-out Whist, round by round."""

    unit_name = "game"

    def __init__(
        self,
        game: KnockoutWhist,
        seed: int,
        dealer: int,
        first_round: tuple[tuple[int, ...], int] | None = None,
    ) -> None:
        """``first_round``: round 1's hands (a mask per seat) and turned card, when the
        cards are given (a deal set) instead of shuffled from the seed; later rounds and
        cuts come from the seed either way."""
        self.game = game
        self.variant: KnockoutWhistVariant = game.variant
        self.players = game.players
        self.seed = seed
        self.dealer = dealer
        self.first_dealer = dealer
        self.status = [IN] * self.players
        self.dog_used = [False] * self.players
        self.revived = [False] * self.players
        self.out_round: list[int | None] = [None] * self.players
        self.out_tricks = [0] * self.players
        self.knockout_seen = False
        self.codes: list[int] = []  # the log (CodedLog)
        self.all_tricks: list[TrickRecord] = []
        self.all_trick_rounds: list[int] = []
        self.all_trick_players: list[tuple[int, ...]] = []
        self.round_records: list[tuple[Any, ...]] = []
        """One tuple per player per round dealt in, fields in ``ROUND_FIELDS`` order: kept
        as tuples, not dicts, because a task's recording reads them column by column
        (``round_rows`` gives them as dicts)."""
        self.winner = -1
        self.ended_by: str | None = None
        self.round = 0
        self.hands = [0] * self.players
        self.first_hands: tuple[int, ...] = ()
        self.upcard = -1
        self._outcome: DealOutcome | None = None
        self._start_round(chooser=-1, dealt=first_round)

    # -- rounds --------------------------------------------------------------------
    def _start_round(
        self, chooser: int, dealt: tuple[tuple[int, ...], int] | None = None
    ) -> None:
        """Deal the next round (or take ``dealt``: hands and the card after them); round 1
        turns that card for trump, later the chooser names it."""
        self.round += 1
        self.cards_dealt = ROUNDS + 1 - self.round
        order = [(self.dealer + k) % self.players for k in range(1, self.players + 1)]
        dealt_in = [s for s in order if self.status[s] in (IN, DOG)]
        if dealt is None:
            hands, next_card = self._deal(dealt_in)
        else:
            hands, next_card = list(dealt[0]), dealt[1]
        self.hands = hands
        self.round_start_hands = tuple(hands)
        if self.round == 1:
            self.first_hands = tuple(hands)
            self.upcard = next_card
        self.dealt_in = dealt_in
        self.round_tricks = [0] * self.players
        self.tricks: tuple[TrickRecord, ...] = ()
        self.trick_players: tuple[tuple[int, ...], ...] = ()
        self.trick: tuple[int, ...] = ()
        self.trick_seats: tuple[int, ...] = ()
        self.chooser = chooser
        if chooser < 0:
            self.trump = self.upcard // 13
            self._start_trick((self.dealer + 1) % self.players)
        else:
            self.trump = -1
            self.phase = TRUMP
            self.to_act = chooser
            self.legal = sum(1 << (NAME_TRUMP + suit) for suit in range(4))

    def _deal(self, dealt_in: list[int]) -> tuple[list[int], int]:
        """This round's hands from a fresh shuffle, one card at a time from the dealer's
        left (a dog gets one card, in the first pass), and the next card of the pack."""
        deck = shuffled_deck(derive_seed(self.seed, "round", self.round))
        hands = [0] * self.players
        position = 0
        for k in range(self.cards_dealt):
            for seat in dealt_in:
                if self.status[seat] == IN or k == 0:
                    hands[seat] |= 1 << deck[position]
                    position += 1
        return hands, deck[position]

    def _start_trick(self, leader: int) -> None:
        self.phase = PLAY
        self.leader = leader
        order = [(leader + k) % self.players for k in range(self.players)]
        self.trick_order = [s for s in order if self.hands[s]]
        self.acted = 0
        self._ask(self.trick_order[0])

    def _ask(self, seat: int) -> None:
        self.to_act = seat
        hand = self.hands[seat]
        if self.status[seat] == DOG:
            last = len(self.tricks) == self.cards_dealt - 1
            self.legal = hand if last else hand | 1 << KNOCK
        elif self.trick:
            self.legal = hand & SUIT_MASKS[self.trick[0] // 13] or hand
        else:
            self.legal = hand

    # -- what a seat may see -------------------------------------------------------
    def view(self, seat: int) -> KnockoutWhistView:
        # tuple.__new__ skips the NamedTuple constructor's Python frame: this runs
        # for every decision of every simulated game.
        return _new_tuple(KnockoutWhistView, (
            seat,
            self.phase,
            self.legal if seat == self.to_act else 0,
            self.hands[seat],
            self.players,
            self.round,
            self.cards_dealt,
            self.dealer,
            self.trump,
            self.upcard if self.round == 1 else -1,
            self.leader,
            self.trick,
            self.trick_seats,
            self.tricks,
            self.trick_players,
            tuple(self.round_tricks),
            tuple(self.status),
            tuple(self.dog_used),
            self.variant,
        ))

    # -- applying actions ----------------------------------------------------------
    def apply(self, action: int) -> None:
        seat = self.to_act
        if action.__class__ is not int or seat < 0 or action < 0 or not self.legal >> action & 1:
            seat, action = self.checked_action(action)  # converts, or says what is wrong
        if self.phase == TRUMP:
            self.codes.append(_TRUMP[seat][action])
            self.trump = action - NAME_TRUMP
            self._start_trick(seat)
        elif action == KNOCK:
            self.codes.append(_KNOCK[seat][action])
            self._next_in_trick()
        else:
            self._play(seat, action)

    def _raise_illegal(self, seat: int, action: int) -> None:
        shown = _shown(action)
        if self.phase == TRUMP:
            raise RuleError(
                seat, shown, "choose trump",
                f"seat {seat} must name trump with trump:S, trump:H, trump:D or trump:C,"
                f" not {shown}",
            )
        if action == KNOCK:
            if self.status[seat] != DOG:
                raise RuleError(
                    seat, shown, "only a dog knocks",
                    f"seat {seat} is not on a dog's life and must play a card",
                )
            raise RuleError(
                seat, shown, "a dog plays on the last trick",
                f"seat {seat} is on a dog's life and must play its card to the round's last trick",
            )
        if not 0 <= action < 52:
            message = f"seat {seat} must play a card, not {shown}"
            raise RuleError(seat, shown, "play a card", message)
        hand = self.hands[seat]
        if not hand >> action & 1:
            message = f"seat {seat} played {shown}, which it does not hold"
            rule = "card not held"
            raise RuleError(seat, shown, rule, message)
        raise RuleError(
            seat, shown, "follow suit", revoke_message(seat, action, hand, self.trick[0] // 13)
        )

    def _play(self, seat: int, card: int) -> None:
        hands = self.hands
        hands[seat] &= ~(1 << card)
        self.codes.append(_PLAY[seat][card])
        trick = self.trick = (*self.trick, card)
        self.trick_seats = (*self.trick_seats, seat)
        acted = self.acted = self.acted + 1
        order = self.trick_order
        if acted == len(order):
            self._complete_trick()
            return
        nxt = order[acted]
        if self.status[nxt] == DOG:
            self._ask(nxt)
            return
        # _ask for a full player following, inline: this runs for every card played
        self.to_act = nxt
        hand = hands[nxt]
        self.legal = hand & SUIT_MASKS[trick[0] // 13] or hand

    def _next_in_trick(self) -> None:
        self.acted += 1
        if self.acted < len(self.trick_order):
            self._ask(self.trick_order[self.acted])
            return
        self._complete_trick()

    def _complete_trick(self) -> None:
        cards, seats = self.trick, self.trick_seats
        trump = self.trump
        best, best_i = cards[0], 0
        for i in range(1, len(cards)):  # tricks.winning_index, inline
            card = cards[i]
            if (card > best) if card // 13 == best // 13 else card // 13 == trump:
                best, best_i = card, i
        winner = seats[best_i]
        number = len(self.all_tricks) + 1
        record = _new_tuple(TrickRecord, (number, self.leader, cards, winner))
        self.all_tricks.append(record)
        self.all_trick_rounds.append(self.round)
        self.all_trick_players.append(seats)
        self.tricks = (*self.tricks, record)
        self.trick_players = (*self.trick_players, seats)
        self.trick, self.trick_seats = (), ()
        self.round_tricks[winner] += 1
        if len(self.tricks) == self.cards_dealt:
            self._end_round()
            return
        leader = winner
        if self.status[winner] == DOG:  # a dog never leads: the next full player to its left
            leader = next(
                seat for seat in ((winner + k) % self.players for k in range(1, self.players))
                if self.hands[seat] and self.status[seat] == IN
            )
        self._start_trick(leader)

    def _end_round(self) -> None:
        """Knock out, grant and settle dogs, then deal on or end the game."""
        final_round = self.round == ROUNDS
        knocked = [s for s in self.dealt_in if self.status[s] == IN and self.round_tricks[s] == 0]
        grants = self._dogs_granted(knocked, final_round)
        most = max(self.round_tricks)
        number, trump, chooser = self.round, SUITS[self.trump], self.chooser
        trump_mask = SUIT_MASKS[self.trump]
        for seat in self.dealt_in:
            was_dog = self.status[seat] == DOG
            hand = self.round_start_hands[seat]
            tricks = self.round_tricks[seat]
            self.round_records.append((  # ROUND_FIELDS
                number, 1 if was_dog else self.cards_dealt, trump, chooser, seat, tricks,
                was_dog, seat in knocked or (was_dog and tricks == 0), was_dog and tricks > 0,
                seat in grants, seat == chooser, (hand & trump_mask).bit_count(),
                max(suit_lengths(hand))))
        for seat in self.dealt_in:
            if self.status[seat] == DOG:
                if self.round_tricks[seat] > 0:
                    self.status[seat] = IN
                    self.revived[seat] = True
                else:
                    self._knock_out(seat)
        for seat in knocked:
            if seat in grants:
                self.status[seat] = DOG
                self.dog_used[seat] = True
            else:
                self._knock_out(seat)
        if knocked:
            self.knockout_seen = True
        full = [s for s in range(self.players) if self.status[s] == IN]
        dogs = [s for s in range(self.players) if self.status[s] == DOG]
        if final_round:
            self._end_game(self.tricks[-1].winner, "final_round")
            return
        if len(full) == 1 and not dogs:
            self._end_game(full[0], "last_player")
            return
        tied = [s for s in self.dealt_in if self.round_tricks[s] == most]
        chooser = self._break_tie(tied)
        self.dealer = next(
            (self.dealer + k) % self.players for k in range(1, self.players + 1)
            if self.status[(self.dealer + k) % self.players] in (IN, DOG)
        )
        self._start_round(chooser)

    def _dogs_granted(self, knocked: list[int], final_round: bool) -> set[int]:
        setting = self.variant.dogs_life
        if setting == "off" or final_round or not knocked:
            return set()
        if setting == "first_round" and self.round != 1:
            return set()
        if setting == "first_knockout" and self.knockout_seen:
            return set()
        return {s for s in knocked if not self.dog_used[s]}

    def _knock_out(self, seat: int) -> None:
        self.status[seat] = OUT
        self.out_round[seat] = self.round
        self.out_tricks[seat] = self.round_tricks[seat]

    def _break_tie(self, tied: list[int]) -> int:
        """The player who chooses trump next: most tricks, ties by ``tie_break``."""
        if len(tied) == 1:
            return tied[0]
        if self.variant.tie_break == "cut":
            # SplitMix64, like the deals: Python's random promises no stable choice()
            draw = SplitMix64(derive_seed(self.seed, "cut", self.round)).below(len(tied))
            return sorted(tied)[draw]
        return next(
            (self.dealer + k) % self.players for k in range(1, self.players + 1)
            if (self.dealer + k) % self.players in tied
        )

    def _end_game(self, winner: int, how: str) -> None:
        self.winner = winner
        self.ended_by = how
        for seat in range(self.players):
            if seat != winner and self.out_round[seat] is None:
                self._knock_out(seat)
        self.to_act = -1
        self.legal = 0
        self.phase = OVER
        self._outcome = self._score()

    # -- results -------------------------------------------------------------------
    def placings(self) -> list[int]:
        """1 for the winner; others by round gone out (later better), then tricks in it."""
        def key(seat: int) -> tuple[int, int]:
            if seat == self.winner:
                return (ROUNDS + 1, 99)
            return (self.out_round[seat] or 0, self.out_tricks[seat])

        keys = [key(s) for s in range(self.players)]
        return [1 + sum(other > keys[s] for other in keys) for s in range(self.players)]

    def _score(self) -> DealOutcome:
        n = self.players
        net = tuple(float(n - 1) if s == self.winner else -1.0 for s in range(n))
        score = tuple(1.0 if s == self.winner else 0.0 for s in range(n))
        result = tuple("win" if s == self.winner else "loss" for s in range(n))
        return DealOutcome(
            self._tricks_per_seat(), score, net, result, facts=self._facts(),
            seat_facts=self._seat_facts(),
        )

    def _tricks_per_seat(self) -> tuple[int, ...]:
        return tuple(sum(1 for t in self.all_tricks if t.winner == s) for s in range(self.players))

    def _facts(self) -> dict[str, Any]:
        return {
            "rounds_played": self.round,
            "winner": self.winner if self.winner >= 0 else None,
            "ended_by": self.ended_by,
            "dogs_granted": sum(self.dog_used),
            "tricks_played": len(self.all_tricks),
            "players": self.players,
        }

    def _seat_facts(self) -> tuple[dict[str, Any], ...]:
        placings = self.placings()
        return tuple(
            {
                "out_round": self.out_round[s],
                "placing": placings[s],
                "dog_used": self.dog_used[s],
                "revived": self.revived[s],
            }
            for s in range(self.players)
        )

    def outcome(self) -> DealOutcome:
        if self._outcome is None:
            raise RuntimeError("the game is not over")
        return self._outcome

    def forfeit(self, seat: int, error: str) -> DealOutcome:
        self.to_act = -1
        self.legal = 0
        self.phase = OVER
        n = self.players
        net = tuple(-(n - 1.0) if s == seat else 1.0 for s in range(n))
        result = tuple("forfeit" if s == seat else "draw" for s in range(n))
        seat_facts = tuple(
            {"out_round": self.out_round[s], "placing": None, "dog_used": self.dog_used[s],
             "revived": self.revived[s]}
            for s in range(n)
        )
        self._outcome = DealOutcome(
            self._tricks_per_seat(), (0.0,) * n, net, result, seat, error, self._facts(),
            seat_facts,
        )
        return self._outcome

    def deal_record(self) -> dict[str, Any]:
        return {
            "dealer": self.first_dealer,
            "trump": SUITS[self.upcard // 13],
            "upcard": card_str(self.upcard),
            "hands": [cards_str(h) for h in self.first_hands],
            "stock": None,
        }

    def trick_facts(self) -> list[dict[str, Any]]:
        """Per trick: its round and the seats that played to it (dogs may knock)."""
        return [
            {"round": r, "players": list(p)}
            for r, p in zip(self.all_trick_rounds, self.all_trick_players, strict=True)
        ]

    def completed_tricks(self) -> tuple[TrickRecord, ...]:
        """Every trick of the game, all rounds (``tricks`` holds only this round's)."""
        return tuple(self.all_tricks)

    def extra_rows(self, seated: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
        """Rows of the ``rounds`` table: one per player per round dealt in, with the round's
        dealer and the cards the player was dealt (``round_facts``)."""
        dealers, dealt = self.round_facts()
        return {"rounds": [
            {**row, "strategy": seated[row["seat"]], "dealer": dealers[row["round"] - 1],
             "dealt_cards": dealt[row["round"] - 1].get(row["seat"])}
            for row in self.round_rows
        ]}

    @property
    def round_rows(self) -> list[dict[str, Any]]:
        """``round_records`` as dicts keyed by ``ROUND_FIELDS`` (a new list each time)."""
        return [dict(zip(ROUND_FIELDS, record, strict=True)) for record in self.round_records]

    def round_facts(self) -> tuple[list[int], list[dict[int, str]]]:
        """Each finished round's dealer, and the cards each player dealt in was dealt
        (``round_masks``, the cards in notation)."""
        dealers, dealt = self.round_masks()
        return dealers, [{seat: cards_str(mask) for seat, mask in hands.items()}
                         for hands in dealt]

    def round_masks(self) -> tuple[list[int], list[dict[int, int]]]:
        """Each finished round's dealer, and the cards (a mask) each player dealt in was dealt.

        Read off the game's own record, so they cannot disagree with it: every card dealt
        is played within its round (a dog knocks until the last trick, then plays), so a
        player's hand is the cards it played to the round's tricks; round 1 is the dealt
        ``first_hands``. The deal passes to the next seat on the left still in (a dog
        included), which is the first seat after the last dealer among the players of the
        next round; the last round's dealer is the game's ``dealer``."""
        records = self.round_records
        rounds = max((record[0] for record in records), default=0)
        dealt: list[dict[int, int]] = [{} for _ in range(rounds)]
        for number, trick, seats in zip(self.all_trick_rounds, self.all_tricks,
                                        self.all_trick_players, strict=True):
            if number <= rounds:
                hands = dealt[number - 1]
                for seat, card in zip(seats, trick.cards, strict=True):
                    hands[seat] = hands.get(seat, 0) | 1 << card
        if rounds:
            dealt[0] = {record[ROUND_SEAT]: self.first_hands[record[ROUND_SEAT]]
                        for record in records if record[0] == 1}
        players: list[set[int]] = [set() for _ in range(rounds)]
        for record in records:
            players[record[0] - 1].add(record[ROUND_SEAT])
        dealers = [self.first_dealer]
        for number in range(1, rounds):
            dealers.append(next(
                (dealers[-1] + k) % self.players for k in range(1, self.players + 1)
                if (dealers[-1] + k) % self.players in players[number]))
        return dealers, dealt



def action_name(action: int) -> str:
    if 0 <= action < 52:
        return card_str(action)
    if action == KNOCK:
        return "knock"
    if NAME_TRUMP <= action < NAME_TRUMP + 4:
        return f"trump:{SUITS[action - NAME_TRUMP]}"
    raise ValueError(f"knockout_whist has no action number {action}")


def _shown(action: int) -> str:
    return describe_action(action_name, action)


class SingleGame(MatchState):
    """A Knock-out Whist game is one deal: nothing to carry between deals."""

    def __init__(self) -> None:
        self.done = False
        self.outcome: DealOutcome | None = None

    def next_dealer(self) -> int | None:
        return None if self.done else 0

    def record(self, outcome: DealOutcome) -> None:
        self.done = True
        self.outcome = outcome

    def result(self) -> dict[str, tuple]:
        assert self.outcome is not None
        return {
            "match_hands_won": tuple(int(r == "win") for r in self.outcome.result),
            "match_points": self.outcome.net,
            "match_result": self.outcome.result,
        }


class KnockoutWhist(Game):
    """Knock-out Whist for 2..7 players under one variant."""

    name = "knockout_whist"
    title = "Knock-out Whist"
    version = 1
    min_players = 2
    max_players = 7
    variant_type = KnockoutWhistVariant

    variant: KnockoutWhistVariant

    def new_deal(self, seed: int, dealer: int = 0) -> KnockoutWhistDeal:
        if dealer not in range(self.players):
            raise VariantError(
                f"knockout_whist dealer must be a seat 0..{self.players - 1}, not {dealer!r}"
            )
        return KnockoutWhistDeal(self, seed, dealer)

    def deal_from_record(
        self, record: Mapping[str, Any], dealer: int, seed: int
    ) -> KnockoutWhistDeal:
        """The game whose round-1 cards ``record`` gives (see ``Game.deal_from_record``).

        ``hands``: seven cards for each seat of this table (a record holds one table
        size); ``upcard``: the card turned for trump in round 1, in no hand. Round 1
        needs nothing else of its pack, so the rest of the deck is not recorded; rounds
        2-7 are shuffled, and ties cut, from ``seed`` exactly as in a seeded game, so
        the record of a seeded game with that game's seed replays it exactly.
        ``stock`` must be null.
        """
        dealer = self.checked_dealer(dealer)
        seat_cards = record_seat_cards(self.title, record, self.players, ROUNDS)
        check_absent(self.title, record, "stock", "stock")
        if record.get("upcard") is None:
            raise DealError(
                "Knock-out Whist needs the upcard: the card turned for trump in round 1"
            )
        upcard = record_card("the upcard", record["upcard"])
        check_each_card_once(
            [*((f"seat {seat}", cards) for seat, cards in enumerate(seat_cards)),
             ("the upcard", [upcard])]
        )
        hands = tuple(sum(1 << card for card in cards) for cards in seat_cards)
        return KnockoutWhistDeal(self, seed, dealer, first_round=(hands, upcard))

    def hand_dealer(self, hand: int) -> int | None:
        """A game is one deal (hand 0), dealt first by seat 0 (``SingleGame``)."""
        return 0 if hand == 0 else None

    def new_match(self) -> SingleGame:
        return SingleGame()

    def action_str(self, action: int) -> str:
        return action_name(action)

    def parse_action(self, text: str) -> int:
        token = text.strip().lower()
        if token == "knock":
            return KNOCK
        if token.startswith("trump:"):
            return NAME_TRUMP + parse_suit(token[6:])
        return super().parse_action(text)

