"""Build a run's report: analyses, PNG figures, ``report.md`` and ``report.html``.

``build_report(run)`` reads the run folder only (``run.json`` and the Parquet
tables, through ``RunFolder``), runs the generic analyses of
``whist_sim.reports.analyses`` and the section of the run's game, draws the
figures and writes everything into ``<run>/report/``.

A report is a list of :class:`Section` (title, prose, tables, figures) rendered
twice, to Markdown and to HTML, by small hand-written templates (no dependency
beyond the standard library). A game adds its own sections by registering a
builder in :data:`GAME_SECTIONS` (game name -> function of the open run and the
output folder); German and Solo Whist are there, Minnesota and Knock-out Whist
plug in the same way.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.cards import RANKS
from whist_sim.reports import analyses, plots
from whist_sim.reports import german_whist as gw
from whist_sim.reports import solo_whist as sw
from whist_sim.reports.stats import bradley_terry
from whist_sim.store import RunFolder

REPORT_DIR = "report"
BOOTSTRAP = 200
"""Bootstrap resamples for the rating intervals."""
BOOTSTRAP_SEED = 0


@dataclass(frozen=True)
class ReportPaths:
    """Where a report was written."""

    folder: Path
    markdown: Path
    html: Path
    images: dict[str, Path]
    """Figure name -> PNG path, all inside ``folder``."""


@dataclass
class Table:
    """A finished table for display: header and rows of already formatted text."""

    header: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass
class Section:
    """One section of the report: prose paragraphs (may use `code` spans), tables, figures."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    images: list[Path] = field(default_factory=list)


SectionBuilder = Callable[[RunFolder, Path], list[Section]]


# -- formatting ---------------------------------------------------------------------------


def fmt(value: Any, digits: int = 3) -> str:
    """A number as report text: fixed decimals, "—" for missing."""
    if value is None or (isinstance(value, float) and value != value):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = f"{value:.{digits}f}"
        return text.lstrip("-") if float(text) == 0 else text
    return str(value)


def fmt_ci(row: dict[str, Any], name: str, digits: int = 3) -> str:
    """``estimate [lo, hi]`` from columns ``name``, ``name_lo``, ``name_hi`` of a row."""
    lo, hi = row.get(f"{name}_lo"), row.get(f"{name}_hi")
    if lo is None or hi is None or lo != lo or hi != hi:
        return fmt(row[name], digits)
    return f"{fmt(row[name], digits)} [{fmt(lo, digits)}, {fmt(hi, digits)}]"


def _table(df: pl.DataFrame, columns: Sequence[tuple[str, Callable[[dict], str]]],
           caption: str = "") -> Table:
    rows = [[cell(row) for _, cell in columns] for row in df.iter_rows(named=True)]
    return Table([title for title, _ in columns], rows, caption)


def _col(name: str, digits: int = 3) -> Callable[[dict], str]:
    return lambda row: fmt(row[name], digits)


def _ci(name: str, digits: int = 3) -> Callable[[dict], str]:
    return lambda row: fmt_ci(row, name, digits)


def _matrix(df: pl.DataFrame, value: Callable[[dict], str], caption: str) -> Table:
    """Row strategy x column opponent, cells from ``value``; "—" on the diagonal."""
    names = sorted(set(df["strategy"].to_list()) | set(df["opponent"].to_list()))
    cells = {(r["strategy"], r["opponent"]): value(r) for r in df.iter_rows(named=True)}
    rows = [[a] + [cells.get((a, b), "—") for b in names] for a in names]
    return Table(["strategy \\ opponent", *names], rows, caption)


# -- the run summary ----------------------------------------------------------------------


