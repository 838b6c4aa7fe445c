"""The Solo Whist sections of a report: bidding and contracts, defence, make rate by hand
strength, auction outcomes, sessions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.reports import page, plots
from whist_sim.reports import solo_whist as sw
from whist_sim.reports.chunks import DealRanges, Scan
from whist_sim.reports.document import (
    Section,
    Table,
    fmt,
    fmt_ci,
    percent,
    tables_by,
    whole_or_column,
)
from whist_sim.reports.document import column as _col
from whist_sim.reports.document import count_interval as _count_ci
from whist_sim.reports.document import interval as _ci
from whist_sim.reports.document import table_of as _table
from whist_sim.store import RunFolder


def solo_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The Solo Whist sections: bidding profitability, defence, make rate by hand strength,
    auction outcomes and session results."""
    lineups = sw.lineup_texts(folder.meta())  # each line-up as listed, whatever its order

    def per_set(scan: Scan) -> list[pl.LazyFrame]:
        contracts, deals = scan("contracts"), scan("deals")
        outcomes = sw.seat_outcomes(scan("seats"), contracts, deals)
        return [sw.bidding_sets(scan("bids"), outcomes), sw.defence_sets(outcomes),
                sw.net_by_role_sets(outcomes), sw.make_rate_counts(outcomes),
                *sw.contract_mix_counts(outcomes),
                sw.throw_in_sets(contracts, deals, lineups), *sw.session_parts(scan("matches"))]

    (bid_sets, defence_sets, role_sets, strength_counts, won, hands, throw_in_sets, session_parts,
     balances) = (frame.lazy() for frame in DealRanges.of(folder).collect_all(per_set))
    bidding, defence, roles, strength, overall, mix, throw_ins, sessions = pl.collect_all(
        [
            sw.bidding_of(bid_sets),
            sw.defence_of(defence_sets),
            sw.net_by_role_of(role_sets),
            sw.make_rate_of(strength_counts),
            sw.make_rate_overall_of(strength_counts),
            sw.contract_mix_of(won, hands),
            sw.throw_ins_of(throw_in_sets),
            sw.session_results_of(session_parts, balances),
        ]
    )

    variant = folder.meta().get("variant") or {}
    bidding = within_units_range(bidding, variant)
    defence = within_units_range(defence, variant, "units_per_defence", defence_range)

    def figure(df: pl.DataFrame, draw: Callable[[pl.DataFrame, Path], Path],
               name: str) -> list[Path]:
        return [draw(df, out / f"{name}.png")] if df.height else []

    return [
        Section(
            "Solo Whist: bidding and contracts",
            [
                "For each strategy and contract: how often it bid the contract, won the"
                " auction with it, and made it, and what it earned on the declarer side."
                + (" Calls `prop` and `cop` both count as bids for Prop and Cop. A contract"
                   " is *won* by every seat of the declarer side (the Cop partner too), and"
                   " `won`, `made` and units count declarer-side seats: "
                   if _has_prop(variant) else
                   " This run plays `prop_and_cop = false`: every contract has one"
                   " declarer, who alone *wins* it: ")
                + stakes_text(variant) + " The `all` row pools"
                " every contract (its bids are the auctions in which the strategy made any"
                " bid). Forfeited hands are left out of every Solo Whist section but the"
                " sessions."
                + (" Its `make rate (declarer side)` counts every declarer-side seat,"
                   " a Cop partner's too; the make rate by hand strength counts each contract"
                   " once, under its declarer (the proposer of a Prop and Cop), so the two"
                   " differ for Prop and Cop." if _has_prop(variant) else
                   " Its `make rate (declarer side)` and the make rate by hand strength"
                   " count the same contracts, each under its declarer."),
                "Intervals (95%): every rate and mean is a pooled ratio (the bid rate bids"
                " over the strategy's seat-hands, its auctions; won/bid won over bids; the"
                " make rate made over won; units over contracts played, or over"
                " seat-hands) with a t-interval over deal indices: every line-up of a deal"
                " index under every seating is dealt its cards, so its auctions and"
                " contracts cannot be taken as independent (a cluster standard error; a"
                " rate whose deal indices show no spread gets Wilson's interval over them)."
                " No call outbids Abundance Declared, so it is won whenever it is bid: its"
                " won per bid is 1 by the rules, shown without an interval. The interval"
                " of units per contract is cut to what one contract can pay a declarer-side"
                " seat under this run's ladder, stake and overtricks: with few deal indices"
                " the t-interval alone is wider than that."
                " `units per 100"
                " seat-hands` adds up over contracts: the `all` row is what declaring"
                " earned the strategy per 100 hands it was dealt.",
            ],
            [*tables_by(bidding, "strategy", [
                ("strategy", _col("strategy")),
                ("contract", _col("contract")),
                ("seat-hands", _col("seat_hands")),
                ("bids · rate [95% CI]", _count_ci("bids", "bid_rate")),
                ("won · per bid [95% CI]", _count_ci("won", "won_rate")),
                ("made · make rate (declarer side) [95% CI]", _count_ci("made", "make_rate")),
            ], "Bids, auctions won and contracts made", "solo_whist_bidding", page.MAX_ROWS),
             *tables_by(bidding, "strategy", [
                ("strategy", _col("strategy")),
                ("contract", _col("contract")),
                ("units per contract [95% CI]", _ci("units_per_contract", 2)),
                ("units per 100 seat-hands [95% CI]", _ci("units_per_100", 1)),
            ], "Declarer-side units", "solo_whist_declarer_units", page.MAX_ROWS)],
            figure(bidding, plots.plot_units_per_contract, "solo_units"),
        ),
        Section(
            "Solo Whist: defence",
            [
                "Units a strategy lost defending against contracts that were made, and won"
                " against contracts that failed. Only contracts declared by another"
                " strategy count here: a seat defending a contract whose declarer side"
                " holds a seat of its own strategy (line-up A B A B) settles with that"
                " seat, which also settles with the other defenders, so it does not cancel"
                " out. `units` is won minus lost. Units per contract defended and per 100"
                " seat-hands are pooled ratios with 95% t-intervals over deal indices"
                " (cluster standard error); the interval of units per defence is cut to"
                " what one defender can pay or be paid for the contract in this run's"
                " variant.",
                "Where the net comes from: every seat of a contract is on the declarer side"
                " (`declaring`, the `all` row of the declarer-side units), defends another"
                " strategy's contract (`defending others`, the `all` row of the defence"
                " table) or defends a contract of its own strategy (`defending own`), and a"
                " throw-in pays nobody, so the three add up to `net`, the standings' mean"
                " net per hand times 100 (to rounding; forfeited hands are left out here)."
                " Same intervals." + ("" if _defends_own(roles) else
                " No seat here defended a contract of its own strategy (no line-up seats"
                " a strategy twice), so `defending own` is 0 by construction and left out:"
                " the other two add up to `net`."),
            ],
            [*tables_by(defence, "strategy", [
                ("strategy", _col("strategy")),
                ("contract", _col("contract")),
                ("defended", _col("defended")),
                ("made against", _col("made_against")),
                ("units lost", whole_or_column(defence, "units_lost")),
                ("defeated", _col("defeated")),
                ("units won", whole_or_column(defence, "units_won")),
                ("units per defence [95% CI]", _ci("units_per_defence", 2)),
                ("units per 100 seat-hands [95% CI]", _ci("units_per_100", 1)),
            ], "Defence", "solo_whist_defence", page.MAX_ROWS),
             _table(roles, [
                ("strategy", _col("strategy")),
                ("seat-hands", _col("seat_hands")),
                *[(f"{title} [95% CI]", _ci(f"{part}_per_100", 1))
                  for title, part in _net_parts(roles)],
             ], "Net units per 100 seat-hands, by role", "solo_whist_net_by_role")],
        ),
        Section(
            "Solo Whist: make rate by hand strength",
            [
                "How often a contract was made, against the declarer's hand strength when"
                " the auction ended. For contracts that must take tricks the measure is"
                " `sure_tricks`: the declarer's tricks that need no help, under the"
                " contract's trump (each suit's unbroken top sequence, plus each trump"
                " beyond the fourth that sequence has not counted). For Misère and Spread"
                " Misère it is `high_cards`: the aces, kings and queens held, which are the"
                " danger there (fewer is better);"
                " sure tricks under no trump would be 0 for almost every misère hand."
                + (" Prop and Cop is placed by the proposer's hand alone. Each contract counts"
                   " once, under its declarer's strategy (`make rate (as declarer)`: a"
                   " Cop partner's seat is not counted, as it is in the bidding table's"
                   " `make rate (declarer side)`)." if _has_prop(variant) else
                   " Each contract counts once, under its declarer's strategy (`make rate"
                   " (as declarer)`)."),
                "Intervals are 95% intervals of a pooled ratio over deal indices (none where a"
                " strength was seen in a single deal index). " + break_even_text(variant)
                + " The curve shows only what the strategy's own bidding produced: hands it"
                " never bid on are not in it.",
                "The table gives one row per contract and declaring strategy: its make rate"
                " over every strength, and `pays from`, the weakest hand from which the make"
                " rate was above 1/2 at that strength and at every stronger one seen (a"
                " point estimate: check it against the bands of the figure). The rates at"
                " each strength are in the CSV of the whole table linked under it.",
            ],
            [make_rate_summary(strength, overall)],
            figure(strength, plots.plot_make_rate_by_strength, "solo_make_rate"),
        ),
        Section(
            "Solo Whist: auction outcomes",
            [
                "Throw-ins: hands in which everyone passed, or a Prop found no Cop, per"
                " line-up (its strategies in seat order, first seating) and over all. The"
                " interval is a 95% t-interval over deal indices (pooled ratio, cluster"
                " standard error): every line-up and seating of a deal index is dealt the"
                " same cards, so its hands are not independent. Where every deal index had"
                " the same rate (e.g. no throw-in at all) it is Wilson's interval over the"
                " deal indices instead, not a zero width.",
                "Contract mix: of the contracts each strategy won in the auction"
                " (declarer-side seats), the share of each kind, with 95% intervals over"
                " deal indices (pooled ratios), and how many of each it won per 100"
                " seat-hands.",
            ],
            [
                _table(throw_ins, [
                    ("line-up", _col("lineup")),
                    ("hands", _col("hands")),
                    ("throw-ins", _col("throw_ins")),
                    ("throw-in rate [95% CI]", _ci("throw_in_rate")),
                    ("duplicate sets", _col("sets")),
                    ("deals", _col("deals")),
                ], "Throw-ins", "solo_whist_throw_ins"),
                *tables_by(mix, "strategy", [
                    ("strategy", _col("strategy")),
                    ("contract", _col("contract")),
                    ("won", _col("won")),
                    ("share [95% CI]", _ci("share")),
                    ("per 100 seat-hands", _col("per_100", 2)),
                ], "Contract mix", "solo_whist_contract_mix", page.MAX_ROWS),
            ],
            figure(mix, plots.plot_contract_mix, "solo_contract_mix"),
        ),
        Section(
            "Solo Whist: sessions",
            [
                "A session is `session_hands` hands with the deal rotating (or first to"
                " `target` units); its winner is the seat with the highest balance, and"
                " seats tied for top draw. " + session_text(variant) + " One row of the"
                " `matches` table is a session-seat; `sessions` counts them (a strategy"
                " with two seats of a line-up has two per session). Mean balance, win rate"
                " and draw rate are per session-seat (the strategy's totals over its"
                " session-seats, so a line-up in which it holds two seats counts both),"
                " with the 95% interval of a ratio over deal indices (every line-up and"
                " seating of a deal index plays its cards). " + _even_share(sessions)
                + " Forfeit penalties stay in the balances. The quantiles describe the"
                " spread of single sessions and carry no interval.",
            ],
            [_table(sessions, [
                ("strategy", _col("strategy")),
                ("sessions", _col("sessions")),
                ("sets", _col("pairs")),
                ("deals", _col("deals")),
                ("mean balance [95% CI]", _ci("balance", 2)),
                ("win rate [95% CI]", _ci("win_rate")),
                ("draw rate [95% CI]", _ci("draw_rate")),
            ], "Session results", "solo_whist_sessions"),
             _table(sessions, [
                ("strategy", _col("strategy")),
                ("min", whole_or_column(sessions, "balance_min")),
                ("5%", whole_or_column(sessions, "balance_p05")),
                ("25%", whole_or_column(sessions, "balance_q1")),
                ("median", whole_or_column(sessions, "balance_median")),
                ("75%", whole_or_column(sessions, "balance_q3")),
                ("95%", whole_or_column(sessions, "balance_p95")),
                ("max", whole_or_column(sessions, "balance_max")),
            ], "Balance of single sessions: quantiles", "solo_whist_session_balances")],
            figure(sessions, plots.plot_session_balances, "solo_sessions"),
        ),
    ]


