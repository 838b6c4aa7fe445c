"""The report section "Ratings (finishing order)": Plackett-Luce ratings for tables of 3+ seats.

Why a section of its own: the generic "Ratings" section fits Bradley-Terry to
every pair of seats of a hand, which at three to seven seats misreads the
game. At Knock-out tables the net only tells the winner from the rest, so
most seat pairs are drawn duels between two losers, and a several-fold
difference in games won shrinks to a gap of a few dozen Elo points; in Solo
Whist it can rank two entrants in the opposite order to the standings. This
section rates entrants from each hand's or game's finishing order with
Plackett-Luce (``inference.plackett_luce``), whose gap reads directly as a
chance to finish first at a table; for Knock-out Whist it sets that predicted
first-place share beside the share of games actually won, so a reader can see
whether the model fits.

Built for Solo, Minnesota and Knock-out Whist runs; other games get no
section (German Whist has two seats, where the generic Bradley-Terry already
is Plackett-Luce).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.inference.fit_failure import FitDidNotConverge
from whist_sim.inference.plackett_luce import plackett_luce, predicted_win_share
from whist_sim.reports import finishing
from whist_sim.reports.document import Section, Table, column, fmt, interval, table_of
from whist_sim.reports.plots import plot_ratings
from whist_sim.reports.rating_notes import rating_notes
from whist_sim.reports.stats import ordered_sum
from whist_sim.store import RunFolder

TITLE = "Ratings (finishing order)"

BOOTSTRAP = 200
"""Bootstrap resamples for the rating intervals (as the generic ratings section)."""
BOOTSTRAP_SEED = 0

GAPS = (50, 100, 200, 400)
"""Rating gaps the reading table translates into chances."""

ORDERS: dict[str, Callable[[RunFolder], pl.LazyFrame]] = {
    "solo_whist": lambda folder: finishing.solo_whist_orders(folder.scan("seats")),
    "minnesota_whist": lambda folder: finishing.minnesota_whist_orders(folder.scan("matches")),
    "knockout_whist": lambda folder: finishing.knockout_whist_orders(folder.scan("seats")),
}
"""Game -> its finishing orders, for the games this section covers."""

UNIT_TEXT = {
    "solo_whist": (
        "The unit is a hand: its four seats ranked by `net`, the units won or paid. A"
        " contract splits the table into the declarer side and the defenders, and the seats"
        " of a side win or pay alike, so they tie: when a solo is made the declarer is first"
        " and the three defenders tie for second; when it fails the defenders tie for first."
        " In Prop and Cop two seats tie with two. A throw-in (everyone passed) ties all four."
        " A hand a forfeit stopped tells only that the seat that forfeited did not come"
        " first: the fit reads it as one event, the first place going to one of the seats it"
        " paid, which are not ranked among themselves (nor tied, though the forfeit pays"
        " them alike); the forfeiter's own other seat (A B A B) is left out of it, as the"
        " verdict leaves it out."
    ),
    "minnesota_whist": (
        "The unit is a game to the target score (the `matches` table), not a hand: the"
        " winning partnership's two seats tie for first and the other two tie for second (a"
        " drawn game ties all four). Partners always tie, so with each entrant partnered with"
        " itself a rating is a partnership's strength, and the chance that partnership A beats"
        " partnership B is gamma_A / (gamma_A + gamma_B), exactly as in Bradley-Terry. With"
        " mixed partnerships the structural tie between partners also pulls their two ratings"
        " together."
    ),
    "knockout_whist": (
        "The unit is a game: its seats ranked by `placing` (1 for the winner, then by the"
        " round a player went out in; players out in the same round tie). A game a forfeit"
        " stopped has no placings and no winner: it tells only that the seat that forfeited"
        " did not win it, and the fit reads it as one event, the win going to one of the"
        " other seats, which are not ranked among themselves (nor tied, though the game"
        " scores them drawn); the forfeiter's own other seat (A B A B) is left out of it, as"
        " the verdict leaves it out."
    ),
}
"""What a finishing order is, game by game."""

KNOCKOUT_TEXT = (
    "Two ratings: `who wins` is fitted to the first place of each game only (a top-1"
    " Plackett-Luce, the model of who wins a table), `every place` to the whole order. Only"
    " first place wins a game of Knock-out Whist, and the lower places carry a much weaker"
    " signal: the first rounds knock players out largely by the luck of a few cards, while"
    " the last rounds, which decide the winner, reward play. One strength per strategy cannot"
    " fit both, so the every-place rating lands between the two and shows a smaller gap than"
    " the games won. Read `who wins` for the game's result; a strategy whose `every place`"
    " rating is relatively higher is better at surviving than at winning."
)
"""Why Knock-out Whist shows two ratings."""

UNIT_NAMES = {"solo_whist": "hands", "minnesota_whist": "games", "knockout_whist": "games"}

MODEL_TEXT = (
    "Plackett-Luce ratings from each {unit}'s finishing order: every entrant has a strength,"
    " and the places are filled from the top, each by one of the seats not yet placed with"
    " probability proportional to its strength, so a seat's chance to finish first at a table"
    " is its strength over the sum of the table's strengths. An entrant holding several seats"
    " (A B A B) has the same strength in each. Tied seats are each counted as chosen from the"
    " same set (Breslow's treatment): a tie of k seats weighs as k choices, so frequent ties"
    " pull the ratings towards each other. One virtual level two-seat game between every two"
    " entrants keeps the fit finite. Ratings are on the Elo scale and average 0; intervals are"
    " 95% percentile-bootstrap intervals from {bootstrap} resamples of deal indices (seed"
    " {seed}), so every line-up and seating of a deal's cards is resampled together."
    " `{units}`: the {unit}s an entrant played in."
)


def multiplayer_ratings_section(folder: RunFolder, out: Path) -> list[Section]:
    """The "Ratings (finishing order)" section of a Solo, Minnesota or Knock-out Whist run.

    ``out`` is the report folder, where the ratings figure is drawn. Returns no
    section for other games.
    """
    game = str(folder.meta()["game"])
    if game not in ORDERS:
        return []
    orders = ORDERS[game](folder).collect()
    try:
        ratings = plackett_luce(orders, bootstrap=BOOTSTRAP, seed=BOOTSTRAP_SEED)
        winners = (plackett_luce(orders, bootstrap=BOOTSTRAP, seed=BOOTSTRAP_SEED, top=1)
                   if game == "knockout_whist" else ratings)
    except FitDidNotConverge as exc:
        return [unfitted_section(TITLE, exc)]
    units = UNIT_NAMES[game]
    sizes = sorted(set(orders["players"].to_list()))
    paragraphs = [
        MODEL_TEXT.format(unit=units.rstrip("s"), units=units, bootstrap=BOOTSTRAP,
                          seed=BOOTSTRAP_SEED),
        UNIT_TEXT[game],
        *([] if game == "minnesota_whist" else [_ties_text(orders, units)]),  # always tied
        *rating_notes(folder.meta(), ratings["strategy"].to_list()),
        *_sweep_text(orders, ratings),
    ]
    if game != "knockout_whist":
        paragraphs.append(_reading_text(ratings, game, sizes, _unplaced(orders)))
        return [Section(TITLE, paragraphs, [
            table_of(ratings, [
                ("strategy", column("strategy")),
                ("rating [95% CI]", interval("rating", 0)),
                (units, column("units")),
            ], "Plackett-Luce ratings (Elo scale)", "ratings_finishing_order"),
            _gap_table(game, sizes),
        ], [plot_ratings(ratings, out / "ratings.png", "Plackett-Luce ratings (finishing order)")])]

    seats = folder.scan("seats")
    observed, lineups = pl.collect_all(
        [finishing.observed_win_share(seats), finishing.lineup_games(seats)])
    shares = predicted_vs_observed(winners, observed, lineups).join(
        predicted_vs_observed(ratings, observed, lineups).select(
            "strategy", "players", pl.col("predicted").alias("predicted_every_place")),
        on=["strategy", "players"], how="left")
    both = winners.join(ratings.select("strategy", pl.col("rating", "rating_lo", "rating_hi")
                                       .name.prefix("every_place_")), on="strategy", how="left")
    paragraphs += [
        KNOCKOUT_TEXT,
        *_sweep_text(orders, winners, top=1, fit="who wins"),
        _reading_text(winners, game, sizes, _unplaced(orders, top=1)),
        "Does the model fit? `predicted` is each strategy's chance per seat to win the game,"
        " from the ratings: at every line-up of the run its strength over the sum of the"
        " table's, averaged over line-ups weighted by the seats it held there (as the observed"
        " share counts them). `observed` is the share of its player-games it won, with a 95%"
        " interval over deal indices; `fair share` is 1 / table size. Both count a game a"
        " forfeit stopped as lost by the seat that forfeited it and leave it out for the"
        " others, as the verdict does. The first prediction should match the observed share"
        " (it is fitted to who won, with one strength per strategy for every line-up and"
        " table size); the second shows how far the every-place fit falls short of the games"
        " actually won.",
        *_stopped_games_text(orders),
    ]
    return [Section(TITLE, paragraphs, [
        table_of(both, [
            ("strategy", column("strategy")),
            ("rating: who wins [95% CI]", interval("rating", 0)),
            ("rating: every place [95% CI]", interval("every_place_rating", 0)),
            (units, column("units")),
        ], "Plackett-Luce ratings (Elo scale)", "ratings_finishing_order"),
        _gap_table(game, sizes),
        table_of(shares, [
            ("strategy", column("strategy")),
            ("table", column("players")),
            ("player-games", column("games")),
            ("predicted (who wins)", column("predicted")),
            ("predicted (every place)", column("predicted_every_place")),
            ("observed [95% CI]", interval("win_share")),
            ("fair share", column("fair_share")),
        ], "Knock-out Whist: predicted first-place share against games won, per seat",
            "ratings_predicted_vs_observed"),
    ], [plot_ratings(winners, out / "ratings.png", "Plackett-Luce ratings: who wins")])]


def unfitted_section(title: str, failure: FitDidNotConverge) -> Section:
    """A ratings section whose fit ran out of iterations: why it shows no ratings."""
    return Section(title, [
        f"The ratings could not be fitted: {failure}. Ratings from a fit that stopped short"
        " of its maximum would be numbers it has not found, so none are shown, and the"
        " verdict draws nothing from them; every other section of this report stands. No"
        " run is known to need more iterations: this one is worth reporting, with its"
        " folder's `run.json`."])


def leading_ratings(folder: RunFolder) -> pl.DataFrame | None:
    """The ratings this section leads with (Knock-out Whist: `who wins`; else every place),
    for the verdict's check of the ranking; None for games without the section, and none
    (an empty frame) where the fit did not converge."""
    game = str(folder.meta()["game"])
    if game not in ORDERS:
        return None
    orders = ORDERS[game](folder).collect()
    top = 1 if game == "knockout_whist" else None
    try:
        return plackett_luce(orders, bootstrap=0, seed=BOOTSTRAP_SEED, top=top)
    except FitDidNotConverge:  # its section says so; the verdict claims nothing from them
        return pl.DataFrame(schema={"strategy": pl.String, "rating": pl.Float64})


def predicted_vs_observed(ratings: pl.DataFrame, observed: pl.DataFrame,
                          lineups: pl.DataFrame) -> pl.DataFrame:
    """Per strategy and table size: predicted first-place share per seat beside the observed one.

    ``ratings`` from ``plackett_luce``, ``observed`` from
    ``finishing.observed_win_share``, ``lineups`` from ``finishing.lineup_games``.
    The prediction for a seat at a line-up is its strategy's share of first places
    there (``predicted_win_share``) over its seats; pooled over the line-ups of a
    table size it is ``sum(seat_games * per-seat share) / sum(seat_games)``, the same
    weighting as the observed wins / player-games. Adds ``predicted`` to the
    ``observed`` columns.
    """
    rows: list[dict[str, Any]] = []
    for row in lineups.iter_rows(named=True):
        name = row["strategy"]
        per_seat = predicted_win_share(ratings, row["lineup"])[name] / row["lineup"].count(name)
        rows.append({"strategy": name, "players": row["players"],
                     "expected": row["seat_games"] * per_seat, "seats": row["seat_games"]})
    schema = {"strategy": pl.String, "players": pl.Int64, "expected": pl.Float64,
              "seats": pl.Int64}
    predicted = (
        pl.DataFrame(rows, schema=schema)
        .group_by("strategy", "players")
        .agg((ordered_sum(pl.col("expected")) / pl.col("seats").sum()).alias("predicted"))
    )
    return observed.join(predicted, on=["strategy", "players"], how="left").sort(
        "players", "strategy")


def _ties_text(orders: pl.DataFrame, units: str) -> str:
    """How many finishing orders had a tie, a tie for first, or every seat level, and how
    many units a forfeit stopped (they have no order, so no tie)."""
    per_unit = orders.group_by("unit").agg(
        (pl.col("place") == pl.col("place").min()).sum().alias("first"),
        pl.len().alias("seats"),
        pl.col("place").n_unique().alias("places"),
        _undecided(orders).any().alias("undecided"),
    )
    stopped = per_unit.filter(pl.col("undecided")).height
    ordered = per_unit.filter(~pl.col("undecided"))
    total = max(ordered.height, 1)

    def count(condition: pl.Expr) -> str:
        n = ordered.filter(condition).height
        return f"{n:,} ({fmt(100 * n / total, 1)}%)"

    ties = (f"{count(pl.col('places') < pl.col('seats'))} had a tie somewhere in the order,"
            f" {count(pl.col('first') > 1)} several seats tied for first, and"
            f" {count(pl.col('places') == 1)} every seat level. Level orders favour nobody;"
            " under the tie treatment they act like drawn games and shrink the gaps a little.")
    if not stopped:
        return f"Of {per_unit.height:,} {units}, {ties}"
    if not ordered.height:  # "Of the 0 played out, 0 (0.0%) had a tie" (a hostile probe)
        return (f"Every one of the {stopped:,} {units} was stopped by a forfeit: none has an"
                " order, and each is one event of the fit, as said above.")
    # over the orders played out: "30 (15.0%) had a tie" over all 200 games read as rare
    # where 30 of the 73 played out had one (a probe)
    return (f"Of {per_unit.height:,} {units}, {stopped:,}"
            f" ({fmt(100 * stopped / per_unit.height, 1)}%)"
            f" {'was' if stopped == 1 else 'were'} stopped by a forfeit and"
            f" {'has' if stopped == 1 else 'have'} no order, so no tie: each is one event of"
            " the fit, as said above. Of the"
            f" {ordered.height:,} played out, {ties}")


def _undecided(orders: pl.DataFrame) -> pl.Expr:
    """The orders' ``undecided`` flag, or false for frames made without one."""
    return pl.col("undecided") if "undecided" in orders.columns else pl.lit(False)


