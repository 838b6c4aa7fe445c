"""German Whist analyses: contesting the face-up card, and tricks by stage.

In stage 1 the card at stake in each trick lies face up: the trick's winner
takes it. The follower (the seat that did not lead) decides knowing the lead
card, so when it may play a card that beats the lead
(``follower_could_win_legally`` in the ``tricks`` table: a trump only when void in
the suit led) it chooses between

- contesting: winning the trick and taking the face-up card, and
- ducking: losing on purpose, drawing the unknown face-down card instead.

The prize is the card the winner took (``taken``); with ``open_stock = 1`` that
is the single face-up card. A hand ended by ``race_to`` before the take has no
``taken``; the lone face-up card stands in for it, and with several face-up
cards the decision is left out (nothing says which card was at stake).

Gains are ASSOCIATIONS, not effects: a hand in which a strategy contested a
king differs in many ways from one in which it ducked (it held a winner to
spare, for a start), so "mean net when contested minus mean net when ducked"
says what went with contesting, not what contesting caused. Means are over
decisions, so a hand weighs as many times as it had such decisions.

Win rate as dealer and non-dealer and the distribution of net points per hand
are the generic ``analyses.dealer_effect`` and ``analyses.points_distribution``;
every report shows them, German Whist's included.
"""

from __future__ import annotations

import polars as pl

from whist_sim.cards import RANKS
from whist_sim.reports.analyses import PAIR, deal_means, over_pairs_of, pair_moments

RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)}
"""Rank letter -> 0 (two) .. 12 (ace), for sorting and plotting."""


def contest_decisions(
    tricks: pl.LazyFrame, deals: pl.LazyFrame, seats: pl.LazyFrame
) -> pl.LazyFrame:
    """One row per stage-1 trick in which the follower could play a winning card: what it
    chose and how it went.

    Forfeited hands are left out: their result says nothing about the choices.
    Columns: deal_key, pairing, deal, trick, strategy (the follower's), prize
    (card), rank, rank_order, trump_prize (prize is a trump), contested (bool),
    stage2 (the follower's stage-2 tricks in that hand), net (its net points).
    """
    # a choice only where a winning card could be played: ``follower_could_win`` also
    # counted a trump held by a follower bound to follow suit (a loss it could not avoid
    # read as a duck: about 15% of tricks). Rows recorded before the column (null in it)
    # have only the older one.
    names = tricks.collect_schema().names()
    choice = (pl.coalesce("follower_could_win_legally", "follower_could_win")
              if "follower_could_win_legally" in names else pl.col("follower_could_win"))
    follower = (1 - pl.col("leader").cast(pl.Int16)).cast(pl.Int8)
    played = deals.filter(pl.col("status") != "forfeit").select(
        "deal_key", "trump", "stage2_tricks"
    )
    lone_faceup = pl.when(~pl.col("faceup").str.contains(" ")).then(pl.col("faceup"))
    return (
        tricks.filter((pl.col("stage") == 1) & choice.fill_null(False))
        .with_columns(
            follower=follower,
            prize=pl.coalesce(pl.col("taken"), lone_faceup),
        )
        .filter(pl.col("prize").is_not_null())
        .with_columns(contested=pl.col("winner") == pl.col("follower"))
        .join(played, on="deal_key")
        .join(
            seats.select(
                "deal_key", pl.col("seat").alias("follower"), "strategy",
                pl.col("net").cast(pl.Float64),
            ),
            on=["deal_key", "follower"],
        )
        .with_columns(
            rank=pl.col("prize").str.slice(0, 1),
            trump_prize=pl.col("prize").str.slice(1, 1) == pl.col("trump"),
            stage2=pl.col("stage2_tricks").list.get(pl.col("follower").cast(pl.Int64)).cast(
                pl.Float64
            ),
        )
        .with_columns(rank_order=pl.col("rank").replace_strict(RANK_ORDER, return_dtype=pl.Int8))
        .select(
            "deal_key", *PAIR, "trick", "strategy", "prize", "rank", "rank_order",
            "trump_prize", "contested", "stage2", "net",
        )
    )


RANK_KEYS = ("strategy", "trump_prize", "rank_order", "rank")
"""The groups of :func:`contest_by_rank`; :func:`contest_by_suit_type` pools the ranks."""

_SUMMED = tuple(f"{column}_{choice}_{part}" for column in ("stage2", "net")
                for choice in ("contested", "ducked") for part in ("sum", "n"))