_NET_PARTS = (("declaring", "declaring"), ("defending others", "defending_others"),
              ("defending own", "defending_own"), ("net", "net"))
"""Columns of the net-by-role table: ``solo_whist.ROLES``, then their sum."""


def _defends_own(roles: pl.DataFrame) -> bool:
    """Whether any seat defended a contract of its own strategy: not where no line-up
    seats a strategy twice, where the column read "0.0 [no spread]" for every strategy,
    a figure that cannot vary shown as one measured (a bidding probe)."""
    column = "defending_own_per_100"
    return column in roles.columns and bool((roles[column].fill_null(0) != 0).any())


def _net_parts(roles: pl.DataFrame) -> tuple[tuple[str, str], ...]:
    """The net-by-role table's columns: ``_NET_PARTS``, without `defending own` where no
    seat defended its own strategy's contract (``_defends_own``)."""
    if _defends_own(roles):
        return _NET_PARTS
    return tuple(part for part in _NET_PARTS if part[1] != "defending_own")


MAKE_RATE_AS_DECLARER = "make rate (as declarer) [95% CI]"
"""The make rate by hand strength counts each contract once, under its declarer (the
proposer of a Prop and Cop); the bidding table's ``make rate (declarer side)`` counts
every seat of the declarer side. One heading for both read as one figure with two
values (a probe: heuristic's Prop and Cop 0.734 and 0.849)."""


