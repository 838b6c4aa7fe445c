"""Matplotlib figures for the reports: finished DataFrames in, one PNG out.

Every function takes a DataFrame exactly as an analysis in ``analyses`` or a
game's module (``reports.german_whist``, ``solo_whist``, ``minnesota_whist``,
``knockout_whist``) returns it (collected), draws it, and writes ``path``.
They compute nothing beyond what drawing needs (positions, error-bar lengths).

Every figure is made and saved through ``figures``: at most 1,100 px wide, so
it shows in a 1,200 px window at its own size with legible legends, and with
the rules there that keep one series' values from flattening the others.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from whist_sim.cards import RANKS
from whist_sim.reports.figures import (
    APART,
    CHARACTER_WIDTH,
    CUT_NOTE,
    LEGEND_SIZE,
    LINE_HEIGHT,
    WIDTH,
    colours,
    errors,
    focus,
    footnote,
    grid,
    name_extent,
    names_side_by_side,
    new_figure,
    panel_title,
    save,
    set_apart,
    shared_legend,
    wrapped,
)


def _figure(width: float, height: float) -> Figure:
    """A figure asked for at ``width`` inches, drawn at most ``figures.WIDTH`` wide."""
    return new_figure(height, width)


def plot_standings(
    standings: pl.DataFrame, path: Path | str, fair: tuple[float, str] | None = (0.5, "")
) -> Path:
    """Two bar charts: mean net points per hand and win rate, with 95% CI error bars.

    ``fair``: the win rate of an average seat and its label, drawn dotted (0.5 at two
    seats, 1/players at a Knock-out table); None draws no line (tables of several sizes,
    where there is no one fair share).
    """
    names = standings["strategy"].to_list()
    y = np.arange(len(names))
    fig = _figure(10, 0.5 * len(names) + 1.8)
    left, right = fig.subplots(1, 2, sharey=True)
    left.barh(y, standings["net"].to_numpy(), xerr=errors(standings, "net"), capsize=4,
              color="tab:blue")
    left.axvline(0, color="black", linewidth=0.8)
    left.set_xlabel("mean net points per hand (95% CI over deal indices)")
    right.barh(y, standings["win_rate"].to_numpy(), xerr=errors(standings, "win_rate"),
               capsize=4, color="tab:green")
    if fair is not None:
        right.axvline(fair[0], color="black", linewidth=0.8, linestyle=":",
                      label=fair[1] or None)
        if fair[1]:
            right.legend(fontsize=LEGEND_SIZE, loc="lower right")
    right.set_xlim(0, 1)
    right.set_xlabel("win rate (95% CI over deal indices)")
    left.set_yticks(y, [wrapped(name) for name in names])
    left.invert_yaxis()
    fig.suptitle("Standings")
    return save(fig, path)


HEAT_BAR = 1.6
"""Inches the head-to-head heat map's colour bar takes with its label and a margin."""


