"""Play deals and matches: ask each seat's strategy, apply its choice, nothing more.

The loop hands a strategy ``state.view(seat)`` (never the state) and the seat's
seeded generator. A strategy that raises, returns an illegal action or exceeds
its time budget forfeits the deal (``on_error="forfeit"``) or stops everything
(``on_error="abort"``, raising ``StrategyFailure``).
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from whist_sim.budget import DecisionTimeout, decision_clock
from whist_sim.games.base import DealOutcome, DealState, Game, RuleError, WhistSimError
from whist_sim.rng import derive_seed, splitmix64, strategy_rng

ON_ERROR = ("forfeit", "abort")


class StrategyFailure(WhistSimError, RuntimeError):
    """A strategy failed and ``on_error = "abort"`` asked to stop."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.message = message

    def __reduce__(self):  # so Ray can carry it from a worker back to the driver
        return (type(self), (self.seat, self.message))


@dataclass
class PlayedDeal:
    """A finished deal: its seed, dealer, final state (for logs and records) and outcome."""

    seed: int
    dealer: int
    state: DealState
    outcome: DealOutcome


def seat_seed(deal_seed: int, seat: int) -> int:
    """Seed of the generator the strategy in ``seat`` gets for this deal.

    A SplitMix64 step rather than a hash: it runs for every seat of every deal.
    """
    return splitmix64(deal_seed ^ (0xA5A5_0000 + seat))


def play_deal(
    game: Game,
    strategies: Sequence[Any],
    seed: int,
    dealer: int = 0,
    *,
    time_limit: float | None = None,
    on_error: str = "forfeit",
    context: dict[str, Any] | None = None,
) -> PlayedDeal:
    """Play one deal of ``game`` with ``strategies[seat]`` in each seat."""
    state = game.new_deal(seed, dealer, **(context or {}))
    rngs = [strategy_rng(seat_seed(seed, seat)) for seat in range(game.players)]
    choosers = [strategy.choose for strategy in strategies]
    seat = state.to_act
    try:
        if time_limit is None:
            while seat >= 0:
                state.apply(choosers[seat](state.view(seat), rngs[seat]))
                seat = state.to_act
        else:
            with decision_clock(time_limit) as clock:
                while seat >= 0:
                    state.apply(clock.call(seat, choosers[seat], state.view(seat), rngs[seat]))
                    seat = state.to_act
    except Exception as exc:  # any failure of a strategy is the seat's forfeit
        message = _describe(seat, exc)
        if on_error == "abort":
            raise StrategyFailure(seat, message) from exc
        return PlayedDeal(seed, dealer, state, state.forfeit(seat, message))
    return PlayedDeal(seed, dealer, state, state.outcome())


def _describe(seat: int, exc: BaseException) -> str:
    if isinstance(exc, (RuleError, DecisionTimeout)):
        return f"{type(exc).__name__}: {exc}"
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return (
        f"seat {seat} strategy raised {type(exc).__name__}: {exc}"
        f" (at {where.filename}:{where.lineno})"
    )


def hand_seed(match_seed: int, hand: int) -> int:
    """Seed of hand ``hand`` of a match: the same for every pairing that plays it."""
    return derive_seed(match_seed, "hand", hand)


def play_match(
    game: Game,
    strategies: Sequence[Any],
    match_seed: int,
    *,
    time_limit: float | None = None,
    on_error: str = "forfeit",
) -> tuple[list[PlayedDeal], dict[str, tuple]]:
    """Play deals until the game's match rules say the match is decided."""
    match = game.new_match()
    played: list[PlayedDeal] = []
    while (dealer := match.next_dealer()) is not None:
        deal = play_deal(
            game,
            strategies,
            hand_seed(match_seed, len(played)),
            dealer,
            time_limit=time_limit,
            on_error=on_error,
            context=match.deal_context(),
        )
        match.record(deal.outcome)
        played.append(deal)
    return played, match.result()