def _run_summary(folder: RunFolder, meta: dict[str, Any]) -> Section:
    facts = (
        folder.scan("deals")
        .select(
            pl.len().alias("hands"),
            pl.col("deal").n_unique().alias("deal_indices"),
            pl.col("pairing").n_unique().alias("pairings"),
            pl.col("variant").unique().sort().str.join(" / ").alias("variant"),
            pl.col("game_version").unique().sort().cast(pl.String).str.join(", ").alias("version"),
            (pl.col("status") == "forfeit").sum().alias("forfeited"),
        )
        .collect()
        .row(0, named=True)
    )
    config = meta["config"] if isinstance(meta["config"], dict) else {}
    tournament = config.get("tournament") if isinstance(config.get("tournament"), dict) else {}
    rows = [
        ["run folder", str(folder.path)],
        ["game", f"{meta['game']} (rules version {facts['version']})"],
        ["variant", _variant_text(facts["variant"])],
        ["status", str(meta["status"])],
        ["root seed", str(meta["root_seed"])],
        ["deals per line-up (config)", str(tournament.get("deals", "—"))],
        ["line-ups played", str(facts["pairings"])],
        ["deal indices played", str(facts["deal_indices"])],
        ["hands played", str(facts["hands"])],
        ["forfeited hands", str(facts["forfeited"])],
    ]
    for key in ("created", "started", "finished", "git_commit", "whist_sim_version"):
        if key in meta:
            rows.append([key.replace("_", " "), str(meta[key])])
    strategies = Table(["label", "strategy", "params", "version"], _strategy_rows(meta),
                       "Entrants")
    return Section(
        "Run",
        ["What was played: the run's settings as `run.json` records them, and what the"
         " tables hold (the variant is read from the results, with every default filled in)."],
        [Table(["", ""], rows, "Settings"), strategies],
    )


def _variant_text(variant: str | None) -> str:
    if not variant:
        return "—"
    try:
        parsed = json.loads(variant)
    except json.JSONDecodeError:
        return variant
    return ", ".join(
        f"{k} = {'off' if v is None else v}" for k, v in parsed.items()
    ) or "defaults"


def _strategy_rows(meta: dict[str, Any]) -> list[list[str]]:
    """Entrants from ``run.json``: config entries first, then the ``strategies`` map."""
    entries: dict[str, dict[str, Any]] = {}
    config = meta.get("config")
    if isinstance(config, dict):
        for entry in config.get("strategies") or []:
            if isinstance(entry, dict) and "use" in entry:
                label = entry.get("label") or entry["use"]
                entries[label] = {"use": entry["use"], "params": entry.get("params") or {}}
    recorded = meta.get("strategies")
    if isinstance(recorded, dict):
        for label, info in recorded.items():
            if isinstance(info, dict):
                entries.setdefault(label, {}).update(info)
            else:
                entries.setdefault(label, {})["version"] = info
    return [
        [label, str(info.get("use", "—")),
         json.dumps(info.get("params", {}), sort_keys=True), str(info.get("version", "—"))]
        for label, info in entries.items()
    ]


# -- generic sections ---------------------------------------------------------------------


