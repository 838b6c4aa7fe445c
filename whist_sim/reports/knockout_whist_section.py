"""The Knock-out Whist sections of a report: survival, wins by table size and seat, dog's
life, trump choice."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import polars as pl

from whist_sim.reports import knockout_whist as kw
from whist_sim.reports import plots
from whist_sim.reports.chunks import DealRanges, Scan
from whist_sim.reports.document import NO_SPREAD_NOTE, Section, Table, fmt_ci, grid_data, percent
from whist_sim.reports.document import column as _col
from whist_sim.reports.document import count_interval as _count_ci
from whist_sim.reports.document import interval as _ci
from whist_sim.reports.document import table_of as _table
from whist_sim.store import RunFolder


def _shown_tables(df: pl.DataFrame) -> pl.DataFrame:
    """Rows to show: every table size, and the pooled "all" rows only when there are several."""
    if df.filter(pl.col("table") != kw.ALL).select("table").n_unique() > 1:
        return df
    return df.filter(pl.col("table") != kw.ALL)


def _dogs_life_settings(folder: RunFolder) -> set[str]:
    """The ``dogs_life`` values the run's games were played under (read from the results,
    as the Run section reads the variant; a key left out is the default, "off")."""
    variants = folder.scan("deals").select(pl.col("variant").unique()).collect()["variant"]
    return {str(json.loads(v).get("dogs_life") or "off") for v in variants if v}


def _fixed_by_the_rules(df: pl.DataFrame, name: str, where: pl.Expr) -> pl.DataFrame:
    """``name``'s interval dropped on the rows ``where`` the rules fix its value: a share
    that cannot be anything else read ``0.000 [0.000, 0.204]`` (Wilson's interval of a rate
    with no spread), as if up to a fifth might have gone the other way (a probe)."""
    bounds = [f"{name}_lo", f"{name}_hi"]
    return df.with_columns(
        pl.when(where).then(None).otherwise(pl.col(b)).alias(b) for b in bounds)


def _survival_table(survival: pl.DataFrame) -> Table:
    """One row per round, one column per strategy and table size (seven rounds down and a
    few columns fit the page; seven interval columns across did not). Its CSV holds the
    same grid in numbers: per column ``heuristic · 4 seats`` its share and the share's
    ``_lo`` and ``_hi`` (as printed where labels would name two columns alike)."""
    cells = {(r["strategy"], r["table"], r["round"]): r for r in survival.iter_rows(named=True)}
    keys = survival.select("strategy", "table", "players").unique(maintain_order=True)
    tables = [f"{name} · {'all tables' if table == kw.ALL else f'{table} seats'}"
              for name, table, _ in keys.iter_rows()]
    header = [f"{label} · {players} player-games"
              for label, players in zip(tables, keys["players"], strict=True)]
    rounds = range(1, kw.ROUNDS + 1)
    rows = [[str(number)] + ["—" if (cell := cells.get((name, table, number))) is None
                             else fmt_ci(cell, "survival", 2)
                             for name, table, _ in keys.iter_rows()]
            for number in rounds]
    data = grid_data(("after_round", list(rounds)), [
        (f"{label}{suffix}", [None if (cell := cells.get((name, table, number))) is None
                              else cell[f"survival{suffix}"] for number in rounds])
        for label, (name, table, _) in zip(tables, keys.iter_rows(), strict=True)
        for suffix in ("", "_lo", "_hi")])
    return Table(["after round", *header], rows,
                 "Share still in after each round [95% CI], per strategy and table size",
                 "knockout_whist_survival", data=data)


def _elimination_table(eliminated: pl.DataFrame) -> Table:
    shares = {(r["strategy"], r["table"], r["outcome"]): r["share"]
              for r in eliminated.iter_rows(named=True)}
    outcomes = [f"round {r}" for r in range(1, 8)] + ["won"]
    keys = eliminated.select("strategy", "table", "players").unique(maintain_order=True)
    rows = [
        [name, table, str(players)]
        + [percent(shares.get((name, table, o), 0.0)) for o in outcomes]
        for name, table, players in keys.iter_rows()
    ]
    data = keys.with_columns(
        pl.Series(o.replace("round ", "out_in_"), [
            shares.get((name, table, o), 0.0) for name, table, _ in keys.iter_rows()],
            pl.Float64)
        for o in outcomes)
    return Table(["strategy", "table", "player-games",
                  *[f"out in {r}" for r in range(1, 8)], "won"],
                 rows, "Round of elimination (share of the strategy's players)",
                 "knockout_whist_elimination", data=data)


def knockout_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The Knock-out Whist sections: survival by round, wins by table size and seat, dog's
    life, and trump choice."""
    def per_deal(scan: Scan) -> list[pl.LazyFrame]:
        rounds = scan("rounds")
        games = kw.player_games(scan("seats"), scan("deals"))
        return [kw.survival_units(games), kw.elimination_counts(games),
                kw.table_results_units(games, rounds), kw.win_rate_by_seat_units(games),
                kw.dogs_life_units(games), kw.trump_choice_units(rounds, scan("deals"))]

    parts = DealRanges.of(folder).collect_all(per_deal)
    finish = (kw.survival_of, kw.elimination_rounds_of, kw.table_results_of,
              kw.win_rate_by_seat_of, kw.dogs_life_of, kw.trump_choice_of)
    survival, eliminated, results, by_seat, dogs, trumps = pl.collect_all(
        [done(part.lazy()) for done, part in zip(finish, parts, strict=True)])
    del parts
    survival, eliminated, results, dogs, trumps = (
        _shown_tables(df) for df in (survival, eliminated, results, dogs, trumps))
    settings = _dogs_life_settings(folder)
    dogs_off = settings == {"off"}
    dogs_on = bool(settings) and "off" not in settings
    if dogs_on:  # every player knocked out in round 1 gets a dog's life
        survival = _fixed_by_the_rules(survival, "survival", pl.col("round") == 1)
        results = _fixed_by_the_rules(results, "first_round_out_rate", pl.lit(True))
    if dogs_off:  # no dog's life can be granted: nothing to measure
        dogs = dogs.with_columns(pl.lit(None, dtype=pl.Float64).alias(c) for c in (
            "granted_rate", "granted_rate_lo", "granted_rate_hi"))
    trumps = _fixed_by_the_rules(trumps, "longest_rate", pl.col("choice") != "all")
    several = results.filter(pl.col("table") == kw.ALL).height > 0

    def figure(df: pl.DataFrame, draw: Callable[[pl.DataFrame, Path], Path],
               name: str) -> list[Path]:
        return [draw(df, out / f"{name}.png")] if df.height else []

    intervals = (
        "Intervals are 95% t-intervals over deal indices: every line-up and seating of a"
        " deal index is played from the same seed, so only different deal indices count as"
        " independent. Rates and means are pooled ratios (every unit a row counts weighs the"
        " same: a player-game, a granted dog's life, a trump choice) with a cluster standard"
        " error. Forfeited games are left out." + NO_SPREAD_NOTE
    )
    tables_note = (
        " `table` is the table size; `all` pools every size of the run." if several else ""
    )
    return [
        Section(
            "Knock-out Whist: survival",
            [
                "A game is one row of the `deals` table; a player-game one seat of it, so"
                " `player-games` counts the seats a strategy held (several per game in a line-up"
                " such as A B A B A B A); the survival table names the count in each column's"
                " heading." + tables_note,
                "Survival: the share of a strategy's players still in after each round. A"
                " player on a dog's life is still in; one whose dog failed goes out in the"
                " dog's round. The winner is never out, also after rounds its game did not"
                " need, so each curve ends, after round 7, at the strategy's win rate."
                + (" With dog's life on, every player knocked out in round 1 gets one, so"
                   " all are still in after round 1: that row is 1 by the rules and shows no"
                   " interval." if dogs_on else "") + " "
                + intervals,
                "The elimination table is the same story as a distribution: the share of"
                " the strategy's players going out in each round (for good, after any dog's"
                " life), and winning. It is descriptive, without intervals.",
            ],
            [_survival_table(survival), _elimination_table(eliminated)],
            figure(survival, plots.plot_survival, "knockout_survival")
            + figure(eliminated, plots.plot_elimination_rounds, "knockout_elimination"),
        ),
        Section(
            "Knock-out Whist: wins by table size and seat",
            [
                "`win rate`: share of player-games won; `fair share` is what an average"
                " player wins, 1 / table size. `first-round knock-outs`: took no trick in"
                " round 1, whether or not a dog's life then kept it in; `out in round 1`:"
                " knocked out for good there (no dog's life). `placing`: mean final place,"
                " 1 for the winner, the others by the round they went out in, then tricks"
                " in that round." + (" With dog's life on nobody goes out for good in"
                                     " round 1, so `out in round 1` is 0 by the rules and"
                                     " shows no interval." if dogs_on else "")
                + tables_note,
                "By seat: the win rate at each seat counted from the first dealer (`dealer`,"
                " then `eldest`, its left, who leads round 1, then `dealer+2`, ...; at two"
                " seats `non-dealer`), as the"
                " Seat position section labels them, for each table size. " + intervals,
            ],
            [
                _table(results, [
                    ("strategy", _col("strategy")),
                    ("table", _col("table")),
                    ("player-games", _col("players")),
                    ("win rate [95% CI]", _ci("win_rate")),
                    ("fair share", _col("fair_share")),
                    ("first-round knock-outs [95% CI]", _ci("first_round_rate")),
                    ("out in round 1 [95% CI]", _ci("first_round_out_rate")),
                    ("placing [95% CI]", _ci("placing", 2)),
                ], "By table size", "knockout_whist_by_table_size"),
                *(_table(by_seat.filter(pl.col("players") == size), [
                    ("strategy", _col("strategy")),
                    ("position", _col("role")),
                    ("player-games", _col("games")),
                    ("win rate [95% CI]", _ci("win_rate")),
                    ("fair share", _col("fair_share")),
                ], f"By seat from the first dealer: {size} seats",
                    f"knockout_whist_by_seat_{size}_seats")
                  for size in sorted(by_seat["players"].unique())),
            ],
            figure(results, plots.plot_win_rate_by_table, "knockout_win_by_table")
            + figure(by_seat, plots.plot_win_rate_by_seat, "knockout_win_by_seat"),
        ),
        Section(
            "Knock-out Whist: dog's life",
            [
                "With `dogs_life` on, a knocked-out player may get one more round with a"
                " single card; if it wins a trick it is back in. `granted`: player-games in"
                " which the strategy got a dog's life, and their share of its player-games;"
                " `revived`: the dogs that won their trick, as a share of those granted;"
                " then how the revived players finished: the share of them that won the"
                " game and their mean placing (1 = winner). A dash means nothing to"
                " measure (dog's life off, or no dog revived)." + tables_note
                + (" This run played without dog's life (`dogs_life = \"off\"`): none"
                   " could be granted, so every rate is a dash." if dogs_off else ""),
                intervals,
            ],
            [_table(dogs, [
                ("strategy", _col("strategy")),
                ("table", _col("table")),
                ("player-games", _col("players")),
                ("granted · rate [95% CI]", _count_ci("granted", "granted_rate")),
                ("revived · per dog [95% CI]", _count_ci("revived", "revival_rate")),
                ("revived: won · rate [95% CI]", _count_ci("revived_wins", "revived_win_rate")),
                ("revived: placing [95% CI]", _ci("revived_placing", 2)),
            ], name="knockout_whist_dogs_life")],
        ),
        Section(
            "Knock-out Whist: trump choice",
            [
                "From round 2 on, the player who took most tricks names trump, looking at"
                " its new hand, and leads. For each choice: the number of cards of the suit"
                " it named (`trump length`) against its longest suit (`longest suit`), and"
                " whether it named a longest suit. Rows split the choices into a longest"
                " suit and a shorter one, then `all`." + tables_note,
                "How the chooser's round went: `round win` is its share of the round's top"
                " trick count (1 when it took most tricks alone, 1/k when k players tied"
                " for most, else 0; over the players of a round these add up to 1), and"
                " `fair share` the round win of an average player, 1 / players dealt in"
                " (dogs included). `survived`: it took a trick, so it stayed in. Comparing"
                " the `longest` and `shorter` rows is an association: a strategy that names"
                " a shorter suit may do so with a different kind of hand. `named a longest"
                " suit` is 1 in the `longest` rows and 0 in the `shorter` rows by their"
                " definition, so it shows an interval in the `all` rows only. " + intervals,
            ],
            [_table(trumps, [
                ("strategy", _col("strategy")),
                ("table", _col("table")),
                ("choice", _col("choice")),
                ("choices", _col("choices")),
                ("named a longest suit [95% CI]", _ci("longest_rate")),
                ("trump length [95% CI]", _ci("trump_length", 2)),
                ("longest suit [95% CI]", _ci("longest_suit", 2)),
                ("round win [95% CI]", _ci("round_win")),
                ("fair share", _col("fair_share")),
                ("survived [95% CI]", _ci("survived")),
            ], name="knockout_whist_trump_choice")],
        ),
    ]
