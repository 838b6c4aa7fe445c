"""Build a run's report: analyses, PNG figures, ``report.md`` and ``report.html``.

``build_report(run)`` reads the run folder only (``run.json`` and the Parquet
tables, through ``RunFolder``), runs the generic analyses of
``whist_sim.reports.analyses`` and the section of the run's game, draws the
figures and writes everything into ``<run>/report/``.

A report is a list of :class:`Section` (title, prose, tables, figures) rendered
twice, to Markdown and to HTML, by small hand-written templates (no dependency
beyond the standard library). A game adds its own sections by registering a
builder in :data:`GAME_SECTIONS` (game name -> function of the open run and the
output folder); German, Solo, Minnesota and Knock-out Whist are there.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.cards import RANKS
from whist_sim.reports import analyses, plots
from whist_sim.reports import german_whist as gw
from whist_sim.reports import knockout_whist as kw
from whist_sim.reports import minnesota_whist as mw
from whist_sim.reports import solo_whist as sw
from whist_sim.reports.document import Section, Table, fmt, fmt_ci
from whist_sim.reports.document import column as _col
from whist_sim.reports.document import interval as _ci
from whist_sim.reports.document import matrix as _matrix
from whist_sim.reports.document import table_of as _table
from whist_sim.reports.ratings_section import leading_ratings, multiplayer_ratings_section
from whist_sim.reports.stats import bradley_terry
from whist_sim.reports.verdict_section import verdict_section
from whist_sim.store import RunFolder

REPORT_DIR = "report"
BOOTSTRAP = 200
"""Bootstrap resamples for the rating intervals."""
BOOTSTRAP_SEED = 0
HCP_BAND = 2
"""Width of the high-card-point bands of the Minnesota grand-value curves."""


@dataclass(frozen=True)
class ReportPaths:
    """Where a report was written."""

    folder: Path
    markdown: Path
    html: Path
    images: dict[str, Path]
    """Figure name -> PNG path, all inside ``folder``."""


SectionBuilder = Callable[[RunFolder, Path], list[Section]]


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
    """Entrants from ``run.json``: its ``strategies`` map (label -> use, params, version).

    Runs that lack the map (older run folders) fall back on the config's entries.
    """
    entries: dict[str, dict[str, Any]] = {}
    config = meta.get("config")
    recorded = meta.get("strategies")
    if isinstance(config, dict) and not isinstance(recorded, dict):
        for entry in config.get("strategies") or []:
            if isinstance(entry, dict) and "use" in entry:
                label = entry.get("label") or entry["use"]
                entries[label] = {"use": entry["use"], "params": entry.get("params") or {}}
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


PARTNERSHIP_GAMES = frozenset({"minnesota_whist"})
"""Games of two fixed partnerships (seats 0 and 2 against 1 and 3): head to head and the
ratings compare only seats of opposite sides, since partners always share a net."""

WHAT_WINS = {
    "solo_whist": "In Solo Whist a hand is won by the declarer side when the contract is"
    " made and by each defender when it fails; a throw-in is a draw for all.",
    "minnesota_whist": "In Minnesota Whist a hand is one deal of a game to `target`: both"
    " seats of the side that scored in it win it, and `net` is the side's points minus the"
    " other side's (the game results are in the Minnesota section).",
    "knockout_whist": "In Knock-out Whist a hand is a whole game: only its winner wins,"
    " `net` is +(players − 1) for the winner and −1 for every other seat, so an even"
    " win rate is 1/players.",
}
"""Per game, what winning a hand means, for the Standings prose of multi-seat games."""


def _sizes_text(sizes: list[int]) -> str:
    if len(sizes) == 1:
        return f"{sizes[0]} seats"
    return "tables of " + ", ".join(str(n) for n in sizes[:-1]) + f" and {sizes[-1]} seats"


def _generic_sections(folder: RunFolder, out: Path) -> list[Section]:
    seats, deals = folder.scan("seats"), folder.scan("deals")
    game = str(folder.meta()["game"])
    sides = game in PARTNERSHIP_GAMES
    standings, h2h, pairwise, dealer, points, failed, table, size_rows = pl.collect_all(
        [
            analyses.standings(seats),
            analyses.head_to_head(seats, sides),
            analyses.pairwise_results(seats, sides),
            analyses.dealer_effect(seats),
            analyses.points_distribution(seats),
            analyses.forfeits(seats, deals),
            analyses.players(seats),
            analyses.table_sizes(seats),
        ]
    )
    two = table["players"][0] == 2
    ratings = bradley_terry(pairwise, bootstrap=BOOTSTRAP, seed=BOOTSTRAP_SEED) if two else None
    sizes = size_rows["players"].to_list()
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
                    f"With {_sizes_text(sizes)} a duplicate pair is the line-up and deal"
                    " index under every distinct seating (a duplicate set), and `seat-hands`"
                    " counts one per seat the strategy held in a hand: a strategy holding two"
                    " seats of a line-up (A B A B) counts each hand twice. "
                    + WHAT_WINS.get(game, "A hand is won by every seat on the side that"
                                          " won it."),
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
            [plots.plot_standings(standings, out / "standings.png",
                                  _fair_win_rate(game, sizes, standings))],
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
                *([
                    "In this partnership game only seats of opposite partnerships are"
                    " compared: partners share every net, so a strategy partnered with"
                    " another one is never compared with its partner.",
                ] if sides else []),
            ],
            [
                _matrix(h2h, _ci("share"), "Win share of the row strategy [95% CI]"),
                _matrix(h2h, _ci("net", 2), "Mean net points per hand of the row strategy"
                        " [95% CI]" if two else "Mean net margin per comparison, half the"
                        " difference of the two nets [95% CI]"),
            ],
            [plots.plot_head_to_head(h2h, out / "head_to_head.png")],
        ),
        *(_bradley_terry_section(ratings, out) if two
          else multiplayer_ratings_section(folder, out)),
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
                *([] if len(sizes) < 2 else [
                    "Tables of each size are kept apart (`seats` column): `dealer+3` is the"
                    " dealer's right-hand neighbour at four seats but not at seven.",
                ]),
            ],
            [_table(dealer, [
                ("strategy", _col("strategy")),
                *([("seats", _col("players"))] if len(sizes) > 1 else []),
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
    sections += _decision_time_section(folder)
    return sections


def _decision_time_section(folder: RunFolder) -> list[Section]:
    """How long each strategy's decisions took, and its forfeits on time (runs that record
    ``actions.seconds``; older runs have no such column and get no section)."""
    actions = folder.scan("actions")
    if "seconds" not in actions.collect_schema().names():
        return []
    times = analyses.decision_times(actions, folder.scan("deals")).collect()

    def ms(name: str) -> Callable[[dict], str]:
        return lambda row: fmt(None if row[name] is None else 1000 * row[name], 3)

    return [Section(
        "Time per decision",
        [
            "How long each strategy took per decision, in milliseconds, measured around its"
            " call (for a bot, the round trip through the protocol). These are measurements"
            " of this machine under this run's load, not results: two runs of the same plan"
            " give the same rows except these times. `forfeits on time`: deals lost to the"
            " decision limit, a chess clock, or the supervisor ending a decision that would"
            " not stop.",
        ],
        [_table(times, [
            ("strategy", _col("strategy")),
            ("decisions", _col("decisions")),
            ("median ms", ms("median")),
            ("95th percentile ms", ms("p95")),
            ("max ms", ms("max")),
            ("forfeits on time", _col("time_forfeits")),
        ])],
    )]


def _fair_win_rate(
    game: str, sizes: list[int], standings: pl.DataFrame
) -> tuple[float, str] | None:
    """The win rate of an average seat, for the standings figure's reference line."""
    if game == "knockout_whist":
        if len(sizes) != 1:
            return None  # one fair share per table size: the Knock-out section draws them
        return 1.0 / sizes[0], f"fair share 1/{sizes[0]}"
    if sizes == [2] or game in PARTNERSHIP_GAMES:
        return 0.5, "fair share 1/2"
    hands = standings["hands"].cast(pl.Float64)
    average = float((standings["win_rate"] * hands).sum() / hands.sum())
    return average, "average seat"