def _generic_sections(folder: RunFolder, out: Path) -> list[Section]:
    seats, deals = folder.scan("seats"), folder.scan("deals")
    standings, h2h, pairwise, dealer, points, failed, table = pl.collect_all(
        [
            analyses.standings(seats),
            analyses.head_to_head(seats),
            analyses.pairwise_results(seats),
            analyses.dealer_effect(seats),
            analyses.points_distribution(seats),
            analyses.forfeits(seats, deals),
            analyses.players(seats),
        ]
    )
    ratings = bradley_terry(pairwise, bootstrap=BOOTSTRAP, seed=BOOTSTRAP_SEED)
    two = table["players"][0] == 2
    hands = "hands" if two else "seat-hands"
    sections = [
        Section(
            "Standings",
            [
                "One row per strategy, best mean net first. `hands` is every hand it played;"
                " `pairs` the duplicate pairs (a line-up and deal index played in every seat"
                " rotation, so both sides held the same cards). Each pair is first reduced to"
                " the strategy's mean over its hands in it; the figures are means over pairs,"
                " and the brackets are 95% t-intervals over pairs.",
                "A win is a hand won; a draw counts only in the draw rate; a forfeit (the"
                " strategy raised, played illegally or ran out of time) is a loss by the"
                " largest score the variant allows. `net` is points won minus points lost"
                " per hand, zero-sum across the table.",
                *([] if two else [
                    f"With {table['players'][0]} seats a duplicate pair is the line-up and deal"
                    " index under every distinct seating (a duplicate set), and `seat-hands`"
                    " counts one per seat the strategy held in a hand: a strategy holding two"
                    " seats of a line-up (A B A B) counts each hand twice. A hand is won by"
                    " every seat on the side that won it (in Solo Whist: the declarer side"
                    " when the contract is made, each defender when it fails; a throw-in is"
                    " a draw for all).",
                ]),
            ],
            [_table(standings, [
                ("strategy", _col("strategy")),
                (hands, _col("hands")),
                ("pairs", _col("pairs")),
                ("win rate [95% CI]", _ci("win_rate")),
                ("draw rate [95% CI]", _ci("draw_rate")),
                ("mean net [95% CI]", _ci("net")),
                ("forfeits", _col("forfeits")),
            ])],
            [plots.plot_standings(standings, out / "standings.png")],
        ),
        Section(
            "Head to head",
            [
                "Row strategy against column strategy, over the duplicate pairs in which the"
                " two met. The win share counts a draw as half a win (the higher net in the"
                " hand wins); brackets are 95% t-intervals over pairs. The second table is"
                " the row strategy's mean net points per hand against that opponent.",
                *([] if two else [
                    "With more than two seats a hand is not one duel, so head to head is"
                    " defined seat by seat: in each hand every seat of the row strategy is"
                    " compared with every seat of the column strategy. The win share is the"
                    " share of those comparisons in which the row strategy's net was higher"
                    " (equal nets, e.g. two defenders of one contract, count half); the"
                    " margin is half the difference of the two nets, averaged over the"
                    " comparisons (in a two-player game exactly the row strategy's net). Both"
                    " are antisymmetric: share(A, B) = 1 − share(B, A).",
                ]),
            ],
            [
                _matrix(h2h, _ci("share"), "Win share of the row strategy [95% CI]"),
                _matrix(h2h, _ci("net", 2), "Mean net points per hand of the row strategy"
                        " [95% CI]" if two else "Mean net margin per comparison, half the"
                        " difference of the two nets [95% CI]"),
            ],
            [plots.plot_head_to_head(h2h, out / "head_to_head.png")],
        ),
        Section(
            "Ratings",
            [
                "Bradley-Terry ratings fitted to every hand between two different strategies"
                " (a draw is half a win each way, a forfeit a loss), with one virtual drawn"
                " hand between every two entrants to keep the fit finite. On the Elo scale:"
                " the ratings average 0, and a gap of 400 means odds of 10 to 1 of winning a"
                " hand. Intervals are 95% percentile-bootstrap intervals from"
                f" {BOOTSTRAP} resamples of deal indices (seed {BOOTSTRAP_SEED}), so the"
                " duplicate pairs that share cards are resampled together.",
                *([] if two else [
                    "With more than two seats every two seats of a hand held by different"
                    " strategies are one game of the fit (the comparisons of the head-to-head"
                    " section); `comparisons` counts them.",
                ]),
            ],
            [_table(ratings, [
                ("strategy", _col("strategy")),
                ("rating [95% CI]", _ci("rating", 0)),
                ("hands" if two else "comparisons", _col("hands")),
            ])],
            [plots.plot_ratings(ratings, out / "ratings.png")],
        ),
        Section(
            "Dealer and non-dealer" if two else "Seat position",
            [
                "Win rate of each strategy when it dealt and when it did not, with 95% Wilson"
                " intervals over hands, and its mean net per hand with a 95% t-interval over"
                " hands. Treating hands as independent is fair here because a strategy deals"
                " one hand of each two-player duplicate pair; hands of different line-ups on"
                " the same deal index still share cards."
                if two else
                "Win rate and mean net per hand of each strategy by its seat's position"
                " relative to the dealer: `eldest` sits left of the dealer (in Solo Whist it"
                " calls first and leads the first trick), then `dealer+2`, `dealer+3`; the"
                " dealer calls last. Win rates have 95% Wilson intervals, mean nets 95%"
                " t-intervals, both over hands: a strategy holds a position once per hand,"
                " and in line-ups such as A B C D or A B A B every seating of a duplicate"
                " set moves it to other cards. In a line-up such as A B C A, and across"
                " line-ups on the same deal index, it holds some cards twice, which the"
                " intervals ignore.",
            ],
            [_table(dealer, [
                ("strategy", _col("strategy")),
                ("role" if two else "position", _col("role")),
                ("hands", _col("hands")),
                ("wins", _col("wins")),
                ("win rate [95% CI]", _ci("win_rate")),
                ("mean net [95% CI]", _ci("net", 2)),
            ])],
            [plots.plot_dealer(dealer, out / "dealer.png")],
        ),
        Section(
            "Points per hand",
            [f"How often each net score occurred, as a share of the strategy's {hands}."],
            [_points_table(points)],
            [plots.plot_points_distribution(points, out / "points.png")],
        ),
        Section(
            "Forfeits",
            [
                "Hands a strategy forfeited because it raised an error, made an illegal move"
                " or exceeded its time budget, with the first error in play order. Forfeits"
                " count as losses everywhere else in this report."
                + (" No strategy forfeited." if failed["forfeits"].sum() == 0 else ""),
            ],
            [_table(failed, [
                ("strategy", _col("strategy")),
                (hands, _col("hands")),
                ("forfeits", _col("forfeits")),
                ("rate", _col("forfeit_rate", 4)),
                ("first error", lambda r: fmt(r["first_error"])),
                ("first hand (deal_key)", lambda r: fmt(r["first_deal_key"])),
            ])],
        ),
    ]
    return sections


