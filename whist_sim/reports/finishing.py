"""Finishing orders of a run: who finished ahead of whom in each hand or game, per game.

The input of ``inference.plackett_luce``. Each function takes one of the run's
tables as a LazyFrame (``RunFolder.scan``, or a tiny fixture with the same
columns) and returns one LazyFrame with one row per seat of a finishing order:

- ``unit``: the finishing order (a hand's ``deal_key``, or a game's
  ``pairing-deal-rotation``);
- ``deal``: its deal index, the cluster a bootstrap resamples (every line-up
  and seating of a deal index plays the same cards);
- ``strategy``, ``place`` (1 best; equal places tie) and ``players`` (seats
  at the table);
- ``undecided``: true for every seat of a hand or game a forfeit stopped
  (``inference.plackett_luce``). Such a unit has no finishing order: all it
  tells is that the seat that forfeited did not win it. That seat is ranked
  last, the others first, and the fit reads one event from it, "the winner
  was one of the others", where a tie for first would say the others played
  level. The forfeiting entrant's other seat (a line-up such as A B A B seats
  it twice) is left out: it neither lost nor could have won, as the verdict's
  share of games won and head to head count it.

What a unit is and what ranks it, game by game:

- German Whist: each hand, by the seat's ``net`` (higher is better; equal
  net is a tie). With two seats this is the hand's result, so Plackett-Luce
  reduces to the Bradley-Terry of the generic report.
- Solo Whist: each hand, by ``net``. A contract splits the table into the
  declarer (with a Cop partner) and the defenders, who all win or pay the
  same, so they tie; a throw-in (everyone passed) leaves all four level. A
  forfeited hand is undecided, though the forfeit pays every other seat
  alike.
- Minnesota Whist: each game to ``target`` (one ``matches`` row per seat),
  by ``result``: the winning partnership's two seats tie for first, the
  other two tie for second, and a drawn game (equal final scores) ties all
  four. A hand is not the unit: a game is what a partnership sets out to
  win, and its hands are played on one deal index anyway.
- Knock-out Whist: each game, by ``placing`` (1 for the winner, then by the
  round a player went out in; players out in the same round share a place).
  A forfeited game has no placings, and is undecided: the game scores the
  others as drawn, but it stopped before any of them won.

:func:`observed_win_share` and :func:`lineup_games` give what a report needs to
set the fitted first-place shares beside the observed ones in Knock-out Whist.
"""

from __future__ import annotations

import polars as pl

from whist_sim.reports.stats import ratio_aggs, with_rate_bounds, with_ratio_interval

ORDER_COLUMNS = ("unit", "deal", "strategy", "place", "players", "undecided")
"""Columns of every finishing-order frame."""


_KEPT = "_kept"
"""A seat :func:`_undecided_if_forfeited` keeps in its order."""


def _by_net(seats: pl.LazyFrame, forfeits_undecided: bool) -> pl.LazyFrame:
    """Each hand (``deal_key``) ranked by seat ``net``: higher first, equal net tied; with
    ``forfeits_undecided``, a forfeited hand as :func:`_undecided_if_forfeited` ranks it."""
    by_net = pl.col("net").rank("min", descending=True).over("deal_key").cast(pl.Int64)
    return seats.select(
        pl.col("deal_key").alias("unit"),
        pl.col("deal").cast(pl.Int64),
        "strategy",
        *(_undecided_if_forfeited(by_net) if forfeits_undecided
          else [by_net.alias("place"), pl.lit(False).alias("undecided"),
                pl.lit(True).alias(_KEPT)]),
        pl.len().over("deal_key").cast(pl.Int64).alias("players"),
    ).filter(_KEPT).select(ORDER_COLUMNS)


def _undecided_if_forfeited(place: pl.Expr) -> list[pl.Expr]:
    """``place``, ``undecided`` and :data:`_KEPT` of a seat whose hand or game is ranked by
    ``place`` when played out. In one a forfeit stopped, the seat that forfeited is last,
    the others first, and the unit is undecided; the forfeiting entrant's other seats (a
    line-up such as A B A B seats it twice) are not kept. Where every seat forfeited (a
    table of benched entrants) all are last, which tells nothing."""
    forfeit = pl.col("result") == "forfeit"
    stopped = forfeit.any().over("deal_key")
    last = pl.len().over("deal_key").cast(pl.Int64)
    return [
        pl.when(~stopped).then(place).when(forfeit).then(last)
        .otherwise(pl.lit(1, pl.Int64)).alias("place"),
        stopped.alias("undecided"),
        (~stopped | forfeit | ~forfeit.any().over("deal_key", "strategy")).alias(_KEPT),
    ]


