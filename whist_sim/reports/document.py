"""The pieces a report is made of: sections, display tables and number formatting.

Every section builder (the generic ones, each game's, the verdict) returns
:class:`Section` objects; ``page`` lays them out and ``render`` writes them as
Markdown and HTML. Kept apart from both so a section module needs nothing but
this one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.rounding import fmt, percent  # noqa: F401 - the sections' formatting


@dataclass
class Table:
    """A finished table for display: header and rows of already formatted text.

    Every table is also written whole, as CSV, beside the report (``tables/<name>.csv``)
    and linked from the page, which shows at most ``page.MAX_ROWS`` of its rows. A
    table that condenses a longer one for the page (a grid of make rates, say) names
    that one as ``details``: it is written as CSV and linked, never shown. A table with
    ``data`` (every table :func:`table_of` builds) is written from it, numbers and all;
    one without is written as the page prints it.
    """

    header: list[str]
    rows: list[list[str]]
    caption: str = ""
    name: str = ""
    """File name of its CSV, without ``.csv``; made from the section title and caption when
    empty. Explicit names keep the files stable from run to run (docs/reading-a-report.md
    lists them)."""
    details: Table | None = None
    """The whole table this one condenses for the page: CSV only, linked under this one."""
    data: pl.DataFrame | None = None
    """The numbers behind the rows, row for row, for the CSV: a script read
    ``0.512 [0.498, 0.526]`` from standings.csv as text and had to parse it back (a probe).
    Built by :func:`table_of` from what each cell prints (:class:`Cell`)."""

    def __post_init__(self) -> None:
        # a blank header cell reads as a stray empty row at the top of the table (it did in
        # the Settings table), and a Markdown table cannot go without a header row
        blank = [i for i, cell in enumerate(self.header) if not str(cell).strip()]
        if blank:
            raise ValueError(
                f"table {self.caption or self.name or self.header!r}: header cell"
                f" {blank[0] + 1} of {len(self.header)} is empty; name every column")
        wrong = [i for i, row in enumerate(self.rows) if len(row) != len(self.header)]
        if wrong:
            raise ValueError(
                f"table {self.caption or self.name or self.header!r}: row {wrong[0] + 1} has"
                f" {len(self.rows[wrong[0]])} cells for {len(self.header)} columns")
        if self.data is not None and self.data.height != len(self.rows):
            raise ValueError(
                f"table {self.caption or self.name or self.header!r}: {self.data.height} rows"
                f" of data for {len(self.rows)} rows of text")


@dataclass
class Section:
    """One section of the report: prose paragraphs (may use `code` spans), tables, figures."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    images: list[Path] = field(default_factory=list)


# -- formatting ---------------------------------------------------------------------------


NO_SPREAD = "[no spread]"
"""Shown for an interval of no width: every unit gave the same value (a mean of 9.00 from
two contracts of 9 units each), and ``[9.00, 9.00]`` read as certainty (a probe). Rates
never show it: they get Wilson's interval over their units instead."""


def fmt_ci(row: dict[str, Any], name: str, digits: int = 3) -> str:
    """``estimate [lo, hi]`` from columns ``name``, ``name_lo``, ``name_hi`` of a row;
    ``estimate [no spread]`` when the bounds meet (:data:`NO_SPREAD`)."""
    lo, hi = row.get(f"{name}_lo"), row.get(f"{name}_hi")
    if lo is None or hi is None or lo != lo or hi != hi:
        return fmt(row[name], digits)
    if hi - lo <= 1e-12 * max(1.0, abs(hi)):
        return f"{fmt(row[name], digits)} {NO_SPREAD}"
    digits = digits_to_show_estimate(row[name], lo, hi, digits_to_show_sign(lo, hi, digits))
    return f"{fmt(row[name], digits)} [{fmt(lo, digits)}, {fmt(hi, digits)}]"


MORE_DIGITS = 3
"""Decimals ``digits_to_show_sign`` may add to an interval's usual ones."""