def plot_head_to_head(h2h: pl.DataFrame, path: Path | str) -> Path:
    """Heatmap of the row strategy's win share against the column strategy, numbers in cells."""
    names = sorted(set(h2h["strategy"].to_list()) | set(h2h["opponent"].to_list()))
    index = {name: i for i, name in enumerate(names)}
    grid = np.full((len(names), len(names)), np.nan)
    for row, col, share in h2h.select("strategy", "opponent", "share").iter_rows():
        grid[index[row], index[col]] = share
    labels = [wrapped(name) for name in names]
    extent, lines = name_extent(labels)
    # the names' room first (beside the rows, and under the columns at 45 degrees), then
    # the colour bar's; cells shrink past a dozen entrants to stay within the page's width
    beside, under = extent + 0.4, 0.71 * (extent + lines * LINE_HEIGHT) + 0.5
    cell = max(0.3, min(0.8, (WIDTH - beside - HEAT_BAR) / len(names)))
    fig = _figure(beside + len(names) * cell + HEAT_BAR, under + len(names) * cell + 0.6)
    ax: Axes = fig.subplots()
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    for i in range(len(names)):
        for j in range(len(names)):
            text = "—" if np.isnan(grid[i, j]) else f"{grid[i, j]:.2f}"
            # white on the dark ends of the scale, black in the pale middle
            dark = not np.isnan(grid[i, j]) and abs(grid[i, j] - 0.5) > 0.3
            ax.text(j, i, text, ha="center", va="center",
                    fontsize=LEGEND_SIZE + 1 if cell >= 0.55 else 6,
                    color="white" if dark else "black")
    ax.set_xticks(range(len(names)), labels, rotation=45, ha="right",
                  rotation_mode="anchor")
    ax.set_yticks(range(len(names)), labels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    fig.colorbar(image, ax=ax, label="win share (draw = 1/2)")
    ax.set_title("Head to head")
    return save(fig, path)


def plot_ratings(
    ratings: pl.DataFrame, path: Path | str, title: str = "Bradley-Terry ratings"
) -> Path:
    """Ratings (Elo scale) as points with 95% interval bars."""
    names = ratings["strategy"].to_list()
    y = np.arange(len(names))
    fig = _figure(7, 0.5 * len(names) + 1.5)
    ax: Axes = fig.subplots()
    ax.errorbar(ratings["rating"].to_numpy(), y, xerr=errors(ratings, "rating"), fmt="o",
                capsize=4)
    ax.axvline(0, color="black", linewidth=0.8, linestyle=":")
    ax.set_yticks(y, [wrapped(name) for name in names])
    ax.invert_yaxis()
    ax.set_xlabel("rating (Elo scale, mean 0; 95% bootstrap interval over deals)")
    ax.set_title(title)
    return save(fig, path)


def plot_points_distribution(points: pl.DataFrame, path: Path | str) -> Path:
    """Share of hands at each net score, one group of bars per score, one bar per strategy."""
    names = sorted(set(points["strategy"].to_list()))
    values = sorted(set(points["net"].to_list()))
    x = np.arange(len(values))
    width = 0.8 / max(len(names), 1)
    fig = _figure(max(6, 0.5 * len(values) * max(1, len(names) / 2)), 4)
    ax: Axes = fig.subplots()
    for k, name in enumerate(names):
        rows = dict(points.filter(pl.col("strategy") == name).select("net", "share").iter_rows())
        ax.bar(x + (k - (len(names) - 1) / 2) * width, [rows.get(v, 0.0) for v in values],
               width, label=name)
    ax.set_xticks(x, spaced_labels([f"{v:g}" for v in values], fig.get_figwidth()))
    ax.set_xlabel("net points in the hand")
    ax.set_ylabel("share of the strategy's hands")
    ax.legend(fontsize=LEGEND_SIZE)
    ax.set_title("Points per hand")
    return save(fig, path)


def spaced_labels(labels: list[str], width: float) -> list[str]:
    """``labels`` for evenly spaced ticks across ``width`` inches, every k-th kept (the
    others blank) so that neighbours do not run into each other: under `count =
    "weighted"` the 36 scores -17.5 .. 17.5 of a 1,100 px figure printed as one unreadable
    run of digits (a probe). The first label is always kept."""
    if not labels:
        return labels
    widest = max(len(label) for label in labels) + 1  # a gap between two labels
    room = 0.9 * width / len(labels)  # the axes take about nine tenths of the figure
    step = max(1, math.ceil(widest * CHARACTER_WIDTH / room))
    return [label if i % step == 0 else "" for i, label in enumerate(labels)]


def plot_contest_by_rank(contest: pl.DataFrame, path: Path | str) -> Path:
    """Contest rate by face-up rank, a line per strategy; trump and non-trump prizes apart."""
    names = sorted(set(contest["strategy"].to_list()))
    # a panel per kind of prize seen: under trumps = "none" the trump panel stood empty
    # beside the other (a probe)
    kinds = [trump for trump in (False, True)
             if contest.filter(pl.col("trump_prize") == trump).height] or [False, True]
    fig = _figure(10, 4.4)
    axes = np.atleast_1d(fig.subplots(1, len(kinds), sharey=True))
    for ax, trump in zip(axes, kinds, strict=True):
        part = contest.filter(pl.col("trump_prize") == trump)
        for name in names:
            rows = part.filter(pl.col("strategy") == name).sort("rank_order")
            # every rank a place, NaN where no decision was seen: the line breaks there
            # rather than drawing a rate across a rank with no data (a newcomer's probe)
            rates = np.full(13, np.nan)
            rates[rows["rank_order"].to_numpy()] = rows["contest_rate"].to_numpy()
            ax.plot(np.arange(13), rates, marker="o", label=name)
        ax.set_xticks(range(13), list(RANKS))
        ax.set_xlabel("rank of the face-up card at stake")
        ax.set_title("trump prize" if trump else "non-trump prize")
        ax.set_ylim(-0.02, 1.02)
    axes[0].set_ylabel("contest rate (when it could win)")
    shared_legend(fig, axes, "Contesting the face-up card")
    return save(fig, path)


def plot_dealer(dealer: pl.DataFrame, path: Path | str) -> Path:
    """Win rate per seat position (dealer, non-dealer or eldest, ...) per strategy, with the
    table's 95% intervals over deal indices as error bars: one bar per position, in order
    round the table. With tables of several sizes in one run (a ``players`` column with
    several values), one panel per size, since a position means something else at each."""
    sizes = sorted(set(dealer["players"].to_list())) if "players" in dealer.columns else [None]
    names = sorted(set(dealer["strategy"].to_list()))
    widest = max(dealer.select("role").n_unique() if size is None else
                 dealer.filter(pl.col("players") == size).select("role").n_unique()
                 for size in sizes)
    panel = max(5, (0.5 + 0.35 * widest) * len(names) + 2)
    fig = _figure(panel, 4 * len(sizes))
    axes = np.atleast_1d(fig.subplots(len(sizes), 1, squeeze=False)).ravel()
    for ax, size in zip(axes, sizes, strict=True):
        part = dealer if size is None else dealer.filter(pl.col("players") == size)
        order = part.select("role", "position").unique().sort("position", nulls_last=True)
        roles = order["role"].to_list()
        x = np.arange(len(names))
        width = 0.8 / max(len(roles), 1)
        for k, role in enumerate(roles):
            rows = part.filter(pl.col("role") == role).sort("strategy")
            positions = np.array([names.index(n) for n in rows["strategy"]])
            positions = positions + (k - (len(roles) - 1) / 2) * width
            ax.bar(positions, rows["win_rate"].to_numpy(), width,
                   yerr=errors(rows, "win_rate"), capsize=3, label=role)
        if len(roles) == 2:
            fair, label = two_seat_line(part)
            ax.axhline(fair, color="black", linewidth=0.8, linestyle=":", label=label)
        ax.set_xticks(x, names_side_by_side(names, fig.get_figwidth()))
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% interval over deal indices)")
        ax.legend(fontsize=LEGEND_SIZE, ncols=2 if len(roles) > 4 else 1)
        title = "Dealer and non-dealer" if len(roles) == 2 else "Win rate by seat position"
        ax.set_title(title if len(sizes) == 1 else f"{title}: {size} seats")
    return save(fig, path)