def _bradley_terry_section(ratings: pl.DataFrame, out: Path) -> list[Section]:
    """Bradley-Terry ratings of a two-seat game, where every hand is one game of the fit.

    Tables of three to seven seats are rated from their finishing order instead
    (``ratings_section``): pairing their seats into duels squashes the gaps.
    """
    return [Section(
        "Ratings",
        [
            "Bradley-Terry ratings fitted to every hand between two different strategies"
            " (a draw is half a win each way, a forfeit a loss), with one virtual drawn"
            " hand between every two entrants to keep the fit finite. On the Elo scale:"
            " the ratings average 0, and a gap of 400 means odds of 10 to 1 of winning a"
            " hand. Intervals are 95% percentile-bootstrap intervals from"
            f" {BOOTSTRAP} resamples of deal indices (seed {BOOTSTRAP_SEED}), so the"
            " duplicate pairs that share cards are resampled together.",
        ],
        [_table(ratings, [
            ("strategy", _col("strategy")),
            ("rating [95% CI]", _ci("rating", 0)),
            ("hands", _col("hands")),
        ])],
        [plots.plot_ratings(ratings, out / "ratings.png")],
    )]


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


# -- Minnesota Whist ----------------------------------------------------------------------------


def minnesota_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The Minnesota Whist sections: granding and games per partnership and strategy, and the
    value of granding by hand strength."""
    rows = mw.seat_deals(folder.scan("seats"), folder.scan("deals"))
    values = mw.grand_value_by_hcp(rows, HCP_BAND)
    summary, curves, side_by_side, threshold = pl.collect_all(
        [mw.summary(rows, folder.scan("matches")), values, mw.grand_vs_pass(values),
         mw.grand_threshold(values)]
    )

    def band(row: dict[str, Any]) -> str:
        lo, hi = row["hcp"], row["hcp_hi"]
        return str(lo) if lo == hi else f"{lo}–{hi}"

    def choice(prefix: str) -> Callable[[dict], str]:
        def cell(row: dict[str, Any]) -> str:
            if row[f"{prefix}_seats"] is None:
                return "—"
            return (f"{row[f'{prefix}_seats']} · {fmt_ci(row, f'{prefix}_net', 2)}"
                    f" · {fmt(row[f'{prefix}_points'], 2)}")
        return cell

    return [
        Section(
            "Minnesota Whist: granding and games",
            [
                "One row per partnership (`A+B`: the strategies of its two seats, partners"
                " opposite) and per strategy. A partnership counts once per deal; a strategy"
                " once per seat it held, so a strategy partnered with itself counts each deal"
                " twice (with the same result, which leaves the rates unchanged).",
                "`grand rate`: share of deals in which its side granded (a seat of the side"
                " turned the first black card, or said grand). `success`: of those grands,"
                " the share in which the side took 7 tricks or more. `points per grand hand`"
                " and `per null hand`: the side's own points in the deal (0 when the other"
                " side scored), averaged over grand hands (whoever granded) and over null"
                " hands. `game win rate`: share of games to `target` won; a game is a row"
                " group of the `matches` table (one line-up, deal index and rotation).",
                "Intervals are 95% t-intervals over duplicate sets: a line-up and deal index"
                " played in both rotations, the partnerships swapping seats on the same"
                " cards. Rates and means are pooled ratios (every deal weighs the same)"
                " with a cluster standard error. Forfeited deals are left out of the deal"
                " columns; the games keep them.",
            ],
            [_table(summary, [
                ("", _col("kind")),
                ("name", _col("name")),
                ("deals", _col("deals")),
                ("grands · rate [95% CI]", _count_ci("grands", "grand_rate")),
                ("made 7+ · success [95% CI]", _count_ci("successes", "grand_success")),
                ("points per grand hand [95% CI]", _ci("grand_points", 2)),
                ("points per null hand [95% CI]", _ci("null_points", 2)),
                ("games", _col("games")),
                ("game win rate [95% CI]", _ci("game_win_rate")),
            ])],
        ),
        Section(
            "Minnesota Whist: when to grand",
            [
                "The value of granding by hand strength. For every seat that made a bidding"
                " choice: `grand` if it granded, `pass` if it declined (laid a red card, or"
                " said pass). Seats whose wish is unknown, because an earlier seat granded"
                " before their card was turned or their turn came, are left out. Strength is"
                " the seat's high-card points, counted from `deals.hands` (A=4 K=3 Q=2 J=1,"
                f" 40 in the pack), in bands of {HCP_BAND}.",
                "Each cell reads `seats · mean net [95% CI] · mean points`: `net` is the"
                " seat's side's points minus the other side's in that deal, `points` the"
                " side's own points. Net is the figure to decide by: a failed grand scores"
                " 0 for the granders but 2 per trick over six for the other side. Intervals"
                " are 95% t-intervals over duplicate sets (pooled ratio, cluster standard"
                " error). `all strategies` pools every seat.",
                "Read where the `grand` curve rises above the `pass` curve: seats with that"
                " many points did better granding. The threshold table gives the lowest"
                " band from which the grand net is above the pass net in that band and every"
                " higher band where both occurred (a point estimate: check it against the"
                " bands of the figure). This is an association: each strategy's own choices"
                " decide which hands land in each curve, and a passing seat's deal may be"
                " granded by another seat.",
            ],
            [
                _table(threshold, [
                    ("strategy", _col("strategy")),
                    ("grand from (HCP)", _col("threshold")),
                    ("bands compared", _col("bands")),
                    ("grands", _col("grands")),
                    ("passes", _col("passes")),
                ], "Estimated grand threshold"),
                _table(side_by_side, [
                    ("strategy", _col("strategy")),
                    ("HCP", band),
                    ("grand: seats · net [95% CI] · points", choice("grand")),
                    ("pass: seats · net [95% CI] · points", choice("pass")),
                    ("net gain of granding", _col("gain", 2)),
                ], "Grand against pass by high-card points"),
            ],
            [plots.plot_grand_value_by_hcp(curves, out / "minnesota_grand_value.png")]
            if curves.height else [],
        ),
    ]


# -- Knock-out Whist ------------------------------------------------------------------------------


def _shown_tables(df: pl.DataFrame) -> pl.DataFrame:
    """Rows to show: every table size, and the pooled "all" rows only when there are several."""
    if df.filter(pl.col("table") != kw.ALL).select("table").n_unique() > 1:
        return df
    return df.filter(pl.col("table") != kw.ALL)


def _survival_table(survival: pl.DataFrame) -> Table:
    cells = {(r["strategy"], r["table"], r["round"]): r for r in survival.iter_rows(named=True)}
    keys = survival.select("strategy", "table", "players").unique(maintain_order=True)
    rows = []
    for name, table, players in keys.iter_rows():
        row = [name, table, str(players)]
        for number in range(1, kw.ROUNDS + 1):
            cell = cells.get((name, table, number))
            row.append("—" if cell is None else fmt_ci(cell, "survival", 2))
        rows.append(row)
    return Table(["strategy", "table", "players", *[f"after {r}" for r in range(1, 8)]], rows,
                 "Share still in after each round [95% CI]")


def _elimination_table(eliminated: pl.DataFrame) -> Table:
    shares = {(r["strategy"], r["table"], r["outcome"]): r["share"]
              for r in eliminated.iter_rows(named=True)}
    outcomes = [f"round {r}" for r in range(1, 8)] + ["won"]
    keys = eliminated.select("strategy", "table", "players").unique(maintain_order=True)
    rows = [
        [name, table, str(players)]
        + [f"{100 * shares.get((name, table, o), 0.0):.1f}%" for o in outcomes]
        for name, table, players in keys.iter_rows()
    ]
    return Table(["strategy", "table", "players", *[f"out in {r}" for r in range(1, 8)], "won"],
                 rows, "Round of elimination (share of the strategy's players)")


def knockout_whist_sections(folder: RunFolder, out: Path) -> list[Section]:
    """The Knock-out Whist sections: survival by round, wins by table size and seat, dog's
    life, and trump choice."""
    rounds = folder.scan("rounds")
    games = kw.player_games(folder.scan("seats"), folder.scan("deals"))
    survival, eliminated, results, by_seat, dogs, trumps = pl.collect_all(
        [kw.survival(games), kw.elimination_rounds(games), kw.table_results(games, rounds),
         kw.win_rate_by_seat(games), kw.dogs_life(games),
         kw.trump_choice(rounds, folder.scan("deals"))]
    )
    survival, eliminated, results, dogs = (
        _shown_tables(df) for df in (survival, eliminated, results, dogs))
    several = results.filter(pl.col("table") == kw.ALL).height > 0

    def figure(df: pl.DataFrame, draw: Callable[[pl.DataFrame, Path], Path],
               name: str) -> list[Path]:
        return [draw(df, out / f"{name}.png")] if df.height else []

    intervals = (
        "Intervals are 95% t-intervals over deal indices: every line-up and seating of a"
        " deal index is played from the same seed, so only different deal indices count as"
        " independent. Rates and means are pooled ratios (every player-game weighs the"
        " same) with a cluster standard error. Forfeited games are left out."
    )
    tables_note = (
        " `table` is the table size; `all` pools every size of the run." if several else ""
    )
    return [
        Section(
            "Knock-out Whist: survival",
            [
                "A game is one row of the `deals` table; a player-game one seat of it, so"
                " `players` counts the seats a strategy held (several per game in a line-up"
                " such as A B A B A B A)." + tables_note,
                "Survival: the share of a strategy's players still in after each round. A"
                " player on a dog's life is still in; one whose dog failed goes out in the"
                " dog's round. The winner is never out, also after rounds its game did not"
                " need, so each curve ends, after round 7, at the strategy's win rate." " "
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
                " in that round." + tables_note,
                "By seat: the win rate at each seat counted from the first dealer (`dealer`,"
                " then 1 = its left, who leads round 1), for each table size. " + intervals,
            ],
            [
                _table(results, [
                    ("strategy", _col("strategy")),
                    ("table", _col("table")),
                    ("players", _col("players")),
                    ("win rate [95% CI]", _ci("win_rate")),
                    ("fair share", _col("fair_share")),
                    ("first-round knock-outs [95% CI]", _ci("first_round_rate")),
                    ("out in round 1 [95% CI]", _ci("first_round_out_rate")),
                    ("placing [95% CI]", _ci("placing", 2)),
                ], "By table size"),
                _table(by_seat, [
                    ("strategy", _col("strategy")),
                    ("table", _col("players")),
                    ("seat", lambda r: "dealer" if r["position"] == 0 else str(r["position"])),
                    ("player-games", _col("games")),
                    ("win rate [95% CI]", _ci("win_rate")),
                    ("fair share", _col("fair_share")),
                ], "By seat from the first dealer"),
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
                " measure (dog's life off, or no dog revived)." + tables_note,
                intervals,
            ],
            [_table(dogs, [
                ("strategy", _col("strategy")),
                ("table", _col("table")),
                ("players", _col("players")),
                ("granted · rate [95% CI]", _count_ci("granted", "granted_rate")),
                ("revived · per dog [95% CI]", _count_ci("revived", "revival_rate")),
                ("revived: won · rate [95% CI]", _count_ci("revived_wins", "revived_win_rate")),
                ("revived: placing [95% CI]", _ci("revived_placing", 2)),
            ])],
        ),
        Section(
            "Knock-out Whist: trump choice",
            [
                "From round 2 on, the player who took most tricks names trump, looking at"
                " its new hand, and leads. For each choice: the number of cards of the suit"
                " it named (`trump length`) against its longest suit (`longest suit`), and"
                " whether it named a longest suit. Rows split the choices into a longest"
                " suit and a shorter one, then `all`.",
                "How the chooser's round went: `round win` is its share of the round's top"
                " trick count (1 when it took most tricks alone, 1/k when k players tied"
                " for most, else 0; over the players of a round these add up to 1), and"
                " `fair share` the round win of an average player, 1 / players dealt in"
                " (dogs included). `survived`: it took a trick, so it stayed in. Comparing"
                " the `longest` and `shorter` rows is an association: a strategy that names"
                " a shorter suit may do so with a different kind of hand. " + intervals,
            ],
            [_table(trumps, [
                ("strategy", _col("strategy")),
                ("choice", _col("choice")),
                ("choices", _col("choices")),
                ("named a longest suit [95% CI]", _ci("longest_rate")),
                ("trump length [95% CI]", _ci("trump_length", 2)),
                ("longest suit [95% CI]", _ci("longest_suit", 2)),
                ("round win [95% CI]", _ci("round_win")),
                ("fair share", _col("fair_share")),
                ("survived [95% CI]", _ci("survived")),
            ])],
        ),
    ]


GAME_SECTIONS: dict[str, SectionBuilder] = {
    "german_whist": german_whist_sections,
    "solo_whist": solo_whist_sections,
    "minnesota_whist": minnesota_whist_sections,
    "knockout_whist": knockout_whist_sections,
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


def _ratings_order(folder: RunFolder) -> list[str]:
    """Entrants best first by the report's ratings: Bradley-Terry at two seats, else the
    finishing-order ratings the section leads with."""
    leading = leading_ratings(folder)
    if leading is None:
        seats = folder.scan("seats")
        leading = bradley_terry(analyses.pairwise_results(seats).collect(), bootstrap=0)
    return leading.sort("rating", descending=True)["strategy"].to_list()


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
    sections.insert(0, *verdict_section(folder, out, _ratings_order(folder)))
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
