"""Knock-out Whist's ``SearchModel``: a whole game rebuilt from one seat's view of a round.

A Knock-out game is ONE ``KnockoutWhistDeal`` of up to seven rounds, and a view shows
only the current round. ``determinize`` therefore builds the engine's state directly
(``KnockoutWhistDeal.__new__`` and every attribute the engine reads or writes), not by
replaying a history it does not have. Each attribute comes from the view, the world,
or the rules applied to them:

- this round's public state (round, dealer, trump, leader, tricks, current trick,
  trick counts, statuses, dogs' lives used) is the view's; the hands are the world's
  (``World.undealt`` is not used: every round is dealt from a fresh pack, so the cards
  left undealt this round never matter later);
- ``dealt_in`` (the round's seats from the dealer's left, dogs included), the current
  trick's ``trick_order`` (seats holding cards when it was led) and ``acted`` follow
  from the dealer, statuses, leader and the hands plus the cards on the trick;
- ``round_start_hands`` are the hands plus each seat's cards played this round, the
  trump ``chooser`` is round 1's nobody, else the seat naming trump or the first
  trick's leader (the chooser leads it);
- ``revived`` is "had a dog's life and is in", ``knockout_seen`` (for the
  ``first_knockout`` dog's life) is "anyone out or ever on a dog's life": both exact.

The seed is drawn from ``rng`` (63 bits, as the engine's seeds): later rounds and any
tie-break cut come from it, never from the real game's seed.

What a view cannot tell, and how the copy fills it (none of it changes the play):
- tricks of earlier rounds: ``all_tricks`` starts with stand-ins (no cards, winner -1)
  so the game-wide trick numbers stay right; they count for nobody, so the copy's
  ``outcome().tricks`` are the tricks taken from this round on;
- the round a seat already out went out in: taken as the round before this one (the
  latest it can be); such a seat never acts again, so only its own payoff, which the
  search never maximises, depends on it; it was knocked out with no trick, so its
  tricks in that round (``out_tricks``) are exactly 0;
- the action log, the ``rounds`` rows of earlier rounds, round 1's hands and upcard in
  later rounds, and the first dealer: recording only (``deal_record``), left empty.

Payoffs: 1 to the game's winner; every other seat ``SURVIVAL * (rounds survived) / 7``
with rounds survived = the round it went out in minus one, so 0 for going out in round
1 and under 0.09 at best: surviving longer is worth a little, winning dominates.

Exact values: the open-card solver models a contest of two sides following suit, so it
gives the exact payoff only where the rest of the round is two players against each
other and the payoff follows from the round's trick counts. Applies (else None):
- the round's last trick: every hand holds at most one card and a dog must play, so
  the trick is forced; it is settled directly;
- otherwise exactly two full players hold cards and no dog does (a dog may knock and
  need not follow suit, which the solver does not model; a dog that has already played
  is fine). For each legal card the solver gives the seat's tricks ``k`` among the
  rest with best play by both. The seat either leads the trick (the solver gets it
  with the seat's card) or completes it, the opponent having led (a dog that played
  sits between them): then the trick is settled here, a dog's card included, and the
  solver starts from the next trick.

The round's end then either settles the seat's payoff (it goes out: its payoff is
known whatever follows; the game ends: 1 or its out payoff), or the seat plays on into
a freshly dealt round whose value nothing here knows. Each outcome is an interval
[lo, hi] (playing on: at least going out next round, at most 1); the payoff is
monotone in ``k``, so the minimax payoff is the outcome at the solver's ``k``. A dict is
returned only when every legal card's interval is one number, i.e. the position's
value does not depend on the unknown later rounds (for example two players left, both
without a trick: one must take every trick to win). Three or more full players holding
cards give a dict only on the forced last trick: otherwise their interests are not
two-sided (each plays for itself, not for or against one seat).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from whist_sim.games.base import TrickRecord
from whist_sim.games.knockout_whist import (
    DOG,
    IN,
    OUT,
    PLAY,
    ROUNDS,
    TRUMP,
    KnockoutWhist,
    KnockoutWhistDeal,
    KnockoutWhistView,
)
from whist_sim.sampling import World
from whist_sim.search.model import game_for
from whist_sim.search.policy import RolloutPolicy, default_policy
from whist_sim.tricks import winning_index

SURVIVAL = 0.1
"""A seat that survived all seven rounds without winning would get this much (it cannot:
the one-card round has a winner); each round survived is worth a seventh of it."""

_ROTATIONS = tuple(
    tuple(tuple((first + k) % n for k in range(n)) for first in range(n)) for n in range(8)
)
"""``_ROTATIONS[players][first]``: the seats clockwise from ``first``."""


def _earlier_tricks(round_: int) -> tuple[TrickRecord, ...]:
    """Stand-ins for the tricks of rounds before ``round_`` (round r has 8 - r tricks)."""
    count = sum(ROUNDS + 1 - r for r in range(1, round_))
    return tuple(TrickRecord(number, -1, (), -1) for number in range(1, count + 1))


_EARLIER = tuple(_earlier_tricks(r) for r in range(ROUNDS + 1))
_EARLIER_ROUNDS = tuple(
    tuple(r for r in range(1, round_) for _ in range(ROUNDS + 1 - r)) for round_ in range(8)
)
_EARLIER_PLAYERS = tuple(((),) * len(tricks) for tricks in _EARLIER)


def out_payoff(out_round: int) -> float:
    """Payoff of a seat that went out in ``out_round`` (survived the rounds before it)."""
    return SURVIVAL * (out_round - 1) / ROUNDS


class KnockoutWhistModel:
    """The ``SearchModel`` of Knock-out Whist (see the module docstring)."""

    game = KnockoutWhist.name

    def __init__(self, policy: RolloutPolicy | None = None) -> None:
        self._policies: dict[int, list[Any]] = {}
        self._policy = policy

    def with_policy(self, policy: RolloutPolicy) -> KnockoutWhistModel:
        """This game's model with ``policy`` at every seat of its roll-outs."""
        return KnockoutWhistModel(policy)

    @property
    def policy(self) -> RolloutPolicy:
        """The roll-out policy: the one given, else the strategy registered as
        ``heuristic`` (``whist_sim.search.policy``), found on first use."""
        if self._policy is None:
            self._policy = default_policy(self.game)
        return self._policy

    # -- determinize ----------------------------------------------------------------
    def determinize(self, view: KnockoutWhistView, world: World, rng: Random
                    ) -> KnockoutWhistDeal:
        """The game at ``view``'s decision point with ``world``'s hands (module docstring)."""
        seat = view.seat
        hands = list(world.hands)
        if hands[seat] != view.hand:
            raise ValueError(f"the world's hand of seat {seat} is not the one its view shows")
        phase = view.phase
        if phase != PLAY and phase != TRUMP:
            raise ValueError(f"seat {seat}'s view is not at a decision (phase {phase!r})")
        n = view.players
        round_ = view.round
        status = list(view.status)
        dog_used = list(view.dog_used)
        tricks = view.tricks
        trick, trick_seats = view.trick, view.trick_seats

        state = KnockoutWhistDeal.__new__(KnockoutWhistDeal)
        state.game = game_for(KnockoutWhist, view.variant, n)
        state.variant = view.variant
        state.players = n
        state.seed = rng.getrandbits(63)
        state.dealer = state.first_dealer = view.dealer
        state.status = status
        state.dog_used = dog_used
        state.revived = [used and s == IN for used, s in zip(dog_used, status, strict=True)]
        state.out_round = [round_ - 1 if s == OUT else None for s in status]
        state.out_tricks = [0] * n
        state.knockout_seen = OUT in status or True in dog_used
        state.codes = []  # the log (CodedLog): it starts empty here
        state.all_tricks = [*_EARLIER[round_], *tricks]
        state.all_trick_rounds = [*_EARLIER_ROUNDS[round_], *(round_,) * len(tricks)]
        state.all_trick_players = [*_EARLIER_PLAYERS[round_], *view.trick_players]
        state.round_records = []
        state.winner = -1
        state.ended_by = None
        state._outcome = None
        state.round = round_
        state.cards_dealt = view.cards_dealt
        state.hands = hands

        start = hands.copy()
        for record, seats in zip(tricks, view.trick_players, strict=True):
            for card, who in zip(record.cards, seats, strict=True):
                start[who] |= 1 << card
        for card, who in zip(trick, trick_seats, strict=True):
            start[who] |= 1 << card
        state.round_start_hands = tuple(start)
        if round_ == 1:
            state.first_hands = state.round_start_hands
            state.upcard = view.upcard
        else:
            state.first_hands = ()
            state.upcard = -1
        state.dealt_in = [s for s in _ROTATIONS[n][(view.dealer + 1) % n] if status[s] != OUT]
        state.round_tricks = list(view.round_tricks)
        state.tricks = tricks
        state.trick_players = view.trick_players
        state.trick = trick
        state.trick_seats = trick_seats
        state.trump = view.trump
        state.leader = view.leader
        state.phase = phase
        state.to_act = seat
        state.legal = view.legal
        if round_ == 1:
            state.chooser = -1
        elif phase == TRUMP:
            state.chooser = seat
        else:
            state.chooser = tricks[0].leader if tricks else view.leader
        if phase == PLAY:
            order = [s for s in _ROTATIONS[n][view.leader] if hands[s] or s in trick_seats]
            state.trick_order = order
            state.acted = order.index(seat)
        else:  # set afresh when the chooser names trump and leads
            state.trick_order = []
            state.acted = 0
        return state

    # -- payoffs and roll-outs ----------------------------------------------------------
    def payoffs(self, state: KnockoutWhistDeal) -> tuple[float, ...]:
        """1 to the winner, ``out_payoff(round gone out in)`` to every other seat.

        A forfeited game (never met in search) has no winner: every seat gets the
        payoff of going out in the round it reached, if not out before.
        """
        outcome = state.outcome()
        return tuple(
            1.0 if result == "win" else out_payoff(facts["out_round"] or state.round)
            for result, facts in zip(outcome.result, outcome.seat_facts, strict=True)
        )

    def horizon(self, view: KnockoutWhistView) -> Callable[[KnockoutWhistDeal], Any]:
        """Where roll-outs from ``view`` stop: the start of the next round, valued by shares.

        A roll-out to the end of the game runs through rounds dealt at random, so its
        payoff is mostly the luck of those deals; twenty worlds cannot separate two
        cards by it. The round being played is what a decision changes: who goes out
        and who names the next trump. So a roll-out stops when the next round begins
        and each seat still in gets a share of the win: one share each, two for the
        seat that names trump (measured in heuristic self-play at four players, the
        chooser of trump went on to win 72%, 50% and 36% of games with 2, 3 and 4
        players left, against 67%, 50% and 40% for two shares), half a share for a seat
        on a dog's life. A seat out gets ``out_payoff`` as at the end.
        """
        start = view.round

        def value(state: KnockoutWhistDeal) -> tuple[float, ...] | None:
            if state.round == start or state.phase != TRUMP:
                return None
            chooser = state.to_act
            shares = [
                0.0 if status == OUT else (2.0 if seat == chooser else 1.0)
                * (0.5 if status == DOG else 1.0)
                for seat, status in enumerate(state.status)
            ]
            total = sum(shares)
            return tuple(
                share / total if status != OUT else out_payoff(state.out_round[seat] or state.round)
                for seat, (share, status) in enumerate(zip(shares, state.status, strict=True))
            )

        return value

    def rollout_policies(self, state: KnockoutWhistDeal) -> list[Any]:
        """The roll-out policy (by default the Knock-out heuristic) at every seat:
        deterministic, keeps no state between calls."""
        n = state.players
        policies = self._policies.get(n)
        if policies is None:
            policies = self._policies[n] = [self.policy] * n
        return policies

    # -- exact values -------------------------------------------------------------------
    def exact_values(self, state: KnockoutWhistDeal, seat: int, max_cards: int,
                     solve: Callable[..., int]) -> dict[int, float] | None:
        """Per legal card of ``seat``, its exact payoff, or None (module docstring)."""
        if state.phase != PLAY or state.to_act != seat:
            return None
        hands = state.hands
        holders = [s for s in range(state.players) if hands[s]]
        if max(hands[s].bit_count() for s in holders) > max_cards:
            return None
        if len(state.tricks) == state.cards_dealt - 1:
            return self._last_trick_values(state, seat)
        status = state.status
        if len(holders) != 2 or any(status[s] != IN for s in holders):
            return None
        opp = holders[0] if holders[1] == seat else holders[1]
        return _two_player_values(state, seat, opp, solve)

    def _last_trick_values(self, state: KnockoutWhistDeal, seat: int) -> dict[int, float] | None:
        """The last trick is forced (one card each, dogs must play): play it and settle."""
        cards = list(state.trick)
        seats = list(state.trick_seats)
        for who in state.trick_order[state.acted:]:
            cards.append(state.hands[who].bit_length() - 1)
            seats.append(who)
        winner = seats[winning_index(cards, state.trump)]
        tricks = list(state.round_tricks)
        tricks[winner] += 1
        lo, hi = _settle(state, seat, tricks, winner)
        if lo != hi:
            return None
        return {state.hands[seat].bit_length() - 1: lo}


