"""Knock-out Whist analyses: who survives the rounds, who wins, and what dogs and trumps do.

Inputs are the run's tables (``RunFolder.scan``): ``seats`` (with Knock-out's
``out_round``, ``placing``, ``dog_used``, ``revived``), ``deals`` (``players``,
the table size, and ``dealer``) and Knock-out's own ``rounds`` (one row per
player per round). A Knock-out game is one "deal" of those tables. Each
function is LazyFrames in, one LazyFrame out; the caller collects.

Words used throughout:
- a PLAYER-GAME is one seat of one game: what a strategy is dealt into. In a
  line-up such as A B A B A B A a strategy holds several seats of a game.
- TABLE is the table size as text ("2" .. "7"), or "all" for the rows that
  pool every table size of the run (a run may play several sizes, so each
  analysis gives both; with one size the "all" rows repeat it).
- a player is STILL IN after round r unless it was knocked out for good in
  round r or before (``seats.out_round <= r``). A player on a dog's life is
  still in; one whose dog failed goes out in the dog's round. The winner is
  never out, so it counts as in after every round, also those its game did
  not need: the survival curve ends (round 7) at the win rate.
- POSITION is the seat counted from the first dealer (``deals.dealer``): 0 is
  the first dealer, 1 the player on its left, who leads round 1.

Intervals are 95% t-intervals over DEAL INDICES: every line-up and seating
of deal index d shares its seed, so rows of one deal index are not
independent, and rows of different indices are. Rates and means are pooled
ratios (every unit a row counts weighs the same: a player-game, a dog's life, a
trump choice) with a cluster standard error (``stats.ratio_aggs``); bounds of
rates are clipped to [0, 1], of placings to 1..table size.

Forfeited games are left out: a forfeit ends the game with no placings.
"""

from __future__ import annotations

import polars as pl

from whist_sim.reports.analyses import position_role
from whist_sim.reports.stats import (
    ordered_sums,
    ratio_aggs,
    with_rate_bounds,
    with_ratio_interval,
)

ALL = "all"
"""``table`` of the rows pooling every table size."""

ROUNDS = 7
"""At most seven rounds: 7 cards, then 6, ... 1."""

UNIT = "deal"
"""The unit of the intervals: the deal index (the seed every line-up shares)."""

LONGEST, SHORTER = "longest", "shorter"
"""Trump choices of :func:`trump_choice`: a longest suit held, or a shorter one."""


