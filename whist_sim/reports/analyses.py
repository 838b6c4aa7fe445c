"""Analyses every game shares: each is LazyFrames in, one LazyFrame out.

Inputs are the run's tables as ``RunFolder.scan(table)`` gives them (or any
LazyFrame with the same columns, e.g. a tiny fixture). Nothing here collects:
the caller runs one ``collect()`` per question.

The unit of inference is the DUPLICATE PAIR: a (pairing, deal) played under
every seat rotation, so each side held each set of cards once. A strategy's
outcome in a pair is its mean over all its seats and hands in that pair; means
and 95% t-intervals are then taken over pairs (``pairs`` columns count them).
Hands inside a pair share their cards and are never treated as independent.

How results count:
- a win is ``result == "win"``; a draw counts in the draw rate, and as half a
  win in head-to-head shares and Bradley-Terry;
- a forfeit is a loss by the largest score the variant allows (the game scores
  it so), and it is also counted on its own in :func:`forfeits`.

Head-to-head and pairwise comparisons compare two seats of one hand by ``net``
points: the higher net wins, equal net is a draw. For two-player games this is
exactly the hand's result; for more seats it compares every two seats held by
different strategies.
"""

from __future__ import annotations

import polars as pl

from whist_sim.reports.stats import mean_ci_aggs, with_t_interval, with_wilson_interval

PAIR = ("pairing", "deal")
"""Columns naming a duplicate pair."""

HAND_ORDER = ("deal", "pairing", "rotation", "hand")
"""Play order of hands, for "first" of anything."""


def _outcome_flags(seats: pl.LazyFrame) -> pl.LazyFrame:
    return seats.with_columns(
        win=(pl.col("result") == "win").cast(pl.Float64),
        draw=(pl.col("result") == "draw").cast(pl.Float64),
        forfeit=(pl.col("result") == "forfeit").cast(pl.Float64),
        net=pl.col("net").cast(pl.Float64),
    )


def over_pairs(
    per_pair: pl.LazyFrame, keys: list[str], means: dict[str, str], sums: tuple[str, ...] = ()
) -> pl.LazyFrame:
    """Group per-pair rows by ``keys``: mean and 95% t-interval over pairs of each column.

    ``means`` maps a per-pair column to the name of its mean in the output;
    ``hands`` and the columns in ``sums`` are added up.
    """
    return (
        per_pair.group_by(keys)
        .agg(
            pl.col("hands").sum().cast(pl.Int64),
            pl.len().cast(pl.Int64).alias("pairs"),
            *[agg for column, name in means.items() for agg in mean_ci_aggs(column, name)],
            *[pl.col(column).sum().cast(pl.Int64) for column in sums],
        )
        .with_columns(*[e for name in means.values() for e in with_t_interval(name)])
        .select(
            *keys,
            "hands",
            "pairs",
            *[c for name in means.values() for c in (name, f"{name}_lo", f"{name}_hi")],
            *sums,
        )
    )