def _two_player_values(state: KnockoutWhistDeal, seat: int, opp: int,
                       solve: Callable[..., int]) -> dict[int, float] | None:
    """Two full players hold cards (no dog does): each legal card's payoff, if exact."""
    hands = state.hands
    # A full player leads: the seat, or else the opponent, who has played (and a dog may
    # have played after it); so the seat leads or completes the trick.
    leads = not state.trick
    values: dict[int, float] = {}
    legal = state.legal
    while legal:
        low = legal & -legal
        legal ^= low
        card = low.bit_length() - 1
        own = hands[seat] & ~low
        if leads:  # the solver plays the trick on
            k = _solve_two(solve, state.trump, seat, opp, own, hands[opp], seat, (card,))
            left = state.cards_dealt - len(state.tricks)
            lo, hi = _settle_two(state, seat, opp, k, left - k, state.round_tricks)
        else:  # the seat completes the trick (a dog's card may be on it): settle, then solve
            lo, hi = _after_trick(state, seat, opp, own, hands[opp], (*state.trick, card),
                                  (*state.trick_seats, seat), solve)
        if lo != hi:
            return None
        values[card] = lo
    return values


def _after_trick(state: KnockoutWhistDeal, seat: int, opp: int, own: int, opp_hand: int,
                 cards: tuple[int, ...], seats: tuple[int, ...],
                 solve: Callable[..., int]) -> tuple[float, float]:
    """Value interval once the current trick (not the round's last) is complete: settle
    it, solve the rest."""
    winner = seats[winning_index(cards, state.trump)]
    tricks = list(state.round_tricks)
    tricks[winner] += 1
    left = state.cards_dealt - len(state.tricks) - 1
    leader = winner
    if state.status[winner] == DOG:  # a dog never leads: the next full player to its left
        leader = next(s for s in _ROTATIONS[state.players][winner][1:] if s in (seat, opp))
    k = _solve_two(solve, state.trump, seat, opp, own, opp_hand, leader, ())
    return _settle_two(state, seat, opp, k, left - k, tricks)