def _even_share(sessions: pl.DataFrame) -> str:
    """The win rate of an even share of sessions in this run: the session-seats that won
    over all session-seats. "1/4 per seat" read a strategy as below even when a third of
    the sessions were tied for top and so won by no seat (a report reader's probe: 0.216
    beside 1/4, when the even share was about 0.16)."""
    seats = float(sessions["sessions"].sum()) if sessions.height else 0.0
    if not seats:
        return "With four seats an even share is 1/4 of the sessions that have a winner."
    won = float((sessions["win_rate"] * sessions["sessions"]).sum())
    return (f"With four seats an even share is 1/4 of the sessions that have a single"
            f" winner; {percent(1 - 4 * won / seats)} of this run's sessions were tied"
            f" for top and won by no seat, so an even share is a win rate of"
            f" {won / seats:.3f} per session-seat.")


UNITS_PER_DEFENDER = {
    "default": {"prop_and_cop": 1, "solo": 3, "misere": 3, "abundance": 5, "royal_abundance": 5,
                "spread_misere": 6, "abundance_declared": 8},
    "classic": {"prop_and_cop": 1, "solo": 1, "misere": 2, "abundance": 3, "royal_abundance": 3,
                "spread_misere": 4, "abundance_declared": 6},
}
"""Units per defender (per partner in Prop and Cop) of the two ladders, for the prose and
the range of a contract's units. The rules' table is
``whist_sim.games.solo_whist.CONTRACTS``, which reports may not import (they read the store
only); ``tests/test_solo_report.py`` checks the two agree."""

