"""Minnesota Whist's ``SearchModel``: private deal states from a view and a world.

determinize. The state is built field by field (``MinnesotaWhistDeal.__new__``): the
engine's ``__init__`` only deals a deck and the play that follows reads nothing but
the fields set here, so building them directly avoids replaying up to 59 actions
through ``apply`` (measured: 5-10 us while laying, 10-20 us in play, on a shared
machine, against about 90 us to deal and replay 30 actions). Every field comes
from the view (public history, the seat's own hand and laid card) or from the world
(the other hands):

- hands: the world's current hands; initial hands: each world hand plus the cards
  that seat has played (public), so the deal record and deck are those of a deal
  that leads here;
- laid cards (card bidding): the acting seat's own from its view, the turned ones
  from ``turned`` (public). A laid card that was never turned is hidden and the
  world does not say it, yet while the cards are being laid it decides the hand
  (a black one grands if every card turned before it is red). It is taken to be the
  card the roll-out policy (the heuristic) would have laid from that seat's world
  hand at its turn to lay: the search then models the other seats' bidding with the
  same player it uses for their later choices, so a world's hand and its laid card
  agree (a strong hand lays black), rather than a laid card drawn at random, which
  would make an opponent grand about half the time whatever he holds. No public fact
  constrains such a card (only cards up to the first black are turned, and nothing
  is turned before all four are laid), so the choice is always consistent; the
  policy's choice is memoised, as search rebuilds one world once per candidate. Once play
  has begun the unturned cards change nothing but the ``laid`` fact of the outcome;
- the log: the lays, turns or calls and the plays, in the engine's order;
- ``seed`` is -1, as for the engine's hand-built deals: this game draws no
  randomness after the deal, so the state needs no seed of its own and ``rng`` is
  unused (the heuristic does not use it either).

payoffs. What a Minnesota player wants is the game to ``target``, not the points of
one deal, and what points are worth depends on the score: at 12-3 one point ends
the game. A seat's payoff is its side's match equity after the deal (the chance of
winning the game from that score, ``whist_sim.search.match_equity``), as 2 x chance
- 1 so the two sides' payoffs sum to zero, plus ``NET_TIE_BREAK`` per net point (its
side's points minus the other's) to choose between actions that leave the chance the
same. Measured against payoffs of net points alone, on the same 180 match seeds
(``benchmarks/search_strength.py minnesota --seeds 180``, 40 worlds): games won
81.67% -> 83.89%, points a deal +1.022 -> +1.059 (docs/strategies.md).

rollout_policies. One roll-out policy for every seat: ``MODEL``'s is the strategy
registered as ``heuristic`` (``MinnesotaHeuristic`` with its default parameters, found
through the strategy registry: ``whist_sim.search.policy``), ``with_policy`` gives a
model with another. It keeps no state between calls and is deterministic. The same
list is returned every time.

exact_values. Card play is always a contest of the two partnerships (sides: seat % 2)
at no trumps, so the solver applies whenever every hand is small enough: objective
"most" in a grand hand, "none" in a null hand. Under both scorings and both hand
types the net points of side 0 are a strictly monotone function of side 0's tricks
(increasing in a grand, decreasing in a null hand), and so is its payoff (its match
equity moves the same way as its net points, and the tie-break makes it strict), so
the trick count the solver finds with each side optimising its tricks is also the
minimax value of the payoffs. The tricks are turned into points by the engine's own
``MinnesotaWhistDeal.points``, applied to the finished deal's tallies, and the
points into payoffs as above.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from whist_sim.cards import SUIT_MASKS
from whist_sim.games.action_log import log_codes
from whist_sim.games.base import DealState
from whist_sim.games.minnesota_whist import (
    BID,
    LAY,
    PLAY,
    PLAYERS,
    MinnesotaWhist,
    MinnesotaWhistDeal,
    MinnesotaWhistView,
)
from whist_sim.sampling import World
from whist_sim.search.match_equity import equity
from whist_sim.search.model import game_for
from whist_sim.search.policy import RolloutPolicy, default_policy

SIDES = (0, 1, 0, 1)
"""Solver sides: seats 0 and 2 against 1 and 3."""
NO_TRUMP = -1
NET_TIE_BREAK = 0.001
"""Value of a net point beside the match equity: decides between actions that leave
the chance of winning the game the same (a game already won, or lost)."""
_LAID_CACHE_SIZE = 1 << 14
_PLAYED, _CALLED, _LAID = log_codes(PLAY), log_codes(BID), log_codes(LAY)
_TURNED = log_codes("turn", False)
"""The engine's log codes (``action_log.log_codes``), for a determinization's log."""


class _Tally:
    """The fields ``MinnesotaWhistDeal.points`` reads, for a deal's hypothetical end."""

    __slots__ = ("grand", "grander", "side_tricks", "variant")

    def __init__(self, state: MinnesotaWhistDeal, side0: int) -> None:
        self.side_tricks = [side0, 13 - side0]
        self.grand = state.grand
        self.grander = state.grander
        self.variant = state.variant


