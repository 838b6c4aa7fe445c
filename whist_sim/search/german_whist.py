"""German Whist for search: determinized states, payoffs, roll-out players, exact stage 2.

``MODEL`` is the ``SearchModel`` (see ``whist_sim.search.model``) of German Whist;
``stage2_best_card(view, solve)`` is the exact stage-2 play a ``solver`` strategy uses.

Choices, and why:

- ``determinize`` builds the engine's own ``GermanWhistDeal`` with ``__new__`` and sets
  every attribute the engine reads from now on, taking each from the view (public
  history, own hand, counts) or from the world (the opponent's hand, the face-down
  stock). Replaying the history is impossible (the view does not say which face-up
  card was taken at which trick, nor what the opponent drew face down) and would be
  slower. It takes about 1.5 µs a call (measured on a shared 2-core machine; the test
  only bounds it at 100 µs).
- What the copy cannot know is marked, not invented: the deal's past (``deck``,
  ``initial_hands``) is None and the stock positions already used are ``-1``
  (``stock`` keeps its full length of 26 because the engine counts positions in it:
  ``next_stock = 26`` ends stage 1); ``log`` starts empty at the decision point; the
  opponent's face-down draws so far are unknown (its ``drawn`` starts at 0, its later
  draws are recorded as usual). So ``deal_record`` and ``trick_facts``, which describe
  a real deal's past, do not apply to a copy; play, views and scoring do. The view the
  acting seat gets from the copy equals its real view field by field; the opponent's
  view differs only in ``drawn``.
- ``seed`` is -1 (the engine's mark for a deal not shuffled from a seed): German Whist
  draws nothing at random once dealt, so the copy needs no randomness and ``rng`` is
  not used.
- ``payoffs``: 1 for a won hand, 0.5 drawn, 0 lost (a forfeit is a loss), plus
  ``MARGIN_WEIGHT`` (0.05) times (own net - opponent's net). A win's margin is
  positive and a loss's negative, so every win is still worth more than any draw
  and every draw more than any loss. The two payoffs add up to 1. The margin breaks
  ties between stage-2 cards that all win or all lose (``exact_values``); roll-outs
  that reach stage 2 are valued by the result alone (``exact_payoffs`` below): over
  the same 200 seeds a margin weight of 0.05 and of 0.000001 won equally often.
- ``exact_values``: stage 2 is a two-player trick contest with every card known in a
  determinized state, and the final payoff is a non-decreasing function of the tricks
  the seat takes in the rest of the deal (stage-1 tricks and stage-2 tricks so far are
  fixed; every ``count`` scores more tricks at least as well; the margin tie-break
  grows with them). Minimax commutes with a non-decreasing function of the result, so
  the payoff of best play is that function of the solver's trick count. The function
  is the engine's own scoring applied to the final trick counts.
- ``race_to``: the hand stops when a seat reaches N counted units, so the result may
  depend on the order in which tricks fall, not only on how many each seat takes.
  When the two seats cannot both reach N in the rest of the deal (whatever the split
  of the tricks left), the first to reach N is the only one who ever does, stopping
  early changes nothing, and the result is again a non-decreasing function of the
  seat's tricks: the solver applies. When both could reach N ("a real race"),
  ``exact_values`` returns None, and ``stage2_best_card`` searches the race itself
  (``_RaceSearch``: who first wins the tricks it needs; exact, memoised).
- ``exact_payoffs`` (where a roll-out stops, at the start of stage 2) values the hand by
  its result alone, 1 / 0.5 / 0, without the margin: the result changes at one or two
  trick counts, so one or two zero-window tests settle it
  (``whist_sim.solver.takes_at_least``), about a third of the cost of the exact count
  each; the solver took three quarters of the time of the slowest hand of
  ``benchmarks/search_speed.py``. Without the margin ``pimc`` won as often (55.25% of
  the same 200 hands, by a patch of its weight), and a whole hand took about two
  thirds of the time. It keeps the value of each stage-2 start it meets (up to
  ``SOLVED_LIMIT`` of them, then it starts afresh): roll-outs from different worlds and
  candidate cards often reach the same start (12% of the solves in that slowest hand).
- ``rollout_policies``: one roll-out policy for both seats: ``MODEL``'s is the strategy
  registered as ``heuristic`` (``GermanHeuristic`` with its default parameters, found
  through the strategy registry: ``whist_sim.search.policy``; this module imports no
  strategy), ``with_policy`` gives a model with another. It keeps no state between
  calls (it is deterministic and reads only the view).
- ``compiled_rollout``: with the compiled solver, a roll-out through stage 1 is one
  numba call (``whist_sim.search.german_rollout``, the same cards as the heuristic's),
  its stage-2 start valued as ``exact_payoffs`` values it. In Python the heuristic's
  decisions and the engine's moves were about 60% of a hand's time. Only for the
  heuristic the compiled copy mirrors (``german_rollout.stage1_tables``); another
  policy's roll-outs are played in Python.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from random import Random
from typing import Any

from whist_sim.cards import FULL_DECK, SUIT_MASKS
from whist_sim.games.base import DealOutcome
from whist_sim.games.german_whist import (
    PLAY,
    TAKE,
    GermanWhist,
    GermanWhistDeal,
    GermanWhistVariant,
    GermanWhistView,
)
from whist_sim.sampling import World
from whist_sim.search.model import game_for
from whist_sim.search.policy import RolloutPolicy, default_policy
from whist_sim.solver import solve, solve_fast, takes_at_least, takes_at_least_fast
from whist_sim.solver.search import representatives

MARGIN_WEIGHT = 0.05
"""Weight of (own net - opponent's net) added to the 1 / 0.5 / 0 of a hand's result."""

RESULT_VALUE = {"win": 1.0, "draw": 0.5, "loss": 0.0, "forfeit": 0.0}

STOCK_SIZE = 26
"""Cards in the stock at the deal: the engine counts stock positions up to this."""

_UNKNOWN_PAST = (-1,) * STOCK_SIZE
"""Stock positions already turned or drawn: not known to a copy (see the module doc)."""

_PHASES = {PLAY: PLAY, TAKE: TAKE}
"""The engine compares phases by identity, so the copy uses the engine's own strings."""

SOLVED_LIMIT = 20_000
"""Stage-2 starts whose value ``exact_payoffs`` keeps (then it starts afresh)."""
_SOLVED: dict[tuple, float] = {}
"""(hands, leader, trump, trick, tricks won so far, variant, solver) -> seat 0's value of
the result of best play from there (``exact_payoffs``)."""


class GermanWhistModel:
    """The ``SearchModel`` of German Whist (see the module docstring for the choices)."""

    game = GermanWhist.name

    def __init__(self, policy: RolloutPolicy | None = None) -> None:
        self._policy = policy
        self._policies: list[Any] | None = None

    def with_policy(self, policy: RolloutPolicy) -> GermanWhistModel:
        """This game's model with ``policy`` at both seats of its roll-outs."""
        return GermanWhistModel(policy)

    @property
    def policy(self) -> RolloutPolicy:
        """The roll-out policy: the one given, else the registry's default (on first use)."""
        if self._policy is None:
            self._policy = default_policy(self.game)
        return self._policy

    def determinize(self, view: GermanWhistView, world: World, rng: Random) -> GermanWhistDeal:
        """A fresh deal at ``view``'s decision point holding the world's hidden cards."""
        seat = view.seat
        if not view.legal:
            raise ValueError(
                f"seat {seat}'s view is not a decision point (phase {view.phase!r},"
                " nothing to play): determinize the view of the seat to act"
            )
        hands = list(world.hands)
        if hands[seat] != view.hand:
            raise ValueError(f"the world's hand of seat {seat} differs from its view")
        stock = world.stock
        if len(stock) != view.facedown_left:
            raise ValueError(
                f"the world's stock has {len(stock)} cards but the view shows"
                f" {view.facedown_left} face down"
            )
        variant = view.variant
        state = GermanWhistDeal.__new__(GermanWhistDeal)
        state.game = game_for(GermanWhist, variant)
        state.variant = variant
        state.deck = None
        state.seed = -1
        state.dealer = view.dealer
        state.initial_hands = None
        state.hands = hands
        used = STOCK_SIZE - len(stock)
        state.stock = _UNKNOWN_PAST[:used] + tuple(stock)
        state.next_stock = used
        state.upcard = view.upcard
        state.trump = view.trump
        state.faceup = view.faceup
        state.stage = view.stage
        state.leader = view.leader
        state.to_act = seat
        state.phase = _PHASES[view.phase]
        state.legal = view.legal
        state.trick = view.trick
        state.tricks = view.tricks
        state.trick_no = len(view.tricks)
        state.won1 = view.stage1_tricks
        state.won2 = view.stage2_tricks
        state.race_to = variant.race_to
        state.taken_faceup = view.taken_faceup
        state.drawn = [view.drawn, 0] if seat == 0 else [0, view.drawn]
        state.codes = []  # the log (CodedLog): it starts empty here
        state.race_winner = -1
        state._outcome = None
        return state

    def payoffs(self, state: GermanWhistDeal) -> tuple[float, float]:
        """Per seat: 1 / 0.5 / 0 for the hand won / drawn / lost, plus the margin tie-break."""
        return outcome_payoffs(state.outcome())

    def rollout_policies(self, state: GermanWhistDeal) -> list[Any]:
        """The roll-out policy for both seats (deterministic, stateless)."""
        policies = self._policies
        if policies is None:
            policies = self._policies = [self.policy, self.policy]
        return policies

    def exact_values(self, state: GermanWhistDeal, seat: int, max_cards: int,
                     solve: Callable[..., int]) -> dict[int, float] | None:
        """Each legal card's payoff to ``seat`` by the solver, in stage 2; otherwise None."""
        if state.phase is not PLAY or state.stage != 2:
            return None
        if state.to_act != seat:
            raise ValueError(f"exact_values for seat {seat}, but seat {state.to_act} is to act")
        hands = state.hands
        if hands[0].bit_count() > max_cards or hands[1].bit_count() > max_cards:
            return None
        ending = ending_for(state.variant, state.won1, state.won2, seat)
        if ending.real_race:
            return None
        return ending.card_values(hands, state.trick, state.trump, state.legal, solve)

    def exact_payoffs(self, state: GermanWhistDeal, max_cards: int,
                      solve: Callable[..., int]) -> tuple[float, float] | None:
        """Both seats' values of perfect play from ``state``, in stage 2; otherwise None.

        A roll-out that reaches stage 2 stops here: the rest of the hand is a game of
        perfect information, which is what a card-counting opponent plays. The value is
        the hand's result only (1 won, 0.5 drawn, 0 lost; no margin), which one or two
        zero-window tests settle (``_Ending.result_value``).
        """
        if state.stage != 2 or state.to_act < 0:
            return None
        hands = state.hands
        if hands[0].bit_count() > max_cards or hands[1].bit_count() > max_cards:
            return None
        first = _result_of_best_play(hands, state.leader, state.trump, state.trick, state.won1,
                                     state.won2, state.variant, solve)
        return None if first is None else (first, 1.0 - first)

    def compiled_rollout(self, max_cards: int, solve: Callable[..., int]
                         ) -> Callable[[GermanWhistDeal], tuple[float, float] | None] | None:
        """``state -> payoffs``: a roll-out played in one compiled call, or None if none fits.

        With the compiled solver and roll-outs that stop at the start of stage 2
        (``max_cards`` 13 or more), stage 1 is played by ``german_rollout.play_stage1``
        (the heuristic at both seats, as ``rollout_policies``, compiled) and the start of
        stage 2 valued as ``exact_payoffs`` values it: the same payoffs as ``play_out``
        with the leaf of ``exact_payoffs``. The function returns None for a state it
        does not cover (already in stage 2, or a variant ``play_stage1`` leaves to
        Python); the pure-Python solver keeps the pure-Python roll-outs, and so does a
        roll-out policy the compiled copy does not mirror (``stage1_tables``).
        """
        if solve is not solve_fast or max_cards < 13:
            return None
        from whist_sim.search.german_rollout import stage1_start, stage1_tables

        policy = self.policy
        tables = stage1_tables(policy)
        if tables is None:
            return None

        def rollout(state: GermanWhistDeal) -> tuple[float, float] | None:
            start = stage1_start(state, policy, tables)
            if start is None:
                return None
            hands, leader, won1 = start
            first = _result_of_best_play(hands, leader, state.trump, (), won1, (0, 0),
                                         state.variant, solve)
            return None if first is None else (first, 1.0 - first)

        return rollout


def _result_of_best_play(hands: list[int], leader: int, trump: int, trick: tuple[int, ...],
                         won1: tuple[int, int], won2: tuple[int, int],
                         variant: GermanWhistVariant, solve: Callable[..., int]
                         ) -> float | None:
    """Seat 0's value of the hand's result with best play from this stage-2 position
    (``_Ending.result_value``), kept in ``_SOLVED``; None in a real race."""
    key = (hands[0], hands[1], leader, trump, trick, won1, won2, variant, solve)
    first = _SOLVED.get(key)
    if first is None:
        ending = ending_for(variant, won1, won2, 0)
        if ending.real_race:
            return None
        first = ending.result_value(list(hands), leader, trump, trick, solve)
        if len(_SOLVED) >= SOLVED_LIMIT:
            _SOLVED.clear()
        _SOLVED[key] = first
    return first


MODEL = GermanWhistModel()
"""The German Whist ``SearchModel`` (``whist_sim.search.model.model_for`` finds it)."""


def outcome_payoffs(outcome: DealOutcome) -> tuple[float, float]:
    """``payoffs`` of a finished hand's outcome (see the module docstring)."""
    net, result = outcome.net, outcome.result
    margin = MARGIN_WEIGHT * (net[0] - net[1])
    return (RESULT_VALUE[result[0]] + margin, RESULT_VALUE[result[1]] - margin)


def stage2_best_card(view: GermanWhistView, solve: Callable[..., int]) -> int:
    """The stage-2 card with the best payoff for the seat to act, all cards being known.

    The opponent holds exactly the cards neither in our hand nor played. Of equally
    good cards the lowest is returned. Under a real race (both seats could still reach
    ``race_to``) the race is searched exactly instead of calling ``solve``.
    """
    if view.phase != PLAY or view.stage != 2 or not view.legal:
        raise ValueError(
            f"stage2_best_card needs a stage-2 card to play by seat {view.seat}"
            f" (phase {view.phase!r}, stage {view.stage})"
        )
    seat = view.seat
    opp_hand = FULL_DECK & ~view.hand & ~view.played
    hands = [view.hand, opp_hand] if seat == 0 else [opp_hand, view.hand]
    ending = ending_for(view.variant, tuple(view.stage1_tricks), tuple(view.stage2_tricks),
                        seat)
    if ending.real_race:
        values = ending.race_values(hands, view.trick, view.trump, view.legal)
    else:
        values = ending.card_values(hands, view.trick, view.trump, view.legal, solve)
    best = max(values.values())
    return min(card for card, value in values.items() if value == best)


def _counted(variant: GermanWhistVariant, won1: tuple[int, int],
             won2: tuple[int, int]) -> GermanWhistDeal:
    """A bare deal holding only trick counts: enough for the engine's ``units`` and
    ``_score``, so the counting and scoring rules are not written twice."""
    deal = GermanWhistDeal.__new__(GermanWhistDeal)
    deal.variant = variant
    deal.won1 = won1
    deal.won2 = won2
    deal.trick_no = 26
    deal.race_winner = -1
    return deal


_THRESHOLD_TESTS: dict[Callable[..., int], Callable[..., bool]] = {
    solve: takes_at_least, solve_fast: takes_at_least_fast,
}
"""The library's solvers and their one-test twins (``takes_at_least``)."""


def _beats(card: int, led: int, trump: int) -> bool:
    """Does ``card`` played second beat ``led``?"""
    if card // 13 == led // 13:
        return card > led
    return card // 13 == trump


@functools.lru_cache(maxsize=4096)
def ending_for(variant: GermanWhistVariant, won1: tuple[int, int], won2: tuple[int, int],
               seat: int) -> _Ending:
    """The ``_Ending`` of these trick counts, shared: every roll-out of a decision that
    reaches stage 2 meets the same few counts, and an ending's payoffs and results, each
    an engine scoring, are worked out once (they depend on nothing else)."""
    return _Ending(variant, won1, won2, seat)


class _Ending:
    """The rest of a stage-2 hand for ``seat``: its payoff as a function of the tricks left.

    ``won1``/``won2`` are the per-seat stage-1 and stage-2 tricks so far; ``left`` the
    stage-2 tricks still to play (the current one included).
    """

    def __init__(self, variant: GermanWhistVariant, won1: tuple[int, int],
                 won2: tuple[int, int], seat: int) -> None:
        self.variant = variant
        self.won1 = won1
        self.won2 = won2
        self.seat = seat
        self.left = 13 - won2[0] - won2[1]
        self.weight = 2 if variant.count == "weighted" else 1
        now = _counted(variant, won1, won2)
        self.units = (now.units(0), now.units(1))
        race = variant.race_to
        if race is None:
            self.needs = (0, 0)
            self.real_race = False
        else:
            # Stage-2 tricks each seat still needs to reach the race target.
            w = self.weight
            self.needs = tuple(max(0, -(-(race - self.units[s]) // w)) for s in (0, 1))
            self.real_race = self.needs[0] + self.needs[1] <= self.left
        self._payoff: dict[int, float] = {}
        self._results: dict[int, float] = {}

    def payoff(self, tricks: int) -> float:
        """``seat``'s payoff when it takes ``tricks`` of the tricks left (no real race).

        The engine's own scoring (``GermanWhistDeal._score``) on the final counts, so
        the rules of ``count`` and ``race_to`` live in one place.
        """
        value = self._payoff.get(tricks)
        if value is not None:
            return value
        seat = self.seat
        won2 = list(self.won2)
        won2[seat] += tricks
        won2[1 - seat] += self.left - tricks
        # Without a real race the seat that reaches the target (if any) is the only one
        # that ever does and ends with more units, so the engine's end-of-hand
        # comparison (race_winner unset) names the same winner as the race would.
        end = _counted(self.variant, self.won1, (won2[0], won2[1]))
        value = outcome_payoffs(end._score())[seat]
        self._payoff[tricks] = value
        return value

    def result_value(self, hands: list[int], leader: int, trump: int, trick: tuple[int, ...],
                     solve: Callable[..., int]) -> float:
        """``seat``'s value of the hand's result (1 won, 0.5 drawn, 0 lost, no margin) with
        best play by both from this position (no real race).

        The result changes at no more than two trick counts (to a draw, to a win), so
        one zero-window test per change settles it, about a third of the cost of the
        exact count each (``whist_sim.solver.takes_at_least``). A ``solve`` other than
        the library's two (a test's stand-in) is asked for the exact count instead.
        """
        sides = [0, 1] if self.seat == 0 else [1, 0]
        reaches = _THRESHOLD_TESTS.get(solve)
        if reaches is None:
            return self._result_value(solve(hands, leader, trump, sides, "most", trick))
        value = self._result_value(0)
        for tricks in range(1, self.left + 1):
            better = self._result_value(tricks)
            if better == value:
                continue
            if not reaches(hands, leader, trump, sides, "most", trick, tricks):
                break
            value = better
        return value

    def _result_value(self, tricks: int) -> float:
        """``seat``'s value of the result when it takes ``tricks`` of the tricks left."""
        value = self._results.get(tricks)
        if value is None:
            won2 = list(self.won2)
            won2[self.seat] += tricks
            won2[1 - self.seat] += self.left - tricks
            end = _counted(self.variant, self.won1, (won2[0], won2[1]))
            value = self._results[tricks] = RESULT_VALUE[end._score().result[self.seat]]
        return value

    def card_values(self, hands: list[int], trick: tuple[int, ...], trump: int, legal: int,
                    solve: Callable[..., int]) -> dict[int, float]:
        """Payoff to ``seat`` of each legal card, from ``solve``'s count of its tricks."""
        seat = self.seat
        sides = [0, 1] if seat == 0 else [1, 0]
        values: dict[int, float] = {}
        for card, alike in _runs(legal, hands, trick):
            after = list(hands)
            after[seat] &= ~(1 << card)
            if not trick:  # seat leads: the solver takes the trick as begun
                tricks = solve(after, seat, trump, sides, "most", (card,))
            else:  # seat completes the trick: score it, the solver plays on
                winner = seat if _beats(card, trick[0], trump) else 1 - seat
                tricks = solve(after, winner, trump, sides, "most", ()) + (winner == seat)
            value = self.payoff(tricks)
            for same in alike:
                values[same] = value
        return values

    def race_values(self, hands: list[int], trick: tuple[int, ...], trump: int,
                    legal: int) -> dict[int, float]:
        """Payoff to ``seat`` of each legal card when both seats can still win the race."""
        seat = self.seat
        # Someone always reaches the target (needs add up to at most the tricks left),
        # so the hand is won or lost by one point: net +-1.
        win = RESULT_VALUE["win"] + 2 * MARGIN_WEIGHT
        loss = RESULT_VALUE["loss"] - 2 * MARGIN_WEIGHT
        search = _RaceSearch(trump)
        me, other = hands[seat], hands[1 - seat]
        need_me, need_other = self.needs[seat], self.needs[1 - seat]
        values: dict[int, float] = {}
        for card, alike in _runs(legal, hands, trick):
            rest = me & ~(1 << card)
            if trick:
                if _beats(card, trick[0], trump):
                    won = need_me == 1 or search.leader_wins(rest, other, need_me - 1, need_other)
                else:
                    won = need_other != 1 and not search.leader_wins(
                        other, rest, need_other - 1, need_me)
            else:
                won = search.after_lead(card, rest, other, need_me, need_other)
            for same in alike:
                values[same] = win if won else loss
        return values


class _RaceSearch:
    """Exact race between two open hands: does a seat win ``need`` tricks before the other
    wins ``other_need``? Memoised on (leader's hand, follower's hand, needs); one card per
    run of equivalent cards (``representatives``)."""

    def __init__(self, trump: int) -> None:
        self.trump = trump
        self.memo: dict[tuple[int, int, int, int], bool] = {}

    def leader_wins(self, leader: int, follower: int, need: int, other_need: int) -> bool:
        """Does the seat on lead holding ``leader`` win the race, both playing best?"""
        key = (leader, follower, need, other_need)
        found = self.memo.get(key)
        if found is not None:
            return found
        live = leader | follower
        won = any(
            self.after_lead(card, leader & ~(1 << card), follower, need, other_need)
            for card in representatives(leader, live)
        )
        self.memo[key] = won
        return won

    def after_lead(self, card: int, rest: int, follower: int, need: int,
                   other_need: int) -> bool:
        """Does the leader win the race after leading ``card``, the follower answering best?"""
        trump = self.trump
        follow = follower & SUIT_MASKS[card // 13] or follower
        for reply in representatives(follow, rest | follower | 1 << card):
            others = follower & ~(1 << reply)
            if _beats(reply, card, trump):
                if other_need == 1 or self.leader_wins(others, rest, other_need - 1, need):
                    return False
            elif need != 1 and not self.leader_wins(rest, others, need - 1, other_need):
                return False
        return True


def _runs(legal: int, hands: list[int], trick: tuple[int, ...]) -> list[tuple[int, list[int]]]:
    """The legal cards in runs that play alike: (lowest card, every card of the run).

    Two cards of a suit with no card still in play between them (in a hand or on the
    current trick) win and lose the same tricks, so each run is valued once.
    """
    live = hands[0] | hands[1]
    for card in trick:
        live |= 1 << card
    runs: list[tuple[int, list[int]]] = []
    rest = legal
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        below = live & SUIT_MASKS[card // 13] & (low - 1)
        if runs and below and legal >> (below.bit_length() - 1) & 1:
            runs[-1][1].append(card)  # the next live card below is ours: same run
        else:
            runs.append((card, [card]))
    return runs
