"""Finishing orders of a run: who finished ahead of whom in each hand or game, per game.

The input of ``inference.plackett_luce``. Each function takes one of the run's
tables as a LazyFrame (``RunFolder.scan``, or a tiny fixture with the same
columns) and returns one LazyFrame with one row per seat of a finishing order:

- ``unit``: the finishing order (a hand's ``deal_key``, or a game's
  ``pairing-deal-rotation``);
- ``deal``: its deal index, the cluster a bootstrap resamples (every line-up
  and seating of a deal index plays the same cards);
- ``strategy``, ``place`` (1 best; equal places tie) and ``players`` (seats
  at the table).

What a unit is and what ranks it, game by game:

- German Whist: each hand, by the seat's ``net`` (higher is better; equal
  net is a tie). With two seats this is the hand's result, so Plackett-Luce
  reduces to the Bradley-Terry of the generic report.
- Solo Whist: each hand, by ``net``. A contract splits the table into the
  declarer (with a Cop partner) and the defenders, who all win or pay the
  same, so they tie; a throw-in (everyone passed) leaves all four level.
- Minnesota Whist: each game to ``target`` (one ``matches`` row per seat),
  by ``result``: the winning partnership's two seats tie for first, the
  other two tie for second, and a drawn game (equal final scores) ties all
  four. A hand is not the unit: a game is what a partnership sets out to
  win, and its hands are played on one deal index anyway.
- Knock-out Whist: each game, by ``placing`` (1 for the winner, then by the
  round a player went out in; players out in the same round share a place).
  A forfeited game has no placings: the forfeiter is last and everyone else
  ties for first, which is how the game scores it (the forfeiter pays, the
  others share a draw). Such a game tells the fit only that the forfeiter did
  worst, like a forfeit counting as a loss everywhere else in the report.

:func:`observed_win_share` and :func:`lineup_games` give what a report needs to
set the fitted first-place shares beside the observed ones in Knock-out Whist.
"""

from __future__ import annotations

import polars as pl

from whist_sim.reports.stats import ratio_aggs, with_rate_bounds, with_ratio_interval

ORDER_COLUMNS = ("unit", "deal", "strategy", "place", "players")
"""Columns of every finishing-order frame."""


def _by_net(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Each hand (``deal_key``) ranked by seat ``net``: higher first, equal net tied."""
    return seats.select(
        pl.col("deal_key").alias("unit"),
        pl.col("deal").cast(pl.Int64),
        "strategy",
        pl.col("net").rank("min", descending=True).over("deal_key").cast(pl.Int64)
        .alias("place"),
        pl.len().over("deal_key").cast(pl.Int64).alias("players"),
    )


def german_whist_orders(seats: pl.LazyFrame) -> pl.LazyFrame:
    """German Whist finishing orders: each hand, its two seats by ``net``."""
    return _by_net(seats)


def solo_whist_orders(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Solo Whist finishing orders: each hand by seat ``net``; seats paid alike (a side) tie."""
    return _by_net(seats)


def minnesota_whist_orders(matches: pl.LazyFrame) -> pl.LazyFrame:
    """Minnesota Whist finishing orders: each game (a ``matches`` match), winners tied first.

    The winning partnership's two seats share place 1 and the losers place 2;
    in a drawn game all four share place 1.
    """
    game = ("pairing", "deal", "rotation")
    return matches.select(
        pl.format("{}-{}-{}", *game).alias("unit"),
        pl.col("deal").cast(pl.Int64),
        "strategy",
        pl.when(pl.col("result") == "loss").then(2).otherwise(1).cast(pl.Int64).alias("place"),
        pl.len().over(game).cast(pl.Int64).alias("players"),
    )


def knockout_whist_orders(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Knock-out Whist finishing orders: each game by ``placing``; a forfeiter last, others tied.

    A forfeited game (its placings are null) puts every seat but the
    forfeiter (``result == "forfeit"``) at place 1 and the forfeiter at the
    last place, the table size.
    """
    players = pl.len().over("deal_key").cast(pl.Int64)
    forfeited = pl.col("placing").is_null().any().over("deal_key")
    place = (
        pl.when(~forfeited).then(pl.col("placing").cast(pl.Int64))
        .when(pl.col("result") == "forfeit").then(players)
        .otherwise(1)
    )
    return seats.select(
        pl.col("deal_key").alias("unit"),
        pl.col("deal").cast(pl.Int64),
        "strategy",
        place.alias("place"),
        players.alias("players"),
    )


def observed_win_share(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Knock-out Whist: per strategy and table size, the share of its player-games it won.

    ``seats`` is the Knock-out ``seats`` table. Columns: strategy, players
    (table size), games (player-games: seats held, so A B A B counts two per
    game), wins, win_share with ``_lo``/``_hi`` (pooled ratio with a 95%
    interval over deal indices, as in ``reports.knockout_whist``), fair_share
    (1 / players: an average seat's share), deals. Forfeited games are left
    out: nobody wins them.
    """
    played = seats.filter(pl.col("placing").is_not_null().all().over("deal_key"))
    per_deal = (
        played.with_columns(players=pl.len().over("deal_key").cast(pl.Int64))
        .group_by("strategy", "players", "deal")
        .agg(pl.len().cast(pl.Int64).alias("games"),
             (pl.col("placing") == 1).sum().cast(pl.Int64).alias("wins"))
    )
    return (
        per_deal.group_by("strategy", "players")
        .agg(pl.col("games").sum(), pl.col("wins").sum(),
             pl.len().cast(pl.Int64).alias("deals"),
             *ratio_aggs("win_share", pl.col("wins"), pl.col("games")))
        .with_columns(*with_ratio_interval("win_share"))
        .with_columns(*with_rate_bounds("win_share"), fair_share=1.0 / pl.col("players"))
        .select("strategy", "players", "games", "wins", "win_share", "win_share_lo",
                "win_share_hi", "fair_share", "deals")
        .sort("players", "strategy")
    )


def lineup_games(seats: pl.LazyFrame) -> pl.LazyFrame:
    """The line-ups the run's played games were seated from, and how many games each had.

    Columns: players (table size), lineup (the strategies at the table,
    sorted: seat order does not matter to a first-place share), games.
    Forfeited games are left out, as in :func:`observed_win_share`, so the two
    count the same games.
    """
    played = seats.filter(pl.col("placing").is_not_null().all().over("deal_key"))
    return (
        played.group_by("deal_key")
        .agg(pl.col("strategy").sort().alias("lineup"))
        .group_by("lineup")
        .agg(pl.len().cast(pl.Int64).alias("games"))
        .with_columns(players=pl.col("lineup").list.len().cast(pl.Int64))
        .select("players", "lineup", "games")
        .sort("players", pl.col("lineup").list.join(" "))
    )