def digits_to_show_sign(lo: float, hi: float, digits: int) -> int:
    """Decimals enough, up to ``MORE_DIGITS`` more than ``digits``, for an interval that
    lies on one side of zero to show it: a decided Solo difference of 0.001 to 0.075
    points read [0.00, 0.08], as if it touched zero (a probe)."""
    if not (lo > 0 or hi < 0):
        return digits
    for shown in range(digits, digits + MORE_DIGITS + 1):
        if float(fmt(lo, shown)) != 0 and float(fmt(hi, shown)) != 0:
            return shown
    return digits + MORE_DIGITS


def digits_to_show_estimate(value: Any, lo: float, hi: float, digits: int) -> int:
    """Decimals enough, up to ``MORE_DIGITS`` more than ``digits``, for an estimate that is
    not 0 to read as not 0 where its interval does not cross zero (a rate whose lower bound
    is cut at 0): a Solo bid rate of 2 bids in 4,000 seat-hands read ``2 · 0.000 [0.000,
    0.001]`` beside ``4 · 0.00100 [...]``, a count of bids at a rate of nothing (a probe).
    An estimate inside an interval that crosses zero may round to 0: it is as good as 0."""
    if not isinstance(value, float) or value != value or value == 0 or (lo < 0 < hi):
        return digits
    for shown in range(digits, digits + MORE_DIGITS + 1):
        if float(fmt(value, shown)) != 0:
            return shown
    return digits + MORE_DIGITS


@dataclass(frozen=True)
class Cell:
    """A cell function that knows which of the frame's columns it prints, so the table's
    CSV can hold them as they are: ``interval("net")`` prints ``net [net_lo, net_hi]`` on
    the page and writes the three columns, at full precision, to the CSV."""

    text: Callable[[dict], str]
    sources: tuple[str, ...]

    def __call__(self, row: dict) -> str:
        return self.text(row)


def table_of(df: pl.DataFrame, columns: Sequence[tuple[str, Callable[[dict], str]]],
             caption: str = "", name: str = "") -> Table:
    """A ``Table`` from a DataFrame: one (title, cell function) per column, and its
    :attr:`Table.data` for the CSV (:func:`csv_data`)."""
    rows = [[cell(row) for _, cell in columns] for row in df.iter_rows(named=True)]
    return Table([title for title, _ in columns], rows, caption, name,
                 data=csv_data(df, columns, rows))


def csv_data(df: pl.DataFrame, columns: Sequence[tuple[str, Callable[[dict], str]]],
             rows: list[list[str]]) -> pl.DataFrame:
    """The CSV's columns, in the page's order: a :class:`Cell`'s source columns as the
    frame holds them (named as the frame names them; an interval's bounds left out where
    the frame has none, as on the page), and any other cell as the text the page prints,
    under its title. Text too where a source is nested (a list: CSV cannot hold it). A
    column two cells print is written once."""
    parts: dict[str, pl.Series] = {}
    for i, (title, cell) in enumerate(columns):
        sources = ([name for name in cell.sources if name in df.columns]
                   if isinstance(cell, Cell) else [])
        if sources and sources[0] == cell.sources[0] and not any(
                df.schema[name].is_nested() for name in sources):
            for name in sources:
                parts.setdefault(name, df[name])
        else:
            label = title if title not in parts else f"{title} (as shown)"
            parts[label] = pl.Series(label, [row[i] for row in rows], pl.String)
    return pl.DataFrame(list(parts.values()))


NO_SPREAD_NOTE = (" A rate whose deal indices all gave the same value has no spread to"
                  " make a t-interval of: it gets Wilson's interval over the deal indices"
                  " instead, widened at a handful of them (docs/reading-a-report.md).")
"""What a section that says its intervals are t-intervals adds: a rate with no spread is
shown with another (a statistician's probe read "t-intervals" above Wilson's cells)."""