def _stopped_games_text(orders: pl.DataFrame) -> list[str]:
    """Why the other entrants' predicted share reads above their observed one in a run
    with forfeits; nothing in a run without."""
    if not orders.select(_undecided(orders).any()).item():
        return []
    return [
        "Where a forfeit stopped a game, the fit counts it lost by the seat that forfeited"
        " and won by one of the others without knowing which, so it shares that win among"
        " them in proportion to their strengths. Their predicted share is then above the"
        " share of the games played out that they won (observed): at one line-up"
        " the other entrants' predictions keep the ratio of their wins, and their sum is what"
        " the forfeiting entrant's predicted share leaves."
    ]


def swept_entrants(orders: pl.DataFrame, top: int | None = None) -> dict[str, list[str]]:
    """The entrants whose rating the data cannot place: ``"never_ahead"``, those that never
    finished ahead of a seat of another entrant in an order they shared, and
    ``"never_behind"``, those never behind one. Only places the fit reads count: with
    ``top``, a seat is ahead of another only from a place up to ``top``.

    Such an entrant's maximum-likelihood rating is infinite; the prior's virtual level
    games alone hold it, so its rating moves with the prior and the run's length, not
    with its play (a probe: Minnesota's random, which won none of its 400 games, read
    -782 with the prior of 1, -1049 with 0.1). The bootstrap cannot show it once three
    entrants share the scale: its interval then has the others' width."""
    limit = top if top is not None else 1 << 30
    # a seat first in an undecided order (a forfeit stopped it) is ahead of the forfeiter
    # only where it shares first place with no other entrant: the fit splits a shared win
    # by strength, which leaves an entrant that never won outright unplaced
    first = pl.col("place") == pl.col("place").min().over("unit")
    leads = ~_undecided(orders).any().over("unit") | (
        pl.col("strategy").filter(first).n_unique().over("unit") == 1)
    per_unit = orders.with_columns(leads=leads).group_by(["unit", "strategy"]).agg(
        pl.col("place").min().alias("best"), pl.col("place").max().alias("worst"),
        pl.col("leads").first())
    met = per_unit.join(per_unit, on="unit", suffix="_other").filter(
        pl.col("strategy") != pl.col("strategy_other"))
    sides = met.group_by("strategy").agg(
        ((pl.col("best") < pl.col("worst_other")) & (pl.col("best") <= limit)
         & pl.col("leads")).any().alias("ahead"),
        ((pl.col("best_other") < pl.col("worst")) & (pl.col("best_other") <= limit))
        .any().alias("behind"),
    ).sort("strategy")
    return {"never_ahead": sides.filter(~pl.col("ahead"))["strategy"].to_list(),
            "never_behind": sides.filter(~pl.col("behind"))["strategy"].to_list()}


