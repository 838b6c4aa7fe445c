"""Telling strategies where a match stands: the two calls around each deal, and a match loop
that makes them.

A ``ProcessStrategy`` finds the start of each deal by itself (``play_deal`` hands each
seat a new generator per deal), but only the match loop knows the hand's number and
the match state, and only it sees the outcome. Two duck-typed calls carry them to any
strategy that has the methods (others are left alone):

- ``announce_deal(strategies, hand, match)`` before each deal: ``begin_deal``;
- ``announce_result(strategies, outcome)`` after it: ``end_deal``.

``play_match_announced`` is ``whist_sim.play.play_match`` with those two calls added:
the loop to use until ``play_match`` makes them itself (the same two lines), and the
reference of where they go.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from whist_sim.games.base import DealOutcome, Game, MatchState
from whist_sim.play import PlayedDeal, deal_identity, hand_seed, play_deal, takes_deal
from whist_sim.protocol.match_info import match_summary


def _listening(strategies: Sequence[Any], method: str) -> list[Any]:
    """Each strategy with ``method``, once (an entrant seated twice hears it once)."""
    seen: dict[int, Any] = {}
    for strategy in strategies:
        if callable(getattr(strategy, method, None)):
            seen.setdefault(id(strategy), strategy)
    return list(seen.values())


def announce_deal(strategies: Sequence[Any], hand: int, match: MatchState,
                  deal: int | None = None) -> None:
    """Before hand ``hand`` of ``match`` is played: its number and the match state, and
    ``deal``, the deal's identity (``play.deal_identity`` of its seed), for a strategy
    whose ``begin_deal`` takes it (a bot's: kept by the engine's side, never sent, so that
    no process is given a deal one of the bot's processes has played)."""
    summary: Mapping[str, Any] | None = match_summary(match)
    for strategy in _listening(strategies, "begin_deal"):
        if deal is not None and takes_deal(strategy.begin_deal):
            strategy.begin_deal(hand=hand, match=summary, deal=deal)
        else:
            strategy.begin_deal(hand=hand, match=summary)


def announce_result(strategies: Sequence[Any], outcome: DealOutcome) -> None:
    """After a deal: how it ended."""
    for strategy in _listening(strategies, "end_deal"):
        strategy.end_deal(outcome)


def play_match_announced(
    game: Game,
    strategies: Sequence[Any],
    match_seed: int,
    *,
    time_limit: float | None = None,
    on_error: str = "forfeit",
) -> tuple[list[PlayedDeal], dict[str, tuple]]:
    """``play_match`` (seeded hands) with ``announce_deal`` and ``announce_result`` around
    each deal: the same deals, the same seeds, the same results."""
    match = game.new_match()
    played: list[PlayedDeal] = []
    while (dealer := match.next_dealer()) is not None:
        hand = len(played)
        seed = hand_seed(match_seed, hand)
        announce_deal(strategies, hand, match, deal_identity(seed))
        deal = play_deal(game, strategies, seed, dealer,
                         time_limit=time_limit, on_error=on_error,
                         context=match.deal_context())
        announce_result(strategies, deal.outcome)
        match.record(deal.outcome)
        played.append(deal)
    return played, match.result()
