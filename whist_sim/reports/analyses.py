"""Analyses every game shares: each is LazyFrames in, one LazyFrame out.

Inputs are the run's tables as ``RunFolder.scan(table)`` gives them (or any
LazyFrame with the same columns, e.g. a tiny fixture). Nothing here collects:
the caller runs one ``collect()`` per question.

The DUPLICATE PAIR is a (pairing, deal) played under every distinct seating, so
each side held each set of cards once (two seatings in a two-player game; with
four seats, up to four: a duplicate *set*, still called a pair here). A
strategy's outcome in a pair is its mean over all its seats and hands in that
pair. The unit of inference is the DEAL INDEX: every line-up of the run plays
it, so with three or more entrants a strategy's pairs of one deal index share
their cards; each deal index's pairs are reduced to one value (their mean,
:func:`deal_means`, or the strategy's totals there for a ratio,
:func:`cluster_ratio_parts`) before means and 95% intervals are taken (``deals``
columns count deal indices, ``pairs`` the pairs). Hands inside a pair share
their cards and are never treated as independent.

How results count:
- a win is ``result == "win"``; a draw counts in the draw rate, and as half a
  win in head-to-head shares and Bradley-Terry;
- a forfeit is a loss by the largest score the variant allows (the game scores
  it so), and it is also counted on its own in :func:`forfeits`; the strategy's
  other seats of that hand count neither a win nor a draw (``_outcome_flags``).

Head-to-head and pairwise comparisons compare two seats of one hand by ``net``
points: the higher net wins, equal net is a draw. For two-player games this is
exactly the hand's result; for more seats it compares every two seats held by
different strategies (in Solo Whist, two defenders of the same contract tie).
In a partnership game (Minnesota Whist: seats 0 and 2 against 1 and 3) pass
``sides=True`` and only seats of opposite sides are compared: partners always
share a net, so comparing them would only add ties.

Tables of several sizes in one run (Knock-out Whist, ``players = [4, 7]``):
:func:`dealer_effect` keeps each table size apart (a position such as
``dealer+3`` means something else at four seats than at seven), and
:func:`table_sizes` lists them.

Counts: ``hands`` in :func:`standings`, :func:`dealer_effect`,
:func:`points_distribution` and :func:`forfeits` are SEAT-HANDS, one per seat a
strategy held in a hand; in a two-player game that is a hand, but in a
four-player line-up such as A B A B a strategy holds two seats of every hand.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from whist_sim.reports.finishing import with_stopped
from whist_sim.reports.stats import (
    gathered_in_value_order,
    mean_ci_aggs,
    ordered_mean,
    ordered_squares,
    ordered_sum,
    with_t_interval,
)
from whist_sim.tournament.bench import BENCHED

PAIR = ("pairing", "deal")
"""Columns naming a duplicate pair."""

HAND_ORDER = ("deal", "pairing", "rotation", "hand")
"""Play order of hands, for "first" of anything."""


def _outcome_flags(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Win, draw, forfeit and net flags per seat-hand. A hand a strategy forfeited in one
    seat is neither won nor drawn in its others: the forfeit pays every other seat, and
    in Solo Whist's A B A B the forfeiter's twin was paid and counted a win, so a
    strategy that forfeited every hand read a win rate of 0.500 (a report reader's
    probe). The hands are found by a join with the few forfeits rather than a window over
    every seat: the live standings run this for every task the driver commits, and a
    window took 4.6 ms a task of 3,000 hands where the join takes 1.7 (0.9 without)."""
    keys = ["deal_key", "strategy"]
    forfeited = (seats.filter(pl.col("result") == "forfeit").select(keys).unique()
                 .with_columns(_own_forfeit=pl.lit(True)))
    own_forfeit = pl.col("_own_forfeit").is_not_null()
    return seats.join(forfeited, on=keys, how="left").with_columns(
        win=((pl.col("result") == "win") & ~own_forfeit).cast(pl.Float64),
        draw=((pl.col("result") == "draw") & ~own_forfeit).cast(pl.Float64),
        forfeit=(pl.col("result") == "forfeit").cast(pl.Float64),
        net=pl.col("net").cast(pl.Float64),
    ).drop("_own_forfeit")


def over_pairs(
    per_pair: pl.LazyFrame, keys: list[str], means: dict[str, str], sums: tuple[str, ...] = (),
    rates: Iterable[str] = (),
) -> pl.LazyFrame:
    """Group per-pair rows by ``keys``: mean and 95% t-interval over pairs of each column.

    ``means`` maps a per-pair column to the name of its mean in the output;
    ``hands`` and the columns in ``sums`` are added up. ``rates``: names of means that
    are proportions, whose bounds are cut at 0 and 1 (``stats.with_t_interval``).
    """
    rates = frozenset(rates)
    return (
        per_pair.group_by(keys)
        .agg(
            pl.col("hands").sum().cast(pl.Int64),
            pl.len().cast(pl.Int64).alias("pairs"),
            *[agg for column, name in means.items() for agg in mean_ci_aggs(column, name)],
            *[pl.col(column).sum().cast(pl.Int64) for column in sums],
        )
        .with_columns(*[e for name in means.values()
                        for e in with_t_interval(name, rate=name in rates)])
        .select(
            *keys,
            "hands",
            "pairs",
            *[c for name in means.values() for c in (name, f"{name}_lo", f"{name}_hi")],
            *sums,
        )
    )