def tables_by(df: pl.DataFrame, key: str, columns: Sequence[tuple[str, Callable[[dict], str]]],
              caption: str, name: str, limit: int = 25) -> list[Table]:
    """One table of ``df``, or, if it has more than ``limit`` rows, one table per value of
    ``key`` (a strategy, say), so that the page's row cap never hides a whole strategy. The
    tables of the split are named ``<name>_<value>`` and captioned ``<caption>: <value>``;
    the whole table keeps ``name``, written as a CSV of its own (the first part's
    ``details``), so a script finds it under one name whatever the run's size (a Solo
    run's bidding CSV was one file in one run and one per strategy in another: a
    statistician's probe)."""
    whole = table_of(df, columns, caption, name)
    if df.height <= limit:
        return [whole]
    parts = [table_of(df.filter(pl.col(key) == value), columns, f"{caption}: {value}",
                      f"{name}_{value}")
             for value in df[key].unique(maintain_order=True)]
    parts[0].details = whole
    return parts


def column(name: str, digits: int = 3) -> Cell:
    """Cell function: column ``name`` formatted by :func:`fmt`."""
    return Cell(lambda row: fmt(row[name], digits), (name,))


def whole_or_column(df: pl.DataFrame, name: str, digits: int = 1) -> Cell:
    """Cell function: column ``name`` as whole numbers when every value of it in ``df`` is
    whole, else at ``digits`` decimals: one number of decimals for the column either way.
    Units paid at a stake of 1 read "214.0" (a probe); a fractional stake still shows its
    halves."""
    values = df[name].drop_nulls().cast(pl.Float64) if name in df.columns else pl.Series([])
    whole = bool(((values - values.round(0)).abs() < 1e-9).all()) if values.len() else False
    return column(name, 0 if whole else digits)


def interval(name: str, digits: int = 3) -> Cell:
    """Cell function: ``name`` with its interval, by :func:`fmt_ci`."""
    return Cell(lambda row: fmt_ci(row, name, digits), (name, f"{name}_lo", f"{name}_hi"))


def matrix(df: pl.DataFrame, value: Callable[[dict], str], caption: str, name: str = "") -> Table:
    """Row strategy x column opponent, cells from ``value``; "—" on the diagonal. Where
    ``value`` is a :class:`Cell` the CSV holds its numbers in the same grid: per opponent
    ``B`` the columns ``B``, ``B_lo``, ``B_hi`` of ``interval("share")`` (empty on the
    diagonal); as the page prints it where entrants' labels would make two columns of
    one name (``strategy``, or ``B`` beside ``B_lo``)."""
    names = sorted(set(df["strategy"].to_list()) | set(df["opponent"].to_list()))
    found = {(r["strategy"], r["opponent"]): r for r in df.iter_rows(named=True)}
    rows = [[a] + [value(found[a, b]) if (a, b) in found else "—" for b in names]
            for a in names]
    data = None
    if isinstance(value, Cell) and all(source in df.columns for source in value.sources):
        first = value.sources[0]
        data = grid_data(("strategy", names), [
            (f"{b}{source.removeprefix(first)}",
             [found[a, b][source] if (a, b) in found else None for a in names])
            for b in names for source in value.sources])
    return Table(["strategy \\ opponent", *names], rows, caption, name, data=data)


def grid_data(key: tuple[str, list[Any]], columns: list[tuple[str, list[Any]]]
              ) -> pl.DataFrame | None:
    """A grid's CSV columns (a head-to-head, Knock-out survival, German Whist's contests by
    rank): the key column, then each named column of the grid, as numbers (whole numbers
    where every value is one, as a count); None, for the page's text instead, where two
    would have one name (entrants labelled ``B`` and ``B_lo`` beside a ``B`` with its
    bounds ``B_lo``)."""
    names = [key[0], *(name for name, _ in columns)]
    if len(set(names)) < len(names):
        return None

    def numbers(name: str, values: list[Any]) -> pl.Series:
        counts = all(value is None or type(value) is int for value in values)
        return pl.Series(name, values, pl.Int64 if counts else pl.Float64)

    return pl.DataFrame([pl.Series(key[0], key[1]),
                         *(numbers(name, values) for name, values in columns)])


def count_interval(count: str, rate: str, digits: int = 3) -> Cell:
    """Cell function: ``count`` then the rate with its interval, ``12 · 0.250 [0.100, 0.400]``."""
    return Cell(lambda row: f"{fmt(row[count])} · {fmt_ci(row, rate, digits)}",
                (count, rate, f"{rate}_lo", f"{rate}_hi"))