def _sweep_text(orders: pl.DataFrame, ratings: pl.DataFrame, top: int | None = None,
                fit: str = "") -> list[str]:
    """A warning for every rating the data cannot place (:func:`swept_entrants`), and for
    any other interval of no width (every resample gave the same result)."""
    swept = swept_entrants(orders, top)
    where = f" in the {fit} fit" if fit else ""
    ahead = "won a game" if top == 1 else "finished ahead of another entrant's seat"
    lines = []
    for names, did, reading in ((swept["never_ahead"], ahead, "at most"),
                                (swept["never_behind"],
                                 "lost a game to another entrant" if top == 1
                                 else "finished behind another entrant's seat", "at least")):
        if names:
            lines.append(
                f"{_names(names)} never {did}{where}: {'its' if len(names) == 1 else 'their'}"
                " rating is held only by the prior's one virtual level game per pair of"
                " entrants, and would be infinite without it. It moves with the prior and"
                f" the run's length, not with the play: read it as \"{reading} this much\""
                " and every gap to it, and the chances drawn from the gaps, as \"at least"
                " this much\" (the interval does not show it).")
    placed = set(swept["never_ahead"]) | set(swept["never_behind"])
    flat = [name for name in ratings.filter(pl.col("rating_hi") - pl.col("rating_lo") < 0.5)
            ["strategy"].to_list() if name not in placed]
    if flat:
        lines.append(
            f"The {'interval' if len(flat) == 1 else 'intervals'} of {_names(flat)}{where}"
            f" {'has' if len(flat) == 1 else 'have'} no width: every resample of deal indices"
            " gave the same result. Read the rating as the data's best guess, not as exact.")
    return lines