TRICK_TARGET = {"prop_and_cop": 8, "solo": 5, "misere": 0, "abundance": 9,
                "royal_abundance": 9, "spread_misere": 0, "abundance_declared": 13}
"""Tricks the declarer side must take, per contract (the rules' ``Contract.target``)."""

WITH_OVERTRICKS = ("prop_and_cop", "solo", "abundance", "royal_abundance")
"""The contracts whose overtricks count under ``overtricks = true`` (rules/solo-whist.md:
misères and Abundance Declared have no tricks to spare)."""


def units_range(variant: Mapping[str, Any], contract: str) -> tuple[float, float]:
    """The least and most one declarer-side seat can get from one ``contract`` in this
    run's variant: a soloist 3 times the units per defender, a Prop and Cop partner twice,
    with overtricks up to every trick over the target (made) or short of it (failed). The
    ``all`` row's range spans every contract's."""
    if contract not in UNITS_PER_DEFENDER["default"]:
        ends = [units_range(variant, name) for name in UNITS_PER_DEFENDER["default"]]
        return min(low for low, _ in ends), max(high for _, high in ends)
    units, stake = _ladder(variant)
    seats = 2 if contract == "prop_and_cop" else 3
    over = short = 0
    if variant.get("overtricks") and contract in WITH_OVERTRICKS:
        over, short = 13 - TRICK_TARGET[contract], TRICK_TARGET[contract]
    return (-seats * (units[contract] + short) * stake, seats * (units[contract] + over) * stake)


