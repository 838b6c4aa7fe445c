"""Minnesota Whist analyses: who grands, how often it pays, and where granding starts to pay.

Inputs are the run's tables (``RunFolder.scan``): ``seats``, ``deals`` (with
Minnesota's ``hand_type``, ``grander``, ``laid``, ``calls``, ``side_tricks``,
``side_points``) and ``matches`` (one row per seat per game to ``target``).
Each function is LazyFrames in, one LazyFrame out; the caller collects.

Words used throughout:
- a SIDE is a partnership at the table: side 0 holds seats 0 and 2, side 1
  seats 1 and 3. Its PARTNERSHIP label is ``"A+B"``, the strategies of its
  seats in the line-up's order. The schedule seats partnership P = (P1, P2)
  against Q = (Q1, Q2) as P1 Q1 P2 Q2 and, in rotation 1, Q2 P1 Q1 P2: Q's
  seats in seat order then read Q2+Q1, and a label in seat order split Q's
  two games of a set into two rows (a reader's probe); read in the line-up's
  order (a seat's position in it is the seat minus the rotation, modulo 4),
  each partnership keeps one label.
- its side GRANDED when ``deals.grander`` is a seat of that side; the grand
  SUCCEEDED when that side then took 7 tricks or more.
- POINTS are the side's ``side_points`` in the deal (what the scoring gave
  it, 0 when the other side scored); NET is its points minus the other
  side's, the zero-sum form the generic sections use.
- a duplicate SET is a ``(pairing, deal)``: the same game's cards played in
  rotations 0 and 1 (the partnerships swapping seats). Rates and per-deal
  means are pooled ratios (every deal weighs the same) with 95% t-intervals
  over DEAL INDICES, a cluster standard error (``stats.ratio_aggs``): the two
  games of a set share their cards, and so do the sets of every line-up that
  plays that deal index (three or more partnerships). ``deal_indices`` counts
  them, ``sets`` the sets.

Forfeited deals are left out of the deal analyses (a forfeit's points are a
penalty, not the result of a grand or a null hand); the game win rate keeps
every game as the ``matches`` table records it, forfeits included.
"""

from __future__ import annotations

import polars as pl

from whist_sim.reports.analyses import PAIR, deal_totals
from whist_sim.reports.stats import ratio_aggs, with_rate_bounds, with_ratio_interval

HCP: dict[str, int] = {"A": 4, "K": 3, "Q": 2, "J": 1}
"""Milton Work high-card points per rank letter of the card notation."""

GRAND, PASS = "grand", "pass"
"""The two choices of :func:`grand_value_by_hcp`."""

PARTNERSHIP, STRATEGY = "partnership", "strategy"
"""The two kinds of row of :func:`summary`."""

ALL = "all strategies"
"""Strategy name of the pooled curves of :func:`grand_value_by_hcp`."""

RED = ("H", "D")


def hcp(hand: pl.Expr) -> pl.Expr:
    """High-card points of a hand in notation (``"AS KH 7D ..."``): A=4, K=3, Q=2, J=1.

    Pure string work: rank letters A, K, Q and J never occur as suit letters
    (S H D C), so counting each letter in the text counts the cards.
    """
    total = pl.lit(0, pl.Int64)
    for rank, weight in HCP.items():
        total = total + weight * hand.str.count_matches(rank, literal=True).cast(pl.Int64)
    return total