def german_whist_orders(seats: pl.LazyFrame) -> pl.LazyFrame:
    """German Whist finishing orders: each hand, its two seats by ``net`` (a forfeiter's
    net is the lower: at two seats a forfeit is an ordinary loss)."""
    return _by_net(seats, forfeits_undecided=False)


def solo_whist_orders(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Solo Whist finishing orders: each hand by seat ``net``; seats paid alike (a side) tie;
    a forfeited hand undecided."""
    return _by_net(seats, forfeits_undecided=True)


def minnesota_whist_orders(matches: pl.LazyFrame) -> pl.LazyFrame:
    """Minnesota Whist finishing orders: each game (a ``matches`` match), winners tied first.

    The winning partnership's two seats share place 1 and the losers place 2;
    in a drawn game all four share place 1. A forfeit loses the forfeiter's side its hand
    by the target, so its game is decided, and lost by the partner too: a partnership is
    the unit here, as in the game.
    """
    game = ("pairing", "deal", "rotation")
    return matches.select(
        pl.format("{}-{}-{}", *game).alias("unit"),
        pl.col("deal").cast(pl.Int64),
        "strategy",
        pl.when(pl.col("result") == "loss").then(2).otherwise(1).cast(pl.Int64).alias("place"),
        pl.len().over(game).cast(pl.Int64).alias("players"),
        pl.lit(False).alias("undecided"),
    )


def knockout_whist_orders(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Knock-out Whist finishing orders: each game by ``placing``; a forfeited game (its
    placings are null) undecided, the seat that forfeited last."""
    return seats.select(
        pl.col("deal_key").alias("unit"),
        pl.col("deal").cast(pl.Int64),
        "strategy",
        *_undecided_if_forfeited(pl.col("placing").cast(pl.Int64)),
        pl.len().over("deal_key").cast(pl.Int64).alias("players"),
    ).filter(_KEPT).select(ORDER_COLUMNS)


def observed_win_share(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Knock-out Whist: per strategy and table size, the share of its player-games it won.

    ``seats`` is the Knock-out ``seats`` table. Columns: strategy, players
    (table size), games (player-games: seats held, so A B A B counts two per
    game), wins, win_share with ``_lo``/``_hi`` (pooled ratio with a 95%
    interval over deal indices, as in ``reports.knockout_whist``), fair_share
    (1 / players: an average seat's share), deals. A forfeited game counts as lost by
    the seat that forfeited it and is left out for the others (:func:`counted_seats`),
    as the verdict's share of games won and the ratings count it.
    """
    per_deal = (
        counted_seats(seats)
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


def with_stopped(seats: pl.LazyFrame) -> pl.LazyFrame:
    """``seats`` with ``stopped``: whether a forfeit stopped the seat's hand (one of its
    seats forfeited). A join with the few hands a forfeit stopped, not a window over
    every hand: the window cost a million-hand German report 1.5 to 2 s (of 14)."""
    stopped = (seats.filter(pl.col("result") == "forfeit").select("deal_key").unique()
               .with_columns(stopped=pl.lit(True)))
    return (seats.join(stopped, on="deal_key", how="left")
            .with_columns(pl.col("stopped").fill_null(False)))


def counted_seats(seats: pl.LazyFrame) -> pl.LazyFrame:
    """The Knock-out seats whose games count towards a share of games won, with
    ``players`` (table size): every seat of a game played out, and the seat that forfeited
    a game (it lost it). The others in a forfeited game are left out: the forfeit stopped
    them before the game had a winner. One definition for the verdict's share
    (``comparisons.knockout_shares``) and the ratings' observed one."""
    return (with_stopped(seats.with_columns(players=pl.len().over("deal_key").cast(pl.Int64)))
            .filter(~pl.col("stopped") | (pl.col("result") == "forfeit"))
            .drop("stopped"))


def lineup_games(seats: pl.LazyFrame) -> pl.LazyFrame:
    """The line-ups the run's games were seated from, and each strategy's seat-games there.

    Columns: players (table size), lineup (the strategies at the table,
    sorted: seat order does not matter to a first-place share), strategy,
    seat_games (its seats counted there, :func:`counted_seats`, as in
    :func:`observed_win_share`, so the two count the same seat-games).
    """
    lineups = seats.group_by("deal_key").agg(pl.col("strategy").sort().alias("lineup"))
    return (
        counted_seats(seats).join(lineups, on="deal_key")
        .group_by("lineup", "strategy")
        .agg(pl.len().cast(pl.Int64).alias("seat_games"))
        .with_columns(players=pl.col("lineup").list.len().cast(pl.Int64))
        .select("players", "lineup", "strategy", "seat_games")
        .sort("players", pl.col("lineup").list.join(" "), "strategy")
    )