_BYTE_CARDS = tuple(
    tuple(tuple(8 * k + b for b in range(8) if m >> b & 1) for m in range(256)) for k in range(7)
)
"""Per byte ``k`` of a card mask and its value, the cards it holds in ascending order."""


def _deck(initial: list[int], dealer: int) -> list[int]:
    """A deck that deals ``initial`` one card at a time from the dealer's left (each
    seat's cards in ascending order). The engine keeps the deck but never reads it
    again; it is built so the state is one a real deal could be (a hand to its cards a
    byte at a time: a loop over 52 bits would be most of ``determinize``'s time)."""
    deck = [0] * 52
    t0, t1, t2, t3, t4, t5, t6 = _BYTE_CARDS
    for offset in range(PLAYERS):
        b = initial[(dealer + 1 + offset) & 3].to_bytes(7, "little")
        deck[offset::PLAYERS] = (
            t0[b[0]] + t1[b[1]] + t2[b[2]] + t3[b[3]] + t4[b[4]] + t5[b[5]] + t6[b[6]]
        )
    return deck


def _winning_index(trick: tuple[int, ...]) -> int:
    """Index of the card that takes a complete trick at no trumps: the highest of the suit led."""
    lead = SUIT_MASKS[trick[0] // 13]
    best = 0
    for i in range(1, PLAYERS):
        if lead >> trick[i] & 1 and trick[i] > trick[best]:
            best = i
    return best


class MinnesotaWhistModel:
    """The ``SearchModel`` of Minnesota Whist (see the module docstring)."""

    game = "minnesota_whist"

    def __init__(self, policy: RolloutPolicy | None = None) -> None:
        self._policy = policy
        self._policies: list[Any] | None = None
        self._laid_cache: dict[tuple, int] = {}

    def with_policy(self, policy: RolloutPolicy) -> MinnesotaWhistModel:
        """This game's model with ``policy`` in every seat of its roll-outs and laying
        the unturned cards."""
        return MinnesotaWhistModel(policy)

    @property
    def policy(self) -> RolloutPolicy:
        """The roll-out policy: the one given, else the registry's default (on first use)."""
        if self._policy is None:
            self._policy = default_policy(self.game)
        return self._policy

    # -- determinize ---------------------------------------------------------------
    def determinize(self, view: MinnesotaWhistView, world: World, rng: Random) -> DealState:
        """A fresh deal at ``view``'s decision point holding ``world``'s cards."""
        seat = view.seat
        if not view.legal:
            raise ValueError(f"the view of seat {seat} is not a decision point (no legal action)")
        hands = list(world.hands)
        if len(hands) != PLAYERS or hands[seat] != view.hand:
            raise ValueError(f"the world does not give seat {seat} the hand of its view")
        dealer = view.dealer
        phase = view.phase

        # plays, and what each seat held at the deal
        log: list[int] = []  # log codes (action_log)
        initial = hands[:]
        plays: list[int] = []
        for record in view.tricks:
            who = record.leader
            for card in record.cards:
                initial[who] |= 1 << card
                plays.append(_PLAYED[who][card])
                who = (who + 1) & 3
        who = view.leader
        for card in view.trick:
            initial[who] |= 1 << card
            plays.append(_PLAYED[who][card])
            who = (who + 1) & 3

        laid = [-1, -1, -1, -1]
        if view.variant.bid == "spoken":
            log = [_CALLED[s][call] for s, call in view.calls]
        else:
            for s, card in view.turned:
                laid[s] = card
            if view.laid >= 0:
                laid[seat] = view.laid
            for k in range(view.laid_count):
                s = (dealer + 1 + k) & 3
                if laid[s] < 0:
                    laid[s] = self._laid_card(view, s, k, initial[s], rng)
                log.append(_LAID[s][laid[s]])
            log += [_TURNED[s][card] for s, card in view.turned]
        log += plays

        state = MinnesotaWhistDeal.__new__(MinnesotaWhistDeal)
        state.game = game_for(MinnesotaWhist, view.variant)
        state.variant = view.variant
        state.seed = -1
        state.dealer = dealer
        state.deck = _deck(initial, dealer)
        state.score_before = view.score
        state.initial_hands = tuple(initial)
        state.hands = hands
        state.laid = laid
        state.laid_count = view.laid_count
        state.turned = view.turned
        state.calls = view.calls
        state.grander = view.grander
        state.grand = view.grand
        state.bidding_over = phase == PLAY
        state.codes = log
        state.trick = view.trick
        state.tricks = view.tricks
        state.side_tricks = [view.side_tricks[0], view.side_tricks[1]]
        state.side_view = view.side_tricks
        state.leader = view.leader
        state.to_act = seat
        state.phase = phase
        state.legal = view.legal
        state._outcome = None
        return state

    def _laid_card(
        self, view: MinnesotaWhistView, seat: int, order: int, hand: int, rng: Random
    ) -> int:
        """The card the roll-out policy lays from ``hand`` as the ``order``-th to lay.

        Memoised (the policy is deterministic): search determinizes the same world once
        per candidate action, so most calls repeat one. The memo is dropped when full.
        """
        dealer = view.dealer
        key = (hand, seat, dealer, view.score, view.variant)
        card = self._laid_cache.get(key)
        if card is None:
            at_lay = MinnesotaWhistView(
                seat, LAY, hand, hand, dealer, -1, order, (), (), -1, False,
                (dealer + 1) & 3, (), (), (0, 0), view.score, view.variant,
            )
            card = self.policy.choose(at_lay, rng)
            if len(self._laid_cache) >= _LAID_CACHE_SIZE:
                self._laid_cache.clear()
            self._laid_cache[key] = card
        return card

    # -- results -------------------------------------------------------------------
    def candidate_actions(self, view: Any) -> list[int] | None:
        """Laying a card: one black and one red (the lowest of each), else None.

        Only the colour of the laid card bids (black grands, red passes); it stays in
        the hand either way, so valuing every card of a colour would repeat one
        simulation. In other phases the search's own candidates apply.
        """
        if view.phase != LAY:
            return None
        black = view.legal & (SUIT_MASKS[0] | SUIT_MASKS[3])
        red = view.legal & (SUIT_MASKS[1] | SUIT_MASKS[2])
        return sorted((mask & -mask).bit_length() - 1 for mask in (black, red) if mask)

    def payoffs(self, state: DealState) -> tuple[float, ...]:
        """Each seat's value of the finished deal: its side's match equity after it."""
        side0 = self._value(state, state.points())  # type: ignore[attr-defined]
        return (side0, -side0, side0, -side0)

    def _value(self, state: DealState, points: tuple[int, int]) -> float:
        """Side 0's value of a deal scoring ``points``: 2 x its match equity after the
        deal - 1, plus ``NET_TIE_BREAK`` per net point (zero-sum: side 1's is minus it)."""
        before = state.score_before
        chance = equity(state.variant).chance(before[0] + points[0], before[1] + points[1])
        return 2 * chance - 1 + NET_TIE_BREAK * (points[0] - points[1])

    def rollout_policies(self, state: DealState) -> list[Any]:
        """The roll-out policy for every seat (one shared, stateless, deterministic instance)."""
        policies = self._policies
        if policies is None:
            policies = self._policies = [self.policy] * PLAYERS
        return policies

    def exact_values(self, state: DealState, seat: int, max_cards: int,
                     solve: Callable[..., int]) -> dict[int, float] | None:
        """Payoff to ``seat`` of each legal card under open-card perfect play, or None."""
        if state.phase != PLAY or state.to_act != seat:
            return None
        hands = state.hands
        if max(h.bit_count() for h in hands) > max_cards:
            return None
        objective = "most" if state.grand else "none"
        trick = state.trick
        leader = state.leader
        won = state.side_tricks[0]
        side = seat & 1
        net_of: dict[int, float] = {}
        values: dict[int, float] = {}
        legal = state.legal
        while legal:
            low = legal & -legal
            legal ^= low
            card = low.bit_length() - 1
            after = hands[:]
            after[seat] &= ~low
            played = (*trick, card)
            if len(played) < PLAYERS:
                side0 = won + solve(after, leader, NO_TRUMP, SIDES, objective, played)
            else:
                winner = (leader + _winning_index(played)) & 3
                side0 = won + (1 if winner % 2 == 0 else 0)
                if after[winner]:
                    side0 += solve(after, winner, NO_TRUMP, SIDES, objective, ())
            if side0 not in net_of:
                points = MinnesotaWhistDeal.points(_Tally(state, side0))  # type: ignore[arg-type]
                value = self._value(state, points)
                net_of[side0] = value if side == 0 else -value
            values[card] = net_of[side0]
        return values


MODEL = MinnesotaWhistModel()
"""The model ``whist_sim.search.model_for`` returns for Minnesota Whist views."""