def seat_deals(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """One row per seat per played deal, seen from the seat's side.

    Columns: deal_key, pairing, deal, rotation, hand, seat, strategy, side,
    partnership (its side's label), hand_type ("grand" or "null"), grand
    (bool), granded (its side granded), success (its side granded and took
    7+ tricks), choice, hcp (of the seat's 13 dealt cards), tricks (its
    side's), points (its side's), net (its side's minus the other's).

    ``choice`` is what the seat itself did in the bidding: "grand" for the
    grander; "pass" for a seat that declined to grand (laid a red card that was
    turned, or said pass when bidding is spoken); null for a seat whose choice did
    not come into play because an earlier seat granded first (its card never turned,
    red or black, or its call never made). Forfeited deals are left out.
    """
    played = deals.filter((pl.col("status") == "ok") & pl.col("hand_type").is_not_null()).select(
        "deal_key", "hand_type", "grander", "laid", "turned", "calls", "side_tricks",
        "side_points", "hands", "strategies",
    )
    seat = pl.col("seat").cast(pl.Int64)
    side = seat % 2
    grander = pl.col("grander").cast(pl.Int64)
    laid = pl.col("laid").list.get(seat, null_on_oob=True)
    # a laid card counts only once turned: an earlier grand left the later cards face
    # down, and a red one among them was counted as a pass while a black one was left
    # out, though neither decided the hand
    turned = pl.col("turned").fill_null([]).list.contains(pl.col("seat").cast(pl.Int8))
    passed = (
        pl.when(laid.is_not_null())
        .then(laid.str.slice(-1).is_in(RED) & turned)
        .otherwise(
            pl.col("calls").fill_null("").str.split(" ")
            .list.contains(pl.format("{}:pass", pl.col("seat")))
        )
    )
    return (
        seats.select("deal_key", *PAIR, "rotation", "hand", "seat", "strategy")
        .join(played, on="deal_key")
        .with_columns(
            side=side,
            # the partnership's seats in the line-up's order, whichever seats it holds
            partnership=pl.when(((side - pl.col("rotation")) % 4)
                                < ((side + 2 - pl.col("rotation")) % 4))
            .then(pl.format("{}+{}", pl.col("strategies").list.get(side),
                            pl.col("strategies").list.get(side + 2)))
            .otherwise(pl.format("{}+{}", pl.col("strategies").list.get(side + 2),
                                 pl.col("strategies").list.get(side))),
            grand=pl.col("hand_type") == GRAND,
            granded=grander.is_not_null() & (grander % 2 == side),
            choice=pl.when(grander == seat).then(pl.lit(GRAND))
            .when(passed).then(pl.lit(PASS)),
            hcp=hcp(pl.col("hands").list.get(seat)),
            tricks=pl.col("side_tricks").list.get(side).cast(pl.Int64),
            points=pl.col("side_points").list.get(side).cast(pl.Float64),
            net=(pl.col("side_points").list.get(side)
                 - pl.col("side_points").list.get(1 - side)).cast(pl.Float64),
        )
        .with_columns(
            granded=pl.col("granded").fill_null(False),
            success=pl.col("granded").fill_null(False) & (pl.col("tricks") >= 7),
        )
        .select(
            "deal_key", *PAIR, "rotation", "hand", "seat", "strategy", "side", "partnership",
            "hand_type", "grand", "granded", "success", "choice", "hcp", "tricks", "points",
            "net",
        )
    )


def _units(seat_rows: pl.LazyFrame, matches: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Deal rows and game rows keyed by (kind, name): a partnership's side, or a strategy's seat.

    A partnership counts once per deal (its side's seat 0 or 1 stands for it);
    a strategy counts once per seat it holds, so in partnership A+A each deal
    counts twice, with the same result: ratios are unchanged.
    """
    deal_rows = pl.concat([
        seat_rows.filter(pl.col("seat") < 2).with_columns(
            kind=pl.lit(PARTNERSHIP), name=pl.col("partnership")),
        seat_rows.with_columns(kind=pl.lit(STRATEGY), name=pl.col("strategy")),
    ])
    game = ["pairing", "deal", "rotation"]
    partner = matches.select(
        *game, ((pl.col("seat") + 2) % 4).alias("seat"), pl.col("strategy").alias("partner"))
    won = (pl.col("result") == "win").cast(pl.Float64)
    # in the line-up's order, as ``seat_deals`` labels it: in seat order a mixed
    # partnership's games were split between two labels (a probe)
    first = ((pl.col("seat") - pl.col("rotation")) % 4) < ((pl.col("seat") + 2
                                                            - pl.col("rotation")) % 4)
    game_rows = pl.concat([
        matches.filter(pl.col("seat") < 2)
        .join(partner, on=[*game, "seat"])
        .select(*PAIR, kind=pl.lit(PARTNERSHIP),
                name=pl.when(first)
                .then(pl.format("{}+{}", pl.col("strategy"), pl.col("partner")))
                .otherwise(pl.format("{}+{}", pl.col("partner"), pl.col("strategy"))),
                won=won),
        matches.select(*PAIR, kind=pl.lit(STRATEGY), name=pl.col("strategy"), won=won),
    ])
    return deal_rows, game_rows


HAND_RANGE = {
    "default": {"points": (0.0, 14.0), "net": (-14.0, 14.0)},
    "pagat": {"points": (-7.0, 7.0), "net": (-7.0, 7.0)},
}
"""Per scoring, the range of what one hand gives a side: under the default scoring a side
scores 1 a trick over six, up to 7, or 2 a trick over six, up to 14, when the other side's
grand fails; under pagat's it scores or loses 1 a trick over six, up to 7, and the other
side 0. A mean over hands lies in the same range, so its interval is cut to it: a t-interval
over two deal indices read [-64.53, 62.53] for nets no hand can pass (a probe)."""


def within_hand_range(name: str, measure: str, scoring: str) -> list[pl.Expr]:
    """``<name>_lo``/``<name>_hi`` cut to what one hand can give (``HAND_RANGE``) under
    ``scoring``, for a mean of ``measure`` ("points" or "net") per hand."""
    low, high = HAND_RANGE[scoring][measure]
    return [pl.col(f"{name}_{end}").clip(low, high) for end in ("lo", "hi")]


def summary(seat_rows: pl.LazyFrame, matches: pl.LazyFrame) -> pl.LazyFrame:
    """Per partnership and per strategy: grand rate, grand success, points by hand type,
    game win rate, each with a 95% interval over deal indices.

    ``seat_rows`` is :func:`seat_deals`; ``matches`` the ``matches`` table.

    Columns: kind ("partnership" or "strategy"), name, deals (side-deals for a
    partnership, seat-deals for a strategy), sets, deal_indices, grands (deals its side
    granded), grand_rate (grands / deals), successes, grand_success
    (successes / grands), own_grand_points (its side's mean points per hand
    its side granded: the hands of ``grand_success``), their_grands (hands the
    other side granded), their_grand_points (its side's mean points on them),
    null_hands, null_points (per null hand), games, wins, game_win_rate (a game is a row group of
    ``matches``: one per pairing, deal and rotation; a draw is not a win).
    Every rate and mean has ``_lo``/``_hi``: a 95% t-interval over deal
    indices (pooled ratio, cluster standard error), null with fewer than two.
    Partnerships first, then strategies, by name.
    """
    return summary_of(*summary_sets(seat_rows, matches))


_UNIT = ["kind", "name"]


def summary_sets(seat_rows: pl.LazyFrame,
                 matches: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """What :func:`summary` reads, per duplicate set: the deal counts and point sums of each
    partnership and strategy, and their games and wins (unsorted). A set is never split
    between ranges of deal indices, so the sets of a run's ranges, one under the other, are
    the whole run's (:func:`summary_of`)."""
    deal_rows, game_rows = _units(seat_rows, matches)
    keys = _UNIT
    per_set = (
        deal_rows.group_by([*keys, *PAIR])
        .agg(
            pl.len().cast(pl.Int64).alias("deals"),
            pl.col("granded").sum().cast(pl.Int64).alias("grands"),
            pl.col("success").sum().cast(pl.Int64).alias("successes"),
            pl.col("points").filter(pl.col("granded")).sum().alias("own_grand_sum"),
            (pl.col("grand") & ~pl.col("granded")).sum().cast(pl.Int64).alias("their_grands"),
            pl.col("points").filter(pl.col("grand") & ~pl.col("granded")).sum()
            .alias("their_grand_sum"),
            (~pl.col("grand")).sum().cast(pl.Int64).alias("null_hands"),
            pl.col("points").filter(~pl.col("grand")).sum().alias("null_sum"),
        )
    )
    game_sets = (
        game_rows.group_by([*keys, *PAIR])
        .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("won").sum().alias("wins"))
    )
    return per_set, game_sets


def summary_of(per_set: pl.LazyFrame, game_sets: pl.LazyFrame, scoring: str = "default"
               ) -> pl.LazyFrame:
    """:func:`summary` from :func:`summary_sets` of the run or of its ranges; the points'
    intervals cut to what one hand can give under ``scoring`` (``HAND_RANGE``)."""
    keys = _UNIT

    def where(column: str, count: str) -> pl.Expr:
        return pl.col(column).filter(pl.col(count) > 0)

    per_deal = (
        deal_totals(per_set, keys, ("deals", "grands", "successes", "own_grand_sum",
                                    "their_grands", "their_grand_sum", "null_hands",
                                    "null_sum"))
        .group_by(keys)
        .agg(
            pl.col("deals", "grands", "successes", "their_grands", "null_hands").sum(),
            pl.col("sets").sum(),
            pl.len().cast(pl.Int64).alias("deal_indices"),
            *ratio_aggs("grand_rate", pl.col("grands"), pl.col("deals")),
            *ratio_aggs("grand_success", where("successes", "grands"), where("grands", "grands")),
            # own grands apart from the other side's: the column beside `success` is
            # about the same hands (pooled, a heuristic's 3.28 points per grand hand
            # counted its opponents' grands too, a probe)
            *ratio_aggs("own_grand_points", where("own_grand_sum", "grands"),
                        where("grands", "grands")),
            *ratio_aggs("their_grand_points", where("their_grand_sum", "their_grands"),
                        where("their_grands", "their_grands")),
            *ratio_aggs("null_points", where("null_sum", "null_hands"),
                        where("null_hands", "null_hands")),
        )
        .with_columns(
            *with_ratio_interval("grand_rate"),
            *with_ratio_interval("grand_success"),
            *with_ratio_interval("own_grand_points"),
            *with_ratio_interval("their_grand_points"),
            *with_ratio_interval("null_points"),
        )
        .with_columns(*[e for name in ("own_grand_points", "their_grand_points", "null_points")
                        for e in within_hand_range(name, "points", scoring)])
    )
    games = (
        deal_totals(game_sets, keys, ("games", "wins"))
        .group_by(keys)
        .agg(
            pl.col("games").sum(),
            pl.col("wins").sum().cast(pl.Int64),
            *ratio_aggs("game_win_rate", pl.col("wins"), pl.col("games")),
        )
        .with_columns(*with_ratio_interval("game_win_rate"))
    )
    return (
        per_deal.join(games, on=keys, how="full", coalesce=True)
        .with_columns(
            *[e for rate in ("grand_rate", "grand_success", "game_win_rate")
              for e in with_rate_bounds(rate)],
        )
        .select(
            *keys, "deals", "sets", "deal_indices", "grands",
            "grand_rate", "grand_rate_lo", "grand_rate_hi",
            "successes", "grand_success", "grand_success_lo", "grand_success_hi",
            "own_grand_points", "own_grand_points_lo", "own_grand_points_hi",
            "their_grands", "their_grand_points", "their_grand_points_lo",
            "their_grand_points_hi",
            "null_hands", "null_points", "null_points_lo", "null_points_hi",
            "games", "wins", "game_win_rate", "game_win_rate_lo", "game_win_rate_hi",
        )
        .sort([pl.col("kind") != PARTNERSHIP, "name"])
    )


def grand_value_by_hcp(seat_rows: pl.LazyFrame, band: int = 1,
                       scoring: str = "default") -> pl.LazyFrame:
    """Expected result of granding and of passing, by the chooser's high-card points.

    ``seat_rows`` is :func:`seat_deals`. One row per strategy, choice ("grand":
    the seat granded; "pass": it declined, see :func:`seat_deals`) and HCP
    band, plus the same pooled over every strategy (strategy
    ``"all strategies"``).

    Columns: strategy, choice, hcp (the band's lowest value: HCP // band *
    band), hcp_hi (its highest), seats (choices counted), sets, deal_indices,
    points (mean points of the seat's side in the deal) and net (mean of its
    side's points minus the other side's), each with ``_lo``/``_hi``: a 95%
    t-interval over deal indices (pooled ratio, cluster standard error), cut to what
    one hand can give under ``scoring`` (``HAND_RANGE``).

    Read the two curves against each other: where "grand" lies above "pass",
    seats with that many points did better granding than passing. It is an
    association: a strategy's choices select the hands in each curve (and a
    passing seat's deal may be granded by another seat).
    """
    return grand_value_of(grand_value_sets(seat_rows, band), band, scoring)


_CHOICE = ["strategy", "choice", "hcp"]


def grand_value_sets(seat_rows: pl.LazyFrame, band: int = 1) -> pl.LazyFrame:
    """What :func:`grand_value_by_hcp` reads, per duplicate set: choices counted and the sums
    of points and net per strategy, choice and HCP band (unsorted; the sets of a run's
    ranges of deal indices, one under the other, are the whole run's)."""
    chosen = seat_rows.filter(pl.col("choice").is_not_null()).with_columns(
        hcp=(pl.col("hcp") // band * band).cast(pl.Int64)
    )
    both = pl.concat([chosen, chosen.with_columns(strategy=pl.lit(ALL))])
    return (
        both.group_by([*_CHOICE, *PAIR])
        .agg(pl.len().cast(pl.Int64).alias("n"), pl.col("points").sum(), pl.col("net").sum())
    )


def grand_value_of(sets: pl.LazyFrame, band: int = 1, scoring: str = "default"
                   ) -> pl.LazyFrame:
    """:func:`grand_value_by_hcp` from :func:`grand_value_sets` (the same ``band``)."""
    keys = _CHOICE
    return (
        deal_totals(sets, keys, ("n", "points", "net"))
        .group_by(keys)
        .agg(
            pl.col("n").sum().alias("seats"),
            pl.col("sets").sum(),
            pl.len().cast(pl.Int64).alias("deal_indices"),
            *ratio_aggs("points", pl.col("points"), pl.col("n")),
            *ratio_aggs("net", pl.col("net"), pl.col("n")),
        )
        .with_columns(*with_ratio_interval("points"), *with_ratio_interval("net"),
                      hcp_hi=pl.col("hcp") + band - 1)
        .with_columns(*within_hand_range("points", "points", scoring),
                      *within_hand_range("net", "net", scoring))
        .select(*keys, "hcp_hi", "seats", "sets", "deal_indices", "points", "points_lo",
                "points_hi", "net", "net_lo", "net_hi")
        .sort([pl.col("strategy") == ALL, "strategy", "choice", "hcp"])
    )


def grand_vs_pass(value_by_hcp: pl.LazyFrame) -> pl.LazyFrame:
    """The two curves of :func:`grand_value_by_hcp` side by side, one row per strategy and band.

    Columns: strategy, hcp, hcp_hi, then for each choice ``grand_`` and
    ``pass_`` + seats, net (with _lo/_hi) and points (with _lo/_hi), and
    gain (grand_net - pass_net: null unless both choices occurred in the
    band). Sorted as the curves, pooled strategies last.
    """
    columns = ["seats", "net", "net_lo", "net_hi", "points", "points_lo", "points_hi"]

    def side(choice: str) -> pl.LazyFrame:
        return value_by_hcp.filter(pl.col("choice") == choice).select(
            "strategy", "hcp", "hcp_hi", *[pl.col(c).alias(f"{choice}_{c}") for c in columns])

    return (
        side(GRAND).join(side(PASS), on=["strategy", "hcp", "hcp_hi"], how="full",
                         coalesce=True)
        .with_columns(gain=pl.col("grand_net") - pl.col("pass_net"))
        .sort([pl.col("strategy") == ALL, "strategy", "hcp"])
    )


def grand_threshold(value_by_hcp: pl.LazyFrame, min_seats: int = 1) -> pl.LazyFrame:
    """Per strategy: the HCP from which granding did better than passing, as estimated.

    ``value_by_hcp`` is :func:`grand_value_by_hcp`. For each HCP band in which
    both choices were seen (at least ``min_seats`` times each), ``gain`` is the
    mean net when granding minus the mean net when passing (:func:`grand_vs_pass`).
    ``threshold`` is the lowest band from which the gain is positive in that
    band and in every higher band compared; null if the gain is not positive
    in the highest band.

    Columns: strategy, threshold, bands (bands compared), grands, passes
    (seats counted in those bands), and ``grands_from``, ``passes_from``: the seats of
    the bands at and above the threshold, the evidence the threshold rests on (a probe
    read "grand from 14" beside 276 grands and 517 passes, most of them in bands below
    it, where granding lost; from 14 up there were 13 passes). A point estimate
    without an interval: read it with the curves' bands.
    """
    gains = (
        grand_vs_pass(value_by_hcp)
        .filter((pl.col("grand_seats") >= min_seats) & (pl.col("pass_seats") >= min_seats))
        .with_columns(
            # no losing band at or above this one: count them from the top down
            clear=(pl.col("gain") <= 0).cast(pl.Int64)
            .cum_sum().over("strategy", order_by="hcp", descending=True) == 0
        )
    )
    return (
        gains.group_by("strategy")
        .agg(
            pl.col("hcp").filter(pl.col("clear")).min().alias("threshold"),
            pl.len().cast(pl.Int64).alias("bands"),
            pl.col("grand_seats").sum().cast(pl.Int64).alias("grands"),
            pl.col("pass_seats").sum().cast(pl.Int64).alias("passes"),
            pl.col("grand_seats").filter(pl.col("clear")).sum().cast(pl.Int64)
            .alias("grands_from"),
            pl.col("pass_seats").filter(pl.col("clear")).sum().cast(pl.Int64)
            .alias("passes_from"),
        )
        .with_columns(  # no threshold: nothing rests on it (not 0 seats of evidence)
            [pl.when(pl.col("threshold").is_not_null()).then(pl.col(name)).alias(name)
             for name in ("grands_from", "passes_from")])
        .sort([pl.col("strategy") == ALL, "strategy"])
    )
