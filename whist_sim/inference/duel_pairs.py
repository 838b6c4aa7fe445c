"""One number per duplicate pair of a duel: what the sequential test of A against B reads.

A duel seats two entrants, A and B, in the round robin's line-ups of two
(German Whist: A B; four seats: A B A B; Minnesota Whist: partnership A A against
B B; Knock-out Whist at an odd table: A B A and B A B). The unit is the DEAL
INDEX: every line-up and seating of one deal index played the same cards, so
together they are one duplicate pair (a duplicate set) whose luck of the cards
cancels, and different deal indices are independent.

The value of a pair, per game (``whist_sim.inference.model_for`` gives the model
that reads it; docs/statistics.md):

- German Whist: A's share of the pair's matches (a single hand is a match of
  one), a win 1 and a draw 1/2: 0, 1/4, 1/2, 3/4 or 1 over the two seatings, the
  pentanomial of paired games.
- Knock-out Whist: A's share of the pair's games won. A game that a seat of B
  forfeited counts as won by A, and one A forfeited as won by B, as a forfeit is
  a loss everywhere else in whist_sim.
- Solo and Minnesota Whist: A's mean net per seat and hand over the pair (points
  per hand; in these zero-sum line-ups, A's margin over B).

Every function takes LazyFrames of the run's tables (or of one task's rows) and
returns one; nothing is collected here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

NET_GAMES = frozenset({"solo_whist", "minnesota_whist"})
"""Games whose duel is tested on net points rather than on results."""


def pair_unit(game: str, variant: Mapping[str, Any]) -> str:
    """What a German Whist duel's pair values are shares of: a hand, or a match under a
    best-of-N ``match`` variant (the verdict said "per hand" of values computed per
    match). Every other game's pair is read per hand or per game as its model says."""
    if game == "german_whist" and variant.get("match", "single") not in ("single", None):
        return "match"
    return "hand"


def largest_net(game: str, variant: Mapping[str, Any]) -> float | None:
    """The run's ``Variant.largest_net`` from its recorded game and variant (None for a
    game not tested on net points): what a report's duel reads pairs that all agree
    against, as the run's own test did."""
    if game not in NET_GAMES:
        return None
    from whist_sim.games import make_game  # the games, only where a net duel is read

    return make_game(game, variant).variant.largest_net()


def duel_pair_values(
    seats: pl.LazyFrame, matches: pl.LazyFrame, a: str, game: str
) -> pl.LazyFrame:
    """Per deal index: ``deal``, ``value`` (see the module docstring) and ``games`` (the
    matches or games, for Solo and Minnesota the seat-hands of A, it averages over)."""
    if game == "german_whist":
        return _match_shares(matches, a)
    if game == "knockout_whist":
        return _game_shares(seats, a)
    if game in NET_GAMES:
        return _mean_net(seats, a)
    raise ValueError(f"no duel pair value for game {game!r}")


def _match_shares(matches: pl.LazyFrame, a: str) -> pl.LazyFrame:
    score = (
        pl.when(pl.col("result") == "win").then(1.0)
        .when(pl.col("result") == "draw").then(0.5)
        .otherwise(0.0)
    )
    return (
        matches.filter(pl.col("strategy") == a)
        .group_by("deal")
        .agg(score.mean().alias("value"), pl.len().cast(pl.Int64).alias("games"))
        .sort("deal")
    )


def _game_shares(seats: pl.LazyFrame, a: str) -> pl.LazyFrame:
    mine = pl.col("strategy") == a
    per_game = seats.group_by("deal_key", "deal").agg(
        a_won=(mine & (pl.col("result") == "win")).any(),
        b_won=(~mine & (pl.col("result") == "win")).any(),
        a_forfeited=(mine & (pl.col("result") == "forfeit")).any(),
        b_forfeited=(~mine & (pl.col("result") == "forfeit")).any(),
    )
    score = (
        pl.when(pl.col("a_won")).then(1.0)
        .when(pl.col("b_won")).then(0.0)
        .when(pl.col("b_forfeited") & ~pl.col("a_forfeited")).then(1.0)
        .when(pl.col("a_forfeited") & pl.col("b_forfeited")).then(0.5)  # both benched
        .otherwise(0.0)
    )
    return (
        per_game.group_by("deal")
        .agg(score.mean().alias("value"), pl.len().cast(pl.Int64).alias("games"))
        .sort("deal")
    )


def _mean_net(seats: pl.LazyFrame, a: str) -> pl.LazyFrame:
    return (
        seats.filter(pl.col("strategy") == a)
        .group_by("deal")
        .agg(pl.col("net").cast(pl.Float64).mean().alias("value"),
             pl.len().cast(pl.Int64).alias("games"))
        .sort("deal")
    )