def pair_moments(
    per_pair: pl.LazyFrame, keys: list[str], means: Iterable[str], sums: tuple[str, ...] = (),
    units: str = "pairs",
) -> pl.LazyFrame:
    """What :func:`over_pairs` needs of per-pair rows, as parts that add up: per group of
    ``keys``, ``hands``, ``pairs`` and the columns in ``sums``, and per column in ``means``
    its count of values (``<column>__n``), their sum (``__sum``) and their sum of squared
    deviations from their own mean (``__m2``). The parts of a run's ranges of deal indices,
    one under the other, give the whole run's means and intervals (:func:`over_pairs_of`),
    so the per-pair rows of only one range are ever in memory. ``units``: the name of the
    count of rows (the interval's units: duplicate pairs, or deal indices)."""
    return per_pair.group_by(keys).agg(
        pl.col("hands").sum().cast(pl.Int64),
        pl.len().cast(pl.Int64).alias(units),
        *[pl.col(column).sum().cast(pl.Int64) for column in sums],
        *[agg for column in means for agg in (
            pl.col(column).count().cast(pl.Int64).alias(f"{column}__n"),
            ordered_sum(pl.col(column)).alias(f"{column}__sum"),
            ordered_squares(pl.col(column)).alias(f"{column}__m2"))],
    )


def deal_means(per_pair: pl.LazyFrame, keys: Iterable[str], means: Iterable[str],
               sums: tuple[str, ...] = ()) -> pl.LazyFrame:
    """Per-pair rows reduced to one per deal index and group of ``keys``: the mean of each
    column in ``means`` over the deal index's pairs, ``hands`` and the ``sums`` added up,
    and ``pairs`` counted. The unit of every interval a reader compares: the line-ups of
    one deal index play the same cards, so a strategy that meets them in several line-ups
    (three or more entrants) has correlated pairs there (a probe measured intervals over
    the pairs themselves 1.2-1.3 times too narrow in Solo Whist with five entrants)."""
    means = list(means)
    return gathered_in_value_order(
        per_pair, ["deal", *keys], means,
        pl.col("hands").sum(), *[pl.col(column).sum() for column in sums],
        pl.len().cast(pl.Int64).alias("pairs"),
    ).with_columns(pl.col(column).list.mean() for column in means)


def deal_totals(per_set: pl.LazyFrame, keys: Iterable[str], totals: Iterable[str]
                ) -> pl.LazyFrame:
    """Per-set rows added up per deal index and group of ``keys``: the columns ``totals``
    summed and ``sets`` counted. The cluster of a pooled ratio (``stats.ratio_aggs``):
    the line-ups of one deal index share its cards, so with more entrants than seats (or
    several Minnesota partnerships) a strategy's sets there are not independent."""
    totals = list(totals)
    return gathered_in_value_order(
        per_set, ["deal", *keys], totals, pl.len().cast(pl.Int64).alias("sets"),
    ).with_columns(pl.col(column).list.sum() for column in totals)


def over_pairs_of(
    parts: pl.LazyFrame, keys: list[str], means: dict[str, str], sums: tuple[str, ...] = (),
    rates: Iterable[str] = (), units: str = "pairs",
) -> pl.LazyFrame:
    """:func:`over_pairs` from :func:`pair_moments` of the run or of its ranges: counts and
    sums add up, and the sums of squared deviations combine by Chan et al.'s formula
    (``M2 = sum M2_i + sum n_i (mean_i - mean)^2``), as stable as the two-pass one, so the
    means and intervals are those of the whole run's per-pair rows (to rounding).
    ``rates``: as for :func:`over_pairs`; ``units``: as given to :func:`pair_moments`."""
    rates = frozenset(rates)
    def combined(column: str, name: str) -> list[pl.Expr]:
        n, total = pl.col(f"{column}__n"), pl.col(f"{column}__sum")
        mean = ordered_sum(total) / n.sum()
        part_mean = total / n
        m2 = ordered_sum(pl.col(f"{column}__m2")) + ordered_sum(n * (part_mean - mean) ** 2)
        return [pl.when(n.sum() > 0).then(mean).alias(name),
                pl.when(n.sum() > 1).then((m2 / (n.sum() - 1)).sqrt()).alias(f"{name}_sd")]

    return (
        parts.group_by(keys)
        .agg(
            pl.col("hands").sum(),
            pl.col(units).sum(),
            *[agg for column, name in means.items() for agg in combined(column, name)],
            *[pl.col(column).sum() for column in sums],
        )
        .with_columns(*[e for name in means.values()
                        for e in with_t_interval(name, n=units, rate=name in rates)])
        .select(
            *keys,
            "hands",
            units,
            *[c for name in means.values() for c in (name, f"{name}_lo", f"{name}_hi")],
            *sums,
        )
    )