def player_games(seats: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """One row per seat per played (not forfeited) game.

    Columns: deal_key, pairing, deal, rotation, seat, strategy, players
    (table size), position (seat counted from the first dealer), out_round
    (null for the winner), placing, won, dog_used, revived.
    """
    played = deals.filter(pl.col("status") == "ok").select(
        "deal_key", pl.col("players").cast(pl.Int64), pl.col("dealer").cast(pl.Int64)
    )
    return (
        seats.join(played, on="deal_key")
        .with_columns(
            position=(pl.col("seat").cast(pl.Int64) - pl.col("dealer")) % pl.col("players"),
            won=pl.col("result") == "win",
            out_round=pl.col("out_round").cast(pl.Int64),
            placing=pl.col("placing").cast(pl.Int64),
        )
        .select("deal_key", "pairing", "deal", "rotation", "seat", "strategy", "players",
                "position", "out_round", "placing", "won", "dog_used", "revived")
    )


def _tables(frame: pl.LazyFrame) -> pl.LazyFrame:
    """``frame`` with ``table`` set to its table size, plus a copy of every row as "all"."""
    return pl.concat([
        frame.with_columns(table=pl.col("players").cast(pl.String)),
        frame.with_columns(table=pl.lit(ALL)),
    ])


def _units(rows: pl.LazyFrame, keys: list[str], sums: dict[str, pl.Expr]) -> pl.LazyFrame:
    """The ``sums`` (per-row expressions) added up per ``keys`` and deal index (unsorted),
    for :func:`_pool`: a deal index lies in one range of deal indices, so the rows of a
    run's ranges, one under the other, are the whole run's."""
    return (
        rows.select(*keys, UNIT, **sums)  # row by row first, so literals broadcast
        .group_by([*keys, UNIT])
        .agg(*ordered_sums(list(sums)))
        .select(*keys, UNIT, *sums)
    )


MOST_PLAYERS = 7
"""The largest Knock-out table: no placing is worse."""


def _placing_bounds(name: str) -> list[pl.Expr]:
    """A mean placing's interval cut to the placings there are, 1 to the table's size (the
    largest table's for "all"): from two deal indices its t-interval read "2.00 [-10.71,
    14.71]" at a table of three (a reader's probe), as a rate's is cut at 0 and 1."""
    size = pl.col("table").cast(pl.Int64, strict=False).fill_null(MOST_PLAYERS)
    return [pl.col(f"{name}_{end}").clip(lower_bound=1).clip(upper_bound=size)
            .alias(f"{name}_{end}") for end in ("lo", "hi")]


def _pool(
    per_unit: pl.LazyFrame,
    keys: list[str],
    sums: list[str],
    ratios: dict[str, tuple[str, str]],
    rates: tuple[str, ...] = (),
) -> pl.LazyFrame:
    """Totals and pooled ratios per ``keys``, with 95% intervals over deal indices.

    ``per_unit`` is :func:`_units`: the ``sums`` (names) added up per deal index, here
    added up over all; ``ratios`` maps an output name to (numerator, denominator) among the
    sums. Deal indices with a zero denominator are left out of that ratio.
    Names in ``rates`` are proportions: their bounds are a rate's (``stats.with_rate_bounds``).
    Adds ``deals``: the deal indices counted.
    """
    def where(column: str, count: str) -> pl.Expr:
        return pl.col(column).filter(pl.col(count) > 0)

    return (
        per_unit.group_by(keys)
        .agg(
            *ordered_sums(sums),
            pl.len().cast(pl.Int64).alias("deals"),
            *[agg for name, (y, n) in ratios.items()
              for agg in ratio_aggs(name, where(y, n), where(n, n))],
        )
        .with_columns(*[e for name in ratios for e in with_ratio_interval(name)])
        .with_columns(*[e for name in rates for e in with_rate_bounds(name)])
        .drop([f"{name}_{suffix}" for name in ratios for suffix in ("se", "units")])
    )


def _count(condition: pl.Expr) -> pl.Expr:
    return condition.cast(pl.Int64)


def survival(games: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy and table: the share of its players still in after each round, 0..7.

    ``games`` is :func:`player_games`. Columns: strategy, table, round (0 is
    before any play: everyone is in), players (player-games), alive,
    survival (alive / players) with ``_lo``/``_hi``, deals.
    """
    return survival_of(survival_units(games))


_SURVIVAL = ["strategy", "table", "round"]


def survival_units(games: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`survival` pools, per deal index (:func:`survival_of`)."""
    rounds = pl.LazyFrame({"round": list(range(ROUNDS + 1))}, schema={"round": pl.Int64})
    alive = pl.col("out_round").is_null() | (pl.col("out_round") > pl.col("round"))
    return _units(_tables(games).join(rounds, how="cross"), _SURVIVAL,
                  {"players": pl.lit(1, pl.Int64), "alive": _count(alive)})


def survival_of(units: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`survival` from :func:`survival_units` of the run or of its ranges."""
    return (
        _pool(units, _SURVIVAL, ["players", "alive"], {"survival": ("alive", "players")},
              rates=("survival",))
        .select("strategy", "table", "round", "players", "alive", "survival", "survival_lo",
                "survival_hi", "deals")
        .sort("strategy", "table", "round")
    )


def elimination_rounds(games: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy and table: in which round its players went out, or that they won.

    ``games`` is :func:`player_games`. One row per (strategy, table, outcome):
    out_round 1..7, or null for the players who won. Columns: strategy,
    table, out_round, outcome ("round 3", or "won"), players (of the
    strategy at that table), count, share (count / players). Descriptive:
    no interval (the shares of one strategy add up to 1).
    """
    return elimination_rounds_of(elimination_counts(games))


def elimination_counts(games: pl.LazyFrame) -> pl.LazyFrame:
    """Players per strategy, table and round out (unsorted): what
    :func:`elimination_rounds_of` adds up."""
    return (
        _tables(games)
        .group_by("strategy", "table", "out_round")
        .agg(pl.len().cast(pl.Int64).alias("count"))
    )


def elimination_rounds_of(counts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`elimination_rounds` from :func:`elimination_counts` of the run or its ranges."""
    return (
        counts.group_by("strategy", "table", "out_round").agg(pl.col("count").sum())
        .with_columns(players=pl.col("count").sum().over("strategy", "table"))
        .with_columns(
            share=pl.col("count") / pl.col("players"),
            outcome=pl.when(pl.col("out_round").is_null()).then(pl.lit("won"))
            .otherwise(pl.format("round {}", pl.col("out_round"))),
        )
        .select("strategy", "table", "out_round", "outcome", "players", "count", "share")
        .sort("strategy", "table", "out_round", nulls_last=True)
    )


def table_results(games: pl.LazyFrame, rounds: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy and table: win rate, first-round knock-outs and mean placing.

    ``games`` is :func:`player_games`, ``rounds`` the ``rounds`` table.
    Columns: strategy, table, players (player-games), wins, win_rate,
    fair_share (mean of 1 / table size: the win rate of an average player),
    first_round_knockouts (took no trick in round 1, whether or not a dog's
    life then saved it), first_round_rate, first_round_out (out for good
    in round 1: no trick and no dog's life), first_round_out_rate, placing
    (mean final placing, 1 = winner), deals. Rates and the placing have
    ``_lo``/``_hi`` over deal indices.
    """
    return table_results_of(table_results_units(games, rounds))


_TABLE_SUMS = ["players", "wins", "share_sum", "first_round_knockouts", "first_round_out",
               "placing_sum", "placed"]


def table_results_units(games: pl.LazyFrame, rounds: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`table_results` pools, per deal index (:func:`table_results_of`)."""
    first = rounds.filter(pl.col("round") == 1).select(
        "deal_key", "seat", (pl.col("tricks") == 0).alias("no_trick"))
    rows = _tables(games.join(first, on=["deal_key", "seat"], how="left"))
    return _units(rows, ["strategy", "table"], {
        "players": pl.lit(1, pl.Int64),
        "wins": _count(pl.col("won")),
        "share_sum": 1.0 / pl.col("players"),
        "first_round_knockouts": _count(pl.col("no_trick").fill_null(False)),
        "first_round_out": _count(pl.col("out_round") == 1),
        "placing_sum": pl.col("placing"),
        "placed": _count(pl.col("placing").is_not_null()),
    })


def table_results_of(units: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`table_results` from :func:`table_results_units` of the run or its ranges."""
    return (
        _pool(
            units,
            ["strategy", "table"],
            _TABLE_SUMS,
            {
                "win_rate": ("wins", "players"),
                "first_round_rate": ("first_round_knockouts", "players"),
                "first_round_out_rate": ("first_round_out", "players"),
                "placing": ("placing_sum", "placed"),
            },
            rates=("win_rate", "first_round_rate", "first_round_out_rate"),
        )
        .with_columns(*_placing_bounds("placing"))
        .with_columns(fair_share=pl.col("share_sum") / pl.col("players"))
        .select(
            "strategy", "table", "players", "wins", "win_rate", "win_rate_lo", "win_rate_hi",
            "fair_share", "first_round_knockouts", "first_round_rate", "first_round_rate_lo",
            "first_round_rate_hi", "first_round_out", "first_round_out_rate",
            "first_round_out_rate_lo", "first_round_out_rate_hi", "placing", "placing_lo",
            "placing_hi", "deals",
        )
        .sort("strategy", "table")
    )


def win_rate_by_seat(games: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy, table size and position (seat from the first dealer): win rate.

    ``games`` is :func:`player_games`. Columns: strategy, players (table
    size), position, role (``analyses.position_role``: "dealer", "eldest",
    "dealer+2", ...), games (player-games), wins, win_rate with ``_lo``/``_hi``
    over deal indices, fair_share (1 / table size), deals.
    """
    return win_rate_by_seat_of(win_rate_by_seat_units(games))


_SEAT = ["strategy", "players", "position"]


def win_rate_by_seat_units(games: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`win_rate_by_seat` pools, per deal index (:func:`win_rate_by_seat_of`)."""
    return _units(games, _SEAT, {"games": pl.lit(1, pl.Int64), "wins": _count(pl.col("won"))})


def win_rate_by_seat_of(units: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`win_rate_by_seat` from :func:`win_rate_by_seat_units` of the run or its ranges."""
    return (
        _pool(units, _SEAT, ["games", "wins"], {"win_rate": ("wins", "games")},
              rates=("win_rate",))
        .with_columns(fair_share=1.0 / pl.col("players"),
                      role=position_role(pl.col("position"), pl.col("players")))
        .select("strategy", "players", "position", "role", "games", "wins", "win_rate",
                "win_rate_lo", "win_rate_hi", "fair_share", "deals")
        .sort("strategy", "players", "position")
    )


def dogs_life(games: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy and table: dog's lives granted, revivals, and how revived players finished.

    ``games`` is :func:`player_games`. Columns: strategy, table, players
    (player-games), granted (got a dog's life), granted_rate (granted /
    players), revived (the dog won its trick and came back), revival_rate
    (revived / granted), revived_wins, revived_win_rate (revived_wins /
    revived), revived_placing (their mean final placing), deals. Rates and
    the placing have ``_lo``/``_hi`` over deal indices; null where nothing
    was granted or revived.
    """
    return dogs_life_of(dogs_life_units(games))


_DOG_SUMS = ["players", "granted", "revived", "revived_wins", "revived_placing_sum"]


def dogs_life_units(games: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`dogs_life` pools, per deal index (:func:`dogs_life_of`)."""
    revived = pl.col("revived").fill_null(False)
    return _units(_tables(games), ["strategy", "table"], {
        "players": pl.lit(1, pl.Int64),
        "granted": _count(pl.col("dog_used").fill_null(False)),
        "revived": _count(revived),
        "revived_wins": _count(revived & pl.col("won")),
        "revived_placing_sum": pl.when(revived).then(pl.col("placing")).otherwise(0),
    })


def dogs_life_of(units: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`dogs_life` from :func:`dogs_life_units` of the run or of its ranges."""
    return (
        _pool(
            units,
            ["strategy", "table"],
            _DOG_SUMS,
            {
                "granted_rate": ("granted", "players"),
                "revival_rate": ("revived", "granted"),
                "revived_win_rate": ("revived_wins", "revived"),
                "revived_placing": ("revived_placing_sum", "revived"),
            },
            rates=("granted_rate", "revival_rate", "revived_win_rate"),
        )
        .with_columns(*_placing_bounds("revived_placing"))
        .select(
            "strategy", "table", "players", "granted", "granted_rate", "granted_rate_lo",
            "granted_rate_hi", "revived", "revival_rate", "revival_rate_lo", "revival_rate_hi",
            "revived_wins", "revived_win_rate", "revived_win_rate_lo", "revived_win_rate_hi",
            "revived_placing", "revived_placing_lo", "revived_placing_hi", "deals",
        )
        .sort("strategy", "table")
    )


def trump_choice(rounds: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: the suit it named as trump against its longest suit, and how the round went.

    ``rounds`` is the ``rounds`` table, ``deals`` the ``deals`` table (to
    leave out forfeited games). A choice is a round (2..7) whose trump the
    strategy's seat named, as the previous round's top trick-taker; its
    hand then was the one it saw when choosing.

    One row per strategy, ``table`` (as TABLE above) and ``choice``: "longest"
    (trump was a longest suit of its hand: ``trump_length == longest_suit``),
    "shorter", and "all". Columns: strategy, table, choice, choices, longest
    (choices of a longest suit), longest_rate (longest / choices), trump_length and longest_suit
    (means over choices), round_win (the chooser's share of the round's top
    trick count: 1 when it took most tricks alone, 1/k when k players tied
    for most, else 0, so it sums to 1 over the players of a round),
    survived (the chooser took a trick, so stayed in), fair_share (mean of 1
    / players dealt into the round, dogs included: an average player's
    round_win), deals. Rates and means have ``_lo``/``_hi`` over deal indices.
    """
    return trump_choice_of(trump_choice_units(rounds, deals))


def trump_choice_units(rounds: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`trump_choice` pools, per deal index (:func:`trump_choice_of`)."""
    played = deals.filter(pl.col("status") == "ok").select("deal_key", "players")
    per_round = ["deal_key", "round"]
    top = pl.col("tricks").max().over(per_round)
    choices = (
        rounds.join(played, on="deal_key")
        .with_columns(
            top=top,
            tied=(pl.col("tricks") == top).sum().over(per_round),
            dealt_in=pl.len().over(per_round),
        )
        .filter(pl.col("chose_trump"))
        .with_columns(
            is_longest=pl.col("trump_length") == pl.col("longest_suit"),
            round_win=pl.when(pl.col("tricks") == pl.col("top"))
            .then(1.0 / pl.col("tied")).otherwise(0.0),
        )
        .with_columns(choice=pl.when(pl.col("is_longest")).then(pl.lit(LONGEST))
                      .otherwise(pl.lit(SHORTER)))
    )
    rows = _tables(pl.concat([choices, choices.with_columns(choice=pl.lit(ALL))]))
    return _units(rows, ["strategy", "table", "choice"], {
        "choices": pl.lit(1, pl.Int64),
        "longest": _count(pl.col("is_longest")),
        "trump_sum": pl.col("trump_length").cast(pl.Int64),
        "longest_sum": pl.col("longest_suit").cast(pl.Int64),
        "win_sum": pl.col("round_win"),
        "survived_sum": _count(pl.col("tricks") > 0),
        "fair_sum": 1.0 / pl.col("dealt_in"),
    })


_TRUMP_SUMS = ["choices", "longest", "trump_sum", "longest_sum", "win_sum", "survived_sum",
               "fair_sum"]


def trump_choice_of(units: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`trump_choice` from :func:`trump_choice_units` of the run or of its ranges."""
    order = pl.col("choice").replace_strict({LONGEST: 0, SHORTER: 1, ALL: 2},
                                            return_dtype=pl.Int8)
    return (
        _pool(
            units,
            ["strategy", "table", "choice"],
            _TRUMP_SUMS,
            {
                "longest_rate": ("longest", "choices"),
                "trump_length": ("trump_sum", "choices"),
                "longest_suit": ("longest_sum", "choices"),
                "round_win": ("win_sum", "choices"),
                "survived": ("survived_sum", "choices"),
            },
            rates=("longest_rate", "round_win", "survived"),
        )
        .with_columns(fair_share=pl.col("fair_sum") / pl.col("choices"))
        .select(
            "strategy", "table", "choice", "choices", "longest", "longest_rate",
            "longest_rate_lo", "longest_rate_hi", "trump_length", "trump_length_lo",
            "trump_length_hi",
            "longest_suit", "longest_suit_lo", "longest_suit_hi", "round_win", "round_win_lo",
            "round_win_hi", "survived", "survived_lo", "survived_hi", "fair_share", "deals",
        )
        .sort(["strategy", "table", order])
    )
