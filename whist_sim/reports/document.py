"""The pieces a report is made of: sections, display tables and number formatting.

Every section builder (the generic ones in ``build``, each game's, the verdict)
returns :class:`Section` objects; ``build`` renders them to Markdown and HTML.
Kept apart from ``build`` so a section module needs nothing but this one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl


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


def table_of(df: pl.DataFrame, columns: Sequence[tuple[str, Callable[[dict], str]]],
           caption: str = "") -> Table:
    """A ``Table`` from a DataFrame: one (title, cell function) per column."""
    rows = [[cell(row) for _, cell in columns] for row in df.iter_rows(named=True)]
    return Table([title for title, _ in columns], rows, caption)


def column(name: str, digits: int = 3) -> Callable[[dict], str]:
    """Cell function: column ``name`` formatted by :func:`fmt`."""
    return lambda row: fmt(row[name], digits)


def interval(name: str, digits: int = 3) -> Callable[[dict], str]:
    """Cell function: ``name`` with its interval, by :func:`fmt_ci`."""
    return lambda row: fmt_ci(row, name, digits)


def matrix(df: pl.DataFrame, value: Callable[[dict], str], caption: str) -> Table:
    """Row strategy x column opponent, cells from ``value``; "—" on the diagonal."""
    names = sorted(set(df["strategy"].to_list()) | set(df["opponent"].to_list()))
    cells = {(r["strategy"], r["opponent"]): value(r) for r in df.iter_rows(named=True)}
    rows = [[a] + [cells.get((a, b), "—") for b in names] for a in names]
    return Table(["strategy \\ opponent", *names], rows, caption)