def two_seat_line(part: pl.DataFrame) -> tuple[float, str]:
    """The dealer figure's reference line at two seats, and its legend label: 1/2, less the
    drawn hands' share, since a drawn hand (or a Knock-out game another seat forfeited) has
    no winner. Two equal German Whist entrants under ``count = "all"`` sat below a line at
    1/2 in both roles (a probe). Without draws every hand has one winner, and the line is
    1/2 exactly (whole counts)."""
    share = part["wins"].sum() / part["hands"].sum()
    if share == 0.5:
        return 0.5, "fair share 1/2"
    return share, "average seat (a draw: no winner)"


# -- Solo Whist ---------------------------------------------------------------------------


def _label(name: str) -> str:
    return name.replace("_", " ")


def plot_make_rate_by_strength(rates: pl.DataFrame, path: Path | str) -> Path:
    """Make rate against hand strength, one panel per contract, a line per declaring
    strategy with its 95% band over deal indices and error bars
    (``solo_whist.make_rate_by_strength``; none where one deal index holds the strength).
    The dotted line at 1/2 is where a contract paying the same made or failed breaks even.
    One legend above the panels: a legend in each would hide its curves."""
    contracts = rates.select("contract", "level").unique().sort("level")["contract"].to_list()
    names = sorted(set(rates["strategy"].to_list()))
    fig = _figure(10, 2.9 * max(1, -(-len(contracts) // 3)) + 0.8)
    axes = grid(fig, len(contracts), 3)
    colour = colours(names)
    for ax, contract in zip(axes, contracts, strict=True):
        part = rates.filter(pl.col("contract") == contract)
        measure = part["measure"][0]
        for name in names:
            line = part.filter(pl.col("strategy") == name).sort("strength")
            if line.height == 0:
                continue
            x = line["strength"].to_numpy()
            ax.fill_between(x, line["make_rate_lo"].to_numpy(), line["make_rate_hi"].to_numpy(),
                            color=colour[name], alpha=0.15, linewidth=0)
            # error bars too, so that a strength between two unseen ones shows its interval
            ax.errorbar(x, line["make_rate"].to_numpy(), yerr=errors(line, "make_rate"),
                        marker="o", color=colour[name], capsize=2, elinewidth=0.8, label=name)
        ax.axhline(0.5, color="black", linewidth=0.8, linestyle=":")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        low, high = part["strength"].min(), part["strength"].max()
        if low is not None and high - low < 2:  # whole strengths need two in view to be ticked
            ax.set_xlim(low - 1, high + 1)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(_label(contract))
        ax.set_xlabel("aces, kings, queens held (fewer is better)"
                      if measure == "high_cards" else "declarer's sure tricks")
    for ax in axes[::3]:
        ax.set_ylabel("make rate as declarer (95%)")
    shared_legend(fig, axes, "Make rate by hand strength")
    return save(fig, path)


def _grouped_bars(ax: Axes, df: pl.DataFrame, value: str, contracts: list[str],
                  names: list[str], colour: dict[str, str]) -> bool:
    """Bars per contract, one per strategy; True if an interval was cut at the panel's edge."""
    x = np.arange(len(contracts))
    width = 0.8 / max(len(names), 1)
    place = {c: i for i, c in enumerate(contracts)}
    shown = df.filter(pl.col("strategy").is_in(names) & pl.col("contract").is_in(contracts)
                      & pl.col(value).is_not_null())
    for k, name in enumerate(names):
        rows = shown.filter(pl.col("strategy") == name)
        if rows.height == 0:  # bars of nothing carry no colour: the shared legend drew
            continue          # such an entrant in the default blue, another's colour
        positions = np.array([place[c] for c in rows["contract"]], dtype=float)
        ax.bar(positions + (k - (len(names) - 1) / 2) * width, rows[value].to_numpy(), width,
               yerr=errors(rows, value), capsize=3, label=name, color=colour[name])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [_label(c) for c in contracts], rotation=30, ha="right")
    if shown.height == 0:
        return False
    cut = focus(ax, shown[value].to_numpy(), shown[f"{value}_lo"].fill_null(np.nan).to_numpy(),
                shown[f"{value}_hi"].fill_null(np.nan).to_numpy())
    # a bar's length is its value only on an axis that reaches 0: focus alone set 8 to 23
    # for contracts paying 14 to 23 units, 14.5 drawn under half as tall as 22.5 (a probe)
    low, high = ax.get_ylim()
    ax.set_ylim(min(low, 0.0), max(high, 0.0))
    return cut


def plot_units_per_contract(bidding: pl.DataFrame, path: Path | str) -> Path:
    """Declarer-side units per contract played and per 100 seat-hands, bars per strategy
    and contract (``all`` last), with 95% interval error bars (``solo_whist.bidding``).

    A strategy whose units dwarf the others' (random bidding loses a thousand units per
    100 seat-hands where a heuristic wins ten) is drawn in panels of its own on the right,
    each with its own scale, and a note under the figure says so: on one scale the others
    would be flat lines."""
    contracts = bidding.select("contract", "level").unique().sort("level")["contract"].to_list()
    names = sorted(set(bidding["strategy"].to_list()))
    colour = colours(names)
    sizes = {name: float(bidding.filter(pl.col("strategy") == name)["units_per_100"]
                         .abs().max() or 0.0) for name in names}
    together, apart = set_apart(sizes)
    groups = [group for group in (together, apart) if group]
    fig = _figure(10, 8)
    axes = fig.subplots(2, len(groups), squeeze=False,
                        width_ratios=[len(group) + 2 for group in groups])
    cut = False
    for column, group in enumerate(groups):
        top, bottom = axes[0, column], axes[1, column]
        cut |= _grouped_bars(top, bidding, "units_per_contract", contracts, group, colour)
        cut |= _grouped_bars(bottom, bidding, "units_per_100", contracts, group, colour)
        if apart:
            share = (len(group) + 2) / sum(len(each) + 2 for each in groups)
            panel_title(top, ", ".join(group) + (" (own scale)" if group is apart else ""),
                        share)
    axes[0, 0].set_ylabel("units per contract played")
    axes[1, 0].set_ylabel("units per 100 seat-hands")
    shared_legend(fig, axes.ravel(),
                  "Declarer-side units by contract (95% CI over deal indices)", order=names)
    notes = []
    if apart:
        notes.append(f"{', '.join(apart)}: panels of {'its' if len(apart) == 1 else 'their'}"
                     f" own, on another scale (units more than {APART:g} times the others')")
    if cut:
        notes.append(CUT_NOTE)
    if notes:
        footnote(fig, "; ".join(notes))
    return save(fig, path)


def plot_contract_mix(mix: pl.DataFrame, path: Path | str) -> Path:
    """Stacked bars: the share of each contract among those a strategy won in the auction
    (``solo_whist.contract_mix``)."""
    names = sorted(set(mix["strategy"].to_list()))
    contracts = mix.select("contract", "level").unique().sort("level")["contract"].to_list()
    x = np.arange(len(names))
    fig = _figure(max(6, 1.2 * len(names) + 4), 4.5)
    ax: Axes = fig.subplots()
    bottom = np.zeros(len(names))
    for contract in contracts:
        shares = dict(mix.filter(pl.col("contract") == contract)
                      .select("strategy", "share").iter_rows())
        heights = np.array([shares.get(n, 0.0) for n in names])
        ax.bar(x, heights, 0.6, bottom=bottom, label=_label(contract))
        bottom += heights
    # the legend stands beside the axes, outside them: about 2 inches of the figure
    ax.set_xticks(x, names_side_by_side(names, fig.get_figwidth() - 2))
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of the contracts it won")
    ax.legend(fontsize=LEGEND_SIZE, bbox_to_anchor=(1.02, 1), loc="upper left")
    ax.set_title("Contract mix")
    return save(fig, path)


def plot_session_balances(sessions: pl.DataFrame, path: Path | str) -> Path:
    """Session balances per strategy: a box from the quartiles, whiskers at the 5th and
    95th percentiles, min and max as points, and the mean with its 95% interval
    (``solo_whist.session_results``)."""
    names = sessions["strategy"].to_list()
    stats = [
        {"label": row["strategy"], "med": row["balance_median"], "q1": row["balance_q1"],
         "q3": row["balance_q3"], "whislo": row["balance_p05"], "whishi": row["balance_p95"],
         "fliers": [row["balance_min"], row["balance_max"]]}
        for row in sessions.iter_rows(named=True)
    ]
    y = np.arange(1, len(names) + 1)
    fig = _figure(8, 0.7 * len(names) + 1.8)
    ax: Axes = fig.subplots()
    ax.bxp(stats, positions=y, orientation="horizontal", showfliers=True, widths=0.5)
    ax.errorbar(sessions["balance"].to_numpy(), y, xerr=errors(sessions, "balance"), fmt="D",
                color="tab:red", capsize=4, label="mean (95% CI over deal indices)")
    ax.axvline(0, color="black", linewidth=0.8, linestyle=":")
    ax.set_yticks(y, [wrapped(name) for name in names])
    ax.invert_yaxis()
    ax.set_xlabel("balance at the end of a session (units)")
    ax.legend(fontsize=LEGEND_SIZE)
    ax.set_title("Session balances")
    return save(fig, path)


# -- Minnesota Whist ------------------------------------------------------------------------


def plot_grand_value_by_hcp(values: pl.DataFrame, path: Path | str) -> Path:
    """Mean result of granding and of passing against the chooser's high-card points: one
    row of panels per strategy (``minnesota_whist.grand_value_by_hcp``), net points on the
    left and the side's own points on the right, each curve with its 95% band and error
    bars. Rows keep every panel 1/2 of the figure wide however many strategies there are;
    an interval of a band seen a few times, which would stretch its panel far beyond the
    curves, is cut at the edge (a note says so)."""
    names = list(dict.fromkeys(values["strategy"].to_list()))
    fig = _figure(10, 2.7 * max(len(names), 1) + 1.0)
    axes = fig.subplots(max(len(names), 1), 2, squeeze=False, sharex=True)
    colour = {"grand": "tab:red", "pass": "tab:blue"}
    cut = False
    for row, name in enumerate(names):
        part = values.filter(pl.col("strategy") == name)
        for column, (measure, label) in enumerate((("net", "net points of the side"),
                                                   ("points", "points the side scored"))):
            ax = axes[row, column]
            for choice, shade in colour.items():
                line = part.filter(pl.col("choice") == choice).sort("hcp")
                if line.height == 0:
                    continue
                # each band drawn at its middle
                x = (line["hcp"].to_numpy() + line["hcp_hi"].to_numpy()) / 2
                lo = line[f"{measure}_lo"].fill_null(np.nan).to_numpy().astype(float)
                hi = line[f"{measure}_hi"].fill_null(np.nan).to_numpy().astype(float)
                ax.fill_between(x, lo, hi, color=shade, alpha=0.15, linewidth=0)
                ax.errorbar(x, line[measure].to_numpy(), yerr=errors(line, measure),
                            marker="o", color=shade, capsize=2, elinewidth=0.8, label=choice)
            if part.height:
                cut |= focus(ax, part[measure].to_numpy(),
                             part[f"{measure}_lo"].fill_null(np.nan).to_numpy(),
                             part[f"{measure}_hi"].fill_null(np.nan).to_numpy())
            ax.axhline(0, color="black", linewidth=0.8, linestyle=":")
            panel_title(ax, f"{name}: {label}", 1 / 2, points=10)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes[row, 0].set_ylabel("mean (95% CI)")
    for ax in axes[-1]:
        ax.set_xlabel("chooser's high-card points (A=4 K=3 Q=2 J=1)")
    shared_legend(fig, axes.ravel(), "Value of granding by hand strength: grand vs pass")
    if cut:
        footnote(fig, CUT_NOTE)
    return save(fig, path)


# -- Knock-out Whist ----------------------------------------------------------------------


def _table_panels(tables: list[str]) -> list[str]:
    """Panels to draw from a ``table`` column: each size, led by "all" when there are several."""
    sizes = sorted((t for t in set(tables) if t != "all"), key=int)
    return ["all", *sizes] if len(sizes) > 1 else sizes


def _table_title(table: str) -> str:
    return "all table sizes" if table == "all" else f"{table} players"


def plot_survival(survival: pl.DataFrame, path: Path | str) -> Path:
    """Share of each strategy's players still in after each round, as steps with 95% bands,
    every strategy on one axis (``knockout_whist.survival``); with several table sizes the
    pooled curves first, then one panel per size."""
    panels = _table_panels(survival["table"].to_list())
    names = sorted(set(survival["strategy"].to_list()))
    colours = {name: f"C{i % 10}" for i, name in enumerate(names)}
    fig = _figure(5.5 * len(panels), 4.2)
    axes = np.atleast_1d(fig.subplots(1, len(panels), squeeze=False, sharey=True)).ravel()
    for ax, table in zip(axes, panels, strict=True):
        part = survival.filter(pl.col("table") == table)
        for name in names:
            line = part.filter(pl.col("strategy") == name).sort("round")
            if line.height == 0:
                continue
            x, (y, lo, hi) = _last_step_drawn(
                line["round"].to_numpy(),
                *(line[c].fill_null(np.nan).to_numpy().astype(float)
                  for c in ("survival", "survival_lo", "survival_hi")))
            ax.fill_between(x, lo, hi, step="post", color=colours[name], alpha=0.15,
                            linewidth=0)
            ax.step(x, y, where="post", color=colours[name], label=name)
        ax.set_xticks(range(8))
        ax.set_xlim(0, 8)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("after round")
        ax.set_title(_table_title(table))
    axes[0].set_ylabel("share still in (95% CI over deal indices)")
    shared_legend(fig, axes, "Survival by round")
    return save(fig, path)


def _last_step_drawn(x: np.ndarray, *ys: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Steps drawn "post" hold each value from its round to the next: the last one, after
    round 7 (the win rate), began at the frame's edge and showed only as a drop there (a
    probe). One more point, a round on, with the last values again, draws it for a round's
    width."""
    if not x.size:
        return x, list(ys)
    return np.append(x, x[-1] + 1), [np.append(y, y[-1]) for y in ys]


def plot_elimination_rounds(rounds: pl.DataFrame, path: Path | str) -> Path:
    """Share of each strategy's players going out in each round, and winning: grouped bars,
    one per strategy (``knockout_whist.elimination_rounds``), a panel per table size."""
    panels = _table_panels(rounds["table"].to_list())
    names = sorted(set(rounds["strategy"].to_list()))
    outcomes = [f"round {r}" for r in range(1, 8)] + ["won"]
    x = np.arange(len(outcomes))
    width = 0.8 / max(len(names), 1)
    fig = _figure(max(6, 1 + 0.9 * len(outcomes)), 3.6 * len(panels))
    axes = np.atleast_1d(fig.subplots(len(panels), 1, squeeze=False)).ravel()
    for ax, table in zip(axes, panels, strict=True):
        part = rounds.filter(pl.col("table") == table)
        for k, name in enumerate(names):
            shares = dict(part.filter(pl.col("strategy") == name)
                          .select("outcome", "share").iter_rows())
            ax.bar(x + (k - (len(names) - 1) / 2) * width,
                   [shares.get(o, 0.0) for o in outcomes], width, label=name)
        ax.set_xticks(x, ["out in 1", *[str(r) for r in range(2, 8)], "won"])
        ax.set_ylabel("share of its players")
        ax.set_title(_table_title(table))
    axes[-1].set_xlabel("round of elimination")
    shared_legend(fig, axes, "Round of elimination")
    return save(fig, path)


def plot_win_rate_by_table(results: pl.DataFrame, path: Path | str) -> Path:
    """Win rate per table size, bars per strategy with 95% CIs and the fair share (1 / table
    size) as a black tick (``knockout_whist.table_results``)."""
    sizes = sorted((t for t in set(results["table"].to_list()) if t != "all"), key=int)
    names = sorted(set(results["strategy"].to_list()))
    x = np.arange(len(sizes))
    width = 0.8 / max(len(names), 1)
    # the legend stands beside the bars: inside, it covered the tallest and its interval
    beside = name_extent([wrapped(name) for name in names])[0] + 1.0
    fig = _figure(max(5, 1.5 * len(sizes) * max(1, len(names) / 2) + 2) + beside, 4)
    ax: Axes = fig.subplots()
    for k, name in enumerate(names):
        rows = results.filter((pl.col("strategy") == name) & pl.col("table").is_in(sizes))
        place = {t: i for i, t in enumerate(sizes)}
        positions = np.array([place[t] for t in rows["table"]], dtype=float)
        ax.bar(positions + (k - (len(names) - 1) / 2) * width, rows["win_rate"].to_numpy(),
               width, yerr=errors(rows, "win_rate"), capsize=3, label=name)
    ax.hlines([1 / int(t) for t in sizes], x - 0.45, x + 0.45, colors="black",
              linestyles=":", zorder=3, label="fair share (1 / players)")
    ax.set_xticks(x, [f"{t} players" for t in sizes])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI over deal indices)")
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, [wrapped(label) for label in labels], fontsize=LEGEND_SIZE,
              loc="upper left", bbox_to_anchor=(1.02, 1))
    ax.set_title("Win rate by table size")
    return save(fig, path)


def plot_win_rate_by_seat(by_seat: pl.DataFrame, path: Path | str) -> Path:
    """Win rate by seat (counted from the first dealer), a panel per table size, a line per
    strategy with 95% error bars and the fair share dotted (``knockout_whist.win_rate_by_seat``)."""
    sizes = sorted(set(by_seat["players"].to_list()))
    names = sorted(set(by_seat["strategy"].to_list()))
    fig = _figure(max(5, 4.5 * len(sizes)), 4)
    axes = np.atleast_1d(fig.subplots(1, len(sizes), squeeze=False, sharey=True)).ravel()
    for ax, size in zip(axes, sizes, strict=True):
        part = by_seat.filter(pl.col("players") == size)
        for k, name in enumerate(names):
            line = part.filter(pl.col("strategy") == name).sort("position")
            # strategies side by side at each seat, so their bars do not overlap
            x = line["position"].to_numpy() + (k - (len(names) - 1) / 2) * 0.08
            ax.errorbar(x, line["win_rate"].to_numpy(), yerr=errors(line, "win_rate"),
                        marker="o", capsize=3, label=name)
        ax.axhline(1 / size, color="black", linewidth=0.8, linestyle=":",
                   label="fair share (1 / players)")
        roles = dict(zip(part["position"].to_list(), part["role"].to_list(), strict=True))
        ax.set_xticks(range(size), [roles.get(p, "") for p in range(size)],
                      rotation=30 if size > 4 else 0)
        ax.set_ylim(0, 1)
        ax.set_xlabel("seat from the first dealer")
        ax.set_title(f"{size} players")
    axes[0].set_ylabel("win rate (95% CI over deal indices)")
    shared_legend(fig, axes, "Win rate by seat")
    return save(fig, path)