def _points_table(points: pl.DataFrame) -> Table:
    values = sorted(set(points["net"].to_list()))
    shares = {(r["strategy"], r["net"]): r["share"] for r in points.iter_rows(named=True)}
    names = sorted(set(points["strategy"].to_list()))
    rows = [[n] + [f"{100 * shares.get((n, v), 0.0):.1f}%" for v in values] for n in names]
    return Table(["strategy \\ net", *[f"{v:g}" for v in values]], rows,
                 "Share of hands at each net score")


# -- German Whist ---------------------------------------------------------------------------


def german_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The German Whist section: contesting the face-up card, and tricks by stage."""
    seats, deals, tricks = folder.scan("seats"), folder.scan("deals"), folder.scan("tricks")
    decisions = gw.contest_decisions(tricks, deals, seats)
    by_rank, by_type, stages = pl.collect_all(
        [gw.contest_by_rank(decisions), gw.contest_by_suit_type(decisions),
         gw.tricks_by_stage(seats, deals)]
    )
    def suit_type(row: dict[str, Any]) -> str:
        return "trump" if row["trump_prize"] else "non-trump"

    return [
        Section(
            "German Whist: contesting the face-up card",
            [
                "In stage 1 the trick's winner takes the face-up stock card. When the"
                " follower (the seat that did not lead) held a card that beat the lead, it"
                " chose: contest (win the trick and take the face-up card) or duck (lose on"
                " purpose and draw the unseen card). These tables count only such choices,"
                " in hands that were not forfeited."
                " The prize is the card the winner took; trump means its suit was trump.",
                "`net` and `stage-2 tricks` are the follower's results in that hand, averaged"
                " over decisions when it contested and when it ducked; the gain is the"
                " difference. This is an ASSOCIATION, not an effect: hands in which a"
                " strategy contested differ in other ways from those in which it ducked"
                " (for a start, it had a winner to spare). No intervals are given because"
                " the decisions of one hand are not independent; counts are shown instead.",
            ],
            [
                _table(by_type, [
                    ("strategy", _col("strategy")),
                    ("prize", suit_type),
                    ("decisions", _col("decisions")),
                    ("contest rate", _col("contest_rate")),
                    ("stage-2 tricks contested / ducked",
                     lambda r: f"{fmt(r['stage2_contested'], 2)} / {fmt(r['stage2_ducked'], 2)}"),
                    ("net contested / ducked",
                     lambda r: f"{fmt(r['net_contested'], 2)} / {fmt(r['net_ducked'], 2)}"),
                    ("net gain", _col("net_gain", 2)),
                ], "By suit type"),
                _rank_table(by_rank, "contest_rate", 2,
                            "Contest rate by rank of the prize (decisions in brackets)"),
                _rank_table(by_rank, "net_gain", 1,
                            "Net gain (mean net contested minus ducked) by rank of the prize"),
            ],
            [plots.plot_contest_by_rank(by_rank, out / "contest_by_rank.png")],
        ),
        Section(
            "German Whist: tricks by stage",
            [
                "Mean tricks per hand won in stage 1 (while the stock lasts) and in stage 2"
                " (the last 13, which the classic count scores), with 95% t-intervals over"
                " duplicate pairs.",
            ],
            [_table(stages, [
                ("strategy", _col("strategy")),
                ("hands", _col("hands")),
                ("stage-1 tricks [95% CI]", _ci("stage1", 2)),
                ("stage-2 tricks [95% CI]", _ci("stage2", 2)),
            ])],
        ),
    ]


def _rank_table(by_rank: pl.DataFrame, value: str, digits: int, caption: str) -> Table:
    cells = {
        (r["strategy"], r["trump_prize"], r["rank"]): r for r in by_rank.iter_rows(named=True)
    }
    keys = sorted({(r["strategy"], r["trump_prize"]) for r in by_rank.iter_rows(named=True)})
    rows = []
    for name, trump in keys:
        row = [name, "trump" if trump else "non-trump"]
        for rank in RANKS:
            cell = cells.get((name, trump, rank))
            if cell is None:
                row.append("—")
            elif value == "contest_rate":
                row.append(f"{fmt(cell[value], digits)} ({cell['decisions']})")
            else:
                row.append(fmt(cell[value], digits))
        rows.append(row)
    return Table(["strategy", "prize", *RANKS], rows, caption)


# -- Solo Whist -----------------------------------------------------------------------------


def _count_ci(count: str, rate: str, digits: int = 3) -> Callable[[dict], str]:
    """``count`` followed by the rate with its interval: ``12 · 0.250 [0.100, 0.400]``."""
    return lambda row: f"{fmt(row[count])} · {fmt_ci(row, rate, digits)}"


def solo_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The Solo Whist sections: bidding profitability, defence, make rate by hand strength,
    auction outcomes and session results."""
    seats, deals, contracts = folder.scan("seats"), folder.scan("deals"), folder.scan("contracts")
    outcomes = sw.seat_outcomes(seats, contracts, deals)
    bidding, defence, strength, mix, throw_ins, sessions = pl.collect_all(
        [
            sw.bidding(folder.scan("bids"), outcomes),
            sw.defence(outcomes),
            sw.make_rate_by_strength(outcomes),
            sw.contract_mix(outcomes),
            sw.throw_ins(contracts, deals),
            sw.session_results(folder.scan("matches")),
        ]
    )

    def figure(df: pl.DataFrame, draw: Callable[[pl.DataFrame, Path], Path],
               name: str) -> list[Path]:
        return [draw(df, out / f"{name}.png")] if df.height else []

    return [
        Section(
            "Solo Whist: bidding and contracts",
            [
                "For each strategy and contract: how often it bid the contract, won the"
                " auction with it, and made it, and what it earned on the declarer side."
                " Calls `prop` and `cop` both count as bids for Prop and Cop. A contract is"
                " *won* by every seat of the declarer side (the Cop partner too), and"
                " `won`, `made` and units count declarer-side seats: a Prop and Cop partner"
                " gets ±2 units at the default stake, a soloist ±9. The `all` row pools"
                " every contract (its bids are the auctions in which the strategy made any"
                " bid). Forfeited hands are left out of every Solo Whist section but the"
                " sessions.",
                "Intervals (95%): the bid rate is over the strategy's seat-hands (its"
                " auctions), won/bid over its bids and the make rate over the contracts it"
                " won, all Wilson intervals treating those as independent. Units per"
                " contract played and per 100 seat-hands are pooled ratios (total units"
                " over contracts, or over seat-hands) with t-intervals over duplicate sets"
                " (a line-up and deal index under every seating), whose units cannot be"
                " taken as independent: a cluster standard error. `units per 100"
                " seat-hands` adds up over contracts: the `all` row is what declaring"
                " earned the strategy per 100 hands it was dealt.",
            ],
            [_table(bidding, [
                ("strategy", _col("strategy")),
                ("contract", _col("contract")),
                ("seat-hands", _col("seat_hands")),
                ("bids · rate [95% CI]", _count_ci("bids", "bid_rate")),
                ("won · per bid [95% CI]", _count_ci("won", "won_rate")),
                ("made · make rate [95% CI]", _count_ci("made", "make_rate")),
                ("units per contract [95% CI]", _ci("units_per_contract", 2)),
                ("units per 100 seat-hands [95% CI]", _ci("units_per_100", 1)),
            ])],
            figure(bidding, plots.plot_units_per_contract, "solo_units"),
        ),
        Section(
            "Solo Whist: defence",
            [
                "Units a strategy lost defending against contracts that were made, and won"
                " against contracts that failed. Only contracts declared by another"
                " strategy count: where the declarer side holds a seat of the same strategy"
                " (line-up A B A B), what one of its seats loses the other wins. `units`"
                " is won minus lost. Units per contract defended and per 100 seat-hands"
                " are pooled ratios with 95% t-intervals over duplicate sets (cluster"
                " standard error). Declaring (the `all` row above) plus defending plus"
                " defending against its own strategy make up the strategy's whole net.",
            ],
            [_table(defence, [
                ("strategy", _col("strategy")),
                ("contract", _col("contract")),
                ("defended", _col("defended")),
                ("made against", _col("made_against")),
                ("units lost", _col("units_lost", 1)),
                ("defeated", _col("defeated")),
                ("units won", _col("units_won", 1)),
                ("units per defence [95% CI]", _ci("units_per_defence", 2)),
                ("units per 100 seat-hands [95% CI]", _ci("units_per_100", 1)),
            ])],
        ),
        Section(
            "Solo Whist: make rate by hand strength",
            [
                "How often a contract was made, against the declarer's hand strength when"
                " the auction ended. For contracts that must take tricks the measure is"
                " `sure_tricks`: the declarer's tricks that need no help, under the"
                " contract's trump (each suit's unbroken top sequence, plus trumps beyond"
                " the fourth). For Misère and Spread Misère it is `high_cards`: the aces,"
                " kings and queens held, which are the danger there (fewer is better);"
                " sure tricks under no trump would be 0 for almost every misère hand. Prop"
                " and Cop is placed by the proposer's hand alone. Each contract counts"
                " once, under its declarer's strategy.",
                "Intervals are 95% Wilson intervals over contracts. Read the curve as where"
                " a contract starts to pay: without `overtricks` every contract pays the"
                " same whether made or failed (a Solo 3 units per defender), so against"
                " a score of 0 it gains when its make rate is above 1/2, the dotted line."
                " The strength at which the Solo curve, band included, clears 1/2 is"
                " where that strategy should bid Solo. The curve shows only what the"
                " strategy's own bidding produced: hands it never bid on are not in it.",
            ],
            [_table(strength, [
                ("contract", _col("contract")),
                ("measure", _col("measure")),
                ("strategy", _col("strategy")),
                ("strength", _col("strength")),
                ("contracts", _col("contracts")),
                ("made", _col("made")),
                ("make rate [95% CI]", _ci("make_rate")),
            ])],
            figure(strength, plots.plot_make_rate_by_strength, "solo_make_rate"),
        ),
        Section(
            "Solo Whist: auction outcomes",
            [
                "Throw-ins: hands in which everyone passed, or a Prop found no Cop, per"
                " line-up (its strategies in seat order, first seating) and over all. The"
                " interval is a 95% t-interval over duplicate sets (pooled ratio, cluster"
                " standard error): every seating of a set is dealt the same cards, so its"
                " hands are not independent. A zero-width interval means every set had the"
                " same rate (e.g. no throw-in at all), not certainty.",
                "Contract mix: of the contracts each strategy won in the auction"
                " (declarer-side seats), the share of each kind, with 95% Wilson intervals"
                " over those contracts, and how many of each it won per 100 seat-hands.",
            ],
            [
                _table(throw_ins, [
                    ("line-up", _col("lineup")),
                    ("hands", _col("hands")),
                    ("throw-ins", _col("throw_ins")),
                    ("throw-in rate [95% CI]", _ci("throw_in_rate")),
                    ("duplicate sets", _col("sets")),
                ], "Throw-ins"),
                _table(mix, [
                    ("strategy", _col("strategy")),
                    ("contract", _col("contract")),
                    ("won", _col("won")),
                    ("share [95% CI]", _ci("share")),
                    ("per 100 seat-hands", _col("per_100", 2)),
                ], "Contract mix"),
            ],
            figure(mix, plots.plot_contract_mix, "solo_contract_mix"),
        ),
        Section(
            "Solo Whist: sessions",
            [
                "A session is `session_hands` hands with the deal rotating (or first to"
                " `target` units); its winner is the seat with the highest balance, and"
                " seats tied for top draw. One row of the `matches` table is a"
                " session-seat; `sessions` counts them (a strategy with two seats of a"
                " line-up has two per session). Mean balance, win rate and draw rate are"
                " means over duplicate sets of the strategy's mean in each set, with 95%"
                " t-intervals over sets. With four seats an even share is a win rate of"
                " 1/4 per seat. Forfeit penalties stay in the balances. The quantiles"
                " describe the spread of single sessions and carry no interval.",
            ],
            [_table(sessions, [
                ("strategy", _col("strategy")),
                ("sessions", _col("sessions")),
                ("sets", _col("pairs")),
                ("mean balance [95% CI]", _ci("balance", 2)),
                ("win rate [95% CI]", _ci("win_rate")),
                ("draw rate [95% CI]", _ci("draw_rate")),
                ("min", _col("balance_min", 1)),
                ("5%", _col("balance_p05", 1)),
                ("25%", _col("balance_q1", 1)),
                ("median", _col("balance_median", 1)),
                ("75%", _col("balance_q3", 1)),
                ("95%", _col("balance_p95", 1)),
                ("max", _col("balance_max", 1)),
            ])],
            figure(sessions, plots.plot_session_balances, "solo_sessions"),
        ),
    ]