def _unplaced(orders: pl.DataFrame, top: int | None = None) -> frozenset[str]:
    swept = swept_entrants(orders, top)
    return frozenset(swept["never_ahead"]) | frozenset(swept["never_behind"])


def names_in_words(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_names = names_in_words


def _reading_text(ratings: pl.DataFrame, game: str, sizes: list[int],
                  unplaced: frozenset[str] = frozenset()) -> str:
    """The gap between the best and worst entrant, in chances a reader can picture;
    ``unplaced``: entrants the data cannot place (:func:`swept_entrants`), whose gap is a
    lower bound, said so after the figures."""
    if ratings.height < 2:
        return "With a single entrant there is nothing to compare."
    best, worst = ratings.row(0, named=True), ratings.row(-1, named=True)
    gap = best["rating"] - worst["rating"]
    shown = shown_gap(best["rating"], worst["rating"])
    two = _ahead(gap)
    held = sorted({best["strategy"], worst["strategy"]} & unplaced)
    bound = (f" These are lower bounds: {_names(held)}'s rating is held by the prior"
             " alone (above), so the true gap may be larger." if held else "")
    if game == "minnesota_whist":
        return (
            f"Reading a gap: {best['strategy']} is rated {shown} points above"
            f" {worst['strategy']}, so a partnership of two {best['strategy']} seats beats one"
            f" of two {worst['strategy']} seats with probability {fmt(100 * two, 1)}%."
            + bound
        )
    # A table of more than two seats, as the gap table shows: Knock-out's players = [2, 3,
    # 5] read "at a table of 2 with one heuristic seat and 1 random seats", the two-seat
    # chance said twice.
    n = 4 if 4 in sizes or not sizes else next((size for size in sizes if size > 2), None)
    head = (f"Reading a gap: {best['strategy']} is rated {shown} points above"
            f" {worst['strategy']}. In a two-seat order it would finish ahead with probability"
            f" {fmt(100 * two, 1)}%")
    if n is None:  # a run of two-seat tables only
        return head + "." + bound
    table = [best["strategy"]] + [worst["strategy"]] * (n - 1)
    first = predicted_win_share(ratings, table)[best["strategy"]]
    return (
        head + f"; at a table of {n} with one {best['strategy']} seat and"
        f" {n - 1} {worst['strategy']} seats, the {best['strategy']} seat finishes first with"
        f" probability {fmt(100 * first, 1)}% (an even table: {fmt(100 / n, 1)}%)." + bound
    )


def shown_gap(high: float, low: float) -> str:
    """The gap between two ratings as the table shows them: the difference of the figures
    as rounded, so the sentence agrees with the table (rounded on its own, 394.4 - -717.6
    read "1111 points" beside 394 and -718; as ``verdict_section._fmt_gap`` does for
    shares). The chances beside it are drawn from the unrounded gap."""
    return str(Decimal(fmt(high, 0)) - Decimal(fmt(low, 0)))


def _ahead(gap: float) -> float:
    """Chance of finishing ahead in a two-seat order, ``gap`` points above the other seat."""
    return 1.0 / (1.0 + 10.0 ** (-gap / 400.0))


def _first(gap: float, seats: int) -> float:
    """Chance of finishing first with one seat ``gap`` points above ``seats - 1`` equal seats."""
    strength = 10.0 ** (gap / 400.0)
    return strength / (strength + seats - 1)


def _gap_table(game: str, sizes: list[int]) -> Table:
    """Rating gaps as chances: ahead in a two-seat order, and first at the run's table sizes."""
    if game == "minnesota_whist":
        return Table(
            ["gap", "wins the game"],
            [[str(gap), f"{fmt(100 * _ahead(gap), 1)}%"] for gap in GAPS],
            "Reading a gap: the chance that a partnership (one entrant in both seats) beats a"
            " partnership rated `gap` lower", "ratings_reading_a_gap",
        )
    shown = [n for n in sizes if n > 2] or [4]
    return Table(
        ["gap", "ahead of one seat", *[f"first at {n} seats" for n in shown]],
        [[str(gap), f"{fmt(100 * _ahead(gap), 1)}%",
          *[f"{fmt(100 * _first(gap, n), 1)}%" for n in shown]] for gap in GAPS],
        "Reading a gap: the chance to finish ahead of one seat rated `gap` lower, and to"
        " finish first at a table where every other seat is rated `gap` lower (an even table:"
        " 1 / seats)", "ratings_reading_a_gap",
    )