def pair_outcomes(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Each strategy's outcome in each duplicate pair: the unit the standings average.

    Columns: pairing, deal, strategy, hands (its seat-hands in the pair), win,
    draw, net (its means over them), forfeits (a count). The live standings of a
    run in progress add these up task by task, so they agree with
    :func:`standings` when the run ends.
    """
    return (
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


def standings(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: hands, win rate, draw rate, mean net points per hand, each with a 95% CI.

    Columns: strategy, hands, pairs, deals, win_rate(_lo/_hi), draw_rate(_lo/_hi),
    net(_lo/_hi), forfeits. Every deal index is first reduced to the strategy's total
    over its seats and hands there (wins, draws, net) and the count of those seat-hands
    (:func:`standings_deals`); a figure is the total over deal indices by the count, the
    share of its seat-hands won (the mean net per seat-hand), so every seat-hand weighs
    the same and the nets of a table add up to zero. Its interval is the ratio
    estimator's over deal indices (``stats.ratio_aggs``: deal indices, not hands nor the
    line-ups of one deal index, are the independent units): where every deal index
    holds as many seat-hands, that is the t-interval of the per-deal means. The mean of
    per-pair means it replaces weighed a pair of few seat-hands as much as one of many:
    at a table of three, the line-up A B A (two seats of A) as much as B A B (one), and
    the standings disagreed with the verdict and were not zero-sum. Sorted best mean net
    first.
    """
    return standings_of(standings_parts(seats))


STANDINGS_MEANS = {"win": "win_rate", "draw": "draw_rate", "net": "net"}
STANDINGS_RATES = ("win_rate", "draw_rate")


def standings_deals(per_pair: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame | pl.DataFrame:
    """:func:`pair_outcomes` summed per deal index and strategy: its totals (wins, draws,
    net) over its seat-hands, its seat-hands, forfeits and duplicate pairs there. The
    standings' unit: an entrant's line-ups of one deal index play the same cards, so
    its pairs there are not independent (a probe measured intervals over pairs 1.2-1.3
    times too narrow in Solo Whist with five entrants)."""
    totals = per_pair.with_columns(pl.col(column) * pl.col("hands")
                                   for column in STANDINGS_MEANS)
    return gathered_in_value_order(
        totals, ["deal", "strategy"], list(STANDINGS_MEANS),
        pl.col("hands").sum(), pl.col("forfeits").sum().cast(pl.Int64),
        pl.len().cast(pl.Int64).alias("pairs"),
    ).with_columns(pl.col(column).list.sum() for column in STANDINGS_MEANS)


def standings_parts(seats: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`cluster_ratio_parts` of each deal index's totals (:func:`standings_deals`),
    per strategy: what :func:`standings_of` combines."""
    return cluster_ratio_parts(standings_deals(pair_outcomes(seats)), ["strategy"],
                               list(STANDINGS_MEANS), sums=("forfeits", "pairs"),
                               units="deals")


def standings_of(parts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`standings` from :func:`standings_parts` (of the whole run, or of its ranges of
    deal indices one under the other: a deal index's rows are never split)."""
    return (
        cluster_ratio_of(parts, ["strategy"], STANDINGS_MEANS, sums=("forfeits", "pairs"),
                         units="deals", rates=STANDINGS_RATES)
        .select("strategy", "hands", "pairs", "deals",
                *[c for name in STANDINGS_MEANS.values()
                  for c in (name, f"{name}_lo", f"{name}_hi")], "forfeits")
        .sort(["net", "strategy"], descending=[True, False])
    )


def cluster_ratio_parts(per_unit: pl.LazyFrame, keys: list[str], totals: list[str],
                        sums: tuple[str, ...] = (), units: str = "units") -> pl.LazyFrame:
    """Per ``keys``, what :func:`cluster_ratio_of` needs of ratios ``sum(y) / sum(n)`` over
    independent units (one row each in ``per_unit``: its totals ``y``, the columns
    ``totals``, over its count ``n``, the column ``hands``): the number of units
    (``units``), the sums, and the co-moments of ``y`` and ``n`` over the units
    (``<y>__cyy``, ``<y>__cyn``, ``__cnn``: sums of products of deviations from this
    part's means), so the parts of a run's ranges of deal indices combine into the whole
    run's ratios and intervals (Chan et al.'s formula, as stable as two passes).
    ``sums``: other columns added up."""
    n = pl.col("hands").cast(pl.Float64)
    dn = n - n.mean()  # counts: whole numbers, whose sum is exact in any order
    aggs = [pl.col("hands").sum().cast(pl.Int64), pl.len().cast(pl.Int64).alias(units),
            *[pl.col(column).sum() for column in sums], ordered_sum(dn * dn).alias("__cnn")]
    for column in totals:
        y = pl.col(column).cast(pl.Float64)
        dy = y - ordered_mean(y)
        aggs += [ordered_sum(y).alias(f"{column}__y"),
                 ordered_sum(dy * dy).alias(f"{column}__cyy"),
                 ordered_sum(dy * dn).alias(f"{column}__cyn")]
    return per_unit.group_by(keys).agg(*aggs)


def cluster_ratio_of(parts: pl.LazyFrame, keys: list[str], totals: dict[str, str],
                     sums: tuple[str, ...] = (), units: str = "units",
                     rates: Iterable[str] = ()) -> pl.LazyFrame:
    """The ratios of :func:`cluster_ratio_parts` (``totals``: each total's output name)
    with their 95% intervals: the ratio estimator's standard error over the units
    (``stats.ratio_aggs``: ``sqrt(k / (k - 1) * sum((y - R n)^2)) / N``) and Student's
    t with k - 1 degrees of freedom, a rate's cut at 0 and 1 and Wilson's over the units
    where they show no spread (``stats.with_t_interval``). Where every unit holds the
    same count that is the t-interval of the units' means. Columns: ``keys``, hands,
    ``units``, the ``sums``, and each ratio with ``_lo`` and ``_hi``."""
    k_i, n_i = pl.col(units).cast(pl.Float64), pl.col("hands").cast(pl.Float64)
    k, total = k_i.sum(), n_i.sum()
    dn = n_i / k_i - total / k  # each part's mean count off the whole run's
    cnn = ordered_sum(pl.col("__cnn")) + ordered_sum(k_i * dn * dn)
    aggs = [pl.col("hands").sum(), pl.col(units).sum(), *[pl.col(c).sum() for c in sums]]
    for column, name in totals.items():
        y_i = pl.col(f"{column}__y")
        dy = y_i / k_i - ordered_sum(y_i) / k
        cyy = ordered_sum(pl.col(f"{column}__cyy")) + ordered_sum(k_i * dy * dy)
        cyn = ordered_sum(pl.col(f"{column}__cyn")) + ordered_sum(k_i * dy * dn)
        ratio = ordered_sum(y_i) / total
        # sum over units of (y - R n)^2, from the co-moments (the means' term is 0 at R)
        residuals = (cyy - 2 * ratio * cyn + ratio * ratio * cnn).clip(lower_bound=0.0)
        se = (k / (k - 1) * residuals).sqrt() / total
        aggs += [pl.when(total > 0).then(ratio).alias(name),
                 pl.when(k > 1).then(se * k.sqrt()).alias(f"{name}_sd")]  # as a t-interval
    rates = frozenset(rates)
    return (
        parts.group_by(keys).agg(*aggs)
        .with_columns(*[e for name in totals.values()
                        for e in with_t_interval(name, n=units, rate=name in rates)])
    )


def seat_pairs(seats: pl.LazyFrame, sides: bool = False) -> pl.LazyFrame:
    """Every ordered pair of seats of one hand held by different strategies.

    With ``sides`` (partnership games, partners opposite: seats 0 and 2
    against 1 and 3) only seats of opposite sides are paired.

    Without sides, a hand a forfeit stopped pairs only the seat that forfeited with
    each seat that did not: the forfeit pays the others alike (Solo Whist) or scores
    them drawn (Knock-out Whist), but it stopped them before they played the hand out,
    so it says nothing of one against another. Paired as equal nets, such seats read
    as level: a run in which one entrant forfeited 133 of 300 Knock-out games gave
    heuristic 0.672 of its comparisons with random, 0.774 once those pairs were left
    out (a probe). With sides the partnership is the unit: a forfeit loses the forfeiter's
    side the hand, partner included, as the game scores it. Two seats that both forfeited
    (a table of benched entrants, where no one played) are never paired.

    Columns: deal_key, pairing, deal, strategy, opponent, net (the strategy's),
    opponent_net, margin (half the gap, ``(net - opponent_net) / 2``: the
    strategy's net in a zero-sum two-player hand), share (1 if its net beat the
    opponent's, 0.5 if equal, 0 if lower).
    """
    forfeited = (pl.col("result") == "forfeit").alias("forfeited")
    own = with_stopped(seats).select("deal_key", *PAIR, "seat", "strategy",
                                     pl.col("net").cast(pl.Float64), forfeited, "stopped")
    other = seats.select(
        "deal_key",
        pl.col("seat").alias("opponent_seat"),
        pl.col("strategy").alias("opponent"),
        pl.col("net").cast(pl.Float64).alias("opponent_net"),
        forfeited.alias("opponent_forfeited"),
    )
    pairs = own.join(other, on="deal_key").filter(
        (pl.col("strategy") != pl.col("opponent"))
        & ~(pl.col("forfeited") & pl.col("opponent_forfeited")))  # benched: neither played
    if sides:
        pairs = pairs.filter(pl.col("seat") % 2 != pl.col("opponent_seat") % 2)
    else:
        pairs = pairs.filter(~pl.col("stopped")
                             | (pl.col("forfeited") != pl.col("opponent_forfeited")))
    return (
        pairs
        .with_columns(
            share=pl.when(pl.col("net") > pl.col("opponent_net"))
            .then(1.0)
            .when(pl.col("net") == pl.col("opponent_net"))
            .then(0.5)
            .otherwise(0.0)
        )
        .with_columns(margin=(pl.col("net") - pl.col("opponent_net")) / 2)
        .select("deal_key", *PAIR, "strategy", "opponent", "net", "opponent_net", "margin",
                "share")
    )


def head_to_head(seats: pl.LazyFrame, sides: bool = False) -> pl.LazyFrame:
    """Row strategy against column strategy: win share and net margin, with 95% CIs.

    Columns: strategy, opponent, hands, comparisons, pairs, deals, share(_lo/_hi),
    net(_lo/_hi).

    Definition, for any number of seats: in each hand, every seat of the row
    strategy is compared with every seat of the opponent (``seat_pairs``).
    ``share`` is the share of those comparisons the row strategy won (higher
    net; a tie counts half), and ``net`` the mean of ``(own net - opponent's
    net) / 2`` over them. In a two-player zero-sum game a hand is one
    comparison, so ``share`` is the share of hands won and ``net`` the row
    strategy's mean net per hand; with four seats (Solo Whist, line-up A B A B)
    a hand holds four A-B comparisons, and two defenders of the same contract
    tie. Both are antisymmetric: share(A, B) = 1 - share(B, A) and
    net(A, B) = -net(B, A).

    ``hands`` counts hands in which the two met, ``comparisons`` the seat pairs
    compared, ``pairs`` the duplicate pairs and ``deals`` the deal indices. Each
    duplicate pair is first reduced to its mean over comparisons, each deal index to the
    mean of its pairs (they play the same cards); means and intervals are over the deal
    indices at which the two met (with one line-up of the two a deal index, over their
    duplicate pairs).
    ``sides``: compare only seats of opposite partnerships (see :func:`seat_pairs`).
    """
    return head_to_head_of(head_to_head_parts(seats, sides))


HEAD_TO_HEAD_KEYS = ["strategy", "opponent"]
HEAD_TO_HEAD_MEANS = {"share": "share", "net": "net"}
HEAD_TO_HEAD_RATES = ("share",)


def head_to_head_parts(seats: pl.LazyFrame, sides: bool = False) -> pl.LazyFrame:
    """:func:`pair_moments` over deal indices of :func:`head_to_head_pairs`: what
    :func:`head_to_head_of` combines. The line-ups of one deal index play the same
    cards, so two strategies that meet in several of them meet on correlated pairs:
    each deal index's pairs are averaged into one unit (a probe measured intervals over
    the pairs themselves 1.2-1.3 times too narrow in Solo Whist with five entrants)."""
    per_deal = deal_means(head_to_head_pairs(seats, sides), HEAD_TO_HEAD_KEYS,
                          HEAD_TO_HEAD_MEANS, ("comparisons",))
    return pair_moments(per_deal, HEAD_TO_HEAD_KEYS, HEAD_TO_HEAD_MEANS,
                        ("comparisons", "pairs"), units="deals")


def head_to_head_pairs(seats: pl.LazyFrame, sides: bool = False) -> pl.LazyFrame:
    """What :func:`head_to_head` averages: per duplicate pair and ordered pair of strategies
    that met in it, hands, comparisons, share and net (means over the comparisons)."""
    return (
        seat_pairs(seats, sides)
        .group_by([*PAIR, "strategy", "opponent"])
        .agg(
            pl.col("deal_key").n_unique().alias("hands"),
            pl.len().cast(pl.Int64).alias("comparisons"),
            pl.col("share").mean(),
            pl.col("margin").mean().alias("net"),
        )
    )


def head_to_head_of(parts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`head_to_head` from :func:`head_to_head_parts` of the run or of its ranges."""
    return (
        over_pairs_of(parts, HEAD_TO_HEAD_KEYS, HEAD_TO_HEAD_MEANS,
                      sums=("comparisons", "pairs"), rates=HEAD_TO_HEAD_RATES, units="deals")
        .select("strategy", "opponent", "hands", "comparisons", "pairs", "deals", "share",
                "share_lo",
                "share_hi", "net", "net_lo", "net_hi")
        .sort(["strategy", "opponent"])
    )


def pair_comparisons(seats: pl.LazyFrame, sides: bool = False) -> pl.LazyFrame:
    """Per duplicate pair and ordered pair of strategies that met in it: the seat
    comparisons of :func:`seat_pairs`, summed.

    Columns: pairing, deal, strategy, opponent, comparisons (seat pairs compared),
    wins (sum of ``share``: a draw half), margin (sum of ``margin``). One self-join
    of the seats gives everything the ratings (:func:`pairwise_results`) and the
    verdict's comparisons need, so a report computes it once. Not sorted.
    """
    return (
        seat_pairs(seats, sides)
        .group_by([*PAIR, "strategy", "opponent"])
        .agg(pl.len().cast(pl.Int64).alias("comparisons"), pl.col("share").sum().alias("wins"),
             pl.col("margin").sum())
    )


def pairwise_results(
    seats: pl.LazyFrame, sides: bool = False, comparisons: pl.LazyFrame | None = None
) -> pl.LazyFrame:
    """Wins of each strategy over each other one, per deal index: the Bradley-Terry input.

    Columns: deal, strategy, opponent, wins (a draw is half a win each way),
    hands (seat comparisons, see :func:`seat_pairs`: hands in a two-player
    game). Kept per deal index so that ``stats.bradley_terry`` can bootstrap
    over deals. ``sides``: compare only seats of opposite partnerships.
    ``comparisons``: :func:`pair_comparisons` of these seats, if already at hand
    (``seats`` and ``sides`` are then not read). Rows in no particular order.
    """
    per_pair = pair_comparisons(seats, sides) if comparisons is None else comparisons
    return (
        per_pair.group_by(["deal", "strategy", "opponent"])
        .agg(pl.col("wins").sum(), pl.col("comparisons").sum().alias("hands"))
    )


def seat_positions(seats: pl.LazyFrame) -> pl.LazyFrame:
    """``seats`` with each seat's place relative to the dealer.

    Adds ``position`` (0 for the dealer, 1 for the seat on its left, ...) and
    ``role``, :func:`position_role`. A hand without a dealer seat has null positions and
    only non-dealers.
    """
    n_seats = pl.len().over("deal_key")
    dealer = pl.col("seat").cast(pl.Int64).filter(pl.col("is_dealer")).first().over("deal_key")
    position = (pl.col("seat").cast(pl.Int64) - dealer) % n_seats.cast(pl.Int64)
    return seats.with_columns(position=position, n_seats=n_seats).with_columns(
        role=pl.when(pl.col("position").is_null()).then(pl.lit("non-dealer"))
        .otherwise(position_role(pl.col("position"), pl.col("n_seats")))
    ).drop("n_seats")


def position_role(position: pl.Expr, seats: pl.Expr) -> pl.Expr:
    """A seat's place from the dealer in words, at a table of ``seats``: "dealer" and
    "non-dealer" at two seats; with more, "dealer", "eldest" (the dealer's left, the first
    to call or lay a card and, but in a Minnesota grand, to lead), then "dealer+2",
    "dealer+3", ... clockwise. Every section labels seats by it: Knock-out's wins by seat
    read `dealer, 1, 2`, and at two seats `eldest`, beside the seat section's labels for
    the same seats (probes)."""
    return (pl.when(position == 0).then(pl.lit("dealer"))
            .when(seats == 2).then(pl.lit("non-dealer"))
            .when(position == 1).then(pl.lit("eldest"))
            .otherwise(pl.format("dealer+{}", position)))


def dealer_effect(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy, table size and seat position: win rate and mean net, with 95% intervals
    over deal indices.

    Columns: strategy, players (the hand's number of seats: one value unless
    the run plays tables of several sizes), position, role (see
    :func:`seat_positions`: "dealer" / "non-dealer" in two-player games;
    "dealer", "eldest", "dealer+2", "dealer+3" with four seats), hands, wins,
    win_rate(_lo/_hi), net(_lo/_hi) (mean net per hand).

    A figure is its total over its hands (wins over hands, net per hand); its interval is
    the ratio's over deal indices (:func:`cluster_ratio_of`), every line-up, seating and
    hand of one deal index one unit: they share the deal's cards. Knock-out Whist deals
    each deal index's cards to the same seats in every seating, and the dealer is seat 0,
    so a strategy dealing at seven seats held the same cards up to seven times; Wilson's
    interval over hands, used before, took those as independent and read about 40%
    narrower than the same rate clustered by deal index elsewhere in the report.
    """
    return dealer_effect_of(dealer_counts(seats))


DEALER_KEYS = ("strategy", "players", "position", "role")


def dealer_counts(seats: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`dealer_effect_of` combines: per strategy, table size, position and role,
    :func:`cluster_ratio_parts` of each deal index's hands, wins and net."""
    per_deal = (
        _outcome_flags(seat_positions(seats))
        .with_columns(players=pl.len().over("deal_key").cast(pl.Int64))
        .group_by([*DEALER_KEYS, "deal"])
        .agg(pl.len().cast(pl.Int64).alias("hands"), pl.col("win").sum(),
             pl.col("win").sum().cast(pl.Int64).alias("wins"), pl.col("net").sum())
    )
    return cluster_ratio_parts(per_deal, list(DEALER_KEYS), ["win", "net"], sums=("wins",),
                               units="deals")


def dealer_effect_of(parts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`dealer_effect` from :func:`dealer_counts` (of the whole run, or of its ranges
    of deal indices one under the other: a deal index is never split)."""
    return (
        cluster_ratio_of(parts, list(DEALER_KEYS), {"win": "win_rate", "net": "net"},
                         sums=("wins",), units="deals", rates=("win_rate",))
        .select("strategy", "players", "position", "role", "hands", "wins", "win_rate",
                "win_rate_lo", "win_rate_hi", "net", "net_lo", "net_hi")
        .sort(["strategy", "players", "position", "role"], nulls_last=True)
    )


def players(seats: pl.LazyFrame) -> pl.LazyFrame:
    """One row, one column ``players``: the most seats any hand of the run had."""
    return seats.group_by("deal_key").len().select(pl.col("len").max().cast(pl.Int64)
                                                   .alias("players"))


def table_sizes(seats: pl.LazyFrame) -> pl.LazyFrame:
    """The table sizes of the run: one row per size, smallest first.

    Columns: players (seats at the table), hands (hands played at that size).
    """
    return table_sizes_of(table_size_counts(seats))


def table_size_counts(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Hands per table size (unsorted): what :func:`table_sizes_of` adds up."""
    return (
        seats.group_by("deal_key").len()
        .group_by(pl.col("len").cast(pl.Int64).alias("players"))
        .agg(pl.len().cast(pl.Int64).alias("hands"))
    )


def table_sizes_of(counts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`table_sizes` from :func:`table_size_counts` of the run or of its ranges."""
    return counts.group_by("players").agg(pl.col("hands").sum()).sort("players")


def points_distribution(seats: pl.LazyFrame) -> pl.LazyFrame:
    """How often each net score per hand occurred, per strategy.

    Columns: strategy, net, hands, share (of the strategy's hands).
    """
    return points_distribution_of(points_counts(seats))


def points_counts(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Hands per strategy and net score (unsorted): what :func:`points_distribution_of`
    adds up."""
    return (
        seats.group_by(["strategy", pl.col("net").cast(pl.Float64)])
        .agg(pl.len().cast(pl.Int64).alias("hands"))
    )


def points_distribution_of(counts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`points_distribution` from :func:`points_counts` of the run or of its ranges."""
    return (
        counts.group_by(["strategy", "net"]).agg(pl.col("hands").sum())
        .with_columns(share=pl.col("hands") / pl.col("hands").sum().over("strategy"))
        .sort(["strategy", "net"])
    )


def forfeits(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: hands, forfeits, forfeit rate and the first error it raised.

    Columns: strategy, hands, forfeits, forfeit_rate, first_error, first_deal_key, benched,
    sat_in, hands_forfeited. A seat forfeits when its strategy raised, made an illegal move
    or ran out of time, or unplayed once it was benched (``benched`` counts those:
    ``bench_after``); "first" is in play order (deal, pairing, rotation, hand). Strategies
    that never forfeited are listed with 0. ``hands`` and ``forfeits`` count seat-hands;
    ``sat_in`` and ``hands_forfeited`` the hands themselves, which differ where a strategy
    holds two seats of a hand (Solo Whist's A B A B): the first of its seats to act
    forfeits the hand, so a strategy that raised at every decision forfeited half its
    seat-hands and every hand it sat in.
    """
    return forfeits_of(forfeit_counts(seats, deals))


def forfeit_counts(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: hands, forfeits (null for none) and the first forfeit's error and
    deal_key, in play order (unsorted): what :func:`forfeits_of` combines."""
    hand = pl.struct(*HAND_ORDER)  # a hand, as ints: counted faster than its deal_key
    hands = seats.group_by("strategy").agg(pl.len().cast(pl.Int64).alias("hands"),
                                           hand.n_unique().cast(pl.Int64).alias("sat_in"))
    errors = deals.select("deal_key", "error")
    failed = (
        seats.filter(pl.col("result") == "forfeit")
        .join(errors, on="deal_key", how="left")
        .group_by("strategy")
        .agg(
            pl.len().cast(pl.Int64).alias("forfeits"),
            hand.n_unique().cast(pl.Int64).alias("hands_forfeited"),
            pl.col("error").sort_by(list(HAND_ORDER)).first().alias("first_error"),
            pl.col("deal_key").sort_by(list(HAND_ORDER)).first().alias("first_deal_key"),
            pl.col("error").str.contains(BENCHED, literal=True).sum().cast(pl.Int64)
            .alias("benched"),
        )
    )
    return hands.join(failed, on="strategy", how="left")


def forfeits_of(counts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`forfeits` from :func:`forfeit_counts` of the run, or of its ranges of deal
    indices in ascending order (play order starts with the deal index, so the first range
    with a forfeit holds a strategy's first)."""
    forfeited = pl.col("first_deal_key").is_not_null()
    return (
        counts.group_by("strategy", maintain_order=True)
        .agg(
            pl.col("hands").sum(),
            pl.col("forfeits").sum(),
            pl.col("first_error").filter(forfeited).first(),
            pl.col("first_deal_key").filter(forfeited).first(),
            pl.col("benched").sum(),
            pl.col("sat_in").sum(),  # deal ranges are disjoint: their hands add up
            pl.col("hands_forfeited").sum(),
        )
        .with_columns(pl.col("forfeits").fill_null(0), pl.col("hands_forfeited").fill_null(0))
        .with_columns(forfeit_rate=pl.col("forfeits") / pl.col("hands"))
        .select("strategy", "hands", "forfeits", "forfeit_rate", "first_error", "first_deal_key",
                "benched", "sat_in", "hands_forfeited")
        .sort(["forfeits", "strategy"], descending=[True, False])
    )


TIME_FORFEIT = r"DecisionTimeout|TimeForfeit|lost on time|time limit of"
"""What the error of a deal forfeited on time contains: the decision alarm, a chess clock,
or the supervisor ending a decision."""


TIME_BINS_PER_DECADE = 200
"""Resolution of the decision-time quantiles: 200 logarithmic bins per factor of ten, each
1.2% wide (10^(1/200) = 1.0116)."""

SEATING = ("pairing", "order", "rotation", "seat")
"""Who holds a seat is fixed by the schedule: the line-up of a pairing, in its deal's seating
order (``order``: the deal index modulo the run's ``run_facts.seating_period``), turned by a
rotation."""


def _with_order(frame: pl.LazyFrame, period: int) -> pl.LazyFrame:
    """``frame`` with ``order``, its deal's place in the run's cycle of seating orders (0
    throughout where every deal of a line-up is seated alike)."""
    order = pl.lit(0, pl.Int64) if period == 1 else pl.col("deal") % period
    return frame.with_columns(order.alias("order"))


def decision_times(
    actions: pl.LazyFrame, deals: pl.LazyFrame, seats: pl.LazyFrame, period: int = 1
) -> pl.LazyFrame:
    """Per strategy: how long its decisions took, and the deals it forfeited on time.

    Columns: strategy, decisions (timed), median, p95, max (seconds), time_forfeits.
    Time is the ``actions.seconds`` of each chosen action, measured around the
    strategy's call: a measurement of the machine as much as of the strategy.

    ``decisions`` and ``max`` are exact; ``median`` and ``p95`` are read off a
    histogram of :data:`TIME_BINS_PER_DECADE` logarithmic bins per factor of ten
    (each 1.2% wide), so that a run of any size is summed in a few thousand rows
    instead of sorting every decision: each is the geometric middle of the bin
    that holds the decision of that rank (the mean of the two middle ranks for
    the median, rank ``round(0.95 (n - 1))`` for p95), kept within the smallest and largest
    time in that bin, so within 1.2% of the exact value. The strategy of an
    action is found from the small table of who held each (pairing, seating order,
    rotation, seat), not by joining every decision to its deal; ``period`` is the run's
    ``run_facts.seating_period`` (1: every deal of a line-up seated alike).
    """
    return decision_times_of(decision_time_bins(actions, seats, period),
                             time_forfeit_counts(deals))


def decision_time_bins(actions: pl.LazyFrame, seats: pl.LazyFrame, period: int = 1
                       ) -> pl.LazyFrame:
    """Per strategy and time bin: decisions ``n``, the shortest (``low``) and longest
    (``high``) time in it (unsorted): what :func:`decision_times_of` combines. ``period``:
    the run's ``run_facts.seating_period``."""
    who = _with_order(seats, period).select(*SEATING, "strategy").unique()
    seconds = pl.col("seconds")
    return (
        _with_order(actions.filter(pl.col("chosen") & seconds.is_not_null()), period)
        .select(*SEATING, "seconds")
        .group_by(*SEATING, (seconds.clip(1e-12).log10() * TIME_BINS_PER_DECADE).floor()
                  .cast(pl.Int32).alias("bin"))
        .agg(pl.len().cast(pl.Int64).alias("n"), seconds.min().alias("low"),
             seconds.max().alias("high"))
        .join(who, on=list(SEATING))
        .group_by("strategy", "bin")
        .agg(pl.col("n").sum(), pl.col("low").min(), pl.col("high").max())
    )


def time_forfeit_counts(deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: the hands it forfeited on time, ``time_forfeits`` (strategies without
    any left out)."""
    seated = deals.select("deal_key", "strategies", "status", "forfeit_seat", "error")
    return (
        seated.filter((pl.col("status") == "forfeit")
                      & pl.col("error").str.contains(TIME_FORFEIT).fill_null(False))
        .select(pl.col("strategies").list.get(pl.col("forfeit_seat").cast(pl.Int64))
                .alias("strategy"))
        .group_by("strategy").agg(pl.len().cast(pl.Int64).alias("time_forfeits"))
    )


def decision_times_of(bins: pl.LazyFrame, on_time: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`decision_times` from :func:`decision_time_bins` and
    :func:`time_forfeit_counts`, of the run or of its ranges one under the other."""
    per_bin = (
        bins.group_by("strategy", "bin")
        .agg(pl.col("n").sum(), pl.col("low").min(), pl.col("high").max())
        .sort("strategy", "bin")
        .with_columns(before=pl.col("n").cum_sum().over("strategy") - pl.col("n"),
                      total=pl.col("n").sum().over("strategy"))
    )

    def at_rank(rank: pl.Expr) -> pl.Expr:
        """The value of the decision of 0-based ``rank`` (sorted by time), to the bin."""
        inside = (pl.col("before") <= rank) & (rank < pl.col("before") + pl.col("n"))
        middle = (10 ** ((pl.col("bin").cast(pl.Float64) + 0.5) / TIME_BINS_PER_DECADE))
        return middle.clip(pl.col("low"), pl.col("high")).filter(inside).first()

    timed = per_bin.group_by("strategy").agg(
        pl.col("total").first().alias("decisions"),
        ((at_rank((pl.col("total") - 1) // 2) + at_rank(pl.col("total") // 2)) / 2)
        .alias("median"),
        at_rank((0.95 * (pl.col("total") - 1)).round().cast(pl.Int64)).alias("p95"),
        pl.col("high").max().alias("max"),
    )
    on_time = on_time.group_by("strategy").agg(pl.col("time_forfeits").sum())
    return (
        timed.join(on_time, on="strategy", how="full", coalesce=True)
        .with_columns(pl.col("decisions", "time_forfeits").fill_null(0))
        .sort("strategy")
    )