def defence_range(variant: Mapping[str, Any], contract: str) -> tuple[float, float]:
    """The least and most one defender can get from one ``contract``: what it pays the
    declarer side when the contract is made, what it is paid when it fails (a Prop and Cop
    defender settles with both partners, a soloist's with one seat). The ``all`` row's
    range spans every contract's."""
    if contract not in UNITS_PER_DEFENDER["default"]:
        ends = [defence_range(variant, name) for name in UNITS_PER_DEFENDER["default"]]
        return min(low for low, _ in ends), max(high for _, high in ends)
    low, high = units_range(variant, contract)
    # a soloist settles with three defenders, each with it alone; a Prop and Cop partner
    # with two, as each defender does with both partners
    defenders_per_declarer_seat = 1 if contract == "prop_and_cop" else 3
    return -high / defenders_per_declarer_seat, -low / defenders_per_declarer_seat


def within_units_range(table: pl.DataFrame, variant: Mapping[str, Any],
                       name: str = "units_per_contract",
                       ranged: Callable[[Mapping[str, Any], str], tuple[float, float]]
                       = units_range) -> pl.DataFrame:
    """``table`` (the bidding table) with each ``units_per_contract`` interval cut to what
    one contract can pay a declarer-side seat (:func:`units_range`), as a rate's is cut at 0
    and 1 and Minnesota's points at a hand's range: over two or three deal indices the t-interval
    alone passed it (a misère, ±9 units, read ``1.80 [-10.44, 14.04]``; an Abundance, ±15,
    ``5.00 [-38.03, 48.03]``: a probe). The defence table's ``units_per_defence`` the same
    way, by what one defender can get (:func:`defence_range`)."""
    if not table.height:
        return table
    ends = [ranged(variant, contract) for contract in table["contract"]]
    low = pl.Series([e[0] for e in ends], dtype=pl.Float64)
    high = pl.Series([e[1] for e in ends], dtype=pl.Float64)

    def cut(end: str) -> pl.Expr:
        bound = pl.col(f"{name}_{end}")
        # no interval (one deal index, or no contract) stays none: a cut must not invent one
        return (pl.when(bound.is_null() | bound.is_nan()).then(bound)
                .otherwise(pl.min_horizontal(pl.max_horizontal(bound, pl.lit(low)),
                                             pl.lit(high)))
                .alias(f"{name}_{end}"))

    return table.with_columns(cut("lo"), cut("hi"))


