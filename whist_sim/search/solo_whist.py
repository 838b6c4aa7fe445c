"""The search model of Solo Whist: determinized deals, net units, heuristic roll-outs, solver.

``MODEL`` (a ``SoloWhistModel``) is what PIMC / ISMCTS use to search a Solo Whist
decision; see ``whist_sim.search.model`` for the protocol.

Determinizing. A Solo deal has no randomness after the shuffle and no draws, so a
decision point is fully described by the public history in the view (the auction,
the trump named, the tricks and the current trick) plus the four current hands of
the world. ``determinize`` builds a real ``SoloWhistDeal`` with ``__new__`` and sets
every attribute the engine keeps, each derived from the view or the world:

- copied from the view: dealer, upcard, bids, passed, contract, declarer, partner,
  trump, leader, trick, tricks, tricks won, phase, legal; ``to_act`` is the viewing
  seat (a view is a decision point only for the seat to act: ``legal`` is 0 for the
  others, and such a view is refused);
- recomputed from the bids as ``_call`` keeps them: the auction's level, the holders
  of the highest call and whether the Prop was copped (used only by the auction, but
  set so a copy in the "bid" phase goes on exactly like the real deal);
- ``exposed`` (the Spread Misère hand is on the table): the engine sets it when the
  first trick of a Spread Misère completes, so it is exactly that;
- the log, rebuilt call by call, trump naming and card by card (every entry of a
  Solo log is a chosen public action);
- hands from the world; the hands as dealt (``initial_hands``) are the world's hands
  plus the cards each seat has played, and ``deck`` is a deck that deals them (the
  order of cards within a seat's hand is unknowable and irrelevant: the deck is a
  record the engine never reads after dealing), with the upcard the dealer's last;
- ``seed`` is -1, the engine's mark of a hand-built deal (``deal_from_layout``): the
  deal is not dealt from any seed, and Solo Whist draws no randomness later, so
  nothing needs an rng-drawn seed and nothing of the real seed can leak.

The session (``session_hands``, ``target``) does not change how a deal is scored:
``SoloWhist.new_deal`` takes no match context and ``SoloWhistSession`` adds up each
deal's ``net`` unchanged, so the view's variant is all the scoring needs.

Speed. Search calls ``determinize`` thousands of times with the same view and new
worlds, so everything that depends on the view only (the fields above, the rebuilt
log, the cards each seat played) is computed once per view object and kept (the last
view, compared by identity; views are immutable). A call then costs a new object,
one dict update, fresh mutable lists and the deck (listed byte by byte): about 4-6 µs
on the development machine, 15-20 µs when the view is new (measured over 1,145
decision points of 20 deals, CPython 3.11).

Worlds that fit the auction. ``sample_world`` draws worlds from
``whist_sim.sampling.sample_world`` and keeps the first in which the roll-out policy's
bidder (the heuristic's ``call_for``), holding each other seat's hand as dealt, makes
every call that seat made (up to ``CALL_TRIES`` draws, else the world fitting most
calls); a policy without ``call_for`` gets uniform worlds. Uniform worlds ignore the
auction: a proposer gets an average hand, and a seat deciding whether to Cop saw the
partnership make its eight tricks in 40-80% of the roll-outs where 26 of 27 such
Cops were made (200 seeds). The opponents the search meets
may bid otherwise; the roll-outs assume the heuristic anyway.

Roll-out policy. ``MODEL`` plays its roll-outs with the default roll-out policy, the
strategy registered as ``heuristic`` (``whist_sim.search.policy``), and
``with_policy`` gives a model with another; this module imports no strategy.

Exact values. In card play the rest of a Solo deal is a contest between the
declarer's side (the declarer, and the Cop partner in Prop and Cop, wherever the
partner sits) and the others, in the contract's trumps (none in the misères). The
payoff grows with the side's tricks: without overtricks only making the contract
counts, with overtricks each trick over (or under) the target moves it one unit the
same way, so maximising the side's tricks (objective "most"), or minimising them in
the misères ("none"), is the exact minimax of the payoffs, whether or not play stops
once the contract is decided. The side's final tricks (those already won plus the
solver's) are turned into every seat's net units by the engine's own scoring
(``SoloWhistDeal._score``) run on a finished twin of the deal, cached per contract.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from whist_sim.cards import iter_cards
from whist_sim.games.action_log import encode_log
from whist_sim.games.base import DealState, TrickRecord
from whist_sim.games.solo_whist import (
    BID,
    CONTRACTS,
    NAME_TRUMP,
    NO_CALL_YET,
    PASS,
    PLAY,
    PLAYERS,
    TRUMP,
    SoloWhist,
    SoloWhistDeal,
    SoloWhistView,
    after_call,
    legal_calls,
)
from whist_sim.sampling import World, sample_world
from whist_sim.search.model import game_for
from whist_sim.search.policy import RolloutPolicy, default_policy
from whist_sim.tricks import winning_index

_NAMED_TRUMP_RULES = ("named_other", "named_any")
"""Contract trump rules under which the declarer names trumps (a logged action)."""
CALL_TRIES = 12
"""Worlds drawn at most for one that fits every call of the auction (``sample_world``)."""


class SoloWhistModel:
    """``SearchModel`` of Solo Whist (see the module docstring for the choices)."""

    game = SoloWhist.name

    def __init__(self, policy: RolloutPolicy | None = None) -> None:
        self._last: tuple[SoloWhistView, dict[str, Any], tuple[int, ...], list] | None = None
        self._last_calls: tuple[SoloWhistView, list[tuple[int, int, int, bool]]] | None = None
        self._net_tables: dict[tuple, tuple[tuple[float, ...], ...]] = {}
        self._policy = policy
        self._policies: list[Any] | None = None

    def with_policy(self, policy: RolloutPolicy) -> SoloWhistModel:
        """This game's model with ``policy`` in every seat of its roll-outs."""
        return SoloWhistModel(policy)

    @property
    def policy(self) -> RolloutPolicy:
        """The roll-out policy: the one given, else the registry's default (on first use)."""
        if self._policy is None:
            self._policy = default_policy(self.game)
        return self._policy

    # -- determinizing -----------------------------------------------------------------
    def determinize(self, view: SoloWhistView, world: World, rng: Random) -> SoloWhistDeal:
        """A fresh deal at ``view``'s decision point holding ``world``'s hands.

        ``rng`` is not drawn from: nothing in Solo Whist is random after the deal.
        """
        fields, played, log = self._public_of(view)
        hands = world.hands
        if len(hands) != PLAYERS or hands[view.seat] != view.hand:
            raise ValueError(
                f"the world's hands do not fit seat {view.seat}'s view: four hands are needed"
                " and the seat's own must be its view's hand"
            )
        dealt = (
            hands[0] | played[0], hands[1] | played[1],
            hands[2] | played[2], hands[3] | played[3],
        )
        state = SoloWhistDeal.__new__(SoloWhistDeal)
        state.__dict__.update(fields)
        state.hands = list(hands)
        state.initial_hands = dealt
        state.deck = _deck(dealt, view.dealer, view.upcard)
        state.codes = log.copy()
        state.passed = list(view.passed)
        state.won = list(view.tricks_won)
        return state

    def _public_of(self, view: SoloWhistView) -> tuple[dict[str, Any], tuple[int, ...], list]:
        """``_public(view)``, kept for the last view: a decision asks for it per world."""
        last = self._last
        if last is not None and last[0] is view:
            return last[1], last[2], last[3]
        fields, played, log = self._public(view)
        self._last = (view, fields, played, log)
        return fields, played, log

    def _public(self, view: SoloWhistView) -> tuple[dict[str, Any], tuple[int, ...], list]:
        """What a determinized deal takes from ``view`` alone: immutable engine fields,
        the cards each seat has played, and the log so far."""
        if not view.legal:
            raise ValueError(
                f"seat {view.seat}'s view is not a decision point of that seat (no legal"
                " action): determinize the view of the seat to act"
            )
        variant = view.variant
        game = game_for(SoloWhist, variant)
        auction = NO_CALL_YET
        log: list[tuple[int, str, int, bool]] = []
        for seat, call in view.bids:
            log.append((seat, BID, call, True))
            auction = after_call(auction, seat, call)
        level, holders, copped = auction
        contract = CONTRACTS[view.contract] if view.contract >= 0 else None
        if view.phase == PLAY and contract is not None and (
            contract.trump in _NAMED_TRUMP_RULES or (view.upcard < 0 and contract.trump == "upcard")
        ):
            log.append((view.declarer, TRUMP, NAME_TRUMP + view.trump, True))
        played = [0, 0, 0, 0]
        for record in view.tricks:
            seat = record.leader
            for card in record.cards:
                log.append((seat, PLAY, card, True))
                played[seat] |= 1 << card
                seat = (seat + 1) % PLAYERS
        seat = view.leader
        for card in view.trick:
            log.append((seat, PLAY, card, True))
            played[seat] |= 1 << card
            seat = (seat + 1) % PLAYERS
        fields = {
            "game": game,
            "variant": variant,
            "seed": -1,
            "dealer": view.dealer,
            "upcard": view.upcard,
            "bids": view.bids,
            "level": level,
            "holders": holders,
            "copped": copped,
            "contract": view.contract,
            "declarer": view.declarer,
            "partner": view.partner,
            "trump": view.trump,
            "trick": view.trick,
            "tricks": view.tricks,
            "exposed": (
                contract is not None and contract.name == "spread_misere"
                and len(view.tricks) >= 1
            ),
            "leader": view.leader,
            "phase": view.phase,
            "to_act": view.seat,
            "legal": view.legal,
            "_outcome": None,
        }
        return fields, tuple(played), encode_log(log)

    # -- worlds that fit the auction ---------------------------------------------------
    def sample_world(self, view: SoloWhistView, rng: Random) -> World:
        """A world for ``view`` in which the other seats' calls are, as far as
        ``CALL_TRIES`` draws allow, those the heuristic bidder makes with their hands.

        Every world comes from ``whist_sim.sampling.sample_world`` (uniform over the
        deals the view allows); this keeps the first whose dealt hands would have made
        every call the other seats made (a Prop from a hand worth a Prop, a pass from
        one that would not bid), or else the one of ``CALL_TRIES`` that fits most calls.
        Uniform worlds give a proposer or a Solo declarer an average hand: the search
        then thinks a Cop partner weak, and an opponent's contract easy to beat.
        """
        calls = self._calls(view)
        call_for = getattr(self.policy, "call_for", None)
        if not calls or call_for is None:
            return sample_world(view, rng)
        played = self._public_of(view)[1]
        upcard = view.upcard
        best, best_misses = None, PLAYERS * 13
        for _ in range(CALL_TRIES):
            world = sample_world(view, rng)
            hands = world.hands
            misses = 0
            for seat, call, legal, eldest in calls:
                if call_for(hands[seat] | played[seat], upcard, legal, eldest) != call:
                    misses += 1
                    if misses >= best_misses:
                        break  # no better than the best so far: the rest cannot matter
            if misses == 0:
                return world
            if misses < best_misses:
                best, best_misses = world, misses
        return best

    def _calls(self, view: SoloWhistView) -> list[tuple[int, int, int, bool]]:
        """The other seats' calls, each with the calls then legal and whether the seat
        was eldest (kept for the last view). Bids come before passes: a sampled hand
        misses a bid far more often than a pass, and ``sample_world`` stops checking a
        world as soon as it cannot beat the best one (the order changes no result)."""
        last = self._last_calls
        if last is not None and last[0] is view:
            return last[1]
        eldest = (view.dealer + 1) % PLAYERS
        auction = NO_CALL_YET
        calls = []
        for seat, call in view.bids:
            if seat != view.seat:
                calls.append((seat, call, legal_calls(view.variant, auction, seat),
                              seat == eldest))
            auction = after_call(auction, seat, call)
        calls.sort(key=lambda entry: entry[1] == PASS)
        self._last_calls = (view, calls)
        return calls

    # -- values ------------------------------------------------------------------------
    def payoffs(self, state: DealState) -> tuple[float, ...]:
        """Each seat's net units of the finished deal (what it pays or receives)."""
        return state.outcome().net

    def declared_made(self, state: DealState, seat: int) -> bool | None:
        """Did ``seat``'s side make its contract? None if ``seat`` did not declare one.

        The declarer and, in Prop and Cop, its partner are the declaring side. Used by
        simulated bidding to keep to contracts it expects to make (``min_make``).
        """
        facts = state.outcome().facts
        if seat not in (facts["declarer"], facts["partner"]):
            return None
        return bool(facts["made"])

    def rollout_policies(self, state: DealState) -> list[Any]:
        """The roll-out policy in every seat (one stateless, deterministic instance: the
        heuristic keeps no state between calls and ignores the rng)."""
        policies = self._policies
        if policies is None:
            policies = self._policies = [self.policy] * PLAYERS
        return policies

    def exact_values(self, state: SoloWhistDeal, seat: int, max_cards: int,
                     solve: Callable[..., int]) -> dict[int, float] | None:
        """Net units to ``seat`` of each legal card with every hand open and perfect play.

        None outside card play or while a hand holds more than ``max_cards`` cards.
        """
        if state.phase != PLAY:
            return None
        if seat != state.to_act:
            raise ValueError(f"seat {seat} is not to act (seat {state.to_act} is)")
        hands = state.hands
        if max(h.bit_count() for h in hands) > max_cards:
            return None
        contract = CONTRACTS[state.contract]
        trump = state.trump
        side = (state.declarer, state.partner)
        sides = [0 if s in side else 1 for s in range(PLAYERS)]
        objective = "none" if contract.misere else "most"
        nets = self._net_table(state)
        won = state.declarer_tricks()
        leader = state.leader
        values: dict[int, float] = {}
        for card in iter_cards(state.legal):
            after = list(hands)
            after[seat] &= ~(1 << card)
            trick = (*state.trick, card)
            if len(trick) < PLAYERS:
                taken = solve(after, leader, trump, sides, objective, trick)
            else:
                winner = (leader + winning_index(trick, trump)) % PLAYERS
                taken = 1 - sides[winner]
                if after[winner]:
                    taken += solve(after, winner, trump, sides, objective, ())
            values[card] = nets[won + taken][seat]
        return values

    def _net_table(self, state: SoloWhistDeal) -> tuple[tuple[float, ...], ...]:
        """Every seat's net units when the declarer's side ends with 0..13 tricks.

        Computed by the engine's own ``_score`` on a finished twin of the deal (the
        side's tricks on the declarer, the rest on a defender, thirteen tricks played),
        since the score depends on nothing else; cached per variant and contract.
        """
        key = (state.variant, state.contract, state.declarer, state.partner)
        table = self._net_tables.get(key)
        if table is None:
            defender = next(s for s in range(PLAYERS) if s not in (state.declarer, state.partner))
            played = tuple(TrickRecord(n, -1, (), -1) for n in range(1, 14))
            rows = []
            for taken in range(14):
                twin = SoloWhistDeal.__new__(SoloWhistDeal)
                won = [0] * PLAYERS
                won[state.declarer] = taken
                won[defender] = 13 - taken
                twin.__dict__.update(
                    variant=state.variant, contract=state.contract, declarer=state.declarer,
                    partner=state.partner, won=won, tricks=played, bids=state.bids,
                )
                rows.append(twin._score().net)
            table = self._net_tables[key] = tuple(rows)
        return table


_BYTE_CARDS = tuple(
    tuple(tuple(8 * i + j for j in range(8) if byte >> j & 1) for byte in range(256))
    for i in range(7)
)
"""Per byte ``i`` of a card mask and its value: the cards it holds. Listing a hand by
its seven bytes is several times faster than walking its bits one by one."""
_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _BYTE_CARDS


def _cards(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first."""
    b = mask.to_bytes(7, "little")
    return [*_B0[b[0]], *_B1[b[1]], *_B2[b[2]], *_B3[b[3]], *_B4[b[4]], *_B5[b[5]], *_B6[b[6]]]


def _deck(dealt: tuple[int, ...], dealer: int, upcard: int) -> list[int]:
    """A deck that deals ``dealt`` one card at a time from the dealer's left, the upcard
    (if any) the dealer's last card."""
    deck = [0] * 52
    for k in range(PLAYERS):
        cards = _cards(dealt[(dealer + 1 + k) % PLAYERS])
        if k == PLAYERS - 1 and upcard >= 0:
            cards.remove(upcard)
            cards.append(upcard)
        deck[k::PLAYERS] = cards
    return deck


MODEL = SoloWhistModel()
"""The Solo Whist search model (``whist_sim.search.model.MODELS`` points here)."""