def standings(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: hands, win rate, draw rate, mean net points per hand, each with a 95% CI.

    Columns: strategy, hands, pairs, win_rate(_lo/_hi), draw_rate(_lo/_hi),
    net(_lo/_hi), forfeits. First every duplicate pair is reduced to the
    strategy's mean over its seats and hands in that pair; the means and
    t-intervals are over those pairs. Sorted best mean net first.
    """
    per_pair = (
        _outcome_flags(seats)
        .group_by([*PAIR, "strategy"])
        .agg(
            pl.len().alias("hands"),
            pl.col("win").mean(),
            pl.col("draw").mean(),
            pl.col("net").mean(),
            pl.col("forfeit").sum().alias("forfeits"),
        )
    )
    return over_pairs(
        per_pair,
        ["strategy"],
        {"win": "win_rate", "draw": "draw_rate", "net": "net"},
        sums=("forfeits",),
    ).sort(["net", "strategy"], descending=[True, False])


def seat_pairs(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Every ordered pair of seats of one hand held by different strategies.

    Columns: deal_key, pairing, deal, strategy, opponent, net (the strategy's),
    share (1 if its net beat the opponent's, 0.5 if equal, 0 if lower).
    """
    own = seats.select("deal_key", *PAIR, "seat", "strategy", pl.col("net").cast(pl.Float64))
    other = seats.select(
        "deal_key",
        pl.col("seat").alias("opponent_seat"),
        pl.col("strategy").alias("opponent"),
        pl.col("net").cast(pl.Float64).alias("opponent_net"),
    )
    return (
        own.join(other, on="deal_key")
        .filter(pl.col("strategy") != pl.col("opponent"))
        .with_columns(
            share=pl.when(pl.col("net") > pl.col("opponent_net"))
            .then(1.0)
            .when(pl.col("net") == pl.col("opponent_net"))
            .then(0.5)
            .otherwise(0.0)
        )
        .select("deal_key", *PAIR, "strategy", "opponent", "net", "share")
    )


def head_to_head(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Row strategy against column strategy: win share and mean net, with 95% CIs.

    Columns: strategy, opponent, hands, pairs, share(_lo/_hi), net(_lo/_hi).
    ``share`` counts a draw as half a win; ``net`` is the row strategy's mean net
    points per hand against that opponent. Means and intervals are over the
    duplicate pairs in which the two met. Both directions are listed
    (share(A, B) = 1 - share(B, A) in two-player games).
    """
    per_pair = (
        seat_pairs(seats)
        .group_by([*PAIR, "strategy", "opponent"])
        .agg(pl.len().alias("hands"), pl.col("share").mean(), pl.col("net").mean())
    )
    return (
        over_pairs(per_pair, ["strategy", "opponent"], {"share": "share", "net": "net"})
        .sort(["strategy", "opponent"])
    )


def pairwise_results(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Wins of each strategy over each other one, per deal index: the Bradley-Terry input.

    Columns: deal, strategy, opponent, wins (a draw is half a win each way),
    hands. Kept per deal index so that ``stats.bradley_terry`` can bootstrap
    over deals.
    """
    return (
        seat_pairs(seats)
        .group_by(["deal", "strategy", "opponent"])
        .agg(pl.col("share").sum().alias("wins"), pl.len().cast(pl.Int64).alias("hands"))
        .sort(["deal", "strategy", "opponent"])
    )


def dealer_effect(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy, win rate as dealer and as non-dealer, with 95% Wilson intervals.

    Columns: strategy, role ("dealer"/"non-dealer"), hands, wins, win_rate(_lo/_hi).
    Wilson treats the hands as independent. In duplicate play a strategy deals
    one of the two hands of a two-player pair (single-hand matches), so its
    dealer hands come from different pairs; hands of different line-ups on the
    same deal index still share cards, which the interval ignores.
    """
    return (
        _outcome_flags(seats)
        .with_columns(
            role=pl.when(pl.col("is_dealer")).then(pl.lit("dealer")).otherwise(pl.lit("non-dealer"))
        )
        .group_by(["strategy", "role"])
        .agg(
            pl.len().cast(pl.Int64).alias("hands"),
            pl.col("win").sum().cast(pl.Int64).alias("wins"),
        )
        .with_columns(win_rate=pl.col("wins") / pl.col("hands"))
        .with_columns(*with_wilson_interval("win_rate", "hands"))
        .sort(["strategy", "role"])
    )


def points_distribution(seats: pl.LazyFrame) -> pl.LazyFrame:
    """How often each net score per hand occurred, per strategy.

    Columns: strategy, net, hands, share (of the strategy's hands).
    """
    return (
        seats.group_by(["strategy", pl.col("net").cast(pl.Float64)])
        .agg(pl.len().cast(pl.Int64).alias("hands"))
        .with_columns(share=pl.col("hands") / pl.col("hands").sum().over("strategy"))
        .sort(["strategy", "net"])
    )


def forfeits(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: hands, forfeits, forfeit rate and the first error it raised.

    Columns: strategy, hands, forfeits, forfeit_rate, first_error, first_deal_key.
    A seat forfeits when its strategy raised, made an illegal move or ran out of
    time; "first" is in play order (deal, pairing, rotation, hand). Strategies
    that never forfeited are listed with 0.
    """
    hands = seats.group_by("strategy").agg(pl.len().cast(pl.Int64).alias("hands"))
    errors = deals.select("deal_key", "error")
    failed = (
        seats.filter(pl.col("result") == "forfeit")
        .join(errors, on="deal_key", how="left")
        .group_by("strategy")
        .agg(
            pl.len().cast(pl.Int64).alias("forfeits"),
            pl.col("error").sort_by(list(HAND_ORDER)).first().alias("first_error"),
            pl.col("deal_key").sort_by(list(HAND_ORDER)).first().alias("first_deal_key"),
        )
    )
    return (
        hands.join(failed, on="strategy", how="left")
        .with_columns(pl.col("forfeits").fill_null(0))
        .with_columns(forfeit_rate=pl.col("forfeits") / pl.col("hands"))
        .select("strategy", "hands", "forfeits", "forfeit_rate", "first_error", "first_deal_key")
        .sort(["forfeits", "strategy"], descending=[True, False])
    )