def _ladder(variant: Mapping[str, Any]) -> tuple[dict[str, int], float]:
    payments = str(variant.get("payments") or "default")
    stake = variant.get("stake")
    return (UNITS_PER_DEFENDER.get(payments, UNITS_PER_DEFENDER["default"]),
            float(stake) if stake is not None else 1.0)


def _units(value: float) -> str:
    return f"{value:g}"


def stakes_text(variant: Mapping[str, Any]) -> str:
    """What a declarer-side seat wins or pays in this run's variant: "±2 units at the
    default stake, a soloist ±9" was said of runs under the classic ladder, another stake
    and overtricks too (a probe)."""
    units, stake = _ladder(variant)
    payments = str(variant.get("payments") or "default")
    partner = (f" Prop and Cop partner gets ±{_units(2 * units['prop_and_cop'] * stake)}"
               " units, a" if _has_prop(variant) else "")
    text = (f"under this run's `payments = \"{payments}\"` and `stake = {_units(stake)}` a"
            f"{partner} soloist {'' if partner else 'gets '}±{_units(3 * units['solo'] * stake)}"
            + ("" if partner else " units"))
    if variant.get("overtricks"):
        text += (", before overtricks (`overtricks = true`: each trick over the target, or"
                 f" short of it, adds {_units(stake)} per defender"
                 + (", per partner in Prop and Cop)" if partner else ")"))
    return text + "."


def forfeit_units(variant: Mapping[str, Any]) -> str:
    """A forfeit's payment to each other seat in this run: the Abundance Declared amount at
    the run's ladder and stake."""
    units, stake = _ladder(variant)
    payments = str(variant.get("payments") or "default")
    return (f"{_units(units['abundance_declared'] * stake)} units in this run:"
            f" `payments = \"{payments}\"`, `stake = {_units(stake)}`")


def session_text(variant: Mapping[str, Any]) -> str:
    """This run's session: its length and target. The section named only the keys, never
    a run's 8 hands and 20 units, nor that under ``session_hands = 1`` its figures are the
    single hands' of the standings (a probe)."""
    hands, target = variant.get("session_hands") or 1, variant.get("target")
    if hands == 1:
        return ("This run plays `session_hands = 1`: a session is a single hand, so the"
                " mean balance is the standings' mean net; the win rate is not theirs, since"
                " a session is won only by a seat alone on the top balance (the defenders"
                " who beat a contract tie there, and so draw the session while each wins"
                " the hand).")
    if target is None:
        return f"This run: sessions of {hands} hands."
    return (f"This run: sessions of up to {hands} hands, each ending as soon as a player is"
            f" up {_units(float(target))} units.")


def _has_prop(variant: Mapping[str, Any]) -> bool:
    """Whether Prop and Cop could be called: the prose of a run under ``prop_and_cop =
    false`` spoke of Prop and Cop partners' units and of make rates that "differ for Prop
    and Cop" (a probe)."""
    return variant.get("prop_and_cop") is not False


