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

Under ``match = "best_of_N"`` :func:`match_results` and :func:`match_pairwise_of` count
matches, not hands, from the ``matches`` table (the report's "German Whist: matches").

Win rate as dealer and non-dealer and the distribution of net points per hand
are the generic ``analyses.dealer_effect`` and ``analyses.points_distribution``;
every report shows them, German Whist's included.
"""

from __future__ import annotations

import polars as pl

from whist_sim.cards import RANKS
from whist_sim.reports.analyses import (
    PAIR,
    cluster_ratio_of,
    cluster_ratio_parts,
    deal_means,
    over_pairs_of,
    pair_moments,
)

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


MATCH = ("pairing", "deal", "rotation")
"""Columns naming one match: a line-up, deal index and seating (``matches`` has a row per
seat of it)."""

MATCH_MEANS = {"win": "win_rate", "draw": "draw_rate", "points": "points",
               "played": "hands_per_match"}
"""Each match total -> the name of its mean per match, in :func:`match_results_of`."""

MATCH_RATES = ("win_rate", "draw_rate")


def match_results(matches: pl.LazyFrame, seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: matches played, match win rate, draw rate, mean points and hands per
    match, each with a 95% interval over deal indices, and the matches in which it forfeited
    a hand.

    A match is what ``match = "best_of_N"`` plays: hands, the dealer alternating, until
    one seat has won more than the other can catch up (more than N when hands are level).
    ``matches.result`` decides it on hands won (``draw`` when level, which only a match
    stopped by the forfeit of every seat can be); ``points`` is the sum of the seat's
    ``net`` over the match's hands, ``hands_played`` their count.

    Columns: strategy, matches (its seat-matches: one per match, there being two seats and
    two strategies), pairs (duplicate pairs: a line-up and deal index played in both
    seatings), deals (deal indices), win_rate, draw_rate, points, hands_per_match (each
    with ``_lo``/``_hi``: the pooled ratio over its matches with the 95% interval of a
    ratio over deal indices, ``analyses.cluster_ratio_of``; the line-ups of one deal index
    play the same cards), forfeited (matches in which its seat forfeited a hand). Sorted
    best win rate first.
    """
    return match_results_of(match_parts(matches, seats))


def match_rows(matches: pl.LazyFrame, seats: pl.LazyFrame) -> pl.LazyFrame:
    """``matches`` with each row's outcome as numbers: win, draw (0 or 1), points, played
    (hands), forfeited (1 where this seat forfeited a hand of the match)."""
    forfeited = (seats.filter(pl.col("result") == "forfeit").select(*MATCH, "seat").unique()
                 .with_columns(forfeited=pl.lit(1, pl.Int64)))
    return (
        matches.join(forfeited, on=[*MATCH, "seat"], how="left")
        .select(
            *MATCH, "seat", "strategy",
            win=(pl.col("result") == "win").cast(pl.Float64),
            draw=(pl.col("result") == "draw").cast(pl.Float64),
            points=pl.col("points").cast(pl.Float64),
            played=pl.col("hands_played").cast(pl.Float64),
            forfeited=pl.col("forfeited").fill_null(0),
        )
    )


def match_parts(matches: pl.LazyFrame, seats: pl.LazyFrame) -> pl.LazyFrame:
    """``analyses.cluster_ratio_parts`` of each strategy's match totals per deal index: what
    :func:`match_results_of` combines (the parts of a run's ranges of deal indices, one
    under the other, are the whole run's)."""
    per_deal = match_rows(matches, seats).group_by(["deal", "strategy"]).agg(
        pl.len().alias("hands"), *[pl.col(column).sum() for column in MATCH_MEANS],
        pl.col("forfeited").sum(), pl.col("pairing").n_unique().cast(pl.Int64).alias("pairs"))
    return cluster_ratio_parts(per_deal, ["strategy"], list(MATCH_MEANS),
                               sums=("pairs", "forfeited"), units="deals")


def match_results_of(parts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`match_results` from :func:`match_parts` of the run or of its ranges."""
    return (
        cluster_ratio_of(parts, ["strategy"], MATCH_MEANS, sums=("pairs", "forfeited"),
                         units="deals", rates=MATCH_RATES)
        .rename({"hands": "matches"})
        .select("strategy", "matches", "pairs", "deals",
                *[c for name in MATCH_MEANS.values() for c in (name, f"{name}_lo", f"{name}_hi")],
                "forfeited")
        .sort(["win_rate", "strategy"], descending=[True, False])
    )


def match_pairwise_parts(matches: pl.LazyFrame, seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per ordered pair of strategies, the ``analyses.cluster_ratio_parts`` of the row
    strategy's match totals against the other per deal index: what
    :func:`match_pairwise_of` combines. A match of a strategy against itself is left out."""
    rows = match_rows(matches, seats)
    other = matches.select(*MATCH, pl.col("seat").alias("opponent_seat"),
                           pl.col("strategy").alias("opponent"))
    per_deal = (
        rows.join(other, on=list(MATCH))
        .filter((pl.col("seat") != pl.col("opponent_seat"))
                & (pl.col("strategy") != pl.col("opponent")))
        .group_by(["deal", "strategy", "opponent"])
        .agg(pl.len().alias("hands"), *[pl.col(column).sum() for column in MATCH_MEANS])
    )
    return cluster_ratio_parts(per_deal, ["strategy", "opponent"], list(MATCH_MEANS),
                               units="deals")


def match_pairwise_of(parts: pl.LazyFrame) -> pl.LazyFrame:
    """Row strategy against column strategy: matches, match win rate, draw rate, mean
    points and hands per match, each with its 95% interval over the deal indices at which
    the two met. Columns as :func:`match_results_of`'s, with ``opponent`` and without
    pairs and forfeited."""
    return (
        cluster_ratio_of(parts, ["strategy", "opponent"], MATCH_MEANS, units="deals",
                         rates=MATCH_RATES)
        .rename({"hands": "matches"})
        .select("strategy", "opponent", "matches", "deals",
                *[c for name in MATCH_MEANS.values() for c in (name, f"{name}_lo", f"{name}_hi")])
        .sort(["strategy", "opponent"])
    )