GAME_SECTIONS: dict[str, SectionBuilder] = {
    "german_whist": german_whist_sections,
    "solo_whist": solo_whist_sections,
}
"""Game name -> builder of its own report sections, appended after the generic ones."""


# -- rendering ------------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def render_markdown(title: str, sections: Sequence[Section], out: Path) -> str:
    """The report as Markdown; figure links are relative to ``out``."""
    lines = [f"# {title}", ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for paragraph in section.paragraphs:
            lines += [paragraph, ""]
        for table in section.tables:
            if table.caption:
                lines += [f"**{table.caption}**", ""]
            header = [_md_cell(h) or " " for h in table.header]
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "|".join("---" for _ in header) + "|")
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
            lines.append("")
        for image in section.images:
            lines += [f"![{section.title}]({image.relative_to(out).as_posix()})", ""]
    return "\n".join(lines)


_CODE = re.compile(r"`([^`]+)`")

_HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 70rem; margin: 2rem auto;
       padding: 0 1rem; line-height: 1.45; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5rem 0 1.2rem; font-size: 0.9rem; }}
th, td {{ border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: right; }}
th {{ background: #f2f2f2; }}
td:first-child, th:first-child {{ text-align: left; }}
caption {{ caption-side: top; text-align: left; font-weight: 600; padding: 0.3rem 0; }}
img {{ max-width: 100%; display: block; margin: 0.5rem 0 1.5rem; }}
code {{ background: #f4f4f4; padding: 0 0.2rem; }}
</style>
</head>
<body>
<h1>{title}</h1>
{body}
</body>
</html>
"""


def _html_text(text: str) -> str:
    return _CODE.sub(r"<code>\1</code>", html.escape(text))


def render_html(title: str, sections: Sequence[Section], out: Path) -> str:
    """The report as one HTML page (inline CSS); ``<img>`` sources are relative to ``out``."""
    parts: list[str] = []
    for section in sections:
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        parts += [f"<p>{_html_text(p)}</p>" for p in section.paragraphs]
        for table in section.tables:
            parts.append("<table>")
            if table.caption:
                parts.append(f"<caption>{html.escape(table.caption)}</caption>")
            parts.append(
                "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in table.header) + "</tr>"
            )
            parts += [
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                for row in table.rows
            ]
            parts.append("</table>")
        parts += [
            f'<img src="{html.escape(image.relative_to(out).as_posix())}"'
            f' alt="{html.escape(section.title)}">'
            for image in section.images
        ]
    return _HTML_PAGE.format(title=html.escape(title), body="\n".join(parts))


# -- entry point ------------------------------------------------------------------------------


def build_report(run: Path | str, out: Path | None = None) -> ReportPaths:
    """Analyse run folder ``run`` and write its report (default ``<run>/report/``).

    Raises ``RunFolderError`` (one line) if the folder is missing, corrupt or has
    no results yet.
    """
    folder = RunFolder.open(run)
    meta = folder.meta()
    out = Path(out) if out is not None else folder.path / REPORT_DIR
    out.mkdir(parents=True, exist_ok=True)
    sections = [_run_summary(folder, meta), *_generic_sections(folder, out)]
    game = str(meta["game"])
    builder = GAME_SECTIONS.get(game)
    if builder is not None:
        sections += builder(folder, out)
    else:
        sections.append(Section(f"{game}", [f"No game-specific analyses for {game} yet."]))
    title = f"Report: {folder.path.name} ({game})"
    markdown = out / "report.md"
    markdown.write_text(render_markdown(title, sections, out))
    page = out / "report.html"
    page.write_text(render_html(title, sections, out))
    images = {image.stem: image for section in sections for image in section.images}
    return ReportPaths(out, markdown, page, images)