def break_even_text(variant: Mapping[str, Any]) -> str:
    """Whether a make rate of 1/2 is where a contract starts to pay in this run: it is only
    when a contract pays the same made or failed, which overtricks break."""
    units, stake = _ladder(variant)
    if variant.get("overtricks"):
        return ("This run plays `overtricks = true`: a contract made or failed by more tricks"
                " pays more, so a make rate of 1/2 (the dotted line) is not where a contract"
                " starts to pay, and `pays from` below, read against 1/2, ignores the"
                " margins: what a contract earned is its units per contract in the bidding"
                " section.")
    return ("Read the curve as where a contract starts to pay: without `overtricks` every"
            " contract pays the same whether made or failed (in this run a Solo"
            f" {_units(units['solo'] * stake)} units per defender), so against a score of 0"
            " it gains when its make rate is above 1/2, the dotted line. The strength at"
            " which the Solo curve, band included, clears 1/2 is where bidding Solo paid"
            " that strategy more than 0; not passing's worth, which is not 0 (a defender"
            " earns too: its net as defender is in the bidding section), nor what another"
            " strategy's bids would have made of the same hands: a description of this"
            " run's play, not a rule for bidding.")


def make_rate_summary(strength: pl.DataFrame, overall: pl.DataFrame) -> Table:
    """One row per contract and declaring strategy, from ``solo_whist.make_rate_by_strength``
    and its rate over every strength (``solo_whist.make_rate_overall_of``, an interval over
    deal indices, as every other); the rate at every strength (a row per strength: 130 rows
    in a run of three entrants) is its ``details``, a CSV only. Its CSV holds the numbers
    (``strength_min``, ``strength_max``, the make rate and its bounds), ``pays_from`` as
    printed (``6+``, ``3 or fewer``: which way depends on the measure)."""
    pooled = {(row["contract"], row["strategy"]): row for row in overall.iter_rows(named=True)}
    rows = []
    numbers: list[dict[str, Any]] = []
    for (_, contract, measure, name), part in strength.group_by(
            "level", "contract", "measure", "strategy", maintain_order=True):
        part = part.sort("strength")
        contracts, made = int(part["contracts"].sum()), int(part["made"].sum())
        rate = pooled[(contract, name)]
        # stronger is more sure tricks, or fewer high cards for a misère
        stronger_first = part.reverse() if measure == "sure_tricks" else part
        pays_from, resting_on = None, 0  # the contracts it rests on: a "6+" read off one
        for row in stronger_first.iter_rows(named=True):
            if row["make_rate"] <= 0.5:
                break
            pays_from = row["strength"]
            resting_on += int(row["contracts"])
        rows.append([
            str(contract), str(name), str(measure),
            f"{part['strength'].min()}–{part['strength'].max()}", fmt(contracts), fmt(made),
            fmt_ci(rate, "make_rate"),
            _pays_from(pays_from, measure), fmt(resting_on) if pays_from is not None else "—",
        ])
        numbers.append({
            "contract": str(contract), "strategy": str(name), "measure": str(measure),
            "strength_min": part["strength"].min(), "strength_max": part["strength"].max(),
            "contracts": contracts, "made": made,
            **{key: rate[key] for key in ("make_rate", "make_rate_lo", "make_rate_hi")},
            "pays_from": None if pays_from is None else _pays_from(pays_from, measure),
            "contracts_from_it": resting_on if pays_from is not None else None,
        })
    details = _table(strength, [
        ("contract", _col("contract")),
        ("measure", _col("measure")),
        ("strategy", _col("strategy")),
        ("strength", _col("strength")),
        ("contracts", _col("contracts")),
        ("made", _col("made")),
        (MAKE_RATE_AS_DECLARER, _ci("make_rate")),
    ], "Make rate at each strength", "solo_whist_make_rate_by_strength")
    return Table(["contract", "strategy", "measure", "strengths seen", "contracts", "made",
                  MAKE_RATE_AS_DECLARER, "pays from", "contracts from it"], rows,
                 "Make rate by contract and declaring strategy", "solo_whist_make_rate",
                 details,
                 data=pl.DataFrame(numbers, infer_schema_length=None) if numbers else None)


def _pays_from(strength: int | None, measure: str) -> str:
    if strength is None:
        return "—"
    if measure == "sure_tricks":
        return f"{strength}+"
    return f"{strength} or fewer" if strength else "0"
