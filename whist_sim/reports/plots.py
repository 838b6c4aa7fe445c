"""Matplotlib figures for the reports: finished DataFrames in, one PNG out.

Every function takes a DataFrame exactly as an analysis in ``analyses`` or
``reports.german_whist`` returns it (collected), draws it, and writes ``path``.
They compute nothing beyond what drawing needs (positions, error-bar lengths).

Figures are drawn on the Agg canvas directly (``Figure`` + ``FigureCanvasAgg``)
rather than through ``pyplot``: no display is needed, and importing this module
does not switch the backend of a notebook or program that uses it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from whist_sim.cards import RANKS

DPI = 110


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Figure, path: Path | str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    return path


def _errors(df: pl.DataFrame, name: str) -> np.ndarray:
    """Error-bar lengths below and above ``name`` from ``name_lo``/``name_hi`` (0 if unknown)."""
    mid = df[name].to_numpy().astype(float)
    lo = df[f"{name}_lo"].fill_null(np.nan).to_numpy().astype(float)
    hi = df[f"{name}_hi"].fill_null(np.nan).to_numpy().astype(float)
    return np.nan_to_num(np.vstack([mid - lo, hi - mid]), nan=0.0)


def plot_standings(standings: pl.DataFrame, path: Path | str) -> Path:
    """Two bar charts: mean net points per hand and win rate, with 95% CI error bars."""
    names = standings["strategy"].to_list()
    y = np.arange(len(names))
    fig = _figure(10, 0.5 * len(names) + 1.8)
    left, right = fig.subplots(1, 2, sharey=True)
    left.barh(y, standings["net"].to_numpy(), xerr=_errors(standings, "net"), capsize=4,
              color="tab:blue")
    left.axvline(0, color="black", linewidth=0.8)
    left.set_xlabel("mean net points per hand (95% CI over duplicate pairs)")
    right.barh(y, standings["win_rate"].to_numpy(), xerr=_errors(standings, "win_rate"),
               capsize=4, color="tab:green")
    right.axvline(0.5, color="black", linewidth=0.8, linestyle=":")
    right.set_xlim(0, 1)
    right.set_xlabel("win rate (95% CI over duplicate pairs)")
    left.set_yticks(y, names)
    left.invert_yaxis()
    fig.suptitle("Standings")
    return _save(fig, path)


def plot_head_to_head(h2h: pl.DataFrame, path: Path | str) -> Path:
    """Heatmap of the row strategy's win share against the column strategy, numbers in cells."""
    names = sorted(set(h2h["strategy"].to_list()) | set(h2h["opponent"].to_list()))
    index = {name: i for i, name in enumerate(names)}
    grid = np.full((len(names), len(names)), np.nan)
    for row, col, share in h2h.select("strategy", "opponent", "share").iter_rows():
        grid[index[row], index[col]] = share
    size = 1.0 + 0.8 * len(names)
    fig = _figure(size + 1.5, size)
    ax: Axes = fig.subplots()
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    for i in range(len(names)):
        for j in range(len(names)):
            text = "—" if np.isnan(grid[i, j]) else f"{grid[i, j]:.2f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=9)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    fig.colorbar(image, ax=ax, label="win share (draw = 1/2)")
    ax.set_title("Head to head")
    return _save(fig, path)


def plot_ratings(ratings: pl.DataFrame, path: Path | str) -> Path:
    """Bradley-Terry ratings (Elo scale) as points with 95% interval bars."""
    names = ratings["strategy"].to_list()
    y = np.arange(len(names))
    fig = _figure(7, 0.5 * len(names) + 1.5)
    ax: Axes = fig.subplots()
    ax.errorbar(ratings["rating"].to_numpy(), y, xerr=_errors(ratings, "rating"), fmt="o",
                capsize=4)
    ax.axvline(0, color="black", linewidth=0.8, linestyle=":")
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel("rating (Elo scale, mean 0; 95% bootstrap interval over deals)")
    ax.set_title("Bradley-Terry ratings")
    return _save(fig, path)


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
    ax.set_xticks(x, [f"{v:g}" for v in values])
    ax.set_xlabel("net points in the hand")
    ax.set_ylabel("share of the strategy's hands")
    ax.legend(fontsize=8)
    ax.set_title("Points per hand")
    return _save(fig, path)


def plot_contest_by_rank(contest: pl.DataFrame, path: Path | str) -> Path:
    """Contest rate by face-up rank, a line per strategy; trump and non-trump prizes apart."""
    names = sorted(set(contest["strategy"].to_list()))
    fig = _figure(11, 4)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, trump in zip(axes, (False, True), strict=True):
        part = contest.filter(pl.col("trump_prize") == trump)
        for name in names:
            rows = part.filter(pl.col("strategy") == name).sort("rank_order")
            ax.plot(rows["rank_order"].to_numpy(), rows["contest_rate"].to_numpy(), marker="o",
                    label=name)
        ax.set_xticks(range(13), list(RANKS))
        ax.set_xlabel("rank of the face-up card at stake")
        ax.set_title("trump prize" if trump else "non-trump prize")
        ax.set_ylim(-0.02, 1.02)
    axes[0].set_ylabel("contest rate (when it could win)")
    axes[1].legend(fontsize=8)
    fig.suptitle("Contesting the face-up card")
    return _save(fig, path)


def plot_dealer(dealer: pl.DataFrame, path: Path | str) -> Path:
    """Win rate as dealer and as non-dealer per strategy, with 95% Wilson error bars."""
    names = sorted(set(dealer["strategy"].to_list()))
    x = np.arange(len(names))
    fig = _figure(max(5, 1.3 * len(names) + 2), 4)
    ax: Axes = fig.subplots()
    for k, role in enumerate(("dealer", "non-dealer")):
        rows = dealer.filter(pl.col("role") == role).sort("strategy")
        positions = np.array([names.index(n) for n in rows["strategy"]]) + (k - 0.5) * 0.4
        ax.bar(positions, rows["win_rate"].to_numpy(), 0.4, yerr=_errors(rows, "win_rate"),
               capsize=4, label=role)
    ax.axhline(0.5, color="black", linewidth=0.8, linestyle=":")
    ax.set_xticks(x, names, rotation=20)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.legend()
    ax.set_title("Dealer and non-dealer")
    return _save(fig, path)