def _solve_two(solve: Callable[..., int], trump: int, seat: int, opp: int, own: int,
               opp_hand: int, leader: int, trick: tuple[int, ...]) -> int:
    """Tricks the seat takes of those left (``trick`` included) with best play by both.

    The solver's table is the two seats in seat order (two seats alternate whichever
    comes first); the seat is side 0, whose tricks are counted, the opponent side 1.
    """
    if seat < opp:
        return solve([own, opp_hand], int(leader == opp), trump, [0, 1], "most", trick)
    return solve([opp_hand, own], int(leader == seat), trump, [1, 0], "most", trick)


def _settle_two(state: KnockoutWhistDeal, seat: int, opp: int, k: int, opp_k: int,
                tricks: list[int]) -> tuple[float, float]:
    """Value interval when the seat takes ``k`` and the opponent ``opp_k`` more tricks."""
    final = list(tricks)
    final[seat] += k
    final[opp] += opp_k
    return _settle(state, seat, final, -1)


def _settle(state: KnockoutWhistDeal, seat: int, tricks: list[int], last_winner: int
            ) -> tuple[float, float]:
    """The seat's payoff interval when the round ends with these trick counts.

    Mirrors ``KnockoutWhistDeal._end_round`` (whose dog's-life rule it calls): the seat
    out -> its out payoff; the game over -> 1 or the out payoff; else it plays on.
    """
    round_ = state.round
    if round_ == ROUNDS:
        value = 1.0 if last_winner == seat else out_payoff(round_)
        return value, value
    status = state.status
    knocked = [s for s in state.dealt_in if status[s] == IN and tricks[s] == 0]
    grants = state._dogs_granted(knocked, False)
    after = list(status)
    for s in state.dealt_in:
        if status[s] == DOG:
            after[s] = IN if tricks[s] else OUT
    for s in knocked:
        after[s] = DOG if s in grants else OUT
    if after[seat] == OUT:
        value = out_payoff(round_)
        return value, value
    if DOG not in after and after.count(IN) == 1:
        return 1.0, 1.0
    return out_payoff(round_ + 1), 1.0


MODEL = KnockoutWhistModel()
"""The model ``whist_sim.search.model.model_for`` returns for Knock-out views."""