def contest_counts(decisions: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy, prize suit type and rank: decisions, contested, and the sums and counts
    of stage-2 tricks and net when contested and when ducked (unsorted). Counts and sums of
    whole numbers add up exactly, so the counts of a run's ranges of deal indices, one
    under the other, give the whole run's summaries (:func:`contest_summary_of`)."""
    contested, ducked = pl.col("contested"), ~pl.col("contested")
    choices = {"contested": contested, "ducked": ducked}
    return decisions.group_by(list(RANK_KEYS)).agg(
        pl.len().cast(pl.Int64).alias("decisions"),
        contested.sum().cast(pl.Int64).alias("contested"),
        *[agg for column in ("stage2", "net") for choice, chose in choices.items()
          for agg in (pl.col(column).filter(chose).sum().alias(f"{column}_{choice}_sum"),
                      pl.col(column).filter(chose).count().cast(pl.Int64)
                      .alias(f"{column}_{choice}_n"))],
    )


def contest_summary_of(counts: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """:func:`contest_by_rank` (``keys`` = :data:`RANK_KEYS`) or :func:`contest_by_suit_type`
    (``["strategy", "trump_prize"]``) from :func:`contest_counts`. A mean is null where
    nothing was counted."""
    def mean(column: str, choice: str) -> pl.Expr:
        n = pl.col(f"{column}_{choice}_n")
        return pl.when(n > 0).then(pl.col(f"{column}_{choice}_sum") / n).alias(
            f"{column}_{choice}")

    return (
        counts.group_by(keys)
        .agg(pl.col("decisions").sum(), pl.col("contested").sum(),
             *[pl.col(name).sum() for name in _SUMMED])
        .with_columns(mean("stage2", "contested"), mean("stage2", "ducked"),
                      mean("net", "contested"), mean("net", "ducked"))
        .with_columns(
            ducked=pl.col("decisions") - pl.col("contested"),
            contest_rate=pl.col("contested") / pl.col("decisions"),
            stage2_gain=pl.col("stage2_contested") - pl.col("stage2_ducked"),
            net_gain=pl.col("net_contested") - pl.col("net_ducked"),
        )
        .select(
            *keys, "decisions", "contested", "ducked", "contest_rate",
            "stage2_contested", "stage2_ducked", "stage2_gain",
            "net_contested", "net_ducked", "net_gain",
        )
        .sort(keys)
    )


def contest_by_rank(decisions: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy, prize suit type and prize rank (2..A): contest rate and what went with it.

    Columns: strategy, trump_prize, rank_order, rank, decisions, contested,
    ducked, contest_rate, stage2_contested, stage2_ducked, stage2_gain,
    net_contested, net_ducked, net_gain. ``*_gain`` is the mean when contested
    minus the mean when ducked (null when either never happened): an
    association, not a causal effect. No interval: decisions of one hand are not
    independent, so counts are given instead.
    """
    return contest_summary_of(contest_counts(decisions), list(RANK_KEYS))


def contest_by_suit_type(decisions: pl.LazyFrame) -> pl.LazyFrame:
    """As :func:`contest_by_rank`, pooled over ranks: per strategy, trump prize or not."""
    return contest_summary_of(contest_counts(decisions), ["strategy", "trump_prize"])


def tricks_by_stage(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: mean stage-1 and stage-2 tricks per hand, with 95% CIs over deal indices.

    Each deal index's duplicate pairs are averaged first (``analyses.deal_means``): with
    three or more entrants a strategy plays the same cards in several line-ups.
    Columns: strategy, hands, deals, stage1(_lo/_hi), stage2(_lo/_hi), pairs. Stage 1
    decides the cards each side holds for stage 2; under the classic count only
    stage 2 scores.
    """
    return tricks_by_stage_of(stage_parts(seats, deals))


STAGE_MEANS = {"stage1": "stage1", "stage2": "stage2"}


def stage_parts(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """``analyses.pair_moments`` over deal indices of :func:`stage_pairs`: what
    :func:`tricks_by_stage_of` combines."""
    return pair_moments(deal_means(stage_pairs(seats, deals), ["strategy"], STAGE_MEANS),
                        ["strategy"], STAGE_MEANS, ("pairs",), units="deals")


def stage_pairs(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per duplicate pair and strategy: hands, mean stage-1 and stage-2 tricks (what
    :func:`tricks_by_stage` averages over pairs)."""
    per_hand = seats.select("deal_key", *PAIR, "seat", "strategy").join(
        deals.select("deal_key", "stage1_tricks", "stage2_tricks"), on="deal_key"
    )
    seat = pl.col("seat").cast(pl.Int64)
    return (
        per_hand.with_columns(
            stage1=pl.col("stage1_tricks").list.get(seat).cast(pl.Float64),
            stage2=pl.col("stage2_tricks").list.get(seat).cast(pl.Float64),
        )
        .group_by([*PAIR, "strategy"])
        .agg(pl.len().alias("hands"), pl.col("stage1").mean(), pl.col("stage2").mean())
    )


def tricks_by_stage_of(parts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`tricks_by_stage` from :func:`stage_parts` (of the run, or of its ranges of
    deal indices one under the other)."""
    return over_pairs_of(parts, ["strategy"], STAGE_MEANS, ("pairs",), units="deals").sort(
        ["stage2", "strategy"], descending=[True, False])
